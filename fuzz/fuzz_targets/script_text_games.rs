//! A house rule's script in the other three games: any text as the code of
//! a `[[script]]` of a Branches & Twigs & Thorns, Sprout-R-Out or Roots
//! Growy Roots variant, checked, and played when it loads.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| roots::fuzzing::script_text_games(data));
