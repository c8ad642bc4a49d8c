//! Sequential comparison (`roots compare --until-decided`): play matched
//! games in batches and stop as soon as one statistic, the primary, is
//! decided either way by the verdict rule ([`super::verdict`]).
//!
//! Looking at the games after every batch and stopping at the first verdict
//! would, left alone, raise the error rates with every look. They are held
//! by **alpha spending** (Lan and DeMets): the run may spend at most
//! `alpha` in all, and by the time a fraction `t` of the most games it may
//! play has been played it has spent at most `alpha(t) = alpha * ln(1 + (e
//! - 1) t)` (a Pocock-like function: it spends early, to stop early). The
//! look after a batch tests at the level `alpha(t_k) - alpha(t_(k-1))`,
//! both for "different" and for "the same within the margin". By Bonferroni's
//! inequality across the looks, the chance of ever calling equal rules
//! "different" is at most `alpha`, and the chance of ever calling rules
//! whose true effect is the margin or more "the same" is at most `alpha`
//! (conservative: the looks are correlated). The rates measured by
//! simulation are in docs/statistics.md (`examples/sequential_error_rates.rs`).

use serde::Serialize;

use super::verdict::{self, Outcome, Statistic, Verdict};

/// When to look and how much error each look may spend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The error rate of the whole run (each way).
    pub alpha: f64,
    /// Most games per side.
    pub max_games: u64,
    /// Games per side between looks.
    pub batch: u64,
}

/// Looks at most a sequential run makes (the batch grows to keep to it).
pub const MAX_LOOKS: u64 = 20;

impl Plan {
    /// A plan of at most `max_games` per side, looking every `max_games /
    /// 20` games (at least 100).
    pub fn new(alpha: f64, max_games: u64) -> Plan {
        let batch = max_games.div_ceil(MAX_LOOKS).max(100).min(max_games.max(1));
        Plan {
            alpha,
            max_games,
            batch,
        }
    }

    /// The games per side played by each look, in order; the last is
    /// `max_games`.
    pub fn looks(&self) -> Vec<u64> {
        let mut v: Vec<u64> = (1..)
            .map(|k| k * self.batch)
            .take_while(|&n| n < self.max_games)
            .collect();
        v.push(self.max_games);
        v
    }

    /// The error spent by the time `games` per side have been played.
    pub fn spent(&self, games: u64) -> f64 {
        let t = (games as f64 / self.max_games.max(1) as f64).clamp(0.0, 1.0);
        self.alpha * (1.0 + (std::f64::consts::E - 1.0) * t).ln()
    }

    /// The level of the look after `now` games, the previous look having
    /// been after `before`.
    pub fn level(&self, before: u64, now: u64) -> f64 {
        (self.spent(now) - self.spent(before)).max(0.0)
    }

    /// Judge the primary statistic at the look after `now` games (the
    /// previous after `before`).
    pub fn look(&self, primary: &Statistic, before: u64, now: u64) -> Verdict {
        verdict::decide(std::slice::from_ref(primary), self.level(before, now)).remove(0)
    }
}

/// How a sequential run ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stopped {
    /// The primary statistic's key.
    pub primary: String,
    /// Games per side played.
    pub games: u64,
    pub max_games: u64,
    pub looks: usize,
    /// The error rate held each way over the whole run.
    pub alpha: f64,
    /// The level of the last look.
    pub level: f64,
    /// The primary statistic at the last look (its `verdict` is
    /// `undecided` when the most games were played without a decision).
    pub verdict: Verdict,
}

impl Stopped {
    /// The lines that open the table.
    pub fn words(&self) -> String {
        let v = &self.verdict;
        let how = match v.verdict {
            Outcome::Undecided => format!(
                "not decided after the most games, {} per side (--max-games)",
                verdict::thousands(self.max_games)
            ),
            Outcome::Changed => format!(
                "not decided after the most games, {} per side (--max-games): {}",
                verdict::thousands(self.max_games),
                verdict::words(v)
            ),
            _ => format!(
                "decided after {} games per side ({} looks): {}",
                verdict::thousands(self.games),
                self.looks,
                verdict::words(v)
            ),
        };
        format!(
            "Until decided: {} (B - A {}): {how}\n  (alpha spending over the looks: at most {:.0}% chance of a wrong \"different\" or a wrong \"the same\"; the table below is of the same games, not corrected for the looks)\n",
            v.label,
            verdict::effect_words(v),
            100.0 * self.alpha
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_looks_spend_alpha_and_no_more() {
        let p = Plan::new(0.05, 10_000);
        assert_eq!(p.batch, 500);
        let looks = p.looks();
        assert_eq!(looks.len(), 20);
        assert_eq!(*looks.last().unwrap(), 10_000);
        let mut before = 0;
        let mut total = 0.0;
        for &n in &looks {
            let l = p.level(before, n);
            assert!(l > 0.0);
            total += l;
            before = n;
        }
        assert!((total - 0.05).abs() < 1e-12, "{total}");
        // Pocock-like: the first look may spend more than a twentieth.
        assert!(p.level(0, 500) > 0.05 / 20.0);
        // A small run: one look at its end.
        let p = Plan::new(0.05, 80);
        assert_eq!(p.looks(), vec![80]);
    }
}
