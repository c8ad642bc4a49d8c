//! Roots Growy Roots (Global Game Jam 2023): a 2-4 player game on a grid of
//! face-down cards. Players grow roots of sticks and connectors from their
//! seed, turn over each card they grow onto, and score for water, artifacts,
//! the most branches and the longest root once the last artifact is found.
//!
//! A face-down card's identity is decided when it is turned over, as a draw
//! node ([`crate::core::protocol::Next::Draw`]) from what is left of its own
//! deck. The rules as the engine plays them, and every open question
//! decided, are in `docs/games/roots-growy-roots.md`. Files: `rules.rs`
//! (rules, the raw file, the checks), `state.rs` (the engine), `text.rs`
//! (words, the board, the evaluation and statistics), `greedy.rs` (the
//! greedy bot, pricing moves without playing them), `game.rs` (the
//! [`Game`](crate::games::Game) impl).

pub mod explain;
mod game;
pub mod greedy;
pub mod meaning;
pub mod narrate;
pub mod rules;
pub mod script;
pub mod state;
pub mod svg;
pub mod text;

pub use game::RootsGrowyRoots;
pub use rules::{Artifact, GAME_ID, Rules, VariantFile};
pub use state::{Action, EndReason, State};
pub use text::{STYLE, draw, evaluate, format_action, parse_action};

/// Built-in variants: name and file text, the standard first.
pub const BUILTINS: [(&str, &str); 6] = [
    (
        "roots-growy-roots",
        include_str!("../../../variants/roots-growy-roots.toml"),
    ),
    ("rgr-2p", include_str!("../../../variants/rgr-2p.toml")),
    ("rgr-3p", include_str!("../../../variants/rgr-3p.toml")),
    ("rgr-4p", include_str!("../../../variants/rgr-4p.toml")),
    (
        "rgr-all-claimed",
        include_str!("../../../variants/rgr-all-claimed.toml"),
    ),
    (
        "rgr-artifacts",
        include_str!("../../../variants/rgr-artifacts.toml"),
    ),
];

impl Rules {
    /// The standard rules: the shipped `roots-growy-roots.toml`, every key set.
    pub fn standard() -> Rules {
        let mut table: toml::Table =
            toml::from_str(BUILTINS[0].1).expect("the embedded standard variant is valid TOML");
        table.remove("game");
        table
            .try_into()
            .expect("the embedded standard variant sets every key")
    }
}
