//! A cheap static evaluation of a position, shared by the greedy bot (which
//! looks one decision ahead) and MCTS (which scores truncated playouts).
//!
//! The figure is in points: what a seat has scored, plus what it can expect
//! from the nutrients on the board (those it touches, shared as the rules
//! split them, and those it is growing toward, discounted by distance), plus a
//! little for beads in hand and for root strength next to enemy roots.
//! [`advantage`] compares a seat with its best opponent.

use crate::core::geometry::Point;
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::State;

/// Expected value of a d12 nutrient whose value is not known yet.
const UNKNOWN_VALUE: f64 = 6.5;
/// Most seats a state can have (`for_seat` allows 0..8).
const MAX_SEATS: usize = 8;

/// `0.5 / (k as f64)` for every `k` below 32, worked out once (at compile
/// time, the same figure to the bit as the division at run time): what a
/// nutrient a seat's nearest bead is `d` away from is worth to it is
/// scaled by [`reach`], and a table read is cheaper than a division.
const REACH: [f64; 32] = {
    let mut t = [0.0; 32];
    let mut k = 1;
    while k < 32 {
        t[k] = 0.5 / k as f64;
        k += 1;
    }
    t
};

/// The share of a nutrient's value a seat can hope for when its nearest
/// bead is `d` away (nobody touching it): `0.5 / (max(d, 2) - 1)`.
#[inline(always)]
pub(super) fn reach(d: u32) -> f64 {
    let k = d.max(2) - 1;
    let r = match REACH.get(k as usize) {
        Some(&r) => r,
        None => 0.5 / f64::from(k),
    };
    debug_assert_eq!(r.to_bits(), (0.5 / f64::from(k)).to_bits());
    r
}

/// The distance from `at` to the nearest of `beads`, for a nutrient that no
/// bead touches: nobody is within 1, so a bead at 2 is the nearest there
/// can be and the scan stops there. `xy` gives a point's coordinates (the
/// grid's, or a table of them). Debug builds check the full scan.
pub(super) fn nearest_to_untouched(
    beads: &[Point],
    (x, y): (u8, u8),
    xy: impl Fn(Point) -> (u8, u8),
) -> u32 {
    let mut near = u32::MAX;
    for &b in beads {
        let (bx, by) = xy(b);
        near = near.min(u32::from(bx.abs_diff(x).max(by.abs_diff(y))));
        if near <= 2 {
            break;
        }
    }
    debug_assert_eq!(
        near,
        beads
            .iter()
            .map(|&b| {
                let (bx, by) = xy(b);
                u32::from(bx.abs_diff(x).max(by.abs_diff(y)))
            })
            .min()
            .unwrap_or(u32::MAX)
    );
    near
}

/// The worth of the position to every seat, in points.
pub fn values(state: &State) -> [f64; MAX_SEATS] {
    let seats = state.players().len().min(MAX_SEATS);
    let mut v = [0.0; MAX_SEATS];
    let mut near = [u32::MAX; MAX_SEATS];
    for (s, p) in state.players().iter().enumerate().take(seats) {
        v[s] = f64::from(p.score);
        // Beads in hand are the means of reaching nutrients; the first few
        // matter most. An empty supply ends the game, which is not valued here.
        let store = f64::from(p.store.min(8));
        v[s] += 0.35 * store - 0.02 * store * store;
        if p.supply > 0 && p.store == 0 {
            v[s] -= 0.5;
        }
    }
    let g = state.grid();
    for n in state.nutrients() {
        let value = n.value.map_or(UNKNOWN_VALUE, f64::from);
        let on_top = state.bead(n.point);
        let mut sharers = 0u32;
        // The cell's counts of each colour around it (debug builds check
        // the neighbours themselves).
        let counts = &state.cells[n.point.index()].adj;
        let mut touching = [false; MAX_SEATS];
        for (t, &k) in touching.iter_mut().zip(counts).take(seats) {
            *t = k > 0;
        }
        debug_assert!((0..MAX_SEATS).all(|s| {
            touching[s] == g.around(n.point).any(|q| state.bead(q) == Some(s as Seat))
        }));
        if let Some(s) = on_top {
            touching[usize::from(s)] = true;
        }
        for t in touching.iter().take(seats) {
            sharers += u32::from(*t);
        }
        if sharers > 0 {
            // It scores at the next rain (a 1 on any roll: soon), shared.
            // (A lone sharer takes the whole value: no division.)
            let share = if sharers == 1 {
                value
            } else {
                value / f64::from(sharers)
            };
            for s in 0..seats {
                if touching[s] {
                    v[s] += 0.85 * share;
                    if on_top == Some(s as Seat) {
                        // The marker takes the odd point, and the bead leaves
                        // the board with the nutrient.
                        v[s] += 0.3;
                    }
                }
            }
            continue;
        }
        // Nobody touches it yet: whoever is closest is racing for it.
        for s in near.iter_mut().take(seats) {
            *s = u32::MAX;
        }
        let at = g.xy(n.point);
        for (s, p) in state.players().iter().enumerate().take(seats) {
            near[s] = nearest_to_untouched(&p.beads, at, |b| g.xy(b));
        }
        let best = near.iter().take(seats).copied().min().unwrap_or(u32::MAX);
        for s in 0..seats {
            let d = near[s];
            if d == u32::MAX {
                continue;
            }
            // d = 2 means one bead away from touching.
            let reach = reach(d);
            let race = if d == best { 1.0 } else { 0.6 };
            v[s] += value * reach * race;
        }
    }
    // Roots next to enemy roots: a strong root there threatens, a weak one is
    // at risk. Only beads that touch another colour are looked at.
    for (s, p) in state.players().iter().enumerate().take(seats) {
        for &b in &p.beads {
            // The cell's counts of neighbours: more beads around than its
            // own colour's (debug builds check the neighbours themselves).
            let c = &state.cells[b.index()];
            let contested = c.adj_all > c.adj[s];
            debug_assert_eq!(
                contested,
                g.around(b)
                    .any(|q| matches!(state.bead(q), Some(o) if usize::from(o) != s))
            );
            if contested {
                let strength = f64::from(state.strength_upto(b, 6));
                v[s] += 0.04 * strength;
            }
        }
    }
    v
}

/// How much better `seat` stands than its best opponent, in points.
pub fn advantage(state: &State, seat: Seat) -> f64 {
    let v = values(state);
    lead(&v, state.players().len().min(MAX_SEATS), usize::from(seat))
}

/// Every seat's [`advantage`], seat 1 first, into `out`, from one pass
/// over the position.
pub fn advantages(state: &State, out: &mut Vec<f64>) {
    let v = values(state);
    let seats = state.players().len().min(MAX_SEATS);
    out.clear();
    out.extend((0..seats).map(|s| lead(&v, seats, s)));
}

/// Seat `me`'s value less the best other seat's among the first `seats` of
/// `v` (its value alone when it is the only seat).
#[inline(always)]
pub(super) fn lead(v: &[f64], seats: usize, me: usize) -> f64 {
    let best_other = (0..seats)
        .filter(|&s| s != me)
        .map(|s| v[s])
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        v[me] - best_other
    } else {
        v[me]
    }
}

/// An advantage as a chance of winning in `0..=1` (a logistic curve of
/// scale 15: ten points ahead is about a 66% chance, 33 points about 90%).
pub fn win_chance(advantage: f64) -> f64 {
    1.0 / (1.0 + (-advantage / 15.0).exp())
}
