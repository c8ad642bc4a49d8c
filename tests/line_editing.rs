//! Line editing and history at the prompt of `roots play` when the input is
//! a terminal, driven for real through `script`'s pseudo-terminal: keys are
//! typed with pauses, as a person would, and the record says what the game
//! got. (Piped input, read plainly, is covered by `play_cli.rs`.)

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Type `keys` (each after a pause) at `roots ARGS` on a pseudo-terminal;
/// its exit code and what the terminal showed.
fn typed(args: &str, keys: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new("script")
        .args([
            "-qec",
            &format!("{} {args}", env!("CARGO_BIN_EXE_roots")),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs");
    let mut stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    for k in keys {
        stdin.write_all(k.as_bytes()).unwrap();
        stdin.flush().unwrap();
        std::thread::sleep(Duration::from_millis(800));
    }
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

const ENTER: &str = "\r";
const LEFT: &str = "\x1b[D";
const UP: &str = "\x1b[A";

#[test]
fn a_line_is_edited_with_backspace_and_cursor_keys_and_recalled_with_up() {
    let dir = std::env::temp_dir().join(format!("roots-line-editing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&record);
    let args = format!(
        "play sprout-r-out --players human,random --seed 1 --record {}",
        record.display()
    );
    let (code, seen) = typed(
        &args,
        &[
            // `legalX`, the X taken back with backspace: the legal moves.
            &format!("legalX\x7f{ENTER}"),
            // `3`, cursor left, `C` inserted before it: the move C3.
            &format!("3{LEFT}C{ENTER}"),
            // Up twice: `legal` again, from the history.
            &format!("{UP}{UP}{ENTER}"),
            // Ctrl-C at the prompt: stopped as an interrupt stops it.
            "\x03",
        ],
    );
    let record_text = std::fs::read_to_string(&record).unwrap_or_default();
    let first: Vec<&str> = record_text.lines().skip(1).take(1).collect();
    assert_eq!(first, [r#"{"act":"C3","seat":0}"#], "{seen}");
    assert_eq!(
        seen.matches("A1, B1, C1, D1, E1, F1, A2").count(),
        2,
        "the legal moves, listed twice (typed, then recalled):\n{seen}"
    );
    assert!(seen.contains("X (human): C3"), "{seen}");
    assert_eq!(code, Some(130), "{seen}");
    // The record holds every event so far and resumes.
    let resumed = Command::new(env!("CARGO_BIN_EXE_roots"))
        .args(["replay", record.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(resumed.status.success(), "{resumed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
