//! Roots Growy Roots over many seeded random games of every shipped variant
//! and player count: every invariant recounted from scratch (cards conserved
//! per deck, one connector per cell, no crossing sticks, sticks received =
//! spent + lost + held, roots are trees), every game ends, the same seed
//! gives the same game, refused moves change nothing, records replay, and the
//! cards turned over follow their decks.

use std::sync::Arc;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::roots_growy_roots::state::{Action, FACES};
use roots::games::roots_growy_roots::{RootsGrowyRoots as G, Rules, State};

fn rules(name: &str) -> Arc<Rules> {
    let loaded = roots::variant::resolve_builtin(name).expect("a built-in");
    Arc::clone(G::unwrap(&loaded.rules).expect("a Roots Growy Roots variant"))
}

/// The shipped variants and their player counts.
fn cases() -> Vec<(&'static str, u8)> {
    vec![
        ("rgr-2p", 2),
        ("rgr-3p", 3),
        ("rgr-4p", 4),
        ("roots-growy-roots", 2),
        ("roots-growy-roots", 3),
        ("roots-growy-roots", 4),
        ("rgr-all-claimed", 2),
        ("rgr-all-claimed", 3),
        ("rgr-all-claimed", 4),
        ("rgr-artifacts", 2),
        ("rgr-artifacts", 3),
        ("rgr-artifacts", 4),
    ]
}

/// Play one seeded random game; every step's text (actions and cards).
fn play(
    rules: &Arc<Rules>,
    seats: u8,
    seed: u64,
    check_every: u32,
) -> Result<(State, Vec<String>), String> {
    let mut state = G::new_state(Arc::clone(rules), seats)?;
    let mut dice = SeededDice::for_game(seed, 0);
    let mut log = Vec::new();
    let budget = G::step_budget(rules, seats);
    for step in 0..budget {
        match state.next() {
            Next::Over => {
                G::check_invariants(&state)?;
                if state.outcome().is_none() {
                    return Err("over without an outcome".into());
                }
                return Ok((state, log));
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                log.push(format!("card {}", G::format_draw(&state, face)));
                state
                    .roll(face)
                    .map_err(|e| format!("step {step}: drawn card refused: {e}"))?;
            }
            Next::Chance(_) => return Err("a die in a card game".into()),
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                let text = G::format_action(&state, a);
                if G::parse_action(&state, &text) != Ok(a) {
                    return Err(format!("step {step}: `{text}` does not read back"));
                }
                log.push(text);
                state
                    .play(a)
                    .map_err(|e| format!("step {step}: sampled {a:?} refused: {e}"))?;
            }
        }
        if check_every > 0 && step % u64::from(check_every) == 0 {
            G::check_invariants(&state).map_err(|e| format!("step {step}: {e}"))?;
        }
    }
    Err(format!(
        "seed {seed}: the game did not end within {budget} steps"
    ))
}

#[test]
fn random_games_keep_every_invariant_and_end() {
    for (name, seats) in cases() {
        let r = rules(name);
        for seed in 0..150 {
            play(&r, seats, seed, 1)
                .unwrap_or_else(|e| panic!("{name}, {seats} players, seed {seed}: {e}"));
        }
        for seed in 150..1_500 {
            play(&r, seats, seed, 0)
                .unwrap_or_else(|e| panic!("{name}, {seats} players, seed {seed}: {e}"));
        }
    }
}

#[test]
fn the_same_seed_is_the_same_game() {
    for (name, seats) in cases() {
        let r = rules(name);
        for seed in [3u64, 77] {
            let (a, log_a) = play(&r, seats, seed, 0).expect("a game");
            let (b, log_b) = play(&r, seats, seed, 0).expect("a game");
            assert_eq!(log_a, log_b, "{name}");
            assert_eq!(G::draw(&a), G::draw(&b), "{name}");
        }
    }
}

