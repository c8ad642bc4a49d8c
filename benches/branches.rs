//! BTT engine speed: complete random games of the standard variant (setup
//! included), and the cost of one placement averaged over those games
//! (legal-move generation by `random_action`, the placement, scoring, and the
//! turn change all included).
//!
//! `cargo bench --bench branches`. Figures go in the final report with the machine.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::branches::{Rules, State, end_reason};

const GAMES: u64 = 256;

/// Play the batch of seeded games; returns the plies played, to assert and to
/// count throughput.
fn batch(rules: &Rules, players: u8) -> u64 {
    let mut plies = 0;
    for g in 0..GAMES {
        let mut state = State::new(rules, players);
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

fn engine(c: &mut Criterion) {
    let rules = Rules::standard();
    for players in [2u8, 4] {
        let plies = batch(&rules, players);
        assert_eq!(
            plies,
            GAMES * 16 * u64::from(players),
            "every cell is filled, one ply each"
        );

        let mut group = c.benchmark_group(format!("btt_random_games_{players}p"));
        group.throughput(Throughput::Elements(GAMES));
        group.bench_function("games", |b| b.iter(|| batch(&rules, players)));
        group.finish();

        let mut group = c.benchmark_group(format!("btt_per_ply_{players}p"));
        group.throughput(Throughput::Elements(plies));
        group.bench_function("plies", |b| b.iter(|| batch(&rules, players)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = engine
}
criterion_main!(benches);
