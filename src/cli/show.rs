//! `roots show [VARIANT]`: print every rule of a variant, resolved.

use super::exit;

/// Print every rule of a variant as TOML, after following `extends` and
/// filling in the standard values: what a game with this variant plays.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots show                            the standard rules
  roots show fewer-beads                a house rule, merged with its parents
  roots show --set beads.supply=35      the standard rules with one change")]
pub struct Args {
    #[command(flatten)]
    pub variant: super::VariantArg,
}

pub fn run(args: Args) -> u8 {
    match args.variant.load() {
        Ok(loaded) if args.variant.format == super::Format::Json => {
            // The rules as JSON, with where they came from.
            let doc = serde_json::json!({
                "game": loaded.rules.game().to_string(),
                "name": loaded.rules.name(),
                "chain": loaded.chain,
                "rules": loaded.rules.to_json(),
            });
            super::out_json(&doc)
        }
        Ok(loaded) => {
            let body = match loaded.rules.to_toml() {
                Ok(body) => body,
                Err(e) => {
                    super::err(&format!("error: cannot print the rules as TOML: {e}\n"));
                    return exit::INVALID;
                }
            };
            super::out(&format!(
                "# The rules of variant \"{}\", resolved from: {}\n\
                 # Keys not set by these files have their standard values.\n\n",
                loaded.rules.name(),
                loaded.chain.join(" -> ")
            ));
            super::out(&body);
            exit::OK
        }
        Err(code) => code,
    }
}
