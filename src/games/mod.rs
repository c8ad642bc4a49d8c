//! The games of the toolkit, each a module behind one interface, [`Game`].
//!
//! A game module owns its rules, its variant keys (the raw file type the
//! schema is generated from), its state (the chance/decision/terminal
//! protocol of [`GameState`]), the text form of its actions, its board
//! drawing, its per-game statistics and its rules documentation. The layers
//! above (variant files, records, the referee, the simulator, the bots and the
//! command line) are written once against [`Game`] and never name a game.
//!
//! Dispatch on the game happens once, where a variant is loaded: a loaded
//! variant is an [`AnyRules`], an enum over the games, and [`with_game!`](crate::with_game)
//! turns it back into a concrete `G: Game` for the code below, which is
//! monomorphised: the hot loops of one game pay nothing for the others (as
//! shakmaty's `VariantPosition` does for chess variants).
//!
//! Adding a game: `docs/adding-a-game.md`.

pub mod branches;
pub mod expecti;
mod head;
pub mod lookahead;
pub mod roots_and_shoots;
pub mod roots_growy_roots;
mod scripted;
pub mod sheet;
pub mod sprout_r_out;
pub mod turns;

use std::fmt::Debug;
use std::ops::RangeInclusive;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

pub use head::{Players, PlayersFile, Problem, SeatRange, Seats};

use crate::core::diagnostic::{Checker, Diagnostic};
use crate::core::dice::SeededDice;
use crate::core::keys::Change;
use crate::core::player::{BotSpec, Player, Playout, Style};
use crate::core::protocol::{GameState, Seat};

/// A statistic with its key (JSON, CSV) and its name in words (tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub key: &'static str,
    pub label: &'static str,
    /// A column heading of at most nine characters (`roots sweep`).
    pub short: &'static str,
    /// A per-game flag: 1 in the games where something holds (Roots Growy
    /// Roots' `decided_by_branches`), 0 in the others. Reports show it as
    /// the share of games, with a rate's interval, not as a mean.
    pub flag: bool,
}

impl Stat {
    /// The turns a game took, as every game that counts them says it.
    pub const TURNS: Stat = Stat::new("turns", "turns", "turns");
    /// The rounds a game took (a round: every seat's turn).
    pub const ROUNDS: Stat = Stat::new("rounds", "rounds", "rounds");
    /// The passes of a game.
    pub const PASSES: Stat = Stat::new("passes", "passes", "passes");

    /// A statistic: its key, its name in words and its column heading.
    pub const fn new(key: &'static str, label: &'static str, short: &'static str) -> Stat {
        Stat {
            key,
            label,
            short,
            flag: false,
        }
    }

    /// A per-game flag ([`Stat::flag`]): `label` says what holds in the
    /// games it counts (`won by the branch bonus`).
    pub const fn flag(key: &'static str, label: &'static str, short: &'static str) -> Stat {
        Stat {
            key,
            label,
            short,
            flag: true,
        }
    }

    /// The words of the statistic of `stats` whose key is `key` (an end
    /// reason said to a person: `the board is full`, not `board_full`), or
    /// the key itself when none has it.
    pub fn words<'a>(stats: &'a [Stat], key: &'a str) -> &'a str {
        stats.iter().find(|s| s.key == key).map_or(key, |s| s.label)
    }

    /// The position in `stats` of the statistic whose key is `key` (a
    /// game's end reason by name, for [`Game::end_reason`]), or `otherwise`
    /// when there is no key or none has it.
    pub fn index(stats: &[Stat], key: Option<&str>, otherwise: usize) -> usize {
        key.and_then(|k| stats.iter().position(|s| s.key == k))
            .unwrap_or(otherwise)
    }
}

/// A game's safety net against games that would not end (Roots and Shoots:
/// `end.max_rounds`), for the smoke simulation's messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SafetyLimit {
    /// Its index in [`Game::END_REASONS`].
    pub reason: usize,
    /// The variant key that sets it.
    pub key: &'static str,
    /// The limit in words: `the round limit (2 rounds)`.
    pub words: String,
    /// What to do when games need it.
    pub help: String,
}

impl SafetyLimit {
    /// A round limit set by `end.max_rounds` (the games that have one
    /// name it so): `reason` is its index in [`Game::END_REASONS`].
    pub fn round_limit(reason: usize, max_rounds: u32, help: &str) -> SafetyLimit {
        SafetyLimit {
            reason,
            key: "end.max_rounds",
            words: format!("the round limit ({max_rounds} rounds)"),
            help: help.to_owned(),
        }
    }
}

/// A game's counts given by name, in the order of `stats` (a [`Game::COUNTERS`]
/// list): 0 for a name not given, `u32::MAX` for a count beyond it.
pub fn counts_in_order(stats: &[Stat], named: &[(&str, i64)]) -> Vec<u32> {
    in_order(stats.iter().map(|s| s.key), named)
}

/// `named_counts!(tally: key, key = field, ...)`: a game's counts by name
/// (for [`counts_in_order`]) from the whole-number fields of its tally:
/// `("key", tally.key)`, or `("key", tally.field)` where the field has
/// another name, widened to `i64`; an array, in the order given.
#[macro_export]
macro_rules! named_counts {
    ($t:ident: $($key:ident $(= $field:ident)?),+ $(,)?) => {
        [$((
            stringify!($key),
            i64::from($crate::named_counts!(@field $t $key $($field)?)),
        )),+]
    };
    (@field $t:ident $key:ident) => {
        $t.$key
    };
    (@field $t:ident $key:ident $field:ident) => {
        $t.$field
    };
}

/// The count named `key` among a game's `named` counts, 0 when none is.
pub fn named_count(named: &[(&str, i64)], key: &str) -> i64 {
    named.iter().find(|(k, _)| *k == key).map_or(0, |(_, v)| *v)
}

/// The counts of `named` in the order of `keys`: 0 for a name not given,
/// `u32::MAX` for a count beyond it.
fn in_order<'a>(keys: impl Iterator<Item = &'a str>, named: &[(&str, i64)]) -> Vec<u32> {
    keys.map(|k| u32::try_from(named_count(named, k)).unwrap_or(u32::MAX))
        .collect()
}

/// A rule event a game counts as it plays (`rain`): its key, its name in
/// words, and the variant keys whose values only matter when it happens
/// (a key changed in a run where its events never happen cannot change a
/// game). See [`Game::RULE_EVENTS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleEvent {
    pub key: &'static str,
    pub label: &'static str,
    /// Variant keys or tables (`beads.supply`, `rain`).
    pub keys: &'static [&'static str],
}

