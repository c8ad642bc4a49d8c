//! Sprout-R-Out as the generic layers see it: the [`Game`] implementation.
//!
//! The engine's [`Rules`] are flat; a variant file has a `[board]` and a
//! `[rules]` table. [`Variant`] is the resolved file (every key present, with
//! the name and description), the shape the variant pipeline merges and a
//! record embeds; [`Variant::engine`] gives the engine its rules.

use std::ops::RangeInclusive;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::core::diagnostic::{Checker, Diagnostic};
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{Builtin, Game, RuleEvent, Stat, event};

use super::{
    BoardShape, EndCheck, EyeDetection, EyeMemory, Groups, Repetition, Rules, State, StrictOrder,
    StuckRemoval, Territory, Tie, VariantFile,
};

/// The shipped variants, the designer's rules first.
pub const BUILTINS: &[Builtin] = &[
    (
        "sprout-r-out",
        include_str!("../../../variants/sprout-r-out.toml"),
    ),
    (
        "sprout-r-out-ludii",
        include_str!("../../../variants/sprout-r-out-ludii.toml"),
    ),
];

/// A resolved Sprout-R-Out variant: a complete variant file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    pub name: String,
    pub description: String,
    pub board: VariantBoard,
    pub rules: VariantRules,
    /// House rules written as scripts (`docs/scripts.md`); absent from
    /// the JSON of rules without them, so their records are unchanged.
    #[serde(default, skip_serializing_if = "crate::script::Scripts::is_empty")]
    pub script: crate::script::Scripts,
}

/// The `[board]` table, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantBoard {
    pub shape: BoardShape,
    pub groups: Groups,
}

/// The `[rules]` table, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantRules {
    pub repetition: Repetition,
    pub end_check: EndCheck,
    pub tie: Tie,
    pub eye_detection: EyeDetection,
    pub eye_memory: EyeMemory,
    pub territory: Territory,
    pub stuck_removal: StuckRemoval,
    pub strict_order: StrictOrder,
}

impl Variant {
    /// The engine's rules.
    pub fn engine(&self) -> Rules {
        Rules {
            board: self.board.shape,
            groups: self.board.groups,
            repetition: self.rules.repetition,
            end_check: self.rules.end_check,
            tie: self.rules.tie,
            eye_detection: self.rules.eye_detection,
            eye_memory: self.rules.eye_memory,
            territory: self.rules.territory,
            stuck_removal: self.rules.stuck_removal,
            strict_order: self.rules.strict_order,
        }
    }

    /// A variant of the engine's rules.
    pub fn of(name: &str, description: &str, r: &Rules) -> Variant {
        Variant {
            script: crate::script::Scripts::default(),
            name: name.to_owned(),
            description: description.to_owned(),
            board: VariantBoard {
                shape: r.board,
                groups: r.groups,
            },
            rules: VariantRules {
                repetition: r.repetition,
                end_check: r.end_check,
                tie: r.tie,
                eye_detection: r.eye_detection,
                eye_memory: r.eye_memory,
                territory: r.territory,
                stuck_removal: r.stuck_removal,
                strict_order: r.strict_order,
            },
        }
    }

    /// The designer's rules, as the shipped `sprout-r-out.toml` says them.
    pub fn standard() -> Variant {
        let file: VariantFile = toml::from_str(BUILTINS[0].1)
            .expect("the embedded standard variant is a valid variant file");
        let rules = super::resolve(&Rules::standard(), &file)
            .expect("the embedded standard variant resolves");
        Variant::of(
            file.name.as_deref().unwrap_or("sprout-r-out"),
            file.description.as_deref().unwrap_or(""),
            &rules,
        )
    }
}

crate::game_type!(SproutROut, Variant);

fn letter(s: Seat) -> char {
    super::seat_letter(s)
}

impl Game for SproutROut {
    crate::game_hooks!(super: rules, sheet, pictures, state, text, eval, scripts);

    const ID: &'static str = "sprout-r-out";
    const TITLE: &'static str = "Sprout-R-Out";
    const BY: &'static str = "Dale W. Walton, 2021, revised 2023";
    const RULES_TEXT: &'static str = "Dale W. Walton's text on the game's Ludii page, revised 2023";

    type Rules = Variant;
    type File = VariantFile;
    type State = State;

    fn seats(rules: &Variant) -> RangeInclusive<u8> {
        rules.engine().seats()
    }

    fn check(rules: &Variant, c: &Checker<'_>) -> Vec<Diagnostic> {
        match super::resolve(&rules.engine(), &VariantFile::default()) {
            Ok(_) => Vec::new(),
            Err(problems) => crate::games::Problem::place(problems, c),
        }
    }

    fn new_state(rules: Arc<Variant>, seats: u8) -> Result<State, String> {
        crate::games::admit_seats(&rules.name, 2..=2, seats)?;
        State::new(&rules.engine(), seats).with_scripts(&rules.script, &rules.name)
    }

    fn describe_node(state: &State) -> String {
        match state.next() {
            Next::Over => {
                let reason = Stat::words(Self::END_REASONS, super::end_reason(state).unwrap_or(""));
                match state.outcome().map(|o| o.winners) {
                    Some(w) if w.len() == 1 => format!("over ({reason}): {} wins", letter(w[0])),
                    _ => format!("over ({reason}): a draw"),
                }
            }
            Next::Chance(_) | Next::Draw => "a roll".to_owned(),
            Next::Decide(s) => {
                let legal = state.legal();
                let what = if legal.pass {
                    "must pass"
                } else if state.sub() == 0 {
                    "places a stone outside both territories"
                } else if !legal.remove.is_empty() && legal.place.is_empty() {
                    "removes an enemy group that cannot be played against"
                } else if !legal.remove.is_empty() {
                    "plays against an enemy group or removes one"
                } else {
                    "plays a stone against an enemy group"
                };
                format!("{} {what} (turn {})", letter(s), state.turn())
            }
        }
    }

