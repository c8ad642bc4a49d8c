//! `roots engine`: the engine protocol on standard input and output (JSON
//! Lines, one answer line per request line; `docs/protocol.md`).

/// Serve the engine protocol on stdin/stdout: start a game of any variant,
/// ask for the state and the legal actions, apply rolls and actions (checked
/// by the referee), ask a built-in bot, undo, save the record.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  echo '{\"cmd\":\"start\",\"variant\":\"btt\",\"seed\":7}' | roots engine
The protocol is described in docs/protocol.md.")]
pub struct Args {
    /// Refuse to read variant files, write records or start programs, and
    /// play at most 8 games per `simulate`: built-in variants and inline
    /// TOML only (for an engine serving untrusted clients).
    #[arg(long)]
    pub no_files: bool,
}

pub fn run(args: Args) -> u8 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let access = if args.no_files {
        roots::engine::Access::CLOSED
    } else {
        roots::engine::Access::ALL
    };
    match roots::engine::serve(&mut stdin.lock(), &mut stdout.lock(), access) {
        Ok(()) => super::exit::OK,
        // The client closed its end: nothing more to say to it.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => super::exit::OK,
        Err(e) => super::Failure::usage(format!("engine: {e}")).report(),
    }
}