/// A [`RuleEvent`], for a game's `RULE_EVENTS` list.
pub const fn event(
    key: &'static str,
    label: &'static str,
    keys: &'static [&'static str],
) -> RuleEvent {
    RuleEvent { key, label, keys }
}

/// A game's rule-event counts given by name, in the order of `events`:
/// 0 for a name not given.
pub fn events_in_order(events: &[RuleEvent], named: &[(&str, i64)]) -> Vec<u32> {
    in_order(events.iter().map(|e| e.key), named)
}

/// Whether a game of `seats` players may start under the variant named
/// `variant`, whose seat counts are `range` ([`Game::seats`]); else the
/// refusal every game and the simulator word alike: `variant `btt` is for
/// 2 to 6 players, not 7`.
pub fn admit_seats(variant: &str, range: RangeInclusive<u8>, seats: u8) -> Result<(), String> {
    if range.contains(&seats) {
        Ok(())
    } else {
        Err(format!(
            "variant `{variant}` is for {}, not {seats}",
            crate::core::players_phrase(*range.start(), *range.end())
        ))
    }
}

/// A built-in variant: its name and its file's text.
pub type Builtin = (&'static str, &'static str);

/// The action type of a game.
pub type ActionOf<G> = <<G as Game>::State as GameState>::Action;

/// What every game's resolved rules say of themselves: the variant's name
/// and description (the head every variant file shares, with `game` and
/// `extends`). [`rules_head!`](crate::rules_head) writes it for rules with
/// `name` and `description` fields.
pub trait RulesHead {
    /// The variant's name.
    fn name(&self) -> &str;
    /// What the variant changes and why, or empty.
    fn description(&self) -> &str;
}

/// `game_hooks!(super: sheet, pictures, state)` in a game's `impl Game`:
/// the optional hooks every game with the usual modules answers the same
/// way, each delegated once here rather than written out in every game.
/// The first word names the game's module as seen from the impl (`super`
/// from `game.rs`, `self` from the module's `mod.rs`); then, any of:
///
/// - `module`: `ID` (the module's `GAME_ID`) and the types `Rules`,
///   `File` and `State` (the module's `Rules`, `VariantFile` and `State`);
/// - `scripts`: [`house_rules!`](crate::house_rules) (house rules written
///   as scripts, from the module's `script.rs`);
/// - `resolve_check`: `check`, the module's own checks (its
///   `resolve(rules, file)`, whose problems are placed in the file) run on
///   complete rules: layering an empty file over them changes nothing but
///   runs every check;
/// - `rules`: `builtins` (the module's `BUILTINS`) and `standard` (the
///   rules type's own `standard()`);
/// - `seats`: the rules type's own `seats()`;
/// - `sheet`: `explain`, `meaning` and `readings` from the
///   module's `explain.rs` (`explain_with_keys`, written with the shared
///   [`sheet::Sheet`], and `READINGS`) and `meaning.rs`
///   (`meaning`, after the meaning every game shares of `players.min` and
///   `players.max`, from [`Game::seats`]);
/// - `pictures`: `svg` and `click_points` from its `svg.rs`, and
///   `narrate` from its `narrate.rs` (`narrate(before, after)`);
/// - `state`: `scores` and `check_invariants` from the state's own
///   methods of those names;
/// - `text`: `format_action`, `parse_action` and `draw` from the module's
///   functions of those names, and `last_move` from its `narrate.rs`;
/// - `eval`: `style` (the module's `STYLE`) and `evaluate` (its
///   `evaluate(state, seat)`).
#[macro_export]
macro_rules! game_hooks {
    ($m:ident: $($hook:ident),+ $(,)?) => {
        $($crate::game_hooks!(@ $m $hook);)+
    };
    (@ $m:ident module) => {
        const ID: &'static str = $m::GAME_ID;

        type Rules = $m::Rules;
        type File = $m::VariantFile;
        type State = $m::State;
    };
    (@ $m:ident scripts) => {
        $crate::house_rules!($m);
    };
    (@ $m:ident resolve_check) => {
        fn check(
            rules: &Self::Rules,
            c: &$crate::core::diagnostic::Checker<'_>,
        ) -> Vec<$crate::core::diagnostic::Diagnostic> {
            match $m::resolve(rules, &$m::VariantFile::default()) {
                Ok(_) => Vec::new(),
                Err(problems) => $crate::games::Problem::place(problems, c),
            }
        }
    };
    (@ $m:ident rules) => {
        fn builtins() -> &'static [$crate::games::Builtin] {
            &$m::BUILTINS[..]
        }

        fn standard() -> Self::Rules {
            <Self::Rules>::standard()
        }
    };
    (@ $m:ident seats) => {
        fn seats(rules: &Self::Rules) -> std::ops::RangeInclusive<u8> {
            rules.seats()
        }
    };
    (@ $m:ident sheet) => {
        fn explain(rules: &Self::Rules, changes: &[$crate::core::keys::Change]) -> Option<String> {
            Some($m::explain::explain_with_keys(rules, changes).0)
        }

        fn readings() -> &'static [$crate::games::sheet::Reading] {
            $m::explain::READINGS
        }

        fn meaning(key: &str, a: &Self::Rules, b: &Self::Rules) -> Option<String> {
            // The common keys `players.min` and `players.max` mean the
            // same in every game; then the game's own.
            let seats = <Self as $crate::games::Game>::seats(b);
            $crate::games::sheet::players_meaning(key, *seats.start(), *seats.end())
                .or_else(|| $m::meaning::meaning(key, a, b))
        }
    };
    (@ $m:ident pictures) => {
        fn narrate(before: &Self::State, _roll: Option<u8>, after: &Self::State) -> Vec<String> {
            $m::narrate::narrate(before, after)
        }

        fn svg(state: &Self::State, names: &[String]) -> String {
            $m::svg::svg(state, names)
        }

        fn click_points(
            state: &Self::State,
            actions: &[$crate::games::ActionOf<Self>],
        ) -> Vec<Option<(f64, f64)>> {
            $m::svg::click_points(state, actions)
        }
    };
    (@ $m:ident text) => {
        fn format_action(state: &Self::State, action: $crate::games::ActionOf<Self>) -> String {
            $m::format_action(state, action)
        }

        fn parse_action(
            state: &Self::State,
            text: &str,
        ) -> Result<$crate::games::ActionOf<Self>, String> {
            $m::parse_action(state, text)
        }

        fn draw(state: &Self::State) -> String {
            $m::draw(state)
        }

        fn last_move(state: &Self::State) -> Option<String> {
            $m::narrate::last_move(state)
        }
    };
    (@ $m:ident eval) => {
        fn style() -> $crate::core::player::Style {
            $m::STYLE
        }

        fn evaluate(state: &Self::State, seat: $crate::core::protocol::Seat) -> f64 {
            $m::evaluate(state, seat)
        }
    };
    (@ $m:ident state) => {
        fn scores(state: &Self::State) -> Vec<i32> {
            state.scores()
        }

        fn check_invariants(state: &Self::State) -> Result<(), String> {
            state.check_invariants()
        }

        fn script_failure(state: &Self::State) -> Option<String> {
            $crate::script::session::HouseRules::script_failure(state).map(str::to_owned)
        }
    };
}

