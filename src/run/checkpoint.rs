//! Preemptible shards: `--shard K/N --checkpoint FILE` keeps, as it plays,
//! the totals of the games the shard has finished so far (a prefix of its
//! slice, in game order), so that the same command run again after a
//! SIGTERM, a `kill -9` or a lost machine goes on from there instead of
//! from the start, and writes the part an uninterrupted shard writes, byte
//! for byte.
//!
//! Why totals suffice: game `i` is a function of the run's seed and `i`,
//! and a part holds only exact integer totals, which add
//! ([`Accumulator::merge`]); the totals of games `a..b` plus those of
//! `b..c` are the totals of `a..c`. So resuming is playing the games after
//! the checkpoint's prefix and adding.
//!
//! The file is a part (the same format, checksum and program version as a
//! `--shard` part, [`Partial`]) marked interrupted, so `roots merge`
//! refuses it, written whole to a temporary file and renamed over the old
//! one: a reader, or a run killed while writing, never sees half of it. A
//! checkpoint of other arguments (the command, game, shard, variant, seed,
//! settings) or of another version is refused, saying which.
//!
//! A tune's shard ([`Checkpoint::open_log`]) keeps a log instead: the
//! totals of every job of the search it played, in the order the search
//! asked for them, the last one perhaps a prefix of its slice. The search
//! is deterministic given its results, so a resumed shard takes the jobs'
//! totals from the log in that order, plays the rest of the job the log
//! ends in, and goes on.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::games::Game;
use crate::sim::Accumulator;
use crate::sim::paired::Pairs;
use crate::sim::shard::{Partial, PartialRun, Shard};

use super::console;
use super::failure::Failure;

/// How often a checkpoint is written at most: a write is a few KiB, and a
/// preempted shard replays at most this much.
pub const EVERY: Duration = Duration::from_secs(2);

/// A shard's checkpoint file and what it holds: per run of the shard (a
/// side of `compare`), the totals of the games played so far, or none
/// before the run starts.
pub struct Checkpoint {
    path: PathBuf,
    part: Partial,
    last: Instant,
    /// Whether a failed write was said.
    warned: bool,
}

impl Checkpoint {
    /// The checkpoint `path` of the shard `shard` of a run of `command`
    /// (with its `setup`, what makes its report, and its runs' `labels`):
    /// read when it exists and is of this run, else a new one. `None`
    /// when no `--checkpoint` was given.
    pub fn open<S: Serialize>(
        path: Option<&Path>,
        command: &str,
        shard: Shard,
        game: &str,
        setup: &S,
        labels: &[&str],
    ) -> Result<Option<Checkpoint>, Failure> {
        Self::open_with(path, command, shard, game, setup, Some(labels))
    }

    /// The checkpoint `path` of a shard whose runs are a log that grows as
    /// it plays (a tune's jobs, [`Checkpoint::log`]): read when it exists
    /// and is of this run (whatever its log holds), else an empty one.
    pub fn open_log<S: Serialize>(
        path: Option<&Path>,
        command: &str,
        shard: Shard,
        game: &str,
        setup: &S,
    ) -> Result<Option<Checkpoint>, Failure> {
        Self::open_with(path, command, shard, game, setup, None)
    }

