//! The simulator and the bots: reproducibility across threads, legal actions,
//! determinism.

use std::sync::Arc;

use proptest::prelude::*;
use roots::bots::{BotSpec, Player};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::roots_and_shoots::RootsAndShoots;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::State;
use roots::sim::{self, Config, GameResult, Seating};

fn config(bots: &[BotSpec], games: u64, jobs: usize, seating: Seating) -> Config<RootsAndShoots> {
    Config {
        rules: Arc::new(Rules::standard()),
        players: bots.len().max(2) as u8,
        bots: bots.to_vec(),
        seating,
        games,
        seed: 20_261_122,
        jobs,
        measures: Default::default(),
    }
}

fn rows(c: &Config<RootsAndShoots>) -> (Vec<GameResult>, sim::Accumulator) {
    let mut rows = Vec::new();
    let acc = sim::run(
        c,
        |r| {
            rows.push(r.clone());
            Ok(())
        },
        |_| {},
    )
    .expect("runs");
    (rows, acc)
}

#[test]
fn one_thread_and_two_threads_give_identical_results() {
    // More than one block, so the hand-over between blocks is covered.
    let one = config(
        &[BotSpec::Random, BotSpec::Random],
        sim::BLOCK + 37,
        1,
        Seating::Fixed,
    );
    let two = Config {
        jobs: 2,
        ..one.clone()
    };
    let (rows1, acc1) = rows(&one);
    let (rows2, acc2) = rows(&two);
    assert_eq!(rows1, rows2);
    assert_eq!(acc1, acc2);
    assert_eq!(sim::Report::new(&one, &acc1), sim::Report::new(&two, &acc2));
    // Rows come in game order.
    assert!(rows1.iter().enumerate().all(|(i, r)| r.game == i as u64));
}

#[test]
fn greedy_games_are_identical_across_threads() {
    let one = config(&[BotSpec::Greedy, BotSpec::Random], 12, 1, Seating::Rotated);
    let two = Config {
        jobs: 2,
        ..one.clone()
    };
    assert_eq!(rows(&one).0, rows(&two).0);
}

#[test]
fn accumulators_add_up() {
    let c = config(
        &[BotSpec::Random, BotSpec::Random, BotSpec::Random],
        60,
        2,
        Seating::Fixed,
    );
    let (rows, acc) = rows(&c);
    assert_eq!(acc.games, 60);
    assert_eq!(acc.seat_wins.iter().sum::<u64>() + acc.ties, 60);
    assert_eq!(acc.ends.iter().sum::<u64>(), 60);
    let turns = |r: &GameResult| r.counter("turns").expect("turns are counted");
    let mean_turns = rows.iter().map(|r| f64::from(turns(r))).sum::<f64>() / 60.0;
    assert!((acc.counters[1].mean() - mean_turns).abs() < 1e-9);
    for r in &rows {
        let best = *r.scores.iter().max().expect("scores");
        assert!(r.top.iter().all(|&s| r.scores[usize::from(s)] == best));
        assert_eq!(r.winner.is_some(), r.top.len() == 1);
    }
}

#[test]
fn rotation_gives_every_bot_every_seat() {
    let c = config(&[BotSpec::Greedy, BotSpec::Random], 4, 1, Seating::Rotated);
    assert_eq!(c.seat_bots(0), vec![BotSpec::Greedy, BotSpec::Random]);
    assert_eq!(c.seat_bots(1), vec![BotSpec::Random, BotSpec::Greedy]);
    let report = sim::simulate(&c).expect("runs");
    let played: Vec<u64> = report.per_bot.iter().map(|b| b.seats_played).collect();
    assert_eq!(played, vec![4, 4]);
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut c = config(&[BotSpec::Random], 0, 1, Seating::Fixed);
    c.players = 2;
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("at least 1")
    );
    c.games = 5;
    c.players = 7;
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("2 to 6 players")
    );
    c.players = 3;
    c.bots = vec![BotSpec::Random, BotSpec::Greedy];
    assert!(
        sim::simulate(&c)
            .unwrap_err()
            .to_string()
            .contains("2 bots given for 3 players")
    );
}

