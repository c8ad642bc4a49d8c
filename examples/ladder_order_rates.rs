//! How often `roots ladder` orders two bots, measured by simulation: the
//! ladder's rule for a pair (play `--games`, look, double while not
//! ordered, up to `--max-games`; each look tests at the level alpha
//! spending leaves, `roots::sim::ladder::look_level`) applied to games won
//! with a known chance `p` (no ties).
//!
//! `cargo run --release --example ladder_order_rates [REPLICATIONS] [SEED]`
//! (defaults 4000 and 0). Prints, for each `p` and each `--max-games` (from
//! 100 games), the share of pairs the ladder ordered, and for `p = 50%` the
//! same share had every look been judged at 5% (what the ladder did before
//! 27 November 2026). The figures are in docs/statistics.md.

use roots::sim::ladder::{look_level, ordered_at};

/// splitmix64: a small, seedable generator, enough for Bernoulli draws.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    fn wins(&mut self, p: f64, n: u64) -> u64 {
        (0..n).filter(|_| self.next() < p).count() as u64
    }
}

/// The games of a pair's looks, as the ladder plays them.
fn looks(games: u64, max_games: u64) -> Vec<u64> {
    let mut v = vec![games];
    while *v.last().unwrap_or(&max_games) < max_games {
        let n = (v[v.len() - 1] * 2).min(max_games);
        v.push(n);
    }
    v
}

/// One pair: whether the ladder ordered it, with alpha spending and with
/// every look at 5%.
fn pair(p: f64, games: u64, max_games: u64, rng: &mut Mix) -> (bool, bool) {
    let (mut won, mut before, mut naive) = (0, 0, false);
    for now in looks(games, max_games) {
        won += rng.wins(p, now - before);
        naive |= ordered_at(won as f64, now, 0.05);
        if ordered_at(won as f64, now, look_level(before, now, max_games)) {
            return (true, true);
        }
        before = now;
    }
    (false, naive)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a whole number"))
        .collect();
    let reps = args.first().copied().unwrap_or(4000);
    let seed = args.get(1).copied().unwrap_or(0);
    let games = 100;
    println!("p, max games, ordered (alpha spending), ordered (every look at 5%), of {reps} pairs");
    for (i, p) in [0.50, 0.55, 0.57, 0.58, 0.60].into_iter().enumerate() {
        for (j, max) in [400u64, 800, 1600].into_iter().enumerate() {
            let mut rng = Mix(seed ^ ((i as u64) << 32) ^ ((j as u64) << 48));
            let (mut spent, mut naive) = (0u64, 0u64);
            for _ in 0..reps {
                let (s, n) = pair(p, games, max, &mut rng);
                spent += u64::from(s);
                naive += u64::from(n);
            }
            let share = |k: u64| 100.0 * k as f64 / reps as f64;
            println!(
                "{:.0}%, {max}, {:.1}%, {:.1}%",
                100.0 * p,
                share(spent),
                share(naive)
            );
        }
    }
}
