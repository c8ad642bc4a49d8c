//! `roots validate FILE...`: check variant files and explain every problem.

use roots::variant::{self, Code, Style, smoke};

use super::{Format, exit};

/// Check variant files: syntax, key names, values and ranges, the `extends`
/// chain, whether the rules make a playable game together, and (unless
/// --no-smoke) whether seeded games of random bots end by themselves.
///
/// Prints `ok: FILE (variant NAME)` for each valid file, and every error and
/// warning with its line and column. Exit status: 0 when every file is valid
/// (warnings allowed), 1 when any file is invalid, 2 when a file cannot be
/// read or the command line is wrong.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots validate variants/*.toml
  roots validate --format json my-house-rules.toml
  roots validate mine.toml --set beads.supply=35 --set rain.rolls=[growth]")]
pub struct Args {
    /// Variant files to check; a built-in name (standard) checks that
    /// variant, and `-` reads one from standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,

    /// How to print errors and warnings.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    #[command(flatten)]
    pub set: super::SetArgs,

    /// Skip the smoke simulation (50 seeded games of random bots for each
    /// allowed player count, checking that the games end by themselves).
    #[arg(long)]
    pub no_smoke: bool,
}

pub fn run(args: Args) -> u8 {
    let style = super::style(args.format, super::Stream::Stdout);
    if let Err(f) = super::stdin_once(args.files.iter().map(String::as_str)) {
        return f.report();
    }
    let mut status = exit::OK;
    let mut all = Vec::new();
    for file in &args.files {
        // The name messages use: as written, `<stdin>` for `-`.
        let shown = if file == variant::STDIN_ARG {
            variant::STDIN_DISPLAY.to_owned()
        } else {
            file.clone()
        };
        let start = std::time::Instant::now();
        let loaded = variant::load_with(file, &args.set.set).and_then(|mut loaded| {
            if args.no_smoke {
                return Ok(loaded);
            }
            let (errors, warnings): (Vec<_>, Vec<_>) =
                roots::with_game!(&loaded.rules, G, r => smoke::check_within::<G>(r, &shown, &|| {
                    start.elapsed().as_secs() >= smoke::TIME_BUDGET_SECS
                }))
                .into_iter()
                .partition(|d| d.is_error());
            loaded.warnings.extend(warnings);
            if errors.is_empty() {
                Ok(loaded)
            } else {
                let mut items = errors;
                items.extend(loaded.warnings);
                Err(variant::Diagnostics {
                    items,
                    sources: loaded.sources,
                })
            }
        });
        match loaded {
            Ok(loaded) => {
                if style == Style::Json {
                    all.extend(loaded.warnings);
                } else {
                    super::out(&variant::render(&loaded.warnings, &loaded.sources, style));
                    let with = if args.set.set.is_empty() {
                        String::new()
                    } else {
                        let sets: Vec<String> = args.set.set.iter().map(|o| o.display()).collect();
                        format!(" with {}", sets.join(" "))
                    };
                    super::out(&format!(
                        "ok: {shown}{with} (variant {})\n",
                        loaded.rules.name()
                    ));
                }
            }
            Err(diagnostics) => {
                let unreadable = diagnostics
                    .items
                    .iter()
                    .any(|d| d.code == Code::Io && (d.file == shown || d.file == *file));
                status = status.max(if unreadable {
                    exit::USAGE
                } else {
                    exit::INVALID
                });
                if style == Style::Json {
                    all.extend(diagnostics.items);
                } else {
                    super::out(&variant::render(
                        &diagnostics.items,
                        &diagnostics.sources,
                        style,
                    ));
                    let errors = diagnostics.items.iter().filter(|d| d.is_error()).count();
                    let plural = if errors == 1 { "" } else { "s" };
                    super::out(&format!("invalid: {shown} ({errors} error{plural})\n"));
                }
            }
        }
    }
    if style == Style::Json {
        super::out(&variant::render(
            &all,
            &variant::Sources::default(),
            Style::Json,
        ));
    }
    status
}
