//! Two runs side by side: every statistic's difference with its verdict
//! ([`compare_with`]), for `roots compare`.

use std::fmt::Write as _;

use serde::Serialize;

use super::csv::csv_text;
use super::ladder::Ladder;
use super::paired::Pairs;
use super::rate::Rate;
use super::report::Report;
use super::sequential::Stopped;
use super::verdict::{self, ALPHA, Margins, Outcome, Statistic, Unit, Verdict};

/// The two families of `compare`'s statistics, each Holm-corrected on its
/// own ([`compare_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Who wins, ties, how games end, the counts.
    Primary,
    /// The design measures (`docs/statistics.md`).
    Measures,
}

/// One statistic of two runs side by side, with its verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// A's and B's values (a rate as a fraction).
    pub a: f64,
    pub b: f64,
    /// The Holm family the statistic was judged in.
    pub family: Family,
    /// The verdict on `b - a`: its key, label, interval, raw and adjusted
    /// p-values.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// Two runs over matched seeds (game `i` of both rolls the same dice stream).
///
/// Every statistic's difference B - A is judged by the one verdict rule
/// ([`verdict::decide`]) over its whole family at once (two families:
/// [`compare_with`]): rates with the
/// normal test of two proportions, means with Welch's t. Both treat the runs
/// as independent samples; matched seeds make the runs positively correlated,
/// so the tests are conservative.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub a: Report,
    pub b: Report,
    pub differences: Vec<Difference>,
    /// Whether either side is a partial (interrupted) run.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// The ladders of both variants, when skill was measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<SkillComparison>,
    /// How a sequential compare (`--until-decided`) stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Stopped>,
    /// Changed keys whose rule events never happened in either run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dead_rules: Vec<String>,
    /// The dotted keys whose values differ between A and B (for the
    /// findings: a key that never changed a game is named).
    #[serde(skip)]
    pub changed_keys: Vec<String>,
    /// How the primary statistics were judged: from the matched pairs, or
    /// as independent samples.
    pub analysis: Analysis,
}

/// How `compare` judged its primary statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// `paired`: each matched pair of games (game `i` of A and of B) is
    /// the unit; `independent`: the sides as two independent samples.
    pub method: &'static str,
    /// Whether B played its own seeds (`--independent`).
    pub independent_seeds: bool,
    /// Pairs of games, when paired.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<u64>,
    /// Pairs whose two games agree in the winner, the way to end and every
    /// count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identical_pairs: Option<u64>,
}

/// How much skill each of two variants rewards, from a ladder of each.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillComparison {
    pub a: Ladder,
    pub b: Ladder,
    /// A's best bot's score against A's next, B less A (the same pair the
    /// same way round in both), judged by the verdict rule; `None` when B's
    /// ladder lacks the pair.
    pub best_v_next: Option<Verdict>,
}

/// The statistics of B - A, in report order: the first-player advantage,
/// the rates, the means, then the design measures. Margins from `margins`
/// or the defaults. The verdicts come in two Holm families
/// ([`primary_statistics`], then the measures): see [`compare_with`].
pub fn statistics(a: &Report, b: &Report, margins: &Margins) -> Vec<(f64, f64, Statistic)> {
    let mut out = primary_statistics(a, b, margins);
    out.extend(super::measures::statistics(&a.design, &b.design, margins));
    out
}

/// The report's own statistics of B - A (the verdict family of `compare`
/// before the measures joined it): the first-player advantage, each seat's
/// wins, ties, the ways to end, the bots' wins and every count's mean.
pub fn primary_statistics(a: &Report, b: &Report, margins: &Margins) -> Vec<(f64, f64, Statistic)> {
    let mut out = Vec::new();
    let rate = |key: &str, label: &str, x: &Rate, y: &Rate| {
        let d = margins.of(key, Unit::Rate, None, None);
        (x.rate, y.rate, Statistic::rates(key, label, x, y, d))
    };
    if a.players > 1 {
        out.push(rate(
            "first-player-advantage",
            "seat 1 share of decided games",
            &a.first_seat_share(),
            &b.first_seat_share(),
        ));
    }
    let rb = b.rates();
    for (key, label, x) in a.rates() {
        if let Some((_, _, y)) = rb.iter().find(|(k, _, _)| *k == key) {
            out.push(rate(&key, &label, x, y));
        }
    }
    // The per-game flags are among the rates above.
    for stat in a.count_order.iter().filter(|s| !s.flag) {
        let (Some(x), Some(y)) = (a.counts.get(stat.key), b.counts.get(stat.key)) else {
            continue;
        };
        let d = margins.of(stat.key, Unit::Count, Some(x), Some(y));
        out.push((
            x.mean,
            y.mean,
            Statistic::means(stat.key, stat.label, x, y, d),
        ));
    }
    out
}

