//! Tuning a variant toward targets: which values of some keys give, say, a
//! 25-round game with no first-player advantage?
//!
//! The search is successive halving in brackets, on common random numbers.
//! A bracket draws [`Plan::candidates`] points of the space (the first
//! bracket spread over the whole space, a Latin hypercube: every axis's
//! range covered evenly; each later one at random around the best point so
//! far, in a shrinking neighbourhood), plays `first_games` games of each, keeps the
//! best third, plays those three times as many games (the games already
//! played are kept: game `i` of a point is the same game whatever round
//! plays it), and so on until one point is left. Every point plays the
//! same seeded games `0..n`, so two points differ by their rules and not by
//! their luck, and poor points are dropped after few games: the games are
//! spent on the points that might win.
//!
//! The search is deterministic given the seed and the results, and asks
//! for its games in batches ([`Evaluate`]), so a batch can be split across
//! machines and merged exactly.

use std::collections::BTreeMap;

use super::accum::Accumulator;
use super::report::Report;
use super::sweep::{Axis, Estimate, Measure};

/// What a target asks of a measure.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// As near this value as possible.
    Value(f64),
    Min,
    Max,
}

/// A measure and its goal: `rounds=25`, `ties=min`.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub measure: Measure,
    pub goal: Goal,
}

impl Target {
    /// The goal part of `MEASURE=GOAL` for `measure`: a number (a rate as a
    /// fraction or in percent, `0.5` or `50%`; the first-player advantage in
    /// points, `0` or `2pt`), `min` or `max`.
    pub fn goal(measure: &Measure, text: &str) -> Result<Goal, String> {
        let t = text.trim();
        match t {
            "min" => return Ok(Goal::Min),
            "max" => return Ok(Goal::Max),
            _ => {}
        }
        let (num, scale) = if let Some(n) = t.strip_suffix('%') {
            (n, 0.01)
        } else if let Some(n) = t.strip_suffix("pt") {
            (n, 0.01)
        } else {
            (t, 1.0)
        };
        let v: f64 = num
            .trim()
            .parse()
            .map_err(|_| format!("`{text}`: a target is a number (25, 50%, 2pt), min or max"))?;
        if !v.is_finite() {
            return Err(format!("`{text}`: a target is a finite number"));
        }
        let v = v * scale;
        if measure.is_rate()
            && !matches!(measure, Measure::FirstPlayerAdvantage)
            && !(0.0..=1.0).contains(&v)
        {
            return Err(format!(
                "`{text}`: {} is a rate from 0 to 1 (or 0% to 100%)",
                measure.key()
            ));
        }
        Ok(Goal::Value(v))
    }

    /// How far an estimate is from the goal, in the target's unit: one
    /// percentage point for rates, one unit (a round, a point) for means.
    /// Lower is better; `min` and `max` give the value itself (negated for
    /// `max`).
    pub fn loss(&self, e: &Estimate) -> f64 {
        let unit = if self.measure.is_rate() { 0.01 } else { 1.0 };
        match self.goal {
            Goal::Value(t) => (e.value - t).abs() / unit,
            Goal::Min => e.value / unit,
            Goal::Max => -e.value / unit,
        }
    }

    /// `rounds = 25`, `ties = min`.
    pub fn words(&self) -> String {
        match self.goal {
            Goal::Value(v) => format!("{} = {}", self.measure.key(), self.measure.show(v)),
            Goal::Min => format!("{} as low as possible", self.measure.key()),
            Goal::Max => format!("{} as high as possible", self.measure.key()),
        }
    }
}

/// The standard error of a target's loss at a report, from the 95%
/// interval of its measure (in the loss's units).
fn loss_se(t: &Target, r: &Report) -> f64 {
    let e = t.measure.of(r);
    let unit = if t.measure.is_rate() { 0.01 } else { 1.0 };
    (e.high - e.low) / (2.0 * super::stats::Z95) / unit
}

/// The best point against the original rules on the same games.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Versus {
    /// The original's distance less the best's (> 0: the best is nearer).
    pub improvement: f64,
    /// Its standard error (the two treated as independent: conservative,
    /// the games being the same).
    pub se: f64,
    /// Whether the improvement is beyond noise: more than 1.96 standard
    /// errors. (The best point was chosen as the best of many, so its
    /// distance is, if anything, flattering: the bar is not lowered.)
    pub beats: bool,
}

