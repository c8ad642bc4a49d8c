//! The JSON schemas of variant files, one per game, generated from each
//! game's raw file type ([`Game::file_schema`]), and the compiled validators
//! the loader checks every file with.

use std::sync::OnceLock;

use serde_json::Value;

use crate::games::{Game, GameId};

/// The schema of a variant file of `game`, as a JSON value.
pub fn schema(game: GameId) -> Value {
    crate::with_game_id!(game, G => schema_of::<G>())
}

/// The schema of a variant file of game `G`, as a JSON value. The `default`
/// of every rule key is the standard value, taken from the standard variant
/// itself.
pub fn schema_of<G: Game>() -> Value {
    let game = GameId::of::<G>();
    let mut value = G::file_schema().to_value();
    strip_null(&mut value);
    if let Value::Object(root) = &mut value {
        // serde_json's map is sorted by key: the order of insertion does not
        // show in the file.
        root.insert("$id".into(), Value::String(game.schema_id()));
        root.insert(
            "title".into(),
            Value::String(format!("{} variant", G::TITLE)),
        );
        root.insert(
            "description".into(),
            Value::String(format!(
                "A variant file of the `roots` toolkit: the house rules of a game of {}. \
                 Every key is optional; a key left out keeps the value of the variant named by `extends`, \
                 or the standard value (shown as the default). Check a file with `roots validate FILE`.",
                G::TITLE
            )),
        );
    }
    tidy_descriptions(&mut value);
    if let Some(defs) = value.get_mut("$defs").and_then(Value::as_object_mut) {
        defs.values_mut().for_each(enum_for_editors);
    }
    let standard = serde_json::to_value(G::standard()).unwrap_or(Value::Null);
    let root = value.clone();
    if let Some(props) = value.get_mut("properties").and_then(Value::as_object_mut) {
        for (key, prop) in props.iter_mut() {
            if let Some(v) = standard.get(key)
                && !v.is_object()
                && key != "name"
                && key != "description"
            {
                prop_default(prop, v);
            }
        }
    }
    // Tables: the defaults of their keys, in their `$defs` entries.
    let mut tables = Vec::new();
    collect_tables(&root, &root, &standard, &mut Vec::new(), &mut tables);
    if let Some(defs) = value.get_mut("$defs").and_then(Value::as_object_mut) {
        for (def_name, key, v) in tables {
            if let Some(prop) = defs
                .get_mut(&def_name)
                .and_then(|d| d.get_mut("properties"))
                .and_then(|p| p.get_mut(&key))
            {
                prop_default(prop, &v);
            }
        }
    }
    value
}

/// TOML has no null: a key left out is how a file says "not set". schemars
/// makes every `Option` nullable; undo that, and drop the Rust-only `format`
/// annotations (`uint8`, ...), which editors do not know.
fn strip_null(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::Array(types)) = obj.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    obj.insert("type".into(), only);
                }
            }
            let any_of_null = obj
                .get("anyOf")
                .and_then(Value::as_array)
                .and_then(|options| {
                    let is_null = |o: &Value| o.get("type").and_then(Value::as_str) == Some("null");
                    (options.len() == 2 && options.iter().any(is_null))
                        .then(|| options.iter().find(|o| !is_null(o)).cloned())
                        .flatten()
                });
            if let Some(Value::Object(other)) = any_of_null {
                obj.remove("anyOf");
                for (k, v) in other {
                    obj.entry(k).or_insert(v);
                }
            }
            if obj
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| f.starts_with("int") || f.starts_with("uint"))
            {
                obj.remove("format");
            }
            obj.values_mut().for_each(strip_null);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_null),
        _ => {}
    }
}

