//! `cargo +nightly fuzz run engine`: see `roots::fuzzing::engine` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::engine(data));
