//! The lost-end rule: what else leaves the board after a bead is removed.
//!
//! The algorithm (docs/games/roots-and-shoots.md states it for players):
//!
//! 1. The removed bead's neighbours of the same colour are its *ends*. Ends
//!    still connected to each other through the owner's beads form one *side*.
//! 2. A side with two or more ends is a loop closed around the gap: nothing
//!    more is lost from it (Example E, the loop).
//! 3. A side with one end is pruned from that end: while the current bead
//!    touches at most one remaining bead of its colour (ignoring the beads
//!    already pruned), it is part of the dangling end, and the walk moves on to
//!    that one bead. The walk stops at a *split*, a bead that still touches two
//!    or more (Examples C and D), or when the whole piece is used up (Example
//!    B). If the end itself is a split, the side dangles nothing (Example E,
//!    branches at both ends).
//! 4. Sides with a non-empty dangling end are candidates. `removal.lost_ends`
//!    then decides: `one_end` loses the only candidate, or lets the owner
//!    choose one when there are several; `all_ends` loses every candidate;
//!    `none` loses nothing but the bead.
//!
//! When the removed bead had a single neighbour of its colour (one end, so
//! one side), `State::lose_only_end` does step 3 in place, without lists;
//! debug builds check it against [`State::dangling`].

use crate::core::geometry::{Point, PointSet};
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::state::{DanglingEnd, State};

impl State {
    /// The dangling ends left by removing the bead of `owner` at `point`
    /// (already off the board), in the order of the ends around `point`.
    /// Allocates only for the ends it returns.
    pub fn dangling(&self, point: Point, owner: Seat) -> Vec<DanglingEnd> {
        let mut ends = [Point(0); 8];
        let mut n = 0;
        for q in self.own_around(owner, point) {
            ends[n] = q;
            n += 1;
        }
        // The side of each end: ends joined through the owner's beads share
        // one. Ends that touch are joined at once; the others need a search,
        // one from the first end of each side toward the first ends of the
        // later sides.
        let mut side: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        let merge = |side: &mut [u8; 8], a: u8, b: u8| {
            let (keep, gone) = (a.min(b), a.max(b));
            side[..n]
                .iter_mut()
                .filter(|s| **s == gone)
                .for_each(|s| *s = keep);
        };
        let offsets = self.grid().offsets();
        for i in 0..n {
            for j in i + 1..n {
                let d = ends[j].0.wrapping_sub(ends[i].0) as i16;
                let (a, b) = (side[i], side[j]);
                if a != b && offsets.contains(&d) {
                    merge(&mut side, a, b);
                }
            }
        }
        for i in 0..n {
            if usize::from(side[i]) != i {
                continue; // not the first end of its side
            }
            let mut later = [Point(0); 8];
            let mut k = 0;
            for j in i + 1..n {
                if usize::from(side[j]) == j {
                    later[k] = ends[j];
                    k += 1;
                }
            }
            if k == 0 {
                continue;
            }
            let joined = self.joined(owner, ends[i], &later[..k]);
            for j in i + 1..n {
                if usize::from(side[j]) == j && joined.contains(ends[j]) {
                    let (a, b) = (side[i], side[j]);
                    merge(&mut side, a, b);
                }
            }
        }
        let mut out = Vec::new();
        for i in 0..n {
            // Only a side with a single end dangles.
            if side[..n].iter().filter(|&&s| s == side[i]).count() != 1 {
                continue;
            }
            let beads = self.prune(owner, ends[i]);
            if !beads.is_empty() {
                out.push(DanglingEnd {
                    end: ends[i],
                    beads,
                });
            }
        }
        out
    }

    /// The lost-end rule when the removed bead had a single neighbour of its
    /// colour, the common case: one end, so one side, whose dangling part is
    /// lost whatever the mode. The prune of [`State::dangling`] done in place:
    /// each bead that touches at most one other of its colour is taken off as
    /// the walk passes, so the beads already lost need no list to be ignored.
    pub(crate) fn lose_only_end(&mut self, point: Point, owner: Seat) {
        let expected = if cfg!(debug_assertions) {
            self.dangling(point, owner)
                .pop()
                .map(|e| e.beads)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut lost = Vec::new();
        let mut cur = self.own_around(owner, point).next();
        while let Some(p) = cur {
            match self.adj_of(owner, p) {
                0 => cur = None, // the whole piece dangled
                1 => cur = self.own_around(owner, p).next(),
                _ => break, // a split: it stays
            }
            self.remove_bead(p);
            self.stats.beads_lost_to_ends += 1;
            if cfg!(debug_assertions) {
                lost.push(p);
            }
        }
        debug_assert_eq!(lost, expected, "in-place prune differs from `dangling`");
    }

    /// The beads of `owner` connected to `start`, searched until every point
    /// of `targets` is found or the piece is used up.
    fn joined(&self, owner: Seat, start: Point, targets: &[Point]) -> PointSet {
        let mut seen = PointSet::new();
        // Depth-first, on a small stack that spills to the heap only for a
        // very large piece: no board-sized array to clear on every removal.
        let mut stack = [Point(0); 64];
        let mut spill: Vec<Point> = Vec::new();
        let mut top = 1;
        stack[0] = start;
        seen.insert(start);
        let mut missing = targets.len();
        loop {
            let p = match spill.pop() {
                Some(p) => p,
                None if top > 0 => {
                    top -= 1;
                    stack[top]
                }
                None => return seen,
            };
            for q in self.own_around(owner, p) {
                if seen.insert(q) {
                    if targets.contains(&q) {
                        missing -= 1;
                        if missing == 0 {
                            return seen;
                        }
                    }
                    if top < stack.len() {
                        stack[top] = q;
                        top += 1;
                    } else {
                        spill.push(q);
                    }
                }
            }
        }
    }

    /// The dangling end that starts at `end`.
    fn prune(&self, owner: Seat, end: Point) -> Vec<Point> {
        let mut chain: Vec<Point> = Vec::new();
        let mut in_chain = PointSet::new();
        let mut cur = end;
        loop {
            let mut rest = self
                .own_around(owner, cur)
                .filter(|&q| !in_chain.contains(q));
            let first = rest.next();
            if rest.next().is_some() {
                return chain; // a split: it stays
            }
            chain.push(cur);
            in_chain.insert(cur);
            match first {
                Some(q) => cur = q,
                None => return chain, // the whole piece dangled
            }
        }
    }
}
