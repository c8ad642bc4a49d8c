//! The resolved, checked rules of one variant: what the engine plays.
//!
//! A [`Rules`] value only comes from [`fn@crate::variant::load`] (or
//! [`Rules::standard`]), after the variant file was parsed, validated against
//! the schema, merged with its parents and checked across fields. Its shape is
//! the shape of a variant file with every key present, so `roots show` prints
//! it as TOML and a game record embeds it as JSON.
//!
//! The meaning of each key, and why the standard variant has the value it has,
//! is in `docs/games/roots-and-shoots.md`.

use serde::{Deserialize, Serialize};

use crate::core::dice::Die;
use crate::script::Scripts;

/// Every rule of a variant, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub name: String,
    pub description: String,
    pub board: BoardRules,
    pub players: PlayerRules,
    pub setup: SetupRules,
    pub beads: BeadRules,
    pub nutrients: NutrientRules,
    pub growth: GrowthRules,
    pub turn: TurnRules,
    pub rain: RainRules,
    pub coordinates: CoordinateRules,
    pub severing: SeveringRules,
    pub removal: RemovalRules,
    pub end: EndRules,
    /// House rules written as scripts (`docs/scripts.md`); absent from
    /// the JSON of rules without them, so their records are unchanged.
    #[serde(default, skip_serializing_if = "Scripts::is_empty")]
    pub script: Scripts,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    /// Points per side of the square board (odd, so that it has a centre).
    pub size: u8,
}

