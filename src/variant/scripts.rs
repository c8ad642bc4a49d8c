//! The `[[script]]` tables of an `extends` chain: merged by name (a child
//! adds a rule, changes the keys it sets of an inherited one, or turns one
//! off with `enabled = false`), then each script checked for its game
//! (hook, syntax, unknown names), every problem placed at its line and
//! column in the file that wrote it: a problem inside a script's code is
//! placed at the character of the TOML file the script's own line and
//! column fall on.

use serde_json::Value;

use super::diagnostic::{Code, Diagnostic};
use super::load::Layer;
use crate::script::{self, Api, Script};

/// Where a merged script's keys were written: (layer, item) of its name,
/// hook and code.
#[derive(Clone, Copy, Debug)]
struct Origin {
    name: (usize, usize),
    hook: (usize, usize),
    code: (usize, usize),
}

/// A `[[script]]` item as JSON, field by field.
fn field<'a>(item: &'a Value, key: &str) -> Option<&'a Value> {
    item.as_object()?.get(key)
}

/// The scripts of `chain` (loaded file first), merged, and the problems
/// of the merge and of each script for a game of `api` (`None`: the game
/// has no hooks).
pub(crate) fn merge(chain: &[Layer], api: Option<&Api>) -> (Vec<Script>, Vec<Diagnostic>) {
    let mut merged: Vec<(Script, Origin)> = Vec::new();
    let mut errors = Vec::new();
    for (index, layer) in chain.iter().enumerate().rev() {
        let Some(Value::Array(items)) = field(&layer.json, "script") else {
            continue;
        };
        let mut seen: Vec<&str> = Vec::new();
        for (k, item) in items.iter().enumerate() {
            let at = |key: &str| -> Diagnostic {
                let d =
                    Diagnostic::error(Code::Script, &layer.file, "").key(format!("script[{k}]"));
                match layer
                    .place(&format!("script[{k}].{key}"))
                    .or_else(|| layer.place(&format!("script[{k}]")))
                {
                    Some(p) => d.at(&layer.text, p.value.clone()),
                    None => d,
                }
            };
            let Some(name) = field(item, "name").and_then(Value::as_str) else {
                continue;
            };
            if seen.contains(&name) {
                let mut d = at("name");
                d.message = format!("house rule `{name}` is written twice in this file");
                errors.push(d.help("give each `[[script]]` its own name"));
                continue;
            }
            seen.push(name);
            let text = |key: &str| field(item, key).and_then(Value::as_str).map(str::to_owned);
            let enabled = field(item, "enabled").and_then(Value::as_bool) != Some(false);
            let existing = merged.iter().position(|(s, _)| s.name == name);
            match (existing, enabled) {
                (Some(i), false) => {
                    merged.remove(i);
                }
                (None, false) => {
                    let names: Vec<&str> = merged.iter().map(|(s, _)| s.name.as_str()).collect();
                    let mut d = at("name");
                    d.message = format!("there is no inherited house rule `{name}` to turn off");
                    let help = crate::core::did_you_mean(name, &names)
                        .map(|m| format!("did you mean `{m}`?"))
                        .unwrap_or_else(|| {
                            if names.is_empty() {
                                "the parent variants have no house rules written as scripts"
                                    .to_owned()
                            } else {
                                format!("the inherited ones are {}", names.join(", "))
                            }
                        });
                    errors.push(d.help(help));
                }
                (Some(i), true) => {
                    let (s, origin) = &mut merged[i];
                    if let Some(d) = text("description") {
                        s.description = d;
                    }
                    if let Some(h) = text("hook") {
                        s.hook = h;
                        origin.hook = (index, k);
                    }
                    if let Some(c) = text("code") {
                        s.code = c;
                        origin.code = (index, k);
                    }
                }
                (None, true) => {
                    let (hook, code) = (text("hook"), text("code"));
                    let missing: Vec<&str> = [("hook", &hook), ("code", &code)]
                        .iter()
                        .filter(|(_, v)| v.is_none())
                        .map(|(k, _)| *k)
                        .collect();
                    if !missing.is_empty() {
                        let mut d = at("name");
                        d.message = format!(
                            "the new house rule `{name}` needs {}",
                            missing
                                .iter()
                                .map(|k| format!("`{k}`"))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        );
                        errors.push(d.help(
                            "a rule not inherited through `extends` says when it runs (`hook`) and what it does (`code`)",
                        ));
                        continue;
                    }
                    merged.push((
                        Script {
                            name: name.to_owned(),
                            description: text("description").unwrap_or_default(),
                            hook: hook.unwrap_or_default(),
                            code: code.unwrap_or_default(),
                        },
                        Origin {
                            name: (index, k),
                            hook: (index, k),
                            code: (index, k),
                        },
                    ));
                }
            }
        }
    }
    if merged.len() > script::MAX_SCRIPTS {
        let (_, o) = &merged[script::MAX_SCRIPTS];
        errors.push(place(
            chain,
            o.name,
            "name",
            None,
            Diagnostic::error(
                Code::Script,
                "",
                format!(
                    "{} house rules; a variant may have at most {}",
                    merged.len(),
                    script::MAX_SCRIPTS
                ),
            ),
        ));
    }
    if !merged.is_empty() && errors.is_empty() {
        match api {
            None => {
                let (_, o) = &merged[0];
                errors.push(place(
                    chain,
                    o.name,
                    "name",
                    None,
                    Diagnostic::error(
                        Code::Script,
                        "",
                        "this game has no hook points for house rules written as scripts yet",
                    )
                    .help("see docs/scripts.md for the games that have them"),
                ));
            }
            Some(api) => {
                let engine = script::engine(api);
                for (s, o) in &merged {
                    for p in script::check(api, &engine, s) {
                        let from = if p.key == "hook" { o.hook } else { o.code };
                        let mut d = Diagnostic::error(
                            Code::Script,
                            "",
                            format!("house rule `{}`: {}", s.name, p.message),
                        );
                        if let Some(h) = p.help {
                            d = d.help(h);
                        }
                        errors.push(place(chain, from, p.key, p.spot, d));
                    }
                }
            }
        }
    }
    let scripts = merged.into_iter().map(|(s, _)| s).collect();
    (scripts, errors)
}

