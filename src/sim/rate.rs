//! A proportion with its 95% interval: the statistics' plainest figure.

use serde::Serialize;

use super::stats::wilson;

/// A proportion with its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: u64,
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: u64, of: u64) -> Rate {
        let (low, high) = wilson(count as f64, of as f64);
        Rate {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }

    /// `53.1% (50.0–56.2%)`.
    pub fn words(&self) -> String {
        format!(
            "{:.1}% ({:.1}–{:.1}%)",
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}
