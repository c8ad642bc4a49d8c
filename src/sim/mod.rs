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
mod histogram;
mod report;
pub mod stats;
pub mod sweep;

pub use accum::Accumulator;
pub use histogram::{Bin, Histogram, Summary};
pub use report::{
    BotLine, Comparison, Difference, MARGIN, Rate, Report, SeatBalance, SeatLine, Skill, compare,
};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
/// Safety net against a bot that never ends a game: decisions and rolls per
/// game (far above any real game; the engine's round limit comes first).
const MAX_STEPS: u64 = 50_000_000;

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
        }
    }
}

/// What one game came to: a row of `--out`.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = serializer.serialize_map(Some(7 + self.counters.len()))?;
        m.serialize_entry("game", &self.game)?;
        m.serialize_entry("bots", &self.bots)?;
        m.serialize_entry("scores", &self.scores)?;
        m.serialize_entry("winner", &self.winner)?;
        m.serialize_entry("top", &self.top)?;
        m.serialize_entry("end_reason", self.end_reason_key())?;
        for (name, value) in self.counter_names.iter().zip(&self.counters) {
            m.serialize_entry(name.key, value)?;
        }
        m.serialize_entry("margin", &self.margin)?;
        m.end()
    }
}

impl GameResult {
    /// The key of the way the game ended (`beads_out`).
    pub fn end_reason_key(&self) -> &'static str {
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
    pub fn csv_header<G: Game>(players: u8) -> String {
        let mut h = String::from("game");
        for s in 1..=players {
            h.push_str(&format!(",bot_{s}"));
        }
        for s in 1..=players {
            h.push_str(&format!(",score_{s}"));
        }
        h.push_str(",winner,end_reason");
        for c in G::COUNTERS {
            h.push(',');
            h.push_str(c.key);
        }
        h.push_str(",margin");
        h
    }

    /// One CSV row (seats numbered from 1; the winner column is empty on a tie).
    pub fn csv_row(&self) -> String {
        let mut r = self.game.to_string();
        for b in &self.bots {
            r.push(',');
            r.push_str(b);
        }
        for s in &self.scores {
            r.push_str(&format!(",{s}"));
        }
        r.push(',');
        if let Some(w) = self.winner {
            r.push_str(&(w + 1).to_string());
        }
        r.push(',');
        r.push_str(self.end_reason_key());
        for c in &self.counters {
            r.push_str(&format!(",{c}"));
        }
        r.push_str(&format!(",{}", self.margin));
        r
    }
}

impl<G: Game> Config<G> {
    /// Check the settings; the bots for every seat, resolved.
    pub fn validate(&self) -> Result<(), SimError> {
        let seats = G::seats(&self.rules);
        let (min, max) = (*seats.start(), *seats.end());
        if self.players < min || self.players > max {
            return Err(SimError::Config(format!(
                "variant `{}` is for {min} to {max} players, not {}",
                G::name(&self.rules),
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
        .map(|(s, b)| G::bot(*b, SeededDice::for_seat(config.seed, game, s as Seat)))
        .collect();
    let mut dice = SeededDice::for_game(config.seed, game);
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
                let action = bots[usize::from(seat)]
                    .choose(&state)
                    .map_err(|_: NoAction| SimError::Bot { game, seat })?;
                state.play(action).map_err(|e| {
                    SimError::Config(format!(
                        "game {game}: the bot in seat {} played an illegal action: {e}",
                        seat + 1
                    ))
                })?;
            }
            Next::Over => break,
        }
        steps += 1;
        if steps > MAX_STEPS {
            return Err(SimError::Runaway { game });
        }
    }
    Ok(result_of::<G>(&state, game, &specs))
}

/// The result of a finished game.
pub fn result_of<G: Game>(state: &G::State, game: u64, bots: &[BotSpec]) -> GameResult {
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
        top,
        margin: u32::try_from(i64::from(best) - i64::from(second)).unwrap_or(0),
        scores,
        end_reason: G::end_reason(state),
        end_reasons: G::END_REASONS,
        counters: G::counters(state),
        counter_names: G::COUNTERS,
    }
}

/// Run the simulation. `on_game` sees every game's result in game order as
/// blocks finish (for `--out`); `progress` is told how many games are done.
pub fn run<G: Game>(
    config: &Config<G>,
    on_game: impl FnMut(&GameResult) -> std::io::Result<()>,
    progress: impl FnMut(u64),
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
    mut on_game: impl FnMut(&GameResult) -> std::io::Result<()>,
    mut progress: impl FnMut(u64),
) -> Result<Accumulator, SimError> {
    config.validate()?;
    // Fail early on a variant the engine refuses.
    G::new_state(Arc::clone(&config.rules), config.players).map_err(SimError::Config)?;
    let pool = if config.jobs > 1 {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(config.jobs)
                .build()
                .map_err(|e| {
                    SimError::Config(format!("cannot start {} threads: {e}", config.jobs))
                })?,
        )
    } else {
        None
    };
    let play = |g: u64| (!stop.load(Ordering::Relaxed)).then(|| play_game(config, g));
    let mut acc = Accumulator::new::<G>(config.players);
    let mut start = 0;
    while start < config.games {
        let end = (start + BLOCK).min(config.games);
        let block: Vec<Option<Result<GameResult, SimError>>> = match &pool {
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
        progress(end);
        start = end;
    }
    Ok(acc)
}

/// Run and summarise in one call.
pub fn simulate<G: Game>(config: &Config<G>) -> Result<Report, SimError> {
    let acc = run(config, |_| Ok(()), |_| {})?;
    Ok(Report::new(config, &acc))
}
