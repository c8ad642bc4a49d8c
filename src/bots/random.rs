//! The random bot: any legal action, drawn by the engine's fast sampler.

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::GameState;

/// Plays a random legal action, as the game's [`GameState::random_action`]
/// draws it (not necessarily uniform: Roots and Shoots samples placements
/// near the bot's own beads first).
#[derive(Debug)]
pub struct RandomBot {
    dice: SeededDice,
}

impl RandomBot {
    pub fn new(dice: SeededDice) -> RandomBot {
        RandomBot { dice }
    }
}

impl<S: GameState> Player<S> for RandomBot {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, state: &S) -> Result<S::Action, NoAction> {
        Ok(state.random_action(&mut self.dice))
    }

    /// The engine's sampler draws only legal actions.
    fn draws_from_engine(&self) -> bool {
        true
    }
}
