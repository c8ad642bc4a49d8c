//! The report of a tune: the search's figures, the original rules and the
//! best points found, each target measure with its 95% interval and the
//! distance to the targets, as a table, CSV or JSON.

use std::fmt::Write as _;

use super::report::Report;
use super::sweep::Axis;
use super::tune::{self, Point, Target, Versus};

/// The figures of a search, for its report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub games: u64,
    /// The brackets played to their end.
    pub brackets: usize,
    /// The budget ran out in the middle of a bracket.
    pub cut_short: bool,
    pub points: usize,
    pub invalid: usize,
    pub size: u128,
    /// Why the search stopped before its budget was spent.
    #[serde(skip)]
    pub stopped: Option<&'static str>,
    /// The path the search took: each round's best distance to the targets.
    #[serde(default)]
    pub path: Vec<tune::Step>,
}

/// A tune's report.
#[derive(Clone, Debug)]
pub struct TuneTable {
    /// The variant tuned.
    pub variant: String,
    pub players: u8,
    pub bots: String,
    pub axes: Vec<Axis>,
    pub targets: Vec<Target>,
    /// The targets as given (`rounds=25`).
    pub targets_given: Vec<String>,
    pub summary: Summary,
    /// The original rules on the same games as the best point.
    pub original: Option<Report>,
    /// The original rules' value of each key searched (TOML), if it has one.
    pub original_values: Vec<Option<toml::Value>>,
    /// The best points, best first, with their reports.
    pub best: Vec<(Point, Report)>,
    /// The best point against the original rules.
    pub versus: Option<Versus>,
    /// Too few games for the precision the targets need.
    pub warning: Option<String>,
    /// Where the best variant was written (or why not), in a line.
    pub written: Option<String>,
    /// The file the best variant goes to.
    pub write: String,
    /// The best point's resolved rules (the original with the point's
    /// values set), for the page's diff against the original.
    pub best_rules: Option<crate::games::AnyRules>,
}

impl TuneTable {
    /// The rows: the original rules first (no point), then the best.
    fn rows(&self) -> impl Iterator<Item = (Option<&Point>, &Report)> {
        self.original
            .iter()
            .map(|r| (None, r))
            .chain(self.best.iter().map(|(p, r)| (Some(p), r)))
    }

    /// Whether `p` is the point of the original rules (every key searched
    /// at the original's value).
    fn is_original(&self, p: &Point) -> bool {
        self.axes
            .iter()
            .zip(p)
            .zip(&self.original_values)
            .all(|((a, &i), v)| v.as_ref() == Some(&a.values[i].to_toml()))
    }

    pub fn to_table(&self) -> String {
        let s = &self.summary;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "Tuning `{}` ({} players, bots {}): {} points in the space",
            self.variant, self.players, self.bots, s.size
        );
        let _ = writeln!(
            o,
            "Targets: {}",
            self.targets
                .iter()
                .map(Target::words)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(
            o,
            "{} games in {}{}; {} points tried{}{}\n",
            s.games,
            crate::core::count(s.brackets as u64, "bracket", "brackets"),
            if s.cut_short {
                " and one cut short by the budget"
            } else {
                ""
            },
            s.points,
            if s.invalid > 0 {
                format!(" ({} not valid variants, skipped)", s.invalid)
            } else {
                String::new()
            },
            if s.stopped.is_some() { "; partial" } else { "" }
        );
        let _ = writeln!(
            o,
            "Best variants, after the original rules (every point on the same seeded games; 95% intervals; distance: one point of a rate or one unit of a mean per target)"
        );
        let _ = write!(o, "  #");
        for a in &self.axes {
            let _ = write!(o, "  {:>w$}", a.key, w = a.key.len().max(6));
        }
        for t in &self.targets {
            let _ = write!(o, "  {:<30}", t.measure.key());
        }
        let _ = writeln!(o, "  {:>8}  {:>6}", "distance", "games");
        // The original rules' point, when it ranks among the best, is
        // shown once: as the original row, on the best point's games.
        let shown = self
            .rows()
            .filter(|(p, _)| self.original.is_none() || p.is_none_or(|p| !self.is_original(p)));
        for (k, (p, r)) in shown.enumerate() {
            match p {
                None => {
                    let _ = write!(o, "orig");
                    for (a, v) in self.axes.iter().zip(&self.original_values) {
                        let v = v.as_ref().map_or("-".into(), |v| v.to_string());
                        let _ = write!(o, " {:>w$}", v, w = a.key.len().max(6) + 1);
                    }
                }
                Some(p) => {
                    let _ = write!(o, "{:>3}", k + usize::from(self.original.is_none()));
                    for (a, &i) in self.axes.iter().zip(p) {
                        let _ = write!(
                            o,
                            "  {:>w$}",
                            a.values[i].to_string(),
                            w = a.key.len().max(6)
                        );
                    }
                }
            }
            for t in &self.targets {
                let e = t.measure.of(r);
                let m = &t.measure;
                let cell = format!(
                    "{} ({} to {})",
                    m.show(e.value),
                    m.show(e.low),
                    m.show(e.high)
                );
                let _ = write!(o, "  {cell:<30}");
            }
            let _ = writeln!(o, "  {:>8.2}  {:>6}", tune::loss(&self.targets, r), r.games);
        }
        if self.best.is_empty() {
            let _ = writeln!(o, "  (no point finished a round)");
        }
        if let Some(v) = &self.versus {
            let _ = writeln!(
                o,
                "\nThe best against the original: {:.2} nearer the targets (± {:.2} at 95%): {}",
                v.improvement,
                1.96 * v.se,
                if v.beats {
                    "beyond noise"
                } else {
                    "within noise"
                }
            );
        }
        if let Some(w) = &self.written {
            let _ = writeln!(o, "{w}");
        }
        if let Some(w) = &self.warning {
            let _ = writeln!(o, "\n{w}");
        }
        o
    }

