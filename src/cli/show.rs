//! `roots show [VARIANT]`: print every rule of a variant, resolved.

use super::{Color, Format, exit};

/// Print every rule of a variant as TOML, after following `extends` and
/// filling in the standard values: what a game with this variant plays.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots show                            the standard rules
  roots show variants/fewer-beads.toml  a house rule, merged with its parents
  roots show --set beads.supply=35      the standard rules with one change")]
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
            let body = match toml::to_string(&loaded.rules) {
                Ok(body) => body,
                Err(e) => {
                    super::err(&format!("error: cannot print the rules as TOML: {e}\n"));
                    return exit::INVALID;
                }
            };
            super::out(&format!(
                "# The rules of variant \"{}\", resolved from: {}\n\
                 # Keys not set by these files have their standard values.\n\n",
                loaded.rules.name,
                loaded.chain.join(" -> ")
            ));
            super::out(&body);
            exit::OK
        }
        Err(code) => code,
    }
}
