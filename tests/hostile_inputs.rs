//! Hostile variant files and records, through the real binary: each is
//! refused quickly (well under the generous 5 s bound, even in a debug build
//! on a loaded machine), with a clear message and the documented exit code,
//! never a crash, a hang or memory exhaustion. The table in
//! `docs/hostile-inputs.md` names these tests.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use roots::games::Registered as _;
use roots::games::roots_and_shoots::{RootsAndShoots, Rules};
use roots::record::{DiceMode, Header};

const BIN: &str = env!("CARGO_BIN_EXE_roots");
const BOUND: Duration = crate::common::HANG;

fn tmp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

struct Out {
    code: i32,
    text: String,
}

/// Run `roots ARGS` in `dir`, timed; stdout and stderr together.
fn roots(dir: &Path, args: &[&str]) -> Out {
    let start = Instant::now();
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run roots");
    let took = start.elapsed();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < BOUND, "roots {args:?} took {took:?}:\n{text}");
    Out {
        code: out.status.code().unwrap_or(-1),
        text,
    }
}

/// `roots validate` on a file with `content`: exit code and the expected text.
fn refused_variant(name: &str, content: &[u8], code: i32, expected: &str) {
    let dir = tmp_dir(name);
    std::fs::write(dir.join("v.toml"), content).expect("write");
    let out = roots(&dir, &["validate", "v.toml"]);
    assert_eq!(out.code, code, "{name}:\n{}", out.text);
    assert!(
        out.text.contains(expected),
        "{name}: expected `{expected}` in:\n{}",
        out.text
    );
}

#[test]
fn a_huge_board_is_refused() {
    refused_variant(
        "huge-board",
        b"[board]\nsize = 1001\n",
        1,
        "`board.size` is 1001, more than the largest allowed, 25",
    );
}

#[test]
fn thousands_of_players_are_refused() {
    refused_variant(
        "many-players",
        b"[players]\nmax = 5000\n",
        1,
        "`players.max` is 5000, more than the largest allowed, 8",
    );
}

#[test]
fn astronomic_supplies_are_refused() {
    refused_variant(
        "supply-i64",
        b"[beads]\nsupply = 9223372036854775807\n",
        1,
        "more than the largest allowed, 2000",
    );
    refused_variant(
        "supply-past-i64",
        b"[nutrients]\nsupply = 99999999999999999999999999\n",
        1,
        "far too large",
    );
}

#[test]
fn an_astronomic_round_limit_is_refused() {
    refused_variant(
        "max-rounds",
        b"[end]\nmax_rounds = 4000000000\n",
        1,
        "`end.max_rounds` is 4000000000, more than the largest allowed, 10000",
    );
}

#[test]
fn deep_and_cyclic_extends_are_refused() {
    let dir = tmp_dir("deep-extends");
    for i in 0..40 {
        std::fs::write(
            dir.join(format!("v{i}.toml")),
            format!("extends = \"v{}.toml\"\n", i + 1),
        )
        .expect("write");
    }
    let out = roots(&dir, &["validate", "v0.toml"]);
    assert_eq!(out.code, 1, "{}", out.text);
    assert!(out.text.contains("longer than 16 files"), "{}", out.text);

    let dir = tmp_dir("cyclic-extends");
    std::fs::write(dir.join("a.toml"), "extends = \"b.toml\"\n").expect("write");
    std::fs::write(dir.join("b.toml"), "extends = \"a.toml\"\n").expect("write");
    let out = roots(&dir, &["validate", "a.toml"]);
    assert_eq!(out.code, 1, "{}", out.text);
    assert!(out.text.contains("goes round in a circle"), "{}", out.text);
}

#[test]
fn a_100_mb_variant_file_is_refused_unread() {
    let dir = tmp_dir("huge-variant");
    let f = std::fs::File::create(dir.join("v.toml")).expect("create");
    // Sparse: 100 MB long, no disk used.
    f.set_len(100 * 1024 * 1024).expect("set_len");
    drop(f);
    let out = roots(&dir, &["validate", "v.toml"]);
    assert_eq!(out.code, 1, "{}", out.text);
    assert!(out.text.contains("larger than 1 MiB"), "{}", out.text);
}

