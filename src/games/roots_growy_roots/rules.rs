//! The rules of Roots Growy Roots as data: the resolved [`Rules`] (a
//! complete variant file, the shape the variant pipeline merges and a record
//! embeds), the raw [`VariantFile`] the schema comes from (every key
//! optional), and the checks across keys.

use std::ops::RangeInclusive;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::count;

/// The identifier of this game in variant files.
pub const GAME_ID: &str = "roots-growy-roots";

crate::key_words! {
    /// The five artifacts; each exists once.
    #[derive(Default)]
    #[serde(rename_all = "kebab-case")]
    pub enum Artifact {
        /// The Skrying Runes (a pile of rune stones).
        #[default]
        Skry,
        /// The Flight of Hermes (winged sandals).
        Jump,
        /// Medusa's head.
        Deny,
        /// Thor's hammer.
        Destroy,
        /// An Egyptian was-sceptre.
        Dry,
    }
}

impl Artifact {
    pub const ALL: [Artifact; 5] = [
        Artifact::Skry,
        Artifact::Jump,
        Artifact::Deny,
        Artifact::Destroy,
        Artifact::Dry,
    ];
    /// The name used in files, records and at the table.
    pub fn key(self) -> &'static str {
        match self {
            Artifact::Skry => "skry",
            Artifact::Jump => "jump",
            Artifact::Deny => "deny",
            Artifact::Destroy => "destroy",
            Artifact::Dry => "dry",
        }
    }
}

/// What happens to the sticks left in hand when a turn ends this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Sticks {
    /// They are kept for the next turn.
    Keep,
    /// They are lost.
    Lose,
}

/// When the game ends on artifacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndTrigger {
    /// When the last face-down artifact is turned over.
    LastHiddenArtifact,
    /// When every artifact is in a player's hand (face-up ones must be reached too).
    AllArtifactsClaimed,
}

/// How the longest root is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RootMeasure {
    /// The longest path between any two connectors of the root (sticks in a row).
    AnyPath,
    /// The longest path from the seed out.
    FromSeed,
}

/// Who gets a bonus several players tie for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BonusTies {
    /// Every tied player gets the whole bonus.
    AllTied,
    /// Nobody gets it.
    Nobody,
}

/// How many people may play.
pub use crate::games::Players;

/// The face-down kinds of a deck, counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub earth: u16,
    pub fertilizer: u16,
    pub water: u16,
    pub stone: u16,
}

impl Deck {
    pub fn total(&self) -> u32 {
        u32::from(self.earth)
            + u32::from(self.fertilizer)
            + u32::from(self.water)
            + u32::from(self.stone)
    }
}

/// One player's start area.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// Corner cells, `B1:F5`.
    pub area: String,
    pub seed: String,
    pub water: String,
}

/// An artifact laid face up at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceUp {
    pub cell: String,
    pub artifact: Artifact,
}

/// The board and main deck for one player count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub rows: u8,
    pub columns: u8,
    pub starts: Vec<Start>,
    pub artifacts: Vec<FaceUp>,
    pub main_deck: Deck,
}

/// A turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub income: u8,
    pub water_income: u8,
    pub fertilizer: u8,
    pub bridges: bool,
    pub bridge_cost: u8,
    pub voluntary_end: Sticks,
    pub blocked_end: Sticks,
    pub artifact_ends_turn: bool,
    pub enter_start_areas: bool,
}

/// The end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct End {
    pub trigger: EndTrigger,
    pub max_rounds: u16,
}

/// Scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    pub water: u8,
    pub artifact: u8,
    pub most_branches: u8,
    pub longest_root: u8,
    pub longest_root_measure: RootMeasure,
    pub bonus_ties: BonusTies,
}

/// A resolved Roots Growy Roots variant: every key present.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub name: String,
    pub description: String,
    pub players: Players,
    pub start_deck: Deck,
    pub board_2: Board,
    pub board_3: Board,
    pub board_4: Board,
    pub turn: Turn,
    pub end: End,
    pub scoring: Scoring,
    /// Left out of a record made before the key existed: points only.
    #[serde(default)]
    pub artifacts: Artifacts,
    /// House rules written as scripts (`docs/scripts.md`); absent from
    /// the JSON of rules without them, so their records are unchanged.
    #[serde(default, skip_serializing_if = "crate::script::Scripts::is_empty")]
    pub script: crate::script::Scripts,
}

