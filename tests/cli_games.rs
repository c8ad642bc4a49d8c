//! Every command through the real binary for the games other than Roots and
//! Shoots: Branches & Twigs & Thorns (`branches`) and Sprout-R-Out, plus
//! `roots games`, `roots schema --game` and old records without a game name.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Run, roots, roots_in};

/// A fresh, empty directory under the target's temp dir.
fn tmp_dir(name: &str) -> PathBuf {
    common::tmp_dir("cli-games", name)
}

fn first_line(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("record");
    let header = text.lines().next().expect("a header line");
    serde_json::from_str(header).expect("the header is JSON")
}

// --- simulate -------------------------------------------------------------

#[test]
fn simulate_btt_four_players_table() {
    let run = roots(&[
        "simulate",
        "btt",
        "--players",
        "4",
        "-n",
        "200",
        "--seed",
        "7",
        "--bots",
        "greedy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn simulate_btt_four_players_json_has_four_seats_and_btt_counts() {
    let run = roots(&[
        "simulate",
        "btt",
        "--players",
        "4",
        "-n",
        "200",
        "--seed",
        "7",
        "--bots",
        "greedy",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["variant"], "btt");
    assert_eq!(v["players"], 4);
    assert_eq!(v["games"], 200);
    assert_eq!(v["seats"].as_array().expect("seats").len(), 4);
    // A chessboard with two nulls and two roots fills after 60 pyramids.
    assert_eq!(v["end_reasons"]["board_full"]["count"], 200);
    assert!(v["end_reasons"].get("stashes_empty").is_some());
    assert!(v["end_reasons"].get("no_moves").is_some());
    for key in [
        "penalties_paid",
        "coins_to_pot",
        "coins_to_owners",
        "coin_resets",
        "pyramids_placed",
        "pointed_at_root",
        "pointed_at_own",
    ] {
        assert_eq!(v[key]["n"], 200, "{key} in {v}");
    }
    assert_eq!(v["pyramids_placed"]["min"], 60);
    assert_eq!(v["pyramids_placed"]["max"], 60);
    let wins: u64 = v["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| s["wins"]["count"].as_u64().expect("count"))
        .sum();
    assert_eq!(wins + v["ties"]["count"].as_u64().expect("ties"), 200);
}

#[test]
fn simulate_sprout_r_out_table() {
    let run = roots(&["simulate", "sprout-r-out", "-n", "100", "--seed", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn simulate_sprout_r_out_json_has_two_seats_and_sprout_counts() {
    let run = roots(&[
        "simulate",
        "sprout-r-out",
        "-n",
        "100",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["variant"], "sprout-r-out");
    assert_eq!(v["seats"].as_array().expect("seats").len(), 2);
    let majority = v["end_reasons"]["majority"]["count"].as_u64().expect("n");
    let double_pass = v["end_reasons"]["double_pass"]["count"]
        .as_u64()
        .expect("n");
    assert_eq!(majority + double_pass, 100);
    for key in ["turns", "sub_moves", "placements", "removals", "passes"] {
        assert_eq!(v[key]["n"], 100, "{key} in {v}");
    }
}

#[test]
fn simulate_sprout_r_out_ludii_on_cairo_names_the_set_in_the_table() {
    let run = roots(&[
        "simulate",
        "sprout-r-out-ludii",
        "--set",
        "board.shape=cairo-1",
        "-n",
        "100",
        "--seed",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("Variant `sprout-r-out-ludii --set board.shape=cairo-1`"),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn simulate_sprout_r_out_ludii_on_cairo_names_the_set_in_json() {
    let run = roots(&[
        "simulate",
        "sprout-r-out-ludii",
        "--set",
        "board.shape=cairo-1",
        "-n",
        "100",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["variant"], "sprout-r-out-ludii --set board.shape=cairo-1");
    assert_eq!(v["games"], 100);
    assert_eq!(v["seats"].as_array().expect("seats").len(), 2);
    assert!(v["end_reasons"].get("majority").is_some());
}

// --- validate -------------------------------------------------------------

#[test]
fn validate_btt_file_reports_all_three_mistakes_at_file_line_col() {
    let run = roots(&["validate", "tests/games/btt-three-mistakes.toml"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let f = "tests/games/btt-three-mistakes.toml";
    assert!(
        run.stdout
            .contains(&format!("{f}:7:1: error: unknown key `smal`"))
    );
    assert!(
        run.stdout
            .contains(&format!("{f}:10:9: error: `coins.start` is 500"))
    );
    assert!(
        run.stdout
            .contains(&format!("{f}:13:14: error: `play.when_stuck`"))
    );
    assert!(run.stdout.contains("(3 errors)"));
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn validate_sprout_r_out_file_reports_both_mistakes_at_file_line_col() {
    let run = roots(&["validate", "tests/games/sprout-two-mistakes.toml"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    let f = "tests/games/sprout-two-mistakes.toml";
    assert!(
        run.stdout
            .contains(&format!("{f}:7:1: error: unknown key `grups`"))
    );
    assert!(
        run.stdout
            .contains(&format!("{f}:10:7: error: `rules.tie`"))
    );
    assert!(run.stdout.contains("(2 errors)"));
    insta::assert_snapshot!(run.transcript());
}

// --- compare --------------------------------------------------------------

#[test]
fn compare_btt_with_martian_go() {
    let run = roots(&[
        "compare",
        "btt",
        "btt-martian-go",
        "-n",
        "200",
        "--seed",
        "2",
        "--bots",
        "greedy",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn compare_refuses_variants_of_two_different_games() {
    let run = roots(&["compare", "standard", "btt"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("`standard` is a Roots and Shoots variant")
            && run
                .stderr
                .contains("`btt` a Branches & Twigs & Thorns variant"),
        "{}",
        run.stderr
    );
    insta::assert_snapshot!(run.transcript());
}

// --- play, resume, replay ---------------------------------------------------

#[test]
fn btt_scripted_play_with_mistakes_then_resume_then_replay() {
    let dir = tmp_dir("btt-scripted");
    // A legal null, a pyramid pointing at an empty cell, a malformed size,
    // then the helps and quit.
    let script = "b1\nc3 2 N\nc3 9 Q\nlegal\nhelp\nquit\n";
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "human,greedy",
            "--seed",
            "3",
            "--record",
            "g.jsonl",
        ],
        script,
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let o = &run.stdout;
    assert!(o.contains("A (human): null b1"), "{o}");
    assert!(o.contains("B (greedy): root d1"), "{o}");
    assert!(
        o.contains("illegal: c3 2 N: c3 pointing N points at c4, which is empty"),
        "{o}"
    );
    assert!(o.contains("not understood: `9` is not a size"), "{o}");
    assert!(
        o.contains("d2 1 S, d2 2 S, d2 3 S, c1 1 E, c1 2 E, c1 3 E, e1 1 W, e1 2 W, e1 3 W"),
        "{o}"
    );
    assert!(o.contains("Commands:"), "{o}");
    assert!(o.contains("game stopped after 2 events"), "{o}");
    assert!(
        o.contains("resume with: roots play --resume g.jsonl"),
        "{o}"
    );
    insta::assert_snapshot!("btt_scripted_play", run.transcript());

    let record = dir.join("g.jsonl");
    let rec = std::fs::read_to_string(&record).expect("record");
    assert_eq!(
        rec.lines().skip(1).collect::<Vec<_>>(),
        [
            r#"{"act":"null b1","seat":0}"#,
            r#"{"act":"root d1","seat":1}"#
        ],
        "only accepted events are recorded"
    );
    assert_eq!(first_line(&record)["game"], "branches");

    let run = roots_in(
        &dir,
        &["play", "--resume", "g.jsonl"],
        "d2 2 S\nboard\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("resuming g.jsonl after 2 events (human, greedy)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("A (human): d2 2 S"), "{}", run.stdout);
    assert!(
        run.stdout.contains("game stopped after 4 events"),
        "{}",
        run.stdout
    );
    let after = std::fs::read_to_string(&record).expect("record");
    assert!(after.starts_with(&rec), "resuming only appends");
    assert_eq!(after.lines().count(), 5);

    let run = roots_in(&dir, &["replay", "g.jsonl"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("g.jsonl: variant btt, 2 players (human, greedy), seed 3"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("4 events; the game is not finished"),
        "{}",
        run.stdout
    );
}

/// Plays a bots-only game to the end, replays it, and returns the replay's
/// JSON and the record's header.
fn bots_game(
    name: &str,
    variant: &str,
    players: &str,
) -> (Run, serde_json::Value, serde_json::Value) {
    let dir = tmp_dir(name);
    let played = roots_in(
        &dir,
        &[
            "play",
            variant,
            "--players",
            players,
            "--seed",
            "5",
            "--record",
            "f.jsonl",
        ],
        "",
    );
    assert_eq!(played.code, 0, "{}", played.transcript());
    assert!(played.stdout.contains("game over"), "{}", played.stdout);
    let replay = roots_in(&dir, &["replay", "f.jsonl", "--format", "json"], "");
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    (played, replay.json(), first_line(&dir.join("f.jsonl")))
}

#[test]
fn btt_bots_play_to_the_end_and_the_replay_agrees() {
    let (played, replay, header) = bots_game("btt-bots", "btt", "greedy,random");
    assert_eq!(header["game"], "branches");
    assert_eq!(header["variant"]["name"], "btt");
    assert_eq!(replay["game"], "branches");
    assert_eq!(replay["finished"], true);
    assert_eq!(replay["end_reason"], "board_full");
    // 8x4: one null, one root and thirty pyramids.
    assert_eq!(replay["events"], 32);
    let scores = replay["scores"].as_array().expect("scores");
    assert_eq!(scores.len(), 2);
    let line = format!("scores: A {}, B {}", scores[0], scores[1]);
    assert!(played.stdout.contains(&line), "{line} in {}", played.stdout);
    insta::assert_snapshot!(played.transcript());
}

#[test]
fn sprout_r_out_bots_play_to_the_end_and_the_replay_agrees() {
    let (played, replay, header) = bots_game("sprout-bots", "sprout-r-out", "random,greedy");
    assert_eq!(header["game"], "sprout-r-out");
    assert_eq!(header["variant"]["name"], "sprout-r-out");
    assert_eq!(replay["game"], "sprout-r-out");
    assert_eq!(replay["finished"], true);
    let scores = replay["scores"].as_array().expect("scores");
    assert_eq!(scores.len(), 2);
    if replay["end_reason"] == "majority" {
        // 75 cells: the winner's territory covers more than half.
        let top = scores.iter().filter_map(|s| s.as_u64()).max().expect("max");
        assert!(top * 2 > 75, "{replay}");
    }
    // Sprout-R-Out's seats are X and O, on the board and in the result.
    let line = format!("scores: X {}, O {}", scores[0], scores[1]);
    assert!(played.stdout.contains(&line), "{line} in {}", played.stdout);
    insta::assert_snapshot!(played.transcript());
}

// --- authoring ------------------------------------------------------------

#[test]
fn explain_btt_literal_wiki() {
    let run = roots(&["explain", "btt-literal-wiki"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("- `scoring.owner_paid_by`: \"pot\" → \"mover\""),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn show_sprout_r_out_ludii_is_a_valid_variant_file() {
    let run = roots(&["show", "sprout-r-out-ludii"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let first = run
        .stdout
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .expect("a non-comment line");
    assert_eq!(first, r#"game = "sprout-r-out""#);
    insta::assert_snapshot!(run.transcript());

    let dir = tmp_dir("show");
    std::fs::write(dir.join("shown.toml"), &run.stdout).expect("write");
    let check = roots_in(&dir, &["validate", "shown.toml"], "");
    assert_eq!(check.code, 0, "{}", check.transcript());
    assert!(
        check
            .stdout
            .contains("ok: shown.toml (variant sprout-r-out-ludii)")
    );
    // The file on its own plays the same rules: nothing differs from the built-in.
    let diff = roots_in(&dir, &["diff", "sprout-r-out-ludii", "shown.toml"], "");
    assert_eq!(diff.code, 0, "{}", diff.transcript());
    assert!(!diff.stdout.contains(" → \""), "{}", diff.stdout);
}

#[test]
fn diff_btt_and_btt_arcade() {
    let run = roots(&["diff", "btt", "btt-arcade"]);
    assert_eq!(run.code, 1, "they differ: {}", run.stderr);
    assert!(run.stdout.contains("4 rules differ"));
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn new_variant_extending_btt_validates() {
    let dir = tmp_dir("new");
    let made = roots_in(&dir, &["new", "mine", "--extends", "btt"], "");
    assert_eq!(made.code, 0, "{}", made.transcript());
    let text = std::fs::read_to_string(dir.join("mine.toml")).expect("mine.toml");
    assert!(text.contains(r#"extends = "btt""#), "{text}");
    let check = roots_in(&dir, &["validate", "mine.toml"], "");
    assert_eq!(check.code, 0, "{}", check.transcript());
    assert!(check.stdout.contains("ok: mine.toml (variant mine)"));
    // It is a Branches variant, not Roots and Shoots.
    let explained = roots_in(&dir, &["explain", "mine.toml"], "");
    assert_eq!(explained.code, 0, "{}", explained.transcript());
    assert!(
        explained
            .stdout
            .starts_with("# mine: the rules of Branches & Twigs & Thorns"),
        "{}",
        explained.stdout
    );
}

// --- games, schema, old records ----------------------------------------------

#[test]
fn games_lists_the_four_games() {
    let run = roots(&["games"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn games_json_lists_each_game_with_its_variants() {
    let run = roots(&["games", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let games = v.as_array().expect("an array");
    assert_eq!(games.len(), 4);
    let variants = |key: &str| -> Vec<String> {
        let g = games
            .iter()
            .find(|g| g["game"] == key)
            .unwrap_or_else(|| panic!("no {key} in {v}"));
        g["variants"]
            .as_array()
            .expect("variants")
            .iter()
            .map(|s| s.as_str().expect("name").to_string())
            .collect()
    };
    assert_eq!(variants("roots-and-shoots")[0], "standard");
    assert_eq!(variants("roots-and-shoots").len(), 7);
    assert_eq!(
        variants("branches"),
        ["btt", "btt-martian-go", "btt-arcade", "btt-literal-wiki"]
    );
    assert_eq!(
        variants("sprout-r-out"),
        ["sprout-r-out", "sprout-r-out-ludii"]
    );
    assert_eq!(variants("roots-growy-roots")[0], "roots-growy-roots");
    for g in games {
        let schema = g["schema"].as_str().expect("schema");
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(schema).is_file(),
            "{schema} is shipped"
        );
    }
}

#[test]
fn a_record_from_before_games_had_names_still_replays() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/good.jsonl");
    let header = first_line(&path);
    assert!(header.get("game").is_none(), "{header}");
    let run = roots(&["replay", "tests/records/good.jsonl"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = roots(&["replay", "tests/records/good.jsonl", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.json()["game"], "roots-and-shoots");
}

#[test]
fn schema_for_branches_is_the_branches_schema() {
    let run = roots(&["schema", "--game", "branches"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let id = v["$id"].as_str().expect("$id");
    assert!(id.contains("branches"), "{id}");
    assert_eq!(v["properties"]["game"]["const"], "branches");
}

#[test]
fn schema_for_an_unknown_game_names_the_games() {
    let run = roots(&["schema", "--game", "chess"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("chess"), "{}", run.stderr);
    for game in ["roots-and-shoots", "branches", "sprout-r-out"] {
        assert!(run.stderr.contains(game), "{}", run.stderr);
    }
}

/// `--set board=cairo-1` names a value of one key of the `board` table: the
/// error says which key, and the suggested option works.
#[test]
fn set_a_table_to_a_value_of_one_of_its_keys_suggests_that_key() {
    let run = roots(&[
        "simulate",
        "sprout-r-out-ludii",
        "--set",
        "board=cairo-1",
        "-n",
        "2",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("\"cairo-1\" is a value of its key `shape`: --set board.shape=cairo-1"),
        "{}",
        run.stderr
    );
    let run = roots(&[
        "simulate",
        "sprout-r-out-ludii",
        "--set",
        "board.shape=cairo-1",
        "-n",
        "20",
        "--seed",
        "5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("cairo-1"), "{}", run.stdout);
}