/// Compare two reports statistic by statistic, with the default margins.
pub fn compare(a: Report, b: Report) -> Comparison {
    compare_with(a, b, &Margins::default())
}

/// Compare two reports statistic by statistic, with `margins`.
///
/// Two families, each with its own Holm correction at 5%: the report's
/// own statistics ([`primary_statistics`]: who wins, ties, how games end,
/// the counts), and the design measures. The measures are secondary: most
/// are functions of the same games' outcomes and lengths (a seat's
/// advantage is its wins, the turns follow the rounds), so pooling them
/// with the primary statistics would double the correction for no new
/// question and turn verdicts the primary family reaches alone into "not
/// decided" (docs/statistics.md, "Two families").
pub fn compare_with(a: Report, b: Report, margins: &Margins) -> Comparison {
    compare_paired(a, b, None, margins)
}

/// The primary statistics of B - A, each from the matched pairs when
/// `pairs` has it ([`crate::sim::paired`]), else as independent samples.
pub fn paired_statistics(
    a: &Report,
    b: &Report,
    pairs: Option<&Pairs>,
    margins: &Margins,
) -> Vec<(f64, f64, Statistic)> {
    let mut out = primary_statistics(a, b, margins);
    if let Some(p) = pairs {
        for (_, _, s) in &mut out {
            if let Some(t) = p.statistic(&s.key, &s.label, s.unit, s.margin) {
                *s = t;
            }
        }
    }
    out
}

/// The design measures of B - A ([`super::measures::statistics`]), each
/// from the matched pairs when `pairs` has it: every measure but
/// drawishness (the primary family's ties) has its paired form
/// ([`Pairs::statistic`]); one the pairs lack (parts of versions before
/// paired measures) stays as independent samples.
pub fn paired_measures(
    a: &Report,
    b: &Report,
    pairs: Option<&Pairs>,
    margins: &Margins,
) -> Vec<(f64, f64, Statistic)> {
    let mut out = super::measures::statistics(&a.design, &b.design, margins);
    if let Some(p) = pairs {
        for (_, _, s) in &mut out {
            if let Some(t) = p.statistic(&s.key, &s.label, s.unit, s.margin) {
                *s = t;
            }
        }
    }
    out
}

/// [`compare_with`] with the matched pairs of both runs (game `i` of A and
/// of B on the same seed): both families are judged from the pairs.
pub fn compare_paired(
    a: Report,
    b: Report,
    pairs: Option<&Pairs>,
    margins: &Margins,
) -> Comparison {
    let primary = paired_statistics(&a, &b, pairs, margins);
    let measures = paired_measures(&a, &b, pairs, margins);
    let judge = |stats: &[(f64, f64, Statistic)], family: Family| {
        let list: Vec<Statistic> = stats.iter().map(|s| s.2.clone()).collect();
        verdict::decide(&list, ALPHA)
            .into_iter()
            .zip(stats)
            .map(|(verdict, &(x, y, _))| Difference {
                a: x,
                b: y,
                family,
                verdict,
            })
            .collect::<Vec<_>>()
    };
    let mut differences = judge(&primary, Family::Primary);
    differences.extend(judge(&measures, Family::Measures));
    let partial = a.partial.is_some() || b.partial.is_some();
    Comparison {
        a,
        b,
        differences,
        partial,
        skill: None,
        sequential: None,
        dead_rules: Vec::new(),
        changed_keys: Vec::new(),
        analysis: Analysis {
            method: if pairs.is_some() {
                "paired"
            } else {
                "independent"
            },
            independent_seeds: false,
            pairs: pairs.map(|p| p.pairs),
            identical_pairs: pairs.map(|p| p.identical),
        },
    }
}

impl Analysis {
    /// The line under the table's heading.
    fn words(&self) -> String {
        match (self.pairs, self.identical_pairs) {
            (Some(n), Some(same)) => format!(
                "Paired: each pair of games (game i of A and of B{}) is the unit; {} of {} pairs alike in winner, ending and every count",
                if self.independent_seeds {
                    ", here on unrelated seeds"
                } else {
                    ", the same dice"
                },
                verdict::thousands(same),
                verdict::thousands(n)
            ),
            _ => "Not paired: the two sides judged as independent samples".to_owned(),
        }
    }

    /// How the tests were made, for the footer.
    fn tests_words(&self) -> &'static str {
        if self.method == "paired" {
            "Every difference from the pairs' differences\n(a share, a spread or a figure of the outcomes by the delta method)."
        } else {
            "Rates: normal test of two proportions; means: Welch's t."
        }
    }
}

