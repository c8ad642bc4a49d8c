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
        let mut child = command
            .spawn()
            .map_err(|e| format!("`{}` could not be started: {e}", self.program))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
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
                    let status = wait_briefly(&mut running.child);
                    return Err(match status {
                        Some(s) => format!("`{program}` ended without answering ({s})"),
                        None => format!("`{program}` closed its output without answering"),
                    });
                }
            }
        }
    }

    /// Stop the program: close its input, give it a moment, then kill it.
    fn stop(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.to = None;
            if wait_briefly(&mut r.child).is_none() {
                let _ = r.child.kill();
                let _ = r.child.wait();
            }
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

/// The exit status of a program given half a second to end, if it did.
fn wait_briefly(child: &mut Child) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
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