/// The artifacts' abilities (a house rule of ours; the cards' text is blank).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Artifacts {
    pub abilities: bool,
}

impl Rules {
    pub fn seats(&self) -> RangeInclusive<u8> {
        self.players.min..=self.players.max
    }

    /// The board for `seats` players.
    pub fn board(&self, seats: u8) -> &Board {
        match seats {
            0..=2 => &self.board_2,
            3 => &self.board_3,
            _ => &self.board_4,
        }
    }
}

// --- The raw file ---------------------------------------------------------

crate::variant_file! {
    /// A Roots Growy Roots variant. Every rule key is optional: a key you leave out keeps the value of the variant named by `extends`, or the standard value.
    #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
    #[schemars(title = "Roots Growy Roots variant")]
    pub struct VariantFile for "roots-growy-roots", standard "roots-growy-roots", players: PlayersFile, script: crate::script::ScriptFile {
        /// Each player's start-area deck: the 5x5 cards of one start area other than the seed, the face-up water included. It is shuffled and dealt face down per player, and each start area is its own deck (a card turned over there is drawn from what is left of that player's start deck). Standard: the designers' sheet, 14 earth, 3 fertilizer, 2 water (one face up), 5 stone.
        pub start_deck: StartDeckFile,
        /// The board and main deck for 2 players. Standard: the designers' 7x21 board (rows A-G, columns 1-21), seeds at D1 and D21, face-up water at D5 and D17, face-up Skrying Runes at B11 and Flight of Hermes at F11, and the designers' newest main deck (v3: 54 earth, 10 fertilizer, 8 water, 20 stone, the 5 artifacts).
        pub board_2: Board2File,
        /// The board and main deck for 3 players (our design: the 4-player board with the bottom-right start area dealt as main field). Standard: 15x21, seeds at A1, A21 and O1, 4 face-up artifacts, 138 earth, 25 fertilizer, 21 water, 51 stone and 1 hidden artifact.
        pub board_3: Board3File,
        /// The board and main deck for 4 players. Standard: the designers' 15x21 board, seeds in the corners (A1, A21, O21, O1 in turn order), water at the inner corners, face-up artifacts at E11, H8, H14 and K11; the deck is our design (v3 scaled to 215 cells: 123 earth, 23 fertilizer, 18 water, 46 stone and 1 hidden artifact).
        pub board_4: Board4File,
        /// A turn: income, costs and how it ends.
        pub turn: TurnFile,
        /// How the game ends.
        pub end: EndFile,
        /// The points at the end.
        pub scoring: ScoringFile,
        /// What the artifacts do besides their point.
        pub artifacts: ArtifactsFile,
    }
}

crate::file_tables! {
    /// What the artifacts do besides their point.
    pub struct ArtifactsFile {
        /// Whether each artifact has an ability of OUR design (a house rule: the designers' cards have no ability text), each usable once by the player holding it, on their own turn, keeping its point: skry turns over a face-down card and its face-down neighbours for everyone to see; jump grows one stick to the cell two steps away in a line, over anything; deny skips another player's next turn; destroy smashes a turned stone next to your root; dry dries a water card (it pays and scores nothing more). Standard: false (an artifact is worth its point and nothing more).
        pub abilities: bool,
    }
}

/// The seats of the `[players]` table: 2 to 4, and 4 in the standard game.
pub type Seats = crate::games::Seats<4, 4>;

/// How many people may play.
pub type PlayersFile = crate::games::PlayersFile<Seats>;

macro_rules! deck_file {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Earth ("dirt", "normal") cards, from 0 to 1000.
            #[schemars(range(min = 0, max = 1000))]
            pub earth: Option<u16>,
            /// Fertilizer cards (a stick more at once), from 0 to 1000.
            #[schemars(range(min = 0, max = 1000))]
            pub fertilizer: Option<u16>,
            /// Water cards (a stick more every turn while your root holds it), from 0 to 1000. In a start deck one of them is laid face up.
            #[schemars(range(min = 0, max = 1000))]
            pub water: Option<u16>,
            /// Stone cards (the turn ends there), from 0 to 1000.
            #[schemars(range(min = 0, max = 1000))]
            pub stone: Option<u16>,
        }
    };
}

