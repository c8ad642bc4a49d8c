//! Roots and Shoots (Tom Gale, 2007): dice and beads on a Go board, as a
//! [`GameState`], with its variant keys, rules sheet, drawing, statistics and
//! bots. The rules as the engine plays them: `docs/games/roots-and-shoots.md`.
//!
//! [`GameState`]: crate::core::protocol::GameState

pub mod action;
pub mod board;
pub mod bots;
pub mod check;
pub mod draw;
pub mod explain;
pub mod file;
pub mod legal;
pub mod meaning;
pub mod narrate;
pub mod removal;
pub mod rules;
pub mod script;
pub mod state;
pub mod svg;

use std::ops::RangeInclusive;
use std::sync::Arc;

pub use action::Action;
pub use rules::Rules;
pub use state::{DanglingEnd, EndReason, Nutrient, Player, SetupError, State, Stats};

use crate::core::diagnostic::{Checker, Diagnostic};
use crate::core::dice::SeededDice;
use crate::core::player::{BotSpec, Player as SeatPlayer};
use crate::core::protocol::Seat;
use crate::games::{Builtin, Game, RuleEvent, SafetyLimit, Stat, event};
use crate::script::session::HouseRules as _;

/// The standard variant's file, embedded: the one source of the built-in rules.
pub const STANDARD_TOML: &str = include_str!("../../../variants/standard.toml");

/// The shipped variants, by name.
pub const BUILTINS: &[Builtin] = &[
    ("standard", STANDARD_TOML),
    (
        "fewer-beads",
        include_str!("../../../variants/fewer-beads.toml"),
    ),
    (
        "more-beads",
        include_str!("../../../variants/more-beads.toml"),
    ),
    (
        "fewer-nutrients",
        include_str!("../../../variants/fewer-nutrients.toml"),
    ),
    (
        "more-nutrients",
        include_str!("../../../variants/more-nutrients.toml"),
    ),
    (
        "one-nutrient-per-turn",
        include_str!("../../../variants/one-nutrient-per-turn.toml"),
    ),
    (
        "pre-rolled-values",
        include_str!("../../../variants/pre-rolled-values.toml"),
    ),
];

impl Rules {
    /// The built-in standard variant (the 2007 rules with our readings).
    pub fn standard() -> Rules {
        toml::from_str(STANDARD_TOML)
            .expect("the embedded standard variant is a complete, valid variant")
    }
}

crate::game_type!(RootsAndShoots, Rules);

