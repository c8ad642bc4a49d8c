//! Sweeping keys of a variant: `beads.supply=30..120:10`,
//! `nutrients.value_rolled` (every value of an enum or a boolean), or
//! `growth.buds=d4,d6,d8` (a list), one key (a line plot) or two (a grid,
//! drawn as a heat map); and the measures a sweep or a tune reads from a
//! report (`rounds`, `seat1-wins`, `first-player-advantage`, ...).
//!
//! Each point is applied through the variant loader as `--set` overrides on
//! top of the swept variant, so unknown keys and values out of a key's
//! bounds get the loader's own errors, naming the option
//! (`--set beads.store=300: error: ...`); a sweep reports such a point and
//! skips it.

use super::report::Report;
use crate::games::{Game, GameId};
use crate::sim::stats::wilson;
use crate::variant::schema::{self, PathSeg};
use crate::variant::{self, Override, Style};

/// One value of a swept key.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Word(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Word(w) => f.write_str(w),
        }
    }
}

impl Value {
    /// The value as a TOML value (a variant file's line).
    pub fn to_toml(&self) -> toml::Value {
        match self {
            Value::Int(n) => toml::Value::Integer(*n),
            Value::Bool(b) => toml::Value::Boolean(*b),
            Value::Word(w) => toml::Value::String(w.clone()),
        }
    }
}

/// What kind of key a sweep moves, from the game's schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A whole number, with the schema's bounds.
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
    Boolean,
    /// One word of a list.
    Enum(Vec<String>),
}

/// A swept key and its values, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub key: String,
    pub kind: KeyKind,
    pub values: Vec<Value>,
}

/// Most values one axis may take.
pub const MAX_VALUES: usize = 1000;

/// The kind of the key `key` of game `game`: an error in words for a key
/// that does not exist or that cannot be swept.
pub fn key_kind(game: GameId, key: &str) -> Result<KeyKind, String> {
    if key.is_empty() || !key.contains('.') {
        return Err(format!(
            "`{key}`: the key is a path like beads.supply (section.key)"
        ));
    }
    let path: Vec<PathSeg> = key.split('.').map(|k| PathSeg::Key(k.to_owned())).collect();
    let node = schema::node_at(game, &path).ok_or_else(|| {
        format!(
            "unknown key `{key}` for {}: `roots show` lists every key of a variant",
            game.title()
        )
    })?;
    let words = schema::allowed_words(node);
    if !words.is_empty() {
        return Ok(KeyKind::Enum(words));
    }
    match node.get("type").and_then(serde_json::Value::as_str) {
        Some("integer") => Ok(KeyKind::Integer {
            min: node.get("minimum").and_then(serde_json::Value::as_i64),
            max: node.get("maximum").and_then(serde_json::Value::as_i64),
        }),
        Some("boolean") => Ok(KeyKind::Boolean),
        _ => Err(format!(
            "`{key}` is {}: a sweep moves a whole number, a word of a list or true/false",
            schema::describe(game, node)
        )),
    }
}