deck_file!(
    StartDeckFile,
    "One start area's deck: its face-down cards and its face-up water (the seed comes on top). Artifacts are never in a start deck."
);
deck_file!(
    MainDeck2File,
    "The 2-player main deck's earth, fertilizer, water and stone; every artifact not laid face up is shuffled in too."
);
deck_file!(
    MainDeck3File,
    "The 3-player main deck's earth, fertilizer, water and stone; every artifact not laid face up is shuffled in too."
);
deck_file!(
    MainDeck4File,
    "The 4-player main deck's earth, fertilizer, water and stone; every artifact not laid face up is shuffled in too."
);

/// One player's start area, in turn order.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartFile {
    /// The area's corner cells, "B1:F5" (row letter, column number); every cell of it is dealt from this player's start deck.
    pub area: String,
    /// The seed's cell, inside the area: the root starts here with one connector.
    pub seed: String,
    /// The face-up water's cell, inside the area.
    pub water: String,
}

/// An artifact laid face up at setup.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaceUpFile {
    /// Its cell, in the main field ("B11").
    pub cell: String,
    /// Which artifact: "skry", "jump", "deny", "destroy" or "dry".
    pub artifact: Artifact,
}

macro_rules! board_file {
    ($name:ident, $deck:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Rows, from 3 to 26, named A, B, C ... from the top.
            #[schemars(range(min = 3, max = 26))]
            pub rows: Option<u8>,
            /// Columns, from 3 to 40, numbered from 1 on the left.
            #[schemars(range(min = 3, max = 40))]
            pub columns: Option<u8>,
            /// The start areas, one per player in turn order (seat 1 first). Every other cell is main field.
            pub starts: Option<Vec<StartFile>>,
            /// The artifacts laid face up on the main field at setup; the other artifacts are shuffled into the main deck.
            pub artifacts: Option<Vec<FaceUpFile>>,
            /// The main deck; with the hidden artifacts it must fill the main field's face-down cells exactly.
            pub main_deck: Option<$deck>,
        }
    };
}

board_file!(
    Board2File,
    MainDeck2File,
    "The board and main deck for 2 players (checked only when `players` allows 2)."
);
board_file!(
    Board3File,
    MainDeck3File,
    "The board and main deck for 3 players (checked only when `players` allows 3)."
);
board_file!(
    Board4File,
    MainDeck4File,
    "The board and main deck for 4 players (checked only when `players` allows 4)."
);

crate::file_tables! {
    /// A turn.
    pub struct TurnFile {
        /// Sticks every player receives at the start of their turn, from 1 to 10. Standard: 1.
        #[schemars(range(min = 1, max = 10))]
        pub income: u8,
        /// Sticks more per water card holding one of the player's connectors, from 0 to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub water_income: u8,
        /// Sticks a fertilizer card gives at once when reached, from 0 to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub fertilizer: u8,
        /// Whether bridges may be built: from the current connector, over a cell holding any connector, to the free cell right behind it in the same line. Standard: true.
        pub bridges: bool,
        /// Sticks a bridge costs, from 1 to 10. Standard: 3.
        #[schemars(range(min = 1, max = 10))]
        pub bridge_cost: u8,
        /// The sticks left when a player ends the turn of their own accord: "lose" (the rules) or "keep". Standard: "lose".
        pub voluntary_end: Sticks,
        /// The sticks left when the turn ends because the current connector cannot grow (or, at the start of a turn, no connector can): "keep" or "lose". Standard: "keep".
        pub blocked_end: Sticks,
        /// Whether reaching an artifact ends the turn (sticks kept) instead of counting as earth. Standard: false.
        pub artifact_ends_turn: bool,
        /// Whether a root may grow into another player's start area. Standard: true.
        pub enter_start_areas: bool,
    }

    /// How the game ends.
    pub struct EndFile {
        /// "last-hidden-artifact": the game ends at once when the last face-down artifact is turned over (the face-up ones count as revealed). "all-artifacts-claimed": when every artifact, face-up ones included, is in a hand. Standard: "last-hidden-artifact".
        pub trigger: EndTrigger,
        /// The game also ends after this many rounds, from 10 to 1000 (a safety net; a game also ends when every player in a row starts a turn unable to grow). Standard: 200.
        #[schemars(range(min = 10, max = 1000))]
        pub max_rounds: u16,
    }

    /// The points at the end.
    pub struct ScoringFile {
        /// Points per water card holding the player's connector, from 0 to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub water: u8,
        /// Points per artifact in hand, from 0 to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub artifact: u8,
        /// Points for the most branches (tips of the root other than the seed), from 0 to 10. Standard: 1.
        #[schemars(range(min = 0, max = 10))]
        pub most_branches: u8,
        /// Points for the longest root, from 0 to 10. Standard: 3.
        #[schemars(range(min = 0, max = 10))]
        pub longest_root: u8,
        /// How the longest root is measured, in sticks (a bridge is one step): "any-path" (the longest path between two connectors of one root) or "from-seed". Standard: "any-path".
        pub longest_root_measure: RootMeasure,
        /// Who gets the branches or longest-root bonus when players tie for it: "all-tied" or "nobody". Standard: "all-tied".
        pub bonus_ties: BonusTies,
    }
}

