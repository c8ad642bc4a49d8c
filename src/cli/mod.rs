//! The command line: one module per command. Each command's `run` returns
//! the process exit code; the library does the work.

use clap::{Parser, Subcommand};
use roots::variant::{Override, Style};

mod args;
pub mod compare;
pub mod completions;
pub mod diff;
pub mod engine;
pub mod explain;
#[cfg(feature = "serve")]
pub mod feedback;
pub mod games;
mod human;
pub mod ladder;
pub mod merge;
pub mod new;
pub mod play;
mod print;
mod records;
pub mod replay;
pub mod schema;
#[cfg(feature = "serve")]
pub mod serve;
pub mod show;
pub mod simulate;
pub mod sweep;
mod term;
pub mod tune;
pub mod validate;
pub mod view;

pub use roots::run::console::{err, note};
pub use roots::run::plan::random_seed;
pub use roots::run::{Failure, exit};
pub use term::{
    Color, Format, Stream, out, out_json, output, set_colour, shell_quote, style, use_colour,
};
pub(crate) use term::{errln, outln, outp};

/// A toolkit for inventing, checking and playtesting rule variants of
/// root-growing board games: Roots and Shoots, Branches & Twigs & Thorns,
/// Sprout-R-Out and Roots Growy Roots (`roots games` lists them).
#[derive(Debug, Parser)]
#[command(name = "roots", version, propagate_version = true)]
#[command(after_help = "Examples:
  roots games                                     the games and their built-in variants
  roots simulate --bots greedy,random             playtest with bots: statistics for the standard rules
  roots simulate btt --players 4                  the same for Branches & Twigs & Thorns
  roots compare standard fewer-beads              does a house rule change the game?
  roots sweep standard --set beads.supply=30..120:10 --svg supply.svg
  roots validate mine.toml                        check a variant file: every mistake at once
  roots show fewer-beads                          print every rule of a variant, resolved
  roots play --players human,random               play at the terminal against a bot
  roots play --players human,human --dice manual  referee a game on a real board
  roots replay roots-game-*.jsonl                 re-check a recorded game
  roots view game.jsonl -o game.html              step through a recorded game in a browser
  roots new mine                                  start a house-rules file, mine.toml
  roots explain mine.toml                         the rules sheet of a variant
  roots diff standard mine.toml                   what a variant changes, and what it means
  roots show --set beads.supply=35                try a change without editing a file
  roots schema > variant.schema.json              the JSON schema, for editors")]
pub struct Cli {
    /// When to use colours: auto (on a terminal, unless NO_COLOR is set;
    /// CLICOLOR_FORCE=1 forces them), always, never. One decision for every
    /// command and both streams.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,

    /// No progress bar and no notes on stderr (the seed drawn, files
    /// written); errors, warnings and results still print.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// The commands. New commands (play, replay, simulate, ...) are one variant
/// and one module each.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check variant files: every mistake, at file:line:col.
    Validate(validate::Args),
    /// Print a variant's rules, resolved (after `extends` and defaults).
    Show(show::Args),
    /// Print the JSON Schema of variant files.
    Schema(schema::Args),
    /// Play a game at the terminal, the program as referee; every event is
    /// recorded so the game can be replayed or resumed.
    Play(play::PlayArgs),
    /// Re-apply every event of a game record and report the result.
    Replay(replay::ReplayArgs),
    /// Write a recorded game as one HTML page to step through in a browser.
    View(view::ViewArgs),
    /// Playtest tables in the browser: people click their moves, bots take
    /// the other seats, every game recorded, a questionnaire at the end.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Summarise the questionnaire answers of `roots serve` tables per
    /// variant, beside bot statistics of the same variant.
    #[cfg(feature = "serve")]
    Feedback(feedback::FeedbackArgs),
    /// Playtest a variant: many seeded bot games, with statistics on
    /// fairness, length and luck.
    Simulate(simulate::Args),
    /// The same statistics for two variants side by side, over matched seeds,
    /// with each difference tested.
    Compare(compare::Args),
    /// The statistics across the values of one key or two (a grid), as a
    /// table and an SVG plot (a heat map for two keys).
    Sweep(sweep::Args),
    /// Search the values of some keys for the variant nearest to targets
    /// (a game length, no first-player advantage) and write it as a file.
    Tune(tune::Args),
    /// Combine the partial results of a run played in shards (`--shard K/N`)
    /// into the report one run prints.
    Merge(merge::Args),
    /// Rate bots on the Elo scale by a round robin: how much skill a variant
    /// rewards.
    Ladder(ladder::Args),
    /// Print a variant as a readable rules sheet (Markdown), house rules marked.
    Explain(explain::Args),
    /// Print the rule differences between two variants, with what each means in play.
    Diff(diff::Args),
    /// Write a commented starter variant file, NAME.toml, that validates.
    New(new::Args),
    /// List the games of the toolkit with their built-in variants.
    Games(games::Args),
    /// Serve the engine protocol (JSON Lines on stdin/stdout) for programs:
    /// bots and interfaces in any language (docs/protocol.md).
    Engine(engine::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::CompletionArgs),
    /// Print the manual page (roff), for `man -l -` or a man directory.
    Man(completions::ManArgs),
}

