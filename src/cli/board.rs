//! The board at the terminal: coordinates on all four edges, a colour per
//! seat (ANSI, only on a terminal and without `NO_COLOR`), nutrients with
//! their values, each seat's store, supply and score.

use std::fmt::Write;
use std::io::IsTerminal;

use roots::core::protocol::Seat;
use roots::roots::State;
use roots::roots::draw::seat_letter;

/// Whether to colour what goes to stdout.
pub fn use_colour() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

const SEAT_COLOURS: [&str; 8] = ["31", "34", "32", "35", "36", "33", "37", "90"];

/// A seat's letter, coloured when `colour`.
pub fn seat_tag(s: Seat, colour: bool) -> String {
    paint(
        &seat_letter(s).to_string(),
        SEAT_COLOURS[usize::from(s) % 8],
        colour,
    )
}

fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("\x1b[1;{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

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
                    SEAT_COLOURS[usize::from(s) % 8],
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
    out.push_str(&roots::roots::draw::nutrient_line(state));
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
