//! `roots merge PARTS...`: the report of a run played in shards
//! (`--shard K/N` of simulate, compare, sweep or tune), exactly as one run
//! with the same seed prints it.

use roots::run::{Failure, exit, part};

/// Combine the partial results of the N shards of one run (each written by
/// `--shard K/N`) and print the report, byte for byte what the run would
/// have printed in one go with the same seed: every total is an exact
/// integer sum, and game i is the same game whichever shard plays it.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  for k in 1 2 3 4; do roots simulate --seed 7 -n 100000 --shard $k/4 > part-$k.json; done
  roots merge part-*.json
  roots merge sweep-part-*.json       (the table; the plot is written where --svg said)")]
pub struct Args {
    /// The partial results, one per shard, in any order.
    #[arg(value_name = "PARTS", required = true)]
    pub parts: Vec<String>,

    /// Also write the merged report as one self-contained web page to
    /// FILE, as the whole run's `--html` would (docs/report.md).
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> u8 {
    match try_run(&args) {
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

fn try_run(args: &Args) -> Result<(), Failure> {
    // The parts say which kind of run they are of: the run layer sums them
    // and finishes the report as that run would have.
    let f = part::merge(&args.parts)?;
    super::print::finished(&f)?;
    let (variants, sample) = match &f.setup {
        Some((game, setup)) => roots::report_page::from_setup(game, setup),
        None => (Vec::new(), None),
    };
    super::print::page(args.html.as_deref(), &*f.report, variants, sample)
}
