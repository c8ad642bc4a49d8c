//! `roots sweep VARIANT --set KEY=FROM..TO:STEP [--set KEY2=...]`:
//! statistics across the values of one key (a line plot) or two (a grid,
//! drawn as a heat map). Keys are whole numbers (a range), words of a list
//! or true/false (every value, or a list of them).

use std::fmt::Write as _;
use std::sync::Arc;

use roots::games::{GameId, Registered};
use roots::sim::plot::{self, Panel};
use roots::sim::shard::{Partial, PartialRun, Shard};
use roots::sim::sweep::{self, Axis, Measure, Value};
use roots::sim::{self, Accumulator, AccumulatorData, Config, Report};
use roots::variant::Override;

use super::Failure;
use super::exit;
use super::simulate::{Output, Progress, SimArgs, interrupted, print_seed, was_interrupted};

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

/// What makes a sweep's report, kept in a partial result so that `merge`
/// prints what one run prints.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub variant: String,
    pub label: String,
    pub axes: Vec<String>,
    pub fixed: Vec<String>,
    pub measures: Vec<String>,
    pub svg: Option<String>,
    pub sim: super::simulate::SimSetup,
    /// The resolved rules of the swept variant (the fixed changes made).
    pub rules: serde_json::Value,
}

fn try_run(mut args: Args) -> Result<(), Failure> {
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
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(Failure::usage)?;
    if shard.is_some() && args.sim.seed.is_none() {
        return Err(Failure::usage(
            "--shard needs --seed: every shard must play the games of one seed",
        ));
    }
    let base = super::load_variant(&args.variant, &fixed)?;
    args.sim.settle(&base);
    let game = base.game();
    let axes: Vec<Axis> = axes
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    if axes.len() == 2 && axes[0].key == axes[1].key {
        return Err(Failure::usage(format!(
            "--set: `{}` is swept twice",
            axes[0].key
        )));
    }
    roots::with_game!(&base, G, rules => {
        let measures = measures::<G>(&args.measure, args.sim.players, args.sim.depth())?;
        let label = super::variant_label(G::name(rules), &fixed);
        let setup = Setup {
            variant: args.variant.clone(),
            label,
            axes: args.set.iter().filter(|s| is_axis(s)).cloned().collect(),
            fixed: fixed.iter().map(ToString::to_string).collect(),
            measures: measures.iter().map(Measure::key).collect(),
            svg: args.svg.clone(),
            sim: super::simulate::SimSetup::of(&args.sim, args.sim.seed()),
            rules: serde_json::to_value(&**rules)
                .map_err(|e| Failure::usage(format!("cannot write the rules as JSON: {e}")))?,
        };
        sweep_game::<G>(&args, &setup, &axes, &fixed, &measures, rules, shard)
    })
}

/// The measures asked for, or the default two.
fn measures<G: Registered>(
    names: &[String],
    players: u8,
    depth: roots::sim::measures::Depth,
) -> Result<Vec<Measure>, Failure> {
    if names.is_empty() {
        let length = G::COUNTERS
            .get(G::LENGTH)
            .map_or("margin", |s| s.key)
            .to_owned();
        return Ok(vec![Measure::Mean(length), Measure::SeatWins(1)]);
    }
    names
        .iter()
        .map(|n| {
            Measure::parse::<G>(n, players)
                .and_then(|m| m.check_depth(depth).map(|()| m))
                .map_err(|e| Failure::usage(format!("--measure: {e}")))
        })
        .collect()
}

/// Every point of the grid: the first key's values outer, the second's inner.
fn points(axes: &[Axis]) -> Vec<Vec<usize>> {
    match axes {
        [x] => (0..x.values.len()).map(|i| vec![i]).collect(),
        [x, y] => (0..x.values.len())
            .flat_map(|i| (0..y.values.len()).map(move |j| vec![i, j]))
            .collect(),
        _ => Vec::new(),
    }
}

/// One point's outcome: its totals, or why it was skipped.
pub type Outcome = Result<Accumulator, String>;

