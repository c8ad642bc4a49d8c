//! `roots simulate --record-game N`: game N of a run as a record that
//! replays, without a warning, to the row `--out` gives for game N.

use crate::common;

use common::roots;

#[test]
fn a_recorded_game_of_a_run_replays_to_its_row() {
    let dir = std::env::temp_dir().join(format!("roots-simrec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("g3.jsonl");
    let rows = dir.join("rows.jsonl");
    let r = roots(&[
        "simulate",
        "-n",
        "5",
        "--seed",
        "9",
        "--bots",
        "greedy,random",
        "--record-game",
        "3",
        "--record",
        record.to_str().unwrap(),
        "--out",
        rows.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let header = std::fs::read_to_string(&record).unwrap();
    assert!(
        header.contains("\"seed\":9,\"seed_game\":3,"),
        "{}",
        &header[..200.min(header.len())]
    );
    let replay = roots(&["replay", record.to_str().unwrap(), "--format", "json"]);
    assert_eq!(replay.code, 0);
    assert!(!replay.stderr.contains("warning"), "{}", replay.stderr);
    let row: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&rows)
            .unwrap()
            .lines()
            .nth(3)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(row["game"], 3);
    assert_eq!(replay.json()["scores"], row["scores"]);
    let bad = roots(&["simulate", "-n", "5", "--record-game", "5"]);
    assert_eq!(bad.code, 2, "{}", bad.transcript());
    let _ = std::fs::remove_dir_all(&dir);
}
