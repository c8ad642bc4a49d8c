//! Invariants over many seeded random games of every shipped variant, for
//! every allowed player count: no panic; one bead per point and bead lists
//! that match the board; beads conserved (store + supply + board + removed);
//! nutrients conserved (pile + board + scored); scores equal the values
//! scored minus the remainders lost; every game ends within the round limit;
//! the same seed gives the same game.
//!
//! Runs optimised (`[profile.dev] opt-level` in Cargo.toml, which the test
//! profile inherits). The first games of each batch check every invariant after
//! every roll and action; the rest check them at the end of the game.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::State;

const GAMES: u64 = 10_000;
const CHECKED_EVERY_STEP: u64 = 300;
const SEED: u64 = 0x5EED_2007;

/// Play game `g` to the end; returns a fingerprint of the final position
/// when `fingerprint` (drawing the board as text costs about as much as a
/// game, and only the games replayed for determinism need it).
fn play(
    rules: &Arc<Rules>,
    players: u8,
    g: u64,
    every_step: bool,
    fingerprint: bool,
) -> Result<String, String> {
    let mut state = State::new(rules.clone(), players).map_err(|e| e.to_string())?;
    let mut dice = SeededDice::for_game(SEED, g);
    let mut steps = 0u64;
    loop {
        match state.next() {
            Next::Chance(die) => state
                .roll(dice.roll(die))
                .map_err(|e| format!("roll refused: {e}"))?,
            Next::Draw => return Err("Roots and Shoots drew a card".into()),
            Next::Decide(_) => {
                let action = state.random_action(&mut dice);
                // The fast sampler must only produce legal actions: play the
                // checked path, which refuses anything else.
                state
                    .play(action)
                    .map_err(|e| format!("sampled {action:?} was refused: {e}"))?;
            }
            Next::Over => break,
        }
        steps += 1;
        if every_step {
            state
                .check_invariants()
                .map_err(|e| format!("step {steps}: {e}"))?;
        }
        if steps > 1_000_000 {
            return Err("no end after a million steps".to_string());
        }
    }
    state.check_invariants()?;
    let reason = state.end_reason().ok_or("over without a reason")?;
    if state.round() > rules.end.max_rounds {
        return Err(format!("ended in round {} past the limit", state.round()));
    }
    let outcome = state.outcome().ok_or("over without an outcome")?;
    if outcome.winners.is_empty() {
        return Err("no winner".to_string());
    }
    if !fingerprint {
        return Ok(String::new());
    }
    Ok(format!(
        "{}{reason:?} {:?} {steps}",
        state.draw(),
        state.stats()
    ))
}

fn check_variant(name: &str, rules: Rules) {
    let rules = Arc::new(rules);
    for players in rules.players.min..=rules.players.max {
        let failures: Vec<String> = (0..GAMES)
            .into_par_iter()
            .filter_map(|g| {
                let every_step = g < CHECKED_EVERY_STEP;
                let replayed = g % 50 == 0;
                let run = catch_unwind(AssertUnwindSafe(|| {
                    play(&rules, players, g, every_step, replayed)
                }));
                let result = match run {
                    Ok(r) => r,
                    Err(panic) => Err(format!(
                        "panicked: {}",
                        panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default()
                    )),
                };
                // The same seed gives the same game.
                let result = result.and_then(|first| {
                    if replayed {
                        let again = play(&rules, players, g, false, true)?;
                        if again != first {
                            return Err("the same seed gave a different game".to_string());
                        }
                    }
                    Ok(())
                });
                result.err().map(|e| {
                    format!("variant {name}, {players} players, seed {SEED} game {g}: {e}")
                })
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} games failed, first ones:\n{}",
            failures.len(),
            failures[..failures.len().min(5)].join("\n")
        );
    }
}

#[test]
fn standard_variant_holds_every_invariant() {
    check_variant("standard", Rules::standard());
}

#[test]
fn every_shipped_variant_holds_every_invariant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("variants/ exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml") && !p.ends_with("standard.toml"))
        .collect();
    files.sort();
    let mut checked = 0;
    for file in files {
        let loaded = roots::variant::load_file(&file)
            .unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
        // The other games' variants have property tests of their own.
        let Some(rules) = loaded.rules.roots_and_shoots() else {
            continue;
        };
        check_variant(&file.display().to_string(), rules.clone());
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} Roots and Shoots variants");
}

