//! The raw shape of a BTT variant file, as a player writes it: every key
//! optional. [`resolve`] layers a file over resolved [`Rules`] and checks the
//! keys together.

use schemars::JsonSchema;

pub use crate::games::Problem;
use serde::{Deserialize, Serialize};

use super::rules::{
    BoardRules, BoardShape, CoinRules, Markers, Mouth, OwnerPaidBy, PlayRules, PlayerRules,
    PyramidRules, Rules, ScoringRules, SetupRules, WhenStuck,
};

/// The identifier of this game in variant files (`game = "branches"`).
pub const GAME_ID: &str = "branches";

crate::variant_file! {
    /// A Branches & Twigs & Thorns variant. Every rule key is optional: a key you leave out keeps the value of the variant named by `extends`, or the standard value.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
    #[schemars(title = "Branches & Twigs & Thorns variant")]
    pub struct VariantFile for "branches", standard "btt", players: PlayersFile, script: crate::script::ScriptFile {
        /// The board for each number of players.
        pub board: BoardFile,
        /// Each player's stash of pyramids.
        pub pyramids: PyramidsFile,
        /// The null and root markers placed before the first pyramid.
        pub setup: SetupFile,
        /// Who pays whom when a pyramid points at an opponent's pyramid.
        pub scoring: ScoringFile,
        /// The coins players hold. Only relative scores matter, so the engine keeps signed scores starting at 0; coins are shown beside them.
        pub coins: CoinsFile,
        /// Turns.
        pub play: PlayFile,
    }
}

/// The seats of the `[players]` table: 2 to 6, and 6 in the standard game.
pub type Seats = crate::games::Seats<6, 6>;

/// How many people may play.
pub type PlayersFile = crate::games::PlayersFile<Seats>;

crate::file_tables! {
    /// The board.
    pub struct BoardFile {
        /// Which boards: "official" (8x4 for two, 8x8 for four, rings of 4x4 zones round a centre point for three, five and six), "rectangle" (8 wide, 2 rows per player), or "arcade" (2n x 5, and 6 x 10 for six: short games with 3/3/3 stashes). Standard: "official".
        pub shape: BoardShape,
        /// The five-player "PacMan" board of the official shape: "closed" joins the fifth zone to the first, so every zone is alike; "open" leaves the mouth open. Standard: "closed".
        pub five_player_mouth: Mouth,
    }

    /// Each player's stash of pyramids.
    pub struct PyramidsFile {
        /// Small pyramids (1 pip) per player, from 0 to 15. Standard: 5.
        #[schemars(range(min = 0, max = 15))]
        pub small: u8,
        /// Medium pyramids (2 pips) per player, from 0 to 15. Standard: 5.
        #[schemars(range(min = 0, max = 15))]
        pub medium: u8,
        /// Large pyramids (3 pips) per player, from 0 to 15. Standard: 5.
        #[schemars(range(min = 0, max = 15))]
        pub large: u8,
    }

    /// The markers placed before play.
    pub struct SetupFile {
        /// "placed": in turn order the first half of the players (rounded down) each place a null and the rest each place a root, then seat 1 places the first pyramid. "centre_roots": Martian Go, no nulls and one root per player fixed on the centre cells (official boards, or rectangles for 2 to 4 players). Standard: "placed".
        pub markers: Markers,
        /// Whether a null may not leave the other cells in separate parts (orthogonal connection; roots and pyramids count as connected cells). Standard: true.
        pub nulls_must_not_cut: bool,
    }

    /// Scoring.
    pub struct ScoringFile {
        /// Pointing at an opponent's pyramid, the mover pays the target's size to the pot. The owner of the target gains the pointer's size: "pot" (taken from the pot, as the designer's own program does), "mover" (paid by the mover, the wiki's long text read literally), or "nobody" (Martian Go: the owner gains nothing). Standard: "pot".
        pub owner_paid_by: OwnerPaidBy,
    }

    /// Coins.
    pub struct CoinsFile {
        /// Coins each player starts with, from 0 to 100; only shown, the score is coins gained less coins paid. Standard: 5.
        #[schemars(range(min = 0, max = 100))]
        pub start: u8,
        /// When a player must pay more coins than they hold, everyone takes this many coins from the pot (again, until the payer can pay). It shifts every player alike and never changes who leads. From 0 (never: coins can go below zero) to 100. Standard: 5.
        #[schemars(range(min = 0, max = 100))]
        pub reset: u8,
    }

    /// Turns.
    pub struct PlayFile {
        /// When the player to move has no legal placement (only possible in some variants): "pass" passes them over and ends the game when nobody can place; "end" ends the game at once. Standard: "pass".
        pub when_stuck: WhenStuck,
    }
}

