//! The cost of house rules written as scripts (docs/scripts.md): complete
//! uniform-random games of Roots and Shoots for two seats, the standard
//! rules against the same rules with a script on every hook that does
//! nothing, and against each shipped example variant with a script.
//!
//! `cargo bench --bench scripts` reports games per second of each (the
//! throughput of `games`). `SCRIPTS_ONCE=NAME target/release/deps/scripts-HASH`
//! plays one batch of configuration `NAME` (`standard`, `do-nothing`,
//! `edge-double`, `reroll-ones`, `no-edge-plants`) and prints its moves,
//! for a deterministic instruction count under
//! `valgrind --tool=callgrind`; `SCRIPTS_TIMES=N` plays it N times.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group};
use roots::core::dice::SeededDice;
use roots::core::protocol::play_out_random;
use roots::games::roots_and_shoots::{Rules, State};
use roots::script::session::HouseRules;
use roots::variant::load_str;

const GAMES: u64 = 32;

/// The six hooks of Roots and Shoots, each with a script that reads the
/// moment and changes nothing.
const DO_NOTHING: &str = r#"
extends = "standard.toml"
name = "do-nothing"
[[script]]
name = "legal"
hook = "legal"
code = "let s = ctx.seat;"
[[script]]
name = "roll"
hook = "roll"
code = "let s = ctx.seat;"
[[script]]
name = "after_roll"
hook = "after_roll"
code = "let s = ctx.seat;"
[[script]]
name = "after_action"
hook = "after_action"
code = "let s = ctx.seat;"
[[script]]
name = "scored"
hook = "scored"
code = "let s = ctx.seat;"
[[script]]
name = "final"
hook = "final"
code = "let s = ctx.seat;"
"#;

fn variants() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

fn load(name: &str, text: &str) -> Arc<Rules> {
    let loaded =
        load_str(name, text, Some(&variants())).unwrap_or_else(|e| panic!("{name}: {:?}", e.items));
    Arc::new(
        loaded
            .rules
            .roots_and_shoots()
            .expect("Roots and Shoots")
            .clone(),
    )
}

fn configurations() -> Vec<(&'static str, Arc<Rules>)> {
    let mut out = vec![
        ("standard", Arc::new(Rules::standard())),
        ("do-nothing", load("do-nothing.toml", DO_NOTHING)),
    ];
    for name in ["edge-double", "reroll-ones", "no-edge-plants"] {
        let path = variants().join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&path).expect("a shipped variant");
        out.push((name, load(&format!("{name}.toml"), &text)));
    }
    out
}

/// Play the batch of seeded games; returns the beads placed.
fn batch(rules: &Arc<Rules>) -> u64 {
    let mut placements = 0;
    for g in 0..GAMES {
        let mut state = State::new(Arc::clone(rules), 2).expect("a game");
        let mut dice = SeededDice::for_game(2026, g);
        play_out_random(&mut state, &mut dice);
        assert!(state.end_reason().is_some(), "every game ends");
        assert!(state.script_failure().is_none(), "no house rule fails");
        placements += u64::from(state.stats().placements);
    }
    placements
}

fn scripts(c: &mut Criterion) {
    let mut group = c.benchmark_group("scripted random games");
    group.throughput(Throughput::Elements(GAMES));
    for (name, rules) in configurations() {
        assert!(batch(&rules) > GAMES * 20, "games place beads");
        group.bench_function(name, |b| b.iter(|| batch(&rules)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scripts
}

fn main() {
    if let Ok(name) = std::env::var("SCRIPTS_ONCE") {
        let times: u32 = std::env::var("SCRIPTS_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1);
        let (_, rules) = configurations()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no configuration {name}"));
        let mut placements = 0;
        for _ in 0..times {
            placements += batch(&rules);
        }
        println!(
            "{name}: {} games, {placements} placements",
            u64::from(times) * GAMES
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
