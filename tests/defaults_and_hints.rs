//! Defaults that fit the variant and hints for a newcomer's mistakes, run on
//! the real binary: the seat count of a fixed-count variant, `roots games`
//! naming it, did-you-mean for a game key and a bot, the end said in words.

use crate::common;

use common::{roots, roots_in, tmp_dir};

#[test]
fn a_fixed_count_variant_sets_the_seat_count() {
    let run = roots(&[
        "simulate", "rgr-4p", "-n", "2", "--seed", "1", "--format", "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let json = run.json();
    assert_eq!(json["players"], 4, "{}", run.stdout);
    // A range keeps 2 unless told.
    let run = roots(&[
        "simulate", "btt", "-n", "2", "--seed", "1", "--format", "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(run.json()["players"], 2);
    // And --players still wins.
    let run = roots(&["simulate", "rgr-4p", "-n", "2", "--players", "3"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("is for 4 players, not 3"),
        "{}",
        run.stderr
    );
}

#[test]
fn roots_games_names_each_variants_seat_count() {
    let run = roots(&["games"]);
    assert_eq!(run.code, 0);
    for shown in [
        "rgr-4p (4 players)",
        "rgr-3p (3 players)",
        "roots-growy-roots (2 to 4 players)",
        "sprout-r-out (2 players)",
        "btt (2 to 6 players)",
    ] {
        assert!(run.stdout.contains(shown), "no `{shown}`:\n{}", run.stdout);
    }
}

#[test]
fn a_game_named_like_a_variant_gets_its_key() {
    let dir = tmp_dir("hints", "game-key");
    std::fs::write(dir.join("mine.toml"), "game = \"btt\"\nname = \"mine\"\n").expect("write");
    let run = roots_in(&dir, &["validate", "mine.toml"], "");
    assert_ne!(run.code, 0);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("game = \"branches\""), "{all}");
    std::fs::write(dir.join("mine.toml"), "game = \"rgr\"\nname = \"mine\"\n").expect("write");
    let run = roots_in(&dir, &["validate", "mine.toml"], "");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("game = \"roots-growy-roots\""), "{all}");
}

#[test]
fn an_unknown_bot_gets_a_did_you_mean() {
    let run = roots(&["simulate", "btt", "-n", "2", "--bots", "gredy"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("did you mean `greedy`?"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_end_is_said_in_words() {
    let dir = tmp_dir("hints", "end-words");
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt-arcade",
            "--players",
            "greedy,greedy",
            "--seed",
            "3",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("game over (the board is full)"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout
            .lines()
            .any(|l| l.starts_with("game over") && l.contains("board_full")),
        "{}",
        run.stdout
    );
    // The page of a game without chance speaks of no dice.
    let run = roots_in(&dir, &["view", "g.jsonl", "-o", "g.html"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let page = std::fs::read_to_string(dir.join("g.html")).expect("the page");
    assert!(page.contains("seed 3"), "the header names the seed");
    assert!(!page.contains("dice auto"), "a BTT page speaks of dice");
}

#[test]
fn a_missing_file_named_like_a_built_in_suggests_the_name() {
    let dir = tmp_dir("hints", "built-in-file");
    let run = roots_in(&dir, &["show", "variants/fewer-beads.toml"], "");
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("`fewer-beads` is a built-in variant"),
        "{}",
        run.stderr
    );
    std::fs::write(
        dir.join("mine.toml"),
        "extends = \"standard.toml\"\nname = \"mine\"\n",
    )
    .expect("write");
    let run = roots_in(&dir, &["validate", "mine.toml"], "");
    assert_ne!(run.code, 0);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("write extends = \"standard\""), "{all}");
}
