//! The look-ahead bot (work in progress): greedy placements, and the
//! growth action by the expectation over its die.

use std::sync::OnceLock;

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player, deciding_seat};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::roots_and_shoots::bots::eval;
use crate::games::roots_and_shoots::bots::fast::Scratch;
use crate::games::roots_and_shoots::rules::Growth;
use crate::games::roots_and_shoots::state::Phase;
use crate::games::roots_and_shoots::{Action, State};

#[derive(Clone, Copy, Debug)]
struct Params {
    k: f64,
    cap: u32,
    sun: bool,
    all_faces: bool,
    next: bool,
    w: f64,
    nf: u8,
    opp: bool,
    pk: usize,
    pmin: u8,
    ph: bool,
    g: bool,
    pr: u32,
    wc: bool,
}

fn params() -> Params {
    static P: OnceLock<Params> = OnceLock::new();
    *P.get_or_init(|| {
        let get = |k: &str, d: f64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        Params {
            k: get("LOOK_K", 0.0),
            cap: get("LOOK_C", 8.0) as u32,
            sun: get("LOOK_SUN", 1.0) > 0.5,
            all_faces: get("LOOK_ALL", 1.0) > 0.5,
            next: get("LOOK_NEXT", 1.0) > 0.5,
            w: get("LOOK_W", 1.0),
            nf: get("LOOK_NF", 0.0) as u8,
            opp: get("LOOK_OPP", 0.0) > 0.5,
            pk: get("LOOK_PK", 0.0) as usize,
            pmin: get("LOOK_PMIN", 1.0) as u8,
            ph: get("LOOK_PH", 1.0) > 0.5,
            g: get("LOOK_G", 1.0) > 0.5,
            pr: get("LOOK_PR", 0.0) as u32,
            wc: get("LOOK_WC", 0.0) > 0.5,
        }
    })
}

/// The look-ahead player.
#[derive(Debug)]
pub struct LookBot {
    dice: SeededDice,
    actions: Vec<Action>,
    scratch: Scratch,
    inner: Scratch,
    grown: Option<State>,
    walk: Option<State>,
    buf: Vec<Action>,
    prices: Vec<f64>,
    order: Vec<(f64, u32, usize)>,
    seeds: Vec<u32>,
    sampled: bool,
    params: Params,
}

impl LookBot {
    pub fn new(dice: SeededDice) -> LookBot {
        LookBot {
            dice,
            actions: Vec::with_capacity(64),
            scratch: Scratch::default(),
            inner: Scratch::default(),
            grown: None,
            walk: None,
            buf: Vec::with_capacity(64),
            prices: Vec::new(),
            order: Vec::new(),
            seeds: Vec::new(),
            sampled: false,
            params: params(),
        }
    }

    fn bonus(&self, store: u32) -> f64 {
        self.params.k * f64::from(store.min(self.params.cap))
    }

