//! `roots compare` on matched games: the pairs are the unit of the
//! analysis (issue #49), identical rules are recognised and not played,
//! and parts of a sharded compare carry the pairs.

use crate::common;

use common::roots;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-paired-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn difference<'a>(report: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    report["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .find(|d| d["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {report}"))
}

/// The case: 986 of 1,000 pairs are identical, so seat 1's share
/// is "the same within" its margin, from an interval far narrower than
/// the unpaired one (about ±6 points).
#[test]
fn more_beads_is_the_same_for_seat_1_from_the_pairs() {
    let run = roots(&[
        "compare",
        "standard",
        "more-beads",
        "-n",
        "1000",
        "--seed",
        "11",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["analysis"]["method"], "paired");
    assert_eq!(v["analysis"]["pairs"], 1000);
    assert_eq!(v["analysis"]["identical_pairs"], 986);
    let share = difference(&v, "first-player-advantage");
    assert_eq!(share["verdict"], "same", "{share}");
    let width = share["high"].as_f64().unwrap() - share["low"].as_f64().unwrap();
    assert!(width < 0.01, "{share}");
    // The design measures stay independent samples (a family of their own).
    let table = roots(&[
        "compare",
        "standard",
        "more-beads",
        "-n",
        "1000",
        "--seed",
        "11",
    ]);
    assert!(
        table.stdout.contains("986 of 1,000 pairs alike"),
        "{}",
        table.stdout
    );
}

/// The same rules under any name: not played, said at the top, exit 0,
/// and a field in JSON. A script is a rule: a variant that adds one is not
/// the same game.
#[test]
fn the_same_rules_are_recognised_and_not_played() {
    let dir = temp_dir("same");
    let copy = dir.join("copy.toml");
    std::fs::write(
        &copy,
        "extends = \"standard\"\nname = \"my-copy\"\ndescription = \"the standard rules, renamed\"\n",
    )
    .expect("write copy");
    let copy = copy.to_string_lossy().into_owned();
    for args in [
        vec!["compare", "standard", "standard"],
        vec![
            "compare",
            "standard",
            "standard",
            "--set",
            "nutrients.supply=40",
        ],
        vec!["compare", "standard", copy.as_str()],
    ] {
        let run = roots(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.transcript());
        assert!(
            run.stdout.contains("the same game: no rule differs"),
            "{args:?}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains("not decided"), "{}", run.stdout);
        assert!(!run.stderr.contains("seed"), "played: {}", run.stderr);
    }
    let json = roots(&["compare", "standard", "standard", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(json.json()["same_game"], true);
    // A house rule written as a script differs from its parent.
    let scripted = roots(&[
        "compare",
        "standard",
        "variants/reroll-ones.toml",
        "-n",
        "4",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(scripted.code, 0, "{}", scripted.stderr);
    assert!(scripted.json().get("same_game").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Variants that differ only in how many may play are the same game at a
/// count both admit: `rgr-2p` only lowers `players.max` to 2.
#[test]
fn a_range_of_players_alone_is_the_same_game_at_a_count_both_admit() {
    let run = roots(&["compare", "roots-growy-roots", "rgr-2p"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("the same game at 2 players: only `players.max` differs"),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("seed"), "played: {}", run.stderr);
    let json = roots(&["compare", "roots-growy-roots", "rgr-2p", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v = json.json();
    assert_eq!(v["same_game"], true);
    assert_eq!(v["changed"], serde_json::json!(["players.max"]));
    assert_eq!(v["players"], 2);
    // A range that also changes a rule is played.
    let other = roots(&[
        "compare",
        "roots-growy-roots",
        "rgr-2p",
        "--set",
        "artifacts.abilities=true",
        "-n",
        "4",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    assert!(other.json().get("same_game").is_none(), "{}", other.stdout);
    // At 3 players `rgr-2p` cannot play: an error, not "the same game".
    let three = roots(&["compare", "roots-growy-roots", "rgr-2p", "-p", "3"]);
    assert_ne!(three.code, 0, "{}", three.stdout);
    assert!(three.stderr.contains("rgr-2p"), "{}", three.stderr);
}

/// `--independent`: B plays its own seeds, so equal rules are played and
/// their games differ; the analysis is still of pairs (independent ones).
#[test]
fn independent_sides_play_the_same_rules_on_other_seeds() {
    let run = roots(&[
        "compare",
        "standard",
        "standard",
        "--independent",
        "-n",
        "40",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["analysis"]["independent_seeds"], true);
    assert_eq!(v["analysis"]["pairs"], 40);
    assert!(
        v["analysis"]["identical_pairs"].as_u64().unwrap() < 10,
        "{v}"
    );
    assert_ne!(v["a"]["seed"], v["b"]["seed"]);
}

/// A part of `compare --shard` carries the pairs; one without them (a part
/// of a version before paired analysis) is refused by name, not merged
/// into an unpaired report.
#[test]
fn a_compare_part_without_pairs_is_refused() {
    let dir = temp_dir("parts");
    let mut names = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let run = roots(&[
            "compare",
            "standard",
            "fewer-beads",
            "-n",
            "30",
            "--seed",
            "3",
            "--shard",
            &shard,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut part: roots::sim::shard::Partial =
            serde_json::from_str(&run.stdout).expect("a part");
        assert_eq!(part.pairs.as_ref().map(|p| p.pairs), Some(15));
        if k == 2 {
            part.pairs = None;
        }
        let path = dir.join(format!("part-{k}.json"));
        std::fs::write(&path, part.to_text()).expect("write part");
        names.push(path.to_string_lossy().into_owned());
    }
    let merged = roots(&["merge", &names[0], &names[1]]);
    assert_eq!(merged.code, 1, "{}", merged.transcript());
    assert!(
        merged.stderr.contains("shard 2/2") && merged.stderr.contains("no paired sums"),
        "{}",
        merged.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `simulate --trace-measures`: each game's row of the `--out` file holds
/// its measures and the rows of win chances they came from, and "winner
/// behind" and "favourite changes" recomputed here from the rows alone
/// (by the formulas of docs/statistics.md) equal the game's own.
#[test]
fn the_measures_can_be_recomputed_from_the_trace() {
    let dir = temp_dir("trace");
    let out = dir.join("games.jsonl");
    let run = roots(&[
        "simulate",
        "standard",
        "-n",
        "12",
        "--seed",
        "5",
        "-q",
        "--out",
        out.to_str().unwrap(),
        "--trace-measures",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&out).expect("the --out file");
    let mut checked = 0;
    for line in text.lines() {
        let g: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let rows: Vec<Vec<f64>> = serde_json::from_value(g["chances"].clone()).expect("chances");
        let top: Vec<usize> = serde_json::from_value(g["top"].clone()).expect("top");
        let m = &g["measures"];
        assert!(rows.len() >= 2, "{g}");
        // The sole leader of a row (none when the highest chance is shared).
        let leader = |r: &[f64]| {
            let best = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let at: Vec<usize> = (0..r.len()).filter(|&s| r[s] >= best - 1e-12).collect();
            (at.len() == 1).then(|| at[0])
        };
        // The last row is the outcome: the seats on top share the game.
        let last = rows.last().unwrap();
        for (s, p) in last.iter().enumerate() {
            let want = if top.contains(&(s + 1)) {
                1.0 / top.len() as f64
            } else {
                0.0
            };
            assert!((p - want).abs() < 1e-12, "{g}");
        }
        // Favourite changes: rows whose sole leader differs from the
        // previous row's (both led by someone) / (rows - 1).
        let leaders: Vec<Option<usize>> = rows.iter().map(|r| leader(r)).collect();
        let changes = leaders
            .windows(2)
            .filter(|w| w[0].is_some() && w[1].is_some() && w[0] != w[1])
            .count();
        let want = changes as f64 / (rows.len() - 1) as f64;
        let got = m["favourite_changes"].as_f64().expect("favourite_changes");
        assert!((got - want).abs() < 1e-9, "favourite changes {got} {want}");
        // Winner behind: rows before the outcome at which the sole winner
        // was not the sole leader / those rows; undefined on a tie.
        match top.as_slice() {
            [w] => {
                let live = &leaders[..leaders.len() - 1];
                let behind = live.iter().filter(|l| **l != Some(w - 1)).count();
                let want = behind as f64 / live.len() as f64;
                let got = m["winner_behind"].as_f64().expect("winner_behind");
                assert!((got - want).abs() < 1e-9, "winner behind {got} {want}");
                checked += 1;
            }
            _ => assert!(m["winner_behind"].is_null(), "{g}"),
        }
    }
    assert!(checked >= 10, "{checked} games with a winner of 12");
    // CSV has no room for the rows: refused, saying why.
    let csv = dir.join("games.csv");
    let run = roots(&[
        "simulate",
        "-n",
        "2",
        "-q",
        "--out",
        csv.to_str().unwrap(),
        "--trace-measures",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--trace-measures"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(dir);
}
