//! What the referee says after each event of a game of Roots Growy Roots,
//! beyond the event itself: the card a root grew onto and what it does
//! (water: more income from next turn and points; fertilizer: sticks now;
//! stone: the turn ends, sticks kept; an artifact taken), why a turn ended
//! and with how many sticks kept or lost, seats that could not grow, the
//! next turn's sticks, and at the end why the game ended and each seat's
//! score in its parts.

use crate::core::count;
use crate::core::protocol::{GameState, Seat};
use crate::script::session::HouseRules as _;

use super::rules::{Sticks, cell_name};
use super::state::{Action, EndReason, FERTILIZER, FIRST_ARTIFACT, STONE, State, WATER};
use super::text::{card_name, seat_letter, sticks_words};

/// The parts of a score, in `State::score_parts` order.
const PARTS: [&str; 4] = ["water", "artifacts", "most branches", "longest root"];

fn points(n: u8) -> String {
    count(n, "point", "points")
}

/// The lines to say after an event took the game from `before` to `after`.
pub fn narrate(before: &State, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    let rules = after.rules();
    let mover = before.to_move();
    let me = seat_letter(mover);
    let name = |c: u16| cell_name(after.geo().columns, c);
    // The grow or bridge that was played out now: a drawn card's, or a
    // decision onto a face-up card.
    let played = match before.pending() {
        Some(a) if after.pending().is_none() => Some(a),
        Some(_) => None,
        None if after.pending().is_none() && after.last_move() != before.last_move() => {
            after.last_move()
        }
        None => None,
    };
    // A turn ended: another seat moves, the game is over, or the same seat
    // moves again because every other seat's turn was skipped (deny).
    let turn_over = after.to_move() != mover
        || after.end().is_some()
        || after.tally.turns != before.tally.turns;
    // An ability decided now (the house rule): what it does, in words.
    if before.pending().is_none()
        && before.revealing().is_none()
        && after.last_move() != before.last_move()
        && let Some(line) = ability(after, me, after.last_move())
    {
        out.push(line);
    }
    // A card the Skrying Runes turned over.
    if let Some(c) = before.revealing()
        && after.revealing() != Some(c)
    {
        out.push(format!(
            "the runes turn over {}: {}",
            name(c),
            card_name(after.card(c))
        ));
    }
    if let Some((_, to)) = played.and_then(Action::stick) {
        let face = after.card(to);
        let bridge = matches!(played, Some(Action::Bridge { .. }));
        let jump = matches!(played, Some(Action::Jump { .. }));
        match face {
            STONE => out.push(format!(
                "a stone at {}: {me}'s turn ends, {} kept for next turn",
                name(to),
                sticks_words(before.sticks())
            )),
            _ => {
                let what = match face {
                    WATER => format!(
                        "water: {me}'s income is {} sticks a turn from next turn, and {}",
                        u32::from(rules.turn.income)
                            + u32::from(rules.turn.water_income) * u32::from(after.waters(mover)),
                        points(rules.scoring.water)
                    ),
                    FERTILIZER => format!(
                        "fertilizer: {me} takes {} more now",
                        sticks_words(u32::from(rules.turn.fertilizer))
                    ),
                    f if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&f) => format!(
                        "the {} artifact: {me} takes it ({}){}",
                        card_name(f),
                        points(rules.scoring.artifact),
                        if rules.turn.artifact_ends_turn && after.end().is_none() {
                            ", and the turn ends"
                        } else {
                            ""
                        }
                    ),
                    f => card_name(f).to_owned(),
                };
                out.push(format!(
                    "{me} {} {}, onto {what}",
                    if bridge {
                        "bridges to"
                    } else if jump {
                        "jumps (Flight of Hermes) to"
                    } else {
                        "grows to"
                    },
                    name(to)
                ));
                if turn_over && after.end().is_none() && !is_artifact(face) {
                    if before.sticks() == u32::from(bridge_cost(after, bridge))
                        && face != FERTILIZER
                    {
                        out.push(format!("{me} has no sticks left: the turn ends"));
                    } else {
                        out.push(format!(
                            "{me} cannot grow on from {}: the turn ends{}",
                            name(to),
                            lost_or_kept(rules.turn.blocked_end)
                        ));
                    }
                }
            }
        }
    }
    if after.tally.voluntary_ends > before.tally.voluntary_ends {
        out.push(format!(
            "{me} ends the turn: {} {}",
            sticks_words(before.sticks()),
            match rules.turn.voluntary_end {
                Sticks::Keep => "kept for next turn",
                Sticks::Lose => "lost",
            }
        ));
    }
    let blocked = after.tally.blocked_turns - before.tally.blocked_turns;
    if blocked > 0 {
        out.push(crate::core::seats_passed(
            blocked,
            "could not grow at the start of a turn",
            ("was", "were"),
        ));
    }
    if turn_over && after.end().is_none() {
        for s in after.skipped() {
            out.push(format!(
                "{}'s turn is skipped (Medusa's head): no sticks, no growth",
                seat_letter(s)
            ));
        }
        out.push(format!(
            "{}'s turn (round {}): {}",
            seat_letter(after.to_move()),
            after.round() + 1,
            sticks_words(after.sticks())
        ));
    }
    let (a, b) = (before.scores(), after.scores());
    if let Some(end) = after.end()
        && before.end().is_none()
    {
        out.push(format!(
            "game over: {}",
            match end {
                EndReason::LastArtifact => "the last face-down artifact was found",
                EndReason::AllClaimed => "every artifact is claimed",
                EndReason::Blocked => "nobody can grow",
                EndReason::RoundLimit => "the round limit is reached",
                EndReason::Script => "a house rule ends it",
                EndReason::ScriptError => "a house rule failed",
            }
        ));
        for (s, p) in after.score_parts().iter().enumerate() {
            out.push(format!(
                "{}: water {} + artifacts {} + most branches {} + longest root {} = {}",
                seat_letter(s as Seat),
                p[0],
                p[1],
                p[2],
                p[3],
                p.iter().sum::<i32>()
            ));
        }
    } else {
        let (pa, pb) = (before.score_parts(), after.score_parts());
        for (s, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                let why: Vec<String> = PARTS
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| pa[s][k] != pb[s][k])
                    .map(|(k, part)| format!("{part} {:+}", pb[s][k] - pa[s][k]))
                    .collect();
                out.push(format!(
                    "{} scores {:+} (total {y}): {}",
                    seat_letter(s as Seat),
                    y - x,
                    why.join(", ")
                ));
            }
        }
    }
    out.extend(after.script_notes().iter().cloned());
    out
}

