//! A cheap search for Roots and Shoots (#52, item 1): greedy's placements,
//! the growth action by short, cheap playouts.
//!
//! The one thing measured to make a search stronger than greedy here is the
//! growth decision valued by playouts to the bot's next turn (see
//! [`super::mcts`]); this bot keeps that and makes each playout cheaper.
//! For every legal growth action and every face of its die (each face
//! weighing the same, the rain face included), `per_face` playouts roll the
//! face on a copy and play on with a cheap policy: placements as greedy
//! places (its fast pricing), growth actions by a fixed rule instead of
//! greedy's look-ahead (or greedy's, with `greedy_growth`), spawns and lost
//! ends by one-step value, every roll from the bot's dice, the `i`-th
//! playout of a face rolling the same dice under every action (common
//! random numbers). A playout stops once `horizon` turns have ended after
//! the decision (2: the start of the bot's next turn; 3: the end of it),
//! and the evaluation's chance of winning there is its reward. Every other
//! decision is greedy's ([`super::FastGreedyBot`]).
//!
//! Everything is deterministic given the bot's [`SeededDice`].

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::roots_and_shoots::bots::eval;
use crate::games::roots_and_shoots::bots::fast::{FastGreedyBot, Scratch};
use crate::games::roots_and_shoots::bots::greedy::placing;
use crate::games::roots_and_shoots::rules::Growth;
use crate::games::roots_and_shoots::state::Phase;
use crate::games::roots_and_shoots::{Action, State};

const MAX_SEATS: usize = 8;
/// The stream of the dice a growth playout rolls with.
const STREAM: u64 = 11;

/// The knobs of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Playouts per face of a growth action's die.
    pub per_face: u32,
    /// Turns ended after the decision at which a playout stops.
    pub horizon: u32,
    /// Growth actions inside playouts by greedy's look-ahead (else the
    /// fixed rule [`fixed_growth`]).
    pub greedy_growth: bool,
    /// Greedy's rule of sunbathing with at most one bead in hand, at the
    /// root too.
    pub sunbathe_rule: bool,
    /// Placements with two beads or more left in the roll: greedy's this
    /// many best-priced placements, each followed by greedy's to the end of
    /// the roll and evaluated (0: greedy's placement).
    pub place_look: u32,
    /// Playouts per growth action, faces stratified (0: `per_face` a face).
    pub per_action: u32,
    /// Growth inside playouts by a one-bead look-ahead (overrides
    /// `greedy_growth`).
    pub quick_growth: bool,
    /// Greedy's growth action unless another's mean reward beats it by
    /// more than this many thousandths (0: the best mean, always).
    pub margin: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            per_face: 1,
            horizon: 3,
            greedy_growth: false,
            sunbathe_rule: false,
            place_look: 0,
            per_action: 0,
            quick_growth: false,
            margin: 0,
        }
    }
}

impl Config {
    /// The default, with `LITE_*` variables read over it (tuning only).
    pub fn from_env() -> Config {
        let mut c = Config::default();
        let get = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u32>().ok());
        if let Some(v) = get("LITE_PER_FACE") {
            c.per_face = v.max(1);
        }
        if let Some(v) = get("LITE_HORIZON") {
            c.horizon = v.max(1);
        }
        if let Some(v) = get("LITE_GREEDY_GROWTH") {
            c.greedy_growth = v != 0;
        }
        if let Some(v) = get("LITE_SUNBATHE") {
            c.sunbathe_rule = v != 0;
        }
        if let Some(v) = get("LITE_PER_ACTION") {
            c.per_action = v;
        }
        if let Some(v) = get("LITE_QUICK_GROWTH") {
            c.quick_growth = v != 0;
        }
        if let Some(v) = get("LITE_MARGIN") {
            c.margin = v;
        }
        if let Some(v) = get("LITE_PLACE") {
            c.place_look = v;
        }
        c
    }
}

