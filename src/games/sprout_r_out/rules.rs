//! The rules of Sprout-R-Out as data: the raw variant file (every key
//! optional) and the resolved, checked [`Rules`] the engine plays.

use std::ops::RangeInclusive;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::graph::{Adjacency, Board};

/// A board of Ludii's Sprout-R-Out 1.3.12 ("Board Size" option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum BoardShape {
    /// Limping hexagon of order 3, 27 cells (rows of 4 5 6 5 4 3).
    #[serde(rename = "limping-3")]
    Limping3,
    /// Limping hexagon of order 5, 75 cells: Ludii's default board.
    #[serde(rename = "limping-5")]
    Limping5,
    /// Limping hexagon of order 7, 147 cells.
    #[serde(rename = "limping-7")]
    Limping7,
    /// Regular hexagon of side 6, 91 cells.
    #[serde(rename = "hex-6")]
    Hex6,
    /// Ludii's "Triangle 9 (45)", which is a triangle of side 10: 55 cells.
    #[serde(rename = "triangle-9")]
    Triangle9,
    /// Ludii's "Epoxy (39)": a limping hexagon of order 4 with 9 holes.
    #[serde(rename = "epoxy-39")]
    Epoxy39,
    /// Ludii's "Epoxy (72)": a hexagon of side 6 with 19 holes.
    #[serde(rename = "epoxy-72")]
    Epoxy72,
    /// The 9×9 square board, 81 cells.
    #[serde(rename = "square-9")]
    Square9,
    /// Ludii's "Cairo 1": 48 pentagons of the Cairo tiling.
    #[serde(rename = "cairo-1")]
    Cairo1,
    /// Ludii's "Cairo 2": 160 pentagons of the Cairo tiling.
    #[serde(rename = "cairo-2")]
    Cairo2,
}

impl BoardShape {
    pub const ALL: [BoardShape; 10] = [
        BoardShape::Limping3,
        BoardShape::Limping5,
        BoardShape::Limping7,
        BoardShape::Hex6,
        BoardShape::Triangle9,
        BoardShape::Epoxy39,
        BoardShape::Epoxy72,
        BoardShape::Square9,
        BoardShape::Cairo1,
        BoardShape::Cairo2,
    ];
    /// The name used in variant files.
    pub fn slug(self) -> &'static str {
        match self {
            BoardShape::Limping3 => "limping-3",
            BoardShape::Limping5 => "limping-5",
            BoardShape::Limping7 => "limping-7",
            BoardShape::Hex6 => "hex-6",
            BoardShape::Triangle9 => "triangle-9",
            BoardShape::Epoxy39 => "epoxy-39",
            BoardShape::Epoxy72 => "epoxy-72",
            BoardShape::Square9 => "square-9",
            BoardShape::Cairo1 => "cairo-1",
            BoardShape::Cairo2 => "cairo-2",
        }
    }
    fn build(self) -> Option<Board> {
        match self {
            BoardShape::Limping3 => Board::limping(3),
            BoardShape::Limping5 => Board::limping(5),
            BoardShape::Limping7 => Board::limping(7),
            BoardShape::Hex6 => Board::hexagon(6),
            BoardShape::Triangle9 => Board::triangle(10),
            BoardShape::Epoxy39 => Board::epoxy_39(),
            BoardShape::Epoxy72 => Board::epoxy_72(),
            BoardShape::Square9 => Board::square(9),
            BoardShape::Cairo1 => Board::cairo_1(),
            BoardShape::Cairo2 => Board::cairo_2(),
        }
    }
}

/// The board of a shape, built once per process.
pub fn board_for(shape: BoardShape) -> &'static Board {
    static BOARDS: [OnceLock<Board>; 10] = [const { OnceLock::new() }; 10];
    let k = BoardShape::ALL
        .iter()
        .position(|&s| s == shape)
        .unwrap_or(0);
    BOARDS[k].get_or_init(|| {
        shape
            .build()
            .expect("the built-in boards are consistent (checked by tests/sprout_boards.rs)")
    })
}

/// Which neighbours join stones into groups (and count for placement and eyes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Groups {
    /// Cells sharing an edge (Ludii's "ortho-groups", Orthogonal).
    Edge,
    /// Cells sharing an edge or a corner (Ludii's "diagonal groups", Adjacent).
    EdgeOrVertex,
}

impl Groups {
    pub fn adjacency(self) -> Adjacency {
        match self {
            Groups::Edge => Adjacency::Edge,
            Groups::EdgeOrVertex => Adjacency::EdgeOrVertex,
        }
    }
}

