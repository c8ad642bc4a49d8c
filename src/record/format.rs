//! The record format, version 1: JSON Lines, one header then one event a line.
//! See `docs/records.md` for the full description.

use serde_json::Value;

use std::sync::Arc;

use crate::core::dice::Die;
use crate::core::protocol::Seat;
use crate::games::{AnyRules, Game, GameId};

/// The `format` tag of a record header.
pub const FORMAT_TAG: &str = "roots-record";
/// The record version this crate writes and reads.
pub const VERSION: u64 = 1;

/// Where the dice of a game come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceMode {
    /// The program rolls from the seed.
    Auto,
    /// Physical dice: faces are typed.
    Manual,
}

impl DiceMode {
    pub const fn key(self) -> &'static str {
        match self {
            DiceMode::Auto => "auto",
            DiceMode::Manual => "manual",
        }
    }

    pub fn parse(s: &str) -> Option<DiceMode> {
        match s {
            "auto" => Some(DiceMode::Auto),
            "manual" => Some(DiceMode::Manual),
            _ => None,
        }
    }
}

/// The first line of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The resolved rules the game is played by, of whichever game it is
    /// (the header's `game` key; Roots and Shoots in records written before
    /// the key existed).
    pub variant: AnyRules,
    /// The seed of the dice and the bots, when there is one.
    pub seed: Option<u64>,
    /// Which game of the seed's run the dice and bots are drawn for
    /// (`SeededDice::for_game(seed, seed_game)`): 0 for `roots play`, the
    /// game's index for a game recorded by `roots simulate --record-game`.
    /// Written only when not 0.
    pub seed_game: u64,
    pub dice: DiceMode,
    /// Who plays each seat, seat 0 first: `human`, `random`, ...
    pub players: Vec<String>,
    /// When the game started, RFC 3339 UTC.
    pub created: String,
}

/// One line after the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A chance outcome; `die` is optional in the file and checked on replay.
    Roll { face: u8, die: Option<Die> },
    /// A card turned over, by its name in the game's words (`"stone"`).
    Draw { card: String },
    /// A decision: the action's text form and the seat (from 0) that made it.
    Act { action: String, seat: Seat },
    /// The referee took back the last roll or decision still in force (a
    /// mistyped face at the table): `{"undo":1}`. The undone event stays in
    /// the record, so the record is still the story of the game as typed.
    Undo,
    /// The seat (from 0) whose external player forfeited at its decision,
    /// and why: `{"forfeit":0,"reason":"..."}`. The game ends there: the
    /// seat loses, the others win (or rank by score, with more than two).
    Forfeit { seat: Seat, reason: String },
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The canonical JSON of the rules: compact, object keys sorted.
pub fn canonical_json(rules: &AnyRules) -> String {
    // `serde_json::Value` keeps object keys in a sorted map (no
    // `preserve_order` feature), so this is canonical.
    rules.to_json().to_string()
}

/// The `variant_hash` of a header: FNV-1a 64 of the canonical JSON, as 16
/// lowercase hex digits.
pub fn variant_hash(rules: &AnyRules) -> String {
    format!("{:016x}", fnv1a64(canonical_json(rules).as_bytes()))
}

impl Header {
    /// The game the record is of.
    pub fn game(&self) -> GameId {
        self.variant.game()
    }

    /// The rules, as those of game `G`; an error names both games when the
    /// record is of another one.
    pub fn rules<G: Game>(&self) -> Result<Arc<G::Rules>, String> {
        let json = self.variant.to_json();
        if self.game().key() != G::ID {
            return Err(format!(
                "expected a record of {}, found one of {}",
                G::TITLE,
                self.game().title()
            ));
        }
        serde_json::from_value(json)
            .map(Arc::new)
            .map_err(|e| format!("expected the resolved rules in \"variant\", found {e}"))
    }

