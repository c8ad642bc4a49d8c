//! Monte Carlo tree search for any game: open-loop UCT through the chance
//! and decision nodes of the protocol.
//!
//! Each iteration copies the root position and walks down the tree. Chance
//! nodes are not tree nodes: the bot rolls them with its own dice, so a tree
//! node stands for a sequence of decisions under every roll seen so far
//! (open loop); an edge whose action is not legal under this iteration's
//! rolls is skipped. A node holds the decisions of one seat: when other
//! rolls or cards leave another seat to move after the same decisions (a
//! card that ends the turn), that seat's decisions go to a node of their
//! own, linked from the first. A node is expanded one untried legal action
//! at a time; among tried ones UCB1 picks (its constant the game's,
//! [`Growth::exploration`]), with the reward of the seat deciding there.
//! Below the tree a random playout (the engine's sampler) runs as the game
//! asks ([`Game::playout`]): by default to the end of the game, or for at
//! most [`PLAYOUT_STEPS`] steps, after which the seat the game's evaluation
//! ([`Game::evaluate`]) ranks first takes the point; or, for a game whose
//! random playouts say little, for a few decisions only
//! ([`Playout::Cut`]; with `at_draw`, also stopping at a card about to be
//! drawn, whose expectation the evaluation gives), after which each seat
//! scores the logistic of its evaluation, a value in 0..1. A finished game
//! counts 1 for a sole winner and `1/k` for each of `k` tied winners. The move played is the most
//! visited child of the root.
//!
//! How the tree grows is a game's choice too ([`Growth`]): nodes may be
//! expanded best first by the one-step evaluation (guided: the search then
//! starts from greedy's choice instead of a random one, which matters when a
//! node has more actions than the budget has iterations), and with
//! progressive widening a node visited `n` times has at most about
//! `c * sqrt(n)` children, so the iterations go deeper into the best-ranked
//! lines instead of trying every action once. A guided node prices all its
//! actions at once, when first reached ([`Game::action_values`]: greedy's
//! prices), and with a prior ([`Growth::prior`]) each new child starts
//! with virtual visits of its price, so that its first playouts do not
//! rank it alone.
//!
//! Everything is deterministic given the bot's [`SeededDice`].

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{Budget, Growth, NoAction, Player, Playout};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{ActionOf, Game};

/// Most decisions a tree path holds.
const MAX_DEPTH: usize = 64;
/// Most rolls and decisions of one playout below the tree.
pub const PLAYOUT_STEPS: u32 = 2_000;
/// Most seats a reward vector holds.
const MAX_SEATS: usize = 8;

#[derive(Debug)]
struct Edge<A> {
    action: A,
    child: u32,
    visits: u32,
    /// Sum of the rewards of the seat deciding at the parent.
    reward: f64,
    /// Virtual visits of the action's one-step value ([`Growth::prior`]).
    prior_visits: f64,
    /// Their rewards' sum.
    prior_reward: f64,
}

impl<A> Edge<A> {
    /// The edge's mean reward and its visits, virtual ones included.
    fn mean(&self) -> (f64, f64) {
        let v = f64::from(self.visits) + self.prior_visits;
        if v <= 0.0 {
            return (0.0, 1.0);
        }
        ((self.reward + self.prior_reward) / v, v.max(1.0))
    }
}

/// A tree node: the decisions of one seat after one sequence of decisions.
/// Open loop, the same sequence may under other rolls or cards leave
/// another seat to decide (a card that ends the turn): that seat's
/// decisions are another node, linked from the first (`other`), so a
/// node's children and statistics are never two seats' mixed.
#[derive(Debug)]
struct Node<A> {
    visits: u32,
    /// The seat deciding here (set when the node is first reached).
    seat: Option<Seat>,
    /// The node of the same decisions for another seat to move (0: none;
    /// the root is never one).
    other: u32,
    edges: Vec<Edge<A>>,
    /// The legal actions when the node was first reached, best first by the
    /// one-step evaluation of the seat deciding, with it (guided expansion
    /// only).
    order: Vec<(A, f64)>,
    ordered: bool,
}

