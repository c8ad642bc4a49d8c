//! One variant file, on its own: bytes -> text -> spanned TOML -> the keys
//! every game shares (`game`, `extends`, `name`, `description`) -> the check
//! against its game's schema. Every problem becomes a [`Diagnostic`]
//! pointing into the file; all of them are reported, not just the first.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use toml::de::{DeTable, DeValue};

use super::diagnostic::{Code, Diagnostic};
use super::schema::{self, PathSeg};
use crate::core::io::read_bounded;
use crate::games::GameId;

/// Variant files larger than this are refused before they are parsed.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Most keys and list items (counted together, in all tables) in one file:
/// the whole standard variant has about 40. A file with more is refused
/// before the schema check, so no later step sees an unbounded document.
pub const MAX_ENTRIES: usize = 1000;

/// Most diagnostics reported for one file; past it, a last one says so.
pub const MAX_DIAGNOSTICS: usize = 50;

/// Where one key (or list item) of a file is.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    /// The key itself (`supply` in `supply = 60`); `None` for list items.
    pub key: Option<Range<usize>>,
    /// Its value.
    pub value: Range<usize>,
    /// What kind of TOML value it is, in words ("a string", "a whole number", ...).
    pub found: &'static str,
}

/// One parsed, schema-checked file of an `extends` chain.
#[derive(Clone, Debug)]
pub(crate) struct Layer {
    /// The file as shown to the user: the path as given, or `<built-in NAME>`.
    pub file: String,
    /// Where a relative `extends` is looked up from; `None` for built-ins.
    pub dir: Option<PathBuf>,
    /// What identifies this file in a cycle: canonical path or `builtin:NAME`.
    pub identity: String,
    /// Stem of the file name, the default `name`.
    pub stem: String,
    pub text: String,
    /// The document as JSON (what the schema checked; what is merged).
    pub json: Value,
    /// The keys every game's files share.
    pub parsed: Head,
    /// The game of a built-in variant (whose file may leave `game` out).
    pub implied_game: Option<GameId>,
    /// Values whose message needs the game's schema ([`check_layer`]).
    pub deferred: Vec<Deferred>,
    /// Every key and list item, by path (`beads.supply`, `rain.rolls[1]`).
    pub places: BTreeMap<String, Place>,
}

impl Layer {
    pub fn place(&self, path: &str) -> Option<&Place> {
        self.places.get(path)
    }
}

/// A value TOML read but JSON cannot hold as the file meant: judged against
/// the game's schema once the chain's game is known.
#[derive(Clone, Debug)]
pub(crate) struct Deferred {
    path: Vec<PathSeg>,
    span: Range<usize>,
    /// The value as written.
    text: String,
    kind: DeferredKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeferredKind {
    /// A whole number beyond 64 bits.
    HugeInteger,
    /// A decimal number, wrong where the schema wants a whole one (JSON
    /// Schema would count 19.0 as an integer).
    Decimal,
}

impl Deferred {
    /// The diagnostic, if the value is wrong for `game`.
    fn judge(&self, game: GameId, file: &str, text: &str) -> Option<Diagnostic> {
        let path = &self.path;
        let node = schema::node_at(game, path);
        match self.kind {
            DeferredKind::HugeInteger => Some(
                Diagnostic::error(
                    Code::Range,
                    file,
                    match node.map(|n| schema::describe(game, n)) {
                        Some(allowed) => format!(
                            "`{}` is {}, far too large a number: it must be {allowed}",
                            path_string(path),
                            self.text
                        ),
                        None => format!(
                            "`{}` is {}, far too large a number",
                            path_string(path),
                            self.text
                        ),
                    },
                )
                .at(text, self.span.clone())
                .key(path_string(path)),
            ),
            DeferredKind::Decimal => {
                let node = node?;
                if node.get("type").and_then(Value::as_str) != Some("integer") {
                    return None;
                }
                let allowed = schema::describe(game, node);
                Some(
                    Diagnostic::error(
                        Code::Type,
                        file,
                        format!(
                            "`{}` must be {allowed}, but it is {}, a decimal number",
                            path_string(path),
                            self.text
                        ),
                    )
                    .at(text, self.span.clone())
                    .key(path_string(path))
                    .maybe_expected(Some(allowed))
                    .help("use a whole number, without a decimal point"),
                )
            }
        }
    }
}

/// The keys of a variant file that are not rules of its game: read before
/// the game (and so the schema) is known. A value of the wrong type reads as
/// absent here; the schema check reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Head {
    pub game: Option<String>,
    pub extends: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
}

