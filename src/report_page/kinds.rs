//! What each kind of report puts on its page: the question, the verdict,
//! the findings and the pictures, all read from the report object.

use std::fmt::Write as _;

use super::chart::{self, Bars, Dots, Look, Mark, Row, pct};
use super::{Page, Parts, Picture, esc};
use crate::run::{Kind, Render};
use crate::sim::ladder::Ladder;
use crate::sim::sweep::Measure;
use crate::sim::sweep_table::{SweepTable, point_words};
use crate::sim::tune::Goal;
use crate::sim::tune_table::TuneTable;
use crate::sim::verdict::{self, Outcome, Unit};
use crate::sim::{Comparison, Report, SameRules};

pub(super) fn parts(page: &Page) -> Parts {
    match page.report {
        Kind::Simulate(r) => simulate(r),
        Kind::Compare(c) => compare(c),
        Kind::SameRules(s) => same_rules(s),
        Kind::Ladder(l) => ladder(l),
        Kind::Sweep(s) => sweep(s),
        Kind::Tune(t) => tune(t),
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn data(pairs: &[(&str, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!(" data-{k}=\"{}\"", esc(v)))
        .collect()
}

fn mark(look: Look, value: f64, low: f64, high: f64, extra: &[(&str, String)]) -> Mark {
    Mark {
        look,
        value,
        low,
        high,
        data: data(extra),
    }
}

/// The runs of a page, with the look and the name of each.
fn sides<'a>(runs: &[(&'a Report, &str)]) -> Vec<(Look, &'a Report, String)> {
    let looks = [Look::A, Look::B];
    runs.iter()
        .enumerate()
        .map(|(i, (r, name))| (looks[i.min(1)], *r, (*name).to_owned()))
        .collect()
}

/// Win rate of each seat (and ties), with the fair share.
fn wins_picture(runs: &[(Look, &Report, String)]) -> Picture {
    let first = runs[0].1;
    let mut rows = Vec::new();
    for (k, seat) in first.seats.iter().enumerate() {
        let mut marks = Vec::new();
        let mut refs = Vec::new();
        let mut words = Vec::new();
        for (look, r, name) in runs {
            let Some(s) = r.seats.get(k) else { continue };
            marks.push(mark(
                *look,
                s.wins.rate,
                s.wins.low,
                s.wins.high,
                &[
                    ("key", format!("seat{}-wins", s.seat)),
                    ("run", name.clone()),
                ],
            ));
            if let Some(f) = Measure::SeatWins(s.seat).fair(r.players, r.ties.rate) {
                refs.push(f);
            }
            words.push(format!("{:.1}%", 100.0 * s.wins.rate));
        }
        let label = match &seat.bot {
            Some(b) => format!("seat {} ({b})", seat.seat),
            None => format!("seat {}", seat.seat),
        };
        rows.push(Row {
            label,
            marks,
            lo: 0.0,
            hi: 1.0,
            refs,
            band: None,
            text: words.join(" / "),
        });
    }
    rows.push(Row {
        label: "ties".into(),
        marks: runs
            .iter()
            .map(|(look, r, name)| {
                mark(
                    *look,
                    r.ties.rate,
                    r.ties.low,
                    r.ties.high,
                    &[("key", "ties".into()), ("run", name.clone())],
                )
            })
            .collect(),
        lo: 0.0,
        hi: 1.0,
        refs: Vec::new(),
        band: None,
        text: runs
            .iter()
            .map(|(_, r, _)| format!("{:.1}%", 100.0 * r.ties.rate))
            .collect::<Vec<_>>()
            .join(" / "),
    });
    let legend = runs.iter().map(|(l, _, n)| (*l, n.clone())).collect();
    let axis = |v: f64| pct(v);
    let svg = Dots {
        id: "wins",
        rows,
        legend,
        refs_label: Some("fair share".into()),
        band_label: None,
        axis: Some(&axis),
    }
    .svg();
    Picture {
        id: "wins".into(),
        svg,
        caption: format!(
            "Who wins: each seat's share of all games (the marker) with its 95% interval (the line), and the share of tied games. The dashed line is a fair share: the games not tied, shared equally among the {} seats.{}",
            first.players,
            if runs.len() == 2 {
                " Circles: A; triangles: B."
            } else {
                ""
            }
        ),
    }
}

