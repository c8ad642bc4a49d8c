//! `roots sweep VARIANT --set KEY=FROM..TO:STEP`: statistics across a range
//! of one integer key.

use std::fmt::Write as _;
use std::sync::Arc;

use roots::games::Game;
use roots::sim::Report;
use roots::sim::sweep::{self, Range};

use super::Failure;
use super::exit;
use super::simulate::{Output, SimArgs, interrupted, print_seed, run_config, was_interrupted};

/// Simulate a variant once per value of one whole-number key and tabulate
/// mean game length, seat 1's win rate and how games end; optionally plot
/// them as an SVG line chart.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots sweep standard --set beads.supply=30..120:10 --svg supply.svg
  roots sweep variants/fewer-beads.toml --set nutrients.supply=20..60:5 -n 500 --seed 1")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(value_name = "VARIANT")]
    pub variant: String,

    /// The key and its range, both ends included: KEY=FROM..TO or
    /// KEY=FROM..TO:STEP (e.g. beads.supply=30..120:10).
    #[arg(long = "set", value_name = "KEY=FROM..TO:STEP")]
    pub set: String,

    /// Write an SVG line plot (game length and seat 1 win rate) to FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<String>,

    #[command(flatten)]
    pub sim: SimArgs,
}

pub fn run(args: Args) -> u8 {
    interrupted();
    match try_run(args) {
        // Interrupted, partial table printed.
        Ok(()) if was_interrupted() => 130,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

fn try_run(args: Args) -> Result<(), Failure> {
    let base = super::load_variant(&args.variant, &[])?;
    let range = Range::parse(&args.set).map_err(Failure::usage)?;
    roots::with_game!(&base, G, rules => sweep_game::<G>(&args, &range, rules))
}

/// The mean and sd of the game's length measure in a report.
fn length(r: &Report) -> (f64, f64) {
    r.count(r.length.key).map_or((0.0, 0.0), |s| (s.mean, s.sd))
}

fn sweep_game<G: Game>(args: &Args, range: &Range, base: &Arc<G::Rules>) -> Result<(), Failure> {
    let base_name = G::name(base).to_owned();
    // Check every value before playing any.
    let mut variants = Vec::new();
    for v in range.values() {
        let rules =
            sweep::apply::<G>(&args.variant, base, &range.key, v).map_err(Failure::usage)?;
        variants.push((v, rules));
    }
    let seed = args.sim.seed();
    print_seed(&args.sim, seed);
    let mut reports = Vec::new();
    let mut points = Vec::new();
    let count = variants.len();
    for (v, rules) in variants {
        if was_interrupted() {
            break;
        }
        let config = args.sim.config::<G>(rules, seed)?;
        let r = run_config(&config, None, &format!("{} = {v}", range.key))?;
        if r.games == 0 {
            // A value that played no game is left out, not shown as 0 games.
            break;
        }
        let s1 = &r.seats[0].wins;
        points.push(sweep::Point {
            value: v,
            mean_rounds: length(&r).0,
            seat1_win_rate: s1.rate,
            seat1_low: s1.low,
            seat1_high: s1.high,
        });
        reports.push((v, r));
    }
    if was_interrupted() {
        super::err(&format!(
            "interrupted: partial: {} of {count} values of {} played (the last of them may cover fewer than {} games: see above); the values after it are left out\n",
            reports.len(),
            range.key,
            args.sim.games
        ));
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, sweep::svg(&range.key, &base_name, &points))
            .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
    }
    let length_stat = G::COUNTERS
        .get(G::LENGTH)
        .copied()
        .unwrap_or(roots::sim::MARGIN);
    match args.sim.format {
        Output::Table => {
            let mut o = String::new();
            let _ = writeln!(
                o,
                "Variant `{}`, {} players, {} games per value, bots {}\n",
                base_name, args.sim.players, args.sim.games, args.sim.bots
            );
            let _ = write!(
                o,
                "{:>14}  {:>7}  {:>6}  {:>24}",
                range.key, length_stat.short, "sd", "seat 1 wins (95%)"
            );
            for e in G::END_REASONS {
                let _ = write!(o, "  {:>9}", e.short);
            }
            o.push('\n');
            for (v, r) in &reports {
                let (mean, sd) = length(r);
                let _ = write!(
                    o,
                    "{v:>14}  {mean:>7.1}  {sd:>6.1}  {:>24}",
                    r.seats[0].wins.words(),
                );
                for e in G::END_REASONS {
                    let rate = r.end_reasons.get(e.key).map_or(0.0, |x| x.rate);
                    let _ = write!(o, "  {:>8.1}%", 100.0 * rate);
                }
                o.push('\n');
            }
            if let Some(path) = &args.svg {
                let _ = writeln!(o, "\nplot written to {path}");
            }
            super::out(&o);
        }
        Output::Csv => {
            let mut o = format!(
                "{},mean_{len},sd_{len},seat1_win_rate,seat1_low,seat1_high",
                range.key,
                len = length_stat.key
            );
            for e in G::END_REASONS {
                o.push(',');
                o.push_str(e.key);
            }
            o.push('\n');
            for (v, r) in &reports {
                let w = &r.seats[0].wins;
                let (mean, sd) = length(r);
                let _ = write!(o, "{v},{mean},{sd},{},{},{}", w.rate, w.low, w.high);
                for e in G::END_REASONS {
                    let rate = r.end_reasons.get(e.key).map_or(0.0, |x| x.rate);
                    let _ = write!(o, ",{rate}");
                }
                o.push('\n');
            }
            super::out(&o);
        }
        Output::Json => {
            let rows: Vec<serde_json::Value> = reports
                .iter()
                .map(|(v, r)| serde_json::json!({ "value": v, "report": r }))
                .collect();
            let doc = serde_json::json!({ "key": range.key, "values": rows });
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}