impl Axis {
    /// Parse `KEY=FROM..TO`, `KEY=FROM..TO:STEP` (whole numbers, both ends
    /// included), `KEY=A,B,C` (a list of values) or `KEY` alone (every
    /// value of a boolean or of a word key) for game `game`.
    pub fn parse(game: GameId, text: &str) -> Result<Axis, String> {
        let usage = || {
            format!(
                "`{text}`: expected KEY=FROM..TO[:STEP] (beads.supply=30..120:10), KEY=A,B,... (growth.buds=d4,d6) or KEY alone (every value of a true/false or word key)"
            )
        };
        let (key, spec) = match text.split_once('=') {
            Some((k, s)) => (k.trim(), Some(s.trim())),
            None => (text.trim(), None),
        };
        let kind = key_kind(game, key)?;
        let values = match spec {
            None | Some("all" | "*") => match &kind {
                KeyKind::Boolean => vec![Value::Bool(false), Value::Bool(true)],
                KeyKind::Enum(words) => words.iter().cloned().map(Value::Word).collect(),
                KeyKind::Integer {
                    min: Some(a),
                    max: Some(b),
                } if b - a < 50 => (*a..=*b).map(Value::Int).collect(),
                KeyKind::Integer { .. } => {
                    return Err(format!(
                        "`{key}` is a whole number: give its range, like {key}=FROM..TO or {key}=FROM..TO:STEP"
                    ));
                }
            },
            Some(s) if s.contains("..") => {
                if !matches!(kind, KeyKind::Integer { .. }) {
                    return Err(format!(
                        "`{key}` is not a whole number, so it has no range: list its values ({key}=A,B) or give the key alone for all of them"
                    ));
                }
                let (span, step) = match s.split_once(':') {
                    Some((sp, st)) => (sp, st.trim().parse::<i64>().map_err(|_| usage())?),
                    None => (s, 1),
                };
                let (from, to) = span.split_once("..").ok_or_else(usage)?;
                let from = from.trim().parse::<i64>().map_err(|_| usage())?;
                let to = to.trim().parse::<i64>().map_err(|_| usage())?;
                if step <= 0 {
                    return Err(format!("`{text}`: the step must be at least 1"));
                }
                if to < from {
                    return Err(format!(
                        "`{text}`: the range runs backwards ({from} > {to})"
                    ));
                }
                let count = (i128::from(to) - i128::from(from)) / i128::from(step) + 1;
                if count > MAX_VALUES as i128 {
                    return Err(format!(
                        "`{text}`: more than {MAX_VALUES} values; use a larger step"
                    ));
                }
                (0..count as i64)
                    .map(|i| Value::Int(from + i * step))
                    .collect()
            }
            Some(s) => {
                let mut values = Vec::new();
                for item in s.split(',').map(str::trim) {
                    if item.is_empty() {
                        return Err(usage());
                    }
                    let v = match &kind {
                        KeyKind::Integer { .. } => {
                            Value::Int(item.parse::<i64>().map_err(|_| {
                                format!("`{key}` is a whole number: `{item}` is not one")
                            })?)
                        }
                        KeyKind::Boolean => Value::Bool(item.parse::<bool>().map_err(|_| {
                            format!("`{key}` is true or false: `{item}` is neither")
                        })?),
                        KeyKind::Enum(words) => {
                            if !words.iter().any(|w| w == item) {
                                return Err(format!(
                                    "`{item}` is not a value of `{key}`: one of {}",
                                    words.join(", ")
                                ));
                            }
                            Value::Word(item.to_owned())
                        }
                    };
                    if !values.contains(&v) {
                        values.push(v);
                    }
                }
                if values.len() > MAX_VALUES {
                    return Err(format!("`{text}`: more than {MAX_VALUES} values"));
                }
                values
            }
        };
        Ok(Axis {
            key: key.to_owned(),
            kind,
            values,
        })
    }

    /// Whether the values are numbers, placed on the axis by value.
    pub fn numeric(&self) -> bool {
        matches!(self.kind, KeyKind::Integer { .. })
    }

    /// The override that sets this key to `value`.
    pub fn set(&self, value: &Value) -> Override {
        Override::parse(&format!("{}={value}", self.key))
            .expect("a key checked against the schema and a plain value make an override")
    }
}

/// The rules of `variant` (a built-in name or a path) with `fixed` and then
/// `point` set on top, checked by the loader. The error is the loader's
/// diagnostics in plain lines, naming the options at fault.
pub fn apply<G: crate::games::Registered>(
    variant: &str,
    fixed: &[Override],
    point: &[Override],
) -> Result<std::sync::Arc<G::Rules>, String> {
    let mut all = fixed.to_vec();
    all.extend_from_slice(point);
    match variant::load_with(variant, &all) {
        Ok(loaded) => G::unwrap(&loaded.rules)
            .cloned()
            .ok_or_else(|| format!("`{variant}` is not a {} variant", G::TITLE)),
        Err(d) => Err(variant::render(&d.items, &d.sources, Style::Plain)
            .trim_end()
            .to_owned()),
    }
}

