//! House rules written as scripts in Branches & Twigs & Thorns,
//! Sprout-R-Out and Roots Growy Roots (docs/scripts.md): each shipped
//! example does what it says, every hook and operation works through the
//! game's own checks, failures end the game cleanly with script, hook,
//! event named, invariants hold, the same seed gives the same game, and a
//! scripted game is recorded and replayed. Generated scripts (proptest)
//! keep the invariants and fail cleanly.

use std::sync::Arc;

use proptest::prelude::*;
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::{Game, Registered, branches, roots_growy_roots as rgr, sprout_r_out as sro};
use roots::script::session::HouseRules;
use roots::variant::load_str;

fn manifest(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The rules of game `G` of a variant file's text.
fn rules<G: Registered>(text: &str) -> Arc<G::Rules> {
    let loaded = load_str("test.toml", text, Some(&manifest("variants")))
        .unwrap_or_else(|e| panic!("valid: {:?}", e.items));
    G::unwrap(&loaded.rules).expect("this game's rules").clone()
}

fn file<G: Registered>(path: &str) -> Arc<G::Rules> {
    rules::<G>(&std::fs::read_to_string(manifest(path)).unwrap())
}

/// A variant of game `base` (a built-in's file) with one script.
fn with_script(game: &str, base: &str, hook: &str, code: &str) -> String {
    format!(
        "game = \"{game}\"\nextends = \"{base}\"\n[[script]]\nname = \"rule\"\nhook = \"{hook}\"\ncode = '''\n{code}\n'''\n"
    )
}

fn btt(hook: &str, code: &str) -> Arc<branches::Rules> {
    rules::<branches::Branches>(&with_script("branches", "btt.toml", hook, code))
}

fn sprout(hook: &str, code: &str) -> Arc<sro::Variant> {
    rules::<sro::SproutROut>(&with_script(
        "sprout-r-out",
        "sprout-r-out.toml",
        hook,
        code,
    ))
}

fn growy(hook: &str, code: &str) -> Arc<rgr::Rules> {
    rules::<rgr::RootsGrowyRoots>(&with_script(
        "roots-growy-roots",
        "roots-growy-roots.toml",
        hook,
        code,
    ))
}

/// One random step; false when the game is over.
fn step<S: GameState>(state: &mut S, dice: &mut SeededDice) -> bool {
    match state.next() {
        Next::Chance(die) => state.roll_unchecked(dice.roll(die)),
        Next::Draw => {
            let face = dice.draw(state.draw_weights());
            state.roll_unchecked(face);
        }
        Next::Decide(_) => {
            let a = state.random_action(dice);
            state.play_unchecked(a);
        }
        Next::Over => return false,
    }
    true
}

/// A random game of `rules` with the dice of `seed`, the invariants
/// checked after every step.
fn play<G: Game>(rules: &Arc<G::Rules>, seats: u8, seed: u64) -> G::State {
    let mut state = G::new_state(rules.clone(), seats).expect("a game");
    let mut dice = SeededDice::for_game(seed, 0);
    for _ in 0..100_000 {
        if !step(&mut state, &mut dice) {
            return state;
        }
        G::check_invariants(&state).expect("invariants hold");
    }
    panic!("the game did not end");
}

// ----- the shipped examples ---------------------------------------------

#[test]
fn btt_own_coin_pays_a_coin_for_each_pyramid_pointed_at_its_owners_own() {
    let base = file::<branches::Branches>("variants/btt.toml");
    let rule = file::<branches::Branches>("variants/branches-own-coin.toml");
    let mut fired = 0;
    for seed in 1..=10 {
        let mut a = branches::Branches::new_state(base.clone(), 2).unwrap();
        let mut b = branches::Branches::new_state(rule.clone(), 2).unwrap();
        let (mut da, mut db) = (SeededDice::for_game(seed, 0), SeededDice::for_game(seed, 0));
        // Count, from the plain game, what the rule should pay each seat.
        let mut owed = [0i32; 2];
        while a.next() != Next::Over {
            let mover = a.to_move();
            let action = a.random_action(&mut da);
            assert_eq!(b.random_action(&mut db), action, "the same game");
            if let branches::Action::Place { cell, dir, .. } = action {
                let t = a.board().neighbour(cell, dir);
                if matches!(a.piece(t), branches::Piece::Pyramid { seat, .. } if seat == mover) {
                    owed[usize::from(mover)] += 1;
                }
            }
            a.play_unchecked(action);
            b.play_unchecked(action);
            b.check_invariants().expect("invariants hold");
        }
        let (sa, sb) = (a.scores(), b.scores());
        for s in 0..2 {
            assert_eq!(sb[s], sa[s] + owed[s], "seed {seed} seat {}", s + 1);
        }
        assert_eq!(b.script_fired_total(), (owed[0] + owed[1]) as u32);
        fired += b.script_fired_total();
    }
    assert!(fired > 0, "the rule fired");
}

#[test]
fn sprout_edge_territory_counts_each_edge_cell_of_a_territory_twice() {
    let base = file::<sro::SproutROut>("variants/sprout-r-out.toml");
    let rule = file::<sro::SproutROut>("variants/sprout-edge-territory.toml");
    let mut fired = 0;
    for seed in 1..=10 {
        let a = play::<sro::SproutROut>(&base, 2, seed);
        let b = play::<sro::SproutROut>(&rule, 2, seed);
        assert_eq!(a.territories(), b.territories(), "the same game");
        // The edge: cells with fewer neighbours than the most any has.
        let board = b.board();
        let adj = rule.engine().groups.adjacency();
        let most = board
            .cells()
            .iter()
            .map(|c| board.neighbours(c, adj).len())
            .max()
            .unwrap();
        for s in 0..2u8 {
            let edge = b
                .territory(s)
                .iter()
                .filter(|&c| board.neighbours(c, adj).len() < most)
                .count() as i32;
            assert_eq!(
                b.scores()[usize::from(s)],
                b.territories()[usize::from(s)] + edge,
                "seed {seed} seat {}",
                s + 1
            );
        }
        let o = b.outcome().unwrap();
        assert_eq!(o.scores, b.scores(), "the adjusted scores decide");
        fired += b.script_fired_total();
    }
    assert!(fired > 0, "the rule fired");
}

#[test]
fn rgr_bridge_water_scores_two_for_water_reached_by_a_bridge() {
    let base = file::<rgr::RootsGrowyRoots>("variants/roots-growy-roots.toml");
    let rule = file::<rgr::RootsGrowyRoots>("variants/rgr-bridge-water.toml");
    let mut fired = 0;
    for seed in 1..=10 {
        let mut a = rgr::RootsGrowyRoots::new_state(base.clone(), 2).unwrap();
        let mut b = rgr::RootsGrowyRoots::new_state(rule.clone(), 2).unwrap();
        let (mut da, mut db) = (SeededDice::for_game(seed, 0), SeededDice::for_game(seed, 0));
        let mut owed = [0i32; 2];
        let mut bridge: Option<(usize, u16)> = None;
        loop {
            match a.next() {
                Next::Over => break,
                Next::Decide(seat) => {
                    let action = a.random_action(&mut da);
                    assert_eq!(b.random_action(&mut db), action, "the same game");
                    a.play_unchecked(action);
                    b.play_unchecked(action);
                    if let rgr::Action::Bridge { to, .. } = action {
                        bridge = Some((usize::from(seat), to));
                    }
                }
                _ => {
                    let fa = da.draw(a.draw_weights());
                    let fb = db.draw(b.draw_weights());
                    assert_eq!(fa, fb);
                    a.roll_unchecked(fa);
                    b.roll_unchecked(fb);
                }
            }
            if a.next() != Next::Draw
                && let Some((seat, to)) = bridge.take()
                && a.card(to) == rgr::state::WATER
            {
                owed[seat] += 2;
            }
            b.check_invariants().expect("invariants hold");
        }
        let (sa, sb) = (a.scores(), b.scores());
        for s in 0..2 {
            assert_eq!(sb[s], sa[s] + owed[s], "seed {seed} seat {}", s + 1);
        }
        fired += b.script_fired_total();
    }
    assert!(fired > 0, "the rule fired");
}

// ----- every hook and operation, per game -------------------------------

#[test]
fn btt_hooks_and_operations() {
    // legal: no large pyramid is ever placed.
    let r = btt("legal", "ctx.kind != \"place\" || ctx.size != 3");
    for seed in 1..=5 {
        let s = play::<branches::Branches>(&r, 2, seed);
        assert!(s.end().is_some());
        for seat in 0..2 {
            assert_eq!(s.stash(seat)[2], 5, "seed {seed}: no large pyramid placed");
        }
    }
    // `play` refuses a move the filter forbids while others are allowed.
    let mut s = branches::Branches::new_state(r.clone(), 2).unwrap();
    let mut dice = SeededDice::for_game(1, 0);
    let mut refused = 0;
    while s.next() != Next::Over && refused == 0 {
        let mut all = Vec::new();
        s.legal_actions(&mut all);
        if let Some(&branches::Action::Place { cell, dir, .. }) = all
            .iter()
            .find(|a| matches!(a, branches::Action::Place { size: 1, .. }))
            && s.stash(s.to_move())[2] > 0
        {
            let big = branches::Action::Place { cell, size: 3, dir };
            let answer = s.clone().play(big);
            assert!(format!("{answer:?}").contains("forbids it"), "{answer:?}");
            refused += 1;
        }
        let a = s.random_action(&mut dice);
        s.play_unchecked(a);
    }
    assert_eq!(refused, 1);
    // A filter that forbids every root of the setup: the game cannot go
    // on, so `play` lets a root through and the game ends with the failure.
    let r = btt("legal", "ctx.kind != \"root\"");
    let mut s = branches::Branches::new_state(r.clone(), 2).unwrap();
    let mut dice = SeededDice::for_game(1, 0);
    while s.next() != Next::Over {
        let mut all = Vec::new();
        s.legal_actions(&mut all);
        if let Some(&root) = all.iter().find(|a| matches!(a, branches::Action::Root(_))) {
            let mut t = s.clone();
            t.play(root)
                .expect("let through: the filter forbade every move");
            assert_eq!(t.end(), Some(branches::End::ScriptError));
        }
        let a = s.random_action(&mut dice);
        s.play_unchecked(a);
        s.check_invariants().expect("invariants hold");
    }
    assert_eq!(
        s.end(),
        Some(branches::End::ScriptError),
        "a filter that forbids every root of the setup ends the game"
    );
    assert!(
        s.script_failure()
            .unwrap()
            .contains("forbids every legal move")
    );
    // after_action: add_score, add_stash, add_root, end_turn; final.
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" && ctx.get(\"done\") == 0 { ctx.set(\"done\", 1); ctx.add_stash(ctx.seat, 1, 2); ctx.add_score(ctx.seat, 3); }",
    );
    let s = play::<branches::Branches>(&r, 2, 4);
    assert_eq!(s.script_memory("done"), 1);
    assert_eq!(s.script_fired_total(), 1);
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" { for y in 0..8 { for x in 0..8 { if ctx.on_board(x, y) && ctx.piece(x, y) == \"empty\" && ctx.get(\"r\") == 0 { ctx.set(\"r\", 1); ctx.add_root(x, y); } } } }",
    );
    let s = play::<branches::Branches>(&r, 2, 4);
    assert_eq!(s.script_memory("r"), 1);
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" && ctx.turn == 2 && ctx.get(\"p\") == 0 { ctx.set(\"p\", 1); ctx.end_turn(); }",
    );
    let s = play::<branches::Branches>(&r, 2, 4);
    assert_eq!(s.script_memory("p"), 1);
    assert!(
        branches::counters(&s)
            .iter()
            .any(|(k, v)| *k == "passes" && *v >= 1)
    );
    let r = btt("after_action", "if ctx.round >= 6 { ctx.end_game(); }");
    let s = play::<branches::Branches>(&r, 2, 4);
    assert_eq!(s.end(), Some(branches::End::Script));
    let base = file::<branches::Branches>("variants/btt.toml");
    let r = btt("final", "ctx.add_score(2, 100);");
    let (a, b) = (
        play::<branches::Branches>(&base, 2, 4),
        play::<branches::Branches>(&r, 2, 4),
    );
    assert_eq!(b.scores()[1], a.scores()[1] + 100);
    assert_eq!(b.scores()[0], a.scores()[0]);
    // Refused: a root on a full cell; an operation at `final`.
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" { ctx.add_root(ctx.x, ctx.y); }",
    );
    let s = play::<branches::Branches>(&r, 2, 4);
    assert_eq!(s.end(), Some(branches::End::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("is not empty"), "{m}");
    assert!(m.contains("house rule `rule` (hook `after_action`)"), "{m}");
    assert!(m.contains("event: seat "), "{m}");
    // Coins a player does not hold are refused before the game changes
    // (found by the generated scripts below).
    let r = btt("after_action", "ctx.add_score(1, -2);");
    let s = play::<branches::Branches>(&r, 2, 0);
    assert_eq!(s.end(), Some(branches::End::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("too few coins"), "{m}");
    let r = btt("final", "ctx.end_game();");
    let m = play::<branches::Branches>(&r, 2, 4)
        .script_failure()
        .unwrap()
        .to_owned();
    assert!(m.contains("cannot be asked for at hook `final`"), "{m}");
}

#[test]
fn sprout_hooks_and_operations() {
    // legal: never remove a group.
    let r = sprout("legal", "ctx.kind != \"remove\"");
    for seed in 1..=5 {
        let s = play::<sro::SproutROut>(&r, 2, seed);
        assert!(
            sro::counters(&s)
                .iter()
                .any(|(k, v)| *k == "removals" && *v == 0)
        );
    }
    // add_stone, remove_stone, end_turn, end_game, final.
    let r = sprout(
        "after_action",
        "if ctx.kind == \"place\" && ctx.get(\"d\") == 0 { for c in 0..ctx.cells { if ctx.stone(c) == 0 && ctx.get(\"d\") == 0 { ctx.set(\"d\", 1); ctx.add_stone(ctx.seat, c); } } }",
    );
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(s.script_memory("d"), 1);
    let r = sprout(
        "after_action",
        "if ctx.kind == \"place\" && ctx.get(\"d\") == 0 { ctx.set(\"d\", 1); ctx.remove_stone(ctx.cell); }",
    );
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(s.script_memory("d"), 1);
    let r = sprout(
        "after_action",
        "if ctx.turn == ctx.seat && ctx.round > 2 && ctx.get(\"e\") == 0 { ctx.set(\"e\", 1); ctx.end_turn(); }",
    );
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(s.script_memory("e"), s.script_fired_total() as i64);
    let r = sprout("after_action", "if ctx.round >= 4 { ctx.end_game(); }");
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(s.end().map(|e| e.0), Some(sro::EndReason::Script));
    assert!(s.outcome().is_some());
    let r = sprout("final", "ctx.add_score(2, 1000);");
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(
        s.outcome().unwrap().winners,
        vec![1],
        "the adjusted scores decide"
    );
    // Refused: a stone where one lies.
    let r = sprout(
        "after_action",
        "if ctx.kind == \"place\" { ctx.add_stone(1, ctx.cell); }",
    );
    let s = play::<sro::SproutROut>(&r, 2, 3);
    assert_eq!(s.end().map(|e| e.0), Some(sro::EndReason::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("holds a stone"), "{m}");
    assert!(m.contains("in turn 1"), "{m}");
}

#[test]
fn rgr_hooks_and_operations() {
    // legal: no bridges.
    let r = growy("legal", "ctx.kind != \"bridge\"");
    for seed in 1..=5 {
        let s = play::<rgr::RootsGrowyRoots>(&r, 2, seed);
        assert_eq!(s.tally.bridges, 0, "seed {seed}");
    }
    // end_turn after the first grow of each turn: one stick a turn.
    let r = growy(
        "after_action",
        "if ctx.kind == \"grow\" && ctx.turn == ctx.seat { ctx.end_turn(); }",
    );
    let s = play::<rgr::RootsGrowyRoots>(&r, 2, 2);
    assert!(s.script_fired_total() > 0);
    // The card reached, and the board read through `card_at` and `owner`.
    let r = growy(
        "after_action",
        "if ctx.x >= 0 && ctx.card != ctx.card_at(ctx.x, ctx.y) { throw \"card\"; } if ctx.kind == \"grow\" && ctx.card != \"stone\" && ctx.owner(ctx.x, ctx.y) != ctx.seat { throw \"owner\"; }",
    );
    for seed in 1..=3 {
        let s = play::<rgr::RootsGrowyRoots>(&r, 2, seed);
        assert_eq!(s.script_failure(), None, "seed {seed}");
    }
    let r = growy("after_action", "if ctx.round >= 3 { ctx.end_game(); }");
    let s = play::<rgr::RootsGrowyRoots>(&r, 2, 2);
    assert_eq!(s.end(), Some(rgr::EndReason::Script));
    let base = file::<rgr::RootsGrowyRoots>("variants/roots-growy-roots.toml");
    let r = growy(
        "final",
        "for s in 1..=ctx.seats { ctx.add_score(s, 10 * s); }",
    );
    let (a, b) = (
        play::<rgr::RootsGrowyRoots>(&base, 2, 2),
        play::<rgr::RootsGrowyRoots>(&r, 2, 2),
    );
    assert_eq!(b.scores(), vec![a.scores()[0] + 10, a.scores()[1] + 20]);
    let r = growy("after_action", "loop { }");
    let s = play::<rgr::RootsGrowyRoots>(&r, 2, 2);
    assert_eq!(s.end(), Some(rgr::EndReason::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("house rule `rule` (hook `after_action`)"), "{m}");
    assert!(m.contains("budget"), "{m}");
    assert!(m.contains("in round 1"), "{m}");
}

#[test]
fn btt_remove_pyramid_puts_it_back_in_its_owners_stash() {
    // The first pyramid placed goes straight back: nothing points at it yet.
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" && ctx.get(\"rm\") == 0 { ctx.set(\"rm\", 1); ctx.set(\"before\", ctx.stash(ctx.seat, ctx.size)); ctx.set(\"seat\", ctx.seat); ctx.set(\"size\", ctx.size); ctx.remove_pyramid(ctx.x, ctx.y); }",
    );
    for seed in 1..=4 {
        let s = play::<branches::Branches>(&r, 2, seed);
        assert_eq!(s.script_failure(), None, "seed {seed}");
        assert_eq!(s.script_memory("rm"), 1, "seed {seed}");
        assert_eq!(s.script_fired_total(), 1, "seed {seed}");
        assert!(
            s.script_memory("size") >= 1,
            "seed {seed}: a pyramid was placed and taken back"
        );
    }
    // Right after the removal, the stash holds the pyramid again.
    let r = btt(
        "after_action",
        "if ctx.kind == \"place\" { if ctx.get(\"rm\") == 1 && ctx.get(\"checked\") == 0 { ctx.set(\"checked\", 1); ctx.set(\"after\", ctx.stash(ctx.get(\"seat\"), ctx.get(\"size\"))); } if ctx.get(\"rm\") == 0 { ctx.set(\"rm\", 1); ctx.set(\"seat\", ctx.seat); ctx.set(\"size\", ctx.size); ctx.set(\"before\", ctx.stash(ctx.seat, ctx.size)); ctx.remove_pyramid(ctx.x, ctx.y); } }",
    );
    let s = play::<branches::Branches>(&r, 2, 3);
    assert_eq!(s.script_failure(), None);
    assert_eq!(s.script_memory("checked"), 1);
    // The next placement may have used one of the same size again, by the
    // other seat or the same: the stash seen then is at least what it was
    // before the removal, less at most the one placed since.
    assert!(s.script_memory("after") >= s.script_memory("before"));
    // Refused: no pyramid there (a root), a cell off the board.
    let r = btt(
        "after_action",
        "if ctx.kind == \"root\" { ctx.remove_pyramid(ctx.x, ctx.y); }",
    );
    let s = play::<branches::Branches>(&r, 2, 1);
    assert_eq!(s.end(), Some(branches::End::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("there is no pyramid on"), "{m}");
    assert!(m.contains("house rule `rule` (hook `after_action`)"), "{m}");
    let r = btt("after_action", "ctx.remove_pyramid(99, 99);");
    let m = play::<branches::Branches>(&r, 2, 1)
        .script_failure()
        .unwrap()
        .to_owned();
    assert!(m.contains("99,99 is not a cell of the board"), "{m}");
}

#[test]
fn rgr_add_sticks_gives_and_takes_sticks_of_the_seat_to_move() {
    // Two more sticks after the first grow: at the next decision (hook
    // `legal`, which throws when it is wrong) the seat holds them.
    let text = r#"
game = "roots-growy-roots"
extends = "roots-growy-roots.toml"
[[script]]
name = "give"
hook = "after_action"
code = '''
if ctx.get("g") == 1 { ctx.set("g", 2); }
if ctx.kind == "grow" && !ctx.over && ctx.get("g") == 0 {
    ctx.set("g", 1);
    ctx.set("had", ctx.sticks);
    ctx.add_sticks(2);
}
'''
[[script]]
name = "see"
hook = "legal"
code = '''
if ctx.get("g") == 1 && ctx.sticks != ctx.get("had") + 2 { throw "the sticks were not given"; }
true
'''
"#;
    let r = rules::<rgr::RootsGrowyRoots>(text);
    for seed in 1..=4 {
        let s = play::<rgr::RootsGrowyRoots>(&r, 2, seed);
        assert_eq!(s.script_failure(), None, "seed {seed}");
        assert_eq!(s.script_memory("g"), 2, "seed {seed}");
        assert!(s.tally.sticks_received >= 2, "seed {seed}");
    }
    // Taking every stick ends the turn, as a move that spends the last does.
    let r = growy(
        "after_action",
        "if ctx.kind == \"grow\" && !ctx.over && ctx.sticks > 0 && ctx.get(\"t\") < 3 { ctx.set(\"t\", ctx.get(\"t\") + 1); ctx.add_sticks(-ctx.sticks); }",
    );
    for seed in 1..=3 {
        let s = play::<rgr::RootsGrowyRoots>(&r, 2, seed);
        assert_eq!(s.script_failure(), None, "seed {seed}");
        assert!(s.tally.sticks_lost > 0, "seed {seed}");
    }
    // Refused: fewer than none; a change too large.
    let r = growy(
        "after_action",
        "if ctx.kind == \"grow\" && !ctx.over { ctx.add_sticks(-(ctx.sticks + 1)); }",
    );
    let s = play::<rgr::RootsGrowyRoots>(&r, 2, 2);
    assert_eq!(s.end(), Some(rgr::EndReason::ScriptError));
    let m = s.script_failure().unwrap();
    assert!(m.contains("would hold -1 sticks"), "{m}");
    let r = growy("after_action", "ctx.add_sticks(5000);");
    let m = play::<rgr::RootsGrowyRoots>(&r, 2, 2)
        .script_failure()
        .unwrap()
        .to_owned();
    assert!(m.contains("too large a change"), "{m}");
}

#[test]
fn a_legal_filter_that_answers_no_bool_ends_the_game_naming_the_script() {
    fn check(m: &str) {
        assert!(m.contains("house rule `rule` (hook `legal`)"), "{m}");
        assert!(m.contains("must give true or false, not"), "{m}");
        assert!(m.contains("event: seat "), "{m}");
    }
    let s = play::<branches::Branches>(&btt("legal", "42"), 2, 1);
    assert_eq!(s.end(), Some(branches::End::ScriptError));
    check(s.script_failure().unwrap());
    let s = play::<sro::SproutROut>(&sprout("legal", "\"yes\""), 2, 1);
    assert_eq!(s.end().map(|e| e.0), Some(sro::EndReason::ScriptError));
    check(s.script_failure().unwrap());
    let s = play::<rgr::RootsGrowyRoots>(&growy("legal", "[true]"), 2, 1);
    assert_eq!(s.end(), Some(rgr::EndReason::ScriptError));
    check(s.script_failure().unwrap());
}

#[test]
fn script_texts_of_the_games_fuzz_target_end_cleanly() {
    // The fuzz target's body on a few texts of each game and hook: none
    // panics (a refused operation or a failing script ends its game).
    let texts: [&[u8]; 6] = [
        b"ctx.add_score(1, 1);",
        b"ctx.end_turn(); ctx.end_game();",
        b"ctx.set(\"n\", ctx.get(\"n\") + 1); ctx.get(\"n\") % 2 == 0",
        b"ctx.add_stash(1, 1, -1); ctx.add_root(0, 0); ctx.remove_pyramid(1, 1);",
        b"ctx.add_stone(1, 0); ctx.remove_stone(1); ctx.add_sticks(-1);",
        b"let x = ; loop {",
    ];
    for first in 0u8..9 {
        for t in texts {
            roots::fuzzing::script_text_games(&[&[first][..], t].concat());
        }
    }
}

#[test]
fn unknown_names_and_hooks_are_placed_in_each_game() {
    for (game, base) in [
        ("branches", "btt.toml"),
        ("sprout-r-out", "sprout-r-out.toml"),
        ("roots-growy-roots", "roots-growy-roots.toml"),
    ] {
        let text = with_script(game, base, "after_action", "ctx.add_scor(1, 1);");
        let e = load_str("test.toml", &text, Some(&manifest("variants"))).expect_err("invalid");
        let shown = format!("{:?}", e.items);
        assert!(shown.contains("add_score"), "{game}: {shown}");
        let text = with_script(game, base, "scored", "1");
        let e = load_str("test.toml", &text, Some(&manifest("variants"))).expect_err("invalid");
        let shown = format!("{:?}", e.items);
        assert!(shown.contains("not a hook of this game"), "{game}: {shown}");
    }
}

#[test]
fn scripted_games_of_each_game_are_recorded_and_replayed() {
    use crate::common::{roots, tmp_dir};
    let dir = tmp_dir("scripts_games", "replay");
    for v in [
        "branches-own-coin",
        "sprout-edge-territory",
        "rgr-bridge-water",
    ] {
        let record = dir.join(format!("{v}.jsonl"));
        let record = record.to_str().unwrap();
        let path = format!("variants/{v}.toml");
        let run = roots(&[
            "simulate",
            &path,
            "-n",
            "3",
            "--seed",
            "5",
            "--bots",
            "random",
            "--record-game",
            "0",
            "--record",
            record,
            "-q",
        ]);
        assert_eq!(run.code, 0, "{v}: {}", run.stderr);
        let text = std::fs::read_to_string(record).unwrap();
        assert!(
            text.contains("[[script]]") || text.contains("\"script\""),
            "{v}: the record carries the script"
        );
        let run = roots(&["replay", record]);
        assert_eq!(run.code, 0, "{v}: {}", run.stderr);
    }
}

// ----- generated scripts -------------------------------------------------

/// A statement a generated script may run at `after_action`.
fn statement() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..=3, -5i64..=5).prop_map(|(s, n)| format!("ctx.add_score({s}, {n});")),
        Just("ctx.end_turn();".to_owned()),
        (0i64..=40).prop_map(|r| format!("if ctx.round > {r} {{ ctx.end_game(); }}")),
        (0i64..=9).prop_map(|k| format!("ctx.set(\"k\", ctx.get(\"k\") + {k});")),
        Just("if ctx.seat > 0 { ctx.add_score(ctx.seat, 1); }".to_owned()),
        Just("let z = ctx.score(9);".to_owned()),
    ]
}

