//! Per-run totals, built one game at a time in integers.

use std::collections::BTreeMap;

use crate::games::{Game, Stat};
use crate::sim::GameResult;
use crate::sim::histogram::Histogram;

/// Everything a [`crate::sim::Report`] is computed from. Integer counts and
/// histograms only, so the totals do not depend on the order games finish in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    pub players: u8,
    pub games: u64,
    /// Sole wins per seat.
    pub seat_wins: Vec<u64>,
    /// Sum of scores per seat.
    pub seat_score: Vec<i64>,
    pub ties: u64,
    /// The game's ways to end, and how many games ended each way.
    pub end_reasons: &'static [Stat],
    pub ends: Vec<u64>,
    /// The game's counts per game, one histogram each.
    pub counter_names: &'static [Stat],
    pub counters: Vec<Histogram>,
    /// Which counter measures game length.
    pub length: usize,
    pub margin: Histogram,
    /// Per bot name: (seats played, sole wins).
    pub bots: BTreeMap<String, (u64, u64)>,
    /// Games ended by an external player's forfeit.
    pub forfeits: u64,
}

impl Accumulator {
    pub fn new<G: Game>(players: u8) -> Accumulator {
        Accumulator {
            players,
            seat_wins: vec![0; usize::from(players)],
            seat_score: vec![0; usize::from(players)],
            end_reasons: G::END_REASONS,
            ends: vec![0; G::END_REASONS.len()],
            counter_names: G::COUNTERS,
            counters: vec![Histogram::default(); G::COUNTERS.len()],
            length: G::LENGTH,
            ..Accumulator::default()
        }
    }

    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        match r.winner {
            Some(w) => self.seat_wins[usize::from(w)] += 1,
            None => self.ties += 1,
        }
        for (s, &score) in r.scores.iter().enumerate() {
            self.seat_score[s] += i64::from(score);
        }
        if let Some(n) = self.ends.get_mut(r.end_reason) {
            *n += 1;
        }
        if r.forfeit.is_some() {
            self.forfeits += 1;
        }
        for (h, &c) in self.counters.iter_mut().zip(&r.counters) {
            h.add(c);
        }
        self.margin.add(r.margin);
        for (s, b) in r.bots.iter().enumerate() {
            let e = self.bots.entry(b.clone()).or_default();
            e.0 += 1;
            if r.winner == Some(s as u8) {
                e.1 += 1;
            }
        }
    }
}