/// Does `best` beat `original` on `targets` beyond noise?
pub fn versus(targets: &[Target], original: &Report, best: &Report) -> Versus {
    let improvement = loss(targets, original) - loss(targets, best);
    let se = targets
        .iter()
        .map(|t| loss_se(t, original).powi(2) + loss_se(t, best).powi(2))
        .sum::<f64>()
        .sqrt();
    Versus {
        improvement,
        se,
        beats: improvement > super::stats::Z95 * se,
    }
}

/// A warning when the best point's measure of some target is known less
/// precisely than the smallest difference that matters for it (the margin
/// of the verdict rule: 2 points for a rate, 5% of a mean): the budget
/// cannot tell such points apart. Says about how many games a point would.
pub fn precision_warning(targets: &[Target], best: &Report) -> Option<String> {
    let mut lines = Vec::new();
    for t in targets {
        let e = t.measure.of(best);
        let half = (e.high - e.low) / 2.0;
        let margin = if t.measure.is_rate() {
            super::verdict::RATE_MARGIN
        } else {
            (super::verdict::COUNT_MARGIN_SHARE * e.value.abs()).max(0.1)
        };
        if half > margin && best.games > 0 {
            let needed = (best.games as f64 * (half / margin).powi(2)).ceil() as u64;
            lines.push(format!(
                "{}: the best point is known to ±{} after {} games; telling points apart within ±{} needs about {} games a point",
                t.measure.key(),
                t.measure.show_amount(half),
                best.games,
                t.measure.show_amount(margin),
                super::verdict::thousands(needed)
            ));
        }
    }
    (!lines.is_empty()).then(|| {
        format!(
            "Warning: the budget is too small for the precision these targets need (raise --budget):\n  {}",
            lines.join("\n  ")
        )
    })
}

/// The sum of the targets' losses for a report.
pub fn loss(targets: &[Target], r: &Report) -> f64 {
    targets.iter().map(|t| t.loss(&t.measure.of(r))).sum()
}

/// A point of the space: one value index per axis.
pub type Point = Vec<usize>;

/// The search's settings.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Points per bracket.
    pub candidates: usize,
    /// Games each point plays in a bracket's first round.
    pub first_games: u64,
    /// How many times more games each round plays (and how many times fewer
    /// points it keeps).
    pub eta: u64,
    /// Most games in all (the budget).
    pub budget: u64,
    /// The share of the budget kept for the last round, where the best
    /// points found play more games each, for narrower intervals.
    pub final_share: f64,
    /// How many of the best points the last round plays.
    pub finalists: usize,
    pub seed: u64,
}

/// One request of a batch: play games `from..to` of `point`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub point: Point,
    pub from: u64,
    pub to: u64,
}

/// The player of batches: the totals of each job's games, an error for a
/// point that is not a valid variant, or `None` for the whole batch when
/// the search must stop (Ctrl-C, the time is up).
pub trait Evaluate {
    fn batch(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>>;
    /// The report of a point's totals.
    fn report(&self, point: &Point, acc: &Accumulator) -> Report;
    /// Told after each round: the rounds done, the games played, the best loss.
    fn progress(&mut self, _round: usize, _games: u64, _best: Option<f64>) {}
}

/// What is known of a point.
#[derive(Clone, Debug)]
pub struct Known {
    pub acc: Accumulator,
    pub loss: f64,
}

/// One round of the search, for the path it took toward its targets.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The round (1, 2, ...), counted over the whole search.
    pub round: usize,
    /// The bracket the round belongs to (1, 2, ...); `None` for the last
    /// round, where the best points play the rest of the budget.
    pub bracket: Option<usize>,
    /// Games played in all once the round was over.
    pub games: u64,
    /// The least distance to the targets among the round's points, and
    /// the point that had it (`None` when no point of the round was valid).
    pub best: Option<f64>,
    pub point: Option<Point>,
}

