//! `--set key.path=value`: one more layer on top of a variant's `extends`
//! chain, checked like a file (schema, ranges, then the cross-key checks).
//!
//! The overrides are written out as a small TOML document of dotted keys
//! (`beads.supply = 35`), one line each, and go through the same parser and
//! schema check as a file; the diagnostics are then renamed after the option
//! that caused them (`--set beads.supply=abc: error: ...`).

use std::str::FromStr;

use super::diagnostic::Diagnostic;
use super::schema::{self, PathSeg};
use crate::games::GameId;

/// One `--set key.path=value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    key: String,
    raw: String,
    toml: String,
}

impl Override {
    /// Parse `key.path=value`. The value is a TOML value (`35`, `true`,
    /// `"on_spawn"`, `[]`, `["buds", "simple_growth"]`); a bare word
    /// (`on_spawn`), or a list of bare words (`[buds, simple_growth]`), is
    /// taken as the string(s) it spells.
    pub fn parse(text: &str) -> Result<Override, String> {
        let Some((key, raw)) = text.split_once('=') else {
            return Err(format!(
                "--set needs key.path=value, like beads.supply=35 (got `{text}`)"
            ));
        };
        let key = key.trim();
        let raw = raw.trim();
        if key.is_empty() {
            return Err(format!(
                "--set needs key.path=value: there is no key before `=` in `{text}`"
            ));
        }
        if key.split('.').any(|seg| seg.is_empty() || !is_bare(seg)) {
            return Err(format!(
                "`{key}` is not a key path: write the table and the key with a dot, like beads.supply"
            ));
        }
        if raw.is_empty() {
            return Err(format!(
                "--set {key}= has no value: write key.path=value, like beads.supply=35"
            ));
        }
        let toml = normalize_value(raw).ok_or_else(|| {
            format!(
                "the value of --set {key} is not a TOML value: `{raw}` (write numbers as 35, words as on_spawn or \"on_spawn\", lists as [buds, simple_growth])"
            )
        })?;
        Ok(Override {
            key: key.to_owned(),
            raw: raw.to_owned(),
            toml,
        })
    }

    /// The dotted key, `beads.supply`.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value as given on the command line.
    pub fn value(&self) -> &str {
        &self.raw
    }

    /// How diagnostics name this override: `--set beads.supply=35`.
    pub fn display(&self) -> String {
        format!("--set {}={}", self.key, self.raw)
    }

    /// The TOML line of this override: `beads.supply = 35`.
    pub(crate) fn line(&self) -> String {
        format!("{} = {}", self.key, self.toml)
    }
}

impl FromStr for Override {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Override::parse(s)
    }
}

impl std::fmt::Display for Override {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={}", self.key, self.raw)
    }
}

fn is_bare(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn is_toml_value(text: &str) -> bool {
    toml::from_str::<toml::Table>(&format!("v = {text}")).is_ok()
}

/// The value as TOML: as given when it is TOML already, quoted when it is a
/// bare word or a list of bare words.
fn normalize_value(raw: &str) -> Option<String> {
    if raw.contains('\n') {
        return None;
    }
    if is_toml_value(raw) {
        return Some(raw.to_owned());
    }
    // A whole number too large for TOML's 64 bits is still a number: the
    // loader says it is far too large, as it does in a file.
    let digits = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    if digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return Some(raw.to_owned());
    }
    if is_bare(raw) {
        return Some(format!("\"{raw}\""));
    }
    let inner = raw.strip_prefix('[')?.strip_suffix(']')?;
    let items: Vec<String> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            if is_bare(item) && !is_toml_value(item) {
                format!("\"{item}\"")
            } else {
                item.to_owned()
            }
        })
        .collect();
    let list = format!("[{}]", items.join(", "));
    is_toml_value(&list).then_some(list)
}

/// Keep the last override of each key, in command-line order otherwise.
pub(crate) fn dedup(overrides: &[Override]) -> Vec<Override> {
    let mut out: Vec<Override> = Vec::new();
    for o in overrides {
        out.retain(|kept| kept.key != o.key);
        out.push(o.clone());
    }
    out
}

