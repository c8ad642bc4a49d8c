//! Write a bot: implement `roots::bots::Player`. This one marks a nutrient
//! whenever it can, and otherwise plays at random. It plays 200 seeded games
//! against the random bot (swapping seats every game) and prints its win rate.
//!
//! ```text
//! cargo run --release --example custom_bot
//! ```

use std::sync::Arc;

use roots::bots::{NoAction, Player, RandomBot};
use roots::core::dice::SeededDice;
use roots::core::protocol::GameState;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::{Action, RootsAndShoots, State};
use roots::referee::Referee;

/// Marks a nutrient if it can, else random.
struct NutrientHunter {
    dice: SeededDice,
    legal: Vec<Action>,
}

impl Player<State> for NutrientHunter {
    fn name(&self) -> String {
        "nutrient-hunter".into()
    }

    fn choose(&mut self, state: &State) -> Result<Action, NoAction> {
        state.legal_actions(&mut self.legal);
        // A bead placed on a free point that holds nutrients marks them.
        let marking = self.legal.iter().copied().find(|a| match a {
            Action::Place(p) => state.nutrients_at(*p) > 0 && state.bead(*p).is_none(),
            _ => false,
        });
        if let Some(action) = marking {
            return Ok(action);
        }
        if self.legal.is_empty() {
            return Err(NoAction::Quit);
        }
        let i = self.dice.below(self.legal.len() as u32) as usize;
        Ok(self.legal[i])
    }
}

fn main() {
    const GAMES: u64 = 200;
    const SEED: u64 = 2007;
    let rules = Arc::new(Rules::standard());
    let (mut wins, mut ties, mut losses) = (0u32, 0u32, 0u32);
    for g in 0..GAMES {
        // Swap seats every game so the first-player advantage evens out.
        let hunter_seat: u8 = (g % 2) as u8;
        let hunter = NutrientHunter {
            dice: SeededDice::for_seat(SEED, g, hunter_seat),
            legal: Vec::new(),
        };
        let random = RandomBot::new(SeededDice::for_seat(SEED, g, 1 - hunter_seat));
        let mut players: Vec<Box<dyn Player<State>>> = if hunter_seat == 0 {
            vec![Box::new(hunter), Box::new(random)]
        } else {
            vec![Box::new(random), Box::new(hunter)]
        };
        let mut game = match Referee::<RootsAndShoots>::new(rules.clone(), 2) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let mut dice = SeededDice::for_game(SEED, g);
        match game.run(&mut dice, &mut players) {
            Ok(outcome) => {
                let won = outcome.winners.contains(&hunter_seat);
                match (won, outcome.winners.len()) {
                    (true, 1) => wins += 1,
                    (true, _) => ties += 1,
                    (false, _) => losses += 1,
                }
            }
            Err(stop) => {
                eprintln!("game {g} stopped: {stop}");
                std::process::exit(1);
            }
        }
    }
    println!(
        "nutrient-hunter vs random, {GAMES} games (seed {SEED}): {wins} wins, {ties} shared wins, {losses} losses"
    );
    println!(
        "win rate: {:.1}% (shared wins count half: {:.1}%)",
        100.0 * f64::from(wins) / GAMES as f64,
        100.0 * (f64::from(wins) + f64::from(ties) / 2.0) / GAMES as f64
    );
}
