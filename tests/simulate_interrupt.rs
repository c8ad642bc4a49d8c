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
            "--bots",
            "random",
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

/// Whether the process of `status_file` (`/proc/PID/status`) catches
/// signal `number`: its bit of the `SigCgt` mask.
fn catches(status_file: &str, number: u32) -> bool {
    let Ok(text) = std::fs::read_to_string(status_file) else {
        return false;
    };
    text.lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|hex| u64::from_str_radix(hex.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (number - 1)) != 0)
}

/// Start `roots ARGS`, wait `after`, send SIGINT `times` times (10 ms
/// apart), and return (exit code, stdout, stderr).
fn interrupt(
    args: &[&str],
    wait_for: impl Fn(u32) -> bool,
    times: usize,
) -> (Option<i32>, String, String) {
    signal(args, wait_for, times, "INT", 2, Duration::ZERO)
}

/// [`interrupt`] with the signal `name`, numbered `number`: `TERM` (15)
/// from `timeout`, Slurm or Kubernetes, `HUP` (1) from a closed terminal;
/// `gap` between two signals (back to back, the kernel may merge them).
fn signal(
    args: &[&str],
    wait_for: impl Fn(u32) -> bool,
    times: usize,
    name: &str,
    number: u32,
    gap: Duration,
) -> (Option<i32>, String, String) {
    // ROOTS_BIN: another build, to show a test fails before its fix.
    let bin = std::env::var("ROOTS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_roots").to_owned());
    let child = Command::new(bin)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while !wait_for(child.id()) {
        assert!(started.elapsed() < Duration::from_secs(120), "never ready");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Wait until the process catches the signal at all: before that it is
    // the kernel's default action, not ours.
    let status_file = format!("/proc/{}/status", child.id());
    while !catches(&status_file, number) {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "SIG{name} never caught"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    // Back to back: the second arrives while the first is being handled.
    for i in 0..times {
        if i > 0 {
            std::thread::sleep(gap);
        }
        let status = Command::new("kill")
            .args([&format!("-{name}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn after(ms: u64) -> impl Fn(u32) -> bool {
    let start = Instant::now();
    move |_| start.elapsed() >= Duration::from_millis(ms)
}

/// Ready once the process `pid` has used `ms` of CPU time (user + system,
/// from `/proc/PID/stat`): a point in its work that a loaded machine does
/// not move, as it moves a wall-clock wait.
fn cpu_used(ms: u64) -> impl Fn(u32) -> bool {
    // SAFETY: sysconf only reads a system constant.
    let ticks = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100);
    move |pid| {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        // The fields after the command's name (in parentheses, which may
        // hold spaces): state is field 3, utime 14, stime 15.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            return false;
        };
        let fields: Vec<u64> = rest
            .split_whitespace()
            .skip(11)
            .take(2)
            .filter_map(|f| f.parse().ok())
            .collect();
        fields.len() == 2 && (fields[0] + fields[1]) * 1000 >= ms * ticks
    }
}

/// Ctrl-C during `compare` exited 0 and reported side B, with 0 games, as
/// "no clear difference".
#[test]
fn ctrl_c_during_compare_is_a_partial_report_and_exit_130() {
    let (code, stdout, stderr) = interrupt(
        &[
            "compare",
            "standard",
            // Not the same rules: those are not played.
            "more-beads",
            "-n",
            "100000000",
            "--bots",
            "random",
            "--seed",
            "1",
            "--jobs",
            "2",
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    assert!(stderr.contains("interrupted: partial:"), "{stderr}");
    assert!(!stdout.contains("no clear difference"), "{stdout}");
}

/// Ctrl-C during `sweep` exited 0 and showed the later values with 0 games.
#[test]
fn ctrl_c_during_sweep_is_a_partial_report_and_exit_130() {
    let (code, stdout, stderr) = interrupt(
        &[
            "sweep",
            "standard",
            "--set",
            "beads.supply=30..120:10",
            "-n",
            "100000000",
            "--bots",
            "random",
            "--seed",
            "1",
            "--format",
            "csv",
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    assert!(
        stderr.contains("interrupted: partial: 1 of 10 values"),
        "{stderr}"
    );
    // A header, the partial marker and the one value played, no row of 0 games.
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    let second = stdout.lines().nth(1).unwrap_or("");
    assert!(
        second.starts_with("partial: interrupted,values_asked,10,"),
        "{stdout}"
    );
}

/// Ctrl-C in `simulate`'s first milliseconds killed it with no report.
#[test]
fn ctrl_c_at_the_start_of_simulate_is_a_partial_report_and_exit_130() {
    let dir = std::env::temp_dir().join(format!("roots-interrupt0-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.csv");
    let path = out.to_string_lossy().into_owned();
    let (code, stdout, stderr) = interrupt(
        &[
            "simulate",
            "-n",
            "100000000",
            "--bots",
            "random",
            "--seed",
            "1",
            "--jobs",
            "2",
            "--out",
            &path,
        ],
        after(0),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    assert!(
        stderr.contains("interrupted: the report covers the first"),
        "{stderr}"
    );
    // The file holds its header (and whole rows, if any game finished).
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("game,") && text.ends_with('\n'), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A second Ctrl-C exited at once: no report, and rows of finished games
/// still in the buffer were lost (an empty `--out`).
#[test]
fn a_second_ctrl_c_keeps_the_rows_and_the_report() {
    let dir = std::env::temp_dir().join(format!("roots-interrupt2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.csv");
    let path = out.to_string_lossy().into_owned();
    let watched = out.clone();
    let (code, stdout, stderr) = interrupt(
        &[
            "simulate",
            "-n",
            "100000000",
            "--bots",
            "random",
            "--seed",
            "11",
            "--jobs",
            "2",
            "--out",
            &path,
        ],
        move |_| std::fs::metadata(&watched).map(|m| m.len()).unwrap_or(0) >= 2000,
        2,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    let n: usize = stderr
        .split("the report covers the first ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no interruption message in:\n{stderr}"));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count(), n + 1, "a header and {n} rows");
    std::fs::remove_dir_all(&dir).ok();
}

/// The report of an interrupted compare said nothing on stdout of being
/// partial (only a line on stderr): a report piped to a file looked whole.
#[test]
fn an_interrupted_compare_says_partial_in_the_report_itself() {
    for format in ["table", "json"] {
        let (code, stdout, stderr) = interrupt(
            &[
                "compare",
                "btt",
                "btt-arcade",
                "-n",
                "100000000",
                "--seed",
                "1",
                "--jobs",
                "2",
                "--format",
                format,
            ],
            after(1500),
            1,
        );
        assert_eq!(code, Some(130), "{stdout}{stderr}");
        if format == "table" {
            assert!(
                stdout.starts_with("PARTIAL REPORT: interrupted after "),
                "{stdout}"
            );
        } else {
            let doc: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
            assert_eq!(doc["partial"]["interrupted"], true, "{stdout}");
            assert_eq!(doc["partial"]["games_asked"], 100_000_000u64);
        }
    }
}

/// The same for simulate (CSV: its first row) and sweep (its table).
#[test]
fn an_interrupted_simulate_or_sweep_says_partial_in_the_report_itself() {
    let (code, stdout, stderr) = interrupt(
        &[
            "simulate",
            "sprout-r-out",
            "-n",
            "100000000",
            "--seed",
            "1",
            "--format",
            "csv",
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    let second = stdout.lines().nth(1).unwrap_or("");
    assert!(
        second.starts_with("partial: interrupted,games_asked,100000000"),
        "{stdout}"
    );
    let (code, stdout, stderr) = interrupt(
        &[
            "sweep",
            "standard",
            "--set",
            "beads.supply=30..120:10",
            "-n",
            "100000000",
            "--seed",
            "1",
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    assert!(
        stdout.starts_with("PARTIAL SWEEP: interrupted after 1 of 10 values"),
        "{stdout}"
    );
    // The JSON document says it too.
    let (code, stdout, stderr) = interrupt(
        &[
            "sweep",
            "standard",
            "--set",
            "beads.supply=30..120:10",
            "-n",
            "100000000",
            "--seed",
            "1",
            "--format",
            "json",
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(doc["partial"]["interrupted"], true, "{stdout}");
    assert_eq!(doc["partial"]["values_asked"], 10, "{stdout}");
}

/// An interrupted sweep's picture and an interrupted tune's variant file
/// did not say they were partial, as the text reports did (issue #27 D11).
#[test]
fn an_interrupted_sweep_s_picture_and_tune_s_file_say_partial() {
    let dir = std::env::temp_dir().join(format!("roots-interrupt-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("sweep.svg");
    let (code, stdout, stderr) = interrupt(
        &[
            "sweep",
            "standard",
            "--set",
            "beads.supply=30..120:10",
            "-n",
            "100000000",
            "--bots",
            "random",
            "--seed",
            "1",
            "--svg",
            svg.to_str().expect("utf-8"),
        ],
        after(1500),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    let picture = std::fs::read_to_string(&svg).expect("the picture is written");
    assert!(
        picture.contains("PARTIAL: interrupted after 1 of 10 values"),
        "{picture}"
    );
    let best = dir.join("best.toml");
    let (code, stdout, stderr) = interrupt(
        &[
            "tune",
            "standard",
            "--bots",
            "random",
            "--vary",
            "beads.supply=20..80:2",
            "--target",
            "rounds=25",
            "--budget",
            "100000000",
            "-n",
            "100",
            "--seed",
            "3",
            "--write",
            best.to_str().expect("utf-8"),
        ],
        after(3000),
        1,
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    let text = std::fs::read_to_string(&best).expect("the best so far is written");
    assert!(
        text.starts_with("# PARTIAL: the tune was interrupted"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM (from `timeout`, Slurm, Kubernetes, systemd) and SIGHUP stop a
/// run as a Ctrl-C does (issue #50): the games under way finish, the
/// partial report is printed, the exit is 128 + the signal. A second
/// SIGTERM while the run stops only says so: the report still comes.
#[test]
fn sigterm_and_sighup_stop_a_run_as_ctrl_c_does() {
    let run = [
        "simulate",
        "-n",
        "100000000",
        "--bots",
        "random",
        "--seed",
        "1",
        "--jobs",
        "2",
        "--format",
        "json",
    ];
    for (name, number, code) in [("TERM", 15, 143), ("HUP", 1, 129)] {
        let (got, stdout, stderr) = signal(&run, after(300), 1, name, number, Duration::ZERO);
        assert_eq!(got, Some(code), "SIG{name}: {stdout}{stderr}");
        assert!(
            stderr.contains("interrupted: the report covers the first"),
            "SIG{name}: {stderr}"
        );
        let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
        assert!(report.get("partial").is_some(), "SIG{name}: {stdout}");
    }
    // A second SIGTERM while the games under way finish (slow bots: the
    // first game takes more than 1.5 s of CPU in a release build) only says
    // so; the report still comes. Both signals come early in the first
    // game: after 0.3 s of the run's CPU time, then 0.2 s apart (a wait of
    // 1.5 s of wall-clock time sent them near that game's end on an idle
    // machine, and the second sometimes found the run over).
    let slow = [
        "simulate",
        "-n",
        "1000",
        "--bots",
        "mcts:2000",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--format",
        "json",
    ];
    let (got, stdout, stderr) = signal(
        &slow,
        cpu_used(300),
        2,
        "TERM",
        15,
        Duration::from_millis(200),
    );
    assert_eq!(got, Some(143), "{stdout}{stderr}");
    assert!(
        stderr.contains("already stopping: finishing the games under way"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    assert!(report.get("partial").is_some(), "{stdout}");
}

/// A shard stopped by SIGTERM writes its part, marked interrupted (it lost
/// every game before issue #50), and `merge` refuses it: run the shard
/// again (with `--checkpoint`, from where it stopped:
/// `tests/preemptible_shards.rs`).
#[test]
fn a_shard_stopped_by_sigterm_writes_its_part_marked_interrupted() {
    let shard = [
        "simulate",
        "-n",
        "100000000",
        "--bots",
        "random",
        "--seed",
        "1",
        "--jobs",
        "2",
        "--shard",
        "1/2",
    ];
    let (code, stdout, stderr) = signal(&shard, after(300), 1, "TERM", 15, Duration::ZERO);
    assert_eq!(code, Some(143), "{stderr}");
    let part = roots::sim::shard::Partial::read("part", stdout.as_bytes()).expect("a part");
    assert!(part.interrupted, "{stdout}");
    let dir = std::env::temp_dir().join(format!("roots-sigterm-part-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("part-1.json");
    std::fs::write(&path, &stdout).unwrap();
    let merged = Command::new(env!("CARGO_BIN_EXE_roots"))
        .arg("merge")
        .arg(&path)
        .output()
        .expect("the binary runs");
    let said = String::from_utf8_lossy(&merged.stderr);
    assert_eq!(merged.status.code(), Some(1), "{said}");
    assert!(said.contains("was interrupted"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
