//! The raw shape of a variant file, as written by a player: every key optional.
//!
//! [`VariantFile`] is the source of the JSON schema (`schema/variant.schema.json`):
//! the doc comments below become the `description` an editor shows on hover, so
//! they are written for players. The `default` of each key in the schema is
//! filled in from the standard variant when the schema is generated (see
//! [`crate::variant::schema`]), so it can never drift from `variants/standard.toml`.
//!
//! A missing key means "as in the parent variant" (`extends`), and finally "as
//! in the standard game".

use schemars::JsonSchema;
use serde::Deserialize;

use super::rules::{
    ActionDie, BeadsOut, BudsTouch, FaceMapping, Finish, FirstSpawnOnBead, Growth, LostEnds,
    RemovedBeads, RollKind, SimpleGrowthPath, ValueRolled,
};

crate::variant_file! {
    /// A Roots and Shoots variant: a set of house rules. Every key is optional: a key you leave out keeps the value of the variant named by `extends`, or the standard value.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize, JsonSchema)]
    #[schemars(title = "Roots and Shoots variant")]
    pub struct VariantFile for "roots-and-shoots", standard "standard", players: PlayersFile, script: crate::script::ScriptFile {
        /// The board.
        pub board: BoardFile,
        /// The first turn.
        pub setup: SetupFile,
        /// Each player's beads: those in hand (the store) and the pile (the supply).
        pub beads: BeadsFile,
        /// The nutrient markers.
        pub nutrients: NutrientsFile,
        /// The growth actions of phase 1: which die each one rolls, and how its beads may be placed.
        pub growth: GrowthFile,
        /// Extra limits on a turn.
        pub turn: TurnFile,
        /// Rain: when it rains, every nutrient touched by a root is scored.
        pub rain: RainFile,
        /// How the two d20 rolled for a nutrient become a point on the board.
        pub coordinates: CoordinatesFile,
        /// Severing: a growing root contesting a point held by another colour.
        pub severing: SeveringFile,
        /// What happens after a bead is taken off the board.
        pub removal: RemovalFile,
        /// When and how the game ends.
        pub end: EndFile,
    }
}

crate::file_tables! {
    /// The board.
    pub struct BoardFile {
        /// Points (line crossings) along each side of the square board. Must be odd, so the board has a centre point, from 5 to 25. Standard: 19, a Go board.
        #[schemars(range(min = 5, max = 25), extend("not" = {"multipleOf": 2}))]
        pub size: u8,
    }
}

/// The seats of the `[players]` table: 2 to 8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats;

impl crate::games::SeatRange for Seats {
    const MOST: u8 = 8;
    const STANDARD_MOST: u8 = 6;
    const TEXTS: Option<(&'static str, &'static str)> = Some((
        "The fewest players the variant can be played with, from 2 to 8. Standard: 2.",
        "The most players the variant can be played with, from 2 to 8: every player's first bead goes on one of the 8 points around the centre. Standard: 6.",
    ));
}

/// How many people may play.
pub type PlayersFile = crate::games::PlayersFile<Seats>;

