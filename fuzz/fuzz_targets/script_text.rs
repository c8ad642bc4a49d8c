//! A house rule's script: any text as the code of a `[[script]]` of a
//! Roots and Shoots variant, checked, and played when it loads.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::script_text(data));