/// Two variants that resolve to the same rules: `compare` plays nothing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SameRules {
    pub a: String,
    pub b: String,
    /// Always true: the field a script reads.
    pub same_game: bool,
    /// The keys that differ: empty, or only the range of players
    /// (`players.min`, `players.max`), which no game reads while playing.
    pub changed: Vec<String>,
    /// The number of players the run was for: the same game at this count.
    pub players: u8,
}

impl SameRules {
    /// A and B play the same game at `players` players; `changed` are the
    /// keys that differ all the same (none, or only the range of players).
    pub fn new(a: &str, b: &str, players: u8, changed: Vec<String>) -> SameRules {
        SameRules {
            a: a.to_owned(),
            b: b.to_owned(),
            same_game: true,
            changed,
            players,
        }
    }

    pub fn to_table(&self) -> String {
        let why = if self.changed.is_empty() {
            "the same game: no rule differs (as `roots diff` finds)".to_owned()
        } else {
            format!(
                "the same game at {} players: only {} differs, which says who may play, not how",
                self.players,
                self.changed
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        };
        format!(
            "A: `{}`   B: `{}`\n{why}, so no game was played: every figure would be equal\n",
            self.a, self.b
        )
    }

    pub fn to_csv(&self) -> String {
        csv_text([
            vec!["a".to_owned(), "b".to_owned(), "same_game".to_owned()],
            vec![self.a.clone(), self.b.clone(), "true".to_owned()],
        ])
    }
}

impl Comparison {
    /// Attach the ladders of both variants.
    pub fn with_skill(mut self, a: Ladder, b: Ladder) -> Comparison {
        let best_v_next = super::ladder::skill_difference(&a, &b);
        self.skill = Some(SkillComparison { a, b, best_v_next });
        self
    }

    /// The skill section of the table.
    fn skill_table(&self, o: &mut String) {
        let Some(s) = &self.skill else { return };
        let _ = writeln!(
            o,
            "\nSkill (ladder of {}, {} per pair, seats rotated; 95% intervals)",
            s.a.ratings
                .iter()
                .map(|r| r.bot.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            s.a.games_described()
        );
        for (tag, l) in [("A", &s.a), ("B", &s.b)] {
            let ratings: Vec<String> = l
                .ratings
                .iter()
                .map(|r| format!("{} {:.0}", r.bot, r.elo))
                .collect();
            let _ = writeln!(o, "  {tag}: Elo {}", ratings.join(", "));
            if let Some(k) = &l.skill {
                let _ = writeln!(
                    o,
                    "     spread {:.0} Elo; {} scores {} against {} (gap {})",
                    k.spread,
                    k.best,
                    k.best_vs_next.words(),
                    k.next,
                    k.gap_words()
                );
            }
        }
        let pair = s.a.skill.as_ref().map(|k| {
            (
                k.best.clone(),
                k.next.clone(),
                s.b.score_of(&k.best, &k.next),
            )
        });
        if let Some((best, next, Some(score))) = &pair {
            let _ = writeln!(
                o,
                "  {best} against {next}: A {}, B {}",
                s.a.skill
                    .as_ref()
                    .map_or(String::new(), |k| k.best_vs_next.words()),
                score.words()
            );
        }
        match &s.best_v_next {
            Some(v) => {
                let _ = writeln!(
                    o,
                    "  That score, B - A: {}: {} (per pair)",
                    verdict::effect_words(v),
                    verdict::words(v)
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "  Best against next: not compared (B's ladder lacks A's best two bots)"
                );
            }
        }
    }

    pub fn to_table(&self) -> String {
        let mut o = String::new();
        if self.partial {
            let _ = writeln!(
                o,
                "PARTIAL COMPARISON: interrupted; A played {} games, B {}, of {} asked\n",
                self.a.games,
                self.b.games,
                self.a
                    .partial
                    .as_ref()
                    .or(self.b.partial.as_ref())
                    .map_or(0, |p| p.games_asked)
            );
        }
        let seeds = if self.analysis.independent_seeds {
            "on independent seeds (--independent)"
        } else {
            "on matched seeds"
        };
        let _ = writeln!(
            o,
            "A: `{}`   B: `{}`   {} players, {} games each {seeds} (seed {})",
            self.a.variant, self.b.variant, self.a.players, self.a.games, self.a.seed
        );
        let _ = writeln!(o, "{}\n", self.analysis.words());
        if let Some(q) = &self.sequential {
            o.push_str(&q.words());
            o.push('\n');
        }
        let _ = writeln!(o, "Findings (95%)");
        for f in self.findings() {
            let _ = writeln!(o, "  {f}");
        }
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "  {:<30} {:>8} {:>8}   {:<28} verdict",
            "", "A", "B", "B - A (95% interval)"
        );
        let mut family = Family::Primary;
        for d in &self.differences {
            if d.family != family {
                family = d.family;
                let _ = writeln!(
                    o,
                    "\n  Design measures (a family of their own: Holm across these {})",
                    self.family_size(family)
                );
            }
            let v = &d.verdict;
            let k = decimals_for(if v.unit == Unit::Rate { 100.0 } else { 1.0 } * v.estimate);
            let f = |x: f64| match v.unit {
                Unit::Rate => format!("{:.1}%", 100.0 * x),
                Unit::Count => format!("{x:.k$}"),
            };
            let _ = writeln!(
                o,
                "  {:<30} {:>8} {:>8}   {:<28} {}",
                v.label,
                f(d.a),
                f(d.b),
                verdict::effect_words(v),
                verdict::words(v)
            );
        }
        for note in &self.a.notes {
            let _ = writeln!(o, "\nNote: {note}");
        }
        self.skill_table(&mut o);
        // "changed" is explained only where a row says it.
        let changed = if self
            .differences
            .iter()
            .any(|d| d.verdict.verdict == Outcome::Changed)
        {
            "\n\"changed, by under ±d or near it\": significant in the same way, but the difference is under the margin and not shown inside it;"
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "\n\"different\": significant after Holm's correction across {} (5% error rate each) and at least the margin;{changed}\n\"the same within\": two one-sided tests put the difference inside the margin (margins: a rate 2 points, a count 5% of its mean\nor a fifth of its spread, or --margin KEY=VALUE). {} docs/statistics.md",
            self.families_words(),
            self.analysis.tests_words()
        );
        o
    }

