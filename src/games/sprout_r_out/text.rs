//! Sub-moves as text, the board as text, and the small per-game extras
//! (evaluation, end reason, counters).

use crate::core::graph::Cell;
use crate::core::protocol::Seat;

use super::state::{Action, EndReason, State};

/// The text form: a cell label (`C4`), `remove C4`, or `pass`.
pub fn format_action(state: &State, action: Action) -> String {
    let b = state.board();
    let label = |c: Cell| {
        if (c as usize) < b.len() {
            b.label(c).to_string()
        } else {
            format!("#{c}")
        }
    };
    match action {
        Action::Place(c) => label(c),
        Action::Remove(c) => format!("remove {}", label(c)),
        Action::Pass => "pass".to_string(),
    }
}

/// Read a sub-move: a cell label (any case), `remove <cell>` (or `x <cell>`,
/// any cell of the group), or `pass`.
pub fn parse_action(state: &State, text: &str) -> Result<Action, String> {
    let t = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let board = state.board();
    let cell = |w: &str| {
        board.cell_of(w).ok_or_else(|| {
            format!(
                "`{w}` is not a cell of the {} board; cells are named by column letter and row number, {} to {}",
                board.name(),
                board.label(0),
                board.label((board.len() - 1) as Cell)
            )
        })
    };
    match words.as_slice() {
        [] => Err("nothing typed: expected a cell (e.g. C4), `remove C4` or `pass`".into()),
        ["pass"] => Ok(Action::Pass),
        ["remove" | "x" | "capture", w] => {
            let c = cell(w)?;
            // Any stone of the group names it; the engine names a group by its lowest cell.
            let mover = state.mover();
            let enemy = state.stones(mover ^ 1);
            if !enemy.contains(c) {
                return Err(format!("{} holds no enemy stone to remove", board.label(c)));
            }
            let group = group_of(state, c);
            Ok(Action::Remove(group.lowest().unwrap_or(c)))
        }
        [w] => cell(w).map(Action::Place),
        _ => Err(format!(
            "`{}` is not a sub-move: expected a cell (e.g. {}), `remove <cell>` or `pass`",
            text.trim(),
            board.label(0)
        )),
    }
}

fn group_of(state: &State, c: Cell) -> crate::core::graph::CellSet {
    let nbr = state
        .board()
        .neighbour_sets(state.rules().groups.adjacency());
    let own = if state.stones(0).contains(c) {
        state.stones(0)
    } else {
        state.stones(1)
    };
    let mut g = crate::core::graph::CellSet::single(c);
    let mut frontier = g;
    while frontier.any() {
        let mut next = crate::core::graph::CellSet::EMPTY;
        for d in frontier.iter() {
            next |= nbr[d as usize];
        }
        next = next & own & !g;
        g |= next;
        frontier = next;
    }
    g
}

/// The letter of a seat's stones: `X` for the first player, `O` for the second.
pub fn seat_letter(seat: Seat) -> char {
    if seat == 0 { 'X' } else { 'O' }
}

/// The board as text. Hex and square boards are drawn in rows with the
/// first cell of each row named on the left; Cairo boards, which have no
/// rows, name every cell. `X`/`O` are stones, `x`/`o` stones still to be
/// played against, `.` empty, `+`/`*` an empty eye of the first/second player.
pub fn draw(state: &State) -> String {
    draw_named(state, false)
}

/// The board a person types from: every cell drawn with its name before its
/// content (`C4.`, `D5X`), on every board.
pub fn draw_for_people(state: &State) -> String {
    draw_named(state, true)
}

fn draw_named(state: &State, every_name: bool) -> String {
    let b = state.board();
    let cairo = every_name || b.name().starts_with("cairo");
    let glyph = |c: Cell| {
        let marked = state.marks().contains(c);
        if state.stones(0).contains(c) {
            if marked { 'x' } else { 'X' }
        } else if state.stones(1).contains(c) {
            if marked { 'o' } else { 'O' }
        } else if state.eyes(0).contains(c) {
            '+'
        } else if state.eyes(1).contains(c) {
            '*'
        } else {
            '.'
        }
    };
    let width = (0..b.len())
        .map(|c| b.label(c as Cell).len())
        .max()
        .unwrap_or(2);
    let rows = if cairo {
        b.draw_rows(|c| format!("{:>width$}{}", b.label(c), glyph(c)))
    } else {
        b.draw_rows(|c| glyph(c).to_string())
    };
    let mut out = String::new();
    if cairo {
        // Row 1 at the bottom, as Ludii draws it.
        for r in rows.iter().rev() {
            out.push_str(r);
            out.push('\n');
        }
    } else {
        // Name the first cell of each row.
        let mut firsts: Vec<(i64, Cell)> = Vec::new();
        for c in 0..b.len() as Cell {
            let y = (b.xy(c).1 * 1000.0).round() as i64;
            if firsts.last().map(|f| f.0) != Some(y) {
                firsts.push((y, c));
            }
        }
        let lw = (0..b.len())
            .map(|c| b.label(c as Cell).len())
            .max()
            .unwrap_or(2);
        let mut lines: Vec<String> = rows
            .iter()
            .zip(&firsts)
            .map(|(r, &(_, c))| format!("{:>lw$}  {}", b.label(c), r))
            .collect();
        // Row 1 at the bottom, as Ludii draws it.
        lines.reverse();
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    }
    let s = state.scores();
    out.push_str(&format!(
        "X: territory {}, {}   O: territory {}, {}\n",
        s[0],
        crate::core::count(state.stones(0).len(), "stone", "stones"),
        s[1],
        crate::core::count(state.stones(1).len(), "stone", "stones")
    ));
    match state.end() {
        Some((_, w)) => out.push_str(&format!(
            "over ({}): {}\n",
            crate::games::Stat::words(
                <super::SproutROut as crate::games::Game>::END_REASONS,
                end_reason(state).unwrap_or_default()
            ),
            match w {
                Some(w) => format!("{} (seat {}) wins", seat_letter(w), w + 1),
                None => "a draw".into(),
            }
        )),
        None => out.push_str(&format!(
            "turn {}: {} (seat {}) to move, sub-move {}\n",
            state.turn(),
            seat_letter(state.mover()),
            state.mover() + 1,
            state.sub() + 1
        )),
    }
    out
}

/// Why the game ended: "majority" or "double_pass".
pub fn end_reason(state: &State) -> Option<&'static str> {
    state.end().map(|(r, _)| match r {
        EndReason::Majority => "majority",
        EndReason::DoublePass => "double_pass",
        EndReason::Script => "script",
        EndReason::ScriptError => "script_error",
    })
}

/// Per-game counters, fixed names and order.
pub fn counters(state: &State) -> Vec<(&'static str, i64)> {
    state.counter_values().to_vec()
}