pub use crate::games::Players as PlayerRules;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRules {
    /// What the first-turn nutrient roll does when one of its two readings
    /// holds a bead.
    pub first_spawn_on_bead: FirstSpawnOnBead,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeadRules {
    /// Beads in each player's hand at the start.
    pub store: u32,
    /// Beads in each player's pile, from which sunbathing refills the store.
    pub supply: u32,
    /// Where a bead goes when it leaves the board.
    pub removed_go_to: RemovedBeads,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NutrientRules {
    /// Nutrient markers in the pile at the start.
    pub supply: u32,
    /// Most nutrient markers on the board at once.
    pub max_on_board: u32,
    /// When a nutrient's d12 value is rolled.
    pub value_rolled: ValueRolled,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrowthRules {
    /// The die rolled for "new plant", or off.
    pub new_plant: ActionDie,
    /// The die rolled for "new buds", or off.
    pub buds: ActionDie,
    /// The die rolled for "simple growth", or off.
    pub simple_growth: ActionDie,
    /// The die rolled for "sunbathe", or off.
    pub sunbathe: ActionDie,
    /// Whether the beads of one new-plant roll must form a single plant.
    pub new_plant_connected: bool,
    /// Which beads count toward the two a bud must touch.
    pub buds_touch: BudsTouch,
    /// Whether the beads of one simple-growth roll extend one path.
    pub simple_growth_path: SimpleGrowthPath,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRules {
    /// The house rule "your turn ends after collecting from just 1 nutrient".
    pub one_nutrient_per_turn: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RainRules {
    /// Which rolls bring rain when they show a 1.
    pub rolls: Vec<RollKind>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoordinateRules {
    /// How a d20 face becomes a line number.
    pub faces: FaceMapping,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeveringRules {
    /// Growth actions whose beads may contest a point held by another colour.
    pub actions: Vec<Growth>,
    /// Most struggles one player may start in one turn.
    pub per_turn: u8,
    /// Whether the winner of a struggle puts its bead on the point it won.
    pub winner_occupies: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RemovalRules {
    /// What else is lost when a bead is taken off the board.
    pub lost_ends: LostEnds,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRules {
    /// Which empty pile of beads ends the game.
    pub beads_out: BeadsOut,
    /// When the game stops once an end condition is met.
    pub finish: Finish,
    /// Whether a last rain scores the nutrients left on the board.
    pub final_scoring: bool,
    /// Safety limit: the game stops after this many rounds.
    pub max_rounds: u32,
}

crate::key_words! {
    /// A growth action of phase 1.
    #[serde(rename_all = "snake_case")]
    pub enum Growth {
        /// The new-plant action (d4 in the standard game): a brand-new plant.
        NewPlant,
        /// The new-buds action (d6 in the standard game): beads off a branch.
        Buds,
        /// The simple-growth action (d8 in the standard game): a root grows longer.
        SimpleGrowth,
        /// The sunbathe action (d10 in the standard game): beads move from the
        /// supply pile to the store.
        Sunbathe,
    }
}

impl Growth {
    pub const ALL: [Growth; 4] = [
        Growth::NewPlant,
        Growth::Buds,
        Growth::SimpleGrowth,
        Growth::Sunbathe,
    ];

    /// The key of this action in `[growth]` and in records.
    pub const fn key(self) -> &'static str {
        match self {
            Growth::NewPlant => "new_plant",
            Growth::Buds => "buds",
            Growth::SimpleGrowth => "simple_growth",
            Growth::Sunbathe => "sunbathe",
        }
    }

    /// The action in words, as the narration says it (`simple growth`).
    pub const fn words(self) -> &'static str {
        match self {
            Growth::NewPlant => "new plant",
            Growth::Buds => "buds",
            Growth::SimpleGrowth => "simple growth",
            Growth::Sunbathe => "sunbathe",
        }
    }

    /// Whether this action places beads (all but sunbathe).
    pub const fn places(self) -> bool {
        !matches!(self, Growth::Sunbathe)
    }

    pub fn parse(s: &str) -> Option<Growth> {
        let s = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Growth::ALL.into_iter().find(|g| g.key() == s)
    }
}

impl std::fmt::Display for Growth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// The die assigned to a growth action, or `off` to drop the action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ActionDie {
    /// The action is not in the game.
    Off,
    /// A four-sided die.
    D4,
    /// A six-sided die.
    D6,
    /// An eight-sided die.
    D8,
    /// A ten-sided die.
    D10,
    /// A twelve-sided die.
    D12,
    /// A twenty-sided die.
    D20,
}

impl ActionDie {
    pub const fn die(self) -> Option<Die> {
        match self {
            ActionDie::Off => None,
            ActionDie::D4 => Some(Die::D4),
            ActionDie::D6 => Some(Die::D6),
            ActionDie::D8 => Some(Die::D8),
            ActionDie::D10 => Some(Die::D10),
            ActionDie::D12 => Some(Die::D12),
            ActionDie::D20 => Some(Die::D20),
        }
    }
}

crate::key_words! {
    /// A kind of roll, for choosing which rolls bring rain.
    #[serde(rename_all = "snake_case")]
    pub enum RollKind {
        /// The growth die of phase 1 (including sunbathe).
        Growth,
        /// The d12 of phase 2 that decides whether a nutrient spawns.
        SpawnCheck,
        /// The d12 that gives a nutrient its value (outside scoring).
        NutrientValue,
        /// A d20 rolled for spawn coordinates.
        Coordinate,
    }
}

impl RollKind {
    pub const ALL: [RollKind; 4] = [
        RollKind::Growth,
        RollKind::SpawnCheck,
        RollKind::NutrientValue,
        RollKind::Coordinate,
    ];
}

/// When nutrient values are rolled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ValueRolled {
    /// When the nutrient is first marked, or just before it is scored if
    /// nobody marked it (the 2007 rules).
    OnClaim,
    /// As soon as the nutrient spawns, so everyone sees it (the "pre-rolled
    /// values" house rule).
    OnSpawn,
}

/// Which beads count toward the two a new bud must touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BudsTouch {
    /// Two beads of the player's own colour.
    Own,
    /// Any two beads, at least one of them the player's own.
    Any,
}

/// Whether simple growth extends one path per roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SimpleGrowthPath {
    /// Each bead after the first continues from the bead placed just before.
    OnePath,
    /// Each bead may start from any end of any of the player's roots.
    AnyEnd,
}

/// How a d20 face becomes a line number (lines are numbered from 0 at the
/// marked corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FaceMapping {
    /// Face `n` (1..19) is line `n - 1`; a 20 lets the roller choose any line.
    FaceMinusOne,
    /// Face `n` is line `n`; a 20 lets the roller choose any line (the only way
    /// to reach line 0).
    FaceIsLine,
}

/// What a first-turn nutrient roll does when a reading holds a bead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstSpawnOnBead {
    /// The roller must take a reading without a bead (both hold one: reroll).
    ChooseFree,
    /// Only the reroll when both hold a bead; otherwise the spawn may land on
    /// a bead and remove it, as in later turns.
    RemoveBead,
}

/// Where beads taken off the board go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RemovedBeads {
    /// Out of the game.
    OutOfPlay,
    /// Back to the owner's supply pile.
    Supply,
}

/// What is lost after a bead is taken off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LostEnds {
    /// One dangling end (the owner chooses when there are several).
    OneEnd,
    /// Every dangling end.
    AllEnds,
    /// Only the bead itself.
    None,
}

/// Which empty pile of beads ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BeadsOut {
    /// A player's supply pile is empty.
    SupplyEmpty,
    /// A player's supply pile and store are both empty.
    SupplyAndStoreEmpty,
}

/// When the game stops once an end condition is met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// At the end of the turn in which it happened.
    EndOfTurn,
    /// At the end of the round, so every player has had as many turns.
    EndOfRound,
}

impl Rules {
    /// The die rolled for `action`, if the variant has that action.
    pub fn die_for(&self, action: Growth) -> Option<Die> {
        match action {
            Growth::NewPlant => self.growth.new_plant,
            Growth::Buds => self.growth.buds,
            Growth::SimpleGrowth => self.growth.simple_growth,
            Growth::Sunbathe => self.growth.sunbathe,
        }
        .die()
    }

    /// Whether a 1 on a roll of this kind brings rain.
    pub fn rains_on(&self, kind: RollKind) -> bool {
        self.rain.rolls.contains(&kind)
    }

    /// Whether beads placed by `action` may start a struggle.
    pub fn severs_with(&self, action: Growth) -> bool {
        self.severing.per_turn > 0 && self.severing.actions.contains(&action)
    }
}
