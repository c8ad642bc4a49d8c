//! The bots of Roots and Shoots with knowledge of its rules: a position
//! evaluation, the greedy bot and Monte Carlo tree search through its
//! chance and decision nodes.

pub mod eval;
pub mod fast;
pub mod greedy;
pub mod mcts;
pub mod search;

pub use fast::FastGreedyBot;
pub use greedy::GreedyBot;
pub use mcts::MctsBot;
