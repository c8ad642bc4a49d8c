//! `roots feedback`: the answers to the end-of-game questionnaire of
//! `roots serve` tables, summarised per variant with 95% intervals, beside
//! what seeded bot games of the same variant say.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;

use crate::games::{AnyRules, Game};
use crate::record::{self, PartialTail};
use crate::sim::stats::wilson;

use super::table::{Answer, feedback_path, read_answers};

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom
/// (`t_two_sided` inverted by bisection).
fn t95(df: u64) -> f64 {
    let (mut lo, mut hi) = (0.0, 100.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if crate::sim::stats::t_two_sided(mid, df as f64) > 0.05 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Mean and its 95% t-interval (`None` for the interval under two values).
pub fn mean_interval(xs: &[f64]) -> (f64, Option<(f64, f64)>) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, None);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = t95(xs.len() as u64 - 1) * (var / n).sqrt();
    (mean, Some((mean - half, mean + half)))
}

/// The answers and games of one variant.
#[derive(Default)]
struct Group {
    rules: Option<AnyRules>,
    records: usize,
    finished: usize,
    players: Vec<usize>,
    answers: Vec<Answer>,
}

/// Records given on the command line: a `.feedback.jsonl` file stands for
/// its record; each record once.
fn records_of(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for p in paths {
        let name = p.to_string_lossy();
        let rec = match name.strip_suffix(".feedback.jsonl") {
            Some(stem) => PathBuf::from(format!("{stem}.jsonl")),
            None => p.clone(),
        };
        if !out.contains(&rec) {
            out.push(rec);
        }
    }
    out
}

/// The summary of the answers kept beside `records`, per variant, each
/// with `bot_games` seeded greedy games of the variant (0: none).
pub fn summary(paths: &[PathBuf], bot_games: u64) -> Result<String, String> {
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for rec in records_of(paths) {
        let shown = rec.display().to_string();
        let raw = record::reader::read_path(&rec, PartialTail::Drop).map_err(|e| match e {
            record::ReadError::Io(e) => format!("{shown}: {e}"),
            record::ReadError::Record(e) => format!(
                "{shown}:{}: {}",
                e.line.map_or(String::new(), |l| l.to_string()),
                e.message
            ),
        })?;
        let finished = crate::with_game_id!(raw.header.game(), G => finished::<G>(&raw))
            .map_err(|e| format!("{shown}: {e}"))?;
        let key = format!(
            "{} ({}, {} players)",
            raw.header.variant.name(),
            raw.header.game().title(),
            raw.header.players.len()
        );
        let g = groups.entry(key).or_default();
        g.rules = Some(raw.header.variant.clone());
        g.records += 1;
        g.finished += usize::from(finished);
        g.players.push(raw.header.players.len());
        g.answers.extend(read_answers(&feedback_path(&rec))?);
    }
    let mut out = String::new();
    for (name, g) in &groups {
        let _ = writeln!(out, "variant {name}");
        let _ = writeln!(
            out,
            "  games: {} ({} finished), answers: {}",
            g.records,
            g.finished,
            g.answers.len()
        );
        for (label, pick) in [
            (
                "fun (1-5)",
                (|a: &Answer| f64::from(a.fun)) as fn(&Answer) -> f64,
            ),
            ("fairness (1-5)", |a: &Answer| f64::from(a.fairness)),
        ] {
            let xs: Vec<f64> = g.answers.iter().map(pick).collect();
            let (mean, ci) = mean_interval(&xs);
            let _ = match (xs.is_empty(), ci) {
                (true, _) => writeln!(out, "  {label}: no answers"),
                // The interval within the scale's ends (1 to 5).
                (false, Some((lo, hi))) => writeln!(
                    out,
                    "  {label}: mean {mean:.2}, 95% interval {:.2} to {:.2} (n = {})",
                    lo.max(1.0),
                    hi.min(5.0),
                    xs.len()
                ),
                (false, None) => writeln!(
                    out,
                    "  {label}: mean {mean:.2} (n = 1: too few for an interval)"
                ),
            };
        }
        let n = g.answers.len();
        if n > 0 {
            let parts: Vec<String> = [
                ("short", "too short"),
                ("right", "about right"),
                ("long", "too long"),
            ]
            .iter()
            .map(|(key, words)| {
                let k = g.answers.iter().filter(|a| a.length == *key).count();
                let (lo, hi) = wilson(k as f64, n as f64);
                format!(
                    "{words} {k}/{n} ({:.0}%, 95% interval {:.0}% to {:.0}%)",
                    100.0 * k as f64 / n as f64,
                    100.0 * lo,
                    100.0 * hi
                )
            })
            .collect();
            let _ = writeln!(out, "  length: {}", parts.join("; "));
        }
        for a in &g.answers {
            if !a.text.trim().is_empty() {
                let _ = writeln!(
                    out,
                    "  said by seat {} ({}): {}",
                    a.seat,
                    printable(&a.name),
                    printable(a.text.trim())
                );
            }
        }
        if bot_games > 0
            && let Some(rules) = &g.rules
        {
            let players = g.players.first().copied().unwrap_or(2) as u8;
            let line =
                crate::with_game!(rules, G, r => bots_line::<G>(Arc::clone(r), players, bot_games));
            let _ = writeln!(out, "  {line}");
        }
    }
    if groups.is_empty() {
        out.push_str("no records given\n");
    }
    Ok(out)
}

