//! How often the verdict rule calls identical rules "different": REPORTS
//! comparisons of a variant with itself, each side on its own seed (so the
//! games are independent, not matched), every statistic of `roots compare`
//! judged at once. The rule holds the family-wise error rate at 5%, so at
//! most about 5 reports in 100 should show any "different".
//!
//! `cargo run --release --example false_different_rate -- [VARIANT] [BOTS] [GAMES] [REPORTS] [PLAYERS]`
//! (defaults: standard greedy 1000 100 2). Prints each report's count of
//! "different" and, at the end, the share of reports with at least one.
//! The figures are in docs/statistics.md.

use std::sync::Arc;

use roots::bots::BotSpec;
use roots::sim::verdict::Outcome;
use roots::sim::{self, Config, Seating, compare};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_owned());
    let variant = arg(0, "standard");
    let bots: Vec<BotSpec> = arg(1, "greedy")
        .split(',')
        .map(BotSpec::parse)
        .collect::<Result<_, _>>()?;
    let games: u64 = arg(2, "1000").parse().map_err(|_| "GAMES: a number")?;
    let reports: u64 = arg(3, "100").parse().map_err(|_| "REPORTS: a number")?;
    let players: u8 = arg(4, "2").parse().map_err(|_| "PLAYERS: a number")?;
    let loaded = roots::variant::load(&variant)
        .map_err(|d| roots::variant::render(&d.items, &d.sources, roots::variant::Style::Plain))?;
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut any, mut calls, mut stats) = (0u64, 0u64, 0usize);
    roots::with_game!(&loaded.rules, G, r => {
        let config = |seed: u64| Config::<G> {
            rules: Arc::clone(r),
            players,
            bots: bots.clone(),
            seating: if bots.len() > 1 { Seating::Rotated } else { Seating::Fixed },
            games,
            seed,
            jobs,
            measures: Default::default(),
        };
        for k in 0..reports {
            // Side A on seed 2k, side B on seed 2k + 1: independent games.
            let a = sim::simulate(&config(2 * k)).map_err(|e| e.to_string())?;
            let b = sim::simulate(&config(2 * k + 1)).map_err(|e| e.to_string())?;
            let c = compare(a, b);
            stats = c.differences.len();
            let different: Vec<&str> = c
                .differences
                .iter()
                .filter(|d| d.verdict.verdict == Outcome::Different)
                .map(|d| d.verdict.key.as_str())
                .collect();
            calls += different.len() as u64;
            if !different.is_empty() {
                any += 1;
            }
            println!("report {k}: {} different {:?}", different.len(), different);
        }
    });
    println!(
        "{variant}, bots {}, {games} games a side, {stats} statistics a report: {any} of {reports} reports ({:.1}%) call something \"different\" ({calls} calls in all)",
        arg(1, "greedy"),
        100.0 * any as f64 / reports as f64
    );
    Ok(())
}
