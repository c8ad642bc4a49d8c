//! The generic players, above the games: bots written once for every game,
//! and external programs seated as players. The referee (`roots play`), the
//! replayer and the simulator all ask a [`Player`] for a decision the same
//! way; the player vocabulary itself ([`Player`], [`BotSpec`], ...) lives
//! below the games, in [`crate::core::player`], and is re-exported here.
//!
//! The bots here know nothing of any game's rules: [`RandomBot`] asks the
//! engine's sampler, [`GreedyBot`] looks one decision ahead with the game's
//! own evaluation ([`Game::evaluate`]) and [`MctsBot`] searches through the
//! chance and decision nodes of any [`GameState`]; [`LookaheadBot`] searches
//! a few plies of a game without chance by alpha-beta on the evaluation. A
//! game may bring bots of its own ([`Game::bot`]): Roots and Shoots does,
//! and Branches & Twigs & Thorns seats the look-ahead for `mcts`. [`CmdPlayer`] seats an
//! external program (`cmd:PROGRAM`).
//!
//! [`GameState`]: crate::core::protocol::GameState

mod cmd;
mod greedy;
mod mcts;
mod random;
pub mod wire;

pub use crate::games::lookahead::{Lookahead, LookaheadBot};
pub use cmd::{CmdPlayer, end_all as end_external_players};
pub use greedy::GreedyBot;
pub use mcts::MctsBot;
pub use random::RandomBot;

pub use crate::core::player::{
    BotSpec, Budget, DEFAULT_CMD_TIMEOUT_MS, DEFAULT_ITERATIONS, Growth, NoAction, Player, Playout,
    Style,
};

use crate::core::dice::SeededDice;
use crate::games::Game;

/// The player for a seat of game `G` named by `spec`, drawing its own
/// randomness from `dice` (use [`SeededDice::for_seat`] so a game is
/// reproducible from its seed): the game's own bot for the spec when it has
/// one ([`Game::bot`]), else the generic one ([`generic`]).
pub fn build<G: Game>(spec: BotSpec, dice: SeededDice) -> Box<dyn Player<G::State> + Send> {
    match G::bot(spec, &dice) {
        Some(own) => own,
        None => generic::<G>(spec, dice),
    }
}

/// The players of this module for a seat of game `G`, `greedy` and `mcts`
/// tuned as the game's [`Game::style`] says.
pub fn generic<G: Game>(spec: BotSpec, dice: SeededDice) -> Box<dyn Player<G::State> + Send> {
    generic_with::<G>(spec, dice, G::style())
}

/// The players of this module for a seat of game `G`, `greedy` and `mcts`
/// tuned as `style` says; `greedy-v1` and `mcts-v1` are the plain bots
/// ([`Style::PLAIN`]), kept to measure what the tuning is worth.
pub fn generic_with<G: Game>(
    spec: BotSpec,
    dice: SeededDice,
    style: Style,
) -> Box<dyn Player<G::State> + Send> {
    match spec {
        BotSpec::Random => Box::new(RandomBot::new(dice)),
        BotSpec::Greedy => Box::new(
            GreedyBot::<G>::new(dice)
                .with_margin(style.margin)
                .whole_turn(style.turn_beam),
        ),
        BotSpec::GreedyV1 => Box::new(GreedyBot::<G>::new(dice)),
        BotSpec::Search => Box::new(
            MctsBot::<G>::with_budget(dice, Budget::Iterations(DEFAULT_ITERATIONS))
                .with_growth(style.growth),
        ),
        BotSpec::Mcts { iterations } => Box::new(
            MctsBot::<G>::with_budget(dice, Budget::Iterations(iterations))
                .with_growth(style.growth),
        ),
        BotSpec::MctsV1 { iterations } => Box::new(
            MctsBot::<G>::with_budget(dice, Budget::Iterations(iterations))
                .with_growth(Growth::PLAIN),
        ),
        BotSpec::MctsTime { millis } => Box::new(
            MctsBot::<G>::with_budget(dice, Budget::Millis(millis)).with_growth(style.growth),
        ),
        BotSpec::Cmd {
            program,
            timeout_ms,
        } => Box::new(CmdPlayer::<G>::new(
            program,
            std::time::Duration::from_millis(u64::from(timeout_ms)),
            dice,
        )),
    }
}