crate::file_tables! {
    /// The first turn.
    pub struct SetupFile {
        /// On the first turn, what happens when one of the two readings of the nutrient roll is a point that holds a bead. Standard: "choose_free".
        pub first_spawn_on_bead: FirstSpawnOnBead,
    }

    /// Each player's beads.
    pub struct BeadsFile {
        /// Beads each player holds in hand (the store) at the start, ready to place. From 1 to 200 (the first-turn bead comes from the store), and no more than the supply. Standard: 6.
        #[schemars(range(min = 1, max = 200))]
        pub store: u32,
        /// Beads in each player's pile (the supply); sunbathing moves beads from here to the store. A bigger supply makes a longer game. From 0 to 2000. Standard: 60.
        #[schemars(range(min = 0, max = 2000))]
        pub supply: u32,
        /// Where a bead goes when it is taken off the board (severed, lost, or under a new nutrient). Standard: "out_of_play".
        pub removed_go_to: RemovedBeads,
    }

    /// The nutrient markers.
    pub struct NutrientsFile {
        /// Nutrient markers in the pile at the start; the game ends when they run out. More nutrients make a longer game. From 1 to 1000. Standard: 40.
        #[schemars(range(min = 1, max = 1000))]
        pub supply: u32,
        /// The most nutrients on the board at once. From 1 to 625, and no more than the points on the board. Standard: 11.
        #[schemars(range(min = 1, max = 625))]
        pub max_on_board: u32,
        /// When a nutrient's value (a d12) is rolled: when it is first claimed, or as soon as it appears (the "pre-rolled values" house rule). Standard: "on_claim".
        pub value_rolled: ValueRolled,
    }

    /// The growth actions.
    pub struct GrowthFile {
        /// The die rolled to grow a new plant, or "off" to leave the action out. Each die may belong to one action only. Standard: "d4".
        pub new_plant: ActionDie,
        /// The die rolled to grow new buds, or "off" to leave the action out. Each die may belong to one action only. Standard: "d6".
        pub buds: ActionDie,
        /// The die rolled for simple growth, or "off" to leave the action out. Each die may belong to one action only. Standard: "d8".
        pub simple_growth: ActionDie,
        /// The die rolled to sunbathe (move beads from the supply to the store), or "off" to leave the action out. Without it the store is never refilled. Standard: "d10".
        pub sunbathe: ActionDie,
        /// Whether the beads of one new-plant roll must all touch, forming one plant (true) or may form several plants (false). Standard: false.
        pub new_plant_connected: bool,
        /// Which beads count toward the two that a new bud must touch. Standard: "own".
        pub buds_touch: BudsTouch,
        /// Whether the beads of one simple-growth roll must extend a single path. Standard: "one_path".
        pub simple_growth_path: SimpleGrowthPath,
    }

    /// Extra limits on a turn.
    pub struct TurnFile {
        /// The house rule "your turn ends after collecting from just 1 nutrient": true turns it on. Standard: false.
        pub one_nutrient_per_turn: bool,
    }

    /// Rain.
    pub struct RainFile {
        /// Which kinds of roll bring rain when they show a 1, each listed at most once. An empty list means it never rains, so nothing is ever scored. Standard: all four kinds.
        #[schemars(extend("uniqueItems" = true))]
        pub rolls: Vec<RollKind>,
    }

    /// Coordinates.
    pub struct CoordinatesFile {
        /// How the face of a d20 becomes a line of the board, lines being numbered from 0 at the marked corner. Standard: "face_minus_one".
        pub faces: FaceMapping,
    }

    /// Severing.
    pub struct SeveringFile {
        /// The growth actions whose beads may contest a point held by another colour, each listed at most once. Sunbathe places no beads, so it cannot be listed. Standard: ["buds", "simple_growth"].
        #[schemars(extend("uniqueItems" = true))]
        pub actions: Vec<Growth>,
        /// The most struggles one player may start in one turn, from 0 (no severing at all) to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub per_turn: u8,
        /// Whether the winner of a struggle grows onto the point it won. Standard: true.
        pub winner_occupies: bool,
    }

    /// Removal.
    pub struct RemovalFile {
        /// What else is lost when a bead is taken off the board: the ends of roots that no longer lead back to a branch. Standard: "one_end".
        pub lost_ends: LostEnds,
    }

    /// The end of the game.
    pub struct EndFile {
        /// Which empty pile of beads ends the game (the game also ends when the nutrient pile is empty). Standard: "supply_empty".
        pub beads_out: BeadsOut,
        /// When the game stops once an end condition is met. Standard: "end_of_turn".
        pub finish: Finish,
        /// Whether a last rain scores the nutrients still on the board when the game ends. Standard: false.
        pub final_scoring: bool,
        /// A safety limit: the game stops after this many rounds, from 1 to 10000. Standard: 300.
        #[schemars(range(min = 1, max = 10000))]
        pub max_rounds: u32,
    }
}