#[test]
fn deep_nesting_is_refused() {
    let depth = 200_000;
    let arrays = format!("x = {}{}\n", "[".repeat(depth), "]".repeat(depth));
    refused_variant("nested-arrays", arrays.as_bytes(), 1, "max recursion depth");
    let inline = format!("x = {}1{}\n", "{a=".repeat(depth), "}".repeat(depth));
    refused_variant(
        "nested-inline-tables",
        inline.as_bytes(),
        1,
        "max recursion depth",
    );
    let dotted = format!("a{} = 1\n", ".a".repeat(depth));
    refused_variant(
        "nested-dotted-keys",
        dotted.as_bytes(),
        1,
        "recursion limit",
    );
    let header = format!("[a{}]\n", ".a".repeat(depth));
    refused_variant(
        "nested-table-header",
        header.as_bytes(),
        1,
        "recursion limit",
    );
}

#[test]
fn a_1_mb_string_or_key_is_refused() {
    let s = format!("description = \"{}\"\n", "x".repeat(1_000_000));
    refused_variant(
        "long-string",
        s.as_bytes(),
        1,
        "`description` is longer than 2000 characters",
    );
    let k = format!("[beads]\n{} = 1\n", "y".repeat(1_000_000));
    refused_variant("long-key", k.as_bytes(), 1, "unknown key `yyyy");
}

#[test]
fn huge_lists_and_tables_are_refused() {
    let items = vec!["\"x\""; 200_000].join(",");
    refused_variant(
        "long-list",
        format!("[rain]\nrolls = [{items}]\n").as_bytes(),
        1,
        "more than 1000 keys and list items",
    );
    let keys: String = (0..90_000).map(|i| format!("k{i} = 1\n")).collect();
    refused_variant(
        "many-keys",
        format!("[beads]\n{keys}").as_bytes(),
        1,
        "more than 1000 keys and list items",
    );
    // Under the entry limit, but far more problems than anyone reads.
    let keys: String = (0..900).map(|i| format!("k{i} = 1\n")).collect();
    refused_variant(
        "many-errors",
        format!("[beads]\n{keys}").as_bytes(),
        1,
        "more than 50 problems: only the first 50 are shown",
    );
}

#[test]
fn extends_of_a_device_or_directory_is_refused_without_blocking() {
    refused_variant(
        "extends-stdin",
        b"extends = \"/dev/stdin\"\n",
        1,
        "not a regular file",
    );
    refused_variant(
        "extends-dir",
        b"extends = \"/tmp/\"\n",
        1,
        "not a regular file",
    );
}

// --- records ---

fn header_line(rules: Rules, players: usize) -> String {
    Header {
        variant: RootsAndShoots::wrap(std::sync::Arc::new(rules)),
        seed: Some(1),
        seed_game: 0,
        dice: DiceMode::Auto,
        players: vec!["random".to_string(); players],
        created: "2025-01-01T00:00:00Z".to_string(),
    }
    .to_line()
}

/// `roots replay` on a record with `content`.
fn refused_record(name: &str, content: &[u8], expected: &str) {
    let dir = tmp_dir(name);
    std::fs::write(dir.join("r.jsonl"), content).expect("write");
    let out = roots(&dir, &["replay", "r.jsonl"]);
    assert_eq!(out.code, 1, "{name}:\n{}", out.text);
    assert!(
        out.text.contains(expected),
        "{name}: expected `{expected}` in:\n{}",
        out.text
    );
}

#[test]
fn a_huge_record_is_refused_unread() {
    let dir = tmp_dir("huge-record");
    let f = std::fs::File::create(dir.join("r.jsonl")).expect("create");
    f.set_len(100 * 1024 * 1024).expect("set_len");
    drop(f);
    let out = roots(&dir, &["replay", "r.jsonl"]);
    assert_eq!(out.code, 1, "{}", out.text);
    assert!(
        out.text.contains("expected a record of at most 64 MiB"),
        "{}",
        out.text
    );
}