fn script() -> impl Strategy<Value = String> {
    (prop::collection::vec(statement(), 1..4), 0u32..4).prop_map(|(body, every)| {
        format!("if ctx.round % {} == 0 {{ {} }}", every + 1, body.join(" "))
    })
}

/// A game of `rules` twice: the invariants held at every step (checked by
/// `play`), the same outcome, and an error ends the game with a message.
fn generated<G: Game>(rules: &Arc<G::Rules>, seats: u8, seed: u64) -> Result<(), TestCaseError>
where
    G::State: Failing,
{
    let a = play::<G>(rules, seats, seed);
    let b = play::<G>(rules, seats, seed);
    prop_assert_eq!(a.outcome(), b.outcome());
    if let Some(m) = a.failure() {
        prop_assert!(m.contains("house rule `rule`"), "{}", m);
        prop_assert!(m.contains("event: "), "{}", m);
    }
    Ok(())
}

trait Failing {
    fn failure(&self) -> Option<String>;
}

impl Failing for branches::State {
    fn failure(&self) -> Option<String> {
        self.script_failure().map(str::to_owned)
    }
}

impl Failing for sro::State {
    fn failure(&self) -> Option<String> {
        self.script_failure().map(str::to_owned)
    }
}

impl Failing for rgr::state::State {
    fn failure(&self) -> Option<String> {
        self.script_failure().map(str::to_owned)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn generated_scripts_keep_btt_whole(code in script(), seed in 0u64..1000) {
        generated::<branches::Branches>(&btt("after_action", &code), 3, seed)?;
    }

    #[test]
    fn generated_scripts_keep_sprout_whole(code in script(), seed in 0u64..1000) {
        generated::<sro::SproutROut>(&sprout("after_action", &code), 2, seed)?;
    }

    #[test]
    fn generated_scripts_keep_rgr_whole(code in script(), seed in 0u64..1000) {
        generated::<rgr::RootsGrowyRoots>(&growy("after_action", &code), 3, seed)?;
    }
}
