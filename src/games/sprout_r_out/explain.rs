//! The rules sheet of a Sprout-R-Out variant (`roots explain`), written from
//! the resolved rules values; sentences that depend on a key differing from
//! `sprout-r-out` (the designer's rules) are marked **(house rule)**.

use std::collections::BTreeSet;

use crate::core::keys::Change;

use super::game::{SproutROut, Variant};
use super::rules::{
    BoardShape, EndCheck, EyeDetection, EyeMemory, Groups, Repetition, StrictOrder, StuckRemoval,
    Territory, Tie, board_for,
};
use crate::games::sheet::{Reading, Sheet};

/// Where the sheet reads the rules text: the questions SR1-SR11 of
/// `docs/games/sprout-r-out.md`. Where Ludii's program reads the text
/// otherwise, `sprout-r-out-ludii` plays Ludii's reading.
pub(crate) const READINGS: &[Reading] = &[
    Reading {
        id: "SR1",
        text: "If at the start of their turn, a player finds the position of all the pieces on the board to be the same as at the beginning of their last turn, the player must pass (unless the previous player just passed.)",
        ours: "the text's turn-start rule, as written.",
        why: "it is the rule the text states; Ludii's program forbids any repeated position instead (superko, in `sprout-r-out-ludii`).",
        keys: &["rules.repetition"],
        literal: None,
    },
    Reading {
        id: "SR2",
        text: "When the turn is complete the next player plays, until the winning player's territory covers over half the board.",
        ours: "the majority is tested after each complete turn, for both players.",
        why: "the text completes turns; Ludii's program tests the mover after every sub-move and ends games mid-turn (`sprout-r-out-ludii`).",
        keys: &["rules.end_check"],
        literal: None,
    },
    Reading {
        id: "SR3",
        text: "In such cases a tie is possible.",
        ours: "equal territories are a draw.",
        why: "the text allows a tie; Ludii's program gives it to the last mover (`sprout-r-out-ludii`).",
        keys: &["rules.tie"],
        literal: None,
    },
    Reading {
        id: "SR4",
        text: "a single empty site around which all the adjacent sites are occupied by pieces of a single group",
        ours: "every such cell on the whole board becomes its owner's eye after each placement and removal.",
        why: "the definition is static; Ludii's program only looks around the last stone (`sprout-r-out-ludii`).",
        keys: &["rules.eye_detection"],
        literal: None,
    },
    Reading {
        id: "SR5",
        text: "an occupied site that was previously an eye",
        ours: "a filled eye stays an eye until the group around it is removed.",
        why: "a dead group has no eyes; Ludii's program remembers eyes for the rest of the game (`sprout-r-out-ludii`).",
        keys: &["rules.eye_memory"],
        literal: None,
    },
    Reading {
        id: "SR6",
        text: "Your 'territory' is the combination of your Immortal groups and their eyes.",
        ours: "eyes plus the groups next to them, as defined.",
        why: "it is the definition; Ludii's program floods from the eyes into other regions (`sprout-r-out-ludii`).",
        keys: &["rules.territory"],
        literal: None,
    },
    Reading {
        id: "SR7",
        text: "they must remove one eyeless enemy group",
        ours: "any enemy group without an eye.",
        why: "as written; Ludii's program removes any group that cannot be played against, eyes or not (`sprout-r-out-ludii`).",
        keys: &["rules.stuck_removal"],
        literal: None,
    },
    Reading {
        id: "SR8",
        text: "The removals can be made in any order.",
        ours: "the later sub-moves go in any order the player chooses.",
        why: "as written; Ludii's optional fixed order for its AI is a key.",
        keys: &["rules.strict_order"],
        literal: None,
    },
    Reading {
        id: "SR9",
        text: "they must remove one eyeless enemy group and then pass.",
        ours: "the removal ends the turn, and the turn is not a pass for the two-pass end.",
        why: "the board changed, so the game has not stalled; Ludii's program agrees.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "SR10",
        text: "a newly invented territorial game for Cairo and limping Hex boards",
        ours: "the limping hexagon of order 5 by default; all of Ludii's boards are offered.",
        why: "the text names no board; Ludii's default is this one.",
        keys: &["board.shape", "board.groups"],
        literal: None,
    },
    Reading {
        id: "SR11",
        text: "Play starts on the empty board.",
        ours: "X, the first seat, moves first, and there is no compensation for moving second.",
        why: "the text names no first player and no compensation; Ludii has none either.",
        keys: &[],
        literal: None,
    },
];

