//! Paired analysis of matched games (`roots compare`): game `i` of A and
//! game `i` of B roll the same dice, so the pair is the unit of the
//! analysis. Each statistic's difference B - A, its standard error and its
//! test come from the pairs (docs/statistics.md, "Matched games, paired").
//!
//! Every statistic of the primary family is a ratio of two per-game sums,
//! `sum x / sum y`: a rate has `y = 1` and `x` the 0 or 1 of the event, a
//! count's mean has `y = 1` and `x` the count, seat 1's share of decided
//! games has `x` = seat 1 won and `y` = the game was decided, a bot's wins
//! `x` = seats it won and `y` = seats it played. A pair of games gives
//! `(xa, ya, xb, yb)`; [`Pairs`] keeps, per statistic, the sums of these
//! four and of their ten products in exact integers, so shards add up and
//! the figures do not depend on the order games finish in. The difference
//! `Rb - Ra` of the two ratios gets its standard error from the pairs by the
//! delta method: each pair contributes
//! `z = (xb - Rb yb) / mean(yb) - (xa - Ra ya) / mean(ya)`, which for a
//! rate or a mean is the pair's difference less the mean difference.
//!
//! Two pseudo-pairs, one at `+s` and one at `-s`, are added to the spread
//! (`s` = 1 for a rate, the larger per-game standard deviation for a
//! count): the paired form of Agresti and Caffo's added win and loss, so
//! that 10 identical pairs are not taken for an exact "no difference".

use serde::{Deserialize, Serialize};

use super::game::GameResult;
use super::verdict::{Statistic, Unit};

/// The key of seat 1's share of the decided games.
pub const FIRST_SEAT: &str = "first-player-advantage";

/// The key of the winning margin (`crate::sim::MARGIN`'s).
pub const MARGIN_KEY: &str = "margin";

/// The paired sums of one statistic.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSums {
    /// The statistic's key (`seat1-wins`, `rounds`).
    pub key: String,
    /// Sums of `xa, ya, xb, yb` over the pairs.
    pub sums: [i64; 4],
    /// Sums of the products `xa xa, xa ya, xa xb, xa yb, ya ya, ya xb, ya
    /// yb, xb xb, xb yb, yb yb`.
    pub products: [i64; 10],
    /// Pairs whose two games gave this statistic different values.
    pub differing: u64,
}

/// The paired sums of a comparison: what `compare` keeps of its matched
/// games beyond each side's totals, and what a part of `compare --shard`
/// carries for `merge`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairs {
    /// Matched pairs of games.
    pub pairs: u64,
    /// Pairs whose two games agree in every statistic kept here (winner,
    /// way to end, every count).
    pub identical: u64,
    pub stats: Vec<PairedSums>,
}

/// Which statistics a game gives, in order: fixed by the first game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    keys: Vec<String>,
    players: usize,
    bots: Vec<String>,
}

impl Layout {
    fn of(r: &GameResult) -> Layout {
        let players = r.scores.len();
        let mut bots = r.bots.clone();
        bots.sort();
        bots.dedup();
        if bots.len() < 2 {
            bots.clear();
        }
        let mut keys = Vec::new();
        if players > 1 {
            keys.push(FIRST_SEAT.to_owned());
        }
        keys.extend((1..=players).map(|s| format!("seat{s}-wins")));
        keys.push("ties".to_owned());
        keys.extend(r.end_reasons.iter().map(|s| s.key.to_owned()));
        keys.push(super::game::FORFEIT.key.to_owned());
        keys.extend(bots.iter().map(|b| format!("{b}-wins")));
        keys.extend(r.counter_names.iter().map(|s| s.key.to_owned()));
        keys.push(MARGIN_KEY.to_owned());
        Layout {
            keys,
            players,
            bots,
        }
    }

    /// One game's `(x, y)` of every statistic, flat.
    fn values(&self, r: &GameResult, out: &mut Vec<i64>) {
        let won = |s: usize| r.winner.is_some_and(|w| usize::from(w) == s);
        let mut push = |x: i64, y: i64| {
            out.push(x);
            out.push(y);
        };
        if self.players > 1 {
            push(i64::from(won(0)), i64::from(r.winner.is_some()));
        }
        for s in 0..self.players {
            push(i64::from(won(s)), 1);
        }
        push(i64::from(r.winner.is_none()), 1);
        let end = r.end_reason_key();
        for s in r.end_reasons {
            push(i64::from(s.key == end), 1);
        }
        push(i64::from(r.forfeit.is_some()), 1);
        for b in &self.bots {
            let seats = r.bots.iter().enumerate().filter(|(_, x)| *x == b);
            let (mut wins, mut played) = (0, 0);
            for (s, _) in seats {
                played += 1;
                wins += i64::from(won(s));
            }
            push(wins, played);
        }
        for &c in &r.counters {
            push(i64::from(c), 1);
        }
        push(i64::from(r.margin), 1);
    }
}

