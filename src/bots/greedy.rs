//! The greedy bot of any game: one decision ahead with the game's own
//! evaluation ([`Game::evaluate`]).
//!
//! For every legal action it plays the action on a copy of the position and
//! keeps the one whose result the evaluation likes best, from the point of
//! view of the seat deciding; ties go to its own dice. A decision that leads
//! to a chance node is judged on the position before the roll (the
//! evaluation of a game with chance should count what is still to come).

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next};
use crate::games::{ActionOf, Game};

/// One-step heuristic player of game `G`.
pub struct GreedyBot<G: Game> {
    dice: SeededDice,
    actions: Vec<ActionOf<G>>,
    ties: Vec<ActionOf<G>>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for GreedyBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GreedyBot").field("game", &G::ID).finish()
    }
}

impl<G: Game> GreedyBot<G> {
    pub fn new(dice: SeededDice) -> GreedyBot<G> {
        GreedyBot {
            dice,
            actions: Vec::with_capacity(64),
            ties: Vec::with_capacity(16),
            game: PhantomData,
        }
    }
}

impl<G: Game> Player<G::State> for GreedyBot<G> {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        let Next::Decide(seat) = state.next() else {
            // Not a decision: the caller broke the contract; answer with
            // whatever the engine's sampler gives rather than panic.
            return Ok(state.random_action(&mut self.dice));
        };
        state.legal_actions(&mut self.actions);
        if self.actions.len() <= 1 {
            return Ok(self
                .actions
                .first()
                .copied()
                .unwrap_or_else(|| state.random_action(&mut self.dice)));
        }
        let mut best = f64::NEG_INFINITY;
        self.ties.clear();
        for &a in &self.actions {
            let mut next = state.clone();
            next.play_unchecked(a);
            let v = G::evaluate(&next, seat);
            if v > best + 1e-9 {
                best = v;
                self.ties.clear();
                self.ties.push(a);
            } else if (v - best).abs() <= 1e-9 {
                self.ties.push(a);
            }
        }
        Ok(match self.ties.len() {
            0 => self.actions[0],
            1 => self.ties[0],
            n => self.ties[self.dice.below(n as u32) as usize],
        })
    }
}
