//! Records survive crashes: a record cut anywhere (as by a kill in the middle
//! of a write) resumes from its last whole event, loses none, and the game
//! goes on exactly as the uninterrupted game with the same seed did; resuming
//! only ever appends.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_roots");

fn tmp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("record-recovery")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn roots(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run roots")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The whole record of an uninterrupted game of two random bots, seed 7.
fn uninterrupted(dir: &Path) -> Vec<u8> {
    let out = roots(
        dir,
        &[
            "play",
            "--players",
            "random,random",
            "--seed",
            "7",
            "--record",
            "full.jsonl",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::read(dir.join("full.jsonl")).expect("record")
}

/// Where each line of `bytes` ends (just past its newline).
fn line_ends(bytes: &[u8]) -> Vec<usize> {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn a_record_cut_mid_line_resumes_to_the_uninterrupted_game() {
    let dir = tmp_dir("cut-mid-line");
    let full = uninterrupted(&dir);
    let ends = line_ends(&full);
    assert!(ends.len() > 100, "a real game has many events");
    // Cut inside the 2nd event, one in the middle, and the last one.
    for &line in &[1, ends.len() / 2, ends.len() - 1] {
        let whole = ends[line - 1];
        let next_len = ends[line] - whole;
        let cut = whole + next_len / 2;
        let before = &full[..cut];
        let path = dir.join(format!("cut-{line}.jsonl"));
        std::fs::write(&path, before).expect("write");
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let out = roots(&dir, &["play", "--resume", name]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("dropped a truncated last line"),
            "the cut is reported: {}",
            text(&out.stderr)
        );
        let after = std::fs::read(&path).expect("record");
        // No whole event lost: everything up to the cut line is kept as it was.
        assert_eq!(&after[..whole], &full[..whole], "cut after line {line}");
        // And the game went on exactly as the uninterrupted one.
        assert!(
            after == full,
            "cut after line {line}: the resumed record differs from the uninterrupted one"
        );
    }
}

#[test]
fn resuming_only_ever_appends() {
    let dir = tmp_dir("append-only");
    let full = uninterrupted(&dir);
    let ends = line_ends(&full);
    // A clean stop at a line boundary: the old bytes are a prefix of the new.
    let cut = ends[ends.len() / 3];
    let path = dir.join("clean.jsonl");
    std::fs::write(&path, &full[..cut]).expect("write");
    let before = std::fs::read(&path).expect("read");
    let out = roots(&dir, &["play", "--resume", "clean.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("warning"),
        "{}",
        text(&out.stderr)
    );
    let after = std::fs::read(&path).expect("read");
    assert!(after.len() > before.len());
    assert!(after.starts_with(&before), "the record was rewritten");
    assert_eq!(after, full);

    // A last whole event without its newline: kept, a newline added.
    let path = dir.join("no-newline.jsonl");
    let before = &full[..cut - 1];
    std::fs::write(&path, before).expect("write");
    let out = roots(&dir, &["play", "--resume", "no-newline.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let after = std::fs::read(&path).expect("read");
    assert!(after.starts_with(before), "the record was rewritten");
    assert_eq!(after, full);
}

#[test]
fn a_finished_record_is_left_untouched() {
    let dir = tmp_dir("finished");
    let full = uninterrupted(&dir);
    let out = roots(&dir, &["play", "--resume", "full.jsonl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(dir.join("full.jsonl")).expect("read"), full);
}
