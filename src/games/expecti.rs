//! A short expectimax look-ahead on the game's own evaluation, for games
//! of cards or dice where the seat's choices follow one another with a
//! draw between them (Roots Growy Roots: every stick onto a face-down card
//! turns it over).
//!
//! At a decision the seat prices every legal action with greedy's prices
//! ([`Game::action_values`]: [`Game::evaluate`] of the position after it;
//! at a card about to be drawn, the expectation over the cards left). The
//! [`Expecti::root`] best of them are searched further: a draw or a die is
//! a chance node whose every face is played, weighted by the cards of that
//! kind left (or uniformly for a die), and below it the search goes on for
//! [`Expecti::depth`] decisions in all, the root one included. The seat at
//! the root takes the highest value of its [`Expecti::width`] best-priced
//! actions; every other seat plays the action its own greedy prices best
//! (max-n with each seat's own evaluation: in three- and four-seat games
//! no seat is assumed to play against the root alone), valued for the
//! root. A decision with no plies left is priced only: its value is the
//! best price for the root, or the root's evaluation after the other
//! seat's best-priced action.
//!
//! The hidden information stays hidden: a card's identity is a chance node
//! over what the deck still holds (`draw_weights`), the counts every seat
//! sees, so the search never reads a card before it is turned. The cost is
//! fixed by the plan, never by a clock; among root actions of equal value
//! the bot's dice choose, as greedy's do, so a game stays a function of its
//! seed.

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player, Ties};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{ActionOf, Game};

/// Values closer than this are equal.
const EPSILON: f64 = 1e-9;
/// The most decisions a plan may search (the root one included).
pub const MAX_DEPTH: u8 = 4;

/// How far and how wide the look-ahead searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expecti {
    /// The root's best-priced actions searched further (at least 1).
    pub root: u8,
    /// The root seat's best-priced actions searched further below the root
    /// (at least 1).
    pub width: u8,
    /// Decisions searched, the root one included (1 is greedy; at most
    /// [`MAX_DEPTH`]).
    pub depth: u8,
    /// Whether another seat's decision with plies left is searched (its
    /// greedy choice played); else it is a leaf, valued by the evaluation.
    pub replies: bool,
}

impl Expecti {
    /// A plan, its numbers brought into range (widths at least 1, depth 1
    /// to [`MAX_DEPTH`]).
    pub const fn new(root: u8, width: u8, depth: u8, replies: bool) -> Expecti {
        Expecti {
            replies,
            root: if root == 0 { 1 } else { root },
            width: if width == 0 { 1 } else { width },
            depth: if depth == 0 {
                1
            } else if depth > MAX_DEPTH {
                MAX_DEPTH
            } else {
                depth
            },
        }
    }
}

/// The expectimax player of game `G`.
pub struct ExpectiBot<G: Game> {
    dice: SeededDice,
    plan: Expecti,
    name: String,
    /// Evaluations (prices included) of the last decision, for tests and
    /// tuning.
    evaluations: u64,
    /// One buffer of actions, of prices and of weights per level.
    legal: Vec<Vec<ActionOf<G>>>,
    prices: Vec<Vec<f64>>,
    order: Vec<Vec<usize>>,
    ties: Ties<ActionOf<G>>,
    weights: Vec<u32>,
    /// Scratch copies, one per node on the path searched.
    scratch: Vec<Option<G::State>>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for ExpectiBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpectiBot")
            .field("game", &G::ID)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<G: Game> ExpectiBot<G> {
    /// A bot searching as `plan` says, named `name` in reports.
    pub fn new(dice: SeededDice, plan: Expecti, name: impl Into<String>) -> ExpectiBot<G> {
        let levels = usize::from(plan.depth) + 1;
        ExpectiBot {
            dice,
            plan,
            name: name.into(),
            evaluations: 0,
            legal: (0..levels).map(|_| Vec::with_capacity(64)).collect(),
            prices: (0..levels).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..levels).map(|_| Vec::with_capacity(64)).collect(),
            ties: Ties::default(),
            weights: Vec::with_capacity(16),
            scratch: Vec::new(),
            game: PhantomData,
        }
    }

    /// The plan it searches by.
    pub fn plan(&self) -> Expecti {
        self.plan
    }

    /// The evaluations (each price counting one) the last decision cost.
    pub fn last_evaluations(&self) -> u64 {
        self.evaluations
    }

    fn evaluate(&mut self, state: &G::State, root: Seat) -> f64 {
        self.evaluations += 1;
        G::evaluate(state, root)
    }

    /// A scratch copy of `state` for frame `frame` (made on first use,
    /// then refilled with `clone_from`).
    fn copy(&mut self, frame: usize, state: &G::State) -> G::State {
        if self.scratch.len() <= frame {
            self.scratch.resize_with(frame + 1, || None);
        }
        match self.scratch[frame].take() {
            Some(mut copy) => {
                copy.clone_from(state);
                copy
            }
            None => state.clone(),
        }
    }

