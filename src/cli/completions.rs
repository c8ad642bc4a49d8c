//! `roots completions SHELL` and `roots man`: generated from the clap
//! definitions, so they always match the commands.

use clap::CommandFactory;

use super::{Cli, exit};

/// Print a completion script for SHELL to stdout.
#[derive(Debug, clap::Args)]
#[command(after_help = "Install, for example:
  roots completions bash > ~/.local/share/bash-completion/completions/roots
  roots completions zsh > ~/.zfunc/_roots        (with fpath+=~/.zfunc in ~/.zshrc)
  roots completions fish > ~/.config/fish/completions/roots.fish")]
pub struct CompletionArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Print a manual page (roff) to stdout: the main page, or one command's;
/// or write every page into a directory.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots man | man -l -                         the main page
  roots man simulate | man -l -                the page of one command, every option
  roots man --dir ~/.local/share/man/man1      install every page (roots.1, roots-simulate.1, ...)")]
pub struct ManArgs {
    /// The command whose page to print (simulate, validate, ...); the main
    /// page when left out.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,

    /// Write every page (roots.1 and roots-COMMAND.1 for each command) into
    /// DIR instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<std::path::PathBuf>,
}

pub fn run_completions(args: CompletionArgs) -> u8 {
    super::out(&script(args.shell));
    exit::OK
}

/// The completion script for `shell`, built-in variant names offered
/// wherever a variant is asked for (beside file names).
fn script(shell: clap_complete::Shell) -> String {
    use clap_complete::Shell;
    let names = variant_names();
    // zsh's generator completes a positional with possible values from
    // those values alone (no file names): it gets one placeholder value,
    // replaced below by a function that offers both.
    let offered = match shell {
        Shell::Zsh => vec![(ZSH_PLACEHOLDER, String::new())],
        _ => names.clone(),
    };
    let mut command = Cli::command();
    let at = variant_args(&command);
    if shell != Shell::Fish {
        let mut named: Vec<&str> = Vec::new();
        for (sub, arg, long) in &at {
            // bash offers a command's positionals' values in one list:
            // the names once (`compare A B`).
            if shell == Shell::Bash && long.is_none() {
                if named.contains(&sub.as_str()) {
                    continue;
                }
                named.push(sub);
            }
            let values = offered.clone();
            command = command.mut_subcommand(sub, |c| {
                c.mut_arg(arg, |a| a.value_parser(super::OfferedNames(values)))
            });
        }
    }
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut command, "roots", &mut buffer);
    let mut text = String::from_utf8_lossy(&buffer).into_owned();
    match shell {
        Shell::Zsh => {
            text = text.replace(&format!("({ZSH_PLACEHOLDER})"), "_roots_variants");
            let items: Vec<String> = names
                .iter()
                .map(|(n, help)| format!("{n}\\:\"{help}\""))
                .collect();
            let function = format!(
                "(( $+functions[_roots_variants] )) ||\n_roots_variants() {{\n    \
                 _alternative 'variants:built-in variant:(({}))' 'files:variant file:_files'\n}}\n\n",
                items.join(" ")
            );
            // Beside the generator's other functions, before its last lines.
            match text.find("if [ \"$funcstack[1]\" = \"_roots\" ]") {
                Some(i) => text.insert_str(i, &function),
                None => text.push_str(&function),
            }
        }
        Shell::Fish => {
            // The fish generator completes no positional argument, and
            // offers an option's possible values without file names: a
            // line of our own per argument and name, file names kept.
            for (sub, _, long) in &at {
                let option = long
                    .as_ref()
                    .map(|l| format!(" -l {l} -r"))
                    .unwrap_or_default();
                for (n, help) in &names {
                    text.push_str(&format!(
                        "complete -c roots -n \"__fish_roots_using_subcommand {sub}\"{option} -a {n} -d '{help}'\n"
                    ));
                }
            }
        }
        _ => {}
    }
    text
}

const ZSH_PLACEHOLDER: &str = "ROOTS-VARIANT-NAMES";

/// Every built-in variant name with its game and seat count (`rgr-4p`:
/// "Roots Growy Roots, 4 players").
fn variant_names() -> Vec<(&'static str, String)> {
    roots::games::GameId::ALL
        .iter()
        .flat_map(|g| {
            g.builtins().iter().map(move |(n, _)| {
                let seats = roots::variant::resolve_builtin(n)
                    .map(|l| {
                        let s = l.rules.seats();
                        roots::core::players_phrase(*s.start(), *s.end())
                    })
                    .unwrap_or_default();
                (*n, format!("{}, {seats}", g.title()))
            })
        })
        .collect()
}

/// The arguments that take a variant, as (command, argument id, its long
/// name if an option): every positional named VARIANT, `compare`'s and
/// `diff`'s A and B, the files of `validate` (a built-in name checks that
/// variant) and `new --extends`.
fn variant_args(root: &clap::Command) -> Vec<(String, String, Option<String>)> {
    let mut at = Vec::new();
    for sub in root.get_subcommands() {
        for arg in sub.get_arguments() {
            let takes = match (sub.get_name(), arg.get_id().as_str()) {
                ("compare" | "diff", "a" | "b") | ("validate", "files") | ("new", "extends") => {
                    true
                }
                _ => {
                    arg.is_positional()
                        && arg
                            .get_value_names()
                            .is_some_and(|n| n.len() == 1 && n[0] == "VARIANT")
                }
            };
            if takes {
                at.push((
                    sub.get_name().to_owned(),
                    arg.get_id().to_string(),
                    arg.get_long().map(str::to_owned),
                ));
            }
        }
    }
    at
}

