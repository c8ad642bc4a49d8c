//! The player side of the protocol: an external program seated as a
//! [`Player`] (`--bots cmd:PROGRAM`). The program is started for a game,
//! told the game and its seat, sent each position it must decide as a JSON
//! line and answers with one JSON line, `{"action": "..."}`. See
//! `docs/protocol.md`, "The player side".
//!
//! A program that cannot be started, crashes, answers something that is not
//! an action, answers an illegal action, or does not answer within its time
//! limit forfeits: [`Player::choose`] gives [`NoAction::Forfeit`] with the
//! reason, and the program is stopped. Nothing it does can stop the caller:
//! it is read and written on threads of its own, and waited for with a
//! deadline.
//!
//! This is the one place under the rules layers that starts processes; the
//! simulator reaches it only through [`crate::core::player::BotSpec::Cmd`].
//!
//! On Unix each program runs in a process group of its own (the shell that
//! starts it is the group's leader), and it is the whole group that is
//! ended: at the game's end, on a forfeit (a timeout, a crash, a bad
//! answer), when the player is dropped for any reason (an error of the
//! caller), and by [`end_all`] (a Ctrl-C, an exit). So `sh -c "bot"` leaves
//! neither `bot` nor anything `bot` started behind. Groups are killed
//! before their leader is reaped, so the group's id cannot have been reused.

use std::io::{BufReader, Write};
use std::marker::PhantomData;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next};
use crate::games::{ActionOf, Game};

/// The longest answer line read from a player.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// A running player program.
struct Running {
    /// The shell, leader of the program's process group (its pid is the
    /// group's id).
    child: Child,
    /// Lines to write to its standard input (a thread writes them, so a
    /// program that does not read cannot block the game).
    to: Option<Sender<String>>,
    /// Lines read from its standard output.
    from: Receiver<Result<String, String>>,
}

