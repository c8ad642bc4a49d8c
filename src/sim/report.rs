//! The summary of a run, for a board-game designer (the table) and for tools
//! (JSON, CSV). The comparison of two runs is `comparison.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::accum::Accumulator;
use super::csv::csv_text;
use super::game::FORFEIT;
use super::histogram::Summary;
use super::measures::Design;
use super::play::{Config, Seating, SimError};
use super::rate::Rate;
use super::stats::chi_square_uniform;
use super::verdict::{self, Margins, Outcome, Statistic, Unit, Verdict};
use crate::games::{Game, Stat};

/// The error rate every verdict holds ([`verdict::ALPHA`]).
pub const ALPHA: f64 = verdict::ALPHA;

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
        } else if seats.iter().any(|v| v.verdict == Outcome::Changed) {
            Outcome::Changed
        } else {
            Outcome::Undecided
        };
        let favoured = matches!(verdict, Outcome::Different | Outcome::Changed)
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
            Outcome::Different | Outcome::Changed => {
                let n = self.favoured.unwrap_or(1);
                let v = &self.seats[usize::from(n) - 1];
                let (how, verdict) = if self.verdict == Outcome::Changed {
                    (
                        " slightly",
                        format!(
                            "changed, by under ±{} or near it",
                            verdict::amount(Unit::Rate, v.margin, false)
                        ),
                    )
                } else {
                    ("", "different".to_owned())
                };
                format!(
                    "seat {n} is favoured{how}: it wins {} of the decided games, {} over a fair share ({verdict})",
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
    /// The game's per-game flags ([`Stat::flag`]) as shares of the games,
    /// by key (their counts stay in `counts` too).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub flags: BTreeMap<String, Rate>,
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
pub const MARGIN: Stat = Stat::new("margin", "winning margin", "margin");

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
        let mut flags = BTreeMap::new();
        let mut count_order = Vec::new();
        for (stat, h) in acc.counter_names.iter().zip(&acc.counters) {
            counts.insert(stat.key.to_owned(), h.summary());
            if stat.flag {
                flags.insert(stat.key.to_owned(), Rate::new(h.nonzero(), h.n()));
            }
            count_order.push(*stat);
        }
        counts.insert(MARGIN.key.to_owned(), acc.margin.summary());
        count_order.push(MARGIN);
        let limited = G::safety_limit(&config.rules)
            .and_then(|l| acc.ends.get(l.reason).copied())
            .unwrap_or(0);
        // The ways to end that only house rules bring, for rules with them
        // (or, should one ever happen without, when it did).
        let scripted = G::has_scripts(&config.rules);
        let shown = |stat: &Stat, count: u64| {
            scripted || count > 0 || !crate::script::END_KEYS.contains(&stat.key)
        };
        let mut design = Design::new(
            &acc.measures,
            acc.rule_events,
            acc.players,
            n.saturating_sub(limited + acc.forfeits),
            config.measures,
            config.seed,
        );
        design
            .rule_events
            .retain(|e| scripted || !crate::script::END_KEYS.contains(&e.key));
        for e in &mut design.rule_events {
            e.possible = G::rule_event_possible(&config.rules, e.key);
        }
        if scripted {
            design.count_house_rules(&acc.measures, &G::script_names(&config.rules), acc.games);
        }
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
                .filter(|&(stat, &k)| shown(stat, k))
                .map(|(stat, &k)| (stat.key.to_owned(), Rate::new(k, n)))
                // Forfeits of external players, only when there were any.
                .chain(
                    (acc.forfeits > 0)
                        .then(|| (FORFEIT.key.to_owned(), Rate::new(acc.forfeits, n))),
                )
                .collect(),
            counts,
            per_bot,
            skill: None,
            design,
            end_order: acc
                .end_reasons
                .iter()
                .zip(&acc.ends)
                .filter(|&(stat, &k)| shown(stat, k))
                .map(|(stat, _)| *stat)
                .chain((acc.forfeits > 0).then_some(FORFEIT))
                .collect(),
            flags,
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

    /// The measures that have a mean per game, with their names in words
    /// (not the per-game flags, which are rates: [`Report::rates`]).
    pub fn measures(&self) -> Vec<(&'static str, &Summary)> {
        self.count_order
            .iter()
            .filter(|s| !s.flag)
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
        for stat in self.count_order.iter().filter(|s| s.flag) {
            if let Some(r) = self.flags.get(stat.key) {
                v.push((stat.key.to_owned(), stat.label.to_owned(), r));
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
        if !self.flags.is_empty() {
            let _ = writeln!(o, "\nShare of games");
            for stat in self.count_order.iter().filter(|s| s.flag) {
                if let Some(r) = self.flags.get(stat.key) {
                    let _ = writeln!(o, "  {:<28} {}", stat.label, r.words());
                }
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
        // A share of games: its value and interval, nothing else.
        let rate_row = |name: String, r: &Rate| {
            vec![
                name,
                "rate".into(),
                r.rate.to_string(),
                r.low.to_string(),
                r.high.to_string(),
                e(),
                e(),
                e(),
                e(),
            ]
        };
        for (_, name, r) in self.rates() {
            rows.push(rate_row(name, r));
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
            rows.push(rate_row(format!("event {}", ev.key), &ev.games));
        }
        for h in &self.design.house_rules {
            rows.push(rate_row(format!("house rule {}", h.name), &h.games));
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
        csv_text(rows)
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

/// Run and summarise in one call.
pub fn simulate<G: Game>(config: &Config<G>) -> Result<Report, SimError> {
    let acc = super::play::run(config, |_| Ok(()), |_| {})?;
    Ok(Report::new(config, &acc))
}