/// `house_rules!(module)`: [`Game::script_api`], [`Game::has_scripts`],
/// [`Game::script_names`] and [`Game::script_fired`]
/// of a game whose scripting is `module::script` and whose rules carry
/// their scripts in a field `script`.
#[macro_export]
macro_rules! house_rules {
    ($($m:ident)::+) => {
        fn script_api() -> Option<&'static $crate::script::Api> {
            Some(&$($m)::+::script::API)
        }

        fn has_scripts(rules: &Self::Rules) -> bool {
            !rules.script.is_empty()
        }

        fn script_names(rules: &Self::Rules) -> Vec<String> {
            rules.script.list().iter().map(|s| s.name.clone()).collect()
        }

        fn script_fired(state: &Self::State) -> Vec<u32> {
            $crate::script::session::HouseRules::session(state)
                .map_or_else(Vec::new, |s| s.fired.clone())
        }
    };
}

/// The two ways to end a game that only house rules bring (the keys
/// [`crate::script::END_KEYS`]), the last of the `END_REASONS` of every
/// game that offers scripts.
pub const SCRIPT_ENDS: [Stat; 2] = [
    Stat::new(crate::script::END_KEYS[0], "a house rule ends it", "script"),
    Stat::new(
        crate::script::END_KEYS[1],
        "a house rule fails",
        "scr. fail",
    ),
];

/// The `END_REASONS` of a game that offers scripts: its own, then
/// [`SCRIPT_ENDS`] (`N` is two more than `own` has: checked when built).
pub const fn with_script_ends<const N: usize>(own: &[Stat]) -> [Stat; N] {
    assert!(N == own.len() + SCRIPT_ENDS.len());
    let mut out = [SCRIPT_ENDS[0]; N];
    let mut i = 0;
    while i < own.len() {
        out[i] = own[i];
        i += 1;
    }
    out[N - 1] = SCRIPT_ENDS[1];
    out
}

/// The rule event of house rules written as scripts: the runs that changed
/// the game, the last of the `RULE_EVENTS` of every game that offers
/// scripts ([`with_script_event`]). Reports show it only for rules with
/// scripts, as the ends they bring.
pub const SCRIPT_EVENT: RuleEvent = event(
    "script",
    "house-rule runs that changed the game",
    &["script"],
);

/// The `RULE_EVENTS` of a game that offers scripts: its own, then
/// [`SCRIPT_EVENT`] (`N` is one more than `own` has: checked when built).
pub const fn with_script_event<const N: usize>(own: &[RuleEvent]) -> [RuleEvent; N] {
    assert!(N == own.len() + 1);
    let mut out = [SCRIPT_EVENT; N];
    let mut i = 0;
    while i < own.len() {
        out[i] = own[i];
        i += 1;
    }
    out
}

/// [`events_in_order`] of a game that offers scripts: its own counts by
/// name, then the runs of its house rules that changed the game
/// ([`SCRIPT_EVENT`]).
pub fn script_events_in_order(
    events: &[RuleEvent],
    named: &[(&str, i64)],
    state: &impl crate::script::session::HouseRules,
) -> Vec<u32> {
    debug_assert_eq!(events.last(), Some(&SCRIPT_EVENT));
    let mut counts = events_in_order(events, named);
    if let Some(last) = counts.last_mut() {
        *last = state.script_fired_total();
    }
    counts
}

/// `game_type!(Name, Rules)`: the unit type a game module is seen by
/// through [`Game`], and [`RulesHead`] for its rules type (with the fields
/// `name` and `description`, [`rules_head!`](crate::rules_head)).
#[macro_export]
macro_rules! game_type {
    ($name:ident, $rules:ty) => {
        /// The game, as the generic layers see it.
        #[derive(Clone, Copy, Debug)]
        pub struct $name;

        $crate::rules_head!($rules);
    };
}

/// `key_words! { enum ... }`: an enum whose variants are the words a
/// variant key takes, in the file's spelling: the derives every such enum
/// has (copied, compared, ordered and hashed, read and written by serde,
/// described by the schema), once. Its own attributes (its doc,
/// `serde(rename_all)`, a further derive) and variants pass through.
#[macro_export]
macro_rules! key_words {
    ($(#[$attr:meta])* $vis:vis enum $name:ident { $($body:tt)* }) => {
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            ::serde::Serialize,
            ::serde::Deserialize,
            ::schemars::JsonSchema,
        )]
        $(#[$attr])*
        $vis enum $name { $($body)* }
    };
}

/// `rules_head!(Rules)`: [`RulesHead`] for a rules type with the fields
/// `name` and `description`.
#[macro_export]
macro_rules! rules_head {
    ($rules:ty) => {
        impl $crate::games::RulesHead for $rules {
            fn name(&self) -> &str {
                &self.name
            }
            fn description(&self) -> &str {
                &self.description
            }
        }
    };
}

