//! A few plies of look-ahead on the game's own evaluation: alpha-beta
//! (minimax from the deciding seat's point of view) with greedy's move
//! order and only the best few moves searched at the inner plies.
//!
//! At each node every legal action is played on a copy and priced by
//! [`Game::evaluate`] for the seat at the root (greedy's one-step prices);
//! the seat at the root takes the highest value, every other seat the
//! lowest (two seats whose evaluation is zero-sum: Branches & Twigs &
//! Thorns, Sprout-R-Out). With plies left below a node, only the
//! [`Lookahead::widths`] best children by that price are searched further,
//! in that order, with alpha-beta cuts; at the last ply the prices are the
//! values. A chance node, a draw or a finished game is a leaf: the search
//! is meant for games without chance. A ply is one decision, so in a game
//! whose turn is several decisions of one seat the plies follow the turn.
//!
//! The cost is fixed by the widths, never by a clock: at most
//! `n * (1 + w1 + w1 * w2 + ...)` evaluations for `n` actions a node, and
//! the cuts save some. Among root actions of equal value the bot's dice
//! choose, as greedy's do; so a game stays a function of its seed.

use std::marker::PhantomData;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player, Ties};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{ActionOf, Game};

/// Values closer than this are equal.
const EPSILON: f64 = Ties::<()>::EPSILON;
/// Most plies searched (the widths' length plus the last ply).
pub const MAX_PLIES: usize = 6;

/// How deep and how wide the look-ahead searches: one ply per width plus a
/// last one. `widths[0]` best root actions are searched further, each with
/// `widths[1]` best replies, and so on; the last ply is priced only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lookahead {
    widths: [u8; MAX_PLIES - 1],
    len: u8,
}

impl Lookahead {
    /// A look-ahead of `widths.len() + 1` plies (at most [`MAX_PLIES`];
    /// a width of 0 counts as 1).
    pub const fn new(widths: &[u8]) -> Lookahead {
        let mut w = [1u8; MAX_PLIES - 1];
        let mut i = 0;
        while i < widths.len() && i < MAX_PLIES - 1 {
            w[i] = if widths[i] == 0 { 1 } else { widths[i] };
            i += 1;
        }
        Lookahead {
            widths: w,
            len: i as u8,
        }
    }

    /// The widths of the inner plies.
    pub fn widths(&self) -> &[u8] {
        &self.widths[..usize::from(self.len)]
    }

    /// Plies searched, the last one included.
    pub fn plies(&self) -> usize {
        usize::from(self.len) + 1
    }
}

/// The look-ahead player of game `G`.
pub struct LookaheadBot<G: Game> {
    dice: SeededDice,
    plan: Lookahead,
    name: String,
    /// Evaluations of the last decision (for tests and tuning).
    evaluations: u64,
    /// One buffer of actions and one of priced children per ply.
    legal: Vec<Vec<ActionOf<G>>>,
    priced: Vec<Vec<(f64, usize)>>,
    /// The best action last found at each ply (killer moves).
    killers: Vec<Option<ActionOf<G>>>,
    ties: Ties<ActionOf<G>>,
    game: PhantomData<G>,
}

impl<G: Game> std::fmt::Debug for LookaheadBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LookaheadBot")
            .field("game", &G::ID)
            .field("plan", &self.plan)
            .finish()
    }
}

impl<G: Game> LookaheadBot<G> {
    /// A bot searching as `plan` says, named `name` in reports.
    pub fn new(dice: SeededDice, plan: Lookahead, name: impl Into<String>) -> LookaheadBot<G> {
        let plies = plan.plies();
        LookaheadBot {
            dice,
            plan,
            name: name.into(),
            evaluations: 0,
            legal: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            priced: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            killers: vec![None; plies],
            ties: Ties::default(),
            game: PhantomData,
        }
    }