    pub fn to_csv(&self) -> String {
        let mut o = String::new();
        for a in &self.axes {
            let _ = write!(o, "{},", a.key);
        }
        for t in &self.targets {
            let k = t.measure.key().replace('-', "_");
            let _ = write!(o, "{k},{k}_low,{k}_high,");
        }
        let _ = writeln!(o, "distance,games");
        for (p, r) in self.rows() {
            match p {
                // The original rules first.
                None => {
                    for v in &self.original_values {
                        let v = v.as_ref().map_or(String::new(), |v| v.to_string());
                        let _ = write!(o, "{v},");
                    }
                }
                Some(p) => {
                    for (a, &i) in self.axes.iter().zip(p) {
                        let _ = write!(o, "{},", a.values[i]);
                    }
                }
            }
            for t in &self.targets {
                let e = t.measure.of(r);
                let _ = write!(o, "{},{},{},", e.value, e.low, e.high);
            }
            let _ = writeln!(o, "{},{}", tune::loss(&self.targets, r), r.games);
        }
        o
    }

    pub fn to_json(&self) -> serde_json::Result<String> {
        let s = &self.summary;
        // Each target's measure in one report, by the measure's key.
        let measures_of = |r| -> serde_json::Map<String, serde_json::Value> {
            self.targets
                .iter()
                .map(|t| {
                    (
                        t.measure.key(),
                        serde_json::to_value(t.measure.of(r)).unwrap_or_default(),
                    )
                })
                .collect()
        };
        let rows: Vec<serde_json::Value> = self
            .best
            .iter()
            .map(|(p, r)| {
                let values = super::sweep_table::point_json(&self.axes, p);
                serde_json::json!({
                    "values": values,
                    "measures": measures_of(r),
                    "distance": tune::loss(&self.targets, r),
                    "games": r.games,
                })
            })
            .collect();
        let original_row = self.original.as_ref().map(|r| {
            serde_json::json!({
                "measures": measures_of(r),
                "distance": tune::loss(&self.targets, r),
                "games": r.games,
            })
        });
        let beats = self.versus.as_ref().is_some_and(|v| v.beats);
        let doc = serde_json::json!({
            "variant": self.variant,
            "targets": self.targets_given,
            "games": s.games,
            "brackets": s.brackets,
            "bracket_cut_short": s.cut_short,
            "points_tried": s.points,
            "path": s.path.iter().map(|st| serde_json::json!({
                "round": st.round,
                "bracket": st.bracket,
                "games": st.games,
                "distance": st.best,
                "values": st.point.as_ref().map(|p| super::sweep_table::point_json(&self.axes, p)),
            })).collect::<Vec<_>>(),
            "partial": s.stopped.is_some(),
            "original": original_row,
            "best_against_original": self.versus,
            "best": rows,
            "written": (beats && self.written.is_some()).then_some(&self.write),
            "warning": self.warning,
        });
        serde_json::to_string_pretty(&doc)
    }
}
