//! Refereeing at a real table: a whole game of Roots and Shoots typed at the
//! prompt (`roots play --dice manual`, two people), both d20 faces of a
//! spawn typed on one line, one mistyped face taken back with `undo`; the
//! record keeps the mistake and the undo, and replays exactly to the game
//! that was meant.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::roots;

#[test]
fn a_game_typed_at_the_table_with_one_face_undone_replays_exactly() {
    let dir = std::env::temp_dir().join(format!("roots-undo-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The game that is meant: a seeded game of two bots.
    let meant = dir.join("meant.jsonl");
    let r = roots(&[
        "play",
        "standard",
        "--players",
        "random,random",
        "--seed",
        "21",
        "--record",
        meant.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let text = std::fs::read_to_string(&meant).unwrap();
    let events: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();

    // What the referee types: each face and decision; the first growth
    // roll first mistyped then undone; pairs of d20 faces on one line.
    let mut typed = Vec::new();
    let mut mistyped = false;
    let mut pairs = 0;
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        if let Some(face) = e["roll"].as_u64() {
            let die = e["die"].as_str().unwrap_or("");
            let next_d20 = events
                .get(i + 1)
                .is_some_and(|n| n["die"].as_str() == Some("d20"));
            if die == "d20" && next_d20 {
                typed.push(format!("{face} {}", events[i + 1]["roll"]));
                pairs += 1;
                i += 2;
                continue;
            }
            if !mistyped && ["d4", "d6", "d8"].contains(&die) {
                let wrong = if face == 1 { 2 } else { face - 1 };
                typed.push(wrong.to_string());
                typed.push("undo".to_string());
                mistyped = true;
            }
            typed.push(face.to_string());
        } else {
            typed.push(e["act"].as_str().unwrap().to_string());
        }
        i += 1;
    }
    assert!(
        mistyped && pairs > 0,
        "the game has a growth roll and a spawn"
    );

    let table = dir.join("table.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_roots"))
        .args([
            "play",
            "standard",
            "--players",
            "human,human",
            "--dice",
            "manual",
            "--record",
            table.to_str().unwrap(),
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = typed.join("\n") + "\n";
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("undone: a roll of"), "the undo is narrated");
    assert!(
        stdout.contains("game over"),
        "the game was played to the end"
    );
    assert!(
        stdout.contains("typed ahead"),
        "the second d20 came from the same line"
    );

    // The record holds the mistake and the undo, and otherwise the meant
    // game's events, in order.
    let recorded: Vec<String> = std::fs::read_to_string(&table)
        .unwrap()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect();
    let undo_at = recorded.iter().position(|l| l == "{\"undo\":1}").unwrap();
    assert_eq!(recorded.iter().filter(|l| l.contains("undo")).count(), 1);
    let mut kept = recorded.clone();
    kept.drain(undo_at - 1..=undo_at);
    let meant_lines: Vec<String> = text.lines().skip(1).map(str::to_string).collect();
    assert_eq!(kept, meant_lines);

    // Replayed, the record gives the meant game: the same end, scores and
    // board.
    let a = roots(&["replay", meant.to_str().unwrap(), "--format", "json"]).json();
    let b = roots(&["replay", table.to_str().unwrap(), "--format", "json"]).json();
    assert_eq!(b["finished"], true);
    for key in ["scores", "winners", "end_reason", "turns"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let n = recorded.len().to_string();
    let m = meant_lines.len().to_string();
    let board_b = roots(&[
        "replay",
        table.to_str().unwrap(),
        "--until",
        &n,
        "--format",
        "json",
    ])
    .json();
    let board_a = roots(&[
        "replay",
        meant.to_str().unwrap(),
        "--until",
        &m,
        "--format",
        "json",
    ])
    .json();
    assert_eq!(board_a["board"], board_b["board"]);
    // Just before the undo the board shows the mistyped roll's node; just
    // after, the game is back where it was before it.
    let before = roots(&[
        "replay",
        table.to_str().unwrap(),
        "--until",
        &(undo_at - 1).to_string(),
        "--format",
        "json",
    ])
    .json();
    let after = roots(&[
        "replay",
        table.to_str().unwrap(),
        "--until",
        &(undo_at + 1).to_string(),
        "--format",
        "json",
    ])
    .json();
    assert_eq!(before["board"], after["board"]);
    assert_eq!(before["next"], after["next"]);
    // `--list` shows the undo in its place.
    let list = roots(&["replay", table.to_str().unwrap(), "--list"]);
    assert!(
        list.stdout.contains(&format!(
            "{:>6}  undo: the last roll or decision is taken back",
            undo_at + 1
        )),
        "{}",
        list.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}