/// What happens when positions repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// The designer's rule: a player whose stones stand as at the start of
    /// their previous turn must pass, unless the opponent just passed.
    TurnStart,
    /// Ludii's positional superko: a placement or removal is illegal if the
    /// position after it (stones and per-stone marks) equals one recorded after
    /// the first sub-move of an earlier turn (or the empty start); if that
    /// leaves nothing in the branch the rules chose, the player must pass.
    Superko,
}

/// When the majority end is tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndCheck {
    /// At the end of each turn, for both players.
    TurnEnd,
    /// Ludii: after every sub-move, for the mover only; a game can end mid-turn.
    EverySubMove,
}

/// Who wins equal territories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Tie {
    /// A draw.
    Draw,
    /// Ludii: the player who made the last move wins.
    MoverWins,
}

/// How eyes are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EyeDetection {
    /// After every sub-move, every empty cell surrounded by one group of the
    /// mover is an eye of the mover.
    WholeBoard,
    /// Ludii: only the cell just played (or the removal's lowest cell) and its
    /// neighbours are looked at, and only if the mover has a stone next to it.
    AroundLastAction,
}

/// How long a cell stays an eye.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EyeMemory {
    /// An eye stays an eye (even once an enemy stone fills it) until the group
    /// around it is removed.
    WhileGroupLives,
    /// Ludii: an eye is remembered for the rest of the game.
    Forever,
}

/// How territory is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Territory {
    /// Your eyes and your groups next to them (immortal groups).
    ImmortalGroups,
    /// Ludii: your eyes, plus from every other cell next to one of your eyes
    /// everything connected to it with the same content (your group, an empty
    /// region, or an enemy group).
    FloodFill,
}

/// Which group may be removed when no first placement exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StuckRemoval {
    /// An enemy group without an eye (the designer's "eyeless enemy group").
    Eyeless,
    /// Ludii: an enemy group that cannot be played against, eyes or not.
    Unplayable,
}

/// The order of the sub-moves after the first placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StrictOrder {
    /// Both players handle the enemy groups in any order.
    None,
    /// Ludii's "AI" sequence for the first player only.
    First,
    /// Ludii's "AI" sequence for the second player only.
    Second,
    /// Ludii's "AI" sequence for both: removals first, then placements against
    /// the group holding the lowest-numbered enemy stone not yet played to.
    Both,
}

/// The resolved rules: every key present; the engine's only input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub board: BoardShape,
    pub groups: Groups,
    pub repetition: Repetition,
    pub end_check: EndCheck,
    pub tie: Tie,
    pub eye_detection: EyeDetection,
    pub eye_memory: EyeMemory,
    pub territory: Territory,
    pub stuck_removal: StuckRemoval,
    pub strict_order: StrictOrder,
}

impl Rules {
    /// The rules of the game as this toolkit reads the designer's text, on
    /// Ludii's default board.
    pub fn standard() -> Rules {
        Rules {
            board: BoardShape::Limping5,
            groups: Groups::Edge,
            repetition: Repetition::TurnStart,
            end_check: EndCheck::TurnEnd,
            tie: Tie::Draw,
            eye_detection: EyeDetection::WholeBoard,
            eye_memory: EyeMemory::WhileGroupLives,
            territory: Territory::ImmortalGroups,
            stuck_removal: StuckRemoval::Eyeless,
            strict_order: StrictOrder::None,
        }
    }

    /// Every reading of Ludii 1.3.12 (option "Both Human") on the same board.
    pub fn ludii() -> Rules {
        Rules {
            repetition: Repetition::Superko,
            end_check: EndCheck::EverySubMove,
            tie: Tie::MoverWins,
            eye_detection: EyeDetection::AroundLastAction,
            eye_memory: EyeMemory::Forever,
            territory: Territory::FloodFill,
            stuck_removal: StuckRemoval::Unplayable,
            ..Rules::standard()
        }
    }

    /// Two players, always.
    pub fn seats(&self) -> RangeInclusive<u8> {
        2..=2
    }

    /// The board these rules play on.
    pub fn board(&self) -> &'static Board {
        board_for(self.board)
    }
}

