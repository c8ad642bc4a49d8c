//! The `roots` command line. Parsing and printing only: see `src/cli/`.
//!
//! Before a command runs: standard output must be open (a command whose
//! output would be lost says so and does nothing), and the signals that end
//! a program (SIGINT, SIGTERM, SIGHUP) are caught with the command's own
//! action (a run's partial report, or an end at once that ends the
//! external players' process groups with it: [`roots::signals`]). `--help` and `--version`
//! check their output like every command.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    if stdout::closed_at_start() {
        cli::err(
            "error: cannot write to standard output: it is closed; nothing was done (to discard the output, send it to /dev/null)\n",
        );
        return ExitCode::from(cli::exit::USAGE);
    }
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => e.exit(),
        // --help, --version: printed to stdout, and checked.
        Err(e) => {
            let written = e.print().and_then(|()| std::io::stdout().flush());
            return ExitCode::from(match written {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    cli::err(&format!(
                        "error: cannot write to standard output: {w}; the output is incomplete\n"
                    ));
                    cli::exit::USAGE
                }
                _ => cli::exit::OK,
            });
        }
    };
    cli.catch_signals();
    let code = cli.run();
    // A signal ends the program with 128 + the signal, whichever thread
    // gets there first: the signal's thread ends the external players and
    // exits, and a command waiting on one of them can see it end and fail
    // with its own code before that exit happens (a race a busy machine
    // wins).
    ExitCode::from(match roots::signals::caught() {
        Some(signal) => roots::signals::exit_status(signal),
        None => code,
    })
}

/// Whether standard output was closed when the program started (`roots ...
/// >&-`). The Rust runtime opens `/dev/null` in place of a closed standard
/// descriptor before `main`, so writes would succeed into nothing: the
/// descriptor is looked at earlier, from the program's initialisers
/// (`.init_array`, run by the C library before the runtime starts; Linux).
mod stdout {
    #[cfg(target_os = "linux")]
    mod check {
        use std::sync::atomic::{AtomicBool, Ordering};

        pub static CLOSED: AtomicBool = AtomicBool::new(false);

        extern "C" fn look() {
            // SAFETY: fcntl(F_GETFD) only reads the flags of descriptor 1;
            // -1 (EBADF) when it is not open.
            if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
                CLOSED.store(true, Ordering::SeqCst);
            }
        }

        #[used]
        #[unsafe(link_section = ".init_array")]
        static LOOK: extern "C" fn() = look;

        pub fn closed() -> bool {
            CLOSED.load(Ordering::SeqCst)
        }
    }

    #[cfg(target_os = "linux")]
    pub fn closed_at_start() -> bool {
        check::closed()
    }

    /// Elsewhere a closed standard output is not detected.
    #[cfg(not(target_os = "linux"))]
    pub fn closed_at_start() -> bool {
        false
    }
}
