//! The generic Monte Carlo tree search (`roots::bots::MctsBot`): with
//! playouts judged by the evaluation it takes a win one sub-move away; it runs exactly its budget; the same
//! seed plays the same game, under both kinds of playout. Strength against
//! other bots is measured by seeded ladders (`scripts/ladders.sh`), not
//! here.

use std::sync::Arc;

use roots::bots::{Budget, MctsBot, Player, Playout};
use roots::core::dice::SeededDice;
use roots::core::graph::CellSet;
use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::branches::Branches;
use roots::games::sprout_r_out::{Action, BoardShape, Rules, SproutROut, State};

/// Ludii's readings on Limping 3 after X's B4 (the position of
/// `tests/scenarios/sprout-r-out/ludii-ends-mid-turn.scn`): removing O's A1
/// makes A1 an eye of X's big group and wins at once; X's other sub-moves
/// (C5, D5, E6) do not.
fn one_sub_move_from_a_win() -> State {
    let rules = Rules {
        board: BoardShape::Limping3,
        ..Rules::ludii()
    };
    let board = rules.board();
    let set = |labels: &[&str]| {
        let mut s = CellSet::EMPTY;
        for l in labels {
            s.insert(board.cell_of(l).unwrap_or_else(|| panic!("{l}")));
        }
        s
    };
    let x = set(&[
        "A3", "B3", "C3", "D3", "E3", "F3", "A2", "B2", "C2", "D2", "E2", "B1", "C1", "D1",
    ]);
    let o = set(&["A1", "D6"]);
    let mut state = State::setup(&rules, [x, o], [CellSet::EMPTY; 2], 0).unwrap();
    let b4 = board.cell_of("B4").unwrap();
    state.play(Action::Place(b4)).unwrap();
    assert_eq!(state.next(), Next::Decide(0));
    state
}

fn winning_removal(state: &State) -> Action {
    Action::Remove(state.board().cell_of("A1").unwrap())
}

/// Every sub-move here wins within the turn (X must still remove A1 after
/// any placement), so a search with playouts to the end sees wins
/// everywhere; with playouts judged at once by the evaluation, only the
/// removal scores a full point, and the search must find it.
#[test]
fn the_search_takes_the_win_now_when_playouts_are_judged_at_once() {
    let state = one_sub_move_from_a_win();
    let win = winning_removal(&state);
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    assert_eq!(legal.len(), 4, "{legal:?}");
    for seed in 1..=5 {
        let mut bot =
            MctsBot::<SproutROut>::new(SeededDice::new(seed, 0), 200).with_playout(Playout::Cut {
                decisions: 0,
                scale: 3.0,
                at_draw: false,
            });
        assert_eq!(bot.choose(&state).unwrap(), win, "seed {seed}");
    }
}

#[test]
fn the_search_runs_exactly_its_iterations() {
    let state = one_sub_move_from_a_win();
    for n in [1, 7, 100, 333] {
        let mut bot = MctsBot::<SproutROut>::new(SeededDice::new(3, 0), n);
        bot.choose(&state).unwrap();
        assert_eq!(bot.last_iterations(), n);
    }
    // A time budget runs at least once.
    let mut bot = MctsBot::<SproutROut>::with_budget(SeededDice::new(3, 0), Budget::Millis(1));
    bot.choose(&state).unwrap();
    assert!(bot.last_iterations() >= 1);
}

/// A whole game between two searches with the given playout; its actions.
fn game<G: Game>(seed: u64, playout: Playout) -> Vec<String> {
    let mut state = G::new_state(Arc::new(G::standard()), 2).unwrap();
    let mut bots: Vec<MctsBot<G>> = (0..2)
        .map(|s| MctsBot::<G>::new(SeededDice::for_seat(seed, 0, s), 30).with_playout(playout))
        .collect();
    let mut dice = SeededDice::new(seed, 99);
    let mut out = Vec::new();
    for _ in 0..2_000 {
        match state.next() {
            Next::Over => break,
            Next::Decide(seat) => {
                let a = bots[usize::from(seat)].choose(&state).unwrap();
                out.push(G::format_action(&state, a));
                state.play(a).unwrap();
            }
            Next::Chance(die) => state.roll(dice.roll(die)).unwrap(),
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll(face).unwrap();
            }
        }
    }
    assert_eq!(state.next(), Next::Over, "{} did not end", G::ID);
    out
}

#[test]
fn the_same_seed_plays_the_same_game_with_either_playout() {
    let cut = Playout::Cut {
        decisions: 4,
        scale: 3.0,
        at_draw: false,
    };
    for playout in [Playout::ToTheEnd, cut] {
        let a = game::<Branches>(11, playout);
        assert_eq!(a, game::<Branches>(11, playout), "{playout:?}");
        assert_ne!(a, game::<Branches>(12, playout), "{playout:?}");
    }
    let a = game::<SproutROut>(5, cut);
    assert_eq!(a, game::<SproutROut>(5, cut));
}

/// With guided growth the root's first child is greedy's choice: a search
/// of one iteration plays exactly what the one-step greedy plays (no ties
/// in this position), whatever its seed; the plain search of one iteration
/// plays a random sub-move, which is not always that one.
#[test]
fn a_guided_search_expands_greedys_choice_first() {
    use roots::bots::{GreedyBot, Growth};
    let state = one_sub_move_from_a_win();
    let greedy = GreedyBot::<SproutROut>::new(SeededDice::new(1, 0))
        .choose(&state)
        .unwrap();
    let guided = Growth {
        guided: true,
        widening: 1.0,
        prior: 0.0,
        exploration: 0.7,
    };
    let mut plain_moves = std::collections::HashSet::new();
    for seed in 1..=20 {
        let mut bot = MctsBot::<SproutROut>::new(SeededDice::new(seed, 0), 1).with_growth(guided);
        assert_eq!(bot.choose(&state).unwrap(), greedy, "seed {seed}");
        let mut plain = MctsBot::<SproutROut>::new(SeededDice::new(seed, 0), 1);
        plain_moves.insert(plain.choose(&state).unwrap());
    }
    assert!(plain_moves.len() > 1, "{plain_moves:?}");
}

/// The whole-turn greedy plays a legal sub-move at every decision of a
/// game, and the same seed gives the same game (it keeps no plan between
/// decisions, so it follows any position).
#[test]
fn the_whole_turn_greedy_plays_legal_seeded_games() {
    use roots::bots::GreedyBot;
    let run = |seed: u64| {
        let mut state = SproutROut::new_state(Arc::new(SproutROut::standard()), 2).unwrap();
        let mut bots: Vec<GreedyBot<SproutROut>> = (0..2)
            .map(|s| GreedyBot::new(SeededDice::for_seat(seed, 0, s)).whole_turn(4))
            .collect();
        let mut out = Vec::new();
        while let Next::Decide(seat) = state.next() {
            let a = bots[usize::from(seat)].choose(&state).unwrap();
            out.push(SproutROut::format_action(&state, a));
            state.play(a).expect("a legal sub-move");
            assert!(out.len() < 5_000, "the game did not end");
        }
        assert_eq!(state.next(), Next::Over);
        out
    };
    assert_eq!(run(3), run(3));
}