/// One game of the toolkit: everything the generic layers need from it.
///
/// The first group is **the minimum**: what a new game must write (its
/// rules, its state and actions and their text, who moves, the scores; the
/// end is the state's [`GameState::outcome`]). Every item after it is
/// optional, grouped by what it serves (variant files, the table and its
/// pictures, statistics, bots), each with a default that works for any game.
/// `docs/adding-a-game.md` walks through them; `tests/tiny_game.rs` builds a
/// game of the minimum and runs it through the generic layers.
///
/// New hooks are added as provided methods (a default every game gets), in
/// the group they serve, so no game has to change for them.
pub trait Game: Sized + Send + Sync + 'static {
    // ===================================================================
    // The minimum: required of every game.
    // ===================================================================

    /// The value of a variant file's `game` key (`"roots-and-shoots"`).
    const ID: &'static str;
    /// The game's name in words (`"Roots and Shoots"`).
    const TITLE: &'static str;

    /// The resolved rules: every key present, the engine's only input. Its
    /// JSON form is the shape of a variant file with every key set, and has
    /// the string keys `name` and `description` ([`RulesHead`]).
    type Rules: RulesHead
        + Clone
        + Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// The raw variant file, every key optional: the source of the game's
    /// JSON Schema (its doc comments are what an editor shows).
    type File: schemars::JsonSchema;
    /// A node of the game tree.
    type State: GameState<Action: Send + Sync> + Debug + Send + Sync + 'static;

    /// The shipped variants, the standard one first.
    fn builtins() -> &'static [Builtin];
    /// A line of help for a value of `key` out of its range in a variant
    /// file (why the range is what it is, and the standard value), said
    /// under `roots validate`'s error; none by default (the error names
    /// the limit).
    fn range_help(_key: &str) -> Option<&'static str> {
        None
    }
    /// The standard rules (the first built-in, resolved).
    fn standard() -> Self::Rules;
    /// The seat counts the rules can be played with.
    fn seats(rules: &Self::Rules) -> RangeInclusive<u8>;
    /// The seat count a command uses when none is given: the variant's own
    /// count when it allows only one, else 2 if it allows 2, else its fewest.
    fn default_seats(rules: &Self::Rules) -> u8 {
        let seats = Self::seats(rules);
        2.clamp(*seats.start(), *seats.end())
    }
    /// A new game of `seats` players (within [`Game::seats`]).
    fn new_state(rules: Arc<Self::Rules>, seats: u8) -> Result<Self::State, String>;
    /// The action's text form, as written in records; it reads back with
    /// [`Game::parse_action`].
    fn format_action(state: &Self::State, action: ActionOf<Self>) -> String;
    /// An action's text form back to the action (records).
    fn parse_action(state: &Self::State, text: &str) -> Result<ActionOf<Self>, String>;
    /// What the node waits for, in words (`seat 2 chooses a growth action`).
    fn describe_node(state: &Self::State) -> String;
    /// The seat whose turn it is (also at chance nodes).
    fn turn_seat(state: &Self::State) -> Seat;
    /// The name of a turn that every seat plays in together, when `state`
    /// is in one (Roots and Shoots' first turn: "the first turn"); `None`,
    /// the default, when the turn is [`Game::turn_seat`]'s own. Turns are
    /// numbered for a person (`replay --list`, `view`, `--until turn:N`)
    /// from it: such a turn is one turn, whoever acts in it.
    fn shared_turn(state: &Self::State) -> Option<&'static str> {
        let _ = state;
        None
    }
    /// Each seat's score now.
    fn scores(state: &Self::State) -> Vec<i32>;

    // ===================================================================
    // Optional: variant files.
    // ===================================================================

    /// Designer and year, for `roots games`.
    const BY: &'static str = "";
    /// The change `roots new` suggests trying with `--set` (`KEY=VALUE`),
    /// when the game has a telling one; `None` lets the command pick the
    /// first whole-number or word key of the rules.
    const EXAMPLE_SET: Option<&'static str> = None;

    /// The JSON Schema of the game's variant files, from [`Game::File`]
    /// (defaults are filled in by the variant layer). Not for a game to
    /// override.
    fn file_schema() -> schemars::Schema {
        schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<Self::File>()
    }
    /// The variant's name. Not for a game to override.
    fn name(rules: &Self::Rules) -> &str {
        rules.name()
    }
    /// The checks across keys that the schema cannot make: errors and
    /// warnings, each placed with the [`Checker`]. The default finds none.
    fn check(rules: &Self::Rules, c: &Checker<'_>) -> Vec<Diagnostic> {
        let _ = (rules, c);
        Vec::new()
    }
    /// The rules sheet in words (`roots explain`), given the rules that
    /// differ from the standard ones; `None` (the default) lets the variant
    /// layer write one from the schema, pointing at `docs/games/<ID>.md`.
    fn explain(rules: &Self::Rules, changes: &[Change]) -> Option<String> {
        let _ = (rules, changes);
        None
    }
    /// What a change of `key` from `a` to `b` means for play, in words
    /// (`roots diff`); `None` when the values say it all.
    fn meaning(key: &str, a: &Self::Rules, b: &Self::Rules) -> Option<String> {
        let _ = (key, a, b);
        None
    }
    /// The rules text the game is read from, in words (`*Roots and Shoots
    /// rules v. 1* (Tom Gale, 2007)`), for the notes of the rules sheet.
    const RULES_TEXT: &'static str = "";
    /// Where the rules sheet reads the rules text: every statement of the
    /// sheet that the text does not make, or makes differently, carries the
    /// mark of one of these (`[Q1]`), and the sheet ends with their notes.
    /// The list is the one of the game's page in `docs/` (a test holds them
    /// equal). The default: none.
    fn readings() -> &'static [sheet::Reading] {
        &[]
    }

    // ===================================================================
    // Optional: the engine's text and checks.
    // ===================================================================

    /// The name of the card of face `face` at the draw node of `state`
    /// ([`crate::core::protocol::Next::Draw`]), as records and the referee
    /// write it. Games without cards never draw.
    fn format_draw(state: &Self::State, face: u8) -> String {
        let _ = state;
        face.to_string()
    }
    /// A card's name typed at the table or read from a record, back to its
    /// face at the draw node of `state`.
    fn parse_draw(state: &Self::State, text: &str) -> Result<u8, String> {
        let _ = state;
        text.trim()
            .parse()
            .map_err(|_| format!("expected a card, found `{text}`"))
    }
    /// What a person typed at the table: the text form or a shorthand.
    fn interpret(state: &Self::State, text: &str) -> Result<ActionOf<Self>, String> {
        Self::parse_action(state, text)
    }
    /// What the game offers house rules written as scripts (`[[script]]`
    /// in a variant file: `docs/scripts.md`): its hook points and the
    /// `ctx` its scripts see. The default offers none: a variant of the
    /// game with scripts is refused.
    fn script_api() -> Option<&'static crate::script::Api> {
        None
    }
    /// Whether these rules carry house rules written as scripts. The
    /// default (a game that offers none) says no. Reports leave out the
    /// ways to end that only scripts bring ([`crate::script::END_KEYS`])
    /// for rules without them, so an unscripted variant's report is what
    /// it was before scripts existed.
    fn has_scripts(rules: &Self::Rules) -> bool {
        let _ = rules;
        false
    }
    /// The names of these rules' house rules written as scripts, in the
    /// order [`Game::script_fired`] counts them. The default: none.
    fn script_names(rules: &Self::Rules) -> Vec<String> {
        let _ = rules;
        Vec::new()
    }
    /// For each house rule of a finished game ([`Game::script_names`]'
    /// order), how many of its runs changed the game; empty without
    /// scripts. The rule event `script` is their sum.
    fn script_fired(state: &Self::State) -> Vec<u32> {
        let _ = state;
        Vec::new()
    }
    /// Recount the state from scratch and compare (property tests). The
    /// default checks nothing.
    fn check_invariants(state: &Self::State) -> Result<(), String> {
        let _ = state;
        Ok(())
    }
    /// Why a house rule (a script of the variant file) stopped this game,
    /// if one did: the message names the rule, its hook and the event. The
    /// default, for a game without scripts, is none.
    fn script_failure(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }

    // ===================================================================
    // Optional: presentation (the terminal, the referee's words, pictures).
    // ===================================================================

    /// How to type the game's moves at the prompt: lines of `  NAME  TEXT`.
    const ACTION_HELP: &'static str = "  an action      its text form, as `legal` lists it";
    /// A note on the notation (how cells are named), or empty.
    const NOTATION_HELP: &'static str = "";
    /// What the narration says when scores change during a step
    /// (`it rained`).
    const SCORES_CHANGED: &'static str = "scores";

    /// The letter of a seat on the drawn board (`A` for the first seat).
    fn seat_letter(seat: Seat) -> char {
        crate::core::draw::seat_letter(seat)
    }
    /// The seat's letter for a person, coloured when `colour`.
    fn seat_tag(seat: Seat, colour: bool) -> String {
        crate::core::draw::paint(
            &Self::seat_letter(seat).to_string(),
            crate::core::draw::seat_colour(seat),
            colour,
        )
    }
    /// A decision as a person reads it (`replay --list`): the record's text
    /// form unless the game has words of its own (Roots and Shoots: `grow
    /// new plant (d4)` for the record's `grow new_plant`).
    fn action_words(state: &Self::State, action: ActionOf<Self>) -> String {
        Self::format_action(state, action)
    }
    /// The legal actions in words, for a person at the terminal: every one
    /// of them, counted (`legal (3): a, b, c`), never cut short.
    fn legal_text(state: &Self::State) -> String {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        let words: Vec<String> = legal
            .iter()
            .map(|a| Self::format_action(state, *a))
            .collect();
        counted_list(words.len(), &words, ", ")
    }
    /// The board as plain text (scenario tests, records, logs). The default
    /// says what the node waits for and the scores.
    fn draw(state: &Self::State) -> String {
        let scores: Vec<String> = Self::scores(state)
            .iter()
            .enumerate()
            .map(|(s, v)| format!("{} {v}", Self::seat_letter(s as Seat)))
            .collect();
        format!(
            "{}\nscores: {}\n",
            Self::describe_node(state),
            scores.join(", ")
        )
    }
    /// The board for a person at the terminal, with seat names and, when
    /// `colour`, ANSI colours.
    fn draw_for_people(state: &Self::State, names: &[String], colour: bool) -> String {
        let _ = (names, colour);
        Self::draw(state)
    }
    /// The last move in words, one line said under the board a person sees
    /// (`last move: ...`); `None` when there is none to say.
    fn last_move(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
    /// What the terminal shows: [`Game::draw_for_people`], then the line of
    /// [`Game::last_move`]. Not for a game to override.
    fn board_for_people(state: &Self::State, names: &[String], colour: bool) -> String {
        let mut board = Self::draw_for_people(state, names, colour);
        if let Some(line) = Self::last_move(state) {
            board.push_str(&line);
            board.push('\n');
        }
        board
    }
    /// The board as structured data, for programs (the engine protocol's
    /// `board.data`); `None` when the game gives only its drawing.
    fn board_data(state: &Self::State) -> Option<serde_json::Value> {
        let _ = state;
        None
    }
    /// What the referee says after an event (a roll of `roll`, or a
    /// decision) took the game from `before` to `after`, a line each, beyond
    /// the event itself. The default says what each seat scored and its
    /// total; a game adds its own outcomes (Roots and Shoots: a roll that
    /// places nothing, whether a nutrient spawns and why, rain, beads lost).
    fn narrate(before: &Self::State, roll: Option<u8>, after: &Self::State) -> Vec<String> {
        let _ = roll;
        let (a, b) = (Self::scores(before), Self::scores(after));
        a.iter()
            .zip(&b)
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(s, (x, y))| {
                format!(
                    "{} scores {:+} (total {y})",
                    Self::seat_letter(s as Seat),
                    i64::from(*y) - i64::from(*x)
                )
            })
            .collect()
    }
    /// The position as a picture: a complete, self-contained SVG document
    /// drawn the way the physical game looks (`roots replay --svg`, `roots
    /// view`). `names` are the players, seat 1 first. The default is the
    /// text board ([`Game::draw`]) in an SVG, so a new game has a picture
    /// from the start; `docs/adding-a-game.md` says how to draw a real one.
    fn svg(state: &Self::State, names: &[String]) -> String {
        let _ = names;
        crate::core::svg::text_picture(&Self::draw(state), Self::TITLE)
    }
    /// A seat's colour in pictures and charts (`roots view`'s score chart)
    /// and the outline it is drawn with (empty for none): the beads'
    /// colours ([`crate::core::svg::seat_fill`]) unless the game's pieces
    /// have their own, so that a chart's lines match the stones.
    fn seat_colour(seat: Seat) -> (&'static str, &'static str) {
        (crate::core::svg::seat_fill(seat), "")
    }
    /// Where on the picture of [`Game::svg`] (its coordinates) a person
    /// clicks to pick each of `actions` (legal at `state`), for the web
    /// table (`roots serve`): the cell the action is about. Several actions
    /// may share a point (a click there offers them all); `None` for one
    /// that has no place (pass, end the turn), offered as a button. The
    /// default gives no points: the game has no clickable picture, and the
    /// table offers every action as a button (the notation's text).
    fn click_points(state: &Self::State, actions: &[ActionOf<Self>]) -> Vec<Option<(f64, f64)>> {
        let _ = state;
        vec![None; actions.len()]
    }

    // ===================================================================
    // Optional: statistics (`roots simulate` and its reports).
    // ===================================================================

    /// The ways a game can end, in the order reports list them. The
    /// default has one: the game ended.
    const END_REASONS: &'static [Stat] = &[Stat::new("over", "the game ended", "over")];
    /// The counts reported per game, in report order (the winning margin is
    /// added by the simulator). The default has none.
    const COUNTERS: &'static [Stat] = &[];
    /// The index in [`Game::COUNTERS`] of the measure of game length drawn
    /// as a histogram (none when there are no counters).
    const LENGTH: usize = 0;
    /// Rolls and decisions after which a game of the smoke simulation
    /// counts as stalled.
    fn step_budget(rules: &Self::Rules, seats: u8) -> u64 {
        let _ = (rules, seats);
        1_000_000
    }
    /// The safety limit of the rules, if the game has one.
    fn safety_limit(rules: &Self::Rules) -> Option<SafetyLimit> {
        let _ = rules;
        None
    }
    /// Whether a game goes on past its safety limit (an engine fault).
    fn past_limit(state: &Self::State) -> bool {
        let _ = state;
        false
    }
    /// How a finished game ended: an index into [`Game::END_REASONS`].
    fn end_reason(state: &Self::State) -> usize {
        let _ = state;
        0
    }
    /// The counters of a finished game, in [`Game::COUNTERS`] order.
    fn counters(state: &Self::State) -> Vec<u32> {
        let _ = state;
        vec![0; Self::COUNTERS.len()]
    }
    /// The game's rule events (rule coverage: `docs/statistics.md`).
    const RULE_EVENTS: &'static [RuleEvent] = &[];
    /// Whether the rules let the rule event `key` happen at all: reports
    /// do not list as "never happened" an event the variant rules out (an
    /// ability used where abilities are off). The default: every event can.
    fn rule_event_possible(rules: &Self::Rules, key: &str) -> bool {
        let _ = (rules, key);
        true
    }
    /// How often each rule event fired in a finished game, in
    /// [`Game::RULE_EVENTS`] order.
    fn rule_events(state: &Self::State) -> Vec<u32> {
        let _ = state;
        Vec::new()
    }
    /// The lead in [`Game::evaluate`] worth odds of e to 1: turns the
    /// evaluation into each seat's chance of winning for the tension
    /// measures. The default is the scale of the game's cut playouts, else 1.
    fn eval_scale() -> f64 {
        match Self::playout() {
            Playout::Cut { scale, .. } => scale,
            Playout::ToTheEnd => 1.0,
        }
    }
    /// A cheap key of the position (a Zobrist hash), for the repeated
    /// positions measure; `None` when the game has none (the measure then
    /// needs `--measures full`).
    fn position_key(state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }
    /// How many actions [`GameState::legal_actions`] would list at a
    /// decision, when the game can tell without listing them (the
    /// branching measure reads it at every decision of a simulation);
    /// `None`: the simulator lists them.
    fn legal_count(state: &Self::State) -> Option<usize> {
        let _ = state;
        None
    }
    /// The board's cells ever used by the end of a game, and its cells,
    /// for the coverage measure; `None` when the game does not say.
    fn board_use(state: &Self::State) -> Option<(u32, u32)> {
        let _ = state;
        None
    }

    // ===================================================================
    // Optional: bots.
    // ===================================================================

    /// The game's own bot for `spec`, drawing its randomness from (a copy
    /// of) `dice`; `None` (the default) seats the generic one
    /// ([`crate::bots::build`]).
    fn bot(spec: BotSpec, dice: &SeededDice) -> Option<Box<dyn Player<Self::State> + Send>> {
        let _ = (spec, dice);
        None
    }
    /// A static evaluation of the position for `seat`, higher is better
    /// (greedy and search bots). The default is the seat's lead over the
    /// best other seat.
    fn evaluate(state: &Self::State, seat: Seat) -> f64 {
        let scores = Self::scores(state);
        let own = scores.get(usize::from(seat)).copied().unwrap_or(0);
        let best_other = scores
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != usize::from(seat))
            .map(|(_, v)| *v)
            .max()
            .unwrap_or(0);
        f64::from(own) - f64::from(best_other)
    }
    /// The one-step value of each of `actions` for `seat`, the seat
    /// deciding at `state`: into `out` (cleared first), in the order of
    /// `actions`, [`Game::evaluate`] for `seat` of the position after the
    /// action. Greedy's prices, which the guided search ranks a node's
    /// actions by ([`crate::core::player::Growth`]). The default plays each
    /// action on a copy ([`action_values_on_copies`]); a game that prices
    /// moves from one reading of the position (Roots Growy Roots) gives the
    /// same values, to the bit, faster.
    fn action_values(
        state: &Self::State,
        seat: Seat,
        actions: &[ActionOf<Self>],
        out: &mut Vec<f64>,
    ) {
        action_values_on_copies::<Self>(state, seat, actions, out);
    }
    /// Every seat's [`Game::evaluate`] of the position, seat 1 first, into
    /// `out` (cleared first): the tension measures read it after every
    /// decision of a simulation. The default evaluates each seat in turn; a
    /// game whose evaluation works out every seat's standing anyway (Roots
    /// and Shoots) gives them all from one pass.
    fn evaluate_all(state: &Self::State, seats: usize, out: &mut Vec<f64>) {
        out.clear();
        out.extend((0..seats).map(|s| Self::evaluate(state, s as Seat)));
    }
    /// The bot `simulate`, `compare`, `sweep` and `tune` seat when `--bots`
    /// is not given: the strongest bot the game's ladder found at a cost a
    /// run of a thousand games affords (the README's "Bot strength" table,
    /// `scripts/bot-strength.sh`). A game's greedy bot may plan more than
    /// one decision (Sprout-R-Out plans whole turns).
    const DEFAULT_BOT: BotSpec = BotSpec::Greedy;
    /// How the generic search ([`crate::bots::MctsBot`]) ends its playouts.
    /// The default plays them out at random to the end of the game; a game
    /// whose random playouts say little (Branches & Twigs & Thorns) cuts
    /// them short and lets [`Game::evaluate`] judge the position.
    fn playout() -> Playout {
        Playout::ToTheEnd
    }
    /// How the generic bots ([`crate::bots::generic`]) are tuned for this
    /// game: greedy's margin and whole-turn beam, the search's growth. The
    /// default is the plain bots ([`Style::PLAIN`]).
    fn style() -> Style {
        Style::PLAIN
    }
}

