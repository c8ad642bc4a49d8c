//! Hostile input, round three (issue #27): external players that leave
//! processes behind, merges of edited or corrupted parts, failed writes,
//! the engine's memory, control characters, and the small defects D6-D14.
//! Through the real binary; `docs/hostile-inputs.md` names these tests.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use roots::sim::shard::{Partial, checksum};

use crate::common;
use common::{Run, roots_in, tmp_dir};

const BIN: &str = env!("CARGO_BIN_EXE_roots");

// ---------------------------------------------------------------- processes

/// A marker no other process has: `sleep 3600.MARKER` is how the test's
/// bots' leftovers are recognised in /proc.
fn marker() -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{}{:04}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed) + 1
    )
}

/// How many processes have `mark` in their command line.
fn alive(mark: &str) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) {
            // A zombie has an empty command line: it holds nothing.
            if String::from_utf8_lossy(&cmd).contains(mark) {
                n += 1;
            }
        }
    }
    n
}

/// Wait until `alive(mark)` is `want` (at most `secs`), and say what it is.
fn settle(mark: &str, want: usize, secs: u64) -> usize {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let n = alive(mark);
        if n == want || Instant::now() > until {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A bot (a Python script in `dir`) that first starts two background
/// `sleep`s marked `mark` (a child and, through a shell, a grandchild),
/// then behaves as `how`: `legal` plays the first legal action, `hang`
/// never answers, `illegal` answers nonsense.
fn bot(dir: &Path, mark: &str, how: &str) -> String {
    let path = dir.join(format!("bot-{how}.py"));
    std::fs::write(
        &path,
        format!(
            r#"import json, subprocess, sys
subprocess.Popen(["sleep", "3600.{mark}"])
subprocess.Popen(["sh", "-c", "sleep 3601.{mark}; true"])
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("player") != "move":
        continue
    how = "{how}"
    if how == "hang":
        while True:
            pass
    if how == "illegal":
        print(json.dumps({{"action": "\u001b]0;pwned\u0007 nonsense"}}), flush=True)
        continue
    print(json.dumps({{"action": msg["state"]["legal"][0]}}), flush=True)
"#
        ),
    )
    .expect("write bot");
    format!("cmd:python3 {}", path.display())
}

#[test]
fn an_external_player_leaves_no_process_at_game_end() {
    let dir = tmp_dir("hostile3", "procs-end");
    let mark = marker();
    let b = bot(&dir, &mark, "legal");
    let out = roots_in(
        &dir,
        &[
            "simulate",
            "btt",
            "-n",
            "3",
            "--seed",
            "1",
            "--bots",
            &format!("{b},random"),
            "-j",
            "1",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("forfeit"), "{}", out.stdout);
    assert_eq!(
        settle(&mark, 0, 3),
        0,
        "processes left after 3 games played to the end"
    );
}

#[test]
fn an_external_player_leaves_no_process_on_timeout_or_forfeit() {
    let dir = tmp_dir("hostile3", "procs-forfeit");
    for how in ["hang", "illegal"] {
        let mark = marker();
        let b = bot(&dir, &mark, how);
        let start = Instant::now();
        let out = roots_in(
            &dir,
            &[
                "simulate",
                "btt",
                "-n",
                "2",
                "--seed",
                "1",
                "--bots",
                &format!("{b},random"),
                "--cmd-timeout",
                "1",
                "-j",
                "1",
            ],
            "",
        );
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{how}: took {:?}",
            start.elapsed()
        );
        assert!(
            out.stdout.contains("forfeit") || out.stderr.contains("forfeit"),
            "{how}: {}{}",
            out.stdout,
            out.stderr
        );
        assert_eq!(settle(&mark, 0, 3), 0, "{how}: processes left behind");
        // The bot's answer reaches the terminal escaped (D9).
        assert!(
            !out.stderr.contains('\u{1b}') && !out.stdout.contains('\u{1b}'),
            "{how}: raw ESC"
        );
    }
}

#[test]
fn an_external_player_leaves_no_process_after_an_error() {
    let dir = tmp_dir("hostile3", "procs-error");
    let mark = marker();
    let b = bot(&dir, &mark, "legal");
    let out = roots_in(
        &dir,
        &[
            "simulate",
            "btt",
            "-n",
            "2",
            "--seed",
            "1",
            "--bots",
            &format!("{b},random"),
            "--out",
            "/dev/full",
            "-j",
            "1",
        ],
        "",
    );
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert_eq!(settle(&mark, 0, 3), 0, "processes left after a failed run");
}

/// Start `roots ARGS` with a hanging bot, wait until its marked processes
/// run, send SIGINT; count what is left.
fn ctrl_c_leaves(args: &[&str], dir: &Path, mark: &str) -> (i32, usize) {
    let mut child: Child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // sleep, sh -c "sleep; true" and its sleep.
    assert_eq!(settle(mark, 3, 20), 3, "the bot's processes did not start");
    // After the handler is installed (the bot runs: it is).
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let until = Instant::now() + Duration::from_secs(20);
    let code = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s.code().unwrap_or(-1);
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("roots did not end after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (code, settle(mark, 0, 3))
}

#[test]
fn an_external_player_leaves_no_process_after_ctrl_c() {
    let dir = tmp_dir("hostile3", "procs-ctrl-c");
    // `play`: ends at once, its players with it.
    let mark = marker();
    let b = bot(&dir, &mark, "hang");
    let players = format!("{b},random");
    let (code, left) = ctrl_c_leaves(
        &[
            "play",
            "btt",
            "--players",
            &players,
            "--seed",
            "1",
            "--cmd-timeout",
            "60",
            "--record",
            "r.jsonl",
        ],
        &dir,
        &mark,
    );
    assert_eq!((code, left), (130, 0), "play");
    // `simulate`: the game under way ends (the bot's time runs out), then
    // the partial report.
    let mark = marker();
    let b = bot(&dir, &mark, "hang");
    let bots = format!("{b},random");
    let (code, left) = ctrl_c_leaves(
        &[
            "simulate",
            "btt",
            "-n",
            "5",
            "--bots",
            &bots,
            "--seed",
            "1",
            "--cmd-timeout",
            "2",
            "-j",
            "1",
        ],
        &dir,
        &mark,
    );
    assert_eq!((code, left), (130, 0), "simulate");
}

// ---------------------------------------------------------------- merge

/// The two parts of `simulate -n 40 --seed 3 --shard K/2`, and the report
/// of the whole run.
fn parts(dir: &Path) -> (String, String, String) {
    let mut texts = Vec::new();
    for k in 1..=2 {
        let out = roots_in(
            dir,
            &[
                "simulate",
                "-n",
                "40",
                "--seed",
                "3",
                "--shard",
                &format!("{k}/2"),
                "-q",
            ],
            "",
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        texts.push(out.stdout);
    }
    let whole = roots_in(dir, &["simulate", "-n", "40", "--seed", "3", "-q"], "");
    assert_eq!(whole.code, 0);
    (texts.remove(0), texts.remove(0), whole.stdout)
}

fn merge(dir: &Path, files: &[(&str, &[u8])]) -> Run {
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("write part");
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let mut args = vec!["merge"];
    args.extend(names);
    roots_in(dir, &args, "")
}

/// A part's text with its checksum computed again (as a forger would).
fn resealed(text: &str) -> String {
    let body = text.trim_end_matches('\n');
    let at = body.rfind(",\"checksum\":\"").expect("checksum key");
    let head = format!("{}\"}}", &body[..at + ",\"checksum\":\"".len()]);
    let sum = checksum(head.as_bytes());
    format!("{}{sum}\"}}\n", &head[..head.len() - 2])
}

#[test]
fn merge_of_good_parts_is_the_whole_run() {
    let dir = tmp_dir("hostile3", "merge-good");
    let (a, b, whole) = parts(&dir);
    let out = merge(&dir, &[("b.json", b.as_bytes()), ("a.json", a.as_bytes())]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, whole);
    // Resealing an untouched part changes nothing.
    assert_eq!(resealed(&a), a);
}

#[test]
fn every_one_byte_corruption_of_a_part_is_refused() {
    let dir = tmp_dir("hostile3", "merge-bytes");
    let (a, _, _) = parts(&dir);
    let bytes = a.as_bytes();
    let mut accepted = Vec::new();
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x20] {
            let mut c = bytes.to_vec();
            c[i] ^= flip;
            if Partial::read("p", &c).is_ok() {
                accepted.push((i, flip));
            }
        }
    }
    assert!(accepted.is_empty(), "corruptions accepted at {accepted:?}");
    // Cut anywhere: refused.
    for n in [0, 1, 100, bytes.len() / 2, bytes.len() - 3, bytes.len() - 2] {
        assert!(Partial::read("p", &bytes[..n]).is_err(), "cut to {n} bytes");
    }
}

#[test]
fn merge_refuses_edited_cut_duplicated_missing_and_foreign_parts() {
    let dir = tmp_dir("hostile3", "merge-refused");
    let (a, b, _) = parts(&dir);
    let case = |files: &[(&str, &[u8])], code: i32, says: &str| {
        let out = merge(&dir, files);
        assert_eq!(out.code, code, "{says}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains(says),
            "expected `{says}` in: {}",
            out.stderr
        );
        assert!(
            out.stdout.is_empty(),
            "a report was printed: {}",
            out.stdout
        );
    };
    // An edited count (a seat's wins) without a new checksum.
    let edited = a.replacen("\"ties\":", "\"ties\":1", 1);
    case(
        &[("a.json", edited.as_bytes()), ("b.json", b.as_bytes())],
        1,
        "checksum does not match",
    );
    // Cut to 1,024 bytes (a full disk).
    case(
        &[
            ("a.json", &a.as_bytes()[..1024.min(a.len() - 5)]),
            ("b.json", b.as_bytes()),
        ],
        1,
        "a.json",
    );
    // The same shard twice; a shard missing.
    case(
        &[("a.json", a.as_bytes()), ("a2.json", a.as_bytes())],
        1,
        "exactly once",
    );
    case(&[("a.json", a.as_bytes())], 1, "give every shard");
    // A shard of another run (another seed).
    let other = roots_in(
        &dir,
        &[
            "simulate", "-n", "40", "--seed", "4", "--shard", "2/2", "-q",
        ],
        "",
    )
    .stdout;
    case(
        &[("a.json", a.as_bytes()), ("o.json", other.as_bytes())],
        1,
        "not a shard of the same run",
    );
    // Another version of roots, checksum recomputed.
    let old = resealed(&a.replace(
        &format!("\"program\":\"roots {}\"", env!("CARGO_PKG_VERSION")),
        "\"program\":\"roots 0.0.1\"",
    ));
    case(
        &[("a.json", old.as_bytes()), ("b.json", b.as_bytes())],
        1,
        "written by roots 0.0.1",
    );
    // Totals that do not add up, checksum recomputed: more wins than games.
    let forged = resealed(&a.replacen("\"seat_wins\":[", "\"seat_wins\":[9", 1));
    case(
        &[("a.json", forged.as_bytes()), ("b.json", b.as_bytes())],
        1,
        "do not add up",
    );
    // Sums past 2^64, checksum recomputed: refused, never wrapped.
    let huge = resealed(&a.replacen("\"ties\":", "\"ties\":18446744073709551615,\"x\":", 1));
    let out = merge(
        &dir,
        &[("a.json", huge.as_bytes()), ("b.json", b.as_bytes())],
    );
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(out.stdout.is_empty());
}

#[test]
fn merge_refuses_pipes_and_devices_without_blocking() {
    let dir = tmp_dir("hostile3", "merge-devices");
    let (a, _, _) = parts(&dir);
    std::fs::write(dir.join("a.json"), &a).expect("write");
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    for special in [
        fifo.to_str().expect("path"),
        "/dev/zero",
        "/dev/stdin",
        "/tmp",
    ] {
        let start = Instant::now();
        let out = roots_in(&dir, &["merge", "a.json", special], "");
        assert!(
            start.elapsed() < crate::common::HANG,
            "{special} took {:?}",
            start.elapsed()
        );
        assert_eq!(out.code, 2, "{special}: {}", out.stderr);
        assert!(
            out.stderr.contains("not a regular file"),
            "{special}: {}",
            out.stderr
        );
    }
    // A file of 0 bytes that blocks when read, though `stat` calls it regular.
    if std::fs::File::open("/proc/kmsg").is_ok() {
        let start = Instant::now();
        let out = roots_in(&dir, &["merge", "a.json", "/proc/kmsg"], "");
        assert!(start.elapsed() < crate::common::HANG);
        assert_eq!(out.code, 2, "{}", out.stderr);
    }
}

// ---------------------------------------------------------------- output

/// A seeded record of a whole game of bots, `r.jsonl` in `dir`.
fn record(dir: &Path) -> PathBuf {
    let out = roots_in(
        dir,
        &[
            "play",
            "btt",
            "--players",
            "random,random",
            "--seed",
            "5",
            "--record",
            "r.jsonl",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    dir.join("r.jsonl")
}

#[test]
fn a_full_disk_on_stdout_is_exit_2_with_a_message() {
    let dir = tmp_dir("hostile3", "dev-full");
    record(&dir);
    std::fs::write(
        dir.join("v.toml"),
        "extends = \"standard\"\nname = \"mine\"\n",
    )
    .expect("write");
    let forms: &[&[&str]] = &[
        &["replay", "r.jsonl"],
        &["replay", "r.jsonl", "--until", "3"],
        &[
            "play",
            "btt",
            "--players",
            "random,random",
            "--seed",
            "5",
            "--record",
            "p.jsonl",
        ],
        &["show", "standard"],
        &["explain", "v.toml"],
        &["schema"],
        &["games"],
        &["simulate", "-n", "4", "--seed", "1", "-q"],
        &["simulate", "-n", "4", "--seed", "1", "-q", "--shard", "1/2"],
        &[
            "compare", "standard", "v.toml", "-n", "4", "--seed", "1", "-q",
        ],
        &["validate", "v.toml", "--format", "json"],
        &["diff", "standard", "v.toml"],
        &["completions", "bash"],
    ];
    for args in forms {
        let _ = std::fs::remove_file(dir.join("p.jsonl"));
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(BIN)
            .args(*args)
            .current_dir(&dir)
            .stdout(full)
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write to standard output") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tmp_dir("hostile3", "epipe");
    record(&dir);
    for args in [
        &["replay", "r.jsonl"][..],
        &["schema"],
        &["show", "standard"],
    ] {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // `| head -c 0`: the reader is gone before the first write.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn failed_writes_to_files_are_exit_2() {
    let dir = tmp_dir("hostile3", "file-full");
    record(&dir);
    for args in [
        &[
            "simulate",
            "-n",
            "4",
            "--seed",
            "1",
            "-q",
            "--out",
            "/dev/full",
        ][..],
        &["view", "r.jsonl", "-o", "/dev/full"],
        &["replay", "r.jsonl", "--svg", "/dev/full"],
    ] {
        let out = roots_in(&dir, args, "");
        assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("/dev/full") || out.stderr.contains("No space"),
            "{args:?}: {}",
            out.stderr
        );
    }
}

// ---------------------------------------------------------------- engine

/// Answers of `roots engine` to `lines`, one JSON value each.
fn engine(dir: &Path, lines: &[String]) -> Vec<serde_json::Value> {
    let mut child = Command::new(BIN)
        .arg("engine")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn engine");
    let mut stdin = child.stdin.take().expect("stdin");
    for l in lines {
        writeln!(stdin, "{l}").expect("write request");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("engine");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("an answer is JSON"))
        .collect()
}

/// A live engine session: send a request, read its answer.
struct Session {
    child: Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Session {
    fn new(dir: &Path) -> Session {
        let mut child = Command::new(BIN)
            .arg("engine")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn engine");
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        Session { child, out }
    }

    fn ask(&mut self, req: serde_json::Value) -> serde_json::Value {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{req}").expect("write");
        let mut line = String::new();
        self.out.read_line(&mut line).expect("read");
        serde_json::from_str(&line).expect("JSON answer")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn the_engine_simulates_a_huge_request_in_flat_memory() {
    let dir = tmp_dir("hostile3", "engine-memory");
    // 100,000,000 games of a tiny board, two threads: rows were kept for
    // every game (about 3 KB each).
    let mut child = Command::new(BIN)
        .arg("engine")
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(
        stdin,
        r#"{{"cmd":"simulate","variant":"standard","set":["board.size=5","end.max_rounds=2"],"games":100000000,"jobs":2}}"#
    )
    .expect("write");
    std::thread::sleep(Duration::from_secs(3));
    let early = rss_kib(child.id());
    std::thread::sleep(Duration::from_secs(12));
    let late = rss_kib(child.id());
    let running = child.try_wait().expect("wait").is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(running, "the engine ended");
    assert!(early > 0 && late > 0);
    assert!(
        late < early + 16 * 1024,
        "memory grew from {early} KiB to {late} KiB in 12 s"
    );
}

#[test]
fn engine_rows_come_with_small_requests_only() {
    let dir = tmp_dir("hostile3", "engine-rows");
    let a = engine(
        &dir,
        &[
            r#"{"id":1,"cmd":"simulate","games":3,"seed":1}"#.into(),
            r#"{"id":2,"cmd":"simulate","games":20000,"rows":true}"#.into(),
            r#"{"id":3,"cmd":"simulate","games":2,"rows":false}"#.into(),
        ],
    );
    assert_eq!(a[0]["rows"].as_array().map(Vec::len), Some(3), "{}", a[0]);
    assert_eq!(a[1]["ok"], false);
    assert!(
        a[1]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("rows"),
        "{}",
        a[1]
    );
    assert_eq!(a[2]["ok"], true);
    assert!(a[2].get("rows").is_none(), "{}", a[2]);
}

#[test]
fn a_null_id_is_echoed_and_actions_are_recorded_canonically() {
    let dir = tmp_dir("hostile3", "engine-id");
    let a = engine(
        &dir,
        &[
            r#"{"id":null,"cmd":"hello"}"#.into(),
            r#"{"cmd":"start","variant":"standard","set":["board.size=9"],"seed":42}"#.into(),
            r#"{"cmd":"act","action":"  PLACE   3,3 "}"#.into(),
            r#"{"cmd":"record"}"#.into(),
        ],
    );
    assert!(
        a[0].as_object().expect("object").contains_key("id"),
        "{}",
        a[0]
    );
    assert_eq!(a[0]["id"], serde_json::Value::Null);
    assert_eq!(a[2]["ok"], true, "{}", a[2]);
    assert_eq!(a[2]["played"], "place 3,3");
    let lines = a[3]["lines"].as_array().expect("lines");
    assert_eq!(lines[1], r#"{"act":"place 3,3","seat":0}"#, "{}", a[3]);
}

/// Play a Roots Growy Roots session to its first draw, answering every
/// decision with its first legal action.
fn to_draw(s: &mut Session) -> serde_json::Value {
    let mut state =
        s.ask(serde_json::json!({"cmd":"start","variant":"rgr-2p","seed":7}))["state"].clone();
    for _ in 0..500 {
        if state["chance"]["kind"] == "draw" {
            return state;
        }
        let a = if state["node"] == "decision" {
            s.ask(serde_json::json!({"cmd":"act","action":state["legal"][0]}))
        } else {
            s.ask(serde_json::json!({"cmd":"roll"}))
        };
        assert_eq!(a["ok"], true, "{a}");
        state = a["state"].clone();
    }
    panic!("no draw within 500 steps");
}

#[test]
fn cards_given_by_name_or_number_and_the_record_after_an_undo() {
    let dir = tmp_dir("hostile3", "engine-cards");
    let mut s = Session::new(&dir);
    let state = to_draw(&mut s);
    let faces: Vec<String> = state["chance"]["faces"]
        .as_array()
        .expect("faces")
        .iter()
        .map(|f| f.as_str().expect("text").to_string())
        .collect();
    let weights = state["chance"]["weights"].as_array().expect("weights");
    let left = faces
        .iter()
        .zip(weights)
        .find(|(_, w)| w.as_u64() > Some(0))
        .map(|(f, _)| f.clone())
        .expect("a card left");
    // D7: a number is the card named by that text, never an index of the
    // engine's: 10 and "10" get the same answer.
    let by_number = s.ask(serde_json::json!({"cmd":"roll","face":10}));
    let by_text = s.ask(serde_json::json!({"cmd":"roll","face":"10"}));
    assert_eq!(by_number["ok"], false, "{by_number}");
    assert_eq!(by_number, by_text);
    // D10: the `card` key of docs/protocol.md.
    let given = s.ask(serde_json::json!({"cmd":"roll","card":left}));
    assert_eq!(given["ok"], true, "{given}");
    assert_eq!(given["rolled"], serde_json::json!(left));
    // D6: a given card, then an undo of a later step: the record still
    // says the dice were given (manual), so it replays without a warning.
    let next = given["state"].clone();
    let step = if next["node"] == "decision" {
        serde_json::json!({"cmd":"act","action":next["legal"][0]})
    } else {
        serde_json::json!({"cmd":"roll"})
    };
    assert_eq!(s.ask(step)["ok"], true);
    assert_eq!(s.ask(serde_json::json!({"cmd":"undo"}))["ok"], true);
    let rec = s.ask(serde_json::json!({"cmd":"record"}));
    let header = rec["lines"][0].as_str().expect("header");
    assert!(header.contains(r#""dice":"manual""#), "{header}");
    let saved = s.ask(serde_json::json!({"cmd":"save","path":"g.jsonl"}));
    assert_eq!(saved["ok"], true, "{saved}");
    let out = roots_in(&dir, &["replay", "g.jsonl"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
}

// ---------------------------------------------------------------- records

#[test]
fn a_forfeit_is_recorded_and_the_game_stays_over() {
    let dir = tmp_dir("hostile3", "forfeit-record");
    let mark = marker();
    let b = bot(&dir, &mark, "illegal");
    let players = format!("{b},random");
    let out = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            &players,
            "--seed",
            "1",
            "--record",
            "r.jsonl",
        ],
        "",
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(dir.join("r.jsonl")).expect("record");
    let last = text.lines().last().expect("a line");
    assert!(last.starts_with("{\"forfeit\":0,\"reason\":"), "{last}");
    // Replay: over by forfeit, seat 1 lost; the program is not started.
    let out = roots_in(&dir, &["replay", "r.jsonl", "--format", "json"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("json");
    assert_eq!(v["finished"], true);
    assert_eq!(v["end_reason"], "forfeit");
    assert_eq!(v["forfeit"]["seat"], 1);
    assert!(
        v["unchecked"].as_array().is_some_and(|u| !u.is_empty()),
        "{v}"
    );
    // Resume: refused without --run-programs; with it, the game is over.
    let out = roots_in(&dir, &["play", "--resume", "r.jsonl"], "");
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("--run-programs"), "{}", out.stderr);
    let before = std::fs::read(dir.join("r.jsonl")).expect("record");
    let out = roots_in(&dir, &["play", "--resume", "r.jsonl", "--run-programs"], "");
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("forfeits"), "{}", out.stderr);
    assert_eq!(std::fs::read(dir.join("r.jsonl")).expect("record"), before);
    assert_eq!(settle(&mark, 0, 3), 0);
}

#[test]
fn replay_never_runs_a_program_a_record_names() {
    let dir = tmp_dir("hostile3", "record-cmd");
    let rec = record(&dir);
    let text = std::fs::read_to_string(&rec).expect("record");
    let evil = dir.join("pwned");
    let forged = text.replacen(
        "\"players\":[\"random\",",
        &format!("\"players\":[\"cmd:touch {}\",", evil.display()),
        1,
    );
    assert_ne!(forged, text, "the header did not change");
    std::fs::write(&rec, forged).expect("write");
    let out = roots_in(&dir, &["replay", "r.jsonl"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!evil.exists(), "replay ran the record's program");
    assert!(out.stdout.contains("cannot be checked"), "{}", out.stdout);
}

#[test]
fn replay_says_what_it_could_check() {
    let dir = tmp_dir("hostile3", "verdict");
    record(&dir);
    let out = roots_in(&dir, &["replay", "r.jsonl"], "");
    assert!(
        out.stdout
            .contains("verdict: every roll and decision is what the seed gives"),
        "{}",
        out.stdout
    );
    let text = std::fs::read_to_string(dir.join("r.jsonl")).expect("record");
    std::fs::write(
        dir.join("m.jsonl"),
        text.replacen("\"dice\":\"auto\"", "\"dice\":\"manual\"", 1),
    )
    .expect("write");
    let out = roots_in(&dir, &["replay", "m.jsonl"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("the rolls (typed: dice manual)")
            && out.stdout.contains("cannot be checked"),
        "{}",
        out.stdout
    );
}

// ---------------------------------------------------------------- terminal, jobs

#[test]
fn control_characters_from_files_are_escaped() {
    let dir = tmp_dir("hostile3", "escapes");
    std::fs::write(
        dir.join("v.toml"),
        "extends = \"standard\"\nname = \"evil\\u001b]0;pwned\\u0007\\u001b[2J\\r\\u202e\"\n",
    )
    .expect("write");
    for args in [
        &["show", "v.toml"][..],
        &["explain", "v.toml"],
        &["simulate", "v.toml", "-n", "2", "--seed", "1"],
    ] {
        let out = roots_in(&dir, args, "");
        let all = format!("{}{}", out.stdout, out.stderr);
        assert!(
            !all.contains('\u{1b}')
                && !all.contains('\u{7}')
                && !all.contains('\r')
                && !all.contains('\u{202e}'),
            "{args:?}: {all:?}"
        );
        assert!(all.contains("\\x1b]0;pwned\\x07"), "{args:?}: {all}");
    }
    // A diagnostic quoting a bad value.
    std::fs::write(
        dir.join("bad.toml"),
        "extends = \"standard\"\n[beads]\n\"evil\\u001b[2J\" = 1\n",
    )
    .expect("write");
    let out = roots_in(&dir, &["validate", "bad.toml"], "");
    let all = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(out.code, 1, "{all}");
    assert!(
        !all.contains('\u{1b}') && all.contains("\\x1b[2J"),
        "{all:?}"
    );
}

#[test]
fn jobs_beyond_the_cores_are_capped_with_a_note() {
    let dir = tmp_dir("hostile3", "jobs");
    let out = roots_in(
        &dir,
        &["simulate", "-n", "4", "--seed", "1", "-j", "1000"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--jobs 1000 is more than this machine can use"),
        "{}",
        out.stderr
    );
    let same = roots_in(&dir, &["simulate", "-n", "4", "--seed", "1", "-j", "1"], "");
    assert_eq!(out.stdout, same.stdout);
}

#[test]
fn extends_of_a_directory_names_it_and_says_why() {
    let dir = tmp_dir("hostile3", "extends-dot");
    std::fs::write(dir.join("dot.toml"), "extends = \".\"\nname = \"x\"\n").expect("write");
    let out = roots_in(&dir, &["validate", "dot.toml"], "");
    let all = format!("{}{}", out.stdout, out.stderr);
    assert_eq!(out.code, 1, "{all}");
    assert!(
        all.contains("names \".\", but . cannot be read: it is not a regular file"),
        "{all}"
    );
}

#[test]
fn one_is_singular_in_the_variant_checks_messages() {
    // D14: "1 face-up artifacts".
    let dir = tmp_dir("hostile3", "singular");
    std::fs::write(
        dir.join("one.toml"),
        "extends = \"roots-growy-roots\"\nname = \"one artifact\"\n\n[board_2]\nartifacts = [{ cell = \"B11\", artifact = \"skry\" }]\n\n[board_2.main_deck]\nearth = 53\n",
    )
    .expect("write");
    let out = roots_in(&dir, &["validate", "one.toml"], "");
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(
        all.contains("(97 less 1 face-up artifact)") && !all.contains("1 face-up artifacts"),
        "{all}"
    );
}
