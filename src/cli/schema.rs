//! `roots schema`: print the JSON schema of variant files.

/// Print the JSON schema of variant files (what `schema/variant.schema.json` holds).
///
/// Editors use it to check and complete variant files: a variant file whose
/// first line is `#:schema ../schema/variant.schema.json` is checked by the
/// TOML language servers (taplo / Even Better TOML, tombi).
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:
  roots schema > schema/variant.schema.json")]
pub struct Args {}

pub fn run(_args: Args) -> u8 {
    super::out(&roots::variant::schema::schema_json());
    super::exit::OK
}
