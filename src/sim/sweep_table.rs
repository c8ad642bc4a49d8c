//! The report of a sweep: a row per point (its values, game length, seat
//! 1's wins with their interval, how games end, the measures asked for) as
//! a table, CSV or JSON, and its plot (a panel per measure against one key,
//! a heat map per measure for two).

use std::fmt::Write as _;

use crate::games::{Game, Stat};

use super::csv::csv_text;
use super::plot::{self, Panel};
use super::report::{MARGIN, Report};
use super::sweep::{Axis, Measure, Value};

/// What every point of a sweep shares, for its heading.
#[derive(Clone, Debug)]
pub struct Heading {
    /// The variant swept, with its fixed changes.
    pub label: String,
    pub players: u8,
    /// Games per point.
    pub games: u64,
    pub bots: String,
}

/// A sweep's points, each with its report or why it was skipped.
#[derive(Clone, Debug)]
pub struct SweepTable {
    pub heading: Heading,
    pub axes: Vec<Axis>,
    pub measures: Vec<Measure>,
    /// The points played, in grid order (the first key's values outer),
    /// each with its report, or why it is not a valid variant.
    pub points: Vec<(Vec<usize>, Result<Report, String>)>,
    /// The points of the whole grid (more than were played when the sweep
    /// was interrupted).
    pub asked: usize,
    /// Interrupted: the points after the last played are left out.
    pub partial: bool,
    /// The game's ways to end ([`Game::END_REASONS`]), less those that
    /// only house-rule scripts bring when no point's rules have any (the
    /// reports leave them out too).
    pub end_reasons: Vec<Stat>,
    /// The game's count of its length ([`Game::LENGTH`]).
    pub length: Stat,
    /// Each measure in words, for the plot.
    pub labels: Vec<String>,
}

/// Every point of the grid: the first key's values outer, the second's inner.
pub fn points(axes: &[Axis]) -> Vec<Vec<usize>> {
    match axes {
        [x] => (0..x.values.len()).map(|i| vec![i]).collect(),
        [x, y] => (0..x.values.len())
            .flat_map(|i| (0..y.values.len()).map(move |j| vec![i, j]))
            .collect(),
        _ => Vec::new(),
    }
}