impl Head {
    fn of(json: &Value) -> Head {
        let text = |k: &str| json.get(k).and_then(Value::as_str).map(str::to_owned);
        Head {
            game: text("game"),
            extends: text("extends"),
            name: text("name"),
            description: text("description"),
        }
    }
}

/// `beads.supply`, `rain.rolls[1]`.
pub(crate) fn path_string(path: &[PathSeg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            PathSeg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// Read a file for the loader: refuse big files before reading them whole,
/// refuse bytes that are not UTF-8 (pointing at the first bad byte).
pub(crate) fn read_file(path: &Path, display: &str) -> Result<String, Box<Diagnostic>> {
    // A directory, a FIFO or a device (`extends = "/dev/stdin"`) is refused
    // before it is opened: opening or reading one may block forever.
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(Box::new(Diagnostic::error(
            Code::Io,
            display,
            "cannot read the file: it is not a regular file (a directory, device or pipe)",
        )));
    }
    let bytes = read_bounded(path, MAX_FILE_BYTES + 1).map_err(|e| {
        Box::new(Diagnostic::error(
            Code::Io,
            display,
            format!("cannot read the file: {}", io_reason(&e)),
        ))
    })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Box::new(
            Diagnostic::error(
                Code::TooLarge,
                display,
                "the file is larger than 1 MiB; a variant file is a few dozen lines",
            )
            .help("check that this is the variant file you meant"),
        ));
    }
    decode(bytes, display)
}

/// Read a variant from standard input (the `-` argument), within the same
/// size limit as a file.
pub(crate) fn read_stdin(display: &str) -> Result<String, Box<Diagnostic>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            Box::new(Diagnostic::error(
                Code::Io,
                display,
                format!("cannot read standard input: {}", io_reason(&e)),
            ))
        })?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Box::new(Diagnostic::error(
            Code::TooLarge,
            display,
            "standard input holds more than 1 MiB; a variant file is a few dozen lines",
        )));
    }
    decode(bytes, display)
}

pub(crate) fn decode(bytes: Vec<u8>, display: &str) -> Result<String, Box<Diagnostic>> {
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let bad = bytes.get(good).copied().unwrap_or(0);
        // The prefix up to `good` is valid UTF-8 by construction.
        let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or("");
        let (line, col) = super::diagnostic::line_col(prefix, good);
        let mut d = Diagnostic::error(
            Code::Encoding,
            display,
            format!("the file is not UTF-8 text: byte 0x{bad:02X} cannot start a character"),
        )
        .help("save the file as UTF-8 (most editors offer this under \"Save with encoding\")");
        d.line = Some(line);
        d.col = Some(col);
        Box::new(d)
    })
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => e.to_string(),
    }
}

/// Parse one file, without its game's schema check ([`check_layer`]).
/// `dir` is where its `extends` is looked up from.
pub(crate) fn parse_layer(
    file: &str,
    text: String,
    dir: Option<PathBuf>,
    identity: String,
    stem: String,
) -> Result<Layer, Vec<Diagnostic>> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(vec![Diagnostic::error(
            Code::TooLarge,
            file,
            "the text is larger than 1 MiB; a variant file is a few dozen lines",
        )]);
    }
    let mut deferred = Vec::new();
    // Recoverable parsing: the parser goes on after a syntax error, so
    // every one it can tell apart is reported at once.
    let (table, syntax) = DeTable::parse_recoverable(&text);
    let parsed = if syntax.is_empty() {
        Ok(table)
    } else {
        Err(syntax)
    };
    let (json, places) = match parsed {
        Ok(table) => {
            let mut places = BTreeMap::new();
            let mut errors = Vec::new();
            let json = table_to_json(
                table.get_ref(),
                &mut Vec::new(),
                &mut places,
                &mut errors,
                &mut deferred,
                file,
                &text,
            );
            if !errors.is_empty() {
                return Err(errors);
            }
            (Value::Object(json), places)
        }
        Err(mut syntax) => {
            syntax.sort_by_key(|e| e.span().map_or(usize::MAX, |s| s.start));
            let mut errors: Vec<Diagnostic> = Vec::new();
            for e in &syntax {
                let d = syntax_error(file, &text, e);
                // One error per line: what follows a fault on its line is
                // usually the same fault seen again.
                if errors.iter().all(|o| o.line != d.line || d.line.is_none()) {
                    errors.push(d);
                }
                if errors.len() >= MAX_DIAGNOSTICS {
                    break;
                }
            }
            return Err(errors);
        }
    };
    Ok(Layer {
        file: file.to_owned(),
        dir,
        identity,
        stem,
        parsed: Head::of(&json),
        implied_game: None,
        deferred,
        text,
        json,
        places,
    })
}