fn sweep_game<G: Registered>(
    args: &Args,
    setup: &Setup,
    axes: &[Axis],
    fixed: &[Override],
    measures: &[Measure],
    base: &Arc<G::Rules>,
    shard: Option<Shard>,
) -> Result<(), Failure> {
    let seed = setup.sim.seed;
    // The base settings are checked once, before any point plays.
    let base_config = args.sim.config::<G>(Arc::clone(base), seed)?;
    // Check every point before playing any; an invalid one is skipped.
    let grid = points(axes);
    let mut rules = Vec::new();
    let mut skipped = 0;
    for p in &grid {
        let sets: Vec<Override> = axes
            .iter()
            .zip(p)
            .map(|(a, &i)| a.set(&a.values[i]))
            .collect();
        let r = sweep::apply::<G>(&args.variant, fixed, &sets)
            .and_then(|r| G::new_state(Arc::clone(&r), args.sim.players).map(|_| r));
        if let Err(e) = &r {
            // The whole diagnostic for the first few, a line for the rest.
            skipped += 1;
            if skipped <= 3 {
                super::err(&format!(
                    "skipped: {} is not a valid variant:\n{}\n",
                    point_words(axes, p),
                    indent(e)
                ));
            } else if skipped <= 10 {
                let first = e.lines().next().unwrap_or("");
                super::err(&format!("skipped: {first}\n"));
            }
        }
        rules.push(r);
    }
    if skipped > 10 {
        super::err(&format!(
            "skipped: {} more values that make no valid variant ({skipped} of {} in all)\n",
            skipped - 10,
            grid.len()
        ));
    }
    if rules.iter().all(Result::is_err) {
        return Err(Failure::invalid_line(format!(
            "no value of the sweep makes a valid variant of `{}` (see above)",
            setup.label
        )));
    }
    if shard.is_none() {
        print_seed(&args.sim, seed);
    }
    let pool = sim::pool(base_config.jobs)?;
    let shard = shard.unwrap_or(Shard::WHOLE);
    let range = shard.range(args.sim.games);
    let mut outcomes: Vec<Outcome> = Vec::new();
    let count = grid.len();
    for (k, (p, r)) in grid.iter().zip(rules).enumerate() {
        if was_interrupted() {
            break;
        }
        let rules = match r {
            Ok(r) => r,
            Err(e) => {
                outcomes.push(Err(e));
                continue;
            }
        };
        let mut config: Config<G> = base_config.clone();
        config.rules = rules;
        let progress = Progress::new(
            range.end - range.start,
            &format!("{} ({}/{count})", point_words(axes, p), k + 1),
        );
        let acc = sim::run_games(
            &config,
            range.clone(),
            pool.as_ref(),
            interrupted(),
            |_| Ok(()),
            |done| progress.update(done),
        );
        progress.finish();
        let acc = acc?;
        if acc.games == 0 && range.end > range.start {
            // A value that played no game is left out, not shown as 0 games.
            break;
        }
        outcomes.push(Ok(acc));
    }
    if shard != Shard::WHOLE {
        let runs = grid
            .iter()
            .zip(&outcomes)
            .map(|(p, o)| PartialRun {
                label: point_words(axes, p),
                totals: o.as_ref().ok().map(Accumulator::to_data),
                error: o.as_ref().err().cloned(),
            })
            .collect();
        let setup_json = serde_json::to_value(setup)
            .map_err(|e| Failure::usage(format!("cannot write the partial result: {e}")))?;
        let mut part = Partial::new("sweep", shard, G::ID, setup_json, runs);
        part.interrupted = was_interrupted();
        super::out(&part.to_text());
        return Ok(());
    }
    if was_interrupted() {
        super::err(&format!(
            "interrupted: partial: {} of {count} values of {} played (the last of them may cover fewer than {} games: see above); the values after it are left out\n",
            outcomes.len(),
            axes.iter()
                .map(|a| a.key.as_str())
                .collect::<Vec<_>>()
                .join(" and "),
            args.sim.games
        ));
    }
    print_sweep::<G>(setup, axes, measures, &base_config, &outcomes)
}