#[test]
fn a_huge_line_is_refused() {
    let mut r = header_line(Rules::standard(), 2);
    r.push('\n');
    r.push_str(&format!(
        "{{\"act\":\"{}\",\"seat\":0}}\n",
        "x".repeat(2_000_000)
    ));
    refused_record(
        "huge-line",
        r.as_bytes(),
        "r.jsonl:2: error: expected a line of at most 1 MiB",
    );
}

#[test]
fn millions_of_events_are_refused() {
    // Checked in the library (the test profile is optimised): 5,000,001
    // short events, 55 MB, under the byte limit.
    let mut r = header_line(Rules::standard(), 2);
    r.push('\n');
    let event = "{\"roll\":1}\n";
    r.reserve(event.len() * 5_000_001);
    for _ in 0..5_000_001 {
        r.push_str(event);
    }
    let err = roots::record::reader::parse(r.as_bytes(), roots::record::PartialTail::Refuse)
        .expect_err("too many events");
    assert!(
        err.message.contains("expected at most 5000000 events"),
        "{err}"
    );
}

#[test]
fn a_header_with_an_absurd_variant_is_refused() {
    let mut rules = Rules::standard();
    rules.board.size = 255;
    rules.players.max = 200;
    refused_record(
        "absurd-variant",
        format!("{}\n", header_line(rules, 2)).as_bytes(),
        "r.jsonl:1: error: expected a valid variant in the record",
    );
    refused_record(
        "absurd-players",
        format!("{}\n", header_line(Rules::standard(), 300)).as_bytes(),
        "r.jsonl:1: error: expected players the variant allows, found 300 players",
    );
}

#[test]
fn deep_json_nesting_is_refused() {
    let deep = format!("{}{}", "[".repeat(500_000), "]".repeat(500_000));
    refused_record(
        "deep-json-header",
        format!("{deep}\n").as_bytes(),
        "r.jsonl:1: error:",
    );
    let mut r = header_line(Rules::standard(), 2);
    r.push_str(&format!("\n{{\"roll\":{deep}}}\n"));
    refused_record("deep-json-event", r.as_bytes(), "r.jsonl:2: error:");
}

// --- issue #20: a reliability trial's findings ---

/// `beads.store = 0` validated, then the first-turn bead took one from an
/// empty store and each store wrapped to 4,294,967,295.
#[test]
fn store_zero_does_not_wrap() {
    refused_variant(
        "store-zero",
        b"name = \"s0\"\n[beads]\nstore = 0\n",
        1,
        "`beads.store` is 0, less than the smallest allowed, 1",
    );
    // The engine refuses such rules too, whatever built them.
    let mut rules = Rules::standard();
    rules.beads.store = 0;
    let Err(err) = roots::games::roots_and_shoots::State::new(std::sync::Arc::new(rules), 2) else {
        panic!("a zero store was accepted");
    };
    assert!(err.to_string().contains("beads.store"), "{err}");
}

/// `roots ARGS` in `dir`, killed if it runs past `BOUND` (then the test
/// fails instead of hanging): exit code and output.
fn roots_killed_after_bound(dir: &Path, args: &[&str]) -> Out {
    roots_killed_after(dir, args, BOUND)
}

