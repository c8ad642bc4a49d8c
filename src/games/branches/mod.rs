//! Branches & Twigs & Thorns (Andrew Plotkin, 2002): a chance-free game of
//! pyramids lying on a board, each pointing at a root or at another pyramid.
//! Pointing at an opponent's pyramid costs the mover the target's size and
//! pays its owner the pointer's size.
//!
//! The rules as the engine plays them, and every reading of an open point,
//! are in `docs/games/branches.md`. Files: `rules.rs` (resolved [`Rules`]),
//! `file.rs` ([`VariantFile`], [`resolve`]), `board.rs` (boards as graphs),
//! `state.rs` ([`State`], the engine), `action.rs` (actions and their text),
//! `draw.rs` (the board as text, and back), `eval.rs` (evaluation, counters).

pub mod action;
pub mod board;
pub mod draw;
pub mod eval;
pub mod explain;
pub mod file;
mod game;
pub mod meaning;
pub mod narrate;
pub mod rules;
pub mod script;
pub mod state;
pub mod svg;

pub use action::{Action, format_action, parse_action};
pub use board::{Board, Dir};
pub use draw::{describe_node, draw};
pub use eval::{STYLE, counters, end_reason, evaluate};
pub use file::{GAME_ID, Problem, VariantFile, resolve};
pub use game::Branches;
pub use rules::Rules;
pub use state::{End, Piece, State};

/// Built-in variants: name and file text, the standard first.
pub const BUILTINS: [(&str, &str); 4] = [
    ("btt", rules::STANDARD_TOML),
    (
        "btt-martian-go",
        include_str!("../../../variants/btt-martian-go.toml"),
    ),
    (
        "btt-arcade",
        include_str!("../../../variants/btt-arcade.toml"),
    ),
    (
        "btt-literal-wiki",
        include_str!("../../../variants/btt-literal-wiki.toml"),
    ),
];

/// The resolved rules of a built-in variant (each extends `btt.toml`).
pub fn builtin(name: &str) -> Option<Rules> {
    let (_, text) = BUILTINS.iter().find(|(n, _)| *n == name)?;
    let file: VariantFile = toml::from_str(text).ok()?;
    if file.extends.is_none() {
        return file::complete(&file).ok();
    }
    resolve(&Rules::standard(), &file).ok()
}
