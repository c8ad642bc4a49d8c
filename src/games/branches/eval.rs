//! What the generic layers ask of a finished or running game: a static
//! evaluation for the greedy bot, the reason a game ended, and counters.

use super::state::State;

/// How the generic bots play this game (`docs/games/branches.md`, "Bots"):
/// the search expands moves best first by the evaluation, with progressive
/// widening (at most about `sqrt(n)` children after `n` visits): `mcts:100`
/// then beats greedy 49 games to 10 on `btt` (12 to 48 with random
/// expansion). Greedy keeps exact ties only: a margin of 0.15 (one open
/// face) made it lose 67 to 289 against the plain greedy.
pub const STYLE: crate::core::player::Style = crate::core::player::Style::guided(1.0, 0.0, 0.7);

/// Static evaluation from `seat`'s point of view: higher is better. Its
/// score less the best other score, plus a little for each empty cell from
/// which a pyramid would point at one of its pyramids (coins others may pay
/// it) and less for each such cell by its opponents. Cheap: a pass over the
/// board's cells.
pub fn evaluate(state: &State, seat: u8) -> f64 {
    let scores = state.scores();
    let Some(&mine) = scores.get(usize::from(seat)) else {
        return 0.0;
    };
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != usize::from(seat))
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(0);
    let (mine_open, theirs_open) = state.open_faces(seat);
    f64::from(mine - best_other) + 0.1 * (f64::from(mine_open) - f64::from(theirs_open))
}

/// Why the game ended (`board_full`, `stashes_empty`, `no_moves`), None if not over.
pub fn end_reason(state: &State) -> Option<&'static str> {
    state.end().map(|e| e.label())
}

/// Per-game counters for the simulator's statistics, fixed names and order.
pub fn counters(state: &State) -> Vec<(&'static str, i64)> {
    let t = state.tally;
    let mut named = Vec::with_capacity(9);
    named.extend(crate::named_counts!(t:
        plies,
        pyramids_placed = pyramids,
        pointed_at_root = at_root,
        pointed_at_own = at_own,
        penalties_paid = penalties,
        coins_to_pot = to_pot,
        coins_to_owners = to_owners
    ));
    named.push(("coin_resets", i64::from(state.coin_resets())));
    named.push(("passes", i64::from(t.passes)));
    named
}

/// How the generic search plays out below its tree: random playouts to the
/// end say little in this game (the search with 100 iterations lost 87% of
/// its games to greedy), so a playout stops after eight random decisions and
/// the evaluation judges the position, a score lead of 3 coins being worth
/// odds of e to 1. Measured with `roots ladder btt --bots greedy,mcts:100 -n
/// 100 --seed 1`: greedy's score against the search fell from 87.0% to
/// 63.5%; with 1000 iterations the search beats greedy (greedy 18.3% in 60
/// games, against 25.8% with playouts to the end). Cutting after 0, 2, 4,
/// 16 or 32 decisions, or a scale of 1 or 8, did no better.
pub fn playout() -> crate::core::player::Playout {
    crate::core::player::Playout::Cut {
        decisions: 8,
        scale: 3.0,
        at_draw: false,
    }
}

/// The search at its default budget (`mcts` without a number): five
/// plies of look-ahead on the evaluation ([`crate::games::lookahead::LookaheadBot`]),
/// the 4 root moves greedy prices best each followed down the line of
/// each seat's best-priced answer, with alpha-beta cuts. Tuned on seeds
/// 1-4 (`roots simulate VARIANT --bots mcts,greedy --rotate -n 100`, 400
/// games a row, CPU against greedy in both seats): against greedy it
/// scored 67.4% on `btt` at 7.3 times greedy's CPU, 69.6% on
/// `btt-martian-go` (7.6x), 67.2% on `btt-arcade` (6.0x), 67.4% on
/// `btt-literal-wiki` (7.7x). Wider trees were stronger and dearer:
/// widths 5,1,1,1 71.0% at 9.0x, 8,1,1,1 73.0% at 13.1x, 6,2,2 66.8% at
/// 10.5x; narrower or shallower ones weaker (3,2,2 and 2,2,2,2 level with
/// greedy, one reply ply 8 about level). The README's bot table has the
/// figures on fresh seeds.
pub fn search() -> crate::games::lookahead::Lookahead {
    crate::games::lookahead::Lookahead::new(&[4, 1, 1, 1])
}