/// Most games of A kept at once for pairing (a few hundred bytes each):
/// a whole run (or a shard's slice) of more games a side is judged as
/// independent samples, and its table says "Not paired".
pub const MAX_KEPT: usize = 250_000;

/// Builds [`Pairs`] from the games of both sides as they are played: A's
/// games of a range first (kept, in game order), then B's, each folded
/// with A's game of the same index and dropped.
#[derive(Clone, Debug, Default)]
pub struct PairBuilder {
    layout: Option<Layout>,
    /// The first game index of A's kept values.
    first: u64,
    /// A's values, game after game.
    a: Vec<i64>,
    pairs: Pairs,
    /// Set when a game did not fit the layout (another number of seats or
    /// bots): the pairs are then not used.
    broken: bool,
    scratch: Vec<i64>,
}

impl PairBuilder {
    pub fn new() -> PairBuilder {
        PairBuilder::default()
    }

    fn width(&self) -> usize {
        self.layout.as_ref().map_or(0, |l| 2 * l.keys.len())
    }

    /// A game of side A (games in order, from one range). Past
    /// [`MAX_KEPT`] games the pairs are given up (memory stays bounded).
    pub fn add_a(&mut self, r: &GameResult) {
        if self.broken {
            return;
        }
        if self.a.len() / self.width().max(1) >= MAX_KEPT {
            self.broken = true;
            self.a = Vec::new();
            return;
        }
        let layout = self.layout.get_or_insert_with(|| Layout::of(r));
        if self.a.is_empty() {
            self.first = r.game;
        }
        let before = self.a.len();
        layout.values(r, &mut self.a);
        let width = 2 * layout.keys.len();
        let index = (before / width.max(1)) as u64;
        if self.a.len() - before != width || self.first + index != r.game {
            self.broken = true;
        }
    }

    /// A game of side B: folded with A's game of the same index (none: B
    /// played a game A did not, the pairs are then not used).
    pub fn add_b(&mut self, r: &GameResult) {
        if self.broken {
            return;
        }
        let width = self.width();
        let Some(layout) = &self.layout else {
            self.broken = true;
            return;
        };
        let mut b = std::mem::take(&mut self.scratch);
        b.clear();
        layout.values(r, &mut b);
        let at = r.game.checked_sub(self.first).map(|i| i as usize * width);
        let a = at.and_then(|i| self.a.get(i..i + width));
        match a {
            Some(a) if b.len() == width => {
                if self.pairs.stats.is_empty() {
                    self.pairs.stats = layout
                        .keys
                        .iter()
                        .map(|k| PairedSums {
                            key: k.clone(),
                            ..PairedSums::default()
                        })
                        .collect();
                }
                self.pairs.pairs += 1;
                if a == b.as_slice() {
                    self.pairs.identical += 1;
                }
                for (k, s) in self.pairs.stats.iter_mut().enumerate() {
                    s.add([a[2 * k], a[2 * k + 1], b[2 * k], b[2 * k + 1]]);
                }
            }
            _ => self.broken = true,
        }
        self.scratch = b;
    }

    /// Forget A's kept games (after B's of the same range were folded).
    pub fn next_range(&mut self) {
        self.a.clear();
    }

    /// The pairs so far (none when a game did not fit).
    pub fn pairs(&self) -> Option<&Pairs> {
        (!self.broken).then_some(&self.pairs)
    }

    /// The pairs, kept.
    pub fn into_pairs(self) -> Option<Pairs> {
        (!self.broken).then_some(self.pairs)
    }
}

impl PairedSums {
    fn add(&mut self, v: [i64; 4]) {
        if v[0] != v[2] || v[1] != v[3] {
            self.differing += 1;
        }
        for (s, x) in self.sums.iter_mut().zip(v) {
            *s = s.saturating_add(x);
        }
        let mut k = 0;
        for i in 0..4 {
            for j in i..4 {
                self.products[k] = self.products[k].saturating_add(v[i].saturating_mul(v[j]));
                k += 1;
            }
        }
    }

    fn product(&self, i: usize, j: usize) -> f64 {
        let (i, j) = (i.min(j), i.max(j));
        // Row i of the upper triangle starts after the rows before it.
        let start = [0, 4, 7, 9][i];
        self.products[start + j - i] as f64
    }

    fn checked_add(&self, o: &PairedSums) -> Option<PairedSums> {
        let mut out = self.clone();
        for (s, x) in out.sums.iter_mut().zip(o.sums) {
            *s = s.checked_add(x)?;
        }
        for (s, x) in out.products.iter_mut().zip(o.products) {
            *s = s.checked_add(x)?;
        }
        out.differing = out.differing.checked_add(o.differing)?;
        Some(out)
    }
}

