//! `roots ladder [VARIANT]`: a round robin among bots, with Elo ratings.

use roots::run::ladder::{LadderPlan, ladder};
use roots::run::{Failure, interrupt};

use super::SetArgs;
use super::args::Output;

/// The bots of a ladder when none are given: random play, the one-step
/// greedy and the search at its default budget (200 iterations; Branches &
/// Twigs & Thorns: its look-ahead), the ranks
/// a designer asks about (`mcts:100,mcts:400` beside each other measured
/// budgets, not the game: in Roots and Shoots and Roots Growy Roots their
/// head-to-head is often not ordered after 400 games).
pub const DEFAULT_BOTS: &str = "greedy,random,mcts";

/// Play every pair of bots against each other (two players, seats rotated,
/// the same games' luck for every pair; a variant for more players only
/// seats the two bots in alternate seats) and rate them on the Elo scale, with
/// 95% intervals; the spread of the ratings and the best bot's score against
/// the next say how much the variant rewards skill.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots ladder                                       standard rules, default bots
  roots ladder pre-rolled-values -n 200 --seed 1
  roots ladder btt --bots random,greedy,mcts:100,mcts:400
What the figures mean: docs/statistics.md")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    /// The bots, comma-separated: random, greedy, greedy-v1, mcts (the
    /// game's own search: a look-ahead on the evaluation in Branches &
    /// Twigs & Thorns and Roots Growy Roots, elsewhere 200 iterations of
    /// tree search), mcts:ITERATIONS (tree search, whatever the number) or
    /// mcts:MILLISms. The first is the anchor, rated 0.
    #[arg(long, short = 'b', default_value = DEFAULT_BOTS, value_name = "B1,B2,...",
          value_parser = super::OfferedNames::bots(false), hide_possible_values = true)]
    pub bots: String,

    /// Games per pair of bots, to start with.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: u64,

    /// The most games per pair: while two bots rated next to each other
    /// are not ordered by their head-to-head score, their pair plays twice
    /// as many games, up to this (default: 16 times --games; --max-games
    /// equal to --games plays a fixed number). Each look at a pair's games
    /// tests at a level below 5% (alpha spending), so growing does not
    /// raise the chance of a wrong order.
    #[arg(long, value_name = "N")]
    pub max_games: Option<u64>,

    /// The seed; the same seed replays the same games. Drawn at random and
    /// printed when not given.
    #[arg(long, short = 's')]
    pub seed: Option<u64>,

    /// Worker threads (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,

    /// How to print the ratings.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    pub format: Output,

    #[command(flatten)]
    pub set: SetArgs,

    /// Also write the ladder as one self-contained web page to FILE: the
    /// ratings with their intervals, the head-to-head scores, the rules
    /// sheet, a sample game, the command to repeat it (docs/report.md).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> u8 {
    interrupt::exit_code(try_run(&args))
}

fn try_run(args: &Args) -> Result<(), Failure> {
    let rules = super::load_variant(&args.variant, &args.set.set)?;
    let plan = LadderPlan {
        bots: args.bots.clone(),
        games: args.games,
        max_games: args.max_games,
        seed: args.seed,
        jobs: args.jobs,
        sets: args.set.set.clone(),
    };
    let l = ladder(&rules, &plan)?;
    super::print::report(&l, args.format.into())?;
    // The sample game: the ladder's first two bots, game 0 of its seed.
    let sample = roots::run::Settings {
        games: 1,
        players: l.players,
        bots: l
            .ratings
            .iter()
            .take(2)
            .map(|r| r.bot.as_str())
            .collect::<Vec<_>>()
            .join(","),
        rotate: false,
        seed: l.seed,
        seed_given: true,
        format: roots::run::Format::Table,
        measures: roots::sim::measures::Depth::Outcomes,
    };
    let variants = vec![super::print::variant(&args.variant, &args.set.set, &rules)];
    super::print::page(args.html.as_deref(), &l, variants, Some(sample))
}
