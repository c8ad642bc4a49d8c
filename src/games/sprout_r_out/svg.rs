//! The position as a picture: the board's cells as they are shaped
//! (hexagons, squares, Cairo pentagons; outlines from `core::graph`), black
//! (X) and white (O) stones, stones still to be played against ringed,
//! eyes and territory shaded in their owner's tint, the last sub-move
//! outlined, and the score line.

use crate::core::graph::{Cell, CellSet};
use crate::core::protocol::Seat;
use crate::core::svg::{Key, Seats, Svg, foot, legend_width, num, seat_rows, square};

use super::state::{Action, EndReason, State};
use super::text::seat_letter;

/// Room round the board.
const MARGIN: f64 = 24.0;
/// Pixels between the centroids of two neighbouring cells.
const PITCH: f64 = 44.0;

/// The fill of a seat's stones (black X, white O).
pub(super) fn stone_fill(seat: Seat) -> &'static str {
    if seat == 0 { "#1e1e1e" } else { "#f8f8f8" }
}

/// The picture of `state`; `names` are the players, seat 1 first.
pub fn svg(state: &State, names: &[String]) -> String {
    let b = state.board();
    let n = b.len();
    let at = placement(state);
    let (w, h) = (at.w, at.h);
    let to = |p| at.to(p);
    let legend_h = 22.0 * 3.0 + 12.0;
    let eyes = [state.eyes(0), state.eyes(1)];
    let scores = state.scores();
    let rows = seat_rows(2, names, seat_letter, |s| {
        format!(
            "territory {}, stones {}, eyes {}",
            scores[usize::from(s)],
            state.stones(s).len(),
            count(eyes[usize::from(s)])
        )
    });
    let width = w.max(legend_width(&rows)).ceil();
    let key = key(width);
    let legend_h = legend_h + key.height(14.0) + 6.0;
    let mut svg = Svg::new(width, (h + legend_h).ceil());

    let territory = [state.territory(0), state.territory(1)];
    let last = match state.last_action() {
        Some(Action::Place(c)) => Some(c),
        _ => None,
    };
    for c in 0..n as Cell {
        let outline: Vec<(f64, f64)> = b.outline(c).iter().map(|&p| to(p)).collect();
        let fill = if eyes[0].contains(c) {
            EYE[0]
        } else if eyes[1].contains(c) {
            EYE[1]
        } else if territory[0].contains(c) {
            TERRITORY[0]
        } else if territory[1].contains(c) {
            TERRITORY[1]
        } else {
            PLAIN
        };
        svg.polygon(
            &outline,
            &format!(
                r##"fill="{fill}" stroke="#6b5a3a" stroke-width="1.2" stroke-linejoin="round""##
            ),
        );
    }
    // Stones, labels, marks and the last placement.
    for c in 0..n as Cell {
        let centre = to(b.xy(c));
        let stone = (0..2u8).find(|&s| state.stones(s).contains(c));
        match stone {
            Some(s) => {
                let r = PITCH * 0.36;
                svg.circle(
                    centre,
                    r,
                    &format!(
                        r##"fill="{}" stroke="#000000" stroke-width="1.2""##,
                        stone_fill(s)
                    ),
                );
                if s == 0 {
                    svg.raw(&format!(
                        r##"<ellipse cx="{}" cy="{}" rx="{}" ry="{}" fill="#ffffff" fill-opacity="0.18"/>"##,
                        num(centre.0 - r * 0.3),
                        num(centre.1 - r * 0.35),
                        num(r * 0.35),
                        num(r * 0.22)
                    ));
                }
                if state.marks().contains(c) {
                    svg.circle(
                        centre,
                        r + 3.5,
                        r##"fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="4 3""##,
                    );
                }
                svg.text(
                    (centre.0, centre.1 + 3.5),
                    b.label(c),
                    &format!(
                        r##"font-size="9.5" fill="{}" text-anchor="middle""##,
                        if s == 0 { "#bbbbbb" } else { "#666666" }
                    ),
                );
            }
            None => {
                let mark = if eyes[0].contains(c) || eyes[1].contains(c) {
                    "eye "
                } else {
                    ""
                };
                svg.text(
                    (centre.0, centre.1 + 3.5),
                    &format!("{mark}{}", b.label(c)),
                    &format!(
                        r##"font-size="9.5" fill="{}" text-anchor="middle""##,
                        if eyes[0].contains(c) {
                            "#f0f0f0"
                        } else {
                            "#7a6a4a"
                        }
                    ),
                );
            }
        }
        if last == Some(c) {
            let outline: Vec<(f64, f64)> = b.outline(c).iter().map(|&p| to(p)).collect();
            svg.polygon(
                &outline,
                r##"fill="none" stroke="#e6a100" stroke-width="3.5" stroke-linejoin="round""##,
            );
        }
    }

    let status = match state.end() {
        Some((reason, winner)) => format!(
            "game over ({}): {}",
            match reason {
                EndReason::Majority => "a territory passes half the board",
                EndReason::DoublePass => "both passed",
                EndReason::Script => "a house rule ended it",
                EndReason::ScriptError => "a house rule failed",
            },
            match winner {
                Some(w) => format!("{} (seat {}) wins", seat_letter(w), w + 1),
                None => "a draw".to_string(),
            }
        ),
        None => format!(
            "turn {}: {} to move, sub-move {}; {} cells, half is {}",
            state.turn(),
            seat_letter(state.mover()),
            state.sub() + 1,
            n,
            n / 2
        ),
    };
    let legend = Seats {
        rows: &rows,
        fill: stone_fill,
        outline: r##"stroke="#000000" stroke-width="1""##,
    };
    foot(&mut svg, h + 2.0, &legend, &status, None, &key);
    svg.finish(&format!("Sprout-R-Out, board {}", b.name()))
}

