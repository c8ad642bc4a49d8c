//! The player of a tune's batches ([`Evaluate`]): each point's rules made
//! once, its games played on one pool, and, for a shard, the totals swapped
//! with the other shards through the exchange directory after every batch;
//! with a checkpoint, every job's totals kept as it plays, and taken back
//! from it when the shard resumes.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::games::Registered;
use crate::sim::shard::{PartialRun, Shard};
use crate::sim::sweep::{self, Axis};
use crate::sim::tune::{Evaluate, Job, Point};
use crate::sim::{Accumulator, Config, Report};
use crate::variant::Override;

use super::checkpoint::Checkpoint;
use super::console::{self, Status};
use super::failure::Failure;

/// Plays the batches of a search on one pool, keeping each point's rules.
pub struct Runner<'a, G: Registered> {
    pub variant: &'a str,
    pub fixed: &'a [Override],
    pub axes: &'a [Axis],
    pub config: Config<G>,
    pub pool: Option<rayon::ThreadPool>,
    pub rules: HashMap<Point, Result<Arc<G::Rules>, String>>,
    pub stop: Arc<AtomicBool>,
    pub shard: Option<(Shard, PathBuf)>,
    /// Names this run's files in the exchange directory (a hash of its
    /// settings), so that another run's files there are never read.
    pub run_id: u64,
    pub batches: usize,
    pub status: Status,
    pub started: Instant,
    pub budget: u64,
    /// The shard's checkpoint: a log of the jobs it played (its totals of
    /// each), resumed from and kept as it plays.
    pub checkpoint: Option<Checkpoint>,
    /// The log entry of the next job played.
    pub logged: usize,
    /// Why the search was stopped, when not by a signal or the time (a
    /// checkpoint that does not hold this search's jobs).
    pub failure: Option<Failure>,
}

impl<'a, G: Registered> Runner<'a, G> {
    /// A runner playing nothing itself (a merge: the reports of totals).
    pub fn new(
        variant: &'a str,
        fixed: &'a [Override],
        axes: &'a [Axis],
        config: Config<G>,
        budget: u64,
    ) -> Self {
        Runner {
            variant,
            fixed,
            axes,
            config,
            pool: None,
            rules: HashMap::new(),
            stop: Arc::new(AtomicBool::new(false)),
            shard: None,
            run_id: 0,
            batches: 0,
            status: Status::new(),
            started: Instant::now(),
            budget,
            checkpoint: None,
            logged: 0,
            failure: None,
        }
    }

    /// The rules of point `p`, made once: the variant with the point's
    /// values set, or why they make no valid variant.
    pub fn rules_of(&mut self, p: &Point) -> Result<Arc<G::Rules>, String> {
        if let Some(r) = self.rules.get(p) {
            return r.clone();
        }
        let sets: Vec<Override> = self
            .axes
            .iter()
            .zip(p)
            .map(|(a, &i)| a.set(&a.values[i]))
            .collect();
        let players = self.config.players;
        let r = sweep::apply::<G>(self.variant, self.fixed, &sets)
            .and_then(|r| G::new_state(Arc::clone(&r), players).map(|_| r));
        self.rules.insert(p.clone(), r.clone());
        r
    }

