//! Properties of Sprout-R-Out over many seeded random games, on every
//! shipped board and under both shipped rule sets (the designer's and
//! Ludii's): every turn handles each enemy group exactly once, no placement
//! touches two enemy groups, scores equal territory recounted here from
//! scratch, every game ends, the same seed plays the same game, illegal
//! sub-moves are refused with the state unchanged, and every legal sub-move's
//! text parses back to it.
//!
//! 10,000 games per board and rule set (`SPROUT_GAMES` changes it); the
//! first 100 of each also check every legal sub-move's text and probe
//! illegal ones. One test per rule set and board, so they spread over the
//! cores.

use roots::core::dice::SeededDice;
use roots::core::graph::{Adjacency, Board, Cell, CellSet};
use roots::core::protocol::{GameState, Next};
use roots::games::sprout_r_out::{
    Action, BoardShape, Groups, Rules, State, Territory, draw, format_action, parse_action,
};

const CONFIGS: [(BoardShape, Groups); 13] = [
    (BoardShape::Limping3, Groups::Edge),
    (BoardShape::Limping5, Groups::Edge),
    (BoardShape::Limping7, Groups::Edge),
    (BoardShape::Hex6, Groups::Edge),
    (BoardShape::Triangle9, Groups::Edge),
    (BoardShape::Epoxy39, Groups::Edge),
    (BoardShape::Epoxy72, Groups::Edge),
    (BoardShape::Square9, Groups::Edge),
    (BoardShape::Square9, Groups::EdgeOrVertex),
    (BoardShape::Cairo1, Groups::Edge),
    (BoardShape::Cairo1, Groups::EdgeOrVertex),
    (BoardShape::Cairo2, Groups::Edge),
    (BoardShape::Cairo2, Groups::EdgeOrVertex),
];

fn games_for(board: &Board) -> u64 {
    if let Some(n) = std::env::var("SPROUT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return n;
    }
    let _ = board;
    10_000
}

/// Plain breadth-first groups, written independently of the engine.
fn group(board: &Board, adj: Adjacency, stones: &[bool], start: Cell) -> Vec<Cell> {
    let mut seen = vec![false; board.len()];
    let mut out = vec![start];
    seen[start as usize] = true;
    let mut i = 0;
    while i < out.len() {
        for &d in board.neighbours(out[i], adj) {
            if stones[d as usize] && !seen[d as usize] {
                seen[d as usize] = true;
                out.push(d);
            }
        }
        i += 1;
    }
    out
}

fn content(s: &State, c: Cell) -> u8 {
    if s.stones(0).contains(c) {
        1
    } else if s.stones(1).contains(c) {
        2
    } else {
        0
    }
}

/// Territory from scratch: eyes, plus what is connected to each cell next to
/// an eye (own stones only, or any same content under the flood-fill reading).
fn territory(s: &State, seat: u8) -> i32 {
    let b = s.board();
    let adj = s.rules().groups.adjacency();
    let eyes = s.eyes(seat);
    let mut inside = vec![false; b.len()];
    for e in eyes.iter() {
        inside[e as usize] = true;
    }
    for e in eyes.iter() {
        for &f in b.neighbours(e, adj) {
            if eyes.contains(f) {
                continue;
            }
            let k = content(s, f);
            let counts = match s.rules().territory {
                Territory::ImmortalGroups => k == seat + 1,
                Territory::FloodFill => true,
            };
            if counts {
                let same: Vec<bool> = (0..b.len() as Cell).map(|c| content(s, c) == k).collect();
                for c in group(b, adj, &same, f) {
                    inside[c as usize] = true;
                }
            }
        }
    }
    inside.iter().filter(|&&x| x).count() as i32
}

fn enemy_groups(s: &State) -> Vec<Vec<Cell>> {
    let b = s.board();
    let adj = s.rules().groups.adjacency();
    let o = s.mover() ^ 1;
    let stones: Vec<bool> = (0..b.len() as Cell)
        .map(|c| s.stones(o).contains(c))
        .collect();
    let mut done = vec![false; b.len()];
    let mut out = Vec::new();
    for c in s.stones(o).iter() {
        if !done[c as usize] {
            let g = group(b, adj, &stones, c);
            for &d in &g {
                done[d as usize] = true;
            }
            out.push(g);
        }
    }
    out
}

