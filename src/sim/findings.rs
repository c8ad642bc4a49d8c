//! The designer's view of a run: the measures and rule events as a table,
//! and a few lines of findings that hold (`roots simulate --summary`, the
//! top of `roots compare`), each backed by its interval.

use std::fmt::Write as _;

use super::comparison::Comparison;
use super::report::Report;
use crate::games::SCRIPT_EVENT;
use crate::sim::verdict::thousands;
use crate::sim::verdict::{self, Outcome};

impl Report {
    /// The measures and rule events, as the table's sections.
    pub fn design_table(&self) -> String {
        let d = &self.design;
        let mut o = String::new();
        if d.measures.is_empty() {
            return o;
        }
        let _ = writeln!(
            o,
            "\nDesign measures (95% intervals; what each means: docs/statistics.md)"
        );
        let mut group = "";
        for e in &d.measures {
            let head = if e.group == group { "" } else { e.group };
            group = e.group;
            let sd = match e.sd {
                Some(sd) if !e.share => format!("   sd {sd:.1}"),
                _ => String::new(),
            };
            let sd = if e.constant() { String::new() } else { sd };
            let _ = writeln!(o, "  {head:<11} {:<30} {}{sd}", e.label, e.words());
        }
        if d.depth == crate::sim::measures::Depth::Outcomes {
            let _ = writeln!(
                o,
                "  (choice and tension not measured: `--measures outcomes`; `standard` measures them)"
            );
        }
        if !d.rule_events.is_empty() {
            let _ = writeln!(
                o,
                "\nRule events        per game   games where it happened (95%)"
            );
            // An event the rules rule out, and which did not happen, has
            // no row. With house rules counted one by one, their event
            // (all of them together) is the House rules table's: its row
            // there, not here.
            let each = !d.house_rules.is_empty();
            for e in d
                .rule_events
                .iter()
                .filter(|e| e.possible || e.games.count > 0)
                .filter(|e| !(each && e.key == SCRIPT_EVENT.key))
            {
                event_row(&mut o, e.label, e.per_game, &e.games);
            }
        }
        if !d.house_rules.is_empty() {
            let _ = writeln!(
                o,
                "\nHouse rules        per game   games where it changed the game (95%)"
            );
            for h in &d.house_rules {
                event_row(&mut o, &format!("`{}`", h.name), h.per_game, &h.games);
            }
            // Several: all of them together (the event `script`).
            let all = d.rule_events.iter().find(|e| e.key == SCRIPT_EVENT.key);
            if let (true, Some(e)) = (d.house_rules.len() > 1, all) {
                event_row(&mut o, "all of them", e.per_game, &e.games);
            }
        }
        for line in self.dead_rules() {
            let _ = writeln!(o, "  {line}");
        }
        o
    }

    /// A line per rule event that never happened; with house rules
    /// counted one by one, a line per house rule that never changed the
    /// game, in place of the line of all of them together (the event
    /// `script`).
    pub fn dead_rules(&self) -> Vec<String> {
        let each = !self.design.house_rules.is_empty();
        let mut out: Vec<String> = self
            .design
            .dead()
            .filter(|e| !(each && e.key == SCRIPT_EVENT.key))
            .map(|e| {
                let keys = if e.keys.is_empty() {
                    String::new()
                } else {
                    let k: Vec<String> = e.keys.iter().map(|k| format!("`{k}`")).collect();
                    format!(
                        ": a change of {} cannot matter under these bots",
                        k.join(" or ")
                    )
                };
                format!(
                    "Never happened in {} games: {}{keys}",
                    thousands(self.games),
                    e.label,
                )
            })
            .collect();
        out.extend(
            self.design
                .house_rules
                .iter()
                .filter(|h| h.games.count == 0)
                .map(|h| {
                    format!(
                        "House rule `{}` (a script) never changed the game in {} games: it cannot matter under these bots",
                        h.name,
                        thousands(self.games)
                    )
                }),
        );
        out
    }