/// A measure read from a report, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Something to plot or to aim at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Measure {
    /// How often seat `n` (from 1) wins outright.
    SeatWins(u8),
    /// How often the top score is shared.
    Ties,
    /// Seat 1's share of the games someone wins, minus a fair share
    /// (1 / players): 0 is fair, +0.05 is five points too many.
    FirstPlayerAdvantage,
    /// How often games end this way (a key of the game's end reasons).
    End(String),
    /// The mean per game of a count of the game, or of the winning margin.
    Mean(String),
    /// The share of games where a per-game flag of the game holds
    /// ([`crate::games::Stat::flag`]: `decided_by_branches`).
    Flag(String),
    /// An evaluation measure (`drama`, `balance`: [`crate::sim::measures`]),
    /// and whether it is a share.
    Design(String, bool),
}

impl Measure {
    /// Parse a measure's name for game `G` played by `players`.
    pub fn parse<G: Game>(text: &str, players: u8) -> Result<Measure, String> {
        let t = text.trim().to_ascii_lowercase().replace('-', "_");
        let m = match t.as_str() {
            "ties" => Some(Measure::Ties),
            "first_player_advantage" | "fpa" => Some(Measure::FirstPlayerAdvantage),
            "margin" => Some(Measure::Mean("margin".into())),
            _ => None,
        };
        let m = m.or_else(|| {
            let n = t.strip_prefix("seat")?.strip_suffix("_wins")?;
            n.parse::<u8>().ok().map(Measure::SeatWins)
        });
        let m = m
            .or_else(|| {
                let k = t.strip_prefix("ends.").unwrap_or(&t);
                G::END_REASONS
                    .iter()
                    .find(|s| s.key == k)
                    .map(|s| Measure::End(s.key.to_owned()))
            })
            .or_else(|| {
                G::COUNTERS.iter().find(|s| s.key == t).map(|s| {
                    if s.flag {
                        Measure::Flag(s.key.to_owned())
                    } else {
                        Measure::Mean(s.key.to_owned())
                    }
                })
            })
            .or_else(|| {
                crate::sim::measures::keys(players)
                    .into_iter()
                    .find(|(k, _, _)| *k == t)
                    .map(|(k, _, share)| Measure::Design(k, share))
            });
        match m {
            Some(Measure::SeatWins(n)) if n == 0 || n > players => Err(format!(
                "`{text}`: there are seats 1 to {players} in a game of {players} players"
            )),
            Some(m) => Ok(m),
            None => Err(format!(
                "`{text}` is not a measure of {}; the measures: {}",
                G::TITLE,
                Measure::names::<G>(players).join(", ")
            )),
        }
    }

    /// Every measure of game `G`, by name.
    pub fn names<G: Game>(players: u8) -> Vec<String> {
        let mut v = vec!["first-player-advantage".to_owned()];
        v.extend((1..=players).map(|s| format!("seat{s}-wins")));
        v.push("ties".into());
        v.extend(G::END_REASONS.iter().map(|s| s.key.to_owned()));
        v.extend(G::COUNTERS.iter().map(|s| s.key.to_owned()));
        v.push("margin".into());
        v.extend(
            crate::sim::measures::keys(players)
                .into_iter()
                .map(|(k, _, _)| k),
        );
        v
    }

    /// The least `--measures` depth that measures it: a design measure's
    /// ([`crate::sim::measures::depth_of`]); outcomes and counters are
    /// always there.
    pub fn depth(&self) -> crate::sim::measures::Depth {
        use crate::sim::measures::{Depth, depth_of};
        match self {
            Measure::Design(k, _) => depth_of(k).unwrap_or(Depth::Standard),
            _ => Depth::Outcomes,
        }
    }

    /// An error when a run at `depth` does not measure it (its figure
    /// would read 0).
    pub fn check_depth(&self, depth: crate::sim::measures::Depth) -> Result<(), String> {
        let needs = self.depth();
        if needs > depth {
            return Err(format!(
                "`{}` is measured only with `--measures {}`{}; this run measures `{}`",
                self.key(),
                needs.name(),
                if needs == crate::sim::measures::Depth::Full {
                    ""
                } else {
                    " or `full`"
                },
                depth.name()
            ));
        }
        Ok(())
    }