/// The cheap search player.
#[derive(Debug)]
pub struct LiteBot {
    dice: SeededDice,
    config: Config,
    greedy: FastGreedyBot,
    scratch: Scratch,
    legal: Vec<Action>,
    buf: Vec<Action>,
    walk: Option<State>,
    inner: Option<State>,
    seeds: Vec<u32>,
    /// A shuffled order of the faces of each die size (by sides).
    perms: Vec<Vec<u8>>,
    name: String,
}

impl LiteBot {
    pub fn new(dice: SeededDice, config: Config, name: &str) -> LiteBot {
        let mut greedy_dice = dice.clone();
        // The greedy part's own stream, so its tie draws do not shift the
        // playouts' seeds.
        let _ = greedy_dice.next_u32();
        LiteBot {
            greedy: FastGreedyBot::new(SeededDice::new(u64::from(greedy_dice.next_u32()), 3)),
            dice,
            config,
            scratch: Scratch::default(),
            legal: Vec::with_capacity(64),
            buf: Vec::with_capacity(64),
            walk: None,
            inner: None,
            seeds: Vec::new(),
            perms: Vec::new(),
            name: name.to_string(),
        }
    }

    /// The growth action with the best mean reward over the playouts.
    fn choose_growth(&mut self, root: &State, seat: Seat, legal: &[Action]) -> Action {
        if self.config.sunbathe_rule {
            let player = &root.players()[usize::from(seat)];
            let sunbathe = Action::Grow(Growth::Sunbathe);
            if player.store <= 1 && player.supply > 0 && legal.contains(&sunbathe) {
                return sunbathe;
            }
        }
        // Greedy's choice, which the playouts must beat by the margin.
        let greedy =
            (self.config.margin > 0).then(|| self.scratch.choose_growth(root, seat, legal));
        let mut greedy_value = f64::NEG_INFINITY;
        let end = root.stats().turns + self.config.horizon;
        let per_face = self.config.per_face as usize;
        self.seeds.clear();
        for p in &mut self.perms {
            p.clear();
        }
        let mut best = f64::NEG_INFINITY;
        let mut pick = legal[0];
        let mut state = self.walk.take().unwrap_or_else(|| root.clone());
        let mut grown = root.clone();
        for &a in legal {
            grown.clone_from(root);
            grown.play_unchecked(a);
            let sides = match grown.next() {
                Next::Chance(die) => die.sides().max(1),
                _ => 0,
            };
            let mut total = 0.0;
            let mut count = 0.0;
            if self.config.per_action > 0 {
                let n = self.config.per_action as usize;
                // Playout j rolls face perm[j mod sides]: every face
                // once before any twice, in an order shared by every
                // action with this die (drawn once a decision).
                let sides_n = usize::from(sides.max(1));
                while self.perms.len() <= sides_n {
                    self.perms.push(Vec::new());
                }
                if self.perms[sides_n].is_empty() {
                    let mut p: Vec<u8> = (1..=sides.max(1)).collect();
                    for i in (1..p.len()).rev() {
                        let j = self.dice.below(i as u32 + 1) as usize;
                        p.swap(i, j);
                    }
                    self.perms[sides_n] = p;
                }
                for j in 0..n {
                    state.clone_from(&grown);
                    if sides > 0 {
                        let f = self.perms[sides_n][j % sides_n];
                        if state.roll(f).is_err() {
                            continue;
                        }
                    }
                    while self.seeds.len() <= j {
                        let s = self.dice.next_u32();
                        self.seeds.push(s);
                    }
                    let mut dice = SeededDice::new(u64::from(self.seeds[j]), STREAM);
                    total += self.play_out(&mut state, end, &mut dice)[usize::from(seat)];
                    count += 1.0;
                }
            } else {
                let faces = (1..=sides).map(Some).chain((sides == 0).then_some(None));
                for (fi, face) in faces.enumerate() {
                    let mut face_total = 0.0;
                    let mut n = 0.0;
                    for r in 0..per_face {
                        state.clone_from(&grown);
                        if let Some(f) = face
                            && state.roll(f).is_err()
                        {
                            continue;
                        }
                        let i = fi * per_face + r;
                        while self.seeds.len() <= i {
                            let s = self.dice.next_u32();
                            self.seeds.push(s);
                        }
                        let mut dice = SeededDice::new(u64::from(self.seeds[i]), STREAM);
                        face_total += self.play_out(&mut state, end, &mut dice)[usize::from(seat)];
                        n += 1.0;
                    }
                    if n > 0.0 {
                        total += face_total / n;
                        count += 1.0;
                    }
                }
            }
            let v = if count > 0.0 {
                total / count
            } else {
                f64::NEG_INFINITY
            };
            if Some(a) == greedy {
                greedy_value = v;
            }
            if v > best {
                best = v;
                pick = a;
            }
        }
        self.walk = Some(state);
        if let Some(g) = greedy
            && best - greedy_value <= f64::from(self.config.margin) / 1000.0
        {
            return g;
        }
        pick
    }