    /// Play the jobs (this shard's slice of each when sharded), each taken
    /// from the checkpoint's log as far as it goes.
    fn play(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>> {
        let mut out = Vec::new();
        for job in jobs {
            if self.stop.load(Ordering::Relaxed) {
                return self.stopped();
            }
            let rules = match self.rules_of(&job.point) {
                Ok(r) => r,
                Err(e) => {
                    out.push(Err(e));
                    continue;
                }
            };
            let range = match &self.shard {
                Some((s, _)) => s.slice(job.from, job.to),
                None => job.from..job.to,
            };
            let label = format!(
                "batch {}: {} games {}..{}",
                self.batches,
                point_text(self.axes, &job.point),
                job.from,
                job.to
            );
            let before = match self.logged_job(&label, range.end - range.start) {
                Ok(Logged::Whole(r)) => {
                    out.push(r);
                    continue;
                }
                Ok(Logged::Prefix(acc)) => acc,
                Err(f) => {
                    self.failure = Some(f);
                    return None;
                }
            };
            let done = before.as_ref().map_or(0, |a| a.games);
            let mut config = self.config.clone();
            config.rules = rules;
            let mut so_far = before
                .clone()
                .unwrap_or_else(|| Accumulator::new::<G>(config.players));
            let at = self.logged;
            let checkpoint = &mut self.checkpoint;
            let played = crate::sim::run_games(
                &config,
                range.start + done..range.end,
                self.pool.as_ref(),
                &self.stop,
                |r| {
                    if let Some(c) = checkpoint.as_mut() {
                        so_far.add(r);
                        if c.due() {
                            c.log_entry(at, logged(&label, Ok(&so_far)), false);
                        }
                    }
                    Ok(())
                },
                |_| {},
            );
            match played {
                Ok(acc) => {
                    let mut acc = acc;
                    if let Some(mut b) = before {
                        b.merge(&acc);
                        acc = b;
                    }
                    if let Some(c) = self.checkpoint.as_mut() {
                        c.log_entry(at, logged(&label, Ok(&acc)), false);
                    }
                    if acc.games < range.end - range.start {
                        return self.stopped();
                    }
                    self.logged += 1;
                    out.push(Ok(acc));
                }
                Err(e) => {
                    let e = e.to_string();
                    if let Some(c) = self.checkpoint.as_mut() {
                        c.log_entry(at, logged(&label, Err(&e)), false);
                    }
                    self.logged += 1;
                    out.push(Err(e));
                }
            }
        }
        Some(out)
    }

    /// The search stops: the checkpoint written as it stands.
    fn stopped(&mut self) -> Option<Vec<Result<Accumulator, String>>> {
        if let Some(c) = self.checkpoint.as_mut() {
            c.flush();
        }
        None
    }

    /// What the checkpoint's log holds of the next job (`label`, a slice
    /// of `slice` games): its whole outcome, the totals of its first games,
    /// or nothing (it was not played).
    fn logged_job(&mut self, label: &str, slice: u64) -> Result<Logged, Failure> {
        let Some(c) = &self.checkpoint else {
            return Ok(Logged::Prefix(None));
        };
        let Some(entry) = c.log().get(self.logged) else {
            return Ok(Logged::Prefix(None));
        };
        if entry.label != label {
            return Err(c.refused(&format!(
                "its job {} is `{}`, where this search asks for `{label}`",
                self.logged + 1,
                entry.label
            )));
        }
        let acc = match (&entry.totals, &entry.error) {
            (Some(d), _) => Accumulator::from_data::<G>(d).map_err(|e| c.refused(&e))?,
            (None, Some(e)) => {
                self.logged += 1;
                return Ok(Logged::Whole(Err(e.clone())));
            }
            (None, None) => return Err(c.refused(&format!("its job `{label}` has no totals"))),
        };
        if acc.games > slice {
            return Err(c.refused(&format!(
                "it holds {} games of job `{label}`, a slice of {slice}",
                acc.games
            )));
        }
        if acc.games == slice {
            self.logged += 1;
            return Ok(Logged::Whole(Ok(acc)));
        }
        Ok(Logged::Prefix(Some(acc)))
    }

    /// Swap this shard's totals of batch `n` for every shard's, through
    /// the exchange directory; `None` when stopped.
    fn exchange(
        &mut self,
        mine: Vec<Result<Accumulator, String>>,
    ) -> Option<Vec<Result<Accumulator, String>>> {
        let Some((shard, dir)) = self.shard.clone() else {
            return Some(mine);
        };
        let n = self.batches;
        let id = self.run_id;
        let file = |k: u64| dir.join(format!("{id:016x}-batch-{n:05}-shard-{k}.json"));
        let runs: Vec<PartialRun> = mine
            .iter()
            .map(|r| PartialRun {
                label: String::new(),
                totals: r.as_ref().ok().map(Accumulator::to_data),
                error: r.as_ref().err().cloned(),
            })
            .collect();
        let text = serde_json::to_string(&runs).unwrap_or_default();
        // Written whole, then renamed: a reader never sees half a file.
        let tmp = dir.join(format!(".{id:016x}-batch-{n:05}-shard-{}.tmp", shard.index));
        if std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, file(shard.index)))
            .is_err()
        {
            console::err(&format!(
                "error: cannot write to the exchange directory {}\n",
                dir.display()
            ));
            return None;
        }
        let mut sum: Vec<Result<Accumulator, String>> = mine;
        for k in (1..=shard.count).filter(|&k| k != shard.index) {
            let path = file(k);
            let text = loop {
                if self.stop.load(Ordering::Relaxed) {
                    return None;
                }
                if let Ok(t) = std::fs::read_to_string(&path) {
                    break t;
                }
                std::thread::sleep(Duration::from_millis(50));
            };
            let theirs: Vec<PartialRun> = match serde_json::from_str(&text) {
                Ok(v) => v,
                Err(e) => {
                    console::err(&format!("error: {}: {e}\n", path.display()));
                    return None;
                }
            };
            for (s, t) in sum.iter_mut().zip(theirs) {
                match (s.as_mut(), t.totals) {
                    (Ok(a), Some(d)) => match Accumulator::from_data::<G>(&d) {
                        Ok(b) => a.merge(&b),
                        Err(e) => *s = Err(e),
                    },
                    (Ok(_), None) => *s = Err(t.error.unwrap_or_default()),
                    (Err(_), _) => {}
                }
            }
        }
        Some(sum)
    }
}

