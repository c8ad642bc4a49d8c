//! Invariants over 10,000 seeded random games of every shipped BTT variant and
//! player count, checked after every move: one piece per cell and stashes
//! conserved (`check_invariants` recounts everything), the score change of
//! every move is what the rules say, the board is full exactly when the
//! stashes are empty, a legal move exists until the end, every game ends,
//! `random_action` only draws legal actions. In a sample of the games, also:
//! the same seed plays the same game, every legal action's text reads back
//! to it, and illegal actions are refused with the state unchanged.

use std::collections::HashSet;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next, Refusal};
use roots::games::branches::rules::OwnerPaidBy;
use roots::games::branches::{
    Action, BUILTINS, Dir, Piece, Rules, State, builtin, format_action, parse_action,
};

const GAMES: u64 = 10_000;
/// Games per configuration that also get the expensive checks.
const DEEP: u64 = 40;

/// The score change the rules give for placing `action` in `state`.
fn expected_delta(state: &State, action: Action) -> Vec<i32> {
    let mut delta = vec![0; usize::from(state.players())];
    if let Action::Place { cell, size, dir } = action {
        let mover = state.to_move();
        let t = state.board().neighbour(cell, dir);
        if let Piece::Pyramid {
            seat, size: tsize, ..
        } = state.piece(t)
            && seat != mover
        {
            let (pays, gain) = match state.rules().scoring.owner_paid_by {
                OwnerPaidBy::Pot => (tsize, size),
                OwnerPaidBy::Mover => (tsize + size, size),
                OwnerPaidBy::Nobody => (tsize, 0),
            };
            delta[usize::from(mover)] -= i32::from(pays);
            delta[usize::from(seat)] += i32::from(gain);
        }
    }
    delta
}

/// Actions that must be refused here, if any can be built.
fn illegal_candidates(state: &State, legal: &[Action]) -> Vec<Action> {
    let cells = state.board().cells() as u8;
    let set: HashSet<Action> = legal.iter().copied().collect();
    let mut out = Vec::new();
    for c in 0..cells {
        for a in [
            Action::Null(c),
            Action::Root(c),
            Action::Place {
                cell: c,
                size: 2,
                dir: Dir::N,
            },
            Action::Place {
                cell: c,
                size: 1,
                dir: Dir::W,
            },
        ] {
            if !set.contains(&a) {
                out.push(a);
            }
        }
        if out.len() >= 6 {
            break;
        }
    }
    out.push(Action::Place {
        cell: 200,
        size: 1,
        dir: Dir::E,
    });
    out.push(Action::Place {
        cell: 0,
        size: 0,
        dir: Dir::E,
    });
    out.push(Action::Place {
        cell: 0,
        size: 9,
        dir: Dir::E,
    });
    out
}

