//! Per-run totals, built one game at a time in integers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::game::GameResult;
use crate::games::{Game, RuleEvent, Stat};
use crate::sim::histogram::Histogram;
use crate::sim::measures::MeasureTotals;

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
    /// The evaluation measures and rule events ([`crate::sim::measures`]).
    pub measures: MeasureTotals,
    /// The game's rule events.
    pub rule_events: &'static [RuleEvent],
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
            measures: MeasureTotals::new(G::RULE_EVENTS.len()),
            rule_events: G::RULE_EVENTS,
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
        self.measures.add(&r.measures, &r.top);
        for (s, b) in r.bots.iter().enumerate() {
            // The name is copied only the first time it is seen.
            let e = match self.bots.get_mut(b) {
                Some(e) => e,
                None => self.bots.entry(b.clone()).or_default(),
            };
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
    /// The evaluation measures' exact totals (absent from files of
    /// versions before them: their reports then lack the measures).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measures: Option<MeasureTotals>,
}

impl AccumulatorData {
    /// Check that the totals add up as the totals of real games do: the
    /// wins and ties make the games, every histogram counts each game once,
    /// every seat of every game had a bot. Every sum is checked, so a
    /// forged figure near `u64::MAX` cannot wrap into a plausible one.
    pub fn check(&self) -> Result<(), String> {
        fn sum(xs: &mut dyn Iterator<Item = u64>) -> Result<u64, String> {
            let mut total = 0u64;
            for x in xs {
                total = total
                    .checked_add(x)
                    .ok_or_else(|| "a sum is larger than 2^64".to_string())?;
            }
            Ok(total)
        }
        let games = self.games;
        let seats = usize::from(self.players);
        if self.seat_wins.len() != seats || self.seat_score.len() != seats {
            return Err(format!(
                "the seat totals are not for {} players",
                self.players
            ));
        }
        let decided = sum(&mut self.seat_wins.iter().copied())?;
        if decided.checked_add(self.ties) != Some(games) {
            return Err(format!(
                "expected the wins and ties to make the {games} games, found {decided} wins and {} ties",
                self.ties
            ));
        }
        let ended = sum(&mut self.ends.iter().map(|(_, n)| *n))?;
        if ended > games {
            return Err(format!(
                "expected at most {games} games by way of ending, found {ended}"
            ));
        }
        for (key, counts) in &self.counters {
            let n = sum(&mut counts.iter().copied())?;
            if n != games {
                return Err(format!(
                    "expected the histogram of `{key}` to count the {games} games, found {n}"
                ));
            }
        }
        let n = sum(&mut self.margin.iter().copied())?;
        if n != games {
            return Err(format!(
                "expected the histogram of margins to count the {games} games, found {n}"
            ));
        }
        let played = sum(&mut self.bots.values().map(|b| b.0))?;
        let won = sum(&mut self.bots.values().map(|b| b.1))?;
        if Some(played) != games.checked_mul(u64::from(self.players))
            || won != decided
            || self.bots.values().any(|b| b.1 > b.0)
        {
            return Err(format!(
                "expected the bots to play {} seats and win {decided} games, found {played} seats and {won} wins",
                u128::from(games) * u128::from(self.players)
            ));
        }
        if let Some(m) = &self.measures {
            m.check(games, &self.seat_wins, self.ties)?;
        }
        Ok(())
    }

    /// The totals of two parts of one run, added; an error if a sum would
    /// not fit (it cannot for real games: at most `MAX_GAMES` a run).
    pub fn checked_add(&self, other: &AccumulatorData) -> Result<AccumulatorData, String> {
        let too_large = || "the totals of the parts are too large to add (past 2^63)".to_string();
        if self.players != other.players
            || self.seat_wins.len() != other.seat_wins.len()
            || self.seat_score.len() != other.seat_score.len()
            || self
                .ends
                .iter()
                .map(|e| &e.0)
                .ne(other.ends.iter().map(|e| &e.0))
            || self
                .counters
                .iter()
                .map(|c| &c.0)
                .ne(other.counters.iter().map(|c| &c.0))
        {
            return Err("the parts' totals are not of the same statistics".into());
        }
        let add = |a: u64, b: u64| a.checked_add(b).ok_or_else(too_large);
        let add_all = |a: &[u64], b: &[u64]| -> Result<Vec<u64>, String> {
            let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
            long.iter()
                .enumerate()
                .map(|(i, &x)| add(x, short.get(i).copied().unwrap_or(0)))
                .collect()
        };
        let mut bots = self.bots.clone();
        for (bot, (played, wins)) in &other.bots {
            let e = bots.entry(bot.clone()).or_default();
            *e = (add(e.0, *played)?, add(e.1, *wins)?);
        }
        Ok(AccumulatorData {
            players: self.players,
            games: add(self.games, other.games)?,
            seat_wins: add_all(&self.seat_wins, &other.seat_wins)?,
            seat_score: self
                .seat_score
                .iter()
                .zip(&other.seat_score)
                .map(|(a, b)| a.checked_add(*b).ok_or_else(too_large))
                .collect::<Result<_, _>>()?,
            ties: add(self.ties, other.ties)?,
            ends: self
                .ends
                .iter()
                .zip(&other.ends)
                .map(|((k, a), (_, b))| Ok((k.clone(), add(*a, *b)?)))
                .collect::<Result<_, String>>()?,
            counters: self
                .counters
                .iter()
                .zip(&other.counters)
                .map(|((k, a), (_, b))| Ok((k.clone(), add_all(a, b)?)))
                .collect::<Result<_, String>>()?,
            margin: add_all(&self.margin, &other.margin)?,
            bots,
            // Both parts' measures, or none (a part of a version before
            // them has none: the merged report then lacks the measures).
            measures: match (&self.measures, &other.measures) {
                (Some(a), Some(b)) => {
                    // A part of no games counts no house rules: any
                    // other two count the same ones.
                    let scripts_differ = !a.scripts.is_empty()
                        && !b.scripts.is_empty()
                        && a.scripts.len() != b.scripts.len();
                    if a.moments.len() != b.moments.len()
                        || a.events.len() != b.events.len()
                        || scripts_differ
                    {
                        return Err("the parts' measures are not of the same statistics".into());
                    }
                    if !a.can_merge(b) {
                        return Err(too_large());
                    }
                    let mut m = a.clone();
                    m.merge(b);
                    Some(m)
                }
                _ => None,
            },
        })
    }
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
        self.measures.merge(&other.measures);
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
            measures: Some(self.measures.clone()),
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
        if let Some(m) = &d.measures {
            if m.events.len() != G::RULE_EVENTS.len()
                || m.moments.len() != crate::sim::measures::PER_GAME.len()
            {
                return Err(format!(
                    "the measures are not those of {} in this version of roots",
                    G::TITLE
                ));
            }
            acc.measures = m.clone();
        }
        Ok(acc)
    }
}
