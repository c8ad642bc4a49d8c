//! `roots simulate [VARIANT]`: many seeded games between bots, summed up.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use clap::ValueEnum;
use roots::bots::BotSpec;
use roots::games::Registered;
use roots::sim::{self, Config, GameResult, Report, Seating};

use super::{Failure, exit};

/// How a report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Serialize, serde::Deserialize)]
pub enum Output {
    /// A readable report.
    Table,
    /// The whole report as JSON.
    Json,
    /// The summary as CSV rows.
    Csv,
}

/// The settings shared by simulate, compare and sweep.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,

    /// Number of players, within the variant's range [default: the
    /// variant's own count when it has one (rgr-4p: 4), else 2].
    #[arg(long = "players", short = 'p', value_name = "PLAYERS")]
    pub players_given: Option<u8>,

    /// The number of players in use: `--players`, or the variant's default
    /// once [`SimArgs::settle`] has seen the variant.
    #[arg(skip = 2u8)]
    pub players: u8,

    /// The bot of each seat, seat 1 first, comma-separated (default: the
    /// game's default bot, `roots games` names it): greedy (one decision
    /// ahead with the game's evaluation; a whole turn in Sprout-R-Out),
    /// random (any legal move: the rules under aimless play), greedy-v1,
    /// mcts, mcts:ITERATIONS, mcts:MILLISms (a time budget: not
    /// reproducible by seed) or cmd:PROGRAM (an external player, see
    /// docs/protocol.md). One bot plays every seat.
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

impl SimArgs {
    /// The simulator's depth of measuring.
    pub fn depth(&self) -> roots::sim::measures::Depth {
        match self.measures {
            Depth::Outcomes => roots::sim::measures::Depth::Outcomes,
            Depth::Standard => roots::sim::measures::Depth::Standard,
            Depth::Full => roots::sim::measures::Depth::Full,
        }
    }
}

/// Seconds as whole milliseconds, within 1 ms and about 49 days.
pub fn timeout_ms(secs: f64) -> u32 {
    if secs.is_nan() {
        return crate_default_timeout();
    }
    (secs * 1000.0).clamp(1.0, f64::from(u32::MAX)) as u32
}

fn crate_default_timeout() -> u32 {
    roots::bots::DEFAULT_CMD_TIMEOUT_MS
}

/// Play many games of a variant between bots and report who wins, how long
/// games last and how they end, with 95% intervals.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots simulate                                   1000 games of greedy bots, standard rules
  roots simulate --bots random                     the rules under random play
  roots simulate --bots mcts:100,greedy --rotate   two bots, seats rotated
  roots simulate fewer-beads -n 5000 --seed 7 --format json
  roots simulate --skill -n 200                    how much skill the variant rewards
  roots simulate --summary                         a designer's findings in a few lines
  roots simulate --measures full                   clarity too (about twice the time)
  roots simulate -b random --measures outcomes     who wins and how long, no per-move measures (fast)
  roots simulate -n 100000 --out games.csv         one CSV row per game as well
What every figure means, and how to read its interval: docs/statistics.md")]
pub struct Args {
    /// A built-in variant name (standard), the path of a variant file, or
    /// `-` for standard input.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    #[command(flatten)]
    pub sim: SimArgs,

    #[command(flatten)]
    pub set: super::SetArgs,

    /// Also write one row per game to FILE, in game order, seats numbered
    /// from 1: JSON Lines when FILE ends in .jsonl, a JSON array for .json,
    /// CSV otherwise (or as --out-format says).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,

    /// The format of the --out file, whatever its extension.
    #[arg(long, value_enum, value_name = "FORMAT", requires = "out")]
    pub out_format: Option<OutFormat>,

    /// Measure skill: the better of two comparable bots against the other,
    /// seats rotated: the first two different non-random bots of --bots, or
    /// mcts:100 against greedy. The first bot plays one seat, the second
    /// every other seat.
    #[arg(long)]
    pub skill: bool,