    /// The findings that hold, a line each, every figure with its 95%
    /// interval: fairness, length, tension, choice, skill, dead rules.
    pub fn findings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let d = &self.design;
        // Fairness: the simulate report's seat verdict (the verdict rule,
        // each seat's share of decided games against a fair share).
        match (&self.seat_balance, &self.seat_balance_absent) {
            (Some(b), _) => {
                let head = match b.verdict {
                    Outcome::Different => "Not fair",
                    Outcome::Same => "Fair",
                    Outcome::Changed => "Slightly unfair",
                    Outcome::Undecided => "Fairness",
                };
                out.push(format!("{head}: {}", b.words()));
            }
            (None, Some(why)) => out.push(format!("Fairness: not judged: {why}")),
            (None, None) => {}
        }
        if let (Some(t), Some(dd)) = (d.get("duration_turns"), d.get("duration_decisions")) {
            // A fixed length has no spread to give.
            let spread = d
                .get("duration_turns_sd")
                .filter(|s| !s.constant())
                .map(|s| format!(", give or take {:.1}", s.value))
                .unwrap_or_default();
            // The measure counts runs of one seat's decisions; where the
            // game counts its turns otherwise (Roots and Shoots' setup and
            // the choice of a cut end), both are named.
            let own = self
                .counts
                .get("turns")
                .map(|c| c.mean)
                .filter(|&m| (m - t.value).abs() >= 0.05);
            let unit = match own {
                Some(m) => format!(
                    "seat runs a game{spread} (a seat's decisions in a row; the game's own count: {m:.1} turns)"
                ),
                None => format!("turns a game{spread}"),
            };
            out.push(format!(
                "Length: {} {unit}, {} decisions",
                t.words(),
                dd.words()
            ));
        }
        if let Some(c) = d.get("completion")
            && c.value < 1.0
        {
            out.push(format!(
                "Completion: {} of games ended by the rules; the rest hit the safety limit",
                c.words()
            ));
        }
        if let (Some(lead), Some(drama), Some(dec)) = (
            d.get("favourite_changes"),
            d.get("winner_behind"),
            d.get("settled_at"),
        ) {
            let verdict = if dec.high < 1.0 / 3.0 {
                "decided early"
            } else if dec.low > 2.0 / 3.0 {
                "open until late"
            } else {
                "decided in the middle"
            };
            out.push(format!(
                "Tension: {verdict}: the winner led for good after {} of the game, was behind at {} of decisions; the lead changed after {} of decisions",
                dec.words(),
                drama.words(),
                lead.words()
            ));
        }
        if let (Some(choice), Some(branch)) = (d.get("decision_moves"), d.get("branching")) {
            // "always 100.0% of decisions" said as it reads at the table.
            let share = if choice.constant() && choice.value >= 1.0 {
                "every decision offers a choice".to_owned()
            } else if choice.constant() && choice.value <= 0.0 {
                "no decision offers a choice".to_owned()
            } else {
                format!("{} of decisions offer a choice", choice.words())
            };
            out.push(format!(
                "Choice: {share}, {} legal moves on average",
                branch.words()
            ));
        }
        if self.design.depth == crate::sim::measures::Depth::Outcomes {
            out.push(
                "Tension, choice: not measured (`--measures outcomes`; `standard` measures them)"
                    .to_owned(),
            );
        }
        match &self.skill {
            Some(k) => match (k.skill, k.low, k.high) {
                (Some(v), Some(lo), Some(hi)) => out.push(format!(
                    "Skill pays: {} beats {} in {} of games, skill {v:.2} ({lo:.2} to {hi:.2}; 0 is luck alone)",
                    k.strong,
                    k.against,
                    k.wins.words()
                )),
                _ => out.push(format!(
                    "Skill: {} beats {} in {} of games: {}",
                    k.strong,
                    k.against,
                    k.wins.words(),
                    k.not_decided.as_deref().unwrap_or("not decided")
                )),
            },
            None => out.push(
                "Skill: not measured (add --skill: the better of two bots plays the other)"
                    .to_owned(),
            ),
        }
        let dead = self.dead_rules();
        if dead.is_empty() {
            // Every rule came into play: say so, with the rarest, so that the
            // summary always reports coverage.
            let possible = || self.design.rule_events.iter().filter(|e| e.possible);
            let rarest = possible().min_by(|a, b| {
                a.games
                    .rate
                    .partial_cmp(&b.games.rate)
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            if let Some(e) = rarest {
                out.push(format!(
                    "Rules: each of the {} rule events happened in some game; the rarest, {}, in {} of games",
                    possible().count(),
                    e.label,
                    e.games.words()
                ));
            }
        }
        out.extend(dead);
        out
    }

    /// `simulate --summary`: the run's heading and its findings.
    pub fn summary(&self) -> String {
        let mut o = format!(
            "Variant `{}`, {} players, {} games, seed {}, bots {}\n",
            self.variant,
            self.players,
            self.games,
            self.seed,
            self.bots.join(", ")
        );
        for f in self.findings() {
            let _ = writeln!(o, "  {f}");
        }
        for note in &self.notes {
            let _ = writeln!(o, "Note: {note}");
        }
        o
    }
}

impl Comparison {
    /// The top of `compare`: rules changed to no effect, and the design
    /// measures the verdict rule calls different, largest change first.
    pub fn findings(&self) -> Vec<String> {
        let mut out = self.dead_rules.clone();
        let an = &self.analysis;
        if let (Some(n), Some(alike)) = (an.pairs, an.identical_pairs)
            && n > 0
            && alike == n
            && !an.independent_seeds
        {
            // The keys not already said to have had no chance to act.
            let idle: Vec<String> = self
                .changed_keys
                .iter()
                .filter(|k| {
                    let named = format!("`{k}`");
                    !self.dead_rules.iter().any(|d| d.starts_with(&named))
                })
                .map(|k| format!("`{k}`"))
                .collect();
            out.push(match idle.len() {
                0 if !self.dead_rules.is_empty() => format!(
                    "All {} pairs of games came out alike (winner, ending, every count)",
                    thousands(n)
                ),
                0 => format!(
                    "All {} pairs of games came out alike (winner, ending, every count): the change made no difference in these games under these bots",
                    thousands(n)
                ),
                1 => format!(
                    "The key {} never changed a game in {} pairs: every pair came out alike (winner, ending, every count) under these bots",
                    idle[0],
                    thousands(n)
                ),
                _ => format!(
                    "The keys {} never changed a game in {} pairs: every pair came out alike (winner, ending, every count) under these bots",
                    idle.join(", "),
                    thousands(n)
                ),
            });
        }
        let mut differ: Vec<(f64, String)> = Vec::new();
        for e in &self.a.design.measures {
            let Some(d) = self.differences.iter().find(|d| d.verdict.key == e.key) else {
                continue;
            };
            if d.verdict.verdict != Outcome::Different {
                continue;
            }
            let f = |v: f64| {
                if e.share {
                    format!("{:.1}%", 100.0 * v)
                } else {
                    format!("{v:.2}")
                }
            };
            let rel = if d.a.abs() > 0.0 {
                (d.verdict.estimate / d.a).abs()
            } else {
                f64::INFINITY
            };
            differ.push((
                rel,
                format!(
                    "{}: A {}, B {}, B - A {} (different)",
                    e.label,
                    f(d.a),
                    f(d.b),
                    verdict::effect_words(&d.verdict)
                ),
            ));
        }
        differ.sort_by(|x, y| y.0.total_cmp(&x.0));
        if differ.is_empty() {
            out.push(format!(
                "No design measure is called different between A and B in {} games each",
                thousands(self.a.games)
            ));
        } else {
            let more = differ.len().saturating_sub(5);
            out.extend(differ.into_iter().take(5).map(|(_, l)| l));
            if more > 0 {
                out.push(format!(
                    "and {more} more design measure{} called different (the table below)",
                    if more == 1 { "" } else { "s" }
                ));
            }
        }
        out
    }
}

/// A row of the rule events' or the house rules' table: the label, the
/// count per game and the share of games.
fn event_row(o: &mut String, label: &str, per_game: f64, games: &crate::sim::Rate) {
    let _ = writeln!(o, "  {label:<28} {per_game:>6.2}   {}", games.words());
}
