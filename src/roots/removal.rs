//! The lost-end rule: what else leaves the board after a bead is removed.
//!
//! The algorithm (docs/rules.md states it for players):
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

use crate::core::geometry::Point;
use crate::core::protocol::Seat;
use crate::roots::state::{DanglingEnd, State};

impl State {
    /// The dangling ends left by removing the bead of `owner` at `point`
    /// (already off the board), in the order of the ends around `point`.
    pub fn dangling(&self, point: Point, owner: Seat) -> Vec<DanglingEnd> {
        let ends: Vec<Point> = self.own_around(owner, point).collect();
        let mut side_of = vec![usize::MAX; ends.len()];
        let mut sides = 0;
        for i in 0..ends.len() {
            if side_of[i] != usize::MAX {
                continue;
            }
            let piece = self.piece(owner, ends[i]);
            for j in i..ends.len() {
                if piece[ends[j].index()] {
                    side_of[j] = sides;
                }
            }
            sides += 1;
        }
        let mut out = Vec::new();
        for side in 0..sides {
            let members: Vec<usize> = (0..ends.len()).filter(|&i| side_of[i] == side).collect();
            if members.len() != 1 {
                continue;
            }
            let beads = self.prune(owner, ends[members[0]]);
            if !beads.is_empty() {
                out.push(DanglingEnd {
                    end: ends[members[0]],
                    beads,
                });
            }
        }
        out
    }

    /// Every bead of `owner` connected to `start`, marked in a bitmap of the
    /// board's cells.
    fn piece(&self, owner: Seat, start: Point) -> Vec<bool> {
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![start];
        seen[start.index()] = true;
        while let Some(p) = stack.pop() {
            for q in self.own_around(owner, p) {
                if !seen[q.index()] {
                    seen[q.index()] = true;
                    stack.push(q);
                }
            }
        }
        seen
    }

    /// The dangling end that starts at `end`.
    fn prune(&self, owner: Seat, end: Point) -> Vec<Point> {
        let mut chain: Vec<Point> = Vec::new();
        let mut cur = end;
        loop {
            let mut rest = self.own_around(owner, cur).filter(|q| !chain.contains(q));
            let first = rest.next();
            if rest.next().is_some() {
                return chain; // a split: it stays
            }
            chain.push(cur);
            match first {
                Some(q) => cur = q,
                None => return chain, // the whole piece dangled
            }
        }
    }
}
