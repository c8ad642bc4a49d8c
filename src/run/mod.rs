//! The run layer: what every kind of run (simulate, compare, sweep, tune,
//! ladder) shares, written once, between the commands that parse and
//! print (`src/cli/`) and the simulator that plays and sums (`sim`).
//!
//! A command parses its arguments into a [`Plan`] (the games, seats, bots,
//! seed, threads; [`plan`]) and a job of its kind ([`simulate::Simulate`],
//! [`compare::Compare`], [`sweep::Sweep`], [`tune::Tune`],
//! [`ladder::LadderPlan`]), runs it here, and prints what comes back
//! ([`Ran`]): a finished report ([`Finished`], any report in its three
//! forms through [`Render`]), or, for a shard (`--shard K/N`), the part to
//! write. The run layer owns, once for every kind:
//! - the seed: drawn when not given, and noted ([`console::note_seed`]);
//! - shards and their parts ([`part`]): a slice of the games, the part's
//!   settings and totals, marked when interrupted; and `merge`, which reads
//!   a part's kind and hands the summed totals to that kind of run;
//! - progress on stderr ([`console`]): a bar, a status line, notes;
//! - interruption ([`interrupt`]): a Ctrl-C lets the games under way finish
//!   and the run report what it played, marked partial, exit 130.

pub mod checkpoint;
pub mod compare;
pub mod console;
mod failure;
mod finished;
mod games_file;
pub mod interrupt;
pub mod ladder;
pub mod part;
pub mod plan;
pub mod simulate;
pub mod sweep;
pub mod tune;
mod tune_file;
mod tune_runner;

pub use failure::{Failure, exit};
pub use finished::{Finished, Kind, Ran, Render};
pub use games_file::GamesFormat;
pub use plan::{Asked, Format, Plan, Settings};