    /// Gives a scratch copy back.
    fn give_back(&mut self, frame: usize, copy: G::State) {
        self.scratch[frame] = Some(copy);
    }

    /// The value for `root` of `state` with `left` decisions to search;
    /// `frame` counts the nodes above it (for the scratch copies), and
    /// `drawn` says whether a chance node was already expanded since the
    /// last decision (a second one is valued by the evaluation, which at a
    /// card takes the expectation over the cards left).
    fn value(&mut self, state: &G::State, root: Seat, left: u8, frame: usize, drawn: bool) -> f64 {
        match state.next() {
            Next::Over => self.evaluate(state, root),
            Next::Draw | Next::Chance(_) if left == 0 || drawn => self.evaluate(state, root),
            Next::Draw => {
                let mut weights = std::mem::take(&mut self.weights);
                weights.clear();
                weights.extend_from_slice(state.draw_weights());
                let mut sum = 0.0;
                let mut seen = 0u64;
                for (k, &w) in weights.iter().enumerate() {
                    if w == 0 {
                        continue;
                    }
                    let mut next = self.copy(frame, state);
                    if next.roll(k as u8 + 1).is_ok() {
                        sum += f64::from(w) * self.value(&next, root, left, frame + 1, true);
                        seen += u64::from(w);
                    }
                    self.give_back(frame, next);
                }
                self.weights = weights;
                if seen == 0 {
                    self.evaluate(state, root)
                } else {
                    sum / seen as f64
                }
            }
            Next::Chance(die) => {
                let mut sum = 0.0;
                let mut seen = 0u32;
                for face in 1..=die.sides() {
                    let mut next = self.copy(frame, state);
                    if next.roll(face).is_ok() {
                        sum += self.value(&next, root, left, frame + 1, true);
                        seen += 1;
                    }
                    self.give_back(frame, next);
                }
                if seen == 0 {
                    self.evaluate(state, root)
                } else {
                    sum / f64::from(seen)
                }
            }
            Next::Decide(_) if left == 0 => self.evaluate(state, root),
            Next::Decide(seat) if seat != root && !self.plan.replies => self.evaluate(state, root),
            Next::Decide(seat) => self.decision(state, root, seat, left, frame),
        }
    }

    /// The value for `root` of `seat`'s decision at `state`, `left`
    /// decisions (this one included) to search.
    fn decision(
        &mut self,
        state: &G::State,
        root: Seat,
        seat: Seat,
        left: u8,
        frame: usize,
    ) -> f64 {
        let level = usize::from(left);
        let mut legal = std::mem::take(&mut self.legal[level]);
        let mut prices = std::mem::take(&mut self.prices[level]);
        state.legal_actions(&mut legal);
        if legal.is_empty() {
            self.legal[level] = legal;
            self.prices[level] = prices;
            return self.evaluate(state, root);
        }
        G::action_values(state, seat, &legal, &mut prices);
        self.evaluations += legal.len() as u64;
        let value = if seat == root {
            if left == 1 {
                prices.iter().copied().fold(f64::NEG_INFINITY, f64::max)
            } else {
                let mut order = std::mem::take(&mut self.order[level]);
                order.clear();
                order.extend(0..legal.len());
                // Best first; stable, so equal prices keep the legal order.
                order.sort_by(|&x, &y| prices[y].total_cmp(&prices[x]));
                let mut best = f64::NEG_INFINITY;
                for &i in order.iter().take(usize::from(self.plan.width)) {
                    let mut next = self.copy(frame, state);
                    next.play_unchecked(legal[i]);
                    best = best.max(self.value(&next, root, left - 1, frame + 1, false));
                    self.give_back(frame, next);
                }
                self.order[level] = order;
                best
            }
        } else {
            // The other seat plays its greedy choice (the first of equal
            // prices: the search does not roll the other seat's dice).
            let mut pick = 0;
            for (i, &p) in prices.iter().enumerate() {
                if p > prices[pick] + EPSILON {
                    pick = i;
                }
            }
            let mut next = self.copy(frame, state);
            next.play_unchecked(legal[pick]);
            let v = self.value(&next, root, left - 1, frame + 1, false);
            self.give_back(frame, next);
            v
        };
        self.legal[level] = legal;
        self.prices[level] = prices;
        value
    }

