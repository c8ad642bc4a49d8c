//! A checksum of many seeded Roots Growy Roots games: every decision, every
//! card drawn and every game's end (scores and counts), random and greedy
//! play, 2 to 4 players, with and without the artifact abilities. A change
//! meant to make the engine or the greedy bot faster without changing the
//! games must leave every line as it was: run it on the old build and the
//! new one and compare.
//!
//! `cargo run --release --example rgr_checksum [RANDOM_GAMES] [GREEDY_GAMES]`
//! (defaults 2000 and 40).

use std::sync::Arc;

use roots::bots::BotSpec;
use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, Next};
use roots::games::roots_growy_roots::{RootsGrowyRoots, Rules, State};

/// FNV-1a, 64 bits: stable across builds and platforms.
struct Fnv(u64);

impl Fnv {
    fn add(&mut self, text: &str) {
        for b in text.bytes().chain([b'\n']) {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Plays game `g` of a run, every seat `bot` (`None`: the engine's random
/// sampler), into `hash`; returns the steps played.
fn game(rules: &Arc<Rules>, seats: u8, bot: Option<BotSpec>, g: u64, hash: &mut Fnv) -> u64 {
    let mut state = State::new(Arc::clone(rules), seats).expect("a shipped variant");
    let mut dice = SeededDice::for_game(2026, g);
    let mut players: Vec<_> = (0..seats)
        .filter_map(|s| {
            bot.map(|b| {
                roots::bots::build::<RootsGrowyRoots>(b, SeededDice::for_game(7 + u64::from(s), g))
            })
        })
        .collect();
    let mut steps = 0;
    loop {
        match state.next() {
            Next::Over => break,
            Next::Draw => {
                let face = dice.draw(state.draw_weights());
                hash.add(&format!("draw {face}"));
                state.roll(face).expect("a card left in its deck");
            }
            Next::Chance(die) => {
                let face = dice.roll(die);
                state.roll(face).expect("a face of the die");
            }
            Next::Decide(seat) => {
                let a = match players.get_mut(usize::from(seat)) {
                    Some(p) => p.choose(&state).expect("a bot decides"),
                    None => state.random_action(&mut dice),
                };
                hash.add(&format!("{a:?}"));
                state.play(a).expect("a legal action");
            }
        }
        steps += 1;
    }
    hash.add(&format!(
        "{:?} {:?} {:?}",
        state.end(),
        state.scores(),
        state.tally
    ));
    steps
}

fn main() {
    let mut args = std::env::args().skip(1);
    let random: u64 = args.next().map_or(2000, |a| a.parse().expect("a count"));
    let greedy: u64 = args.next().map_or(40, |a| a.parse().expect("a count"));
    let mut abilities = Rules::standard();
    abilities.artifacts.abilities = true;
    let mut from_seed = Rules::standard();
    from_seed.scoring.longest_root_measure =
        roots::games::roots_growy_roots::rules::RootMeasure::FromSeed;
    let variants = [
        ("standard", Arc::new(Rules::standard())),
        ("abilities", Arc::new(abilities)),
        ("from-seed", Arc::new(from_seed)),
    ];
    let mut all = Fnv(0xcbf2_9ce4_8422_2325);
    for (name, rules) in &variants {
        for seats in 2..=4u8 {
            for (bot, n) in [(None, random), (Some(BotSpec::Greedy), greedy)] {
                let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
                let steps: u64 = (0..n).map(|g| game(rules, seats, bot, g, &mut hash)).sum();
                let who = bot.map_or("random".to_owned(), |b| b.to_string());
                let line = format!(
                    "{name} {seats}p {who}: {n} games, {steps} steps, {:016x}",
                    hash.0
                );
                all.add(&line);
                println!("{line}");
            }
        }
    }
    println!("all: {:016x}", all.0);
}
