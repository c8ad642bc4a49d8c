//! What the referee says after each sub-move of a game of Sprout-R-Out,
//! beyond the sub-move itself: stones removed, eyes formed or lost,
//! territory gained or lost, stones still to be played against, a pass
//! (and whether the repetition rule forced it), whose turn it is, and how
//! the game ended.

use crate::core::count;
use crate::core::graph::CellSet;
use crate::core::protocol::Seat;
use crate::script::session::HouseRules as _;

use super::state::{Action, EndReason, State};
use super::text::seat_letter;

fn cells(state: &State, set: CellSet) -> String {
    let b = state.board();
    set.iter()
        .map(|c| b.label(c).to_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lines to say after a sub-move took the game from `before` to
/// `after`.
pub fn narrate(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    let mover = before.mover();
    let me = seat_letter(mover);
    // "A loses 2 stones: c3 c4", for a set that is not empty.
    let say = |out: &mut Vec<String>, s: Seat, verb: &str, set: CellSet, things: [&str; 2]| {
        if set.any() {
            out.push(format!(
                "{} {verb} {}: {}",
                seat_letter(s),
                count(set.len(), things[0], things[1]),
                cells(after, set)
            ));
        }
    };
    for s in 0..2u8 {
        let gone = before.stones(s) & !after.stones(s);
        say(&mut out, s, "loses", gone, ["stone", "stones"]);
    }
    let legal = before.legal();
    if after.last_action() == Some(Action::Pass) {
        out.push(if legal.forced {
            format!("{me} passes: the repetition rule forbids every move the rules offer")
        } else {
            format!("{me} passes: the rules leave nothing else")
        });
    } else {
        let blocked = legal.blocked_place | legal.blocked_remove;
        if blocked.any() {
            out.push(format!(
                "the repetition rule barred {}",
                count(blocked.len(), "move", "moves")
            ));
        }
    }
    for s in 0..2u8 {
        let (a, b) = (before.eyes(s), after.eyes(s));
        say(&mut out, s, "gains", b & !a, ["eye", "eyes"]);
        say(&mut out, s, "loses", a & !b, ["eye", "eyes"]);
    }
    let (a, b) = (before.territories(), after.territories());
    for s in 0..2usize {
        if a[s] != b[s] {
            out.push(format!(
                "{}'s territory {:+} (now {} of {} cells)",
                seat_letter(s as Seat),
                b[s] - a[s],
                b[s],
                after.board().len()
            ));
        }
    }
    match after.end() {
        Some((reason, winner)) => out.push(format!(
            "game over: {}; {}",
            match reason {
                EndReason::Majority => format!(
                    "a territory covers more than half the board ({} of {} cells)",
                    b.iter().copied().max().unwrap_or(0),
                    after.board().len()
                ),
                EndReason::DoublePass => "both players passed in turn".to_owned(),
                EndReason::Script => "a house rule ends it".to_owned(),
                EndReason::ScriptError => "a house rule failed".to_owned(),
            },
            match winner {
                Some(w) => format!("{} (seat {}) wins", seat_letter(w), w + 1),
                None => "a draw".to_owned(),
            }
        )),
        None if after.mover() != mover => {
            out.push(format!(
                "{me}'s turn is over: {} to move",
                seat_letter(after.mover())
            ));
        }
        None => {
            let marks = after.marks() & after.stones(1 - mover);
            if marks.any() && marks != (before.marks() & before.stones(1 - mover)) {
                out.push(format!(
                    "{me} plays on: {} still to be played against ({})",
                    count(marks.len(), "stone", "stones"),
                    cells(after, marks)
                ));
            }
        }
    }
    out.extend(after.script_notes().iter().cloned());
    out
}

/// The last sub-move in words, for the board shown at the terminal.
pub fn last_move(state: &State) -> Option<String> {
    let b = state.board();
    Some(match state.last_action()? {
        Action::Place(c) => {
            let s = if state.stones(0).contains(c) { 0 } else { 1 };
            format!("last move: {} on {}", seat_letter(s), b.label(c))
        }
        Action::Remove(c) => format!("last move: the group at {} removed", b.label(c)),
        Action::Pass => "last move: a pass".to_owned(),
    })
}
