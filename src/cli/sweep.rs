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
    /// A built-in variant name (standard), the path of a variant file, or
    /// `-` for standard input.
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
    // Every value's settings checked before the seed is announced.
    let configs = variants
        .into_iter()
        .map(|(v, rules)| Ok((v, args.sim.config::<G>(rules, seed)?)))
        .collect::<Result<Vec<_>, Failure>>()?;
    print_seed(&args.sim, seed);
    let mut reports = Vec::new();
    let mut points = Vec::new();
    let count = configs.len();
    for (v, config) in configs {
        if was_interrupted() {
            break;
        }
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
        // A note, not part of the table: stdout stays the table alone.
        super::note(&format!("plot written to {path}\n"));
    }
    let length_stat = G::COUNTERS
        .get(G::LENGTH)
        .copied()
        .unwrap_or(roots::sim::MARGIN);
    match args.sim.format {
        Output::Table => {
            let mut o = String::new();
            if was_interrupted() {
                let _ = writeln!(
                    o,
                    "PARTIAL SWEEP: interrupted after {} of {count} values (the last may cover fewer games)\n",
                    reports.len()
                );
            }
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
            super::out(&o);
        }
        Output::Csv => {
            let mut header = vec![
                range.key.clone(),
                format!("mean_{}", length_stat.key),
                format!("sd_{}", length_stat.key),
                "seat1_win_rate".into(),
                "seat1_low".into(),
                "seat1_high".into(),
            ];
            header.extend(G::END_REASONS.iter().map(|e| e.key.to_string()));
            let rows = reports.iter().map(|(v, r)| {
                let w = &r.seats[0].wins;
                let (mean, sd) = length(r);
                let mut row = vec![
                    v.to_string(),
                    mean.to_string(),
                    sd.to_string(),
                    w.rate.to_string(),
                    w.low.to_string(),
                    w.high.to_string(),
                ];
                row.extend(
                    G::END_REASONS
                        .iter()
                        .map(|e| r.end_reasons.get(e.key).map_or(0.0, |x| x.rate).to_string()),
                );
                row
            });
            super::out(&roots::sim::csv_text(std::iter::once(header).chain(rows)));
        }
        Output::Json => {
            let rows: Vec<serde_json::Value> = reports
                .iter()
                .map(|(v, r)| serde_json::json!({ "value": v, "report": r }))
                .collect();
            let mut doc = serde_json::json!({ "key": range.key, "values": rows });
            if was_interrupted() {
                doc["partial"] = serde_json::json!({ "interrupted": true, "values_asked": count });
            }
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}
