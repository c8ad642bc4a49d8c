//! Playtesting at scale: many seeded games of a variant between bots, on
//! several threads, summed up as a [`Report`].
//!
//! Reproducibility: game `i` of a run seeded `S` rolls its chance dice from
//! [`SeededDice::for_game`]`(S, i)` and the bot in seat `s` draws from
//! [`SeededDice::for_seat`]`(S, i, s)`. A game's result depends on nothing
//! else, and every statistic is accumulated as integer counts merged in game
//! order, so a run gives identical results whatever the number of threads.
//!
//! Memory stays flat: games are played in blocks of [`BLOCK`], each block's
//! results are handed to the caller in game order (for `--out`) and folded
//! into the accumulators, then dropped; on one thread each game's result
//! is handed over and dropped as soon as it ends.
//!
//! Wins: the **winner** of a game is the seat with the highest score when it
//! is alone there. A game where several seats share the top score is a
//! **tie**; ties are reported on their own and count as a win for nobody, so
//! seat win rates plus the tie rate add up to 1.

mod accum;
mod comparison;
mod csv;
mod findings;
mod game;
mod histogram;
pub mod ladder;
pub mod measures;
pub mod paired;
mod play;
pub mod plot;
mod rate;
mod report;
pub mod sequential;
pub mod shard;
pub mod stats;
pub mod sweep;
pub mod sweep_table;
pub mod tune;
pub mod tune_table;
pub mod verdict;

pub use accum::{Accumulator, AccumulatorData};
pub use comparison::{
    Analysis, Comparison, Difference, Family, SameRules, SkillComparison, compare, compare_paired,
    compare_with, paired_measures, paired_statistics, primary_statistics, statistics,
};
pub use csv::csv_text;
pub use game::{FORFEIT, GameResult, forfeited, result_of};
pub use histogram::{Bin, Histogram, Summary};
pub use play::{
    BLOCK, Config, MAX_GAMES, Seating, SimError, max_jobs, play_game, pool, record_game, run,
    run_games, run_until, trace_game,
};
pub use rate::Rate;
pub use report::{BotLine, MARGIN, Partial, Report, SeatBalance, SeatLine, Skill, simulate};
