//! Per-run totals, built one game at a time in integers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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

/// An [`Accumulator`] as data: what a partial result file (`--shard`)
/// keeps, every figure an exact integer, with the game's statistic keys so
/// that a file of another game (or another version's counters) is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccumulatorData {
    pub players: u8,
    pub games: u64,
    pub seat_wins: Vec<u64>,
    pub seat_score: Vec<i64>,
    pub ties: u64,
    /// Games per way to end, by the game's key, in its order.
    pub ends: Vec<(String, u64)>,
    /// Each counter's histogram (count of each value from 0), by key.
    pub counters: Vec<(String, Vec<u64>)>,
    pub margin: Vec<u64>,
    /// Per bot name: [seats played, sole wins].
    pub bots: BTreeMap<String, (u64, u64)>,
}

impl Accumulator {
    /// Add another accumulator's totals (of other games of the same run):
    /// integer sums, so the order of merging does not matter.
    pub fn merge(&mut self, other: &Accumulator) {
        self.games += other.games;
        self.ties += other.ties;
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        for (a, b) in self.seat_score.iter_mut().zip(&other.seat_score) {
            *a += b;
        }
        for (a, b) in self.ends.iter_mut().zip(&other.ends) {
            *a += b;
        }
        for (a, b) in self.counters.iter_mut().zip(&other.counters) {
            a.merge(b);
        }
        self.margin.merge(&other.margin);
        for (bot, (played, wins)) in &other.bots {
            let e = self.bots.entry(bot.clone()).or_default();
            e.0 += played;
            e.1 += wins;
        }
    }

    /// The totals as data, for a partial result file.
    pub fn to_data(&self) -> AccumulatorData {
        AccumulatorData {
            players: self.players,
            games: self.games,
            seat_wins: self.seat_wins.clone(),
            seat_score: self.seat_score.clone(),
            ties: self.ties,
            ends: self
                .end_reasons
                .iter()
                .zip(&self.ends)
                .map(|(s, &n)| (s.key.to_owned(), n))
                .collect(),
            counters: self
                .counter_names
                .iter()
                .zip(&self.counters)
                .map(|(s, h)| (s.key.to_owned(), h.counts().to_vec()))
                .collect(),
            margin: self.margin.counts().to_vec(),
            bots: self.bots.clone(),
        }
    }

    /// The totals of game `G` back from data; an error says what does not
    /// fit the game.
    pub fn from_data<G: Game>(d: &AccumulatorData) -> Result<Accumulator, String> {
        let seats = usize::from(d.players);
        if d.seat_wins.len() != seats || d.seat_score.len() != seats {
            return Err(format!("the seat totals are not for {} players", d.players));
        }
        let want = |s: &[Stat]| s.iter().map(|s| s.key).collect::<Vec<_>>();
        let ends: Vec<&str> = d.ends.iter().map(|(k, _)| k.as_str()).collect();
        let counters: Vec<&str> = d.counters.iter().map(|(k, _)| k.as_str()).collect();
        if ends != want(G::END_REASONS) || counters != want(G::COUNTERS) {
            return Err(format!(
                "the statistics are not those of {} in this version of roots",
                G::TITLE
            ));
        }
        let mut acc = Accumulator::new::<G>(d.players);
        acc.games = d.games;
        acc.seat_wins = d.seat_wins.clone();
        acc.seat_score = d.seat_score.clone();
        acc.ties = d.ties;
        acc.ends = d.ends.iter().map(|(_, n)| *n).collect();
        acc.counters = d
            .counters
            .iter()
            .map(|(_, c)| Histogram::from_counts(c.clone()))
            .collect();
        acc.margin = Histogram::from_counts(d.margin.clone());
        acc.bots = d.bots.clone();
        Ok(acc)
    }
}
