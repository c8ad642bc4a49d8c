//! The static evaluation of a Sprout-R-Out position (greedy and search
//! bots).
//!
//! Territory alone does not guide one sub-move: most placements change no
//! territory, so a bot that only counts it plays at random until an eye
//! closes. The evaluation therefore prices what the rules
//! (`docs/games/sprout-r-out.md`) make territory of, group by group:
//!
//! - a group next to one of its owner's eyes is immortal: it and its eyes
//!   are territory, the score already counts them;
//! - a mortal group is worth part of its size for each **eye in the making**
//!   it touches (an empty cell all of whose neighbours but one are the
//!   group's stones, the last one empty): one more stone there makes it
//!   immortal, and two such cells cannot both be spoilt in one turn;
//! - a mortal group with no empty cell next to it can be removed, and one
//!   with a single such cell soon can: it loses part of its size.
//!
//! A finished game is worth the win, the draw or the loss outright. Cheap:
//! the groups come from the state's group table, kept incrementally.

use crate::core::protocol::Seat;

use super::State;

/// What a finished game is worth, far above any position's value.
const WIN: f64 = 1_000.0;
/// The value, per stone of a mortal group, of each of (at most two) eyes in
/// the making next to it.
const EYE_IN_THE_MAKING: f64 = 0.35;
/// The loss, per stone, of a mortal group with no empty cell next to it
/// (removable), and with one.
const NO_LIBERTY: f64 = 0.9;
const ONE_LIBERTY: f64 = 0.3;
/// How the generic bots play Sprout-R-Out: greedy plans whole turns with
/// a beam of 16 partial turns (`docs/games/sprout-r-out.md`, "Bots": a
/// beam of 4 was weaker than one sub-move at a time, 16 beats it 53 games
/// to 7); the search keeps random expansion and playouts to the end (a
/// guided search did worse against this greedy: 14 to 6, against 20 to 0).
pub const STYLE: crate::core::player::Style = crate::core::player::Style {
    margin: 0.0,
    turn_beam: 16,
    growth: crate::core::player::Growth::PLAIN,
};
/// Each stone on the board.
const STONE: f64 = 0.1;
/// The cost of each group, mortal or immortal: the other seat places a
/// stone against every one of them in its turn (one placement more for it
/// a turn, and the race to half the board is won by placements). Without
/// it the whole-turn greedy beat random in 89.5 to 93.0% of 200 games a
/// seed (seeds 2001-2003, `sprout-r-out`), every lost game one where the
/// other seat reached the majority first, a third of them by 1 to 3
/// points; with it
/// 99.5 to 100% (`sprout-r-out-ludii` the same), at 0.5 or 1.5 as good,
/// and -0.5 (groups worth having) fell to 55-61%.
const GROUP: f64 = 1.0;

/// Static evaluation from `seat`'s point of view, higher is better: the
/// territory difference plus the difference of the two players' group
/// values (see the module's documentation).
pub fn evaluate(state: &State, seat: Seat) -> f64 {
    let me = seat & 1;
    let them = me ^ 1;
    if let Some((_, winner)) = state.end() {
        return match winner {
            Some(w) if w & 1 == me => WIN,
            Some(_) => -WIN,
            None => 0.0,
        };
    }
    let s = state.scores();
    let terr = f64::from(s[me as usize] - s[them as usize]);
    terr + groups_value(state, me) - groups_value(state, them)
}

/// The value of `seat`'s groups beyond the territory they already hold.
fn groups_value(state: &State, seat: Seat) -> f64 {
    let nbr = state
        .board()
        .neighbour_sets(state.rules().groups.adjacency());
    let mine = state.stones(seat);
    let theirs = state.stones(seat ^ 1);
    let all = state.board().cells();
    let empty = all & !(mine | theirs);
    let my_eyes = state.eyes(seat);
    let eyes = my_eyes | state.eyes(seat ^ 1);
    let mut value = STONE * f64::from(mine.len());
    for (group, adj) in state.groups(seat) {
        // Each group gives the other seat a placement in its turn.
        value -= GROUP;
        let around = adj & !group;
        if around.intersects(&my_eyes) {
            continue; // immortal: counted in the territory
        }
        let size = f64::from(group.len());
        let liberties = around & empty & !eyes;
        let mut making = 0;
        for c in liberties.iter() {
            let outside = nbr[c as usize] & !group;
            if outside.len() <= 1 && outside.is_subset(&empty) {
                making += 1;
                if making == 2 {
                    break;
                }
            }
        }
        value += size * EYE_IN_THE_MAKING * f64::from(making);
        value -= size
            * match (around & empty).len() {
                0 => NO_LIBERTY,
                1 => ONE_LIBERTY,
                _ => 0.0,
            };
    }
    value
}
