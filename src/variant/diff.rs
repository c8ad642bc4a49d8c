//! The rule differences between two variants of one game, key by key, each
//! with what it means at the table in one line (the game's
//! [`Game::meaning`]).

use std::collections::BTreeMap;

use crate::games::{Game, GameId};
use crate::script::Script;
use crate::variant::schema::{self, PathSeg};

pub use crate::core::keys::{Change, keys, leaves};

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
    out.extend(script_changes(&scripts_of(a), &scripts_of(b)));
    out
}

/// The house rules written as scripts of any game's rules (the key
/// `script` of their JSON form), in order.
pub fn scripts_of<R: serde::Serialize>(rules: &R) -> Vec<Script> {
    serde_json::to_value(rules)
        .ok()
        .and_then(|v| serde_json::from_value(v.get("script")?.clone()).ok())
        .unwrap_or_default()
}

/// The scripts added, removed or changed from `a` to `b`, each a change of
/// the key `script.NAME`.
pub fn script_changes(a: &[Script], b: &[Script]) -> Vec<Change> {
    let mut out = Vec::new();
    let summary = |s: &Script| format!("a script at hook `{}`", s.hook);
    let about = |s: &Script| {
        if s.description.is_empty() {
            String::new()
        } else {
            format!(": {}", s.description)
        }
    };
    for s in a {
        if !b.iter().any(|t| t.name == s.name) {
            out.push(Change {
                key: format!("script.{}", s.name),
                from: summary(s),
                to: "none".to_owned(),
                meaning: format!("house rule `{}` removed{}", s.name, about(s)),
            });
        }
    }
    for t in b {
        match a.iter().find(|s| s.name == t.name) {
            None => out.push(Change {
                key: format!("script.{}", t.name),
                from: "none".to_owned(),
                to: summary(t),
                meaning: format!("house rule `{}` added{}", t.name, about(t)),
            }),
            Some(s) if s != t => {
                let mut what = Vec::new();
                if s.hook != t.hook {
                    what.push("its hook");
                }
                if s.code != t.code {
                    what.push("its code");
                }
                if s.description != t.description {
                    what.push("its description");
                }
                out.push(Change {
                    key: format!("script.{}", t.name),
                    from: summary(s),
                    to: summary(t),
                    meaning: format!(
                        "house rule `{}` changed ({}){}",
                        t.name,
                        what.join(", "),
                        about(t)
                    ),
                });
            }
            Some(_) => {}
        }
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

#[cfg(test)]
mod tests {
    use crate::games::sheet::tests::{all_keys, changed};
    use crate::games::{Game, GameId};

    /// Every key of `G`: changed alone, it is the one difference, and the
    /// game says what it means (never the schema's description).
    fn every_key_has_a_meaning<G: Game>() -> Vec<String> {
        let mut missing = Vec::new();
        let standard = G::standard();
        for key in all_keys::<G>() {
            let other = changed::<G>(&key);
            let changes = super::diff::<G>(&standard, &other);
            assert_eq!(changes.len(), 1, "{}: {key}: {changes:?}", G::ID);
            assert_eq!(changes[0].key, key);
            match G::meaning(&key, &standard, &other) {
                Some(m) if !m.trim().is_empty() => {}
                _ => missing.push(format!("{}: {key}", G::ID)),
            }
        }
        missing
    }

    #[test]
    fn no_key_of_any_game_falls_back_to_its_schema_description() {
        let mut missing = Vec::new();
        for &id in GameId::ALL {
            missing.extend(crate::with_game_id!(id, G => every_key_has_a_meaning::<G>()));
        }
        assert!(
            missing.is_empty(),
            "keys without a meaning:\n{}",
            missing.join("\n")
        );
    }
}
