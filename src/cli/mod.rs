//! The command line: one module per command. Each command's `run` returns
//! the process exit code; the library does the work.

use std::io::IsTerminal;

use clap::{Parser, Subcommand, ValueEnum};
use roots::variant::Style;

pub mod compare;
pub mod schema;
pub mod show;
pub mod simulate;
pub mod sweep;
pub mod validate;

/// Exit codes shared by every command.
pub mod exit {
    /// Everything checked out.
    pub const OK: u8 = 0;
    /// A variant (or other input) is invalid.
    pub const INVALID: u8 = 1;
    /// Bad command line, or a file that could not be read.
    pub const USAGE: u8 = 2;
}

/// A toolkit for the dice-and-beads board game Roots and Shoots and its house
/// rules.
#[derive(Debug, Parser)]
#[command(name = "roots", version, propagate_version = true)]
#[command(after_help = "Examples:
  roots validate variants/*.toml         check variant files
  roots show variants/fewer-beads.toml   print every rule of a variant, resolved
  roots schema > variant.schema.json     the JSON schema, for editors
  roots simulate --bots greedy,random    playtest with bots, with statistics
  roots compare standard variants/fewer-beads.toml
  roots sweep standard --set beads.supply=30..120:10 --svg supply.svg")]
pub struct Cli {
    /// When to use colours: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,

    #[command(subcommand)]
    pub command: Command,
}

/// The commands. New commands (play, replay, simulate, ...) are one variant
/// and one module each.
#[derive(Debug, Subcommand)]
pub enum Command {
    Validate(validate::Args),
    Show(show::Args),
    Schema(schema::Args),
    Simulate(simulate::Args),
    Compare(compare::Args),
    Sweep(sweep::Args),
}

impl Cli {
    pub fn run(self) -> u8 {
        match self.command {
            Command::Validate(args) => validate::run(args, self.color),
            Command::Show(args) => show::run(args, self.color),
            Command::Schema(args) => schema::run(args),
            Command::Simulate(args) => simulate::run(args),
            Command::Compare(args) => compare::run(args),
            Command::Sweep(args) => sweep::run(args),
        }
    }
}

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

/// The style to print diagnostics in, to a stream that is a terminal or not.
pub fn style(format: Format, color: Color, terminal: bool) -> Style {
    let colored = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    };
    match format {
        Format::Json => Style::Json,
        Format::Plain => Style::Plain,
        Format::Snippet => Style::Snippet { color: colored },
        Format::Auto if terminal || color == Color::Always => Style::Snippet { color: colored },
        Format::Auto => Style::Plain,
    }
}

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Write to stdout. A closed pipe (`roots show | head`) is not an error worth
/// a panic: the reader has what it wanted.
pub fn out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Write to stderr, ignoring a closed pipe.
pub fn err(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
