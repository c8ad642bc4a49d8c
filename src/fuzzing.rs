//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs`), here so that
//! the crashes they find are replayed by the ordinary `cargo test`
//! (`tests/fuzz_regressions.rs`) without nightly or libFuzzer.
//!
//! Each function takes arbitrary bytes and must never panic on them; a panic
//! (or an invariant found broken, reported as a panic) is a bug. None does IO
//! except what the variant loader itself does for an `extends` path.

use std::path::Path;
use std::sync::Arc;

use crate::core::dice::{Die, SeededDice};
use crate::core::geometry::Grid;
use crate::core::protocol::{GameState, Next};
use crate::games::Game;
use crate::games::roots_and_shoots::{Action, RootsAndShoots, Rules, State};
use crate::record::reader::{self, PartialTail};
use crate::referee::Referee;
use crate::variant;

/// Steps after which a fuzzed game is abandoned (not a failure: a stalling
/// variant is the smoke check's business, a hang is not a crash).
pub const STEP_BUDGET: u64 = 200_000;

/// Where a relative `extends` of a fuzzed variant is looked up: a directory
/// that does not exist, so fuzzing never reads the project's files.
const NOWHERE: &str = "/nonexistent-roots-fuzz-dir";

/// The shipped variants, to give the engine and input targets some variety.
pub const SHIPPED: &[&str] = &[
    include_str!("../variants/standard.toml"),
    include_str!("../variants/fewer-beads.toml"),
    include_str!("../variants/fewer-nutrients.toml"),
    include_str!("../variants/more-beads.toml"),
    include_str!("../variants/more-nutrients.toml"),
    include_str!("../variants/one-nutrient-per-turn.toml"),
    include_str!("../variants/pre-rolled-values.toml"),
];

fn shipped(i: u8) -> Rules {
    let text = SHIPPED[usize::from(i) % SHIPPED.len()];
    // Some extend `standard.toml`, next to them.
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/variants"));
    match variant::load_str("shipped.toml", text, Some(dir)) {
        Ok(loaded) => match <RootsAndShoots as crate::games::Registered>::unwrap(&loaded.rules) {
            Some(r) => (**r).clone(),
            None => panic!("a shipped Roots and Shoots variant is of another game"),
        },
        Err(_) => panic!("a shipped variant does not load"),
    }
}

fn check<G: Game>(state: &G::State, when: &str) {
    if let Err(e) = G::check_invariants(state) {
        panic!("invariant broken {when}: {e}");
    }
}

/// Arbitrary bytes as a variant file. When it loads, one seeded random game
/// is played with the rules, checking the invariants as it goes.
pub fn variant_loader(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(loaded) = variant::load_str("fuzz.toml", text, Some(Path::new(NOWHERE))) else {
        return;
    };
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    crate::with_game!(&loaded.rules, G, rules => {
        let players = *G::seats(rules).start();
        play_random::<G>(Arc::clone(rules), players, seed);
    });
}

/// Arbitrary bytes as the code of a house rule written as a script in a
/// Roots and Shoots variant (the first byte picks the hook): the variant
/// pipeline must check it without panicking, and when it loads, a seeded
/// game with it must end (a failing script ends it) with every invariant
/// holding.
pub fn script_text(data: &[u8]) {
    const HOOKS: [&str; 6] = [
        "legal",
        "roll",
        "after_roll",
        "after_action",
        "scored",
        "final",
    ];
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(code) = std::str::from_utf8(rest) else {
        return;
    };
    // A JSON string is a TOML basic string (the same escapes).
    let Ok(quoted) = serde_json::to_string(code) else {
        return;
    };
    let hook = HOOKS[usize::from(first) % HOOKS.len()];
    let text = format!(
        "extends = \"standard\"\n[end]\nmax_rounds = 6\n[[script]]\nname = \"fuzz\"\nhook = \"{hook}\"\ncode = {quoted}\n"
    );
    play_script_variant(&text, data, Some(2));
}