/// `d` placed at key `key` of item `item` of layer `layer`: at the
/// script's own line and column inside a `code` string when `spot` says.
fn place(
    chain: &[Layer],
    (layer, item): (usize, usize),
    key: &str,
    spot: Option<script::Spot>,
    mut d: Diagnostic,
) -> Diagnostic {
    let layer = &chain[layer];
    d.file = layer.file.clone();
    let path = format!("script[{item}].{key}");
    d = d.key(path.clone());
    if layer.dir.is_none() && chain.len() > 1 {
        // A built-in parent: say so, as for keys.
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}; the rule comes from {}", layer.file),
            None => format!("the rule comes from {}", layer.file),
        });
    }
    let Some(p) = layer.place(&path) else {
        return d;
    };
    match spot {
        Some(spot) => {
            let start = code_offset(&layer.text, p.value.clone(), spot.line, spot.col);
            let mut end = start;
            for ch in layer.text[start..p.value.end].chars().take(spot.len.max(1)) {
                if ch == '\n' {
                    break;
                }
                end += ch.len_utf8();
            }
            d.at(&layer.text, start..end.max(start + 1).min(p.value.end))
        }
        None => d.at(&layer.text, p.value.clone()),
    }
}

/// The byte offset in `text` of the script's line `line`, column `col`
/// (1-based, in characters of the decoded string), the script being the
/// TOML string at `span`: past the opening quotes (and the newline right
/// after `"""` or `'''`, which TOML drops), with the escapes of a basic
/// string decoded as TOML reads them.
pub(crate) fn code_offset(
    text: &str,
    span: std::ops::Range<usize>,
    line: usize,
    col: usize,
) -> usize {
    let raw = &text[span.clone()];
    let (quote, literal) = if raw.starts_with("\"\"\"") {
        (3, false)
    } else if raw.starts_with("'''") {
        (3, true)
    } else {
        (1, raw.starts_with('\''))
    };
    let end = span.end.saturating_sub(quote).max(span.start);
    let mut i = (span.start + quote).min(end);
    if quote == 3 {
        if text[i..].starts_with("\r\n") {
            i += 2;
        } else if text[i..].starts_with('\n') {
            i += 1;
        }
    }
    let (mut l, mut c) = (1usize, 1usize);
    while i < end {
        if l > line || (l == line && c >= col) {
            return i;
        }
        let Some(ch) = text[i..].chars().next() else {
            break;
        };
        if !literal && ch == '\\' {
            let next = text[i + 1..].chars().next();
            match next {
                // A line-ending backslash: the newline and the whitespace
                // after it are dropped.
                Some(w) if quote == 3 && (w == '\n' || w == '\r' || w == ' ' || w == '\t') => {
                    i += 1;
                    while i < end {
                        let w = text[i..].chars().next().unwrap_or('x');
                        if !w.is_whitespace() {
                            break;
                        }
                        i += w.len_utf8();
                    }
                }
                Some('n') => {
                    i += 2;
                    l += 1;
                    c = 1;
                }
                Some('u') => {
                    i += 6;
                    c += 1;
                }
                Some('U') => {
                    i += 10;
                    c += 1;
                }
                Some('x') => {
                    i += 4;
                    c += 1;
                }
                _ => {
                    i += 2;
                    c += 1;
                }
            }
            continue;
        }
        if ch == '\n' {
            l += 1;
            c = 1;
        } else {
            c += 1;
        }
        i += ch.len_utf8();
    }
    i.min(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_script_places_to_the_file() {
        let text = "code = '''\nlet a = 1;\n  ctx.x\n'''\n";
        let span = 7..text.len() - 1;
        let at = code_offset(text, span.clone(), 2, 3);
        assert_eq!(&text[at..at + 5], "ctx.x");
        let basic = "code = \"let a = \\\"q\\\";\\nctx.y\"";
        let span = 7..basic.len();
        let at = code_offset(basic, span, 2, 1);
        assert_eq!(&basic[at..at + 5], "ctx.y");
        // Column 9 is the escaped quote (two bytes in the file), 10 the `q`.
        let at = code_offset(basic, 7..basic.len(), 1, 9);
        assert_eq!(&basic[at..at + 2], "\\\"");
        let at = code_offset(basic, 7..basic.len(), 1, 10);
        assert_eq!(&basic[at..at + 1], "q");
    }
}
