//! The writer every game's rules sheet (`roots explain`, the sheet in
//! `roots view`) is written with: the game's own module says the rules in
//! words from the resolved values; this writer keeps track of which keys a
//! sentence consulted, tags a sentence whose keys differ from the game's own
//! standard variant **(house rule)**, opens the sheet with the list of
//! differences (with their `roots diff` meanings), marks each statement the
//! game's rules text does not make, or makes differently, with a reading
//! (`[Q1]`: [`Sheet::mark`]) and closes the sheet with the notes of the
//! readings it marked: the text's own words, what the sheet plays, why, and
//! the key that changes it.
//!
//! A game's tests check, through [`Sheet::consulted`], that every key of its
//! rules is consulted, whatever one key is changed to, so a new key cannot be
//! left out of the sheet.

use std::collections::{BTreeMap, BTreeSet};

use super::Game;
use crate::core::keys::{Change, leaves};

/// The tag after a sentence that depends on a house rule.
pub const TAG: &str = " **(house rule)**";

/// One place where a game's rules sheet reads the rules text: a question
/// of the game's page in `docs/`, as the sheet's note says it.
#[derive(Clone, Copy, Debug)]
pub struct Reading {
    /// The question's number on the game's page (`Q1`), the sheet's mark.
    pub id: &'static str,
    /// The rules text's own words, quoted; empty when the text says nothing.
    pub text: &'static str,
    /// What the sheet plays (the standard variant's reading).
    pub ours: &'static str,
    /// Why, in one line.
    pub why: &'static str,
    /// The keys that change it; none when no key does.
    pub keys: &'static [&'static str],
    /// The shipped variant that plays the text as written, if one does.
    pub literal: Option<&'static str>,
}

/// A rules sheet being written, in Markdown.
pub struct Sheet {
    ours: BTreeMap<String, toml::Value>,
    standard: BTreeMap<String, toml::Value>,
    used: BTreeSet<String>,
    out: String,
    readings: &'static [Reading],
    rules_text: &'static str,
    marked: BTreeSet<&'static str>,
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
            readings: G::readings(),
            rules_text: G::RULES_TEXT,
            marked: BTreeSet::new(),
        };
        sheet.line(&format!("# {}: the rules of {}", G::name(rules), G::TITLE));
        sheet.line("");
        if !description.trim().is_empty() {
            sheet.para(&format!("*{}*", description.trim()));
        }
        sheet.para(&format!(
            "{} ({}). This sheet is written by `roots explain` from the variant's resolved rules: \
             it is the game exactly as `roots play` and `roots simulate` play it. \
             Rules that differ from the standard game (`{}`) are marked **(house rule)**.{}",
            G::TITLE,
            G::BY,
            G::name(&standard),
            G::readings().first().map_or_else(String::new, |r| format!(
                " Where the sheet reads the rules text (says what the text does not, or says it \
                 otherwise), the sentence carries the number of that reading in brackets ({}, \
                 ...); the notes at the end give the text's own words, our reading, why, and \
                 the key that changes it.",
                r.id
            ))
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

    /// How many may play, as every game's sheet says it: `2 to 6 players`
    /// ([`players_words`]), the mark of the game's `reading` of it when
    /// given, and the house-rule tag of `players.min` and `players.max`.
    pub fn players(&mut self, players: &crate::games::Players, reading: Option<&str>) -> String {
        let tag = self.ks(&["players.min", "players.max"]);
        let mark = reading.map(|id| self.mark(id)).unwrap_or_default();
        format!("{}{mark}{tag}", players_words(players.min, players.max))
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

    /// Mark a statement as the reading `id` of the game's list: ` [Q1]`,
    /// to put after the sentence (before its house-rule tag); its note is
    /// written at the end of the sheet.
    pub fn mark(&mut self, id: &str) -> String {
        match self.readings.iter().find(|r| r.id == id) {
            Some(r) => {
                self.marked.insert(r.id);
                format!(" [{id}]")
            }
            None => {
                debug_assert!(false, "no reading {id} in the game's list");
                String::new()
            }
        }
    }

    /// The notes of the readings marked: one list item a reading, in the
    /// order of the game's list.
    fn notes(&mut self) {
        if self.marked.is_empty() {
            return;
        }
        self.heading(2, "Readings of the rules text");
        self.para(&format!(
            "The rules text{} leaves these points open or says them otherwise. Each note is marked where the sheet states it: the text's words, what this sheet plays, why, and the key that changes it.",
            if self.rules_text.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.rules_text)
            }
        ));
        let readings = self.readings;
        let marked = std::mem::take(&mut self.marked);
        for r in readings.iter().filter(|r| marked.contains(r.id)) {
            let text = if r.text.is_empty() {
                "The text does not say.".to_owned()
            } else {
                let stop = if r.text.ends_with(['.', '!', '?', ')']) {
                    ""
                } else {
                    "."
                };
                format!("The text: \"{}\"{stop}", r.text)
            };
            let keys = if r.keys.is_empty() {
                "No key changes this.".to_owned()
            } else {
                let names: Vec<String> = r.keys.iter().map(|k| format!("`{k}`")).collect();
                let changed = r
                    .keys
                    .iter()
                    .any(|k| self.ours.get(*k) != self.standard.get(*k));
                format!(
                    "{}: {}{}.",
                    if names.len() == 1 { "Key" } else { "Keys" },
                    list_words(&names, "and"),
                    if changed {
                        " (changed in this variant: see the house rules)"
                    } else {
                        ""
                    }
                )
            };
            let literal = r.literal.map_or_else(String::new, |v| {
                format!(" The variant `{v}` plays the text as written.")
            });
            self.line(&format!(
                "- **[{}]** {text} We read: {} Why: {} {keys}{literal}",
                r.id,
                r.ours.trim(),
                r.why.trim()
            ));
        }
        self.line("");
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

    /// The sheet, written, with the notes of its readings.
    pub fn finish(self) -> String {
        self.consulted().0
    }

    /// The sheet (with the notes of its readings) and the keys it
    /// consulted (for the completeness tests).
    pub fn consulted(mut self) -> (String, BTreeSet<String>) {
        self.notes();
        (self.out, self.used)
    }
}

/// The meaning of a change of the common keys `players.min` and
/// `players.max` (`roots diff`), given the new bounds.
pub fn players_meaning(key: &str, min: u8, max: u8) -> Option<String> {
    match key {
        "players.min" => Some(format!(
            "the variant can be played with as few as {min} players"
        )),
        "players.max" => Some(format!(
            "the variant can be played with up to {max} players"
        )),
        _ => None,
    }
}

/// The meaning of a switch key (`true` or `false`) at its new value: `on`
/// when it is set, `off` when not.
pub fn switch_meaning(set: bool, on: &str, off: &str) -> String {
    if set { on } else { off }.to_owned()
}

/// How many players, in words: `2 to 6 players`, `exactly 2 players`.
pub fn players_words(min: u8, max: u8) -> String {
    if min == max {
        format!("exactly {min} players")
    } else {
        format!("{min} to {max} players")
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

/// `sheet_tests!(Game)` at the end of a game's `explain.rs`: the test that
/// its `explain_with_keys` consults every key, whatever one key is changed
/// to, and tags and lists a changed key.
#[macro_export]
macro_rules! sheet_tests {
    ($game:ident) => {
        #[cfg(test)]
        mod sheet_tests {
            #[test]
            fn every_key_is_consulted_tagged_and_listed() {
                $crate::games::sheet::tests::every_key_consulted::<super::$game>(
                    super::explain_with_keys,
                );
            }
        }
    };
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
