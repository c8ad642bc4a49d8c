//! Sprout-R-Out's search (`mcts` with no number): Monte Carlo over whole
//! turns.
//!
//! A turn is several sub-moves of one player (a placement, then a placement
//! or a removal against each enemy group), and the generic MCTS spreads a
//! small budget over every cell of every sub-move. This search decides a
//! whole turn at its first sub-move instead:
//!
//! 1. the turn planner's beam search (the `greedy` bot's: the `beam` best
//!    partial turns by the evaluation are extended until each turn ends)
//!    lists complete turns, each judged by the evaluation at its end;
//! 2. the `candidates` best distinct end positions (equal values ordered by
//!    the bot's dice, as greedy breaks its ties) are kept; a turn that wins
//!    the game outright is played at once;
//! 3. each candidate is judged by random playouts to the end of the game
//!    from its end position, by sequential halving: the budget of
//!    `playouts` is split over rounds, each round plays every remaining
//!    candidate equally often and keeps the better half by mean result
//!    (a win 1, a draw 1/2), the evaluation breaking ties;
//! 4. the first sub-move of the survivor is played, and the rest of the
//!    turn is kept as a plan: at each later sub-move of the same turn the
//!    bot plays the planned sub-move when the position is the one the plan
//!    expects there (else it plans again).
//!
//! The budget is a count of playouts, never a clock: a seed replays its
//! games.

use crate::core::dice::SeededDice;
use crate::core::player::{NoAction, Player};
use crate::core::protocol::{GameState, Next, Seat};

use crate::games::turns::{Turn, beam_turns};

use super::{Action, State};

/// Most sub-moves of one playout (a game ends long before).
const PLAYOUT_STEPS: u32 = 2_000;

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnSearch {
    /// Partial turns the beam keeps at each sub-move.
    pub beam: usize,
    /// Complete turns judged by playouts.
    pub candidates: usize,
    /// Playouts per turn decided.
    pub playouts: u32,
}

/// The default: `mcts` with no number.
/// Tuned on seeds 1-6 against `greedy` (50 games a seed, seats rotated;
/// `sprout-r-out` / `sprout-r-out-ludii`): 8 candidates and 160 playouts
/// scored 86.7% / 88.7% at 8.4 / 10.5 times greedy's CPU, 8 and 96
/// 86.3% / 80.0% at 5.6 / 7.0 times, 4 and 64 76.3% / 75.0% at 4.4 / 5.2
/// times.
pub const SEARCH: TurnSearch = TurnSearch {
    beam: 16,
    candidates: 8,
    playouts: 96,
};

/// A position the plan expects at a later sub-move of the turn, and the
/// sub-move to play there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    turn: u32,
    sub: u16,
    hash: u64,
    action: Action,
}

/// The search as a player.
#[derive(Debug)]
pub struct TurnSearchBot {
    dice: SeededDice,
    search: TurnSearch,
    name: String,
    /// The rest of the turn being played, next step first.
    plan: Vec<Step>,
    legal: Vec<Action>,
    /// Turns decided by a search so far.
    searches: u32,
}

impl TurnSearchBot {
    pub fn new(dice: SeededDice, search: TurnSearch, name: &str) -> TurnSearchBot {
        TurnSearchBot {
            dice,
            search,
            name: name.to_owned(),
            plan: Vec::new(),
            legal: Vec::with_capacity(64),
            searches: 0,
        }
    }

    /// The planned sub-move for `state`, when the plan expects it.
    fn planned(&mut self, state: &State) -> Option<Action> {
        let step = *self.plan.first()?;
        self.plan.remove(0);
        let here = state.turn() == step.turn
            && state.sub() == step.sub
            && state.position_hash() == step.hash
            && state.is_legal(step.action);
        if here {
            Some(step.action)
        } else {
            self.plan.clear();
            None
        }
    }

    /// The best `self.search.candidates` distinct turns, best first, equal
    /// values in an order drawn by the dice.
    fn candidates(&mut self, mut turns: Vec<Turn<State>>) -> Vec<Turn<State>> {
        // Shuffle, then a stable sort: ties in a random order.
        self.dice.shuffle(&mut turns);
        turns.sort_by(|a, b| b.value.total_cmp(&a.value));
        let mut kept: Vec<Turn<State>> = Vec::with_capacity(self.search.candidates);
        let mut seen: Vec<(u64, bool)> = Vec::with_capacity(self.search.candidates);
        for t in turns {
            if kept.len() >= self.search.candidates.max(1) {
                break;
            }
            let key = (t.end.position_hash(), t.end.next() == Next::Over);
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            kept.push(t);
        }
        kept
    }

    /// One random playout from `from` to the end; `seat`'s result (a win 1,
    /// a draw 1/2, a loss 0; a game not over within the limit counts as
    /// the evaluation's sign says).
    fn playout(&mut self, from: &State, seat: Seat) -> f64 {
        let mut state = from.clone();
        let mut steps = 0;
        while steps < PLAYOUT_STEPS && matches!(state.next(), Next::Decide(_)) {
            let a = state.random_action(&mut self.dice);
            state.play_unchecked(a);
            steps += 1;
        }
        result(&state, seat)
    }