/// `beads.supply = 30, nutrients.supply = 20`.
pub fn point_words(axes: &[Axis], p: &[usize]) -> String {
    axes.iter()
        .zip(p)
        .map(|(a, &i)| format!("{} = {}", a.key, a.values[i]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A point as JSON: each axis's key with its value there.
pub fn point_json(axes: &[Axis], p: &[usize]) -> serde_json::Map<String, serde_json::Value> {
    axes.iter()
        .zip(p)
        .map(|(a, &i)| {
            (
                a.key.clone(),
                serde_json::to_value(&a.values[i]).unwrap_or_default(),
            )
        })
        .collect()
}

impl SweepTable {
    /// The table of a sweep of game `G` (its ways to end, its count of
    /// length, its measures' words): the points played of the `asked`.
    pub fn of<G: Game>(
        heading: Heading,
        axes: Vec<Axis>,
        measures: Vec<Measure>,
        points: Vec<(Vec<usize>, Result<Report, String>)>,
        asked: usize,
    ) -> SweepTable {
        let end_reasons = G::END_REASONS
            .iter()
            .filter(|e| {
                !crate::script::END_KEYS.contains(&e.key)
                    || points
                        .iter()
                        .any(|(_, r)| r.as_ref().is_ok_and(|r| r.end_reasons.contains_key(e.key)))
            })
            .copied()
            .collect();
        SweepTable {
            heading,
            labels: measures.iter().map(Measure::label::<G>).collect(),
            axes,
            measures,
            points,
            asked,
            partial: false,
            end_reasons,
            length: G::COUNTERS.get(G::LENGTH).copied().unwrap_or(MARGIN),
        }
    }

    /// Measures beyond the two columns every table has.
    fn extra(&self) -> Vec<&Measure> {
        self.measures
            .iter()
            .filter(|m| {
                **m != Measure::SeatWins(1) && **m != Measure::Mean(self.length.key.to_owned())
            })
            .collect()
    }

    fn values(&self, p: &[usize]) -> Vec<&Value> {
        self.axes
            .iter()
            .zip(p)
            .map(|(a, &i)| &a.values[i])
            .collect()
    }

    /// A report's mean length and its spread.
    fn length_of(r: &Report) -> (f64, f64) {
        r.count(r.length.key).map_or((0.0, 0.0), |s| (s.mean, s.sd))
    }

    pub fn to_table(&self) -> String {
        let extra = self.extra();
        let mut o = String::new();
        if self.partial {
            let _ = writeln!(
                o,
                "PARTIAL SWEEP: interrupted after {} of {} values (the last may cover fewer games)\n",
                self.points.len(),
                self.asked
            );
        }
        let _ = writeln!(
            o,
            "Variant `{}`, {} players, {} games per value, bots {}\n",
            self.heading.label, self.heading.players, self.heading.games, self.heading.bots
        );
        for a in &self.axes {
            let _ = write!(o, "{:>14}  ", a.key);
        }
        let _ = write!(
            o,
            "{:>7}  {:>6}  {:>24}",
            self.length.short, "sd", "seat 1 wins (95%)"
        );
        // The ways to end in compare's words ("ends: nutrients out").
        let ends: Vec<(String, usize)> = self
            .end_reasons
            .iter()
            .map(|e| {
                let name = e.key.replace('_', " ");
                let w = name.chars().count().max(7);
                (name, w)
            })
            .collect();
        for (name, w) in &ends {
            let _ = write!(o, "  {name:>w$}");
        }
        let widths: Vec<usize> = extra.iter().map(|m| (m.key().len() + 6).max(26)).collect();
        for (m, w) in extra.iter().zip(&widths) {
            let _ = write!(o, "  {:>w$}", format!("{} (95%)", m.key()));
        }
        o.push('\n');
        for (p, r) in &self.points {
            for v in self.values(p) {
                let _ = write!(o, "{:>14}  ", v.to_string());
            }
            let r = match r {
                Ok(r) => r,
                Err(_) => {
                    o.push_str("not a valid variant: skipped\n");
                    continue;
                }
            };
            let (mean, sd) = Self::length_of(r);
            let _ = write!(o, "{mean:>7.1}  {sd:>6.1}  {:>24}", r.seats[0].wins.words(),);
            for (e, (_, w)) in self.end_reasons.iter().zip(&ends) {
                let rate = r.end_reasons.get(e.key).map_or(0.0, |x| x.rate);
                let _ = write!(o, "  {:>w$}", format!("{:.1}%", 100.0 * rate));
            }
            for (m, w) in extra.iter().zip(&widths) {
                let e = m.of(r);
                let _ = write!(
                    o,
                    "  {:>w$}",
                    format!(
                        "{} ({} to {})",
                        m.show(e.value),
                        m.show(e.low),
                        m.show(e.high)
                    )
                );
            }
            o.push('\n');
        }
        let _ = writeln!(
            o,
            "\n{}: the mean per game; sd: the spread of single games (the mean's own 95% interval is about ± 2 sd / √games);\nseat 1 wins: 95% interval; then the share of games that end each way. Neighbouring values differ by chance too: read the trend.",
            self.length.short
        );
        o
    }

    pub fn to_csv(&self) -> String {
        let extra = self.extra();
        let mut header: Vec<String> = self.axes.iter().map(|a| a.key.clone()).collect();
        let len = self.length.key;
        header.extend([
            format!("mean_{len}"),
            format!("sd_{len}"),
            "seat1_win_rate".into(),
            "seat1_low".into(),
            "seat1_high".into(),
        ]);
        header.extend(self.end_reasons.iter().map(|e| e.key.to_string()));
        for m in &extra {
            let k = m.key().replace('-', "_");
            header.extend([k.clone(), format!("{k}_low"), format!("{k}_high")]);
        }
        let width = header.len();
        let mut rows = vec![header];
        if self.partial {
            // The table itself says it is partial, in its first row, as
            // simulate's CSV does: a file cut short must not look whole.
            let mut row = vec![
                "partial: interrupted".to_string(),
                "values_asked".into(),
                self.asked.to_string(),
            ];
            row.resize(width.max(row.len()), String::new());
            rows.push(row);
        }
        for (p, r) in &self.points {
            let Ok(r) = r else { continue };
            let mut row: Vec<String> = self.values(p).iter().map(|v| v.to_string()).collect();
            let w = &r.seats[0].wins;
            let (mean, sd) = Self::length_of(r);
            row.extend([mean, sd, w.rate, w.low, w.high].map(|x| x.to_string()));
            for e in &self.end_reasons {
                row.push(r.end_reasons.get(e.key).map_or(0.0, |x| x.rate).to_string());
            }
            for m in &extra {
                let e = m.of(r);
                row.extend([e.value, e.low, e.high].map(|x| x.to_string()));
            }
            rows.push(row);
        }
        // Written by the csv crate: a value with a comma is quoted.
        csv_text(rows)
    }

    pub fn to_json(&self) -> serde_json::Result<String> {
        let mut rows = Vec::new();
        let mut skipped = Vec::new();
        for (p, r) in &self.points {
            let vals = point_json(&self.axes, p);
            match r {
                Ok(r) => {
                    let measures: serde_json::Map<String, serde_json::Value> = self
                        .measures
                        .iter()
                        .map(|m| (m.key(), serde_json::to_value(m.of(r)).unwrap_or_default()))
                        .collect();
                    let mut row =
                        serde_json::json!({ "values": vals, "measures": measures, "report": r });
                    if self.axes.len() == 1 {
                        row["value"] =
                            serde_json::to_value(&self.axes[0].values[p[0]]).unwrap_or_default();
                    }
                    rows.push(row);
                }
                Err(e) => skipped.push(serde_json::json!({ "values": vals, "error": e })),
            }
        }
        let keys: Vec<&str> = self.axes.iter().map(|a| a.key.as_str()).collect();
        let mut doc =
            serde_json::json!({ "key": keys[0], "keys": keys, "values": rows, "skipped": skipped });
        if self.partial {
            // The document itself says it is partial, not only stderr.
            doc["partial"] = serde_json::json!({ "interrupted": true, "values_asked": self.asked });
        }
        serde_json::to_string_pretty(&doc)
    }

    /// The plot: a panel per measure for one key, a heat map per measure
    /// for two; marked when the sweep was interrupted.
    pub fn svg(&self) -> String {
        let players = self.heading.players;
        let panel = |(m, label): (&Measure, &String)| Panel {
            label: label.clone(),
            rate: m.is_rate(),
            signed: *m == Measure::FirstPlayerAdvantage,
            points: self
                .points
                .iter()
                .map(|(_, r)| r.as_ref().ok().map(|r| m.of(r)))
                .collect(),
            fair: self
                .points
                .iter()
                .map(|(_, r)| r.as_ref().ok().and_then(|r| m.fair(players, r.ties.rate)))
                .collect(),
        };
        let keys: Vec<&str> = self.axes.iter().map(|a| a.key.as_str()).collect();
        let title = format!(
            "{}: sweep of {} ({} games per point, bots {})",
            self.heading.label,
            keys.join(" and "),
            self.heading.games,
            self.heading.bots
        );
        let measures = self.measures.iter().zip(&self.labels);
        let mut text = match &self.axes[..] {
            [x] => plot::line_svg(&title, x, &measures.map(panel).collect::<Vec<_>>()),
            [x, y] => {
                // The grid is x outer, y inner; the heat map wants y outer.
                let maps: Vec<String> = measures
                    .map(|m| {
                        let mut p = panel(m);
                        let (nx, ny) = (x.values.len(), y.values.len());
                        fn reorder<T: Copy>(
                            v: &[Option<T>],
                            nx: usize,
                            ny: usize,
                        ) -> Vec<Option<T>> {
                            let mut out = Vec::with_capacity(nx * ny);
                            for j in 0..ny {
                                for i in 0..nx {
                                    out.push(v.get(i * ny + j).copied().flatten());
                                }
                            }
                            out
                        }
                        p.points = reorder(&p.points, nx, ny);
                        p.fair = reorder(&p.fair, nx, ny);
                        plot::heat_svg(&title, x, y, &p)
                    })
                    .collect();
                plot::stack(&maps)
            }
            _ => String::new(),
        };
        if self.partial {
            // The picture itself says so, as the table does.
            let note = format!(
                "<text x=\"6\" y=\"12\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#b00000\">PARTIAL: interrupted after {} of {} values</text>\n</svg>",
                self.points.len(),
                self.asked
            );
            if let Some(end) = text.rfind("</svg>") {
                text.replace_range(end.., &note);
            }
        }
        text
    }
}