/// [`Game::action_values`] as every game may give it: each action played on
/// a copy of `state`, then [`Game::evaluate`] for `seat`. The default, and
/// what a game's faster pricing is checked against.
pub fn action_values_on_copies<G: Game>(
    state: &G::State,
    seat: Seat,
    actions: &[ActionOf<G>],
    out: &mut Vec<f64>,
) {
    out.clear();
    out.extend(actions.iter().map(|&a| {
        let mut next = state.clone();
        next.play_unchecked(a);
        G::evaluate(&next, seat)
    }));
}

/// Test support for the searches: `chosen` is one of the actions greedy
/// prices best at `state` for `seat` ([`action_values_on_copies`]), and
/// the search spent `evaluations`, one a legal action.
#[cfg(test)]
pub(crate) fn assert_a_best_price<G: Game>(
    state: &G::State,
    seat: Seat,
    chosen: ActionOf<G>,
    evaluations: u64,
) {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let (mut prices, mut mine) = (Vec::new(), Vec::new());
    action_values_on_copies::<G>(state, seat, &legal, &mut prices);
    action_values_on_copies::<G>(state, seat, &[chosen], &mut mine);
    let best = prices.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert!((mine[0] - best).abs() < 1e-9, "{} against {best}", mine[0]);
    assert_eq!(evaluations, legal.len() as u64);
}

