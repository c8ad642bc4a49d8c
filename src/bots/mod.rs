//! Players behind one interface: bots here, the human at the terminal in the
//! binary. The referee (`roots play`), the replayer and the simulator all ask a
//! [`Player`] for a decision the same way.

//!
//! The bots here know nothing of any game's rules: [`RandomBot`] asks the
//! engine's sampler, [`GreedyBot`] looks one decision ahead with the game's
//! own evaluation ([`Game::evaluate`]) and [`MctsBot`] searches through the
//! chance and decision nodes of any [`GameState`]. A game may bring bots of
//! its own ([`Game::bot`]): Roots and Shoots does.

mod greedy;
mod mcts;
mod random;

pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random::RandomBot;

use crate::core::protocol::GameState;
use crate::games::Game;

/// Iterations per decision when `mcts` is given without a number.
pub const DEFAULT_ITERATIONS: u32 = 200;

/// Why a player gave no action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAction {
    /// The player stopped the game (a human quitting); the record stays
    /// resumable.
    Quit,
    /// The player's input ended (end of file) before a decision.
    EndOfInput,
    /// The person at the table asked to take back the last roll or
    /// decision (`undo` at the prompt); the referee decides whether it can.
    Undo,
}

/// Someone who makes the decisions of one seat of a game whose nodes are `S`.
pub trait Player<S: GameState> {
    /// A short name for reports and records, e.g. `random`, `mcts:2000`, `human`.
    fn name(&self) -> String;

    /// Choose an action at a decision node of this player's seat. The state
    /// is at a decision node of this seat; the action must be legal there.
    fn choose(&mut self, state: &S) -> Result<S::Action, NoAction>;
}

/// Which bot plays a seat, as written on the command line: `random`,
/// `greedy`, `mcts` or `mcts:ITERATIONS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// Any legal action, from the engine's fast sampler.
    Random,
    /// One decision ahead with the static evaluation.
    Greedy,
    /// Monte Carlo tree search with this many iterations per decision.
    Mcts { iterations: u32 },
}

impl BotSpec {
    /// Most MCTS iterations accepted per decision.
    pub const MAX_ITERATIONS: u32 = 1_000_000;

    /// Parse `random`, `greedy`, `mcts` or `mcts:ITERATIONS`.
    pub fn parse(s: &str) -> Result<BotSpec, String> {
        let text = s.trim().to_ascii_lowercase();
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (text.as_str(), None),
        };
        match (name, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("greedy", None) => Ok(BotSpec::Greedy),
            ("mcts", None) => Ok(BotSpec::Mcts {
                iterations: DEFAULT_ITERATIONS,
            }),
            ("mcts", Some(n)) => match n.parse::<u32>() {
                Ok(i) if (1..=Self::MAX_ITERATIONS).contains(&i) => {
                    Ok(BotSpec::Mcts { iterations: i })
                }
                _ => Err(format!(
                    "`mcts:{n}`: the iterations must be a whole number from 1 to {}",
                    Self::MAX_ITERATIONS
                )),
            },
            ("random" | "greedy", Some(_)) => {
                Err(format!("`{text}`: only mcts takes a number (`mcts:2000`)"))
            }
            _ => Err(format!(
                "unknown bot `{}`: expected random, greedy, mcts or mcts:ITERATIONS",
                s.trim()
            )),
        }
    }

    /// Whether this is a searching bot (stronger than random).
    pub fn is_strong(self) -> bool {
        !matches!(self, BotSpec::Random)
    }

    /// The bot for a seat of game `G`, drawing its own randomness from
    /// `dice` (use [`crate::core::dice::SeededDice::for_seat`] so a game is
    /// reproducible from its seed).
    pub fn build<G: Game>(
        self,
        dice: crate::core::dice::SeededDice,
    ) -> Box<dyn Player<G::State> + Send> {
        G::bot(self, dice)
    }
}

/// The bots of this module for a seat of game `G`: what a game without bots
/// of its own returns from [`Game::bot`].
pub fn generic<G: Game>(
    spec: BotSpec,
    dice: crate::core::dice::SeededDice,
) -> Box<dyn Player<G::State> + Send> {
    match spec {
        BotSpec::Random => Box::new(RandomBot::new(dice)),
        BotSpec::Greedy => Box::new(GreedyBot::<G>::new(dice)),
        BotSpec::Mcts { iterations } => Box::new(MctsBot::<G>::new(dice, iterations)),
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts { iterations } if *iterations == DEFAULT_ITERATIONS => {
                f.write_str("mcts")
            }
            BotSpec::Mcts { iterations } => write!(f, "mcts:{iterations}"),
        }
    }
}