impl Cli {
    /// Run the command; then check that everything written to stdout got
    /// there (a failed write is exit 2 with a message, a closed pipe ends
    /// quietly), and end any external player still running.
    pub fn run(self) -> u8 {
        set_colour(self.color);
        roots::run::console::set_quiet(self.quiet);
        let code = self.dispatch();
        roots::bots::end_external_players();
        output::finish(code)
    }

    /// Catch the signals that end a program, with this command's action
    /// decided first: a run (simulate, compare, sweep, tune, ladder)
    /// prints a partial report (its players end with their games); any
    /// other command ends at once, and its external players with it (the
    /// run layer's `interrupt`). Decided before the handler is installed,
    /// so that no signal finds the handler without its command's action
    /// (a Ctrl-C in that gap ended a run with no report).
    pub fn catch_signals(&self) {
        let playing_in_rounds = matches!(
            self.command,
            Command::Simulate(_)
                | Command::Compare(_)
                | Command::Sweep(_)
                | Command::Tune(_)
                | Command::Ladder(_)
        );
        if playing_in_rounds {
            roots::run::interrupt::catch();
        } else {
            roots::run::interrupt::end_at_once();
        }
        use roots::signals::{SIGHUP, SIGINT, SIGTERM, catch};
        catch(&[SIGINT, SIGTERM, SIGHUP]);
    }

    fn dispatch(self) -> u8 {
        match self.command {
            Command::Validate(args) => validate::run(args),
            Command::Show(args) => show::run(args),
            Command::Schema(args) => schema::run(args),
            Command::Play(args) => finish(play::run(args)),
            Command::Replay(args) => finish(replay::run(args)),
            Command::View(args) => finish(view::run(args)),
            #[cfg(feature = "serve")]
            Command::Serve(args) => finish(serve::run(args)),
            #[cfg(feature = "serve")]
            Command::Feedback(args) => finish(feedback::run(args)),
            Command::Simulate(args) => simulate::run(args),
            Command::Compare(args) => compare::run(args),
            Command::Sweep(args) => sweep::run(args),
            Command::Tune(args) => tune::run(args),
            Command::Merge(args) => merge::run(args),
            Command::Ladder(args) => ladder::run(args),
            Command::Explain(args) => explain::run(args),
            Command::Diff(args) => diff::run(args),
            Command::New(args) => new::run(args),
            Command::Games(args) => games::run(args),
            Command::Engine(args) => engine::run(args),
            Command::Completions(args) => completions::run_completions(args),
            Command::Man(args) => completions::run_man(args),
        }
    }
}

/// The variant of a command that prints one (`show`, `explain`): the
/// argument, how to print its errors, and `--set` changes.
#[derive(Debug, clap::Args)]
pub struct VariantArg {
    /// A built-in variant name (standard), the path of a variant file, or
    /// `-` for standard input.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    /// How to print the result and errors: json prints the result as JSON
    /// (and errors as a JSON array).
    #[arg(long, value_enum, default_value_t = Format::Auto)]
    pub format: Format,

    #[command(flatten)]
    pub set: SetArgs,
}

impl VariantArg {
    /// Load the variant with [`load_reporting`], errors styled for stderr.
    pub fn load(&self) -> Result<roots::variant::Loaded, u8> {
        let style = style(self.format, Stream::Stderr);
        load_reporting(&self.variant, &self.set.set, style)
    }
}

/// The `--set` option of every command that loads a variant.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SetArgs {
    /// Change one rule without editing a file: `--set beads.supply=35`
    /// (repeatable; the value is TOML, or a bare word like `on_spawn`).
    /// Checked like a line of the variant file, on top of it.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_override)]
    pub set: Vec<Override>,
}