/// The search's result.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every point played, with its totals.
    pub known: BTreeMap<Point, Result<Known, String>>,
    /// The points that won a bracket, in the order they won.
    pub finalists: Vec<Point>,
    pub games: u64,
    /// The brackets played to their end.
    pub brackets: usize,
    /// The budget ran out in the middle of a bracket (after `brackets`).
    pub cut_short: bool,
    /// The search stopped before its budget was spent.
    pub stopped: bool,
    /// Each round's best distance to the targets, in the order played.
    pub path: Vec<Step>,
}

impl Outcome {
    /// The best points, best first: bracket winners by loss, then the other
    /// points with the most games (when no bracket finished).
    pub fn ranking(&self) -> Vec<(&Point, &Known)> {
        let mut pool: Vec<(&Point, &Known)> = if self.finalists.is_empty() {
            let most = self
                .known
                .values()
                .filter_map(|k| k.as_ref().ok())
                .map(|k| k.acc.games)
                .max()
                .unwrap_or(0);
            self.known
                .iter()
                .filter_map(|(p, k)| k.as_ref().ok().map(|k| (p, k)))
                .filter(|(_, k)| k.acc.games == most && most > 0)
                .collect()
        } else {
            self.finalists
                .iter()
                .filter_map(|p| match self.known.get(p) {
                    Some(Ok(k)) => Some((p, k)),
                    _ => None,
                })
                .collect()
        };
        pool.sort_by(|a, b| a.1.loss.total_cmp(&b.1.loss).then_with(|| a.0.cmp(b.0)));
        pool.dedup_by(|a, b| a.0 == b.0);
        pool
    }
}

/// The number of points of the space.
pub fn space_size(axes: &[Axis]) -> u128 {
    axes.iter().map(|a| a.values.len() as u128).product()
}

