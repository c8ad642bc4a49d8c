//! Roots Growy Roots as the generic layers see it.

use std::sync::Arc;

use crate::core::diagnostic::{Checker, Diagnostic};
use crate::core::dice::SeededDice;
use crate::core::player::{BotSpec, Player};
use crate::core::protocol::Seat;
use crate::games::{Game, RuleEvent, SafetyLimit, Stat, event};
use crate::script::session::HouseRules as _;

use super::{Action, Rules, State, text};

crate::game_type!(RootsGrowyRoots, Rules);

/// The search `mcts` (no number) plays: greedy's 8 best-priced moves, each
/// valued one decision further (every card it may turn over weighed by
/// the cards of that kind left, then the mover's best-priced next move; a
/// turn passed to another seat is valued by the evaluation as it stands).
/// Tuned on seeds 1-8 against greedy (`docs/games/roots-growy-roots.md`,
/// "The search", has what else was tried); `mcts:N` is still the generic
/// search.
pub const SEARCH: crate::games::expecti::Expecti =
    crate::games::expecti::Expecti::new(8, 1, 2, false);

impl Game for RootsGrowyRoots {
    crate::game_hooks!(super: module, rules, seats, sheet, pictures, state, text, eval, scripts);

    const TITLE: &'static str = "Roots Growy Roots";
    const BY: &'static str = "Global Game Jam 2023 team";
    const RULES_TEXT: &'static str =
        "the Global Game Jam 2023 team's rules, with their deck sheets and board pictures";

    fn check(rules: &Rules, c: &Checker<'_>) -> Vec<Diagnostic> {
        super::rules::check(rules)
            .into_iter()
            .map(|p| {
                // A deck is a table: the mistake is placed at the first of
                // its keys the file sets.
                if p.path.ends_with("deck") {
                    let keys: Vec<String> = ["earth", "fertilizer", "water", "stone"]
                        .iter()
                        .map(|k| format!("{}.{k}", p.path))
                        .collect();
                    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
                    c.error(c.pick(&refs), p.message)
                } else {
                    c.error(&p.path, p.message)
                }
            })
            .collect()
    }

    fn new_state(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        State::new(rules, seats)?.with_scripts()
    }

    fn format_draw(_state: &State, face: u8) -> String {
        text::card_name(face).to_owned()
    }

    fn parse_draw(_state: &State, text: &str) -> Result<u8, String> {
        text::parse_card(text)
    }

    fn describe_node(state: &State) -> String {
        text::describe_node(state)
    }

    fn turn_seat(state: &State) -> Seat {
        state.to_move()
    }

    const ACTION_HELP: &'static str =
        "  grow           D6: a stick from your connector to the neighbouring cell D6
                 (any of 8 directions); D5-D6 names the connector when
                 several reach D6 (only at the start of a turn)
  bridge         bridge D6: for 3 sticks, from your connector to D6, two cells
                 away in a straight line, over a connector on the cell between
  end            end the turn (unspent sticks are lost)
  artifacts      with artifacts.abilities (rgr-artifacts), once each, on your
                 turn: skry D6, jump D6, deny 2 (a seat), destroy D6, dry D6
  a card         at the table, type what the turned card shows: earth,
                 fertilizer, water, stone, skry, jump, deny, destroy, dry";
    const NOTATION_HELP: &'static str =
        "Cells are a row letter (A at the top) and a column number (1 on the left), like D6.";
    const SCORES_CHANGED: &'static str = "scores";

