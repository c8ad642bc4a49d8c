//! The binary: `roots replay` on good and broken records, `roots play`
//! driven from a script, quit and resume, kill and resume.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_roots");

fn tmp_dir(name: &str) -> PathBuf {
    common::tmp_dir("play-cli", name)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The line after `prefix` in `out`.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in:\n{out}"))
}

#[test]
fn broken_records_say_what_and_where() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/bad");
    insta::glob!("records/bad/*.jsonl", |path| {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let out = common::roots_in(&dir, &["replay", name], "");
        assert_eq!(out.code, 1, "{name}: {}", out.stderr);
        assert!(out.stdout.is_empty());
        insta::assert_snapshot!(out.stderr);
    });
}

#[test]
fn a_good_record_replays_and_draws_at_any_event() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    let out = common::roots_in(&dir, &["replay", "good.jsonl"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("good_replay", out.stdout);
    let out = common::roots_in(
        &dir,
        &["replay", "good.jsonl", "--until", "12", "--format", "json"],
        "",
    );
    assert_eq!(out.code, 0);
    insta::assert_snapshot!("good_replay_until_12_json", out.stdout);
    let out = common::roots_in(&dir, &["replay", "missing.jsonl"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.starts_with("missing.jsonl: error: "));
}

#[test]
fn a_truncated_record_replays_with_lenient() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/bad");
    let out = common::roots_in(
        &dir,
        &["replay", "truncated-mid-line.jsonl", "--lenient"],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("warning: line 8: dropped a truncated last line")
    );
    assert!(out.stdout.contains("6 events; the game is not finished"));
}

#[test]
fn bots_alone_play_to_the_end_and_replay_to_the_same_scores() {
    let dir = tmp_dir("bots");
    let out = common::roots_in(
        &dir,
        &[
            "play",
            "--players",
            "random,random,random",
            "--seed",
            "11",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let played = out.stdout.clone();
    assert!(played.contains("game over"));
    let replay = common::roots_in(&dir, &["replay", "g.jsonl"], "");
    assert_eq!(replay.code, 0);
    assert_eq!(
        line_after(&played, "scores: "),
        line_after(&replay.stdout, "scores: ")
    );
}

#[test]
fn a_scripted_game_with_mistakes_quit_and_resume() {
    let dir = tmp_dir("scripted");
    let script = "help\nlegal\nplace 0,0\nplace 9,9\nbanana\n9,8\n?\nboard\nquit\n";
    let out = common::roots_in(
        &dir,
        &[
            "play",
            "standard",
            "--players",
            "human,random",
            "--seed",
            "5",
            "--record",
            "h.jsonl",
        ],
        script,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let o = out.stdout.clone();
    assert!(o.contains("record: h.jsonl"));
    assert!(o.contains("seed: 5"));
    assert!(o.contains("legal (8): place at (8): 8,8 9,8 10,8 8,9 10,9 8,10 9,10 10,10"));
    assert!(o.contains(
        "illegal: place 0,0: the first bead goes on one of the 8 points around the centre 9,9, not 0,0"
    ));
    assert!(o.contains("illegal: place 9,9"));
    assert!(o.contains("not understood: unknown action `banana`"));
    assert!(o.contains("A (human): place 9,8"));
    assert!(o.contains("game stopped after"));
    assert!(o.contains("resume with: roots play --resume h.jsonl"));
    // The record holds only accepted events.
    let rec = std::fs::read_to_string(dir.join("h.jsonl")).expect("record");
    assert!(
        rec.lines()
            .nth(1)
            .is_some_and(|l| l == r#"{"act":"place 9,8","seat":0}"#)
    );
    assert!(!rec.contains("0,0"));

    // Resume; the human keeps choosing the first legal option by shorthand
    // until the input ends, which saves the game again.
    let before = rec.lines().count();
    let out = common::roots_in(&dir, &["play", "--resume", "h.jsonl"], "1,0\nd8\n");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let o = out.stdout.clone();
    assert!(o.contains("resuming h.jsonl after"), "{o}");
    assert!(o.contains("end of input: game stopped"), "{o}");
    let after = std::fs::read_to_string(dir.join("h.jsonl")).expect("record");
    assert!(after.lines().count() > before);
    assert!(after.starts_with(&rec), "appending never rewrites");
    let replay = common::roots_in(&dir, &["replay", "h.jsonl"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
}

#[test]
fn manual_dice_are_typed_and_checked() {
    let dir = tmp_dir("manual");
    let script = "9,8\n9,10\n0\n21\nsix\n4\n5\nquit\n";
    let out = common::roots_in(
        &dir,
        &[
            "play",
            "--players",
            "human,human",
            "--dice",
            "manual",
            "--record",
            "m.jsonl",
        ],
        script,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let o = out.stdout.clone();
    assert!(
        !o.contains("seed:"),
        "no seed without bots or automatic dice"
    );
    assert!(o.contains("roll the d20 and type the face (1-20)"));
    assert!(o.contains("a d20 has faces 1 to 20, not 0"));
    assert!(o.contains("a d20 has faces 1 to 20, not 21"));
    assert!(o.contains("expected the face of the d20"));
    let rec = std::fs::read_to_string(dir.join("m.jsonl")).expect("record");
    let events: Vec<&str> = rec.lines().skip(1).collect();
    assert_eq!(
        events,
        [
            r#"{"act":"place 9,8","seat":0}"#,
            r#"{"act":"place 9,10","seat":1}"#,
            r#"{"roll":4,"die":"d20"}"#,
            r#"{"roll":5,"die":"d20"}"#,
        ]
    );
    assert!(rec.contains(r#""seed":null,"dice":"manual""#));
}

/// Faces every die has, for bots playing with typed dice.
fn faces(n: usize) -> String {
    (0..n)
        .map(|i| format!("{}\n", [2, 3, 4, 1, 3, 2, 4][i % 7]))
        .collect()
}

#[test]
fn a_killed_game_resumes_and_finishes_like_its_replay() {
    let dir = tmp_dir("killed");
    let mut child = Command::new(BIN)
        .args([
            "play",
            "--players",
            "random,random",
            "--dice",
            "manual",
            "--seed",
            "9",
            "--record",
            "k.jsonl",
        ])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // Some input, but not the whole game: the process then waits for more.
    stdin.write_all(faces(40).as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let record = dir.join("k.jsonl");
    let start = Instant::now();
    loop {
        let rolls = std::fs::read_to_string(&record)
            .map(|r| r.matches("\"roll\"").count())
            .unwrap_or(0);
        if rolls >= 40 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    child.wait().expect("reap");
    drop(stdin);
    // As if killed in the middle of a write: a partial line at the end.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&record)
        .expect("open");
    f.write_all(br#"{"roll":"#).expect("append");
    drop(f);

    let out = common::roots_in(&dir, &["play", "--resume", "k.jsonl"], &faces(200_000));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("dropped a truncated last line"));
    let played = out.stdout.clone();
    assert!(played.contains("game over"), "{played}");
    let replay = common::roots_in(&dir, &["replay", "k.jsonl"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    let replayed = replay.stdout.clone();
    assert_eq!(
        line_after(&played, "scores: "),
        line_after(&replayed, "scores: ")
    );
    assert_eq!(
        line_after(&played, "game over "),
        line_after(&replayed, "game over ")
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tmp_dir("usage");
    let out = common::roots_in(&dir, &["play", "--players", "human,wizard"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown bot `wizard`"));
    let out = common::roots_in(&dir, &["play"], "");
    assert_eq!(out.code, 2);
    // A seat count the variant does not allow is a wrong command line,
    // answered with an example line of the right length.
    let out = common::roots_in(&dir, &["play", "--players", "random"], "");
    assert_eq!(out.code, 2);
    let err = out.stderr.clone();
    assert!(
        err.contains("is for 2 to 6 players, and --players names 1 seat")
            && err.contains("--players random,greedy"),
        "{err}"
    );
}

/// Start `roots ARGS` in `dir` with `faces` typed faces and stdin left open,
/// and wait until `record` holds at least `rolls` rolls: it then waits for
/// more input, holding the record open.
fn waiting_writer(
    dir: &Path,
    args: &[&str],
    faces_typed: usize,
    record: &Path,
    rolls: usize,
) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(faces(faces_typed).as_bytes())
        .expect("write");
    stdin.flush().expect("flush");
    let start = Instant::now();
    loop {
        let n = std::fs::read_to_string(record)
            .map(|r| r.matches("\"roll\"").count())
            .unwrap_or(0);
        if n >= rolls {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the game did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, stdin)
}

/// Two `play --resume` of one record both exited 0 and interleaved their
/// events, and the record no longer replayed. The record being written is
/// locked: a second writer gets a clear error (exit 2) and changes nothing.
#[test]
fn second_writer_is_refused() {
    let dir = tmp_dir("second-writer");
    let record = dir.join("w.jsonl");
    let args = [
        "play",
        "--players",
        "random,random",
        "--dice",
        "manual",
        "--seed",
        "9",
        "--record",
        "w.jsonl",
    ];
    // The first writer is the game that created the record, then a resume.
    for (first, rolls) in [(&args[..], 20), (&["play", "--resume", "w.jsonl"][..], 40)] {
        let (mut child, stdin) = waiting_writer(&dir, first, rolls, &record, rolls);
        let before = std::fs::read(&record).expect("read");
        let out = common::roots_in(&dir, &["play", "--resume", "w.jsonl"], &faces(200_000));
        let err = out.stderr.clone();
        assert_eq!(out.code, 2, "{err}{}", out.stdout);
        assert!(err.contains("w.jsonl: error: cannot resume the record: another process is writing this record (it is locked); nothing was changed"), "{err}");
        assert_eq!(
            std::fs::read(&record).expect("read"),
            before,
            "the record changed"
        );
        child.kill().expect("kill");
        child.wait().expect("reap");
        drop(stdin);
    }
    // Once the writers are gone the record resumes, finishes and replays.
    let out = common::roots_in(&dir, &["play", "--resume", "w.jsonl"], &faces(200_000));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let replay = common::roots_in(&dir, &["replay", "w.jsonl"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
}

/// `roots play` of seed 9 with manual dice, typed `input`; stdout.
fn typed_game(dir: &Path, input: Vec<u8>) -> String {
    let mut child = Command::new(BIN)
        .args(["play", "--players", "random,random", "--dice", "manual"])
        .args(["--seed", "9", "--record", "g.jsonl"])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn roots");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().ok();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Typed faces with `bad` as the 11th line.
fn faces_with(bad: &[u8]) -> Vec<u8> {
    let all = faces(200_000);
    let cut = all.match_indices('\n').nth(9).expect("ten lines").0 + 1;
    let mut input = all.as_bytes()[..cut].to_vec();
    input.extend_from_slice(bad);
    input.extend_from_slice(&all.as_bytes()[cut..]);
    input
}

/// A non-UTF-8 typed line ended the session ("end of input: game stopped")
/// and the rest of the input was ignored: it is refused and the game goes on.
#[test]
fn a_non_utf8_typed_line_is_refused_and_the_game_goes_on() {
    let clean = typed_game(&tmp_dir("typed-clean"), faces(200_000).into_bytes());
    let played = typed_game(&tmp_dir("typed-non-utf8"), faces_with(b"3\xff\xfe\n"));
    assert!(
        played.contains(
            "refused: the line is not UTF-8 text (an invalid byte at byte 2); type it again"
        ),
        "{played}"
    );
    assert!(!played.contains("end of input"), "{played}");
    assert_eq!(
        line_after(&played, "scores: "),
        line_after(&clean, "scores: ")
    );
}

/// A 200 MB typed line used 596 MB: a typed line has at most 4096 bytes, and
/// a longer one is refused without being kept.
#[test]
fn an_overlong_typed_line_is_refused() {
    let clean = typed_game(&tmp_dir("typed-clean-2"), faces(200_000).into_bytes());
    let mut long = vec![b'1'; 20_000_000];
    long.push(b'\n');
    let played = typed_game(&tmp_dir("typed-long"), faces_with(&long));
    assert!(
        played.contains("refused: a line of 20000001 bytes; a typed line has at most 4096"),
        "{}",
        &played[..played.len().min(3000)]
    );
    assert_eq!(
        line_after(&played, "scores: "),
        line_after(&clean, "scores: ")
    );
}

/// A seeded record of random bots with automatic dice, in `dir`.
fn seeded_record(dir: &Path) -> String {
    let out = common::roots_in(
        dir,
        &[
            "play",
            "--players",
            "random,random",
            "--seed",
            "1",
            "--record",
            "r.jsonl",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::read_to_string(dir.join("r.jsonl")).expect("record")
}

/// `replay` of a seeded record accepted an edited roll face silently (the
/// score changed), while `resume` warned. Replay checks every roll and bot
/// decision against the seed and names the first line that differs.
#[test]
fn replay_checks_every_roll_against_the_seed() {
    let dir = tmp_dir("edited-roll");
    let record = seeded_record(&dir);
    let mut lines: Vec<String> = record.lines().map(str::to_string).collect();
    // Edit a nutrient's value (a d12: the score changes, the moves do not;
    // a 1 would bring rain, so neither the old nor the new face is 1).
    let (i, edited) = lines
        .iter()
        .enumerate()
        .skip(lines.len() / 2)
        .find_map(|(i, l)| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            let face = v.get("roll")?.as_u64()?;
            if v.get("die")?.as_str()? != "d12" || face == 1 {
                return None;
            }
            let new = if face == 6 { 5 } else { 6 };
            Some((
                i,
                l.replacen(&format!("\"roll\":{face}"), &format!("\"roll\":{new}"), 1),
            ))
        })
        .expect("a roll");
    lines[i] = edited;
    std::fs::write(dir.join("r.jsonl"), lines.join("\n") + "\n").expect("write");
    let out = common::roots_in(&dir, &["replay", "r.jsonl"], "");
    let err = out.stderr.clone();
    let line = i + 1;
    assert!(
        err.contains(&format!(
            "r.jsonl:{line}: warning: the record differs from what its seed gives from this line on"
        )),
        "line {line}: {err}"
    );
    // The unedited record replays without a word.
    let clean = tmp_dir("unedited-roll");
    seeded_record(&clean);
    let out = common::roots_in(&clean, &["replay", "r.jsonl"], "");
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, "");
}

/// `replay` accepted players and seeds that `resume` refuses; both now
/// accept exactly the same records.
#[test]
fn replay_and_resume_accept_the_same_records() {
    let dir = tmp_dir("same-records");
    let record = seeded_record(&dir);
    let (header, rest) = record.split_once('\n').expect("header");
    let mut cases = Vec::new();
    let mut h: serde_json::Value = serde_json::from_str(header).expect("json");
    h["players"] = serde_json::json!(["alien", "random"]);
    cases.push((h.to_string(), "r.jsonl:1: error: players:"));
    let mut h: serde_json::Value = serde_json::from_str(header).expect("json");
    h["seed"] = serde_json::Value::Null;
    cases.push((
        h.to_string(),
        "r.jsonl:1: error: expected a seed for automatic dice, found null",
    ));
    for (header, expected) in cases {
        std::fs::write(dir.join("r.jsonl"), format!("{header}\n{rest}")).expect("write");
        let before = std::fs::read(dir.join("r.jsonl")).expect("read");
        for args in [
            &["replay", "r.jsonl"][..],
            &["play", "--resume", "r.jsonl"][..],
        ] {
            let out = common::roots_in(&dir, args, "");
            let err = out.stderr.clone();
            assert_eq!(out.code, 1, "{args:?}: {err}");
            assert!(err.contains(expected), "{args:?}: {err}");
        }
        assert_eq!(std::fs::read(dir.join("r.jsonl")).expect("read"), before);
    }
}
