//! What a change of each Sprout-R-Out rule key means at the table, in one
//! line ([`crate::games::Game::meaning`], printed by `roots diff` and at the
//! top of the rules sheet).

use super::game::Variant;
use super::rules::{
    EndCheck, EyeDetection, EyeMemory, Groups, Repetition, StrictOrder, StuckRemoval, Territory,
    Tie, board_for,
};

/// What changing `key` from its value in `a` to its value in `b` means.
pub fn meaning(key: &str, a: &Variant, b: &Variant) -> Option<String> {
    let (r, br) = (&b.rules, &b.board);
    Some(match key {
        "board.shape" => {
            let (from, to) = (board_for(a.board.shape).len(), board_for(br.shape).len());
            let size = match to.cmp(&from) {
                std::cmp::Ordering::Greater => "a bigger board: longer games",
                std::cmp::Ordering::Less => "a smaller board: shorter games",
                std::cmp::Ordering::Equal => "a board of the same size, shaped differently",
            };
            format!(
                "played on {} ({to} cells instead of {from}): {size}",
                br.shape.slug()
            )
        }
        "board.groups" => match br.groups {
            Groups::Edge => "stones join into groups only through shared sides".into(),
            Groups::EdgeOrVertex => {
                "stones join into groups through corners too: fewer, larger groups and more eyes"
                    .into()
            }
        },
        "rules.repetition" => match r.repetition {
            Repetition::TurnStart => {
                "a player whose position repeats their previous turn's start must pass".into()
            }
            Repetition::Superko => {
                "no move may recreate an earlier turn's position (superko): some placements and removals become illegal, and forced passes can happen mid-turn".into()
            }
        },
        "rules.end_check" => match r.end_check {
            EndCheck::TurnEnd => {
                "a majority ends the game only after a complete turn, for either player".into()
            }
            EndCheck::EverySubMove => {
                "the mover's majority ends the game at once, even in the middle of a turn".into()
            }
        },
        "rules.tie" => match r.tie {
            Tie::Draw => "equal territories are a draw".into(),
            Tie::MoverWins => {
                "equal territories are won by the player who moved last (after two passes, the second to pass)".into()
            }
        },
        "rules.eye_detection" => match r.eye_detection {
            EyeDetection::WholeBoard => {
                "every eye a move closes counts, wherever it is on the board".into()
            }
            EyeDetection::AroundLastAction => {
                "only eyes next to the last stone played count: an eye closed far from it is missed"
                    .into()
            }
        },
        "rules.eye_memory" => match r.eye_memory {
            EyeMemory::WhileGroupLives => "an eye lasts until the group around it is removed".into(),
            EyeMemory::Forever => {
                "an eye is remembered for the rest of the game and keeps scoring after its group dies"
                    .into()
            }
        },
        "rules.territory" => match r.territory {
            Territory::ImmortalGroups => {
                "territory is your eyes and your groups touching them".into()
            }
            Territory::FloodFill => {
                "territory also floods from your eyes into empty regions and enemy groups once your group there dies: territories may overlap".into()
            }
        },
        "rules.stuck_removal" => match r.stuck_removal {
            StuckRemoval::Eyeless => {
                "with no first placement, a player removes an enemy group without an eye".into()
            }
            StuckRemoval::Unplayable => {
                "with no first placement, a player removes any enemy group that cannot be played against, eyes or not".into()
            }
        },
        "rules.strict_order" => match r.strict_order {
            StrictOrder::None => "both players handle the enemy groups in any order".into(),
            StrictOrder::First => {
                "X must handle the enemy groups in a fixed order (removals first, then the lowest-numbered group)".into()
            }
            StrictOrder::Second => {
                "O must handle the enemy groups in a fixed order (removals first, then the lowest-numbered group)".into()
            }
            StrictOrder::Both => {
                "both players handle the enemy groups in a fixed order (removals first, then the lowest-numbered group)".into()
            }
        },
        _ => return None,
    })
}
