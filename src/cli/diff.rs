//! `roots diff A B`: the rule differences between two variants.

use roots::variant;

use super::{Format, exit};

/// Print the rules that differ between two variants, key by key
/// (`beads.supply: 60 → 35`), each with what it means in play. Prints
/// "no differences" when the rules are the same. Exit status, as diff(1):
/// 0 when the rules are the same, 1 when they differ, 2 when a variant is
/// invalid or a file cannot be read.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots diff standard fewer-beads
  roots diff standard mine.toml
  roots diff mine.toml mine.toml --set beads.supply=35   what a --set would change")]
pub struct Args {
    /// The variant to compare from: a built-in name (standard), a file, or `-` (standard input).
    #[arg(value_name = "A")]
    pub a: String,

    /// The variant to compare to: a built-in name (standard), a file, or `-` (standard input).
    #[arg(value_name = "B")]
    pub b: String,

    /// How to print the differences and errors: json prints the
    /// differences as JSON (and errors as a JSON array).
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    /// Overrides applied to B only (see `--set` of `roots show`).
    #[command(flatten)]
    pub set: super::SetArgs,
}

pub fn run(args: Args) -> u8 {
    let style = super::style(args.format, super::Stream::Stderr);
    if let Err(f) = super::stdin_once([args.a.as_str(), args.b.as_str()]) {
        return f.report();
    }
    // Exit 1 means "they differ" here, as in diff(1): trouble is 2.
    let a = match super::load_reporting(&args.a, &[], style) {
        Ok(a) => a,
        Err(_) => return exit::USAGE,
    };
    let b = match super::load_reporting(&args.b, &args.set.set, style) {
        Ok(b) => b,
        Err(_) => return exit::USAGE,
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
    let status = if changes.is_empty() { exit::OK } else { DIFFER };
    if args.format == Format::Json {
        let side = |l: &roots::variant::Loaded| serde_json::json!({ "name": l.rules.name(), "chain": l.chain });
        let doc = serde_json::json!({
            "game": a.rules.game().to_string(),
            "a": side(&a),
            "b": side(&b),
            "same": changes.is_empty(),
            "changes": changes,
        });
        let code = super::out_json(&doc);
        return if code == exit::OK { status } else { code };
    }
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
    status
}

/// The exit status when the variants differ (as diff(1)).
const DIFFER: u8 = 1;
