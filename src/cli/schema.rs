//! `roots schema`: print the JSON schema of variant files.

use roots::games::GameId;

/// Print the JSON schema of variant files (what `schema/variant.schema.json` holds).
///
/// Editors use it to check and complete variant files: a variant file whose
/// first line is `#:schema ../schema/variant.schema.json` is checked by the
/// TOML language servers (taplo / Even Better TOML, tombi).
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  roots schema > schema/variant.schema.json")]
pub struct Args {
    /// The game whose variant files the schema describes (`roots games`
    /// lists them).
    #[arg(long, default_value = "roots-and-shoots", value_parser = parse_game)]
    pub game: GameId,
}

fn parse_game(text: &str) -> Result<GameId, String> {
    GameId::parse(text).ok_or_else(|| {
        let keys: Vec<&str> = GameId::ALL.iter().map(|g| g.key()).collect();
        format!(
            "there is no game `{text}`: expected one of {}",
            keys.join(", ")
        )
    })
}

pub fn run(args: Args) -> u8 {
    super::out(&roots::variant::schema::schema_json(args.game));
    super::exit::OK
}