    fn turn_seat(state: &State) -> Seat {
        state.mover()
    }

    fn seat_letter(seat: Seat) -> char {
        super::seat_letter(seat)
    }

    const ACTION_HELP: &'static str =
        "  a placement    a cell label, like `c4` (a stone of yours goes there)
  a removal      remove c4: the enemy group holding c4 goes
  pass           when the rules leave nothing else";
    const NOTATION_HELP: &'static str = "Cells are named by a column letter and a row number; the board (`board`) prints every cell's name before its content: `C4.` is the empty cell C4, `D5X` a stone of X on D5.";
    const SCORES_CHANGED: &'static str = "territory";

    fn draw_for_people(state: &State, _names: &[String], _colour: bool) -> String {
        super::text::draw_for_people(state)
    }

    /// `cells`: each cell by label with its stone's seat (from 1) or null,
    /// and whether it is marked; the turn and sub-move.
    fn board_data(state: &State) -> Option<serde_json::Value> {
        use serde_json::json;
        let board = state.board();
        let marks = state.marks();
        let cells: Vec<serde_json::Value> = board
            .cells()
            .iter()
            .map(|c| {
                let seat = (0..2u8).find(|&s| state.stones(s).contains(c));
                json!({
                    "cell": board.label(c),
                    "stone": seat.map(|s| u16::from(s) + 1),
                    "marked": marks.contains(c),
                })
            })
            .collect();
        Some(
            json!({"board": board.name(), "cells": cells, "turn": state.turn(), "sub_move": state.sub()}),
        )
    }

    fn seat_colour(seat: Seat) -> (&'static str, &'static str) {
        (super::svg::stone_fill(seat), "#000000")
    }

    const END_REASONS: &'static [Stat] = &crate::games::with_script_ends::<4>(&[
        Stat::new("majority", "a territory passes half", "majority"),
        Stat::new("double_pass", "both players pass", "passes"),
    ]);

    const COUNTERS: &'static [Stat] = &[
        Stat::TURNS,
        Stat::new("sub_moves", "sub-moves", "sub-moves"),
        Stat::new("placements", "stones placed", "stones"),
        Stat::new("removals", "groups removed", "removals"),
        Stat::new("stuck_removals", "removals when stuck", "stuck"),
        Stat::PASSES,
        Stat::new("forced_passes", "passes forced (repeats)", "forced"),
        Stat::new("mid_turn_end", "games ended mid-turn", "mid-turn"),
        Stat::new("territory_1", "final territory, seat 1", "terr. 1"),
        Stat::new("territory_2", "final territory, seat 2", "terr. 2"),
    ];

    fn end_reason(state: &State) -> usize {
        // No reason, or one not listed: a majority.
        Stat::index(Self::END_REASONS, super::end_reason(state), 0)
    }

    fn counters(state: &State) -> Vec<u32> {
        let mut named = super::counters(state);
        let scores = state.territories();
        named.push(("territory_1", i64::from(scores[0])));
        named.push(("territory_2", i64::from(scores[1])));
        crate::games::counts_in_order(Self::COUNTERS, &named)
    }

    const RULE_EVENTS: &'static [RuleEvent] = &crate::games::with_script_event::<6>(&[
        event("removal", "groups removed", &[]),
        event(
            "stuck_removal",
            "removals when stuck",
            &["rules.stuck_removal"],
        ),
        event("pass", "passes", &[]),
        event(
            "repetition_refused",
            "passes forced by repetition",
            &["rules.repetition"],
        ),
        event(
            "eye_made",
            "eyes made",
            &["rules.eye_detection", "rules.eye_memory", "rules.territory"],
        ),
    ]);

    fn rule_events(state: &State) -> Vec<u32> {
        let c = super::counters(state);
        let get = |k: &str| crate::games::named_count(&c, k);
        crate::games::script_events_in_order(
            Self::RULE_EVENTS,
            &[
                ("removal", get("removals")),
                ("stuck_removal", get("stuck_removals")),
                ("pass", get("passes")),
                ("repetition_refused", get("forced_passes")),
                ("eye_made", get("eyes_made")),
            ],
            state,
        )
    }

    /// `mcts` (no number): the search over whole turns
    /// ([`super::search::SEARCH`]); `mcts:N` and every other bot the
    /// generic one.
    fn bot(
        spec: crate::core::player::BotSpec,
        dice: &crate::core::dice::SeededDice,
    ) -> Option<Box<dyn crate::core::player::Player<State> + Send>> {
        match spec {
            crate::core::player::BotSpec::Search => Some(Box::new(
                super::search::TurnSearchBot::new(dice.clone(), super::search::SEARCH, "mcts"),
            )),
            _ => None,
        }
    }

    fn eval_scale() -> f64 {
        // A lead of about two cells of territory.
        2.0
    }

    fn position_key(state: &State) -> Option<u64> {
        Some(state.position_hash())
    }

    fn board_use(state: &State) -> Option<(u32, u32)> {
        let stones = (state.stones(0) | state.stones(1)).iter().count();
        let cells = state.board().cells().iter().count();
        Some((stones as u32, cells as u32))
    }
}
