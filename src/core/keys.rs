//! The rule keys of resolved rules, read from their serialized form
//! (`beads.supply`, in the order of a variant file), and a change of one
//! between two variants: the vocabulary of rules sheets and `roots diff`,
//! below the games so that a game's own sheet can list its differences.

use serde::Serialize;

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
