//! The greedy bot: one decision ahead with the static evaluation.
//!
//! For every legal action it plays the action on a copy of the position and
//! keeps the one whose result [`eval::advantage`] likes best (ties broken by
//! its own dice). The growth action is chosen by a short look-ahead instead:
//! for each action it rolls the die's middle face on a copy and places the
//! beads greedily, then compares the results. With an empty hand it sunbathes.

use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::roots_and_shoots::bots::eval;
use crate::games::roots_and_shoots::rules::Growth;
use crate::games::roots_and_shoots::state::Phase;
use crate::games::roots_and_shoots::{Action, State};

/// One-step heuristic player.
#[derive(Debug)]
pub struct GreedyBot {
    dice: SeededDice,
    actions: Vec<Action>,
}

impl GreedyBot {
    pub fn new(dice: SeededDice) -> GreedyBot {
        GreedyBot {
            dice,
            actions: Vec::with_capacity(64),
        }
    }
}

/// The best of `actions` for `seat` after one step, and its advantage; ties
/// go to the dice when `dice` is given, else to the first.
pub(crate) fn best_step(
    state: &State,
    seat: Seat,
    actions: &[Action],
    dice: Option<&mut SeededDice>,
) -> (Action, f64) {
    let mut best = f64::NEG_INFINITY;
    let mut ties: Vec<Action> = Vec::new();
    for &a in actions {
        let mut next = state.clone();
        next.play_unchecked(a);
        let v = eval::advantage(&next, seat);
        if v > best + 1e-9 {
            best = v;
            ties.clear();
            ties.push(a);
        } else if (v - best).abs() <= 1e-9 {
            ties.push(a);
        }
    }
    let pick = match dice {
        Some(d) if ties.len() > 1 => ties[d.below(ties.len() as u32) as usize],
        _ => ties[0],
    };
    (pick, best)
}

/// Whether the turn is in its placing phase (no task pending).
pub(crate) fn placing(state: &State) -> bool {
    state.tasks.is_empty() && matches!(state.phase, Phase::Place { .. })
}

/// The value of choosing `growth` now: roll the middle face of its die on a
/// copy, place greedily until the roll is used, and evaluate.
fn growth_value(state: &State, seat: Seat, growth: Growth, buf: &mut Vec<Action>) -> f64 {
    let mut next = state.clone();
    next.play_unchecked(Action::Grow(growth));
    let Next::Chance(die) = next.next() else {
        return eval::advantage(&next, seat);
    };
    // The middle face, but never a 1: rain is not the bot's to count on.
    face_value(&next, seat, die.sides().div_ceil(2).max(2), buf)
}

/// The evaluation after rolling `face` on `state` (at the growth die) and
/// placing the roll's beads greedily (the greedy bot's look-ahead of
/// the middle face, when it prices on copies).
pub(crate) fn face_value(state: &State, seat: Seat, face: u8, buf: &mut Vec<Action>) -> f64 {
    let mut next = state.clone();
    if next.roll(face).is_err() {
        return eval::advantage(state, seat);
    }
    // Place the roll's beads (bounded, should the engine ever loop).
    for _ in 0..32 {
        match next.next() {
            Next::Decide(s) if s == seat && placing(&next) => {
                next.legal_actions(buf);
                if buf.is_empty() {
                    break;
                }
                let (a, _) = best_step(&next, seat, buf, None);
                next.play_unchecked(a);
            }
            _ => break,
        }
    }
    eval::advantage(&next, seat)
}

crate::greedy_player!(GreedyBot, State);

impl GreedyBot {
    /// The choice among `actions` (more than one) for `seat`.
    fn decide(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        if actions.iter().all(|a| matches!(a, Action::Grow(_))) {
            self.choose_growth(state, seat, actions)
        } else {
            best_step(state, seat, actions, Some(&mut self.dice)).0
        }
    }

    fn choose_growth(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        let player = &state.players()[usize::from(seat)];
        let sunbathe = Action::Grow(Growth::Sunbathe);
        if player.store <= 1 && player.supply > 0 && actions.contains(&sunbathe) {
            return sunbathe;
        }
        let mut buf = Vec::with_capacity(64);
        let mut best = f64::NEG_INFINITY;
        let mut pick = actions[0];
        for &a in actions {
            let Action::Grow(g) = a else { continue };
            let v = growth_value(state, seat, g, &mut buf);
            if v > best {
                best = v;
                pick = a;
            }
        }
        pick
    }
}
