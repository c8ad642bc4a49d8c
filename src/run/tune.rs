//! A tune (`roots tune`): the search for the values of some keys that come
//! nearest to targets (`crate::sim::tune`), its batches played here or in
//! shards exchanging totals; stopped by a Ctrl-C or its time; finished by
//! the original rules on the best point's games, the best written as a
//! variant file, and the report.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::games::{AnyRules, GameId, Registered};
use crate::sim::shard::{Partial, PartialRun, Shard};
use crate::sim::sweep::{Axis, Measure};
use crate::sim::tune::{self, Plan, Point, Target};
use crate::sim::tune_table::{Summary, TuneTable};
use crate::sim::{Accumulator, Report};
use crate::variant::Override;

use super::checkpoint::Checkpoint;
use super::console;
use super::failure::Failure;
use super::finished::{Finished, Ran};
use super::interrupt;
use super::part;
use super::plan::{self, Settings};
use super::tune_file::{value_at, write_best};
use super::tune_runner::{Runner, point_text, refuse_idle_keys};

/// A tune, planned.
pub struct Tune {
    /// The variant argument (a built-in name or a path), each point's
    /// values set on top of it.
    pub variant: String,
    pub plan: plan::Plan,
    /// Play only this slice of every round's games, exchanging totals with
    /// the other shards through the directory.
    pub shard: Option<(Shard, PathBuf)>,
    /// Keep the shard's jobs in this file as it plays, and resume from it.
    pub checkpoint: Option<PathBuf>,
    /// The keys searched as given (`beads.supply=30..90`), and parsed.
    pub vary: Vec<String>,
    pub axes: Vec<Axis>,
    /// The targets as given (`rounds=25`).
    pub targets: Vec<String>,
    /// The changes made at every point.
    pub fixed: Vec<Override>,
    /// Most games in all.
    pub budget: u64,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Points per bracket.
    pub candidates: usize,
    /// Where the best variant goes (default: NAME-tuned.toml).
    pub write: Option<String>,
    /// How many of the best variants to print.
    pub top: usize,
}

/// What a tune's report is made of, kept in its partial results.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub variant: String,
    pub vary: Vec<String>,
    pub targets: Vec<String>,
    pub fixed: Vec<String>,
    pub budget: u64,
    pub candidates: usize,
    pub first_games: u64,
    pub write: String,
    pub top: usize,
    pub sim: Settings,
    pub rules: serde_json::Value,
    /// The search's figures, once it is over (every shard has the same).
    #[serde(default)]
    pub summary: Option<Summary>,
}

fn targets<G: Registered>(
    texts: &[String],
    players: u8,
    depth: crate::sim::measures::Depth,
) -> Result<Vec<Target>, Failure> {
    texts
        .iter()
        .map(|t| {
            let (m, g) = t.split_once('=').ok_or_else(|| {
                Failure::usage(format!(
                    "--target `{t}`: expected MEASURE=VALUE, MEASURE=min or MEASURE=max (rounds=25)"
                ))
            })?;
            let measure = Measure::parse::<G>(m, players)
                .and_then(|m| m.check_depth(depth).map(|()| m))
                .map_err(|e| Failure::usage(format!("--target: {e}")))?;
            let goal =
                Target::goal(&measure, g).map_err(|e| Failure::usage(format!("--target: {e}")))?;
            Ok(Target { measure, goal })
        })
        .collect()
}

/// Search the variant `base` (the fixed changes made): the report (the
/// best written as a file), or a shard's part.
pub fn tune(base: &AnyRules, job: &Tune) -> Result<Ran<TuneTable>, Failure> {
    crate::with_game!(base, G, rules => tune_game::<G>(job, rules))
}

