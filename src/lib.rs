//! `roots`: a toolkit for the board game Roots and Shoots (Tom Gale, 2007) and
//! its house rules.
//!
//! See ARCHITECTURE.md for a map of the crate.

pub mod bots;
pub mod core;
#[doc(hidden)]
pub mod fuzzing;
pub mod games;
pub mod record;
pub mod referee;
pub mod roots;
pub mod sim;
pub mod variant;
