//! House rules written as scripts (`[[script]]`, docs/scripts.md) in Roots
//! and Shoots: validation at the file's line and column, inheritance by
//! name, every hook and operation doing what it says in seeded games,
//! failures that end a game cleanly, and the same seed giving the same game.

use std::sync::Arc;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next, play_out_random};
use roots::games::roots_and_shoots::{EndReason, Rules, State};
use roots::script::session::HouseRules;
use roots::variant::{Code, Diagnostics, load_str};

fn manifest(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The Roots and Shoots rules of a variant file's text.
fn rules(text: &str) -> Arc<Rules> {
    let loaded = load_str("test.toml", text, Some(&manifest("variants")))
        .unwrap_or_else(|e| panic!("valid: {:?}", e.items));
    Arc::new(loaded.rules.roots_and_shoots().expect("R&S").clone())
}

fn errors(text: &str) -> Diagnostics {
    load_str("test.toml", text, Some(&manifest("variants"))).expect_err("invalid")
}

/// A variant of the standard game with one script.
fn with_script(hook: &str, code: &str) -> String {
    format!(
        "extends = \"standard\"\n[[script]]\nname = \"rule\"\nhook = \"{hook}\"\ncode = '''\n{code}\n'''\n"
    )
}

/// A random game of `rules` for two seats with the dice of `seed`.
fn play(rules: &Arc<Rules>, seed: u64) -> State {
    let mut state = State::new(rules.clone(), 2).expect("a game");
    let mut dice = SeededDice::for_game(seed, 0);
    play_out_random(&mut state, &mut dice);
    state
}

/// Play a random game step by step, checking the invariants after each.
fn play_checked(rules: &Arc<Rules>, seed: u64) -> State {
    let mut state = State::new(rules.clone(), 2).expect("a game");
    let mut dice = SeededDice::for_game(seed, 0);
    for _ in 0..100_000 {
        match state.next() {
            Next::Chance(die) => state.roll_unchecked(dice.roll(die)),
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
            Next::Over => return state,
            Next::Draw => unreachable!(),
        }
        state.check_invariants().expect("invariants hold");
    }
    panic!("the game did not end");
}

fn scores(state: &State) -> Vec<i32> {
    state.players().iter().map(|p| p.score).collect()
}

#[test]
fn edge_double_pays_each_share_of_an_edge_nutrient_twice() {
    let standard = rules("extends = \"standard\"\n");
    let edge = rules(&std::fs::read_to_string(manifest("variants/edge-double.toml")).unwrap());
    // A rule that only counts what edge-double should add, seat by seat.
    let counter = rules(&with_script(
        "scored",
        "if ctx.on_edge(ctx.x, ctx.y) { for s in 1..=ctx.seats { ctx.set(`edge${s}`, ctx.get(`edge${s}`) + ctx.share(s)); } }",
    ));
    let mut fired_games = 0;
    for seed in 0..40 {
        // Random play does not read the scores: the three games take the
        // same course, only the scores differ.
        let base = play(&standard, seed);
        let doubled = play(&edge, seed);
        let counted = play(&counter, seed);
        assert_eq!(base.stats(), counted.stats(), "seed {seed}");
        for s in 0..2 {
            let extra = counted.script_memory(&format!("edge{}", s + 1));
            assert_eq!(
                i64::from(doubled.players()[s].score - base.players()[s].score),
                extra,
                "seed {seed} seat {}",
                s + 1
            );
        }
        let fired = doubled.script_fired();
        assert_eq!(fired[0].0, "edge-double");
        if fired[0].1 > 0 {
            fired_games += 1;
            assert_ne!(scores(&base), scores(&doubled));
        }
    }
    assert!(
        fired_games > 10,
        "the rule fired in {fired_games} of 40 games"
    );
}

#[test]
fn a_typo_is_placed_at_its_line_and_column_in_the_toml_file() {
    let text = "extends = \"standard\"\n[[script]]\nname = \"t\"\nhook = \"scored\"\ncode = '''\nif ctx.on_edge(ctx.x, ctx.y) {\n    ctx.add_scor(1, ctx.vlue);\n}\n'''\n";
    let err = errors(text);
    let found: Vec<_> = err
        .items
        .iter()
        .map(|d| (d.line, d.col, d.help.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        found,
        vec![
            (Some(7), Some(9), "did you mean `add_score`?".to_owned()),
            (Some(7), Some(25), "did you mean `value`?".to_owned()),
        ]
    );
    assert!(err.items.iter().all(|d| d.code == Code::Script));
    // A basic string, escapes and all: still the right column.
    let text =
        "[[script]]\nname = \"t\"\nhook = \"final\"\ncode = \"let s = \\\"a\\\"; ctx.nope\"\n";
    let err = errors(text);
    assert_eq!((err.items[0].line, err.items[0].col), (Some(4), Some(28)));
    assert!(err.items[0].message.contains("no field `nope`"));
}

#[test]
fn syntax_errors_and_unknown_hooks_are_reported_with_hints() {
    let err = errors(&with_script("scoerd", "let x = ;"));
    assert_eq!(err.items.len(), 2, "{:?}", err.items);
    assert!(err.items[0].message.contains("`scoerd` is not a hook"));
    assert_eq!(err.items[0].help.as_deref(), Some("did you mean `scored`?"));
    assert_eq!(err.items[0].line, Some(4));
    assert!(err.items[1].message.contains("does not compile"));
    assert_eq!((err.items[1].line, err.items[1].col), (Some(6), Some(9)));
    let err = errors(&with_script("final", "nothing_here += 1;"));
    assert!(err.items[0].message.contains("Undefined variable"));
}

#[test]
fn scripts_inherit_by_name_and_a_child_can_change_or_turn_one_off() {
    let child = "extends = \"edge-double.toml\"\n";
    let r = rules(child);
    assert_eq!(r.script.list().len(), 1);
    let off = rules(
        "extends = \"edge-double.toml\"\n[[script]]\nname = \"edge-double\"\nenabled = false\n",
    );
    assert!(off.script.is_empty());
    let changed = rules(
        "extends = \"edge-double.toml\"\n[[script]]\nname = \"edge-double\"\ncode = \"ctx.add_score(1, 1);\"\n",
    );
    assert_eq!(changed.script.list()[0].hook, "scored");
    assert_eq!(changed.script.list()[0].code, "ctx.add_score(1, 1);");
    let err = errors(
        "extends = \"edge-double.toml\"\n[[script]]\nname = \"edge-doubel\"\nenabled = false\n",
    );
    assert_eq!(
        err.items[0].help.as_deref(),
        Some("did you mean `edge-double`?")
    );
    assert_eq!(err.items[0].line, Some(3));
    let err = errors("[[script]]\nname = \"x\"\nhook = \"final\"\n");
    assert!(
        err.items[0].message.contains("needs `code`"),
        "{}",
        err.items[0].message
    );
    let err = errors(
        "[[script]]\nname = \"x\"\nhook = \"final\"\ncode = \"1\"\n[[script]]\nname = \"x\"\nhook = \"final\"\ncode = \"2\"\n",
    );
    assert!(err.items[0].message.contains("written twice"));
    // A problem in a parent's script is placed in the parent.
    let err = load_str(
        "child.toml",
        "extends = \"edge-double.toml\"\n[[script]]\nname = \"edge-double\"\nhook = \"nope\"\n",
        Some(&manifest("variants")),
    )
    .expect_err("bad hook");
    assert_eq!(err.items[0].file, "child.toml");
    assert_eq!(err.items[0].line, Some(4));
}

#[test]
fn rules_without_scripts_serialise_as_before_and_scripts_travel_in_the_rules() {
    let plain = serde_json::to_value(Rules::standard()).unwrap();
    assert!(plain.get("script").is_none());
    let edge = rules(&std::fs::read_to_string(manifest("variants/edge-double.toml")).unwrap());
    let json = serde_json::to_string(&*edge).unwrap();
    let back: Rules = serde_json::from_str(&json).unwrap();
    assert_eq!(back, *edge);
    assert_eq!(back.script.list()[0].name, "edge-double");
    // Rules from elsewhere (a record) with a broken script: no game, a clear error.
    let mut broken: serde_json::Value = serde_json::from_str(&json).unwrap();
    broken["script"][0]["code"] = "ctx.add_scor(1, 1)".into();
    let broken: Rules = serde_json::from_value(broken).unwrap();
    let err = State::new(Arc::new(broken), 2).expect_err("refused");
    assert!(err.0.contains("add_scor"), "{}", err.0);
}

#[test]
fn the_same_seed_gives_the_same_scripted_game() {
    let r = rules(&with_script(
        "after_roll",
        "if ctx.kind == \"growth\" && ctx.face == 1 { ctx.add_score(ctx.seat, 2); ctx.set(\"ones\", ctx.get(\"ones\") + 1); }",
    ));
    for seed in 0..10 {
        let a = play_checked(&r, seed);
        let b = play(&r, seed);
        assert_eq!(scores(&a), scores(&b));
        assert_eq!(a.stats(), b.stats());
        assert_eq!(a.script_memory("ones"), b.script_memory("ones"));
    }
}

#[test]
fn an_endless_loop_ends_that_game_with_a_message_naming_script_hook_and_event() {
    let r = rules(&with_script("after_roll", "if ctx.round > 2 { loop { } }"));
    let state = play(&r, 7);
    assert_eq!(state.next(), Next::Over);
    assert_eq!(state.end_reason(), Some(EndReason::ScriptError));
    let message = state.script_failure().expect("a failure");
    assert!(
        message.contains("house rule `rule` (hook `after_roll`)"),
        "{message}"
    );
    assert!(message.contains("budget"), "{message}");
    assert!(message.contains("event: a d"), "{message}");
    assert!(message.contains("in round 3"), "{message}");
    state.check_invariants().expect("the game is whole");
    assert!(state.outcome().is_some());
}

#[test]
fn a_refused_operation_ends_the_game_and_never_corrupts_it() {
    // Adding a bead where one stands is refused by the engine's own check.
    let r = rules(&with_script(
        "after_action",
        "if ctx.kind == \"place\" { ctx.add_bead(ctx.seat, ctx.x, ctx.y); }",
    ));
    let state = play_checked(&r, 3);
    assert_eq!(state.end_reason(), Some(EndReason::ScriptError));
    let message = state.script_failure().unwrap();
    assert!(message.contains("is not an empty point"), "{message}");
    // Arguments out of range fail in the script, at its place.
    let r = rules(&with_script("final", "ctx.add_score(9, 1);"));
    let state = play_checked(&r, 3);
    let message = state.script_failure().unwrap();
    assert!(message.contains("seat 9 does not play"), "{message}");
    assert!(message.contains("line 1"), "{message}");
    // An operation a hook may not ask for.
    let r = rules(&with_script("final", "ctx.end_turn();"));
    let message = play(&r, 3).script_failure().unwrap().to_owned();
    assert!(
        message.contains("cannot be asked for at hook `final`"),
        "{message}"
    );
}

#[test]
fn limits_on_strings_arrays_and_recursion_hold() {
    for code in [
        "let s = \"x\"; loop { s += s; }",
        "let a = []; loop { a.push(1); }",
        "fn f(n) { f(n + 1) } f(0);",
    ] {
        let r = rules(&with_script("after_action", code));
        let state = play(&r, 1);
        assert_eq!(state.end_reason(), Some(EndReason::ScriptError), "{code}");
        state.check_invariants().unwrap();
    }
}

#[test]
fn hook_legal_forbids_moves() {
    // No bead on the edge of the board.
    let r = rules(&with_script(
        "legal",
        "!(ctx.kind == \"place\" && ctx.on_edge(ctx.x, ctx.y))",
    ));
    for seed in 0..10 {
        let state = play_checked(&r, seed);
        if state.script_failure().is_none() {
            let g = state.grid();
            let edge = g.all().filter(|&p| {
                let (x, y) = g.xy(p);
                state.bead(p).is_some()
                    && (x == 0 || y == 0 || x == g.size() - 1 || y == g.size() - 1)
            });
            assert_eq!(edge.count(), 0, "seed {seed}");
        }
    }
    // The checked path refuses a forbidden move, naming the rule.
    let r = rules(&with_script(
        "legal",
        "ctx.kind != \"grow\" || ctx.growth != \"sunbathe\"",
    ));
    let mut state = State::new(r, 2).unwrap();
    let mut dice = SeededDice::for_game(1, 0);
    while !matches!(state.next(), Next::Decide(_)) || state.in_first_turn() {
        match state.next() {
            Next::Chance(d) => state.roll_unchecked(dice.roll(d)),
            _ => {
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
        }
    }
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    use roots::games::roots_and_shoots::Action;
    use roots::games::roots_and_shoots::rules::Growth;
    assert!(!legal.contains(&Action::Grow(Growth::Sunbathe)));
    assert!(legal.contains(&Action::Grow(Growth::Buds)));
    assert!(!state.allows(Action::Grow(Growth::Sunbathe)));
    let refusal = state.play(Action::Grow(Growth::Sunbathe)).unwrap_err();
    assert!(
        refusal.to_string().contains("house rule `rule`"),
        "{refusal}"
    );
}

#[test]
fn hook_roll_rerolls_from_the_seeded_stream_and_sets_faces() {
    // "A growth roll of 1 may be rolled again once per game" per seat.
    let r = rules(&with_script(
        "roll",
        "let k = `used${ctx.seat}`; if ctx.kind == \"growth\" && ctx.face == 1 && ctx.get(k) == 0 { ctx.set(k, 1); ctx.reroll(); }",
    ));
    let mut rerolled = 0;
    for seed in 0..20 {
        let state = play_checked(&r, seed);
        let used = state.script_memory("used1") + state.script_memory("used2");
        assert!(used <= 2);
        rerolled += state.script_fired()[0].1;
        assert_eq!(i64::from(state.script_fired()[0].1), used);
    }
    assert!(rerolled > 0);
    // Every spawn-check roll counts as 12: a nutrient spawns whenever one may.
    let r = rules(&with_script(
        "roll",
        "if ctx.kind == \"spawn_check\" { ctx.set_face(12); }",
    ));
    let state = play_checked(&r, 2);
    assert!(state.script_failure().is_none());
    // A rule that always rolls again is stopped.
    let r = rules(&with_script("roll", "ctx.reroll();"));
    let state = play(&r, 2);
    assert!(
        state
            .script_failure()
            .unwrap()
            .contains("rolled again 100 times")
    );
}

#[test]
fn operations_change_scores_stores_supplies_beads_nutrients_and_the_turn() {
    // Each seat's first action of round 2 adds beads and points; checked
    // against the invariants after every step.
    let r = rules(&with_script(
        "after_action",
        r#"
if ctx.round == 2 && ctx.get(`done${ctx.seat}`) == 0 {
    ctx.set(`done${ctx.seat}`, 1);
    ctx.add_score(ctx.seat, 5);
    ctx.add_store(ctx.seat, 3);
    ctx.add_supply(ctx.seat, -1);
    for x in 0..ctx.size {
        if ctx.bead(x, 0) == 0 && ctx.nutrients(x, 0) == 0 { ctx.add_bead(ctx.seat, x, 0); break; }
    }
    for x in 0..ctx.size {
        if ctx.bead(x, ctx.size - 1) == 0 && ctx.nutrients(x, ctx.size - 1) == 0 { ctx.add_nutrient(x, ctx.size - 1); break; }
    }
    ctx.rain();
}
"#,
    ));
    for seed in 0..10 {
        let state = play_checked(&r, seed);
        assert!(
            state.script_failure().is_none(),
            "{:?}",
            state.script_failure()
        );
        assert_eq!(
            state.script_memory("done1") + state.script_memory("done2"),
            2
        );
    }
    // A bead taken off goes where the rules say, lost ends and all.
    let r = rules(&with_script(
        "after_roll",
        "if ctx.round == 3 && ctx.get(\"r\") == 0 { for y in 0..ctx.size { for x in 0..ctx.size { if ctx.bead(x, y) != 0 && ctx.get(\"r\") == 0 { ctx.set(\"r\", 1); ctx.remove_bead(x, y); } } } }",
    ));
    let state = play_checked(&r, 4);
    assert_eq!(state.script_memory("r"), 1);
    assert!(state.players().iter().map(|p| p.removed).sum::<u32>() >= 1);
    // Ending the turn at once after each growth choice: nothing is placed.
    let r = rules(&with_script(
        "after_action",
        "if ctx.kind == \"grow\" { ctx.end_turn(); }",
    ));
    let state = play_checked(&r, 5);
    assert_eq!(state.stats().placements, 0);
    assert_eq!(state.end_reason(), Some(EndReason::RoundLimit));
}

#[test]
fn hooks_end_the_game_and_adjust_final_scores() {
    let r = rules(&with_script(
        "after_action",
        "if ctx.round == 5 { ctx.end_game(); }",
    ));
    let state = play_checked(&r, 1);
    assert_eq!(state.end_reason(), Some(EndReason::Script));
    assert_eq!(state.round(), 5);
    let base = play(&rules("extends = \"standard\"\n"), 9);
    let r = rules(&with_script(
        "final",
        "ctx.add_score(2, 10); ctx.add_score(1, -ctx.score(1) % 7);",
    ));
    let bonus = play_checked(&r, 9);
    let (b, s) = (scores(&base), scores(&bonus));
    assert_eq!(s[1], b[1] + 10);
    assert_eq!(s[0], b[0] - b[0] % 7);
}

#[test]
fn the_no_script_path_is_the_plain_game() {
    // The same games as before scripts existed: the standard built-in and
    // the same rules with an empty script list are one game.
    let a = play(&Arc::new(Rules::standard()), 11);
    let b = play(&rules("extends = \"standard\"\n"), 11);
    assert_eq!(scores(&a), scores(&b));
    assert!(a.script_fired().is_empty());
}

#[test]
fn script_texts_of_the_fuzz_target_end_cleanly() {
    // Every hook, with scripts that fail, loop, forbid everything, or do
    // nothing: checked play (`play`, `roll`), invariants, an end.
    for code in [
        "false",
        "loop {}",
        "ctx.add_score(1, 1000); ctx.add_store(2, 1000);",
        "ctx.end_game();",
        "ctx.reroll();",
        "ctx.set_face(ctx.die);",
        "if ctx.seat == 1 { ctx.rain(); }",
        "ctx.remove_bead(0, 0)",
        "let x = ;",
        "ctx.nope",
        "42",
    ] {
        for hook in 0u8..6 {
            let mut data = vec![hook];
            data.extend_from_slice(code.as_bytes());
            roots::fuzzing::script_text(&data);
        }
    }
}

#[test]
fn reroll_ones_rolls_a_growth_one_again_once_per_player() {
    let text = std::fs::read_to_string(manifest("variants/reroll-ones.toml")).unwrap();
    let r = rules(&text);
    let mut fired = 0;
    for seed in 0..30 {
        let state = play_checked(&r, seed);
        let used: i64 = (1..=2)
            .map(|s| state.script_memory(&format!("rerolled{s}")))
            .sum();
        let runs = state.script_fired()[0].1;
        // Each reroll marks its player: at most one per player.
        assert_eq!(i64::from(runs), used, "seed {seed}");
        assert!(used <= 2);
        fired += runs;
    }
    assert!(fired > 5, "fired {fired} times in 30 games");
}

#[test]
fn no_edge_plants_keeps_new_plants_off_the_edge() {
    let text = std::fs::read_to_string(manifest("variants/no-edge-plants.toml")).unwrap();
    // The rule, and a second script that notes any new-plant bead placed
    // on the edge (and, in the plain game, how often that happens).
    let checker = "\n[[script]]\nname = \"checker\"\nhook = \"after_action\"\ncode = '''\nif ctx.kind == \"place\" && ctx.growth == \"new_plant\" && ctx.on_edge(ctx.x, ctx.y) { ctx.set(\"edge\", ctx.get(\"edge\") + 1); }\n'''\n";
    let ruled = rules(&format!("{text}{checker}"));
    let plain = rules(&format!("extends = \"standard\"\n{checker}"));
    let mut plain_edges = 0;
    for seed in 0..30 {
        let state = play_checked(&ruled, seed);
        assert!(
            state.script_failure().is_none(),
            "{:?}",
            state.script_failure()
        );
        assert_eq!(state.script_memory("edge"), 0, "seed {seed}");
        plain_edges += play(&plain, seed).script_memory("edge");
    }
    assert!(plain_edges > 0, "random play puts new plants on the edge");
}

#[test]
fn a_scripted_game_is_recorded_replayed_and_narrated() {
    use crate::common::{roots, tmp_dir};
    let dir = tmp_dir("scripts", "replay");
    let record = dir.join("game.jsonl");
    let record = record.to_str().unwrap();
    let run = roots(&[
        "simulate",
        "variants/reroll-ones.toml",
        "-n",
        "4",
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
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(record).unwrap();
    assert!(
        text.contains("reroll-ones"),
        "the record carries the script"
    );
    let run = roots(&["replay", record, "--list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("house rule `reroll-ones`: the d"),
        "{}",
        run.stdout
    );
    // A failing rule: the run goes on, the game is counted.
    let run = roots(&[
        "simulate",
        "tests/variants/scripts/endless-loop.toml",
        "-n",
        "6",
        "--seed",
        "1",
        "--bots",
        "random",
        "--jobs",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("a house rule fails"), "{}", run.stdout);
    // Each stopped game is named with the run's seed and how to record it
    // again, with the rule's own message (the rule, its hook, the event).
    let stopped: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("a house rule stopped the game"))
        .collect();
    assert!(!stopped.is_empty(), "{}", run.stderr);
    let first = stopped[0];
    assert!(
        first.contains("(seed 1; `--seed 1 --record-game ") && first.contains("hook `"),
        "{first}"
    );
}

#[test]
fn a_script_reads_the_board_even_through_a_function_named_at_run_time() {
    // The board's points are copied for a hook only when a script names
    // `bead` or `nutrients`; a script that builds the name (here "be" +
    // "ad") must see them all the same.
    let r = rules(&with_script(
        "after_action",
        "let f = Fn(\"be\" + \"ad\");
         let seen = 0;
         for x in 0..ctx.size { for y in 0..ctx.size { if f.call(ctx, x, y) > 0 { seen += 1; } } }
         if seen != ctx.on_board(1) + ctx.on_board(2) { throw `saw ${seen} beads`; }",
    ));
    for seed in 0..3 {
        let state = play(&r, seed);
        assert_eq!(state.script_failure(), None, "seed {seed}");
        assert_ne!(state.end_reason(), Some(EndReason::ScriptError));
    }
}

#[test]
fn a_script_that_gives_ctx_another_value_fails_cleanly_and_the_next_game_runs() {
    let r = rules(&with_script(
        "after_action",
        "if ctx.round > 1 { ctx = 1; }",
    ));
    let state = play(&r, 3);
    assert_eq!(state.end_reason(), Some(EndReason::ScriptError));
    let message = state.script_failure().expect("a failure");
    assert!(message.contains("gave `ctx` another value"), "{message}");
    state.check_invariants().expect("the game is whole");
    // The thread's reused scope starts afresh for the next script.
    let edge = rules(&std::fs::read_to_string(manifest("variants/edge-double.toml")).unwrap());
    let mut fired = 0;
    for seed in 0..10 {
        let state = play(&edge, seed);
        assert_eq!(state.script_failure(), None);
        fired += state.script_fired().iter().map(|(_, n)| n).sum::<u32>();
    }
    assert!(fired > 0, "edge-double fired in some of 10 games");
}

#[test]
fn the_rule_event_script_counts_the_runs_that_changed_the_game() {
    use roots::games::Game;
    use roots::games::roots_and_shoots::RootsAndShoots;
    let edge = rules(&std::fs::read_to_string(manifest("variants/edge-double.toml")).unwrap());
    let i = RootsAndShoots::RULE_EVENTS
        .iter()
        .position(|e| e.key == "script")
        .expect("the event");
    let mut fired_in = 0;
    for seed in 0..10 {
        let state = play(&edge, seed);
        let fired: u32 = state.script_fired().iter().map(|(_, n)| n).sum();
        assert_eq!(RootsAndShoots::rule_events(&state)[i], fired, "seed {seed}");
        fired_in += u32::from(fired > 0);
    }
    assert!(fired_in > 0, "the rule fired in some of 10 games");
    let plain = play(&Arc::new(Rules::standard()), 1);
    assert_eq!(RootsAndShoots::rule_events(&plain)[i], 0);
}

/// `compare standard edge-double` says how often the house rule fired: its
/// event exists only in B, the variant that has the script.
#[test]
fn compare_says_how_often_a_house_rule_fired() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
        .args(["compare", "standard"])
        .arg(manifest("variants/edge-double.toml"))
        .args(["-n", "100", "--seed", "3", "-q", "-b", "random"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.contains("house rule `edge-double` (a script) changed the game in:"))
        .unwrap_or_else(|| panic!("no line on the house rule's firing:\n{stdout}"));
    assert!(line.contains("in: not in A; B "), "{line}");
    assert!(line.contains("%) of games ("), "{line}");
    assert!(line.ends_with(" changes a game)"), "{line}");
}

/// Three house rules in one variant, each counted alone: `simulate` gives
/// each its own line (in the text and the JSON) and names the one that
/// never fired, the lines add up to the rule event `script` (all of them
/// together), and `compare` gives each its own verdict.
#[test]
fn each_house_rule_is_counted_alone_by_simulate_and_compare() {
    use crate::common::{roots, tmp_dir};
    let dir = tmp_dir("scripts", "each_house_rule");
    let file = dir.join("three.toml");
    let rules = r#"
[[script]]
name = "reroll-ones"
hook = "roll"
code = '''
if ctx.face == 1 && ctx.kind == "growth" {
    let used = `rerolled${ctx.seat}`;
    if ctx.get(used) == 0 { ctx.set(used, 1); ctx.reroll(); }
}
'''

[[script]]
name = "never"
hook = "final"
code = "if ctx.round > 1000 { ctx.add_score(1, 1); }"
"#;
    let base = manifest("variants/edge-double.toml");
    let text = format!(
        "extends = {:?}\nname = \"three\"\n{rules}",
        base.to_string_lossy()
    );
    std::fs::write(&file, text).unwrap();
    let path = file.to_string_lossy().into_owned();
    let args = [
        "simulate", &path, "-n", "60", "--seed", "3", "-q", "-b", "random",
    ];
    let json = roots(&[&args[..], &["--format", "json"]].concat()).json();
    let design = &json["measures"];
    let lines = design["house_rules"]
        .as_array()
        .expect("a line per house rule");
    let names: Vec<&str> = lines.iter().map(|h| h["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["edge-double", "reroll-ones", "never"]);
    let count = |i: usize| lines[i]["games"]["count"].as_u64().unwrap();
    let per_game = |i: usize| lines[i]["per_game"].as_f64().unwrap();
    assert!(count(0) > 0 && count(1) > 0, "{lines:?}");
    assert_eq!(count(2), 0);
    // `reroll-ones` changes the game at most once a seat.
    assert!(per_game(1) > 0.0 && per_game(1) <= 2.0, "{lines:?}");
    let all = design["rule_events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == "script")
        .expect("the rule event script");
    let sum: f64 = (0..3).map(per_game).sum();
    assert!(
        (sum - all["per_game"].as_f64().unwrap()).abs() < 1e-9,
        "{sum} against {all}"
    );
    let text = roots(&args).stdout;
    assert!(text.contains("House rules "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("`reroll-ones`") && l.contains("% (")),
        "{text}"
    );
    // The scripts together: one row, under House rules, with the event's
    // figure; not a second row among the rule events.
    let label = all["label"].as_str().unwrap();
    assert!(!text.contains(label), "{text}");
    let together = format!("{:.2}", all["per_game"].as_f64().unwrap());
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("all of them") && l.contains(&together)),
        "{text}"
    );
    assert!(
        text.contains(
            "House rule `never` (a script) never changed the game in 60 games: it cannot matter under these bots"
        ),
        "{text}"
    );
    let compare = roots(&[
        "compare", "standard", &path, "-n", "60", "--seed", "3", "-q", "-b", "random",
    ]);
    assert_eq!(compare.code, 0, "{}", compare.stderr);
    for name in ["edge-double", "reroll-ones"] {
        assert!(
            compare.stdout.contains(&format!(
                "house rule `{name}` (a script) changed the game in: not in A; B "
            )),
            "{name}: {}",
            compare.stdout
        );
    }
    assert!(
        compare.stdout.contains(
            "house rule `never` (a script) never changed the game in 60 games of B: it cannot matter under these bots"
        ),
        "{}",
        compare.stdout
    );
}

#[test]
fn a_hook_that_reads_no_position_leaves_it_unwritten_and_one_that_does_reads_it_afresh() {
    // The `ctx` is kept from run to run: hook `roll` names no part of the
    // position (its view is not written), hook `after_action` does, and
    // must see the position of its own moment at every step.
    let text = format!(
        "{}\n[[script]]\nname = \"watch\"\nhook = \"after_action\"\ncode = '''\nctx.set(\"round\", ctx.round); ctx.set(\"pile\", ctx.pile); ctx.set(\"seats\", ctx.seats);\n'''\n",
        with_script("roll", "let s = ctx.seat;")
    );
    let r = rules(&text);
    for seed in [1, 2, 3] {
        let mut state = State::new(r.clone(), 2).expect("a game");
        let mut dice = SeededDice::for_game(seed, 0);
        let mut checked = 0;
        while state.next() != Next::Over {
            match state.next() {
                Next::Chance(die) => state.roll_unchecked(dice.roll(die)),
                Next::Decide(_) => {
                    let a = state.random_action(&mut dice);
                    state.play_unchecked(a);
                    // The hook ran on the position after the move (it
                    // changes nothing), so it read what the state holds.
                    assert_eq!(state.script_memory("round"), i64::from(state.round()));
                    assert_eq!(
                        state.script_memory("pile"),
                        i64::from(state.nutrient_supply())
                    );
                    assert_eq!(state.script_memory("seats"), 2);
                    checked += 1;
                }
                _ => unreachable!(),
            }
        }
        assert!(checked > 10, "seed {seed}: {checked} steps checked");
    }
}

#[test]
fn the_hooks_of_one_step_share_its_ctx_and_each_sees_its_own_moment() {
    // A script on every hook checks the hook's name and its moment (an
    // operation asked for with seat 99 is refused, and one at `roll` or
    // `legal` is refused anyway: either ends the game), and two count
    // their runs in the memory: the game must be the plain one.
    let rule = |name: &str, code: &str| {
        format!("[[script]]\nname = \"{name}\"\nhook = \"{name}\"\ncode = '''\n{code}\n'''\n")
    };
    let text = [
        "extends = \"standard\"\n".to_owned(),
        rule("legal", "ctx.hook == \"legal\" && ctx.seat >= 1"),
        rule(
            "roll",
            "if ctx.hook != \"roll\" || ctx.face < 1 || ctx.face > ctx.die { ctx.add_score(99, 1); }",
        ),
        rule(
            "after_roll",
            "if ctx.hook != \"after_roll\" || ctx.seat < 1 { ctx.add_score(99, 1); } ctx.set(\"rolls\", ctx.get(\"rolls\") + 1);",
        ),
        rule(
            "after_action",
            "if ctx.hook != \"after_action\" || ctx.seat < 1 || ctx.kind == \"\" { ctx.add_score(99, 1); } ctx.set(\"actions\", ctx.get(\"actions\") + 1);",
        ),
        rule(
            "scored",
            "if ctx.hook != \"scored\" || ctx.kind != \"scored\" || ctx.seat != 0 { ctx.add_score(99, 1); }",
        ),
        rule(
            "final",
            "if ctx.hook != \"final\" || ctx.kind != \"over\" { ctx.add_score(99, 1); }",
        ),
    ]
    .concat();
    let scripted = rules(&text);
    let plain = rules("extends = \"standard\"\n");
    for seed in 1..=5 {
        let state = play_checked(&scripted, seed);
        assert_eq!(state.script_failure(), None, "seed {seed}");
        assert!(state.script_memory("rolls") > 0, "seed {seed}");
        assert!(state.script_memory("actions") > 0, "seed {seed}");
        let same = play(&scripted, seed).outcome();
        assert_eq!(same, play(&plain, seed).outcome(), "seed {seed}");
    }
}

#[test]
fn an_operation_is_judged_at_its_own_hook_when_the_step_s_other_hooks_never_name_it() {
    // The step's `ctx` is kept from hook to hook, and its hook's name is
    // written only for a hook whose scripts name it or an operation: a
    // hook that names neither must not leave a name an operation at the
    // next hook is judged by.
    let rule = |name: &str, hook: &str, code: &str| {
        format!("[[script]]\nname = \"{name}\"\nhook = \"{hook}\"\ncode = '''\n{code}\n'''\n")
    };
    // Allowed at `after_roll` after a `roll` script that names nothing of
    // it: every roll pays seat 1 a point.
    let text = [
        "extends = \"standard\"\n".to_owned(),
        rule("quiet", "roll", "let s = ctx.seat;"),
        rule("pay", "after_roll", "ctx.add_score(1, 1);"),
        rule("quiet-too", "after_action", "let s = ctx.seat;"),
    ]
    .concat();
    let state = play_checked(&rules(&text), 4);
    assert_eq!(state.script_failure(), None);
    let fired = state.script_fired();
    assert!(
        fired.iter().any(|(name, n)| name == "pay" && *n > 10),
        "{fired:?}"
    );
    // Refused at `final` though `after_action`, where it is allowed, ran
    // an operation's script on the same `ctx` in the game's last step.
    let text = [
        "extends = \"standard\"\n".to_owned(),
        rule(
            "never",
            "after_action",
            "if ctx.seat == 99 { ctx.add_store(1, 1); }",
        ),
        rule("late", "final", "ctx.add_store(1, 1);"),
    ]
    .concat();
    let state = play_checked(&rules(&text), 4);
    let message = state.script_failure().expect("refused");
    assert!(
        message.contains("cannot be asked for at hook `final`"),
        "{message}"
    );
}
