//! The games of the toolkit other than Roots and Shoots, one module each.

pub mod branches;
