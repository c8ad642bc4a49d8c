//! A run of one variant (`roots simulate`): its games played whole (with a
//! per-game file, a game recorded) or as a shard, summed up as a report.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::games::{AnyRules, Registered};
use crate::sim::shard::{Partial, Shard};
use crate::sim::sweep::Measure;
use crate::sim::verdict::Margins;
use crate::sim::{Accumulator, AccumulatorData, Config, Report};
use crate::variant::Override;

use super::checkpoint::Checkpoint;
use super::console::{self, Progress};
use super::failure::Failure;
use super::finished::{Finished, Ran};
use super::games_file::{GamesFile, GamesFormat};
use super::interrupt;
use super::part;
use super::plan::{Plan, Settings, variant_label};

/// A run of one variant, planned.
pub struct Simulate {
    pub plan: Plan,
    /// Play only this slice of the games, for a part.
    pub shard: Option<Shard>,
    /// Keep the shard's progress in this file, and resume from it.
    pub checkpoint: Option<PathBuf>,
    /// The `--set` changes, named with the variant in the report.
    pub sets: Vec<Override>,
    /// A skill measure: the strong bot and the one it plays against (the
    /// plan seats them: [`Plan::for_skill`]).
    pub strong: Option<(String, String)>,
    /// `--margin KEY=VALUE`: the smallest gap from a fair share that
    /// matters, for the seats' wins.
    pub margins: Vec<String>,
    /// Also write one row per game to this file.
    pub out: Option<(String, GamesFormat)>,
    /// Also write game N as a game record, to this file or the default.
    pub record: Option<(u64, Option<PathBuf>)>,
    /// `--trace-measures`: the --out rows with each game's measures and
    /// rows of win chances.
    pub trace_measures: bool,
}

/// What `simulate --shard` keeps for `merge`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Setup {
    label: String,
    strong: Option<(String, String)>,
    sim: Settings,
    rules: serde_json::Value,
}

/// Play the run of `rules`: its report, or a shard's part.
pub fn simulate(rules: &AnyRules, job: &Simulate) -> Result<Ran<Report>, Failure> {
    let mut margins = Margins::default();
    let mut report = crate::with_game!(rules, G, r => {
        for t in &job.margins {
            margins.add(t).map_err(Failure::usage)?;
            let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
            match Measure::parse::<G>(key, job.plan.players) {
                Ok(Measure::SeatWins(_)) => {}
                Ok(_) => return Err(Failure::usage(format!("--margin {key}: simulate judges only the seats' wins (seat1-wins...); compare takes a margin for every statistic"))),
                Err(e) => return Err(Failure::usage(format!("--margin: {e}"))),
            }
        }
        let config = job.plan.config::<G>(Arc::clone(r))?;
        if let Some(shard) = job.shard {
            let setup = Setup {
                label: variant_label(G::name(r), &job.sets),
                strong: job.strong.clone(),
                sim: job.plan.settings(),
                rules: part::rules_json(&**r)?,
            };
            let mut ck = Checkpoint::open(job.checkpoint.as_deref(), "simulate", shard, G::ID, &setup, &["run"])?;
            let acc = part::play_slice(&config, shard, "simulating", ck.as_mut().map(|c| (c, 0)))?;
            let runs = vec![part::totals("run", &acc)];
            return Ok(Ran::Part(part::part("simulate", shard, G::ID, &setup, runs)?));
        }
        job.plan.note_seed();
        if let Some((n, path)) = &job.record {
            record_game(&config, *n, path.as_deref())?;
        }
        let out = job.out.as_ref().map(|(p, f)| (p.as_str(), *f));
        if job.trace_measures {
            traced(&config, out)?
        } else {
            play(&config, out, "simulating")?
        }
    });
    report.variant = variant_label(&report.variant, &job.sets);
    report.set_margins(&margins);
    if let Some((s, w)) = &job.strong {
        report = report.with_skill(s, w);
    }
    Ok(Ran::Report(report))
}

/// Play a configured run whole, with an optional per-game file and a
/// progress bar; interrupted, the report covers the games played (in game
/// order) and says it is partial.
pub fn play<G: Registered>(
    config: &Config<G>,
    out: Option<(&str, GamesFormat)>,
    label: &str,
) -> Result<Report, Failure> {
    play_each(config, out, label, |_| {})
}