impl<G: Registered> Evaluate for Runner<'_, G> {
    fn batch(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>> {
        self.batches += 1;
        let mine = self.play(jobs)?;
        self.exchange(mine)
    }

    fn report(&self, point: &Point, acc: &Accumulator) -> Report {
        let mut config = self.config.clone();
        if let Some(Ok(r)) = self.rules.get(point) {
            config.rules = Arc::clone(r);
        }
        Report::new(&config, acc)
    }

    fn progress(&mut self, round: usize, games: u64, best: Option<f64>) {
        self.status.show(
            &format!(
                "tuning: round {round}, {games} of {} games, {:.0}s, best distance {}",
                self.budget,
                self.started.elapsed().as_secs_f64(),
                best.map_or("-".into(), |b| format!("{b:.2}"))
            ),
            true,
        );
    }
}

/// What a checkpoint's log holds of a job.
enum Logged {
    /// Its outcome: every game of its slice, or why it could not be played.
    Whole(Result<Accumulator, String>),
    /// The totals of its first games, if any.
    Prefix(Option<Accumulator>),
}

/// A log entry: a job's totals so far, or why it could not be played.
fn logged(label: &str, r: Result<&Accumulator, &String>) -> PartialRun {
    PartialRun {
        label: label.to_owned(),
        totals: r.ok().map(Accumulator::to_data),
        error: r.err().cloned(),
    }
}

/// A point as `key=value key=value`.
pub fn point_text(axes: &[Axis], p: &Point) -> String {
    crate::sim::tune::describe(axes, p)
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Games a varied key's lowest and highest values are played on to see
/// whether it changes play at all.
const IDLE_CHECK_GAMES: u64 = 40;

/// Refuse to vary a key that cannot change play (one that is only shown,
/// like Branches & Twigs & Thorns' `coins.start`): its lowest and highest
/// values, every other key as in `start` (or at its first value), play the
/// first [`IDLE_CHECK_GAMES`] games of the run; if every game comes out the
/// same (scores, winner, how it ended, every count), tuning the key would
/// only spend games. A key whose values make no valid variant is left to
/// the search.
pub fn refuse_idle_keys<G: Registered>(
    runner: &mut Runner<'_, G>,
    start: Option<&Point>,
) -> Result<(), Failure> {
    let axes = runner.axes;
    let base: Point = start.cloned().unwrap_or_else(|| vec![0; axes.len()]);
    for (k, axis) in axes.iter().enumerate() {
        if axis.values.len() < 2 {
            continue;
        }
        let ends = [0, axis.values.len() - 1].map(|i| {
            let mut p = base.clone();
            p[k] = i;
            p
        });
        let (Ok(lo), Ok(hi)) = (runner.rules_of(&ends[0]), runner.rules_of(&ends[1])) else {
            continue;
        };
        let mut config = runner.config.clone();
        config.games = IDLE_CHECK_GAMES;
        let same = (0..IDLE_CHECK_GAMES).all(|g| {
            let mut c = config.clone();
            c.rules = Arc::clone(&lo);
            let x = crate::sim::play_game(&c, g);
            c.rules = Arc::clone(&hi);
            let y = crate::sim::play_game(&c, g);
            match (x, y) {
                (Ok(x), Ok(y)) => {
                    (&x.scores, x.winner, x.end_reason, &x.counters)
                        == (&y.scores, y.winner, y.end_reason, &y.counters)
                }
                _ => false,
            }
        });
        if same {
            return Err(Failure::usage(format!(
                "--vary {}: the key does not change play: its values {} and {} give the same {} games (scores, winners, how they end, every count); tuning it would only spend games",
                axis.key,
                axis.values[0],
                axis.values[axis.values.len() - 1],
                IDLE_CHECK_GAMES
            )));
        }
    }
    Ok(())
}
