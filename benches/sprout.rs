//! Sprout-R-Out engine speed: complete uniform-random games per board and
//! rule set, and the cost of one sub-move averaged over those games (legal
//! sub-moves, eyes, territory and the repetition rule all included).
//!
//! `cargo bench --bench sprout`. Games per second = throughput of the
//! `games` function; ns per sub-move = time per element of `sub_moves`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::sprout_r_out::{BoardShape, Groups, Rules, State, counters};

const GAMES: u64 = 32;

/// Play the batch of seeded games; returns the sub-moves played.
fn batch(rules: &Rules) -> u64 {
    let mut subs = 0;
    for g in 0..GAMES {
        let mut state = State::new(rules, 2);
        let mut dice = SeededDice::for_game(2026, g);
        subs += play_out_random(&mut state, &mut dice);
        assert!(state.end().is_some(), "every game ends");
    }
    subs
}

fn sprout(c: &mut Criterion) {
    let boards = [
        (BoardShape::Limping3, Groups::Edge),
        (BoardShape::Cairo1, Groups::Edge),
        (BoardShape::Limping5, Groups::Edge),
        (BoardShape::Square9, Groups::Edge),
        (BoardShape::Cairo1, Groups::EdgeOrVertex),
        (BoardShape::Hex6, Groups::Edge),
        (BoardShape::Limping7, Groups::Edge),
        (BoardShape::Cairo2, Groups::Edge),
    ];
    for (name, base) in [("designer", Rules::standard()), ("ludii", Rules::ludii())] {
        for (shape, groups) in boards {
            let rules = Rules {
                board: shape,
                groups,
                ..base.clone()
            };
            let subs = batch(&rules);
            assert!(subs > GAMES * 4, "games have sub-moves");
            let g = if groups == Groups::Edge {
                ""
            } else {
                "-diagonal"
            };
            let id = format!("sprout_{name}/{}{g}", shape.slug());
            let mut group = c.benchmark_group(&id);
            group.throughput(Throughput::Elements(GAMES));
            group.bench_function("games", |b| b.iter(|| batch(&rules)));
            group.throughput(Throughput::Elements(subs));
            group.bench_function("sub_moves", |b| b.iter(|| batch(&rules)));
            group.finish();
        }
    }
    // Keep the counters reachable from the bench (they are part of the API).
    let s = State::new(&Rules::standard(), 2);
    assert_eq!(counters(&s)[0].0, "sub_moves");
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = sprout
}
criterion_main!(benches);