/// A game of the registry ([`games_registry!`](crate::games_registry)):
/// its rules go into an [`AnyRules`] (a loaded variant, a record's header)
/// and back. Written by the registry for every game in it.
pub trait Registered: Game {
    /// The game's id.
    const GAME: GameId;
    /// The rules as the enum of every game's rules.
    fn wrap(rules: Arc<Self::Rules>) -> AnyRules;
    /// The rules of this game, if `rules` are.
    fn unwrap(rules: &AnyRules) -> Option<&Arc<Self::Rules>>;
}

/// The registry: every game of the toolkit, one line each
/// (`Name = module::Type`), in the order `roots games` lists them; the first
/// is the game of a file that names none. Adding a game is a line here and
/// its module. From this list come [`GameId`], [`AnyRules`],
/// [`Registered`], [`with_game!`](crate::with_game) and
/// [`with_game_id!`](crate::with_game_id).
#[macro_export]
#[doc(hidden)]
macro_rules! games_registry {
    ($then:ident ! ($($args:tt)*)) => {
        $crate::$then! { ($($args)*)
            RootsAndShoots = roots_and_shoots::RootsAndShoots,
            Branches = branches::Branches,
            SproutROut = sprout_r_out::SproutROut,
            RootsGrowyRoots = roots_growy_roots::RootsGrowyRoots,
        }
    };
}