/// The fills of the cells: an eye of X, of O, the territory of X, of O,
/// and a cell of neither.
const EYE: [&str; 2] = ["#8c8c8c", "#e9f2ff"];
const TERRITORY: [&str; 2] = ["#c9c2b4", "#fbf8f0"];
const PLAIN: &str = "#e8dcc0";

/// The key to the picture's marks: eyes and territory, a marked stone and
/// the last placement.
fn key(width: f64) -> Key<'static> {
    let cell = |fill: &'static str| {
        move |svg: &mut Svg, at: (f64, f64)| {
            square(
                svg,
                at,
                15.0,
                &format!(r##"fill="{fill}" stroke="#6b5a3a" stroke-width="1""##),
            );
        }
    };
    Key::new(width)
        .add(cell(EYE[0]), "X's eye")
        .add(cell(EYE[1]), "O's eye")
        .add(cell(TERRITORY[0]), "X's territory")
        .add(cell(TERRITORY[1]), "O's territory")
        .add(cell(PLAIN), "no one's")
        .add(
            |svg, at| {
                svg.circle(
                    at,
                    5.5,
                    &format!(
                        r##"fill="{}" stroke="#000000" stroke-width="1""##,
                        stone_fill(0)
                    ),
                );
                svg.circle(
                    at,
                    8.0,
                    r##"fill="none" stroke="#d62728" stroke-width="1.5" stroke-dasharray="3 2""##,
                );
            },
            "an enemy stone not yet played against this turn",
        )
        .last_move(15.0, "the last placement")
}

fn count(set: CellSet) -> u32 {
    set.len()
}

/// Where the board's points go in the picture (`to`), and the board's size
/// there (`w`, `h`).
struct Placement {
    min_x: f64,
    max_y: f64,
    k: f64,
    w: f64,
    h: f64,
}

impl Placement {
    /// A point of the board in the picture's coordinates: y grows up in the
    /// board's (row 1 at the bottom) and down in the picture's.
    fn to(&self, p: (f64, f64)) -> (f64, f64) {
        (
            MARGIN + (p.0 - self.min_x) * self.k,
            MARGIN + (self.max_y - p.1) * self.k,
        )
    }
}

fn placement(state: &State) -> Placement {
    let b = state.board();
    let n = b.len();
    // Scale: the nearest two centroids are PITCH apart.
    let near = (0..n as Cell)
        .flat_map(|c| {
            b.neighbours(c, crate::core::graph::Adjacency::Edge)
                .iter()
                .map(move |&d| (c, d))
        })
        .map(|(c, d)| {
            let (p, q) = (b.xy(c), b.xy(d));
            (p.0 - q.0).hypot(p.1 - q.1)
        })
        .fold(f64::INFINITY, f64::min);
    let k = if near.is_finite() && near > 0.0 {
        PITCH / near
    } else {
        PITCH
    };
    let all: Vec<(f64, f64)> = (0..n as Cell)
        .flat_map(|c| b.outline(c).iter().copied())
        .collect();
    let min_x = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let max_x = all.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let min_y = all.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let max_y = all.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    Placement {
        min_x,
        max_y,
        k,
        w: 2.0 * MARGIN + (max_x - min_x) * k,
        h: 2.0 * MARGIN + (max_y - min_y) * k,
    }
}

/// Where a click picks each action (see `Game::click_points`): the cell a
/// stone goes on or a group is removed from; none for a pass (a button).
pub fn click_points(state: &State, actions: &[Action]) -> Vec<Option<(f64, f64)>> {
    let at = placement(state);
    let b = state.board();
    actions
        .iter()
        .map(|a| match *a {
            Action::Place(c) | Action::Remove(c) => Some(at.to(b.xy(c))),
            Action::Pass => None,
        })
        .collect()
}
