//! Runs in shards: `--shard K/N` plays the K-th of N slices of every run's
//! games and writes a part (the run's settings and its totals); `roots
//! merge` reads the parts, checks they are the N shards of one run, sums
//! the totals and hands them to the kind of run that wrote them, which
//! makes the report one run prints.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::games::{Game, GameId};
use crate::sim::shard::{self, Partial, PartialRun, Shard};
use crate::sim::{Accumulator, AccumulatorData, Config};

use super::checkpoint::Checkpoint;
use super::console::Progress;
use super::failure::Failure;
use super::finished::Finished;
use super::interrupt;

/// Play one shard's slice of a run's games (no per-game file, no report),
/// with a progress bar; with a checkpoint, from where it stopped (run
/// `run` of its runs), keeping it as it goes and at the end.
pub fn play_slice<G: Game>(
    config: &Config<G>,
    shard: Shard,
    label: &str,
    mut checkpoint: Option<(&mut Checkpoint, usize)>,
) -> Result<Accumulator, Failure> {
    let range = shard.range(config.games);
    let slice = range.end - range.start;
    let before = match &checkpoint {
        Some((c, run)) => c.resumed::<G>(*run, slice)?,
        None => None,
    };
    let done = before.as_ref().map_or(0, |a| a.games);
    let progress = Progress::new(slice, label);
    // The totals so far, games in order, as the checkpoint keeps them.
    let mut so_far = before
        .clone()
        .unwrap_or_else(|| Accumulator::new::<G>(config.players));
    let acc = play_range(
        config,
        range.start + done..range.end,
        |r| {
            if let Some((c, run)) = &mut checkpoint {
                so_far.add(r);
                if c.due() {
                    c.save(*run, &so_far);
                }
            }
        },
        |n| progress.update(done + n),
    );
    progress.finish();
    let mut acc = acc?;
    if let Some(mut before) = before {
        before.merge(&acc);
        acc = before;
    }
    if let Some((c, run)) = checkpoint {
        c.save(run, &acc);
    }
    Ok(acc)
}

/// The games `range` of a run on the run's threads, each handed to `each`
/// as it ends (in game order), stopped by an interruption.
pub fn play_range<G: Game>(
    config: &Config<G>,
    range: std::ops::Range<u64>,
    mut each: impl FnMut(&crate::sim::GameResult),
    progress: impl Fn(u64) + Sync,
) -> Result<Accumulator, Failure> {
    let pool = crate::sim::pool(config.jobs)?;
    let acc = crate::sim::run_games(
        config,
        range,
        pool.as_ref(),
        interrupt::flag(),
        |r| {
            each(r);
            Ok(())
        },
        progress,
    );
    Ok(acc?)
}

/// A run's totals as a part keeps them.
pub fn totals(label: &str, acc: &Accumulator) -> PartialRun {
    PartialRun {
        label: label.into(),
        totals: Some(acc.to_data()),
        error: None,
    }
}

/// A shard's part of a run of `command`: its settings (what makes the
/// report: the command's options, the variants, the seed) and its runs'
/// totals, marked interrupted when a Ctrl-C cut it short (a merge refuses
/// it).
pub fn part<S: Serialize>(
    command: &str,
    shard: Shard,
    game: &str,
    setup: &S,
    runs: Vec<PartialRun>,
) -> Result<Partial, Failure> {
    let setup = serde_json::to_value(setup)
        .map_err(|e| Failure::usage(format!("cannot write the partial result: {e}")))?;
    let mut part = Partial::new(command, shard, game, setup, runs);
    part.interrupted = interrupt::interrupted();
    Ok(part)
}

/// A variant's resolved rules as a part keeps them.
pub fn rules_json<R: Serialize>(rules: &R) -> Result<serde_json::Value, Failure> {
    serde_json::to_value(rules)
        .map_err(|e| Failure::usage(format!("cannot write the rules as JSON: {e}")))
}

/// The settings a part keeps, read back.
pub fn setup_of<S: DeserializeOwned>(part: &Partial) -> Result<S, Failure> {
    serde_json::from_value(part.setup.clone())
        .map_err(|e| Failure::usage(format!("the parts' settings cannot be read: {e}")))
}

/// The game of a part.
pub fn game_of(part: &Partial) -> Result<GameId, Failure> {
    GameId::parse(&part.game)
        .ok_or_else(|| Failure::usage(format!("the parts are of an unknown game `{}`", part.game)))
}

/// Combine the parts `names` (each written by `--shard K/N`, in any order)
/// into the report the run would have printed in one go with the same
/// seed: every total is an exact integer sum, and game i is the same game
/// whichever shard plays it.
pub fn merge(names: &[String]) -> Result<Finished, Failure> {
    let mut parts = Vec::new();
    for name in names {
        parts.push(
            Partial::read_file(std::path::Path::new(name)).map_err(|e| match e {
                shard::PartError::Unreadable(why) => Failure::usage(why),
                shard::PartError::Invalid(why) => Failure::invalid_line(why),
            })?,
        );
    }
    for (name, p) in names.iter().zip(&parts) {
        check_slice(name, p).map_err(Failure::invalid_line)?;
    }
    shard::check_parts(names, &mut parts).map_err(Failure::invalid_line)?;
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
    let all = |totals: Vec<Result<AccumulatorData, String>>| {
        totals
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
            .map_err(Failure::invalid_line)
    };
    let finished = match first.command.as_str() {
        "simulate" => super::simulate::merge(first, &all(totals)?),
        "compare" => super::compare::merge(names, &parts, &all(totals)?),
        "sweep" => super::sweep::merge(first, totals),
        "tune" => super::tune::merge(&parts),
        other => Err(Failure::invalid_line(format!(
            "{}: parts of `roots {other}`, which this version cannot merge",
            names[0]
        ))),
    };
    finished.map(|mut f| {
        f.setup = Some((first.game.clone(), first.setup.clone()));
        f
    })
}

/// Check that each run of part `p` counts the games of its shard's slice
/// of the run, as its header (the shard, and the run's games in its
/// settings) says: a part whose totals were edited to more or fewer games,
/// or whose header was edited to another shard, is refused whatever its
/// checksum. Simulate, compare and sweep play every run's slice whole; a
/// tune's runs are its candidates' rounds, their games its own business.
fn check_slice(name: &str, p: &Partial) -> Result<(), String> {
    // An interrupted part (or a checkpoint) is refused as such, below.
    if p.interrupted || !matches!(p.command.as_str(), "simulate" | "compare" | "sweep") {
        return Ok(());
    }
    let Some(games) = p.setup.pointer("/sim/games").and_then(|g| g.as_u64()) else {
        return Err(format!(
            "{name}: a part of `roots {}` without the run's number of games in its settings",
            p.command
        ));
    };
    let range = p.shard.range(games);
    let want = range.end - range.start;
    for run in &p.runs {
        if let Some(t) = &run.totals
            && t.games != want
        {
            return Err(format!(
                "{name}: shard {} of a run of {games} games plays games {}..{} ({want} games), but the totals of {} count {} games",
                p.shard, range.start, range.end, run.label, t.games
            ));
        }
    }
    Ok(())
}

/// Check that `totals` are the statistics of `game` in this version.
fn check_game(game: &str, totals: &AccumulatorData) -> Result<(), String> {
    let id = GameId::parse(game).ok_or_else(|| format!("unknown game `{game}`"))?;
    crate::with_game_id!(id, G => {
        Accumulator::from_data::<G>(totals).map(|_| ())
    })
}
