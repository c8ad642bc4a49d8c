//! Validated means playable: a short simulation of a variant that passed the
//! checks. [`check`] plays [`GAMES`] seeded games of random bots for every
//! allowed player count and reports a variant whose games do not end by
//! themselves.
//!
//! Each game is exactly the game `roots play VARIANT --players random,...
//! --seed S` plays (dice `SeededDice::for_game(S, 0)`, bot `s` on
//! `SeededDice::for_seat(S, 0, s)`), so a reported seed reproduces it.
//!
//! Thresholds (see `docs/hostile-inputs.md`):
//! * **error** when a game stalls (more than [`step_budget`] rolls and
//!   decisions without an end) or goes past the round limit
//!   (`end.max_rounds`): its rules let a game run on;
//! * **warning** when more than [`ROUND_LIMIT_WARN_PERCENT`] % of the games
//!   of a player count end by the round limit rather than by themselves: the
//!   limit is a safety net, a game that needs it is probably not what was
//!   meant (but a deliberately short game is a choice, not an error).
//!
//! Bounded: [`check_within`] stops after [`STEP_BUDGET`] rolls and decisions
//! in all (and when the caller's clock says so: `validate` gives it
//! [`TIME_BUDGET_SECS`] seconds), and then says which games it could not play.
//!
//! No IO and no clock: the rules core stays pure (the caller's `out_of_time`
//! reads the clock).

use std::sync::Arc;

use crate::bots::{Player, RandomBot};
use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next};
use crate::games::{Game, SafetyLimit};

use super::diagnostic::{Code, Diagnostic};

/// Games per allowed player count.
pub const GAMES: u64 = 50;
/// The seeds of the games: `FIRST_SEED..FIRST_SEED + GAMES`.
pub const FIRST_SEED: u64 = 1;
/// More than this share (in %) of games ending by the round limit is a warning.
pub const ROUND_LIMIT_WARN_PERCENT: u64 = 20;

/// Rolls and decisions of all the smoke games together, at most: a standard
/// variant takes about a million, a few seconds' worth in a release build.
pub const STEP_BUDGET: u64 = 10_000_000;
/// The seconds `roots validate` gives the smoke simulation.
pub const TIME_BUDGET_SECS: u64 = 10;
/// How often (in steps) a game asks whether the budget is spent.
const BUDGET_STRIDE: u64 = 4096;

/// Rolls and decisions after which a game counts as stalled (the game's
/// [`Game::step_budget`]).
pub fn step_budget<G: Game>(rules: &G::Rules, players: u8) -> u64 {
    G::step_budget(rules, players)
}

/// How one smoke game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Ended by itself (nutrients or beads out).
    Natural,
    /// Ended by the game's safety limit (Roots and Shoots: `end.max_rounds`).
    RoundLimit,
    /// Still going after the step budget.
    Stalled,
    /// Still going past the round limit.
    PastRoundLimit,
    /// Not finished: the smoke simulation's budget ran out first.
    Stopped,
}

/// Play the smoke game of `seed` with `players` random bots, at most
/// `budget` steps. `Err` when the rules refuse the player count.
pub fn play<G: Game>(
    rules: &Arc<G::Rules>,
    players: u8,
    seed: u64,
    budget: u64,
) -> Result<Ending, String> {
    play_within::<G>(rules, players, seed, budget, &mut |_| false)
}

/// [`play`], asking `stop(steps)` every few thousand steps (with the steps
/// played since it last asked) whether to give up: then [`Ending::Stopped`].
pub fn play_within<G: Game>(
    rules: &Arc<G::Rules>,
    players: u8,
    seed: u64,
    budget: u64,
    stop: &mut dyn FnMut(u64) -> bool,
) -> Result<Ending, String> {
    let limit = G::safety_limit(rules);
    let mut state = G::new_state(rules.clone(), players)?;
    let mut dice = SeededDice::for_game(seed, 0);
    let mut bots: Vec<RandomBot> = (0..players)
        .map(|s| RandomBot::new(SeededDice::for_seat(seed, 0, s)))
        .collect();
    let mut steps = 0u64;
    loop {
        match state.next() {
            Next::Chance(die) => {
                state.roll(dice.roll(die)).map_err(|e| e.to_string())?;
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll(face).map_err(|e| e.to_string())?;
            }
            Next::Decide(seat) => {
                let bot = bots
                    .get_mut(usize::from(seat))
                    .ok_or_else(|| format!("no bot for seat {seat}"))?;
                let action = bot.choose(&state).map_err(|_| "a bot gave no action")?;
                state.play_unchecked(action);
            }
            Next::Over => {
                return Ok(match &limit {
                    Some(l) if G::end_reason(&state) == l.reason => Ending::RoundLimit,
                    _ => Ending::Natural,
                });
            }
        }
        steps += 1;
        if steps.is_multiple_of(BUDGET_STRIDE) && stop(BUDGET_STRIDE) {
            return Ok(Ending::Stopped);
        }
        if limit.is_some() && G::past_limit(&state) {
            return Ok(Ending::PastRoundLimit);
        }
        if steps >= budget {
            return Ok(Ending::Stalled);
        }
    }
}

/// Smoke-test resolved rules; `file` is how the diagnostics name the variant.
/// Empty when every game of every player count ends by itself often enough.
pub fn check<G: Game>(rules: &G::Rules, file: &str) -> Vec<Diagnostic> {
    check_within::<G>(rules, file, &|| false)
}

