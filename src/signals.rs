//! The signals that end a program: Ctrl-C at a terminal (SIGINT), and what
//! schedulers and service managers send (SIGTERM: `timeout`, Slurm's
//! `scancel` and preemption, Kubernetes, systemd; SIGHUP: a closed
//! terminal or session).
//!
//! [`catch`] installs one handler for them. The first signal wakes a thread
//! of the program's, which runs the action given to [`on_signal`] (a
//! command that wants to end cleanly: finish what it writes, then exit), or
//! by default ends every external player's process group and
//! exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM, 129 for
//! SIGHUP). A second signal ends the players' groups from the handler
//! itself and exits at once: a program that does not stop is never
//! unkillable by its scheduler's second try.
//!
//! How a command uses it: call [`catch`] once at its start (the binary does
//! for every command); a command with work to save calls [`on_signal`] with
//! an action that makes its run stop (a flag its loop reads) and, once what
//! it writes is complete, calls `bots::end_external_players` and exits with
//! [`exit_status`] of the signal it was given.
//!
//! Below every layer that uses it (the players, the run layer, the server,
//! the binary): it knows nothing of them; the external players register
//! their process groups and their end here ([`remember_group`],
//! [`end_players_with`]).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

pub const SIGINT: i32 = 2;
pub const SIGHUP: i32 = 1;
pub const SIGTERM: i32 = 15;

/// The signal caught first (0: none yet).
static CAUGHT: AtomicI32 = AtomicI32::new(0);
/// The pipe's write end, for the handler (-1: not installed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// Whether a second signal leaves the program running (a run that is
/// already stopping: see [`patient`]).
static PATIENT: AtomicBool = AtomicBool::new(false);

type Action = Box<dyn FnOnce(i32) + Send>;
static ACTION: Mutex<Option<Action>> = Mutex::new(None);

/// The process groups of the running external players, without a lock,
/// for the handler (which may not take one): a slot holds a group leader's
/// pid, or 0. More players than slots at once are still ended by the first
/// signal (through [`end_players_with`]), only not by a second one.
#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: AtomicU32 = AtomicU32::new(0);
static GROUPS: [AtomicU32; 1024] = [EMPTY; 1024];

/// What ends every external player (`bots::end_external_players`), set by
/// the players themselves when the first one starts: this module sits
/// below them.
static END_PLAYERS: OnceLock<fn()> = OnceLock::new();

/// Run `end` (ending every external player) on the first signal when no
/// command set its own action; the first call wins.
pub fn end_players_with(end: fn()) {
    let _ = END_PLAYERS.set(end);
}

/// Note the process group led by `pid`, for a second signal to kill.
pub fn remember_group(pid: u32) {
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            return;
        }
    }
}

/// Forget the process group led by `pid` (ended).
pub fn forget_group(pid: u32) {
    for slot in &GROUPS {
        let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// The conventional exit status of a program ended by `signal`.
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(1)
}

/// The signal caught so far, if any.
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Run `action` (on a thread of its own, given the signal) instead of
/// the default on the first signal caught. The action is expected to
/// end the process; a second signal ends it anyway.
pub fn on_signal(action: impl FnOnce(i32) + Send + 'static) {
    *ACTION.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(action));
}

/// For a command that stops by itself once told (a run: no game starts
/// after the first signal, the games under way finish, the partial
/// report is written): a second signal only says it is stopping,
/// instead of ending the program with its report and the rows of its
/// `--out` file half written.
pub fn patient() {
    PATIENT.store(true, Ordering::SeqCst);
}

/// What happens on the first signal without an [`on_signal`] action.
fn default_action(signal: i32) {
    if let Some(end) = END_PLAYERS.get() {
        end();
    }
    std::process::exit(i32::from(exit_status(signal)));
}

#[cfg(unix)]
extern "C" fn handler(signal: libc::c_int) {
    // Only async-signal-safe calls here: atomics, write(2), kill(2),
    // _exit(2).
    if CAUGHT
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        if PATIENT.load(Ordering::SeqCst) {
            const SAY: &[u8] = b"already stopping: finishing the games under way\n";
            // SAFETY: write(2) of a static buffer is async-signal-safe.
            unsafe {
                libc::write(2, SAY.as_ptr().cast(), SAY.len());
            }
            return;
        }
        for slot in &GROUPS {
            let pid = slot.load(Ordering::SeqCst);
            if let Ok(p) = i32::try_from(pid)
                && p > 1
            {
                // SAFETY: kill(2) is async-signal-safe; -p names a group.
                unsafe {
                    libc::kill(-p, libc::SIGKILL);
                }
            }
        }
        // SAFETY: _exit(2) is async-signal-safe and ends the process.
        unsafe { libc::_exit(128 + signal) }
    }
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = signal as u8;
        // SAFETY: write(2) of one byte from the stack is
        // async-signal-safe.
        unsafe {
            libc::write(fd, (&raw const byte).cast(), 1);
        }
    }
}

/// Install the handler for `which` (SIGINT, SIGTERM, SIGHUP); again for
/// a signal whose handler another library replaced, to take it back.
/// Does nothing outside Unix.
#[cfg(unix)]
pub fn catch(which: &[i32]) {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: pipe(2) fills the two descriptors of `fds`.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        let [read, write] = fds;
        WAKE.store(write, Ordering::SeqCst);
        let _ = std::thread::Builder::new()
            .name("roots-signals".into())
            .spawn(move || {
                let mut byte = 0u8;
                loop {
                    // SAFETY: a read(2) of one byte into `byte`.
                    let n = unsafe { libc::read(read, (&raw mut byte).cast(), 1) };
                    if n == 1 {
                        break;
                    }
                    if n == 0 {
                        return;
                    }
                }
                let signal = i32::from(byte);
                let action = ACTION.lock().unwrap_or_else(|e| e.into_inner()).take();
                match action {
                    Some(act) => act(signal),
                    None => default_action(signal),
                }
            });
    });
    for &signal in which {
        // SAFETY: a zeroed sigaction is valid; the handler is an
        // `extern "C" fn(c_int)`, SA_RESTART keeps other threads' calls
        // going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
pub fn catch(_which: &[i32]) {}