/// Check a parsed file against the schema of `game`: every problem, sorted
/// by place.
pub(crate) fn check_layer(layer: &Layer, game: GameId) -> Vec<Diagnostic> {
    let judged: Vec<Diagnostic> = layer
        .deferred
        .iter()
        .filter_map(|d| d.judge(game, &layer.file, &layer.text))
        .collect();
    let mut errors = if judged.is_empty() {
        schema_errors(game, &layer.file, &layer.text, &layer.json, &layer.places)
    } else {
        judged
    };
    errors.sort_by_key(|d| (d.span.as_ref().map_or(0, |s| s.start), d.message.clone()));
    if errors.len() > MAX_DIAGNOSTICS {
        errors.truncate(MAX_DIAGNOSTICS);
        errors.push(Diagnostic::error(
            Code::TooLarge,
            &layer.file,
            format!(
                "more than {MAX_DIAGNOSTICS} problems: only the first {MAX_DIAGNOSTICS} are shown"
            ),
        ));
    }
    errors
}

fn syntax_error(file: &str, text: &str, e: &toml::de::Error) -> Diagnostic {
    let message = e.message().trim().to_owned();
    let mut d = if message.starts_with("duplicate key") {
        let key = e
            .span()
            .and_then(|s| text.get(s))
            .unwrap_or("this key")
            .trim()
            .to_owned();
        Diagnostic::error(
            Code::Syntax,
            file,
            format!("`{key}` is set twice in the same table"),
        )
        .help("a key may appear once in each table: delete one of the two lines")
    } else {
        Diagnostic::error(Code::Syntax, file, format!("this is not valid TOML: {message}")).help(
            "see https://toml.io for the syntax; a rule looks like `key = value` under a `[table]` line",
        )
    };
    if let Some(span) = e.span() {
        d = d.at(text, span);
    }
    d
}

fn table_to_json(
    table: &DeTable<'_>,
    path: &mut Vec<PathSeg>,
    places: &mut BTreeMap<String, Place>,
    errors: &mut Vec<Diagnostic>,
    deferred: &mut Vec<Deferred>,
    file: &str,
    text: &str,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in table.iter() {
        if too_many_entries(places, errors, file, text, key.span()) {
            break;
        }
        let name: &str = key.get_ref();
        path.push(PathSeg::Key(name.to_owned()));
        places.insert(
            path_string(path),
            Place {
                key: Some(key.span()),
                value: value.span(),
                found: found(value.get_ref()),
            },
        );
        let json = value_to_json(
            value.get_ref(),
            value.span(),
            path,
            places,
            errors,
            deferred,
            file,
            text,
        );
        out.insert(name.to_owned(), json);
        path.pop();
    }
    out
}

/// Whether the document already has [`MAX_ENTRIES`] keys and list items;
/// the first time, says so at `span`.
fn too_many_entries(
    places: &BTreeMap<String, Place>,
    errors: &mut Vec<Diagnostic>,
    file: &str,
    text: &str,
    span: Range<usize>,
) -> bool {
    if places.len() < MAX_ENTRIES {
        return false;
    }
    if !errors.iter().any(|d| d.code == Code::TooLarge) {
        errors.push(
            Diagnostic::error(
                Code::TooLarge,
                file,
                format!(
                    "the file has more than {MAX_ENTRIES} keys and list items; a variant file has a few dozen"
                ),
            )
            .at(text, span)
            .help("check that this is the variant file you meant"),
        );
    }
    true
}

