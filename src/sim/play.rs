//! Playing the games of a run: [`Config`] (the rules, seats, bots, games,
//! seed and threads), one game ([`play_game`], [`record_game`]) and a range
//! of them on a pool of threads, totalled in game order ([`run_games`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::bots::{BotSpec, NoAction};
use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::Game;

use super::accum::Accumulator;
use super::game::{GameResult, forfeited, result_of};
use super::measures;

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

impl<G: Game> Config<G> {
    /// Check the settings; the bots for every seat, resolved.
    pub fn validate(&self) -> Result<(), SimError> {
        crate::games::admit_seats(G::name(&self.rules), G::seats(&self.rules), self.players)
            .map_err(SimError::Config)?;
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

/// Game `game` of a run before its first event: the first node, the
/// seats' bots (their specs, and the players built with their seeded
/// dice) and the game's own dice. [`play_game`] and [`record_game`] start
/// from the same.
type Opening<G> = (
    <G as Game>::State,
    Vec<BotSpec>,
    Vec<Box<dyn crate::bots::Player<<G as Game>::State> + Send>>,
    SeededDice,
);

fn opening<G: Game>(config: &Config<G>, game: u64) -> Result<Opening<G>, SimError> {
    let state =
        G::new_state(Arc::clone(&config.rules), config.players).map_err(SimError::Config)?;
    let specs = config.seat_bots(game);
    let bots = specs
        .iter()
        .enumerate()
        .map(|(s, b)| {
            crate::bots::build::<G>(*b, SeededDice::for_seat(config.seed, game, s as Seat))
        })
        .collect();
    let dice = SeededDice::for_game(config.seed, game);
    Ok((state, specs, bots, dice))
}

/// Play game `game` of the run.
pub fn play_game<G: Game>(config: &Config<G>, game: u64) -> Result<GameResult, SimError> {
    play_traced(
        config,
        game,
        measures::Trace::<G>::new(config.players, config.measures),
    )
}

/// Game `game` of the run again, the same game as [`play_game`]'s, with
/// every row of win chances its measures came from kept in
/// `measures.chances` (`simulate --trace-measures`).
pub fn trace_game<G: Game>(config: &Config<G>, game: u64) -> Result<GameResult, SimError> {
    let trace = measures::Trace::<G>::new(config.players, config.measures).recording();
    play_traced(config, game, trace)
}

fn play_traced<G: Game>(
    config: &Config<G>,
    game: u64,
    mut trace: measures::Trace<G>,
) -> Result<GameResult, SimError> {
    let (mut state, specs, mut bots, mut dice) = opening(config, game)?;
    // Decided once a game, not asked of the trace at every decision: a run
    // of outcomes only counts the decision and calls nothing.
    let measured = config.measures != measures::Depth::Outcomes;
    // Seats whose bot plays the engine's own draws (the random bot): their
    // actions skip the referee's second look in release builds, as the
    // protocol allows for actions from `random_action`. Debug builds
    // check them all, so a sampler that drew an illegal action fails there.
    let trusted: u64 = if cfg!(debug_assertions) {
        0
    } else {
        bots.iter()
            .take(64)
            .enumerate()
            .filter(|(_, b)| b.draws_from_engine())
            .fold(0, |m, (s, _)| m | 1 << s)
    };
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
                if measured {
                    trace.before(&state, seat);
                } else {
                    trace.note_turn(seat);
                }
                let action = match bots[usize::from(seat)].choose(&state) {
                    Ok(a) => a,
                    Err(NoAction::Forfeit(why)) => {
                        return Ok(forfeited::<G>(&state, game, &specs, seat, why, trace));
                    }
                    Err(_) => return Err(SimError::Bot { game, seat }),
                };
                if seat < 64 && trusted >> seat & 1 == 1 {
                    state.play_unchecked(action);
                } else {
                    state.play(action).map_err(|e| {
                        SimError::Config(format!(
                            "game {game}: the bot in seat {} played an illegal action: {e}",
                            seat + 1
                        ))
                    })?;
                }
                if measured {
                    trace.after(&state);
                }
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
    let (mut state, specs, mut bots, mut dice) = opening(config, game)?;
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
        let Some(pool) = pool else {
            // One thread: each game is totalled as it ends, not kept for
            // the block's end (the same games in the same order, the same
            // calls; its result's buffers are freed while still in the
            // cache, for the next game to reuse).
            for g in start..end {
                let Some(r) = play(g) else {
                    progress(acc.games);
                    return Ok(acc);
                };
                let r = r?;
                on_game(&r).map_err(SimError::Output)?;
                acc.add(&r);
            }
            progress(end - games.start);
            start = end;
            continue;
        };
        let block: Vec<Option<Result<GameResult, SimError>>> =
            pool.install(|| (start..end).into_par_iter().map(play).collect());
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
