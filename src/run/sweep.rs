//! A sweep (`roots sweep`): a variant played once per value of one key, or
//! per pair of values of two, every point on the same seeded games; whole
//! or as a shard; its table and plot.

use std::sync::Arc;

use crate::games::{AnyRules, GameId, Registered};
use crate::sim::shard::{Partial, PartialRun, Shard};
use crate::sim::sweep::{self, Axis, Measure};
use crate::sim::sweep_table::{Heading, SweepTable, point_words, points};
use crate::sim::{Accumulator, AccumulatorData, Config, Report};
use crate::variant::Override;

use super::checkpoint::Checkpoint;
use super::console;
use super::failure::Failure;
use super::finished::{Finished, Ran};
use super::interrupt;
use super::part;
use super::plan::{Plan, Settings, variant_label};

/// A sweep, planned.
pub struct Sweep {
    /// The variant argument (a built-in name, a path, `-`), each point's
    /// changes made on top of it.
    pub variant: String,
    pub plan: Plan,
    /// Play only this slice of every point's games, for a part.
    pub shard: Option<Shard>,
    /// Keep the shard's progress in this file, and resume from it.
    pub checkpoint: Option<std::path::PathBuf>,
    /// The keys swept as given (`beads.supply=30..90:10`), and parsed.
    pub axes_given: Vec<String>,
    pub axes: Vec<Axis>,
    /// The changes made at every point.
    pub fixed: Vec<Override>,
    /// The measures asked for (none: game length and seat 1's wins).
    pub measures: Vec<String>,
    /// Where to write the plot.
    pub svg: Option<String>,
}

/// What makes a sweep's report, kept in a partial result so that `merge`
/// prints what one run prints.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Setup {
    variant: String,
    label: String,
    axes: Vec<String>,
    fixed: Vec<String>,
    measures: Vec<String>,
    svg: Option<String>,
    sim: Settings,
    /// The resolved rules of the swept variant (the fixed changes made).
    rules: serde_json::Value,
}

/// One point's outcome: its totals, or why it was skipped.
type Outcome = Result<Accumulator, String>;

/// Play the sweep of `base` (the variant with the fixed changes): its
/// table (the plot written), or a shard's part.
pub fn sweep(base: &AnyRules, job: &Sweep) -> Result<Ran<SweepTable>, Failure> {
    crate::with_game!(base, G, rules => {
        let measures = measures::<G>(&job.measures, job.plan.players, job.plan.measures)?;
        let setup = Setup {
            variant: job.variant.clone(),
            label: variant_label(G::name(rules), &job.fixed),
            axes: job.axes_given.clone(),
            fixed: job.fixed.iter().map(ToString::to_string).collect(),
            measures: measures.iter().map(Measure::key).collect(),
            svg: job.svg.clone(),
            sim: job.plan.settings(),
            rules: part::rules_json(&**rules)?,
        };
        sweep_game::<G>(job, &setup, &measures, rules)
    })
}