fn finished<G: crate::games::Registered>(raw: &record::RawRecord) -> Result<bool, String> {
    crate::referee::Referee::<G>::replay(raw, None)
        .map(|r| r.outcome().is_some())
        .map_err(|e| e.message)
}

/// What seeded games of the variant by the game's default bot
/// ([`Game::DEFAULT_BOT`], as `roots simulate` seats) say: each seat's wins
/// and the game's length, with 95% intervals.
fn bots_line<G: Game>(rules: Arc<G::Rules>, players: u8, games: u64) -> String {
    let config = crate::sim::Config::<G> {
        rules,
        players,
        bots: vec![G::DEFAULT_BOT],
        seating: crate::sim::Seating::Fixed,
        games,
        seed: 1,
        jobs: 1,
        measures: Default::default(),
    };
    match crate::sim::simulate(&config) {
        Ok(report) => {
            let seats: Vec<String> = report
                .seats
                .iter()
                .map(|s| {
                    format!(
                        "seat {} {:.0}% ({:.0}-{:.0}%)",
                        s.seat,
                        100.0 * s.wins.rate,
                        100.0 * s.wins.low,
                        100.0 * s.wins.high
                    )
                })
                .collect();
            let length = G::COUNTERS
                .get(G::LENGTH)
                .and_then(|l| report.counts.get(l.key).map(|s| (l.label, s)))
                .map(|(label, s)| {
                    let (mean, _) = (s.mean, s.sd);
                    let half = 1.96 * s.sd / (s.n.max(1) as f64).sqrt();
                    format!(
                        "; length {mean:.1} {label} ({:.1}-{:.1})",
                        mean - half,
                        mean + half
                    )
                })
                .unwrap_or_default();
            format!(
                "bots ({games} seeded {} games, seed 1): wins {}{length}",
                G::DEFAULT_BOT,
                seats.join(", ")
            )
        }
        Err(e) => format!("bots: no statistics ({e})"),
    }
}

/// Text from a player, safe to print on a terminal: control characters
/// (escape sequences) shown as `\u{..}`.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_interval_matches_a_hand_computation() {
        // 3, 4, 5: mean 4, sd 1, t(2) = 4.303: 4 +- 4.303/sqrt(3).
        let (m, ci) = mean_interval(&[3.0, 4.0, 5.0]);
        assert_eq!(m, 4.0);
        let (lo, hi) = ci.unwrap();
        assert!((hi - 4.0 - 4.303 / 3f64.sqrt()).abs() < 1e-3);
        assert!((4.0 - lo - 4.303 / 3f64.sqrt()).abs() < 1e-3);
        assert_eq!(mean_interval(&[2.0]).1, None);
        // Student's t from the tables: 12.706 (1), 2.228 (10), 1.962 (1000).
        for (df, t) in [(1, 12.706), (10, 2.228), (1000, 1.962)] {
            assert!((t95(df) - t).abs() < 1e-3, "t95({df}) = {}", t95(df));
        }
    }

    #[test]
    fn printable_shows_escape_sequences() {
        assert_eq!(printable("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
    }
}
