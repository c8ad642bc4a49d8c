//! The greedy bot of any game: one decision ahead with the game's own
//! evaluation ([`Game::evaluate`]), or one whole turn ahead.
//!
//! For every legal action it plays the action on a copy of the position and
//! keeps the one whose result the evaluation likes best, from the point of
//! view of the seat deciding; ties go to its own dice. A decision that leads
//! to a chance node is judged on the position before the roll (the
//! evaluation of a game with chance should count what is still to come).
//!
//! Two refinements a game may ask for in its [`Game::style`]:
//!
//! - **a margin** ([`GreedyBot::with_margin`]): every action valued within
//!   the margin of the best is a candidate, and the bot's dice pick one. A
//!   game whose evaluation is coarse (Branches & Twigs & Thorns) then gives
//!   different games for different seeds instead of a few lines played
//!   over and over; the seats' dice come from the game's seed, so a seed
//!   still replays its games.
//! - **a whole turn** ([`GreedyBot::whole_turn`]): in a game whose turn is
//!   several decisions of one seat (Sprout-R-Out's sub-moves), the bot plans
//!   the rest of the turn by a beam search over its own decisions (the
//!   `width` best partial turns by the evaluation are extended, every
//!   complete turn is judged at its end) and plays the first decision of the
//!   best complete turn. It plans again at each decision, so it needs no
//!   memory of the plan and follows any position it is given.

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::turns::beam_values;
use crate::games::{ActionOf, Game};

/// Values closer than this are equal.
const EPSILON: f64 = 1e-9;

/// One-step (or one-turn) heuristic player of game `G`.
pub struct GreedyBot<G: Game> {
    dice: SeededDice,
    /// Actions valued within this of the best are equally good.
    margin: f64,
    /// Beam width of a whole-turn plan; 0: one decision ahead.
    width: usize,
    actions: Vec<ActionOf<G>>,
    ties: Vec<ActionOf<G>>,
    values: Vec<f64>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for GreedyBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GreedyBot")
            .field("game", &G::ID)
            .field("margin", &self.margin)
            .field("width", &self.width)
            .finish()
    }
}

impl<G: Game> GreedyBot<G> {
    pub fn new(dice: SeededDice) -> GreedyBot<G> {
        GreedyBot {
            dice,
            margin: EPSILON,
            width: 0,
            actions: Vec::with_capacity(64),
            ties: Vec::with_capacity(16),
            values: Vec::with_capacity(64),
            game: PhantomData,
        }
    }

    /// The same bot counting actions valued within `margin` of the best as
    /// equally good (its dice choose among them).
    pub fn with_margin(mut self, margin: f64) -> GreedyBot<G> {
        self.margin = margin.max(EPSILON);
        self
    }

    /// The same bot planning the rest of its turn with a beam of `width`
    /// partial turns (0: one decision ahead).
    pub fn whole_turn(mut self, width: usize) -> GreedyBot<G> {
        self.width = width;
        self
    }

    /// The best action one decision ahead.
    fn one_step(&mut self, state: &G::State, seat: Seat) -> ActionOf<G> {
        self.values.clear();
        let mut best = f64::NEG_INFINITY;
        for &a in &self.actions {
            let mut next = state.clone();
            next.play_unchecked(a);
            let v = G::evaluate(&next, seat);
            best = best.max(v);
            self.values.push(v);
        }
        self.ties.clear();
        for (&a, &v) in self.actions.iter().zip(&self.values) {
            if v >= best - self.margin {
                self.ties.push(a);
            }
        }
        self.pick()
    }

    /// One of the tied actions, by the bot's dice.
    fn pick(&mut self) -> ActionOf<G> {
        self.dice.pick(&self.ties).unwrap_or(self.actions[0])
    }

    /// The first decision of the best complete turn found by a beam search
    /// of `self.width` partial turns ([`beam_values`]: the turns' values
    /// and first decisions, no end positions kept).
    fn plan(&mut self, state: &G::State, seat: Seat) -> ActionOf<G> {
        let turns = beam_values(state, seat, self.width, G::evaluate);
        if !turns.complete {
            // No turn could be completed within the limit: the first
            // decision of the best partial turn left.
            if let Some(t) = turns.found.first() {
                return turns.first(t);
            }
            return self.actions[0];
        }
        // The best complete turn for each first decision, in the order the
        // first decisions were found.
        let mut finals: Vec<(ActionOf<G>, f64)> = Vec::new();
        for t in &turns.found {
            let first = turns.first(t);
            match finals.iter_mut().find(|(f, _)| *f == first) {
                Some((_, v)) => *v = v.max(t.value),
                None => finals.push((first, t.value)),
            }
        }
        let best = finals
            .iter()
            .map(|&(_, v)| v)
            .fold(f64::NEG_INFINITY, f64::max);
        self.ties.clear();
        self.ties.extend(
            finals
                .iter()
                .filter(|&&(_, v)| v >= best - self.margin)
                .map(|&(a, _)| a),
        );
        self.pick()
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
        Ok(if self.width > 0 {
            self.plan(state, seat)
        } else {
            self.one_step(state, seat)
        })
    }
}
