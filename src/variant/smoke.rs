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
use crate::roots::{EndReason, State};

use super::diagnostic::{Code, Diagnostic};
use super::rules::Rules;

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

/// Rolls and decisions after which a game counts as stalled: 1,000 per seat
/// and round of the limit, at least a million. A random standard game takes a
/// few thousand steps; a turn that cannot end is caught well before this.
pub fn step_budget(rules: &Rules, players: u8) -> u64 {
    (u64::from(rules.end.max_rounds) * u64::from(players) * 1_000).max(1_000_000)
}

/// How one smoke game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Ended by itself (nutrients or beads out).
    Natural,
    /// Ended by `end.max_rounds`.
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
pub fn play(rules: &Arc<Rules>, players: u8, seed: u64, budget: u64) -> Result<Ending, String> {
    play_within(rules, players, seed, budget, &mut |_| false)
}

/// [`play`], asking `stop(steps)` every few thousand steps (with the steps
/// played since it last asked) whether to give up: then [`Ending::Stopped`].
pub fn play_within(
    rules: &Arc<Rules>,
    players: u8,
    seed: u64,
    budget: u64,
    stop: &mut dyn FnMut(u64) -> bool,
) -> Result<Ending, String> {
    let mut state = State::new(rules.clone(), players).map_err(|e| e.to_string())?;
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
            Next::Decide(seat) => {
                let bot = bots
                    .get_mut(usize::from(seat))
                    .ok_or_else(|| format!("no bot for seat {seat}"))?;
                let action = bot.choose(&state).map_err(|_| "a bot gave no action")?;
                state.play_unchecked(action);
            }
            Next::Over => {
                return Ok(match state.end_reason() {
                    Some(EndReason::RoundLimit) => Ending::RoundLimit,
                    _ => Ending::Natural,
                });
            }
        }
        steps += 1;
        if steps.is_multiple_of(BUDGET_STRIDE) && stop(BUDGET_STRIDE) {
            return Ok(Ending::Stopped);
        }
        if state.round() > rules.end.max_rounds {
            return Ok(Ending::PastRoundLimit);
        }
        if steps >= budget {
            return Ok(Ending::Stalled);
        }
    }
}

/// Smoke-test resolved rules; `file` is how the diagnostics name the variant.
/// Empty when every game of every player count ends by itself often enough.
pub fn check(rules: &Rules, file: &str) -> Vec<Diagnostic> {
    check_within(rules, file, &|| false)
}

/// [`check`] within [`STEP_BUDGET`] steps in all, and until `out_of_time`
/// says so. What the budget left unplayed is a warning naming the games
/// played and not played: their variant is neither passed nor failed.
pub fn check_within(rules: &Rules, file: &str, out_of_time: &dyn Fn() -> bool) -> Vec<Diagnostic> {
    let rules = Arc::new(rules.clone());
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
    for players in rules.players.min..=rules.players.max {
        if stopped_at.is_some() {
            break;
        }
        let mut games = 0u64;
        let budget = step_budget(&rules, players);
        let reproduce = |seed: u64| {
            let bots = vec!["random"; usize::from(players)].join(",");
            format!("reproduce with: roots play {file} --players {bots} --seed {seed}")
        };
        let mut limited = Vec::new();
        for seed in FIRST_SEED..FIRST_SEED + GAMES {
            let ending = play_within(&rules, players, seed, budget, &mut stop);
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
                                "variant \"{}\" cannot start a game of {players} players: {e}",
                                rules.name
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
                                "variant \"{}\" stalls: a game of {players} random players (seed {seed}) did not end within {budget} steps",
                                rules.name
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
                                "variant \"{}\" runs on: a game of {players} random players (seed {seed}) went past the round limit of {} rounds",
                                rules.name, rules.end.max_rounds
                            ),
                        )
                        .key("end.max_rounds")
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
                "variant \"{}\": {} of {GAMES} games of {players} random players ended by the round limit ({} rounds), not by themselves; the first was seed {}",
                rules.name,
                limited.len(),
                rules.end.max_rounds,
                limited[0]
            );
            let mut d = Diagnostic::warning(file, message).key("end.max_rounds").help(format!(
                "the round limit is a safety net: make the supplies smaller or raise `end.max_rounds`; {}",
                reproduce(limited[0])
            ));
            d.code = Code::Smoke;
            out.push(d);
        }
    }
    if let (Some(at), Some(why)) = (stopped_at, why_stopped) {
        let done: Vec<String> = played
            .iter()
            .map(|(p, g)| format!("{g} of {GAMES} games of {p} players"))
            .collect();
        let unplayed = if at < rules.players.max {
            format!("; none of {} to {} players", at + 1, rules.players.max)
        } else {
            String::new()
        };
        let mut d = Diagnostic::warning(
            file,
            format!(
                "variant \"{}\": the smoke simulation stopped at {why}, so it is unfinished: it played {}{unplayed}; no problem was found in the games it played",
                rules.name,
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