impl Game for RootsAndShoots {
    fn range_help(key: &str) -> Option<&'static str> {
        Some(match key {
            "players.max" | "players.min" => {
                "every player's first bead goes on one of the 8 points around the centre, so 8 players at most"
            }
            "board.size" => {
                "the board is a square of 5x5 to 25x25 points; the standard board is 19x19"
            }
            "beads.supply" | "beads.store" => {
                "the standard game has 6 beads in the store and 60 in the supply"
            }
            "nutrients.supply" => {
                "the standard game has 40 nutrients; the game ends when they run out"
            }
            "nutrients.max_on_board" => {
                "the standard game allows 11 nutrients on the board at once"
            }
            "end.max_rounds" => "this is a safety limit; the standard game uses 300",
            "severing.per_turn" => {
                "0 turns severing off; the standard game allows 1 struggle per turn"
            }
            _ => return None,
        })
    }

    const ID: &'static str = "roots-and-shoots";
    const TITLE: &'static str = "Roots and Shoots";
    const BY: &'static str = "Tom Gale, 2007";
    const RULES_TEXT: &'static str = "Tom Gale's Roots and Shoots rules v. 1, 2007";
    const EXAMPLE_SET: Option<&'static str> = Some("beads.supply=35");

    type Rules = Rules;
    type File = file::VariantFile;
    type State = State;

    crate::game_hooks!(self: rules, sheet, scripts);

    fn seats(rules: &Rules) -> RangeInclusive<u8> {
        rules.players.min..=rules.players.max
    }

    fn check(rules: &Rules, c: &Checker<'_>) -> Vec<Diagnostic> {
        check::check(rules, c)
    }

    fn new_state(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        State::new(rules, seats).map_err(|e| e.to_string())
    }

    fn format_action(state: &State, action: Action) -> String {
        action.to_text(state.grid())
    }

    fn parse_action(state: &State, text: &str) -> Result<Action, String> {
        Action::parse(state.grid(), text)
    }

    fn action_words(state: &State, action: Action) -> String {
        match action {
            Action::Grow(g) => action::grow_words(state, g),
            _ => Self::format_action(state, action),
        }
    }

    fn interpret(state: &State, text: &str) -> Result<Action, String> {
        action::interpret(state, text)
    }

    fn describe_node(state: &State) -> String {
        state.describe_node()
    }

    fn turn_seat(state: &State) -> Seat {
        state.turn_seat()
    }

    fn shared_turn(state: &State) -> Option<&'static str> {
        state.in_first_turn().then_some("the first turn")
    }

    const ACTION_HELP: &'static str =
        "  an action      grow buds | place 3,4 | pass | spawn 3,4 | lose 3,4
  shorthands     3,4 (place, spawn or lose, as the moment needs);
                 grow 8 or d8 (the growth action that rolls the d8);
                 a number: the face of a die you rolled (--dice manual)";
    const NOTATION_HELP: &'static str =
        "Points are x,y: column then row, counted from 0,0 in the top left corner.";
    const SCORES_CHANGED: &'static str = "it rained";

    fn legal_text(state: &State) -> String {
        action::legal_text(state)
    }

    fn draw(state: &State) -> String {
        draw::draw(state)
    }

    /// `size`; `beads`, a row per y of seat numbers (from 1) or null;
    /// `nutrients` with their point and value (null until rolled); each
    /// seat's score, store, supply and beads on the board; the pile; the round.
    fn board_data(state: &State) -> Option<serde_json::Value> {
        let grid = state.grid();
        let n = i32::from(grid.size());
        let beads: Vec<Vec<Option<u16>>> = (0..n)
            .map(|y| {
                (0..n)
                    .map(|x| {
                        grid.point(x, y)
                            .and_then(|p| state.bead(p))
                            .map(|s| u16::from(s) + 1)
                    })
                    .collect()
            })
            .collect();
        let nutrients: Vec<serde_json::Value> = state
            .nutrients()
            .iter()
            .map(|nu| {
                let (x, y) = grid.xy(nu.point);
                serde_json::json!({"x": x, "y": y, "value": nu.value})
            })
            .collect();
        let players: Vec<serde_json::Value> = state
            .players()
            .iter()
            .enumerate()
            .map(|(s, p)| {
                serde_json::json!({
                    "seat": s + 1,
                    "score": p.score,
                    "store": p.store,
                    "supply": p.supply,
                    "on_board": p.on_board(),
                })
            })
            .collect();
        Some(serde_json::json!({
            "size": grid.size(),
            "beads": beads,
            "nutrients": nutrients,
            "players": players,
            "nutrient_pile": state.nutrient_supply(),
            "round": state.round(),
        }))
    }

    fn draw_for_people(state: &State, names: &[String], colour: bool) -> String {
        board::render(state, names, colour)
    }

    /// The last move: the beads of the roll being played out, else of the
    /// last roll that placed any.
    fn last_move(state: &State) -> Option<String> {
        let at: Vec<String> = state.last_beads().map(|p| state.grid().name(p)).collect();
        if at.is_empty() {
            return None;
        }
        let which = if state.placed.is_empty() {
            "last roll's beads"
        } else {
            "this roll's beads"
        };
        Some(format!("{which}: {}", at.join(" ")))
    }

    fn narrate(before: &State, roll: Option<u8>, after: &State) -> Vec<String> {
        narrate::narrate(before, roll, after)
    }

    fn svg(state: &State, names: &[String]) -> String {
        svg::svg(state, names)
    }

    fn click_points(state: &State, actions: &[Action]) -> Vec<Option<(f64, f64)>> {
        svg::click_points(state, actions)
    }

    fn check_invariants(state: &State) -> Result<(), String> {
        state.check_invariants()
    }

    fn script_failure(state: &State) -> Option<String> {
        state.script_failure().map(str::to_owned)
    }

    fn scores(state: &State) -> Vec<i32> {
        state.players().iter().map(|p| p.score).collect()
    }

    const END_REASONS: &'static [Stat] = &crate::games::with_script_ends::<5>(&[
        Stat {
            key: "nutrients_out",
            label: "the nutrient pile runs out",
            short: "nutr. out",
            flag: false,
        },
        Stat {
            key: "beads_out",
            label: "a player's beads run out",
            short: "beads out",
            flag: false,
        },
        Stat {
            key: "round_limit",
            label: "the round limit is reached",
            short: "limit",
            flag: false,
        },
    ]);

    const COUNTERS: &'static [Stat] = &[
        Stat::ROUNDS,
        Stat::TURNS,
        Stat {
            key: "placements",
            label: "beads placed",
            short: "placement",
            flag: false,
        },
        Stat {
            key: "rains",
            label: "rains",
            short: "rains",
            flag: false,
        },
        Stat {
            key: "struggles",
            label: "struggles",
            short: "struggles",
            flag: false,
        },
        Stat {
            key: "severings",
            label: "severings",
            short: "severings",
            flag: false,
        },
        Stat {
            key: "spawns",
            label: "nutrients spawned",
            short: "spawns",
            flag: false,
        },
        Stat {
            key: "nutrients_scored",
            label: "nutrients scored",
            short: "nutrients",
            flag: false,
        },
        Stat {
            key: "points_lost",
            label: "points lost to splits",
            short: "points_lo",
            flag: false,
        },
        Stat {
            key: "lead_changes",
            label: "lead changes",
            short: "lead_chan",
            flag: false,
        },
    ];

    fn step_budget(rules: &Rules, seats: u8) -> u64 {
        // 1,000 per seat and round of the limit, at least a million. A random
        // standard game takes a few thousand steps; a turn that cannot end is
        // caught well before this.
        (u64::from(rules.end.max_rounds) * u64::from(seats) * 1_000).max(1_000_000)
    }

    fn safety_limit(rules: &Rules) -> Option<SafetyLimit> {
        Some(SafetyLimit::round_limit(
            2,
            rules.end.max_rounds,
            "the round limit is a safety net: make the supplies smaller or raise `end.max_rounds`",
        ))
    }

    fn past_limit(state: &State) -> bool {
        state.round() > state.rules().end.max_rounds
    }

    fn end_reason(state: &State) -> usize {
        match state.end_reason().unwrap_or(EndReason::RoundLimit) {
            EndReason::NutrientsOut => 0,
            EndReason::BeadsOut => 1,
            EndReason::RoundLimit => 2,
            EndReason::Script => 3,
            EndReason::ScriptError => 4,
        }
    }

    fn counters(state: &State) -> Vec<u32> {
        let st = state.stats();
        vec![
            state.round(),
            st.turns,
            st.placements,
            st.rains,
            st.struggles,
            st.severings,
            st.spawns,
            st.nutrients_scored,
            st.points_lost,
            st.lead_changes,
        ]
    }

    const RULE_EVENTS: &'static [RuleEvent] = &crate::games::with_script_event::<10>(&[
        event("rain", "rains", &[]),
        event("spawn_on_root", "spawns that hit a root", &[]),
        event("struggle", "struggles", &["severing.per_turn"]),
        event(
            "struggle_won",
            "struggles won",
            &["severing.winner_occupies"],
        ),
        event("struggle_lost", "struggles lost", &[]),
        event(
            "bead_removed",
            "beads taken off the board",
            &["removal.lost_ends", "beads.removed_go_to"],
        ),
        event("lost_end", "beads lost with a cut end", &[]),
        event("first_reroll", "first-turn nutrient rerolls", &[]),
        event(
            "pile_emptied",
            "a bead pile emptied",
            &["beads.supply", "end.beads_out"],
        ),
    ]);

    fn rule_events(state: &State) -> Vec<u32> {
        let st = state.stats();
        vec![
            st.rains,
            st.spawn_removals,
            st.struggles,
            st.severings,
            st.struggles - st.severings,
            st.severings + st.spawn_removals,
            st.beads_lost_to_ends,
            st.first_rerolls,
            st.piles_emptied,
            state.script_fired_total(),
        ]
    }

    fn eval_scale() -> f64 {
        // The curve of the bots' own chance of winning (`eval::win_chance`).
        15.0
    }

    fn board_use(state: &State) -> Option<(u32, u32)> {
        let beads: u32 = state.players().iter().map(|p| p.on_board()).sum();
        Some((beads, state.grid().points() as u32))
    }

    /// The bots of this module for greedy and search; random and external
    /// players are the generic ones.
    fn bot(spec: BotSpec, dice: &SeededDice) -> Option<Box<dyn SeatPlayer<State> + Send>> {
        if matches!(spec, BotSpec::Random | BotSpec::Cmd { .. }) {
            return None;
        }
        let dice = dice.clone();
        Some(match spec {
            BotSpec::Greedy => Box::new(bots::FastGreedyBot::new(dice)),
            BotSpec::GreedyV1 => Box::new(bots::GreedyBot::new(dice)),
            BotSpec::Search => Box::new(bots::search::SearchBot::new(dice)),
            BotSpec::Mcts { iterations } => Box::new(bots::MctsBot::new(dice, iterations)),
            BotSpec::MctsV1 { iterations } => Box::new(bots::MctsBot::v1(dice, iterations)),
            BotSpec::MctsTime { millis } => Box::new(bots::MctsBot::with_budget(
                dice,
                crate::core::player::Budget::Millis(millis),
            )),
            BotSpec::Random | BotSpec::Cmd { .. } => return None,
        })
    }

    fn evaluate(state: &State, seat: Seat) -> f64 {
        bots::eval::advantage(state, seat)
    }

    fn evaluate_all(state: &State, _seats: usize, out: &mut Vec<f64>) {
        bots::eval::advantages(state, out);
    }

    fn legal_count(state: &State) -> Option<usize> {
        state.placement_count()
    }
}
