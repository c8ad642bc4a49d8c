//! The position as a picture: the grid of cards as it lies on the table
//! (face-down cards show their backs; turned cards show earth, fertilizer,
//! water, stone or the artifact by name), the start areas and seeds in the
//! seats' colours, sticks as lines between cell centres (bridges as arches
//! over the connector they cross), connectors as dots in the seat's colour,
//! the last grow or bridge outlined, and each seat's hand in the legend.

use crate::core::protocol::{GameState, Seat};
use crate::core::svg::{Key, Seats, Svg, foot, legend_width, num, seat_fill, seat_rows, square};

use super::rules::{Artifact, cell_name};
use super::state::{
    Action, DRIED, EARTH, EndReason, FERTILIZER, FIRST_ARTIFACT, HIDDEN, RUBBLE, SEED, STONE,
    State, WATER,
};
use super::text::{holdings, seat_letter, sticks_words};

/// The side of a cell, in pixels.
const SIDE: f64 = 58.0;
/// Room round the grid (the row letters and column numbers sit in it).
const MARGIN: f64 = 30.0;
/// The highlight of the last move.
const LAST: &str = "#e6a100";

type P = (f64, f64);

/// An artifact's name on its card, and its symbol.
fn artifact_words(a: Artifact) -> (&'static str, &'static str) {
    match a {
        Artifact::Skry => ("skry", "runes"),
        Artifact::Jump => ("jump", "Hermes"),
        Artifact::Deny => ("deny", "Medusa"),
        Artifact::Destroy => ("destroy", "hammer"),
        Artifact::Dry => ("dry", "sceptre"),
    }
}