impl<A> Node<A> {
    fn new() -> Node<A> {
        Node {
            visits: 0,
            seat: None,
            other: 0,
            edges: Vec::new(),
            order: Vec::new(),
            ordered: false,
        }
    }
}

/// Monte Carlo tree search player of game `G`.
pub struct MctsBot<G: Game> {
    dice: SeededDice,
    budget: Budget,
    playout: Playout,
    growth: Growth,
    /// Iterations of the last search.
    iterations: u32,
    nodes: Vec<Node<ActionOf<G>>>,
    legal: Vec<ActionOf<G>>,
    untried: Vec<ActionOf<G>>,
    values: Vec<f64>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for MctsBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MctsBot")
            .field("game", &G::ID)
            .field("budget", &self.budget)
            .finish()
    }
}

impl<G: Game> MctsBot<G> {
    pub fn new(dice: SeededDice, iterations: u32) -> MctsBot<G> {
        MctsBot::with_budget(dice, Budget::Iterations(iterations.max(1)))
    }

    /// A search of this many iterations or milliseconds per decision.
    pub fn with_budget(dice: SeededDice, budget: Budget) -> MctsBot<G> {
        MctsBot {
            dice,
            budget,
            playout: G::playout(),
            growth: Growth::PLAIN,
            iterations: 0,
            nodes: Vec::new(),
            legal: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            values: Vec::with_capacity(64),
            game: PhantomData,
        }
    }

    /// The same bot ending its playouts as `playout` says rather than as
    /// the game asks (tests and experiments).
    pub fn with_playout(mut self, playout: Playout) -> MctsBot<G> {
        self.playout = playout;
        self
    }

    /// The same bot growing its tree as `growth` says.
    pub fn with_growth(mut self, growth: Growth) -> MctsBot<G> {
        self.growth = growth;
        self
    }

    /// The iterations the last search ran (0 when the decision was forced).
    pub fn last_iterations(&self) -> u32 {
        self.iterations
    }

    /// Run the search from `root` and return the most visited action.
    pub fn search(&mut self, root: &G::State) -> Option<ActionOf<G>> {
        self.iterations = 0;
        let Next::Decide(_) = root.next() else {
            return None;
        };
        root.legal_actions(&mut self.legal);
        match self.legal.len() {
            0 => return None,
            1 => return Some(self.legal[0]),
            _ => {}
        }
        self.nodes.clear();
        self.nodes.push(Node::new());
        let mut path: Vec<(u32, usize, Seat)> = Vec::with_capacity(MAX_DEPTH);
        let mut iterations = 0u32;
        self.budget.run(|| {
            iterations += 1;
            path.clear();
            let mut state = root.clone();
            self.descend(&mut state, &mut path);
            let rewards = self.playout(&mut state);
            for &(node, edge, seat) in &path {
                let n = &mut self.nodes[node as usize];
                debug_assert_eq!(n.seat, Some(seat), "node {node} decided by two seats");
                n.visits += 1;
                let e = &mut n.edges[edge];
                e.visits += 1;
                e.reward += rewards[usize::from(seat)];
            }
        });
        self.iterations = iterations;
        self.nodes[0]
            .edges
            .iter()
            .max_by(|a, b| {
                a.visits.cmp(&b.visits).then(
                    (a.reward / f64::from(a.visits.max(1)))
                        .total_cmp(&(b.reward / f64::from(b.visits.max(1)))),
                )
            })
            .map(|e| e.action)
    }

    /// The node standing for `node`'s decisions with `seat` to move: `node`
    /// itself when it is that seat's (or new), else the one linked from it,
    /// made when first needed.
    fn node_for(&mut self, node: u32, seat: Seat) -> u32 {
        let mut n = node;
        let len = self.nodes.len() as u32;
        loop {
            let here = &mut self.nodes[n as usize];
            match here.seat {
                None => {
                    here.seat = Some(seat);
                    return n;
                }
                Some(s) if s == seat => return n,
                Some(_) if here.other != 0 => n = here.other,
                Some(_) => {
                    let new = len;
                    here.other = new;
                    let mut fresh = Node::new();
                    fresh.seat = Some(seat);
                    self.nodes.push(fresh);
                    return new;
                }
            }
        }
    }

