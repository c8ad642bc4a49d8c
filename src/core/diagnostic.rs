//! Errors and warnings about variant files, with their place in the file, and
//! the three ways to print them: plain lines, cargo-style snippets, JSON.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The variant cannot be played.
    Error,
    /// The variant can be played, but probably not as its author meant.
    Warning,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// What kind of problem a diagnostic reports (stable names, used in JSON output
/// and by the command line to choose an exit code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    /// The file could not be read (missing, unreadable).
    Io,
    /// The file is larger than [`crate::variant::MAX_FILE_BYTES`].
    TooLarge,
    /// The file is not UTF-8 text.
    Encoding,
    /// The file is not valid TOML.
    Syntax,
    /// A key that variants do not have.
    UnknownKey,
    /// A value of the wrong type (a string for a number, ...).
    Type,
    /// A number outside its allowed range, or not allowed for that key.
    Range,
    /// A value that is not one of the allowed words.
    Value,
    /// The same item twice in a list.
    Duplicate,
    /// A problem with `extends`: missing parent, cycle, unknown built-in, too deep.
    Extends,
    /// Keys that are each fine but do not make a playable game together.
    Conflict,
    /// A warning about how the variant will play.
    Play,
    /// The smoke simulation's games stall or do not end by themselves.
    Smoke,
    /// A house rule written as a script: an unknown hook, a script that
    /// does not compile, an unknown operation or field.
    Script,
}

/// One error or warning about a variant file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// The file as the user named it (or `<built-in standard>`).
    pub file: String,
    /// 1-based line, when the problem has a place in the file.
    pub line: Option<usize>,
    /// 1-based column (in characters), when the problem has a place in the file.
    pub col: Option<usize>,
    /// The dotted key the problem is about, like `beads.supply`.
    pub key_path: Option<String>,
    pub message: String,
    /// What would have been accepted, in words.
    pub expected: Option<String>,
    /// A suggestion to fix it.
    pub help: Option<String>,
    /// Byte range in the file, for snippets.
    #[serde(skip)]
    pub span: Option<Range<usize>>,
}