/// `roots ARGS` in `dir`, killed (and the test failed) past `bound`.
fn roots_killed_after(dir: &Path, args: &[&str], bound: Duration) -> Out {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run roots");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > bound {
            child.kill().expect("kill");
            child.wait().expect("reap");
            panic!("roots {args:?} blocked for more than {bound:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    Out {
        code: out.status.code().unwrap_or(-1),
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// `extends = "/proc/kmsg"` passed the regular-file check (`stat` calls it a
/// regular file of 0 bytes) and then blocked `validate` for ever; a record
/// that is a named pipe blocked `replay`. Reads are bounded in time.
#[test]
fn extends_of_a_character_device_is_refused() {
    let dir = tmp_dir("extends-kmsg");
    std::fs::write(dir.join("v.toml"), "extends = \"/proc/kmsg\"\n").expect("write");
    let out = roots_killed_after_bound(&dir, &["validate", "v.toml"]);
    assert_eq!(out.code, 1, "{}", out.text);
    // Root reads it (and it blocks); anyone else is refused at once.
    assert!(
        out.text.contains("did not finish within 2 s") || out.text.contains("permission denied"),
        "{}",
        out.text
    );

    let fifo = dir.join("r.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for args in [
        &["replay", "r.jsonl"][..],
        &["play", "--resume", "r.jsonl"][..],
    ] {
        let out = roots_killed_after_bound(&dir, args);
        assert_ne!(out.code, 0, "{}", out.text);
        assert!(
            out.text.contains("did not finish within 2 s"),
            "{}",
            out.text
        );
    }
}

/// `{"roll":256}` was reported as "found 255".
#[test]
fn a_roll_of_256_is_reported_as_256() {
    let mut r = header_line(Rules::standard(), 2);
    r.push_str("\n{\"roll\":256,\"die\":\"d20\"}\n");
    refused_record(
        "roll-256",
        r.as_bytes(),
        "r.jsonl:2: error: expected a die face (1 to 20 on the largest die, the d20), found 256",
    );
}

/// A header with 300 players said "found 300 players ... not 255".
#[test]
fn a_header_with_300_players_says_300_and_what_is_allowed() {
    let dir = tmp_dir("players-300");
    let header = format!("{}\n", header_line(Rules::standard(), 300));
    std::fs::write(dir.join("r.jsonl"), header).expect("write");
    let out = roots(&dir, &["replay", "r.jsonl"]);
    assert_eq!(out.code, 1, "{}", out.text);
    assert_eq!(
        out.text.trim_end(),
        "r.jsonl:1: error: expected players the variant allows, found 300 players: variant `standard` is for 2 to 6 players"
    );
}

/// `--set board.size=99999999999999999999` said "it is a string", where the
/// same value in a file says "far too large".
#[test]
fn an_astronomic_set_value_is_far_too_large_not_a_string() {
    let dir = tmp_dir("set-astronomic");
    std::fs::write(dir.join("v.toml"), "name = \"v\"\n").expect("write");
    let out = roots(
        &dir,
        &[
            "validate",
            "v.toml",
            "--set",
            "board.size=99999999999999999999",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.text);
    assert!(
        out.text.contains("--set board.size=99999999999999999999: error: `board.size` is 99999999999999999999, far too large a number: it must be a whole number from 5 to 25, odd"),
        "{}",
        out.text
    );
    refused_variant(
        "file-astronomic",
        b"[board]\nsize = 99999999999999999999\n",
        1,
        "`board.size` is 99999999999999999999, far too large a number: it must be a whole number from 5 to 25, odd",
    );
}

/// `board.size = 19.0` said "invalid type: floating point `19.0`, expected u8".
#[test]
fn a_decimal_board_size_says_what_is_allowed() {
    refused_variant(
        "decimal-size",
        b"[board]\nsize = 19.0\n",
        1,
        "v.toml:2:8: error: `board.size` must be a whole number from 5 to 25, odd, but it is 19.0, a decimal number",
    );
}

/// A valid 15-line variant whose random games are very long took 47 s in
/// `validate`'s smoke simulation (a release build). It is bounded in steps
/// and time and says what it could not finish.
#[test]
fn a_slow_variant_s_smoke_simulation_is_bounded() {
    let dir = tmp_dir("slow-smoke");
    let variant = "name = \"slow\"\n\
                   [board]\nsize = 25\n\
                   [players]\nmin = 2\nmax = 8\n\
                   [beads]\nsupply = 2000\nremoved_go_to = \"supply\"\n\
                   [rain]\nrolls = []\n\
                   [end]\nmax_rounds = 10000\n";
    std::fs::write(dir.join("slow.toml"), variant).expect("write");
    let start = Instant::now();
    let out = roots_killed_after(&dir, &["validate", "slow.toml"], Duration::from_secs(30));
    let took = start.elapsed();
    assert_eq!(out.code, 0, "{}", out.text);
    assert!(
        out.text.contains("the smoke simulation stopped at its")
            && out.text.contains("so it is unfinished: it played")
            && out.text.contains("roots simulate slow.toml --players"),
        "{}",
        out.text
    );
    // 10 s of time budget, plus loading and a slow shared machine.
    assert!(took < Duration::from_secs(20), "took {took:?}");
}
