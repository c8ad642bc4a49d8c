//! `roots`: a toolkit for inventing, checking and playtesting rule variants
//! of four root-growing board games: Roots and Shoots (Tom Gale, 2007),
//! Branches & Twigs & Thorns, Sprout-R-Out and Roots Growy Roots. Each game
//! is a module of [`games`]; every other layer is written once for all.
//!
//! See ARCHITECTURE.md for a map of the crate.

pub mod bots;
pub mod core;
pub mod engine;
#[doc(hidden)]
pub mod fuzzing;
pub mod games;
pub mod record;
pub mod referee;
pub mod report_page;
pub mod run;
pub mod script;
#[cfg(feature = "serve")]
pub mod serve;
pub mod signals;
pub mod sim;
pub mod variant;
pub mod view;
