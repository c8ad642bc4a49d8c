//! `roots feedback`: the questionnaire answers of `roots serve` tables,
//! summarised per variant (`roots::serve::feedback`).

use std::path::PathBuf;

use clap::Args;

use super::Failure;

#[derive(Args, Debug)]
pub struct FeedbackArgs {
    /// Records of `roots serve` tables (`DIR/*.jsonl`); each one's answers
    /// are read from the file beside it (`ID.feedback.jsonl`).
    #[arg(value_name = "RECORDS", required = true)]
    records: Vec<PathBuf>,

    /// Seeded games of each variant by its game's default bot (`roots
    /// games` names it) to show beside the answers (0: none).
    #[arg(long, value_name = "N", default_value_t = 200)]
    bot_games: u64,
}

pub fn run(args: FeedbackArgs) -> Result<(), Failure> {
    let text = roots::serve::feedback::summary(&args.records, args.bot_games)
        .map_err(|e| Failure::invalid(format!("error: {e}")))?;
    super::out(&text);
    Ok(())
}
