//! Two turns of look-ahead for a game whose turn is several decisions of
//! one seat (Sprout-R-Out's sub-moves): the bot's own turn, then the
//! other seat's reply turn, both planned the way the whole-turn greedy
//! plans ([`crate::bots::GreedyBot::whole_turn`]: a beam of the best
//! partial turns by the evaluation, every complete turn judged at its end).
//!
//! At each decision the bot plans the rest of its turn with a beam of
//! `width` partial turns and keeps, for each first decision, the best
//! complete turn found and the position after it. The `candidates` best
//! first decisions by that value are then judged again: the other seat
//! plans its whole reply turn from that position the same way, takes the
//! reply its evaluation likes best, and the first decision is worth the
//! evaluation, for the bot's seat, of the position after that reply. The
//! bot plays the first decision worth most; among equal ones its dice
//! choose. A game over, a chance node or the same seat to move again ends
//! the look-ahead where it is.
//!
//! The cost is fixed by the beam and the candidates, never by a clock:
//! about `1 + candidates` turn plans a decision, where greedy makes one.

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{ActionOf, Game};

/// Values closer than this are equal.
const EPSILON: f64 = 1e-9;
/// Most decisions of one turn a plan looks at (as greedy's).
const MAX_TURN: usize = 64;

/// How wide the two-turn look-ahead plans, and how many of its own first
/// decisions it answers with the other seat's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnLookahead {
    /// Beam width of the bot's own turn plan.
    pub width: usize,
    /// Beam width of the reply turn plans.
    pub reply_width: usize,
    /// First decisions judged by the reply (at least 1).
    pub candidates: usize,
    /// The other seat's best replies (by its evaluation) each first
    /// decision is judged against (at least 1): it is worth the worst.
    pub replies: usize,
    /// Whether each reply is judged by the bot's best turn after it (three
    /// turns) rather than by the evaluation right after it (two).
    pub third_turn: bool,
}

/// A partial turn of a plan: the position after it, its first decision and
/// its value.
struct Partial<S: GameState> {
    state: S,
    first: S::Action,
    value: f64,
}

/// The best complete turn of a plan for one first decision.
struct Final<S: GameState> {
    first: S::Action,
    value: f64,
    state: S,
}

