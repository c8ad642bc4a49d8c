//! `roots merge`: part files of any bytes, some with a correct checksum.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::merge(data));