impl Diagnostic {
    pub fn error(code: Code, file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            file: file.into(),
            line: None,
            col: None,
            key_path: None,
            message: message.into(),
            expected: None,
            help: None,
            span: None,
        }
    }

    pub fn warning(file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(Code::Play, file, message)
        }
    }

    /// Place the diagnostic at `span` of `source` (the file's text).
    pub fn at(mut self, source: &str, span: Range<usize>) -> Self {
        let (line, col) = line_col(source, span.start);
        self.line = Some(line);
        self.col = Some(col);
        self.span = Some(span);
        self
    }

    pub fn key(mut self, key_path: impl Into<String>) -> Self {
        self.key_path = Some(key_path.into());
        self
    }

    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    /// Add a suggestion (after any already given, so a note about where a
    /// value came from is kept).
    pub fn help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = Some(match self.help.take() {
            Some(before) => format!("{help}; {before}"),
            None => help,
        });
        self
    }

    pub fn maybe_help(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error: message` and its notes, one per line.
    pub fn render_plain(&self) -> String {
        let mut out = self.file.clone();
        if let (Some(line), Some(col)) = (self.line, self.col) {
            out.push_str(&format!(":{line}:{col}"));
        }
        out.push_str(&format!(": {}: {}\n", self.severity, self.message));
        if let Some(expected) = &self.expected {
            out.push_str(&format!("  = expected: {expected}\n"));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("  = help: {help}\n"));
        }
        out
    }
}

/// 1-based line and column (in characters) of byte `offset` in `source`.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = source[line_start..offset].chars().count() + 1;
    (line, col)
}

/// The text of every file a diagnostic may point into, by display name.
#[derive(Clone, Debug, Default)]
pub struct Sources(BTreeMap<String, String>);

impl Sources {
    pub fn insert(&mut self, file: impl Into<String>, text: impl Into<String>) {
        self.0.insert(file.into(), text.into());
    }

    pub fn get(&self, file: &str) -> Option<&str> {
        self.0.get(file).map(String::as_str)
    }

    pub fn extend(&mut self, other: Sources) {
        self.0.extend(other.0);
    }
}

/// A variant that could not be loaded: every problem found (errors and
/// warnings), and the text of the files they point into.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
    pub sources: Sources,
}

impl Diagnostics {
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render(&self.items, &self.sources, Style::Plain))
    }
}

impl std::error::Error for Diagnostics {}

/// How to print diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `file:line:col: error: message` lines, for pipes, editors and tests.
    Plain,
    /// Cargo-style snippets with a caret under the fault.
    Snippet { color: bool },
    /// A JSON array of diagnostics.
    Json,
}

/// Render `diagnostics` in `style`. JSON is one array; the others end with a newline.
pub fn render(diagnostics: &[Diagnostic], sources: &Sources, style: Style) -> String {
    match style {
        Style::Plain => diagnostics.iter().map(Diagnostic::render_plain).collect(),
        Style::Snippet { color } => {
            let mut out = String::new();
            for d in diagnostics {
                out.push_str(&render_snippet(d, sources, color));
                out.push_str("\n\n");
            }
            out
        }
        Style::Json => {
            let mut text =
                serde_json::to_string_pretty(diagnostics).unwrap_or_else(|_| "[]".into());
            text.push('\n');
            text
        }
    }
}

fn render_snippet(d: &Diagnostic, sources: &Sources, color: bool) -> String {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let label = d
        .key_path
        .as_deref()
        .map(|k| format!("`{k}`"))
        .unwrap_or_default();
    let mut group: Group<'_> = Group::with_title(level.primary_title(d.message.as_str()));
    match (sources.get(&d.file), &d.span) {
        (Some(source), Some(span)) => {
            let mut span = span.clone();
            span.end = span.end.min(source.len());
            span.start = span.start.min(span.end);
            group = group.element(
                Snippet::source(source)
                    .path(d.file.as_str())
                    .annotation(AnnotationKind::Primary.span(span).label(label)),
            );
        }
        _ => {
            let mut origin = annotate_snippets::Origin::path(d.file.as_str());
            if let (Some(line), Some(col)) = (d.line, d.col) {
                origin = origin.line(line).char_column(col);
            }
            group = group.element(origin);
        }
    }
    if let Some(expected) = &d.expected {
        group = group.element(Level::NOTE.message(format!("expected: {expected}")));
    }
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    renderer.render(&[group])
}

/// Where the keys of the rules being checked came from: the variant layer
/// knows (the files of an `extends` chain, `--set` overrides) and places a
/// game's diagnostics with it, through a [`Checker`].
pub trait Placer {
    /// The name of the loaded file, as diagnostics give it.
    fn file(&self) -> &str;
    /// A diagnostic about `key`: at the key in the loaded file when it sets
    /// it; otherwise at the loaded file's `extends` line, saying where it
    /// came from.
    fn about(&self, d: Diagnostic, key: &str) -> Diagnostic;
    /// Of `keys`, the first one the loaded file sets itself, else the first.
    fn pick<'k>(&self, keys: &[&'k str]) -> &'k str;
    /// Place `d` at item `item` (`severing.actions[2]`) of `key` when the
    /// loaded file sets `key` itself.
    fn at_item(&self, d: Diagnostic, key: &str, item: &str) -> Diagnostic;
}

/// Places the diagnostics of a game's checks across keys
/// ([`crate::games::Game::check`]) in the files they came from. The games
/// use it; the variant layer makes it (with a [`Placer`]).
#[derive(Clone, Copy)]
pub struct Checker<'a> {
    placer: &'a dyn Placer,
}

impl<'a> Checker<'a> {
    pub fn new(placer: &'a dyn Placer) -> Checker<'a> {
        Checker { placer }
    }

    /// A diagnostic about `key`: at the key in the loaded file when it sets it;
    /// otherwise at the loaded file's `extends` line, saying where it came from.
    pub fn about(&self, d: Diagnostic, key: &str) -> Diagnostic {
        self.placer.about(d, key)
    }

    /// Of `keys`, the first one the loaded file sets itself, else the first.
    pub fn pick<'k>(&self, keys: &[&'k str]) -> &'k str {
        self.placer.pick(keys)
    }

    /// An error about `key` (a conflict between keys).
    pub fn error(&self, key: &str, message: String) -> Diagnostic {
        self.about(
            Diagnostic::error(Code::Conflict, self.placer.file(), message),
            key,
        )
    }

    /// Place `d` at item `item` (`severing.actions[2]`) of `key` when the
    /// loaded file sets `key` itself.
    pub fn at_item(&self, d: Diagnostic, key: &str, item: &str) -> Diagnostic {
        self.placer.at_item(d, key, item)
    }

    /// A warning about `key`.
    pub fn warning(&self, key: &str, message: String) -> Diagnostic {
        self.about(Diagnostic::warning(self.placer.file(), message), key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one_in_characters() {
        let text = "a = 1\nbé = \"x\"\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 6), (2, 1));
        // `=` after the two-byte `é` is the fourth character of line 2.
        assert_eq!(line_col(text, 10), (2, 4));
        assert_eq!(line_col(text, 999), (3, 1));
    }

    #[test]
    fn plain_rendering_has_position_and_notes() {
        let d = Diagnostic::error(Code::Range, "v.toml", "too big")
            .at("x\nsize = 30\n", 9..11)
            .expected("5 to 25")
            .help("pick 19");
        assert_eq!(
            d.render_plain(),
            "v.toml:2:8: error: too big\n  = expected: 5 to 25\n  = help: pick 19\n"
        );
    }
}
