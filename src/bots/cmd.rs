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
        // (a Ctrl-C) never misses a group being started; and `end_all` made
        // the signals' default before the first group starts (set after,
        // a signal in between found nothing to end players with).
        crate::signals::end_players_with(end_all);
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

/// The process groups of the running players, and the system calls on them.
mod groups {
    use std::process::Child;
    use std::sync::{Mutex, MutexGuard};

    static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

    pub fn lock() -> MutexGuard<'static, Vec<u32>> {
        LIVE.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The same groups without a lock, for the signal handler (which may
    /// not take one).
    pub fn remember(pid: u32) {
        crate::signals::remember_group(pid);
    }

    pub fn forget(pid: u32) {
        crate::signals::forget_group(pid);
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
