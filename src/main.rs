//! The `roots` command line. Parsing and printing only: see `src/cli/`.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    ExitCode::from(cli.run())
}
