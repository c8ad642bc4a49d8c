//! Roots Growy Roots over many seeded random games of every shipped variant
//! and player count: every invariant recounted from scratch (cards conserved
//! per deck, one connector per cell, no crossing sticks, sticks received =
//! spent + lost + held, roots are trees), every game ends, the same seed
//! gives the same game, refused moves change nothing, records replay, and the
//! cards turned over follow their decks; 10,000 games per shipped variant and
//! player count, the scores of each recounted from scratch at its end.

use std::sync::Arc;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::Registered as _;
use roots::games::roots_growy_roots::state::{Action, FACES};
use roots::games::roots_growy_roots::{RootsGrowyRoots as G, Rules, State};

fn rules(name: &str) -> Arc<Rules> {
    let loaded = roots::variant::resolve_builtin(name).expect("a built-in");
    Arc::clone(G::unwrap(&loaded.rules).expect("a Roots Growy Roots variant"))
}

/// How thoroughly a game is checked.
#[derive(Clone, Copy)]
struct Checks {
    /// `check_invariants` (everything recounted from the cells) after every
    /// step; otherwise only at the end.
    every_step: bool,
    /// Every decision's text reads back to it (and the log is kept).
    text: bool,
}

const FULL: Checks = Checks {
    every_step: true,
    text: true,
};

/// Play one seeded random game; every step's text (actions and cards) when
/// `checks.text`.
fn play(
    rules: &Arc<Rules>,
    seats: u8,
    seed: u64,
    checks: Checks,
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
                scores_from_scratch(&state)?;
                return Ok((state, log));
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                if checks.text {
                    log.push(format!("card {}", G::format_draw(&state, face)));
                }
                state
                    .roll(face)
                    .map_err(|e| format!("step {step}: drawn card refused: {e}"))?;
            }
            Next::Chance(_) => return Err("a die in a card game".into()),
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                if checks.text {
                    let text = G::format_action(&state, a);
                    if G::parse_action(&state, &text) != Ok(a) {
                        return Err(format!("step {step}: `{text}` does not read back"));
                    }
                    log.push(text);
                }
                state
                    .play(a)
                    .map_err(|e| format!("step {step}: sampled {a:?} refused: {e}"))?;
            }
        }
        if checks.every_step {
            G::check_invariants(&state).map_err(|e| format!("step {step}: {e}"))?;
        }
    }
    Err(format!(
        "seed {seed}: the game did not end within {budget} steps"
    ))
}

/// The scores recounted from the board alone, another way than the engine
/// (which keeps tips incrementally and measures the longest root by one
/// pass over the root): tips by counting children, the longest path by two
/// breadth-first sweeps over the tree of parent links; water from the cards
/// under each seat's connectors, artifacts from the hands.
fn scores_from_scratch(state: &State) -> Result<(), String> {
    use roots::games::roots_growy_roots::rules::{BonusTies, RootMeasure};
    use roots::games::roots_growy_roots::state::WATER;
    let seats = state.seats();
    let sc = &state.rules().scoring;
    let mut tips = vec![0u32; seats];
    let mut longest = vec![0u32; seats];
    for s in 0..seats {
        let root = state.roots(s as u8);
        let seed = root[0];
        let mut adj: std::collections::HashMap<u16, Vec<u16>> = Default::default();
        for &c in root {
            if let Some(p) = state.parent(c) {
                adj.entry(p).or_default().push(c);
                adj.entry(c).or_default().push(p);
            }
        }
        tips[s] = root
            .iter()
            .filter(|&&c| c != seed && root.iter().all(|&d| state.parent(d) != Some(c)))
            .count() as u32;
        let far = |from: u16| {
            let mut dist = std::collections::HashMap::from([(from, 0u32)]);
            let mut queue = std::collections::VecDeque::from([from]);
            let mut best = (0, from);
            while let Some(c) = queue.pop_front() {
                let d = dist[&c];
                if d > best.0 {
                    best = (d, c);
                }
                for &n in adj.get(&c).map(Vec::as_slice).unwrap_or(&[]) {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                        e.insert(d + 1);
                        queue.push_back(n);
                    }
                }
            }
            best
        };
        longest[s] = match sc.longest_root_measure {
            RootMeasure::FromSeed => far(seed).0,
            RootMeasure::AnyPath => far(far(seed).1).0,
        };
    }
    let bonus = |v: &[u32], points: u8| -> Vec<i32> {
        let best = *v.iter().max().unwrap_or(&0);
        let n = v.iter().filter(|&&x| x == best).count();
        v.iter()
            .map(|&x| {
                let won = best > 0 && x == best && (n == 1 || sc.bonus_ties == BonusTies::AllTied);
                if won { i32::from(points) } else { 0 }
            })
            .collect()
    };
    let (b, l) = (
        bonus(&tips, sc.most_branches),
        bonus(&longest, sc.longest_root),
    );
    let want: Vec<i32> = (0..seats)
        .map(|s| {
            let water = state
                .roots(s as u8)
                .iter()
                .filter(|&&c| state.card(c) == WATER)
                .count() as i32;
            i32::from(sc.water) * water
                + i32::from(sc.artifact) * state.hand(s as u8).len() as i32
                + b[s]
                + l[s]
        })
        .collect();
    if want != state.scores() {
        return Err(format!(
            "scores {:?}, recounted from scratch {want:?}",
            state.scores()
        ));
    }
    Ok(())
}

