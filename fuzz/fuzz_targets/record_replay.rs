//! `cargo +nightly fuzz run record_replay`: see `roots::fuzzing::record_replay` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::record_replay(data));
