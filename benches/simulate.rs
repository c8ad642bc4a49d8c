//! Simulator throughput: random-bot games through `roots::sim` (statistics
//! included) against the bare engine loop, greedy games, MCTS iterations,
//! the speed-up on two threads, and what the design measures cost with each
//! game's default bot (`--measures standard` against `outcomes`, the same
//! games: issue #52 asks at most 1.2 times). Each benchmark checks what it
//! timed.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::bots::BotSpec;
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next, play_out_random};
use roots::games::Game;
use roots::games::branches::Branches;
use roots::games::roots_and_shoots::State;
use roots::games::roots_and_shoots::bots::MctsBot;
use roots::games::roots_and_shoots::{RootsAndShoots, Rules};
use roots::games::roots_growy_roots::RootsGrowyRoots;
use roots::games::sprout_r_out::SproutROut;
use roots::sim::measures::Depth;
use roots::sim::{self, Config, Seating};

const GAMES: u64 = 256;

fn config(bots: Vec<BotSpec>, games: u64, jobs: usize) -> Config<RootsAndShoots> {
    Config {
        rules: Arc::new(Rules::standard()),
        players: 2,
        bots,
        seating: Seating::Fixed,
        games,
        seed: 1,
        jobs,
        measures: Default::default(),
    }
}

fn random_games(c: &mut Criterion) {
    let rules = Arc::new(Rules::standard());
    let mut g = c.benchmark_group("random games");
    g.throughput(Throughput::Elements(GAMES));
    g.sample_size(10);
    g.bench_function("bare engine loop", |b| {
        b.iter(|| {
            let mut steps = 0;
            for i in 0..GAMES {
                let mut s = State::new(Arc::clone(&rules), 2).expect("2 players");
                steps += play_out_random(&mut s, &mut SeededDice::for_game(1, i));
                assert_eq!(s.next(), Next::Over);
            }
            black_box(steps)
        })
    });
    for jobs in [1, 2] {
        let cfg = config(vec![BotSpec::Random], GAMES, jobs);
        g.bench_function(format!("simulator, {jobs} thread(s)"), |b| {
            b.iter(|| {
                let r = sim::simulate(&cfg).expect("runs");
                assert_eq!(r.games, GAMES);
                black_box(r)
            })
        });
    }
    g.finish();
}

fn greedy_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("greedy games");
    g.throughput(Throughput::Elements(16));
    g.sample_size(10);
    let cfg = config(vec![BotSpec::Greedy], 16, 1);
    g.bench_function("greedy v greedy, 1 thread", |b| {
        b.iter(|| {
            let r = sim::simulate(&cfg).expect("runs");
            assert_eq!(r.games, 16);
            black_box(r)
        })
    });
    g.finish();
}

fn mcts_iterations(c: &mut Criterion) {
    // A mid-game position: 200 random steps into a seeded game.
    let mut state = State::new(Arc::new(Rules::standard()), 2).expect("2 players");
    let mut dice = SeededDice::for_game(5, 0);
    let mut steps = 0;
    let mut legal = Vec::new();
    loop {
        if steps >= 200 && matches!(state.next(), Next::Decide(_)) {
            state.legal_actions(&mut legal);
            if legal.len() > 1 {
                break;
            }
        }
        match state.next() {
            Next::Chance(d) => state.roll(dice.roll(d)).expect("face"),
            Next::Draw => panic!("Roots and Shoots drew a card"),
            Next::Decide(_) => state.play_unchecked(state.random_action(&mut dice)),
            Next::Over => panic!("the game ended early; pick another seed"),
        }
        steps += 1;
    }
    const ITERATIONS: u32 = 200;
    let mut g = c.benchmark_group("mcts");
    g.throughput(Throughput::Elements(u64::from(ITERATIONS)));
    g.sample_size(10);
    g.bench_function("iterations from a mid-game decision", |b| {
        b.iter(|| {
            let mut bot = MctsBot::new(SeededDice::for_seat(1, 0, 0), ITERATIONS);
            let a = bot.search(&state).expect("a decision");
            assert!(state.clone().play(a).is_ok());
            black_box(a)
        })
    });
    g.finish();
}

/// One game's default bot over `games` seeded games of its standard rules,
/// at `--measures outcomes` and at the default `standard`: the two timings
/// side by side are the cost of the design measures.
fn measures_cost_of<G: Game>(c: &mut Criterion, games: u64) {
    let mut g = c.benchmark_group(format!("design measures/{}", G::ID));
    g.throughput(Throughput::Elements(games));
    g.sample_size(10);
    let mut reports = Vec::new();
    for depth in [Depth::Outcomes, Depth::Standard] {
        let cfg = Config::<G> {
            rules: Arc::new(G::standard()),
            players: 2,
            bots: vec![G::DEFAULT_BOT],
            seating: Seating::Fixed,
            games,
            seed: 1,
            jobs: 1,
            measures: depth,
        };
        reports.push(sim::simulate(&cfg).expect("runs"));
        g.bench_function(format!("{}, {games} games", depth.name()), |b| {
            b.iter(|| {
                let r = sim::simulate(&cfg).expect("runs");
                assert_eq!(r.games, games);
                black_box(r)
            })
        });
    }
    // The same games either way: the measures only look.
    assert_eq!(reports[0].seats, reports[1].seats);
    g.finish();
}

fn measures_cost(c: &mut Criterion) {
    measures_cost_of::<RootsAndShoots>(c, 16);
    measures_cost_of::<Branches>(c, 8);
    measures_cost_of::<SproutROut>(c, 4);
    measures_cost_of::<RootsGrowyRoots>(c, 32);
}

criterion_group!(
    benches,
    random_games,
    greedy_games,
    mcts_iterations,
    measures_cost
);
criterion_main!(benches);
