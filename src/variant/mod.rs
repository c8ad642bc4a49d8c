//! Variants: the house rules of Roots and Shoots, as files and as checked rules.

pub mod rules;

pub use rules::Rules;

/// The standard variant's file, embedded: the one source of the built-in rules.
pub const STANDARD_TOML: &str = include_str!("../../variants/standard.toml");

impl Rules {
    /// The built-in standard variant (the 2007 rules with our readings).
    pub fn standard() -> Rules {
        toml::from_str(STANDARD_TOML)
            .expect("the embedded standard variant is a complete, valid variant")
    }
}
