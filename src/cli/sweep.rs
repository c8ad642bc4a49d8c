//! `roots sweep VARIANT --set KEY=FROM..TO:STEP [--set KEY2=...]`:
//! statistics across the values of one key (a line plot) or two (a grid,
//! drawn as a heat map). Keys are whole numbers (a range), words of a list
//! or true/false (every value, or a list of them).

use roots::run::sweep::{Sweep, sweep};
use roots::run::{Failure, interrupt, plan};
use roots::sim::sweep::Axis;
use roots::variant::Override;

use super::args::SimArgs;
use super::print;

/// Simulate a variant once per value of one key, or per pair of values of
/// two keys, every value on the same seeded games (common random numbers:
/// neighbouring values differ by the rule, not by luck), and tabulate mean
/// game length, seat 1's win rate and how games end; optionally plot any
/// measure as SVG (a line per measure, or a heat map for two keys). A value
/// that does not make a valid variant is reported and skipped.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots sweep standard --set beads.supply=30..120:10 --svg supply.svg
  roots sweep standard --set nutrients.value_rolled --measure first-player-advantage
  roots sweep standard --set beads.supply=30..90:10 --set nutrients.supply=20..60:10 \\
      --measure first-player-advantage --svg grid.svg
  roots sweep fewer-beads --set nutrients.supply=20..60:5 -n 500 --seed 1
  roots sweep standard --set beads.supply=30..90:10 --seed 1 --shard 2/4 > part-2.json")]
pub struct Args {
    /// A built-in variant name (standard), the path of a variant file, or
    /// `-` for standard input.
    #[arg(value_name = "VARIANT")]
    pub variant: String,

    /// A key to sweep, once or twice (the second makes a grid):
    /// KEY=FROM..TO or KEY=FROM..TO:STEP for a whole number (both ends
    /// included), KEY=A,B,C for a list of values, or KEY alone for every
    /// value of a true/false or word key. A --set with a single value
    /// (KEY=VALUE) changes that rule at every point.
    #[arg(long = "set", value_name = "KEY=FROM..TO:STEP", required = true)]
    pub set: Vec<String>,

    /// A measure to plot (repeatable): first-player-advantage, seat1-wins,
    /// ties, a way the game ends (beads_out) or a count of the game
    /// (rounds, margin). Default: game length and seat 1's win rate; a
    /// grid plots the first measure given.
    #[arg(long = "measure", value_name = "MEASURE")]
    pub measure: Vec<String>,

    /// Write an SVG plot to FILE: a panel per measure against the key, or a
    /// heat map per measure for two keys.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,

    /// Play only the K-th of N slices of every point's games and print a
    /// partial result (JSON) for `roots merge`; needs --seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// With --shard: keep the shard's progress in FILE as it plays (each
    /// value's totals, every 2 s, written whole), and when FILE exists,
    /// resume from it: the same command run again after a SIGTERM, a kill
    /// -9 or a preemption goes on where it stopped and prints the same
    /// part. A FILE of other arguments is refused.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub checkpoint: Option<std::path::PathBuf>,

    #[command(flatten)]
    pub sim: SimArgs,
}

pub fn run(args: Args) -> u8 {
    interrupt::exit_code(try_run(args))
}

/// Whether a `--set` moves its key (a range, a list, a bare key) rather
/// than fixing it.
fn is_axis(text: &str) -> bool {
    match text.split_once('=') {
        None => true,
        Some((_, v)) => {
            let v = v.trim();
            !v.starts_with('[') && (v.contains("..") || v.contains(',') || v == "all" || v == "*")
        }
    }
}

fn try_run(args: Args) -> Result<(), Failure> {
    let (axes, fixed): (Vec<&String>, Vec<&String>) = args.set.iter().partition(|s| is_axis(s));
    if axes.is_empty() {
        return Err(Failure::usage(
            "--set: no key to sweep: give a range (beads.supply=30..90:10), a list (growth.buds=d4,d6) or a bare key (turn.one_nutrient_per_turn)",
        ));
    }
    if axes.len() > 2 {
        return Err(Failure::usage(format!(
            "--set: {} keys to sweep; a sweep moves one key or two (a grid)",
            axes.len()
        )));
    }
    let fixed: Vec<Override> = fixed
        .iter()
        .map(|s| Override::parse(s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    print::no_page_of_a_shard(args.sim.html.as_deref(), args.shard.as_deref())?;
    let shard = plan::shard(args.shard.as_deref(), args.sim.seed.is_some())?;
    let base = super::load_variant(&args.variant, &fixed)?;
    let plan = args.sim.plan(&base);
    let game = base.game();
    let axes_given: Vec<String> = axes.into_iter().cloned().collect();
    let axes: Vec<Axis> = axes_given
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    if axes.len() == 2 && axes[0].key == axes[1].key {
        return Err(Failure::usage(format!(
            "--set: `{}` is swept twice",
            axes[0].key
        )));
    }
    let format = plan.format;
    let sample = plan.settings();
    let job = Sweep {
        variant: args.variant.clone(),
        plan,
        shard,
        checkpoint: args.checkpoint.clone(),
        axes_given,
        axes,
        fixed,
        measures: args.measure.clone(),
        svg: args.svg.clone(),
    };
    let ran = sweep(&base, &job)?;
    print::ran(&ran, format)?;
    let variants = vec![print::variant(&args.variant, &job.fixed, &base)];
    print::ran_page(args.sim.html.as_deref(), &ran, variants, Some(sample))
}