#[allow(clippy::too_many_arguments)]
fn value_to_json(
    value: &DeValue<'_>,
    span: Range<usize>,
    path: &mut Vec<PathSeg>,
    places: &mut BTreeMap<String, Place>,
    errors: &mut Vec<Diagnostic>,
    deferred: &mut Vec<Deferred>,
    file: &str,
    text: &str,
) -> Value {
    match value {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let digits = match i.radix() {
                16 => digits.trim_start_matches("0x").to_owned(),
                8 => digits.trim_start_matches("0o").to_owned(),
                2 => digits.trim_start_matches("0b").to_owned(),
                _ => digits,
            };
            match i64::from_str_radix(&digits, i.radix()) {
                Ok(n) => Value::from(n),
                Err(_) => {
                    deferred.push(Deferred {
                        path: path.clone(),
                        span,
                        text: i.as_str().to_owned(),
                        kind: DeferredKind::HugeInteger,
                    });
                    Value::Null
                }
            }
        }
        DeValue::Float(f) => {
            // JSON Schema counts 19.0 as an integer; a variant file does
            // not: judged by the game's schema in `check_layer`.
            deferred.push(Deferred {
                path: path.clone(),
                span,
                text: f.as_str().to_owned(),
                kind: DeferredKind::Decimal,
            });
            let n = f.as_str().replace('_', "").parse::<f64>().ok();
            n.and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .unwrap_or_else(|| Value::String(f.as_str().to_owned()))
        }
        DeValue::Boolean(b) => Value::Bool(*b),
        DeValue::Datetime(d) => Value::String(d.to_string()),
        DeValue::Array(items) => {
            let mut out = Vec::new();
            for (i, item) in items.iter().enumerate() {
                if too_many_entries(places, errors, file, text, item.span()) {
                    break;
                }
                path.push(PathSeg::Index(i));
                places.insert(
                    path_string(path),
                    Place {
                        key: None,
                        value: item.span(),
                        found: found(item.get_ref()),
                    },
                );
                out.push(value_to_json(
                    item.get_ref(),
                    item.span(),
                    path,
                    places,
                    errors,
                    deferred,
                    file,
                    text,
                ));
                path.pop();
            }
            Value::Array(out)
        }
        DeValue::Table(t) => {
            Value::Object(table_to_json(t, path, places, errors, deferred, file, text))
        }
    }
}

fn found(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "a whole number",
        DeValue::Float(_) => "a decimal number",
        DeValue::Boolean(_) => "true/false",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// Check `json` against the schema and explain every failure in words.
fn schema_errors(
    game: GameId,
    file: &str,
    text: &str,
    json: &Value,
    places: &BTreeMap<String, Place>,
) -> Vec<Diagnostic> {
    let Some(validator) = schema::validator(game) else {
        return vec![Diagnostic::error(
            Code::Type,
            file,
            "internal error: the variant schema does not compile",
        )];
    };
    let mut out = Vec::new();
    for error in validator.iter_errors(json) {
        if out.len() > MAX_DIAGNOSTICS {
            break;
        }
        let path: Vec<PathSeg> = error
            .instance_path()
            .segments()
            .map(|s| match s {
                jsonschema::paths::LocationSegment::Property(p) => PathSeg::Key(p.into_owned()),
                jsonschema::paths::LocationSegment::Index(i) => PathSeg::Index(i),
            })
            .collect();
        let instance = error.instance().clone().into_owned();
        let ctx = Ctx {
            game,
            file,
            text,
            places,
            path: &path,
            instance: &instance,
        };
        for d in explain(&ctx, error.kind(), &error.to_string()) {
            // A word enum is checked by both `enum` and `oneOf`: report once.
            if !out
                .iter()
                .any(|o: &Diagnostic| o.key_path == d.key_path && o.message == d.message)
            {
                out.push(d);
            }
        }
    }
    out
}

struct Ctx<'a> {
    game: GameId,
    file: &'a str,
    text: &'a str,
    places: &'a BTreeMap<String, Place>,
    path: &'a [PathSeg],
    instance: &'a Value,
}

impl Ctx<'_> {
    fn key(&self) -> String {
        path_string(self.path)
    }

    /// An error about the value at this path, placed at the value.
    fn at_value(&self, code: Code, message: String) -> Diagnostic {
        let key = self.key();
        let mut d = Diagnostic::error(code, self.file, message);
        if !key.is_empty() {
            d = d.key(key.clone());
        }
        match self.places.get(&key) {
            Some(place) => d.at(self.text, place.value.clone()),
            None => d,
        }
    }

    fn found(&self) -> &'static str {
        self.places
            .get(&self.key())
            .map_or("something else", |p| p.found)
    }

    fn node(&self) -> Option<&'static Value> {
        schema::node_at(self.game, self.path)
    }

    fn value_text(&self) -> String {
        match self.instance {
            Value::String(s) => format!("\"{s}\""),
            other => other.to_string(),
        }
    }
}

