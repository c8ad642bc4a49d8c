//! What the referee says after each move of a game of Branches & Twigs &
//! Thorns, beyond the move itself: what the pyramid points at (a root or
//! its owner's own pyramid, free; another player's pyramid, a penalty paid
//! and to whom), a coin reset, seats that could not place and were passed,
//! the end of the setup, and why the game ended, with the scores.

use crate::core::draw::seat_letter;
use crate::core::protocol::Seat;
use crate::script::session::HouseRules as _;

use super::state::{End, Piece, State};

const SIZES: [&str; 3] = ["small", "medium", "large"];

fn size_word(size: u8) -> &'static str {
    SIZES[usize::from(size.clamp(1, 3) - 1)]
}

/// The lines to say after a move took the game from `before` to `after`.
pub fn narrate(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    let board = after.board();
    let mover = before.to_move();
    let me = seat_letter(mover);
    if let Some(c) = after
        .last_cell()
        .filter(|_| after.last_cell() != before.last_cell())
        && let Piece::Pyramid { size, dir, .. } = after.piece(c)
    {
        let t = board.neighbour(c, dir);
        let what = match before.piece(t) {
            Piece::Root => format!("the root on {}: no penalty", board.name(t)),
            Piece::Pyramid { seat, size: ts, .. } if seat == mover => format!(
                "{me}'s own {} pyramid on {}: no penalty",
                size_word(ts),
                board.name(t)
            ),
            Piece::Pyramid { seat, size: ts, .. } => {
                let (a, b) = (before.scores(), after.scores());
                let paid = a[usize::from(mover)] - b[usize::from(mover)];
                let got = b[usize::from(seat)] - a[usize::from(seat)];
                format!(
                    "{}'s {} pyramid on {}: {me} pays {paid}, {} gets {got}",
                    seat_letter(seat),
                    size_word(ts),
                    board.name(t),
                    seat_letter(seat)
                )
            }
            Piece::Empty | Piece::Null => board.name(t),
        };
        out.push(format!(
            "a {} pyramid of {me} on {} points {} at {what}",
            size_word(size),
            board.name(c),
            dir.letter()
        ));
        let left = after.stash(mover);
        out.push(format!(
            "{me} has {} small, {} medium, {} large left",
            left[0], left[1], left[2]
        ));
    }
    if after.coin_resets() > before.coin_resets() {
        out.push(format!(
            "the payer ran short: everyone takes {} coins from the pot",
            i64::from(after.rules().coins.reset)
                * i64::from(after.coin_resets() - before.coin_resets())
        ));
    }
    if !before.in_play() && after.in_play() && after.end().is_none() {
        out.push(format!(
            "the setup is over: play begins, {} to move",
            seat_letter(after.to_move())
        ));
    }
    let passes = after.tally.passes - before.tally.passes;
    if passes > 0 && after.end().is_none() {
        out.push(crate::core::seats_passed(
            passes,
            "could not place",
            ("is", "are"),
        ));
    }
    let (a, b) = (before.scores(), after.scores());
    for (s, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            out.push(format!(
                "{} scores {:+} (total {y})",
                seat_letter(s as Seat),
                y - x
            ));
        }
    }
    if let Some(end) = after.end()
        && before.end().is_none()
    {
        let why = match end {
            End::BoardFull => "every cell is filled",
            End::StashesEmpty => "every stash is empty",
            End::NoMoves => "nobody can point a pyramid anywhere",
            End::Script => "a house rule ends it",
            End::ScriptError => "a house rule failed",
        };
        let best = b.iter().copied().max().unwrap_or(0);
        let winners: Vec<String> = (0..b.len())
            .filter(|&s| b[s] == best)
            .map(|s| seat_letter(s as Seat).to_string())
            .collect();
        out.push(format!(
            "game over: {why}; {} {} with {best}",
            winners.join(" and "),
            if winners.len() == 1 { "wins" } else { "tie" }
        ));
    }
    out.extend(after.script_notes().iter().cloned());
    out
}

/// The last marker or pyramid placed, in words, for the board shown at the
/// terminal: `last move: A's large pyramid on g3, pointing W`.
pub fn last_move(state: &State) -> Option<String> {
    let c = state.last_cell()?;
    let at = state.board().name(c);
    Some(match state.piece(c) {
        Piece::Pyramid { seat, size, dir } => format!(
            "last move: {}'s {} pyramid on {at}, pointing {}",
            seat_letter(seat),
            size_word(size),
            dir.letter()
        ),
        Piece::Null => format!("last move: a null on {at}"),
        Piece::Root => format!("last move: a root on {at}"),
        Piece::Empty => return None,
    })
}
