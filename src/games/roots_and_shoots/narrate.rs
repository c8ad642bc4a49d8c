//! What the referee says after each event of a game of Roots and Shoots,
//! beyond the event itself: a growth roll that can place nothing, whether a
//! nutrient spawns and why, where it landed, a rain, beads lost, and what
//! each seat scored with its total.

use crate::core::draw::seat_letter;
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::rules::Growth;
use crate::games::roots_and_shoots::state::{Phase, State};
use crate::script::session::HouseRules as _;

/// The lines to say after an event (a roll of `roll`, or a decision) took
/// the game from `before` to `after`.
pub fn narrate(before: &State, roll: Option<u8>, after: &State) -> Vec<String> {
    let mut out = Vec::new();
    // What the house rules written as scripts did in this step, first.
    out.extend(after.script_notes().iter().cloned());
    let g = after.grid();
    let on_top = before.tasks.last().is_none();
    if on_top
        && let Phase::RollGrowth(a) = before.phase
        && a != Growth::Sunbathe
        && after.stats.placements == before.stats.placements
        && !matches!(after.phase, Phase::Place { .. })
    {
        out.push(format!(
            "no bead can be placed with this roll ({})",
            a.words()
        ));
    }
    if on_top
        && before.phase == Phase::SpawnCheck
        && let Some(face) = roll
    {
        let on_board = crate::core::count(before.nutrients().len() as u64, "nutrient", "nutrients");
        match after.phase {
            Phase::Spawn { .. } => out.push(format!(
                "a nutrient spawns: the d12 shows {face}, with {on_board} on the board"
            )),
            Phase::SpawnResolve { .. } => {}
            _ if after.stats.rains == before.stats.rains => out.push(format!(
                "no nutrient spawns: the d12 shows {face}, with {on_board} on the board"
            )),
            _ => {}
        }
    }
    for n in after.nutrients() {
        if !before.nutrients().iter().any(|m| m.id == n.id) {
            out.push(format!("a nutrient lands at {}", g.name(n.point)));
        }
    }
    if after.stats.spawn_removals > before.stats.spawn_removals {
        out.push("the spawn landed on a bead: the bead is removed, no nutrient placed".into());
    }
    if after.stats.rains > before.stats.rains {
        out.push("it rains: the nutrients next to roots are scored".into());
    }
    for (s, (a, b)) in before.players().iter().zip(after.players()).enumerate() {
        let letter = seat_letter(s as Seat);
        if b.removed > a.removed {
            // Name the beads: a newcomer looks for what went.
            let gone: Vec<String> = g
                .all()
                .filter(|&p| before.bead(p) == Some(s as Seat) && after.bead(p) != Some(s as Seat))
                .map(|p| g.name(p))
                .collect();
            let at = if gone.is_empty() {
                String::new()
            } else {
                format!(" ({})", gone.join(" "))
            };
            out.push(format!(
                "{letter} loses {} from the board{at}",
                crate::core::count(b.removed - a.removed, "bead", "beads")
            ));
        }
        if b.score != a.score {
            out.push(format!(
                "{letter} scores {:+} (total {})",
                b.score - a.score,
                b.score
            ));
        }
    }
    out
}