/// Layer `file` over the resolved `parent` (key by key) and check the keys
/// together. Every problem is reported, not just the first.
pub fn resolve(parent: &Rules, file: &VariantFile) -> Result<Rules, Vec<Problem>> {
    let p = parent;
    let players = file.players.clone().unwrap_or_default();
    let board = file.board.clone().unwrap_or_default();
    let pyr = file.pyramids.clone().unwrap_or_default();
    let setup = file.setup.clone().unwrap_or_default();
    let scoring = file.scoring.clone().unwrap_or_default();
    let coins = file.coins.clone().unwrap_or_default();
    let play = file.play.clone().unwrap_or_default();
    let rules = Rules {
        // The pipeline merges `[[script]]` tables by name on its own.
        script: p.script.clone(),
        name: file.name.clone().unwrap_or_else(|| p.name.clone()),
        description: file.description.clone().unwrap_or_default(),
        players: PlayerRules {
            min: players.min.unwrap_or(p.players.min),
            max: players.max.unwrap_or(p.players.max),
        },
        board: BoardRules {
            shape: board.shape.unwrap_or(p.board.shape),
            five_player_mouth: board.five_player_mouth.unwrap_or(p.board.five_player_mouth),
        },
        pyramids: PyramidRules {
            small: pyr.small.unwrap_or(p.pyramids.small),
            medium: pyr.medium.unwrap_or(p.pyramids.medium),
            large: pyr.large.unwrap_or(p.pyramids.large),
        },
        setup: SetupRules {
            markers: setup.markers.unwrap_or(p.setup.markers),
            nulls_must_not_cut: setup
                .nulls_must_not_cut
                .unwrap_or(p.setup.nulls_must_not_cut),
        },
        scoring: ScoringRules {
            owner_paid_by: scoring.owner_paid_by.unwrap_or(p.scoring.owner_paid_by),
        },
        coins: CoinRules {
            start: coins.start.unwrap_or(p.coins.start),
            reset: coins.reset.unwrap_or(p.coins.reset),
        },
        play: PlayRules {
            when_stuck: play.when_stuck.unwrap_or(p.play.when_stuck),
        },
    };
    let mut problems: Vec<Problem> = file.other_game().into_iter().collect();
    check(&rules, &mut problems);
    if problems.is_empty() {
        Ok(rules)
    } else {
        Err(problems)
    }
}

/// The checks across keys (and the ranges, for callers that skipped the schema).
fn check(r: &Rules, problems: &mut Vec<Problem>) {
    problems.extend(
        r.players
            .problems(Some(<Seats as crate::games::SeatRange>::MOST)),
    );
    for (path, v) in [
        ("pyramids.small", r.pyramids.small),
        ("pyramids.medium", r.pyramids.medium),
        ("pyramids.large", r.pyramids.large),
    ] {
        if v > 15 {
            problems.push(Problem::new(path, format!("must be from 0 to 15, not {v}")));
        }
    }
    if r.pyramids.stash().iter().all(|&n| n == 0) {
        problems.push(Problem::new(
            "pyramids",
            "every stash would be empty: give each player at least one pyramid",
        ));
    }
    for (path, v) in [
        ("coins.start", r.coins.start),
        ("coins.reset", r.coins.reset),
    ] {
        if v > 100 {
            problems.push(Problem::new(
                path,
                format!("must be from 0 to 100, not {v}"),
            ));
        }
    }
    if r.setup.markers == Markers::CentreRoots {
        match r.board.shape {
            BoardShape::Official => {}
            BoardShape::Rectangle if r.players.max <= 4 => {}
            BoardShape::Rectangle => problems.push(Problem::new(
                "setup.markers",
                format!(
                    "\"centre_roots\" on the rectangle boards is defined for 2 to 4 players; players.max is {}",
                    r.players.max
                ),
            )),
            BoardShape::Arcade => problems.push(Problem::new(
                "setup.markers",
                "\"centre_roots\" has no centre cells on the arcade boards: use \"placed\"",
            )),
        }
    }
}

/// A file with every key present, as resolved rules (the standard file).
pub fn complete(file: &VariantFile) -> Result<Rules, Vec<Problem>> {
    let mut missing = Vec::new();
    macro_rules! need {
        ($table:ident . $key:ident) => {
            if file.$table.as_ref().and_then(|t| t.$key.as_ref()).is_none() {
                missing.push(Problem::new(
                    concat!(stringify!($table), ".", stringify!($key)),
                    "missing: a complete variant sets every key",
                ));
            }
        };
    }
    need!(players.min);
    need!(players.max);
    need!(board.shape);
    need!(board.five_player_mouth);
    need!(pyramids.small);
    need!(pyramids.medium);
    need!(pyramids.large);
    need!(setup.markers);
    need!(setup.nulls_must_not_cut);
    need!(scoring.owner_paid_by);
    need!(coins.start);
    need!(coins.reset);
    need!(play.when_stuck);
    if file.name.is_none() {
        missing.push(Problem::new(
            "name",
            "missing: a complete variant has a name",
        ));
    }
    if !missing.is_empty() {
        return Err(missing);
    }
    // Every key is present, so the parent's values are never read.
    let placeholder = Rules {
        script: crate::script::Scripts::default(),
        name: String::new(),
        description: String::new(),
        players: PlayerRules { min: 2, max: 2 },
        board: BoardRules {
            shape: BoardShape::Official,
            five_player_mouth: Mouth::Closed,
        },
        pyramids: PyramidRules {
            small: 0,
            medium: 0,
            large: 0,
        },
        setup: SetupRules {
            markers: Markers::Placed,
            nulls_must_not_cut: true,
        },
        scoring: ScoringRules {
            owner_paid_by: OwnerPaidBy::Pot,
        },
        coins: CoinRules { start: 0, reset: 0 },
        play: PlayRules {
            when_stuck: WhenStuck::Pass,
        },
    };
    resolve(&placeholder, file)
}
