//! The engine core: what any board game here needs, whatever its
//! rules. Nothing in this module knows about any one game.

pub mod dice;
pub mod draw;
pub mod geometry;
pub mod graph;
pub mod protocol;
pub mod svg;
