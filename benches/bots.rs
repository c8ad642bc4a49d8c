//! Bot speed: whole games between random, greedy and search bots through
//! `roots::sim`, one thread, for every game (throughput: games a second),
//! and the Roots and Shoots fast greedy bot beside
//! the bot that prices every candidate on a copy (`greedy-v1`). The target
//! (issue #28): 1,500 or more greedy games per second per core for Roots and
//! Shoots, 2 players, standard rules, the design measures included (as
//! `roots simulate` plays them). Each benchmark checks what it timed.
//!
//! Strength is not measured here (it needs thousands of games): see
//! `scripts/bot-strength.sh` and the README.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::bots::BotSpec;
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::branches::Branches;
use roots::games::roots_and_shoots::bots::MctsBot;
use roots::games::roots_and_shoots::{RootsAndShoots, Rules, State};
use roots::games::roots_growy_roots::RootsGrowyRoots;
use roots::games::sprout_r_out::SproutROut;
use roots::sim::{self, Config, Seating};

fn config<G: Game>(bots: Vec<BotSpec>, games: u64) -> Config<G> {
    Config {
        rules: Arc::new(G::standard()),
        players: 2,
        bots,
        seating: Seating::Rotated,
        games,
        seed: 1,
        jobs: 1,
        measures: Default::default(),
    }
}

fn games<G: Game>(c: &mut Criterion, group: &str, matches: &[(&str, Vec<BotSpec>, u64)]) {
    games_under::<G>(c, group, &Arc::new(G::standard()), matches);
}

/// [`games`] under the rules `rules`.
fn games_under<G: Game>(
    c: &mut Criterion,
    group: &str,
    rules: &Arc<G::Rules>,
    matches: &[(&str, Vec<BotSpec>, u64)],
) {
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    for (name, bots, n) in matches {
        let cfg = Config {
            rules: Arc::clone(rules),
            ..config::<G>(bots.clone(), *n)
        };
        g.throughput(Throughput::Elements(*n));
        g.bench_function(*name, |b| {
            b.iter(|| {
                let r = sim::simulate(&cfg).expect("runs");
                assert_eq!(r.games, *n);
                black_box(r)
            })
        });
    }
    g.finish();
}

/// Random, greedy and search games of a game: random against random,
/// greedy (the game's greedy bot, as `--bots greedy` plays it) against
/// greedy, and `mcts:100` against greedy, seats rotated.
fn every_bot<G: Game>(c: &mut Criterion, group: &str, random: u64, greedy: u64, mcts: u64) {
    games::<G>(
        c,
        group,
        &[
            ("random v random", vec![BotSpec::Random], random),
            ("greedy v greedy", vec![BotSpec::Greedy], greedy),
            (
                "mcts:100 v greedy",
                vec![BotSpec::Mcts { iterations: 100 }, BotSpec::Greedy],
                mcts,
            ),
        ],
    );
}

fn roots_and_shoots(c: &mut Criterion) {
    every_bot::<RootsAndShoots>(c, "roots-and-shoots games", 2000, 200, 4);
    games::<RootsAndShoots>(
        c,
        "roots-and-shoots games",
        &[("greedy-v1 v greedy-v1", vec![BotSpec::GreedyV1], 8)],
    );
}

fn others(c: &mut Criterion) {
    every_bot::<Branches>(c, "btt games", 10_000, 200, 4);
    every_bot::<SproutROut>(c, "sprout-r-out games", 2000, 20, 2);
    games::<SproutROut>(
        c,
        "sprout-r-out games",
        &[("greedy-v1 v greedy-v1", vec![BotSpec::GreedyV1], 100)],
    );
    every_bot::<RootsGrowyRoots>(c, "roots-growy-roots games", 500, 10, 2);
    // `rgr-artifacts`: greedy with abilities in hand, the side of a default
    // `roots compare roots-growy-roots rgr-artifacts` that cost most.
    let mut artifacts = roots::games::roots_growy_roots::Rules::standard();
    artifacts.artifacts.abilities = true;
    games_under::<RootsGrowyRoots>(
        c,
        "roots-growy-roots games",
        &Arc::new(artifacts),
        &[("rgr-artifacts greedy v greedy", vec![BotSpec::Greedy], 20)],
    );
}

/// MCTS iterations from mid-game decisions (placements, 150 to 400 random
/// steps into seeded games), the search as it is against the search as first
/// written (`mcts-v1`: every candidate priced on a copy), in one run. A fixed
/// 200 iterations per decision from each of the 8 positions: criterion's
/// throughput is iterations a second, the figure of the 10x target.
fn mcts_iterations(c: &mut Criterion) {
    let mut roots = Vec::new();
    for game in 0..8 {
        let mut state = State::new(Arc::new(Rules::standard()), 2).expect("2 players");
        let mut dice = SeededDice::for_game(5, game);
        let mut steps = 0;
        let mut legal = Vec::new();
        loop {
            if steps >= 150 + 30 * game && matches!(state.next(), Next::Decide(_)) {
                state.legal_actions(&mut legal);
                if legal.len() > 1 {
                    break;
                }
            }
            match state.next() {
                Next::Chance(d) => state.roll(dice.roll(d)).expect("face"),
                Next::Draw => panic!("Roots and Shoots draws no cards"),
                Next::Decide(_) => state.play_unchecked(state.random_action(&mut dice)),
                Next::Over => panic!("the game ended early; pick another seed"),
            }
            steps += 1;
        }
        roots.push(state);
    }
    const ITERATIONS: u32 = 200;
    let mut g = c.benchmark_group("roots-and-shoots mcts search");
    g.throughput(Throughput::Elements(
        u64::from(ITERATIONS) * roots.len() as u64,
    ));
    g.sample_size(10);
    for (name, v1) in [("mcts", false), ("mcts-v1", true)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                for (i, state) in roots.iter().enumerate() {
                    let dice = SeededDice::for_seat(1, i as u64, 0);
                    let mut bot = if v1 {
                        MctsBot::v1(dice, ITERATIONS)
                    } else {
                        MctsBot::new(dice, ITERATIONS)
                    };
                    let a = bot.search(state).expect("a decision");
                    assert!(state.clone().play(a).is_ok());
                    black_box(a);
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, roots_and_shoots, others, mcts_iterations);
criterion_main!(benches);