    /// The index of the candidate sequential halving picks.
    fn halving(&mut self, turns: &[Turn<State>], seat: Seat) -> usize {
        let mut alive: Vec<usize> = (0..turns.len()).collect();
        let mut sums = vec![0.0f64; turns.len()];
        let mut counts = vec![0u32; turns.len()];
        let rounds = (usize::BITS - (turns.len().max(2) - 1).leading_zeros()).max(1);
        let per_round = self.search.playouts / rounds;
        while alive.len() > 1 {
            let each = (per_round / alive.len() as u32).max(1);
            for &i in &alive {
                for _ in 0..each {
                    sums[i] += self.playout(&turns[i].end, seat);
                    counts[i] += 1;
                }
            }
            let mean = |i: usize| sums[i] / f64::from(counts[i].max(1));
            // Stable: equal means keep the better evaluation first.
            alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)));
            alive.truncate(alive.len().div_ceil(2));
        }
        alive[0]
    }

    /// Decide a whole turn from `state` and return its first sub-move,
    /// keeping the rest as the plan.
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        self.searches += 1;
        let mut found = beam_turns(state, seat, self.search.beam, super::evaluate);
        let mut turns = self.candidates(std::mem::take(&mut found.found));
        let Some(top) = turns.first() else {
            return self.legal[0];
        };
        // A turn that wins at once, or the only one: no playouts.
        let wins_now = top.end.next() == Next::Over && result(&top.end, seat) == 1.0;
        let pick = if wins_now || turns.len() == 1 {
            0
        } else {
            self.halving(&turns, seat)
        };
        let turn = turns.swap_remove(pick);
        let actions = found.actions(&turn);
        // The plan: the position after each sub-move but the last, and the
        // sub-move to play there.
        let mut at = state.clone();
        at.play_unchecked(actions[0]);
        for &a in &actions[1..] {
            if at.next() != Next::Decide(seat) {
                break;
            }
            self.plan.push(Step {
                turn: at.turn(),
                sub: at.sub(),
                hash: at.position_hash(),
                action: a,
            });
            at.play_unchecked(a);
        }
        actions[0]
    }
}

/// `seat`'s result in a finished game: 1 for a win, 1/2 for a draw, 0 for
/// a loss; in a game not finished, by the sign of the evaluation.
fn result(state: &State, seat: Seat) -> f64 {
    match state.outcome() {
        Some(o) if o.winners.len() == 1 => f64::from(u8::from(o.winners[0] == seat)),
        Some(o) if o.winners.contains(&seat) => 0.5,
        Some(_) => 0.0,
        None => {
            let v = super::evaluate(state, seat);
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                0.0
            } else {
                0.5
            }
        }
    }
}

