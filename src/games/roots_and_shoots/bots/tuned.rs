//! EXPERIMENT (#52 item 1, session 3): a search with its own, tunable
//! evaluation. The growth action by the exact expectation over its die
//! (every face rolled on a copy, the roll's beads placed greedily, the
//! position valued by [`values`] with [`Params`]); every other decision
//! greedy's. Seated as `mcts` under `TUNED=1`; weights from `TUNED_W`.

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player, deciding_seat};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::roots_and_shoots::bots::eval::{lead, nearest_to_untouched};
use crate::games::roots_and_shoots::bots::fast::Scratch;
use crate::games::roots_and_shoots::bots::greedy::placing;
use crate::games::roots_and_shoots::rules::Growth;
use crate::games::roots_and_shoots::{Action, State};

const UNKNOWN_VALUE: f64 = 6.5;
const MAX_SEATS: usize = 8;

/// The weights of [`values`]; the defaults are [`super::eval`]'s.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub w: [f64; N],
}

pub const N: usize = 12;
pub const NAMES: [&str; N] = [
    "store1",
    "store2",
    "empty",
    "touched",
    "marker",
    "race",
    "reach",
    "contested",
    "scale",
    "supply",
    "late",
    "rain_hand",
];
pub const DEFAULT: [f64; N] = [
    0.35, 0.02, -0.5, 0.85, 0.3, 0.6, 0.5, 0.04, 15.0, 0.0, 0.0, 0.0,
];

impl Default for Params {
    fn default() -> Params {
        Params { w: DEFAULT }
    }
}

impl Params {
    pub fn from_env() -> Params {
        let mut p = Params::default();
        if let Ok(s) = std::env::var("TUNED_W") {
            for (i, x) in s.split(',').enumerate().take(N) {
                if let Ok(v) = x.trim().parse::<f64>() {
                    p.w[i] = v;
                }
            }
        }
        p
    }
}

/// The worth of the position to every seat, in points, with `p`'s weights.
pub fn values(state: &State, p: &Params) -> [f64; MAX_SEATS] {
    let w = &p.w;
    let seats = state.players().len().min(MAX_SEATS);
    let mut v = [0.0; MAX_SEATS];
    let mut score = [0.0; MAX_SEATS];
    let pile = f64::from(state.nutrient_supply());
    // Positional terms shrink as the nutrient pile runs out.
    let late = w[10].max(0.0);
    let m = if late > 0.0 {
        pile / (pile + late)
    } else {
        1.0
    };
    for (s, pl) in state.players().iter().enumerate().take(seats) {
        score[s] = f64::from(pl.score);
        let store = f64::from(pl.store.min(8));
        v[s] += w[0] * store - w[1] * store * store;
        if pl.supply > 0 && pl.store == 0 {
            v[s] += w[2];
        }
        v[s] += w[9] * f64::from(pl.supply.min(10));
    }
    let g = state.grid();
    let mut near = [u32::MAX; MAX_SEATS];
    for n in state.nutrients() {
        let value = n.value.map_or(UNKNOWN_VALUE, f64::from);
        let on_top = state.bead(n.point);
        let counts = &state.cells[n.point.index()].adj;
        let mut touching = [false; MAX_SEATS];
        for (t, &k) in touching.iter_mut().zip(counts).take(seats) {
            *t = k > 0;
        }
        if let Some(s) = on_top {
            touching[usize::from(s)] = true;
        }
        let sharers: u32 = touching.iter().take(seats).map(|&t| u32::from(t)).sum();
        if sharers > 0 {
            let share = value / f64::from(sharers);
            for s in 0..seats {
                if touching[s] {
                    v[s] += w[3] * share;
                    if on_top == Some(s as Seat) {
                        v[s] += w[4];
                    }
                }
            }
            continue;
        }
        let at = g.xy(n.point);
        for (s, pl) in state.players().iter().enumerate().take(seats) {
            near[s] = nearest_to_untouched(&pl.beads, at, |b| g.xy(b));
        }
        let best = near.iter().take(seats).copied().min().unwrap_or(u32::MAX);
        for s in 0..seats {
            let d = near[s];
            if d == u32::MAX {
                continue;
            }
            let reach = w[6] / f64::from(d.max(2) - 1);
            let race = if d == best { 1.0 } else { w[5] };
            v[s] += value * reach * race;
        }
    }
    for (s, pl) in state.players().iter().enumerate().take(seats) {
        for &b in &pl.beads {
            let c = &state.cells[b.index()];
            if c.adj_all > c.adj[s] {
                v[s] += w[7] * f64::from(state.strength_upto(b, 6));
            }
        }
    }
    for s in 0..seats {
        v[s] = score[s] + m * v[s];
    }
    v
}