    /// The smallest gap from a fair share that matters for a seat's wins,
    /// in percentage points (`seat1-wins=3`; default 2): the first-player
    /// advantage verdict.
    #[arg(long = "margin", value_name = "KEY=VALUE")]
    pub margin: Vec<String>,

    /// Print only the findings a designer asks for, a line each with its
    /// 95% interval: fair or not, length, tension, choice, skill (with
    /// --skill), rules that never came into play. With --format json or
    /// csv the whole report is printed as usual.
    #[arg(long)]
    pub summary: bool,

    /// Play only the K-th of N slices of the games and print a partial
    /// result (JSON) for `roots merge`; needs --seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// Also write game N of the run (numbered from 0, as the rows of --out
    /// are) as a game record, to look at with `roots view` or `roots replay`.
    #[arg(long, value_name = "N")]
    pub record_game: Option<u64>,

    /// Where --record-game writes [default: sim-<SEED>-game-<N>.jsonl].
    #[arg(long, value_name = "FILE", requires = "record_game")]
    pub record: Option<std::path::PathBuf>,
}

/// The settings of a run that make its report, as a partial result
/// (`--shard`) keeps them for `roots merge`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimSetup {
    pub games: u64,
    pub players: u8,
    pub bots: String,
    pub rotate: bool,
    pub seed: u64,
    pub seed_given: bool,
    pub format: Output,
    /// `--measures` (a part written before it was kept: the default).
    #[serde(default)]
    pub measures: roots::sim::measures::Depth,
}

impl SimSetup {
    /// The parts' depth of measuring.
    pub fn depth(&self) -> roots::sim::measures::Depth {
        self.measures
    }

    pub fn of(sim: &SimArgs, seed: u64) -> SimSetup {
        SimSetup {
            games: sim.games,
            players: sim.players,
            bots: sim.bots.clone(),
            rotate: sim.rotate,
            seed,
            seed_given: sim.seed.is_some(),
            format: sim.format,
            measures: sim.depth(),
        }
    }

    /// The run's configuration, with `rules` (a game's resolved rules as
    /// JSON), on one thread (a merge plays no game).
    pub fn config<G: Registered>(&self, rules: &serde_json::Value) -> Result<Config<G>, Failure> {
        let rules: G::Rules = serde_json::from_value(rules.clone()).map_err(|e| {
            Failure::usage(format!("the parts' variant is not {} rules: {e}", G::TITLE))
        })?;
        let config = Config::<G> {
            rules: Arc::new(rules),
            players: self.players,
            bots: parse_bots(&self.bots)?,
            seating: if self.rotate {
                Seating::Rotated
            } else {
                Seating::Fixed
            },
            games: self.games,
            seed: self.seed,
            jobs: 1,
            measures: self.measures,
        };
        config.validate()?;
        Ok(config)
    }
}

/// [`print_seed`] for a merge: what the single run would have printed.
pub fn print_seed_of(s: &SimSetup) {
    // Shards always have their seed given, so this says nothing today.
    note_seed(s.seed, s.seed_given);
}

/// The `--shard` of a command, checked: it needs a seed.
pub fn parse_shard(
    shard: Option<&str>,
    sim: &SimArgs,
) -> Result<Option<roots::sim::shard::Shard>, Failure> {
    let Some(text) = shard else { return Ok(None) };
    let shard = roots::sim::shard::Shard::parse(text).map_err(Failure::usage)?;
    if sim.seed.is_none() {
        return Err(Failure::usage(
            "--shard needs --seed: every shard must play the games of one seed",
        ));
    }
    Ok(Some(shard))
}

/// Play one shard's slice of a run's games (no per-game file, no report).
pub fn run_shard<G: Registered>(
    config: &Config<G>,
    shard: roots::sim::shard::Shard,
    label: &str,
) -> Result<sim::Accumulator, Failure> {
    let range = shard.range(config.games);
    let progress = Progress::new(range.end - range.start, label);
    let pool = sim::pool(config.jobs)?;
    let acc = sim::run_games(
        config,
        range,
        pool.as_ref(),
        interrupted(),
        |_| Ok(()),
        |done| progress.update(done),
    );
    progress.finish();
    Ok(acc?)
}

