//! The board for a person at the terminal: coordinates on all four edges, a
//! colour per seat (ANSI, when the caller asks for it), nutrients with their
//! values, each seat's store, supply and score.

use std::fmt::Write;

use crate::core::draw::{paint, seat_colour, seat_letter, seat_tag};
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::State;

/// The board and the table around it.
pub fn render(state: &State, names: &[String], colour: bool) -> String {
    let g = state.grid();
    let n = i32::from(g.size());
    let mut out = String::new();
    let header = |out: &mut String| {
        out.push_str("   ");
        for x in 0..n {
            let _ = write!(out, "{x:>3}");
        }
        out.push('\n');
    };
    header(&mut out);
    for y in 0..n {
        let _ = write!(out, "{y:>3}");
        for x in 0..n {
            let Some(p) = g.point(x, y) else { continue };
            let nuts = state.nutrients_at(p) > 0;
            let cell = match (state.bead(p), nuts) {
                (Some(s), false) => seat_tag(s, colour),
                (Some(s), true) => paint(
                    &seat_letter(s).to_ascii_lowercase().to_string(),
                    seat_colour(s),
                    colour,
                ),
                (None, true) => paint("*", "93", colour),
                (None, false) => ".".to_string(),
            };
            let _ = write!(out, "  {cell}");
        }
        let _ = writeln!(out, "{y:>4}");
    }
    header(&mut out);
    out.push_str("key: A-H beads of seats 1-8; * nutrient; a-h a bead marking a nutrient\n");
    out.push_str(&crate::games::roots_and_shoots::draw::nutrient_line(state));
    for (s, p) in state.players().iter().enumerate() {
        let name = names.get(s).map(String::as_str).unwrap_or("?");
        let _ = writeln!(
            out,
            "{} seat {} ({name}): score {}, store {}, supply {}, on board {}",
            seat_tag(s as Seat, colour),
            s + 1,
            p.score,
            p.store,
            p.supply,
            p.on_board()
        );
    }
    let round = if state.in_first_turn() {
        "first turn".to_string()
    } else {
        format!("round {}", state.round())
    };
    let _ = writeln!(out, "nutrient pile: {}; {round}", state.nutrient_supply());
    out
}