/// Snapshot for "unchanged" comparisons.
fn snapshot(s: &State) -> (u64, Vec<i32>, CellSet, CellSet, String) {
    (
        s.position_hash(),
        s.scores(),
        s.legal().place,
        s.legal().remove,
        draw(s),
    )
}

/// Play one random game, checking everything; returns the sub-moves.
fn game(rules: &Rules, seed: u64, deep: bool) -> Vec<Action> {
    let mut s = State::new(rules, 2);
    let mut dice = SeededDice::for_game(seed, 0);
    let mut list = Vec::new();
    let mut played = Vec::new();
    let b = s.board();
    let adj = rules.groups.adjacency();
    let mut groups: Vec<Vec<Cell>> = Vec::new();
    let mut handled: Vec<bool> = Vec::new();
    // Random play can fight over a few cells for thousands of turns (seed
    // 8118 on Cairo 2 under the designer's rules: 6,952 sub-moves, 5,323
    // turns of removing and replacing stones, before a majority), so the
    // bound only catches a game that never ends.
    let limit = 1000 * b.len();
    while let Next::Decide(p) = s.next() {
        assert!(
            played.len() < limit,
            "the game does not end ({} sub-moves)",
            played.len()
        );
        if s.sub() == 0 {
            groups = enemy_groups(&s);
            handled = vec![false; groups.len()];
        }
        let a = s.random_action(&mut dice);
        let first_sub = s.sub() == 0;
        let group_at = |c: Cell| groups.iter().position(|g| g.contains(&c));
        match a {
            Action::Place(c) => {
                let mut touched: Vec<usize> = b
                    .neighbours(c, adj)
                    .iter()
                    .filter(|&&d| s.stones(p ^ 1).contains(d))
                    .filter_map(|&d| group_at(d))
                    .collect();
                touched.sort_unstable();
                touched.dedup();
                assert!(
                    touched.len() <= 1,
                    "a placement on {} touches {} enemy groups",
                    b.label(c),
                    touched.len()
                );
                if s.sub() == 0 {
                    assert!(
                        !s.eyes(0).contains(c) && !s.eyes(1).contains(c),
                        "a first placement on an eye"
                    );
                } else {
                    assert_eq!(
                        touched.len(),
                        1,
                        "a later placement must play against a group"
                    );
                }
                if let Some(&k) = touched.first() {
                    assert!(!handled[k], "a group played against twice in one turn");
                    handled[k] = true;
                }
            }
            Action::Remove(c) => {
                let k = group_at(c).expect("a removal names an enemy group");
                assert!(!handled[k], "a group handled twice in one turn");
                handled[k] = true;
            }
            Action::Pass => {}
        }
        if deep {
            s.legal_actions(&mut list);
            assert!(
                list.contains(&a),
                "random_action {a:?} is among the legal actions"
            );
            for &l in &list {
                let text = format_action(&s, l);
                assert_eq!(parse_action(&s, &text), Ok(l), "round trip of {text}");
                assert_eq!(
                    parse_action(&s, &format!("  {}  ", text.to_uppercase())),
                    Ok(l)
                );
            }
            // Illegal sub-moves are refused and change nothing.
            let before = snapshot(&s);
            let probes = [
                s.stones(0).lowest().map(Action::Place),
                s.stones(p).lowest().map(Action::Remove),
                Some(Action::Place(b.len() as Cell + 3)),
                Some(Action::Remove(b.len() as Cell)),
                Some(Action::Pass),
                (0..b.len() as Cell)
                    .map(Action::Place)
                    .find(|x| !list.contains(x)),
            ];
            // After each probe the hash, scores and legal sets; the drawing
            // (the costly part: most of a deep game's time) once after all of
            // them, which a change left by any probe would still fail.
            let quick = |snap: &(u64, Vec<i32>, CellSet, CellSet, String)| {
                (snap.0, snap.1.clone(), snap.2, snap.3)
            };
            for x in probes.into_iter().flatten() {
                if !list.contains(&x) {
                    assert!(s.play(x).is_err(), "{x:?} accepted although illegal");
                    let after = (
                        s.position_hash(),
                        s.scores(),
                        s.legal().place,
                        s.legal().remove,
                    );
                    assert_eq!(after, quick(&before), "a refused {x:?} changed the state");
                }
            }
            assert_eq!(
                snapshot(&s),
                before,
                "refused sub-moves changed the drawing"
            );
        }
        let (mover, turn) = (s.mover(), s.turn());
        s.play(a).expect("a random legal action is accepted");
        played.push(a);
        s.check_invariants()
            .expect("incremental state equals a recount");
        if deep || s.end().is_some() {
            let fresh = [territory(&s, 0), territory(&s, 1)];
            assert_eq!(
                s.scores(),
                fresh.to_vec(),
                "scores equal territory from scratch"
            );
        }
        let turn_over = s.turn() != turn || s.mover() != mover;
        // A turn ends with every enemy group handled, except a turn that had
        // no first placement (one removal, or a pass) and a pass forced by the
        // repetition rule.
        let stuck = first_sub && matches!(a, Action::Remove(_));
        if turn_over && s.end().is_none() && !stuck && a != Action::Pass {
            assert!(
                handled.iter().all(|&h| h),
                "a turn ended with an enemy group not handled"
            );
        }
    }
    assert!(s.outcome().is_some());
    assert_eq!(
        s.play(Action::Pass),
        Err(roots::core::protocol::Refusal::GameOver)
    );
    played
}