// --- Cells ------------------------------------------------------------------

/// A cell's name: row letter (A from the top) and column number (1 on the left).
pub fn cell_name(columns: u8, cell: u16) -> String {
    let (r, c) = (cell / u16::from(columns), cell % u16::from(columns));
    format!("{}{}", char::from(b'A' + r as u8), c + 1)
}

/// A cell's name back to its index; `None` off the board or malformed.
pub fn parse_cell(rows: u8, columns: u8, text: &str) -> Option<u16> {
    let t = text.trim();
    let mut chars = t.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let r = letter as u8 - b'A';
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let c: u16 = digits.parse().ok()?;
    if r >= rows || c == 0 || c > u16::from(columns) {
        return None;
    }
    Some(u16::from(r) * u16::from(columns) + c - 1)
}

/// A rectangle `B1:F5` as (row0, col0, row1, col1), inclusive, corners in any order.
pub fn parse_area(rows: u8, columns: u8, text: &str) -> Option<(u8, u8, u8, u8)> {
    let (a, b) = text.split_once(':')?;
    let a = parse_cell(rows, columns, a)?;
    let b = parse_cell(rows, columns, b)?;
    let cols = u16::from(columns);
    let (ra, ca) = ((a / cols) as u8, (a % cols) as u8);
    let (rb, cb) = ((b / cols) as u8, (b % cols) as u8);
    Some((ra.min(rb), ca.min(cb), ra.max(rb), ca.max(cb)))
}

pub use crate::games::Problem;

/// Every problem of complete rules, at once.
pub fn check(r: &Rules) -> Vec<Problem> {
    let mut out = r.players.problems(None);
    let mut err = |path: String, message: String| out.push(Problem { path, message });
    let start_cells = r.start_deck.total() + 1;
    if r.start_deck.water == 0 {
        err(
            "start_deck.water".into(),
            "a start deck needs at least one water: one is laid face up in every start area".into(),
        );
    }
    for (key, n, board) in [
        ("board_2", 2u8, &r.board_2),
        ("board_3", 3, &r.board_3),
        ("board_4", 4, &r.board_4),
    ] {
        // A board the variant never plays on is not checked (a variant for
        // 2 players may change the start deck without redrawing the others).
        if r.seats().contains(&n) || r.players.min > r.players.max {
            check_board(r, key, n, board, start_cells, &mut err);
        }
    }
    out
}

