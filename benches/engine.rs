//! Engine speed: complete random-play games of the standard variant, and the
//! cost of one bead placement averaged over those games (legal-move
//! generation, chance nodes, rain and removals all included).
//!
//! `cargo bench --bench engine`. Figures go in the README with the machine.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::State;

const GAMES: u64 = 64;

/// Play the batch of seeded games; returns beads placed, to assert and to
/// count throughput.
fn batch(rules: &Arc<Rules>, players: u8) -> u64 {
    let mut placements = 0;
    for g in 0..GAMES {
        let mut state = State::new(rules.clone(), players).expect("valid player count");
        let mut dice = SeededDice::for_game(2026, g);
        play_out_random(&mut state, &mut dice);
        assert!(state.end_reason().is_some(), "every game ends");
        placements += u64::from(state.stats().placements);
    }
    placements
}

fn engine(c: &mut Criterion) {
    let rules = Arc::new(Rules::standard());
    for players in [2u8, 4] {
        let placements = batch(&rules, players);
        assert!(placements > GAMES * 20, "games place beads");

        let mut group = c.benchmark_group(format!("random_games_{players}p"));
        group.throughput(Throughput::Elements(GAMES));
        group.bench_function("games", |b| b.iter(|| batch(&rules, players)));
        group.finish();

        let mut group = c.benchmark_group(format!("per_placement_{players}p"));
        group.throughput(Throughput::Elements(placements));
        group.bench_function("placements", |b| b.iter(|| batch(&rules, players)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = engine
}
criterion_main!(benches);