#[test]
fn bot_names_parse_and_print() {
    for text in ["random", "greedy", "mcts", "mcts:2000", " MCTS:7 "] {
        let b = BotSpec::parse(text).expect(text);
        assert_eq!(BotSpec::parse(&b.to_string()), Ok(b));
    }
    assert_eq!(
        BotSpec::parse("mcts"),
        Ok(BotSpec::Mcts {
            iterations: roots::bots::DEFAULT_ITERATIONS
        })
    );
    for bad in [
        "", "minimax", "mcts:", "mcts:0", "mcts:x", "greedy:3", "mcts:-1",
    ] {
        assert!(BotSpec::parse(bad).is_err(), "{bad}");
    }
}

/// Play `steps` random moves of a seeded game; the position reached.
fn random_position(seed: u64, steps: u32) -> State {
    let mut state = State::new(Arc::new(Rules::standard()), 2).expect("2 players");
    let mut dice = SeededDice::for_game(seed, 0);
    for _ in 0..steps {
        match state.next() {
            Next::Chance(d) => state.roll(dice.roll(d)).expect("face"),
            Next::Draw => panic!("Roots and Shoots drew a card"),
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play(a).expect("sampler is legal");
            }
            Next::Over => break,
        }
    }
    state
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn bots_always_choose_legal_actions(seed in any::<u64>(), steps in 0u32..600) {
        let state = random_position(seed, steps);
        if let Next::Decide(seat) = state.next() {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            for spec in [BotSpec::Random, BotSpec::Greedy, BotSpec::Mcts { iterations: 20 }] {
                let mut bot = roots::bots::build::<RootsAndShoots>(spec, SeededDice::for_seat(seed, 0, seat));
                let a = bot.choose(&state).expect("bots never quit");
                prop_assert!(legal.contains(&a), "{spec} chose {a:?} at\n{}", state.draw());
                prop_assert!(state.clone().play(a).is_ok());
            }
        }
    }
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    for (seed, steps) in [(1, 40), (2, 120), (3, 300)] {
        let state = random_position(seed, steps);
        if !matches!(state.next(), Next::Decide(_)) {
            continue;
        }
        let choose = || {
            let mut bot = roots::games::roots_and_shoots::bots::MctsBot::new(
                SeededDice::for_seat(9, 0, 0),
                60,
            );
            (0..3)
                .map(|_| bot.choose(&state).expect("acts"))
                .collect::<Vec<_>>()
        };
        assert_eq!(choose(), choose());
    }
}

#[test]
fn a_whole_mcts_game_replays_exactly() {
    let c = config(
        &[BotSpec::Mcts { iterations: 10 }, BotSpec::Greedy],
        1,
        1,
        Seating::Fixed,
    );
    assert_eq!(
        sim::play_game(&c, 0).expect("plays"),
        sim::play_game(&c, 0).expect("plays")
    );
}

/// The rule events a game reports are the counts its own records of play
/// keep: Roots and Shoots' events against its statistics, over seeded
/// greedy games.
#[test]
fn rule_events_agree_with_the_games_counts() {
    let cfg = config(&[BotSpec::Greedy], 30, 1, Seating::Fixed);
    let (rows, _) = rows(&cfg);
    for r in rows {
        let ev = |k: &str| {
            let i = RootsAndShoots::RULE_EVENTS
                .iter()
                .position(|e| e.key == k)
                .expect(k);
            r.measures.events[i]
        };
        assert_eq!(ev("rain"), r.counter("rains").unwrap());
        assert_eq!(ev("struggle"), r.counter("struggles").unwrap());
        assert_eq!(ev("struggle_won"), r.counter("severings").unwrap());
        assert_eq!(ev("struggle") - ev("struggle_won"), ev("struggle_lost"));
        // A bead pile that empties ends the game (standard: `supply_empty`).
        if r.end_reason_key() == "beads_out" {
            assert!(ev("pile_emptied") > 0, "game {}", r.game);
        }
    }
}