/// Doc comments are wrapped at 80 columns; an editor's hover wraps by
/// itself, so join the lines of each paragraph.
fn tidy_descriptions(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            for (key, v) in obj.iter_mut() {
                match v {
                    Value::String(text) if key == "description" => {
                        *text = text
                            .split("\n\n")
                            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    }
                    _ => tidy_descriptions(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy_descriptions),
        _ => {}
    }
}

/// A word enum is generated as `oneOf` of `const`s, each with its
/// description. Editors differ in what they read for completion: add the
/// plain `enum` list too, with `enumDescriptions` and
/// `markdownEnumDescriptions` (VS Code's JSON extensions, Even Better TOML)
/// in the same order.
fn enum_for_editors(def: &mut Value) {
    let Some(obj) = def.as_object_mut() else {
        return;
    };
    let Some(options) = obj.get("oneOf").and_then(Value::as_array) else {
        return;
    };
    let mut words = Vec::new();
    let mut texts = Vec::new();
    for option in options {
        let Some(word) = option.get("const").and_then(Value::as_str) else {
            return;
        };
        words.push(Value::String(word.to_owned()));
        texts.push(Value::String(
            option
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
        ));
    }
    obj.insert("enum".into(), Value::Array(words));
    obj.insert("enumDescriptions".into(), Value::Array(texts.clone()));
    obj.insert("markdownEnumDescriptions".into(), Value::Array(texts));
}

fn prop_default(prop: &mut Value, default: &Value) {
    if let Value::Object(obj) = prop {
        obj.insert("default".into(), default.clone());
    }
}

/// For every table of the standard rules reached through a `$ref`: the
/// `$defs` name, each key, and its standard value (tables nest).
fn collect_tables(
    root: &Value,
    node: &Value,
    standard: &Value,
    path: &mut Vec<String>,
    out: &mut Vec<(String, String, Value)>,
) {
    let Some(props) = node.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (key, prop) in props {
        let Some(v) = standard.get(key) else { continue };
        let Some(Value::Object(_)) = Some(v) else {
            continue;
        };
        let Some(def_name) = prop
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
        else {
            continue;
        };
        let Some(def) = root.pointer(&format!("/$defs/{def_name}")) else {
            continue;
        };
        if let Some(keys) = def.get("properties").and_then(Value::as_object) {
            for k in keys.keys() {
                if let Some(leaf) = v.get(k).filter(|l| !l.is_object()) {
                    out.push((def_name.to_owned(), k.clone(), leaf.clone()));
                }
            }
        }
        if path.len() < 8 {
            path.push(key.clone());
            collect_tables(root, def, v, path, out);
            path.pop();
        }
    }
}

/// The schema of `game` as committed under `schema/`: pretty JSON with a
/// trailing newline.
pub fn schema_json(game: GameId) -> String {
    let mut text = serde_json::to_string_pretty(&schema(game)).unwrap_or_default();
    text.push('\n');
    text
}

/// The schema of each game, made once.
pub(crate) fn schema_value(game: GameId) -> &'static Value {
    static SCHEMAS: [OnceLock<Value>; GameId::COUNT] = [const { OnceLock::new() }; GameId::COUNT];
    SCHEMAS[game.index()].get_or_init(|| schema(game))
}

/// The validator of each game's schema, compiled once.
pub(crate) fn validator(game: GameId) -> Option<&'static jsonschema::Validator> {
    static VALIDATORS: [OnceLock<Option<jsonschema::Validator>>; GameId::COUNT] =
        [const { OnceLock::new() }; GameId::COUNT];
    VALIDATORS[game.index()]
        .get_or_init(|| jsonschema::validator_for(schema_value(game)).ok())
        .as_ref()
}

/// The schema node that describes the value at `path` (keys and indexes) of a
/// variant file of `game`, following `$ref`s. `None` when the path leaves
/// the schema.
pub fn node_at(game: GameId, path: &[PathSeg]) -> Option<&'static Value> {
    let root = schema_value(game);
    let mut node = deref(root, root);
    for seg in path {
        node = match seg {
            PathSeg::Key(k) => node.get("properties")?.get(k.as_str())?,
            PathSeg::Index(_) => node.get("items")?,
        };
        node = deref(root, node);
    }
    Some(node)
}

fn deref<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    let mut node = node;
    for _ in 0..8 {
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(target) = r
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
        else {
            break;
        };
        node = target;
    }
    node
}

/// One step of a path into a variant file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