/// Arbitrary bytes as the code of a house rule written as a script in a
/// variant of Branches & Twigs & Thorns, Sprout-R-Out or Roots Growy Roots
/// (the first byte picks the game and the hook: `legal`, `after_action` or
/// `final`): as [`script_text`], the variant pipeline must check it without
/// panicking, and when it loads, a seeded game with it must end (a failing
/// script ends it) with every invariant holding.
pub fn script_text_games(data: &[u8]) {
    const GAMES: [(&str, &str); 3] = [
        ("branches", "btt"),
        ("sprout-r-out", "sprout-r-out"),
        ("roots-growy-roots", "roots-growy-roots"),
    ];
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(code) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(quoted) = serde_json::to_string(code) else {
        return;
    };
    let (game, base) = GAMES[usize::from(first) % GAMES.len()];
    let hook = crate::script::session::HOOK_NAMES[usize::from(first / 3) % 3];
    let text = format!(
        "game = \"{game}\"\nextends = \"{base}\"\nname = \"fuzz\"\n[[script]]\nname = \"fuzz\"\nhook = \"{hook}\"\ncode = {quoted}\n"
    );
    play_script_variant(&text, data, None);
}

/// The scripted variant `text` loaded and, when it loads, one seeded
/// random game of it for `players` seats (none: the fewest it allows),
/// seeded from the fuzzer's bytes `data`.
fn play_script_variant(text: &str, data: &[u8], players: Option<u8>) {
    let Ok(loaded) = variant::load_str("fuzz.toml", text, Some(Path::new(NOWHERE))) else {
        return;
    };
    let seed = data
        .iter()
        .fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
    crate::with_game!(&loaded.rules, G, rules => {
        let players = players.unwrap_or_else(|| *G::seats(rules).start());
        play_random::<G>(Arc::clone(rules), players, seed);
    });
}

/// One seeded random game, checked every 64 steps and at the end.
fn play_random<G: Game>(rules: Arc<G::Rules>, players: u8, seed: u64) {
    let mut state = match G::new_state(rules, players) {
        Ok(s) => s,
        Err(e) => panic!("loaded rules refuse their own player count: {e}"),
    };
    let mut dice = SeededDice::for_game(seed, 0);
    let mut steps = 0u64;
    loop {
        match state.next() {
            Next::Chance(die) => {
                if let Err(e) = state.roll(dice.roll(die)) {
                    panic!("a face of the named die was refused: {e}");
                }
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                if let Err(e) = state.roll(face) {
                    panic!("a card drawn from what is left of its deck was refused: {e}");
                }
            }
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                if let Err(e) = state.play(a) {
                    panic!("the random sampler chose {a:?}, refused: {e}");
                }
            }
            Next::Over => break,
        }
        steps += 1;
        if steps.is_multiple_of(64) {
            check::<G>(&state, &format!("after step {steps}"));
        }
        if steps >= STEP_BUDGET {
            return;
        }
    }
    check::<G>(&state, "at the end");
    if state.outcome().is_none() {
        panic!("a game over has no outcome");
    }
}

/// Arbitrary bytes as a record: read (both ways of treating a partial last
/// line), then replayed through the checked engine.
pub fn record_replay(data: &[u8]) {
    let _ = reader::parse(data, PartialTail::Refuse);
    let Ok(raw) = reader::parse(data, PartialTail::Drop) else {
        return;
    };
    crate::with_game_id!(raw.header.game(), G => {
        if let Ok(game) = Referee::<G>::replay(&raw, None) {
            check::<G>(game.state(), "after a replay");
        }
    });
}

/// A position reached by `steps` random steps of a shipped variant.
fn position(variant: u8, players: u8, seed: u8, steps: u8) -> State {
    let rules = Arc::new(shipped(variant));
    let n = rules.players.min + players % (rules.players.max - rules.players.min + 1);
    let mut state = match State::new(rules, n) {
        Ok(s) => s,
        Err(e) => panic!("a shipped variant refuses {n} players: {e}"),
    };
    let mut dice = SeededDice::for_game(u64::from(seed), 0);
    for _ in 0..u32::from(steps) * 4 {
        match state.next() {
            Next::Chance(die) => {
                let _ = state.roll(dice.roll(die));
            }
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                let _ = state.roll(face);
            }
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
            Next::Over => break,
        }
    }
    state
}