/// Moves that may or may not be legal, tried at random positions: each is
/// either played or refused with the position left exactly as it was.
#[test]
fn refused_moves_change_nothing() {
    let r = rules("roots-growy-roots");
    let mut probe = SeededDice::new(99, 0);
    for seed in 0..60u64 {
        let seats = 2 + (seed % 3) as u8;
        let mut state = G::new_state(Arc::clone(&r), seats).expect("a game");
        let mut dice = SeededDice::for_game(seed, 0);
        let cells = state.geo().cells() as u32;
        while state.next() != Next::Over {
            for _ in 0..8 {
                let from = probe.below(cells) as u16;
                let to = probe.below(cells) as u16;
                let a = match probe.below(3) {
                    0 => Action::Grow { from, to },
                    1 => Action::Bridge { from, to },
                    _ => Action::End,
                };
                let mut trial = state.clone();
                let before = (G::draw(&trial), trial.tally, trial.next(), trial.sticks());
                match trial.play(a) {
                    Ok(()) => {
                        G::check_invariants(&trial).expect("a legal move keeps the invariants")
                    }
                    Err(_) => assert_eq!(
                        before,
                        (G::draw(&trial), trial.tally, trial.next(), trial.sticks())
                    ),
                }
                let face = (probe.below(11)) as u8;
                let mut trial = state.clone();
                if trial.roll(face).is_err() {
                    assert_eq!(
                        before,
                        (G::draw(&trial), trial.tally, trial.next(), trial.sticks())
                    );
                }
            }
            match state.next() {
                Next::Draw => {
                    let f = dice.draw(state.draw_weights());
                    state.roll(f).expect("a drawn card");
                }
                Next::Decide(_) => {
                    let a = state.random_action(&mut dice);
                    state.play(a).expect("a sampled move");
                }
                _ => break,
            }
        }
    }
}

/// Over many seeded games, the first card turned over in the main deck and
/// in seat 1's start deck comes up in the proportions of the deck; and no
/// game turns over more cards of a kind than its deck holds.
#[test]
fn draws_follow_the_decks() {
    let r = rules("rgr-2p");
    let games = 4_000u64;
    let mut first = [[0u32; FACES]; 2];
    let mut dealt = [[0u32; FACES]; 2];
    for seed in 0..games {
        let mut state = G::new_state(Arc::clone(&r), 2).expect("a game");
        for (d, row) in dealt.iter_mut().enumerate() {
            *row = *state.deck(d);
        }
        let mut seen = [false; 2];
        let mut dice = SeededDice::for_game(seed, 0);
        let mut turned = vec![[0u32; FACES]; state.decks()];
        let start: Vec<[u32; FACES]> = (0..state.decks()).map(|d| *state.deck(d)).collect();
        while state.next() != Next::Over {
            match state.next() {
                Next::Draw => {
                    let weights: Vec<u32> = state.draw_weights().to_vec();
                    let to = match state.pending() {
                        Some(Action::Grow { to, .. } | Action::Bridge { to, .. }) => to,
                        other => panic!("a draw with {other:?} pending"),
                    };
                    let d = usize::from(state.geo().deck_of[usize::from(to)]);
                    assert_eq!(state.deck(d)[..], weights[..]);
                    let f = dice.draw(&weights);
                    let k = usize::from(f) - 1;
                    turned[d][k] += 1;
                    if d < 2 && !seen[d] {
                        seen[d] = true;
                        first[d][k] += 1;
                    }
                    state.roll(f).expect("a drawn card");
                }
                _ => {
                    let a = state.random_action(&mut dice);
                    state.play_unchecked(a);
                }
            }
        }
        for (d, row) in turned.iter().enumerate() {
            for (k, &n) in row.iter().enumerate() {
                let all = start[d][k];
                assert!(
                    n <= all,
                    "seed {seed}: deck {d} kind {k}: {n} turned of {all}"
                );
            }
        }
    }
    for d in 0..2 {
        let n: u32 = first[d].iter().sum();
        let total: u32 = dealt[d].iter().sum();
        assert!(n > games as u32 / 2, "deck {d}: only {n} first draws");
        for k in 0..FACES {
            let p = f64::from(dealt[d][k]) / f64::from(total);
            let got = f64::from(first[d][k]) / f64::from(n);
            let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
            assert!(
                (got - p).abs() <= 5.0 * sd + 1e-9,
                "deck {d}, kind {k}: {got:.4} of first draws, the deck holds {p:.4} (n = {n})"
            );
            if dealt[d][k] == 0 {
                assert_eq!(first[d][k], 0);
            }
        }
    }
}