/// Search the space of `axes` toward `targets`; `start` is the point of the
/// variant as it is (if it lies in the space), tried in the first bracket.
pub fn search(
    axes: &[Axis],
    targets: &[Target],
    plan: &Plan,
    start: Option<Point>,
    eval: &mut dyn Evaluate,
) -> Outcome {
    let mut rng = SplitMix(plan.seed ^ 0x7475_6e65);
    let mut out = Outcome::default();
    let size = space_size(axes);
    let eta = plan.eta.max(2);
    let search_budget =
        plan.budget - (plan.budget as f64 * plan.final_share.clamp(0.0, 0.9)) as u64;
    let mut round = 0;
    // Brackets in a row that played no new game (every point drawn was
    // known): the first sends the search back to the whole space, the
    // second ends it.
    let mut idle = 0;
    loop {
        // This bracket's points.
        let want = (plan.candidates as u128).min(size) as usize;
        let best = if idle > 0 {
            None
        } else {
            out.ranking().first().map(|(p, _)| (*p).clone())
        };
        let games_before = out.games;
        let mut points: Vec<Point> = Vec::new();
        let radius = |a: &Axis| -> usize {
            // Half the axis, halved each bracket after the first, at least 1.
            let shift = out.brackets.saturating_sub(1).min(16) as u32;
            ((a.values.len() / 2) >> shift).max(1)
        };
        if out.brackets == 0
            && let Some(s) = &start
        {
            points.push(s.clone());
        }
        // Over the whole space, the bracket's other points first spread
        // over every axis (a Latin hypercube of as many points as are still
        // wanted: the original rules, when in the space, are one), then
        // uniform draws if some coincided.
        let mut spread = match &best {
            None => latin_hypercube(axes, want.saturating_sub(points.len()), &mut rng),
            Some(_) => Vec::new(),
        }
        .into_iter();
        let mut tries = 0;
        while points.len() < want && tries < want * 50 {
            tries += 1;
            let p: Point = match &best {
                None => spread
                    .next()
                    .unwrap_or_else(|| axes.iter().map(|a| rng.below(a.values.len())).collect()),
                Some(b) => axes
                    .iter()
                    .zip(b)
                    .map(|(a, &c)| {
                        let r = radius(a);
                        let lo = c.saturating_sub(r);
                        let hi = (c + r).min(a.values.len() - 1);
                        lo + rng.below(hi - lo + 1)
                    })
                    .collect(),
            };
            // A point is drawn once per bracket; a point of an earlier
            // bracket may come back, its games kept.
            if !points.contains(&p) {
                points.push(p);
            }
        }
        if points.is_empty() {
            break;
        }
        let mut n = plan.first_games.max(1);
        let mut bracket_done = false;
        while !points.is_empty() {
            let jobs: Vec<Job> = points
                .iter()
                .filter_map(|p| {
                    let have = match out.known.get(p) {
                        Some(Ok(k)) => k.acc.games,
                        Some(Err(_)) => return None,
                        None => 0,
                    };
                    (have < n).then(|| Job {
                        point: p.clone(),
                        from: have,
                        to: n,
                    })
                })
                .collect();
            let cost: u64 = jobs.iter().map(|j| j.to - j.from).sum();
            if out.games + cost > search_budget && out.games > 0 {
                // The search's share of the budget is spent, in the
                // middle of this bracket.
                out.cut_short = true;
                return last_round(out, plan, targets, eval);
            }
            if !jobs.is_empty() {
                let Some(results) = eval.batch(&jobs) else {
                    out.stopped = true;
                    return out;
                };
                out.games += cost;
                for (job, r) in jobs.iter().zip(results) {
                    let entry = match (out.known.remove(&job.point), r) {
                        (_, Err(e)) => Err(e),
                        (Some(Ok(mut k)), Ok(acc)) => {
                            k.acc.merge(&acc);
                            Ok(k.acc)
                        }
                        (_, Ok(acc)) => Ok(acc),
                    };
                    let entry = entry.map(|acc| {
                        let r = eval.report(&job.point, &acc);
                        Known {
                            loss: loss(targets, &r),
                            acc,
                        }
                    });
                    out.known.insert(job.point.clone(), entry);
                }
            }
            round += 1;
            // Rank the points still in the bracket; keep the best 1/eta.
            points.retain(|p| matches!(out.known.get(p), Some(Ok(_))));
            points.sort_by(|a, b| {
                let la = out.known[a].as_ref().map_or(f64::INFINITY, |k| k.loss);
                let lb = out.known[b].as_ref().map_or(f64::INFINITY, |k| k.loss);
                la.total_cmp(&lb).then_with(|| a.cmp(b))
            });
            let best_loss = points
                .first()
                .and_then(|p| out.known[p].as_ref().ok())
                .map(|k| k.loss);
            out.path.push(Step {
                round,
                bracket: Some(out.brackets + 1),
                games: out.games,
                best: best_loss,
                point: best_loss.and(points.first().cloned()),
            });
            eval.progress(round, out.games, best_loss);
            if points.len() <= 1 {
                if let Some(p) = points.pop() {
                    out.finalists.push(p);
                }
                bracket_done = true;
                break;
            }
            let keep = points.len().div_ceil(eta as usize);
            points.truncate(keep);
            n = n.saturating_mul(eta);
        }
        if bracket_done {
            out.brackets += 1;
        }
        if out.games >= search_budget {
            break;
        }
        if out.games == games_before {
            idle += 1;
            if idle >= 2 {
                break;
            }
        } else {
            idle = 0;
        }
    }
    last_round(out, plan, targets, eval)
}

/// The last round: the best points play the rest of the budget between
/// them (more games each, on the same seeds), and are ranked again.
fn last_round(
    mut out: Outcome,
    plan: &Plan,
    targets: &[Target],
    eval: &mut dyn Evaluate,
) -> Outcome {
    let best: Vec<(Point, u64)> = out
        .ranking()
        .iter()
        .take(plan.finalists.max(1))
        .map(|(p, k)| ((*p).clone(), k.acc.games))
        .collect();
    let left = plan.budget.saturating_sub(out.games);
    if best.is_empty() || left < best.len() as u64 {
        return out;
    }
    // Every finalist ends with the same number of games.
    let most = best.iter().map(|(_, g)| *g).max().unwrap_or(0);
    let have: u64 = best.iter().map(|(_, g)| *g).sum();
    let n = (have + left) / best.len() as u64;
    if n <= most {
        return out;
    }
    let jobs: Vec<Job> = best
        .iter()
        .map(|(p, g)| Job {
            point: p.clone(),
            from: *g,
            to: n,
        })
        .collect();
    let Some(results) = eval.batch(&jobs) else {
        out.stopped = true;
        return out;
    };
    for (job, r) in jobs.iter().zip(results) {
        out.games += job.to - job.from;
        if let (Some(Ok(k)), Ok(acc)) = (out.known.get_mut(&job.point), r) {
            k.acc.merge(&acc);
            let report = eval.report(&job.point, &k.acc);
            k.loss = loss(targets, &report);
        }
    }
    // The finalists are now the points with the most games.
    out.finalists = jobs.into_iter().map(|j| j.point).collect();
    let best = out.ranking().first().map(|(p, k)| ((*p).clone(), k.loss));
    out.path.push(Step {
        round: out.path.last().map_or(1, |s| s.round + 1),
        bracket: None,
        games: out.games,
        best: best.as_ref().map(|b| b.1),
        point: best.map(|b| b.0),
    });
    out
}