/// The items the registry generates (called once, below).
#[macro_export]
#[doc(hidden)]
macro_rules! __games_items {
    (() $($v:ident = $($p:ident)::+,)*) => {
        /// The games, by their `game` key.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameId {
            $($v,)*
        }

        impl GameId {
            /// Every game, in the order `roots games` lists them.
            pub const ALL: &'static [GameId] = &[$(GameId::$v,)*];
            /// How many games there are.
            pub const COUNT: usize = GameId::ALL.len();

            /// The value of the `game` key.
            pub fn key(self) -> &'static str {
                match self {
                    $(GameId::$v => <$crate::games::$($p)::+ as Game>::ID,)*
                }
            }

            /// The game's name in words.
            pub fn title(self) -> &'static str {
                match self {
                    $(GameId::$v => <$crate::games::$($p)::+ as Game>::TITLE,)*
                }
            }

            /// Designer and year.
            pub fn by(self) -> &'static str {
                match self {
                    $(GameId::$v => <$crate::games::$($p)::+ as Game>::BY,)*
                }
            }

            /// The game's help for a value of `key` out of range
            /// ([`Game::range_help`]).
            pub fn range_help(self, key: &str) -> Option<&'static str> {
                match self {
                    $(GameId::$v => <$crate::games::$($p)::+ as Game>::range_help(key),)*
                }
            }

            /// The shipped variants of the game, the standard one first.
            pub fn builtins(self) -> &'static [Builtin] {
                match self {
                    $(GameId::$v => <$crate::games::$($p)::+ as Game>::builtins(),)*
                }
            }
        }

        /// Resolved rules of any game: what loading a variant gives.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyRules {
            $($v(Arc<<$crate::games::$($p)::+ as Game>::Rules>),)*
        }

        impl AnyRules {
            /// The game the rules are for.
            pub fn game(&self) -> GameId {
                match self {
                    $(AnyRules::$v(_) => GameId::$v,)*
                }
            }
        }

        $(
            impl Registered for $crate::games::$($p)::+ {
                const GAME: GameId = GameId::$v;
                fn wrap(rules: Arc<Self::Rules>) -> AnyRules {
                    AnyRules::$v(rules)
                }
                fn unwrap(rules: &AnyRules) -> Option<&Arc<Self::Rules>> {
                    match rules {
                        AnyRules::$v(r) => Some(r),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*
    };
}

/// One arm's body of [`with_game!`](crate::with_game) and
/// [`with_game_id!`](crate::with_game_id): `$body` with `$g` the game.
#[macro_export]
#[doc(hidden)]
macro_rules! __game_arm {
    ($g:ident = $($p:ident)::+ => $body:expr) => {{
        #[allow(unused_imports)]
        use $crate::games::{Game as _, Registered as _};
        #[allow(dead_code)]
        type $g = $crate::games::$($p)::+;
        $body
    }};
}

/// The arms of [`with_game!`](crate::with_game).
#[macro_export]
#[doc(hidden)]
macro_rules! __with_game_arms {
    (($any:expr, $g:ident, $r:ident, $body:expr) $($v:ident = $($p:ident)::+,)*) => {
        match $any {
            $($crate::games::AnyRules::$v($r) => $crate::__game_arm!($g = $($p)::+ => $body),)*
        }
    };
}

/// The arms of [`with_game_id!`](crate::with_game_id).
#[macro_export]
#[doc(hidden)]
macro_rules! __with_game_id_arms {
    (($id:expr, $g:ident, $body:expr) $($v:ident = $($p:ident)::+,)*) => {
        match $id {
            $($crate::games::GameId::$v => $crate::__game_arm!($g = $($p)::+ => $body),)*
        }
    };
}

/// `with_game!(any_rules, G, rules => expr)`: evaluate `expr` with `G` the
/// concrete game of `any_rules` and `rules: &Arc<G::Rules>`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident, $r:ident => $body:expr) => {
        $crate::games_registry!(__with_game_arms!($any, $g, $r, $body))
    };
}

