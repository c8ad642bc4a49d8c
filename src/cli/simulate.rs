//! `roots simulate [VARIANT]`: many seeded games between bots, summed up.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use clap::ValueEnum;
use roots::bots::BotSpec;
use roots::games::Game;
use roots::sim::{self, Config, GameResult, Report, Seating};

use super::{Failure, exit};

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

/// The settings shared by simulate, compare and sweep.
#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// Number of games.
    #[arg(long, short = 'n', default_value_t = 1000)]
    pub games: u64,

    /// Number of players (within the variant's range).
    #[arg(long, short = 'p', default_value_t = 2)]
    pub players: u8,

    /// The bot of each seat, seat 1 first, comma-separated: random, greedy,
    /// mcts or mcts:ITERATIONS. One bot plays every seat.
    #[arg(long, short = 'b', default_value = "random", value_name = "B1,B2,...")]
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
}

/// Play many games of a variant between bots and report who wins, how long
/// games last and how they end, with 95% intervals.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots simulate                                   1000 games of random bots, standard rules
  roots simulate --bots greedy,random --rotate     greedy against random, seats rotated
  roots simulate variants/fewer-beads.toml -n 5000 --seed 7 --format json
  roots simulate --skill --bots mcts:200 -n 200    how much skill the variant rewards
  roots simulate -n 100000 --out games.csv         one CSV row per game as well")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    #[command(flatten)]
    pub sim: SimArgs,

    #[command(flatten)]
    pub set: super::SetArgs,

    /// Also write one row per game to FILE, in game order: JSON lines when
    /// FILE ends in .jsonl or .json, CSV otherwise.
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,

    /// Measure skill: the first non-random bot of --bots (greedy if none)
    /// plays one seat against random bots, seats rotated.
    #[arg(long)]
    pub skill: bool,

    /// Also write game N of the run (numbered from 0, as the rows of --out
    /// are) as a game record, to look at with `roots view` or `roots replay`.
    #[arg(long, value_name = "N")]
    pub record_game: Option<u64>,

    /// Where --record-game writes [default: sim-<SEED>-game-<N>.jsonl].
    #[arg(long, value_name = "FILE", requires = "record_game")]
    pub record: Option<std::path::PathBuf>,
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
    /// The seed to use, drawn from the clock and the process when not given.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            h.write_u128(now);
            h.write_u32(std::process::id());
            // Keep seeds short enough to type.
            h.finish() % 1_000_000_000_000
        })
    }

    pub fn config<G: Game>(&self, rules: Arc<G::Rules>, seed: u64) -> Result<Config<G>, Failure> {
        let jobs = self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
        if jobs == 0 || jobs > 1024 {
            return Err(Failure::usage("--jobs must be from 1 to 1024"));
        }
        let config = Config::<G> {
            rules,
            players: self.players,
            bots: parse_bots(&self.bots)?,
            seating: if self.rotate {
                Seating::Rotated
            } else {
                Seating::Fixed
            },
            games: self.games,
            seed,
            jobs,
        };
        config.validate()?;
        Ok(config)
    }
}

/// A progress line on stderr, drawn only when stderr is a terminal.
pub struct Progress {
    on: bool,
    total: u64,
    label: String,
}

impl Progress {
    pub fn new(total: u64, label: &str) -> Progress {
        Progress {
            on: super::stderr_is_terminal(),
            total,
            label: label.to_string(),
        }
    }

    pub fn update(&self, done: u64) {
        if self.on {
            let pct = 100 * done / self.total.max(1);
            let filled = (pct / 4) as usize;
            super::err(&format!(
                "\r{} [{:<25}] {done}/{} games",
                self.label,
                "#".repeat(filled),
                self.total
            ));
        }
    }

    pub fn finish(&self) {
        if self.on {
            super::err("\r\x1b[2K");
        }
    }
}

/// Run a configured simulation with an optional per-game file and progress.
pub fn run_config<G: Game>(
    config: &Config<G>,
    out: Option<&str>,
    label: &str,
) -> Result<Report, Failure> {
    let progress = Progress::new(config.games, label);
    let mut writer = match out {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
            let mut w = std::io::BufWriter::new(file);
            let jsonl = path.ends_with(".jsonl") || path.ends_with(".json");
            if !jsonl {
                writeln!(w, "{}", GameResult::csv_header::<G>(config.players))
                    .map_err(|e| Failure::usage(format!("cannot write {path}: {e}")))?;
            }
            Some((w, jsonl))
        }
        None => None,
    };
    let acc = sim::run_until(
        config,
        interrupted(),
        |r| match &mut writer {
            Some((w, true)) => {
                serde_json::to_writer(&mut *w, r)?;
                w.write_all(b"\n")
            }
            Some((w, false)) => writeln!(w, "{}", r.csv_row()),
            None => Ok(()),
        },
        |done| progress.update(done),
    );
    progress.finish();
    let acc = acc?;
    if let Some((mut w, _)) = writer {
        w.flush()
            .map_err(|e| Failure::usage(format!("cannot write the per-game file: {e}")))?;
    }
    if interrupted().load(Ordering::Relaxed) {
        super::err(&format!(
            "interrupted: the report covers the first {} of {} games (game order, so the same as --games {} with this seed){}\n",
            acc.games,
            config.games,
            acc.games,
            match out {
                Some(path) => format!("; {path} holds those {} games", acc.games),
                None => String::new(),
            }
        ));
    }
    Ok(Report::new(config, &acc))
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

fn try_run(args: Args) -> Result<(), Failure> {
    let rules = super::load_variant(&args.variant, &args.set.set)?;
    let seed = args.sim.seed();
    let mut sim_args = args.sim.clone();
    let mut strong = None;
    if args.skill {
        let bots = parse_bots(&args.sim.bots)?;
        let s = bots
            .iter()
            .copied()
            .find(|b| b.is_strong())
            .unwrap_or(BotSpec::Greedy);
        let mut line = vec![s.to_string()];
        line.extend((1..args.sim.players).map(|_| "random".to_string()));
        sim_args.bots = line.join(",");
        sim_args.rotate = true;
        strong = Some(s.to_string());
    }
    let mut report = roots::with_game!(&rules, G, r => {
        let config = sim_args.config::<G>(Arc::clone(r), seed)?;
        print_seed(&args.sim, seed);
        if let Some(n) = args.record_game {
            record_game(&config, n, args.record.as_deref())?;
        }
        run_config(&config, args.out.as_deref(), "simulating")?
    });
    report.variant = super::variant_label(&report.variant, &args.set.set);
    if let Some(s) = strong {
        report = report.with_skill(&s);
    }
    print_report(&report, args.sim.format)
}

/// `--record-game N`: game `n` of the run as a record.
fn record_game<G: Game>(
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
    let mut w = RecordWriter::create(&path, &header)
        .map_err(|e| Failure::io(format!("{shown}: error: cannot create the record: {e}")))?;
    for e in &events {
        w.write_event(e)
            .map_err(|e| Failure::io(format!("{shown}: error: cannot write the record: {e}")))?;
    }
    super::err(&format!(
        "game {n} recorded in {shown} ({} events); see it with: roots view {shown}\n",
        events.len()
    ));
    Ok(())
}

/// Say which seed a run uses: on stdout above a table; on stderr for JSON
/// and CSV (so stdout stays parseable), and only when it was not given.
pub fn print_seed(sim: &SimArgs, seed: u64) {
    let line = format!("seed: {seed}\n");
    if sim.format == Output::Table {
        super::out(&line);
    } else if sim.seed.is_none() {
        super::err(&line);
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
