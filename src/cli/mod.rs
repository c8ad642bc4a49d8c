//! The subcommands of `roots`, one file each. Exit codes: 0 success, 1 a
//! failure (an invalid record or variant, a refused game), 2 a usage or IO
//! error.

mod board;
mod human;
mod play;
mod replay;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A toolkit for the dice-and-beads board game Roots and Shoots.
#[derive(Parser, Debug)]
#[command(name = "roots", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play a game at the terminal, the program as referee; every event is
    /// recorded so the game can be replayed or resumed.
    Play(play::PlayArgs),
    /// Re-apply every event of a game record and report the result.
    Replay(replay::ReplayArgs),
}

/// How a command failed.
#[derive(Debug)]
pub enum Failure {
    /// The input was read but is wrong (exit 1).
    Invalid(String),
    /// Usage or IO (exit 2).
    Io(String),
}

impl Failure {
    fn exit(&self) -> ExitCode {
        match self {
            Failure::Invalid(m) => {
                eprintln!("{m}");
                ExitCode::from(1)
            }
            Failure::Io(m) => {
                eprintln!("{m}");
                ExitCode::from(2)
            }
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play::run(args),
        Command::Replay(args) => replay::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.exit(),
    }
}

/// The rules of a variant argument: a built-in name or a TOML file.
///
/// Stopgap until the variant loader lands: `standard`, or a complete
/// variant file read with `toml`.
pub fn load_variant(arg: Option<&str>) -> Result<roots::variant::Rules, Failure> {
    use roots::variant::Rules;
    let arg = arg.unwrap_or("standard");
    if arg == "standard" {
        return Ok(Rules::standard());
    }
    let text = std::fs::read_to_string(arg)
        .map_err(|e| Failure::Io(format!("{arg}: error: cannot read the variant: {e}")))?;
    let rules: Rules = toml::from_str(&text)
        .map_err(|e| Failure::Invalid(format!("{arg}: error: not a valid variant: {e}")))?;
    roots::referee::check_playable(&rules)
        .map_err(|e| Failure::Invalid(format!("{arg}: error: {e}")))?;
    Ok(rules)
}