impl Pairs {
    /// The pairs of two shards together (the same statistics in each).
    pub fn checked_add(&self, o: &Pairs) -> Result<Pairs, String> {
        let overflow = || "the paired sums overflow".to_owned();
        if self.stats.is_empty() {
            return Ok(o.clone());
        }
        if o.stats.is_empty() {
            return Ok(self.clone());
        }
        if self.stats.len() != o.stats.len()
            || self.stats.iter().zip(&o.stats).any(|(a, b)| a.key != b.key)
        {
            return Err("the parts' paired statistics differ".into());
        }
        Ok(Pairs {
            pairs: self.pairs.checked_add(o.pairs).ok_or_else(overflow)?,
            identical: self
                .identical
                .checked_add(o.identical)
                .ok_or_else(overflow)?,
            stats: self
                .stats
                .iter()
                .zip(&o.stats)
                .map(|(a, b)| a.checked_add(b))
                .collect::<Option<_>>()
                .ok_or_else(overflow)?,
        })
    }

    /// Check that the sums are those of `pairs` real pairs: every
    /// statistic over the same pairs, no more differing pairs than pairs.
    pub fn check(&self) -> Result<(), String> {
        if self.identical > self.pairs {
            return Err(format!(
                "{} identical pairs of {} pairs",
                self.identical, self.pairs
            ));
        }
        for s in &self.stats {
            if s.differing + self.identical > self.pairs {
                return Err(format!(
                    "{}: {} differing pairs of {}",
                    s.key, s.differing, self.pairs
                ));
            }
            if s.sums.iter().any(|&x| x < 0) {
                return Err(format!("{}: a negative sum", s.key));
            }
        }
        Ok(())
    }

    /// The paired statistic `key`, or none when these pairs lack it or its
    /// ratio has no games (no decided game, say).
    pub fn statistic(&self, key: &str, label: &str, unit: Unit, margin: f64) -> Option<Statistic> {
        let s = self.stats.iter().find(|s| s.key == key)?;
        let (estimate, se) = s.difference(self.pairs, unit)?;
        Some(Statistic {
            key: key.to_owned(),
            label: label.to_owned(),
            unit,
            estimate,
            se,
            df: match unit {
                Unit::Rate => f64::INFINITY,
                Unit::Count => (self.pairs.saturating_sub(1)).max(1) as f64,
            },
            margin,
            games: self.pairs,
        })
    }

    /// The pairs where `key` differed.
    pub fn differing(&self, key: &str) -> Option<u64> {
        self.stats
            .iter()
            .find(|s| s.key == key)
            .map(|s| s.differing)
    }
}