/// Variants far from standard, to reach the engine's corners: tiny boards,
/// every alternative reading at once, many players.
#[test]
fn unusual_variants_hold_every_invariant() {
    let mut small = Rules::standard();
    small.board.size = 7;
    small.players.max = 8;
    small.nutrients.max_on_board = 20;
    check_variant("7x7, up to 8 players", small);

    let mut odd = Rules::standard();
    odd.board.size = 9;
    odd.removal.lost_ends = roots::games::roots_and_shoots::rules::LostEnds::AllEnds;
    odd.beads.removed_go_to = roots::games::roots_and_shoots::rules::RemovedBeads::Supply;
    odd.growth.buds_touch = roots::games::roots_and_shoots::rules::BudsTouch::Any;
    odd.growth.simple_growth_path = roots::games::roots_and_shoots::rules::SimpleGrowthPath::AnyEnd;
    odd.growth.new_plant_connected = true;
    odd.coordinates.faces = roots::games::roots_and_shoots::rules::FaceMapping::FaceIsLine;
    odd.setup.first_spawn_on_bead =
        roots::games::roots_and_shoots::rules::FirstSpawnOnBead::RemoveBead;
    odd.severing.per_turn = 3;
    odd.severing.winner_occupies = false;
    odd.severing
        .actions
        .push(roots::games::roots_and_shoots::rules::Growth::NewPlant);
    odd.end.finish = roots::games::roots_and_shoots::rules::Finish::EndOfRound;
    odd.end.final_scoring = true;
    odd.end.beads_out = roots::games::roots_and_shoots::rules::BeadsOut::SupplyAndStoreEmpty;
    odd.nutrients.value_rolled = roots::games::roots_and_shoots::rules::ValueRolled::OnSpawn;
    odd.turn.one_nutrient_per_turn = true;
    odd.end.max_rounds = 60;
    check_variant("every alternative reading", odd);
}

/// Every numeric key of a variant file at the smallest and the largest value
/// its schema allows, alone and all together, loaded and, when the pipeline
/// accepts it, played by random bots with every invariant checked after
/// every step (this profile has overflow checks and debug assertions on, so
/// a wrap is a panic). `beads.store = 0` once validated and wrapped the store.
#[test]
fn every_numeric_key_at_its_extremes_plays() {
    for &game in roots::games::GameId::ALL {
        roots::with_game_id!(game, G => extremes_play::<G>(game));
    }
}

/// Random games of `G` with every invariant checked after every step.
fn play_checked<G: roots::games::Game>(
    rules: &Arc<G::Rules>,
    players: u8,
    seed: u64,
) -> Result<(), String> {
    let mut state = G::new_state(Arc::clone(rules), players)?;
    let mut dice = SeededDice::for_game(seed, 0);
    for _ in 0..2_000_000u32 {
        match state.next() {
            Next::Chance(die) => state.roll(dice.roll(die)).map_err(|e| e.to_string())?,
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                state.roll(face).map_err(|e| e.to_string())?;
            }
            Next::Decide(_) => {
                let a = state.random_action(&mut dice);
                state.play(a).map_err(|e| e.to_string())?;
            }
            Next::Over => return G::check_invariants(&state),
        }
        G::check_invariants(&state)?;
    }
    Err("the game did not end".into())
}

fn extremes_play<G: roots::games::Registered>(game: roots::games::GameId) {
    let schema = roots::variant::schema::schema(game);
    let defs = &schema["$defs"];
    let mut keys = Vec::new();
    for (table, prop) in schema["properties"].as_object().expect("properties") {
        let Some(r) = prop.get("$ref").and_then(|r| r.as_str()) else {
            continue;
        };
        let def = &defs[r.rsplit('/').next().expect("a name")];
        for (key, v) in def["properties"].as_object().into_iter().flatten() {
            if let (Some(lo), Some(hi)) = (v["minimum"].as_u64(), v["maximum"].as_u64()) {
                keys.push((table.clone(), key.clone(), lo, hi));
            }
        }
    }
    let head = format!("game = \"{game}\"\n");
    let mut variants: Vec<String> = Vec::new();
    for (table, key, lo, hi) in &keys {
        for v in [lo, hi] {
            variants.push(format!("{head}[{table}]\n{key} = {v}\n"));
        }
    }
    for pick in [0, 1] {
        let mut all = head.clone();
        for (table, key, lo, hi) in &keys {
            all.push_str(&format!("{table}.{key} = {}\n", [lo, hi][pick]));
        }
        variants.push(all);
    }
    let mut played = 0;
    for text in &variants {
        let Ok(loaded) = roots::variant::load_str("extreme.toml", text, None) else {
            continue;
        };
        let rules = G::unwrap(&loaded.rules)
            .expect("a variant of this game")
            .clone();
        let seats = G::seats(&rules);
        for players in [*seats.start(), *seats.end()] {
            for g in 0..2 {
                let run = catch_unwind(AssertUnwindSafe(|| play_checked::<G>(&rules, players, g)));
                match run {
                    Ok(Ok(())) => played += 1,
                    Ok(Err(e)) => panic!("{text}{players} players, game {g}: {e}"),
                    Err(_) => panic!("{text}{players} players, game {g}: panicked"),
                }
            }
        }
    }
    if game == roots::games::GameId::RootsAndShoots {
        assert!(keys.len() >= 9, "numeric keys found: {keys:?}");
        assert!(played >= 40, "only {played} games played");
    }
}