fn parse_override(text: &str) -> Result<Override, String> {
    Override::parse(text)
}

/// A value parser for text with names to offer: the text as given (checked
/// later, with its own message), but with the names (and their help) as
/// possible values, so shell completion offers them rather than file names.
#[derive(Clone, Debug)]
pub struct OfferedNames(pub Vec<(&'static str, String)>);

impl OfferedNames {
    /// The bot names of `--bots` and `--players` (`human` too for `play`).
    pub fn bots(human: bool) -> Self {
        let mut names = Vec::new();
        if human {
            names.push(("human", "a person at the terminal"));
        }
        names.extend([
            ("random", "any legal move"),
            ("greedy", "the best move one step ahead"),
            ("greedy-v1", "the first greedy bot, kept to compare with"),
            ("mcts", "tree search; mcts:N for N iterations"),
        ]);
        Self(names.into_iter().map(|(n, h)| (n, h.to_string())).collect())
    }
}

impl clap::builder::TypedValueParser for OfferedNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|(n, help)| {
            let value = clap::builder::PossibleValue::new(*n);
            if help.is_empty() {
                value
            } else {
                value.help(help.clone())
            }
        })))
    }
}

/// Standard input holds one variant: refuse `-` given twice.
pub fn stdin_once<'a>(args: impl IntoIterator<Item = &'a str>) -> Result<(), Failure> {
    let n = args
        .into_iter()
        .filter(|a| *a == roots::variant::STDIN_ARG)
        .count();
    if n > 1 {
        return Err(Failure::usage(
            "`-` (standard input) is given more than once: standard input holds one variant",
        ));
    }
    Ok(())
}

fn finish(result: Result<(), Failure>) -> u8 {
    match result {
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

/// Load a variant argument (a built-in name such as `standard`, or a path)
/// through the full variant pipeline, `--set` overrides on top, for a
/// command whose output is the variant itself (`show`, `explain`, `diff`,
/// `new`). Warnings are printed to stderr in `style` and do not stop the
/// command; on failure the diagnostics are printed and the error is the
/// exit code: 2 when `arg` itself cannot be read, 1 otherwise.
pub fn load_reporting(
    arg: &str,
    overrides: &[Override],
    style: Style,
) -> Result<roots::variant::Loaded, u8> {
    load_or_report(arg, overrides, style).map_err(|(code, _)| code)
}

/// [`load_reporting`], also telling on failure whether a `--set` option is
/// at fault.
fn load_or_report(
    arg: &str,
    overrides: &[Override],
    style: Style,
) -> Result<roots::variant::Loaded, (u8, bool)> {
    use roots::variant::{Code, load_with, render};
    match load_with(arg, overrides) {
        Ok(loaded) => {
            // No warnings, nothing printed (in JSON not even `[]`).
            if !loaded.warnings.is_empty() {
                err(&render(&loaded.warnings, &loaded.sources, style));
            }
            Ok(loaded)
        }
        Err(diags) => {
            err(&render(&diags.items, &diags.sources, style));
            let unreadable = diags.items.iter().any(|d| {
                d.code == Code::Io
                    && (d.file == arg
                        || (arg == roots::variant::STDIN_ARG
                            && d.file == roots::variant::STDIN_DISPLAY))
            });
            let in_set = diags.items.iter().any(|d| d.file.starts_with("--set"));
            let code = if unreadable {
                exit::USAGE
            } else {
                exit::INVALID
            };
            Err((code, in_set))
        }
    }
}

/// The rules of a variant argument for a command that plays it (`play`,
/// `simulate`, `compare`, `sweep`): [`load_reporting`] in the style of a
/// terminal or not, plus a last line that points to `roots validate`.
pub fn load_variant(arg: &str, overrides: &[Override]) -> Result<roots::games::AnyRules, Failure> {
    let style = style(Format::Auto, Stream::Stderr);
    load_or_report(arg, overrides, style)
        .map(|loaded| loaded.rules)
        .map_err(|(code, in_set)| {
            let message = if code == exit::USAGE {
                String::new() // the diagnostics said it: the file cannot be read
            } else if in_set {
                "error: the --set options do not make a valid variant".to_string()
            } else {
                format!("error: variant `{arg}` is not valid; see `roots validate {arg}`")
            };
            Failure { code, message }
        })
}
