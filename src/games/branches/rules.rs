//! The resolved rules of Branches & Twigs & Thorns: every key present, the
//! engine's only input. The meaning of each key and the reason for each
//! standard value is in `docs/games/branches.md`.

use serde::{Deserialize, Serialize};

use super::file::{VariantFile, complete};

/// The standard variant's file, embedded: the one source of the built-in rules.
pub const STANDARD_TOML: &str = include_str!("../../../variants/btt.toml");

/// Every rule of a BTT variant, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// A short name for the variant.
    pub name: String,
    /// What the variant changes and why.
    pub description: String,
    /// How many people may play.
    pub players: PlayerRules,
    /// The board for each number of players.
    pub board: BoardRules,
    /// Each player's stash of pyramids.
    pub pyramids: PyramidRules,
    /// The null and root markers placed before play.
    pub setup: SetupRules,
    /// Who pays whom when a pyramid points at an opponent's.
    pub scoring: ScoringRules,
    /// Coins, for display: scores are signed and start at 0.
    pub coins: CoinRules,
    /// Turns.
    pub play: PlayRules,
    /// House rules written as scripts (`docs/scripts.md`); absent from
    /// the JSON of rules without them, so their records are unchanged.
    #[serde(default, skip_serializing_if = "crate::script::Scripts::is_empty")]
    pub script: crate::script::Scripts,
}

/// How many people may play.
pub use crate::games::Players as PlayerRules;

/// The board for each number of players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    /// Which family of boards.
    pub shape: BoardShape,
    /// On the five-player zone board: whether the fifth zone is joined to the first.
    pub five_player_mouth: Mouth,
}

/// Which family of boards is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardShape {
    /// 8x4 for two players, 8x8 for four, and rings of 4x4 zones joined at a
    /// centre point for three, five and six (Eeyore's chessboard wedges).
    Official,
    /// A rectangle 8 wide and 2 rows per player high (8x4 .. 8x12).
    Rectangle,
    /// Small rectangles for short games: 2n x 5 for 2 to 5 players, 6 x 10 for 6.
    Arcade,
}

/// The five-player "PacMan" zone board: closed ring or open mouth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mouth {
    /// The fifth zone is joined to the first, like every other pair: all zones alike.
    Closed,
    /// The mouth stays open: the first and fifth zones have an outer edge there.
    Open,
}

/// Each player's stash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PyramidRules {
    /// Small pyramids (1 pip) per player.
    pub small: u8,
    /// Medium pyramids (2 pips) per player.
    pub medium: u8,
    /// Large pyramids (3 pips) per player.
    pub large: u8,
}

impl PyramidRules {
    /// The stash as counts indexed by size - 1.
    pub fn stash(&self) -> [u8; 3] {
        [self.small, self.medium, self.large]
    }
}

/// The markers placed before play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRules {
    /// How the markers come onto the board.
    pub markers: Markers,
    /// Whether a null may leave the other cells split into parts.
    pub nulls_must_not_cut: bool,
}

/// How the null and root markers come onto the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Markers {
    /// In turn order, the first half of the players (rounded down) each place
    /// a null, the others each place a root; then seat 1 places the first pyramid.
    Placed,
    /// Martian Go: no nulls; one root per player fixed before play on the
    /// cells at the centre of the board.
    CentreRoots,
}

/// Scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringRules {
    /// Where the coins the target's owner gains come from.
    pub owner_paid_by: OwnerPaidBy,
}

/// When a pyramid points at an opponent's, the mover always pays the
/// target's size to the pot; this says what the target's owner gains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OwnerPaidBy {
    /// The owner takes the pointer's size from the pot (the designer's code).
    Pot,
    /// The mover pays the owner the pointer's size as well (the wiki's long text, read literally).
    Mover,
    /// The owner gains nothing (Martian Go).
    Nobody,
}

/// Coins: only for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoinRules {
    /// Coins each player starts with.
    pub start: u8,
    /// Coins everyone takes from the pot when a payer runs out (0: never; coins go negative).
    pub reset: u8,
}

/// Turns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRules {
    /// What happens when the player to move has no legal placement.
    pub when_stuck: WhenStuck,
}

/// A player without a legal placement (impossible in the standard game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WhenStuck {
    /// The player is passed over; the game ends when nobody can place.
    Pass,
    /// The game ends at once.
    End,
}

impl Rules {
    /// The rules of the game as this toolkit reads the official text
    /// (`variants/btt.toml`, embedded).
    pub fn standard() -> Rules {
        let file: VariantFile =
            toml::from_str(STANDARD_TOML).expect("the embedded btt.toml parses");
        complete(&file).expect("the embedded btt.toml has every key, checked")
    }

    /// Fewest and most seats these rules can be played with.
    pub fn seats(&self) -> std::ops::RangeInclusive<u8> {
        self.players.min..=self.players.max
    }
}
