//! `cargo +nightly fuzz run referee_input`: see `roots::fuzzing::referee_input` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::referee_input(data));