fn board_words(shape: BoardShape) -> &'static str {
    match shape {
        BoardShape::Limping3 => "a limping hexagon of order 3 (rows of 4 5 6 5 4 3 hexagons)",
        BoardShape::Limping5 => {
            "a limping hexagon of order 5 (rows of 6 to 10 hexagons and back to 5)"
        }
        BoardShape::Limping7 => "a limping hexagon of order 7",
        BoardShape::Hex6 => "a regular hexagon of side 6, made of hexagons",
        BoardShape::Triangle9 => "a triangle of side 10, made of hexagons",
        BoardShape::Epoxy39 => "a limping hexagon of order 4 with nine holes",
        BoardShape::Epoxy72 => "a hexagon of side 6 with nineteen holes",
        BoardShape::Square9 => "a 9 x 9 square",
        BoardShape::Cairo1 => "pentagons of the Cairo tiling",
        BoardShape::Cairo2 => "a larger board of Cairo pentagons",
    }
}

/// The rules sheet of `r` in Markdown (`changes` are its rules that
/// differ from the standard ones), and the keys it consulted.
pub(crate) fn explain_with_keys(v: &Variant, changes: &[Change]) -> (String, BTreeSet<String>) {
    let mut s = Sheet::open::<SproutROut>(v, &v.description, changes);
    let b = &v.board;
    let r = &v.rules;
    let board = board_for(b.shape);
    let cells = board.len();
    let half = cells / 2 + 1;

    s.heading(2, "Equipment");
    let t = s.k("board.shape");
    let sr10 = s.mark("SR10");
    s.line(&format!(
        "- The board: {}, {cells} cells{sr10}{t}. A cell is named by a column letter and a row number, `{}` to `{}`: the terminal board (`board` at the prompt) prints them.",
        board_words(b.shape),
        board.label(0),
        board.label((cells - 1) as u16)
    ));
    let sr11 = s.mark("SR11");
    s.line(&format!("- Two players: **X** (seat 1) moves first, **O** (seat 2) second, each with as many stones as they need. There is no compensation for moving second{sr11}."));
    let t = s.k("board.groups");
    let nb = match b.groups {
        Groups::Edge => format!("Two cells are *neighbours* when they share a side{t}."),
        Groups::EdgeOrVertex => {
            format!("Two cells are *neighbours* when they share a side or a corner{t}.")
        }
    };
    s.line("");
    s.para(&format!(
        "{nb} A *group* is a set of one player's stones joined through neighbours, as large as it goes."
    ));

    s.heading(2, "Eyes and territory");
    let td = s.k("rules.eye_detection");
    let td = format!("{}{td}", s.mark("SR4"));
    let found = match r.eye_detection {
        EyeDetection::WholeBoard => format!(
            "An *eye* of a player is an empty cell all of whose neighbours are stones of one group of that player. After each of your placements and removals, every such cell on the whole board becomes your eye{td}."
        ),
        EyeDetection::AroundLastAction => format!(
            "An *eye* of a player is an empty cell all of whose neighbours are stones of one group of that player. Eyes are looked for only around your last action: the cell just played (or the removed group's lowest-numbered cell) and its neighbours, and only if you have a stone next to it, so an eye you close far from your new stone is not counted{td}."
        ),
    };
    let tm = s.k("rules.eye_memory");
    let tm = format!("{}{tm}", s.mark("SR5"));
    let lasts = match r.eye_memory {
        EyeMemory::WhileGroupLives => format!(
            "A cell stays its owner's eye even once an enemy stone fills it, until the group around it is removed{tm}."
        ),
        EyeMemory::Forever => format!(
            "A cell stays its owner's eye for the rest of the game, filled or not, even after the group around it is removed{tm}."
        ),
    };
    s.para(&format!("{found} {lasts}"));
    let tt = s.k("rules.territory");
    let tt = format!("{}{tt}", s.mark("SR6"));
    let terr = match r.territory {
        Territory::ImmortalGroups => format!(
            "A group next to one of its owner's eyes is *immortal*. Your **territory** is your eyes plus your immortal groups{tt}; your score is its size."
        ),
        Territory::FloodFill => format!(
            "Your **territory** is your eyes plus, from every other cell next to one of your eyes, every cell joined to it holding the same thing: normally your own group, but an empty region, or even an enemy group, once your group there has gone{tt}. Territories may overlap. Your score is its size."
        ),
    };
    s.para(&terr);

    s.heading(2, "A turn");
    s.para("A turn is a series of *sub-moves*, each typed on its own: a cell (`C4`) places a stone, `remove C4` removes the enemy group that holds C4, `pass` passes when the rules leave nothing else.");
    s.para("1. **First placement.** Place a stone on an empty cell that is nobody's eye and touches at most one enemy group. If it touches one, that group counts as played against.");
    let to = s.k("rules.strict_order");
    let to = format!("{}{to}", s.mark("SR8"));
    let fixed = "first remove every group that can be removed, then play against the group holding the lowest-numbered enemy stone not yet played against";
    let order = match r.strict_order {
        StrictOrder::None => "in any order you choose".to_owned(),
        StrictOrder::First => format!("in any order for O; X must {fixed}"),
        StrictOrder::Second => format!("in any order for X; O must {fixed}"),
        StrictOrder::Both => format!("in a fixed order: {fixed}"),
    };
    s.para(&format!(
        "2. **Then, once for each enemy group not yet played against**, {order}{to}: place a stone on an empty cell next to that group and next to no other enemy group (it may go into an eye), or, if the group has no such cell, **remove** the whole group. Removing one group may free a cell for another. The turn ends when every enemy group has been handled. The board marks enemy stones still to be played against in lower case (`x`, `o`)."
    ));
    let tr = s.k("rules.repetition");
    let tr = format!("{}{tr}", s.mark("SR1"));
    let rep = match r.repetition {
        Repetition::TurnStart => format!(
            "**Repetition.** If your stones and the enemy's stand exactly as at the start of your previous turn, you must pass, unless the opponent's last turn was a pass{tr}."
        ),
        Repetition::Superko => format!(
            "**Repetition.** No placement or removal may recreate a position (the stones, and which enemy stones are still to be played against) seen after the first sub-move of any earlier turn, or the empty board. If that forbids everything the rules offer at that point, you must pass, also in the middle of a turn; a group whose every placement is forbidden counts as one with no cell, so it is removed{tr}."
        ),
    };
    let ts = s.k("rules.stuck_removal");
    let ts = format!("{}{ts}", s.mark("SR7"));
    let sr9 = s.mark("SR9");
    let removable = match r.stuck_removal {
        StuckRemoval::Eyeless => "has no eye",
        StuckRemoval::Unplayable => "has no cell to play against it, eyes or not",
    };
    s.para(&format!(
        "3. **Exceptions, at the start of a turn, in this order.** {rep} **No first placement.** If no first placement exists, remove one enemy group that {removable}, and your turn ends (it is not a pass{sr9}){ts}. **Nothing to remove either:** you pass. At no other time may you pass, and a placement touching two enemy groups is never legal."
    ));

    s.heading(2, "The end");
    let te = s.k("rules.end_check");
    let te = format!("{}{te}", s.mark("SR2"));
    let when = match r.end_check {
        EndCheck::TurnEnd => format!(
            "After each complete turn, if either territory covers more than half the board ({half} of {cells} cells), the game ends{te}."
        ),
        EndCheck::EverySubMove => format!(
            "After every sub-move, if the mover's territory covers more than half the board ({half} of {cells} cells), the game ends at once, even in the middle of a turn; only the mover is tested{te}."
        ),
    };
    let tie = s.k("rules.tie");
    let tie = format!("{}{tie}", s.mark("SR3"));
    let ties = match r.tie {
        Tie::Draw => format!("Equal territories are a draw{tie}."),
        Tie::MoverWins => format!(
            "On equal territories the player who moved last wins, at either ending: after two passes, the second to pass{tie}."
        ),
    };
    s.para(&format!(
        "{when} Two turns in a row that were each a single pass also end the game. The larger territory wins. {ties}"
    ));
    s.consulted()
}

crate::sheet_tests!(SproutROut);
