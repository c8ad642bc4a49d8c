//! `roots new NAME`: write a commented starter variant file.

use std::path::{Component, Path, PathBuf};

use roots::games::AnyRules;
use roots::variant::{self, template};

use super::exit;

/// Write NAME.toml: a starter variant that validates as it is, extending the
/// standard rules (or another variant), with every rule commented out showing
/// its current value, what it means and what values it allows. Uncomment and
/// edit the ones you want to change.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots new mine                                 mine.toml, on top of the standard rules
  roots new quick --extends btt                  a Branches & Twigs & Thorns variant
  roots new mine --force                         overwrite an existing mine.toml")]
pub struct Args {
    /// The variant's name; the file written is NAME.toml.
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The variant to start from: a built-in name (`standard`, `fewer-beads`,
    /// `btt`, `sprout-r-out`, `rgr-4p`, ...: `roots games` lists them) or the
    /// path of a variant file.
    #[arg(long, default_value = "standard", value_name = "NAME|PATH")]
    pub extends: String,

    /// The directory to write NAME.toml in.
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub dir: PathBuf,

    /// Overwrite NAME.toml if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> u8 {
    let name = args
        .name
        .trim()
        .strip_suffix(".toml")
        .unwrap_or(args.name.trim());
    if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        super::err(&format!(
            "error: `{}` is not a variant name: give a plain name like `mine` (and the directory with --dir)\n",
            args.name
        ));
        return exit::USAGE;
    }
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        super::err("error: a variant name is at most 100 characters, with no control characters\n");
        return exit::USAGE;
    }
    if !args.dir.is_dir() {
        super::err(&format!(
            "error: --dir {}: no such directory\n",
            args.dir.display()
        ));
        return exit::USAGE;
    }
    let file = if args.dir == Path::new(".") {
        PathBuf::from(format!("{name}.toml"))
    } else {
        args.dir.join(format!("{name}.toml"))
    };
    if file.exists() && !args.force {
        super::err(&format!(
            "error: {} already exists; pass --force to overwrite it, or choose another name\n",
            file.display()
        ));
        return exit::USAGE;
    }

    // The parent: its rules give the values shown in the template.
    let (extends, parent) = if variant::is_builtin_name(&args.extends) {
        (args.extends.clone(), args.extends.clone())
    } else {
        let parent = PathBuf::from(&args.extends);
        let relative = relative_to(&parent, &args.dir).unwrap_or_else(|| {
            std::fs::canonicalize(&parent)
                .unwrap_or(parent.clone())
                .display()
                .to_string()
        });
        (relative.replace('\\', "/"), args.extends.clone())
    };
    let style = super::style(super::Format::Auto, super::Stream::Stderr);
    let loaded = match super::load_reporting(&parent, &[], style) {
        Ok(loaded) => loaded,
        Err(code) => {
            super::err(&format!(
                "error: --extends {}: the variant to start from is not valid\n",
                args.extends
            ));
            return code;
        }
    };

    let game = loaded.rules.game();
    let schema = find_schema(&args.dir, &game.schema_file());
    let text = template::starter(&template::Starter {
        name,
        extends: &extends,
        parent: &loaded.rules,
        schema: schema.as_deref(),
    });
    if let Err(e) = std::fs::write(&file, text) {
        super::err(&format!("error: cannot write {}: {e}\n", file.display()));
        return exit::USAGE;
    }
    let shown = file.display().to_string();
    // Quoted for the shell where needed (`roots validate 'my rules.toml'`).
    let cmd_file = super::shell_quote(&shown);
    let base = super::shell_quote(&args.extends);
    let mut next = format!(
        "wrote {shown}: variant \"{name}\", extending {extends}, every rule commented out\n\n\
         Next:\n\
         \x20 edit {shown}: uncomment the rules you want to change\n\
         \x20 roots validate {cmd_file}            check it\n\
         \x20 roots explain {cmd_file}             read it as a rules sheet\n\
         \x20 roots diff {base} {cmd_file}    what it changes, and what that means\n\
         \x20 roots show {cmd_file} --set {}   try a change before writing it down\n",
        example_set(&loaded.rules)
    );
    if schema.is_none() {
        next.push_str(&format!(
            "  {} > {}   completion and checks in your editor (docs/editors.md)\n",
            game.schema_command(),
            super::shell_quote(
                &file
                    .with_file_name(game.schema_file())
                    .display()
                    .to_string()
            )
        ));
    }
    super::out(&next);
    exit::OK
}

/// An example `--set` for the rules: the game's own suggestion, else a
/// whole-number key, one more; else a word key set to another of its
/// allowed words.
fn example_set(rules: &AnyRules) -> String {
    if let Some(set) = roots::with_game!(rules, G, _r => G::EXAMPLE_SET) {
        return set.to_owned();
    }
    let leaves = roots::with_game!(rules, G, r => roots::variant::diff::leaves::<<G as roots::games::Game>::Rules>(r));
    if let Some(set) = leaves
        .iter()
        .find_map(|(k, v)| v.as_integer().map(|i| format!("{k}={}", i + 1)))
    {
        return set;
    }
    leaves
        .iter()
        .find_map(|(k, v)| {
            let now = v.as_str()?;
            let path: Vec<roots::variant::schema::PathSeg> = k
                .split('.')
                .map(|p| roots::variant::schema::PathSeg::Key(p.to_owned()))
                .collect();
            let node = roots::variant::schema::node_at(rules.game(), &path)?;
            roots::variant::schema::allowed_words(node)
                .into_iter()
                .find(|w| w != now)
                .map(|w| format!("{k}={w}"))
        })
        .unwrap_or_else(|| "KEY=VALUE".to_owned())
}

/// A `schema/FILE` in `dir` or an ancestor (a checkout of this
/// repository), as a path relative to `dir`.
fn find_schema(dir: &Path, file: &str) -> Option<String> {
    let start = std::fs::canonicalize(dir).ok()?;
    for (ups, ancestor) in start.ancestors().enumerate().take(6) {
        let candidate = ancestor.join("schema").join(file);
        if candidate.is_file() && ancestor.join("variants").is_dir() {
            let mut rel = "../".repeat(ups);
            rel.push_str("schema/");
            rel.push_str(file);
            return Some(rel);
        }
    }
    None
}

/// `target` as a path relative to the directory `from` (both must exist).
fn relative_to(target: &Path, from: &Path) -> Option<String> {
    let target = std::fs::canonicalize(target).ok()?;
    let from = std::fs::canonicalize(from).ok()?;
    let t: Vec<Component<'_>> = target.components().collect();
    let f: Vec<Component<'_>> = from.components().collect();
    let common = t.iter().zip(&f).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    Some(out.display().to_string())
}
