//! `roots simulate [VARIANT]`: many seeded games between bots, summed up.

use roots::run::simulate::{Simulate, simulate};
use roots::run::{Failure, GamesFormat, Ran, interrupt, plan};

use super::args::{OutFormat, SimArgs};
use super::print;

/// Play many games of a variant between bots and report who wins, how long
/// games last and how they end, with 95% intervals.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots simulate                                   1000 games of greedy bots, standard rules
  roots simulate --bots random                     the rules under random play
  roots simulate --bots mcts:100,greedy --rotate   two bots, seats rotated
  roots simulate fewer-beads -n 5000 --seed 7 --format json
  roots simulate --skill -n 200                    how much skill the variant rewards
  roots simulate --summary                         a designer's findings in a few lines
  roots simulate --measures full                   clarity too (about twice the time)
  roots simulate -b random --measures outcomes     who wins and how long, no per-move measures (fast)
  roots simulate -n 100000 --out games.csv         one CSV row per game as well
What every figure means, and how to read its interval: docs/statistics.md")]
pub struct Args {
    /// A built-in variant name (standard), the path of a variant file, or
    /// `-` for standard input.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    #[command(flatten)]
    pub sim: SimArgs,

    #[command(flatten)]
    pub set: super::SetArgs,

    /// Also write one row per game to FILE, in game order, seats numbered
    /// from 1: JSON Lines when FILE ends in .jsonl, a JSON array for .json,
    /// CSV otherwise (or as --out-format says).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,

    /// The format of the --out file, whatever its extension.
    #[arg(long, value_enum, value_name = "FORMAT", requires = "out")]
    pub out_format: Option<OutFormat>,

    /// With --out as JSON Lines or a JSON array: each game's row also
    /// holds its per-game design measures and every row of win chances
    /// they came from (each game replayed to keep them), so the measures
    /// can be recomputed outside (docs/statistics.md).
    #[arg(long, requires = "out")]
    pub trace_measures: bool,

    /// Measure skill: the better of two comparable bots against the other,
    /// seats rotated: the first two different non-random bots of --bots, or
    /// mcts:100 against greedy. The first bot plays one seat, the second
    /// every other seat.
    #[arg(long)]
    pub skill: bool,

    /// The smallest gap from a fair share that matters for a seat's wins,
    /// in percentage points (`seat1-wins=3`; default 2): the first-player
    /// advantage verdict.
    #[arg(long = "margin", value_name = "KEY=VALUE")]
    pub margin: Vec<String>,

    /// Print only the findings a designer asks for, a line each with its
    /// 95% interval: fair or not, length, tension, choice, skill (with
    /// --skill), rules that never came into play. With --format json or
    /// csv the whole report is printed as usual.
    #[arg(long)]
    pub summary: bool,

    /// Play only the K-th of N slices of the games and print a partial
    /// result (JSON) for `roots merge`; needs --seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// With --shard: keep the shard's progress in FILE as it plays (every
    /// 2 s, written whole), and when FILE exists, resume from it: the same
    /// command run again after a SIGTERM, a kill -9 or a preemption goes on
    /// where it stopped and prints the same part. A FILE of other arguments
    /// is refused.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub checkpoint: Option<std::path::PathBuf>,

    /// Also write game N of the run (numbered from 0, as the rows of --out
    /// are) as a game record, to look at with `roots view` or `roots replay`.
    #[arg(long, value_name = "N")]
    pub record_game: Option<u64>,

    /// Where --record-game writes [default: sim-<SEED>-game-<N>.jsonl].
    #[arg(long, value_name = "FILE", requires = "record_game")]
    pub record: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> u8 {
    interrupt::exit_code(try_run(args))
}

fn try_run(args: Args) -> Result<(), Failure> {
    print::no_page_of_a_shard(args.sim.html.as_deref(), args.shard.as_deref())?;
    let rules = super::load_variant(&args.variant, &args.set.set)?;
    let mut plan = args.sim.plan(&rules);
    let strong = if args.skill {
        Some(plan.for_skill()?)
    } else {
        None
    };
    let shard = plan::shard(args.shard.as_deref(), plan.seed_given)?;
    if shard.is_some() && args.out.is_some() {
        return Err(Failure::usage(
            "--out with --shard: write the per-game rows from a whole run",
        ));
    }
    let format = plan.format;
    let sample = plan.settings();
    let job = Simulate {
        plan,
        shard,
        checkpoint: args.checkpoint.clone(),
        sets: args.set.set.clone(),
        strong,
        margins: args.margin.clone(),
        out: args.out.as_ref().map(|p| {
            let given = args.out_format.map(GamesFormat::from);
            (p.clone(), GamesFormat::of(p, given))
        }),
        record: args.record_game.map(|n| (n, args.record.clone())),
        trace_measures: args.trace_measures,
    };
    let ran = simulate(&rules, &job)?;
    match &ran {
        Ran::Report(report) if args.summary && format == roots::run::Format::Table => {
            super::out(&report.summary());
        }
        _ => print::ran(&ran, format)?,
    }
    let variants = vec![print::variant(&args.variant, &args.set.set, &rules)];
    print::ran_page(args.sim.html.as_deref(), &ran, variants, Some(sample))
}
