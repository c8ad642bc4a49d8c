//! What every game's drawing shares: a letter and a colour per seat.

use crate::core::protocol::Seat;

/// The letter of seat `s` (`A` for the first seat) on a drawn board.
pub fn seat_letter(s: Seat) -> char {
    (b'A' + s % 26) as char
}

/// ANSI colour codes of the seats, seat 1 first.
const SEAT_COLOURS: [&str; 8] = ["31", "34", "32", "35", "36", "33", "37", "90"];

/// The ANSI colour code of seat `s`.
pub fn seat_colour(s: Seat) -> &'static str {
    SEAT_COLOURS[usize::from(s) % SEAT_COLOURS.len()]
}

/// A seat's letter, coloured when `colour`.
pub fn seat_tag(s: Seat, colour: bool) -> String {
    paint(&seat_letter(s).to_string(), seat_colour(s), colour)
}

/// `text` in bold ANSI colour `code` when `colour`.
pub fn paint(text: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("\x1b[1;{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}
