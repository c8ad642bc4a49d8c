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
use super::measures::PER_GAME;
use super::verdict::{Statistic, Unit};

/// The key of seat 1's share of the decided games.
pub const FIRST_SEAT: &str = "first-player-advantage";

/// The key of the winning margin (`crate::sim::MARGIN`'s).
pub const MARGIN_KEY: &str = "margin";

/// The paired sums of one statistic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSums {
    /// The statistic's key (`seat1-wins`, `rounds`).
    pub key: String,
    /// Sums of `xa, ya, xb, yb` over the pairs.
    pub sums: [i128; 4],
    /// Sums of the products `xa xa, xa ya, xa xb, xa yb, ya ya, ya xb, ya
    /// yb, xb xb, xb yb, yb yb`.
    pub products: [i128; 10],
    /// Pairs whose two games gave this statistic different values.
    pub differing: u64,
    /// The values `x` are in `1 / scale` units (a design measure's in
    /// millionths); 1 when absent.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub scale: i64,
    /// A spread: `y` is `x` squared, and the statistic is the standard
    /// deviation of `x` over the games, not `sum x / sum y`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spread: bool,
}

impl Default for PairedSums {
    fn default() -> PairedSums {
        PairedSums {
            key: String::new(),
            sums: [0; 4],
            products: [0; 10],
            differing: 0,
            scale: 1,
            spread: false,
        }
    }
}

fn one() -> i64 {
    1
}

fn is_one(x: &i64) -> bool {
    *x == 1
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
    /// The pairs by the sets of seats on top in A's game and in B's (bit
    /// `s`: seat `s + 1`): `[mask A, mask B, pairs]`, sorted. The design
    /// measures of the outcomes (each seat's advantage, balance, outcome
    /// uniformity) come from it. Empty in parts of versions before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<[u64; 3]>,
}

/// Which statistics a game gives, in order: fixed by the first game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Layout {
    keys: Vec<String>,
    /// Of each key: its scale and whether it is a spread.
    forms: Vec<(i64, bool)>,
    /// The keys of the primary family come first: this many.
    primary: usize,
    players: usize,
    bots: Vec<String>,
    /// The end reason of the safety limit on each side (A, B): a game
    /// ended by it did not complete.
    limits: [Option<usize>; 2],
}

/// The design measures' values are kept in millionths, as
/// [`crate::sim::measures::Moments`] keeps them.
const MILLIONTHS: i64 = 1_000_000;

impl Layout {
    fn of(r: &GameResult, limits: [Option<usize>; 2]) -> Layout {
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
        let primary = keys.len();
        let mut forms = vec![(1, false); primary];
        // The design measures: completion, each per-game measure (in
        // millionths, where the game defines it) and the spreads of the
        // durations (whole numbers).
        keys.push(COMPLETION.to_owned());
        forms.push((1, false));
        for d in PER_GAME {
            keys.push(d.key.to_owned());
            forms.push((MILLIONTHS, false));
            if d.group == "duration" {
                keys.push(format!("{}_sd", d.key));
                forms.push((1, true));
            }
        }
        Layout {
            keys,
            forms,
            primary,
            players,
            bots,
            limits,
        }
    }

    /// One game's `(x, y)` of every statistic, flat; `side` 0 for A.
    fn values(&self, r: &GameResult, side: usize, out: &mut Vec<i64>) {
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
        let limited = r.forfeit.is_none() && self.limits[side] == Some(r.end_reason);
        push(i64::from(r.forfeit.is_none() && !limited), 1);
        for (d, v) in PER_GAME.iter().zip(&r.measures.values) {
            match v {
                // As `Moments::add` rounds it.
                Some(v) => push((v.max(0.0) * MILLIONTHS as f64).round() as i64, 1),
                None => push(0, 0),
            }
            if d.group == "duration" {
                let x = v.map_or(0, |v| v.round() as i64);
                push(x, x.saturating_mul(x));
            }
        }
    }
}

/// The key of the completion rate among the paired statistics.
const COMPLETION: &str = "completion";

