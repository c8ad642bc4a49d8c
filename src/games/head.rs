//! What every game's variant file shares, written once: the head (`game`,
//! `extends`, `name`, `description`), which [`variant_file!`](crate::variant_file)
//! puts on a game's raw file type with the same words for every game, and
//! [`Problem`], a finding of a game's own checks across keys.

use crate::core::diagnostic::{Checker, Diagnostic};

/// A problem found by a game's checks across keys, at its dotted key path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Dotted key path, e.g. `players.min`.
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

impl Problem {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }

    /// A file whose `game` key names game `found`, layered for game `id`.
    pub fn other_game(found: &str, id: &str) -> Problem {
        Problem::new(
            "game",
            format!("this file is for the game `{found}`, not `{id}`"),
        )
    }

    /// Each problem as an error at its key, placed by `c`.
    pub fn place(problems: Vec<Problem>, c: &Checker<'_>) -> Vec<Diagnostic> {
        problems
            .into_iter()
            .map(|p| c.error(&p.path, p.message))
            .collect()
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A game's raw variant file type with the head every file shares:
///
/// ```ignore
/// roots::variant_file! {
///     /// A Windy Noughts variant. (The schema's description.)
///     #[derive(Clone, Debug, Default, PartialEq, Deserialize, JsonSchema)]
///     #[schemars(title = "Windy Noughts variant")]
///     pub struct VariantFile for "windy-noughts", standard "windy" {
///         /// The board.
///         pub board: BoardFile,
///     }
/// }
/// ```
///
/// `game` (whose schema is the constant id), `extends` (the standard
/// built-in named as the example), `name` and `description` come first, with
/// their editor texts; the type refuses unknown keys, and
/// `VariantFile::other_game` finds a `game` key naming another game. Each
/// of the game's own keys is written as its value's type and becomes
/// optional (`Option<T>`), as in [`file_tables!`](crate::file_tables).
///
/// The tables most games share are asked for after the standard variant,
/// written here once with their editor texts: `players: PlayersFile`, the
/// `[players]` table ([`PlayersFile`](crate::games::PlayersFile) of the
/// game's seats), first of the game's own keys; `script`, the house rules
/// written as scripts (a list of `crate::script::ScriptFile`), after them:
/// `pub struct VariantFile for "branches", standard "btt", players: PlayersFile, script: ScriptFile { ... }`.
#[macro_export]
macro_rules! variant_file {
    (
        $(#[$attr:meta])*
        pub struct $name:ident for $id:literal, standard $standard:literal
            $(, players: $players_file:ty)? $(, script: $script_file:ty)? {
            $(
                $(#[$key_attr:meta])*
                pub $key:ident: $ty:ty,
            )*
        }
    ) => {
        $(#[$attr])*
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// The game these rules are for. Left out, the game is the one of the variant named by `extends`, and finally Roots and Shoots: so every Roots and Shoots file may leave it out.
            #[schemars(extend("const" = $id))]
            pub game: Option<String>,
            #[doc = concat!(
                "The variant this one starts from: a built-in name (\"",
                $standard,
                "\") or the path of another variant file, relative to this file (for example \"",
                $standard,
                ".toml\"). Keys you set here replace the ones there, one by one. Left out, the variant starts from the standard game."
            )]
            pub extends: Option<String>,
            /// A short name for the variant, shown in game records and reports. Left out, the file name (without ".toml") is used.
            #[schemars(length(min = 1, max = 100))]
            pub name: Option<String>,
            /// One or two sentences saying what the variant changes and why. Not inherited from `extends`; left out, it is empty.
            #[schemars(length(max = 2000))]
            pub description: Option<String>,
            $(
                /// How many people may play.
                pub players: Option<$players_file>,
            )?
            $(
                $(#[$key_attr])*
                pub $key: Option<$ty>,
            )*
            $(
                /// House rules no key expresses, each a short script run at a hook point of the game (docs/scripts.md). Inherited through `extends`; a child changes one by its name, or turns it off with `enabled = false`.
                #[schemars(length(max = 32))]
                #[serde(skip_serializing_if = "Option::is_none")]
                pub script: Option<Vec<$script_file>>,
            )?
        }

        impl $name {
            /// The problem of a `game` key naming another game, if it does.
            pub fn other_game(&self) -> Option<$crate::games::Problem> {
                self.game
                    .as_deref()
                    .filter(|g| *g != $id)
                    .map(|g| $crate::games::Problem::other_game(g, $id))
            }
        }
    };
}

/// `file_tables! { ... }`: the tables of a game's variant file, written as
/// their keys' value types; every key becomes optional (`Option<T>`: a key
/// left out keeps the parent's value), the table refuses unknown keys, and
/// each has the derives every file table has (its schema from the doc
/// comments, which are the editor's texts). Attributes on a table or a key
/// (`#[schemars(range(min = 1, max = 10))]`) pass through.
///
/// ```ignore
/// roots::file_tables! {
///     /// The board.
///     pub struct BoardFile {
///         /// Cells along a side, from 3 to 9. Standard: 3.
///         #[schemars(range(min = 3, max = 9))]
///         pub size: u8,
///     }
/// }
/// ```
#[macro_export]
macro_rules! file_tables {
    ($(
        $(#[$attr:meta])*
        pub struct $name:ident {
            $(
                $(#[$key_attr:meta])*
                pub $key:ident: $ty:ty,
            )*
        }
    )*) => {
        $(
            $(#[$attr])*
            #[derive(
                Clone,
                Debug,
                Default,
                PartialEq,
                serde::Deserialize,
                serde::Serialize,
                schemars::JsonSchema,
            )]
            #[serde(deny_unknown_fields)]
            pub struct $name {
                $(
                    $(#[$key_attr])*
                    pub $key: Option<$ty>,
                )*
            }
        )*
    };
}

/// The seats a game's `[players]` table may name ([`PlayersFile`]): from 2
/// to [`SeatRange::MOST`], and the words an editor shows for its two keys.
pub trait SeatRange {
    /// The most seats a variant may have.
    const MOST: u8;
    /// `players.max` of the standard game.
    const STANDARD_MOST: u8;
    /// The editor texts of `min` and `max` when the game words them its
    /// own way; by default "The fewest players, from 2 to MOST. Standard:
    /// 2." and "The most players, from 2 to MOST, and no fewer than `min`.
    /// Standard: STANDARD_MOST.".
    const TEXTS: Option<(&'static str, &'static str)> = None;
}

/// The usual seats of a `[players]` table: 2 to `MOST`, the standard
/// game's most `STANDARD_MOST`, and the editor texts every game words
/// alike: `PlayersFile<Seats<6, 6>>`. A game that words them its own way
/// writes a [`SeatRange`] of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats<const MOST: u8, const STANDARD_MOST: u8>;

impl<const M: u8, const S: u8> SeatRange for Seats<M, S> {
    const MOST: u8 = M;
    const STANDARD_MOST: u8 = S;
}

/// How many people may play: the `[players]` table of every game's variant
/// file, `min` and `max`, each from 2 to the game's most (`S`). Its schema
/// is named `PlayersFile`, as every game's file refers to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct PlayersFile<S> {
    /// The fewest players.
    pub min: Option<u8>,
    /// The most players.
    pub max: Option<u8>,
    #[serde(skip)]
    seats: std::marker::PhantomData<S>,
}

impl<S: SeatRange> schemars::JsonSchema for PlayersFile<S> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PlayersFile".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let most = S::MOST;
        let (min, max) = match S::TEXTS {
            Some((min, max)) => (min.to_owned(), max.to_owned()),
            None => (
                format!("The fewest players, from 2 to {most}. Standard: 2."),
                format!(
                    "The most players, from 2 to {most}, and no fewer than `min`. Standard: {}.",
                    S::STANDARD_MOST
                ),
            ),
        };
        schemars::json_schema!({
            "description": "How many people may play.",
            "type": "object",
            "properties": {
                "min": {
                    "description": min,
                    "type": "integer",
                    "minimum": 2,
                    "maximum": most,
                },
                "max": {
                    "description": max,
                    "type": "integer",
                    "minimum": 2,
                    "maximum": most,
                },
            },
            "additionalProperties": false,
        })
    }
}

/// How many people may play, resolved: the `players` table of every
/// game's rules (each bound checked by the game's schema and checks).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Players {
    /// The fewest players.
    pub min: u8,
    /// The most players.
    pub max: u8,
}

impl Players {
    /// The problems of the `[players]` table of complete rules: with
    /// `most`, each bound outside 2 to `most` (for callers that skipped the
    /// schema); then `min` over `max`.
    pub fn problems(&self, most: Option<u8>) -> Vec<Problem> {
        let mut out = Vec::new();
        if let Some(most) = most {
            for (path, v) in [("players.min", self.min), ("players.max", self.max)] {
                if !(2..=most).contains(&v) {
                    out.push(Problem::new(
                        path,
                        format!("must be from 2 to {most}, not {v}"),
                    ));
                }
            }
        }
        if self.min > self.max {
            out.push(Problem::new(
                "players.min",
                format!(
                    "the fewest players ({}) is more than the most ({})",
                    self.min, self.max
                ),
            ));
        }
        out
    }
}
