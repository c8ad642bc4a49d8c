//! The integration tests: every `tests/*.rs` file is a module of this one
//! test binary (`autotests = false` and one `[[test]]` in Cargo.toml).
//!
//! Why one binary: each test binary links the whole library and its
//! dependencies again (about 50 links per `cargo test` before), and cargo
//! runs test binaries one after another, so one long property test used to
//! hold a core while the other waited. In one binary, libtest runs every test
//! of every file on all cores at once. Snapshots are named after the module
//! path, so they carry an `it__` prefix (`tests/snapshots/it__FILE__NAME.snap`).
//!
//! A new test file must be declared below; `every_test_file_is_a_module`
//! fails when one is not (it would silently never run).

mod common;
#[cfg(feature = "serve")]
mod serve_kit;

mod authoring;
mod bad_variants;
mod branches_oracle;
mod branches_properties;
mod branches_scenarios;
mod branches_variants;
mod cli_bots;
mod cli_engine;
mod cli_games;
mod cli_rgr;
mod cli_simulate;
mod cli_tune;
mod defaults_and_hints;
mod engine_properties;
mod engine_protocol;
mod fair_undo;
mod first_hour;
mod fuzz_regressions;
mod fuzz_stable;
mod games_words;
mod generic_mcts;
mod good_variants;
mod hostile_inputs;
mod hostile_round3;
#[cfg(feature = "serve")]
mod hostile_round4;
mod layers;
mod line_editing;
mod merge_adds_up;
mod narration;
mod newcomer_leftovers;
mod newcomer_list;
mod newcomer_open;
mod paired;
mod play_cli;
mod preemptible_shards;
mod readme_figures;
mod record_recovery;
mod records;
mod referee_undo;
mod report_html;
mod rgr_properties;
mod rgr_scenarios;
mod scenarios;
mod schema;
mod scripted_bots;
mod scripts;
mod scripts_games;
#[cfg(feature = "serve")]
mod serve_api;
#[cfg(feature = "serve")]
mod serve_browser;
#[cfg(feature = "serve")]
mod serve_load;
mod sheet_readings;
mod simulate;
mod simulate_interrupt;
mod simulate_record_game;
mod sprout_boards;
mod sprout_oracle;
mod sprout_properties;
mod sprout_scenarios;
mod sprout_variants;
mod svg_pictures;
mod tiny_game;
mod view_browser;

/// Every `tests/*.rs` file is declared above as a module: a file that is not
/// would never be compiled or run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if module != "main" && !main.lines().any(|l| l.trim() == format!("mod {module};")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/main.rs does not declare these test files as modules, so they never run: {missing:?}"
    );
}