/// Arbitrary text typed at the referee: the first 4 bytes choose a position
/// (variant, players, seed, how far into the game), the rest is the line.
/// Every parser of typed input is fed the line; an action it yields is tried
/// on a copy of the state, which must refuse it or stay consistent.
pub fn referee_input(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let state = position(data[0], data[1], data[2], data[3]);
    let line = String::from_utf8_lossy(&data[4..]);
    let grid = *state.grid();
    let _ = Action::parse(&grid, &line);
    let _ = Die::parse(&line);
    let _ = crate::games::roots_and_shoots::rules::Growth::parse(&line);
    for size in [5u8, 19, 25] {
        let _ = Grid::new(size).parse(&line);
    }
    let _ = crate::record::Event::parse(&line);
    let _ = crate::record::Header::parse(&line);
    if let Ok(action) = RootsAndShoots::interpret(&state, &line) {
        let mut trial = state.clone();
        if trial.play(action).is_ok() {
            check::<RootsAndShoots>(&trial, &format!("after the typed `{line}`"));
        }
        let text = action.to_text(&grid);
        if Action::parse(&grid, &text) != Ok(action) {
            panic!("`{text}` does not parse back to {action:?}");
        }
    }
    // The other games' parsers of typed moves, on positions of theirs.
    typed_line::<crate::games::branches::Branches>(data, &line);
    typed_line::<crate::games::sprout_r_out::SproutROut>(data, &line);
    typed_line::<crate::games::roots_growy_roots::RootsGrowyRoots>(data, &line);
}

/// A line typed at a position of game `G` (its standard rules; the first
/// bytes choose the seats, the seed and how far into the game): whatever
/// the game's reader makes of it must be refused or keep the state
/// consistent, and an action it yields must read back from its text form.
/// At a draw, the line is also read as a card's name.
fn typed_line<G: Game>(data: &[u8], line: &str) {
    let rules = std::sync::Arc::new(G::standard());
    let seats = G::seats(&rules);
    let span = seats.end().saturating_sub(*seats.start()).saturating_add(1);
    let n = seats.start().saturating_add(data[1] % span.max(1));
    let mut state = match G::new_state(rules, n) {
        Ok(s) => s,
        Err(e) => panic!("the standard rules of {} refuse {n} players: {e}", G::ID),
    };
    let mut dice = SeededDice::for_game(u64::from(data[2]), 0);
    for _ in 0..u32::from(data[3]) * 2 {
        match state.next() {
            Next::Chance(die) => state.roll_unchecked(dice.roll(die)),
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll_unchecked(face);
            }
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play_unchecked(a);
            }
            Next::Over => break,
        }
    }
    let _ = G::parse_action(&state, line);
    if state.next() == Next::Draw
        && let Ok(face) = G::parse_draw(&state, line)
    {
        let mut trial = state.clone();
        if trial.roll(face).is_ok() {
            check::<G>(&trial, &format!("after the typed card `{line}`"));
            let text = G::format_draw(&state, face);
            if G::parse_draw(&state, &text) != Ok(face) {
                panic!(
                    "{}: card `{text}` does not parse back to face {face}",
                    G::ID
                );
            }
        }
    }
    if let Ok(action) = G::interpret(&state, line) {
        let mut trial = state.clone();
        if trial.play(action).is_ok() {
            check::<G>(&trial, &format!("after the typed `{line}`"));
        }
        let text = G::format_action(&state, action);
        if G::parse_action(&state, &text) != Ok(action) {
            panic!("{}: `{text}` does not parse back to {action:?}", G::ID);
        }
    }
}

/// Bytes as a game: byte 0 picks a shipped variant, byte 1 the players; then
/// each byte picks a face at a chance node (`byte % sides + 1`) or an index
/// into the legal actions at a decision. Invariants after every step.
pub fn engine(data: &[u8]) {
    if data.len() < 2 {
        return;
    }
    let rules = Arc::new(shipped(data[0]));
    let n = rules.players.min + data[1] % (rules.players.max - rules.players.min + 1);
    let mut state = match State::new(rules, n) {
        Ok(s) => s,
        Err(e) => panic!("a shipped variant refuses {n} players: {e}"),
    };
    check::<RootsAndShoots>(&state, "at the start");
    let mut legal = Vec::new();
    for (i, &b) in data[2..].iter().enumerate() {
        match state.next() {
            Next::Chance(die) => {
                let face = b % die.sides() + 1;
                if let Err(e) = state.roll(face) {
                    panic!("step {i}: face {face} of the {die} refused: {e}");
                }
            }
            Next::Draw => panic!("step {i}: Roots and Shoots drew a card"),
            Next::Decide(_) => {
                state.legal_actions(&mut legal);
                if legal.is_empty() {
                    panic!("step {i}: a decision with no legal action");
                }
                let a = legal[usize::from(b) % legal.len()];
                if let Err(e) = state.play(a) {
                    panic!("step {i}: the listed legal action {a:?} was refused: {e}");
                }
            }
            Next::Over => {
                if state.outcome().is_none() {
                    panic!("step {i}: a game over has no outcome");
                }
                return;
            }
        }
        check::<RootsAndShoots>(&state, &format!("after step {i}"));
    }
}