impl PairedSums {
    /// `Rb - Ra` and its paired standard error (with the two pseudo-pairs).
    fn difference(&self, n: u64, unit: Unit) -> Option<(f64, f64)> {
        if n == 0 || self.sums[1] <= 0 || self.sums[3] <= 0 {
            return None;
        }
        let nf = n as f64;
        let s = |i: usize| self.sums[i] as f64;
        let (ra, rb) = (s(0) / s(1), s(2) / s(3));
        let (ya, yb) = (s(1) / nf, s(3) / nf);
        // Sum of z^2 over the pairs: c' P c, P the products.
        let q = if self.differing == 0 {
            0.0
        } else {
            let c = [-1.0 / ya, ra / ya, 1.0 / yb, -rb / yb];
            let mut q = 0.0;
            for (i, ci) in c.iter().enumerate() {
                for (j, cj) in c.iter().enumerate() {
                    q += ci * cj * self.product(i, j);
                }
            }
            q.max(0.0)
        };
        let scale = match unit {
            Unit::Rate => 1.0,
            Unit::Count => {
                let sd = |x: usize, xx: usize| {
                    if n < 2 {
                        return 0.0;
                    }
                    let v = (self.products[xx] as f64 - s(x) * s(x) / nf) / (nf - 1.0);
                    v.max(0.0).sqrt()
                };
                sd(0, 0).max(sd(2, 7))
            }
        };
        let var = (q + 2.0 * scale * scale) / ((nf + 1.0) * (nf + 2.0));
        Some((rb - ra, var.sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sums_of(pairs: &[[i64; 4]]) -> (Pairs, u64) {
        let mut s = PairedSums {
            key: "k".into(),
            ..PairedSums::default()
        };
        for p in pairs {
            s.add(*p);
        }
        let n = pairs.len() as u64;
        (
            Pairs {
                pairs: n,
                identical: 0,
                stats: vec![s],
            },
            n,
        )
    }

    /// The paired standard error of a mean difference is the spread of the
    /// pairs' differences, as a paired t test computes it (plus the two
    /// pseudo-pairs).
    #[test]
    fn a_mean_difference_has_the_paired_spread() {
        let data: Vec<[i64; 4]> = (0..200)
            .map(|i| {
                let a = 10 + (i * 7919) % 13;
                let b = a + 1 + (i * 104_729) % 3;
                [a, 1, b, 1]
            })
            .collect();
        let (p, n) = sums_of(&data);
        let st = p.statistic("k", "k", Unit::Count, 1.0).unwrap();
        let d: Vec<f64> = data.iter().map(|v| (v[2] - v[0]) as f64).collect();
        let mean = d.iter().sum::<f64>() / n as f64;
        let q: f64 = d.iter().map(|x| (x - mean).powi(2)).sum();
        let sd = |k: usize| {
            let m = data.iter().map(|v| v[k] as f64).sum::<f64>() / n as f64;
            (data.iter().map(|v| (v[k] as f64 - m).powi(2)).sum::<f64>() / (n as f64 - 1.0)).sqrt()
        };
        let s = sd(0).max(sd(2));
        let want = ((q + 2.0 * s * s) / ((n as f64 + 1.0) * (n as f64 + 2.0))).sqrt();
        assert!((st.estimate - mean).abs() < 1e-12);
        assert!((st.se - want).abs() < 1e-9, "{} {want}", st.se);
        // Far below the unpaired standard error (the sides move together).
        let unpaired = (sd(0).powi(2) / n as f64 + sd(2).powi(2) / n as f64).sqrt();
        assert!(st.se < unpaired / 3.0, "{} {unpaired}", st.se);
    }

    /// Identical pairs: no difference, and a spread only from the
    /// pseudo-pairs, which 10 pairs cannot make small and 2,000 can.
    #[test]
    fn identical_pairs_are_not_an_exact_zero() {
        let few: Vec<[i64; 4]> = (0..10).map(|i| [i % 2, 1, i % 2, 1]).collect();
        let (p, _) = sums_of(&few);
        let st = p.statistic("k", "k", Unit::Rate, 0.02).unwrap();
        assert_eq!(st.estimate, 0.0);
        assert!(st.se > 0.05, "{}", st.se);
        let many: Vec<[i64; 4]> = (0..2000).map(|i| [i % 2, 1, i % 2, 1]).collect();
        let (p, _) = sums_of(&many);
        let st = p.statistic("k", "k", Unit::Rate, 0.02).unwrap();
        assert!(st.se < 0.001, "{}", st.se);
    }

    /// A ratio (seat 1's share of the decided games): the estimate is the
    /// difference of the two ratios, and the delta method's spread is that
    /// of a rate when every game is decided.
    #[test]
    fn a_ratio_matches_a_rate_when_every_game_counts() {
        let data: Vec<[i64; 4]> = (0..500)
            .map(|i| {
                [
                    i64::from(i % 3 == 0),
                    1,
                    i64::from(i % 3 == 0 || i % 7 == 0),
                    1,
                ]
            })
            .collect();
        let (p, _) = sums_of(&data);
        let rate = p.statistic("k", "k", Unit::Rate, 0.02).unwrap();
        let with_ties: Vec<[i64; 4]> = data
            .iter()
            .enumerate()
            .map(|(i, v)| if i % 50 == 0 { [0, 0, 0, 0] } else { *v })
            .collect();
        let (p2, _) = sums_of(&with_ties);
        let ratio = p2.statistic("k", "k", Unit::Rate, 0.02).unwrap();
        let (xa, ya, xb, yb) = with_ties.iter().fold((0, 0, 0, 0), |t, v| {
            (t.0 + v[0], t.1 + v[1], t.2 + v[2], t.3 + v[3])
        });
        let want = xb as f64 / yb as f64 - xa as f64 / ya as f64;
        assert!((ratio.estimate - want).abs() < 1e-12);
        assert!(
            (ratio.se / rate.se - 1.0).abs() < 0.1,
            "{} {}",
            ratio.se,
            rate.se
        );
    }

    #[test]
    fn shards_add_up_and_round_trip() {
        let data: Vec<[i64; 4]> = (0..30).map(|i| [i % 5, 1, i % 4, 1]).collect();
        let (whole, _) = sums_of(&data);
        let (x, _) = sums_of(&data[..11]);
        let (y, _) = sums_of(&data[11..]);
        assert_eq!(x.checked_add(&y).unwrap(), whole);
        let text = serde_json::to_string(&whole).unwrap();
        assert_eq!(serde_json::from_str::<Pairs>(&text).unwrap(), whole);
        whole.check().unwrap();
    }
}
