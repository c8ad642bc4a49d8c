//! Every input under `tests/fuzz/TARGET/` (the crashes the fuzzers found,
//! and a few hand-made hostile inputs) fed again to the same function the
//! fuzz target calls (`roots::fuzzing::TARGET`), in the ordinary test run:
//! no nightly, no libFuzzer. See `docs/hostile-inputs.md`.

use std::path::Path;
use std::time::Instant;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    for file in files {
        let data = std::fs::read(&file).expect("read input");
        let start = Instant::now();
        body(&data);
        assert!(
            start.elapsed() < crate::common::HANG,
            "{} took {:?}",
            file.display(),
            start.elapsed()
        );
    }
}

#[test]
fn variant_loader_inputs() {
    replay("variant_loader", roots::fuzzing::variant_loader);
}

#[test]
fn record_replay_inputs() {
    replay("record_replay", roots::fuzzing::record_replay);
}

#[test]
fn referee_input_inputs() {
    replay("referee_input", roots::fuzzing::referee_input);
}

#[test]
fn engine_inputs() {
    replay("engine", roots::fuzzing::engine);
}

#[test]
fn protocol_inputs() {
    replay("protocol", roots::fuzzing::protocol);
}

#[test]
fn merge_inputs() {
    replay("merge", roots::fuzzing::merge);
}

#[test]
fn script_text_games_inputs() {
    replay("script_text_games", roots::fuzzing::script_text_games);
}
