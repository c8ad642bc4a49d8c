//! The writer every game's rules sheet (`roots explain`, the sheet in
//! `roots view`) is written with: the game's own module says the rules in
//! words from the resolved values; this writer keeps track of which keys a
//! sentence consulted, tags a sentence whose keys differ from the game's own
//! standard variant **(house rule)**, and opens the sheet with the list of
//! differences (with their `roots diff` meanings).
//!
//! A game's tests check, through [`Sheet::consulted`], that every key of its
//! rules is consulted, whatever one key is changed to, so a new key cannot be
//! left out of the sheet.

use std::collections::{BTreeMap, BTreeSet};

use super::Game;
use crate::core::keys::{Change, leaves};

/// The tag after a sentence that depends on a house rule.
pub const TAG: &str = " **(house rule)**";

/// A rules sheet being written, in Markdown.
pub struct Sheet {
    ours: BTreeMap<String, toml::Value>,
    standard: BTreeMap<String, toml::Value>,
    used: BTreeSet<String>,
    out: String,
}

impl Sheet {
    /// A sheet for `rules` of game `G`, opened with its title, description,
    /// how the sheet was made, and `changes`, its differences from `G`'s
    /// standard rules.
    pub fn open<G: Game>(rules: &G::Rules, description: &str, changes: &[Change]) -> Sheet {
        let standard = G::standard();
        let mut sheet = Sheet {
            ours: leaves(rules).into_iter().collect(),
            standard: leaves(&standard).into_iter().collect(),
            used: BTreeSet::new(),
            out: String::new(),
        };
        sheet.line(&format!("# {}: the rules of {}", G::name(rules), G::TITLE));
        sheet.line("");
        if !description.trim().is_empty() {
            sheet.para(&format!("*{}*", description.trim()));
        }
        sheet.para(&format!(
            "{} ({}). This sheet is written by `roots explain` from the variant's resolved rules: \
             it is the game exactly as `roots play` and `roots simulate` play it. \
             Rules that differ from the standard game (`{}`) are marked **(house rule)**.",
            G::TITLE,
            G::BY,
            G::name(&standard)
        ));
        sheet.line("## Differences from the standard rules");
        sheet.line("");
        if changes.is_empty() {
            sheet.para("None: this is the standard game.");
        } else {
            for c in changes {
                sheet.line(&format!(
                    "- `{}`: {} → {}: {}.",
                    c.key,
                    c.from,
                    c.to,
                    c.meaning.trim_end_matches('.')
                ));
            }
            sheet.line("");
        }
        sheet
    }

    /// Consult `key`: the house-rule tag when it differs from the standard.
    pub fn k(&mut self, key: &str) -> &'static str {
        debug_assert!(self.ours.contains_key(key), "no rule key {key}");
        self.used.insert(key.to_owned());
        if self.ours.get(key) == self.standard.get(key) {
            ""
        } else {
            TAG
        }
    }

    /// Consult every key of `keys`: the tag if any of them differs.
    pub fn ks(&mut self, keys: &[&str]) -> &'static str {
        let tags: Vec<&str> = keys.iter().map(|k| self.k(k)).collect();
        if tags.iter().any(|t| !t.is_empty()) {
            TAG
        } else {
            ""
        }
    }

    /// Consult every key that starts with `prefix` (a table such as
    /// `board_2`): the tag if any of them differs.
    pub fn table(&mut self, prefix: &str) -> &'static str {
        let keys: Vec<String> = self
            .ours
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect();
        let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
        self.ks(&refs)
    }

    /// A line, and a line break.
    pub fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A paragraph: the text and an empty line.
    pub fn para(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push_str("\n\n");
    }

    /// A heading of level `level` and an empty line.
    pub fn heading(&mut self, level: usize, text: &str) {
        self.line(&format!("{} {text}", "#".repeat(level)));
        self.line("");
    }

    /// The sheet, written.
    pub fn finish(self) -> String {
        self.out
    }

    /// The sheet and the keys it consulted (for the completeness tests).
    pub fn consulted(self) -> (String, BTreeSet<String>) {
        (self.out, self.used)
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn list_words(items: &[String], and: &str) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {and} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// Tests shared by every game's sheet and meanings.
#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use crate::core::keys::{Change, keys};
    use crate::games::{Game, GameId};
    use crate::variant::schema::{self, PathSeg};

    /// The standard rules of `G` with `key` changed to another value of its
    /// type (not necessarily a valid variant: sheets and diffs do not
    /// validate).
    pub(crate) fn changed<G: Game>(key: &str) -> G::Rules {
        let mut json = serde_json::to_value(G::standard()).expect("rules are JSON");
        let path: Vec<&str> = key.split('.').collect();
        let mut slot = &mut json;
        for p in &path {
            slot = slot.get_mut(*p).unwrap_or_else(|| panic!("{key} exists"));
        }
        let words = schema::node_at(
            GameId::of::<G>(),
            &path
                .iter()
                .map(|p| PathSeg::Key((*p).to_owned()))
                .collect::<Vec<_>>(),
        )
        .map(schema::allowed_words)
        .unwrap_or_default();
        *slot = match slot.clone() {
            Value::Bool(b) => Value::Bool(!b),
            Value::Number(n) => {
                let n = n.as_u64().unwrap_or(0);
                Value::from(if n == 0 { 1 } else { n - 1 })
            }
            Value::String(s) => Value::String(
                words
                    .into_iter()
                    .find(|w| *w != s)
                    .unwrap_or_else(|| format!("{s}x")),
            ),
            Value::Array(mut items) if !items.is_empty() => {
                items.pop();
                Value::Array(items)
            }
            other => panic!("no other value for {key}: {other}"),
        };
        serde_json::from_value(json).expect("still the rules")
    }

    /// A game's sheet writer that also gives the keys it consulted.
    pub(crate) type ExplainWithKeys<G> =
        fn(&<G as Game>::Rules, &[Change]) -> (String, BTreeSet<String>);

    /// Every rule key of `G`.
    pub(crate) fn all_keys<G: Game>() -> Vec<String> {
        keys(&G::standard())
    }

    /// `explain_with_keys` consults every key of `G`'s rules, for the
    /// standard rules and with any one key changed, and a changed key is
    /// tagged and listed.
    pub(crate) fn every_key_consulted<G: Game>(explain_with_keys: ExplainWithKeys<G>) {
        let explain_with_keys = |r: &G::Rules| {
            explain_with_keys(r, &crate::variant::diff::diff::<G>(&G::standard(), r))
        };
        let expected: BTreeSet<String> = all_keys::<G>().into_iter().collect();
        assert!(!expected.is_empty());
        let (plain, used) = explain_with_keys(&G::standard());
        assert_eq!(used, expected, "the sheet must describe every key");
        assert!(plain.contains("None: this is the standard game."));
        let tags = plain.matches(super::TAG).count();
        for key in &expected {
            let rules = changed::<G>(key);
            let (text, used) = explain_with_keys(&rules);
            assert_eq!(&used, &expected, "with {key} changed");
            assert!(
                text.matches(super::TAG).count() > tags,
                "{key} changed but nothing is tagged"
            );
            assert!(text.contains(&format!("- `{key}`")), "{key} not listed");
        }
    }
}