    /// The header line, without the newline.
    pub fn to_line(&self) -> String {
        // Keys in the documented order, `format` and `version` first, so
        // that `head -c 50` of a record says what it is.
        let variant = self.variant.to_json().to_string();
        format!(
            "{{\"format\":\"{FORMAT_TAG}\",\"version\":{VERSION},\"game\":\"{}\",\"variant\":{variant},\"variant_hash\":\"{}\",\"seed\":{},{}\"dice\":\"{}\",\"players\":{},\"created\":{}}}",
            self.game(),
            variant_hash(&self.variant),
            self.seed
                .map(|s| s.to_string())
                .unwrap_or_else(|| "null".into()),
            if self.seed_game == 0 {
                String::new()
            } else {
                format!("\"seed_game\":{},", self.seed_game)
            },
            self.dice.key(),
            Value::from(self.players.clone()),
            Value::String(self.created.clone()),
        )
    }

    /// Read a header line; `Err` is the message after `line 1: `.
    pub fn parse(line: &str) -> Result<Header, String> {
        let v: Value = serde_json::from_str(line)
            .map_err(|e| format!("expected a JSON header object, found invalid JSON ({e})"))?;
        let Value::Object(m) = v else {
            return Err(format!(
                "expected a JSON header object, found {}",
                kind_of(&v)
            ));
        };
        match m.get("format") {
            Some(Value::String(s)) if s == FORMAT_TAG => {}
            Some(other) => {
                return Err(format!(
                    "expected \"format\": \"{FORMAT_TAG}\", found {}",
                    short(other)
                ));
            }
            None => {
                return Err(format!(
                    "expected a record header with \"format\": \"{FORMAT_TAG}\", found no \"format\" key"
                ));
            }
        }
        match m.get("version") {
            Some(Value::Number(n)) if n.as_u64() == Some(VERSION) => {}
            Some(other) => {
                return Err(format!(
                    "expected record version {VERSION}, found version {} (this build reads version {VERSION} only)",
                    short(other)
                ));
            }
            None => return Err("expected a \"version\", found none".to_string()),
        }
        let allowed = [
            "format",
            "version",
            "game",
            "variant",
            "variant_hash",
            "seed",
            "seed_game",
            "dice",
            "players",
            "created",
        ];
        if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(format!(
                "expected only the keys {}, found \"{k}\"",
                allowed.join(", ")
            ));
        }
        let game = match m.get("game") {
            // Records written before there were several games.
            None => GameId::DEFAULT,
            Some(Value::String(s)) => GameId::parse(s).ok_or_else(|| {
                format!(
                    "expected \"game\" to name a game of this toolkit ({}), found \"{s}\"",
                    GameId::ALL
                        .iter()
                        .map(|g| format!("\"{g}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?,
            Some(other) => {
                return Err(format!(
                    "expected \"game\" as a string, found {}",
                    short(other)
                ));
            }
        };
        let variant_value = m
            .get("variant")
            .ok_or("expected a \"variant\" (the resolved rules), found none")?;
        let variant = AnyRules::from_json(game, variant_value.clone())
            .map_err(|e| format!("expected the resolved rules in \"variant\", found {e}"))?;
        let hash = match m.get("variant_hash") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(format!(
                    "expected \"variant_hash\" as a hex string, found {}",
                    short(other)
                ));
            }
            None => return Err("expected a \"variant_hash\", found none".to_string()),
        };
        let computed = variant_hash(&variant);
        if !hash.eq_ignore_ascii_case(&computed) {
            return Err(format!(
                "expected variant_hash \"{computed}\" (the hash of the rules in this header), found \"{hash}\": the rules or the hash were changed"
            ));
        }
        let seed = match m.get("seed") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64(),
            Some(other) => {
                return Err(format!(
                    "expected \"seed\" as a whole number from 0 to 2^64-1 or null, found {}",
                    short(other)
                ));
            }
        };
        let seed_game = match m.get("seed_game") {
            None => 0,
            Some(Value::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or(0),
            Some(other) => {
                return Err(format!(
                    "expected \"seed_game\" as a whole number from 0 to 2^64-1, found {}",
                    short(other)
                ));
            }
        };
        let dice = match m.get("dice") {
            Some(Value::String(s)) => DiceMode::parse(s).ok_or_else(|| {
                format!("expected \"dice\": \"auto\" or \"manual\", found \"{s}\"")
            })?,
            Some(other) => {
                return Err(format!(
                    "expected \"dice\": \"auto\" or \"manual\", found {}",
                    short(other)
                ));
            }
            None => return Err("expected \"dice\", found none".to_string()),
        };
        let players = match m.get("players") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|p| match p {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(format!(
                        "expected \"players\" as a list of names, found {}",
                        short(other)
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Some(other) => {
                return Err(format!(
                    "expected \"players\" as a list of names, found {}",
                    short(other)
                ));
            }
            None => return Err("expected \"players\", found none".to_string()),
        };
        let created = match m.get("created") {
            Some(Value::String(s)) => s.clone(),
            None => String::new(),
            Some(other) => {
                return Err(format!(
                    "expected \"created\" as a string, found {}",
                    short(other)
                ));
            }
        };
        Ok(Header {
            variant,
            seed,
            seed_game,
            dice,
            players,
            created,
        })
    }
}

impl Event {
    /// The event line, without the newline.
    pub fn to_line(&self) -> String {
        // Keys in a fixed, readable order: `roll` before `die`, `act` before
        // `seat` (a sorted map would put them the other way for `act`).
        match self {
            Event::Roll { face, die: Some(d) } => format!("{{\"roll\":{face},\"die\":\"{d}\"}}"),
            Event::Roll { face, die: None } => format!("{{\"roll\":{face}}}"),
            Event::Draw { card } => format!("{{\"draw\":{}}}", Value::String(card.clone())),
            Event::Act { action, seat } => format!(
                "{{\"act\":{},\"seat\":{seat}}}",
                Value::String(action.clone())
            ),
            Event::Undo => "{\"undo\":1}".to_string(),
            Event::Forfeit { seat, reason } => format!(
                "{{\"forfeit\":{seat},\"reason\":{}}}",
                Value::String(reason.clone())
            ),
        }
    }

    /// Read an event line; `Err` is the message after `line N: `.
    pub fn parse(line: &str) -> Result<Event, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| {
            format!(
                "expected an event ({{\"roll\":..}} or {{\"act\":..}}), found invalid JSON ({e})"
            )
        })?;
        let Value::Object(m) = v else {
            return Err(format!(
                "expected an event ({{\"roll\":..}} or {{\"act\":..}}), found {}",
                kind_of(&v)
            ));
        };
        if let Some(face) = m.get("roll") {
            if let Some(k) = m.keys().find(|k| *k != "roll" && *k != "die") {
                return Err(format!(
                    "expected a roll with only \"roll\" and \"die\", found \"{k}\""
                ));
            }
            let face = match face.as_u64() {
                Some(f) => u8::try_from(f).map_err(|_| {
                    format!("expected a die face (1 to 20 on the largest die, the d20), found {f}")
                })?,
                None => {
                    return Err(format!(
                        "expected a die face (a whole number), found {}",
                        short(face)
                    ));
                }
            };
            let die = match m.get("die") {
                None => None,
                Some(Value::String(s)) => Some(Die::parse(s).ok_or_else(|| {
                    format!("expected a die (d4, d6, d8, d10, d12 or d20), found \"{s}\"")
                })?),
                Some(other) => {
                    return Err(format!(
                        "expected a die (d4, d6, d8, d10, d12 or d20), found {}",
                        short(other)
                    ));
                }
            };
            return Ok(Event::Roll { face, die });
        }
        if let Some(n) = m.get("undo") {
            if let Some(k) = m.keys().find(|k| *k != "undo") {
                return Err(format!(
                    "expected an undo with only \"undo\", found \"{k}\""
                ));
            }
            if n.as_u64() != Some(1) {
                return Err(format!(
                    "expected \"undo\": 1 (one event taken back), found {}",
                    short(n)
                ));
            }
            return Ok(Event::Undo);
        }
        if let Some(seat) = m.get("forfeit") {
            if let Some(k) = m.keys().find(|k| *k != "forfeit" && *k != "reason") {
                return Err(format!(
                    "expected a forfeit with only \"forfeit\" and \"reason\", found \"{k}\""
                ));
            }
            let seat = seat
                .as_u64()
                .and_then(|s| u8::try_from(s).ok())
                .ok_or_else(|| format!("expected a seat number (from 0), found {}", short(seat)))?;
            let reason = match m.get("reason") {
                Some(Value::String(r)) => r.clone(),
                None => String::new(),
                Some(other) => {
                    return Err(format!(
                        "expected the reason of a forfeit as text, found {}",
                        short(other)
                    ));
                }
            };
            return Ok(Event::Forfeit { seat, reason });
        }
        if let Some(card) = m.get("draw") {
            if let Some(k) = m.keys().find(|k| *k != "draw") {
                return Err(format!("expected a draw with only \"draw\", found \"{k}\""));
            }
            let Value::String(card) = card else {
                return Err(format!(
                    "expected the card drawn as text (e.g. \"stone\"), found {}",
                    short(card)
                ));
            };
            return Ok(Event::Draw { card: card.clone() });
        }
        if let Some(act) = m.get("act") {
            if let Some(k) = m.keys().find(|k| *k != "act" && *k != "seat") {
                return Err(format!(
                    "expected a decision with only \"act\" and \"seat\", found \"{k}\""
                ));
            }
            let Value::String(action) = act else {
                return Err(format!(
                    "expected an action as text (e.g. \"place 3,4\"), found {}",
                    short(act)
                ));
            };
            let seat = match m.get("seat") {
                Some(s) => match s.as_u64().and_then(|s| u8::try_from(s).ok()) {
                    Some(s) => s,
                    None => {
                        return Err(format!(
                            "expected a seat number (from 0), found {}",
                            short(s)
                        ));
                    }
                },
                None => return Err("expected a \"seat\" with the decision, found none".into()),
            };
            return Ok(Event::Act {
                action: action.clone(),
                seat,
            });
        }
        Err(format!(
            "expected an event ({{\"roll\":..}} or {{\"act\":..}}), found an object with keys {}",
            if m.is_empty() {
                "none".to_string()
            } else {
                m.keys()
                    .map(|k| format!("\"{k}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ))
    }

    /// How the event reads in messages: `a roll of 5`, `the decision "place 3,4" of seat 2`.
    pub fn describe(&self) -> String {
        match self {
            Event::Roll { face, die: Some(d) } => format!("a roll of {face} on the {d}"),
            Event::Roll { face, die: None } => format!("a roll of {face}"),
            Event::Draw { card } => format!("the card \"{card}\" drawn"),
            Event::Act { action, seat } => {
                format!("the decision \"{action}\" of seat {}", u16::from(*seat) + 1)
            }
            Event::Undo => "an undo".to_string(),
            Event::Forfeit { seat, .. } => {
                format!("the forfeit of seat {}", u16::from(*seat) + 1)
            }
        }
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A value in a message, cut short.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        let cut: String = s.chars().take(37).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn events_round_trip() {
        for e in [
            Event::Roll {
                face: 5,
                die: Some(Die::D8),
            },
            Event::Roll { face: 1, die: None },
            Event::Draw {
                card: "stone".into(),
            },
            Event::Act {
                action: "place 3,4".into(),
                seat: 1,
            },
        ] {
            assert_eq!(Event::parse(&e.to_line()), Ok(e));
        }
    }

    #[test]
    fn header_round_trip() {
        let h = Header {
            variant:
                <crate::games::roots_and_shoots::RootsAndShoots as crate::games::Registered>::wrap(
                    Arc::new(crate::games::roots_and_shoots::Rules::standard()),
                ),
            seed: Some(u64::MAX),
            seed_game: 0,
            dice: DiceMode::Auto,
            players: vec!["human".into(), "random".into()],
            created: "2025-01-01T00:00:00Z".into(),
        };
        assert_eq!(Header::parse(&h.to_line()), Ok(h));
    }
}

/// The current time as RFC 3339 UTC (`2025-03-01T14:05:09Z`), and as
/// `20250301-140509` for file names.
pub fn utc_now() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, mo, d, h, mi, s) = civil(secs);
    (
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"),
        format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}"),
    )
}

/// Seconds since the Unix epoch to a UTC date and time (Howard Hinnant's
/// `civil_from_days`).
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        m,
        d,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

#[cfg(test)]
mod time_tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(super::civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(super::civil(1_700_000_000), (2023, 11, 14, 22, 13, 20));
    }
}
