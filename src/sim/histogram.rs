//! An exact histogram of small non-negative integers: the accumulator of every
//! per-game measure. Counts are integers, so merging in any order gives the
//! same totals, and the mean, spread and percentiles come out of it exactly,
//! whatever the number of threads.

use serde::Serialize;

/// Counts of each value `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
}

/// One bar of a binned histogram: `count` values in `from..=to`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    pub count: u64,
}

/// Mean, spread, extremes and percentiles of a measure, with a binned
/// histogram (at most [`Summary::BINS`] bars).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub n: u64,
    pub mean: f64,
    /// Sample standard deviation (n - 1).
    pub sd: f64,
    pub min: u32,
    pub max: u32,
    pub p10: u32,
    pub p25: u32,
    pub median: u32,
    pub p75: u32,
    pub p90: u32,
    pub histogram: Vec<Bin>,
}

impl Summary {
    pub const BINS: u32 = 20;
}

impl Histogram {
    pub fn new() -> Histogram {
        Histogram::default()
    }

    pub fn add(&mut self, value: u32) {
        let i = value as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
    }

    /// The count of each value from 0 up to the largest seen (the form a
    /// partial result file keeps).
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// How many values above 0 were added: the games a per-game flag
    /// ([`crate::games::Stat::flag`]) counts.
    pub fn nonzero(&self) -> u64 {
        self.counts.iter().skip(1).sum()
    }

    /// A histogram from [`Histogram::counts`]; trailing zeros are dropped,
    /// so equal totals give equal histograms.
    pub fn from_counts(counts: Vec<u64>) -> Histogram {
        let mut counts = counts;
        while counts.last() == Some(&0) {
            counts.pop();
        }
        Histogram { counts }
    }

    pub fn n(&self) -> u64 {
        self.counts.iter().sum()
    }

    fn sums(&self) -> (u128, u128) {
        let mut s = 0u128;
        let mut s2 = 0u128;
        for (v, &c) in self.counts.iter().enumerate() {
            let (v, c) = (v as u128, u128::from(c));
            s += v * c;
            s2 += v * v * c;
        }
        (s, s2)
    }

    pub fn mean(&self) -> f64 {
        let n = self.n();
        if n == 0 {
            return 0.0;
        }
        self.sums().0 as f64 / n as f64
    }

    /// Sample standard deviation; 0 below two values.
    pub fn sd(&self) -> f64 {
        let n = self.n();
        if n < 2 {
            return 0.0;
        }
        let (s, s2) = self.sums();
        // n * s2 - s^2 is exact in integers.
        let num = (u128::from(n) * s2).saturating_sub(s * s) as f64;
        (num / (n as f64 * (n - 1) as f64)).sqrt()
    }

    pub fn min(&self) -> u32 {
        self.counts.iter().position(|&c| c > 0).unwrap_or(0) as u32
    }

    pub fn max(&self) -> u32 {
        self.counts.iter().rposition(|&c| c > 0).unwrap_or(0) as u32
    }

    /// The nearest-rank percentile: the smallest value with at least
    /// `q * n` values at or below it (`q` in 0..=1).
    pub fn percentile(&self, q: f64) -> u32 {
        let n = self.n();
        if n == 0 {
            return 0;
        }
        let rank = ((q * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (v, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return v as u32;
            }
        }
        self.max()
    }

    /// Bars of equal width covering `min..=max`, at most [`Summary::BINS`].
    pub fn bins(&self) -> Vec<Bin> {
        if self.n() == 0 {
            return Vec::new();
        }
        let (lo, hi) = (self.min(), self.max());
        let width = (hi - lo + 1).div_ceil(Summary::BINS).max(1);
        let mut bins = Vec::new();
        let mut from = lo;
        while from <= hi {
            let to = from.saturating_add(width - 1).min(hi);
            let count = (from..=to)
                .map(|v| self.counts.get(v as usize).copied().unwrap_or(0))
                .sum();
            bins.push(Bin { from, to, count });
            if to == u32::MAX {
                break;
            }
            from = to + 1;
        }
        bins
    }

    pub fn summary(&self) -> Summary {
        Summary {
            n: self.n(),
            mean: self.mean(),
            sd: self.sd(),
            min: self.min(),
            max: self.max(),
            p10: self.percentile(0.10),
            p25: self.percentile(0.25),
            median: self.percentile(0.50),
            p75: self.percentile(0.75),
            p90: self.percentile(0.90),
            histogram: self.bins(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_by_hand() {
        let mut h = Histogram::new();
        for v in [2, 4, 4, 4, 5, 5, 7, 9] {
            h.add(v);
        }
        // Mean 5; squared deviations sum to 32; sample sd sqrt(32 / 7).
        assert_eq!(h.n(), 8);
        assert_eq!(h.mean(), 5.0);
        assert!((h.sd() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!((h.min(), h.max()), (2, 9));
        // Nearest rank: median is the 4th value (4), p75 the 6th (5), p90 the 8th (9).
        assert_eq!(h.percentile(0.5), 4);
        assert_eq!(h.percentile(0.75), 5);
        assert_eq!(h.percentile(0.9), 9);
        assert_eq!(h.percentile(0.0), 2);
        let bins = h.bins();
        assert_eq!(bins.len(), 8);
        assert_eq!(
            bins[2],
            Bin {
                from: 4,
                to: 4,
                count: 3
            }
        );
        assert_eq!(bins.iter().map(|b| b.count).sum::<u64>(), 8);
    }

    #[test]
    fn wide_ranges_are_binned_and_merge_is_order_free() {
        let mut a = Histogram::new();
        let mut b = Histogram::new();
        for v in 0..100 {
            a.add(v);
            b.add(v * 2);
        }
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        let bins = ab.bins();
        assert_eq!(bins.len(), 20);
        assert_eq!(
            bins[0],
            Bin {
                from: 0,
                to: 9,
                count: 15
            }
        );
        assert_eq!(bins.iter().map(|x| x.count).sum::<u64>(), 200);
    }

    #[test]
    fn empty_histogram_is_all_zero() {
        let h = Histogram::new();
        let s = h.summary();
        assert_eq!(
            (s.n, s.mean, s.sd, s.min, s.max, s.median),
            (0, 0.0, 0.0, 0, 0, 0)
        );
        assert!(s.histogram.is_empty());
    }
}
