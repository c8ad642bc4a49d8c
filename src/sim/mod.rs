//! Playtesting at scale: many seeded games of a variant between bots, on
//! several threads, summed up as a [`Report`].
//!
//! Reproducibility: game `i` of a run seeded `S` rolls its chance dice from
//! [`SeededDice::for_game`]`(S, i)` and the bot in seat `s` draws from
//! [`SeededDice::for_seat`]`(S, i, s)`. A game's result depends on nothing
//! else, and every statistic is accumulated as integer counts merged in game
//! order, so a run gives identical results whatever the number of threads.
//!
//! Memory stays flat: games are played in blocks of [`BLOCK`], each block's
//! results are handed to the caller in game order (for `--out`) and folded
//! into the accumulators, then dropped.
//!
//! Wins: the **winner** of a game is the seat with the highest score when it
//! is alone there. A game where several seats share the top score is a
//! **tie**; ties are reported on their own and count as a win for nobody, so
//! seat win rates plus the tie rate add up to 1.

mod accum;
mod findings;
mod histogram;
pub mod ladder;
pub mod measures;
pub mod plot;
mod report;
pub mod sequential;
pub mod shard;
pub mod stats;
pub mod sweep;
pub mod tune;
pub mod verdict;

pub use accum::{Accumulator, AccumulatorData};
pub use histogram::{Bin, Histogram, Summary};
pub use report::{
    BotLine, Comparison, Difference, MARGIN, Partial, Rate, Report, SeatBalance, SeatLine, Skill,
    compare, compare_with, statistics,
};
pub use report::{Family, primary_statistics};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use crate::bots::{BotSpec, NoAction};
use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{Game, Stat};

/// Games played between two hand-overs to the caller.
pub const BLOCK: u64 = 512;
/// Most games one run plays.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most worker threads worth running: the machine's cores for built-in
/// bots (each thread computes; more only share the cores and cost memory
/// and switching), four times that, at most 64, with external programs
/// among the bots (a thread then mostly waits for a program's answer).
pub fn max_jobs(external_bots: bool) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    if external_bots {
        (cores * 4).clamp(1, 64)
    } else {
        cores
    }
}
/// Safety net against a bot that never ends a game: decisions and rolls per
/// game (far above any real game; the engine's round limit comes first).
const MAX_STEPS: u64 = 50_000_000;

/// The way a game ends when an external player forfeits it (crashed, too
/// slow, an illegal move): not one of the game's own ways to end.
pub const FORFEIT: Stat = Stat {
    key: "forfeit",
    label: "a player forfeited",
    short: "forfeit",
};

/// Who sits where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seating {
    /// `bots[s]` plays seat `s` in every game.
    Fixed,
    /// In game `i`, seat `s` is played by `bots[(s + i) % players]`: every bot
    /// plays every seat equally often (up to one game).
    Rotated,
}

/// A simulation of game `G` to run.
#[derive(Debug)]
pub struct Config<G: Game> {
    pub rules: Arc<G::Rules>,
    pub players: u8,
    /// One bot per seat (seat 0 first), or a single bot for every seat.
    pub bots: Vec<BotSpec>,
    pub seating: Seating,
    pub games: u64,
    pub seed: u64,
    /// Worker threads; 1 plays on the calling thread.
    pub jobs: usize,
    /// What is measured beyond the outcome ([`measures::Depth`]).
    pub measures: measures::Depth,
}

/// Why a simulation could not run.
#[derive(Debug)]
pub enum SimError {
    /// The settings do not make a run (zero games, wrong number of bots,
    /// players outside the variant's range...).
    Config(String),
    /// A bot gave up a game (only a human can).
    Bot { game: u64, seat: Seat },
    /// A game went on past the step limit.
    Runaway { game: u64 },
    /// Writing per-game rows failed.
    Output(std::io::Error),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Config(m) => f.write_str(m),
            SimError::Bot { game, seat } => {
                write!(f, "the bot in seat {} stopped game {game}", seat + 1)
            }
            SimError::Runaway { game } => write!(f, "game {game} did not end"),
            SimError::Output(e) => write!(f, "writing the per-game rows failed: {e}"),
        }
    }
}