/// The two-turn look-ahead player of game `G`.
pub struct TurnLookaheadBot<G: Game> {
    dice: SeededDice,
    plan: TurnLookahead,
    name: String,
    /// Evaluations of the last decision (for tests and tuning).
    evaluations: u64,
    legal: Vec<ActionOf<G>>,
    ties: Vec<ActionOf<G>>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for TurnLookaheadBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnLookaheadBot")
            .field("game", &G::ID)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<G: Game> TurnLookaheadBot<G> {
    /// A bot searching as `plan` says, named `name` in reports.
    pub fn new(
        dice: SeededDice,
        plan: TurnLookahead,
        name: impl Into<String>,
    ) -> TurnLookaheadBot<G> {
        TurnLookaheadBot {
            dice,
            plan,
            name: name.into(),
            evaluations: 0,
            legal: Vec::with_capacity(64),
            ties: Vec::with_capacity(16),
            game: PhantomData,
        }
    }

    /// The evaluations the last decision cost.
    pub fn last_evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The best complete turn of `seat` from `state` for each first
    /// decision, by a beam search of `width` partial turns (greedy's plan),
    /// in the order the first decisions were met; and the first decision
    /// of the best partial turn left when no turn could be completed.
    fn plan_turn(
        &mut self,
        state: &G::State,
        seat: Seat,
        width: usize,
    ) -> (Vec<Final<G::State>>, Option<ActionOf<G>>) {
        let mut beam: Vec<Partial<G::State>> = Vec::with_capacity(width);
        let mut next_beam: Vec<Partial<G::State>> = Vec::new();
        let mut finals: Vec<Final<G::State>> = Vec::new();
        let mut legal = Vec::with_capacity(64);
        for depth in 0..MAX_TURN {
            next_beam.clear();
            let parents: Vec<(&G::State, Option<ActionOf<G>>)> = if depth == 0 {
                vec![(state, None)]
            } else {
                beam.iter().map(|p| (&p.state, Some(p.first))).collect()
            };
            for (from, first) in parents {
                from.legal_actions(&mut legal);
                for &a in &legal {
                    let mut next = from.clone();
                    next.play_unchecked(a);
                    self.evaluations += 1;
                    let value = G::evaluate(&next, seat);
                    let first = first.unwrap_or(a);
                    if next.next() == Next::Decide(seat) && depth + 1 < MAX_TURN {
                        next_beam.push(Partial {
                            state: next,
                            first,
                            value,
                        });
                    } else {
                        match finals.iter_mut().find(|f| f.first == first) {
                            Some(f) => {
                                if value > f.value {
                                    f.value = value;
                                    f.state = next;
                                }
                            }
                            None => finals.push(Final {
                                first,
                                value,
                                state: next,
                            }),
                        }
                    }
                }
            }
            if next_beam.is_empty() {
                break;
            }
            // Stable: equal values keep the order the actions were listed
            // in, so a plan is a function of the position.
            next_beam.sort_by(|a, b| b.value.total_cmp(&a.value));
            next_beam.truncate(width.max(1));
            std::mem::swap(&mut beam, &mut next_beam);
        }
        let fallback = beam.first().map(|p| p.first);
        (finals, fallback)
    }

    /// The value for `seat` of the position `state` reached at the end of
    /// its turn: after the other seat's best reply turn when the other
    /// seat moves next, else the evaluation there.
    fn after_reply(&mut self, state: &G::State, seat: Seat) -> f64 {
        let Next::Decide(other) = state.next() else {
            self.evaluations += 1;
            return G::evaluate(state, seat);
        };
        if other == seat {
            self.evaluations += 1;
            return G::evaluate(state, seat);
        }
        let (mut finals, _) = self.plan_turn(state, other, self.plan.reply_width);
        if finals.is_empty() {
            self.evaluations += 1;
            return G::evaluate(state, seat);
        }
        // The replies the other seat's evaluation likes best (the first
        // listed of equal ones), each judged by ours: the worst counts.
        finals.sort_by(|a, b| b.value.total_cmp(&a.value));
        finals.truncate(self.plan.replies.max(1));
        let mut worst = f64::INFINITY;
        for f in &finals {
            let v = if self.plan.third_turn {
                self.best_turn(&f.state, seat)
            } else {
                self.evaluations += 1;
                G::evaluate(&f.state, seat)
            };
            worst = worst.min(v);
        }
        worst
    }

    /// The value for `seat` of its best turn from `state` when it moves
    /// there, else the evaluation there.
    fn best_turn(&mut self, state: &G::State, seat: Seat) -> f64 {
        if state.next() != Next::Decide(seat) {
            self.evaluations += 1;
            return G::evaluate(state, seat);
        }
        let (finals, _) = self.plan_turn(state, seat, self.plan.reply_width);
        let best = finals
            .iter()
            .map(|f| f.value)
            .fold(f64::NEG_INFINITY, f64::max);
        if best == f64::NEG_INFINITY {
            self.evaluations += 1;
            return G::evaluate(state, seat);
        }
        best
    }

    fn decide(&mut self, state: &G::State, seat: Seat) -> ActionOf<G> {
        let (mut finals, fallback) = self.plan_turn(state, seat, self.plan.width);
        if finals.is_empty() {
            return fallback.unwrap_or(self.legal[0]);
        }
        // Equal turns in the order of the bot's dice, as greedy's dice
        // choose among them (the first listed would be a bias: a corner).
        for i in (1..finals.len()).rev() {
            let j = self.dice.below(i as u32 + 1) as usize;
            finals.swap(i, j);
        }
        finals.sort_by(|a, b| b.value.total_cmp(&a.value));
        finals.truncate(self.plan.candidates.max(1));
        let mut best = f64::NEG_INFINITY;
        self.ties.clear();
        for f in &finals {
            let v = self.after_reply(&f.state, seat);
            if v > best + EPSILON {
                best = v;
                self.ties.clear();
                self.ties.push(f.first);
            } else if v >= best - EPSILON {
                self.ties.push(f.first);
            }
        }
        match self.ties.len() {
            0 => finals[0].first,
            1 => self.ties[0],
            n => self.ties[self.dice.below(n as u32) as usize],
        }
    }
}

impl<G: Game> Player<G::State> for TurnLookaheadBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        self.evaluations = 0;
        let Next::Decide(seat) = state.next() else {
            // Not a decision: the caller broke the contract; answer with
            // whatever the engine's sampler gives rather than panic.
            return Ok(state.random_action(&mut self.dice));
        };
        state.legal_actions(&mut self.legal);
        match self.legal.len() {
            0 => return Ok(state.random_action(&mut self.dice)),
            1 => return Ok(self.legal[0]),
            _ => {}
        }
        Ok(self.decide(state, seat))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::bots::GreedyBot;
    use crate::games::sprout_r_out::SproutROut;

