//! The rules of Roots and Shoots (Tom Gale, 2007), as a [`GameState`].
//!
//! [`GameState`]: crate::core::protocol::GameState

pub mod action;
pub mod draw;
pub mod legal;
pub mod removal;
pub mod state;

pub use action::Action;
pub use state::{DanglingEnd, EndReason, Nutrient, Player, SetupError, State, Stats};