impl std::error::Error for SimError {}

impl<G: Game> Clone for Config<G> {
    fn clone(&self) -> Self {
        Config {
            rules: Arc::clone(&self.rules),
            players: self.players,
            bots: self.bots.clone(),
            seating: self.seating.clone(),
            games: self.games,
            seed: self.seed,
            jobs: self.jobs,
            measures: self.measures,
        }
    }
}

/// What one game came to: a row of `--out`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Index of the game in the run, from 0.
    pub game: u64,
    /// The bot of each seat.
    pub bots: Vec<String>,
    pub scores: Vec<i32>,
    /// The sole winner, or none on a tie.
    pub winner: Option<Seat>,
    /// Seats sharing the top score.
    pub top: Vec<Seat>,
    /// How the game ended: an index into `end_reasons`.
    pub end_reason: usize,
    /// The game's ways to end ([`Game::END_REASONS`]).
    pub end_reasons: &'static [Stat],
    /// The game's counts, in the order of `counter_names`.
    pub counters: Vec<u32>,
    /// What the counts are ([`Game::COUNTERS`]).
    pub counter_names: &'static [Stat],
    /// Top score minus the next best (0 on a tie).
    pub margin: u32,
    /// The seat that forfeited the game and why (an external player that
    /// crashed, did not answer in time or answered an illegal move): it
    /// loses, the others are ranked by their scores when it stopped.
    pub forfeit: Option<(Seat, String)>,
    /// The game's evaluation measures and rule events ([`measures`]).
    pub measures: measures::GameMeasures,
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let extra = usize::from(self.forfeit.is_some()) * 2;
        let mut m = serializer.serialize_map(Some(7 + self.counters.len() + extra))?;
        m.serialize_entry("game", &self.game)?;
        m.serialize_entry("bots", &self.bots)?;
        m.serialize_entry("scores", &self.scores)?;
        // Seats from 1, as in the CSV form and everywhere a person reads them.
        m.serialize_entry("winner", &self.winner.map(|w| u32::from(w) + 1))?;
        let top: Vec<u32> = self.top.iter().map(|&s| u32::from(s) + 1).collect();
        m.serialize_entry("top", &top)?;
        m.serialize_entry("end_reason", self.end_reason_key())?;
        for (name, value) in self.counter_names.iter().zip(&self.counters) {
            m.serialize_entry(name.key, value)?;
        }
        m.serialize_entry("margin", &self.margin)?;
        if let Some((seat, why)) = &self.forfeit {
            m.serialize_entry("forfeit_seat", &(u16::from(*seat) + 1))?;
            m.serialize_entry("forfeit", why)?;
        }
        m.end()
    }
}

impl GameResult {
    /// The key of the way the game ended (`beads_out`).
    pub fn end_reason_key(&self) -> &'static str {
        if self.forfeit.is_some() {
            return FORFEIT.key;
        }
        self.end_reasons.get(self.end_reason).map_or("?", |s| s.key)
    }

    /// The count named `key` (`rounds`), if the game counts it.
    pub fn counter(&self, key: &str) -> Option<u32> {
        self.counter_names
            .iter()
            .position(|s| s.key == key)
            .and_then(|i| self.counters.get(i).copied())
    }

    /// The header of the CSV form, for game `G`.
    pub fn csv_header<G: Game>(players: u8) -> Vec<String> {
        let mut h = vec!["game".to_string()];
        h.extend((1..=players).map(|s| format!("bot_{s}")));
        h.extend((1..=players).map(|s| format!("score_{s}")));
        h.push("winner".into());
        h.push("end_reason".into());
        h.extend(G::COUNTERS.iter().map(|c| c.key.to_string()));
        h.push("margin".into());
        h
    }

    /// One CSV row (seats numbered from 1; the winner column is empty on a
    /// tie), as fields: write them with a CSV writer, which quotes.
    pub fn csv_row(&self) -> Vec<String> {
        let mut r = vec![self.game.to_string()];
        r.extend(self.bots.iter().cloned());
        r.extend(self.scores.iter().map(i32::to_string));
        r.push(self.winner.map_or(String::new(), |w| (w + 1).to_string()));
        r.push(self.end_reason_key().to_string());
        r.extend(self.counters.iter().map(u32::to_string));
        r.push(self.margin.to_string());
        r
    }
}