    /// Walk the tree from the root, expanding one new edge.
    fn descend(&mut self, state: &mut G::State, path: &mut Vec<(u32, usize, Seat)>) {
        let mut node = 0u32;
        while path.len() < MAX_DEPTH {
            let seat = match state.next() {
                Next::Chance(die) => {
                    state.roll_unchecked(self.dice.roll(die));
                    continue;
                }
                Next::Draw => {
                    // A chance node: a card sampled from what is left of
                    // its deck, never the card the physical game would show.
                    let face = self.dice.draw(state.draw_weights());
                    state.roll_unchecked(face);
                    continue;
                }
                Next::Over => return,
                Next::Decide(seat) => seat,
            };
            node = self.node_for(node, seat);
            state.legal_actions(&mut self.legal);
            if self.growth.guided && !self.nodes[node as usize].ordered {
                self.order(node, state, seat);
            }
            let room = {
                let n = &self.nodes[node as usize];
                self.growth.widening <= 0.0
                    || (n.edges.len() as f64)
                        < (self.growth.widening * f64::from(n.visits + 1).sqrt()).ceil()
            };
            let mut pick = if room { self.untried(node) } else { None };
            if pick.is_none()
                && !self.nodes[node as usize]
                    .edges
                    .iter()
                    .any(|e| self.legal.contains(&e.action))
            {
                // Every child is illegal under this iteration's rolls.
                pick = self.untried(node);
            }
            if let Some(pick) = pick {
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new());
                let (prior_visits, prior_reward) = self.prior(node, pick);
                let edges = &mut self.nodes[node as usize].edges;
                edges.push(Edge {
                    action: pick,
                    child,
                    visits: 0,
                    reward: 0.0,
                    prior_visits,
                    prior_reward,
                });
                path.push((node, edges.len() - 1, seat));
                state.play_unchecked(pick);
                return;
            }
            let n = &self.nodes[node as usize];
            let log = f64::from(n.visits.max(1)).ln();
            let best = n
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| self.legal.contains(&e.action))
                .map(|(i, e)| {
                    let (mean, v) = e.mean();
                    (i, mean + self.growth.exploration * (log / v).sqrt())
                })
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(i, _)| i);
            let Some(i) = best else { return };
            let e = &n.edges[i];
            let (action, child) = (e.action, e.child);
            path.push((node, i, seat));
            state.play_unchecked(action);
            node = child;
        }
    }

    /// Rank the legal actions (`self.legal`) of `node`, best first for
    /// `seat` by the one-step evaluation.
    fn order(&mut self, node: u32, state: &G::State, seat: Seat) {
        G::action_values(state, seat, &self.legal, &mut self.values);
        let mut ranked: Vec<(ActionOf<G>, f64)> = self
            .legal
            .iter()
            .copied()
            .zip(self.values.iter().copied())
            .collect();
        // Stable: equal values keep the legal order.
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let n = &mut self.nodes[node as usize];
        n.order = ranked;
        n.ordered = true;
    }

    /// The virtual visits a new child of `node` for `action` starts with,
    /// and their rewards' sum: [`Growth::prior`] visits of the logistic of
    /// the action's one-step value (none when the node was not ranked with
    /// the action legal).
    fn prior(&self, node: u32, action: ActionOf<G>) -> (f64, f64) {
        let visits = self.growth.prior;
        if visits <= 0.0 {
            return (0.0, 0.0);
        }
        let n = &self.nodes[node as usize];
        let Some(&(_, value)) = n.order.iter().find(|(a, _)| *a == action) else {
            return (0.0, 0.0);
        };
        let scale = match self.playout {
            Playout::Cut { scale, .. } if scale > 0.0 => scale,
            _ => 1.0,
        };
        (visits, visits / (1.0 + (-value / scale).exp()))
    }

    /// The next action of `node` to expand: legal now, not yet a child;
    /// the best ranked when the node is ranked, else drawn at random.
    fn untried(&mut self, node: u32) -> Option<ActionOf<G>> {
        let n = &self.nodes[node as usize];
        let new = |a: &ActionOf<G>| !n.edges.iter().any(|e| e.action == *a);
        if let Some(&(a, _)) = n
            .order
            .iter()
            .find(|(a, _)| new(a) && self.legal.contains(a))
        {
            return Some(a);
        }
        self.untried.clear();
        self.untried
            .extend(self.legal.iter().copied().filter(|a| new(a)));
        if self.untried.is_empty() {
            return None;
        }
        Some(self.untried[self.dice.below(self.untried.len() as u32) as usize])
    }

    /// Play on at random as the game asks ([`Game::playout`]); the reward
    /// of each seat.
    fn playout(&mut self, state: &mut G::State) -> [f64; MAX_SEATS] {
        let (mut decisions_left, scale, at_draw) = match self.playout {
            Playout::ToTheEnd => (u32::MAX, None, false),
            Playout::Cut {
                decisions,
                scale,
                at_draw,
            } => (decisions, Some(scale), at_draw),
        };
        let mut steps = 0;
        while steps < PLAYOUT_STEPS {
            match state.next() {
                Next::Chance(die) => state.roll_unchecked(self.dice.roll(die)),
                Next::Draw => {
                    if at_draw {
                        // The evaluation takes the cards as they may come.
                        break;
                    }
                    let face = self.dice.draw(state.draw_weights());
                    state.roll_unchecked(face);
                }
                Next::Decide(_) => {
                    if decisions_left == 0 {
                        break;
                    }
                    decisions_left -= 1;
                    let a = state.random_action(&mut self.dice);
                    state.play_unchecked(a);
                }
                Next::Over => break,
            }
            steps += 1;
        }
        let mut rewards = [0.0; MAX_SEATS];
        let seats = state.seats().min(MAX_SEATS);
        let outcome = state.outcome();
        if let (None, Some(scale)) = (&outcome, scale) {
            let scale = if scale > 0.0 { scale } else { 1.0 };
            G::evaluate_all(state, seats, &mut self.values);
            for (r, v) in rewards.iter_mut().zip(&self.values).take(seats) {
                *r = 1.0 / (1.0 + (-v / scale).exp());
            }
            return rewards;
        }
        let winners: Vec<usize> = match outcome {
            Some(o) => o.winners.iter().map(|&w| usize::from(w)).collect(),
            None => {
                let values: Vec<f64> = (0..seats).map(|s| G::evaluate(state, s as Seat)).collect();
                let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (0..seats)
                    .filter(|&s| (values[s] - best).abs() <= 1e-9)
                    .collect()
            }
        };
        let share = 1.0 / winners.len().max(1) as f64;
        for w in winners {
            if w < seats {
                rewards[w] = share;
            }
        }
        rewards
    }
}

