//! `roots explain [VARIANT]`: the variant as a rules sheet in Markdown.

use super::exit;

/// Print the whole game as this variant plays it, as a Markdown rules sheet
/// (setup, a turn, scoring, severing, the end), with the rules that differ
/// from the standard game marked "(house rule)". Suitable for printing and
/// sharing: `roots explain mine.toml > mine.md`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots explain                                   the standard rules
  roots explain pre-rolled-values                 a house rule, differences first
  roots explain mine.toml --set beads.supply=35   try a change before writing it down")]
pub struct Args {
    #[command(flatten)]
    pub variant: super::VariantArg,
}

pub fn run(args: Args) -> u8 {
    match args.variant.load() {
        Ok(loaded) if args.variant.format == super::Format::Json => {
            let doc = serde_json::json!({
                "game": loaded.rules.game().to_string(),
                "name": loaded.rules.name(),
                "chain": loaded.chain,
                "markdown": roots::variant::explain::rules_sheet(&loaded.rules),
            });
            super::out_json(&doc)
        }
        Ok(loaded) => {
            super::out(&roots::variant::explain::rules_sheet(&loaded.rules));
            exit::OK
        }
        Err(code) => code,
    }
}