/// Game length of each run, on one axis.
fn length_picture(runs: &[(Look, &Report, String)]) -> Option<Picture> {
    let first = runs[0].1;
    let key = first.length.key;
    let series: Vec<Bars> = runs
        .iter()
        .filter_map(|(look, r, name)| {
            let s = r.counts.get(key)?;
            let n = s.n.max(1) as f64;
            Some(Bars {
                look: *look,
                name: format!("{name}: mean {:.1}, median {}", s.mean, s.median),
                bins: s
                    .histogram
                    .iter()
                    .map(|b| (b.from, b.to, b.count as f64 / n))
                    .collect(),
            })
        })
        .collect();
    if series.is_empty() {
        return None;
    }
    Some(Picture {
        id: "length".into(),
        svg: chart::histogram(
            "length",
            &format!("game length in {}", first.length.label),
            &series,
        ),
        caption: format!(
            "Game length in {}: how many games (the bar's height: the share of games per {} of length) lasted each length (the bar's width spans the lengths it counts).{}",
            first.length.label,
            first.length.label.trim_end_matches('s'),
            if runs.len() == 2 {
                " A filled, B hatched, on the same axis."
            } else {
                ""
            }
        ),
    })
}

/// The design measures: shares on one scale, counts each on its own.
/// One row's figure in each run that has it (`find` picks it from a
/// report), with the run's look and name.
fn in_each<'a, T>(
    runs: &'a [(Look, &'a Report, String)],
    find: impl Fn(&'a Report) -> Option<&'a T>,
) -> Vec<(Look, &'a T, &'a String)> {
    runs.iter()
        .filter_map(|(look, r, name)| find(r).map(|x| (*look, x, name)))
        .collect()
}