/// `--cmd-timeout`'s default, in seconds.
pub const DEFAULT_CMD_TIMEOUT_SECS: f64 = 10.0;

/// What `simulate --shard` keeps for `merge`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub label: String,
    pub strong: Option<(String, String)>,
    pub sim: SimSetup,
    pub rules: serde_json::Value,
}

impl From<sim::SimError> for Failure {
    fn from(e: sim::SimError) -> Failure {
        let code = match e {
            sim::SimError::Config(_) | sim::SimError::Output(_) => exit::USAGE,
            _ => exit::INVALID,
        };
        Failure {
            code,
            message: format!("error: {e}"),
        }
    }
}

pub fn parse_bots(text: &str) -> Result<Vec<BotSpec>, Failure> {
    text.split(',')
        .map(|b| BotSpec::parse(b).map_err(|e| Failure::usage(format!("--bots: {e}"))))
        .collect()
}

impl SimArgs {
    /// Settle what was left to the variant: the number of players as
    /// given, or the variant's default
    /// ([`roots::games::AnyRules::default_seats`]); `--bots` as given, or,
    /// when it was not, the game's default bot
    /// ([`roots::games::Game::DEFAULT_BOT`]) in every seat.
    pub fn settle(&mut self, rules: &roots::games::AnyRules) {
        self.players = self.players_given.unwrap_or_else(|| rules.default_seats());
        if self.bots.trim().is_empty() {
            self.bots = rules.game().default_bot().to_string();
        }
    }

    /// The seed to use, drawn at random (`rand`) when not given.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(super::random_seed)
    }

    pub fn config<G: Registered>(
        &self,
        rules: Arc<G::Rules>,
        seed: u64,
    ) -> Result<Config<G>, Failure> {
        let bots: Vec<BotSpec> = parse_bots(&self.bots)?
            .into_iter()
            .map(|b| b.with_timeout(timeout_ms(self.cmd_timeout)))
            .collect();
        let most = sim::max_jobs(bots.iter().any(|b| b.is_external()));
        let jobs = match self.jobs {
            None => most,
            Some(0) => return Err(Failure::usage("--jobs must be at least 1")),
            Some(j) if j > most => {
                // More threads than cores only share the cores: -j 1000 on
                // 2 cores took 6.5 times as long.
                super::note(&format!(
                    "note: --jobs {j} is more than this machine can use; running {most} (one a core{})\n",
                    if most > 1 && bots.iter().any(|b| b.is_external()) {
                        ", four a core with external players, at most 64"
                    } else {
                        ""
                    }
                ));
                most
            }
            Some(j) => j,
        };
        let config = Config::<G> {
            rules,
            players: self.players,
            bots,
            seating: if self.rotate {
                Seating::Rotated
            } else {
                Seating::Fixed
            },
            games: self.games,
            seed,
            jobs,
            measures: self.depth(),
        };
        config.validate()?;
        Ok(config)
    }
}

