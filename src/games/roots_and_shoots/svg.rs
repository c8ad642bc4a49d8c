//! The position as a picture: a Go board seen from above, glass beads in
//! the seats' colours on the intersections, nutrient markers as stacks of
//! pennies with their values, and the table around it (each seat's score,
//! store and supply; the nutrient pile).

use crate::core::draw::seat_letter;
use crate::core::protocol::Seat;
use crate::core::svg::{
    Key, Seats, Svg, THIN_OUTLINE, foot, legend_width, num, seat_fill, seat_rows,
};
use crate::games::roots_and_shoots::State;

/// Pixels between two lines of the board.
const STEP: f64 = 26.0;
/// Room left of and above the board, for the coordinates.
const MARGIN: f64 = 34.0;

/// The picture of `state`; `names` are the players, seat 1 first.
pub fn svg(state: &State, names: &[String]) -> String {
    let g = state.grid();
    let n = i32::from(g.size());
    let span = STEP * f64::from(n - 1);
    let board_w = span + 2.0 * MARGIN;
    let seats = state.players().len();
    let legend_h = 22.0 * (seats as f64 + 1.0) + 16.0;
    let rows = seat_rows(seats as Seat, names, seat_letter, |s| {
        let p = &state.players()[usize::from(s)];
        format!(
            "score {}, store {}, supply {}, on board {}",
            p.score,
            p.store,
            p.supply,
            p.on_board()
        )
    });
    let width = board_w.max(legend_width(&rows));
    let key = key(width);
    let legend_h = legend_h + key.height(14.0) + 6.0;
    let mut svg = Svg::new(width, board_w + legend_h);
    let at = |x: i32, y: i32| (MARGIN + STEP * f64::from(x), MARGIN + STEP * f64::from(y));

    // The board: wood, lines, coordinates on the top and left edges.
    svg.rect(
        MARGIN - STEP * 0.6,
        MARGIN - STEP * 0.6,
        span + STEP * 1.2,
        span + STEP * 1.2,
        r##"fill="#dcb35c" stroke="#8b6b2e" stroke-width="1.5" rx="4""##,
    );
    for i in 0..n {
        let style = r##"stroke="#3b2f1a" stroke-width="0.8""##;
        svg.line(at(i, 0), at(i, n - 1), style);
        svg.line(at(0, i), at(n - 1, i), style);
        let label = r##"font-size="10" fill="#555555" text-anchor="middle""##;
        let (x, _) = at(i, 0);
        svg.text((x, MARGIN - STEP * 0.75), &i.to_string(), label);
        let (_, y) = at(0, i);
        svg.text((MARGIN - STEP * 0.95, y + 3.5), &i.to_string(), label);
    }
    // The centre, where the first beads go round.
    let c = (n - 1) / 2;
    svg.circle(at(c, c), 3.0, r##"fill="#3b2f1a""##);

    // Nutrients: a stack of pennies per point, values on top.
    for p in g.all() {
        let stack: Vec<_> = state.nutrients().iter().filter(|m| m.point == p).collect();
        if stack.is_empty() {
            continue;
        }
        let (x, y) = g.xy(p);
        let (cx, cy) = at(i32::from(x), i32::from(y));
        if state.bead(p).is_some() {
            // The bead that marks the stack hides it: a copper rim shows.
            svg.circle(
                (cx, cy),
                13.5,
                r##"fill="#c27c3e" stroke="#6e3f17" stroke-width="1""##,
            );
        }
        for (k, _) in stack.iter().enumerate() {
            let lift = 2.5 * k as f64;
            svg.circle(
                (cx, cy - lift),
                9.5,
                r##"fill="#c27c3e" stroke="#6e3f17" stroke-width="1""##,
            );
        }
        if state.bead(p).is_none() {
            let text: Vec<String> = stack
                .iter()
                .map(|m| m.value.map_or_else(|| "?".to_string(), |v| v.to_string()))
                .collect();
            let top = cy - 2.5 * (stack.len() - 1) as f64;
            svg.text(
                (cx, top + 3.5),
                &text.join("+"),
                r##"font-size="9.5" font-weight="bold" fill="#ffffff" text-anchor="middle""##,
            );
        }
    }

    // Beads, drawn after the stacks: a bead on a stack is its marker.
    let last: Vec<crate::core::geometry::Point> = state.last_beads().collect();
    for p in g.all() {
        let Some(s) = state.bead(p) else { continue };
        let (x, y) = g.xy(p);
        let (cx, cy) = at(i32::from(x), i32::from(y));
        let lift = 2.5 * state.nutrients_at(p).saturating_sub(1) as f64;
        bead(&mut svg, (cx, cy - lift), s);
        // The last move: the beads of the roll being played out, else of
        // the last roll that placed any.
        if last.contains(&p) {
            svg.circle(
                (cx, cy - lift),
                14.5,
                r##"fill="none" stroke="#e6a100" stroke-width="3""##,
            );
        }
    }
    // The tags of marked stacks again, over the beads.
    for p in g.all() {
        if state.bead(p).is_some() && state.nutrients_at(p) > 0 {
            let (x, y) = g.xy(p);
            let (cx, cy) = at(i32::from(x), i32::from(y));
            let text: Vec<String> = state
                .nutrients()
                .iter()
                .filter(|m| m.point == p)
                .map(|m| m.value.map_or_else(|| "?".to_string(), |v| v.to_string()))
                .collect();
            let text = text.join("+");
            let w = 6.0 * text.chars().count() as f64 + 6.0;
            svg.rect(
                cx + 5.0,
                cy + 3.0,
                w,
                12.0,
                r##"fill="#fff8e7" stroke="#6e3f17" stroke-width="0.8" rx="3""##,
            );
            svg.text(
                (cx + 5.0 + w / 2.0, cy + 12.5),
                &text,
                r##"font-size="9.5" font-weight="bold" fill="#6e3f17" text-anchor="middle""##,
            );
        }
    }

    // The table: each seat, then the pile and the round.
    let round = if state.in_first_turn() {
        "first turn".to_string()
    } else {
        format!("round {}", state.round())
    };
    let legend = Seats {
        rows: &rows,
        fill: seat_fill,
        outline: THIN_OUTLINE,
    };
    let status = format!(
        "nutrient pile: {}, on the board: {}; {round}",
        state.nutrient_supply(),
        state.nutrients().len()
    );
    let nutrient = r##"fill="#c27c3e" stroke="#6e3f17" stroke-width="1""##;
    foot(
        &mut svg,
        board_w + 4.0,
        &legend,
        &status,
        Some(nutrient),
        &key,
    );
    svg.finish(&format!("Roots and Shoots, {}", state.rules().name))
}

/// The key to the picture's marks: the ring of the last roll's beads,
/// nutrients and their values, a bead marking a nutrient, the centre.
fn key(width: f64) -> Key<'static> {
    let penny = |svg: &mut Svg, at: (f64, f64), text: &str| {
        svg.circle(
            at,
            7.5,
            r##"fill="#c27c3e" stroke="#6e3f17" stroke-width="1""##,
        );
        svg.text(
            (at.0, at.1 + 3.0),
            text,
            r##"font-size="8.5" font-weight="bold" fill="#ffffff" text-anchor="middle""##,
        );
    };
    Key::new(width)
        .add(
            |svg, at| {
                svg.circle(at, 6.5, &format!(r#"fill="{}""#, seat_fill(0)));
                svg.circle(
                    at,
                    8.5,
                    r##"fill="none" stroke="#e6a100" stroke-width="2""##,
                );
            },
            "a bead of the last roll",
        )
        .add(
            move |svg, at| penny(svg, at, "3"),
            "a nutrient and its value",
        )
        .add(
            move |svg, at| penny(svg, at, "?"),
            "a nutrient not rolled yet",
        )
        .add(
            |svg, at| {
                svg.circle(
                    at,
                    8.0,
                    r##"fill="#c27c3e" stroke="#6e3f17" stroke-width="1""##,
                );
                svg.circle(at, 6.0, &format!(r#"fill="{}""#, seat_fill(0)));
            },
            "a bead on nutrients (tag: their values)",
        )
        .add(
            |svg, at| svg.circle(at, 3.0, r##"fill="#3b2f1a""##),
            "the centre",
        )
}

/// A glass bead of seat `s` centred at `c`.
fn bead(svg: &mut Svg, c: (f64, f64), s: Seat) {
    svg.circle(
        c,
        11.0,
        &format!(
            r##"fill="{}" stroke="#00000066" stroke-width="1""##,
            seat_fill(s)
        ),
    );
    svg.raw(&format!(
        r##"<ellipse cx="{}" cy="{}" rx="4.5" ry="3" fill="#ffffff" fill-opacity="0.45"/>"##,
        num(c.0 - 3.5),
        num(c.1 - 4.5)
    ));
}

/// Where a click picks each action (see `Game::click_points`): the point a
/// bead goes on, a nutrient lands on or an end is lost at; none for the
/// choice of a growth action or a pass (buttons).
pub fn click_points(state: &State, actions: &[super::Action]) -> Vec<Option<(f64, f64)>> {
    use super::Action;
    let g = state.grid();
    actions
        .iter()
        .map(|a| match *a {
            Action::Place(p) | Action::Spawn(p) | Action::Lose(p) => {
                let (x, y) = g.xy(p);
                Some((MARGIN + STEP * f64::from(x), MARGIN + STEP * f64::from(y)))
            }
            Action::Grow(_) | Action::Pass => None,
        })
        .collect()
}