    fn choose_growth(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        let player = &state.players()[usize::from(seat)];
        let sunbathe = Action::Grow(Growth::Sunbathe);
        if self.params.sun && player.store <= 1 && player.supply > 0 && actions.contains(&sunbathe)
        {
            return sunbathe;
        }
        self.scratch.read_base(state, seat);
        let mut grown = self.grown.take().unwrap_or_else(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut pick = actions[0];
        for &a in actions {
            grown.clone_from(state);
            grown.play_unchecked(a);
            let v = match grown.next() {
                Next::Chance(die) => {
                    let sides = die.sides().max(1);
                    let mut faces = [0u8; 32];
                    let n = if !self.params.all_faces {
                        faces[0] = sides.div_ceil(2).max(2);
                        1
                    } else if self.params.nf == 0 || self.params.nf >= sides {
                        for f in 1..=sides {
                            faces[usize::from(f - 1)] = f;
                        }
                        usize::from(sides)
                    } else {
                        let m = usize::from(self.params.nf);
                        for (i, slot) in faces.iter_mut().enumerate().take(m) {
                            let q = ((2 * i + 1) * usize::from(sides)).div_ceil(2 * m);
                            *slot = q.clamp(1, usize::from(sides)) as u8;
                        }
                        m
                    };
                    let mut total = 0.0;
                    for &f in &faces[..n] {
                        let v = self.scratch.face_value(&grown, seat, f);
                        let store = self
                            .scratch
                            .last_look()
                            .map_or(0, |s| s.players()[usize::from(seat)].store);
                        let v = if self.params.next {
                            let w = self.params.w;
                            (1.0 - w) * v + w * self.next_turn_value(seat, v)
                        } else {
                            v
                        };
                        total += v + self.bonus(store);
                    }
                    total / n as f64
                }
                _ => {
                    eval::advantage(&grown, seat)
                        + self.bonus(grown.players()[usize::from(seat)].store)
                }
            };
            if v > best {
                best = v;
                pick = a;
            }
        }
        self.scratch.end_base();
        self.grown = Some(grown);
        pick
    }
}

impl LookBot {
    /// The greedy look-ahead's value of `seat`'s next growth decision
    /// from the position the last face's look reached, the other seats
    /// sunbathing in between (a null move) and no nutrient spawning where
    /// that can be avoided; `fallback` when that turn is not reached.
    fn next_turn_value(&mut self, seat: Seat, fallback: f64) -> f64 {
        let Some(look) = self.scratch.last_look() else {
            return fallback;
        };
        let mut s = self.walk.take().unwrap_or_else(|| look.clone());
        s.clone_from(look);
        let mut buf = std::mem::take(&mut self.buf);
        let mut v = None;
        for _ in 0..64 {
            match s.next() {
                Next::Over | Next::Draw => {
                    v = Some(eval::advantage(&s, seat));
                    break;
                }
                Next::Chance(die) => {
                    let sides = die.sides().max(1);
                    let face = match s.phase {
                        Phase::SpawnCheck => {
                            if s.nutrients().len() >= 2 {
                                2
                            } else {
                                sides
                            }
                        }
                        Phase::RollGrowth(_) if self.params.opp => sides.div_ceil(2).max(2),
                        Phase::RollGrowth(_) => 2.min(sides),
                        _ => self.dice.roll(die),
                    };
                    if s.roll(face).is_err() {
                        break;
                    }
                }
                Next::Decide(x) => {
                    s.legal_actions(&mut buf);
                    if buf.is_empty() {
                        break;
                    }
                    let growth = buf.iter().all(|a| matches!(a, Action::Grow(_)));
                    if growth && x == seat {
                        v = Some(self.inner.growth_look(&s, seat, &buf));
                        break;
                    }
                    let sunbathe = Action::Grow(Growth::Sunbathe);
                    let a = if growth && self.params.opp {
                        self.inner.choose(&s, x, &buf, None)
                    } else if growth {
                        if buf.contains(&sunbathe) {
                            sunbathe
                        } else {
                            buf[0]
                        }
                    } else if buf.len() == 1 {
                        buf[0]
                    } else {
                        self.inner.choose(&s, x, &buf, None)
                    };
                    s.play_unchecked(a);
                }
            }
        }
        self.buf = buf;
        self.walk = Some(s);
        v.unwrap_or(fallback)
    }
}

impl LookBot {
    /// A placement of `seat` by look-ahead: the `pk` best placements by
    /// greedy's one-step price, each followed by greedy to the end of the
    /// roll and (with `ph`) the next seat's greedy reply, then evaluated.
    fn search_placement(&mut self, state: &State, seat: Seat, actions: &[Action]) -> Action {
        self.scratch.prices(state, seat, actions, &mut self.prices);
        self.order.clear();
        for (i, &v) in self.prices.iter().enumerate() {
            let r = self.dice.next_u32();
            self.order.push((v, r, i));
        }
        self.order
            .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let k = self.params.pk.min(self.order.len());
        let mut best = f64::NEG_INFINITY;
        let mut pick = actions[self.order[0].2];
        let mut s = self.grown.take().unwrap_or_else(|| state.clone());
        let pr = self.params.pr;
        self.seeds.clear();
        for _ in 0..pr {
            let r = self.dice.next_u32();
            self.seeds.push(r);
        }
        for j in 0..k {
            let a = actions[self.order[j].2];
            let v = if pr == 0 {
                s.clone_from(state);
                s.play_unchecked(a);
                self.follow(&mut s, seat)
            } else {
                let mut total = 0.0;
                self.sampled = true;
                for r in 0..pr as usize {
                    s.clone_from(state);
                    s.play_unchecked(a);
                    let own = std::mem::replace(
                        &mut self.dice,
                        SeededDice::new(u64::from(self.seeds[r]), 7),
                    );
                    let v = self.follow(&mut s, seat);
                    self.dice = own;
                    total += if self.params.wc {
                        eval::win_chance(v)
                    } else {
                        v
                    };
                }
                self.sampled = false;
                total / f64::from(pr)
            };
            if v > best + 1e-9 {
                best = v;
                pick = a;
            }
        }
        self.grown = Some(s);
        pick
    }

