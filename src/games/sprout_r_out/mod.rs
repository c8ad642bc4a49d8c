//! Sprout-R-Out (Dale W. Walton): a two-player territory game on graph
//! boards. Players place one stone against each enemy group per turn, after
//! one free placement; a group that cannot be played against is removed.
//!
//! A turn is a series of sub-moves, each a decision of the [`State`]. The
//! rules as this toolkit plays them, and every reading of Ludii 1.3.12 behind
//! a variant key, are in `docs/games/sprout-r-out.md`.

mod eval;
mod explain;
mod game;
mod meaning;
mod narrate;
mod rules;
pub mod script;
pub mod search;
mod state;
mod svg;
mod text;

pub use eval::{STYLE, evaluate};
pub use game::{BUILTINS, SproutROut, Variant, VariantBoard, VariantRules};
pub use rules::{
    BoardFile, BoardShape, EndCheck, EyeDetection, EyeMemory, Groups, Problem, Repetition, Rules,
    RulesFile, StrictOrder, StuckRemoval, Territory, Tie, VariantFile, board_for, resolve,
};
pub use state::{Action, EndReason, Legal, State};
pub use text::{counters, draw, end_reason, format_action, parse_action, seat_letter};