fn check_board(
    r: &Rules,
    key: &str,
    players: u8,
    b: &Board,
    start_cells: u32,
    err: &mut impl FnMut(String, String),
) {
    if !(3..=26).contains(&b.rows) || !(3..=40).contains(&b.columns) {
        err(
            format!("{key}.rows"),
            format!(
                "a board is 3 to 26 rows by 3 to 40 columns, not {}x{}",
                b.rows, b.columns
            ),
        );
        return;
    }
    if b.starts.len() != usize::from(players) {
        err(
            format!("{key}.starts"),
            format!(
                "the board for {players} players needs {players} start areas, one per player; it has {}",
                b.starts.len()
            ),
        );
    }
    let cells = usize::from(b.rows) * usize::from(b.columns);
    let mut owner = vec![None::<usize>; cells];
    for (i, s) in b.starts.iter().enumerate() {
        let path = format!("{key}.starts");
        let Some((r0, c0, r1, c1)) = parse_area(b.rows, b.columns, &s.area) else {
            err(
                path,
                format!(
                    "start area {} is \"{}\": expected two corner cells on the {}x{} board, like \"B1:F5\"",
                    i + 1,
                    s.area,
                    b.rows,
                    b.columns
                ),
            );
            continue;
        };
        let size = (u32::from(r1 - r0) + 1) * (u32::from(c1 - c0) + 1);
        if size != start_cells {
            err(
                path.clone(),
                format!(
                    "start area {} ({}) has {}, but a start deck has {} (the seed and start_deck's {})",
                    i + 1,
                    s.area,
                    count(size, "cell", "cells"),
                    count(start_cells, "card", "cards"),
                    start_cells - 1
                ),
            );
        }
        for row in r0..=r1 {
            for col in c0..=c1 {
                let c = usize::from(row) * usize::from(b.columns) + usize::from(col);
                if let Some(j) = owner[c] {
                    err(
                        path.clone(),
                        format!(
                            "start areas {} and {} overlap at {}",
                            j + 1,
                            i + 1,
                            cell_name(b.columns, c as u16)
                        ),
                    );
                    return;
                }
                owner[c] = Some(i);
            }
        }
        for (what, text) in [("seed", &s.seed), ("water", &s.water)] {
            match parse_cell(b.rows, b.columns, text) {
                Some(c) if owner[usize::from(c)] == Some(i) => {}
                _ => err(
                    path.clone(),
                    format!(
                        "the {what} of start area {} is \"{text}\": expected a cell inside {}",
                        i + 1,
                        s.area
                    ),
                ),
            }
        }
        if s.seed.trim().eq_ignore_ascii_case(s.water.trim()) {
            err(
                path,
                format!(
                    "start area {}: the seed and the water are both on {}",
                    i + 1,
                    s.seed
                ),
            );
        }
    }
    let main_cells = owner.iter().filter(|o| o.is_none()).count() as u32;
    let mut seen: Vec<Artifact> = Vec::new();
    let mut at: Vec<u16> = Vec::new();
    for f in &b.artifacts {
        let path = format!("{key}.artifacts");
        match parse_cell(b.rows, b.columns, &f.cell) {
            Some(c) if owner[usize::from(c)].is_none() && !at.contains(&c) => at.push(c),
            Some(c) if at.contains(&c) => {
                err(path.clone(), format!("two artifacts lie on {}", f.cell))
            }
            _ => err(
                path.clone(),
                format!(
                    "the {} artifact is on \"{}\": expected a cell of the main field",
                    f.artifact.key(),
                    f.cell
                ),
            ),
        }
        if seen.contains(&f.artifact) {
            err(
                path,
                format!(
                    "the {} artifact is laid out twice; each exists once",
                    f.artifact.key()
                ),
            );
        }
        seen.push(f.artifact);
    }
    let hidden = 5u32.saturating_sub(b.artifacts.len() as u32);
    let deck = b.main_deck.total() + hidden;
    let face_down = main_cells.saturating_sub(b.artifacts.len() as u32);
    if deck != face_down {
        err(
            format!("{key}.main_deck"),
            format!(
                "the main field has {} ({main_cells} less {}), but the main deck has {} ({} plus {})",
                count(face_down, "face-down cell", "face-down cells"),
                count(
                    b.artifacts.len() as u32,
                    "face-up artifact",
                    "face-up artifacts"
                ),
                count(deck, "card", "cards"),
                b.main_deck.total(),
                count(hidden, "hidden artifact", "hidden artifacts")
            ),
        );
    }
    if hidden == 0 && r.end.trigger == EndTrigger::LastHiddenArtifact {
        err(
            format!("{key}.artifacts"),
            "every artifact is face up, so no artifact is ever turned over and the game could only end on its round limit; leave one out (it goes into the main deck) or set end.trigger = \"all-artifacts-claimed\"".into(),
        );
    }
}
