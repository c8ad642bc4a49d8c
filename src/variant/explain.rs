//! A rules sheet for any game (`roots explain`, the sheet in `roots view`):
//! the game's own, written in words by its module with the
//! [`Sheet`](crate::games::sheet::Sheet) writer, or else one from the schema
//! (every key with its value and what it means, the keys that differ from
//! the game's standard variant marked as house rules and listed first).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::diff::leaves;
use super::schema::{self, PathSeg};
use crate::games::sheet::TAG;
use crate::games::{AnyRules, Game, GameId};

/// The schema description of a node, if there is one.
fn meaning(node: Option<&Value>) -> String {
    node.map(schema::meaning).unwrap_or_default()
}

fn path_of(key: &str) -> Vec<PathSeg> {
    key.split('.').map(|p| PathSeg::Key(p.to_owned())).collect()
}

/// The rules sheet of `rules` (`roots explain`, `roots view`): the game's
/// own ([`Game::explain`]) when it writes one (all four games do), else
/// one from the schema.
pub fn explain<G: Game>(rules: &G::Rules) -> String {
    // The scripts are the generic layer's to print: the game's sheet sees
    // the changes of its keys only.
    let changes: Vec<_> = super::diff::diff::<G>(&G::standard(), rules)
        .into_iter()
        .filter(|c| !c.key.starts_with("script."))
        .collect();
    let mut out = G::explain(rules, &changes).unwrap_or_else(|| sheet::<G>(rules));
    scripts_section(&super::diff::scripts_of(rules), &mut out);
    out
}

/// Each house rule written as a script, as a section of the sheet: its
/// name, its description, when it runs, and its code.
fn scripts_section(scripts: &[crate::script::Script], o: &mut String) {
    if scripts.is_empty() {
        return;
    }
    if !o.ends_with("\n\n") {
        o.push('\n');
    }
    let _ = writeln!(o, "## House rules written as scripts\n");
    let _ = writeln!(
        o,
        "Rules no key expresses, each run by the engine at a hook point of the game (docs/scripts.md).\n"
    );
    for s in scripts {
        let _ = writeln!(o, "### {}{TAG}\n", s.name);
        if !s.description.is_empty() {
            let _ = writeln!(o, "{}\n", s.description);
        }
        let _ = writeln!(o, "Runs at hook `{}`:\n", s.hook);
        let _ = writeln!(o, "```rhai\n{}\n```\n", s.code.trim_end());
    }
}

/// The rules sheet of loaded rules of any game.
pub fn rules_sheet(rules: &AnyRules) -> String {
    crate::with_game!(rules, G, r => explain::<G>(r))
}

/// The rules sheet of `rules` in Markdown, from the schema: every key with
/// its value and its description.
pub fn sheet<G: Game>(rules: &G::Rules) -> String {
    let game = GameId::of::<G>();
    let standard: BTreeMap<String, toml::Value> = leaves(&G::standard()).into_iter().collect();
    let json = serde_json::to_value(rules).unwrap_or(Value::Null);
    let description = json
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    let mut o = String::new();
    let _ = writeln!(o, "# {}: {}\n", G::TITLE, G::name(rules));
    if !description.is_empty() {
        let _ = writeln!(o, "{description}\n");
    }
    let ours = leaves(rules);
    let house: Vec<&(String, toml::Value)> = ours
        .iter()
        .filter(|(k, v)| standard.get(k).is_some_and(|s| s != v))
        .collect();
    if house.is_empty() {
        let _ = writeln!(o, "These are the standard rules.\n");
    } else {
        let _ = writeln!(o, "## House rules\n");
        for (k, v) in &house {
            let was = standard.get(k).map(ToString::to_string).unwrap_or_default();
            let _ = writeln!(o, "- `{k}` = {v} (standard: {was})");
        }
        o.push('\n');
    }
    let mut table = String::new();
    for (key, value) in &ours {
        let Some((t, k)) = key.rsplit_once('.') else {
            continue;
        };
        if t != table {
            if !table.is_empty() {
                o.push('\n');
            }
            table = t.to_owned();
            let _ = writeln!(o, "## {t}\n");
            let text = meaning(schema::node_at(game, &path_of(t)));
            if !text.is_empty() {
                let _ = writeln!(o, "{text}\n");
            }
        }
        let tag = if standard.get(key).is_some_and(|s| s != value) {
            TAG
        } else {
            ""
        };
        let text = meaning(schema::node_at(game, &path_of(key)));
        let _ = writeln!(o, "- **{k}** = `{value}`{tag}: {text}");
    }
    if !table.is_empty() {
        o.push('\n');
    }
    o
}