/// The allowed string values of an enum node (`oneOf` of `const`s, or `enum`).
pub fn allowed_words(node: &Value) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(options) = node.get("enum").and_then(Value::as_array) {
        words.extend(options.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = node.get(key).and_then(Value::as_array) {
            for option in options {
                if let Some(c) = option.get("const").and_then(Value::as_str) {
                    words.push(c.to_owned());
                }
                if let Some(e) = option.get("enum").and_then(Value::as_array) {
                    words.extend(e.iter().filter_map(Value::as_str).map(str::to_owned));
                }
            }
        }
    }
    // `enum` and `oneOf` list the same words (see `enum_for_editors`).
    let mut seen = std::collections::BTreeSet::new();
    words.retain(|w| seen.insert(w.clone()));
    words
}

/// What a schema node accepts, in words: "a whole number from 5 to 25, odd",
/// `one of "off", "d4"`, "true or false", "a list of ..." (`node` is a
/// node of the schema of `game`).
pub fn describe(game: GameId, node: &Value) -> String {
    let words = allowed_words(node);
    if !words.is_empty() {
        let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
        return format!("one of {}", quoted.join(", "));
    }
    match node.get("type").and_then(Value::as_str) {
        Some("integer") => {
            let min = node.get("minimum").and_then(Value::as_i64);
            let max = node.get("maximum").and_then(Value::as_i64);
            let mut text = match (min, max) {
                (Some(min), Some(max)) => format!("a whole number from {min} to {max}"),
                (Some(min), None) => format!("a whole number, at least {min}"),
                (None, Some(max)) => format!("a whole number, at most {max}"),
                (None, None) => "a whole number".to_owned(),
            };
            if node.pointer("/not/multipleOf").and_then(Value::as_i64) == Some(2) {
                text.push_str(", odd");
            }
            text
        }
        Some("boolean") => "true or false".to_owned(),
        Some("string") => "a string in quotes".to_owned(),
        Some("array") => {
            let root = schema_value(game);
            let items = node.get("items").map(|i| deref(root, i));
            let words = items.map(allowed_words).unwrap_or_default();
            let once = node.get("uniqueItems").and_then(Value::as_bool) == Some(true);
            let quoted: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
            match (words.is_empty(), once) {
                (false, true) => format!(
                    "a list of words from {}, each at most once",
                    quoted.join(", ")
                ),
                (false, false) => format!("a list of words from {}", quoted.join(", ")),
                (true, _) => "a list".to_owned(),
            }
        }
        Some("object") => "a table".to_owned(),
        _ => "a valid value".to_owned(),
    }
}

/// A text of the schema on one line, without its closing "Standard: ..."
/// sentence (the sheet, the template and `diff` show the value itself).
pub fn without_standard(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.rfind(" Standard:") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// A node's description, as [`without_standard`] gives it.
pub fn meaning(node: &Value) -> String {
    without_standard(
        node.get("description")
            .and_then(Value::as_str)
            .unwrap_or(""),
    )
}

/// The keys a table node allows.
pub fn allowed_keys(node: &Value) -> Vec<String> {
    node.get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schemas_compile() {
        for &g in GameId::ALL {
            assert!(validator(g).is_some(), "{g}");
        }
    }

    #[test]
    fn descriptions_in_words() {
        let rs = GameId::RootsAndShoots;
        let describe = |n| describe(rs, n);
        let size = node_at(
            rs,
            &[PathSeg::Key("board".into()), PathSeg::Key("size".into())],
        );
        assert_eq!(
            size.map(describe).as_deref(),
            Some("a whole number from 5 to 25, odd")
        );
        let die = node_at(
            rs,
            &[PathSeg::Key("growth".into()), PathSeg::Key("buds".into())],
        );
        assert_eq!(
            die.map(describe).as_deref(),
            Some(r#"one of "off", "d4", "d6", "d8", "d10", "d12", "d20""#)
        );
        let rolls = node_at(
            rs,
            &[PathSeg::Key("rain".into()), PathSeg::Key("rolls".into())],
        );
        assert_eq!(
            rolls.map(describe).as_deref(),
            Some(
                r#"a list of words from "growth", "spawn_check", "nutrient_value", "coordinate", each at most once"#
            )
        );
    }
}
