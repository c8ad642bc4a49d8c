//! Boards as text: drawing a position, and reading a drawn position back.
//!
//! One character per point, separated by spaces, row 0 at the top, column 0 on
//! the left (the corner marked 0,0):
//!
//! * `.` an empty point;
//! * `A` .. `H` a bead of seat 1 .. 8;
//! * `*` one or more unmarked nutrients;
//! * `a` .. `h` a bead of seat 1 .. 8 on top of nutrients (a marked nutrient).
//!
//! Below the board, `nutrients:` lists every marker as `x,y=value` (`?` when
//! its value is not rolled yet), then one line per seat and the nutrient pile.
//! [`State::from_drawing`] reads the same format (header and row numbers are
//! optional), which is how the rules tests set up positions.

use std::fmt::Write;
use std::sync::Arc;

use crate::core::geometry::Point;
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::rules::Rules;
use crate::games::roots_and_shoots::state::{Phase, State};

pub use crate::core::draw::seat_letter;

/// Draw the board, the nutrients, each seat's beads and score, and the pile.
pub fn draw(state: &State) -> String {
    let g = state.grid();
    let n = g.size();
    let mut out = String::new();
    if n > 10 {
        out.push_str("   ");
        for x in 0..n {
            out.push(' ');
            out.push(if x >= 10 {
                char::from(b'0' + x / 10)
            } else {
                ' '
            });
        }
        out.push('\n');
    }
    out.push_str("   ");
    for x in 0..n {
        let _ = write!(out, " {}", x % 10);
    }
    out.push('\n');
    for y in 0..n {
        let _ = write!(out, "{y:>2} ");
        for x in 0..n {
            let p = g.point(i32::from(x), i32::from(y)).expect("on board");
            out.push(' ');
            out.push(cell_char(state, p));
        }
        out.push('\n');
    }
    out.push_str(&nutrient_line(state));
    for (s, p) in state.players().iter().enumerate() {
        let _ = writeln!(
            out,
            "{}: score {}, store {}, supply {}, on board {}, removed {}",
            seat_letter(s as Seat),
            p.score,
            p.store,
            p.supply,
            p.on_board(),
            p.removed
        );
    }
    let _ = writeln!(
        out,
        "pile: {}",
        crate::core::count(state.nutrient_supply(), "nutrient", "nutrients")
    );
    out
}

/// The `nutrients:` line: every marker as `x,y=value` (`?` when its value is
/// not rolled yet), with its newline.
pub fn nutrient_line(state: &State) -> String {
    let g = state.grid();
    let mut out = String::from("nutrients:");
    if state.nutrients().is_empty() {
        out.push_str(" none");
    }
    for nut in state.nutrients() {
        let _ = write!(out, " {}=", g.name(nut.point));
        match nut.value {
            Some(v) => {
                let _ = write!(out, "{v}");
            }
            None => out.push('?'),
        }
    }
    out.push('\n');
    out
}

fn cell_char(state: &State, p: Point) -> char {
    let nuts = state.nutrients_at(p) > 0;
    match (state.bead(p), nuts) {
        (Some(s), false) => seat_letter(s),
        (Some(s), true) => seat_letter(s).to_ascii_lowercase(),
        (None, true) => '*',
        (None, false) => '.',
    }
}

