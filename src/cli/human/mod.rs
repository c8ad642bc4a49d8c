//! The human at the terminal: reads typed commands (from a terminal or a
//! pipe), answers `legal`, `board` and `help`, and hands the referee only
//! actions the engine accepts.

use super::{outln, outp};
use std::cell::RefCell;
use std::io::BufRead;
use std::marker::PhantomData;
use std::rc::Rc;

use roots::bots::{NoAction, Player};
use roots::core::dice::Die;
use roots::core::protocol::{GameState, Next};
use roots::games::{ActionOf, Registered};

mod read;

/// The shared terminal: every human seat and the typed dice read from it.
pub struct Console<G: Registered> {
    input: Box<dyn BufRead>,
    /// Line editing and the session's history, when standard input and
    /// output are a terminal; otherwise lines are read plainly from `input`.
    editor: Option<rustyline::DefaultEditor>,
    /// Faces typed ahead on one line (`7 13` for the two d20 of a spawn),
    /// each checked when its roll comes.
    pending: std::collections::VecDeque<u32>,
    /// Echo what was read (input from a pipe), so a transcript reads well.
    echo: bool,
    pub names: Vec<String>,
    pub colour: bool,
    game: PhantomData<G>,
}

pub type SharedConsole<G> = Rc<RefCell<Console<G>>>;

/// The commands every game's prompt knows (`roots play --help`).
pub const HELP: &str = "\
Commands at the prompt:
  an action      the game's moves: type `help` in a game for its notation,
                 `legal` for the moves you can make now
  a number       the face of a die you rolled (--dice manual); several
                 faces on one line go to the next rolls (both d20: 7 13)
  undo           take back your last move, with the bots' replies to it,
                 or the last typed face (recorded, so the record still
                 replays exactly); a roll or card the program drew stands
  legal, ?       list the legal choices
  board          draw the board
  help           this text
  quit           stop; the record stays and the game can be resumed
                 with `roots play --resume RECORD`";

/// The help of a game's prompt: its moves, then the common commands.
pub fn help<G: Registered>() -> String {
    format!(
        "Commands:\n{}\n  undo           take back your last move (and the bots' replies) or typed face\n  legal, ?       list the legal choices\n  board          draw the board\n  help           this text\n  quit           stop; the record stays and the game can be resumed\n                 with `roots play --resume RECORD`{}",
        G::ACTION_HELP.trim_end(),
        match G::NOTATION_HELP {
            "" => String::new(),
            note => format!("\n{note}"),
        }
    )
}

/// The longest line a person may type at the table, in bytes (an action is
/// a dozen).
pub const MAX_TYPED_LINE: usize = 4096;

impl<G: Registered> Console<G> {
    pub fn new(input: Box<dyn BufRead>, names: Vec<String>, colour: bool) -> Console<G> {
        use std::io::IsTerminal;
        let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        Console {
            input,
            editor: if terminal {
                rustyline::DefaultEditor::new().ok()
            } else {
                None
            },
            pending: std::collections::VecDeque::new(),
            echo: !std::io::stdin().is_terminal(),
            names,
            colour,
            game: PhantomData,
        }
    }