/// `beads.supply = 30, nutrients.supply = 20`.
fn point_words(axes: &[Axis], p: &[usize]) -> String {
    axes.iter()
        .zip(p)
        .map(|(a, &i)| format!("{} = {}", a.key, a.values[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The report of a point's totals.
fn report_of<G: Registered>(config: &Config<G>, acc: &Accumulator, label: &str) -> Report {
    let mut r = Report::new(config, acc);
    r.variant = label.to_owned();
    r
}

/// Print a sweep's table (or CSV, JSON) and write its plot, from the
/// points' totals: one run's, or the merged shards'.
fn print_sweep<G: Registered>(
    setup: &Setup,
    axes: &[Axis],
    measures: &[Measure],
    config: &Config<G>,
    outcomes: &[Outcome],
) -> Result<(), Failure> {
    let grid = points(axes);
    let reports: Vec<(Vec<usize>, Result<Report, &String>)> = grid
        .iter()
        .zip(outcomes)
        .map(|(p, o)| {
            (
                p.clone(),
                o.as_ref().map(|acc| report_of(config, acc, &setup.label)),
            )
        })
        .collect();
    if let Some(path) = &setup.svg {
        let mut text = svg::<G>(setup, axes, measures, &reports, config.players);
        if was_interrupted() {
            // The picture itself says so, as the table does.
            let note = format!(
                "<text x=\"6\" y=\"12\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#b00000\">PARTIAL: interrupted after {} of {} values</text>\n</svg>",
                reports.len(),
                grid.len()
            );
            if let Some(end) = text.rfind("</svg>") {
                text.replace_range(end.., &note);
            }
        }
        std::fs::write(path, text)
            .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
        // A note, not part of the table: stdout stays the table alone.
        super::note(&format!("plot written to {path}\n"));
    }
    let length_stat = G::COUNTERS
        .get(G::LENGTH)
        .copied()
        .unwrap_or(roots::sim::MARGIN);
    let length = |r: &Report| r.count(r.length.key).map_or((0.0, 0.0), |s| (s.mean, s.sd));
    // Measures beyond the two columns every table has.
    let extra: Vec<&Measure> = measures
        .iter()
        .filter(|m| **m != Measure::SeatWins(1) && **m != Measure::Mean(length_stat.key.to_owned()))
        .collect();
    let values =
        |p: &[usize]| -> Vec<&Value> { axes.iter().zip(p).map(|(a, &i)| &a.values[i]).collect() };
    match setup.sim.format {
        Output::Table => {
            let mut o = String::new();
            if was_interrupted() {
                let _ = writeln!(
                    o,
                    "PARTIAL SWEEP: interrupted after {} of {} values (the last may cover fewer games)\n",
                    reports.len(),
                    grid.len()
                );
            }
            let _ = writeln!(
                o,
                "Variant `{}`, {} players, {} games per value, bots {}\n",
                setup.label, setup.sim.players, setup.sim.games, setup.sim.bots
            );
            for a in axes {
                let _ = write!(o, "{:>14}  ", a.key);
            }
            let _ = write!(
                o,
                "{:>7}  {:>6}  {:>24}",
                length_stat.short, "sd", "seat 1 wins (95%)"
            );
            // The ways to end in compare's words ("ends: nutrients out").
            let ends: Vec<(String, usize)> = G::END_REASONS
                .iter()
                .map(|e| {
                    let name = e.key.replace('_', " ");
                    let w = name.chars().count().max(7);
                    (name, w)
                })
                .collect();
            for (name, w) in &ends {
                let _ = write!(o, "  {name:>w$}");
            }
            let widths: Vec<usize> = extra.iter().map(|m| (m.key().len() + 6).max(26)).collect();
            for (m, w) in extra.iter().zip(&widths) {
                let _ = write!(o, "  {:>w$}", format!("{} (95%)", m.key()));
            }
            o.push('\n');
            for (p, r) in &reports {
                for v in values(p) {
                    let _ = write!(o, "{:>14}  ", v.to_string());
                }
                let r = match r {
                    Ok(r) => r,
                    Err(_) => {
                        o.push_str("not a valid variant: skipped\n");
                        continue;
                    }
                };
                let (mean, sd) = length(r);
                let _ = write!(o, "{mean:>7.1}  {sd:>6.1}  {:>24}", r.seats[0].wins.words(),);
                for (e, (_, w)) in G::END_REASONS.iter().zip(&ends) {
                    let rate = r.end_reasons.get(e.key).map_or(0.0, |x| x.rate);
                    let _ = write!(o, "  {:>w$}", format!("{:.1}%", 100.0 * rate));
                }
                for (m, w) in extra.iter().zip(&widths) {
                    let e = m.of(r);
                    let _ = write!(
                        o,
                        "  {:>w$}",
                        format!(
                            "{} ({} to {})",
                            m.show(e.value),
                            m.show(e.low),
                            m.show(e.high)
                        )
                    );
                }
                o.push('\n');
            }
            let _ = writeln!(
                o,
                "\n{}: the mean per game; sd: the spread of single games (the mean's own 95% interval is about ± 2 sd / √games);\nseat 1 wins: 95% interval; then the share of games that end each way. Neighbouring values differ by chance too: read the trend.",
                length_stat.short
            );
            super::out(&o);
        }
        Output::Csv => {
            let mut header: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
            let len = length_stat.key;
            header.extend([
                format!("mean_{len}"),
                format!("sd_{len}"),
                "seat1_win_rate".into(),
                "seat1_low".into(),
                "seat1_high".into(),
            ]);
            header.extend(G::END_REASONS.iter().map(|e| e.key.to_string()));
            for m in &extra {
                let k = m.key().replace('-', "_");
                header.extend([k.clone(), format!("{k}_low"), format!("{k}_high")]);
            }
            let width = header.len();
            let mut rows = vec![header];
            if was_interrupted() {
                // The table itself says it is partial, in its first row, as
                // simulate's CSV does: a file cut short must not look whole.
                let mut row = vec![
                    "partial: interrupted".to_string(),
                    "values_asked".into(),
                    grid.len().to_string(),
                ];
                row.resize(width.max(row.len()), String::new());
                rows.push(row);
            }
            for (p, r) in &reports {
                let Ok(r) = r else { continue };
                let mut row: Vec<String> = values(p).iter().map(|v| v.to_string()).collect();
                let w = &r.seats[0].wins;
                let (mean, sd) = length(r);
                row.extend([mean, sd, w.rate, w.low, w.high].map(|x| x.to_string()));
                for e in G::END_REASONS {
                    row.push(r.end_reasons.get(e.key).map_or(0.0, |x| x.rate).to_string());
                }
                for m in &extra {
                    let e = m.of(r);
                    row.extend([e.value, e.low, e.high].map(|x| x.to_string()));
                }
                rows.push(row);
            }
            // Written by the csv crate: a value with a comma is quoted.
            super::out(&roots::sim::csv_text(rows));
        }
        Output::Json => {
            let mut rows = Vec::new();
            let mut skipped = Vec::new();
            for (p, r) in &reports {
                let vals: serde_json::Map<String, serde_json::Value> = axes
                    .iter()
                    .zip(p)
                    .map(|(a, &i)| {
                        (
                            a.key.clone(),
                            serde_json::to_value(&a.values[i]).unwrap_or_default(),
                        )
                    })
                    .collect();
                match r {
                    Ok(r) => {
                        let measures: serde_json::Map<String, serde_json::Value> = measures
                            .iter()
                            .map(|m| (m.key(), serde_json::to_value(m.of(r)).unwrap_or_default()))
                            .collect();
                        let mut row = serde_json::json!({ "values": vals, "measures": measures, "report": r });
                        if axes.len() == 1 {
                            row["value"] =
                                serde_json::to_value(&axes[0].values[p[0]]).unwrap_or_default();
                        }
                        rows.push(row);
                    }
                    Err(e) => skipped.push(serde_json::json!({ "values": vals, "error": e })),
                }
            }
            let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
            let mut doc = serde_json::json!({ "key": keys[0], "keys": keys, "values": rows, "skipped": skipped });
            if was_interrupted() {
                // The document itself says it is partial, not only stderr.
                doc["partial"] =
                    serde_json::json!({ "interrupted": true, "values_asked": grid.len() });
            }
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}

/// The plot: a panel per measure for one key, a heat map per measure for two.
fn svg<G: Registered>(
    setup: &Setup,
    axes: &[Axis],
    measures: &[Measure],
    reports: &[(Vec<usize>, Result<Report, &String>)],
    players: u8,
) -> String {
    let panel = |m: &Measure| Panel {
        label: m.label::<G>(),
        rate: m.is_rate(),
        signed: *m == Measure::FirstPlayerAdvantage,
        points: reports
            .iter()
            .map(|(_, r)| r.as_ref().ok().map(|r| m.of(r)))
            .collect(),
        fair: reports
            .iter()
            .map(|(_, r)| r.as_ref().ok().and_then(|r| m.fair(players, r.ties.rate)))
            .collect(),
    };
    let title = |m: Option<&Measure>| {
        let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
        let mut t = format!(
            "{}: sweep of {} ({} games per point, bots {}",
            setup.label,
            keys.join(" and "),
            setup.sim.games,
            setup.sim.bots
        );
        let _ = m;
        t.push(')');
        t
    };
    match axes {
        [x] => plot::line_svg(
            &title(None),
            x,
            &measures.iter().map(panel).collect::<Vec<_>>(),
        ),
        [x, y] => {
            // The grid is x outer, y inner; the heat map wants y outer.
            let maps: Vec<String> = measures
                .iter()
                .map(|m| {
                    let mut p = panel(m);
                    let (nx, ny) = (x.values.len(), y.values.len());
                    fn reorder<T: Copy>(v: &[Option<T>], nx: usize, ny: usize) -> Vec<Option<T>> {
                        let mut out = Vec::with_capacity(nx * ny);
                        for j in 0..ny {
                            for i in 0..nx {
                                out.push(v.get(i * ny + j).copied().flatten());
                            }
                        }
                        out
                    }
                    p.points = reorder(&p.points, nx, ny);
                    p.fair = reorder(&p.fair, nx, ny);
                    plot::heat_svg(&title(Some(m)), x, y, &p)
                })
                .collect();
            plot::stack(&maps)
        }
        _ => String::new(),
    }
}

/// Print the report of merged shards of a sweep.
pub fn merge(part: &Partial, totals: Vec<Result<AccumulatorData, String>>) -> Result<(), Failure> {
    let setup: Setup = serde_json::from_value(part.setup.clone())
        .map_err(|e| Failure::usage(format!("the parts' settings cannot be read: {e}")))?;
    let game = GameId::parse(&part.game).ok_or_else(|| {
        Failure::usage(format!("the parts are of an unknown game `{}`", part.game))
    })?;
    roots::with_game_id!(game, G => merge_game::<G>(&setup, totals))
}

fn merge_game<G: Registered>(
    setup: &Setup,
    totals: Vec<Result<AccumulatorData, String>>,
) -> Result<(), Failure> {
    let game = GameId::of::<G>();
    let axes: Vec<Axis> = setup
        .axes
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let measures = measures::<G>(&setup.measures, setup.sim.players, setup.sim.depth())?;
    let config = setup.sim.config::<G>(&setup.rules)?;
    let outcomes: Vec<Outcome> = totals
        .into_iter()
        .map(|t| t.and_then(|d| Accumulator::from_data::<G>(&d)))
        .collect();
    super::simulate::print_seed_of(&setup.sim);
    print_sweep::<G>(setup, &axes, &measures, &config, &outcomes)
}
