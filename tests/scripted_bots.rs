//! Every game's bots under a house rule that forbids moves (hook `legal`):
//! a bot that lists moves its own way (Roots and Shoots' greedy prices
//! placements from the set of points, not the legal list) must still pick
//! only moves the rule allows. The test binary is built with debug
//! assertions, so a bot's own checks of its lists run too.

use crate::common::{roots, tmp_dir};

/// A variant of `base` (of `game`) with the filter `code`.
fn filtered(game: &str, base: &str, code: &str) -> String {
    format!(
        "game = \"{game}\"\nextends = \"{base}\"\nname = \"filtered\"\n\n[[script]]\nname = \"forbid\"\nhook = \"legal\"\ncode = '''\n{code}\n'''\n"
    )
}

#[test]
fn every_bot_of_every_game_plays_only_what_a_filter_allows() {
    let dir = tmp_dir("scripted_bots", "filters");
    let mut variants = vec![(
        "roots-and-shoots",
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("variants/no-edge-plants.toml")
            .to_string_lossy()
            .into_owned(),
    )];
    for (game, base, code) in [
        (
            "branches",
            "btt",
            "ctx.kind != \"place\" || ctx.size != 1 || ctx.x % 2 == 0",
        ),
        (
            "sprout-r-out",
            "sprout-r-out",
            "ctx.kind != \"place\" || ctx.cell % 3 != 0",
        ),
        (
            "roots-growy-roots",
            "roots-growy-roots",
            "ctx.kind != \"grow\" || ctx.x % 2 == 0",
        ),
    ] {
        let path = dir.join(format!("{game}.toml"));
        std::fs::write(&path, filtered(game, base, code)).expect("write the variant");
        variants.push((game, path.to_string_lossy().into_owned()));
    }
    for (game, path) in &variants {
        for bots in ["greedy,random", "mcts:20,greedy"] {
            let run = roots(&[
                "simulate", path, "-n", "4", "--seed", "3", "--bots", bots, "-j", "1", "-q",
                "--format", "json",
            ]);
            let what = format!("{game} with {bots}");
            assert_eq!(run.code, 0, "{what}: {}", run.transcript());
            assert!(!run.stderr.contains("illegal"), "{what}: {}", run.stderr);
            let report = run.json();
            assert_eq!(report["games"], 4, "{what}: {}", run.stdout);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
