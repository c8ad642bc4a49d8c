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
        first_of(&self.steps, turn.last)
    }
}

/// A turn found by [`beam_values`]: its value alone, the position after it
/// dropped once valued.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnValue {
    pub value: f64,
    /// Its last decision's entry in [`TurnValues::steps`].
    last: u32,
}

/// The turns [`beam_values`] found: [`Turns`] without the end positions.
#[derive(Clone, Debug)]
pub struct TurnValues<A> {
    /// As [`Turns::found`], in the same order.
    pub found: Vec<TurnValue>,
    /// Whether `found` holds complete turns.
    pub complete: bool,
    steps: Vec<(u32, A)>,
}

impl TurnValue {
    fn of<S>(t: &Turn<S>) -> TurnValue {
        TurnValue {
            value: t.value,
            last: t.last,
        }
    }
}

impl<A: Copy> TurnValues<A> {
    /// The first decision of `turn`.
    pub fn first(&self, turn: &TurnValue) -> A {
        first_of(&self.steps, turn.last)
    }
}

/// The first decision of the turn whose last decision is `steps[last]`.
fn first_of<A: Copy>(steps: &[(u32, A)], last: u32) -> A {
    let mut at = last as usize;
    loop {
        let (before, a) = steps[at];
        if before == u32::MAX {
            return a;
        }
        at = before as usize;
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
    let mut found = Vec::new();
    let (beam, steps) = beam(state, seat, width, evaluate, |t| found.push(t));
    let complete = !found.is_empty();
    Turns {
        found: if complete { found } else { beam },
        complete,
        steps,
    }
}

/// [`beam_turns`]' turns and values, in the same order, without keeping an
/// end position: for a caller that reads only the values and the first
/// decisions (the generic greedy bot's plan), at a fraction of the memory.
pub fn beam_values<S: GameState>(
    state: &S,
    seat: Seat,
    width: usize,
    evaluate: impl Fn(&S, Seat) -> f64,
) -> TurnValues<S::Action> {
    let mut found = Vec::new();
    let (beam, steps) = beam(state, seat, width, evaluate, |t| {
        found.push(TurnValue::of(&t));
    });
    let complete = !found.is_empty();
    if !complete {
        found = beam.iter().map(TurnValue::of).collect();
    }
    TurnValues {
        found,
        complete,
        steps,
    }
}

/// Every decision of a search: the entry of the decision before it in the
/// same turn (`u32::MAX` for a turn's first) and the decision.
type Steps<A> = Vec<(u32, A)>;

/// The search of [`beam_turns`]: each complete turn is handed to `done` as
/// it is found; returns the last beam of partial turns (best first) and
/// every decision made.
fn beam<S: GameState>(
    state: &S,
    seat: Seat,
    width: usize,
    evaluate: impl Fn(&S, Seat) -> f64,
    mut done: impl FnMut(Turn<S>),
) -> (Vec<Turn<S>>, Steps<S::Action>) {
    let width = width.max(1);
    let mut steps: Vec<(u32, S::Action)> = Vec::with_capacity(64);
    let mut beam: Vec<Turn<S>> = Vec::with_capacity(width);
    let mut next: Vec<Turn<S>> = Vec::with_capacity(width + 1);
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
                    keep_best(&mut next, t, width);
                } else {
                    done(t);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        std::mem::swap(&mut beam, &mut next);
    }
    (beam, steps)
}

/// Adds `t` to `best`, the `width` best partial turns so far, best first,
/// equal values in the order listed: what a stable sort by value of every
/// turn listed, cut to `width`, keeps, without holding the others (a turn
/// that cannot be among them is dropped at once, so a step of the search
/// holds at most `width` positions besides the beam).
fn keep_best<S>(best: &mut Vec<Turn<S>>, t: Turn<S>, width: usize) {
    // After every turn at least as good: those were listed first.
    let at = best.partition_point(|b| b.value.total_cmp(&t.value).is_ge());
    if at < width {
        best.insert(at, t);
        best.truncate(width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::dice::SeededDice;
    use crate::games::sprout_r_out::{Rules, State, evaluate};

    /// `keep_best` keeps what a stable sort by value of the whole list,
    /// cut to `width`, keeps, in the same order: values with many ties
    /// (and NaN and the infinities, ordered as `total_cmp` orders them),
    /// lists shorter and longer than the width.
    #[test]
    fn keep_best_is_a_stable_sort_cut_to_width() {
        let mut dice = SeededDice::new(7, 0);
        let pool = [
            0.0,
            1.0,
            -1.0,
            0.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -0.0,
        ];
        for case in 0..2_000u32 {
            let len = (case % 40) as usize;
            let width = 1 + (case / 40 % 9) as usize;
            let values: Vec<f64> = (0..len)
                .map(|_| pool[dice.below(pool.len() as u32) as usize])
                .collect();
            let mut kept: Vec<Turn<u32>> = Vec::new();
            for (i, &value) in values.iter().enumerate() {
                let t = Turn {
                    end: i as u32,
                    value,
                    last: i as u32,
                };
                keep_best(&mut kept, t, width);
                assert!(kept.len() <= width);
            }
            let mut sorted: Vec<(u32, f64)> = values
                .iter()
                .enumerate()
                .map(|(i, &v)| (i as u32, v))
                .collect();
            sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
            sorted.truncate(width);
            let got: Vec<u32> = kept.iter().map(|t| t.end).collect();
            let want: Vec<u32> = sorted.iter().map(|&(i, _)| i).collect();
            assert_eq!(got, want, "case {case}: {values:?}, width {width}");
        }
    }

    /// `beam_values` lists the turns `beam_turns` lists, in the same
    /// order, with the same values and first decisions.
    #[test]
    fn beam_values_are_beam_turns_without_the_positions() {
        let mut compared = 0;
        for seed in 1..=3u64 {
            let mut dice = SeededDice::new(seed, 5);
            let mut state = State::new(&Rules::standard(), 2);
            while let Next::Decide(seat) = state.next() {
                for width in [1, 3, 16] {
                    let turns = beam_turns(&state, seat, width, evaluate);
                    let values = beam_values(&state, seat, width, evaluate);
                    assert_eq!(turns.complete, values.complete);
                    assert_eq!(turns.found.len(), values.found.len());
                    for (t, v) in turns.found.iter().zip(&values.found) {
                        assert_eq!(t.value.to_bits(), v.value.to_bits());
                        assert_eq!(turns.first(t), values.first(v));
                        compared += 1;
                    }
                }
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
        }
        assert!(compared > 1_000, "{compared} turns compared");
    }

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