/// Play game `g`; returns the actions played.
fn play_game(rules: &Rules, players: u8, g: u64, deep: bool) -> Result<Vec<Action>, String> {
    let mut state = State::new(rules, players);
    let mut dice = SeededDice::for_game(0xB77, g);
    let mut legal = Vec::new();
    let mut played = Vec::new();
    let fits = rules
        .pyramids
        .stash()
        .iter()
        .map(|&n| usize::from(n))
        .sum::<usize>()
        * usize::from(players)
        + usize::from(players)
        == state.board().cells();
    let limit = state.board().cells() + 1;
    loop {
        state.check_invariants()?;
        let stashes_empty = (0..players).all(|s| state.stash(s) == [0, 0, 0]);
        match state.next() {
            Next::Over => {
                let end =
                    roots::games::branches::end_reason(&state).ok_or("over without a reason")?;
                if fits && (end != "board_full" || !stashes_empty) {
                    return Err(format!("ended `{end}` with stashes empty: {stashes_empty}"));
                }
                state.legal_actions(&mut legal);
                if !legal.is_empty() {
                    return Err("legal actions after the end".into());
                }
                if state.outcome().is_none() {
                    return Err("no outcome at the end".into());
                }
                if state.play(Action::Null(0)) != Err(Refusal::GameOver) {
                    return Err("an action after the end is not refused as game over".into());
                }
                return Ok(played);
            }
            Next::Chance(_) | Next::Draw => {
                return Err("a chance node in a chance-free game".into());
            }
            Next::Decide(seat) => {
                if seat >= players {
                    return Err(format!("seat {seat} decides"));
                }
                if fits && stashes_empty {
                    return Err("stashes empty but the game goes on".into());
                }
                state.legal_actions(&mut legal);
                if legal.is_empty() {
                    return Err("no legal action at a decision node".into());
                }
                let a = state.random_action(&mut dice);
                if !legal.contains(&a) {
                    return Err(format!("random action {a:?} is not in the legal list"));
                }
                if deep {
                    let distinct: HashSet<Action> = legal.iter().copied().collect();
                    if distinct.len() != legal.len() {
                        return Err("the legal list repeats an action".into());
                    }
                    for &l in &legal {
                        let text = format_action(&state, l);
                        match parse_action(&state, &text) {
                            Ok(back) if back == l => {}
                            other => return Err(format!("`{text}` reads back as {other:?}")),
                        }
                        if state.judge(l).is_err() {
                            return Err(format!("legal {l:?} judged illegal"));
                        }
                    }
                    for bad in illegal_candidates(&state, &legal) {
                        let before = state.clone();
                        match state.play(bad) {
                            Err(Refusal::Illegal { reason }) if !reason.is_empty() => {}
                            other => return Err(format!("illegal {bad:?} gave {other:?}")),
                        }
                        if state != before {
                            return Err(format!("refusing {bad:?} changed the state"));
                        }
                    }
                }
                let before = state.scores();
                let delta = expected_delta(&state, a);
                state.play(a).map_err(|e| format!("{a:?} refused: {e}"))?;
                let after = state.scores();
                for s in 0..usize::from(players) {
                    if after[s] - before[s] != delta[s] {
                        return Err(format!(
                            "{a:?}: seat {} score {} -> {}, the rules say {:+}",
                            s + 1,
                            before[s],
                            after[s],
                            delta[s]
                        ));
                    }
                }
                played.push(a);
                if played.len() > limit {
                    return Err("the game does not end".into());
                }
            }
        }
    }
}