    type S = <SproutROut as Game>::State;

    /// Positions of a seeded whole-turn greedy game of `sprout-r-out`
    /// with a choice to make.
    fn positions(seed: u64, mut f: impl FnMut(&S)) {
        let mut state = SproutROut::new_state(Arc::new(SproutROut::standard()), 2).unwrap();
        let mut greedy = GreedyBot::<SproutROut>::new(SeededDice::new(seed, 1)).whole_turn(8);
        let mut legal = Vec::new();
        let mut steps = 0;
        while let Next::Decide(_) = state.next() {
            state.legal_actions(&mut legal);
            if legal.len() > 1 && steps % 3 == 0 {
                f(&state);
            }
            steps += 1;
            let a = greedy.choose(&state).unwrap();
            state.play(a).unwrap();
        }
    }

    /// With one candidate the bot plays a first decision of a best turn of
    /// its plan (greedy's choice); with several, one whose value after the
    /// other seat's reply is the best of the candidates'.
    #[test]
    fn the_choice_is_the_best_candidate() {
        let one = TurnLookahead {
            width: 8,
            reply_width: 8,
            candidates: 1,
            replies: 1,
            third_turn: false,
        };
        let four = TurnLookahead {
            candidates: 4,
            replies: 2,
            ..one
        };
        let mut greedyish = TurnLookaheadBot::<SproutROut>::new(SeededDice::new(1, 0), one, "t");
        let mut bot = TurnLookaheadBot::<SproutROut>::new(SeededDice::new(1, 0), four, "t");
        let mut seen = 0;
        positions(2, |state| {
            let Next::Decide(seat) = state.next() else {
                return;
            };
            let (finals, _) = bot.plan_turn(state, seat, 8);
            let best = finals
                .iter()
                .map(|f| f.value)
                .fold(f64::NEG_INFINITY, f64::max);
            let value_of = |a| finals.iter().find(|f| f.first == a).map(|f| f.value);
            let chosen = greedyish.choose(state).unwrap();
            if let Some(v) = value_of(chosen) {
                assert!((v - best).abs() < 1e-9, "{v} against {best}");
            }
            let chosen = bot.choose(state).unwrap();
            assert!(value_of(chosen).is_some() || finals.is_empty());
            if !finals.is_empty() {
                let mine = finals.iter().find(|f| f.first == chosen).unwrap();
                let v = bot.after_reply(&mine.state, seat);
                // No final among the four best turns is worth more after
                // its reply than the chosen one.
                let mut sorted: Vec<&Final<S>> = finals.iter().collect();
                sorted.sort_by(|a, b| b.value.total_cmp(&a.value));
                let cut = sorted[sorted.len().min(4) - 1].value;
                for f in finals.iter().filter(|f| f.value > cut + 1e-9) {
                    let w = bot.after_reply(&f.state, seat);
                    assert!(w <= v + 1e-9, "{w} beats the chosen {v}");
                }
                seen += 1;
            }
        });
        assert!(seen > 5, "{seen} decisions");
    }
}