fn explain(
    ctx: &Ctx<'_>,
    kind: &jsonschema::error::ValidationErrorKind,
    fallback: &str,
) -> Vec<Diagnostic> {
    use jsonschema::error::ValidationErrorKind as K;
    let key = ctx.key();
    let expected = ctx.node().map(|n| schema::describe(ctx.game, n));
    let d = match kind {
        K::AdditionalProperties { unexpected } => {
            return unexpected
                .iter()
                .map(|name| unknown_key(ctx, name))
                .collect();
        }
        K::Type { .. } => {
            let what = expected.clone().unwrap_or_else(|| "something else".into());
            let d = if ctx
                .node()
                .is_some_and(|n| n.get("type").and_then(Value::as_str) == Some("object"))
            {
                ctx.at_value(Code::Type, format!("`{key}` must be a table, but it is {}", ctx.found()))
                    .help(format!("write it as a table: a line `[{key}]`, then one `key = value` per line under it"))
            } else {
                ctx.at_value(
                    Code::Type,
                    format!("`{key}` must be {what}, but it is {}", ctx.found()),
                )
                .maybe_help(type_help(ctx))
            };
            d.maybe_expected(expected)
        }
        K::Minimum { limit } | K::Maximum { limit } => {
            let below = matches!(kind, K::Minimum { .. });
            let message = if below && limit.as_i64() == Some(0) {
                format!("`{key}` cannot be negative (it is {})", ctx.value_text())
            } else if below {
                format!(
                    "`{key}` is {}, less than the smallest allowed, {limit}",
                    ctx.value_text()
                )
            } else {
                format!(
                    "`{key}` is {}, more than the largest allowed, {limit}",
                    ctx.value_text()
                )
            };
            ctx.at_value(Code::Range, message)
                .maybe_expected(expected)
                .maybe_help(ctx.game.range_help(&key).map(str::to_owned))
        }
        K::Not { .. } | K::MultipleOf { .. }
            if key == "board.size"
                && !ctx.instance.as_i64().is_some_and(|n| (5..=25).contains(&n)) =>
        {
            // Out of range too: the range error says enough.
            return Vec::new();
        }
        K::Not { .. } | K::MultipleOf { .. } if key == "board.size" => {
            let n = ctx.instance.as_i64().unwrap_or(0);
            ctx.at_value(
                Code::Range,
                format!(
                    "`board.size` is {n}, but it must be odd so that the board has a centre point"
                ),
            )
            .maybe_expected(expected)
            .help(format!("use {} or {}", n - 1, n + 1))
        }
        K::OneOfNotValid { .. } | K::Enum { .. } | K::Constant { .. } | K::AnyOf { .. } => {
            let words = ctx.node().map(schema::allowed_words).unwrap_or_default();
            match ctx.instance {
                Value::String(s) => ctx
                    .at_value(Code::Value, format!("`{key}` cannot be \"{s}\""))
                    .maybe_expected(expected)
                    .maybe_help(did_you_mean(s, &words).map(|w| format!("did you mean \"{w}\"?"))),
                _ => ctx
                    .at_value(
                        Code::Type,
                        format!(
                            "`{key}` must be a word in quotes, but it is {}",
                            ctx.found()
                        ),
                    )
                    .maybe_expected(expected)
                    .maybe_help(word_help(ctx, &words)),
            }
        }
        K::UniqueItems => {
            let items = ctx.instance.as_array().cloned().unwrap_or_default();
            let dup = (1..items.len()).find(|&j| items[..j].contains(&items[j]));
            let item_text = dup.map(|j| match &items[j] {
                Value::String(s) => format!("\"{s}\""),
                v => v.to_string(),
            });
            let mut d = ctx
                .at_value(
                    Code::Duplicate,
                    format!(
                        "`{key}` lists {} twice",
                        item_text.clone().unwrap_or_else(|| "an item".into())
                    ),
                )
                .maybe_expected(expected)
                .help("each item may appear once: remove the second one");
            if let Some(j) = dup {
                let item = format!("{key}[{j}]");
                if let Some(place) = ctx.places.get(&item) {
                    d = d.at(ctx.text, place.value.clone());
                }
            }
            d
        }
        K::MinLength { .. } => ctx.at_value(Code::Range, format!("`{key}` cannot be empty")),
        K::MaxLength { limit } => ctx.at_value(
            Code::Range,
            format!("`{key}` is longer than {limit} characters"),
        ),
        _ => ctx
            .at_value(Code::Type, format!("`{key}`: {fallback}"))
            .maybe_expected(expected),
    };
    vec![d]
}