/// A progress bar on stderr (indicatif), updated after every game, with
/// the rate and the time left; drawn only when stderr is a terminal and
/// `--quiet` is not given.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(total: u64, label: &str) -> Progress {
        if !super::stderr_is_terminal() || super::quiet() {
            return Progress { bar: None };
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:25}] {pos}/{len} games, {rate}, {eta} left",
        ) {
            let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            };
            bar.set_style(style.progress_chars("#>-").with_key("rate", rate));
        }
        bar.set_prefix(label.to_string());
        Progress { bar: Some(bar) }
    }

    pub fn update(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
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

impl OutFormat {
    /// The format `--out-format` gives, else the extension of `path`:
    /// `.jsonl` JSON Lines, `.json` a JSON array, anything else CSV.
    pub fn of(path: &str, flag: Option<OutFormat>) -> OutFormat {
        flag.unwrap_or_else(|| {
            let lower = path.to_ascii_lowercase();
            if lower.ends_with(".jsonl") {
                OutFormat::Jsonl
            } else if lower.ends_with(".json") {
                OutFormat::Json
            } else {
                OutFormat::Csv
            }
        })
    }
}

/// The per-game file being written.
enum GameFile {
    Csv(Box<csv::Writer<std::io::BufWriter<std::fs::File>>>),
    Json {
        w: std::io::BufWriter<std::fs::File>,
        array: bool,
        first: bool,
    },
}

impl GameFile {
    fn create<G: Registered>(
        path: &str,
        format: OutFormat,
        players: u8,
    ) -> Result<GameFile, Failure> {
        let cannot =
            |e: &dyn std::fmt::Display| Failure::usage(format!("cannot write {path}: {e}"));
        let file = std::fs::File::create(path).map_err(|e| cannot(&e))?;
        let w = std::io::BufWriter::new(file);
        match format {
            OutFormat::Csv => {
                let mut c = csv::Writer::from_writer(w);
                c.write_record(GameResult::csv_header::<G>(players))
                    .map_err(|e| cannot(&e))?;
                Ok(GameFile::Csv(Box::new(c)))
            }
            OutFormat::Jsonl | OutFormat::Json => {
                let array = format == OutFormat::Json;
                let mut w = w;
                if array {
                    w.write_all(b"[").map_err(|e| cannot(&e))?;
                }
                Ok(GameFile::Json {
                    w,
                    array,
                    first: true,
                })
            }
        }
    }

    fn write(&mut self, r: &GameResult) -> std::io::Result<()> {
        match self {
            GameFile::Csv(c) => c.write_record(r.csv_row()).map_err(std::io::Error::other),
            GameFile::Json { w, array, first } => {
                if *array {
                    w.write_all(if *first { b"\n" } else { b",\n" })?;
                }
                *first = false;
                serde_json::to_writer(&mut *w, r)?;
                if !*array {
                    w.write_all(b"\n")?;
                }
                Ok(())
            }
        }
    }

    /// Close the array (after a Ctrl-C too) and flush.
    fn finish(self) -> std::io::Result<()> {
        match self {
            GameFile::Csv(mut c) => c.flush(),
            GameFile::Json {
                mut w,
                array,
                first,
            } => {
                if array {
                    w.write_all(if first { b"]\n" } else { b"\n]\n" })?;
                }
                w.flush()
            }
        }
    }
}

/// Run a configured simulation with an optional per-game file and progress.
pub fn run_config<G: Registered>(
    config: &Config<G>,
    out: Option<(&str, OutFormat)>,
    label: &str,
) -> Result<Report, Failure> {
    let progress = Progress::new(config.games, label);
    let mut writer = match out {
        Some((path, format)) => Some(GameFile::create::<G>(path, format, config.players)?),
        None => None,
    };
    let mut forfeits = 0u64;
    let acc = sim::run_until(
        config,
        interrupted(),
        |r| {
            if let Some((seat, why)) = &r.forfeit {
                // Say why, for the first few; the report counts them all.
                forfeits += 1;
                if forfeits <= 5 {
                    super::err(&format!(
                        "game {}: seat {} ({}) forfeits and loses: {why}\n",
                        r.game,
                        u16::from(*seat) + 1,
                        r.bots.get(usize::from(*seat)).map_or("?", String::as_str)
                    ));
                } else if forfeits == 6 {
                    super::err("more forfeits follow; the report counts them\n");
                }
            }
            match &mut writer {
                Some(w) => w.write(r),
                None => Ok(()),
            }
        },
        |done| progress.update(done),
    );
    progress.finish();
    let acc = acc?;
    if let Some(w) = writer {
        w.finish()
            .map_err(|e| Failure::usage(format!("cannot write the per-game file: {e}")))?;
    }
    let mut report = Report::new(config, &acc);
    if interrupted().load(Ordering::Relaxed) {
        super::err(&format!(
            "interrupted: the report covers the first {} of {} games (game order, so the same as --games {} with this seed){}\n",
            acc.games,
            config.games,
            acc.games,
            match out {
                Some((path, _)) => format!("; {path} holds those {} games", acc.games),
                None => String::new(),
            }
        ));
        report.mark_partial(config.games);
    }
    Ok(report)
}

/// The flag a Ctrl-C sets, its handler installed at the first call (which
/// `simulate`, `compare` and `sweep` make before anything else). A Ctrl-C
/// lets the games under way finish, starts no more, and the partial report
/// be printed, exit 130; a second one does the same (it used to exit at
/// once, losing the report and the rows not yet written).
pub(super) fn interrupted() -> &'static AtomicBool {
    static FLAG: OnceLock<&'static AtomicBool> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let _ = ctrlc::set_handler(move || {
            if flag.swap(true, Ordering::SeqCst) {
                super::err("already stopping: finishing the games under way\n");
            }
        });
        flag
    })
}