    /// The action to play at `state`, where `seat` decides among `legal`
    /// (at least two actions).
    fn decide(&mut self, state: &G::State, seat: Seat, legal: &[ActionOf<G>]) -> ActionOf<G> {
        let top = usize::from(self.plan.depth);
        let mut prices = std::mem::take(&mut self.prices[top]);
        let mut order = std::mem::take(&mut self.order[top]);
        G::action_values(state, seat, legal, &mut prices);
        self.evaluations += legal.len() as u64;
        order.clear();
        order.extend(0..legal.len());
        // Equal prices in the order of the bot's dice, as greedy's dice
        // choose among them (the first listed would be a bias).
        self.dice.shuffle(&mut order);
        order.sort_by(|&x, &y| prices[y].total_cmp(&prices[x]));
        self.ties.clear();
        if self.plan.depth == 1 {
            for &i in &order {
                self.ties.offer(prices[i], legal[i]);
            }
        } else {
            for &i in order.iter().take(usize::from(self.plan.root)) {
                let mut next = self.copy(0, state);
                next.play_unchecked(legal[i]);
                let v = self.value(&next, seat, self.plan.depth - 1, 1, false);
                self.give_back(0, next);
                self.ties.offer(v, legal[i]);
            }
        }
        self.prices[top] = prices;
        self.order[top] = order;
        self.ties.pick(&mut self.dice).unwrap_or(legal[0])
    }
}

impl<G: Game> Player<G::State> for ExpectiBot<G> {
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
        let mut legal = std::mem::take(&mut self.legal[0]);
        state.legal_actions(&mut legal);
        let action = match legal.len() {
            0 => state.random_action(&mut self.dice),
            1 => legal[0],
            _ => self.decide(state, seat, &legal),
        };
        self.legal[0] = legal;
        Ok(action)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::roots_growy_roots::{RootsGrowyRoots, Rules};

    type S = <RootsGrowyRoots as Game>::State;

    /// The tree `plan` describes, searched without buffers, scratch copies
    /// or the game's fast pricer: every price played on a copy.
    fn reference(state: &S, root: Seat, left: u8, drawn: bool, plan: Expecti) -> f64 {
        let eval = |s: &S| RootsGrowyRoots::evaluate(s, root);
        match state.next() {
            Next::Over => eval(state),
            Next::Draw | Next::Chance(_) if left == 0 || drawn => eval(state),
            Next::Draw => {
                let (mut sum, mut seen) = (0.0, 0u64);
                for (k, &w) in state.draw_weights().iter().enumerate() {
                    let mut next = state.clone();
                    if w > 0 && next.roll(k as u8 + 1).is_ok() {
                        sum += f64::from(w) * reference(&next, root, left, true, plan);
                        seen += u64::from(w);
                    }
                }
                sum / seen as f64
            }
            Next::Chance(_) => unreachable!("no dice in Roots Growy Roots"),
            Next::Decide(_) if left == 0 => eval(state),
            Next::Decide(seat) if seat != root && !plan.replies => eval(state),
            Next::Decide(seat) => {
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                if legal.is_empty() {
                    return eval(state);
                }
                let children: Vec<(f64, S)> = legal
                    .iter()
                    .map(|&a| {
                        let mut next = state.clone();
                        next.play(a).unwrap();
                        (RootsGrowyRoots::evaluate(&next, seat), next)
                    })
                    .collect();
                if seat == root {
                    if left == 1 {
                        return children
                            .iter()
                            .map(|c| c.0)
                            .fold(f64::NEG_INFINITY, f64::max);
                    }
                    let mut order: Vec<usize> = (0..children.len()).collect();
                    order.sort_by(|&x, &y| children[y].0.total_cmp(&children[x].0));
                    order
                        .iter()
                        .take(usize::from(plan.width))
                        .map(|&i| reference(&children[i].1, root, left - 1, false, plan))
                        .fold(f64::NEG_INFINITY, f64::max)
                } else {
                    let mut pick = 0;
                    for (i, c) in children.iter().enumerate() {
                        if c.0 > children[pick].0 + EPSILON {
                            pick = i;
                        }
                    }
                    reference(&children[pick].1, root, left - 1, false, plan)
                }
            }
        }
    }

    /// Positions with a choice to make, from seeded games of greedy
    /// players (`seats` seats, the abilities house rule when `abilities`).
    fn positions(seed: u64, seats: u8, abilities: bool, mut f: impl FnMut(&S)) {
        let mut rules = Rules::standard();
        rules.artifacts.abilities = abilities;
        let mut state = RootsGrowyRoots::new_state(Arc::new(rules), seats).unwrap();
        let mut greedy = RootsGrowyRoots::bot(
            crate::core::player::BotSpec::Greedy,
            &SeededDice::new(seed, 1),
        )
        .unwrap();
        let mut dice = SeededDice::new(seed, 2);
        let mut legal = Vec::new();
        loop {
            match state.next() {
                Next::Over => break,
                Next::Decide(_) => {
                    state.legal_actions(&mut legal);
                    if legal.len() > 1 {
                        f(&state);
                    }
                    let a = greedy.choose(&state).unwrap();
                    state.play(a).unwrap();
                }
                _ => {
                    let face = dice.draw(state.draw_weights());
                    state.roll(face).unwrap();
                }
            }
        }
    }

