//! The names a script calls, checked before it runs: Rhai finds an unknown
//! function only when the call is reached, perhaps in one game of a
//! thousand. A scan of the script's words finds every call of a function
//! the engine does not have (`ctx.add_scor(1, 2)`) and every field of
//! `ctx` it does not have (`ctx.sete`), with its place and a "did you
//! mean".

use std::collections::BTreeSet;

use rhai::Engine;

use super::Spot;

/// A name the engine does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown {
    pub spot: Spot,
    pub message: String,
    pub help: Option<String>,
}

/// Words of the language that may stand before a `(`, and the functions
/// Rhai builds into the evaluator rather than registers.
const BUILT_IN: &[&str] = &[
    "if",
    "else",
    "while",
    "loop",
    "for",
    "in",
    "do",
    "until",
    "switch",
    "return",
    "throw",
    "try",
    "catch",
    "let",
    "const",
    "fn",
    "this",
    "true",
    "false",
    "break",
    "continue",
    "private",
    "global",
    "Fn",
    "call",
    "curry",
    "print",
    "debug",
    "type_of",
    "is_def_var",
    "is_def_fn",
    "is_shared",
];

/// The engine's function names and the fields (getters) of its types.
fn known(engine: &Engine) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut functions = BTreeSet::new();
    let mut fields = BTreeSet::new();
    for sig in engine.gen_fn_signatures(true) {
        let name = sig.split('(').next().unwrap_or("").trim();
        // `get$x`, `set$x`: the getter and setter of field `x`.
        if let Some(f) = name.strip_prefix("get$") {
            fields.insert(f.to_owned());
        } else if let Some(f) = name.strip_prefix("set$") {
            fields.insert(f.to_owned());
        } else {
            functions.insert(name.to_owned());
        }
    }
    (functions, fields)
}

/// One word of the script, where it is, and what stands around it.
struct Word<'a> {
    text: &'a str,
    line: usize,
    col: usize,
    /// The word before it was `.` (a method or a field).
    after_dot: bool,
    /// The word before the dot, when there is one.
    receiver: Option<&'a str>,
    /// The word before it was `fn` (a definition).
    after_fn: bool,
    /// The next thing after it is `(`.
    called: bool,
}

/// The identifiers of `code`, outside comments and strings.
fn words(code: &str) -> Vec<Word<'_>> {
    let bytes = code.as_bytes();
    let mut out: Vec<Word<'_>> = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    // The last significant tokens: `.`, `fn`, or another.
    let mut prev: Option<&str> = None;
    let mut prev_word: Option<&str> = None;
    let mut before_dot: Option<&str> = None;
    let advance = |i: &mut usize, line: &mut usize, col: &mut usize, n: usize| {
        for _ in 0..n {
            if *i >= bytes.len() {
                return;
            }
            if bytes[*i] == b'\n' {
                *line += 1;
                *col = 1;
            } else if bytes[*i] & 0xC0 != 0x80 {
                *col += 1;
            }
            *i += 1;
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                advance(&mut i, &mut line, &mut col, 1);
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            // Rhai's block comments nest.
            let mut depth = 0;
            while i < bytes.len() {
                if bytes[i] == b'/' && bytes.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    advance(&mut i, &mut line, &mut col, 2);
                } else if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    advance(&mut i, &mut line, &mut col, 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    advance(&mut i, &mut line, &mut col, 1);
                }
            }
        } else if c == b'"' || c == b'`' || c == b'\'' {
            advance(&mut i, &mut line, &mut col, 1);
            while i < bytes.len() && bytes[i] != c {
                let n = if bytes[i] == b'\\' { 2 } else { 1 };
                advance(&mut i, &mut line, &mut col, n);
            }
            advance(&mut i, &mut line, &mut col, 1);
            prev = Some("\"");
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            let (l, cl) = (line, col);
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                advance(&mut i, &mut line, &mut col, 1);
            }
            let text = &code[start..i];
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            // `name!(...)`: a function of the caller's scope, still a call.
            if bytes.get(j) == Some(&b'!') && bytes.get(j + 1) == Some(&b'(') {
                j += 1;
            }
            let after_dot = prev == Some(".");
            out.push(Word {
                text,
                line: l,
                col: cl,
                after_dot,
                receiver: if after_dot { before_dot } else { None },
                after_fn: prev == Some("fn"),
                called: bytes.get(j) == Some(&b'('),
            });
            prev = Some(text);
            prev_word = Some(text);
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                advance(&mut i, &mut line, &mut col, 1);
            }
            prev = Some("0");
            prev_word = None;
        } else if c.is_ascii_whitespace() {
            advance(&mut i, &mut line, &mut col, 1);
        } else {
            if c == b'.' || (c == b'?' && bytes.get(i + 1) == Some(&b'.')) {
                before_dot = if prev == prev_word { prev_word } else { None };
                if c == b'?' {
                    advance(&mut i, &mut line, &mut col, 1);
                }
                prev = Some(".");
            } else {
                prev = Some("+");
            }
            prev_word = None;
            advance(&mut i, &mut line, &mut col, 1);
        }
    }
    out
}

/// Every call of a function the engine does not have and the script does
/// not define, and every field of `ctx` that does not exist.
pub fn unknown_names(engine: &Engine, code: &str) -> Vec<Unknown> {
    let (mut functions, fields) = known(engine);
    let words = words(code);
    // The script's own functions (`fn name(...)`), wherever defined.
    for w in words.iter().filter(|w| w.after_fn) {
        functions.insert(w.text.to_owned());
    }
    functions.extend(BUILT_IN.iter().map(|s| (*s).to_owned()));
    let function_list: Vec<&str> = functions
        .iter()
        .map(String::as_str)
        .filter(|f| f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let field_list: Vec<&str> = fields.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for w in words {
        let spot = Spot {
            line: w.line,
            col: w.col,
            len: w.text.chars().count(),
        };
        if w.after_fn {
            continue;
        }
        if w.called {
            if !functions.contains(w.text) {
                let what = if w.after_dot { "operation" } else { "function" };
                out.push(Unknown {
                    spot,
                    message: format!("`{}` is not a known {what}", w.text),
                    help: crate::core::did_you_mean(w.text, &function_list)
                        .map(|m| format!("did you mean `{m}`?")),
                });
            }
        } else if w.after_dot && w.receiver == Some("ctx") && !fields.contains(w.text) {
            out.push(Unknown {
                spot,
                message: format!("`ctx` has no field `{}`", w.text),
                help: crate::core::did_you_mean(w.text, &field_list)
                    .map(|m| format!("did you mean `{m}`?"))
                    .or_else(|| Some(format!("the fields of `ctx` are {}", field_list.join(", ")))),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_skip_comments_and_strings_and_see_calls() {
        let code = "// ctx.nope()\nlet s = \"ctx.no()\"; /* a /* b */ c */\nctx.add(1);\nx.len\n";
        let w = words(code);
        let texts: Vec<_> = w.iter().map(|w| w.text).collect();
        assert_eq!(texts, ["let", "s", "ctx", "add", "x", "len"]);
        let add = &w[3];
        assert!(add.called && add.after_dot && add.receiver == Some("ctx"));
        assert_eq!((add.line, add.col), (3, 5));
        assert!(!w[5].called && w[5].receiver == Some("x"));
    }
}