impl Player<State> for TurnSearchBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        let Next::Decide(seat) = state.next() else {
            self.plan.clear();
            return Ok(state.random_action(&mut self.dice));
        };
        if let Some(a) = self.planned(state) {
            return Ok(a);
        }
        state.legal_actions(&mut self.legal);
        match self.legal.len() {
            0 => return Ok(state.random_action(&mut self.dice)),
            1 => return Ok(self.legal[0]),
            _ => {}
        }
        Ok(self.decide(state, seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::graph::CellSet;
    use crate::games::sprout_r_out::{BoardShape, Rules};

    const SMALL: TurnSearch = TurnSearch {
        beam: 8,
        candidates: 4,
        playouts: 24,
    };

    /// Ludii's readings on Limping 3 after X's B4: removing O's A1 makes
    /// A1 an eye of X's big group and wins (the position of
    /// `tests/generic_mcts.rs`).
    fn near_a_win() -> State {
        let rules = Rules {
            board: BoardShape::Limping3,
            ..Rules::ludii()
        };
        let board = rules.board();
        let set = |labels: &[&str]| {
            let mut s = CellSet::EMPTY;
            for l in labels {
                s.insert(board.cell_of(l).unwrap());
            }
            s
        };
        let x = set(&[
            "A3", "B3", "C3", "D3", "E3", "F3", "A2", "B2", "C2", "D2", "E2", "B1", "C1", "D1",
        ]);
        let o = set(&["A1", "D6"]);
        State::setup(&rules, [x, o], [CellSet::EMPTY; 2], 0).unwrap()
    }

    /// Play `bot` for the seat to move until that seat's turn ends.
    fn play_turn(bot: &mut TurnSearchBot, state: &mut State) -> Vec<Action> {
        let seat = state.mover();
        let mut played = Vec::new();
        while state.next() == Next::Decide(seat) {
            let a = bot.choose(state).unwrap();
            assert!(state.is_legal(a), "{a:?} is not legal");
            state.play_unchecked(a);
            played.push(a);
        }
        played
    }

    /// X can end the game with a win this turn (remove A1 at some
    /// sub-move; every turn the beam lists here does, which the halving
    /// test relies on): the bot decides at the turn's first sub-move and
    /// plays the turn through its plan, every sub-move legal, to the win.
    #[test]
    fn the_search_plays_a_winning_turn_through() {
        for seed in 1..=5 {
            let mut state = near_a_win();
            let mut bot = TurnSearchBot::new(SeededDice::new(seed, 0), SMALL, "mcts");
            play_turn(&mut bot, &mut state);
            assert_eq!(state.next(), Next::Over, "seed {seed}");
            assert_eq!(state.outcome().unwrap().winners, vec![0], "seed {seed}");
        }
    }

    /// The playouts, not the evaluation's order, pick the turn: a turn
    /// that wins at once (from [`near_a_win`]), listed after three open
    /// turns (from the start of a game), survives the halving whatever
    /// the dice.
    #[test]
    fn the_halving_keeps_the_turn_the_playouts_prefer() {
        let search = TurnSearch {
            playouts: 200,
            ..SMALL
        };
        let bot = TurnSearchBot::new(SeededDice::new(1, 0), search, "mcts");
        let win = beam_turns(&near_a_win(), 0, bot.search.beam, super::super::evaluate)
            .found
            .into_iter()
            .find(|t| t.end.outcome().is_some_and(|o| o.winners == vec![0]))
            .expect("a winning turn");
        let open: Vec<Turn<State>> = beam_turns(
            &State::new(&Rules::standard(), 2),
            0,
            bot.search.beam,
            super::super::evaluate,
        )
        .found
        .into_iter()
        .filter(|t| t.end.outcome().is_none())
        .take(3)
        .collect();
        assert_eq!(open.len(), 3);
        let list: Vec<Turn<State>> = open.into_iter().chain([win]).collect();
        for seed in 1..=5 {
            let mut bot = TurnSearchBot::new(SeededDice::new(seed, 0), search, "mcts");
            assert_eq!(bot.halving(&list, 0), 3, "seed {seed}");
        }
    }

    /// Seeded random games: at the start of each of X's turns the bot
    /// decides a whole turn; its later sub-moves come from the plan and
    /// make exactly the turn decided (the plan's end position); a position
    /// the plan does not expect makes it plan again, with a legal answer.
    #[test]
    fn a_decided_turn_is_played_as_planned() {
        let mut checked = 0;
        for seed in 1..=4u64 {
            let mut dice = SeededDice::new(seed, 7);
            let mut state = State::new(&Rules::standard(), 2);
            let mut bot = TurnSearchBot::new(SeededDice::new(seed, 1), SMALL, "mcts");
            while state.next() != Next::Over {
                if state.mover() == 0 && state.sub() == 0 {
                    let before = state.clone();
                    let mut legal = Vec::new();
                    before.legal_actions(&mut legal);
                    let searches = bot.searches;
                    let turn = play_turn(&mut bot, &mut state);
                    // One search a turn, at its first sub-move when it
                    // had a choice.
                    if legal.len() > 1 {
                        assert_eq!(bot.searches, searches + 1, "seed {seed}: {turn:?}");
                    } else {
                        assert!(bot.searches <= searches + 1, "seed {seed}: {turn:?}");
                    }
                    // The plan was consumed, step by step.
                    assert!(bot.plan.is_empty(), "seed {seed}: plan left {:?}", bot.plan);
                    // The turn is one the beam lists from `before`.
                    let turns = beam_turns(&before, 0, bot.search.beam, super::super::evaluate);
                    assert!(
                        turns.found.iter().any(|t| turns.actions(t) == turn),
                        "seed {seed}: {turn:?} is not a turn of the beam"
                    );
                    checked += 1;
                } else {
                    let a = state.random_action(&mut dice);
                    state.play_unchecked(a);
                }
            }
        }
        assert!(checked > 20, "{checked} turns checked");
        // A plan made for one position, asked about another: planned again.
        let mut state = State::new(&Rules::standard(), 2);
        let mut bot = TurnSearchBot::new(SeededDice::new(9, 1), SMALL, "mcts");
        let a = bot.choose(&state).unwrap();
        assert!(state.is_legal(a));
        state.play_unchecked(a);
        if bot.plan.is_empty() {
            return;
        }
        let mut other = State::new(&Rules::standard(), 2);
        while other.next() == Next::Decide(0) && other.sub() == 0 {
            let mut legal = Vec::new();
            other.legal_actions(&mut legal);
            other.play_unchecked(*legal.last().unwrap());
        }
        if other.next() == Next::Decide(0) {
            let b = bot.choose(&other).unwrap();
            assert!(
                other.is_legal(b),
                "{b:?} after a position the plan did not expect"
            );
        }
    }

    /// The same dice play the same game.
    #[test]
    fn the_search_is_deterministic_given_its_dice() {
        let game = |seed: u64| {
            let mut state = State::new(&Rules::standard(), 2);
            let mut bots = [
                TurnSearchBot::new(SeededDice::new(seed, 1), SMALL, "mcts"),
                TurnSearchBot::new(SeededDice::new(seed, 2), SMALL, "mcts"),
            ];
            let mut moves = Vec::new();
            while let Next::Decide(s) = state.next() {
                let a = bots[usize::from(s)].choose(&state).unwrap();
                state.play_unchecked(a);
                moves.push(a);
            }
            moves
        };
        assert_eq!(game(3), game(3));
        assert_ne!(game(3), game(4));
    }
}
