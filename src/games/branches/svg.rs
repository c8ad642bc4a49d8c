//! The position as a picture: the board's squares (a rectangle, or 4x4
//! zones laid round a centre point as wedges), pyramids lying down in the
//! seats' colours in three sizes with their pips, each pointing its way,
//! nulls as holes, roots as clusters of four tokens, and the table (coins,
//! scores, stashes).

use crate::core::draw::seat_letter;
use crate::core::svg::{
    Key, Seats, Svg, THIN_OUTLINE, foot, legend_width, seat_fill, seat_rows, square,
};

use super::board::{Dir, Layout};
use super::state::{Piece, State};

/// The side of a square, in pixels.
const SIDE: f64 = 54.0;
/// Room round the board.
const MARGIN: f64 = 30.0;

type P = (f64, f64);

fn add(a: P, b: P) -> P {
    (a.0 + b.0, a.1 + b.1)
}

fn scale(a: P, k: f64) -> P {
    (a.0 * k, a.1 * k)
}

/// Where a cell is drawn: its corner `o` and its two sides `u` (east) and
/// `v` (north), in picture coordinates. A point of the cell is
/// `o + s u + t v` for `s, t` in `0..1`.
#[derive(Clone, Copy)]
struct Frame {
    o: P,
    u: P,
    v: P,
}

impl Frame {
    fn at(&self, s: f64, t: f64) -> P {
        add(self.o, add(scale(self.u, s), scale(self.v, t)))
    }

    fn corners(&self) -> [P; 4] {
        [
            self.at(0.0, 0.0),
            self.at(1.0, 0.0),
            self.at(1.0, 1.0),
            self.at(0.0, 1.0),
        ]
    }
}

/// The frames of every cell, and the picture's size.
fn layout(state: &State) -> (Vec<Frame>, f64, f64) {
    let board = state.board();
    let n = board.cells();
    match board.layout {
        Layout::Rectangle => {
            let h = f64::from(board.height);
            let frames = (0..n as u8)
                .map(|c| {
                    let (col, rank0) = board.place(c);
                    Frame {
                        o: (
                            MARGIN + SIDE * f64::from(col),
                            MARGIN + SIDE * (h - f64::from(rank0)),
                        ),
                        u: (SIDE, 0.0),
                        v: (0.0, -SIDE),
                    }
                })
                .collect();
            (
                frames,
                2.0 * MARGIN + SIDE * f64::from(board.width),
                2.0 * MARGIN + SIDE * h,
            )
        }
        Layout::Zones { zones, closed } => {
            // Zone q's east side runs along the next zone's north side, so
            // zones go round clockwise, each a wedge of `alpha` at the centre.
            // Six wedges make a hexagon; five with the mouth open are the
            // hexagon less one (the "PacMan"); three are a flattened cube.
            let z = f64::from(zones);
            let alpha = if closed {
                std::f64::consts::TAU / z
            } else {
                std::f64::consts::TAU / (z + 1.0)
            };
            let theta0 = if closed {
                -std::f64::consts::FRAC_PI_2 + alpha
            } else {
                // The mouth faces right.
                -1.5 * alpha
            };
            let radius = 4.0 * SIDE * 2.0;
            let size = 2.0 * (MARGIN + radius);
            let centre = (size / 2.0, size / 2.0);
            let unit = |a: f64| (a.cos() * SIDE, -a.sin() * SIDE);
            let frames: Vec<Frame> = (0..n as u8)
                .map(|c| {
                    let (col, rank0) = board.place(c);
                    let q = f64::from(col / 4);
                    let a = f64::from(col % 4);
                    let b = f64::from(rank0);
                    let theta = theta0 - q * alpha;
                    let u = unit(theta);
                    let v = unit(theta + alpha);
                    Frame {
                        o: add(centre, add(scale(u, a), scale(v, b))),
                        u,
                        v,
                    }
                })
                .collect();
            // Fit the view to the cells.
            let pts: Vec<P> = frames.iter().flat_map(|f| f.corners()).collect();
            let min_x = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
            let min_y = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let max_x = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
            let max_y = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            let shift = (MARGIN - min_x, MARGIN - min_y);
            let frames = frames
                .into_iter()
                .map(|f| Frame {
                    o: add(f.o, shift),
                    ..f
                })
                .collect();
            (
                frames,
                (max_x - min_x + 2.0 * MARGIN).ceil(),
                (max_y - min_y + 2.0 * MARGIN).ceil(),
            )
        }
    }
}