fn measures_pictures(runs: &[(Look, &Report, String)]) -> Vec<Picture> {
    let first = runs[0].1;
    let mut out = Vec::new();
    for share in [true, false] {
        let mut rows = Vec::new();
        for e in first.design.measures.iter().filter(|e| e.share == share) {
            let all = in_each(runs, |r| r.design.measures.iter().find(|x| x.key == e.key));
            let (lo, hi) = if share {
                (0.0, 1.0)
            } else {
                chart::scale(all.iter().flat_map(|(_, x, _)| [x.low, x.high, x.value]))
            };
            rows.push(Row {
                label: e.label.clone(),
                marks: all
                    .iter()
                    .map(|(look, x, name)| {
                        mark(
                            *look,
                            x.value,
                            x.low,
                            x.high,
                            &[("key", x.key.clone()), ("run", (*name).clone())],
                        )
                    })
                    .collect(),
                lo,
                hi,
                refs: Vec::new(),
                band: None,
                text: all
                    .iter()
                    .map(|(_, x, _)| {
                        if share {
                            format!("{:.1}%", 100.0 * x.value)
                        } else {
                            format!("{:.2}", x.value)
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" / "),
            });
        }
        if rows.is_empty() {
            continue;
        }
        let id = if share {
            "measures-shares"
        } else {
            "measures-counts"
        };
        out.push(runs_picture(
            id,
            rows,
            runs,
            share,
            if share {
                "Design measures that are shares (docs/statistics.md): each measure's value (the marker) with its 95% interval (the line), on one scale from 0 to 100%."
            } else {
                "Design measures that are counts: each row has its own scale, just wider than its intervals (its ends are written small at the row's ends); the marker is the value, the line its 95% interval."
            },
        ));
    }
    out
}

/// Rule coverage: the share of games in which each rule event happened.
fn coverage_picture(runs: &[(Look, &Report, String)]) -> Option<Picture> {
    let first = runs[0].1;
    let mut rows: Vec<Row> = first
        .design
        .rule_events
        .iter()
        .map(|e| {
            let all = in_each(runs, |r| {
                r.design.rule_events.iter().find(|x| x.key == e.key)
            });
            let all = all
                .iter()
                .map(|(look, x, run)| (*look, &x.games, x.per_game, *run));
            coverage_row(e.label.to_owned(), e.key, all)
        })
        .collect();
    // Each house rule written as a script, of any run (a compared variant
    // may have one the first has not), in the order the runs name them.
    let mut names: Vec<&String> = Vec::new();
    for (_, r, _) in runs {
        for h in &r.design.house_rules {
            if !names.contains(&&h.name) {
                names.push(&h.name);
            }
        }
    }
    for name in names {
        let all = in_each(runs, |r| {
            r.design.house_rules.iter().find(|h| &h.name == name)
        });
        let all = all
            .iter()
            .map(|(look, h, run)| (*look, &h.games, h.per_game, *run));
        rows.push(coverage_row(
            format!("house rule `{name}`"),
            &format!("script.{name}"),
            all,
        ));
    }
    if rows.is_empty() {
        return None;
    }
    Some(runs_picture(
        "coverage",
        rows,
        runs,
        true,
        "Rule coverage: the share of games in which each rule event happened at least once (the marker, with its 95% interval), and on the right how many times it happened per game; each house rule written as a script, the share of games in which it changed the game. A rule that never comes into play cannot matter.",
    ))
}

/// A row of the rule coverage: in each run that has it (`all`: the run's
/// look, its share of games, its count per game and its name), the share
/// of games in which `key` happened.
fn coverage_row<'a>(
    label: String,
    key: &str,
    all: impl Iterator<Item = (Look, &'a crate::sim::Rate, f64, &'a String)>,
) -> Row {
    let all: Vec<_> = all.collect();
    Row {
        label,
        marks: all
            .iter()
            .map(|&(look, games, per_game, run)| {
                mark(
                    look,
                    games.rate,
                    games.low,
                    games.high,
                    &[
                        ("key", key.to_owned()),
                        ("run", run.clone()),
                        ("per-game", per_game.to_string()),
                    ],
                )
            })
            .collect(),
        lo: 0.0,
        hi: 1.0,
        refs: Vec::new(),
        band: None,
        text: all
            .iter()
            .map(|(_, _, per_game, _)| format!("{per_game:.2}"))
            .collect::<Vec<_>>()
            .join(" / ")
            + " per game",
    }
}

/// How games end.
fn ends_picture(runs: &[(Look, &Report, String)]) -> Option<Picture> {
    let first = runs[0].1;
    let rows: Vec<Row> = first
        .end_order
        .iter()
        .filter(|s| first.end_reasons.contains_key(s.key))
        .map(|s| {
            let all: Vec<_> = runs
                .iter()
                .filter_map(|(look, r, name)| r.end_reasons.get(s.key).map(|x| (*look, x, name)))
                .collect();
            Row {
                label: format!("ends: {}", s.key.replace('_', " ")),
                marks: all
                    .iter()
                    .map(|(look, x, name)| {
                        mark(
                            *look,
                            x.rate,
                            x.low,
                            x.high,
                            &[("key", s.key.to_owned()), ("run", (*name).clone())],
                        )
                    })
                    .collect(),
                lo: 0.0,
                hi: 1.0,
                refs: Vec::new(),
                band: None,
                text: all
                    .iter()
                    .map(|(_, x, _)| format!("{:.1}%", 100.0 * x.rate))
                    .collect::<Vec<_>>()
                    .join(" / "),
            }
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    Some(runs_picture(
        "ends",
        rows,
        runs,
        true,
        "How games end: the share of games that ended each of the game's ways, with 95% intervals.",
    ))
}

/// A picture of one row per figure with a marker per run (the runs'
/// legend; no reference line, no band), on a 0-100% scale for `shares`,
/// else each row on its own scale.
fn runs_picture(
    id: &str,
    rows: Vec<Row>,
    runs: &[(Look, &Report, String)],
    shares: bool,
    caption: &str,
) -> Picture {
    let axis = |v: f64| pct(v);
    let svg = Dots {
        id,
        rows,
        legend: runs.iter().map(|(l, _, n)| (*l, n.clone())).collect(),
        refs_label: None,
        band_label: None,
        axis: if shares { Some(&axis) } else { None },
    }
    .svg();
    Picture {
        id: id.into(),
        svg,
        caption: caption.into(),
    }
}

fn run_pictures(runs: &[(Look, &Report, String)]) -> Vec<Picture> {
    let mut p = vec![wins_picture(runs)];
    p.extend(length_picture(runs));
    p.extend(ends_picture(runs));
    p.extend(measures_pictures(runs));
    p.extend(coverage_picture(runs));
    p
}

fn length_words(r: &Report) -> Option<String> {
    let s = r.counts.get(r.length.key)?;
    Some(format!(
        "games last {:.1} {} on average (median {}, 80% of games from {} to {})",
        s.mean, r.length.label, s.median, s.p10, s.p90
    ))
}

fn simulate(r: &Report) -> Parts {
    let fair = match (&r.seat_balance, &r.seat_balance_absent) {
        (Some(b), _) => b.words(),
        (None, Some(why)) => why.clone(),
        (None, None) => String::new(),
    };
    let verdict = fair;
    let detail = length_words(r).map_or(String::new(), |l| upper_first(&l) + ".");
    let runs = sides(&[(r, r.variant.as_str())]);
    Parts {
        kind: "simulate",
        title: format!("{}: {} games", r.variant, verdict::thousands(r.games)),
        question: format!(
            "Who wins `{}`, how long do its games last and how do they end, with {} players and bots {} ({}; {} games, seed {})?",
            r.variant,
            r.players,
            r.bots.join(", "),
            r.seating,
            verdict::thousands(r.games),
            r.seed
        ),
        verdict: upper_first(&verdict) + ".",
        detail,
        findings: r.findings(),
        pictures: run_pictures(&runs),
        tables: Vec::new(),
        text: r.table(),
        seed: Some(r.seed),
    }
}

fn short_verdict(o: Outcome) -> &'static str {
    match o {
        Outcome::Different => "different",
        Outcome::Same => "the same",
        Outcome::Changed => "changed",
        Outcome::Undecided => "not decided",
    }
}

/// The top of a comparison in words: who wins, and game length; then the
/// same with the figures.
fn compare_verdict(c: &Comparison) -> (String, String) {
    let mut head = Vec::new();
    let mut detail = Vec::new();
    if let Some(d) = c.differences.first() {
        let v = &d.verdict;
        head.push(match v.verdict {
            Outcome::Same => format!(
                "B is the same as A within ±{} for who wins",
                verdict::amount(v.unit, v.margin, false)
            ),
            Outcome::Different => "B changes who wins".to_owned(),
            Outcome::Changed => format!(
                "B changes who wins, by under ±{} or near it",
                verdict::amount(v.unit, v.margin, false)
            ),
            Outcome::Undecided => "who wins is not decided yet".to_owned(),
        });
        detail.push(format!(
            "{}: B - A {}, {}",
            upper_first(&v.label),
            verdict::effect_words(v),
            verdict::words(v)
        ));
    }
    let key = c.a.length.key;
    if let Some(d) = c.differences.iter().find(|d| d.verdict.key == key) {
        let v = &d.verdict;
        let label = c.a.length.label;
        head.push(match v.verdict {
            Outcome::Different => format!(
                "games are {} {label} {}",
                verdict::amount(Unit::Count, v.estimate.abs(), false),
                if v.estimate < 0.0 {
                    "shorter"
                } else {
                    "longer"
                },
            ),
            Outcome::Same => format!(
                "game length is the same within ±{} {label}",
                verdict::amount(v.unit, v.margin, false)
            ),
            Outcome::Changed => format!(
                "games are {} {label}, by under ±{} or near it",
                if v.estimate < 0.0 {
                    "slightly shorter"
                } else {
                    "slightly longer"
                },
                verdict::amount(v.unit, v.margin, false)
            ),
            Outcome::Undecided => {
                "whether games are longer or shorter is not decided yet".to_owned()
            }
        });
        detail.push(format!(
            "{}: B - A {}, {}",
            upper_first(label),
            verdict::effect_words(v),
            verdict::words(v)
        ));
    }
    let n = c.differences.len();
    let k = c
        .differences
        .iter()
        .filter(|d| d.verdict.verdict == Outcome::Different)
        .count();
    detail.push(format!("{k} of the {n} statistics are called different"));
    (upper_first(&head.join("; ")) + ".", detail.join(". ") + ".")
}

/// The forest plot: every statistic's B - A against its margin.
fn forest(c: &Comparison) -> Picture {
    let scaled = |x: f64, m: f64| if m > 0.0 { x / m } else { x };
    let reach = c
        .differences
        .iter()
        .flat_map(|d| {
            let m = d.verdict.margin;
            [
                scaled(d.verdict.low, m).abs(),
                scaled(d.verdict.high, m).abs(),
            ]
        })
        .filter(|x| x.is_finite())
        .fold(2.0f64, f64::max)
        .min(6.0);
    let lim = reach.ceil();
    let rows: Vec<Row> = c
        .differences
        .iter()
        .map(|d| {
            let v = &d.verdict;
            let m = v.margin;
            let look = match v.verdict {
                Outcome::Different => Look::Different,
                Outcome::Same => Look::Same,
                Outcome::Changed => Look::Changed,
                Outcome::Undecided => Look::Undecided,
            };
            Row {
                label: v.label.clone(),
                marks: vec![mark(
                    look,
                    scaled(v.estimate, m),
                    scaled(v.low, m),
                    scaled(v.high, m),
                    &[
                        ("key", v.key.clone()),
                        ("estimate", v.estimate.to_string()),
                        ("ci-low", v.low.to_string()),
                        ("ci-high", v.high.to_string()),
                        ("margin", m.to_string()),
                        ("verdict", format!("{:?}", v.verdict).to_lowercase()),
                    ],
                )],
                lo: -lim,
                hi: lim,
                refs: vec![0.0],
                band: (m > 0.0).then_some((-1.0, 1.0)),
                text: format!("{}  {}", verdict::effect_words(v), short_verdict(v.verdict)),
            }
        })
        .collect();
    let axis = |v: f64| {
        if v == 0.0 {
            "0".to_owned()
        } else {
            format!("{v:+}×")
        }
    };
    let svg = Dots {
        id: "forest",
        rows,
        legend: vec![
            (Look::Different, "different".into()),
            (Look::Same, "the same within the margin".into()),
            (
                Look::Changed,
                "changed, by under the margin or near it".into(),
            ),
            (Look::Undecided, "not decided yet".into()),
        ],
        refs_label: Some("no difference".into()),
        band_label: Some("± the margin".into()),
        axis: Some(&axis),
    }
    .svg();
    Picture {
        id: "forest".into(),
        svg,
        caption: format!(
            "Every statistic's difference B - A (the marker) with its 95% interval (the line), in multiples of its margin, the smallest difference that matters (the shaded band is ± the margin; arrows: the interval runs off the scale of ±{lim}). Squares: different; circles: the same within the margin; hollow squares: changed (not 0), by under the margin or near it; hollow diamonds: not decided yet. The figures on the right are in the statistic's own units, as in the text report."
        ),
    }
}

fn compare(c: &Comparison) -> Parts {
    let runs = sides(&[(&c.a, "A"), (&c.b, "B")]);
    let mut pictures = vec![forest(c)];
    pictures.extend(run_pictures(&runs));
    if let Some(s) = &c.skill {
        pictures.push(ratings_picture(
            "skill",
            &[(Look::A, &s.a, "A"), (Look::B, &s.b, "B")],
        ));
    }
    let mut findings = c.findings();
    if let Some(s) = &c.sequential {
        findings.push(format!("{s:?}"));
    }
    let a = &c.a;
    let (verdict, detail) = compare_verdict(c);
    Parts {
        kind: "compare",
        title: format!("{} against {}", c.b.variant, a.variant),
        question: format!(
            "What does B (`{}`) change from A (`{}`): who wins, how long games last, how they end, the design measures? {} games each on matched seeds, {} players, bots {}.",
            c.b.variant,
            a.variant,
            verdict::thousands(a.games),
            a.players,
            a.bots.join(", ")
        ),
        verdict,
        detail,
        findings,
        pictures,
        tables: Vec::new(),
        text: c.table(),
        seed: Some(a.seed),
    }
}

fn same_rules(s: &SameRules) -> Parts {
    let text = s.table();
    Parts {
        kind: "compare",
        title: format!("{} against {}", s.b, s.a),
        question: format!("What does B (`{}`) change from A (`{}`)?", s.b, s.a),
        verdict: text.lines().next().unwrap_or("").to_owned(),
        detail: String::new(),
        findings: Vec::new(),
        pictures: Vec::new(),
        tables: Vec::new(),
        text,
        seed: None,
    }
}

fn ratings_picture(id: &str, ladders: &[(Look, &Ladder, &str)]) -> Picture {
    let first = ladders[0].1;
    let (lo, hi) = chart::scale(
        ladders
            .iter()
            .flat_map(|(_, l, _)| l.ratings.iter().flat_map(|r| [r.low, r.high, r.elo])),
    );
    let rows: Vec<Row> = first
        .ratings
        .iter()
        .map(|r0| {
            let all: Vec<_> = ladders
                .iter()
                .filter_map(|(look, l, name)| {
                    l.ratings
                        .iter()
                        .find(|r| r.bot == r0.bot)
                        .map(|r| (*look, r, *name))
                })
                .collect();
            Row {
                label: r0.bot.clone(),
                marks: all
                    .iter()
                    .map(|(look, r, name)| {
                        mark(
                            *look,
                            r.elo,
                            r.low,
                            r.high,
                            &[
                                ("key", r.bot.clone()),
                                ("run", (*name).to_owned()),
                                ("games", r.games.to_string()),
                            ],
                        )
                    })
                    .collect(),
                lo,
                hi,
                refs: vec![0.0],
                band: None,
                text: all
                    .iter()
                    .map(|(_, r, _)| {
                        if r.low == r.high {
                            format!("{:.0} (anchor)", r.elo)
                        } else {
                            format!("{:.0} ({:.0} to {:.0})", r.elo, r.low, r.high)
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" / "),
            }
        })
        .collect();
    let axis = |v: f64| format!("{v:.0}");
    let legend = if ladders.len() > 1 {
        ladders
            .iter()
            .map(|(l, _, n)| (*l, (*n).to_owned()))
            .collect()
    } else {
        vec![(Look::A, "Elo rating".to_owned())]
    };
    let svg = Dots {
        id,
        rows,
        legend,
        refs_label: Some("the anchor (0)".into()),
        band_label: None,
        axis: Some(&axis),
    }
    .svg();
    Picture {
        id: id.into(),
        svg,
        caption: format!(
            "Elo ratings of the bots{} (the marker) with their 95% intervals (the line); the anchor bot is 0 by definition, and 400 points are odds of 10 to 1.",
            if ladders.len() > 1 {
                " in A (circles) and in B (triangles)"
            } else {
                ""
            }
        ),
    }
}

fn ladder(l: &Ladder) -> Parts {
    let mut pictures = vec![ratings_picture("ratings", &[(Look::A, l, "ratings")])];
    let rows: Vec<Row> = l
        .pairings
        .iter()
        .map(|p| Row {
            label: format!("{} v {}", p.a, p.b),
            marks: vec![mark(
                Look::A,
                p.a_score.rate,
                p.a_score.low,
                p.a_score.high,
                &[
                    ("key", format!("{} v {}", p.a, p.b)),
                    ("games", p.games.to_string()),
                ],
            )],
            lo: 0.0,
            hi: 1.0,
            refs: vec![0.5],
            band: None,
            text: format!("{:.1}% of {} games", 100.0 * p.a_score.rate, p.games),
        })
        .collect();
    if !rows.is_empty() {
        let axis = |v: f64| pct(v);
        pictures.push(Picture {
            id: "pairs".into(),
            svg: Dots {
                id: "pairs",
                rows,
                legend: vec![(Look::A, "the first bot's score".into())],
                refs_label: Some("even (50%)".into()),
                band_label: None,
                axis: Some(&axis),
            }
            .svg(),
            caption: "Head to head: the first bot's score against the second (a tie counting half), with its 95% interval; the dashed line is an even match.".into(),
        });
    }
    let ranked: Vec<String> = {
        let mut r: Vec<_> = l.ratings.iter().collect();
        r.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        r.iter()
            .map(|r| format!("{} ({:.0})", r.bot, r.elo))
            .collect()
    };
    let mut verdict = format!("From the strongest: {}", ranked.join(", "));
    let mut findings = Vec::new();
    if let Some(s) = &l.skill {
        let _ = write!(
            verdict,
            "; the best bot, {}, scores {} against the next, {}{}",
            s.best,
            s.best_vs_next.words(),
            s.next,
            if s.ordered {
                ""
            } else {
                " (not decided: the two are not ordered)"
            }
        );
        findings.push(format!(
            "Skill: the ratings span {:.0} Elo; the gap between the best bot and the next is {}. The wider the gap between comparable bots, the more the variant rewards better play; near 50% and 0 Elo, luck decides between them.",
            s.spread,
            s.gap_words()
        ));
    }
    if l.interrupted {
        findings.push(
            "Interrupted: the ladder covers the pairs played, the last one perhaps in part.".into(),
        );
    }
    Parts {
        kind: "ladder",
        title: format!("Ladder of {}", l.variant),
        question: format!(
            "How do the bots {} rank at `{}`, {} per pair?",
            l.ratings
                .iter()
                .map(|r| r.bot.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            l.variant,
            l.games_described()
        ),
        verdict: verdict + ".",
        detail: String::new(),
        findings,
        pictures,
        tables: Vec::new(),
        text: l.table(),
        seed: Some(l.seed),
    }
}

fn sweep(s: &SweepTable) -> Parts {
    let keys: Vec<&str> = s.axes.iter().map(|a| a.key.as_str()).collect();
    let labels = s.labels.join(", ");
    // The verdict: each measure at the ends of the sweep, and where it is
    // lowest and highest.
    let mut said = Vec::new();
    for (m, label) in s.measures.iter().zip(&s.labels) {
        let est: Vec<(String, f64)> = s
            .points
            .iter()
            .filter_map(|(p, r)| {
                r.as_ref()
                    .ok()
                    .map(|r| (point_words(&s.axes, p), m.of(r).value))
            })
            .collect();
        let (Some(first), Some(last)) = (est.first(), est.last()) else {
            continue;
        };
        let lowest = est
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or(first);
        let highest = est
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or(first);
        said.push(format!(
            "{label}: {} at {} and {} at {}; lowest {} at {}, highest {} at {}",
            m.show(first.1),
            first.0,
            m.show(last.1),
            last.0,
            m.show(lowest.1),
            lowest.0,
            m.show(highest.1),
            highest.0
        ));
    }
    let (verdict, detail) = match said.split_first() {
        None => (
            "No value of the sweep made a valid variant.".to_owned(),
            String::new(),
        ),
        Some((first, rest)) => (
            upper_first(first) + ".",
            rest.iter()
                .map(|r| upper_first(r) + ".")
                .collect::<Vec<_>>()
                .join(" "),
        ),
    };
    let svg = s.svg();
    let svg = svg
        .find("<svg")
        .map_or(svg.as_str(), |i| &svg[i..])
        .replacen("<svg", "<svg id=\"sweep\" class=\"chart\"", 1);
    let caption = if s.axes.len() == 1 {
        format!(
            "Each measure ({labels}) at each value of {}: the line joins the estimates, the band is the 95% interval, and a dashed line marks a fair share where the measure has one. {} games per value.",
            keys[0], s.heading.games
        )
    } else {
        format!(
            "A heat map per measure ({labels}) over {} (across) and {} (down): each cell is the estimate at that pair of values, its shade the measure's value; {} games per cell.",
            keys[0], keys[1], s.heading.games
        )
    };
    let pictures = vec![Picture {
        id: "sweep".into(),
        svg,
        caption,
    }];
    // The figures as a table (the picture's numbers, readable).
    let mut t = String::new();
    let _ = writeln!(
        t,
        "<section id=\"sweep-table\"><h2>The figures</h2><div class=\"table-wrap\"><table><thead><tr>"
    );
    for k in &keys {
        let _ = write!(t, "<th>{}</th>", esc(k));
    }
    for l in &s.labels {
        let _ = write!(t, "<th class=\"num\">{} (95%)</th>", esc(l));
    }
    let _ = writeln!(t, "</tr></thead><tbody>");
    for (p, r) in &s.points {
        let _ = write!(t, "<tr>");
        for (a, &i) in s.axes.iter().zip(p) {
            let _ = write!(t, "<td>{}</td>", esc(&a.values[i].to_string()));
        }
        match r {
            Ok(r) => {
                for m in &s.measures {
                    let e = m.of(r);
                    let _ = write!(
                        t,
                        "<td class=\"num cell\" data-measure=\"{}\" data-point=\"{}\" data-value=\"{}\" data-low=\"{}\" data-high=\"{}\">{} ({} to {})</td>",
                        esc(&m.key()),
                        esc(&point_words(&s.axes, p)),
                        e.value,
                        e.low,
                        e.high,
                        esc(&m.show(e.value)),
                        esc(&m.show(e.low)),
                        esc(&m.show(e.high))
                    );
                }
            }
            Err(e) => {
                let _ = write!(
                    t,
                    "<td colspan=\"{}\">skipped: {}</td>",
                    s.measures.len(),
                    esc(e)
                );
            }
        }
        let _ = writeln!(t, "</tr>");
    }
    let _ = writeln!(t, "</tbody></table></div></section>");
    Parts {
        kind: "sweep",
        title: format!("Sweep of {} in {}", keys.join(" and "), s.heading.label),
        question: format!(
            "How do {labels} change as {} vary in `{}`? {} players, bots {}, {} games per value.",
            keys.join(" and "),
            s.heading.label,
            s.heading.players,
            s.heading.bots,
            s.heading.games
        ),
        verdict,
        detail,
        findings: if s.partial {
            vec![format!(
                "PARTIAL SWEEP: interrupted after {} of {} values",
                s.points.len(),
                s.asked
            )]
        } else {
            Vec::new()
        },
        pictures,
        tables: vec![t],
        text: s.table(),
        seed: s
            .points
            .iter()
            .find_map(|(_, r)| r.as_ref().ok().map(|r| r.seed)),
    }
}

fn tune(t: &TuneTable) -> Parts {
    let targets = t
        .targets
        .iter()
        .map(crate::sim::tune::Target::words)
        .collect::<Vec<_>>()
        .join(", ");
    let keys: Vec<&str> = t.axes.iter().map(|a| a.key.as_str()).collect();
    let describe = |p: &crate::sim::tune::Point| {
        crate::sim::tune::describe(&t.axes, p)
            .into_iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The rows: the original rules, then the best points.
    let mut points: Vec<(Look, String, &Report)> = Vec::new();
    if let Some(o) = &t.original {
        points.push((Look::A, "the original rules".into(), o));
    }
    for (i, (p, r)) in t.best.iter().enumerate() {
        points.push((Look::Other(i), format!("#{}: {}", i + 1, describe(p)), r));
    }
    let mut pictures = Vec::new();
    for (k, target) in t.targets.iter().enumerate() {
        let m = &target.measure;
        let est: Vec<_> = points.iter().map(|(l, n, r)| (*l, n, m.of(r))).collect();
        let goal = match target.goal {
            Goal::Value(v) => Some(v),
            _ => None,
        };
        let (lo, hi) = chart::scale(est.iter().flat_map(|(_, _, e)| [e.low, e.high]).chain(goal));
        let (lo, hi) = if m.is_rate() {
            (lo.max(-1.0), hi.min(1.0))
        } else {
            (lo, hi)
        };
        let rows: Vec<Row> = est
            .iter()
            .map(|(look, name, e)| Row {
                label: (*name).clone(),
                marks: vec![mark(
                    *look,
                    e.value,
                    e.low,
                    e.high,
                    &[("key", m.key()), ("point", (*name).clone())],
                )],
                lo,
                hi,
                refs: goal.into_iter().collect(),
                band: None,
                text: format!(
                    "{} ({} to {})",
                    m.show(e.value),
                    m.show(e.low),
                    m.show(e.high)
                ),
            })
            .collect();
        let id = format!("target-{}", k + 1);
        let fmt = |v: f64| m.show_amount(v);
        let svg = Dots {
            id: &id,
            rows,
            legend: Vec::new(),
            refs_label: goal.map(|_| "the target".to_owned()),
            band_label: None,
            axis: Some(&fmt),
        }
        .svg();
        pictures.push(Picture {
            id,
            svg,
            caption: format!(
                "Toward the target {}: the original rules (top) and the best points the search found, best first, each with its estimate and 95% interval on the same seeded games{}.",
                target.words(),
                if goal.is_some() { "; the dashed line is the target" } else { "" }
            ),
        });
    }
    // Distance to the targets, the search's own figure.
    let dist: Vec<(Look, &String, f64)> = points
        .iter()
        .map(|(l, n, r)| (*l, n, crate::sim::tune::loss(&t.targets, r)))
        .collect();
    if !dist.is_empty() {
        let (_, hi) = chart::scale(dist.iter().map(|d| d.2).chain([0.0]));
        let rows = dist
            .iter()
            .map(|(look, n, d)| Row {
                label: (*n).clone(),
                marks: vec![mark(
                    *look,
                    *d,
                    f64::NAN,
                    f64::NAN,
                    &[("key", "distance".into()), ("point", (*n).clone())],
                )],
                lo: 0.0,
                hi,
                refs: Vec::new(),
                band: None,
                text: format!("{d:.2}"),
            })
            .collect();
        let fmt = |v: f64| format!("{v}");
        pictures.push(Picture {
            id: "distance".into(),
            svg: Dots {
                id: "distance",
                rows,
                legend: Vec::new(),
                refs_label: None,
                band_label: None,
                axis: Some(&fmt),
            }
            .svg(),
            caption: "Distance to the targets (0 is every target met): one point of a rate or one unit of a mean per target, added up; the original rules first, then the best points in the order the search ranks them.".into(),
        });
    }
    if let Some(picture) = tune_path(t, &describe) {
        pictures.push(picture);
    }
    let verdict = match t.best.first() {
        Some((p, r)) => {
            let mut v = format!(
                "The best variant found sets {}: distance {:.2} from the targets",
                describe(p),
                crate::sim::tune::loss(&t.targets, r)
            );
            if let Some(o) = &t.original {
                let _ = write!(
                    v,
                    " (the original rules: {:.2})",
                    crate::sim::tune::loss(&t.targets, o)
                );
            }
            if let Some(vs) = &t.versus {
                v.push_str(if vs.beats {
                    "; nearer to the targets than the original rules, beyond noise"
                } else {
                    "; not nearer to the targets than the original rules beyond noise"
                });
            }
            v + "."
        }
        None => "No point of the search made a valid variant.".into(),
    };
    let mut findings = Vec::new();
    findings.extend(t.warning.clone());
    findings.extend(t.written.clone());
    Parts {
        kind: "tune",
        title: format!("Tuning {}", t.variant),
        question: format!(
            "Which values of {} bring `{}` nearest to {targets}? {} players, bots {}, {} games played in the search.",
            keys.join(" and "),
            t.variant,
            t.players,
            t.bots,
            verdict::thousands(t.summary.games)
        ),
        verdict,
        detail: String::new(),
        findings,
        pictures,
        tables: Vec::new(),
        text: t.table(),
        seed: t
            .original
            .as_ref()
            .or(t.best.first().map(|b| &b.1))
            .map(|r| r.seed),
    }
}

/// The path the search took toward its targets: each round's least
/// distance against the games played so far.
fn tune_path(
    t: &TuneTable,
    describe: &dyn Fn(&crate::sim::tune::Point) -> String,
) -> Option<Picture> {
    let mut stops = Vec::new();
    let mut last_bracket = None;
    for step in &t.summary.path {
        let Some(best) = step.best else { continue };
        let at = step
            .point
            .as_ref()
            .map(|p| format!(" at {}", describe(p)))
            .unwrap_or_default();
        let stage = step
            .bracket
            .map_or("the last round".to_owned(), |b| format!("bracket {b}"));
        stops.push(chart::Stop {
            x: step.games as f64,
            y: best,
            look: if step.bracket.is_some() {
                Look::A
            } else {
                Look::B
            },
            data: data(&[
                ("round", step.round.to_string()),
                (
                    "bracket",
                    step.bracket.map_or("last".into(), |b| b.to_string()),
                ),
                ("games", step.games.to_string()),
                ("distance", best.to_string()),
            ]),
            title: format!(
                "round {} ({stage}): {} games played, least distance {best:.2}{at}",
                step.round,
                verdict::thousands(step.games)
            ),
            divide: last_bracket.is_some() && last_bracket != Some(step.bracket),
        });
        last_bracket = Some(step.bracket);
    }
    if stops.is_empty() {
        return None;
    }
    let original = t
        .original
        .as_ref()
        .map(|o| crate::sim::tune::loss(&t.targets, o));
    let svg = chart::path(
        "path",
        &stops,
        original.map(|d| (d, "the original rules")),
        "games played so far",
        "least distance to the targets",
        &[
            (Look::A, "a round of a bracket"),
            (Look::B, "the last round"),
        ],
    );
    Some(Picture {
        id: "path".into(),
        svg,
        caption: format!(
            "The search's path toward its targets: after each round, the least distance to the targets among the points of that round (up; 0 is every target met) against the games played so far (across). Dotted uprights: a new bracket begins, with new points near the best so far, few games each, so its first rounds are noisier; triangle: the last round, where the best points play the rest of the budget on the same seeds{}.",
            if original.is_some() {
                "; the dashed line is the original rules' distance"
            } else {
                ""
            }
        ),
    })
}