    /// Answer a command every prompt knows; `Some` when the line was one.
    fn common(&self, state: &G::State, line: &str) -> Option<Result<(), NoAction>> {
        match line.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => Some(Err(NoAction::Quit)),
            "undo" | "u" => Some(Err(NoAction::Undo)),
            "board" | "b" => {
                outp!("{}", G::board_for_people(state, &self.names, self.colour));
                Some(Ok(()))
            }
            "help" | "h" => {
                outln!("{}", help::<G>());
                Some(Ok(()))
            }
            _ => None,
        }
    }

    fn prompt(&self, state: &G::State) -> String {
        let who = match state.next() {
            Next::Decide(s) => s,
            _ => G::turn_seat(state),
        };
        format!(
            "[{} {}] {}",
            G::seat_tag(who, self.colour),
            self.names
                .get(usize::from(who))
                .map(String::as_str)
                .unwrap_or("?"),
            G::describe_node(state)
        )
    }

    /// A line typed at `prompt` for the caller to read, or `None` when it
    /// was answered here: an empty line, a word every prompt takes (quit,
    /// undo, help...), or a request for what may be typed (`legal`, `?`),
    /// answered with `legal`'s text.
    fn next_line(
        &mut self,
        state: &G::State,
        prompt: &str,
        legal: impl FnOnce() -> String,
    ) -> Result<Option<String>, NoAction> {
        let line = self.read(prompt).ok_or(NoAction::EndOfInput)?;
        if line.is_empty() {
            return Ok(None);
        }
        if let Some(r) = self.common(state, &line) {
            r?;
            return Ok(None);
        }
        if asks_legal(&line) {
            outln!("{}", legal());
            return Ok(None);
        }
        Ok(Some(line))
    }

    /// Forget faces typed ahead (after an undo).
    pub fn forget_pending(&mut self) {
        self.pending.clear();
    }

    /// The face of `die` typed by the players (physical dice). A line of
    /// several faces answers this roll and the next ones.
    pub fn typed_face(&mut self, state: &G::State, die: Die) -> Result<u8, NoAction> {
        let sides = die.sides();
        if let Some(f) = self.pending.pop_front() {
            if (1..=u32::from(sides)).contains(&f) {
                outln!("{}: the {die} typed ahead: {f}", self.prompt(state));
                return Ok(f as u8);
            }
            outln!(
                "the face typed ahead, {f}, is not a face of the {die} (1 to {sides}); type this roll again"
            );
            self.pending.clear();
        }
        loop {
            let prompt = format!(
                "{}\nroll the {die} and type the face (1-{sides}); the faces of the next rolls may follow on the line\n> ",
                self.prompt(state)
            );
            let Some(line) = self.next_line(state, &prompt, || {
                format!("a face of the {die}: 1 to {sides}")
            })?
            else {
                continue;
            };
            let faces: Result<Vec<u32>, _> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(str::parse::<u32>)
                .collect();
            if let Ok(faces) = &faces
                && faces.len() > 1
            {
                if (1..=u32::from(sides)).contains(&faces[0]) {
                    self.pending = faces[1..].iter().copied().collect();
                    return Ok(faces[0] as u8);
                }
                outln!("a {die} has faces 1 to {sides}, not {}", faces[0]);
                continue;
            }
            match line.parse::<u32>() {
                Ok(f) if (1..=u32::from(sides)).contains(&f) => return Ok(f as u8),
                Ok(f) => outln!("a {die} has faces 1 to {sides}, not {f}"),
                Err(_) => outln!(
                    "expected the face of the {die} (a number from 1 to {sides}), or `help`; not `{line}`"
                ),
            }
        }
    }

    /// The card turned over at the draw node of `state`, typed by its name;
    /// `weights` are the cards of each kind left in its deck.
    pub fn typed_card(&mut self, state: &G::State, weights: &[u32]) -> Result<u8, NoAction> {
        let left: Vec<String> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0)
            .map(|(k, w)| format!("{} ({w})", G::format_draw(state, k as u8 + 1)))
            .collect();
        loop {
            let prompt = format!(
                "{}\nturn the card over and type what it shows\n> ",
                self.prompt(state)
            );
            let Some(line) = self.next_line(state, &prompt, || {
                format!("cards left in this deck: {}", left.join(", "))
            })?
            else {
                continue;
            };
            match G::parse_draw(state, &line) {
                Ok(face)
                    if usize::from(face)
                        .checked_sub(1)
                        .and_then(|k| weights.get(k))
                        .is_some_and(|w| *w > 0) =>
                {
                    return Ok(face);
                }
                Ok(face) => outln!(
                    "no {} is left in this deck; cards left: {}",
                    G::format_draw(state, face),
                    left.join(", ")
                ),
                Err(why) => outln!("{why}; cards left: {}", left.join(", ")),
            }
        }
    }

    /// A decision of the seat at the node of `state`.
    pub fn decide(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        loop {
            let prompt = format!("{}\n> ", self.prompt(state));
            let Some(line) = self.next_line(state, &prompt, || G::legal_text(state))? else {
                continue;
            };
            let action = match G::interpret(state, &line) {
                Ok(a) => a,
                Err(why) => {
                    outln!("not understood: {why} (type `legal` or `help`)");
                    continue;
                }
            };
            let mut trial = state.clone();
            match trial.play(action) {
                Ok(()) => {
                    // A liberal reading that changed the words is said
                    // before it is played (`d2 3 down` is `d2 3 S`).
                    let text = G::format_action(state, action);
                    if squashed(&text) != squashed(&line) {
                        outln!("  read as: {text}");
                    }
                    return Ok(action);
                }
                Err(refusal) => outln!("illegal: {}: {refusal}", G::format_action(state, action)),
            }
        }
    }
}

/// The letters and digits of a typed line, lower case: two lines that
/// differ only in case, spaces and punctuation say the same words.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A human seat: asks the shared console.
pub struct Human<G: Registered> {
    console: SharedConsole<G>,
}

impl<G: Registered> Human<G> {
    pub fn new(console: SharedConsole<G>) -> Human<G> {
        Human { console }
    }
}

impl<G: Registered> Player<G::State> for Human<G> {
    fn name(&self) -> String {
        "human".to_string()
    }

    fn choose(&mut self, state: &G::State) -> Result<ActionOf<G>, NoAction> {
        self.console.borrow_mut().decide(state)
    }
}

/// `?`, `legal` or `legal all` (the list is always whole; a newcomer who
/// read of paged lists elsewhere types `legal all`).
fn asks_legal(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["?"] => true,
        [w] => w.eq_ignore_ascii_case("legal"),
        [w, a] => w.eq_ignore_ascii_case("legal") && a.eq_ignore_ascii_case("all"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::asks_legal;

    #[test]
    fn legal_all_and_question_mark_ask_for_the_list() {
        for line in ["?", "legal", "LEGAL", "legal all", "Legal  All"] {
            assert!(asks_legal(line), "{line}");
        }
        for line in ["legal a1", "all", "legalall", "? ?", "c4"] {
            assert!(!asks_legal(line), "{line}");
        }
    }
}