/// The override that a diagnostic at `line` (1-based) of the synthetic
/// document, or about `key`, comes from.
pub(crate) fn owner<'a>(
    overrides: &'a [Override],
    line: Option<usize>,
    key: Option<&str>,
) -> Option<&'a Override> {
    if let Some(o) = line.and_then(|l| overrides.get(l.checked_sub(1)?)) {
        return Some(o);
    }
    let key = key?;
    overrides
        .iter()
        .rev()
        .find(|o| o.key == key || key.starts_with(&format!("{}.", o.key)))
        .or_else(|| {
            overrides
                .iter()
                .rev()
                .find(|o| o.key.starts_with(&format!("{key}.")))
        })
}

/// Rename a diagnostic of the override layer after its option: no line or
/// column (the "file" is the command line), and a help that talks about
/// `--set` rather than about lines of a file.
pub(crate) fn relabel(game: GameId, mut d: Diagnostic, o: Option<&Override>) -> Diagnostic {
    d.file = match o {
        Some(o) => o.display(),
        None => "--set".to_owned(),
    };
    d.line = None;
    d.col = None;
    d.span = None;
    d.message = d.message.replace(" at the top of the file", "");
    let table = d.key_path.clone().filter(|k| {
        !k.contains('.')
            && schema::node_at(game, &[PathSeg::Key(k.clone())])
                .is_some_and(|n| n.get("type").and_then(|t| t.as_str()) == Some("object"))
    });
    if let (Some(table), true) = (table, d.message.contains("must be a table")) {
        let keys = schema::node_at(game, &[PathSeg::Key(table.clone())])
            .map(schema::allowed_keys)
            .unwrap_or_default();
        // A word that is a value of exactly one key of the table: say which.
        let word = o.map(|o| o.value().trim_matches('"').to_owned());
        let fits: Vec<&String> = keys
            .iter()
            .filter(|k| {
                let path = [PathSeg::Key(table.clone()), PathSeg::Key((*k).clone())];
                word.as_ref().is_some_and(|w| {
                    schema::node_at(game, &path)
                        .is_some_and(|n| schema::allowed_words(n).contains(w))
                })
            })
            .collect();
        d.help = Some(match (fits.as_slice(), word) {
            ([key], Some(word)) => format!(
                "`{table}` is a table; \"{word}\" is a value of its key `{key}`: --set {table}.{key}={word}"
            ),
            _ => format!(
                "`{table}` is a table: set one of its keys, like --set {table}.{}=VALUE (its keys: {})",
                keys.first().map_or("KEY", String::as_str),
                keys.join(", ")
            ),
        });
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_toml_or_bare_words() {
        let o = Override::parse("beads.supply=35").expect("ok");
        assert_eq!(
            (o.key(), o.line().as_str()),
            ("beads.supply", "beads.supply = 35")
        );
        let o = Override::parse("nutrients.value_rolled=on_spawn").expect("ok");
        assert_eq!(o.line(), "nutrients.value_rolled = \"on_spawn\"");
        let o = Override::parse("rain.rolls=[]").expect("ok");
        assert_eq!(o.line(), "rain.rolls = []");
        let o = Override::parse("severing.actions=[buds, \"simple_growth\"]").expect("ok");
        assert_eq!(o.line(), "severing.actions = [\"buds\", \"simple_growth\"]");
        let o = Override::parse(" turn.one_nutrient_per_turn = true ").expect("ok");
        assert_eq!(o.line(), "turn.one_nutrient_per_turn = true");
        let o = Override::parse("beads.supply=abc").expect("a word, checked later");
        assert_eq!(o.line(), "beads.supply = \"abc\"");
    }

    #[test]
    fn malformed_overrides_say_what_is_wrong() {
        for (text, part) in [
            ("beads.supply", "needs key.path=value"),
            ("=3", "no key"),
            ("beads..supply=3", "not a key path"),
            ("beads.supply=", "has no value"),
            ("beads.supply=\"open", "not a TOML value"),
        ] {
            let e = Override::parse(text).expect_err(text);
            assert!(e.contains(part), "{text}: {e}");
        }
    }

    #[test]
    fn the_last_of_a_key_wins() {
        let list: Vec<Override> = ["beads.supply=1", "beads.store=2", "beads.supply=3"]
            .iter()
            .map(|s| Override::parse(s).expect("ok"))
            .collect();
        let kept = dedup(&list);
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[1].value(), "3");
    }
}