    /// With two beads or more left in the roll: the best of greedy's
    /// `place_look` best-priced placements, each followed by greedy's
    /// placements to the end of the roll and evaluated; `None` otherwise.
    fn look_placement(&mut self, state: &State, seat: Seat) -> Option<Action> {
        let Phase::Place { left, .. } = state.phase else {
            return None;
        };
        if left < 2 || !placing(state) {
            return None;
        }
        let mut legal = std::mem::take(&mut self.legal);
        state.legal_actions(&mut legal);
        if legal.len() < 2 {
            self.legal = legal;
            return None;
        }
        let mut prices = Vec::with_capacity(legal.len());
        self.scratch.prices(state, seat, &legal, &mut prices);
        let mut order: Vec<(f64, usize)> = prices.iter().copied().zip(0..).collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let k = (self.config.place_look as usize).min(order.len());
        let mut next = self.walk.take().unwrap_or_else(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut pick = legal[order[0].1];
        let mut dice = SeededDice::new(u64::from(self.dice.next_u32()), STREAM + 1);
        for &(_, i) in order.iter().take(k) {
            next.clone_from(state);
            next.play_unchecked(legal[i]);
            for _ in 0..64 {
                match next.next() {
                    Next::Decide(s) if s == seat && placing(&next) => {
                        let a = self.policy(&next, seat, &mut dice);
                        next.play_unchecked(a);
                    }
                    _ => break,
                }
            }
            let v = eval::advantage(&next, seat);
            if v > best {
                best = v;
                pick = legal[i];
            }
        }
        self.walk = Some(next);
        self.legal = legal;
        Some(pick)
    }

    /// Every seat plays from `state` by the playout policy, every roll from
    /// `dice`, until `end_turns` turns have ended (or the game); every
    /// seat's reward there.
    fn play_out(
        &mut self,
        state: &mut State,
        end_turns: u32,
        dice: &mut SeededDice,
    ) -> [f64; MAX_SEATS] {
        // Bounded, should the engine ever loop.
        for _ in 0..10_000 {
            match state.next() {
                Next::Over | Next::Draw => break,
                Next::Chance(die) => {
                    let face = dice.roll(die);
                    if state.roll(face).is_err() {
                        break;
                    }
                }
                Next::Decide(seat) => {
                    if state.stats().turns >= end_turns {
                        break;
                    }
                    let a = self.policy(state, seat, dice);
                    state.play_unchecked(a);
                }
            }
        }
        rewards(state)
    }

    /// The playout policy's action at a decision of `seat`.
    fn policy(&mut self, state: &State, seat: Seat, dice: &mut SeededDice) -> Action {
        let mut legal = std::mem::take(&mut self.buf);
        if placing(state)
            && let Some(a) = self.scratch.best_placement(state, seat, &mut legal, dice)
        {
            self.buf = legal;
            return a;
        }
        state.legal_actions(&mut legal);
        let a = match legal.as_slice() {
            [] => state.random_action(dice),
            [only] => *only,
            _ if legal.iter().all(|a| matches!(a, Action::Grow(_))) => {
                if self.config.quick_growth {
                    self.quick_growth(state, seat, &legal, dice)
                } else if self.config.greedy_growth {
                    self.scratch.choose_growth(state, seat, &legal)
                } else {
                    fixed_growth(state, seat, &legal)
                }
            }
            _ => self.scratch.best_step(state, seat, &legal, Some(dice)).0,
        };
        self.buf = legal;
        a
    }
}

impl LiteBot {
    /// A cheap stand-in for greedy's growth look-ahead: sunbathe with at
    /// most one bead in hand; else each action's die rolled at its middle
    /// face (never a 1) on a copy, one bead placed by the playout policy,
    /// and the evaluation after.
    fn quick_growth(
        &mut self,
        state: &State,
        seat: Seat,
        legal: &[Action],
        dice: &mut SeededDice,
    ) -> Action {
        let player = &state.players()[usize::from(seat)];
        let sunbathe = Action::Grow(Growth::Sunbathe);
        if player.store <= 1 && player.supply > 0 && legal.contains(&sunbathe) {
            return sunbathe;
        }
        let mut next = self.inner.take().unwrap_or_else(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut pick = legal[0];
        for &a in legal {
            next.clone_from(state);
            next.play_unchecked(a);
            if let Next::Chance(die) = next.next()
                && next.roll(die.sides().div_ceil(2).max(2)).is_err()
            {
                continue;
            }
            if let Next::Decide(s) = next.next()
                && s == seat
                && placing(&next)
            {
                let b = self.policy(&next, seat, dice);
                next.play_unchecked(b);
            }
            let v = eval::advantage(&next, seat);
            if v > best {
                best = v;
                pick = a;
            }
        }
        self.inner = Some(next);
        pick
    }
}

/// The playouts' growth rule: sunbathe with at most one bead in hand (as
/// greedy does), else the placing action with the largest die (most beads
/// placed), else the first legal.
pub(crate) fn fixed_growth(state: &State, seat: Seat, legal: &[Action]) -> Action {
    let player = &state.players()[usize::from(seat)];
    let sunbathe = Action::Grow(Growth::Sunbathe);
    if player.store <= 1 && player.supply > 0 && legal.contains(&sunbathe) {
        return sunbathe;
    }
    let dice = &state.rules().growth;
    legal
        .iter()
        .copied()
        .filter(|a| *a != sunbathe)
        .max_by_key(|a| match a {
            Action::Grow(g) => match g {
                Growth::NewPlant => dice.new_plant,
                Growth::Buds => dice.buds,
                Growth::SimpleGrowth => dice.simple_growth,
                Growth::Sunbathe => dice.sunbathe,
            }
            .die()
            .map_or(0, |d| d.sides()),
            _ => 0,
        })
        .unwrap_or(legal[0])
}

/// Every seat's reward at the end of a playout: a finished game counts 1
/// for a sole winner, `1/k` for each of `k` tied winners; else the
/// evaluation's chance of winning.
fn rewards(state: &State) -> [f64; MAX_SEATS] {
    let mut r = [0.0; MAX_SEATS];
    if let Some(outcome) = state.outcome() {
        let share = 1.0 / outcome.winners.len().max(1) as f64;
        for &w in &outcome.winners {
            r[usize::from(w)] = share;
        }
        return r;
    }
    let seats = state.players().len().min(MAX_SEATS);
    let v = eval::values(state);
    for (s, slot) in r.iter_mut().enumerate().take(seats) {
        *slot = eval::win_chance(eval::lead(&v, seats, s));
    }
    r
}

impl Player<State> for LiteBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        if let Next::Decide(seat) = state.next() {
            let mut legal = std::mem::take(&mut self.legal);
            state.legal_actions(&mut legal);
            let growth = legal.len() > 1 && legal.iter().all(|a| matches!(a, Action::Grow(_)));
            let pick = growth.then(|| self.choose_growth(state, seat, &legal));
            self.legal = legal;
            if let Some(a) = pick {
                return Ok(a);
            }
            if self.config.place_look > 0
                && let Some(a) = self.look_placement(state, seat)
            {
                return Ok(a);
            }
        }
        self.greedy.choose(state)
    }
}