/// Bytes as an engine protocol session (`roots engine`, files off): byte 0
/// picks a built-in variant of any game and a seed to start, the rest is
/// split into request lines. Every line must get one answer line, a JSON
/// object with `ok`; after a refused request the state must be what it was.
/// Lines asking for an MCTS bot are skipped (slow by design, not a crash);
/// `simulate` plays at most 8 games (the engine's closed access).
pub fn protocol(data: &[u8]) {
    use crate::engine::{Access, Engine};
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let names = crate::variant::builtin_names();
    let name = names[usize::from(first) % names.len()];
    let mut engine = Engine::new(Access::CLOSED);
    let start = format!("{{\"cmd\":\"start\",\"variant\":\"{name}\",\"seed\":{first}}}");
    let answer = engine.handle_line(&start);
    if !answer.starts_with("{\"ok\":true") {
        panic!("the built-in `{name}` does not start: {answer}");
    }
    let state_req = "{\"cmd\":\"state\"}";
    for raw in rest.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw);
        if line.to_ascii_lowercase().contains("mcts") {
            continue;
        }
        let before = engine.handle_line(state_req);
        let answer = engine.handle_line(&line);
        if answer.contains('\n') {
            panic!("an answer of several lines to `{line}`: {answer}");
        }
        let v: serde_json::Value = match serde_json::from_str(&answer) {
            Ok(v) => v,
            Err(e) => panic!("the answer to `{line}` is not JSON ({e}): {answer}"),
        };
        let ok = match v.get("ok") {
            Some(serde_json::Value::Bool(b)) => *b,
            _ => panic!("the answer to `{line}` has no `ok`: {answer}"),
        };
        if engine.is_done() {
            return;
        }
        if !ok {
            let after = engine.handle_line(state_req);
            if after != before {
                panic!("a refused `{line}` changed the state");
            }
        }
    }
}

/// Bytes as the parts of a `roots merge`: byte 0 says which parts get a
/// correct checksum (bit k for part k: a forger's part, so the fuzzer gets
/// past the checksum to the checks behind it), the rest is split at 0xFF
/// into parts. A part to be sealed is the text of a part up to its
/// checksum (`{"format":...,"program":"..."`). The parts go through what
/// `roots merge` does before printing: reading, the checksum, the version,
/// the totals' consistency, one run of N shards, sums that cannot wrap,
/// the game's statistics. Never panics; whatever merges adds up (wins and
/// ties make the games, every histogram counts every game).
pub fn merge(data: &[u8]) {
    use crate::sim::shard::{self, Partial};
    let Some((&seal, rest)) = data.split_first() else {
        return;
    };
    let mut parts = Vec::new();
    let mut names = Vec::new();
    for (k, raw) in rest.split(|&b| b == 0xFF).take(8).enumerate() {
        let bytes = if seal & (1 << k) != 0 {
            let mut text = raw.to_vec();
            text.extend_from_slice(b",\"checksum\":\"\"}");
            let sum = shard::checksum(&text);
            let at = text.len() - 2;
            let mut sealed = text[..at].to_vec();
            sealed.extend_from_slice(sum.as_bytes());
            sealed.extend_from_slice(b"\"}\n");
            sealed
        } else {
            raw.to_vec()
        };
        let name = format!("part-{k}");
        match Partial::read(&name, &bytes) {
            Ok(p) => {
                parts.push(p);
                names.push(name);
            }
            Err(_) => return,
        }
    }
    if shard::check_parts(&names, &mut parts).is_err() {
        return;
    }
    let Some(first) = parts.first() else {
        return;
    };
    let Some(game) = crate::games::GameId::parse(&first.game) else {
        return;
    };
    for i in 0..first.runs.len() {
        let mut sum: Option<crate::sim::AccumulatorData> = None;
        for p in &parts {
            let Some(t) = p.runs.get(i).and_then(|r| r.totals.as_ref()) else {
                return;
            };
            sum = Some(match sum {
                None => t.clone(),
                Some(s) => match s.checked_add(t) {
                    Ok(s) => s,
                    Err(_) => return,
                },
            });
        }
        let Some(sum) = sum else {
            return;
        };
        if let Err(e) = sum.check() {
            panic!("parts that each add up were merged into totals that do not: {e}");
        }
        crate::with_game_id!(game, G => {
            let _ = crate::sim::Accumulator::from_data::<G>(&sum);
        });
    }
}