pub fn run_man(args: ManArgs) -> u8 {
    let mut root = Cli::command().disable_help_subcommand(true);
    root.build();
    let subs: Vec<clap::Command> = root
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .cloned()
        .collect();
    if let Some(dir) = &args.dir {
        // `--dir ~/.local/share/man/man1` on a fresh account: make it.
        if let Err(e) = std::fs::create_dir_all(dir) {
            super::err(&format!(
                "error: cannot create the folder {}: {e}\n",
                dir.display()
            ));
            return exit::USAGE;
        }
        let mut written = Vec::new();
        for (i, cmd) in std::iter::once(&root).chain(&subs).enumerate() {
            let name = format!("{}.1", page_name(cmd));
            let path = dir.join(&name);
            if let Err(e) = std::fs::write(&path, page(cmd, &subs, i == 0)) {
                super::err(&format!("error: cannot write {}: {e}\n", path.display()));
                return exit::USAGE;
            }
            written.push(name);
        }
        super::note(&format!(
            "wrote {} pages into {}: {}\n",
            written.len(),
            dir.display(),
            written.join(" ")
        ));
        return exit::OK;
    }
    let text = match &args.command {
        None => page(&root, &subs, true),
        Some(name) => match subs.iter().find(|c| c.get_name() == name) {
            Some(cmd) => page(cmd, &subs, false),
            None => {
                let names: Vec<&str> = subs.iter().map(|c| c.get_name()).collect();
                super::err(&format!(
                    "error: no command `{name}`; the commands are {}\n",
                    names.join(", ")
                ));
                return exit::USAGE;
            }
        },
    };
    super::out(&text);
    exit::OK
}

/// A command's page name: `roots`, `roots-simulate`.
fn page_name(cmd: &clap::Command) -> String {
    cmd.get_display_name()
        .unwrap_or_else(|| cmd.get_name())
        .to_owned()
}

/// One manual page: clap_mangen's sections (name, synopsis, description,
/// every option, the commands), then the text after the help (examples)
/// kept line for line, and on the main page every command's page.
fn page(cmd: &clap::Command, subs: &[clap::Command], main: bool) -> String {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut b: Vec<u8> = Vec::new();
    let _ = man.render_title(&mut b);
    let _ = man.render_name_section(&mut b);
    let _ = man.render_synopsis_section(&mut b);
    let _ = man.render_description_section(&mut b);
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        let _ = man.render_options_section(&mut b);
    }
    if cmd.has_subcommands() {
        let _ = man.render_subcommands_section(&mut b);
    }
    // Each section rendered alone repeats the definition of the apostrophe
    // string; once is enough.
    let preamble = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let whole = String::from_utf8_lossy(&b).into_owned();
    let mut text = match whole.split_once(preamble) {
        Some((head, rest)) => format!("{head}{preamble}{}", rest.replace(preamble, "")),
        None => whole,
    };
    if let Some(after) = cmd.get_after_help() {
        text.push_str(&verbatim_section(&after.to_string()));
    }
    if main {
        text.push_str(".SH \"SEE ALSO\"\n");
        let refs: Vec<String> = subs
            .iter()
            .map(|c| format!("{}(1)", page_name(c)))
            .collect();
        text.push_str(&roff_escape(&refs.join(", ")));
        text.push_str("\n.PP\n");
        text.push_str(&roff_escape(
            "Each command's page: roots man COMMAND; all of them: roots man --dir DIR.",
        ));
        text.push('\n');
    }
    text
}

/// The text after a command's help as a section, its lines kept as they
/// are (no filling: the examples are aligned in columns). A first line
/// ending in `:` (`Examples:`) is the heading.
fn verbatim_section(after: &str) -> String {
    let mut lines = after.lines().peekable();
    let heading = match lines.peek() {
        Some(first) if first.trim_end().ends_with(':') => {
            let h = first.trim_end().trim_end_matches(':').to_uppercase();
            lines.next();
            h
        }
        _ => "NOTES".to_owned(),
    };
    let mut o = format!(".SH \"{heading}\"\n.nf\n");
    for line in lines {
        o.push_str(&roff_escape(line));
        o.push('\n');
    }
    o.push_str(".fi\n");
    o
}

/// A line of text for roff: backslashes and hyphens escaped, a leading
/// `.` or `'` guarded so it is not read as a request.
fn roff_escape(line: &str) -> String {
    let mut o = String::new();
    if line.starts_with(['.', '\'']) {
        o.push_str("\\&");
    }
    for c in line.chars() {
        match c {
            '\\' => o.push_str("\\e"),
            '-' => o.push_str("\\-"),
            _ => o.push(c),
        }
    }
    o
}
