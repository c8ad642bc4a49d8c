//! Roots Growy Roots through the real binary: validate, show, explain,
//! simulate, play with bots, replay, and a refereed physical game whose
//! turned cards are typed by name.

use crate::common;

use std::path::PathBuf;

use common::{roots, roots_in};

/// A fresh, empty directory under the target's temp dir.
fn tmp_dir(name: &str) -> PathBuf {
    common::tmp_dir("cli-rgr", name)
}

#[test]
fn every_builtin_validates() {
    for name in [
        "roots-growy-roots",
        "rgr-2p",
        "rgr-3p",
        "rgr-4p",
        "rgr-all-claimed",
        "rgr-artifacts",
    ] {
        let file = format!("variants/{name}.toml");
        let run = roots(&["validate", &file]);
        assert_eq!(run.code, 0, "{name}: {}", run.transcript());
    }
}

#[test]
fn a_deck_that_does_not_fill_the_board_is_placed_at_its_key() {
    let run = roots(&["validate", "tests/games/rgr-short-deck.toml"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(
        run.stdout.contains(
            "tests/games/rgr-short-deck.toml:8:23: error: the main field has 95 face-down cells"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn show_is_a_complete_file_that_validates_and_explain_names_the_keys() {
    let dir = tmp_dir("show");
    let run = roots_in(&dir, &["show", "rgr-3p"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains("\ngame = \"roots-growy-roots\"\n"));
    std::fs::write(dir.join("shown.toml"), &run.stdout).expect("write");
    let again = roots_in(&dir, &["validate", "shown.toml"], "");
    assert_eq!(again.code, 0, "{}", again.transcript());
    let explain = roots(&["explain", "rgr-4p"]);
    assert_eq!(explain.code, 0, "{}", explain.transcript());
    // The sheet says the rules of those keys in words.
    for words in [
        "own start deck: 14 earth",
        "**4 players**",
        "**Bridge** (`bridge D6`). For 3 sticks",
        "the longest path between any two connectors",
    ] {
        assert!(
            explain.stdout.contains(words),
            "{words} in {}",
            explain.stdout
        );
    }
}

#[test]
fn show_and_explain_the_abilities_variant() {
    let dir = tmp_dir("show-artifacts");
    let run = roots_in(&dir, &["show", "rgr-artifacts"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("[artifacts]\nabilities = true\n"),
        "{}",
        run.stdout
    );
    std::fs::write(dir.join("shown.toml"), &run.stdout).expect("write");
    let again = roots_in(&dir, &["validate", "shown.toml"], "");
    assert_eq!(again.code, 0, "{}", again.transcript());
    let explain = roots(&["explain", "rgr-artifacts"]);
    assert_eq!(explain.code, 0, "{}", explain.transcript());
    assert!(
        explain
            .stdout
            .contains("- `artifacts.abilities`: false → true"),
        "{}",
        explain.stdout
    );
    assert!(
        explain.stdout.contains("a house rule of this toolkit"),
        "{}",
        explain.stdout
    );
}

#[test]
fn simulate_four_players_reports_the_game_s_statistics() {
    let run = roots(&[
        "simulate",
        "roots-growy-roots",
        "--players",
        "4",
        "-n",
        "40",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["seats"].as_array().expect("seats").len(), 4);
    let ends: u64 = ["last_artifact", "all_claimed", "blocked", "round_limit"]
        .iter()
        .map(|k| v["end_reasons"][k]["count"].as_u64().expect("a count"))
        .sum();
    assert_eq!(ends, 40);
    for key in [
        "turns",
        "sticks_spent",
        "bridges",
        "stones_hit",
        "water_points",
        "longest_points",
        "decided_by_longest",
    ] {
        assert_eq!(v[key]["n"], 40, "{key} in {v}");
    }
    let table = roots(&["simulate", "rgr-2p", "-n", "30", "--seed", "1"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("the last artifact was found"));
    assert!(table.stdout.contains("won by the longest root"));
}

#[test]
fn bots_play_to_the_end_and_the_replay_agrees() {
    let dir = tmp_dir("bots");
    let played = roots_in(
        &dir,
        &[
            "play",
            "rgr-2p",
            "--players",
            "greedy,mcts",
            "--seed",
            "5",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(played.code, 0, "{}", played.transcript());
    assert!(played.stdout.contains("game over"), "{}", played.stdout);
    let record = std::fs::read_to_string(dir.join("g.jsonl")).expect("record");
    assert!(
        record.contains("{\"draw\":\""),
        "cards are recorded by name"
    );
    let replay = roots_in(&dir, &["replay", "g.jsonl", "--format", "json"], "");
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    let v = replay.json();
    assert_eq!(v["game"], "roots-growy-roots");
    assert_eq!(v["finished"], true);
    let scores = v["scores"].as_array().expect("scores");
    let line = format!("scores: A {}, B {}", scores[0], scores[1]);
    assert!(played.stdout.contains(&line), "{line} in {}", played.stdout);
    // A record whose card was changed to one the deck has none of left is
    // refused at its line.
    let first_draw = record.find("{\"draw\":").expect("a draw");
    let end = record[first_draw..].find('}').expect("}") + first_draw;
    let bad = format!(
        "{}{{\"draw\":\"skry\"{}",
        &record[..first_draw],
        &record[end..]
    );
    std::fs::write(dir.join("bad.jsonl"), bad).expect("write");
    let refused = roots_in(&dir, &["replay", "bad.jsonl"], "");
    assert_ne!(refused.code, 0, "{}", refused.transcript());
    assert!(
        refused.stderr.contains("no skry is left"),
        "{}",
        refused.transcript()
    );
}

/// The house rule's abilities: greedy bots use them (seed 3 plays a deny,
/// a skry and a destroy), the record holds them in their text form and
/// replays to the same scores.
#[test]
fn greedy_bots_use_the_abilities_and_the_record_replays() {
    let dir = tmp_dir("abilities");
    let played = roots_in(
        &dir,
        &[
            "play",
            "rgr-artifacts",
            "--players",
            "greedy,greedy",
            "--seed",
            "3",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(played.code, 0, "{}", played.transcript());
    let record = std::fs::read_to_string(dir.join("g.jsonl")).expect("record");
    for word in ["\"deny ", "\"skry ", "\"destroy "] {
        assert!(record.contains(word), "{word} in the record");
    }
    let replay = roots_in(&dir, &["replay", "g.jsonl", "--format", "json"], "");
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    let v = replay.json();
    assert_eq!(v["finished"], true);
    let scores = v["scores"].as_array().expect("scores");
    let line = format!("scores: A {}, B {}", scores[0], scores[1]);
    assert!(played.stdout.contains(&line), "{line} in {}", played.stdout);
}

/// At the table, the referee types an ability like any decision and is
/// told why one is refused.
#[test]
fn a_referee_types_an_ability() {
    let dir = tmp_dir("referee-abilities");
    let input = "D2\nfertilizer\nD3\nfertilizer\nD4\nfertilizer\nD5\nend\nD6\ndeny\n?\ndeny 1\ndeny 2\nD7\nearth\nquit\n";
    let run = roots_in(
        &dir,
        &[
            "play",
            "rgr-artifacts",
            "--players",
            "human,human",
            "--dice",
            "manual",
            "--seed",
            "1",
        ],
        input,
    );
    assert!(
        run.stdout
            .contains("artifacts ready (once each): deny SEAT (skip that player's next turn)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("not yourself"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("seat 2's turn was skipped (deny); seat 1 starts a turn"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_referee_types_the_cards_turned_over() {
    let dir = tmp_dir("referee");
    let input = "E2\nstone\nC20\nrock\nearth\nD1-D2\nwater\nend\nquit\n";
    let run = roots_in(
        &dir,
        &[
            "play",
            "rgr-2p",
            "--players",
            "human,human",
            "--dice",
            "manual",
            "--record",
            "m.jsonl",
        ],
        input,
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("turn the card over and type what it shows")
    );
    assert!(run.stdout.contains("not `rock`; cards left: earth (14)"));
    assert!(run.stdout.contains("the card is stone"));
    let record = std::fs::read_to_string(dir.join("m.jsonl")).expect("record");
    let events: Vec<&str> = record.lines().skip(1).collect();
    assert_eq!(
        events,
        [
            r#"{"act":"E2","seat":0}"#,
            r#"{"draw":"stone"}"#,
            r#"{"act":"C20","seat":1}"#,
            r#"{"draw":"earth"}"#,
            r#"{"act":"D2","seat":0}"#,
            r#"{"draw":"water"}"#,
            r#"{"act":"end","seat":0}"#,
        ]
    );
    let replay = roots_in(&dir, &["replay", "m.jsonl", "--format", "json"], "");
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    assert_eq!(replay.json()["events"], 7);
}