    const END_REASONS: &'static [Stat] = &crate::games::with_script_ends::<6>(&[
        Stat::new("last_artifact", "the last artifact was found", "artifact"),
        Stat::new("all_claimed", "every artifact was claimed", "claimed"),
        Stat::new("blocked", "nobody could grow", "blocked"),
        Stat::new("round_limit", "the round limit", "rounds"),
    ]);

    const COUNTERS: &'static [Stat] = &[
        Stat::TURNS,
        Stat::ROUNDS,
        Stat::new("sticks_spent", "sticks spent", "spent"),
        Stat::new("sticks_lost", "sticks lost", "lost"),
        Stat::new("bridges", "bridges", "bridges"),
        Stat::new("stones_hit", "stones hit", "stones"),
        Stat::new("cards_turned", "cards turned over", "turned"),
        Stat::new("voluntary_ends", "turns ended by choice", "ended"),
        Stat::new("blocked_turns", "turns blocked at start", "blocked"),
        Stat::new("water_points", "points for water", "water pts"),
        Stat::new("artifact_points", "points for artifacts", "artf pts"),
        Stat::new("branch_points", "points for branches", "brch pts"),
        Stat::new("longest_points", "points for longest root", "long pts"),
        Stat::flag("decided_by_branches", "won by the branch bonus", "by brch"),
        Stat::flag("decided_by_longest", "won by the longest root", "by long"),
    ];

    fn step_budget(rules: &Rules, seats: u8) -> u64 {
        // Each turn has one step that ends it without a connector (an end,
        // a stone, a blocked start) and every other step puts a connector
        // or a stone on a cell, at most two steps per cell.
        let b = rules.board(seats);
        u64::from(rules.end.max_rounds) * u64::from(seats) * 2
            + 4 * u64::from(b.rows) * u64::from(b.columns)
            + 16
    }

    fn safety_limit(rules: &Rules) -> Option<SafetyLimit> {
        Some(SafetyLimit::round_limit(
            3,
            rules.end.max_rounds.into(),
            "raise end.max_rounds, or look at why games do not find the last artifact",
        ))
    }

    fn past_limit(state: &State) -> bool {
        state.round() > state.rules().end.max_rounds
    }

    fn end_reason(state: &State) -> usize {
        text::end_reason(state)
    }

    /// Read in `COUNTERS`' order at once (every game of a run asks): the
    /// named counts put in that order, to the value (checked in debug
    /// builds).
    fn counters(state: &State) -> Vec<u32> {
        let values = text::counter_values(state);
        debug_assert_eq!(
            values,
            crate::games::counts_in_order(Self::COUNTERS, &text::counters(state))
        );
        values
    }

    const RULE_EVENTS: &'static [RuleEvent] = &crate::games::with_script_event::<13>(&[
        event("bridge", "bridges", &[]),
        event("stone_hit", "stones hit", &[]),
        event("card_turned", "cards turned over", &[]),
        event("earth_drawn", "earth cards turned over", &[]),
        event(
            "fertilizer_drawn",
            "fertilizer cards turned over",
            &["turn.fertilizer"],
        ),
        event(
            "water_drawn",
            "water cards turned over",
            &["turn.water_income"],
        ),
        event("stone_drawn", "stone cards turned over", &[]),
        event("artifact_drawn", "hidden artifacts turned over", &[]),
        event("blocked_turn", "turns blocked at start", &[]),
        event("stick_lost", "sticks lost", &[]),
        event("ability_used", "artifact abilities used", &[]),
        event("turn_denied", "turns denied", &[]),
    ]);

    fn rule_event_possible(rules: &Rules, key: &str) -> bool {
        key != "ability_used" || rules.artifacts.abilities
    }

    fn rule_events(state: &State) -> Vec<u32> {
        let t = state.tally;
        vec![
            t.bridges,
            t.stones_hit,
            t.cards_turned,
            t.drawn[0],
            t.drawn[1],
            t.drawn[2],
            t.drawn[3],
            t.drawn[4],
            t.blocked_turns,
            t.sticks_lost,
            t.abilities_used,
            t.turns_denied,
            state.script_fired_total(),
        ]
    }

    /// The generic greedy's decisions (exact ties, one decision: this
    /// game's [`Style`]), priced without copies; `mcts` (no number) the
    /// expectimax look-ahead [`SEARCH`]; `greedy-v1` is the generic bot
    /// that copies, `mcts:N` and every other bot the generic one.
    fn bot(spec: BotSpec, dice: &SeededDice) -> Option<Box<dyn Player<State> + Send>> {
        match spec {
            BotSpec::Greedy => Some(Box::new(super::greedy::FastGreedy::new(dice.clone()))),
            BotSpec::Search => Some(Box::new(crate::games::expecti::ExpectiBot::<Self>::new(
                dice.clone(),
                SEARCH,
                "mcts",
            ))),
            _ => None,
        }
    }

    /// Greedy's prices, from one reading of the position (the same values
    /// as the copies of the default, to the bit: checked in debug builds).
    fn action_values(state: &State, seat: Seat, actions: &[Action], out: &mut Vec<f64>) {
        super::greedy::action_values(state, seat, actions, out);
        #[cfg(debug_assertions)]
        {
            let mut copies = Vec::new();
            crate::games::action_values_on_copies::<Self>(state, seat, actions, &mut copies);
            assert!(
                out.iter()
                    .zip(&copies)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
                    && out.len() == copies.len(),
                "{out:?} priced, {copies:?} on copies"
            );
        }
    }

    fn evaluate_all(state: &State, _seats: usize, out: &mut Vec<f64>) {
        text::evaluate_all(state, out)
    }

    fn legal_count(state: &State) -> Option<usize> {
        state.legal_count()
    }

    /// Random playouts to the end say little here (the generic search with
    /// 100 iterations lost 86.7% of 60 games to greedy, `roots ladder
    /// roots-growy-roots --bots greedy,mcts:100 -n 60 --seed 1`), and random
    /// moves before the evaluation only add noise: a playout stops at once,
    /// and at a card about to be drawn, whose expectation over the cards
    /// left the evaluation takes; a lead of 2 points is worth odds of e
    /// to one. Cut after 8 random decisions, the cards sampled, the search
    /// was level with greedy (50.0% of 180 games).
    fn playout() -> crate::core::player::Playout {
        crate::core::player::Playout::Cut {
            decisions: 0,
            scale: 2.0,
            at_draw: true,
        }
    }
}