/// The set of seats on top of a game, as a mask (bit `s`: seat `s + 1`).
fn top_mask(r: &GameResult) -> u64 {
    r.top.iter().fold(0u64, |m, &s| m | (1u64 << s.min(63)))
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
    /// The safety limit's end reason on each side ([`PairBuilder::limits`]).
    limits: [Option<usize>; 2],
    /// The first game index of A's kept values.
    first: u64,
    /// A's values, game after game.
    a: Vec<i64>,
    /// A's sets of seats on top, game after game.
    a_tops: Vec<u64>,
    pairs: Pairs,
    /// The outcome pairs so far, by (mask A, mask B).
    outcomes: std::collections::BTreeMap<(u64, u64), u64>,
    /// Set when a game did not fit the layout (another number of seats or
    /// bots): the pairs are then not used.
    broken: bool,
    scratch: Vec<i64>,
}

impl PairBuilder {
    pub fn new() -> PairBuilder {
        PairBuilder::default()
    }

    /// The index in the game's ways to end of each side's safety limit
    /// ([`crate::games::SafetyLimit::reason`]; A's, B's): a game it ended
    /// did not complete, for the completion rate.
    pub fn limits(mut self, a: Option<usize>, b: Option<usize>) -> PairBuilder {
        self.limits = [a, b];
        self
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
        if self.a_tops.len() >= MAX_KEPT {
            self.broken = true;
            self.a = Vec::new();
            self.a_tops = Vec::new();
            return;
        }
        let limits = self.limits;
        let layout = self.layout.get_or_insert_with(|| Layout::of(r, limits));
        if self.a_tops.is_empty() {
            self.first = r.game;
        }
        let before = self.a.len();
        layout.values(r, 0, &mut self.a);
        let width = 2 * layout.keys.len();
        let index = self.a_tops.len() as u64;
        self.a_tops.push(top_mask(r));
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
        layout.values(r, 1, &mut b);
        let index = r.game.checked_sub(self.first).map(|i| i as usize);
        let a = index.and_then(|i| self.a.get(i * width..(i + 1) * width));
        let top_a = index.and_then(|i| self.a_tops.get(i)).copied();
        match (a, top_a) {
            (Some(a), Some(top_a)) if b.len() == width => {
                if self.pairs.stats.is_empty() {
                    self.pairs.stats = layout
                        .keys
                        .iter()
                        .zip(&layout.forms)
                        .map(|(k, &(scale, spread))| PairedSums {
                            key: k.clone(),
                            scale,
                            spread,
                            ..PairedSums::default()
                        })
                        .collect();
                }
                self.pairs.pairs += 1;
                let p = 2 * layout.primary;
                if a[..p] == b[..p] {
                    self.pairs.identical += 1;
                }
                for (k, s) in self.pairs.stats.iter_mut().enumerate() {
                    s.add([a[2 * k], a[2 * k + 1], b[2 * k], b[2 * k + 1]]);
                }
                *self.outcomes.entry((top_a, top_mask(r))).or_default() += 1;
            }
            _ => self.broken = true,
        }
        self.scratch = b;
    }

    /// Forget A's kept games (after B's of the same range were folded).
    pub fn next_range(&mut self) {
        self.a.clear();
        self.a_tops.clear();
    }

    /// The pairs so far (none when a game did not fit).
    pub fn pairs(&mut self) -> Option<&Pairs> {
        if self.broken {
            return None;
        }
        self.pairs.outcomes = self
            .outcomes
            .iter()
            .map(|(&(x, y), &n)| [x, y, n])
            .collect();
        Some(&self.pairs)
    }

    /// The pairs, kept.
    pub fn into_pairs(mut self) -> Option<Pairs> {
        self.pairs()?;
        Some(self.pairs)
    }
}

