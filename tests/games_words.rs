//! The games' own words for people (issue 51's newcomer list, the items
//! that live in the games): help lines, the legal list, the meanings of a
//! changed key, and a tie rule that takes effect where the rules say.

use std::sync::Arc;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::roots_and_shoots::{Action, RootsAndShoots, Rules};
use roots::games::roots_growy_roots::RootsGrowyRoots;

use crate::common::{roots_in, tmp_dir};

/// Roots and Shoots' legal list names the growth actions in words, which
/// the prompt reads back.
#[test]
fn the_legal_list_names_growth_actions_in_words() {
    let mut state = RootsAndShoots::new_state(Arc::new(Rules::standard()), 2).expect("a new game");
    let mut dice = SeededDice::new(1, 0);
    let mut legal = Vec::new();
    // Play the first turn out until the first growth choice.
    for _ in 0..200 {
        match state.next() {
            Next::Decide(_) => {
                state.legal_actions(&mut legal);
                if legal.iter().any(|a| matches!(a, Action::Grow(_))) {
                    break;
                }
                let a = state.random_action(&mut dice);
                state.play(a).expect("a legal action");
            }
            Next::Chance(die) => {
                let face = dice.roll(die);
                state.roll(face).expect("a face of the die");
            }
            _ => panic!("the game ended in its first turn"),
        }
    }
    let text = RootsAndShoots::legal_text(&state);
    assert!(text.contains("grow new plant (d4)"), "{text}");
    assert!(text.contains("grow simple growth (d8)"), "{text}");
    assert!(
        !text.contains("new_plant") && !text.contains("simple_growth"),
        "{text}"
    );
    let typed = RootsAndShoots::interpret(&state, "grow new plant").expect("read back");
    assert_eq!(
        RootsAndShoots::format_action(&state, typed),
        "grow new_plant"
    );
}

/// Roots Growy Roots' help line for bridges says where a bridge goes.
#[test]
fn the_bridge_help_line_says_where_the_bridge_goes() {
    let help = RootsGrowyRoots::ACTION_HELP;
    let line: String = help
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("bridge"))
        .take(2)
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        line.contains("two cells away in a straight line, over a connector on the cell between"),
        "{line}"
    );
    assert!(!line.contains("between to"), "{line}");
}

/// A limit of one round is "1 round" in the meaning of the change (the
/// differences at the top of the sheet, and `roots diff`).
#[test]
fn one_round_is_singular() {
    let dir = tmp_dir("games_words", "one_round");
    {
        let run = roots_in(
            &dir,
            &["explain", "standard", "--set", "end.max_rounds=1"],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.transcript());
        assert!(run.stdout.contains("after 1 round"), "{}", run.stdout);
        assert!(!run.stdout.contains("1 rounds"), "{}", run.stdout);
    }
}

/// Sprout-R-Out's `rules.tie = "mover-wins"` takes effect at the two-pass
/// ending: seeded game 908 of random play ends after two passes at 37 each;
/// under `draw` both seats share it, under `mover-wins` X, the second to
/// pass, wins (the game's outcome, as `replay` says it).
#[test]
fn mover_wins_breaks_a_tie_at_the_two_pass_ending() {
    let dir = tmp_dir("games_words", "mover_wins");
    for (tie, expected) in [
        (
            "draw",
            "winners (tie): X (seat 1, random), O (seat 2, random)",
        ),
        ("mover-wins", "winner: X (seat 1, random)"),
    ] {
        let record = format!("g-{tie}.jsonl");
        let set = format!("rules.tie={tie}");
        let run = roots_in(
            &dir,
            &[
                "simulate",
                "sprout-r-out",
                "--set",
                &set,
                "--bots",
                "random,random",
                "-n",
                "909",
                "--seed",
                "1",
                "--record-game",
                "908",
                "--record",
                &record,
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.transcript());
        let run = roots_in(&dir, &["replay", &record], "");
        assert_eq!(run.code, 0, "{}", run.transcript());
        assert!(
            run.stdout.contains("game over (both players pass)"),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("scores: X 37, O 37"), "{}", run.stdout);
        assert!(run.stdout.contains(expected), "{tie}: {}", run.stdout);
    }
}