    /// The evaluations the last decision cost.
    pub fn last_evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The value for `root` of `state`, `ply` plies below the root, within
    /// the window `alpha..beta` (a value outside it is only a bound).
    fn value(&mut self, state: &G::State, root: Seat, ply: usize, alpha: f64, beta: f64) -> f64 {
        let Next::Decide(seat) = state.next() else {
            self.evaluations += 1;
            return G::evaluate(state, root);
        };
        let mut legal = std::mem::take(&mut self.legal[ply]);
        state.legal_actions(&mut legal);
        if legal.is_empty() {
            self.legal[ply] = legal;
            self.evaluations += 1;
            return G::evaluate(state, root);
        }
        let maximize = seat == root;
        let last = ply + 1 >= self.plan.plies();
        let (mut alpha, mut beta) = (alpha, beta);
        let mut best = if maximize {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        if last {
            // The last ply: the prices are the values, and a price past
            // the window ends the node at once.
            // The last ply's best action at a sibling first (a killer):
            // often the best here too, and then the cut comes at once.
            // The order changes no value inside the window.
            let killer = self.killers[ply].filter(|k| legal.contains(k));
            if let Some(k) = killer
                && let Some(i) = legal.iter().position(|a| *a == k)
            {
                legal.swap(0, i);
            }
            let mut best_action = None;
            for &a in &legal {
                let mut next = state.clone();
                next.play_unchecked(a);
                self.evaluations += 1;
                let v = G::evaluate(&next, root);
                let better = if maximize { v > best } else { v < best };
                if better {
                    best = v;
                    best_action = Some(a);
                }
                if (maximize && best >= beta) || (!maximize && best <= alpha) {
                    break;
                }
            }
            if best_action.is_some() {
                self.killers[ply] = best_action;
            }
            self.legal[ply] = legal;
            return best;
        }
        let mut priced = std::mem::take(&mut self.priced[ply]);
        self.price(state, &legal, root, &mut priced);
        // Best first for the seat deciding; stable, so equal prices keep
        // the legal order.
        if maximize {
            priced.sort_by(|x, y| y.0.total_cmp(&x.0));
        } else {
            priced.sort_by(|x, y| x.0.total_cmp(&y.0));
        }
        let width = usize::from(self.plan.widths[ply]);
        for k in 0..priced.len().min(width) {
            let a = legal[priced[k].1];
            let mut next = state.clone();
            next.play_unchecked(a);
            let v = self.value(&next, root, ply + 1, alpha, beta);
            if maximize {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.priced[ply] = priced;
        self.legal[ply] = legal;
        best
    }

    /// Greedy's one-step price of each of `legal` for `seat`, with its
    /// index, into `priced` (cleared first).
    fn price(
        &mut self,
        state: &G::State,
        legal: &[ActionOf<G>],
        seat: Seat,
        priced: &mut Vec<(f64, usize)>,
    ) {
        priced.clear();
        for (i, &a) in legal.iter().enumerate() {
            let mut next = state.clone();
            next.play_unchecked(a);
            self.evaluations += 1;
            priced.push((G::evaluate(&next, seat), i));
        }
    }

    /// The action to play at `state`, where `seat` decides among
    /// `self.legal[0]` (at least two actions).
    fn decide(&mut self, state: &G::State, seat: Seat) -> ActionOf<G> {
        let legal = std::mem::take(&mut self.legal[0]);
        let mut priced = std::mem::take(&mut self.priced[0]);
        self.price(state, &legal, seat, &mut priced);
        // Equal prices in the order of the bot's dice, as greedy's dice
        // choose among them (the first listed would be a bias).
        self.dice.shuffle(&mut priced);
        priced.sort_by(|x, y| y.0.total_cmp(&x.0));
        self.ties.clear();
        if self.plan.plies() == 1 {
            for &(v, i) in priced.iter() {
                self.ties.offer(v, legal[i]);
            }
        } else {
            let width = usize::from(self.plan.widths[0]);
            for &(_, i) in priced.iter().take(width) {
                let a = legal[i];
                let mut next = state.clone();
                next.play_unchecked(a);
                // Just below the best so far: an action as good as the
                // best gets its exact value and joins the ties.
                let floor = self.ties.best() - EPSILON;
                let v = self.value(&next, seat, 1, floor, f64::INFINITY);
                self.ties.offer(v, a);
            }
        }
        self.priced[0] = priced;
        self.legal[0] = legal;
        self.ties.pick(&mut self.dice).unwrap_or(self.legal[0][0])
    }
}

impl<G: Game> Player<G::State> for LookaheadBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        self.evaluations = 0;
        self.killers.fill(None);
        let Next::Decide(seat) = state.next() else {
            // Not a decision: the caller broke the contract; answer with
            // whatever the engine's sampler gives rather than panic.
            return Ok(state.random_action(&mut self.dice));
        };
        state.legal_actions(&mut self.legal[0]);
        match self.legal[0].len() {
            0 => return Ok(state.random_action(&mut self.dice)),
            1 => return Ok(self.legal[0][0]),
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
    use crate::games::branches::Branches;

    /// The same top-k tree searched without cuts or killers: every node's
    /// value exact.
    fn minimax(state: &<Branches as Game>::State, root: Seat, ply: usize, plan: Lookahead) -> f64 {
        let Next::Decide(seat) = state.next() else {
            return Branches::evaluate(state, root);
        };
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        if legal.is_empty() {
            return Branches::evaluate(state, root);
        }
        let maximize = seat == root;
        let mut priced: Vec<(f64, <Branches as Game>::State)> = legal
            .iter()
            .map(|&a| {
                let mut next = state.clone();
                next.play_unchecked(a);
                (Branches::evaluate(&next, root), next)
            })
            .collect();
        let values: Vec<f64> = if ply + 1 >= plan.plies() {
            priced.iter().map(|p| p.0).collect()
        } else {
            if maximize {
                priced.sort_by(|x, y| y.0.total_cmp(&x.0));
            } else {
                priced.sort_by(|x, y| x.0.total_cmp(&y.0));
            }
            let width = usize::from(plan.widths()[ply]);
            priced
                .iter()
                .take(width)
                .map(|(_, next)| minimax(next, root, ply + 1, plan))
                .collect()
        };
        let fold = if maximize { f64::max } else { f64::min };
        let start = if maximize {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        values.into_iter().fold(start, fold)
    }

    /// Positions of seeded greedy games of `btt` with a choice to make.
    fn positions(seed: u64, mut f: impl FnMut(&<Branches as Game>::State)) {
        let mut state = Branches::new_state(Arc::new(Branches::standard()), 2).unwrap();
        let mut greedy = GreedyBot::<Branches>::new(SeededDice::new(seed, 1));
        let mut legal = Vec::new();
        while let Next::Decide(_) = state.next() {
            state.legal_actions(&mut legal);
            if legal.len() > 1 {
                f(&state);
            }
            let a = greedy.choose(&state).unwrap();
            state.play(a).unwrap();
        }
    }

    /// Alpha-beta with killers gives the exact value of the top-k tree
    /// inside its window and a bound on the right side outside it, and the
    /// cuts save evaluations.
    #[test]
    fn the_cuts_keep_the_values_of_the_tree() {
        let plan = Lookahead::new(&[3, 2, 2]);
        let mut bot = LookaheadBot::<Branches>::new(SeededDice::new(1, 0), plan, "t");
        let (mut checked, mut cut) = (0, 0);
        for seed in 1..3 {
            positions(seed, |state| {
                let Next::Decide(seat) = state.next() else {
                    return;
                };
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                for &a in legal.iter().take(4) {
                    let mut child = state.clone();
                    child.play_unchecked(a);
                    let exact = minimax(&child, seat, 1, plan);
                    bot.evaluations = 0;
                    let v = bot.value(&child, seat, 1, f64::NEG_INFINITY, f64::INFINITY);
                    assert!((v - exact).abs() < 1e-9, "{v} against {exact}");
                    let full = bot.evaluations;
                    // A window the value is above, then below.
                    let v = bot.value(&child, seat, 1, exact - 2.0, exact - 1.0);
                    assert!(v >= exact - 1.0 - 1e-9, "{v} against {exact}");
                    let v = bot.value(&child, seat, 1, exact + 1.0, exact + 2.0);
                    assert!(v <= exact + 1.0 + 1e-9, "{v} against {exact}");
                    let (a1, b1) = (exact - 0.5, exact + 0.5);
                    bot.evaluations = 0;
                    let v = bot.value(&child, seat, 1, a1, b1);
                    assert!((v - exact).abs() < 1e-9, "{v} against {exact}");
                    cut += u64::from(bot.evaluations < full);
                    checked += 1;
                }
            });
        }
        assert!(checked > 100, "{checked} values checked");
        assert!(
            cut > 0,
            "no window saved an evaluation in {checked} searches"
        );
    }

    /// One ply is greedy: the action played is one greedy values best.
    #[test]
    fn one_ply_plays_a_best_greedy_action() {
        let mut bot =
            LookaheadBot::<Branches>::new(SeededDice::new(2, 0), Lookahead::new(&[]), "t");
        let mut seen = 0;
        positions(3, |state| {
            let Next::Decide(seat) = state.next() else {
                return;
            };
            let chosen = bot.choose(state).unwrap();
            let spent = bot.last_evaluations();
            crate::games::assert_a_best_price::<Branches>(state, seat, chosen, spent);
            seen += 1;
        });
        assert!(seen > 10, "{seen} decisions");
    }

    /// The same dice play the same game; the deeper search costs more
    /// evaluations than one ply but fewer than its tree without cuts.
    #[test]
    fn a_seed_replays_its_choices() {
        let plan = Lookahead::new(&[4, 2, 2]);
        let mut a = LookaheadBot::<Branches>::new(SeededDice::new(7, 0), plan, "t");
        let mut b = LookaheadBot::<Branches>::new(SeededDice::new(7, 0), plan, "t");
        let mut n = 0;
        positions(4, |state| {
            assert_eq!(a.choose(state).unwrap(), b.choose(state).unwrap());
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            assert!(a.last_evaluations() >= legal.len() as u64);
            n += 1;
        });
        assert!(n > 10);
    }
}
