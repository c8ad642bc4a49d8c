//! `cargo +nightly fuzz run variant_loader`: see `roots::fuzzing::variant_loader` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::variant_loader(data));
