//! Load and validate a variant file through the library, as `roots validate`
//! does, then print its diagnostics or its resolved rules.
//!
//! ```text
//! cargo run --example load_variant -- variants/fewer-beads.toml
//! cargo run --example load_variant -- variants/standard.toml beads.supply=35
//! ```

use std::process::ExitCode;

use roots::variant::{self, Override, Style};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "variants/standard.toml".to_owned());
    // Any further arguments are `key.path=value` overrides, as `--set` takes.
    let overrides: Result<Vec<Override>, String> = args.map(|a| Override::parse(&a)).collect();
    let overrides = match overrides {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match variant::load_file_with(&file, &overrides) {
        Ok(loaded) => {
            // Warnings do not stop a variant from loading.
            eprint!(
                "{}",
                variant::render(&loaded.warnings, &loaded.sources, Style::Plain)
            );
            println!(
                "# {} (from {})",
                loaded.rules.name(),
                loaded.chain.join(" -> ")
            );
            match loaded.rules.to_toml() {
                Ok(text) => print!("{text}"),
                Err(e) => eprintln!("error: {e}"),
            }
            // Each game is a concrete type below the boundary where a
            // variant is loaded: `with_game!` picks it.
            let changes = roots::with_game!(&loaded.rules, G, rules => {
                variant::diff::<G>(&G::standard(), rules)
            });
            println!(
                "\n# {} rule(s) differ from the standard game",
                changes.len()
            );
            for change in changes {
                println!("#   {change}");
            }
            ExitCode::SUCCESS
        }
        Err(diagnostics) => {
            // Every problem, with file:line:col, expected values and help.
            eprint!("{diagnostics}");
            ExitCode::FAILURE
        }
    }
}
