//! The random bot: any legal action, drawn by the engine's fast sampler.

use crate::bots::{NoAction, Player};
use crate::core::dice::SeededDice;
use crate::core::protocol::GameState;
use crate::roots::{Action, State};

/// Plays a random legal action (not exactly uniform: placements are sampled
/// near the bot's own beads first, see `State::random_action`).
#[derive(Debug)]
pub struct RandomBot {
    dice: SeededDice,
}

impl RandomBot {
    pub fn new(dice: SeededDice) -> RandomBot {
        RandomBot { dice }
    }
}

impl Player for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        Ok(state.random_action(&mut self.dice))
    }
}
