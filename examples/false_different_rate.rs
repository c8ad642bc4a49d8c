//! How often the verdict rule calls identical rules "different": REPORTS
//! comparisons of a variant with itself, each side on its own seed (so the
//! games are independent, not matched), every statistic of `roots compare`
//! judged as `compare` judges it: in two Holm families, the report's own
//! statistics and the design measures (docs/statistics.md, "Two
//! families"). Each family holds its family-wise error rate at 5%, so at
//! most about 5 reports in 100 should show any "different" in either
//! family, and at most about 10 in 100 in the two together.
//!
//! `cargo run --release --example false_different_rate -- [VARIANT] [BOTS] [GAMES] [REPORTS] [PLAYERS]`
//! (defaults: standard greedy 1000 100 2). Prints each report's
//! "different" per family and, at the end, the share of reports with at
//! least one in each family and in either. The figures are in
//! docs/statistics.md.

use std::sync::Arc;

use roots::bots::BotSpec;
use roots::sim::verdict::Outcome;
use roots::sim::{self, Config, Family, Seating, compare};

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
    // Per family (primary, measures): reports with a "different", calls of
    // "different", statistics a report; and reports with one in either.
    let families = [Family::Primary, Family::Measures];
    let (mut any, mut calls, mut stats) = ([0u64; 2], [0u64; 2], [0usize; 2]);
    let mut either = 0u64;
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
            let mut line = Vec::new();
            for (f, family) in families.iter().enumerate() {
                let judged = || c.differences.iter().filter(|d| d.family == *family);
                stats[f] = judged().count();
                let different: Vec<&str> = judged()
                    .filter(|d| d.verdict.verdict == Outcome::Different)
                    .map(|d| d.verdict.key.as_str())
                    .collect();
                calls[f] += different.len() as u64;
                any[f] += u64::from(!different.is_empty());
                line.push(format!("{family:?} {} {different:?}", different.len()));
            }
            if c.differences
                .iter()
                .any(|d| d.verdict.verdict == Outcome::Different)
            {
                either += 1;
            }
            println!("report {k}: different: {}", line.join(", "));
        }
    });
    let pct = |n: u64| 100.0 * n as f64 / reports as f64;
    println!(
        "{variant}, bots {}, {games} games a side, {reports} reports (seeds 0 to {}):",
        arg(1, "greedy"),
        2 * reports - 1
    );
    for (f, family) in families.iter().enumerate() {
        println!(
            "  {family:?} family ({} statistics a report): {} of {reports} reports ({:.1}%) call something \"different\" ({} calls in all)",
            stats[f],
            any[f],
            pct(any[f]),
            calls[f]
        );
    }
    println!(
        "  either family: {either} of {reports} reports ({:.1}%)",
        pct(either)
    );
    Ok(())
}