/// `n` points spread over the space: each axis cut into `n` strata of
/// (nearly) equal width, one point in each stratum of every axis, the
/// strata paired across the axes at random (a Latin hypercube sample). A
/// uniform draw of `n` points of one axis leaves runs of values out (27 of
/// 41 missed both of two neighbouring values about one time in eight); this
/// leaves no gap wider than about two strata.
fn latin_hypercube(axes: &[Axis], n: usize, rng: &mut SplitMix) -> Vec<Point> {
    let mut points: Vec<Point> = vec![Vec::with_capacity(axes.len()); n];
    for a in axes {
        let len = a.values.len();
        let mut strata: Vec<usize> = (0..n).collect();
        // Fisher-Yates.
        for i in (1..n).rev() {
            strata.swap(i, rng.below(i + 1));
        }
        for (p, &k) in points.iter_mut().zip(&strata) {
            let lo = k * len / n;
            let hi = (k + 1) * len / n;
            // `lo < len` since `k < n`; an empty stratum (fewer values
            // than points) takes its lower end.
            p.push(if hi > lo { lo + rng.below(hi - lo) } else { lo });
        }
    }
    points
}

/// The search's own small random stream (SplitMix64): which points a
/// bracket tries, from the seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n >= 1).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// The values of a point, `key = value` for each axis.
pub fn describe(axes: &[Axis], point: &Point) -> Vec<(String, String)> {
    axes.iter()
        .zip(point)
        .map(|(a, &i)| (a.key.clone(), a.values[i].to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameId;
    use crate::games::roots_and_shoots::RootsAndShoots;

    #[test]
    fn goals_parse_in_the_measures_units() {
        let fpa = Measure::FirstPlayerAdvantage;
        assert_eq!(Target::goal(&fpa, "0"), Ok(Goal::Value(0.0)));
        assert_eq!(Target::goal(&fpa, "2pt"), Ok(Goal::Value(0.02)));
        let wins = Measure::SeatWins(1);
        assert_eq!(Target::goal(&wins, "50%"), Ok(Goal::Value(0.5)));
        assert!(Target::goal(&wins, "50").is_err());
        assert_eq!(Target::goal(&Measure::Ties, "min"), Ok(Goal::Min));
        assert!(Target::goal(&Measure::Ties, "lots").is_err());
    }

    /// A fake game of the space: the loss is the distance of the point's
    /// first coordinate from 7, read off a counter the evaluator fills in.
    struct Fake {
        axes: Vec<Axis>,
        games: u64,
    }

    impl Evaluate for Fake {
        fn batch(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>> {
            Some(
                jobs.iter()
                    .map(|j| {
                        self.games += j.to - j.from;
                        let mut acc = Accumulator::new::<RootsAndShoots>(2);
                        acc.games = j.to - j.from;
                        acc.ties = acc.games;
                        let v = self.axes[0].values[j.point[0]].to_string();
                        let v: u32 = v.parse().unwrap_or(0);
                        for _ in j.from..j.to {
                            acc.counters[0].add(v);
                        }
                        Ok(acc)
                    })
                    .collect(),
            )
        }

        fn report(&self, _: &Point, acc: &Accumulator) -> Report {
            let config = crate::sim::Config::<RootsAndShoots> {
                rules: std::sync::Arc::new(crate::games::roots_and_shoots::Rules::standard()),
                players: 2,
                bots: vec![crate::bots::BotSpec::Random],
                seating: crate::sim::Seating::Fixed,
                games: acc.games.max(1),
                seed: 0,
                jobs: 1,
                measures: Default::default(),
            };
            Report::new(&config, acc)
        }
    }

    /// The first bracket's points cover each axis evenly: one in each of
    /// `n` equal strata (so no gap of more than two strata and a value),
    /// every value about equally often when there are more points than
    /// values, whatever the seed.
    #[test]
    fn a_latin_hypercube_covers_every_axis_evenly() {
        let axes = vec![
            Axis::parse(GameId::RootsAndShoots, "nutrients.supply=20..60").expect("axis"),
            Axis::parse(GameId::RootsAndShoots, "beads.supply=30..34").expect("axis"),
        ];
        for seed in 0..50 {
            let mut rng = SplitMix(seed);
            let points = latin_hypercube(&axes, 27, &mut rng);
            assert_eq!(points.len(), 27);
            // 41 values in 27 strata: one point in each.
            let mut hit = [0usize; 27];
            let mut first: Vec<usize> = points.iter().map(|p| p[0]).collect();
            for &v in &first {
                assert!(v < 41);
                hit[(0..27).find(|&k| v < (k + 1) * 41 / 27).expect("a stratum")] += 1;
            }
            assert!(hit.iter().all(|&h| h == 1), "seed {seed}: {hit:?}");
            first.sort_unstable();
            assert!(
                first.windows(2).all(|w| w[1] - w[0] <= 3),
                "seed {seed}: {first:?}"
            );
            // 5 values, 27 points: each value 5 or 6 times.
            let mut count = [0usize; 5];
            for p in &points {
                count[p[1]] += 1;
            }
            assert!(
                count.iter().all(|&c| (5..=6).contains(&c)),
                "seed {seed}: {count:?}"
            );
        }
        // The same seed, the same points.
        assert_eq!(
            latin_hypercube(&axes, 27, &mut SplitMix(3)),
            latin_hypercube(&axes, 27, &mut SplitMix(3))
        );
    }

    #[test]
    fn halving_finds_the_target_within_the_budget() {
        let axes = vec![
            Axis::parse(GameId::RootsAndShoots, "beads.supply=0..40").expect("axis"),
            Axis::parse(GameId::RootsAndShoots, "turn.one_nutrient_per_turn").expect("axis"),
        ];
        let targets = vec![Target {
            measure: Measure::Mean("rounds".into()),
            goal: Goal::Value(7.0),
        }];
        let plan = Plan {
            candidates: 27,
            first_games: 10,
            eta: 3,
            budget: 20_000,
            final_share: 0.3,
            finalists: 3,
            seed: 1,
        };
        let mut fake = Fake {
            axes: axes.clone(),
            games: 0,
        };
        let out = search(&axes, &targets, &plan, None, &mut fake);
        assert!(fake.games <= plan.budget, "{}", fake.games);
        assert_eq!(out.games, fake.games);
        let (best, k) = out.ranking()[0];
        assert_eq!(axes[0].values[best[0]].to_string(), "7", "{k:?}");
        assert!(out.brackets >= 2);
        // The path: a step per round, games growing, brackets in order,
        // the last round last and at the games the search played in all,
        // its point the ranking's best.
        let path = &out.path;
        assert!(path.len() > out.brackets, "{path:?}");
        for w in path.windows(2) {
            assert_eq!(w[1].round, w[0].round + 1);
            assert!(w[1].games >= w[0].games);
            if let (Some(a), Some(b)) = (w[0].bracket, w[1].bracket) {
                assert!(b == a || b == a + 1, "{path:?}");
            }
        }
        let last = path.last().expect("a path");
        assert_eq!(last.bracket, None);
        assert_eq!(last.games, out.games);
        assert_eq!(last.point.as_ref(), Some(best));
        assert_eq!(last.best, Some(k.loss));
        assert!(path[..path.len() - 1].iter().all(|s| s.bracket.is_some()));
    }
}