    /// Play `s` on: `seat` places the rest of its roll greedily, then (with
    /// `ph`) the other seats play greedily, their growth dice showing the
    /// middle face and no nutrient spawning where that can be avoided,
    /// until `seat`'s next growth decision; `seat`'s advantage there.
    fn follow(&mut self, s: &mut State, seat: Seat) -> f64 {
        let mut buf = std::mem::take(&mut self.buf);
        for _ in 0..256 {
            match s.next() {
                Next::Over | Next::Draw => break,
                Next::Chance(die) => {
                    if !self.params.ph {
                        break;
                    }
                    let sides = die.sides().max(1);
                    let face = match s.phase {
                        _ if self.sampled => self.dice.roll(die),
                        Phase::SpawnCheck => {
                            if s.nutrients().len() >= 2 {
                                2
                            } else {
                                sides
                            }
                        }
                        Phase::RollGrowth(_) => sides.div_ceil(2).max(2),
                        _ => self.dice.roll(die),
                    };
                    if s.roll(face).is_err() {
                        break;
                    }
                }
                Next::Decide(x) => {
                    let growth_of_seat = x == seat && matches!(s.phase, Phase::ChooseGrowth);
                    if growth_of_seat
                        || (!self.params.ph && !(x == seat && super::greedy::placing(s)))
                    {
                        break;
                    }
                    s.legal_actions(&mut buf);
                    if buf.is_empty() {
                        break;
                    }
                    let a = if buf.len() == 1 {
                        buf[0]
                    } else {
                        self.inner.choose(s, x, &buf, None)
                    };
                    s.play_unchecked(a);
                }
            }
        }
        self.buf = buf;
        match s.outcome() {
            Some(o) if o.winners.contains(&seat) => 1000.0 / o.winners.len() as f64,
            Some(_) => -1000.0,
            None => eval::advantage(s, seat),
        }
    }
}

impl Player<State> for LookBot {
    fn name(&self) -> String {
        "mcts".to_string()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        let seat = match deciding_seat(state, &mut self.dice) {
            Ok(seat) => seat,
            Err(answer) => return Ok(answer),
        };
        let mut actions = std::mem::take(&mut self.actions);
        if self.params.pk > 1
            && super::greedy::placing(state)
            && matches!(state.phase, Phase::Place { left, .. } if left >= self.params.pmin)
        {
            state.legal_actions(&mut actions);
            if actions.len() > 1 {
                let a = self.search_placement(state, seat, &actions);
                self.actions = actions;
                return Ok(a);
            }
        }
        if super::greedy::placing(state)
            && let Some(a) = self
                .scratch
                .best_placement(state, seat, &mut actions, &mut self.dice)
        {
            self.actions = actions;
            return Ok(a);
        }
        state.legal_actions(&mut actions);
        let choice = if actions.is_empty() {
            state.random_action(&mut self.dice)
        } else if actions.len() == 1 {
            actions[0]
        } else if self.params.g && actions.iter().all(|a| matches!(a, Action::Grow(_))) {
            self.choose_growth(state, seat, &actions)
        } else {
            self.scratch
                .choose(state, seat, &actions, Some(&mut self.dice))
        };
        self.actions = actions;
        Ok(choice)
    }
}