/// The picture of `state`; `names` are the players, seat 1 first.
pub fn svg(state: &State, names: &[String]) -> String {
    let g = state.geo();
    let (rows, cols) = (usize::from(g.rows), usize::from(g.columns));
    let seats = state.seats() as u8;
    let centre = |cell: u16| cell_centre(cols, cell);
    let w = 2.0 * MARGIN + SIDE * cols as f64;
    let h = 2.0 * MARGIN + SIDE * rows as f64;

    let scores = state.scores();
    let over = state.end().is_some();
    let rows_text = seat_rows(seats, names, seat_letter, |s| {
        let (hand, sticks) = holdings(state, s);
        format!(
            "score {}, water {}, artifacts {hand}, {sticks}",
            scores[usize::from(s)],
            state.waters(s),
        )
    });
    let width = w.max(legend_width(&rows_text)).ceil();
    let key = key(width, state.rules().artifacts.abilities);
    let legend_h = 22.0 * f64::from(seats) + 30.0 + key.height(14.0);
    let mut svg = Svg::new(width, (h + legend_h).ceil());

    // The table under the cards, and the start areas in the seats' tints.
    svg.rect(
        MARGIN - 4.0,
        MARGIN - 4.0,
        SIDE * cols as f64 + 8.0,
        SIDE * rows as f64 + 8.0,
        r##"fill="#d9c7a3" rx="6""##,
    );
    for cell in 0..(rows * cols) as u16 {
        let deck = g.deck_of[usize::from(cell)];
        if deck > 0 {
            let (x, y) = centre(cell);
            svg.rect(
                x - SIDE / 2.0,
                y - SIDE / 2.0,
                SIDE,
                SIDE,
                &format!(
                    r#"fill="{}" fill-opacity="0.35""#,
                    seat_fill(Seat::from(deck - 1))
                ),
            );
        }
    }
    // Row letters and column numbers.
    for c in 0..cols {
        svg.text(
            (MARGIN + SIDE * (c as f64 + 0.5), MARGIN - 10.0),
            &(c + 1).to_string(),
            r##"font-size="12" fill="#555555" text-anchor="middle""##,
        );
    }
    for r in 0..rows {
        svg.text(
            (MARGIN - 15.0, MARGIN + SIDE * (r as f64 + 0.5) + 4.0),
            &char::from(b'A' + r as u8).to_string(),
            r##"font-size="12" fill="#555555" text-anchor="middle""##,
        );
    }
    // The cards.
    let mut labels = Vec::new();
    for cell in 0..(rows * cols) as u16 {
        card(
            &mut svg,
            centre(cell),
            state.card(cell),
            state,
            cell,
            &mut labels,
        );
    }

    // The last grow or bridge: its target cell outlined (a stone hit shows
    // where the turn ended), its stick drawn wide under the real one.
    // An ability on a cell (skry, destroy, dry) outlines that cell; a deny
    // shows in the legend.
    let last = state.last_move().and_then(|a| match a {
        Action::Grow { from, to } => Some((Some(from), to, false)),
        Action::Bridge { from, to } | Action::Jump { from, to } => Some((Some(from), to, true)),
        Action::Skry { at } | Action::Destroy { at } | Action::Dry { at } => {
            Some((None, at, false))
        }
        Action::End | Action::Deny { .. } => None,
    });
    if let Some((from, to, bridge)) = last {
        let (x, y) = centre(to);
        svg.rect(
            x - SIDE / 2.0 + 1.5,
            y - SIDE / 2.0 + 1.5,
            SIDE - 3.0,
            SIDE - 3.0,
            &format!(r#"fill="none" stroke="{LAST}" stroke-width="3.5" rx="6""#),
        );
        if let Some(from) = from
            && state.parent(to) == Some(from)
        {
            stick(
                &mut svg,
                centre(from),
                centre(to),
                bridge,
                &format!(r#"stroke="{LAST}" stroke-width="13" stroke-linecap="round""#),
            );
        }
    }

    // Sticks, then connectors over them.
    for cell in 0..(rows * cols) as u16 {
        let Some(p) = state.parent(cell) else {
            continue;
        };
        let seat = state.connector(cell).unwrap_or(0);
        let bridge = state.is_bridge(cell);
        stick(
            &mut svg,
            centre(p),
            centre(cell),
            bridge,
            r##"stroke="#6b4423" stroke-width="7" stroke-linecap="round""##,
        );
        stick(
            &mut svg,
            centre(p),
            centre(cell),
            bridge,
            &format!(
                r#"stroke="{}" stroke-width="2.5" stroke-linecap="round"{}"#,
                seat_fill(seat),
                if bridge {
                    r#" stroke-dasharray="5 4""#
                } else {
                    ""
                }
            ),
        );
    }
    for cell in 0..(rows * cols) as u16 {
        if let Some(seat) = state.connector(cell) {
            let at = centre(cell);
            let seed = g.seeds.get(usize::from(seat)) == Some(&cell);
            let current = state.current() == Some(cell) && !over;
            svg.circle(
                at,
                if seed { 11.0 } else { 7.0 },
                &format!(
                    r##"fill="{}" stroke="{}" stroke-width="{}""##,
                    seat_fill(seat),
                    if current { "#000000" } else { "#ffffff" },
                    if current { "3" } else { "2" }
                ),
            );
            if seed {
                svg.text(
                    (at.0, at.1 + 4.5),
                    &seat_letter(seat).to_string(),
                    r##"font-size="12" font-weight="bold" fill="#ffffff" text-anchor="middle""##,
                );
            }
        }
    }

    // The cards' names over sticks and connectors, each on a pale ground
    // so that a stick crossing it leaves it legible.
    for (at, text, fill) in labels {
        let w = 0.6 * 9.5 * text.chars().count() as f64 + 4.0;
        svg.rect(
            at.0 - w / 2.0,
            at.1 - 8.5,
            w,
            11.0,
            r##"fill="#ffffff" fill-opacity="0.8" rx="2""##,
        );
        svg.text(
            at,
            text,
            &format!(r##"font-size="9.5" fill="{fill}" text-anchor="middle""##),
        );
    }

    // The legend: each seat's score, water, hand and sticks; then the state
    // of the game and the key to the marks.
    let status = match state.end() {
        Some(reason) => {
            let why = match reason {
                EndReason::LastArtifact => "the last artifact was found",
                EndReason::AllClaimed => "every artifact is claimed",
                EndReason::Blocked => "nobody can grow",
                EndReason::RoundLimit => "the round limit",
                EndReason::Script => "a house rule ended it",
                EndReason::ScriptError => "a house rule failed",
            };
            let best = scores.iter().copied().max().unwrap_or(0);
            let winners: Vec<String> = (0..seats)
                .filter(|&s| scores[usize::from(s)] == best)
                .map(|s| seat_letter(s).to_string())
                .collect();
            format!(
                "game over ({why}): {} {}",
                winners.join(" and "),
                if winners.len() == 1 { "wins" } else { "tie" }
            )
        }
        None => match state.pending() {
            Some(Action::Grow { to, .. } | Action::Bridge { to, .. }) => format!(
                "round {}: {} grows onto {}; the card is turned over",
                state.round() + 1,
                seat_letter(state.to_move()),
                cell_name(g.columns, to)
            ),
            _ => format!(
                "round {}: {} to move with {}; {} face down",
                state.round() + 1,
                seat_letter(state.to_move()),
                sticks_words(state.sticks()),
                match state.hidden_artifacts() {
                    1 => "1 artifact".to_owned(),
                    n => format!("{n} artifacts"),
                }
            ),
        },
    };
    let legend = Seats {
        rows: &rows_text,
        fill: seat_fill,
        outline: r##"stroke="#ffffff" stroke-width="2""##,
    };
    foot(&mut svg, h + 2.0, &legend, &status, None, &key);
    svg.finish(&format!("Roots Growy Roots, {}", state.rules().name))
}

/// The key to the picture's marks: the cards, the seeds and start areas,
/// connectors, sticks and bridges, and the last move.
fn key(width: f64, abilities: bool) -> Key<'static> {
    let tile = |fill: &'static str, stroke: &'static str| {
        move |svg: &mut Svg, at: P| {
            square(
                svg,
                at,
                15.0,
                &format!(r#"fill="{fill}" stroke="{stroke}" stroke-width="1""#),
            );
        }
    };
    let mut key = Key::new(width)
        .add(
            |svg, at| {
                square(svg, at, 15.0, r##"fill="#2f5d50" stroke="#1c3a32""##);
                svg.polygon(
                    &[
                        (at.0, at.1 - 5.0),
                        (at.0 + 3.5, at.1),
                        (at.0, at.1 + 5.0),
                        (at.0 - 3.5, at.1),
                    ],
                    r##"fill="#7fa89a""##,
                );
            },
            "face down",
        )
        .add(tile("#b08455", "#6b4423"), "earth")
        .add(tile("#9bbf5a", "#5d7a2a"), "fertilizer (+sticks)")
        .add(tile("#a9d3f0", "#3d7ab8"), "water (income, a point)")
        .add(tile("#c8c8c8", "#777777"), "stone (ends the turn)")
        .add(
            tile("#f3d46b", "#a47c00"),
            if abilities {
                "artifact (a point, a one-use ability)"
            } else {
                "artifact (a point)"
            },
        );
    if abilities {
        key = key
            .add(tile("#ddd6cc", "#999999"), "rubble (a broken stone: earth)")
            .add(
                tile("#e8dcc0", "#a08a5a"),
                "dried (water that pays nothing)",
            );
    }
    key.add(
        |svg, at| {
            square(
                svg,
                at,
                15.0,
                &format!(r#"fill="{}" fill-opacity="0.35""#, seat_fill(0)),
            );
        },
        "start area",
    )
    .add(
        |svg, at| {
            svg.circle(
                at,
                7.5,
                &format!(r##"fill="{}" stroke="#ffffff" stroke-width="1.5""##, seat_fill(0)),
            );
            svg.text(
                (at.0, at.1 + 3.5),
                "A",
                r##"font-size="9" font-weight="bold" fill="#ffffff" text-anchor="middle""##,
            );
        },
        "seed",
    )
    .add(
        |svg, at| {
            svg.line(
                (at.0 - 8.0, at.1),
                (at.0 + 8.0, at.1),
                r##"stroke="#6b4423" stroke-width="5" stroke-linecap="round""##,
            );
            svg.line(
                (at.0 - 8.0, at.1),
                (at.0 + 8.0, at.1),
                &format!(r#"stroke="{}" stroke-width="2""#, seat_fill(0)),
            );
            svg.circle(
                (at.0 + 7.0, at.1),
                4.5,
                &format!(r##"fill="{}" stroke="#ffffff" stroke-width="1.5""##, seat_fill(0)),
            );
        },
        "stick and connector",
    )
    .add(
        |svg, at| {
            svg.circle(
                at,
                5.0,
                &format!(r##"fill="{}" stroke="#000000" stroke-width="2.5""##, seat_fill(0)),
            );
        },
        "the connector growing now",
    )
    .add(
        |svg, at| {
            svg.raw(&format!(
                r#"<path d="M {} {} Q {} {} {} {}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="3 2"/>"#,
                num(at.0 - 8.0),
                num(at.1 + 5.0),
                num(at.0),
                num(at.1 - 9.0),
                num(at.0 + 8.0),
                num(at.1 + 5.0),
                seat_fill(0)
            ));
        },
        "bridge (over a connector)",
    )
    .last_move(15.0, "the last move")
}

/// A stick from `a` to `b`: a straight line, or for a bridge an arch over
/// the cell between.
fn stick(svg: &mut Svg, a: P, b: P, bridge: bool, style: &str) {
    if bridge {
        // The arch bulges to the left of a -> b by a third of a cell.
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.hypot(dy).max(1.0);
        let k = SIDE * 0.45;
        let ctrl = (mx + dy / len * k, my - dx / len * k);
        svg.raw(&format!(
            r#"<path d="M {} {} Q {} {} {} {}" fill="none" {style}/>"#,
            num(a.0),
            num(a.1),
            num(ctrl.0),
            num(ctrl.1),
            num(b.0),
            num(b.1)
        ));
    } else {
        svg.line(a, b, style);
    }
}

/// A card's name at its foot: where, the words and their colour.
type Label = (P, &'static str, &'static str);

/// The card on a cell, centred at `at`; its name goes to `labels`.
fn card(svg: &mut Svg, at: P, face: u8, state: &State, cell: u16, labels: &mut Vec<Label>) {
    let inset = 4.0;
    let (x, y, s) = (
        at.0 - SIDE / 2.0 + inset,
        at.1 - SIDE / 2.0 + inset,
        SIDE - 2.0 * inset,
    );
    // Symbols sit above the middle, clear of the connector there.
    let ic = (at.0, at.1 - 6.0);
    // The card's name at its foot, written once sticks and connectors are
    // drawn (they would hide it).
    let mut label = |text: &'static str, fill: &'static str| {
        labels.push(((at.0, y + s - 4.0), text, fill));
    };
    match face {
        HIDDEN => {
            // A card back: dark green with a lighter inner frame and a
            // diamond.
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#2f5d50" stroke="#1c3a32" stroke-width="1" rx="4""##,
            );
            svg.rect(
                x + 4.0,
                y + 4.0,
                s - 8.0,
                s - 8.0,
                r##"fill="none" stroke="#7fa89a" stroke-width="1" rx="2""##,
            );
            svg.polygon(
                &[
                    (at.0, ic.1 - 9.0),
                    (at.0 + 7.0, ic.1),
                    (at.0, ic.1 + 9.0),
                    (at.0 - 7.0, ic.1),
                ],
                r##"fill="#7fa89a""##,
            );
        }
        SEED => {
            let seat = state.connector(cell).unwrap_or(0);
            svg.rect(
                x,
                y,
                s,
                s,
                &format!(
                    r##"fill="#f6efe0" stroke="{}" stroke-width="2.5" rx="4""##,
                    seat_fill(seat)
                ),
            );
            label("seed", "#444444");
        }
        EARTH => {
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#b08455" stroke="#6b4423" stroke-width="1" rx="4""##,
            );
            for (dx, dy) in [(-12.0, -12.0), (10.0, -8.0), (-6.0, 4.0), (13.0, 6.0)] {
                svg.circle((at.0 + dx, ic.1 + dy), 1.6, r##"fill="#7a5530""##);
            }
            label("earth", "#3a2612");
        }
        FERTILIZER => {
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#9bbf5a" stroke="#5d7a2a" stroke-width="1" rx="4""##,
            );
            // A sprout: a stem and two leaves.
            svg.line(
                (at.0, ic.1 + 6.0),
                (at.0, ic.1 - 10.0),
                r##"stroke="#2e5e1a" stroke-width="2""##,
            );
            svg.raw(&format!(
                r##"<ellipse cx="{}" cy="{}" rx="6" ry="3" fill="#2e5e1a"/>"##,
                num(at.0 - 5.0),
                num(ic.1 - 6.0)
            ));
            svg.raw(&format!(
                r##"<ellipse cx="{}" cy="{}" rx="6" ry="3" fill="#2e5e1a"/>"##,
                num(at.0 + 5.0),
                num(ic.1 - 2.0)
            ));
            label("fertilizer", "#1f3b10");
        }
        WATER => {
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#a9d3f0" stroke="#3d7ab8" stroke-width="1" rx="4""##,
            );
            // A drop.
            svg.raw(&format!(
                r##"<path d="M {} {} Q {} {} {} {} A 7 7 0 1 1 {} {} Q {} {} {} {} Z" fill="#2a6fb5"/>"##,
                num(at.0),
                num(ic.1 - 14.0),
                num(at.0 + 7.0),
                num(ic.1 - 4.0),
                num(at.0 + 7.0),
                num(ic.1 + 1.0),
                num(at.0 - 7.0),
                num(ic.1 + 1.0),
                num(at.0 - 7.0),
                num(ic.1 - 4.0),
                num(at.0),
                num(ic.1 - 14.0)
            ));
            label("water", "#123b66");
        }
        STONE => {
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#c8c8c8" stroke="#777777" stroke-width="1" rx="4""##,
            );
            svg.polygon(
                &[
                    (at.0 - 13.0, ic.1 + 4.0),
                    (at.0 - 9.0, ic.1 - 8.0),
                    (at.0 + 2.0, ic.1 - 12.0),
                    (at.0 + 12.0, ic.1 - 5.0),
                    (at.0 + 13.0, ic.1 + 5.0),
                ],
                r##"fill="#6e6e6e" stroke="#444444" stroke-width="1""##,
            );
            label("stone", "#333333");
        }
        f if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&f) => {
            let a = Artifact::ALL[usize::from(f - FIRST_ARTIFACT)];
            let (key, symbol) = artifact_words(a);
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#f3d46b" stroke="#a47c00" stroke-width="1.5" rx="4""##,
            );
            // The symbol's name at the card's head, written like its name
            // at the foot once sticks and connectors are drawn (in the
            // middle, the connector there hid it).
            label(key, "#3a2b00");
            labels.push(((at.0, y + 11.0), symbol, "#5a4300"));
        }
        RUBBLE => {
            // A stone broken by the hammer: pale, in pieces; grown onto as
            // earth.
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#ddd6cc" stroke="#999999" stroke-width="1" stroke-dasharray="3 2" rx="4""##,
            );
            for (dx, dy, r) in [
                (-9.0, -4.0, 4.0),
                (3.0, -9.0, 3.0),
                (8.0, 2.0, 4.5),
                (-2.0, 5.0, 2.5),
            ] {
                svg.circle((at.0 + dx, ic.1 + dy), r, r##"fill="#8a8a8a""##);
            }
            label("rubble", "#333333");
        }
        DRIED => {
            // Water dried by the sceptre: no income, no point.
            svg.rect(
                x,
                y,
                s,
                s,
                r##"fill="#e8dcc0" stroke="#a08a5a" stroke-width="1" rx="4""##,
            );
            svg.circle(
                (at.0, ic.1 - 3.0),
                8.0,
                r##"fill="none" stroke="#a08a5a" stroke-width="2""##,
            );
            svg.line(
                (at.0 - 9.0, ic.1 + 6.0),
                (at.0 + 9.0, ic.1 - 12.0),
                r##"stroke="#a08a5a" stroke-width="2""##,
            );
            label("dried", "#5a4a2a");
        }
        _ => {
            svg.rect(x, y, s, s, r##"fill="#ffffff" stroke="#999999" rx="4""##);
        }
    }
}

/// Where a click picks each action (see `Game::click_points`): the cell a
/// stick grows, bridges or jumps to (the connectors it may come from are
/// offered together), the card skried, destroyed or dried; none for ending
/// the turn or denying a seat (buttons).
pub fn click_points(state: &State, actions: &[Action]) -> Vec<Option<P>> {
    let cols = usize::from(state.geo().columns);
    let centre = |cell: u16| cell_centre(cols, cell);
    actions
        .iter()
        .map(|a| match *a {
            Action::Grow { to, .. } | Action::Bridge { to, .. } | Action::Jump { to, .. } => {
                Some(centre(to))
            }
            Action::Skry { at } | Action::Destroy { at } | Action::Dry { at } => Some(centre(at)),
            Action::End | Action::Deny { .. } => None,
        })
        .collect()
}

/// The centre of a cell in the picture, on a board of `cols` columns.
fn cell_centre(cols: usize, cell: u16) -> P {
    let (r, c) = (usize::from(cell) / cols, usize::from(cell) % cols);
    (
        MARGIN + SIDE * (c as f64 + 0.5),
        MARGIN + SIDE * (r as f64 + 0.5),
    )
}
