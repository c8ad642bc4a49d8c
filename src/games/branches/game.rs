//! Branches & Twigs & Thorns as the generic layers see it: the [`Game`]
//! implementation over this module's rules, state, text and statistics.

use std::sync::Arc;

use crate::core::player::BotSpec;
use crate::core::protocol::Seat;
use crate::games::{Game, RuleEvent, Stat, event};

use super::{Rules, State};

crate::game_type!(Branches, Rules);

impl Game for Branches {
    crate::game_hooks!(super: module, resolve_check, rules, seats, sheet, pictures, state, text, eval, scripts);

    const TITLE: &'static str = "Branches & Twigs & Thorns";
    const BY: &'static str = "Andrew Plotkin, 2002";
    const RULES_TEXT: &'static str =
        "the Looney Pyramids wiki's Branches & Twigs & Thorns page, after Andrew Plotkin's rules";

    fn new_state(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        crate::games::admit_seats(&rules.name, rules.seats(), seats)?;
        // The board graph is the same for every game of a run: a game
        // after the first on this thread starts from the last one's fixed
        // tables (`State::fresh`, the same state as `State::new` with the
        // same house rules), where building them was a fifth of a random
        // game's work.
        thread_local! {
            static LAST: std::cell::RefCell<Option<(Arc<Rules>, u8, State)>> =
                const { std::cell::RefCell::new(None) };
        }
        LAST.with_borrow_mut(|last| match last {
            Some((r, n, s)) if Arc::ptr_eq(r, &rules) && *n == seats => Ok(s.fresh()),
            _ => {
                let s = State::new(&rules, seats).with_scripts()?;
                *last = Some((rules, seats, s.fresh()));
                Ok(s)
            }
        })
    }

    fn describe_node(state: &State) -> String {
        super::describe_node(state)
    }

    fn turn_seat(state: &State) -> Seat {
        state.to_move()
    }

    const ACTION_HELP: &'static str =
        "  a pyramid      c2 2 W: cell, size (1 small, 2 medium, 3 large), direction
                 it points (N, E, S or W); also `c2 medium west`, `C2-2w`
  a marker       null b1 | root c1 (setup); a bare cell places the marker due
  pass           when the variant lets a player with no move pass";
    const NOTATION_HELP: &'static str = "Cells are a column letter and a row number, a1 in the bottom left corner; `board` draws them.";
    const SCORES_CHANGED: &'static str = "coins change hands";

    /// `cells`: each cell by name with what it holds (`empty`, `null`,
    /// `root`, or a pyramid's seat from 1, size and direction); each seat's
    /// score, coins and stash of small, medium and large pyramids.
    fn board_data(state: &State) -> Option<serde_json::Value> {
        use super::state::Piece;
        use serde_json::json;
        let board = state.board();
        let cells: Vec<serde_json::Value> = (0..board.cells())
            .filter_map(|c| u8::try_from(c).ok())
            .map(|c| {
                let name = board.name(c);
                match state.piece(c) {
                    Piece::Empty => json!({"cell": name, "piece": "empty"}),
                    Piece::Null => json!({"cell": name, "piece": "null"}),
                    Piece::Root => json!({"cell": name, "piece": "root"}),
                    Piece::Pyramid { seat, size, dir } => json!({
                        "cell": name,
                        "piece": "pyramid",
                        "seat": u16::from(seat) + 1,
                        "size": size,
                        "dir": dir.letter().to_string(),
                    }),
                }
            })
            .collect();
        let scores = state.scores();
        let coins = state.coins();
        let seats: Vec<serde_json::Value> = (0..state.players())
            .map(|s| {
                json!({
                    "seat": u16::from(s) + 1,
                    "score": scores.get(usize::from(s)),
                    "coins": coins.get(usize::from(s)),
                    "stash": state.stash(s),
                })
            })
            .collect();
        Some(json!({"cells": cells, "players": seats, "coin_resets": state.coin_resets()}))
    }

    const END_REASONS: &'static [Stat] = &crate::games::with_script_ends::<5>(&[
        Stat::new("board_full", "the board is full", "full"),
        Stat::new("stashes_empty", "every stash is empty", "stashes"),
        Stat::new("no_moves", "nobody can point anywhere", "no moves"),
    ]);

    const COUNTERS: &'static [Stat] = &[
        Stat::new("plies", "moves", "moves"),
        Stat::new("pyramids_placed", "pyramids placed", "pyramids"),
        Stat::new("pointed_at_root", "pointed at a root", "at root"),
        Stat::new("pointed_at_own", "pointed at own pyramid", "at own"),
        Stat::new("penalties_paid", "penalties paid", "penalties"),
        Stat::new("coins_to_pot", "coins paid to the pot", "to pot"),
        Stat::new("coins_to_owners", "coins paid to owners", "to owners"),
        Stat::new("coin_resets", "coin resets", "resets"),
        Stat::PASSES,
    ];

    fn end_reason(state: &State) -> usize {
        // No reason, or one not listed: nobody could move.
        Stat::index(Self::END_REASONS, super::end_reason(state), 2)
    }

    fn counters(state: &State) -> Vec<u32> {
        crate::games::counts_in_order(Self::COUNTERS, &super::counters(state))
    }

    const RULE_EVENTS: &'static [RuleEvent] = &crate::games::with_script_event::<6>(&[
        event("penalty", "penalties paid", &["scoring.owner_paid_by"]),
        event("coin_reset", "coin resets", &["coins.reset"]),
        event("stuck", "a player could not place", &["play.when_stuck"]),
        event("pointed_at_root", "pyramids pointed at a root", &[]),
        event("pointed_at_own", "pyramids pointed at own", &[]),
    ]);

    fn rule_events(state: &State) -> Vec<u32> {
        let c = super::counters(state);
        let get = |k: &str| crate::games::named_count(&c, k);
        let ended_stuck = i64::from(super::end_reason(state) == Some("no_moves"));
        crate::games::script_events_in_order(
            Self::RULE_EVENTS,
            &[
                ("penalty", get("penalties_paid")),
                ("coin_reset", get("coin_resets")),
                ("stuck", get("passes") + ended_stuck),
                ("pointed_at_root", get("pointed_at_root")),
                ("pointed_at_own", get("pointed_at_own")),
            ],
            state,
        )
    }

    /// The guided search: it beats greedy by a wide margin and, through
    /// its seeded playouts, plays varied games (104 distinct results in 200
    /// games of `btt-martian-go`, greedy 11), at about 90 games a second.
    const DEFAULT_BOT: BotSpec = BotSpec::Mcts { iterations: 100 };

    fn playout() -> crate::core::player::Playout {
        super::eval::playout()
    }

    /// The search at its default budget (`mcts` without a number) is the
    /// look-ahead of `eval.rs` ([`super::eval::SEARCH`]); every other spec
    /// seats the generic bot.
    fn bot(
        spec: BotSpec,
        dice: &crate::core::dice::SeededDice,
    ) -> Option<Box<dyn crate::core::player::Player<State> + Send>> {
        match spec {
            BotSpec::Search => Some(Box::new(
                crate::games::lookahead::LookaheadBot::<Self>::new(
                    dice.clone(),
                    super::eval::search(),
                    "mcts",
                ),
            )),
            _ => None,
        }
    }
}