    /// The measure's name as typed (`seat1-wins`, `rounds`).
    pub fn key(&self) -> String {
        match self {
            Measure::SeatWins(n) => format!("seat{n}-wins"),
            Measure::Ties => "ties".into(),
            Measure::FirstPlayerAdvantage => "first-player-advantage".into(),
            Measure::End(k) | Measure::Mean(k) | Measure::Flag(k) | Measure::Design(k, _) => {
                k.clone()
            }
        }
    }

    /// The measure in words, for a plot's axis.
    pub fn label<G: Game>(&self) -> String {
        match self {
            Measure::SeatWins(n) => format!("seat {n} win rate"),
            Measure::Ties => "tie rate".into(),
            Measure::FirstPlayerAdvantage => "first-player advantage".into(),
            Measure::End(k) => G::END_REASONS
                .iter()
                .find(|s| s.key == k)
                .map_or_else(|| k.clone(), |s| format!("games ending: {}", s.label)),
            Measure::Mean(k) => G::COUNTERS
                .iter()
                .find(|s| s.key == k)
                .map_or_else(|| k.replace('_', " "), |s| format!("mean {}", s.label)),
            Measure::Flag(k) => G::COUNTERS
                .iter()
                .find(|s| s.key == k)
                .map_or_else(|| k.replace('_', " "), |s| format!("games {}", s.label)),
            Measure::Design(k, _) => crate::sim::measures::keys(8)
                .into_iter()
                .find(|(key, _, _)| key == k)
                .map_or_else(|| k.replace('_', " "), |(_, label, _)| label),
        }
    }

    /// Whether the measure is a proportion (shown in percent).
    pub fn is_rate(&self) -> bool {
        match self {
            Measure::Mean(_) => false,
            Measure::Design(_, share) => *share,
            _ => true,
        }
    }

    /// The measure of a report, with its 95% interval (Wilson for rates,
    /// mean ± 1.96 standard errors for means).
    pub fn of(&self, r: &Report) -> Estimate {
        let rate = |k: u64, n: u64| {
            let (low, high) = wilson(k as f64, n as f64);
            Estimate {
                value: if n == 0 { 0.0 } else { k as f64 / n as f64 },
                low,
                high,
            }
        };
        match self {
            Measure::SeatWins(n) => r
                .seats
                .get(usize::from(*n).wrapping_sub(1))
                .map_or(rate(0, 0), |s| rate(s.wins.count, s.wins.of)),
            Measure::Ties => rate(r.ties.count, r.ties.of),
            Measure::FirstPlayerAdvantage => {
                let decided = r.games - r.ties.count;
                let w = r.seats.first().map_or(0, |s| s.wins.count);
                let fair = 1.0 / f64::from(r.players.max(1));
                let e = rate(w, decided);
                Estimate {
                    value: e.value - fair,
                    low: e.low - fair,
                    high: e.high - fair,
                }
            }
            Measure::End(k) => r
                .end_reasons
                .get(k)
                .map_or(rate(0, 0), |x| rate(x.count, x.of)),
            Measure::Flag(k) => r.flags.get(k).map_or(rate(0, 0), |x| rate(x.count, x.of)),
            Measure::Mean(k) => r.count(k).map_or(
                Estimate {
                    value: 0.0,
                    low: 0.0,
                    high: 0.0,
                },
                |s| {
                    let half = if s.n > 1 {
                        1.96 * s.sd / (s.n as f64).sqrt()
                    } else {
                        0.0
                    };
                    Estimate {
                        value: s.mean,
                        low: s.mean - half,
                        high: s.mean + half,
                    }
                },
            ),
            Measure::Design(k, _) => r.design.get(k).map_or(
                Estimate {
                    value: 0.0,
                    low: 0.0,
                    high: 0.0,
                },
                |e| Estimate {
                    value: e.value,
                    low: e.low,
                    high: e.high,
                },
            ),
        }
    }