/// [`check`] within [`STEP_BUDGET`] steps in all, and until `out_of_time`
/// says so. What the budget left unplayed is a warning naming the games
/// played and not played: their variant is neither passed nor failed.
pub fn check_within<G: Game>(
    rules: &G::Rules,
    file: &str,
    out_of_time: &dyn Fn() -> bool,
) -> Vec<Diagnostic> {
    let rules = Arc::new(rules.clone());
    let name = G::name(&rules).to_owned();
    let seats = G::seats(&rules);
    let limit = G::safety_limit(&rules).unwrap_or(SafetyLimit {
        reason: usize::MAX,
        key: "",
        words: String::new(),
        help: String::new(),
    });
    let mut out = Vec::new();
    let mut left = STEP_BUDGET;
    let mut why_stopped: Option<String> = None;
    let mut stop = |steps: u64| {
        left = left.saturating_sub(steps);
        if why_stopped.is_none() {
            if left == 0 {
                why_stopped = Some(format!("its budget of {STEP_BUDGET} rolls and decisions"));
            } else if out_of_time() {
                why_stopped = Some("its time budget".to_string());
            }
        }
        why_stopped.is_some()
    };
    let mut played: Vec<(u8, u64)> = Vec::new();
    let mut stopped_at: Option<u8> = None;
    for players in seats.clone() {
        if stopped_at.is_some() {
            break;
        }
        let mut games = 0u64;
        let budget = step_budget::<G>(&rules, players);
        let reproduce = |seed: u64| {
            let bots = vec!["random"; usize::from(players)].join(",");
            format!("reproduce with: roots play {file} --players {bots} --seed {seed}")
        };
        let mut limited = Vec::new();
        for seed in FIRST_SEED..FIRST_SEED + GAMES {
            let ending = play_within::<G>(&rules, players, seed, budget, &mut stop);
            if ending == Ok(Ending::Stopped) {
                stopped_at = Some(players);
                break;
            }
            games += 1;
            match ending {
                Err(e) => {
                    out.push(
                        Diagnostic::error(
                            Code::Smoke,
                            file,
                            format!(
                                "variant \"{name}\" cannot start a game of {players} players: {e}"
                            ),
                        )
                        .key("players"),
                    );
                    break;
                }
                Ok(Ending::Stalled) => {
                    out.push(
                        Diagnostic::error(
                            Code::Smoke,
                            file,
                            format!(
                                "variant \"{name}\" stalls: a game of {players} random players (seed {seed}) did not end within {budget} steps"
                            ),
                        )
                        .help(reproduce(seed)),
                    );
                    break;
                }
                Ok(Ending::PastRoundLimit) => {
                    out.push(
                        Diagnostic::error(
                            Code::Smoke,
                            file,
                            format!(
                                "variant \"{name}\" runs on: a game of {players} random players (seed {seed}) went past {}",
                                limit.words
                            ),
                        )
                        .key(limit.key)
                        .help(reproduce(seed)),
                    );
                    break;
                }
                Ok(Ending::RoundLimit) => limited.push(seed),
                Ok(Ending::Natural | Ending::Stopped) => {}
            }
        }
        played.push((players, games));
        let share = limited.len() as u64 * 100 / GAMES;
        if stopped_at.is_none() && share > ROUND_LIMIT_WARN_PERCENT {
            let message = format!(
                "variant \"{name}\": {} of {GAMES} games of {players} random players ended by {}, not by themselves; the first was seed {}",
                limited.len(),
                limit.words,
                limited[0]
            );
            let mut d = Diagnostic::warning(file, message)
                .key(limit.key)
                .help(format!("{}; {}", limit.help, reproduce(limited[0])));
            d.code = Code::Smoke;
            out.push(d);
        }
    }
    if let (Some(at), Some(why)) = (stopped_at, why_stopped) {
        let done: Vec<String> = played
            .iter()
            .map(|(p, g)| format!("{g} of {GAMES} games of {p} players"))
            .collect();
        let unplayed = if at < *seats.end() {
            format!(
                "; none of {}",
                crate::core::players_phrase(at + 1, *seats.end())
            )
        } else {
            String::new()
        };
        let mut d = Diagnostic::warning(
            file,
            format!(
                "variant \"{name}\": the smoke simulation stopped at {why}, so it is unfinished: it played {}{unplayed}; no problem was found in the games it played",
                done.join(", ")
            ),
        )
        .help(format!(
            "its games are long; check the rest with `roots simulate {file} --players {at} --games {GAMES}` (or skip this check with --no-smoke)"
        ));
        d.code = Code::Smoke;
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roots_and_shoots::{RootsAndShoots, Rules};

    fn check(rules: &Rules, file: &str) -> Vec<Diagnostic> {
        super::check::<RootsAndShoots>(rules, file)
    }

    fn play(rules: &Arc<Rules>, players: u8, seed: u64, budget: u64) -> Result<Ending, String> {
        super::play::<RootsAndShoots>(rules, players, seed, budget)
    }

    #[test]
    fn the_standard_game_ends_by_itself() {
        let d = check(&Rules::standard(), "standard");
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn a_tiny_round_limit_is_a_warning_naming_the_seed() {
        let mut rules = Rules::standard();
        rules.end.max_rounds = 2;
        let d = check(&rules, "short.toml");
        assert_eq!(d.len(), 5, "one for each player count: {d:?}");
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        assert!(d[0].message.contains("50 of 50 games"), "{}", d[0].message);
        assert!(
            d[0].message.contains("of 2 random players"),
            "{}",
            d[0].message
        );
        let help = d[0].help.as_deref().unwrap_or("");
        assert!(
            help.contains("roots play short.toml --players random,random --seed 1"),
            "{help}"
        );
    }

    #[test]
    fn a_tiny_budget_is_a_stall() {
        let rules = Arc::new(Rules::standard());
        assert_eq!(play(&rules, 2, 1, 10), Ok(Ending::Stalled));
    }
}