fn run_variant(name: &str) {
    let rules = builtin(name).unwrap_or_else(|| panic!("built-in {name} resolves"));
    let mut failures = Vec::new();
    for players in rules.seats() {
        for g in 0..GAMES {
            let deep = g < DEEP;
            match play_game(&rules, players, g, deep) {
                Ok(played) => {
                    if deep {
                        let again = play_game(&rules, players, g, false);
                        if again.as_ref() != Ok(&played) {
                            failures.push(format!(
                                "{name} {players}p game {g}: the same seed played another game"
                            ));
                        }
                    }
                }
                Err(e) => failures.push(format!("{name} {players}p game {g}: {e}")),
            }
            if failures.len() > 5 {
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn standard() {
    run_variant("btt");
}

#[test]
fn martian_go() {
    run_variant("btt-martian-go");
}

#[test]
fn arcade() {
    run_variant("btt-arcade");
}

#[test]
fn literal_wiki() {
    run_variant("btt-literal-wiki");
}

#[test]
fn every_builtin_is_tested() {
    let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        ["btt", "btt-martian-go", "btt-arcade", "btt-literal-wiki"]
    );
}

#[test]
fn the_action_is_small() {
    assert!(std::mem::size_of::<Action>() <= 4);
}

#[test]
fn a_broken_rule_is_caught() {
    // The score check can fail: a delta claimed for a free move is wrong.
    let rules = Rules::standard();
    let mut state = State::new(&rules, 2);
    let b1 = state.board().parse_cell("b1").unwrap();
    let c1 = state.board().parse_cell("c1").unwrap();
    state.play(Action::Null(b1)).unwrap();
    state.play(Action::Root(c1)).unwrap();
    let d1 = state.board().parse_cell("d1").unwrap();
    let a = Action::Place {
        cell: d1,
        size: 2,
        dir: Dir::W,
    };
    assert_eq!(expected_delta(&state, a), vec![0, 0]);
    state.play(a).unwrap();
    let e1 = state.board().parse_cell("e1").unwrap();
    let b = Action::Place {
        cell: e1,
        size: 3,
        dir: Dir::W,
    };
    assert_eq!(expected_delta(&state, b), vec![3, -2]);
}

mod hostile_text {
    use proptest::prelude::*;
    use roots::games::branches::{Rules, State, parse_action};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Whatever a person types, reading it never panics.
        #[test]
        fn parse_action_never_panics(text in "\\PC{0,24}") {
            let rules = Rules::standard();
            for players in [2u8, 3] {
                let state = State::new(&rules, players);
                let _ = parse_action(&state, &text);
            }
        }

        /// Nor does reading a drawing, however garbled.
        #[test]
        fn from_drawing_never_panics(lines in proptest::collection::vec("[0-9a-zA-Z.|: /,é-]{0,40}", 0..8)) {
            let text = lines.join("\n");
            let _ = State::from_drawing(&Rules::standard(), 2, &text);
        }
    }
}

#[test]
fn evaluation_and_counters_follow_the_game() {
    use roots::games::branches::{counters, evaluate};
    let rules = Rules::standard();
    let mut state = State::new(&rules, 2);
    let cell = |s: &State, n: &str| s.board().parse_cell(n).unwrap();
    let (b1, c1, d1, e1) = (
        cell(&state, "b1"),
        cell(&state, "c1"),
        cell(&state, "d1"),
        cell(&state, "e1"),
    );
    state.play(Action::Null(b1)).unwrap();
    state.play(Action::Root(c1)).unwrap();
    state
        .play(Action::Place {
            cell: d1,
            size: 3,
            dir: Dir::W,
        })
        .unwrap();
    // B points a large at A's large: B pays 3, A gains 3.
    state
        .play(Action::Place {
            cell: e1,
            size: 3,
            dir: Dir::W,
        })
        .unwrap();
    assert_eq!(state.scores(), vec![3, -3]);
    assert!(evaluate(&state, 0) > evaluate(&state, 1));
    let c = counters(&state);
    let names: Vec<&str> = c.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "plies",
            "pyramids_placed",
            "pointed_at_root",
            "pointed_at_own",
            "penalties_paid",
            "coins_to_pot",
            "coins_to_owners",
            "coin_resets",
            "passes"
        ]
    );
    let get = |n: &str| c.iter().find(|(k, _)| *k == n).unwrap().1;
    assert_eq!(get("plies"), 4);
    assert_eq!(get("penalties_paid"), 1);
    assert_eq!(get("coins_to_pot"), 3);
    assert_eq!(get("coins_to_owners"), 3);
    // B held 5 coins and paid 3: no reset.
    assert_eq!(get("coin_resets"), 0);
    assert_eq!(roots::games::branches::end_reason(&state), None);
    // A chance-free game refuses rolls.
    assert!(matches!(
        state.roll(3),
        Err(Refusal::ExpectedAction { seat: 0 })
    ));
}

#[test]
fn a_fresh_game_is_a_new_game() {
    for name in ["btt", "btt-martian-go"] {
        let rules = builtin(name).unwrap();
        for players in rules.seats() {
            let new = State::new(&rules, players);
            let mut played = new.clone();
            let mut dice = SeededDice::for_game(1, 1);
            roots::core::protocol::play_out_random(&mut played, &mut dice);
            assert_eq!(played.fresh(), new, "{name} {players}p");
        }
    }
}