    /// The search's values are those of the tree its plan describes: every
    /// card weighed by the cards of its kind left (the counts every seat
    /// sees: a face-down card has no identity before it is drawn), the
    /// root seat's best moves, the other seats' greedy answers or the
    /// evaluation, as the plan says; for 2 to 4 seats, with and without
    /// the abilities.
    #[test]
    fn values_are_the_tree_of_the_plan() {
        let plans = [
            Expecti::new(8, 1, 2, false),
            Expecti::new(3, 2, 3, true),
            Expecti::new(2, 2, 3, false),
        ];
        let mut checked = 0;
        for (k, plan) in plans.into_iter().enumerate() {
            let mut bot = ExpectiBot::<RootsGrowyRoots>::new(SeededDice::new(1, 0), plan, "t");
            for seats in 2..=4u8 {
                let abilities = seats == 3 || k == 1;
                let mut n = 0;
                positions(10 + u64::from(seats), seats, abilities, |state| {
                    n += 1;
                    let Next::Decide(seat) = state.next() else {
                        return;
                    };
                    if n % 3 != 0 {
                        return;
                    }
                    let mut legal = Vec::new();
                    state.legal_actions(&mut legal);
                    for &a in legal.iter().take(3) {
                        let mut child = state.clone();
                        child.play(a).unwrap();
                        let exact = reference(&child, seat, plan.depth - 1, false, plan);
                        let v = bot.value(&child, seat, plan.depth - 1, 1, false);
                        assert!((v - exact).abs() < 1e-9, "{v} against {exact}, {plan:?}");
                        checked += 1;
                    }
                });
            }
        }
        assert!(checked > 500, "{checked} values checked");
    }

    /// One decision is greedy: the action played is one greedy prices
    /// best, at one price per legal action.
    #[test]
    fn one_decision_plays_a_best_greedy_action() {
        let mut bot = ExpectiBot::<RootsGrowyRoots>::new(
            SeededDice::new(2, 0),
            Expecti::new(8, 1, 1, false),
            "t",
        );
        let mut seen = 0;
        positions(3, 2, false, |state| {
            let Next::Decide(seat) = state.next() else {
                return;
            };
            let chosen = bot.choose(state).unwrap();
            let spent = bot.last_evaluations();
            crate::games::assert_a_best_price::<RootsGrowyRoots>(state, seat, chosen, spent);
            seen += 1;
        });
        assert!(seen > 10, "{seen} decisions");
    }

    /// The search sees past the card: at some decisions of seeded games it
    /// plays a move greedy does not, one whose value one decision further
    /// is higher than greedy's move's (never lower); and the same dice
    /// play the same moves.
    #[test]
    fn it_sees_past_the_card_and_replays_its_choices() {
        let plan = Expecti::new(8, 1, 2, false);
        let mut a = ExpectiBot::<RootsGrowyRoots>::new(SeededDice::new(7, 0), plan, "t");
        let mut b = ExpectiBot::<RootsGrowyRoots>::new(SeededDice::new(7, 0), plan, "t");
        let (mut decisions, mut better) = (0, 0);
        for seed in 20..24 {
            positions(seed, 2, false, |state| {
                let Next::Decide(seat) = state.next() else {
                    return;
                };
                let mine = a.choose(state).unwrap();
                assert_eq!(mine, b.choose(state).unwrap());
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                let price = |x| {
                    let mut next = state.clone();
                    next.play(x).unwrap();
                    (RootsGrowyRoots::evaluate(&next, seat), next)
                };
                let greedy_best = legal
                    .iter()
                    .map(|&x| price(x).0)
                    .fold(f64::NEG_INFINITY, f64::max);
                let deeper = |x| reference(&price(x).1, seat, 1, false, plan);
                let ours = deeper(mine);
                let tied: Vec<_> = legal
                    .iter()
                    .filter(|&&x| price(x).0 >= greedy_best - EPSILON)
                    .collect();
                // Every move greedy might play is worth no more (when they
                // all fit in the root's width).
                if tied.len() <= usize::from(plan.root) {
                    for &&x in &tied {
                        assert!(deeper(x) <= ours + 1e-9, "{x:?} above {mine:?}");
                    }
                }
                better += u32::from(price(mine).0 < greedy_best - EPSILON);
                decisions += 1;
            });
        }
        assert!(decisions > 50, "{decisions} decisions");
        assert!(better > 0, "greedy's move in all {decisions} decisions");
    }
}