/// `seat`'s chance of winning in `state` by `p`.
pub fn chance(state: &State, seat: Seat, p: &Params) -> f64 {
    if let Some(outcome) = state.outcome() {
        return if outcome.winners.contains(&seat) {
            1.0 / outcome.winners.len().max(1) as f64
        } else {
            0.0
        };
    }
    let v = values(state, p);
    let adv = lead(&v, state.players().len().min(MAX_SEATS), usize::from(seat));
    1.0 / (1.0 + (-adv / p.w[8].max(0.5)).exp())
}

/// The search: the growth action by the exact expectation over its die.
#[derive(Debug)]
pub struct TunedBot {
    dice: SeededDice,
    scratch: Scratch,
    params: Params,
    legal: Vec<Action>,
    copy: Option<State>,
    grown: Option<State>,
}

impl TunedBot {
    pub fn new(dice: SeededDice, params: Params) -> TunedBot {
        TunedBot {
            dice,
            scratch: Scratch::default(),
            params,
            legal: Vec::with_capacity(64),
            copy: None,
            grown: None,
        }
    }

    fn choose_growth(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        let player = &state.players()[usize::from(seat)];
        let sunbathe = Action::Grow(Growth::Sunbathe);
        if player.store <= 1 && player.supply > 0 && actions.contains(&sunbathe) {
            return sunbathe;
        }
        let mut grown = self.grown.take().unwrap_or_else(|| state.clone());
        let mut copy = self.copy.take().unwrap_or_else(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut pick = actions[0];
        self.scratch.read_base(state, seat);
        for &a in actions {
            grown.clone_from(state);
            grown.play_unchecked(a);
            let v = match grown.next() {
                Next::Chance(die) => {
                    let sides = die.sides().max(1);
                    let mut total = 0.0;
                    for face in 1..=sides {
                        copy.clone_from(&grown);
                        if copy.roll(face).is_err() {
                            total += chance(&grown, seat, &self.params);
                            continue;
                        }
                        let shared = self.scratch.shares_base_pub(&grown, face);
                        self.scratch.place_pub(&mut copy, seat, shared);
                        let mut c = chance(&copy, seat, &self.params);
                        if face == 1 {
                            c += self.params.w[11] / 100.0;
                        }
                        total += c;
                    }
                    total / f64::from(sides)
                }
                _ => chance(&grown, seat, &self.params),
            };
            if v > best {
                best = v;
                pick = a;
            }
        }
        self.scratch.end_base();
        self.grown = Some(grown);
        self.copy = Some(copy);
        pick
    }
}

impl Player<State> for TunedBot {
    fn name(&self) -> String {
        "mcts".into()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        let seat = match deciding_seat(state, &mut self.dice) {
            Ok(seat) => seat,
            Err(answer) => return Ok(answer),
        };
        let mut legal = std::mem::take(&mut self.legal);
        if placing(state)
            && let Some(a) =
                self.scratch
                    .best_placement_pub(state, seat, &mut legal, &mut self.dice)
        {
            self.legal = legal;
            return Ok(a);
        }
        state.legal_actions(&mut legal);
        let a = if legal.is_empty() {
            state.random_action(&mut self.dice)
        } else if legal.len() > 1 && legal.iter().all(|a| matches!(a, Action::Grow(_))) {
            self.choose_growth(state, seat, &legal)
        } else {
            self.scratch
                .choose(state, seat, &legal, Some(&mut self.dice))
        };
        self.legal = legal;
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::roots_and_shoots::Rules;
    use crate::games::roots_and_shoots::bots::{FastGreedyBot, greedy};

    /// A seeded game of the search (seat 1) against greedy: every action.
    fn game(seed: u64) -> Vec<Action> {
        let mut s = State::new(Arc::new(Rules::standard()), 2).unwrap();
        let mut dice = SeededDice::for_game(seed, 0);
        let mut bots: (TunedBot, FastGreedyBot) = (
            TunedBot::new(SeededDice::for_game(seed, 1), Params::default()),
            FastGreedyBot::new(SeededDice::for_game(seed, 2)),
        );
        let mut out = Vec::new();
        loop {
            match s.next() {
                Next::Over | Next::Draw => break,
                Next::Chance(d) => s.roll_unchecked(dice.roll(d)),
                Next::Decide(seat) => {
                    let a = if seat == 0 {
                        bots.0.choose(&s).unwrap()
                    } else {
                        bots.1.choose(&s).unwrap()
                    };
                    assert!(s.allows(a), "{a:?} is not legal");
                    out.push(a);
                    s.play_unchecked(a);
                }
            }
        }
        out
    }

    /// The same dice play the same game, every answer legal.
    #[test]
    fn same_dice_same_game_and_legal_answers() {
        for seed in 1..4 {
            let a = game(seed);
            assert!(a.len() > 20);
            assert_eq!(a, game(seed));
        }
    }

    /// The growth decisions of seeded random games: the search takes the
    /// action of the best expectation over the die, worked out here on
    /// copies (the beads placed by the greedy bot's pricing of copies);
    /// and somewhere that is not the action greedy's middle face takes.
    #[test]
    fn takes_the_best_expectation_over_the_die() {
        let p = Params::default();
        let (mut checked, mut differ) = (0, 0);
        let mut buf = Vec::new();
        for g in 0..6 {
            let mut s = State::new(Arc::new(Rules::standard()), 2).unwrap();
            let mut dice = SeededDice::for_game(5, g);
            let mut legal = Vec::new();
            loop {
                match s.next() {
                    Next::Over | Next::Draw => break,
                    Next::Chance(d) => s.roll_unchecked(dice.roll(d)),
                    Next::Decide(seat) => {
                        s.legal_actions(&mut legal);
                        let growth =
                            legal.len() > 1 && legal.iter().all(|a| matches!(a, Action::Grow(_)));
                        if growth && s.players()[usize::from(seat)].store > 1 {
                            let mut bot = TunedBot::new(SeededDice::new(1, 0), p);
                            bot.scratch.copying = true;
                            let pick = bot.choose(&s).unwrap();
                            let mut best = (f64::NEG_INFINITY, legal[0]);
                            for &a in &legal {
                                let mut grown = s.clone();
                                grown.play_unchecked(a);
                                let Next::Chance(die) = grown.next() else {
                                    panic!()
                                };
                                let mut total = 0.0;
                                for face in 1..=die.sides() {
                                    let mut c = grown.clone();
                                    c.roll(face).unwrap();
                                    while let Next::Decide(x) = c.next() {
                                        if x != seat || !placing(&c) {
                                            break;
                                        }
                                        c.legal_actions(&mut buf);
                                        if buf.is_empty() {
                                            break;
                                        }
                                        let (b, _) = greedy::best_step(&c, seat, &buf, None);
                                        c.play_unchecked(b);
                                    }
                                    total += chance(&c, seat, &p);
                                }
                                let v = total / f64::from(die.sides());
                                if v > best.0 {
                                    best = (v, a);
                                }
                            }
                            assert_eq!(pick, best.1);
                            let mut fast = FastGreedyBot::new(SeededDice::new(1, 0));
                            differ += usize::from(fast.choose(&s).unwrap() != pick);
                            checked += 1;
                        }
                        let a = s.random_action(&mut dice);
                        s.play_unchecked(a);
                    }
                }
            }
        }
        assert!(
            checked > 20 && differ > 0,
            "{checked} checked, {differ} differ"
        );
    }
}