impl PairedSums {
    fn add(&mut self, v: [i64; 4]) {
        if v[0] != v[2] || v[1] != v[3] {
            self.differing += 1;
        }
        let v = v.map(i128::from);
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

    /// A design measure's sums (not a statistic of the primary family).
    fn is_measure(&self) -> bool {
        self.scale != 1 || self.spread || self.key == COMPLETION
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

/// Two lists of outcome pairs together (sorted; none when only one has
/// them: the pairs are then of parts without them, and those measures are
/// judged unpaired).
fn add_outcomes(x: &[[u64; 3]], y: &[[u64; 3]]) -> Option<Vec<[u64; 3]>> {
    if x.is_empty() || y.is_empty() {
        return Some(Vec::new());
    }
    let mut all: std::collections::BTreeMap<(u64, u64), u64> = std::collections::BTreeMap::new();
    for o in x.iter().chain(y) {
        let n = all.entry((o[0], o[1])).or_default();
        *n = n.checked_add(o[2])?;
    }
    Some(all.into_iter().map(|((a, b), n)| [a, b, n]).collect())
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
            outcomes: add_outcomes(&self.outcomes, &o.outcomes).ok_or_else(overflow)?,
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
        let counted = self
            .outcomes
            .iter()
            .try_fold(0u64, |t, o| t.checked_add(o[2]));
        if !self.outcomes.is_empty() && counted != Some(self.pairs) {
            return Err(format!(
                "the pairs by outcome count {} pairs of {}",
                counted.map_or_else(|| "more than 2^64".to_owned(), |n| n.to_string()),
                self.pairs
            ));
        }
        for s in &self.stats {
            // `identical` is of the primary statistics only: a design
            // measure may differ in a pair alike in those.
            if !s.is_measure() && s.differing + self.identical > self.pairs {
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
    /// ratio has no games (no decided game, say). Besides the primary
    /// statistics, the design measures: `completion`, each per-game
    /// measure and the spreads of the durations from their sums, each
    /// seat's advantage, balance and outcome uniformity from the pairs by
    /// outcome ([`Pairs::outcome_statistic`]).
    pub fn statistic(&self, key: &str, label: &str, unit: Unit, margin: f64) -> Option<Statistic> {
        let (estimate, se) = match self.stats.iter().find(|s| s.key == key) {
            Some(s) => s.difference(self.pairs, unit)?,
            None => self.outcome_statistic(key)?,
        };
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

    /// The seats of the games paired (from the primary statistics).
    fn seats(&self) -> usize {
        self.stats
            .iter()
            .filter(|s| {
                s.key
                    .strip_prefix("seat")
                    .and_then(|r| r.strip_suffix("-wins"))
                    .is_some_and(|n| n.parse::<u8>().is_ok())
            })
            .count()
    }

    /// B - A of a design measure of the outcomes (`advantage_S`, `balance`,
    /// `outcome_uniformity`) and its paired standard error, from the pairs
    /// by outcome: each figure is a function of the seats' mean results (a
    /// sole win 1, a top shared by m seats 1/m each), so each pair
    /// contributes its influence on B's figure less that on A's (the delta
    /// method), with the two pseudo-pairs of a rate.
    pub fn outcome_statistic(&self, key: &str) -> Option<(f64, f64)> {
        let k = self.seats();
        let n: u64 = self.outcomes.iter().map(|o| o[2]).sum();
        if self.outcomes.is_empty() || k == 0 || n == 0 || n != self.pairs {
            return None;
        }
        let nf = n as f64;
        let result = |mask: u64, s: usize| {
            if mask & (1 << s) != 0 {
                1.0 / f64::from(mask.count_ones().max(1))
            } else {
                0.0
            }
        };
        let means = |side: usize| -> Vec<f64> {
            (0..k)
                .map(|s| {
                    self.outcomes
                        .iter()
                        .map(|o| o[2] as f64 * result(o[side], s))
                        .sum::<f64>()
                        / nf
                })
                .collect()
        };
        let (ma, mb) = (means(0), means(1));
        // (the figure, a game's influence on it) of one side.
        type Influence<'a> = Box<dyn Fn(u64) -> f64 + 'a>;
        let figure = |m: &[f64], side: usize| -> Option<(f64, Influence<'_>)> {
            if let Some(seat) = key.strip_prefix("advantage_") {
                let s = seat.parse::<usize>().ok()?.checked_sub(1)?;
                if s >= k {
                    return None;
                }
                return Some((m[s], Box::new(move |x| result(x, s))));
            }
            match key {
                "balance" => {
                    let best = (0..k).max_by(|&i, &j| m[i].total_cmp(&m[j]))?;
                    let worst = (0..k).min_by(|&i, &j| m[i].total_cmp(&m[j]))?;
                    Some((
                        1.0 - (m[best] - m[worst]),
                        Box::new(move |x| result(x, worst) - result(x, best)),
                    ))
                }
                "outcome_uniformity" => {
                    let squares: f64 = (0..k)
                        .map(|s| {
                            self.outcomes
                                .iter()
                                .map(|o| o[2] as f64 * result(o[side], s).powi(2))
                                .sum::<f64>()
                                / nf
                                - m[s] * m[s]
                        })
                        .map(|v| v.max(0.0))
                        .sum();
                    let m = m.to_vec();
                    Some((
                        1.0 - squares / k as f64,
                        Box::new(move |x| {
                            -(0..k)
                                .map(|s| result(x, s).powi(2) - 2.0 * m[s] * result(x, s))
                                .sum::<f64>()
                                / k as f64
                        }),
                    ))
                }
                _ => None,
            }
        };
        let (fa, ha) = figure(&ma, 0)?;
        let (fb, hb) = figure(&mb, 1)?;
        let z: Vec<(f64, f64)> = self
            .outcomes
            .iter()
            .map(|o| (hb(o[1]) - ha(o[0]), o[2] as f64))
            .collect();
        let mean = z.iter().map(|(z, c)| z * c).sum::<f64>() / nf;
        let q: f64 = z.iter().map(|(z, c)| c * (z - mean).powi(2)).sum();
        let var = (q + 2.0) / ((nf + 1.0) * (nf + 2.0));
        Some((fb - fa, var.sqrt()))
    }
}

impl PairedSums {
    /// `Rb - Ra` (or, for a spread, B's standard deviation less A's) and
    /// its paired standard error (with the two pseudo-pairs), in the
    /// statistic's units.
    fn difference(&self, n: u64, unit: Unit) -> Option<(f64, f64)> {
        if n == 0 || self.sums[1] <= 0 || self.sums[3] <= 0 {
            return None;
        }
        let nf = n as f64;
        let unit_of = self.scale.max(1) as f64;
        let s = |i: usize| self.sums[i] as f64;
        // The sample standard deviation of x on one side (x at 0 or 2).
        let sd = |x: usize, xx: usize| {
            if n < 2 {
                return 0.0;
            }
            let v = (self.products[xx] as f64 - s(x) * s(x) / nf) / (nf - 1.0);
            v.max(0.0).sqrt()
        };
        let (estimate, c) = if self.spread {
            if n < 2 {
                return None;
            }
            let (sa, sb) = (sd(0, 0), sd(2, 7));
            // The gradient of sqrt(m2 - m1^2) in (m1, m2), per side; a side
            // that never varies has none.
            let grad = |m1: f64, sd: f64| {
                if sd > 0.0 {
                    (-m1 / sd, 0.5 / sd)
                } else {
                    (0.0, 0.0)
                }
            };
            let (a1, a2) = grad(s(0) / nf, sa);
            let (b1, b2) = grad(s(2) / nf, sb);
            (sb - sa, [-a1, -a2, b1, b2])
        } else {
            let (ra, rb) = (s(0) / s(1), s(2) / s(3));
            let (ya, yb) = (s(1) / nf, s(3) / nf);
            (rb - ra, [-1.0 / ya, ra / ya, 1.0 / yb, -rb / yb])
        };
        // Sum over the pairs of (z - mean z)^2, z = c . (xa, ya, xb, yb):
        // c' P c less n (c . mean)^2, P the products.
        let q = if self.differing == 0 {
            0.0
        } else {
            let mut q = 0.0;
            for (i, ci) in c.iter().enumerate() {
                for (j, cj) in c.iter().enumerate() {
                    q += ci * cj * self.product(i, j);
                }
            }
            let centre: f64 = c.iter().enumerate().map(|(i, ci)| ci * s(i)).sum();
            (q - centre * centre / nf).max(0.0)
        };
        // The pseudo-pairs: a rate's win and loss (s = 1); a count's, a
        // design measure's (a mean of per-game values, shares included)
        // and a spread's at the larger per-game standard deviation, as the
        // unpaired t test of such a mean has no added games either.
        let scale = if unit == Unit::Rate && self.scale == 1 && !self.spread {
            1.0
        } else {
            sd(0, 0).max(sd(2, 7)) / unit_of
        };
        let var = (q / (unit_of * unit_of) + 2.0 * scale * scale) / ((nf + 1.0) * (nf + 2.0));
        Some((estimate / unit_of, var.sqrt()))
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
                outcomes: Vec::new(),
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
    /// A measure kept in millionths, defined in some games only: the
    /// estimate is the difference of the two means over the games that
    /// define it, in the measure's units.
    #[test]
    fn a_measure_in_millionths_is_in_its_units() {
        let mut s = PairedSums {
            key: "winner_behind".into(),
            scale: MILLIONTHS,
            ..PairedSums::default()
        };
        // A: 0.25 in every game; B: 0.5 in every other game, undefined in
        // the rest (a tie, say).
        for i in 0..400 {
            let b = if i % 2 == 0 { [500_000, 1] } else { [0, 0] };
            s.add([250_000, 1, b[0], b[1]]);
        }
        let p = Pairs {
            pairs: 400,
            identical: 0,
            stats: vec![s],
            outcomes: Vec::new(),
        };
        let st = p
            .statistic("winner_behind", "winner behind", Unit::Rate, 0.02)
            .unwrap();
        assert!((st.estimate - 0.25).abs() < 1e-12, "{}", st.estimate);
        assert!(st.se > 0.0 && st.se < 0.01, "{}", st.se);
    }

    /// The spread of a duration: B's standard deviation less A's, with a
    /// paired standard error far below the unpaired one when B's games are
    /// A's with a small change.
    #[test]
    fn a_spread_difference_is_paired() {
        let mut s = PairedSums {
            key: "duration_turns_sd".into(),
            spread: true,
            ..PairedSums::default()
        };
        let (mut xa, mut xb) = (Vec::new(), Vec::new());
        for i in 0..1000i64 {
            let a = 20 + (i * 7919) % 17;
            let b = if i % 50 == 0 { a + 3 } else { a };
            xa.push(a as f64);
            xb.push(b as f64);
            s.add([a, a * a, b, b * b]);
        }
        let p = Pairs {
            pairs: 1000,
            identical: 0,
            stats: vec![s],
            outcomes: Vec::new(),
        };
        let st = p
            .statistic("duration_turns_sd", "spread", Unit::Count, 0.5)
            .unwrap();
        let sd = |v: &[f64]| {
            let m = v.iter().sum::<f64>() / v.len() as f64;
            (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)).sqrt()
        };
        let want = sd(&xb) - sd(&xa);
        assert!((st.estimate - want).abs() < 1e-9, "{} {want}", st.estimate);
        // Unpaired: sd / sqrt(2 (n - 1)) per side.
        let unpaired = (2.0 * sd(&xa).powi(2) / (2.0 * 999.0)).sqrt();
        assert!(st.se < unpaired / 2.0, "{} {unpaired}", st.se);
    }

    /// The figures of the outcomes from the pairs by outcome: each seat's
    /// advantage, balance and outcome uniformity, B - A equal to the
    /// difference of the figures, and identical outcomes in 98% of pairs
    /// decide them within a 2-point margin on 1,000 pairs.
    #[test]
    fn outcome_figures_are_paired() {
        // Two seats; masks: 1 seat 1 won, 2 seat 2 won, 3 a tie.
        let outcomes = vec![[1, 1, 540], [2, 2, 420], [3, 3, 20], [1, 2, 12], [2, 1, 8]];
        let seat = |k: &str| PairedSums {
            key: k.into(),
            ..PairedSums::default()
        };
        let p = Pairs {
            pairs: 1000,
            identical: 980,
            stats: vec![seat("seat1-wins"), seat("seat2-wins")],
            outcomes,
        };
        let (d, se) = p.outcome_statistic("advantage_1").unwrap();
        // A: (540 + 12 + 10) / 1000; B: (540 + 8 + 10) / 1000.
        assert!((d - (-0.004)).abs() < 1e-12, "{d}");
        assert!(se < 0.02 / 2.5, "{se}");
        let (bal, se_bal) = p.outcome_statistic("balance").unwrap();
        let (a1, a2) = (0.562, 0.438);
        let (b1, b2) = (0.558, 0.442);
        assert!(
            (bal - ((1.0 - (b1 - b2)) - (1.0 - (a1 - a2)))).abs() < 1e-12,
            "{bal}"
        );
        // A winner that changes moves balance twice as far as a seat's
        // share; still far below the unpaired spread (about 0.044 here).
        assert!(se_bal < 0.01, "{se_bal}");
        let (uni, _) = p.outcome_statistic("outcome_uniformity").unwrap();
        let var = |ones: f64, halves: f64, m: f64| ones + 0.25 * halves - m * m;
        let u = |m1: f64, m2: f64, w1: f64, w2: f64| {
            1.0 - (var(w1, 0.02, m1) + var(w2, 0.02, m2)) / 2.0
        };
        let want = u(b1, b2, 0.548, 0.432) - u(a1, a2, 0.552, 0.428);
        assert!((uni - want).abs() < 1e-12, "{uni} {want}");
        assert!(p.outcome_statistic("advantage_3").is_none());
        // Without the pairs by outcome (a part of an older version): none.
        let old = Pairs {
            outcomes: Vec::new(),
            ..p.clone()
        };
        assert!(old.outcome_statistic("balance").is_none());
        // Two parts add their pairs by outcome.
        let both = p.checked_add(&p).unwrap();
        assert_eq!(both.outcomes[0], [1, 1, 1080]);
        both.check().unwrap();
    }
}
