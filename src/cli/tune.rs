//! `roots tune VARIANT --vary KEY=RANGE ... --target MEASURE=GOAL ...`:
//! search the values of some keys for the variant nearest to targets, and
//! write the best as a variant file that extends the original.

use std::path::PathBuf;
use std::time::Duration;

use roots::run::tune::{Tune, tune};
use roots::run::{Failure, interrupt, plan};
use roots::sim::sweep::Axis;
use roots::variant::Override;

use super::args::SimArgs;
use super::print;

/// Search chosen keys of a variant for the values that come nearest to
/// targets, by successive halving on common random numbers: many points
/// play a few games, the best third play three times as many, and so on,
/// every point on the same seeded games; later brackets search around the
/// best point found. Prints the best variants with 95% intervals of each
/// target measure and writes the best as a variant file that extends
/// VARIANT with only the changed keys. Ctrl-C stops and keeps the best so far.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots tune standard --vary beads.supply=30..90 --vary nutrients.supply=20..60 \\
      --target rounds=25 --target first-player-advantage=0
  roots tune standard --vary nutrients.value_rolled --vary beads.store=4..8 \\
      --target ties=min --time 2m --write my-tuned.toml
  roots tune btt --vary board.size=4..8 --target first-player-advantage=0 -p 3

Targets: a measure (first-player-advantage, seat1-wins, ties, a way games end
such as beads_out, a count such as rounds or margin) and a number, min or
max. Rates may be written 0.5 or 50%; the first-player advantage (seat 1's
share of the decided games minus a fair share) in points, 0 or 2pt. Several
targets add up their distances: one percentage point of a rate counts as
much as one unit (a round) of a mean.")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(value_name = "VARIANT")]
    pub variant: String,

    /// A key to search (repeatable): KEY=FROM..TO[:STEP], KEY=A,B,C or KEY
    /// alone (every value of a true/false or word key).
    #[arg(long = "vary", value_name = "KEY=RANGE", required = true)]
    pub vary: Vec<String>,

    /// A target (repeatable): MEASURE=VALUE, MEASURE=min or MEASURE=max.
    #[arg(long = "target", value_name = "MEASURE=GOAL", required = true)]
    pub target: Vec<String>,

    /// Change a rule at every point (repeatable), as in a file.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = |t: &str| Override::parse(t))]
    pub set: Vec<Override>,

    /// Most games in all.
    #[arg(long, default_value_t = 100_000, value_name = "GAMES")]
    pub budget: u64,

    /// Stop after this long (90s, 5m, 1h) and report the best so far.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,

    /// Points per bracket (the first round of each bracket plays them all).
    #[arg(long, default_value_t = 27)]
    pub candidates: usize,

    /// Write the best variant to FILE (default: NAME-tuned.toml).
    #[arg(long, value_name = "FILE")]
    pub write: Option<String>,

    /// How many of the best variants to print.
    #[arg(long, default_value_t = 5)]
    pub top: usize,

    /// Play only the K-th of N slices of every round's games, exchanging
    /// totals with the other shards through --exchange DIR (every shard
    /// must run at the same time); prints a partial result for `roots merge`.
    #[arg(long, value_name = "K/N", requires = "exchange")]
    pub shard: Option<String>,

    /// A directory every shard can read and write (a shared file system).
    #[arg(long, value_name = "DIR")]
    pub exchange: Option<PathBuf>,

    /// With --shard: keep the shard's progress in FILE as it plays (the
    /// totals of every job of the search, every 2 s, written whole), and
    /// when FILE exists, resume from it: the same command run again after
    /// a SIGTERM, a kill -9 or a preemption goes on where it stopped (the
    /// other shards wait for it at the exchange) and prints the same part.
    /// A FILE of other arguments is refused.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub checkpoint: Option<PathBuf>,

    /// `--games`: the games of each bracket's winner (the first round plays
    /// GAMES / candidates, rounded up).
    #[command(flatten)]
    pub sim: SimArgs,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{text}`: a duration is like 90s, 5m or 1h"))?;
    let secs = match unit {
        "s" | "sec" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("`{text}`: a duration is like 90s, 5m or 1h")),
    };
    if !(secs > 0.0 && secs < 1e9) {
        return Err(format!("`{text}`: a duration above 0"));
    }
    Ok(Duration::from_secs_f64(secs))
}

pub fn run(args: Args) -> u8 {
    interrupt::exit_code(try_run(args))
}

fn try_run(args: Args) -> Result<(), Failure> {
    if args.candidates < 2 || args.candidates > 10_000 {
        return Err(Failure::usage("--candidates must be from 2 to 10000"));
    }
    print::no_page_of_a_shard(args.sim.html.as_deref(), args.shard.as_deref())?;
    let shard = plan::shard(args.shard.as_deref(), args.sim.seed.is_some())?;
    if shard.is_some() && args.time.is_some() {
        return Err(Failure::usage(
            "--time with --shard: the shards would stop at different rounds; give a --budget",
        ));
    }
    let base = super::load_variant(&args.variant, &args.set)?;
    let plan = args.sim.plan(&base);
    let game = base.game();
    let axes: Vec<Axis> = args
        .vary
        .iter()
        .map(|s| Axis::parse(game, s).map_err(|e| Failure::usage(format!("--vary: {e}"))))
        .collect::<Result<_, _>>()?;
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(Failure::usage(format!(
                "--vary: `{}` is given twice",
                a.key
            )));
        }
        if args.set.iter().any(|o| o.key() == a.key) {
            return Err(Failure::usage(format!(
                "`{}` is both varied (--vary) and set (--set)",
                a.key
            )));
        }
    }
    let format = plan.format;
    let sample = plan.settings();
    let job = Tune {
        variant: args.variant.clone(),
        plan,
        // --shard requires --exchange (clap), so a shard has its directory.
        shard: shard.zip(args.exchange.clone()),
        checkpoint: args.checkpoint.clone(),
        vary: args.vary.clone(),
        axes,
        targets: args.target.clone(),
        fixed: args.set.clone(),
        budget: args.budget,
        time: args.time,
        candidates: args.candidates,
        write: args.write.clone(),
        top: args.top,
    };
    let ran = tune(&base, &job)?;
    print::ran(&ran, format)?;
    let Some(html) = args.sim.html.as_deref() else {
        return Ok(());
    };
    // The best variant found comes from the report itself (print::page),
    // so a merged tune's page shows the same diff.
    let variants = vec![print::variant(&args.variant, &args.set, &base)];
    print::ran_page(Some(html), &ran, variants, Some(sample))
}