/// Rows as CSV text, quoted where a field needs it (the csv crate).
pub fn csv_text<R, F>(rows: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut w = csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::new());
    for row in rows {
        // Writing to memory cannot fail.
        let _ = w.write_record(row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

impl<G: Game> Config<G> {
    /// Check the settings; the bots for every seat, resolved.
    pub fn validate(&self) -> Result<(), SimError> {
        let seats = G::seats(&self.rules);
        let (min, max) = (*seats.start(), *seats.end());
        if self.players < min || self.players > max {
            return Err(SimError::Config(format!(
                "variant `{}` is for {}, not {}",
                G::name(&self.rules),
                crate::core::players_phrase(min, max),
                self.players
            )));
        }
        if self.games == 0 {
            return Err(SimError::Config(
                "the number of games must be at least 1".into(),
            ));
        }
        if self.games > MAX_GAMES {
            return Err(SimError::Config(format!(
                "at most {MAX_GAMES} games per run, not {}",
                self.games
            )));
        }
        if self.bots.is_empty() {
            return Err(SimError::Config("no bot given".into()));
        }
        if self.bots.len() != 1 && self.bots.len() != usize::from(self.players) {
            return Err(SimError::Config(format!(
                "{} bots given for {} players: give one bot per seat, or one bot for all seats",
                self.bots.len(),
                self.players
            )));
        }
        if self.jobs == 0 {
            return Err(SimError::Config(
                "the number of jobs must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The bot of each seat in game `game`.
    pub fn seat_bots(&self, game: u64) -> Vec<BotSpec> {
        let k = usize::from(self.players);
        let bot = |i: usize| self.bots[if self.bots.len() == 1 { 0 } else { i % k }];
        match self.seating {
            Seating::Fixed => (0..k).map(bot).collect(),
            Seating::Rotated => {
                let shift = (game % k as u64) as usize;
                (0..k).map(|s| bot(s + shift)).collect()
            }
        }
    }
}

/// Play game `game` of the run.
pub fn play_game<G: Game>(config: &Config<G>, game: u64) -> Result<GameResult, SimError> {
    let mut state =
        G::new_state(Arc::clone(&config.rules), config.players).map_err(SimError::Config)?;
    let specs = config.seat_bots(game);
    let mut bots: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(s, b)| {
            crate::bots::build::<G>(*b, SeededDice::for_seat(config.seed, game, s as Seat))
        })
        .collect();
    let mut dice = SeededDice::for_game(config.seed, game);
    let mut trace = measures::Trace::<G>::new(config.players, config.measures);
    let mut steps = 0u64;
    loop {
        match state.next() {
            Next::Chance(die) => {
                // A face of the named die, by construction.
                state.roll_unchecked(dice.roll(die));
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll_unchecked(face);
            }
            Next::Decide(seat) => {
                trace.before(&state, seat);
                let action = match bots[usize::from(seat)].choose(&state) {
                    Ok(a) => a,
                    Err(NoAction::Forfeit(why)) => {
                        return Ok(forfeited::<G>(&state, game, &specs, seat, why, trace));
                    }
                    Err(_) => return Err(SimError::Bot { game, seat }),
                };
                state.play(action).map_err(|e| {
                    SimError::Config(format!(
                        "game {game}: the bot in seat {} played an illegal action: {e}",
                        seat + 1
                    ))
                })?;
                trace.after(&state);
            }
            Next::Over => break,
        }
        steps += 1;
        if steps > MAX_STEPS {
            return Err(SimError::Runaway { game });
        }
    }
    Ok(result_of::<G>(&state, game, &specs, trace))
}

/// Game `game` of the run again, with every event as a record holds it
/// (`roots simulate --record-game`): the same dice and bots as
/// [`play_game`], so the record replays to the same result. Returns the
/// seats' bots (the record's players) and the events.
pub fn record_game<G: Game>(
    config: &Config<G>,
    game: u64,
) -> Result<(Vec<String>, Vec<crate::record::Event>), SimError> {
    use crate::record::Event;
    let mut state =
        G::new_state(Arc::clone(&config.rules), config.players).map_err(SimError::Config)?;
    let specs = config.seat_bots(game);
    let mut bots: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(s, b)| {
            crate::bots::build::<G>(*b, SeededDice::for_seat(config.seed, game, s as Seat))
        })
        .collect();
    let mut dice = SeededDice::for_game(config.seed, game);
    let mut events = Vec::new();
    loop {
        match state.next() {
            Next::Chance(die) => {
                let face = dice.roll(die);
                state.roll_unchecked(face);
                events.push(Event::Roll {
                    face,
                    die: Some(die),
                });
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                let card = G::format_draw(&state, face);
                state.roll_unchecked(face);
                events.push(Event::Draw { card });
            }
            Next::Decide(seat) => {
                let action = bots[usize::from(seat)]
                    .choose(&state)
                    .map_err(|_: NoAction| SimError::Bot { game, seat })?;
                let text = G::format_action(&state, action);
                state.play(action).map_err(|e| {
                    SimError::Config(format!(
                        "game {game}: the bot in seat {} played an illegal action: {e}",
                        seat + 1
                    ))
                })?;
                events.push(Event::Act { action: text, seat });
            }
            Next::Over => break,
        }
        if events.len() as u64 > MAX_STEPS {
            return Err(SimError::Runaway { game });
        }
    }
    Ok((specs.iter().map(|b| b.to_string()).collect(), events))
}

/// The result of a finished game, with its measures from `trace`.
pub fn result_of<G: Game>(
    state: &G::State,
    game: u64,
    bots: &[BotSpec],
    trace: measures::Trace<G>,
) -> GameResult {
    let scores: Vec<i32> = G::scores(state);
    let best = scores.iter().copied().max().unwrap_or(0);
    let top: Vec<Seat> = (0..scores.len())
        .filter(|&s| scores[s] == best)
        .map(|s| s as Seat)
        .collect();
    let second = scores
        .iter()
        .enumerate()
        .filter(|(s, _)| Some(&(*s as Seat)) != top.first() || top.len() > 1)
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(best);
    GameResult {
        game,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        winner: (top.len() == 1).then(|| top[0]),
        margin: u32::try_from(i64::from(best) - i64::from(second)).unwrap_or(0),
        scores,
        end_reason: G::end_reason(state),
        end_reasons: G::END_REASONS,
        counters: G::counters(state),
        counter_names: G::COUNTERS,
        forfeit: None,
        measures: trace.finish(state, &top),
        top,
    }
}

/// The result of a game seat `loser` forfeited: it loses; of the other
/// seats, the best score now wins (a tie when several share it). The counts
/// are the game's so far.
pub fn forfeited<G: Game>(
    state: &G::State,
    game: u64,
    bots: &[BotSpec],
    loser: Seat,
    why: String,
    trace: measures::Trace<G>,
) -> GameResult {
    let scores: Vec<i32> = G::scores(state);
    let others: Vec<(Seat, i32)> = (0..scores.len())
        .map(|s| s as Seat)
        .filter(|&s| s != loser)
        .map(|s| (s, scores[usize::from(s)]))
        .collect();
    let best = others.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let top: Vec<Seat> = others
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(s, _)| s)
        .collect();
    let second = others
        .iter()
        .filter(|&&(s, _)| top.len() > 1 || Some(&s) != top.first())
        .map(|&(_, v)| v)
        .chain(std::iter::once(scores[usize::from(loser)]))
        .max()
        .unwrap_or(best);
    GameResult {
        game,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        winner: (top.len() == 1).then(|| top[0]),
        margin: u32::try_from(i64::from(best) - i64::from(second)).unwrap_or(0),
        scores,
        end_reason: usize::MAX,
        end_reasons: G::END_REASONS,
        counters: G::counters(state),
        counter_names: G::COUNTERS,
        forfeit: Some((loser, why)),
        measures: trace.finish(state, &top),
        top,
    }
}

/// Run the simulation. `on_game` sees every game's result in game order as
/// blocks finish (for `--out`); `progress` is told how many games are done,
/// after every game (from the worker threads, so it must be `Sync`).
pub fn run<G: Game>(
    config: &Config<G>,
    on_game: impl FnMut(&GameResult) -> std::io::Result<()>,
    progress: impl Fn(u64) + Sync,
) -> Result<Accumulator, SimError> {
    run_until(config, &AtomicBool::new(false), on_game, progress)
}

/// [`run`], stopping early once `stop` is set (by a Ctrl-C handler, say).
/// No game starts after the flag is seen; of the games that finished, the
/// longest run in game order `0..n` is kept and reported, so an interrupted
/// run equals an uninterrupted run of `n` games with the same seed, and the
/// rows given to `on_game` are whole games only. `Accumulator::games` says
/// how many games that was.
pub fn run_until<G: Game>(
    config: &Config<G>,
    stop: &AtomicBool,
    on_game: impl FnMut(&GameResult) -> std::io::Result<()>,
    progress: impl Fn(u64) + Sync,
) -> Result<Accumulator, SimError> {
    config.validate()?;
    let pool = pool(config.jobs)?;
    run_games(
        config,
        0..config.games,
        pool.as_ref(),
        stop,
        on_game,
        progress,
    )
}

/// A pool of `jobs` worker threads to hand to [`run_games`] (none for one
/// job: the games are played on the calling thread). A sweep or a tune
/// makes one and plays every point on it.
pub fn pool(jobs: usize) -> Result<Option<rayon::ThreadPool>, SimError> {
    if jobs <= 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map(Some)
        .map_err(|e| SimError::Config(format!("cannot start {jobs} threads: {e}")))
}

/// Play the games `games` of the run (indexes into the run seeded
/// `config.seed`: game `i` is the same game whichever range it is played
/// in) on `pool`, and total them. Splitting `0..n` into ranges and merging
/// their accumulators ([`Accumulator::merge`]) gives exactly the totals of
/// `0..n`: that is how `--shard` and a tune's later rounds work. On a stop,
/// the longest prefix of the range that finished is kept, as in
/// [`run_until`]; `progress` counts games done in the range.
pub fn run_games<G: Game>(
    config: &Config<G>,
    games: std::ops::Range<u64>,
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameResult) -> std::io::Result<()>,
    progress: impl Fn(u64) + Sync,
) -> Result<Accumulator, SimError> {
    config.validate()?;
    // Fail early on a variant the engine refuses.
    G::new_state(Arc::clone(&config.rules), config.players).map_err(SimError::Config)?;
    // Games finished so far, in any order: progress after every game, not
    // every block (a block of slow bots can take minutes).
    let finished = AtomicU64::new(0);
    let play = |g: u64| {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let r = play_game(config, g);
        progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
        Some(r)
    };
    let mut acc = Accumulator::new::<G>(config.players);
    let mut start = games.start;
    while start < games.end {
        let end = (start + BLOCK).min(games.end);
        let block: Vec<Option<Result<GameResult, SimError>>> = match pool {
            Some(pool) => pool.install(|| (start..end).into_par_iter().map(play).collect()),
            None => (start..end).map(play).collect(),
        };
        for r in block {
            let Some(r) = r else {
                // Interrupted: keep the games before the first one not played.
                progress(acc.games);
                return Ok(acc);
            };
            let r = r?;
            on_game(&r).map_err(SimError::Output)?;
            acc.add(&r);
        }
        progress(end - games.start);
        start = end;
    }
    Ok(acc)
}

/// Run and summarise in one call.
pub fn simulate<G: Game>(config: &Config<G>) -> Result<Report, SimError> {
    let acc = run(config, |_| Ok(()), |_| {})?;
    Ok(Report::new(config, &acc))
}
