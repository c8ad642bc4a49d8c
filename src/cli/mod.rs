//! The command line: one module per command. Each command's `run` returns
//! the process exit code; the library does the work.

use std::io::IsTerminal;

use clap::{Parser, Subcommand, ValueEnum};
use roots::variant::Style;

mod board;
pub mod compare;
mod human;
pub mod play;
pub mod replay;
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
  roots simulate --bots greedy,random             playtest with bots: statistics for the standard rules
  roots compare standard variants/fewer-beads.toml  does a house rule change the game?
  roots sweep standard --set beads.supply=30..120:10 --svg supply.svg
  roots validate variants/*.toml                  check variant files
  roots show variants/fewer-beads.toml            print every rule of a variant, resolved
  roots play --players human,random               play at the terminal against a bot
  roots play --players human,human --dice manual  referee a game on a real board
  roots replay roots-game-*.jsonl                 re-check a recorded game
  roots schema > variant.schema.json              the JSON schema, for editors")]
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
    /// Check variant files: every mistake, at file:line:col.
    Validate(validate::Args),
    /// Print a variant's rules, resolved (after `extends` and defaults).
    Show(show::Args),
    /// Print the JSON Schema of variant files.
    Schema(schema::Args),
    /// Play a game at the terminal, the program as referee; every event is
    /// recorded so the game can be replayed or resumed.
    Play(play::PlayArgs),
    /// Re-apply every event of a game record and report the result.
    Replay(replay::ReplayArgs),
    /// Playtest a variant: many seeded bot games, with statistics on
    /// fairness, length and luck.
    Simulate(simulate::Args),
    /// The same statistics for two variants side by side, over matched seeds,
    /// with each difference tested.
    Compare(compare::Args),
    /// The statistics across a range of values of one key, as a table and an
    /// SVG plot.
    Sweep(sweep::Args),
}

impl Cli {
    pub fn run(self) -> u8 {
        match self.command {
            Command::Validate(args) => validate::run(args, self.color),
            Command::Show(args) => show::run(args, self.color),
            Command::Schema(args) => schema::run(args),
            Command::Play(args) => finish(play::run(args)),
            Command::Replay(args) => finish(replay::run(args)),
            Command::Simulate(args) => simulate::run(args),
            Command::Compare(args) => compare::run(args),
            Command::Sweep(args) => sweep::run(args),
        }
    }
}

/// How a command failed.
#[derive(Debug)]
pub enum Failure {
    /// The input was read but is wrong (exit 1).
    Invalid(String),
    /// Usage or IO (exit 2).
    Io(String),
}

fn finish(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => exit::OK,
        Err(Failure::Invalid(m)) => {
            err(&format!("{m}\n"));
            exit::INVALID
        }
        Err(Failure::Io(m)) => {
            err(&format!("{m}\n"));
            exit::USAGE
        }
    }
}

/// The rules of a variant argument: a built-in name (`standard`) or a path,
/// through the full variant pipeline. Its diagnostics are printed to stderr;
/// warnings do not stop the command.
pub fn load_variant(arg: Option<&str>) -> Result<roots::variant::Rules, Failure> {
    use roots::variant::{Code, render};
    let arg = arg.unwrap_or("standard");
    let style = style(Format::Auto, Color::Auto, stderr_is_terminal());
    match roots::variant::load(arg) {
        Ok(loaded) => {
            if !loaded.warnings.is_empty() {
                err(&render(&loaded.warnings, &loaded.sources, style));
            }
            Ok(loaded.rules)
        }
        Err(diags) => {
            let text = render(&diags.items, &diags.sources, style);
            let io = diags.items.iter().any(|d| d.code == Code::Io);
            let summary =
                format!("{text}error: variant `{arg}` is not valid; see `roots validate {arg}`");
            Err(if io {
                Failure::Io(text)
            } else {
                Failure::Invalid(summary)
            })
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