    /// The fair share a plot of this measure draws a line at, for a report
    /// of `players` with the given tie rate: seat wins `(1 - ties) / players`,
    /// the first-player advantage 0.
    pub fn fair(&self, players: u8, tie_rate: f64) -> Option<f64> {
        match self {
            Measure::SeatWins(_) => Some((1.0 - tie_rate) / f64::from(players.max(1))),
            Measure::FirstPlayerAdvantage => Some(0.0),
            _ => None,
        }
    }

    /// An amount (a difference, a half-width) of the measure for people:
    /// `2.0pt`, `1.3`.
    pub fn show_amount(&self, v: f64) -> String {
        if self.is_rate() {
            format!("{:.1}pt", 100.0 * v)
        } else {
            format!("{v:.1}")
        }
    }

    /// A value of the measure for people: `53.1%`, `+2.3pt`, `31.4`.
    pub fn show(&self, v: f64) -> String {
        // No "-0.0": a value that rounds to zero is shown as zero.
        let v = if v.abs() < 0.0005 { 0.0 } else { v };
        match self {
            Measure::FirstPlayerAdvantage => format!("{:+.1}pt", 100.0 * v),
            m if m.is_rate() => format!("{:.1}%", 100.0 * v),
            _ => format!("{v:.1}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roots_and_shoots::RootsAndShoots;

    const RS: GameId = GameId::RootsAndShoots;

    #[test]
    fn ranges_lists_and_whole_keys_parse() {
        let ints = |a: &Axis| a.values.iter().map(ToString::to_string).collect::<Vec<_>>();
        let r = Axis::parse(RS, "beads.supply=30..60:10").expect("valid");
        assert_eq!(ints(&r), ["30", "40", "50", "60"]);
        assert_eq!(
            ints(&Axis::parse(RS, "beads.store=4..6").expect("valid")),
            ["4", "5", "6"]
        );
        let b = Axis::parse(RS, "turn.one_nutrient_per_turn").expect("a boolean");
        assert_eq!(b.values, vec![Value::Bool(false), Value::Bool(true)]);
        let e = Axis::parse(RS, "nutrients.value_rolled").expect("an enum");
        assert!(e.values.len() >= 2 && !e.numeric());
        let l = Axis::parse(RS, "growth.buds=d4,d8").expect("a list");
        assert_eq!(
            l.values,
            vec![Value::Word("d4".into()), Value::Word("d8".into())]
        );
        for bad in [
            "beads.supply=60..30",
            "beads.supply=30..60:0",
            "supply=1..2",
            "beads.suply=1..2",
            "beads.supply",
            "growth.buds=1..3",
            "growth.buds=d5",
            "rain.rolls",
            "beads.supply=1..100000:1",
        ] {
            assert!(Axis::parse(RS, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points_are_applied_and_checked_by_the_loader() {
        let axis = Axis::parse(RS, "beads.store=0..300:100").expect("valid");
        let r = apply::<RootsAndShoots>("standard", &[], &[axis.set(&Value::Int(4))])
            .expect("in bounds");
        assert_eq!(r.beads.store, 4);
        let e = apply::<RootsAndShoots>("standard", &[], &[axis.set(&Value::Int(300))])
            .expect_err("more than the supply");
        // The option is named, not a file that does not exist.
        assert!(e.starts_with("--set beads.store=300"), "{e}");
    }

    #[test]
    fn measures_parse_by_name() {
        let p = |t| Measure::parse::<RootsAndShoots>(t, 2);
        assert_eq!(p("rounds"), Ok(Measure::Mean("rounds".into())));
        assert_eq!(
            p("first-player-advantage"),
            Ok(Measure::FirstPlayerAdvantage)
        );
        assert_eq!(p("seat2-wins"), Ok(Measure::SeatWins(2)));
        assert_eq!(p("beads-out"), Ok(Measure::End("beads_out".into())));
        assert!(p("seat3-wins").is_err());
        assert!(p("fun").unwrap_err().contains("first-player-advantage"));
    }
}
