//! Per-run totals, built one game at a time in integers.

use std::collections::BTreeMap;

use crate::roots::EndReason;
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
    pub nutrients_out: u64,
    pub beads_out: u64,
    pub round_limit: u64,
    pub rounds: Histogram,
    pub turns: Histogram,
    pub placements: Histogram,
    pub rains: Histogram,
    pub struggles: Histogram,
    pub severings: Histogram,
    pub spawns: Histogram,
    pub nutrients_scored: Histogram,
    pub points_lost: Histogram,
    pub lead_changes: Histogram,
    pub margin: Histogram,
    /// Per bot name: (seats played, sole wins).
    pub bots: BTreeMap<String, (u64, u64)>,
}

impl Accumulator {
    pub fn new(players: u8) -> Accumulator {
        Accumulator {
            players,
            seat_wins: vec![0; usize::from(players)],
            seat_score: vec![0; usize::from(players)],
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
        match r.end_reason {
            EndReason::NutrientsOut => self.nutrients_out += 1,
            EndReason::BeadsOut => self.beads_out += 1,
            EndReason::RoundLimit => self.round_limit += 1,
        }
        self.rounds.add(r.rounds);
        self.turns.add(r.turns);
        self.placements.add(r.placements);
        self.rains.add(r.rains);
        self.struggles.add(r.struggles);
        self.severings.add(r.severings);
        self.spawns.add(r.spawns);
        self.nutrients_scored.add(r.nutrients_scored);
        self.points_lost.add(r.points_lost);
        self.lead_changes.add(r.lead_changes);
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