/// Whether a Ctrl-C came.
pub(super) fn was_interrupted() -> bool {
    interrupted().load(Ordering::Relaxed)
}

pub fn run(args: Args) -> u8 {
    interrupted();
    match try_run(args) {
        // Interrupted, report printed: the shell's code for Ctrl-C.
        Ok(()) if interrupted().load(Ordering::Relaxed) => 130,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

fn try_run(mut args: Args) -> Result<(), Failure> {
    let rules = super::load_variant(&args.variant, &args.set.set)?;
    args.sim.settle(&rules);
    let seed = args.sim.seed();
    let mut sim_args = args.sim.clone();
    let mut strong = None;
    if args.skill {
        let (s, w) = skill_pair(&parse_bots(&args.sim.bots)?);
        let mut line = vec![s.to_string()];
        line.extend((1..args.sim.players).map(|_| w.to_string()));
        sim_args.bots = line.join(",");
        sim_args.rotate = true;
        strong = Some((s.to_string(), w.to_string()));
    }
    let shard = parse_shard(args.shard.as_deref(), &args.sim)?;
    if shard.is_some() && args.out.is_some() {
        return Err(Failure::usage(
            "--out with --shard: write the per-game rows from a whole run",
        ));
    }
    let mut margins = roots::sim::verdict::Margins::default();
    let mut report = roots::with_game!(&rules, G, r => {
        for t in &args.margin {
            margins.add(t).map_err(Failure::usage)?;
            let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
            match sim::sweep::Measure::parse::<G>(key, sim_args.players) {
                Ok(sim::sweep::Measure::SeatWins(_)) => {}
                Ok(_) => return Err(Failure::usage(format!("--margin {key}: simulate judges only the seats' wins (seat1-wins...); compare takes a margin for every statistic"))),
                Err(e) => return Err(Failure::usage(format!("--margin: {e}"))),
            }
        }
        let config = sim_args.config::<G>(Arc::clone(r), seed)?;
        if let Some(shard) = shard {
            let acc = run_shard(&config, shard, "simulating")?;
            let setup = Setup {
                label: super::variant_label(G::name(r), &args.set.set),
                strong: strong.clone(),
                sim: SimSetup::of(&sim_args, seed),
                rules: serde_json::to_value(&**r)
                    .map_err(|e| Failure::usage(format!("cannot write the rules as JSON: {e}")))?,
            };
            let setup = serde_json::to_value(&setup)
                .map_err(|e| Failure::usage(format!("cannot write the partial result: {e}")))?;
            let run = roots::sim::shard::PartialRun {
                label: "run".into(),
                totals: Some(acc.to_data()),
                error: None,
            };
            let mut part = roots::sim::shard::Partial::new("simulate", shard, G::ID, setup, vec![run]);
            part.interrupted = was_interrupted();
            super::out(&part.to_text());
            return Ok(());
        }
        print_seed(&args.sim, seed);
        if let Some(n) = args.record_game {
            record_game(&config, n, args.record.as_deref())?;
        }
        let out = args.out.as_deref().map(|p| (p, OutFormat::of(p, args.out_format)));
        run_config(&config, out, "simulating")?
    });
    report.variant = super::variant_label(&report.variant, &args.set.set);
    report.set_margins(&margins);
    if let Some((s, w)) = strong {
        report = report.with_skill(&s, &w);
    }
    if args.summary && args.sim.format == Output::Table {
        super::out(&report.summary());
        return Ok(());
    }
    print_report(&report, args.sim.format)
}

/// Print the report of merged shards of `simulate`.
pub fn merge(
    part: &roots::sim::shard::Partial,
    totals: &[sim::AccumulatorData],
) -> Result<(), Failure> {
    let setup: Setup = serde_json::from_value(part.setup.clone())
        .map_err(|e| Failure::usage(format!("the parts' settings cannot be read: {e}")))?;
    let game = roots::games::GameId::parse(&part.game).ok_or_else(|| {
        Failure::usage(format!("the parts are of an unknown game `{}`", part.game))
    })?;
    let mut report = roots::with_game_id!(game, G => {
        let config = setup.sim.config::<G>(&setup.rules)?;
        let acc = sim::Accumulator::from_data::<G>(&totals[0]).map_err(Failure::usage)?;
        Report::new(&config, &acc)
    });
    report.variant = setup.label.clone();
    if let Some((s, w)) = &setup.strong {
        report = report.with_skill(s, w);
    }
    print_seed_of(&setup.sim);
    print_report(&report, setup.sim.format)
}

/// The two bots of a skill measure: the first two different non-random
/// bots given, or mcts:100 against greedy.
pub fn skill_pair(bots: &[BotSpec]) -> (BotSpec, BotSpec) {
    let mut seen: Vec<BotSpec> = Vec::new();
    for &b in bots {
        if b.is_strong() && !seen.contains(&b) {
            seen.push(b);
        }
    }
    match seen[..] {
        [a, b, ..] => (a, b),
        _ => (BotSpec::Mcts { iterations: 100 }, BotSpec::Greedy),
    }
}

/// `--record-game N`: game `n` of the run as a record.
fn record_game<G: Registered>(
    config: &Config<G>,
    n: u64,
    path: Option<&std::path::Path>,
) -> Result<(), Failure> {
    use roots::record::{DiceMode, Header, RecordWriter};
    if n >= config.games {
        return Err(Failure::usage(format!(
            "--record-game {n}: the run has games 0 to {}",
            config.games.saturating_sub(1)
        )));
    }
    let (players, events) = sim::record_game(config, n)?;
    let header = Header {
        variant: G::wrap(Arc::clone(&config.rules)),
        seed: Some(config.seed),
        seed_game: n,
        dice: DiceMode::Auto,
        players,
        created: roots::record::utc_now().0,
    };
    let default = std::path::PathBuf::from(format!("sim-{}-game-{n}.jsonl", config.seed));
    let path = path.map_or(default, std::path::Path::to_path_buf);
    let shown = path.display().to_string();
    let mut w = RecordWriter::create(&path, &header).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
            "\n  = help: a record is never overwritten: remove it, or give another FILE to --record"
        } else {
            ""
        };
        Failure::io(format!(
            "{shown}: error: cannot create the record: {e}{hint}"
        ))
    })?;
    for e in &events {
        w.write_event(e)
            .map_err(|e| Failure::io(format!("{shown}: error: cannot write the record: {e}")))?;
    }
    if !super::quiet() {
        super::err(&format!(
            "game {n} recorded in {shown} ({} events); see it with: roots view {shown}\n",
            events.len()
        ));
    }
    Ok(())
}

/// Say on stderr which seed a run drew (when `--seed` was not given), so
/// the run can be repeated; stdout holds the report alone (whose heading
/// names the seed too).
pub fn print_seed(sim: &SimArgs, seed: u64) {
    note_seed(seed, sim.seed.is_some());
}

/// The note of [`print_seed`]: on stderr, only for a seed drawn at random.
pub fn note_seed(seed: u64, given: bool) {
    if !given {
        super::note(&format!(
            "seed: {seed} (drawn at random; --seed {seed} repeats this run)\n"
        ));
    }
}

pub fn print_report(report: &Report, format: Output) -> Result<(), Failure> {
    match format {
        Output::Table => super::out(&report.to_table()),
        Output::Csv => super::out(&report.to_csv()),
        Output::Json => {
            let text = serde_json::to_string_pretty(report)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}
