//! `roots games`: the games of the toolkit and their built-in variants.

use roots::games::GameId;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Every built-in variant name works wherever a VARIANT is asked for:
  roots simulate btt --players 4
  roots explain fewer-beads"
)]
pub struct Args {
    /// Print the list as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The seat counts of a built-in variant, fewest and most.
fn seats_of(name: &str) -> (u8, u8) {
    roots::variant::resolve_builtin(name)
        .map(|l| {
            let s = l.rules.seats();
            (*s.start(), *s.end())
        })
        .unwrap_or((2, 2))
}

pub fn run(args: Args) -> u8 {
    if args.json {
        let games: Vec<serde_json::Value> = GameId::ALL
            .iter()
            .map(|g| {
                serde_json::json!({
                    "game": g.key(),
                    "title": g.title(),
                    "by": g.by(),
                    "schema": format!("schema/{}", g.schema_file()),
                    "variants": g.builtins().iter().map(|(n, _)| *n).collect::<Vec<_>>(),
                    "default_bot": g.default_bot().to_string(),
                    "players": g.builtins().iter().map(|(n, _)| {
                        let seats = seats_of(n);
                        serde_json::json!({"variant": n, "min": seats.0, "max": seats.1})
                    }).collect::<Vec<_>>(),
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&games).unwrap_or_default();
        super::out(&format!("{text}\n"));
        return super::exit::OK;
    }
    let mut out = String::new();
    for g in GameId::ALL {
        let names: Vec<String> = g
            .builtins()
            .iter()
            .map(|(n, _)| {
                let (min, max) = seats_of(n);
                format!("{n} ({})", roots::core::players_phrase(min, max))
            })
            .collect();
        out.push_str(&format!(
            "{} ({}), game = \"{}\"\n  built-in variants: {}\n  default bot: {}\n",
            g.title(),
            g.by(),
            g.key(),
            names.join(", "),
            g.default_bot()
        ));
    }
    out.push_str(
        "\nA variant file names its game with `game = \"...\"`; a file without it is Roots and Shoots.\n",
    );
    super::out(&out);
    super::exit::OK
}
