//! Interruption, once for every command: a Ctrl-C (SIGINT) during a run
//! (simulate, compare, sweep, tune, ladder) lets the games under way finish,
//! starts no more, and the run prints (or, as a shard, writes) what it
//! played marked partial, exit 130; any other command ends at once, its
//! external players with it.

use std::sync::atomic::{AtomicBool, Ordering};

use super::console;
use super::failure::{Failure, exit};

/// Set by the first Ctrl-C of a run.
static FLAG: AtomicBool = AtomicBool::new(false);

/// For a command that plays a run: a Ctrl-C sets the flag every run reads
/// ([`flag`]); a second one says the run is stopping (it used to exit at
/// once, losing the report and the rows not yet written).
pub fn catch() {
    let _ = ctrlc::set_handler(|| {
        if FLAG.swap(true, Ordering::SeqCst) {
            console::err("already stopping: finishing the games under way\n");
        }
    });
}

/// For any other command: a Ctrl-C ends it at once, and its external
/// players with it (they run in process groups of their own, which a
/// Ctrl-C at the terminal does not reach).
pub fn end_at_once() {
    let _ = ctrlc::set_handler(|| {
        crate::bots::end_external_players();
        std::process::exit(i32::from(exit::INTERRUPTED));
    });
}

/// The flag a run stops at (no game starts once it is set).
pub fn flag() -> &'static AtomicBool {
    &FLAG
}

/// Whether a run was interrupted.
pub fn interrupted() -> bool {
    FLAG.load(Ordering::Relaxed)
}

/// The exit code of a run: 130 when it was interrupted (its partial report
/// printed), 0 when it ended, else the failure's, reported on stderr.
pub fn exit_code(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) if interrupted() => exit::INTERRUPTED,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}
