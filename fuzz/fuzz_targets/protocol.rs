//! The engine protocol (`roots engine`): request lines of any bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::protocol(data));
