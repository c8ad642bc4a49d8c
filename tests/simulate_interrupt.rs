//! Ctrl-C during `roots simulate --out FILE`: the file stays valid, holding
//! whole rows of the games completed, in game order; the report for those
//! games is printed; the exit code is 130.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn ctrl_c_leaves_a_valid_file_and_a_report_of_the_games_played() {
    let dir = std::env::temp_dir().join(format!("roots-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.csv");
    let child = Command::new(env!("CARGO_BIN_EXE_roots"))
        .args([
            "simulate",
            "--games",
            "100000000",
            "--seed",
            "11",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Wait until some games are written, then interrupt.
    let started = Instant::now();
    while std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0) < 2000 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(130),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );

    // The message says how many games the report covers.
    let n: u64 = stderr
        .split("the report covers the first ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no interruption message in:\n{stderr}"));
    assert!(n > 0 && n < 100_000_000, "{n}");
    assert!(
        stdout.contains(&format!("{n} games")),
        "the report covers {n} games:\n{stdout}"
    );

    // The file: a header and exactly n whole rows, games 0..n in order.
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'), "the last row is whole");
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("game,"), "{header}");
    let columns = header.split(',').count();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len() as u64, n);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.split(',').count(), columns, "row {i} is whole");
        assert_eq!(
            row.split(',').next(),
            Some(i.to_string().as_str()),
            "rows in game order"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