    fn open_with<S: Serialize>(
        path: Option<&Path>,
        command: &str,
        shard: Shard,
        game: &str,
        setup: &S,
        labels: Option<&[&str]>,
    ) -> Result<Option<Checkpoint>, Failure> {
        let Some(path) = path else { return Ok(None) };
        let log = labels.is_none();
        let labels = labels.unwrap_or_default();
        let setup = serde_json::to_value(setup)
            .map_err(|e| Failure::usage(format!("cannot write the checkpoint: {e}")))?;
        let runs = labels
            .iter()
            .map(|l| PartialRun {
                label: (*l).into(),
                totals: None,
                error: None,
            })
            .collect();
        let mut fresh = Partial::new(command, shard, game, setup, runs);
        fresh.interrupted = true;
        let name = format!("--checkpoint {}", path.display());
        let part = match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fresh,
            Err(e) => return Err(Failure::io(format!("{name}: cannot read it: {e}"))),
            Ok(_) => {
                let old = Partial::read_file(path).map_err(|e| {
                    let why = match e {
                        crate::sim::shard::PartError::Unreadable(w)
                        | crate::sim::shard::PartError::Invalid(w) => w,
                    };
                    Failure::invalid(format!(
                        "{name}: not a checkpoint this run can resume: {why}\n  = help: remove it to start the shard again"
                    ))
                })?;
                if let Some(what) = differs(&old, &fresh, log) {
                    return Err(Failure::invalid(format!(
                        "{name}: a checkpoint of another run: {what}; resuming would mix two runs' games\n  = help: run the shard with the arguments that wrote it, or give another --checkpoint (or remove this one) to start again"
                    )));
                }
                old
            }
        };
        Ok(Some(Checkpoint {
            path: path.to_path_buf(),
            part,
            last: Instant::now(),
            warned: false,
        }))
    }

    /// The totals run `run` already has, for game `G` (none: it starts
    /// from its first game); checked to be at most `games` games.
    pub fn resumed<G: Game>(&self, run: usize, games: u64) -> Result<Option<Accumulator>, Failure> {
        let Some(data) = self.part.runs.get(run).and_then(|r| r.totals.as_ref()) else {
            return Ok(None);
        };
        let bad = |why: String| {
            Failure::invalid(format!(
                "--checkpoint {}: {why}\n  = help: remove it to start the shard again",
                self.path.display()
            ))
        };
        if data.games > games {
            return Err(bad(format!(
                "it holds {} games of a slice of {games}",
                data.games
            )));
        }
        let acc = Accumulator::from_data::<G>(data).map_err(bad)?;
        if data.games > 0 {
            console::err(&format!(
                "resuming from {}: {} of {games} games of this shard{} already played\n",
                self.path.display(),
                data.games,
                match &*self.part.runs[run].label {
                    "run" => String::new(),
                    side => format!(" (side {side})"),
                },
            ));
        }
        Ok(Some(acc))
    }

    /// What a log checkpoint ([`Checkpoint::open_log`]) holds: one entry
    /// per job played, in order.
    pub fn log(&self) -> &[PartialRun] {
        &self.part.runs
    }

    /// Say that the shard resumes from this checkpoint, with `games`
    /// already played.
    pub fn say_resumed(&self, games: u64, what: &str) {
        console::err(&format!(
            "resuming from {}: {} of this shard already played{what}\n",
            self.path.display(),
            crate::core::count(games, "game", "games"),
        ));
    }

    /// Why the checkpoint cannot be resumed (`why`), as a failure.
    pub fn refused(&self, why: &str) -> Failure {
        Failure::invalid(format!(
            "--checkpoint {}: {why}\n  = help: remove it to start the shard again",
            self.path.display()
        ))
    }

    /// Set the log's entry `at` (the next one, or the last, still growing)
    /// to `entry`; written when due or when `now`.
    pub fn log_entry(&mut self, at: usize, entry: PartialRun, now: bool) {
        self.part.runs.truncate(at);
        self.part.runs.push(entry);
        if now || self.due() {
            self.write();
        }
    }

    /// Write what the checkpoint holds now.
    pub fn flush(&mut self) {
        self.write();
    }

    /// Whether a checkpoint is due ([`EVERY`]).
    pub fn due(&self) -> bool {
        self.last.elapsed() >= EVERY
    }

    /// The pairs a `compare` checkpoint holds (of the games its sides have
    /// both played).
    pub fn pairs(&self) -> Option<&Pairs> {
        self.part.pairs.as_ref()
    }

    /// Keep `acc` (the totals of the first games of run `run`'s slice, in
    /// game order) in the file: written whole, then renamed over it. A
    /// write that fails (a full disk) is said once, and the shard goes on:
    /// its part is what matters, the checkpoint only saves time.
    pub fn save(&mut self, run: usize, acc: &Accumulator) {
        if let Some(r) = self.part.runs.get_mut(run) {
            r.totals = Some(acc.to_data());
        }
        self.write();
    }

    /// Keep every run's totals (`accs`, in the order of the runs) and their
    /// `pairs` in one write, so that the file never holds one side ahead of
    /// the other.
    pub fn save_all(&mut self, accs: &[&Accumulator], pairs: Option<&Pairs>) {
        for (r, acc) in self.part.runs.iter_mut().zip(accs) {
            r.totals = Some(acc.to_data());
        }
        self.part.pairs = pairs.cloned();
        self.write();
    }

    fn write(&mut self) {
        self.last = Instant::now();
        if let Err(e) = write_whole(&self.path, self.part.to_text().as_bytes())
            && !self.warned
        {
            self.warned = true;
            console::err(&format!(
                "warning: --checkpoint {}: cannot write it ({e}); the shard goes on, but a rerun would not resume from here\n",
                self.path.display()
            ));
        }
    }
}

/// What differs between a checkpoint read back and the one this run would
/// write, said as a person reads it; none when it is of this run.
/// `log`: the runs are a log, whatever it holds so far.
fn differs(old: &Partial, new: &Partial, log: bool) -> Option<String> {
    if old.command != new.command {
        return Some(format!(
            "it is of `roots {}`, this run of `roots {}`",
            old.command, new.command
        ));
    }
    if old.game != new.game {
        return Some(format!("it is of {}, this run of {}", old.game, new.game));
    }
    if old.shard != new.shard {
        return Some(format!(
            "it is of shard {}, this run is shard {}",
            old.shard, new.shard
        ));
    }
    if !log
        && old
            .runs
            .iter()
            .map(|r| &r.label)
            .ne(new.runs.iter().map(|r| &r.label))
    {
        return Some("its runs are not this run's".into());
    }
    if old.setup != new.setup {
        return Some(match first_difference(&old.setup, &new.setup, "") {
            Some(at) => format!("its setting `{at}` differs from this run's"),
            None => "its settings differ from this run's".into(),
        });
    }
    None
}

/// The path (`sim.seed`, `rules_b.beads.supply`) of the first value that
/// differs between `a` and `b`.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Option<String> {
    use serde_json::Value::Object;
    if a == b {
        return None;
    }
    let join = |k: &str| {
        if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        }
    };
    match (a, b) {
        (Object(x), Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) => {
                        if let Some(d) = first_difference(v, w, &join(k)) {
                            return Some(d);
                        }
                    }
                    None => return Some(join(k)),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| join(k))
        }
        _ if at.is_empty() => None,
        _ => Some(at.to_string()),
    }
}

/// Write `bytes` to `path` whole: a temporary file beside it, flushed to
/// disk, renamed over it; on failure no temporary file is left.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