fn tune_game<G: Registered>(job: &Tune, base: &Arc<G::Rules>) -> Result<Ran<TuneTable>, Failure> {
    let axes = &job.axes[..];
    let targets = targets::<G>(&job.targets, job.plan.players, job.plan.measures)?;
    let seed = job.plan.seed;
    let config = job.plan.config::<G>(Arc::clone(base))?;
    let size = tune::space_size(axes);
    let first_games = job.plan.games.div_ceil(job.candidates as u64).max(1);
    // The first round plays every point of the first bracket; a budget
    // below it would be overrun before the search could stop.
    // A bracket has --candidates points, or every point of a smaller space.
    let points = u64::try_from(size.min(job.candidates as u128)).unwrap_or(u64::MAX);
    let first_round = first_games.saturating_mul(points);
    if job.budget < first_round {
        return Err(Failure::usage(format!(
            "--budget {} is smaller than the search's first round ({} of \
             {} games each: {} games); give a --budget of at least {}, or \
             fewer --candidates or --games",
            job.budget,
            crate::core::count(points, "point", "points"),
            first_games,
            first_round,
            first_round
        )));
    }
    let write = job
        .write
        .clone()
        .unwrap_or_else(|| format!("{}-tuned.toml", G::name(base)));
    let setup = Setup {
        variant: job.variant.clone(),
        vary: job.vary.clone(),
        targets: job.targets.clone(),
        fixed: job.fixed.iter().map(ToString::to_string).collect(),
        budget: job.budget,
        candidates: job.candidates,
        first_games,
        write,
        top: job.top,
        sim: job.plan.settings(),
        rules: part::rules_json(&**base)?,
        summary: None,
    };
    if job.shard.is_none() {
        job.plan.note_seed();
    }
    let stop = Arc::new(AtomicBool::new(false));
    // A watcher turns Ctrl-C or the end of --time into the stop flag.
    let deadline = job.time.map(|t| Instant::now() + t);
    let timed_out = Arc::new(AtomicBool::new(false));
    {
        let (stop, timed_out) = (Arc::clone(&stop), Arc::clone(&timed_out));
        std::thread::spawn(move || {
            loop {
                if interrupt::interrupted() {
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    timed_out.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
    }
    if let Some((_, dir)) = &job.shard {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::usage(format!(
                "cannot make the exchange directory {}: {e}",
                dir.display()
            ))
        })?;
    }
    let mut runner = Runner::<G>::new(&job.variant, &job.fixed, axes, config, job.budget);
    runner.pool = crate::sim::pool(runner.config.jobs)?;
    runner.stop = stop;
    runner.shard = job.shard.clone();
    runner.run_id = {
        // FNV-1a of the settings and the number of shards.
        let text = format!(
            "{}/{}",
            serde_json::to_string(&setup).unwrap_or_default(),
            job.shard.as_ref().map_or(1, |(s, _)| s.count)
        );
        text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    };
    // The variant's own values, when they lie in the space, are tried first.
    let own = serde_json::to_value(&**base).unwrap_or_default();
    let start: Option<Point> = axes
        .iter()
        .map(|a| {
            let v = value_at(&own, &a.key)?;
            a.values.iter().position(|x| x.to_toml() == v)
        })
        .collect();
    refuse_idle_keys(&mut runner, start.as_ref())?;
    if let Some((shard, _)) = &job.shard {
        runner.checkpoint =
            Checkpoint::open_log(job.checkpoint.as_deref(), "tune", *shard, G::ID, &setup)?;
        if let Some(c) = &runner.checkpoint {
            let games: u64 = c
                .log()
                .iter()
                .filter_map(|e| e.totals.as_ref())
                .map(|t| t.games)
                .sum();
            if !c.log().is_empty() {
                c.say_resumed(
                    games,
                    &format!(
                        " ({} of its search)",
                        crate::core::count(c.log().len() as u64, "job", "jobs")
                    ),
                );
            }
        }
    }
    let plan = Plan {
        candidates: job.candidates,
        first_games,
        eta: 3,
        budget: job.budget,
        final_share: 0.3,
        finalists: job.top.clamp(1, 20),
        seed,
    };
    let outcome = tune::search(axes, &targets, &plan, start, &mut runner);
    runner.status.clear();
    if let Some(f) = runner.failure.take() {
        return Err(f);
    }
    if let Some(c) = runner.checkpoint.as_mut() {
        c.flush();
    }
    let stopped = if timed_out.load(Ordering::SeqCst) {
        Some("the time (--time) ran out")
    } else if interrupt::interrupted() {
        Some("interrupted")
    } else {
        None
    };
    let summary = Summary {
        games: outcome.games,
        brackets: outcome.brackets,
        cut_short: outcome.cut_short,
        points: outcome.known.len(),
        invalid: outcome.known.values().filter(|k| k.is_err()).count(),
        size,
        stopped,
        path: outcome.path.clone(),
    };
    if let Some((s, _)) = &job.shard {
        // Every shard knows every total; the partial keeps the ranking's.
        let ranking = outcome.ranking();
        let runs = ranking
            .iter()
            .take(job.top.max(1))
            .map(|(p, k)| PartialRun {
                label: point_text(axes, p),
                totals: Some(k.acc.to_data()),
                error: None,
            })
            .collect();
        let mut setup = setup;
        setup.summary = Some(summary);
        let mut part = part::part("tune", *s, G::ID, &setup, runs)?;
        part.interrupted = stopped.is_some();
        return Ok(Ran::Part(part));
    }
    let ranked: Vec<(Point, Accumulator)> = outcome
        .ranking()
        .iter()
        .take(job.top.max(1))
        .map(|(p, k)| ((*p).clone(), k.acc.clone()))
        .collect();
    finish::<G>(&setup, &targets, &runner, &ranked, summary).map(Ran::Report)
}

/// The tune's report from its best points: the original rules played on
/// the best point's games, the best written as a file when it beats them
/// beyond noise, a warning when the budget was too small.
fn finish<G: Registered>(
    setup: &Setup,
    targets: &[Target],
    runner: &Runner<'_, G>,
    ranked: &[(Point, Accumulator)],
    summary: Summary,
) -> Result<TuneTable, Failure> {
    let reports: Vec<Report> = ranked
        .iter()
        .map(|(p, a)| tune::Evaluate::report(runner, p, a))
        .collect();
    let base: G::Rules = serde_json::from_value(setup.rules.clone())
        .map_err(|e| Failure::usage(format!("the variant's rules cannot be read back: {e}")))?;
    // The original rules on the same games as the best point.
    let original = match reports.first() {
        Some(best) if best.games > 0 => {
            let mut config = runner.config.clone();
            config.games = best.games;
            let acc = crate::sim::run_games(
                &config,
                0..best.games,
                runner.pool.as_ref(),
                &AtomicBool::new(false),
                |_| Ok(()),
                |_| {},
            )?;
            let mut r = Report::new(&config, &acc);
            r.variant = G::name(&base).to_owned();
            Some(r)
        }
        _ => None,
    };
    let versus = original
        .as_ref()
        .zip(reports.first())
        .map(|(o, b)| tune::versus(targets, o, b));
    let warning = reports
        .first()
        .and_then(|b| tune::precision_warning(targets, b));
    let mut written = None;
    let best_rules = ranked
        .first()
        .and_then(|(p, _)| runner.rules.get(p))
        .and_then(|r| r.as_ref().ok());
    if let (Some((_, _)), Some(r), Some(v)) = (ranked.first(), reports.first(), &versus) {
        let rules = best_rules.ok_or_else(|| Failure::usage("the best point has no rules"))?;
        written = Some(if v.beats {
            write_best::<G>(setup, targets, &base, rules, r)?
        } else {
            format!(
                "Nothing written: no point beats the original rules beyond noise (the best is {:.2} nearer the targets, ± {:.2} at 95%, on the same {} games).",
                v.improvement,
                1.96 * v.se,
                r.games
            )
        });
    }
    if let Some(w) = &warning {
        console::err(&format!("{w}\n"));
    }
    if let Some(why) = summary.stopped {
        console::err(&format!(
            "{why}: partial: the best so far after {} games{}\n",
            summary.games,
            if written.is_some() {
                format!("; {}", written.as_deref().unwrap_or_default())
            } else {
                String::new()
            }
        ));
    }
    let own = serde_json::to_value(&base).unwrap_or_default();
    let table = TuneTable {
        variant: G::name(&base).to_owned(),
        players: setup.sim.players,
        bots: setup.sim.bots.clone(),
        axes: runner.axes.to_vec(),
        targets: targets.to_vec(),
        targets_given: setup.targets.clone(),
        summary,
        original,
        original_values: runner.axes.iter().map(|a| value_at(&own, &a.key)).collect(),
        best: ranked.iter().map(|(p, _)| p.clone()).zip(reports).collect(),
        versus,
        warning,
        written,
        write: setup.write.clone(),
        best_rules: best_rules.map(|r| G::wrap(Arc::clone(r))),
    };
    Ok(table)
}

/// The report of merged shards of a tune: every shard took part in every
/// round and knows every total, so the parts must agree.
pub fn merge(parts: &[Partial]) -> Result<Finished, Failure> {
    let first = &parts[0];
    for p in &parts[1..] {
        if p.runs != first.runs {
            return Err(Failure::invalid_line(format!(
                "shard {} of the tune ended with other totals than shard {}: were they run with one --exchange directory, at the same time?",
                p.shard, first.shard
            )));
        }
    }
    let setup: Setup = part::setup_of(first)?;
    let game = part::game_of(first)?;
    crate::with_game_id!(game, G => merge_game::<G>(&setup, first))
}

fn merge_game<G: Registered>(setup: &Setup, part: &Partial) -> Result<Finished, Failure> {
    let game = GameId::of::<G>();
    let axes: Vec<Axis> = setup
        .vary
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let targets = targets::<G>(&setup.targets, setup.sim.players, setup.sim.measures)?;
    let config = setup.sim.config::<G>(&setup.rules)?;
    let fixed: Vec<Override> = setup
        .fixed
        .iter()
        .map(|f| Override::parse(f).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let mut runner = Runner::<G>::new(&setup.variant, &fixed, &axes, config, setup.budget);
    let mut ranked = Vec::new();
    for run in &part.runs {
        let p: Point = axes
            .iter()
            .zip(run.label.split(' '))
            .map(|(a, kv)| {
                let v = kv.split_once('=').map_or("", |(_, v)| v);
                a.values.iter().position(|x| x.to_string() == v)
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                Failure::invalid_line(format!("`{}` is not a point of the search", run.label))
            })?;
        runner.rules_of(&p).map_err(Failure::invalid_line)?;
        let acc = run
            .totals
            .as_ref()
            .map(Accumulator::from_data::<G>)
            .transpose()
            .map_err(Failure::invalid_line)?
            .ok_or_else(|| Failure::invalid_line("a best point without totals"))?;
        ranked.push((p, acc));
    }
    setup.sim.note_seed();
    let summary = setup
        .summary
        .clone()
        .ok_or_else(|| Failure::invalid_line("the parts do not say how the search went"))?;
    let table = finish::<G>(setup, &targets, &runner, &ranked, summary)?;
    Ok(Finished::new(table, setup.sim.format))
}
