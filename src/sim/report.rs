//! The summary of a run, for a board-game designer (the table) and for tools
//! (JSON, CSV); and the comparison of two runs.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::games::{Game, Stat};
use crate::sim::histogram::Summary;
use crate::sim::measures::Design;
use crate::sim::stats::{chi_square_uniform, wilson};
use crate::sim::verdict::{self, Margins, Outcome, Statistic, Unit, Verdict};
use crate::sim::{Accumulator, Config, Seating};

/// The error rate every verdict holds ([`verdict::ALPHA`]).
pub const ALPHA: f64 = verdict::ALPHA;

/// A proportion with its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: u64,
    pub of: u64,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: u64, of: u64) -> Rate {
        let (low, high) = wilson(count as f64, of as f64);
        Rate {
            count,
            of,
            rate: if of == 0 {
                0.0
            } else {
                count as f64 / of as f64
            },
            low,
            high,
        }
    }

    /// `53.1% (50.0–56.2%)`.
    pub fn words(&self) -> String {
        format!(
            "{:.1}% ({:.1}–{:.1}%)",
            100.0 * self.rate,
            100.0 * self.low,
            100.0 * self.high
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatLine {
    /// Seat number from 1 (seat 1 plays first).
    pub seat: u8,
    /// The bot in this seat, when seats are fixed.
    pub bot: Option<String>,
    pub wins: Rate,
    pub mean_score: f64,
}

/// Whether some seat wins more often than its fair share of the decided
/// games: each seat's share less `1 / players`, judged by the verdict rule
/// (Holm across the seats), and the chi-square test of all seats at once.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatBalance {
    pub chi_square: f64,
    pub df: u32,
    pub p_value: f64,
    /// `different` when some seat's share differs from a fair share by the
    /// margin or more, `same` when every seat's is within it.
    pub verdict: Outcome,
    /// The seat (from 1) that wins most often, when the verdict is
    /// `different`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub favoured: Option<u8>,
    /// Each seat's share of the decided games less a fair share.
    pub seats: Vec<Verdict>,
}

impl SeatBalance {
    /// Judge the seats' wins `wins` (by seat) with `margins`.
    pub fn new(wins: &[u64], margins: &Margins) -> SeatBalance {
        let (chi_square, df, p_value) = chi_square_uniform(wins);
        let decided: u64 = wins.iter().sum();
        let fair = 1.0 / wins.len().max(1) as f64;
        let stats: Vec<Statistic> = wins
            .iter()
            .enumerate()
            .map(|(s, &w)| {
                let key = format!("seat{}-wins", s + 1);
                let p = if decided == 0 {
                    0.0
                } else {
                    w as f64 / decided as f64
                };
                Statistic {
                    margin: margins.of(&key, Unit::Rate, None, None),
                    label: format!("seat {} share of decided games", s + 1),
                    key,
                    unit: Unit::Rate,
                    estimate: p - fair,
                    se: verdict::rate_variance(w as f64, decided).sqrt(),
                    df: f64::INFINITY,
                    games: decided,
                }
            })
            .collect();
        let seats = verdict::decide(&stats, ALPHA);
        let verdict = if seats.iter().any(|v| v.verdict == Outcome::Different) {
            Outcome::Different
        } else if seats.iter().all(|v| v.verdict == Outcome::Same) {
            Outcome::Same
        } else {
            Outcome::Undecided
        };
        let favoured = (verdict == Outcome::Different)
            .then(|| {
                (0..seats.len())
                    .max_by(|&i, &j| seats[i].estimate.total_cmp(&seats[j].estimate))
                    .map(|i| i as u8 + 1)
            })
            .flatten();
        SeatBalance {
            chi_square,
            df,
            p_value,
            verdict,
            favoured,
            seats,
        }
    }

    /// The verdict in words, for the line "First-player advantage: ...".
    pub fn words(&self) -> String {
        let seat = |v: &Verdict| {
            if v.estimate <= 0.0 {
                // Every seat at its fair share so far.
                return format!(
                    "the seats win equally often so far, {} over a fair share",
                    verdict::effect_words(v)
                );
            }
            format!(
                "{} wins most often, {} over a fair share",
                v.label.replace(" share of decided games", ""),
                verdict::effect_words(v)
            )
        };
        match self.verdict {
            Outcome::Different => {
                let n = self.favoured.unwrap_or(1);
                let v = &self.seats[usize::from(n) - 1];
                format!(
                    "seat {n} is favoured: it wins {} of the decided games, {} over a fair share (different)",
                    verdict::amount(
                        Unit::Rate,
                        v.estimate + 1.0 / self.seats.len() as f64,
                        false
                    )
                    .replace("pt", "%"),
                    verdict::effect_words(v)
                )
            }
            Outcome::Same => format!(
                "none: every seat's share of the decided games is the same as a fair share within ±{}",
                verdict::amount(
                    Unit::Rate,
                    self.seats.iter().map(|v| v.margin).fold(0.0, f64::max),
                    false
                )
            ),
            Outcome::Undecided => {
                // The seat that wins most often (the one a favoured seat
                // would be), and the games to decide them all.
                let far = self
                    .seats
                    .iter()
                    .rev()
                    .max_by(|a, b| a.estimate.total_cmp(&b.estimate));
                let needed = self.seats.iter().filter_map(|v| v.games_needed).max();
                format!(
                    "not decided yet: {}{}",
                    far.map(seat).unwrap_or_default(),
                    needed.map_or(String::new(), |n| format!(
                        "; about {} decided games would decide",
                        verdict::thousands(n)
                    ))
                )
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotLine {
    pub bot: String,
    /// Seats this bot played, over all games.
    pub seats_played: u64,
    pub wins: Rate,
}

/// How often the better of two comparable bots beats the other under a
/// variant.
///
/// `skill = (w - 1/k) / (1 - 1/k)` where `w` is the strong bot's win rate
/// against `k - 1` copies of the other bot, seats rotated: 0 means it wins
/// no more than chance (luck decides between them), 1 that it always wins.
/// The interval is the Wilson interval of `w` put through the same formula.
/// (Against random bots every variant scores about 1: random play is too
/// weak to tell variants apart.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Skill {
    pub strong: String,
    /// The bot it plays against.
    pub against: String,
    pub wins: Rate,
    pub chance_level: f64,
    /// Whether the games show `strong` beating `against` more often than
    /// chance (its win rate's interval above the chance level). Only then
    /// is there a skill figure: a bot order the games do not establish
    /// measures nothing.
    pub ordered: bool,
    /// The skill, from 0 to 1, when ordered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high: Option<f64>,
    /// Why there is no skill figure, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_decided: Option<String>,
}

/// The statistics of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub variant: String,
    pub players: u8,
    pub seating: &'static str,
    /// The bots as given (seat order when fixed).
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub seats: Vec<SeatLine>,
    pub ties: Rate,
    /// The test of first-player advantage: only when every seat has the
    /// same bot or the bots were rotated (otherwise a gap between seats is a
    /// gap between bots).
    pub seat_balance: Option<SeatBalance>,
    /// Why there is no seat-advantage verdict, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_balance_absent: Option<String>,
    /// What the bots mean for the figures, when it needs saying (random
    /// bots).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How often games ended each of the game's ways, by key.
    pub end_reasons: BTreeMap<String, Rate>,
    /// The game's counts per game, and the winning margin, by key.
    #[serde(flatten)]
    pub counts: BTreeMap<String, Summary>,
    /// Win rate of each bot over the seats it played, when bots differ.
    pub per_bot: Vec<BotLine>,
    pub skill: Option<Skill>,
    /// The evaluation measures and rule events, each with its interval
    /// (`docs/statistics.md`).
    #[serde(rename = "measures")]
    pub design: Design,
    /// The ways to end, in the game's order.
    #[serde(skip)]
    pub end_order: Vec<Stat>,
    /// The counts, in the game's order, the margin last.
    #[serde(skip)]
    pub count_order: Vec<Stat>,
    /// The count of game length, drawn as a histogram.
    #[serde(skip)]
    pub length: Stat,
    /// Set when the run was interrupted (Ctrl-C): the report covers only
    /// the first `games` of the games asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
}

/// What an interrupted run's report covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Partial {
    /// Always true: the report is of fewer games than asked for.
    pub interrupted: bool,
    /// The games asked for (`--games`).
    pub games_asked: u64,
}

/// The winning margin, which every game reports.
pub const MARGIN: Stat = Stat {
    key: "margin",
    label: "winning margin",
    short: "margin",
};

impl Report {
    pub fn new<G: Game>(config: &Config<G>, acc: &Accumulator) -> Report {
        let n = acc.games;
        let fixed = config.seating == Seating::Fixed;
        let seats = (0..usize::from(acc.players))
            .map(|s| SeatLine {
                seat: s as u8 + 1,
                bot: fixed.then(|| config.seat_bots(0)[s].to_string()),
                wins: Rate::new(acc.seat_wins[s], n),
                mean_score: if n == 0 {
                    0.0
                } else {
                    acc.seat_score[s] as f64 / n as f64
                },
            })
            .collect();
        let names: Vec<String> = config.bots.iter().map(|b| b.to_string()).collect();
        let same_bot = names.iter().all(|b| *b == names[0]);
        let (seat_balance, seat_balance_absent) = if same_bot || !fixed {
            (
                Some(SeatBalance::new(&acc.seat_wins, &Margins::default())),
                None,
            )
        } else {
            (
                None,
                Some(format!(
                    "the seats have different bots ({}), so a gap between seats would be the gap between the bots; give one bot for every seat, or --rotate",
                    names.join(", ")
                )),
            )
        };
        let mut notes = Vec::new();
        if names.iter().all(|b| b == "random") {
            notes.push(
                "Random bots: every decision is drawn at random among the legal ones. The figures describe the rules under aimless play, not play that resembles people's: how games end, their length and any seat advantage can differ a lot under competent play (the default bot, greedy).".to_string(),
            );
        } else if names.iter().any(|b| b == "random") {
            notes.push(
                "A random bot plays here: its decisions are drawn at random among the legal ones, so it loses to any competent bot almost always.".to_string(),
            );
        }
        let per_bot = if acc.bots.len() > 1 {
            acc.bots
                .iter()
                .map(|(bot, &(played, wins))| BotLine {
                    bot: bot.clone(),
                    seats_played: played,
                    wins: Rate::new(wins, played),
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut counts = BTreeMap::new();
        let mut count_order = Vec::new();
        for (stat, h) in acc.counter_names.iter().zip(&acc.counters) {
            counts.insert(stat.key.to_owned(), h.summary());
            count_order.push(*stat);
        }
        counts.insert(MARGIN.key.to_owned(), acc.margin.summary());
        count_order.push(MARGIN);
        let limited = G::safety_limit(&config.rules)
            .and_then(|l| acc.ends.get(l.reason).copied())
            .unwrap_or(0);
        let design = Design::new(
            &acc.measures,
            acc.rule_events,
            acc.players,
            n.saturating_sub(limited + acc.forfeits),
            config.measures,
            config.seed,
        );
        Report {
            variant: G::name(&config.rules).to_owned(),
            players: config.players,
            seating: if fixed { "fixed" } else { "rotated" },
            bots: config.bots.iter().map(|b| b.to_string()).collect(),
            games: n,
            seed: config.seed,
            seats,
            ties: Rate::new(acc.ties, n),
            seat_balance,
            seat_balance_absent,
            notes,
            end_reasons: acc
                .end_reasons
                .iter()
                .zip(&acc.ends)
                .map(|(stat, &k)| (stat.key.to_owned(), Rate::new(k, n)))
                // Forfeits of external players, only when there were any.
                .chain(
                    (acc.forfeits > 0)
                        .then(|| (super::FORFEIT.key.to_owned(), Rate::new(acc.forfeits, n))),
                )
                .collect(),
            counts,
            per_bot,
            skill: None,
            design,
            end_order: acc
                .end_reasons
                .iter()
                .copied()
                .chain((acc.forfeits > 0).then_some(super::FORFEIT))
                .collect(),
            count_order,
            length: acc.counter_names.get(acc.length).copied().unwrap_or(MARGIN),
            partial: None,
        }
    }

    /// Mark the report as partial: the run was interrupted before the
    /// `asked` games were played.
    pub fn mark_partial(&mut self, asked: u64) {
        self.partial = Some(Partial {
            interrupted: true,
            games_asked: asked,
        });
    }

    /// The line that opens a partial report's table, if it is one.
    fn partial_line(&self) -> Option<String> {
        self.partial.as_ref().map(|p| {
            format!(
                "PARTIAL REPORT: interrupted after {} of {} games\n",
                self.games, p.games_asked
            )
        })
    }

    /// Attach the skill figure of a run where `strong` played one seat
    /// against `against` in every other seat, seats rotated.
    pub fn with_skill(mut self, strong: &str, against: &str) -> Report {
        let wins = self
            .per_bot
            .iter()
            .find(|b| b.bot == strong)
            .map(|b| b.wins.clone())
            .unwrap_or_else(|| Rate::new(0, 0));
        let chance = 1.0 / f64::from(self.players.max(1));
        // Above chance, the scale runs from 0 (exclusive) to 1.
        let scale = |w: f64| ((w - chance) / (1.0 - chance)).clamp(0.0, 1.0);
        let ordered = wins.of > 0 && wins.low > chance;
        let not_decided = (!ordered).then(|| {
            if wins.of > 0 && wins.high < chance {
                format!(
                    "not decided: the bots are not in the order given: {against} beats {strong} under this variant; measure with --bots {against},{strong}"
                )
            } else {
                format!(
                    "not decided: the bots are not ordered: {strong} does not win more often than chance against {against} in these games (more games, or bots further apart)"
                )
            }
        });
        self.skill = Some(Skill {
            strong: strong.to_string(),
            against: against.to_string(),
            chance_level: chance,
            ordered,
            skill: ordered.then(|| scale(wins.rate)),
            low: ordered.then(|| scale(wins.low)),
            high: ordered.then(|| scale(wins.high)),
            not_decided,
            wins,
        });
        self
    }

    /// The measures that have a mean per game, with their names in words.
    pub fn measures(&self) -> Vec<(&'static str, &Summary)> {
        self.count_order
            .iter()
            .filter_map(|s| self.counts.get(s.key).map(|sum| (s.label, sum)))
            .collect()
    }

    /// The summary of the count `key` (`rounds`, `margin`).
    pub fn count(&self, key: &str) -> Option<&Summary> {
        self.counts.get(key)
    }

    /// The rates: their keys (as `--margin`, `--primary` and `sweep`
    /// take them), their names in words, their values.
    pub fn rates(&self) -> Vec<(String, String, &Rate)> {
        let mut v: Vec<(String, String, &Rate)> = self
            .seats
            .iter()
            .map(|s| {
                (
                    format!("seat{}-wins", s.seat),
                    format!("seat {} wins", s.seat),
                    &s.wins,
                )
            })
            .collect();
        v.push(("ties".into(), "ties".into(), &self.ties));
        for stat in &self.end_order {
            if let Some(r) = self.end_reasons.get(stat.key) {
                v.push((
                    stat.key.to_owned(),
                    format!("ends: {}", stat.key.replace('_', " ")),
                    r,
                ));
            }
        }
        for b in &self.per_bot {
            v.push((
                format!("{}-wins", b.bot),
                format!("{} wins", b.bot),
                &b.wins,
            ));
        }
        v
    }

    /// The first-player advantage as a rate: seat 1's wins among the
    /// decided games.
    pub fn first_seat_share(&self) -> Rate {
        let decided = self.games - self.ties.count.min(self.games);
        Rate::new(self.seats.first().map_or(0, |s| s.wins.count), decided)
    }

    /// Judge the seats again with `margins` (`--margin seat1-wins=...`).
    pub fn set_margins(&mut self, margins: &Margins) {
        if let Some(b) = &mut self.seat_balance {
            let wins: Vec<u64> = self.seats.iter().map(|s| s.wins.count).collect();
            *b = SeatBalance::new(&wins, margins);
        }
    }

    /// The readable report.
    pub fn to_table(&self) -> String {
        let mut o = self.partial_line().unwrap_or_default();
        let seating = match self.seating {
            "fixed" => format!("bots by seat: {}", self.bots.join(", ")),
            _ => format!("bots {} with seats rotated each game", self.bots.join(", ")),
        };
        let _ = writeln!(
            o,
            "Variant `{}`, {} players, {} games, seed {}\n{seating}\n",
            self.variant, self.players, self.games, self.seed
        );
        let _ = writeln!(o, "Who wins (seat 1 plays first; 95% intervals)");
        for s in &self.seats {
            let bot = s
                .bot
                .as_deref()
                .map(|b| format!(" [{b}]"))
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "  Seat {}{bot} wins {}   average score {:.1}",
                s.seat,
                s.wins.words(),
                s.mean_score
            );
        }
        let _ = writeln!(
            o,
            "  Ties (top score shared, nobody wins) {}",
            self.ties.words()
        );
        match (&self.seat_balance, &self.seat_balance_absent) {
            (Some(b), _) => {
                let _ = writeln!(o, "  First-player advantage: {}", b.words());
            }
            (None, why) => {
                let _ = writeln!(
                    o,
                    "  First-player advantage: not judged: {}",
                    why.as_deref().unwrap_or("no test")
                );
            }
        }
        if !self.per_bot.is_empty() {
            let _ = writeln!(o, "\nWho wins, by bot (over the seats each played)");
            for l in &self.per_bot {
                let _ = writeln!(o, "  {} wins {} of its games", l.bot, l.wins.words());
            }
        }
        if let Some(k) = &self.skill {
            let _ = writeln!(
                o,
                "\nSkill (bots {} and {}): {} wins {} of its games (chance would be {:.1}%)",
                k.strong,
                k.against,
                k.strong,
                k.wins.words(),
                100.0 * k.chance_level,
            );
            match (k.skill, k.low, k.high, &k.not_decided) {
                (Some(s), Some(lo), Some(hi), _) => {
                    let _ = writeln!(
                        o,
                        "  skill {s:.2} ({lo:.2} to {hi:.2}): 0 = luck alone decides between them, 1 = the better bot always wins"
                    );
                }
                (_, _, _, why) => {
                    let _ = writeln!(o, "  skill: {}", why.as_deref().unwrap_or("not decided"));
                }
            }
        }
        for note in &self.notes {
            let _ = writeln!(o, "\nNote: {note}");
        }
        let _ = writeln!(o, "\nHow games end");
        for stat in &self.end_order {
            if let Some(r) = self.end_reasons.get(stat.key) {
                let _ = writeln!(o, "  {:<28} {}", stat.label, r.words());
            }
        }
        let _ = writeln!(
            o,
            "\nPer game                    mean     sd   min   10%  median   90%    max"
        );
        for (name, s) in self.measures() {
            let _ = writeln!(
                o,
                "  {name:<24} {:>7.1} {:>6.1} {:>5} {:>5} {:>7} {:>5} {:>6}",
                s.mean, s.sd, s.min, s.p10, s.median, s.p90, s.max
            );
        }
        o.push_str(&self.design_table());
        if let Some(length) = self.counts.get(self.length.key) {
            let _ = writeln!(o, "\nGame length in {}", self.length.label);
            o.push_str(&bars(length));
        }
        o
    }

    /// The summary as CSV: `measure,value,low,high` (rates as fractions;
    /// means with the standard deviation in `low` and nothing in `high`
    /// would mislead, so means get `mean,sd` columns of their own).
    pub fn to_csv(&self) -> String {
        let mut rows: Vec<Vec<String>> = vec![
            [
                "measure", "kind", "value", "low", "high", "sd", "min", "median", "max",
            ]
            .map(String::from)
            .to_vec(),
        ];
        let e = String::new;
        if let Some(p) = &self.partial {
            // A partial run says so in its first row.
            rows.push(vec![
                "partial: interrupted".into(),
                "games_asked".into(),
                p.games_asked.to_string(),
                e(),
                e(),
                e(),
                e(),
                e(),
                e(),
            ]);
        }
        for (_, name, r) in self.rates() {
            rows.push(vec![
                name,
                "rate".into(),
                r.rate.to_string(),
                r.low.to_string(),
                r.high.to_string(),
                e(),
                e(),
                e(),
                e(),
            ]);
        }
        if let Some(b) = &self.seat_balance {
            rows.push(vec![
                "seat balance p".into(),
                "p_value".into(),
                b.p_value.to_string(),
                e(),
                e(),
                e(),
                e(),
                e(),
                e(),
            ]);
        }
        if let Some(k) = &self.skill {
            let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
            rows.push(vec![
                "skill".into(),
                "skill".into(),
                opt(k.skill),
                opt(k.low),
                opt(k.high),
                e(),
                e(),
                e(),
                e(),
            ]);
        }
        for m in &self.design.measures {
            rows.push(vec![
                m.key.clone(),
                "measure".into(),
                m.value.to_string(),
                m.low.to_string(),
                m.high.to_string(),
                m.sd.map_or_else(e, |v| v.to_string()),
                e(),
                e(),
                e(),
            ]);
        }
        for ev in &self.design.rule_events {
            rows.push(vec![
                format!("event {}", ev.key),
                "rate".into(),
                ev.games.rate.to_string(),
                ev.games.low.to_string(),
                ev.games.high.to_string(),
                e(),
                e(),
                e(),
                e(),
            ]);
        }
        for (name, s) in self.measures() {
            rows.push(vec![
                name.to_string(),
                "mean".into(),
                s.mean.to_string(),
                e(),
                e(),
                s.sd.to_string(),
                s.min.to_string(),
                s.median.to_string(),
                s.max.to_string(),
            ]);
        }
        super::csv_text(rows)
    }
}

/// A text histogram, one line per bar.
fn bars(s: &Summary) -> String {
    let mut o = String::new();
    let top = s
        .histogram
        .iter()
        .map(|b| b.count)
        .max()
        .unwrap_or(0)
        .max(1);
    for b in &s.histogram {
        let len = (b.count * 40).div_ceil(top) as usize;
        let label = if b.from == b.to {
            b.from.to_string()
        } else {
            format!("{}-{}", b.from, b.to)
        };
        let _ = writeln!(o, "  {label:>9} {:<40} {}", "#".repeat(len), b.count);
    }
    o
}

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
    pub sequential: Option<crate::sim::sequential::Stopped>,
    /// Changed keys whose rule events never happened in either run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dead_rules: Vec<String>,
}

/// How much skill each of two variants rewards, from a ladder of each.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillComparison {
    pub a: crate::sim::ladder::Ladder,
    pub b: crate::sim::ladder::Ladder,
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
    out.extend(crate::sim::measures::statistics(
        &a.design, &b.design, margins,
    ));
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
    for stat in &a.count_order {
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
    let primary = primary_statistics(&a, &b, margins);
    let measures = crate::sim::measures::statistics(&a.design, &b.design, margins);
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
    }
}

impl Comparison {
    /// Attach the ladders of both variants.
    pub fn with_skill(
        mut self,
        a: crate::sim::ladder::Ladder,
        b: crate::sim::ladder::Ladder,
    ) -> Comparison {
        let best_v_next = crate::sim::ladder::skill_difference(&a, &b);
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
                    "     spread {:.0} Elo; {} scores {} against {} (gap {:.0} Elo, {:.0} to {:.0})",
                    k.spread,
                    k.best,
                    k.best_vs_next.words(),
                    k.next,
                    k.gap,
                    k.gap_low,
                    k.gap_high
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
        let _ = writeln!(
            o,
            "A: `{}`   B: `{}`   {} players, {} games each on matched seeds (seed {})\n",
            self.a.variant, self.b.variant, self.a.players, self.a.games, self.a.seed
        );
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
        let _ = writeln!(
            o,
            "\n\"different\": significant after Holm's correction across {} (5% error rate each) and at least the margin;\n\"the same within\": two one-sided tests put the difference inside the margin (margins: a rate 2 points, a count 5% of its mean\nor a fifth of its spread, or --margin KEY=VALUE). Rates: normal test of two proportions; means: Welch's t. docs/statistics.md",
            self.families_words()
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
        super::csv_text(std::iter::once(header).chain(rows))
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
