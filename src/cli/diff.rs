//! `roots diff A B`: the rule differences between two variants.

use roots::variant;

use super::{Color, Format, exit};

/// Print the rules that differ between two variants, key by key
/// (`beads.supply: 60 → 35`), each with what it means in play. Prints
/// "no differences" when the rules are the same. Exit status 0 either way;
/// 1 when a variant is invalid, 2 when a file cannot be read.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots diff standard variants/fewer-beads.toml
  roots diff standard mine.toml
  roots diff mine.toml mine.toml --set beads.supply=35   what a --set would change")]
pub struct Args {
    /// The variant to compare from: a built-in name (standard) or a file.
    #[arg(value_name = "A")]
    pub a: String,

    /// The variant to compare to: a built-in name (standard) or a file.
    #[arg(value_name = "B")]
    pub b: String,

    /// How to print errors, when a variant is invalid.
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Overrides applied to B only (see `--set` of `roots show`).
    #[command(flatten)]
    pub set: super::SetArgs,
}

pub fn run(args: Args, color: Color) -> u8 {
    let style = super::style(args.format, color, super::stderr_is_terminal());
    let a = match super::load_reporting(&args.a, &[], style) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let b = match super::load_reporting(&args.b, &args.set.set, style) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if a.rules.game() != b.rules.game() {
        super::err(&format!(
            "error: `{}` is a {} variant and `{}` a {} variant: diff compares two variants of one game\n",
            args.a,
            a.rules.game().title(),
            args.b,
            b.rules.game().title()
        ));
        return exit::USAGE;
    }
    let changes = roots::with_game!(&a.rules, G, ra => match G::unwrap(&b.rules) {
        Some(rb) => variant::diff::<G>(ra, rb),
        None => Vec::new(),
    });
    let mut text = format!(
        "{} ({}) → {} ({})\n",
        a.rules.name(),
        a.chain.join(" -> "),
        b.rules.name(),
        b.chain.join(" -> ")
    );
    if changes.is_empty() {
        text.push_str("no differences: both variants play the same game\n");
    } else {
        for c in &changes {
            text.push_str(&format!(
                "{}: {} → {}\n    {}\n",
                c.key, c.from, c.to, c.meaning
            ));
        }
        let n = changes.len();
        text.push_str(&format!(
            "{n} rule{} differ{}\n",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" }
        ));
    }
    super::out(&text);
    exit::OK
}
