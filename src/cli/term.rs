//! The terminal side of every command: the one colour decision, the style
//! diagnostics are printed in, and standard output, whose first failed
//! write is remembered and reported at the end.

use std::io::IsTerminal;

use clap::ValueEnum;
use roots::run::console::{err, stderr_is_terminal, terminal_safe};
use roots::run::exit;
use roots::variant::Style;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Snippets on a terminal, plain lines otherwise.
    Auto,
    /// `file:line:col: error: message` lines, with `= expected:` and `= help:` notes.
    Plain,
    /// Cargo-style snippets of the file, with a caret under the fault.
    Snippet,
    /// A JSON array of diagnostics.
    Json,
}

/// The standard stream a text goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    pub fn is_terminal(self) -> bool {
        match self {
            Stream::Stdout => stdout_is_terminal(),
            Stream::Stderr => stderr_is_terminal(),
        }
    }
}

/// Record `--color` as the program's one colour setting (anstream's global
/// choice), read by [`colour`] for every stream.
pub fn set_colour(color: Color) {
    anstream::ColorChoice::write_global(match color {
        Color::Auto => anstream::ColorChoice::Auto,
        Color::Always => anstream::ColorChoice::AlwaysAnsi,
        Color::Never => anstream::ColorChoice::Never,
    });
}

/// Whether to colour what goes to `stream`: the one decision of the program.
/// `--color always`/`never` win; otherwise CLICOLOR_FORCE forces colour,
/// NO_COLOR (or CLICOLOR=0) turns it off, and a terminal that takes colour
/// gets it (anstream's rules).
pub fn colour(stream: Stream) -> bool {
    let choice = match stream {
        Stream::Stdout => anstream::AutoStream::choice(&std::io::stdout()),
        Stream::Stderr => anstream::AutoStream::choice(&std::io::stderr()),
    };
    choice != anstream::ColorChoice::Never
}

/// The style to print diagnostics in, to `stream`: snippets on a terminal
/// or when colour is on, plain lines otherwise, unless `format` says.
pub fn style(format: Format, stream: Stream) -> Style {
    let colored = colour(stream);
    match format {
        Format::Json => Style::Json,
        Format::Plain => Style::Plain,
        Format::Snippet => Style::Snippet { color: colored },
        Format::Auto if stream.is_terminal() || colored => Style::Snippet { color: colored },
        Format::Auto => Style::Plain,
    }
}

/// Whether to colour what goes to stdout.
pub fn use_colour() -> bool {
    colour(Stream::Stdout)
}

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Print a JSON document on stdout (pretty, one trailing newline): exit 0.
pub fn out_json(doc: &serde_json::Value) -> u8 {
    match serde_json::to_string_pretty(doc) {
        Ok(text) => {
            out(&format!("{text}\n"));
            exit::OK
        }
        Err(e) => {
            err(&format!("error: cannot print JSON: {e}\n"));
            exit::INVALID
        }
    }
}

/// A word for a shell command line: as it is when it holds nothing a
/// POSIX shell reads specially, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Write to stdout. A failed write is remembered (and nothing more is
/// written): the command goes on to its end, and [`Cli::run`] then exits 2
/// with the reason, or quietly for a closed pipe (`roots show | head`: the
/// reader has what it wanted).
pub fn out(text: &str) {
    output::write(&terminal_safe(text));
}

/// `println!` through [`out`]: never panics on a full disk or closed pipe.
macro_rules! outln {
    () => { $crate::cli::out("\n") };
    ($($arg:tt)*) => { $crate::cli::out(&format!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use outln;

/// `print!` through [`out`].
macro_rules! outp {
    ($($arg:tt)*) => { $crate::cli::out(&format!($($arg)*)) };
}
pub(crate) use outp;

/// `eprintln!` through [`err`]: never panics.
macro_rules! errln {
    ($($arg:tt)*) => { $crate::cli::err(&format!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use errln;

/// Standard output, with its first failed write remembered.
pub mod output {
    use std::io::{ErrorKind, Write};
    use std::sync::Mutex;

    /// The first write to stdout that failed.
    static FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

    fn failed() -> std::sync::MutexGuard<'static, Option<std::io::Error>> {
        FAILED.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Write `text` to stdout unless a write already failed.
    pub fn write(text: &str) {
        let mut failed = failed();
        if failed.is_some() {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(text.as_bytes()) {
            *failed = Some(e);
        }
    }

    /// Flush stdout and give the exit code: `code` when everything was
    /// written; quietly `code` for a closed pipe (as `yes | head`, less the
    /// signal); otherwise the reason on stderr and 2.
    pub fn finish(code: u8) -> u8 {
        let flushed = std::io::stdout().lock().flush();
        let mut failed = failed();
        if let (None, Err(e)) = (failed.as_ref(), flushed) {
            *failed = Some(e);
        }
        match failed.take() {
            None => code,
            Some(e) if e.kind() == ErrorKind::BrokenPipe => code,
            Some(e) => {
                roots::run::console::err(&format!(
                    "error: cannot write to standard output: {e}; the output is incomplete\n"
                ));
                roots::run::exit::USAGE
            }
        }
    }
}