    /// The statistics judged in `family`.
    fn family_size(&self, family: Family) -> usize {
        self.differences
            .iter()
            .filter(|d| d.family == family)
            .count()
    }

    /// `the 18 statistics above the measures, and across the 18 measures`.
    fn families_words(&self) -> String {
        let (p, m) = (
            self.family_size(Family::Primary),
            self.family_size(Family::Measures),
        );
        if m == 0 {
            format!("these {p} statistics")
        } else {
            format!(
                "the {p} statistics above the design measures, and on its own across the {m} measures"
            )
        }
    }

    pub fn to_csv(&self) -> String {
        let header = [
            "key",
            "measure",
            "a",
            "b",
            "difference",
            "low",
            "high",
            "margin",
            "p_value",
            "p_adjusted",
            "p_same",
            "p_same_adjusted",
            "verdict",
            "games_needed",
        ]
        .map(String::from)
        .to_vec();
        let partial = self.partial.then(|| {
            vec![
                "partial: interrupted".to_string(),
                self.a.games.to_string(),
                self.b.games.to_string(),
            ]
        });
        let rows = partial.into_iter().chain(self.differences.iter().map(|d| {
            let v = &d.verdict;
            vec![
                v.key.clone(),
                v.label.clone(),
                d.a.to_string(),
                d.b.to_string(),
                v.estimate.to_string(),
                v.low.to_string(),
                v.high.to_string(),
                v.margin.to_string(),
                v.p_value.to_string(),
                v.p_adjusted.to_string(),
                v.p_same.to_string(),
                v.p_same_adjusted.to_string(),
                serde_json::to_value(v.verdict)
                    .ok()
                    .and_then(|x| x.as_str().map(String::from))
                    .unwrap_or_default(),
                v.games_needed.map_or(String::new(), |n| n.to_string()),
            ]
        }));
        csv_text(std::iter::once(header).chain(rows))
    }
}

/// Decimals enough to show a difference that is not zero, from 1 to 3: a
/// mean of 39.97 against 40.00 reads "+0.03", not a "+0.0" beside a verdict
/// of "different".
fn decimals_for(difference: f64) -> usize {
    let mut k = 1;
    while k < 3 && difference != 0.0 && (difference.abs() * 10f64.powi(k as i32)).round() == 0.0 {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::decimals_for;

    /// Regression: "nutrients spawned 40.0 40.0 +0.0 different" in a
    /// compare table (a near-constant count that really differs).
    #[test]
    fn a_small_difference_is_not_shown_as_zero() {
        assert_eq!(decimals_for(0.03), 2);
        assert_eq!(decimals_for(-0.004), 3);
        assert_eq!(decimals_for(0.0004), 3);
        assert_eq!(decimals_for(0.0), 1);
        assert_eq!(decimals_for(2.5), 1);
        assert_eq!(decimals_for(0.05), 1);
    }
}