trait MaybeExpected {
    fn maybe_expected(self, expected: Option<String>) -> Self;
}

impl MaybeExpected for Diagnostic {
    fn maybe_expected(mut self, expected: Option<String>) -> Self {
        if expected.is_some() {
            self.expected = expected;
        }
        self
    }
}

fn type_help(ctx: &Ctx<'_>) -> Option<String> {
    match ctx.instance {
        Value::String(s) if s.trim().parse::<i64>().is_ok() => {
            Some(format!("remove the quotes: {}", s.trim()))
        }
        Value::String(s) if matches!(s.trim(), "true" | "false") => {
            Some(format!("remove the quotes: {}", s.trim()))
        }
        Value::Number(n) if n.is_f64() => {
            Some("use a whole number, without a decimal point".into())
        }
        _ => None,
    }
}

fn word_help(ctx: &Ctx<'_>, words: &[String]) -> Option<String> {
    let text = match ctx.instance {
        Value::Number(n) => format!("d{n}"),
        Value::Bool(b) => b.to_string(),
        _ => return None,
    };
    if words.contains(&text) {
        Some(format!("write it as a word in quotes: \"{text}\""))
    } else {
        Some("write the value in double quotes".into())
    }
}

fn unknown_key(ctx: &Ctx<'_>, name: &str) -> Diagnostic {
    let table = ctx.key();
    let mut full = ctx.path.to_vec();
    full.push(PathSeg::Key(name.to_owned()));
    let full_key = path_string(&full);
    let is_table = ctx.instance.get(name).is_some_and(Value::is_object);
    let allowed = ctx.node().map(schema::allowed_keys).unwrap_or_default();
    let (message, expected) = if table.is_empty() {
        let tables: Vec<&String> = allowed.iter().filter(|k| is_table_key(k)).collect();
        let message = if is_table {
            format!("unknown table `[{name}]`")
        } else {
            format!("unknown key `{name}` at the top of the file")
        };
        let names: Vec<String> = tables.iter().map(|t| format!("[{t}]")).collect();
        (
            message,
            format!(
                "extends, name, description, or the tables {}",
                names.join(", ")
            ),
        )
    } else {
        (
            format!("unknown key `{name}` in `[{table}]`"),
            format!("one of the keys of [{table}]: {}", allowed.join(", ")),
        )
    };
    let help = did_you_mean(name, &allowed)
        .map(|w| {
            if table.is_empty() && is_table_key(w) {
                format!("did you mean `[{w}]`?")
            } else {
                format!("did you mean `{w}`?")
            }
        })
        .or_else(|| elsewhere(ctx.game, name, &table));
    let mut d = Diagnostic::error(Code::UnknownKey, ctx.file, message)
        .key(full_key.clone())
        .expected(expected);
    d = d.maybe_help(help);
    match ctx.places.get(&full_key) {
        Some(Place {
            key: Some(span), ..
        }) => d.at(ctx.text, span.clone()),
        _ => d,
    }
}

fn is_table_key(key: &str) -> bool {
    !matches!(key, "extends" | "name" | "description" | "game")
}

/// `store` is a key of `[beads]`: say so when it is written somewhere else.
fn elsewhere(game: GameId, name: &str, table: &str) -> Option<String> {
    let root = schema::node_at(game, &[])?;
    for t in schema::allowed_keys(root) {
        if t == table {
            continue;
        }
        let node = schema::node_at(game, &[PathSeg::Key(t.clone())])?;
        if schema::allowed_keys(node).iter().any(|k| k == name) {
            return Some(format!(
                "`{name}` is a key of `[{t}]`: move it under that table"
            ));
        }
    }
    None
}

pub(crate) use crate::core::did_you_mean;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_only_suggests_near_words() {
        let keys = vec![
            "store".to_owned(),
            "supply".to_owned(),
            "removed_go_to".to_owned(),
        ];
        assert_eq!(did_you_mean("suplpy", &keys), Some("supply"));
        assert_eq!(did_you_mean("colour", &keys), None);
        let dice = vec!["d4".to_owned(), "d6".to_owned(), "d8".to_owned()];
        assert_eq!(did_you_mean("d7", &dice), None);
        assert_eq!(did_you_mean("D6", &dice), Some("d6"));
    }
}