/// 10,000 seeded random games of one variant and player count: the first
/// 100 checked in full after every step (invariants recounted, every
/// decision's text read back), the rest at their end; every game ends
/// within the step budget and its scores agree with a recount from scratch.
fn ten_thousand(name: &str, seats: u8) {
    let r = rules(name);
    for seed in 0..10_000u64 {
        let checks = Checks {
            every_step: seed < 100,
            text: seed < 100,
        };
        play(&r, seats, seed, checks)
            .unwrap_or_else(|e| panic!("{name}, {seats} players, seed {seed}: {e}"));
    }
}

macro_rules! ten_thousand_games {
    ($($test:ident: $name:literal, $seats:literal;)*) => {
        $(
            #[test]
            fn $test() {
                ten_thousand($name, $seats);
            }
        )*
        /// The cases the tests above cover, for the other tests.
        fn cases() -> Vec<(&'static str, u8)> {
            vec![$(($name, $seats)),*]
        }
    };
}

// Every shipped variant at every player count it allows (one test each, so
// the harness runs them side by side), but for those in `NARROWED`.
ten_thousand_games! {
    standard_2p: "roots-growy-roots", 2;
    standard_3p: "roots-growy-roots", 3;
    standard_4p: "roots-growy-roots", 4;
    all_claimed_2p: "rgr-all-claimed", 2;
    all_claimed_3p: "rgr-all-claimed", 3;
    all_claimed_4p: "rgr-all-claimed", 4;
    artifacts_2p: "rgr-artifacts", 2;
    artifacts_3p: "rgr-artifacts", 3;
    artifacts_4p: "rgr-artifacts", 4;
}

/// Shipped variants that only narrow another's player count: at the same
/// seat count they are the same rules, so the same games seed for seed (a
/// game is its rules, its seats and its seed), and the other's 10,000 games
/// cover them instead of the same games played twice.
/// `narrowed_variants_play_the_same_games` checks that.
const NARROWED: &[(&str, &str)] = &[
    ("rgr-2p", "roots-growy-roots"),
    ("rgr-3p", "roots-growy-roots"),
    ("rgr-4p", "roots-growy-roots"),
];

#[test]
fn every_shipped_variant_and_player_count_is_covered() {
    let covered = cases();
    for (name, _) in roots::games::roots_growy_roots::BUILTINS {
        let r = rules(name);
        let base = NARROWED.iter().find(|(n, _)| *n == name).map(|&(_, b)| b);
        for seats in r.seats() {
            assert!(
                covered.contains(&(name, seats))
                    || base.is_some_and(|b| covered.contains(&(b, seats))),
                "{name} with {seats} players has no property test"
            );
        }
    }
}

/// Each `NARROWED` variant: its rules are the other's but for the name, the
/// description and the player count, and 100 games at each seat count it
/// allows, checked in full, play move for move and card for card as the
/// other's.
#[test]
fn narrowed_variants_play_the_same_games() {
    for &(name, base) in NARROWED {
        let (narrow, wide) = (rules(name), rules(base));
        let mut renamed = (*narrow).clone();
        renamed.name.clone_from(&wide.name);
        renamed.description.clone_from(&wide.description);
        renamed.players = wide.players.clone();
        assert_eq!(
            renamed, *wide,
            "{name} differs from {base} in more than the players"
        );
        assert!(
            narrow.seats().all(|s| wide.seats().contains(&s)),
            "{name} allows a player count {base} does not"
        );
        for seats in narrow.seats() {
            for seed in 0..100u64 {
                let (a, log_a) = play(&narrow, seats, seed, FULL).expect("a game");
                let (b, log_b) = play(&wide, seats, seed, FULL).expect("a game");
                assert_eq!(
                    log_a, log_b,
                    "{name} v {base}, {seats} players, seed {seed}"
                );
                assert_eq!(G::draw(&a), G::draw(&b), "{name} v {base}, seed {seed}");
                assert_eq!(a.scores(), b.scores(), "{name} v {base}, seed {seed}");
            }
        }
    }
}

#[test]
fn the_same_seed_is_the_same_game() {
    for (name, seats) in cases() {
        let r = rules(name);
        for seed in [3u64, 77] {
            let (a, log_a) = play(&r, seats, seed, FULL).expect("a game");
            let (b, log_b) = play(&r, seats, seed, FULL).expect("a game");
            assert_eq!(log_a, log_b, "{name}");
            assert_eq!(G::draw(&a), G::draw(&b), "{name}");
        }
    }
}

/// Moves that may or may not be legal, tried at random positions: each is
/// either played or refused with the position left exactly as it was.
#[test]
fn refused_moves_change_nothing() {
    let plain = rules("roots-growy-roots");
    let abilities = rules("rgr-artifacts");
    let mut probe = SeededDice::new(99, 0);
    for seed in 0..80u64 {
        let seats = 2 + (seed % 3) as u8;
        let r = if seed % 2 == 0 { &plain } else { &abilities };
        let mut state = G::new_state(Arc::clone(r), seats).expect("a game");
        let mut dice = SeededDice::for_game(seed, 0);
        let cells = state.geo().cells() as u32;
        while state.next() != Next::Over {
            for _ in 0..8 {
                let from = probe.below(cells) as u16;
                let to = probe.below(cells) as u16;
                let a = match probe.below(8) {
                    0 => Action::Grow { from, to },
                    1 => Action::Bridge { from, to },
                    2 => Action::Jump { from, to },
                    3 => Action::Skry { at: to },
                    4 => Action::Deny {
                        seat: probe.below(5) as u8,
                    },
                    5 => Action::Destroy { at: to },
                    6 => Action::Dry { at: to },
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
