//! What the referee says after each event, for every game, as `roots
//! replay --list` prints it: the start and the end of a seeded bot game of
//! each, pinned by snapshots. (Roots and Shoots' narration is pinned in
//! `svg_pictures.rs`, with `--list` itself.)

use crate::common;

use common::roots;

/// `roots replay --list` of a seeded game of `variant`, every line.
fn replay_list(name: &str, variant: &str, players: &str, seed: &str) -> String {
    let dir = std::env::temp_dir().join(format!("roots-narration-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&record);
    let rec = record.to_str().unwrap();
    let r = roots(&[
        "play",
        variant,
        "--players",
        players,
        "--seed",
        seed,
        "--record",
        rec,
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let r = roots(&["replay", rec, "--list"]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let _ = std::fs::remove_dir_all(&dir);
    r.stdout
}

/// The first `head` and last `tail` lines of `replay --list` of a seeded
/// bot game.
fn listing(
    name: &str,
    variant: &str,
    players: &str,
    seed: &str,
    head: usize,
    tail: usize,
) -> String {
    let out = replay_list(name, variant, players, seed);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > head + tail);
    format!(
        "{}\n...\n{}\n",
        lines[..head].join("\n"),
        lines[lines.len() - tail..].join("\n")
    )
}

#[test]
fn roots_growy_roots_says_what_each_card_does_and_how_the_game_ended() {
    let text = listing("rgr", "roots-growy-roots", "random,random", "3", 40, 10);
    assert!(text.contains("onto water: A's income is 2 sticks a turn from next turn"));
    assert!(text.contains("a stone at E3: A's turn ends, 1 stick kept"));
    assert!(text.contains("game over: the last face-down artifact was found"));
    assert!(text.contains("A: water 4 + artifacts 2 + most branches 0 + longest root 3 = 9"));
    insta::assert_snapshot!(text);
}

/// The artifact abilities (rgr-artifacts) are narrated: what each did, a
/// skipped turn, the cards the runes turn over.
#[test]
fn roots_growy_roots_says_what_each_ability_did() {
    let full = replay_list("rgr-abilities", "rgr-artifacts", "greedy,greedy", "1");
    assert!(
        full.contains("A shows Medusa's head to B: B's next turn is skipped"),
        "{full}"
    );
    assert!(
        full.contains("B's turn is skipped (Medusa's head): no sticks, no growth"),
        "{full}"
    );
    assert!(
        full.contains(
            "B raises the was-sceptre: the water at E8 dries, paying no income and no point"
        ),
        "{full}"
    );
    assert!(full.contains("A scores -1 (total 8): water -1"), "{full}");
}

#[test]
fn branches_says_what_each_pyramid_points_at_and_who_paid() {
    let text = listing("btt", "btt", "random,random,random", "4", 40, 10);
    assert!(text.contains("the setup is over: play begins, A to move"));
    assert!(text.contains("at B's medium pyramid on f4: C pays 2, B gets 3"));
    assert!(text.contains("game over: every cell is filled; A wins with 2"));
    insta::assert_snapshot!(text);
}

#[test]
fn sprout_r_out_says_what_was_removed_gained_and_left_to_play_against() {
    let text = listing("sprout", "sprout-r-out", "random,random", "3", 60, 8);
    assert!(text.contains("X's turn is over: O to move"));
    assert!(text.contains("O plays on: 1 stone still to be played against (C3)"));
    assert!(text.contains("X loses 1 stone: C3"));
    assert!(text.contains("O gains 1 eye: B4"));
    assert!(text.contains(
        "game over: a territory covers more than half the board (40 of 75 cells); O (seat 2) wins"
    ));
    insta::assert_snapshot!(text);
}
