//! The arguments every command that plays a run takes (simulate, compare,
//! sweep, tune), and how they make the run's plan.

use clap::ValueEnum;
use roots::run::{self, Asked, Plan};

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Output {
    /// A readable report.
    Table,
    /// The whole report as JSON.
    Json,
    /// The summary as CSV rows.
    Csv,
}

impl From<Output> for run::Format {
    fn from(o: Output) -> run::Format {
        match o {
            Output::Table => run::Format::Table,
            Output::Json => run::Format::Json,
            Output::Csv => run::Format::Csv,
        }
    }
}

/// The settings shared by simulate, compare, sweep and tune.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,

    /// Number of players, within the variant's range [default: the
    /// variant's own count when it has one (rgr-4p: 4), else 2].
    #[arg(long = "players", short = 'p', value_name = "PLAYERS")]
    pub players_given: Option<u8>,

    /// The bot of each seat, seat 1 first, comma-separated (default: the
    /// game's default bot, `roots games` names it): greedy (one decision
    /// ahead with the game's evaluation; a whole turn in Sprout-R-Out),
    /// random (any legal move: the rules under aimless play), greedy-v1,
    /// mcts (the game's own search at its default budget),
    /// mcts:ITERATIONS (Monte Carlo tree search), mcts:MILLISms (a time
    /// budget: not reproducible by seed) or cmd:PROGRAM (an external
    /// player, see docs/protocol.md). One bot plays every seat.
    #[arg(long, short = 'b', default_value = "", hide_default_value = true, value_name = "B1,B2,...",
          value_parser = super::OfferedNames::bots(false), hide_possible_values = true)]
    pub bots: String,

    /// Rotate the bots round the seats from game to game, so each plays
    /// every seat equally often.
    #[arg(long)]
    pub rotate: bool,

    /// The seed; the same seed replays the same games. Drawn at random and
    /// printed when not given.
    #[arg(long, short = 's')]
    pub seed: Option<u64>,

    /// Worker threads (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,

    /// How to print the report.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    pub format: Output,

    /// What to measure beyond who wins: `outcomes` (length, board use and
    /// rule events only: nothing per decision, many times faster under
    /// random play), `standard` (also choice and tension: a count of the
    /// legal moves before and one evaluation per seat after each decision)
    /// or `full` (also clarity, every legal move of every decision
    /// evaluated, and repeated positions in every game: about twice the
    /// time of a greedy run).
    #[arg(long, value_enum, value_name = "DEPTH", default_value_t = Depth::Standard)]
    pub measures: Depth,

    /// Seconds an external player (`cmd:PROGRAM`) has for each decision;
    /// one that takes longer forfeits the game, and the run goes on.
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_CMD_TIMEOUT_SECS)]
    pub cmd_timeout: f64,

    /// Also write the report as one self-contained web page to FILE (the
    /// question and verdict in words, the findings, the rules sheets, the
    /// pictures, a sample game, the command to repeat it): docs/report.md.
    #[arg(long, value_name = "FILE")]
    pub html: Option<std::path::PathBuf>,
}

/// `--measures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Depth {
    /// Outcomes, length, board use, rule events: nothing per decision.
    Outcomes,
    /// Also choice, tension, repetition where cheap.
    Standard,
    /// Also clarity and repetition in every game (costly).
    Full,
}

impl From<Depth> for roots::sim::measures::Depth {
    fn from(d: Depth) -> roots::sim::measures::Depth {
        match d {
            Depth::Outcomes => roots::sim::measures::Depth::Outcomes,
            Depth::Standard => roots::sim::measures::Depth::Standard,
            Depth::Full => roots::sim::measures::Depth::Full,
        }
    }
}

/// `--cmd-timeout`'s default, in seconds.
pub const DEFAULT_CMD_TIMEOUT_SECS: f64 = 10.0;

/// Seconds as whole milliseconds, within 1 ms and about 49 days.
pub fn timeout_ms(secs: f64) -> u32 {
    if secs.is_nan() {
        return roots::bots::DEFAULT_CMD_TIMEOUT_MS;
    }
    (secs * 1000.0).clamp(1.0, f64::from(u32::MAX)) as u32
}

impl SimArgs {
    /// The plan of the run of `rules`: what was left to the variant
    /// settled, the seed drawn when not given.
    pub fn plan(&self, rules: &roots::games::AnyRules) -> Plan {
        Plan::new(
            rules,
            Asked {
                games: self.games,
                players: self.players_given,
                bots: self.bots.clone(),
                rotate: self.rotate,
                seed: self.seed,
                jobs: self.jobs,
                format: self.format.into(),
                measures: self.measures.into(),
                cmd_timeout_ms: timeout_ms(self.cmd_timeout),
            },
        )
    }
}

/// The format of the per-game file of `--out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
    /// One JSON array of the games.
    Json,
}

impl From<OutFormat> for run::GamesFormat {
    fn from(f: OutFormat) -> run::GamesFormat {
        match f {
            OutFormat::Csv => run::GamesFormat::Csv,
            OutFormat::Jsonl => run::GamesFormat::Jsonl,
            OutFormat::Json => run::GamesFormat::Json,
        }
    }
}
