//! The engine core: what any dice-and-beads board game here needs, whatever its
//! rules. Nothing in this module knows about Roots and Shoots.

pub mod dice;
pub mod draw;
pub mod geometry;
pub mod graph;
pub mod protocol;
