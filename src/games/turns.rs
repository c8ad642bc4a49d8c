//! Whole turns of one seat, listed by a beam search: for a game whose turn
//! is several decisions of the same seat (Sprout-R-Out's sub-moves).
//!
//! From a position where `seat` decides, every legal decision is played on
//! a copy and valued by an evaluation; the `width` best partial turns (a
//! stable sort: equal values keep the order the decisions were listed in,
//! so the list is a function of the position) are extended the same way
//! until each turn ends (the next node is not `seat`'s decision) or reaches
//! [`MAX_TURN`] decisions. Every complete turn found is kept, in the order
//! found, with its decisions, its end position and that position's value.
//!
//! The generic greedy bot's whole-turn plan (`bots/greedy.rs`) plays the
//! first decision of the best of them; Sprout-R-Out's turn search
//! (`sprout_r_out/search.rs`) judges the best few by playouts. Kept here,
//! below `bots/`, because a game's own search uses it.

use crate::core::protocol::{GameState, Next, Seat};

/// Most decisions one turn may have; a longer turn is cut there and listed
/// as it stands.
pub const MAX_TURN: usize = 64;

/// A turn found by [`beam_turns`]: the position after it and that
/// position's value. Its decisions are read from the [`Turns`] it came in.
#[derive(Clone, Debug)]
pub struct Turn<S> {
    pub end: S,
    pub value: f64,
    /// Its last decision's entry in [`Turns::steps`].
    last: u32,
}

/// The turns a beam search found, and the decisions they share.
#[derive(Clone, Debug)]
pub struct Turns<S: GameState> {
    /// Complete turns in the order found; when none could be completed
    /// (no decision was legal below some partial turn), the partial turns
    /// of the last beam, best first.
    pub found: Vec<Turn<S>>,
    /// Whether `found` holds complete turns.
    pub complete: bool,
    /// Every decision made: the entry of the decision before it in the
    /// same turn (`u32::MAX` for a turn's first) and the decision.
    steps: Vec<(u32, S::Action)>,
}

impl<S: GameState> Turns<S> {
    /// The decisions of `turn`, first first.
    pub fn actions(&self, turn: &Turn<S>) -> Vec<S::Action> {
        let mut out = Vec::new();
        let mut at = turn.last;
        while let Some(&(before, a)) = self.steps.get(at as usize) {
            out.push(a);
            at = before;
        }
        out.reverse();
        out
    }

    /// The first decision of `turn`.
    pub fn first(&self, turn: &Turn<S>) -> S::Action {
        let mut at = turn.last as usize;
        loop {
            let (before, a) = self.steps[at];
            if before == u32::MAX {
                return a;
            }
            at = before as usize;
        }
    }
}

/// Every turn the beam of `width` partial turns reaches from `state`,
/// `seat` to decide, each valued by `evaluate(position, seat)`.
pub fn beam_turns<S: GameState>(
    state: &S,
    seat: Seat,
    width: usize,
    evaluate: impl Fn(&S, Seat) -> f64,
) -> Turns<S> {
    let width = width.max(1);
    let mut steps: Vec<(u32, S::Action)> = Vec::with_capacity(64);
    let mut found: Vec<Turn<S>> = Vec::new();
    let mut beam: Vec<Turn<S>> = Vec::with_capacity(width);
    let mut next: Vec<Turn<S>> = Vec::new();
    let mut legal = Vec::with_capacity(64);
    for depth in 0..MAX_TURN {
        next.clear();
        let parents: Vec<(&S, u32)> = if depth == 0 {
            vec![(state, u32::MAX)]
        } else {
            beam.iter().map(|t| (&t.end, t.last)).collect()
        };
        for (from, before) in parents {
            from.legal_actions(&mut legal);
            for &a in &legal {
                let mut end = from.clone();
                end.play_unchecked(a);
                let value = evaluate(&end, seat);
                let last = u32::try_from(steps.len()).expect("fewer than 2^32 decisions");
                steps.push((before, a));
                let t = Turn { end, value, last };
                if t.end.next() == Next::Decide(seat) && depth + 1 < MAX_TURN {
                    next.push(t);
                } else {
                    found.push(t);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_by(|a, b| b.value.total_cmp(&a.value));
        next.truncate(width);
        std::mem::swap(&mut beam, &mut next);
    }
    let complete = !found.is_empty();
    if !complete {
        found = beam;
    }
    Turns {
        found,
        complete,
        steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dice::SeededDice;
    use crate::games::sprout_r_out::{Rules, State, evaluate};

    /// Every turn listed, from positions of seeded random Sprout-R-Out
    /// games, replays from the start position through legal decisions to
    /// its end position, where the seat's turn is over, and carries the
    /// evaluation of that end; with a beam of 1 every turn longer than one
    /// decision extends the same partial turn.
    #[test]
    fn every_turn_replays_to_its_end() {
        let mut checked = 0;
        let mut longer = 0;
        for seed in 1..=3u64 {
            let mut dice = SeededDice::new(seed, 3);
            let mut state = State::new(&Rules::standard(), 2);
            while let Next::Decide(seat) = state.next() {
                if state.sub() == 0 {
                    for width in [1, 4] {
                        let turns = beam_turns(&state, seat, width, evaluate);
                        assert!(turns.complete, "seed {seed}");
                        let mut prefixes = Vec::new();
                        for t in &turns.found {
                            let actions = turns.actions(t);
                            assert_eq!(actions[0], turns.first(t));
                            let mut s = state.clone();
                            for &a in &actions {
                                assert_eq!(s.next(), Next::Decide(seat));
                                assert!(s.is_legal(a), "seed {seed}: {actions:?}");
                                s.play_unchecked(a);
                            }
                            assert_ne!(s.next(), Next::Decide(seat));
                            assert_eq!(s.position_hash(), t.end.position_hash());
                            assert_eq!(t.value, evaluate(&t.end, seat));
                            if actions.len() > 1 {
                                longer += 1;
                                let p = actions[..actions.len() - 1].to_vec();
                                if !prefixes.contains(&p) {
                                    prefixes.push(p);
                                }
                            }
                            checked += 1;
                        }
                        // At most `width` partial turns at each length.
                        for len in 1..MAX_TURN {
                            let at = prefixes.iter().filter(|p| p.len() == len).count();
                            assert!(at <= width, "seed {seed}: {at} prefixes of {len}");
                        }
                    }
                }
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
        }
        assert!(checked > 100, "{checked} turns checked");
        assert!(longer > 20, "{longer} turns of several decisions");
    }
}
