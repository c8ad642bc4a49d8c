//! The human at the terminal: reads typed commands (from a terminal or a
//! pipe), answers `legal`, `board` and `help`, and hands the referee only
//! actions the engine accepts.

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::rc::Rc;

use roots::bots::{NoAction, Player};
use roots::core::dice::Die;
use roots::core::protocol::{GameState, Next};
use roots::roots::{Action, State};

use super::board;

/// The shared terminal: every human seat and the typed dice read from it.
pub struct Console {
    input: Box<dyn BufRead>,
    /// Echo what was read (input from a pipe), so a transcript reads well.
    echo: bool,
    pub names: Vec<String>,
    pub colour: bool,
}

pub type SharedConsole = Rc<RefCell<Console>>;

pub const HELP: &str = "\
Commands:
  an action      grow buds | place 3,4 | pass | spawn 3,4 | lose 3,4
  shorthands     3,4 (place, spawn or lose, as the moment needs);
                 grow 8 or d8 (the growth action that rolls the d8);
                 a number: the face of a die you rolled (--dice manual)
  legal, ?       list the legal choices
  board          draw the board
  help           this text
  quit           stop; the record stays and the game can be resumed
                 with `roots play --resume RECORD`
Points are x,y: column then row, counted from 0,0 in the top left corner.";

/// The longest line a person may type at the table, in bytes (an action is
/// a dozen).
pub const MAX_TYPED_LINE: usize = 4096;

impl Console {
    pub fn new(input: Box<dyn BufRead>, names: Vec<String>, colour: bool) -> Console {
        use std::io::IsTerminal;
        Console {
            input,
            echo: !std::io::stdin().is_terminal(),
            names,
            colour,
        }
    }

    /// One line of input after a prompt; `None` at end of input. A line that
    /// is not UTF-8 or longer than [`MAX_TYPED_LINE`] bytes is refused with a
    /// message and read as an empty line (the prompt comes again); only its
    /// first bytes are kept in memory, whatever its length.
    fn read(&mut self, prompt: &str) -> Option<String> {
        print!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut bytes = Vec::new();
        let mut len = 0usize;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if buf.is_empty() {
                break;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..=i], true),
                None => (buf, false),
            };
            let n = chunk.len();
            let room = (MAX_TYPED_LINE + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&chunk[..n.min(room)]);
            len += n;
            self.input.consume(n);
            if done {
                break;
            }
        }
        if len == 0 {
            println!();
            return None;
        }
        let text = match std::str::from_utf8(&bytes) {
            _ if bytes.len() > MAX_TYPED_LINE => {
                println!(
                    "\nrefused: a line of {len} bytes; a typed line has at most {MAX_TYPED_LINE}"
                );
                return Some(String::new());
            }
            Ok(text) => text,
            Err(e) => {
                println!(
                    "\nrefused: the line is not UTF-8 text (an invalid byte at byte {}); type it again",
                    e.valid_up_to() + 1
                );
                return Some(String::new());
            }
        };
        let line = text.trim().to_string();
        if self.echo {
            println!("{line}");
        }
        Some(line)
    }

    /// Answer a command every prompt knows; `Some` when the line was one.
    fn common(&self, state: &State, line: &str) -> Option<Result<(), NoAction>> {
        match line.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => Some(Err(NoAction::Quit)),
            "board" | "b" => {
                print!("{}", board::render(state, &self.names, self.colour));
                Some(Ok(()))
            }
            "help" | "h" => {
                println!("{HELP}");
                Some(Ok(()))
            }
            _ => None,
        }
    }

    fn prompt(&self, state: &State) -> String {
        let who = match state.next() {
            Next::Decide(s) => s,
            _ => state.turn_seat(),
        };
        format!(
            "[{} {}] {}",
            board::seat_tag(who, self.colour),
            self.names
                .get(usize::from(who))
                .map(String::as_str)
                .unwrap_or("?"),
            state.describe_node()
        )
    }

    /// The face of `die` typed by the players (physical dice).
    pub fn typed_face(&mut self, state: &State, die: Die) -> Result<u8, NoAction> {
        let sides = die.sides();
        loop {
            let prompt = format!(
                "{}\nroll the {die} and type the face (1-{sides})\n> ",
                self.prompt(state)
            );
            let line = self.read(&prompt).ok_or(NoAction::EndOfInput)?;
            if line.is_empty() {
                continue;
            }
            if let Some(r) = self.common(state, &line) {
                r?;
                continue;
            }
            if line == "?" || line.eq_ignore_ascii_case("legal") {
                println!("a face of the {die}: 1 to {sides}");
                continue;
            }
            match line.parse::<u32>() {
                Ok(f) if (1..=u32::from(sides)).contains(&f) => return Ok(f as u8),
                Ok(f) => println!("a {die} has faces 1 to {sides}, not {f}"),
                Err(_) => println!(
                    "expected the face of the {die} (a number from 1 to {sides}), or `help`; not `{line}`"
                ),
            }
        }
    }

    /// A decision of the seat at the node of `state`.
    pub fn decide(&mut self, state: &State) -> Result<Action, NoAction> {
        loop {
            let prompt = format!("{}\n> ", self.prompt(state));
            let line = self.read(&prompt).ok_or(NoAction::EndOfInput)?;
            if line.is_empty() {
                continue;
            }
            if let Some(r) = self.common(state, &line) {
                r?;
                continue;
            }
            if line == "?" || line.eq_ignore_ascii_case("legal") {
                println!("{}", legal_text(state));
                continue;
            }
            let action = match roots::referee::interpret(state, &line) {
                Ok(a) => a,
                Err(why) => {
                    println!("not understood: {why} (type `legal` or `help`)");
                    continue;
                }
            };
            let mut trial = state.clone();
            match trial.play(action) {
                Ok(()) => return Ok(action),
                Err(refusal) => println!("illegal: {}: {refusal}", action.to_text(state.grid())),
            }
        }
    }
}

/// The legal choices, compactly.
pub fn legal_text(state: &State) -> String {
    let g = state.grid();
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let points = |f: fn(&Action) -> Option<roots::core::geometry::Point>| -> Vec<String> {
        legal.iter().filter_map(f).map(|p| g.name(p)).collect()
    };
    let mut parts = Vec::new();
    let grows: Vec<String> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Grow(gr) => Some(format!(
                "grow {gr} ({})",
                state.rules().die_for(*gr).map(Die::name).unwrap_or("?")
            )),
            _ => None,
        })
        .collect();
    if !grows.is_empty() {
        parts.push(grows.join(", "));
    }
    for (verb, pts) in [
        (
            "place at",
            points(|a| match a {
                Action::Place(p) => Some(*p),
                _ => None,
            }),
        ),
        (
            "spawn at",
            points(|a| match a {
                Action::Spawn(p) => Some(*p),
                _ => None,
            }),
        ),
        (
            "lose the end at",
            points(|a| match a {
                Action::Lose(p) => Some(*p),
                _ => None,
            }),
        ),
    ] {
        if !pts.is_empty() {
            parts.push(format!("{verb} ({}): {}", pts.len(), pts.join(" ")));
        }
    }
    if legal.contains(&Action::Pass) {
        parts.push("pass".to_string());
    }
    if parts.is_empty() {
        "nothing to decide here".to_string()
    } else {
        format!("legal: {}", parts.join("; "))
    }
}

/// A human seat: asks the shared console.
pub struct Human {
    console: SharedConsole,
}

impl Human {
    pub fn new(console: SharedConsole) -> Human {
        Human { console }
    }
}

impl Player for Human {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        self.console.borrow_mut().decide(state)
    }
}
