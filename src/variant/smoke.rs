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
//! No IO: the rules core stays pure.

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

/// Rolls and decisions after which a game counts as stalled (the game's
/// [`Game::step_budget`]).
pub fn step_budget<G: Game>(rules: &G::Rules, players: u8) -> u64 {
    G::step_budget(rules, players)
}

/// How one smoke game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Ended by itself.
    Natural,
    /// Ended by the game's safety limit (Roots and Shoots: `end.max_rounds`).
    RoundLimit,
    /// Still going after the step budget.
    Stalled,
    /// Still going past the safety limit.
    PastRoundLimit,
}

/// Play the smoke game of `seed` with `players` random bots, at most
/// `budget` steps. `Err` when the rules refuse the player count.
pub fn play<G: Game>(
    rules: &Arc<G::Rules>,
    players: u8,
    seed: u64,
    budget: u64,
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
    let rules = Arc::new(rules.clone());
    let name = G::name(&rules);
    let limit = G::safety_limit(&rules).unwrap_or(SafetyLimit {
        reason: usize::MAX,
        key: "",
        words: String::new(),
        help: String::new(),
    });
    let mut out = Vec::new();
    for players in G::seats(&rules) {
        let budget = step_budget::<G>(&rules, players);
        let reproduce = |seed: u64| {
            let bots = vec!["random"; usize::from(players)].join(",");
            format!("reproduce with: roots play {file} --players {bots} --seed {seed}")
        };
        let mut limited = Vec::new();
        for seed in FIRST_SEED..FIRST_SEED + GAMES {
            match play::<G>(&rules, players, seed, budget) {
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
                Ok(Ending::Natural) => {}
            }
        }
        let share = limited.len() as u64 * 100 / GAMES;
        if share > ROUND_LIMIT_WARN_PERCENT {
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roots_and_shoots::{RootsAndShoots, Rules};

    fn check(rules: &Rules, file: &str) -> Vec<Diagnostic> {
        super::check::<RootsAndShoots>(rules, file)
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
        assert_eq!(
            play::<RootsAndShoots>(&rules, 2, 1, 10),
            Ok(Ending::Stalled)
        );
    }
}