/// An external program playing one seat of a game of `G`.
pub struct CmdPlayer<G: Game> {
    program: &'static str,
    timeout: Duration,
    /// The seed the program is given for its own randomness (drawn from the
    /// seat's seeded stream, so a run is reproducible from its seed).
    seed: u64,
    running: Option<Running>,
    /// Why it forfeited, once it has.
    failed: Option<String>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> CmdPlayer<G> {
    /// A player for the program `program` (run by the shell), answering each
    /// decision within `timeout`, its seed drawn from `dice`.
    pub fn new(program: &'static str, timeout: Duration, mut dice: SeededDice) -> CmdPlayer<G> {
        let seed = (u64::from(dice.next_u32()) << 32) | u64::from(dice.next_u32());
        CmdPlayer {
            program,
            timeout,
            seed,
            running: None,
            failed: None,
            _game: PhantomData,
        }
    }

    fn forfeit(&mut self, why: String) -> NoAction {
        self.stop();
        self.failed = Some(why.clone());
        NoAction::Forfeit(why)
    }

    fn start(&mut self, state: &G::State) -> Result<(), String> {
        let mut command = shell(self.program);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        // Registered while the registry's lock is held, so that `end_all`
        // (a Ctrl-C) never misses a group being started.
        let mut live = groups::lock();
        let mut child = command
            .spawn()
            .map_err(|e| format!("`{}` could not be started: {e}", self.program))?;
        live.push(child.id());
        groups::remember(child.id());
        drop(live);
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            end(&mut child);
            return Err(format!("`{}` could not be connected to", self.program));
        };
        let (to, to_rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in to_rx {
                if stdin.write_all(line.as_bytes()).is_err()
                    || stdin.write_all(b"\n").is_err()
                    || stdin.flush().is_err()
                {
                    break;
                }
            }
            // Dropping stdin closes it: the program sees the end of input.
        });
        let (from_tx, from) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let line = match crate::core::io::read_line(&mut reader, &mut buf) {
                    Ok(Some(Ok(l))) if l.len() > MAX_ANSWER_BYTES => {
                        Err(format!("an answer longer than {MAX_ANSWER_BYTES} bytes"))
                    }
                    Ok(Some(Ok(l))) => Ok(l),
                    Ok(Some(Err(why))) => Err(why),
                    Ok(None) | Err(_) => break,
                };
                if from_tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            to: Some(to),
            from,
        });
        let seat = match state.next() {
            Next::Decide(s) => u64::from(s) + 1,
            _ => u64::from(G::turn_seat(state)) + 1,
        };
        self.send(
            json!({
                "player": "start",
                "protocol": super::wire::PROTOCOL,
                "version": super::wire::VERSION,
                "game": G::ID,
                "seat": seat,
                "seats": state.seats(),
                "seed": self.seed,
            })
            .to_string(),
        );
        Ok(())
    }

    fn send(&mut self, line: String) {
        if let Some(to) = self.running.as_ref().and_then(|r| r.to.as_ref()) {
            // A closed pipe shows as the program's missing answer.
            let _ = to.send(line);
        }
    }

    /// The program's next line, within the time limit.
    fn answer(&mut self) -> Result<String, String> {
        let program = self.program;
        let Some(running) = self.running.as_mut() else {
            return Err(format!("`{program}` is not running"));
        };
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.from.recv_timeout(left) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(why)) => return Err(format!("`{program}` answered {why}")),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "`{program}` did not answer within the time limit of {} s",
                        self.timeout.as_secs_f64()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    // Its output closed: it ended (or closed it).
                    let status = exited_briefly(&mut running.child);
                    return Err(match status {
                        Some(s) => format!("`{program}` ended without answering ({s})"),
                        None => format!("`{program}` closed its output without answering"),
                    });
                }
            }
        }
    }

    /// Stop the program: close its input, give it a moment to end, then
    /// kill its whole process group (whatever it started too) and reap it.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.to = None;
            let _ = exited_briefly(&mut r.child);
            end(&mut r.child);
        }
    }

    fn decide(&mut self, state: &G::State) -> Result<ActionOf<G>, String> {
        if self.running.is_none() {
            self.start(state)?;
        }
        let seat = match state.next() {
            Next::Decide(s) => u64::from(s) + 1,
            _ => u64::from(G::turn_seat(state)) + 1,
        };
        self.send(
            json!({
                "player": "move",
                "seat": seat,
                "state": super::wire::state_json::<G>(state),
            })
            .to_string(),
        );
        let line = self.answer()?;
        let text = match serde_json::from_str::<Value>(&line) {
            Ok(Value::Object(m)) => match m.get("action") {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    return Err(format!(
                        "`{}` answered {}: expected {{\"action\": \"...\"}}",
                        self.program,
                        cut(&line)
                    ));
                }
            },
            _ => {
                return Err(format!(
                    "`{}` answered {}: expected a JSON object {{\"action\": \"...\"}}",
                    self.program,
                    cut(&line)
                ));
            }
        };
        // The referee's words for an action that does not parse or is not
        // legal here.
        let action = G::parse_action(state, &text).map_err(|why| {
            format!(
                "`{}` answered an illegal move: expected an action ({}), found \"{}\": {why}",
                self.program,
                G::describe_node(state),
                cut(&text)
            )
        })?;
        let mut trial = state.clone();
        trial.play(action).map_err(|r| {
            format!(
                "`{}` answered an illegal move: expected a legal action, found \"{}\": {r}",
                self.program,
                cut(&text)
            )
        })?;
        Ok(action)
    }
}

impl<G: Game> Player<G::State> for CmdPlayer<G> {
    fn name(&self) -> String {
        format!("cmd:{}", self.program)
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        if let Some(why) = &self.failed {
            return Err(NoAction::Forfeit(why.clone()));
        }
        self.decide(state).map_err(|why| self.forfeit(why))
    }
}

impl<G: Game> Drop for CmdPlayer<G> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The program as the shell runs it, so that `python3 bot.py --deep` works.
fn shell(program: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(program);
        c
    } else {
        let mut c = Command::new("sh");
        c.arg("-c").arg(program);
        c
    }
}

/// How a program ended, if it did within half a second; it is not reaped
/// (on Unix), so its process group can still be killed safely.
fn exited_briefly(child: &mut Child) -> Option<String> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        match groups::exited(child) {
            Some(s) => return Some(s),
            None if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            None => return None,
        }
    }
}

/// Kill the program's process group (the program and all it started),
/// then reap the leader and forget the group.
fn end(child: &mut Child) {
    groups::kill(child);
    groups::forget(child.id());
    let _ = child.wait();
    groups::lock().retain(|&p| p != child.id());
}

/// End every external player still running, with everything they started:
/// for a Ctrl-C or an exit that will not run the players' own clean-up.
pub fn end_all() {
    let mut live = groups::lock();
    for &pid in live.iter() {
        groups::kill_group(pid);
        groups::forget(pid);
    }
    live.clear();
}

