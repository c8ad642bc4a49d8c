//! `roots completions SHELL` and `roots man`: generated from the clap
//! definitions, so they always match the commands.

use clap::CommandFactory;

use super::{Cli, exit};

/// Print a completion script for SHELL to stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, for example:
  roots completions bash > ~/.local/share/bash-completion/completions/roots
  roots completions zsh > ~/.zfunc/_roots        (with fpath+=~/.zfunc in ~/.zshrc)
  roots completions fish > ~/.config/fish/completions/roots.fish")]
pub struct CompletionArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Print the manual page of `roots` (roff) to stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = "Read it with:  roots man | man -l -
Install it with:  roots man > ~/.local/share/man/man1/roots.1")]
pub struct ManArgs {}

pub fn run_completions(args: CompletionArgs) -> u8 {
    let mut command = Cli::command();
    let mut buffer = Vec::new();
    clap_complete::generate(args.shell, &mut command, "roots", &mut buffer);
    super::out(&String::from_utf8_lossy(&buffer));
    exit::OK
}

pub fn run_man(_args: ManArgs) -> u8 {
    let command = Cli::command();
    let mut buffer = Vec::new();
    if let Err(e) = clap_mangen::Man::new(command).render(&mut buffer) {
        super::err(&format!("error: cannot write the manual page: {e}\n"));
        return exit::USAGE;
    }
    buffer.extend_from_slice(
        b".SH \"SEE ALSO\"\nroots help COMMAND, or roots COMMAND --help, for the options of each command.\n",
    );
    super::out(&String::from_utf8_lossy(&buffer));
    exit::OK
}