/// The picture of `state`; `names` are the players, seat 1 first.
pub fn svg(state: &State, names: &[String]) -> String {
    let board = state.board();
    let (frames, w, h) = layout(state);
    let seats = usize::from(state.players());
    let legend_h = 22.0 * (seats as f64 + 1.0) + 12.0;
    let coins = state.coins();
    let scores = state.scores();
    let rows = seat_rows(state.players(), names, seat_letter, |s| {
        let [a, b, c] = state.stash(s);
        format!(
            "coins {} (score {}), stash {a} small, {b} medium, {c} large",
            coins[usize::from(s)],
            scores[usize::from(s)]
        )
    });
    let width = w.max(legend_width(&rows));
    let key = key(width);
    let legend_h = legend_h + key.height(14.0) + 6.0;
    let mut svg = Svg::new(width, h + legend_h);
    let rect = board.layout == Layout::Rectangle;

    for (c, f) in frames.iter().enumerate() {
        let c = c as u8;
        let (col, rank0) = board.place(c);
        let dark = (col % 4 + rank0) % 2 == 0;
        svg.polygon(
            &f.corners(),
            if dark {
                r##"fill="#d9c39a" stroke="#8a7350" stroke-width="1""##
            } else {
                r##"fill="#f2e6cc" stroke="#8a7350" stroke-width="1""##
            },
        );
    }
    if rect {
        for col in 0..board.width {
            if let Some(c) = board.cell_at(col, 0) {
                let p = frames[usize::from(c)].at(0.5, 0.0);
                svg.text(
                    (p.0, p.1 + 16.0),
                    &((b'a' + col) as char).to_string(),
                    r##"font-size="12" fill="#555555" text-anchor="middle""##,
                );
            }
        }
        for rank0 in 0..board.height {
            if let Some(c) = board.cell_at(0, rank0) {
                let p = frames[usize::from(c)].at(0.0, 0.5);
                svg.text(
                    (p.0 - 14.0, p.1 + 4.0),
                    &(rank0 + 1).to_string(),
                    r##"font-size="12" fill="#555555" text-anchor="middle""##,
                );
            }
        }
    }

    for (c, f) in frames.iter().enumerate() {
        match state.piece(c as u8) {
            Piece::Empty => {}
            Piece::Null => {
                let hole = [
                    f.at(0.14, 0.14),
                    f.at(0.86, 0.14),
                    f.at(0.86, 0.86),
                    f.at(0.14, 0.86),
                ];
                svg.polygon(&hole, r##"fill="#2b2b2b" stroke="#000000""##);
                svg.line(
                    f.at(0.25, 0.25),
                    f.at(0.75, 0.75),
                    r##"stroke="#777777" stroke-width="2""##,
                );
                svg.line(
                    f.at(0.25, 0.75),
                    f.at(0.75, 0.25),
                    r##"stroke="#777777" stroke-width="2""##,
                );
            }
            Piece::Root => {
                for (s, t) in [(0.35, 0.35), (0.65, 0.35), (0.35, 0.65), (0.65, 0.65)] {
                    svg.circle(
                        f.at(s, t),
                        SIDE * 0.13,
                        r##"fill="#7a4a21" stroke="#3d2410" stroke-width="1""##,
                    );
                }
                let p = f.at(0.5, 0.5);
                svg.text(
                    (p.0, p.1 + 3.5),
                    "R",
                    r##"font-size="10" font-weight="bold" fill="#f2e6cc" text-anchor="middle""##,
                );
            }
            Piece::Pyramid { seat, size, dir } => pyramid(&mut svg, f, seat, size, dir),
        }
    }
    // The last marker or pyramid placed, outlined.
    if let Some(f) = state.last_cell().and_then(|c| frames.get(usize::from(c))) {
        let inset = [
            f.at(0.04, 0.04),
            f.at(0.96, 0.04),
            f.at(0.96, 0.96),
            f.at(0.04, 0.96),
        ];
        svg.polygon(
            &inset,
            r##"fill="none" stroke="#e6a100" stroke-width="3.5" stroke-linejoin="round""##,
        );
    }

    if !rect {
        // Zone boards have no edge to write coordinates on: each cell's
        // name in its corner away from the centre.
        for (c, f) in frames.iter().enumerate() {
            let p = f.at(0.8, 0.8);
            svg.text(
                (p.0, p.1 + 3.0),
                &board.name(c as u8),
                r##"font-size="8.5" fill="#6b5a3a" text-anchor="middle""##,
            );
        }
    }

    let status = match state.end() {
        Some(e) => format!("game over: {}", e.label().replace('_', " ")),
        None if !state.in_play() => {
            format!("setup: {} places a marker", seat_letter(state.to_move()))
        }
        None => format!("{} to place a pyramid", seat_letter(state.to_move())),
    };
    let legend = Seats {
        rows: &rows,
        fill: seat_fill,
        outline: THIN_OUTLINE,
    };
    let status = format!("board {}; {status}", board.describe());
    foot(&mut svg, h + 2.0, &legend, &status, None, &key);
    svg.finish(&format!(
        "Branches & Twigs & Thorns, {}",
        state.rules().name
    ))
}

/// The key to the picture's marks: a null, a root, a pyramid and the last
/// move.
fn key(width: f64) -> Key<'static> {
    Key::new(width)
        .add(
            |svg, at| {
                square(svg, at, 14.0, r##"fill="#2b2b2b" stroke="#000000""##);
                for (a, b) in [((-4.0, -4.0), (4.0, 4.0)), ((-4.0, 4.0), (4.0, -4.0))] {
                    svg.line(
                        (at.0 + a.0, at.1 + a.1),
                        (at.0 + b.0, at.1 + b.1),
                        r##"stroke="#777777" stroke-width="1.5""##,
                    );
                }
            },
            "null (a hole: nothing may point at it)",
        )
        .add(
            |svg, at| {
                for (dx, dy) in [(-3.5, -3.5), (3.5, -3.5), (-3.5, 3.5), (3.5, 3.5)] {
                    svg.circle(
                        (at.0 + dx, at.1 + dy),
                        3.2,
                        r##"fill="#7a4a21" stroke="#3d2410" stroke-width="0.8""##,
                    );
                }
            },
            "root",
        )
        .add(
            |svg, at| {
                svg.polygon(
                    &[
                        (at.0 + 8.0, at.1),
                        (at.0 - 7.0, at.1 - 6.5),
                        (at.0 - 7.0, at.1 + 6.5),
                    ],
                    &format!(
                        r##"fill="{}" stroke="#1a1a1a" stroke-width="1""##,
                        seat_fill(0)
                    ),
                );
                for dy in [-2.5, 2.5] {
                    svg.circle(
                        (at.0 - 4.0, at.1 + dy),
                        1.5,
                        r##"fill="#ffffff" stroke="#000000" stroke-width="0.4""##,
                    );
                }
            },
            "pyramid (pips: its size), pointing at what it grows from",
        )
        .last_move(14.0, "the last move")
}

/// A pyramid lying in cell `f`, pointing `dir`: a triangle whose size
/// grows with its pips, the pips near its base.
fn pyramid(svg: &mut Svg, f: &Frame, seat: u8, size: u8, dir: Dir) {
    let (ds, dt) = match dir {
        Dir::N => (0.0, 1.0),
        Dir::E => (1.0, 0.0),
        Dir::S => (0.0, -1.0),
        Dir::W => (-1.0, 0.0),
    };
    let (ps, pt) = (-dt, ds);
    let k = f64::from(size.clamp(1, 3));
    let half_len = 0.16 + 0.08 * k;
    let half_base = 0.12 + 0.07 * k;
    let at = |along: f64, across: f64| {
        f.at(
            0.5 + along * ds + across * ps,
            0.5 + along * dt + across * pt,
        )
    };
    let tri = [
        at(half_len, 0.0),
        at(-half_len, half_base),
        at(-half_len, -half_base),
    ];
    svg.polygon(
        &tri,
        &format!(
            r##"fill="{}" stroke="#1a1a1a" stroke-width="1.2" stroke-linejoin="round""##,
            seat_fill(seat)
        ),
    );
    // The ridge from the tip, as a lying pyramid shows it.
    svg.line(
        at(half_len, 0.0),
        at(-half_len, 0.0),
        r##"stroke="#000000" stroke-opacity="0.25" stroke-width="1""##,
    );
    for i in 0..size {
        let across = (f64::from(i) - (k - 1.0) / 2.0) * 0.09;
        svg.circle(
            at(-half_len + 0.07, across),
            2.2,
            r##"fill="#ffffff" stroke="#000000" stroke-width="0.5""##,
        );
    }
}

/// Where a click picks each action (see `Game::click_points`): the middle
/// of the cell it puts a null, a root or a pyramid on (the sizes and
/// directions of a cell are offered together).
pub fn click_points(state: &State, actions: &[crate::games::branches::Action]) -> Vec<Option<P>> {
    use crate::games::branches::Action;
    let (frames, _, _) = layout(state);
    actions
        .iter()
        .map(|a| {
            let cell = match *a {
                Action::Null(c) | Action::Root(c) => c,
                Action::Place { cell, .. } => cell,
            };
            frames.get(usize::from(cell)).map(|f| f.at(0.5, 0.5))
        })
        .collect()
}