/// An ability played by `me` (the artifacts house rule), in words.
fn ability(after: &State, me: char, action: Option<Action>) -> Option<String> {
    let name = |c: u16| cell_name(after.geo().columns, c);
    Some(match action? {
        Action::Skry { at } => format!(
            "{me} reads the Skrying Runes over {}: it and the face-down cards around it are turned over for everyone",
            name(at)
        ),
        Action::Deny { seat } => format!(
            "{me} shows Medusa's head to {}: {}'s next turn is skipped",
            seat_letter(seat),
            seat_letter(seat)
        ),
        Action::Destroy { at } => format!(
            "{me} swings Thor's hammer: the stone at {} is rubble, to be grown onto as earth",
            name(at)
        ),
        Action::Dry { at } => format!(
            "{me} raises the was-sceptre: the water at {} dries, paying no income and no point",
            name(at)
        ),
        Action::Grow { .. } | Action::Bridge { .. } | Action::Jump { .. } | Action::End => {
            return None;
        }
    })
}

fn is_artifact(face: u8) -> bool {
    (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&face)
}

fn bridge_cost(state: &State, bridge: bool) -> u8 {
    if bridge {
        state.rules().turn.bridge_cost
    } else {
        1
    }
}

fn lost_or_kept(fate: Sticks) -> &'static str {
    match fate {
        Sticks::Keep => ", sticks kept",
        Sticks::Lose => ", sticks left are lost",
    }
}

/// The last grow or bridge in words, for the board shown at the terminal:
/// `last move: a grew C1-B2`.
pub fn last_move(state: &State) -> Option<String> {
    let name = |c: u16| cell_name(state.geo().columns, c);
    let action = state.last_move()?;
    if let Some(artifact) = action.artifact()
        && !matches!(action, Action::Jump { .. })
    {
        // An ability on the board: its holder played it.
        let who = (0..state.seats() as Seat)
            .find(|&s| state.holds(s, artifact))
            .map(|s| seat_letter(s).to_ascii_lowercase())?;
        let what = match action {
            Action::Skry { at } => format!("read the runes over {}", name(at)),
            Action::Deny { seat } => format!("denied {}'s next turn", seat_letter(seat)),
            Action::Destroy { at } => format!("broke the stone at {}", name(at)),
            Action::Dry { at } => format!("dried the water at {}", name(at)),
            other => format!("{other:?}"),
        };
        return Some(format!("last move: {who} {what}"));
    }
    let (from, to, how) = match action {
        Action::Grow { from, to } => (from, to, "grew"),
        Action::Bridge { from, to } => (from, to, "bridged"),
        Action::Jump { from, to } => (from, to, "jumped"),
        _ => return None,
    };
    let who = seat_letter(state.connector(from)?).to_ascii_lowercase();
    Some(if state.pending().is_some() {
        format!(
            "last move: {who} {how} {}-{}, the card is being turned",
            name(from),
            name(to)
        )
    } else if state.connector(to).is_some() {
        format!("last move: {who} {how} {}-{}", name(from), name(to))
    } else {
        format!(
            "last move: {who} {how} {}-{} onto a stone",
            name(from),
            name(to)
        )
    })
}