/// `with_game_id!(id, G => expr)`: evaluate `expr` with `G` the game `id`.
#[macro_export]
macro_rules! with_game_id {
    ($id:expr, $g:ident => $body:expr) => {
        $crate::games_registry!(__with_game_id_arms!($id, $g, $body))
    };
}

crate::games_registry!(__games_items!());

impl GameId {
    /// The game of a file that names none: every file written before there
    /// were several games (the registry's first).
    pub const DEFAULT: GameId = GameId::ALL[0];

    /// The id of game `G`.
    pub fn of<G: Game>() -> GameId {
        *GameId::ALL
            .iter()
            .find(|g| g.key() == G::ID)
            .expect("every Game is registered in GameId")
    }

    /// The `$id` of the game's schema. Variant files point at their schema
    /// by relative path, so this is only a stable name; the first game's
    /// keeps its historical one.
    pub fn schema_id(self) -> String {
        if self == GameId::DEFAULT {
            "urn:roots:schema:variant:1".to_owned()
        } else {
            format!("urn:roots:schema:{self}:1")
        }
    }

    /// The command that prints the game's schema.
    pub fn schema_command(self) -> String {
        if self == GameId::DEFAULT {
            "roots schema".to_owned()
        } else {
            format!("roots schema --game {self}")
        }
    }

    /// The game's default bot ([`Game::DEFAULT_BOT`]).
    pub fn default_bot(self) -> BotSpec {
        crate::with_game_id!(self, G => G::DEFAULT_BOT)
    }

    /// The position of the game in [`GameId::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn parse(key: &str) -> Option<GameId> {
        GameId::ALL.iter().copied().find(|g| g.key() == key)
    }

    /// The schema's file name under `schema/`.
    pub fn schema_file(self) -> String {
        if self == GameId::DEFAULT {
            // The first game's schema keeps its historical name, so that
            // the `#:schema` lines of existing files keep working.
            "variant.schema.json".to_owned()
        } else {
            format!("{self}.schema.json")
        }
    }

    /// The game a built-in variant name belongs to.
    pub fn of_builtin(name: &str) -> Option<(GameId, &'static str)> {
        GameId::ALL.iter().find_map(|g| {
            g.builtins()
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, text)| (*g, *text))
        })
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl AnyRules {
    /// The variant's name.
    pub fn name(&self) -> &str {
        crate::with_game!(self, G, r => G::name(r))
    }

    /// The seat counts the rules allow.
    pub fn seats(&self) -> RangeInclusive<u8> {
        crate::with_game!(self, G, r => G::seats(r))
    }

    /// The seat count a command uses when none is given ([`Game::default_seats`]).
    pub fn default_seats(&self) -> u8 {
        crate::with_game!(self, G, r => G::default_seats(r))
    }

    /// The rules as JSON (the shape of a complete variant file).
    pub fn to_json(&self) -> serde_json::Value {
        crate::with_game!(self, G, r => serde_json::to_value(&**r).unwrap_or(serde_json::Value::Null))
    }

    /// Rules of game `game` from their JSON form (a record header).
    pub fn from_json(game: GameId, value: serde_json::Value) -> Result<AnyRules, String> {
        crate::with_game_id!(game, G => {
            let rules: <G as Game>::Rules =
                serde_json::from_value(value).map_err(|e| e.to_string())?;
            Ok(G::wrap(Arc::new(rules)))
        })
    }

    /// The rules as a complete variant file (`roots show`): every key, the
    /// `game` key first for every game but the default one.
    pub fn to_toml(&self) -> Result<String, String> {
        let body =
            crate::with_game!(self, G, r => toml::to_string(&**r).map_err(|e| e.to_string()))?;
        let game = self.game();
        Ok(if game == GameId::DEFAULT {
            body
        } else {
            format!("game = \"{game}\"\n{body}")
        })
    }

    /// The Roots and Shoots rules, if these are.
    pub fn roots_and_shoots(&self) -> Option<&roots_and_shoots::Rules> {
        roots_and_shoots::RootsAndShoots::unwrap(self).map(|r| &**r)
    }
}

/// The legal moves at the prompt, the same way in every game: how many
/// (`count`), then `parts` joined by `sep` (`legal (3): a, b, c`; a game
/// may group several moves in one part, as Roots and Shoots' `place at
/// (8): ...`).
pub fn counted_list(count: usize, parts: &[String], sep: &str) -> String {
    if parts.is_empty() {
        "nothing to decide here".to_owned()
    } else {
        format!("legal ({count}): {}", parts.join(sep))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels_fit<G: Game>() {
        for s in G::END_REASONS {
            assert!(s.label.chars().count() <= 28, "{}: {}", G::ID, s.label);
            assert!(s.short.chars().count() <= 9, "{}: {}", G::ID, s.short);
        }
        for s in G::COUNTERS {
            assert!(s.label.chars().count() <= 24, "{}: {}", G::ID, s.label);
            assert!(s.short.chars().count() <= 9, "{}: {}", G::ID, s.short);
        }
        assert!(G::LENGTH < G::COUNTERS.len(), "{}", G::ID);
    }

    /// The report's columns are 24 (counts) and 28 (ways to end) wide.
    #[test]
    fn statistics_labels_fit_the_report() {
        for &g in GameId::ALL {
            crate::with_game_id!(g, G => labels_fit::<G>());
        }
    }

    #[test]
    fn every_builtin_resolves_to_its_game() {
        for &g in GameId::ALL {
            for (name, _) in g.builtins() {
                let loaded =
                    crate::variant::resolve_builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(loaded.rules.game(), g, "{name}");
                assert_eq!(GameId::of_builtin(name).map(|(g, _)| g), Some(g));
            }
        }
    }
}
