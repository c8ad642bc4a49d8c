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

use roots::core::dice::SeededDice;
use roots::sim::ladder::{look_level, looks, ordered_at};

/// Wins of `n` games each won with chance `p`.
fn wins(dice: &mut SeededDice, p: f64, n: u64) -> u64 {
    let cut = p * f64::from(u32::MAX);
    (0..n).filter(|_| f64::from(dice.next_u32()) < cut).count() as u64
}

/// One pair: whether the ladder ordered it, with alpha spending and with
/// every look at 5%.
fn pair(p: f64, games: u64, max_games: u64, dice: &mut SeededDice) -> (bool, bool) {
    let (mut won, mut before, mut naive) = (0, 0, false);
    for now in looks(games, max_games) {
        won += wins(dice, p, now - before);
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
            // One stream per line of the table.
            let mut dice = SeededDice::new(seed, (i * 3 + j) as u64);
            let (mut spent, mut naive) = (0u64, 0u64);
            for _ in 0..reps {
                let (s, n) = pair(p, games, max, &mut dice);
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