impl<G: Game> Player<G::State> for MctsBot<G> {
    fn name(&self) -> String {
        self.budget.name()
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        Ok(match self.search(state) {
            Some(a) => a,
            None => state.random_action(&mut self.dice),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::roots_growy_roots::{RootsGrowyRoots, Rules, State};

    /// Seeded Roots Growy Roots games played by greedy choices; `f` sees
    /// every decision with more than one legal action, then every card
    /// about to be drawn.
    fn positions(seats: u8, seed: u64, mut f: impl FnMut(&State)) {
        let mut state = State::new(Arc::new(Rules::standard()), seats).unwrap();
        let mut dice = SeededDice::for_game(seed, 0);
        let mut greedy =
            crate::games::roots_growy_roots::greedy::FastGreedy::new(SeededDice::for_game(seed, 1));
        let mut legal = Vec::new();
        loop {
            match state.next() {
                Next::Over => break,
                Next::Decide(_) => {
                    state.legal_actions(&mut legal);
                    if legal.len() > 1 {
                        f(&state);
                    }
                    state.play(greedy.choose(&state).unwrap()).unwrap();
                }
                _ => {
                    f(&state);
                    let face = dice.draw(state.draw_weights());
                    state.roll(face).unwrap();
                }
            }
        }
    }

    /// A card turned over in the tree may end the turn (a stone, the last
    /// stick), so the same decisions leave another seat to move: the search
    /// then keeps that seat's decisions in a node of its own, linked from
    /// the first. The case arises in these games, every linked chain holds
    /// distinct seats, and the backup (debug builds) finds every node
    /// decided by its one seat; each child made from a ranked node starts
    /// with the prior's virtual visits of its action's one-step value.
    #[test]
    fn a_node_holds_one_seats_decisions() {
        let growth = RootsGrowyRoots::style().growth;
        assert!(growth.prior > 0.0);
        let (mut linked, mut searched, mut priced) = (0, 0, 0);
        for seats in [2u8, 3] {
            positions(seats, 3, |state| {
                if !matches!(state.next(), Next::Decide(_)) {
                    return;
                }
                let mut bot =
                    MctsBot::<RootsGrowyRoots>::new(SeededDice::new(9, 0), 60).with_growth(growth);
                bot.search(state).unwrap();
                searched += 1;
                for (i, n) in bot.nodes.iter().enumerate() {
                    if n.other != 0 {
                        linked += 1;
                        let mut seen = vec![n.seat.unwrap()];
                        let mut m = n.other as usize;
                        while m != 0 {
                            let s = bot.nodes[m].seat.unwrap();
                            assert!(!seen.contains(&s), "node {i}: seat {s} twice");
                            seen.push(s);
                            m = bot.nodes[m].other as usize;
                        }
                    }
                    for e in &n.edges {
                        if let Some(&(_, v)) = n.order.iter().find(|(a, _)| *a == e.action) {
                            priced += 1;
                            assert_eq!(e.prior_visits, growth.prior);
                            let want = growth.prior / (1.0 + (-v / 2.0).exp());
                            assert!((e.prior_reward - want).abs() < 1e-12);
                        }
                    }
                }
            });
        }
        assert!(searched > 50, "{searched} searches");
        assert!(
            linked > 0,
            "no decisions of two seats in {searched} searches"
        );
        assert!(priced > 1000, "{priced} children priced");
    }

    /// A playout cut at a card (`at_draw`) stops there, the card not drawn,
    /// and scores each seat the logistic of the evaluation, the expectation
    /// over the cards left; without `at_draw` the card is drawn.
    #[test]
    fn a_playout_cut_at_a_draw_takes_the_expectation() {
        let mut draws = 0;
        positions(2, 5, |state| {
            if state.next() != Next::Draw {
                return;
            }
            draws += 1;
            let cut = |at_draw| Playout::Cut {
                decisions: 0,
                scale: 2.0,
                at_draw,
            };
            let mut bot =
                MctsBot::<RootsGrowyRoots>::new(SeededDice::new(1, 0), 1).with_playout(cut(true));
            let mut copy = state.clone();
            let rewards = bot.playout(&mut copy);
            assert_eq!(copy.next(), Next::Draw);
            for s in 0..2u8 {
                let v = RootsGrowyRoots::evaluate(state, s);
                let want = 1.0 / (1.0 + (-v / 2.0).exp());
                assert_eq!(rewards[usize::from(s)].to_bits(), want.to_bits());
            }
            let mut bot =
                MctsBot::<RootsGrowyRoots>::new(SeededDice::new(1, 0), 1).with_playout(cut(false));
            let mut copy = state.clone();
            bot.playout(&mut copy);
            assert_ne!(copy.next(), Next::Draw);
        });
        assert!(draws > 10, "{draws} draws");
    }
}
