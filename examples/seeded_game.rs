//! Play one seeded random game through the public API, then print the board
//! and the scores. The same seed gives the same game, every time.
//!
//! ```text
//! cargo run --example seeded_game -- 42
//! ```

use std::sync::Arc;

use roots::core::dice::SeededDice;
use roots::core::protocol::{GameState, play_out_random};
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::State;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(42);
    let rules = Arc::new(Rules::standard());
    let mut state = match State::new(rules, 2) {
        Ok(state) => state,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    // The dice of game 0 of a run seeded `seed`; the engine never rolls itself.
    let mut dice = SeededDice::for_game(seed, 0);
    let steps = play_out_random(&mut state, &mut dice);

    println!("{}", state.draw());
    println!(
        "seed {seed}: {steps} steps, {} rounds, ended by {:?}",
        state.round(),
        state.end_reason()
    );
    if let Some(outcome) = state.outcome() {
        for (seat, score) in outcome.scores.iter().enumerate() {
            let won = if outcome.winners.contains(&(seat as u8)) {
                "  (winner)"
            } else {
                ""
            };
            println!("seat {}: {score} points{won}", seat + 1);
        }
    }
}
