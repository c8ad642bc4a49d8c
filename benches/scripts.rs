//! The cost of house rules written as scripts (docs/scripts.md): complete
//! uniform-random games of each of the four games for two seats, its base
//! rules against the same rules with a script on every hook that does
//! nothing (reads `ctx.seat`), and against each shipped example variant
//! with a script.
//!
//! `cargo bench --bench scripts` reports games per second of each (the
//! throughput of `games`). `SCRIPTS_ONCE=NAME target/release/deps/scripts-HASH`
//! plays one batch of configuration `NAME` (`standard`, `do-nothing`,
//! `edge-double`, `reroll-ones`, `no-edge-plants`, `btt`, `btt-do-nothing`,
//! `branches-own-coin`, `sprout-r-out`, `sprout-do-nothing`,
//! `sprout-edge-territory`, `roots-growy-roots`, `rgr-do-nothing`,
//! `rgr-bridge-water`) and prints its steps, for a deterministic
//! instruction count under `valgrind --tool=callgrind`; `SCRIPTS_TIMES=N`
//! plays it N times.

use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group};
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next, play_out_random};
use roots::games::{Game, Registered, branches, roots_and_shoots, roots_growy_roots, sprout_r_out};
use roots::variant::load_str;

const GAMES: u64 = 32;

/// A variant of `base` with a script on each of `hooks` that reads the
/// moment and changes nothing.
fn do_nothing(game: &str, base: &str, hooks: &[&str]) -> String {
    let mut text = format!("game = \"{game}\"\nextends = \"{base}\"\nname = \"do-nothing\"\n");
    for h in hooks {
        text.push_str(&format!(
            "[[script]]\nname = \"{h}\"\nhook = \"{h}\"\ncode = \"let s = ctx.seat;\"\n"
        ));
    }
    text
}

fn variants() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

fn load<G: Registered>(name: &str, text: &str) -> Arc<G::Rules> {
    let loaded =
        load_str(name, text, Some(&variants())).unwrap_or_else(|e| panic!("{name}: {:?}", e.items));
    Arc::clone(G::unwrap(&loaded.rules).expect("this game's rules"))
}

fn shipped<G: Registered>(name: &str) -> Arc<G::Rules> {
    let path = variants().join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&path).expect("a shipped variant");
    load::<G>(&format!("{name}.toml"), &text)
}

/// Play the batch of seeded games of `rules`; returns the steps played.
fn batch<G: Game>(rules: &Arc<G::Rules>) -> u64 {
    let mut steps = 0;
    for g in 0..GAMES {
        let mut state = G::new_state(Arc::clone(rules), 2).expect("a game");
        let mut dice = SeededDice::for_game(2026, g);
        steps += play_out_random(&mut state, &mut dice);
        assert!(state.next() == Next::Over, "every game ends");
        assert!(G::script_failure(&state).is_none(), "no house rule fails");
    }
    steps
}

type Batch = Box<dyn Fn() -> u64>;

fn of<G: Game>(rules: Arc<G::Rules>) -> Batch {
    Box::new(move || batch::<G>(&rules))
}

fn configurations() -> Vec<(&'static str, Batch)> {
    use branches::Branches as B;
    use roots_and_shoots::RootsAndShoots as R;
    use roots_growy_roots::RootsGrowyRoots as G;
    use sprout_r_out::SproutROut as S;
    const RS_HOOKS: &[&str] = &[
        "legal",
        "roll",
        "after_roll",
        "after_action",
        "scored",
        "final",
    ];
    const HOOKS: &[&str] = &["legal", "after_action", "final"];
    vec![
        ("standard", of::<R>(shipped::<R>("standard"))),
        (
            "do-nothing",
            of::<R>(load::<R>(
                "do-nothing.toml",
                &do_nothing("roots-and-shoots", "standard.toml", RS_HOOKS),
            )),
        ),
        ("edge-double", of::<R>(shipped::<R>("edge-double"))),
        ("reroll-ones", of::<R>(shipped::<R>("reroll-ones"))),
        ("no-edge-plants", of::<R>(shipped::<R>("no-edge-plants"))),
        ("btt", of::<B>(shipped::<B>("btt"))),
        (
            "btt-do-nothing",
            of::<B>(load::<B>(
                "do-nothing.toml",
                &do_nothing("branches", "btt.toml", HOOKS),
            )),
        ),
        (
            "branches-own-coin",
            of::<B>(shipped::<B>("branches-own-coin")),
        ),
        ("sprout-r-out", of::<S>(shipped::<S>("sprout-r-out"))),
        (
            "sprout-do-nothing",
            of::<S>(load::<S>(
                "do-nothing.toml",
                &do_nothing("sprout-r-out", "sprout-r-out.toml", HOOKS),
            )),
        ),
        (
            "sprout-edge-territory",
            of::<S>(shipped::<S>("sprout-edge-territory")),
        ),
        (
            "roots-growy-roots",
            of::<G>(shipped::<G>("roots-growy-roots")),
        ),
        (
            "rgr-do-nothing",
            of::<G>(load::<G>(
                "do-nothing.toml",
                &do_nothing("roots-growy-roots", "roots-growy-roots.toml", HOOKS),
            )),
        ),
        (
            "rgr-bridge-water",
            of::<G>(shipped::<G>("rgr-bridge-water")),
        ),
    ]
}

fn scripts(c: &mut Criterion) {
    let mut group = c.benchmark_group("scripted random games");
    group.throughput(Throughput::Elements(GAMES));
    for (name, run) in configurations() {
        assert!(run() > GAMES * 10, "games take steps");
        group.bench_function(name, |b| b.iter(&run));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = scripts
}

fn main() {
    if let Ok(name) = std::env::var("SCRIPTS_ONCE") {
        let times: u32 = std::env::var("SCRIPTS_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1);
        let (_, run) = configurations()
            .into_iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("no configuration {name}"));
        let mut steps = 0;
        for _ in 0..times {
            steps += run();
        }
        println!("{name}: {} games, {steps} steps", u64::from(times) * GAMES);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