crate::file_tables! {
    /// The `[board]` table.
    pub struct BoardFile {
        /// The board, one of Ludii's: "limping-3", "limping-5" (the default),
        /// "limping-7", "hex-6", "triangle-9" (55 cells, as Ludii builds it),
        /// "epoxy-39", "epoxy-72", "square-9", "cairo-1", "cairo-2".
        pub shape: BoardShape,
        /// Which neighbours join stones into groups and count for placements and
        /// eyes: "edge" (cells sharing a side) or "edge-or-vertex" (sharing a side
        /// or a corner; Ludii's "diagonal groups", for the square and Cairo boards
        /// only).
        pub groups: Groups,
    }

    /// The `[rules]` table.
    pub struct RulesFile {
        /// Repeated positions. "turn-start" (the designer): a player whose stones
        /// stand exactly as at the start of their previous turn must pass, unless
        /// the opponent just passed. "superko" (Ludii): no placement or removal may
        /// recreate a position (stones and which stones are still to be played
        /// against) seen after the first move of any earlier turn; when that
        /// forbids everything the rules offer, the player passes.
        pub repetition: Repetition,
        /// When to test for a territory over half the board. "turn-end" (the
        /// designer): after each complete turn, for both players. "every-sub-move"
        /// (Ludii): after every placement or removal, for the mover only, so a game
        /// can end in the middle of a turn.
        pub end_check: EndCheck,
        /// Equal territories at the end: "draw" (the designer: "a tie is
        /// possible") or "mover-wins" (Ludii: the player who moved last wins).
        pub tie: Tie,
        /// How eyes are found. "whole-board": after every move, any empty cell
        /// whose neighbours are all stones of one group of the mover becomes an
        /// eye. "around-last-action" (Ludii): only the cell just played and its
        /// neighbours are looked at, so an eye closed far from the new stone is
        /// missed.
        pub eye_detection: EyeDetection,
        /// How long an eye lasts. "while-group-lives": an eye (even once an enemy
        /// stone sits in it) lasts until the group around it is removed.
        /// "forever" (Ludii): an eye is remembered for the rest of the game and
        /// still scores after its group has gone.
        pub eye_memory: EyeMemory,
        /// How territory is counted. "immortal-groups" (the designer): your eyes
        /// plus your groups touching them. "flood-fill" (Ludii): your eyes plus,
        /// from every cell next to one of them, all cells connected to it holding
        /// the same thing: normally your group, but an empty region or an enemy
        /// group once your group has died.
        pub territory: Territory,
        /// When no first placement is possible, which enemy group may be removed
        /// before the turn ends: "eyeless" (the designer) or "unplayable" (Ludii:
        /// any group with no cell to play against it, eyes or not).
        pub stuck_removal: StuckRemoval,
        /// Ludii's "AI" sequence after the first placement (removals first, then
        /// the group holding the lowest-numbered enemy stone not yet played to),
        /// for "none" of the players, the "first", the "second", or "both".
        pub strict_order: StrictOrder,
    }
}

crate::variant_file! {
    /// The raw variant file: every key optional.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
    #[schemars(title = "Sprout-R-Out variant")]
    pub struct VariantFile for "sprout-r-out", standard "sprout-r-out", script: crate::script::ScriptFile {
        /// The board.
        pub board: BoardFile,
        /// The rule readings.
        pub rules: RulesFile,
    }
}

pub use crate::games::Problem;

/// Layer a file over resolved rules and check across keys; every problem at once.
pub fn resolve(parent: &Rules, file: &VariantFile) -> Result<Rules, Vec<Problem>> {
    let mut r = parent.clone();
    let mut problems: Vec<Problem> = file.other_game().into_iter().collect();
    if let Some(b) = &file.board {
        if let Some(v) = b.shape {
            r.board = v;
        }
        if let Some(v) = b.groups {
            r.groups = v;
        }
    }
    if let Some(f) = &file.rules {
        macro_rules! take {
            ($($k:ident),*) => { $( if let Some(v) = f.$k { r.$k = v; } )* };
        }
        take!(
            repetition,
            end_check,
            tie,
            eye_detection,
            eye_memory,
            territory,
            stuck_removal,
            strict_order
        );
    }
    if r.groups == Groups::EdgeOrVertex && !r.board().has_vertex_neighbours() {
        problems.push(Problem {
            path: "board.groups".into(),
            message: format!(
                "cells of the {} board meet only along edges, so \"edge-or-vertex\" groups are the same as \"edge\"; Ludii offers diagonal groups on square-9, cairo-1 and cairo-2",
                r.board.slug()
            ),
        });
    }
    if problems.is_empty() {
        Ok(r)
    } else {
        Err(problems)
    }
}
