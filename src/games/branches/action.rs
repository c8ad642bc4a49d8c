//! Actions and their text: `null b1`, `root c1`, and `c2 2 W` (a pyramid of
//! size 2 on c2 pointing west). Reading is liberal: case, spaces, hyphens and
//! commas are free (`C2-2w`, `c2,2,west`), sizes may be words (`small`,
//! `medium`, `large`), and during setup a bare cell places the marker due.

use super::board::{Board, Dir};
use super::state::{NULL, State};

/// A decision: a marker during setup, or a pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place a null on a cell (setup).
    Null(u8),
    /// Place a root on a cell (setup).
    Root(u8),
    /// Place a pyramid of `size` (1..=3) on `cell`, pointing `dir`.
    Place {
        /// The empty cell it goes on.
        cell: u8,
        /// 1 (small), 2 (medium) or 3 (large).
        size: u8,
        /// The direction it points: its target is the neighbour that way.
        dir: Dir,
    },
}

/// The text form: `null b1`, `root c1`, `c2 2 W`.
pub fn format_action(state: &State, action: Action) -> String {
    format_on(state.board(), action)
}

/// The text form on a given board.
pub fn format_on(board: &Board, action: Action) -> String {
    let name = |c: u8| {
        if usize::from(c) < board.cells() {
            board.name(c)
        } else {
            format!("#{c}")
        }
    };
    match action {
        Action::Null(c) => format!("null {}", name(c)),
        Action::Root(c) => format!("root {}", name(c)),
        Action::Place { cell, size, dir } => format!("{} {size} {}", name(cell), dir.letter()),
    }
}

const EXPECTED: &str = "a pyramid as cell, size and direction, like `c2 2 W` (size 1, 2 or 3; direction N, E, S or W), or a marker like `null b1` or `root c1`";

/// Read what a person typed.
pub fn parse_action(state: &State, text: &str) -> Result<Action, String> {
    let due = state.setup_due();
    parse_on(state.board(), due, text)
}

/// Read an action on `board`; `setup_due` is the marker a bare cell places
/// (`Some(true)` a null, `Some(false)` a root, `None` in play).
pub fn parse_on(board: &Board, setup_due: Option<bool>, text: &str) -> Result<Action, String> {
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c == '-' || c == ',' || c == ':' {
                ' '
            } else {
                c
            }
        })
        .collect();
    let words: Vec<String> = cleaned
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    if words.is_empty() {
        return Err(format!("nothing typed: expected {EXPECTED}"));
    }
    let cell_of = |w: &str| -> Result<u8, String> {
        board.parse_cell(w).ok_or_else(|| {
            format!(
                "`{w}` is not a cell of this board: expected a column letter a to {} and a rank 1 to {}, like `c2`",
                (b'a' + board.width - 1) as char,
                board.height
            )
        })
    };
    let marker = |w: &str| match w {
        "null" | "x" | "n" => Some(true),
        "root" | "r" => Some(false),
        _ => None,
    };
    // Markers: `null b1`, `b1 null`, `b1` (during setup).
    if words.len() == 2 {
        if let Some(is_null) = marker(&words[0]) {
            let c = cell_of(&words[1])?;
            return Ok(if is_null {
                Action::Null(c)
            } else {
                Action::Root(c)
            });
        }
        if let Some(is_null) = marker(&words[1])
            && board.parse_cell(&words[0]).is_some()
        {
            let c = cell_of(&words[0])?;
            return Ok(if is_null {
                Action::Null(c)
            } else {
                Action::Root(c)
            });
        }
    }
    if words.len() == 1
        && let Some(is_null) = setup_due
        && board.parse_cell(&words[0]).is_some()
    {
        let c = cell_of(&words[0])?;
        return Ok(if is_null {
            Action::Null(c)
        } else {
            Action::Root(c)
        });
    }
    // A pyramid: the cell, then size and direction in any spacing (`2 w`, `2w`, `large west`).
    let cell = cell_of(&words[0])?;
    let rest: String = words[1..].join(" ");
    let mut tokens: Vec<String> = Vec::new();
    for w in rest.split_whitespace() {
        // Split `2w` into `2` and `w`.
        let digits: String = w.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && digits.len() < w.len() {
            tokens.push(digits.clone());
            tokens.push(w[digits.len()..].to_string());
        } else {
            tokens.push(w.to_string());
        }
    }
    if tokens.is_empty() {
        return Err(match setup_due {
            Some(_) => format!("`{}`: expected {EXPECTED}", text.trim()),
            None => format!(
                "`{}`: after the cell, expected a size (1, 2 or 3) and a direction (N, E, S or W), like `c2 2 W`",
                text.trim()
            ),
        });
    }
    if tokens.len() != 2 {
        return Err(format!(
            "`{}`: expected a cell, a size and a direction, like `c2 2 W`",
            text.trim()
        ));
    }
    let size = match tokens[0].as_str() {
        "1" | "small" => 1,
        "2" | "medium" => 2,
        "3" | "large" => 3,
        other => {
            return Err(format!(
                "`{other}` is not a size: expected 1, 2 or 3 (or small, medium, large)"
            ));
        }
    };
    let dir = Dir::parse(&tokens[1]).ok_or_else(|| {
        format!(
            "`{}` is not a direction: expected N, E, S or W (the way the pyramid points)",
            tokens[1]
        )
    })?;
    Ok(Action::Place { cell, size, dir })
}

impl State {
    /// During setup, whether a null (`Some(true)`) or a root (`Some(false)`) is due.
    pub fn setup_due(&self) -> Option<bool> {
        self.setup_marker().map(|m| m == NULL)
    }
}