/// The signals that end a program: Ctrl-C at a terminal (SIGINT), and what
/// schedulers and service managers send (SIGTERM: `timeout`, Slurm's
/// `scancel` and preemption, Kubernetes, systemd; SIGHUP: a closed
/// terminal or session).
///
/// [`catch`] installs one handler for them. The first signal wakes a thread
/// of the program's, which runs the action given to [`on_signal`] (a
/// command that wants to end cleanly: finish what it writes, then exit), or
/// by default ends every external player's process group ([`end_all`]) and
/// exits with 128 + the signal (130 for SIGINT, 143 for SIGTERM, 129 for
/// SIGHUP). A second signal ends the players' groups from the handler
/// itself and exits at once: a program that does not stop is never
/// unkillable by its scheduler's second try.
///
/// How a command uses it: call [`catch`] once at its start (the binary does
/// for every command); a command with work to save calls [`on_signal`] with
/// an action that makes its run stop (a flag its loop reads) and, once what
/// it writes is complete, calls [`end_all`] and exits with
/// [`exit_status`] of the signal it was given.
pub mod signals {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicI32, Ordering};

    pub const SIGINT: i32 = 2;
    pub const SIGHUP: i32 = 1;
    pub const SIGTERM: i32 = 15;

    /// The signal caught first (0: none yet).
    static CAUGHT: AtomicI32 = AtomicI32::new(0);
    /// The pipe's write end, for the handler (-1: not installed).
    static WAKE: AtomicI32 = AtomicI32::new(-1);

    /// Whether a second signal leaves the program running (a run that is
    /// already stopping: see [`patient`]).
    static PATIENT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    type Action = Box<dyn FnOnce(i32) + Send>;
    static ACTION: Mutex<Option<Action>> = Mutex::new(None);

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
        super::end_all();
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
            for slot in &super::groups::SLOTS {
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
}

/// The process groups of the running players, and the system calls on them.
mod groups {
    use std::process::Child;
    use std::sync::{Mutex, MutexGuard};

    use std::sync::atomic::{AtomicU32, Ordering};

    static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    pub fn lock() -> MutexGuard<'static, Vec<u32>> {
        LIVE.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The same groups without a lock, for a signal handler (which may not
    /// take one): a slot holds a leader's pid, or 0. More players than
    /// slots at once are still in `LIVE`, only not ended by a second signal.
    #[allow(clippy::declare_interior_mutable_const)]
    const EMPTY: AtomicU32 = AtomicU32::new(0);
    pub static SLOTS: [AtomicU32; 1024] = [EMPTY; 1024];

    pub fn remember(pid: u32) {
        for slot in &SLOTS {
            if slot
                .compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    pub fn forget(pid: u32) {
        for slot in &SLOTS {
            let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
        }
    }

    /// Kill the group whose leader is `pid` (a no-op once it is gone).
    #[cfg(unix)]
    pub fn kill_group(pid: u32) {
        if let Ok(p) = i32::try_from(pid)
            && p > 1
        {
            // SAFETY: kill(2) takes plain integers; a negative pid names a
            // process group.
            unsafe {
                libc::kill(-p, libc::SIGKILL);
            }
        }
    }

    #[cfg(not(unix))]
    pub fn kill_group(_pid: u32) {}

    /// Kill the program's whole group (its leader not yet reaped).
    pub fn kill(child: &mut Child) {
        kill_group(child.id());
        let _ = child.kill();
    }

    /// Whether the leader has ended, and how, without reaping it.
    #[cfg(target_os = "linux")]
    pub fn exited(child: &mut Child) -> Option<String> {
        // SAFETY: siginfo_t is plain data, valid when zeroed.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a siginfo_t the kernel may fill; WNOWAIT leaves
        // the child waitable (its group id is not reused before we reap it).
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                child.id(),
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: after a successful waitid with WEXITED the union holds a
        // child's pid and status (a pid of 0: no child has changed state).
        let (pid, status) = unsafe { (info.si_pid(), info.si_status()) };
        if r != 0 || pid == 0 {
            return None;
        }
        Some(if info.si_code == libc::CLD_EXITED {
            format!("exit status: {status}")
        } else {
            format!("signal: {status}")
        })
    }

    /// Whether the leader has ended (reaping it: without Linux's `waitid`
    /// the group's id may then be reused, a risk only outside Linux).
    #[cfg(not(target_os = "linux"))]
    pub fn exited(child: &mut Child) -> Option<String> {
        match child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            _ => None,
        }
    }
}

fn cut(s: &str) -> String {
    if s.chars().count() > 60 {
        let c: String = s.chars().take(57).collect();
        format!("{c}...")
    } else {
        s.to_string()
    }
}
