//! `roots explain [VARIANT]`: the variant as a rules sheet in Markdown.

use roots::variant;

use super::{Color, Format, exit};

/// Print the whole game as this variant plays it, as a Markdown rules sheet
/// (setup, a turn, scoring, severing, the end), with the rules that differ
/// from the standard game marked "(house rule)". Suitable for printing and
/// sharing: `roots explain mine.toml > mine.md`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots explain                                   the standard rules
  roots explain variants/pre-rolled-values.toml   a house rule, differences first
  roots explain mine.toml --set beads.supply=35   try a change before writing it down")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    /// How to print errors, when the variant is invalid.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    #[command(flatten)]
    pub set: super::SetArgs,
}

pub fn run(args: Args, color: Color) -> u8 {
    let style = super::style(args.format, color, super::stderr_is_terminal());
    match super::load_reporting(&args.variant, &args.set.set, style) {
        Ok(loaded) => {
            super::out(&variant::explain(&loaded.rules));
            exit::OK
        }
        Err(code) => code,
    }
}
