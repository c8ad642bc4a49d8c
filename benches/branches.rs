//! BTT engine speed, on the standard variant:
//! - `btt_random_games_Np`: complete random games, setup included, each
//!   started with `State::fresh` (no allocation);
//! - `btt_per_ply_Np`: the same work counted per ply (nulls and roots too);
//! - `btt_per_placement_Np`: pyramid placements only, from positions just
//!   after the setup: `random_action` (legal-move generation from the spot
//!   masks), `play_unchecked` (placement, scoring, turn), nothing else.
//!
//! `cargo bench --bench branches`. Figures go in the final report with the machine.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, play_out_random};
use roots::games::branches::{Rules, State, end_reason};

const GAMES: u64 = 256;

/// Play the batch of seeded games from the start; returns the plies played.
fn batch(start: &State) -> u64 {
    let mut plies = 0;
    for g in 0..GAMES {
        let mut state = start.fresh();
        let mut dice = SeededDice::for_game(2026, g);
        plies += play_out_random(&mut state, &mut dice);
        assert_eq!(
            end_reason(&state),
            Some("board_full"),
            "every game fills the board"
        );
    }
    plies
}

/// Positions just after the setup, one per game, with the dice to go on.
fn after_setup(start: &State) -> Vec<(State, SeededDice)> {
    (0..GAMES)
        .map(|g| {
            let mut state = start.fresh();
            let mut dice = SeededDice::for_game(2026, g);
            while !state.in_play() {
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
            (state, dice)
        })
        .collect()
}

/// Play every position to the end; returns the pyramids placed.
fn placements(positions: &[(State, SeededDice)], seed: u64) -> u64 {
    let mut placed = 0;
    for (i, (state, _)) in positions.iter().enumerate() {
        let mut state = state.clone();
        let mut dice = SeededDice::for_game(seed, i as u64);
        placed += play_out_random(&mut state, &mut dice);
    }
    placed
}

fn engine(c: &mut Criterion) {
    let rules = Rules::standard();
    for players in [2u8, 4] {
        let start = State::new(&rules, players);
        let plies = batch(&start);
        assert_eq!(
            plies,
            GAMES * 16 * u64::from(players),
            "every cell is filled, one ply each"
        );

        let mut group = c.benchmark_group(format!("btt_random_games_{players}p"));
        group.throughput(Throughput::Elements(GAMES));
        group.bench_function("games", |b| b.iter(|| batch(&start)));
        group.finish();

        let mut group = c.benchmark_group(format!("btt_per_ply_{players}p"));
        group.throughput(Throughput::Elements(plies));
        group.bench_function("plies", |b| b.iter(|| batch(&start)));
        group.finish();

        let positions = after_setup(&start);
        let placed = placements(&positions, 7);
        assert_eq!(
            placed,
            GAMES * 15 * u64::from(players),
            "every pyramid is placed"
        );
        let mut group = c.benchmark_group(format!("btt_per_placement_{players}p"));
        group.throughput(Throughput::Elements(placed));
        group.bench_function("placements", |b| b.iter(|| placements(&positions, 7)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = engine
}
criterion_main!(benches);
