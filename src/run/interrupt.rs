//! Interruption, once for every command: a signal that ends a program
//! (SIGINT from Ctrl-C, SIGTERM from `timeout`, `scancel`, Kubernetes or
//! systemd, SIGHUP from a closed terminal) during a run (simulate, compare,
//! sweep, tune, ladder) lets the games under way finish, starts no more,
//! and the run prints (or, as a shard, writes) what it played marked
//! partial, exit 128 + the signal (130, 143, 129); any other command ends
//! at once, its external players with it. The signals themselves are caught by [`crate::signals`]
//! (the binary installs it before any command runs).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use super::failure::{Failure, exit};
use crate::signals;

/// Set by the first signal of a run.
static FLAG: AtomicBool = AtomicBool::new(false);
/// The signal that set [`FLAG`] (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// For a command that plays a run: the first signal sets the flag every
/// run reads ([`flag`]), and the run ends with its partial report, its
/// external players with it; a second one only says the run is stopping
/// (ending at once lost the report and the rows of `--out` still buffered).
pub fn catch() {
    signals::patient();
    signals::on_signal(|signal| {
        SIGNAL.store(signal, Ordering::SeqCst);
        FLAG.store(true, Ordering::SeqCst);
    });
}

/// For any other command: the first signal ends it at once, and its
/// external players with it (they run in process groups of their own,
/// which a Ctrl-C at the terminal does not reach). This is what
/// [`crate::signals`] does when no command asked otherwise, so there
/// is nothing to set up.
pub fn end_at_once() {}

/// The flag a run stops at (no game starts once it is set).
pub fn flag() -> &'static AtomicBool {
    &FLAG
}

/// Whether a run was interrupted.
pub fn interrupted() -> bool {
    FLAG.load(Ordering::Relaxed)
}

/// The exit code of a run: 128 + the signal when it was interrupted (its
/// partial report printed: 130 for Ctrl-C, 143 for SIGTERM, 129 for
/// SIGHUP), 0 when it ended, else the failure's, reported on stderr.
pub fn exit_code(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) if interrupted() => match SIGNAL.load(Ordering::SeqCst) {
            0 => exit::INTERRUPTED,
            signal => signals::exit_status(signal),
        },
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}