fn run(base: Rules, label: &str, shape: BoardShape, groups: Groups) {
    let rules = Rules {
        board: shape,
        groups,
        ..base
    };
    let n = games_for(rules.board());
    let t = std::time::Instant::now();
    let mut subs = 0;
    let mut longest = (0, 0);
    for seed in 0..n {
        let len = game(&rules, seed, seed < 100).len();
        subs += len;
        longest = longest.max((len, seed));
    }
    let diagonal = if groups == Groups::Edge {
        ""
    } else {
        "-diagonal"
    };
    eprintln!(
        "{label} {}{diagonal}: {n} games, {subs} sub-moves (longest {} with seed {}), {:.1?}",
        shape.slug(),
        longest.0,
        longest.1,
        t.elapsed()
    );
}

/// One test per rule set and board of `CONFIGS`.
macro_rules! random_games {
    ($($name:ident: $shape:ident $groups:ident;)*) => {
        mod random_games {
            use super::*;
            $(
                #[test]
                fn $name() {
                    assert!(CONFIGS.contains(&(BoardShape::$shape, Groups::$groups)));
                    run(Rules::standard(), "designer", BoardShape::$shape, Groups::$groups);
                    run(Rules::ludii(), "ludii", BoardShape::$shape, Groups::$groups);
                }
            )*
            #[test]
            fn every_board_has_its_test() {
                let tested = [$((BoardShape::$shape, Groups::$groups)),*];
                assert_eq!(tested.len(), CONFIGS.len());
                for c in CONFIGS {
                    assert!(tested.contains(&c), "{c:?} has no random-games test");
                }
            }
        }
    };
}

random_games! {
    limping_3: Limping3 Edge;
    limping_5: Limping5 Edge;
    limping_7: Limping7 Edge;
    hex_6: Hex6 Edge;
    triangle_9: Triangle9 Edge;
    epoxy_39: Epoxy39 Edge;
    epoxy_72: Epoxy72 Edge;
    square_9: Square9 Edge;
    square_9_diagonal: Square9 EdgeOrVertex;
    cairo_1: Cairo1 Edge;
    cairo_1_diagonal: Cairo1 EdgeOrVertex;
    cairo_2: Cairo2 Edge;
    cairo_2_diagonal: Cairo2 EdgeOrVertex;
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for base in [Rules::standard(), Rules::ludii()] {
        for (shape, groups) in [
            (BoardShape::Limping3, Groups::Edge),
            (BoardShape::Cairo1, Groups::EdgeOrVertex),
        ] {
            let rules = Rules {
                board: shape,
                groups,
                ..base.clone()
            };
            for seed in 0..20 {
                assert_eq!(game(&rules, seed, false), game(&rules, seed, false));
            }
            assert_ne!(
                game(&rules, 1, false),
                game(&rules, 2, false),
                "different seeds, different games"
            );
        }
    }
}

#[test]
fn bad_text_is_refused_in_words() {
    let s = State::new(&Rules::standard(), 2);
    for bad in [
        "",
        "Z99",
        "remove",
        "remove C3",
        "place C3 now",
        "pass please",
    ] {
        let e = parse_action(&s, bad).expect_err(bad);
        assert!(e.len() > 10, "{bad}: {e}");
    }
    assert_eq!(
        parse_action(&s, "c3"),
        Ok(Action::Place(s.board().cell_of("C3").unwrap()))
    );
}
