//! Issue #15 through the real binary: competent bots by default, the
//! seat-advantage verdict only where it means something, the note on random
//! bots, and `roots ladder` (reproducible by seed across --jobs).

use crate::common;

use common::roots;

/// With no --bots, every seat is the greedy bot: the report names it, and
/// judges the seats.
#[test]
fn simulate_defaults_to_greedy_for_every_seat() {
    let run = roots(&["simulate", "-n", "20", "--seed", "5", "-j", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
    let json = roots(&[
        "simulate", "-n", "4", "--seed", "5", "--format", "json", "-j", "1",
    ])
    .json();
    assert_eq!(json["bots"], serde_json::json!(["greedy"]));
    assert!(json["seat_balance"]["p_value"].is_number());
}

/// Different bots in fixed seats: no first-player verdict, and the reason.
#[test]
fn different_fixed_bots_get_no_seat_verdict() {
    let run = roots(&[
        "simulate",
        "-n",
        "10",
        "--seed",
        "2",
        "--bots",
        "greedy,random",
        "-j",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
    assert!(
        run.stdout
            .contains("First-player advantage: not judged: the seats have different bots"),
        "{}",
        run.stdout
    );
    let json = roots(&[
        "simulate",
        "-n",
        "4",
        "--seed",
        "2",
        "--bots",
        "greedy,random",
        "--format",
        "json",
        "-j",
        "1",
    ])
    .json();
    assert!(json["seat_balance"].is_null());
    assert!(
        json["seat_balance_absent"]
            .as_str()
            .is_some_and(|s| s.contains("--rotate"))
    );
}

/// The same bots rotated: the seats are judged again.
#[test]
fn rotated_bots_get_a_seat_verdict() {
    let run = roots(&[
        "simulate",
        "-n",
        "10",
        "--seed",
        "2",
        "--bots",
        "greedy,random",
        "--rotate",
        "-j",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        ["not decided yet", "none:", "seat"]
            .iter()
            .any(|v| run.stdout.contains(&format!("First-player advantage: {v}"))),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("not judged"), "{}", run.stdout);
}

/// A report made with random bots says what that means.
#[test]
fn random_bots_are_explained() {
    let run = roots(&["simulate", "-n", "40", "--seed", "7", "--bots", "random"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
    assert!(run.stdout.contains("Note: Random bots"), "{}", run.stdout);
}

/// `compare` plays greedy bots unless told otherwise.
#[test]
fn compare_defaults_to_greedy() {
    let run = roots(&[
        "compare",
        "standard",
        "one-nutrient-per-turn",
        "-n",
        "20",
        "--seed",
        "3",
        "-j",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    assert_eq!(json["a"]["bots"], serde_json::json!(["greedy"]));
    assert_eq!(json["b"]["bots"], serde_json::json!(["greedy"]));
}

/// `compare --skill` shows both variants' ladders and tests the difference.
#[test]
fn compare_skill_shows_both_ladders() {
    let run = roots(&[
        "compare",
        "standard",
        "pre-rolled-values",
        "-n",
        "10",
        "--seed",
        "3",
        "--skill",
        "random,greedy",
        "--skill-games",
        "6",
        "-j",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.transcript());
}

/// The ladder's table, and the same ratings whatever the number of threads.
/// Roots Growy Roots: a game with chance and hidden cards, whose tree search
/// draws from its own stream, at about a fifteenth of the CPU of Roots and
/// Shoots' ladder (whose search pays 84 greedy playouts a growth decision
/// whatever its budget: about 25 s a run of the debug build, three runs,
/// among the slowest tests of the suite). Few games (4, growing twice to 16).
#[test]
fn ladder_is_reproducible_across_jobs() {
    let args = |jobs: &'static str, format: &'static str| {
        roots(&[
            "ladder",
            "roots-growy-roots",
            "--bots",
            "random,greedy,mcts:5",
            "-n",
            "4",
            "--max-games",
            "16",
            "--seed",
            "4",
            "-j",
            jobs,
            "--format",
            format,
        ])
    };
    let (one, two) = (args("1", "json"), args("2", "json"));
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
    let table = args("2", "table");
    insta::assert_snapshot!(table.transcript());
}

/// Every game has a ladder.
#[test]
fn ladder_runs_for_every_game() {
    for variant in ["btt", "sprout-r-out", "roots-growy-roots"] {
        let run = roots(&[
            "ladder",
            variant,
            "--bots",
            "random,greedy",
            "-n",
            "4",
            "--seed",
            "1",
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 0, "{variant}: {}", run.stderr);
        let json = run.json();
        assert_eq!(json["ratings"].as_array().map(Vec::len), Some(2));
    }
}

/// A variant for three or four players only is laddered with that many
/// seats: the two bots alternate, each holds as many seats (an odd count
/// plays half the games each way round), and the run is reproducible
/// across `--jobs`. (It was refused: "a ladder plays two-player games".)
#[test]
fn ladder_of_a_variant_for_more_than_two_players() {
    for (variant, seats) in [("rgr-3p", 3), ("rgr-4p", 4)] {
        let args = |jobs: &'static str| {
            roots(&[
                "ladder",
                variant,
                "--bots",
                "random,greedy",
                "-n",
                "6",
                "--max-games",
                "6",
                "--seed",
                "2",
                "-j",
                jobs,
                "--format",
                "json",
            ])
        };
        let (one, two) = (args("1"), args("2"));
        assert_eq!(one.code, 0, "{variant}: {}", one.stderr);
        assert_eq!(
            one.stdout, two.stdout,
            "{variant}: --jobs changed the ladder"
        );
        let json = one.json();
        assert_eq!(json["players"], seats, "{variant}");
        let p = &json["pairings"][0];
        assert_eq!(p["games"], 6, "{variant}: {p}");
        let played = p["a_wins"].as_u64().unwrap()
            + p["b_wins"].as_u64().unwrap()
            + p["ties"].as_u64().unwrap();
        assert_eq!(played, 6, "{variant}: every game is a win or a tie: {p}");
        let table = roots(&[
            "ladder",
            variant,
            "--bots",
            "random,greedy",
            "-n",
            "6",
            "--seed",
            "2",
        ]);
        assert!(
            table
                .stdout
                .contains("-player games, the two bots in alternate seats"),
            "{}",
            table.stdout
        );
    }
}

#[test]
fn ladder_mistakes_get_clear_errors() {
    let cases: &[&[&str]] = &[
        &["ladder", "--bots", "greedy", "--seed", "1"],
        &["ladder", "--bots", "greedy,greedy", "--seed", "1"],
        &["ladder", "--bots", "greedy,minimax", "--seed", "1"],
        &["ladder", "-n", "0", "--seed", "1"],
    ];
    let mut out = String::new();
    for args in cases {
        let run = roots(args);
        assert_ne!(run.code, 0, "{args:?}");
        out.push_str(&format!("$ roots {}\n{}", args.join(" "), run.transcript()));
    }
    insta::assert_snapshot!(out);
}
