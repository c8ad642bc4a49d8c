//! Players behind one interface: bots here, the human at the terminal in the
//! binary. The referee (`roots play`), the replayer and the simulator all ask a
//! [`Player`] for a decision the same way.

mod random;

pub use random::RandomBot;

use crate::core::dice::SeededDice;
use crate::roots::{Action, State};

/// Why a player gave no action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAction {
    /// The player stopped the game (a human quitting); the record stays
    /// resumable.
    Quit,
    /// The player's input ended (end of file) before a decision.
    EndOfInput,
}

/// Someone who makes the decisions of one seat.
pub trait Player {
    /// A short name for reports and records, e.g. `random`, `mcts:2000`, `human`.
    fn name(&self) -> String;

    /// Choose an action at a decision node of this player's seat. The state
    /// is at a decision node of this seat; the action must be legal there.
    fn choose(&mut self, state: &State) -> Result<Action, NoAction>;
}

/// Which bot plays a seat, as written on the command line: `random`,
/// `greedy`, `mcts` or `mcts:ITERATIONS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    Random,
}

impl BotSpec {
    /// Parse `random` (more bots come with the simulator).
    pub fn parse(s: &str) -> Result<BotSpec, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(BotSpec::Random),
            other => Err(format!("unknown bot `{other}`: expected random")),
        }
    }

    /// The bot, drawing its own randomness from `dice` (use
    /// [`SeededDice::for_seat`] so a game is reproducible from its seed).
    pub fn build(self, dice: SeededDice) -> Box<dyn Player + Send> {
        match self {
            BotSpec::Random => Box::new(RandomBot::new(dice)),
        }
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
        }
    }
}
