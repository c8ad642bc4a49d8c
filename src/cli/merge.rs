//! `roots merge PARTS...`: the report of a run played in shards
//! (`--shard K/N` of simulate, compare, sweep or tune), exactly as one run
//! with the same seed prints it.

use roots::sim::AccumulatorData;
use roots::sim::shard::{self, Partial};

use super::{Failure, exit};

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
}

pub fn run(args: Args) -> u8 {
    match try_run(&args) {
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

fn try_run(args: &Args) -> Result<(), Failure> {
    let mut parts = Vec::new();
    for name in &args.parts {
        parts.push(
            Partial::read_file(std::path::Path::new(name)).map_err(|e| match e {
                shard::PartError::Unreadable(why) => Failure::usage(why),
                shard::PartError::Invalid(why) => Failure::invalid_line(why),
            })?,
        );
    }
    shard::check_parts(&args.parts, &mut parts).map_err(Failure::invalid_line)?;
    let first = &parts[0];
    // Each run's totals over the shards, or why it was not played.
    let mut totals: Vec<Result<AccumulatorData, String>> = Vec::new();
    for (i, run) in first.runs.iter().enumerate() {
        let mut sum: Option<Result<AccumulatorData, String>> = None;
        for p in &parts {
            let r = &p.runs[i];
            let this = match (&r.totals, &r.error) {
                (Some(t), _) => Ok(t.clone()),
                (None, Some(e)) => Err(e.clone()),
                (None, None) => Err(format!("{}: no totals", run.label)),
            };
            sum = Some(match (sum, this) {
                (None, x) => x,
                (Some(Err(e)), _) | (Some(Ok(_)), Err(e)) => Err(e),
                (Some(Ok(a)), Ok(b)) => Ok(a.checked_add(&b).map_err(Failure::invalid_line)?),
            });
        }
        totals.push(sum.unwrap_or_else(|| Err("no part".into())));
    }
    // The sums must be totals of this game in this version.
    for t in totals.iter().flatten() {
        check_game(&first.game, t).map_err(Failure::invalid_line)?;
    }
    match first.command.as_str() {
        "simulate" | "compare" => {
            let totals: Vec<AccumulatorData> = totals
                .into_iter()
                .collect::<Result<_, _>>()
                .map_err(Failure::invalid_line)?;
            if first.command == "simulate" {
                super::simulate::merge(first, &totals)
            } else {
                super::compare::merge(first, &totals)
            }
        }
        "sweep" => super::sweep::merge(first, totals),
        "tune" => super::tune::merge(&parts),
        other => Err(Failure::invalid_line(format!(
            "{}: parts of `roots {other}`, which this version cannot merge",
            args.parts[0]
        ))),
    }
}

/// Check that `totals` are the statistics of `game` in this version.
fn check_game(game: &str, totals: &AccumulatorData) -> Result<(), String> {
    let id = roots::games::GameId::parse(game).ok_or_else(|| format!("unknown game `{game}`"))?;
    roots::with_game_id!(id, G => {
        roots::sim::Accumulator::from_data::<G>(totals).map(|_| ())
    })
}