impl State {
    /// A position read from a drawing, at the start of `seat`'s turn (round 1).
    ///
    /// Beads on the board come from nowhere (stores and supplies keep the
    /// variant's starting values unless a `store:`, `supply:`, `score:` or
    /// `pile:` line sets them: `store: 6 4` gives seat A 6 and seat B 4).
    pub fn from_drawing(
        rules: Arc<Rules>,
        players: u8,
        seat: Seat,
        text: &str,
    ) -> Result<State, String> {
        if seat >= players {
            return Err(format!(
                "seat {} does not exist in a {players}-player game",
                seat + 1
            ));
        }
        let mut state = State::empty(rules, players);
        let g = *state.grid();
        let size = usize::from(g.size());
        let mut y = 0usize;
        let mut values: Vec<(Point, Option<u8>)> = Vec::new();
        let mut drawn_nuts: Vec<Point> = Vec::new();
        for (lineno, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            let at = |msg: String| format!("line {}: {msg}", lineno + 1);
            if let Some((key, rest)) = line.split_once(':') {
                let key = key.trim();
                if key.len() == 1 && key.chars().all(|c| c.is_ascii_uppercase()) {
                    continue; // a seat line of a drawing (`A: score ...`) is output only
                }
                let nums = || -> Result<Vec<u32>, String> {
                    rest.split_whitespace()
                        .map(|t| {
                            t.parse::<u32>()
                                .map_err(|_| at(format!("`{t}` is not a number")))
                        })
                        .collect()
                };
                match key {
                    "nutrients" => {
                        for item in rest.split_whitespace().filter(|t| *t != "none") {
                            let (pt, v) = item.split_once('=').ok_or_else(|| {
                                at(format!("`{item}` should be x,y=value or x,y=?"))
                            })?;
                            let p = g
                                .parse(pt)
                                .ok_or_else(|| at(format!("`{pt}` is not a point")))?;
                            let v = match v {
                                "?" => None,
                                v => Some(
                                    v.parse::<u8>()
                                        .ok()
                                        .filter(|v| (1..=12).contains(v))
                                        .ok_or_else(|| {
                                            at(format!(
                                                "nutrient value `{v}` should be 1 to 12 or ?"
                                            ))
                                        })?,
                                ),
                            };
                            values.push((p, v));
                        }
                    }
                    "store" | "supply" | "score" => {
                        let v = nums()?;
                        if v.len() != usize::from(players) {
                            return Err(at(format!("`{key}` needs {players} numbers")));
                        }
                        for (s, v) in v.into_iter().enumerate() {
                            let pl = &mut state.players[s];
                            match key {
                                "store" => pl.store = v,
                                "supply" => pl.supply = v,
                                _ => pl.score = v as i32,
                            }
                        }
                    }
                    "pile" => {
                        let n = rest
                            .split_whitespace()
                            .next()
                            .and_then(|t| t.parse::<u32>().ok());
                        state.nutrient_supply =
                            n.ok_or_else(|| at("`pile` needs a number".to_string()))?;
                    }
                    other => return Err(at(format!("unknown line `{other}:`"))),
                }
                continue;
            }
            let mut tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.iter().all(|t| t.chars().all(|c| c.is_ascii_digit())) {
                continue; // a column header
            }
            if tokens.len() == size + 1 && tokens[0].chars().all(|c| c.is_ascii_digit()) {
                tokens.remove(0);
            }
            if tokens.len() != size {
                return Err(at(format!(
                    "a row needs {size} points, found {}",
                    tokens.len()
                )));
            }
            if y >= size {
                return Err(at(format!("more than {size} rows")));
            }
            for (x, t) in tokens.iter().enumerate() {
                let p = g.point(x as i32, y as i32).expect("in range");
                let c = t.chars().next().unwrap_or('.');
                if t.len() != 1 {
                    return Err(at(format!("`{t}` is not a point: use . A-H * a-h")));
                }
                match c {
                    '.' => {}
                    '*' => drawn_nuts.push(p),
                    'A'..='H' | 'a'..='h' => {
                        let s = (c.to_ascii_uppercase() as u8) - b'A';
                        if s >= players {
                            return Err(at(format!(
                                "`{c}` is a bead of seat {}, but there are {players} players",
                                s + 1
                            )));
                        }
                        state.players[usize::from(s)].store += 1;
                        state.put_bead(s, p, false);
                        if c.is_ascii_lowercase() {
                            drawn_nuts.push(p);
                        }
                    }
                    _ => return Err(at(format!("`{c}` is not a point: use . A-H * a-h"))),
                }
            }
            y += 1;
        }
        if y != size {
            return Err(format!("the drawing has {y} rows; the board has {size}"));
        }
        // Every listed marker must be drawn as `*` or a-h; a drawn nutrient
        // with no listed marker holds one marker of unknown value.
        if let Some((p, _)) = values.iter().find(|(p, _)| !drawn_nuts.contains(p)) {
            return Err(format!(
                "a nutrient is listed at {} but not drawn there (`*` or a-h)",
                g.name(*p)
            ));
        }
        for &p in &drawn_nuts {
            if !values.iter().any(|(q, _)| *q == p) {
                values.push((p, None));
            }
        }
        let pile = state.nutrient_supply;
        for (p, v) in values {
            state.nutrient_supply += 1; // add_nutrient takes one from the pile
            let id = state.add_nutrient(p);
            if let Some(n) = state.nutrients.iter_mut().find(|n| n.id == id) {
                n.value = v;
            }
        }
        state.nutrient_supply = pile;
        // The drawn position is where conservation counts from.
        state.baseline.beads = state
            .players
            .iter()
            .map(|p| p.store + p.supply + p.on_board() + p.removed)
            .collect();
        state.baseline.nutrients = state.nutrient_supply + state.nutrients.len() as u32;
        state.baseline.score = state.players.iter().map(|p| i64::from(p.score)).sum();
        state.set_phase_for_position(seat);
        debug_assert!(matches!(state.phase, Phase::ChooseGrowth));
        Ok(state)
    }
}
