//! Roots Growy Roots engine speed: complete uniform-random games (cards drawn
//! from their decks, every decision sampled by `random_action`) with 2 and 4
//! players, and the cost of one extension (a stick laid) averaged over those
//! games, everything else of the game included.
//!
//! `cargo bench --bench rgr`. Games per second = throughput of `games`;
//! time per extension = time per element of `extensions`. Whole games
//! between bots through the simulator (random, greedy, `mcts:100`, the
//! design measures kept) are `cargo bench --bench bots`, group
//! `roots-growy-roots games`, beside the other games'.
//!
//! `RGR_ONCE=1 target/release/deps/rgr-HASH` plays each batch once and
//! prints its games and extensions, for a deterministic instruction count:
//! `RGR_ONCE=standard-2p valgrind --tool=callgrind target/release/deps/rgr-HASH`
//! (one configuration: `standard-2p`, `standard-4p`, `abilities-2p`,
//! `abilities-4p`). `RGR_TIMES=N` plays each batch N times, for a fixed
//! amount of work to time on a busy machine:
//! `RGR_ONCE=standard-2p RGR_TIMES=300 perf stat -e task-clock target/release/deps/rgr-HASH`.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group};
use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::roots_growy_roots::{Rules, State};

const GAMES: u64 = 32;

/// Play the batch of seeded games; returns the extensions made.
fn batch(rules: &Arc<Rules>, seats: u8) -> u64 {
    let mut extensions = 0;
    for g in 0..GAMES {
        let mut state = State::new(Arc::clone(rules), seats).expect("a shipped variant");
        let mut dice = SeededDice::for_game(2026, g);
        play_out_random(&mut state, &mut dice);
        assert!(state.end().is_some(), "every game ends");
        extensions += u64::from(state.tally.extensions);
    }
    extensions
}

fn configurations() -> Vec<(&'static str, Arc<Rules>, u8)> {
    let mut with_abilities = Rules::standard();
    with_abilities.artifacts.abilities = true;
    let mut out = Vec::new();
    for (name, rules) in [
        ("standard", Arc::new(Rules::standard())),
        ("abilities", Arc::new(with_abilities)),
    ] {
        for seats in [2u8, 4] {
            out.push((name, Arc::clone(&rules), seats));
        }
    }
    out
}

fn rgr(c: &mut Criterion) {
    for (name, rules, seats) in configurations() {
        let ext = batch(&rules, seats);
        assert!(ext > GAMES * 5, "games grow roots");
        let mut group = c.benchmark_group(format!("rgr_{name}/{seats}p"));
        group.throughput(Throughput::Elements(GAMES));
        group.bench_function("games", |b| b.iter(|| batch(&rules, seats)));
        group.throughput(Throughput::Elements(ext));
        group.bench_function("extensions", |b| b.iter(|| batch(&rules, seats)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = rgr
}

fn main() {
    if let Some(only) = std::env::var_os("RGR_ONCE") {
        // `RGR_ONCE=1`: every configuration; `RGR_ONCE=abilities-4p`: one.
        let only = only.to_string_lossy().into_owned();
        // `RGR_TIMES=N`: each batch N times (a fixed amount of work for
        // `perf stat`, whose CPU time a busy machine disturbs less than
        // the wall time criterion reads).
        let times: u64 = std::env::var("RGR_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1);
        for (name, rules, seats) in configurations() {
            if only != "1" && only != format!("{name}-{seats}p") {
                continue;
            }
            let start = std::time::Instant::now();
            let mut ext = 0;
            for _ in 0..times {
                ext = batch(&rules, seats);
            }
            let secs = start.elapsed().as_secs_f64();
            assert!(ext > GAMES * 5, "games grow roots");
            println!(
                "{name} {seats}p: {GAMES} games, {ext} extensions; {times} times in {secs:.3} s, {:.0} games/s",
                (GAMES * times) as f64 / secs
            );
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
