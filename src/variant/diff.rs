//! The rule differences between two variants of one game, key by key, each
//! with what it means at the table in one line (the game's
//! [`Game::meaning`]).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::games::{Game, GameId};
use crate::variant::schema::{self, PathSeg};

/// One rule that differs between two variants.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// The dotted key, `beads.supply`.
    pub key: String,
    /// The value in the first variant, as TOML (`60`, `"on_claim"`).
    pub from: String,
    /// The value in the second variant, as TOML.
    pub to: String,
    /// What the change means in play, in one line.
    pub meaning: String,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} → {}: {}",
            self.key, self.from, self.to, self.meaning
        )
    }
}

/// Every rule key of a variant (`beads.supply`, ...) with its value, in the
/// order of a variant file. `name` and `description` are not rules and are
/// left out, and so is any other key outside a table.
pub fn leaves<R: Serialize>(rules: &R) -> Vec<(String, toml::Value)> {
    let mut out = Vec::new();
    let Ok(value) = serde_json::to_value(rules) else {
        return out;
    };
    // serde_json keeps keys sorted; walk the tables in the order of the
    // rules type (the order of `roots show` and of variant files) using its
    // TOML text, where tables may nest (`[board.shape]`).
    let text = toml::to_string(rules).unwrap_or_default();
    let mut table = String::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_owned();
        } else if let Some((key, _)) = line.split_once(" = ") {
            if table.is_empty() {
                continue;
            }
            let key = key.trim().trim_matches('"').to_owned();
            let mut node = Some(&value);
            for part in table.split('.') {
                node = node.and_then(|n| n.get(part.trim_matches('"')));
            }
            if let Some(v) = node.and_then(|t| t.get(&key))
                && let Ok(v) = toml::Value::try_from(v)
            {
                out.push((format!("{table}.{key}"), v));
            }
        }
    }
    out
}

/// The rule keys of `rules`, in file order.
pub fn keys<R: Serialize>(rules: &R) -> Vec<String> {
    leaves(rules).into_iter().map(|(k, _)| k).collect()
}

/// The rules of `b` that differ from those of `a`, in file order.
pub fn diff<G: Game>(a: &G::Rules, b: &G::Rules) -> Vec<Change> {
    let before: BTreeMap<String, toml::Value> = leaves(a).into_iter().collect();
    let mut out = Vec::new();
    for (key, after) in leaves(b) {
        let Some(prior) = before.get(&key) else {
            continue;
        };
        if *prior == after {
            continue;
        }
        out.push(Change {
            meaning: G::meaning(&key, a, b)
                .or_else(|| from_schema::<G>(&key, &after))
                .unwrap_or_else(|| "a rule this version cannot describe yet".to_owned()),
            key,
            from: prior.to_string(),
            to: after.to_string(),
        });
    }
    out
}

/// What the schema says of `key` set to `value`: the description of the word
/// chosen (an enum value), or else of the key itself, without its closing
/// "Standard: ..." sentence.
fn from_schema<G: Game>(key: &str, value: &toml::Value) -> Option<String> {
    let game = GameId::of::<G>();
    let path: Vec<PathSeg> = key.split('.').map(|p| PathSeg::Key(p.to_owned())).collect();
    let node = schema::node_at(game, &path)?;
    let word = value.as_str();
    let chosen = word.and_then(|w| {
        node.get("oneOf")?
            .as_array()?
            .iter()
            .find(|o| o.get("const").and_then(serde_json::Value::as_str) == Some(w))?
            .get("description")?
            .as_str()
    });
    let text = chosen.or_else(|| node.get("description")?.as_str())?;
    let text = schema::without_standard(text);
    (!text.is_empty()).then_some(match word {
        Some(_) if chosen.is_some() => text,
        _ => format!("now {value}: {text}"),
    })
}