/// [`play`] with `--trace-measures`: the run plays as always, and each game
/// written to the per-game file (JSON only) is replayed to keep the rows of
/// win chances its measures came from ([`crate::sim::trace_game`]; the
/// same game, the seeds fixing it).
fn traced<G: Registered>(
    config: &Config<G>,
    out: Option<(&str, GamesFormat)>,
) -> Result<Report, Failure> {
    let Some((path, format)) = out else {
        return Err(Failure::usage(
            "--trace-measures writes to the --out file: give --out",
        ));
    };
    if format == GamesFormat::Csv {
        return Err(Failure::usage(format!(
            "--trace-measures: {path} would be CSV, which has no room for rows of chances; name a .jsonl or .json file, or --out-format jsonl"
        )));
    }
    if config.measures == crate::sim::measures::Depth::Outcomes {
        return Err(Failure::usage(
            "--trace-measures with --measures outcomes: no chances are evaluated at that depth; use --measures standard or full",
        ));
    }
    let mut writer = GamesFile::create::<G>(path, format, config.players)?;
    let mut failed = None;
    let report = play_each(config, None, "simulating", |r| {
        if failed.is_some() {
            return;
        }
        let row = crate::sim::trace_game(config, r.game)
            .map_err(|e| Failure::usage(format!("game {}: {e}", r.game)))
            .and_then(|t| {
                writer
                    .write(&t)
                    .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))
            });
        if let Err(e) = row {
            failed = Some(e);
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    writer
        .finish()
        .map_err(|e| Failure::usage(format!("cannot write the per-game file: {e}")))?;
    Ok(report)
}

/// [`play`], handing every game's result to `each` in game order (for
/// `compare`'s pairs).
pub fn play_each<G: Registered>(
    config: &Config<G>,
    out: Option<(&str, GamesFormat)>,
    label: &str,
    mut each: impl FnMut(&crate::sim::GameResult),
) -> Result<Report, Failure> {
    let progress = Progress::new(config.games, label);
    let mut writer = match out {
        Some((path, format)) => Some(GamesFile::create::<G>(path, format, config.players)?),
        None => None,
    };
    let mut forfeits = 0u64;
    let mut failures = 0u64;
    let acc = crate::sim::run_until(
        config,
        interrupt::flag(),
        |r| {
            each(r);
            if let Some(why) = &r.script_failure {
                // Say which game and how to play it again, for the first
                // few; the report counts them all (a house rule fails).
                failures += 1;
                if failures <= 5 {
                    console::err(&format!(
                        "game {} (seed {}; `--seed {} --record-game {}` records it): a house rule stopped the game: {why}\n",
                        r.game, config.seed, config.seed, r.game
                    ));
                } else if failures == 6 {
                    console::err(
                        "more games were stopped by a house rule; the report counts them\n",
                    );
                }
            }
            if let Some((seat, why)) = &r.forfeit {
                // Say why, for the first few; the report counts them all.
                forfeits += 1;
                if forfeits <= 5 {
                    console::err(&format!(
                        "game {}: seat {} ({}) forfeits and loses: {why}\n",
                        r.game,
                        u16::from(*seat) + 1,
                        r.bots.get(usize::from(*seat)).map_or("?", String::as_str)
                    ));
                } else if forfeits == 6 {
                    console::err("more forfeits follow; the report counts them\n");
                }
            }
            match &mut writer {
                Some(w) => w.write(r),
                None => Ok(()),
            }
        },
        |done| progress.update(done),
    );
    progress.finish();
    let acc = acc?;
    if let Some(w) = writer {
        w.finish()
            .map_err(|e| Failure::usage(format!("cannot write the per-game file: {e}")))?;
    }
    let mut report = Report::new(config, &acc);
    if interrupt::interrupted() {
        console::err(&format!(
            "interrupted: the report covers the first {} of {} games (game order, so the same as --games {} with this seed){}\n",
            acc.games,
            config.games,
            acc.games,
            match out {
                Some((path, _)) => format!("; {path} holds those {} games", acc.games),
                None => String::new(),
            }
        ));
        report.mark_partial(config.games);
    }
    Ok(report)
}

/// The report of merged shards of `simulate`.
pub fn merge(part: &Partial, totals: &[AccumulatorData]) -> Result<Finished, Failure> {
    let setup: Setup = part::setup_of(part)?;
    let game = part::game_of(part)?;
    let mut report = crate::with_game_id!(game, G => {
        let config = setup.sim.config::<G>(&setup.rules)?;
        let acc = Accumulator::from_data::<G>(&totals[0]).map_err(Failure::usage)?;
        Report::new(&config, &acc)
    });
    report.variant = setup.label.clone();
    if let Some((s, w)) = &setup.strong {
        report = report.with_skill(s, w);
    }
    setup.sim.note_seed();
    Ok(Finished::new(report, setup.sim.format))
}

/// `--record-game N`: game `n` of the run as a record.
fn record_game<G: Registered>(
    config: &Config<G>,
    n: u64,
    path: Option<&Path>,
) -> Result<(), Failure> {
    use crate::record::{DiceMode, Header, RecordWriter};
    if n >= config.games {
        return Err(Failure::usage(format!(
            "--record-game {n}: the run has games 0 to {}",
            config.games.saturating_sub(1)
        )));
    }
    let (players, events) = crate::sim::record_game(config, n)?;
    let header = Header {
        variant: G::wrap(Arc::clone(&config.rules)),
        seed: Some(config.seed),
        seed_game: n,
        dice: DiceMode::Auto,
        players,
        created: crate::record::utc_now().0,
    };
    let default = PathBuf::from(format!("sim-{}-game-{n}.jsonl", config.seed));
    let path = path.map_or(default, Path::to_path_buf);
    let shown = path.display().to_string();
    let mut w = RecordWriter::create(&path, &header).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
            "\n  = help: a record is never overwritten: remove it, or give another FILE to --record"
        } else {
            ""
        };
        Failure::io(format!(
            "{shown}: error: cannot create the record: {e}{hint}"
        ))
    })?;
    for e in &events {
        w.write_event(e)
            .map_err(|e| Failure::io(format!("{shown}: error: cannot write the record: {e}")))?;
    }
    if !console::quiet() {
        console::err(&format!(
            "game {n} recorded in {shown} ({} events); see it with: roots view {shown}\n",
            events.len()
        ));
    }
    Ok(())
}