/// The measures asked for, or the default two.
fn measures<G: Registered>(
    names: &[String],
    players: u8,
    depth: crate::sim::measures::Depth,
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

fn sweep_game<G: Registered>(
    job: &Sweep,
    setup: &Setup,
    measures: &[Measure],
    base: &Arc<G::Rules>,
) -> Result<Ran<SweepTable>, Failure> {
    let axes = &job.axes;
    // The base settings are checked once, before any point plays.
    let base_config = job.plan.config::<G>(Arc::clone(base))?;
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
        let r = sweep::apply::<G>(&job.variant, &job.fixed, &sets)
            .and_then(|r| G::new_state(Arc::clone(&r), job.plan.players).map(|_| r));
        if let Err(e) = &r {
            // The whole diagnostic for the first few, a line for the rest.
            skipped += 1;
            if skipped <= 3 {
                console::err(&format!(
                    "skipped: {} is not a valid variant:\n{}\n",
                    point_words(axes, p),
                    indent(e)
                ));
            } else if skipped <= 10 {
                let first = e.lines().next().unwrap_or("");
                console::err(&format!("skipped: {first}\n"));
            }
        }
        rules.push(r);
    }
    if skipped > 10 {
        console::err(&format!(
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
    if job.shard.is_none() {
        job.plan.note_seed();
    }
    let shard = job.shard.unwrap_or(Shard::WHOLE);
    let range = shard.range(job.plan.games);
    let labels: Vec<String> = grid.iter().map(|p| point_words(axes, p)).collect();
    let mut ck = match job.shard {
        Some(shard) => {
            let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
            Checkpoint::open(
                job.checkpoint.as_deref(),
                "sweep",
                shard,
                G::ID,
                setup,
                &labels,
            )?
        }
        None => None,
    };
    let mut outcomes: Vec<Outcome> = Vec::new();
    let count = grid.len();
    for (k, (label, r)) in labels.iter().zip(rules).enumerate() {
        if interrupt::interrupted() {
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
        let label = format!("{label} ({}/{count})", k + 1);
        let acc = part::play_slice(&config, shard, &label, ck.as_mut().map(|c| (c, k)))?;
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
        return Ok(Ran::Part(part::part("sweep", shard, G::ID, setup, runs)?));
    }
    if interrupt::interrupted() {
        console::err(&format!(
            "interrupted: partial: {} of {count} values of {} played (the last of them may cover fewer than {} games: see above); the values after it are left out\n",
            outcomes.len(),
            axes.iter()
                .map(|a| a.key.as_str())
                .collect::<Vec<_>>()
                .join(" and "),
            job.plan.games
        ));
    }
    finish::<G>(setup, axes, measures, &base_config, outcomes).map(Ran::Report)
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The sweep's table from the points' totals (one run's, or the merged
/// shards'), its plot written where `--svg` said.
fn finish<G: Registered>(
    setup: &Setup,
    axes: &[Axis],
    measures: &[Measure],
    config: &Config<G>,
    outcomes: Vec<Outcome>,
) -> Result<SweepTable, Failure> {
    let grid = points(axes);
    let asked = grid.len();
    let reports: Vec<(Vec<usize>, Result<Report, String>)> = grid
        .into_iter()
        .zip(outcomes)
        .map(|(p, o)| {
            let r = o.map(|acc| {
                let mut r = Report::new(config, &acc);
                r.variant = setup.label.clone();
                r
            });
            (p, r)
        })
        .collect();
    let heading = Heading {
        label: setup.label.clone(),
        players: setup.sim.players,
        games: setup.sim.games,
        bots: setup.sim.bots.clone(),
    };
    let mut table = SweepTable::of::<G>(heading, axes.to_vec(), measures.to_vec(), reports, asked);
    table.partial = interrupt::interrupted();
    if let Some(path) = &setup.svg {
        std::fs::write(path, table.svg())
            .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
        // A note, not part of the table: stdout stays the table alone.
        console::note(&format!("plot written to {path}\n"));
    }
    Ok(table)
}

/// The table of merged shards of a sweep.
pub fn merge(
    part: &Partial,
    totals: Vec<Result<AccumulatorData, String>>,
) -> Result<Finished, Failure> {
    let setup: Setup = part::setup_of(part)?;
    let game = part::game_of(part)?;
    crate::with_game_id!(game, G => merge_game::<G>(&setup, totals))
}

fn merge_game<G: Registered>(
    setup: &Setup,
    totals: Vec<Result<AccumulatorData, String>>,
) -> Result<Finished, Failure> {
    let game = GameId::of::<G>();
    let axes: Vec<Axis> = setup
        .axes
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let measures = measures::<G>(&setup.measures, setup.sim.players, setup.sim.measures)?;
    let config = setup.sim.config::<G>(&setup.rules)?;
    let outcomes: Vec<Outcome> = totals
        .into_iter()
        .map(|t| t.and_then(|d| Accumulator::from_data::<G>(&d)))
        .collect();
    setup.sim.note_seed();
    let table = finish::<G>(setup, &axes, measures.as_slice(), &config, outcomes)?;
    Ok(Finished::new(table, setup.sim.format))
}
