//! `roots tune VARIANT --vary KEY=RANGE ... --target MEASURE=GOAL ...`:
//! search the values of some keys for the variant nearest to targets, and
//! write the best as a variant file that extends the original.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use roots::games::{GameId, Registered};
use roots::sim::shard::{Partial, PartialRun, Shard};
use roots::sim::sweep::{self, Axis, Measure};
use roots::sim::tune::{self, Evaluate, Job, Plan, Point, Target};
use roots::sim::{self, Accumulator, Config, Report};
use roots::variant::Override;

use super::simulate::{Output, SimArgs, SimSetup, interrupted, print_seed, was_interrupted};
use super::{Failure, exit};

/// Search chosen keys of a variant for the values that come nearest to
/// targets, by successive halving on common random numbers: many points
/// play a few games, the best third play three times as many, and so on,
/// every point on the same seeded games; later brackets search around the
/// best point found. Prints the best variants with 95% intervals of each
/// target measure and writes the best as a variant file that extends
/// VARIANT with only the changed keys. Ctrl-C stops and keeps the best so far.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots tune standard --vary beads.supply=30..90 --vary nutrients.supply=20..60 \\
      --target rounds=25 --target first-player-advantage=0
  roots tune standard --vary nutrients.value_rolled --vary beads.store=4..8 \\
      --target ties=min --time 2m --write my-tuned.toml
  roots tune btt --vary board.size=4..8 --target first-player-advantage=0 -p 3

Targets: a measure (first-player-advantage, seat1-wins, ties, a way games end
such as beads_out, a count such as rounds or margin) and a number, min or
max. Rates may be written 0.5 or 50%; the first-player advantage (seat 1's
share of the decided games minus a fair share) in points, 0 or 2pt. Several
targets add up their distances: one percentage point of a rate counts as
much as one unit (a round) of a mean.")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(value_name = "VARIANT")]
    pub variant: String,

    /// A key to search (repeatable): KEY=FROM..TO[:STEP], KEY=A,B,C or KEY
    /// alone (every value of a true/false or word key).
    #[arg(long = "vary", value_name = "KEY=RANGE", required = true)]
    pub vary: Vec<String>,

    /// A target (repeatable): MEASURE=VALUE, MEASURE=min or MEASURE=max.
    #[arg(long = "target", value_name = "MEASURE=GOAL", required = true)]
    pub target: Vec<String>,

    /// Change a rule at every point (repeatable), as in a file.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = |t: &str| Override::parse(t))]
    pub set: Vec<Override>,

    /// Most games in all.
    #[arg(long, default_value_t = 100_000, value_name = "GAMES")]
    pub budget: u64,

    /// Stop after this long (90s, 5m, 1h) and report the best so far.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,

    /// Points per bracket (the first round of each bracket plays them all).
    #[arg(long, default_value_t = 27)]
    pub candidates: usize,

    /// Write the best variant to FILE (default: NAME-tuned.toml).
    #[arg(long, value_name = "FILE")]
    pub write: Option<String>,

    /// How many of the best variants to print.
    #[arg(long, default_value_t = 5)]
    pub top: usize,

    /// Play only the K-th of N slices of every round's games, exchanging
    /// totals with the other shards through --exchange DIR (every shard
    /// must run at the same time); prints a partial result for `roots merge`.
    #[arg(long, value_name = "K/N", requires = "exchange")]
    pub shard: Option<String>,

    /// A directory every shard can read and write (a shared file system).
    #[arg(long, value_name = "DIR")]
    pub exchange: Option<PathBuf>,

    /// `--games`: the games of each bracket's winner (the first round plays
    /// GAMES / candidates, rounded up).
    #[command(flatten)]
    pub sim: SimArgs,
}

fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (num, unit) = match t.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{text}`: a duration is like 90s, 5m or 1h"))?;
    let secs = match unit {
        "s" | "sec" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("`{text}`: a duration is like 90s, 5m or 1h")),
    };
    if !(secs > 0.0 && secs < 1e9) {
        return Err(format!("`{text}`: a duration above 0"));
    }
    Ok(Duration::from_secs_f64(secs))
}

pub fn run(args: Args) -> u8 {
    interrupted();
    match try_run(args) {
        Ok(()) if was_interrupted() => 130,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

/// What a tune's report is made of, kept in its partial results.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub variant: String,
    pub vary: Vec<String>,
    pub targets: Vec<String>,
    pub fixed: Vec<String>,
    pub budget: u64,
    pub candidates: usize,
    pub first_games: u64,
    pub write: String,
    pub top: usize,
    pub sim: SimSetup,
    pub rules: serde_json::Value,
    /// The search's figures, once it is over (every shard has the same).
    #[serde(default)]
    pub summary: Option<Summary>,
}

fn try_run(mut args: Args) -> Result<(), Failure> {
    if args.candidates < 2 || args.candidates > 10_000 {
        return Err(Failure::usage("--candidates must be from 2 to 10000"));
    }
    let shard = super::simulate::parse_shard(args.shard.as_deref(), &args.sim)?;
    if shard.is_some() && args.time.is_some() {
        return Err(Failure::usage(
            "--time with --shard: the shards would stop at different rounds; give a --budget",
        ));
    }
    let base = super::load_variant(&args.variant, &args.set)?;
    args.sim.settle(&base);
    let game = base.game();
    let axes: Vec<Axis> = args
        .vary
        .iter()
        .map(|s| Axis::parse(game, s).map_err(|e| Failure::usage(format!("--vary: {e}"))))
        .collect::<Result<_, _>>()?;
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.key == a.key) {
            return Err(Failure::usage(format!(
                "--vary: `{}` is given twice",
                a.key
            )));
        }
        if args.set.iter().any(|o| o.key() == a.key) {
            return Err(Failure::usage(format!(
                "`{}` is both varied (--vary) and set (--set)",
                a.key
            )));
        }
    }
    roots::with_game!(&base, G, rules => tune_game::<G>(&args, &axes, rules, shard))
}

fn targets<G: Registered>(
    texts: &[String],
    players: u8,
    depth: roots::sim::measures::Depth,
) -> Result<Vec<Target>, Failure> {
    texts
        .iter()
        .map(|t| {
            let (m, g) = t.split_once('=').ok_or_else(|| {
                Failure::usage(format!(
                    "--target `{t}`: expected MEASURE=VALUE, MEASURE=min or MEASURE=max (rounds=25)"
                ))
            })?;
            let measure = Measure::parse::<G>(m, players)
                .and_then(|m| m.check_depth(depth).map(|()| m))
                .map_err(|e| Failure::usage(format!("--target: {e}")))?;
            let goal =
                Target::goal(&measure, g).map_err(|e| Failure::usage(format!("--target: {e}")))?;
            Ok(Target { measure, goal })
        })
        .collect()
}

/// Plays the batches of a search on one pool, keeping each point's rules.
struct Runner<'a, G: Registered> {
    variant: &'a str,
    fixed: &'a [Override],
    axes: &'a [Axis],
    config: Config<G>,
    pool: Option<rayon::ThreadPool>,
    rules: HashMap<Point, Result<Arc<G::Rules>, String>>,
    stop: Arc<AtomicBool>,
    shard: Option<(Shard, PathBuf)>,
    /// Names this run's files in the exchange directory (a hash of its
    /// settings), so that another run's files there are never read.
    run_id: u64,
    batches: usize,
    quiet: bool,
    started: Instant,
    budget: u64,
}

impl<G: Registered> Runner<'_, G> {
    fn rules_of(&mut self, p: &Point) -> Result<Arc<G::Rules>, String> {
        if let Some(r) = self.rules.get(p) {
            return r.clone();
        }
        let sets: Vec<Override> = self
            .axes
            .iter()
            .zip(p)
            .map(|(a, &i)| a.set(&a.values[i]))
            .collect();
        let players = self.config.players;
        let r = sweep::apply::<G>(self.variant, self.fixed, &sets)
            .and_then(|r| G::new_state(Arc::clone(&r), players).map(|_| r));
        self.rules.insert(p.clone(), r.clone());
        r
    }

    /// Play the jobs (this shard's slice of each when sharded).
    fn play(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>> {
        let mut out = Vec::new();
        for job in jobs {
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let rules = match self.rules_of(&job.point) {
                Ok(r) => r,
                Err(e) => {
                    out.push(Err(e));
                    continue;
                }
            };
            let range = match &self.shard {
                Some((s, _)) => s.slice(job.from, job.to),
                None => job.from..job.to,
            };
            let mut config = self.config.clone();
            config.rules = rules;
            match sim::run_games(
                &config,
                range.clone(),
                self.pool.as_ref(),
                &self.stop,
                |_| Ok(()),
                |_| {},
            ) {
                Ok(acc) if acc.games == range.end - range.start => out.push(Ok(acc)),
                Ok(_) => return None,
                Err(e) => out.push(Err(e.to_string())),
            }
        }
        Some(out)
    }

    /// Swap this shard's totals of batch `n` for every shard's, through
    /// the exchange directory; `None` when stopped.
    fn exchange(
        &mut self,
        mine: Vec<Result<Accumulator, String>>,
    ) -> Option<Vec<Result<Accumulator, String>>> {
        let Some((shard, dir)) = self.shard.clone() else {
            return Some(mine);
        };
        let n = self.batches;
        let id = self.run_id;
        let file = |k: u64| dir.join(format!("{id:016x}-batch-{n:05}-shard-{k}.json"));
        let runs: Vec<PartialRun> = mine
            .iter()
            .map(|r| PartialRun {
                label: String::new(),
                totals: r.as_ref().ok().map(Accumulator::to_data),
                error: r.as_ref().err().cloned(),
            })
            .collect();
        let text = serde_json::to_string(&runs).unwrap_or_default();
        // Written whole, then renamed: a reader never sees half a file.
        let tmp = dir.join(format!(".{id:016x}-batch-{n:05}-shard-{}.tmp", shard.index));
        if std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, file(shard.index)))
            .is_err()
        {
            super::err(&format!(
                "error: cannot write to the exchange directory {}\n",
                dir.display()
            ));
            return None;
        }
        let mut sum: Vec<Result<Accumulator, String>> = mine;
        for k in (1..=shard.count).filter(|&k| k != shard.index) {
            let path = file(k);
            let text = loop {
                if self.stop.load(Ordering::Relaxed) {
                    return None;
                }
                if let Ok(t) = std::fs::read_to_string(&path) {
                    break t;
                }
                std::thread::sleep(Duration::from_millis(50));
            };
            let theirs: Vec<PartialRun> = match serde_json::from_str(&text) {
                Ok(v) => v,
                Err(e) => {
                    super::err(&format!("error: {}: {e}\n", path.display()));
                    return None;
                }
            };
            for (s, t) in sum.iter_mut().zip(theirs) {
                match (s.as_mut(), t.totals) {
                    (Ok(a), Some(d)) => match Accumulator::from_data::<G>(&d) {
                        Ok(b) => a.merge(&b),
                        Err(e) => *s = Err(e),
                    },
                    (Ok(_), None) => *s = Err(t.error.unwrap_or_default()),
                    (Err(_), _) => {}
                }
            }
        }
        Some(sum)
    }
}

impl<G: Registered> Evaluate for Runner<'_, G> {
    fn batch(&mut self, jobs: &[Job]) -> Option<Vec<Result<Accumulator, String>>> {
        self.batches += 1;
        let mine = self.play(jobs)?;
        self.exchange(mine)
    }

    fn report(&self, point: &Point, acc: &Accumulator) -> Report {
        let mut config = self.config.clone();
        if let Some(Ok(r)) = self.rules.get(point) {
            config.rules = Arc::clone(r);
        }
        Report::new(&config, acc)
    }

    fn progress(&mut self, round: usize, games: u64, best: Option<f64>) {
        if !self.quiet {
            super::err_raw("\r\x1b[2K");
            super::err(&format!(
                "tuning: round {round}, {games} of {} games, {:.0}s, best distance {}",
                self.budget,
                self.started.elapsed().as_secs_f64(),
                best.map_or("-".into(), |b| format!("{b:.2}"))
            ));
        }
    }
}

fn tune_game<G: Registered>(
    args: &Args,
    axes: &[Axis],
    base: &Arc<G::Rules>,
    shard: Option<Shard>,
) -> Result<(), Failure> {
    let targets = targets::<G>(&args.target, args.sim.players, args.sim.depth())?;
    let seed = args.sim.seed();
    let config = args.sim.config::<G>(Arc::clone(base), seed)?;
    let size = tune::space_size(axes);
    let first_games = args.sim.games.div_ceil(args.candidates as u64).max(1);
    // The first round plays every point of the first bracket; a budget
    // below it would be overrun before the search could stop.
    let first_round = first_games.saturating_mul(args.candidates as u64);
    if args.budget < first_round {
        return Err(Failure::usage(format!(
            "--budget {} is smaller than the search's first round ({} points \
             of {} games each: {} games); give a --budget of at least {}, or \
             fewer --candidates or --games",
            args.budget, args.candidates, first_games, first_round, first_round
        )));
    }
    let write = args
        .write
        .clone()
        .unwrap_or_else(|| format!("{}-tuned.toml", G::name(base)));
    let setup = Setup {
        variant: args.variant.clone(),
        vary: args.vary.clone(),
        targets: args.target.clone(),
        fixed: args.set.iter().map(ToString::to_string).collect(),
        budget: args.budget,
        candidates: args.candidates,
        first_games,
        write,
        top: args.top,
        sim: SimSetup::of(&args.sim, seed),
        rules: serde_json::to_value(&**base)
            .map_err(|e| Failure::usage(format!("cannot write the rules as JSON: {e}")))?,
        summary: None,
    };
    if shard.is_none() {
        print_seed(&args.sim, seed);
    }
    let stop = Arc::new(AtomicBool::new(false));
    // A watcher turns Ctrl-C or the end of --time into the stop flag.
    let deadline = args.time.map(|t| Instant::now() + t);
    let timed_out = Arc::new(AtomicBool::new(false));
    {
        let (stop, timed_out) = (Arc::clone(&stop), Arc::clone(&timed_out));
        std::thread::spawn(move || {
            loop {
                if was_interrupted() {
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    timed_out.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
    }
    let exchange = match (shard, &args.exchange) {
        (Some(s), Some(dir)) => {
            std::fs::create_dir_all(dir).map_err(|e| {
                Failure::usage(format!(
                    "cannot make the exchange directory {}: {e}",
                    dir.display()
                ))
            })?;
            Some((s, dir.clone()))
        }
        _ => None,
    };
    let mut runner = Runner::<G> {
        variant: &args.variant,
        fixed: &args.set,
        axes,
        pool: sim::pool(config.jobs)?,
        config,
        rules: HashMap::new(),
        stop,
        shard: exchange,
        run_id: {
            // FNV-1a of the settings and the number of shards.
            let text = format!(
                "{}/{}",
                serde_json::to_string(&setup).unwrap_or_default(),
                shard.map_or(1, |s| s.count)
            );
            text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            })
        },
        batches: 0,
        quiet: !super::stderr_is_terminal(),
        started: Instant::now(),
        budget: args.budget,
    };
    // The variant's own values, when they lie in the space, are tried first.
    let own = serde_json::to_value(&**base).unwrap_or_default();
    let start: Option<Point> = axes
        .iter()
        .map(|a| {
            let v = value_at(&own, &a.key)?;
            a.values.iter().position(|x| x.to_toml() == v)
        })
        .collect();
    refuse_idle_keys(&mut runner, start.as_ref())?;
    let plan = Plan {
        candidates: args.candidates,
        first_games,
        eta: 3,
        budget: args.budget,
        final_share: 0.3,
        finalists: args.top.clamp(1, 20),
        seed,
    };
    let outcome = tune::search(axes, &targets, &plan, start, &mut runner);
    if !runner.quiet {
        super::err_raw("\r\x1b[2K");
    }
    let stopped = if timed_out.load(Ordering::SeqCst) {
        Some("the time (--time) ran out")
    } else if was_interrupted() {
        Some("interrupted")
    } else {
        None
    };
    let summary = Summary {
        games: outcome.games,
        brackets: outcome.brackets,
        cut_short: outcome.cut_short,
        points: outcome.known.len(),
        invalid: outcome.known.values().filter(|k| k.is_err()).count(),
        size,
        stopped,
    };
    if let Some(s) = shard {
        // Every shard knows every total; the partial keeps the ranking's.
        let ranking = outcome.ranking();
        let runs = ranking
            .iter()
            .take(args.top.max(1))
            .map(|(p, k)| PartialRun {
                label: point_text(axes, p),
                totals: Some(k.acc.to_data()),
                error: None,
            })
            .collect();
        let mut setup = setup;
        setup.summary = Some(summary);
        let setup_json = serde_json::to_value(&setup)
            .map_err(|e| Failure::usage(format!("cannot write the partial result: {e}")))?;
        let mut part = Partial::new("tune", s, G::ID, setup_json, runs);
        part.interrupted = stopped.is_some();
        super::out(&part.to_text());
        return Ok(());
    }
    let ranked: Vec<(Point, Accumulator)> = outcome
        .ranking()
        .iter()
        .take(args.top.max(1))
        .map(|(p, k)| ((*p).clone(), k.acc.clone()))
        .collect();
    print_tune::<G>(&setup, axes, &targets, &runner, &ranked, &summary)
}

/// Games a varied key's lowest and highest values are played on to see
/// whether it changes play at all.
const IDLE_CHECK_GAMES: u64 = 40;

/// Refuse to vary a key that cannot change play (one that is only shown,
/// like Branches & Twigs & Thorns' `coins.start`): its lowest and highest
/// values, every other key as in `start` (or at its first value), play the
/// first [`IDLE_CHECK_GAMES`] games of the run; if every game comes out the
/// same (scores, winner, how it ended, every count), tuning the key would
/// only spend games. A key whose values make no valid variant is left to
/// the search.
fn refuse_idle_keys<G: Registered>(
    runner: &mut Runner<'_, G>,
    start: Option<&Point>,
) -> Result<(), Failure> {
    let axes = runner.axes;
    let base: Point = start.cloned().unwrap_or_else(|| vec![0; axes.len()]);
    for (k, axis) in axes.iter().enumerate() {
        if axis.values.len() < 2 {
            continue;
        }
        let ends = [0, axis.values.len() - 1].map(|i| {
            let mut p = base.clone();
            p[k] = i;
            p
        });
        let (Ok(lo), Ok(hi)) = (runner.rules_of(&ends[0]), runner.rules_of(&ends[1])) else {
            continue;
        };
        let mut config = runner.config.clone();
        config.games = IDLE_CHECK_GAMES;
        let same = (0..IDLE_CHECK_GAMES).all(|g| {
            let mut c = config.clone();
            c.rules = Arc::clone(&lo);
            let x = sim::play_game(&c, g);
            c.rules = Arc::clone(&hi);
            let y = sim::play_game(&c, g);
            match (x, y) {
                (Ok(x), Ok(y)) => {
                    (&x.scores, x.winner, x.end_reason, &x.counters)
                        == (&y.scores, y.winner, y.end_reason, &y.counters)
                }
                _ => false,
            }
        });
        if same {
            return Err(Failure::usage(format!(
                "--vary {}: the key does not change play: its values {} and {} give the same {} games (scores, winners, how they end, every count); tuning it would only spend games",
                axis.key,
                axis.values[0],
                axis.values[axis.values.len() - 1],
                IDLE_CHECK_GAMES
            )));
        }
    }
    Ok(())
}

/// The figures of a search, for its report.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    games: u64,
    /// The brackets played to their end.
    brackets: usize,
    /// The budget ran out in the middle of a bracket.
    cut_short: bool,
    points: usize,
    invalid: usize,
    size: u128,
    #[serde(skip)]
    stopped: Option<&'static str>,
}

/// The value at a dotted key of a rules JSON, as TOML.
fn value_at(json: &serde_json::Value, key: &str) -> Option<toml::Value> {
    let mut at = json;
    for part in key.split('.') {
        at = at.get(part)?;
    }
    match at {
        serde_json::Value::Bool(b) => Some(toml::Value::Boolean(*b)),
        serde_json::Value::Number(n) => n.as_i64().map(toml::Value::Integer),
        serde_json::Value::String(s) => Some(toml::Value::String(s.clone())),
        _ => None,
    }
}

fn point_text(axes: &[Axis], p: &Point) -> String {
    tune::describe(axes, p)
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_tune<G: Registered>(
    setup: &Setup,
    axes: &[Axis],
    targets: &[Target],
    runner: &Runner<'_, G>,
    ranked: &[(Point, Accumulator)],
    s: &Summary,
) -> Result<(), Failure> {
    let reports: Vec<Report> = ranked.iter().map(|(p, a)| runner.report(p, a)).collect();
    let base: G::Rules = serde_json::from_value(setup.rules.clone())
        .map_err(|e| Failure::usage(format!("the variant's rules cannot be read back: {e}")))?;
    // The original rules on the same games as the best point.
    let original = match reports.first() {
        Some(best) if best.games > 0 => {
            let mut config = runner.config.clone();
            config.games = best.games;
            let acc = sim::run_games(
                &config,
                0..best.games,
                runner.pool.as_ref(),
                &AtomicBool::new(false),
                |_| Ok(()),
                |_| {},
            )?;
            let mut r = Report::new(&config, &acc);
            r.variant = G::name(&base).to_owned();
            Some(r)
        }
        _ => None,
    };
    let versus = original
        .as_ref()
        .zip(reports.first())
        .map(|(o, b)| tune::versus(targets, o, b));
    let warning = reports
        .first()
        .and_then(|b| tune::precision_warning(targets, b));
    let mut written = None;
    if let (Some((p, _)), Some(r), Some(v)) = (ranked.first(), reports.first(), &versus) {
        let rules = runner
            .rules
            .get(p)
            .and_then(|r| r.as_ref().ok())
            .ok_or_else(|| Failure::usage("the best point has no rules"))?;
        written = Some(if v.beats {
            write_best::<G>(setup, targets, &base, rules, r)?
        } else {
            format!(
                "Nothing written: no point beats the original rules beyond noise (the best is {:.2} nearer the targets, ± {:.2} at 95%, on the same {} games).",
                v.improvement,
                1.96 * v.se,
                r.games
            )
        });
    }
    if let Some(w) = &warning {
        super::err(&format!("{w}\n"));
    }
    let own = serde_json::to_value(&base).unwrap_or_default();
    if let Some(why) = s.stopped {
        super::err(&format!(
            "{why}: partial: the best so far after {} games{}\n",
            s.games,
            if written.is_some() {
                format!("; {}", written.as_deref().unwrap_or_default())
            } else {
                String::new()
            }
        ));
    }
    match setup.sim.format {
        Output::Json => {
            // Each target's measure in one report, by the measure's key.
            let measures_of = |r| -> serde_json::Map<String, serde_json::Value> {
                targets
                    .iter()
                    .map(|t| {
                        (
                            t.measure.key(),
                            serde_json::to_value(t.measure.of(r)).unwrap_or_default(),
                        )
                    })
                    .collect()
            };
            let rows: Vec<serde_json::Value> = ranked
                .iter()
                .zip(&reports)
                .map(|((p, _), r)| {
                    let values: serde_json::Map<String, serde_json::Value> = axes
                        .iter()
                        .zip(p)
                        .map(|(a, &i)| {
                            (
                                a.key.clone(),
                                serde_json::to_value(&a.values[i]).unwrap_or_default(),
                            )
                        })
                        .collect();
                    serde_json::json!({
                        "values": values,
                        "measures": measures_of(r),
                        "distance": tune::loss(targets, r),
                        "games": r.games,
                    })
                })
                .collect();
            let original_row = original.as_ref().map(|r| {
                serde_json::json!({
                    "measures": measures_of(r),
                    "distance": tune::loss(targets, r),
                    "games": r.games,
                })
            });
            let beats = versus.as_ref().is_some_and(|v| v.beats);
            let doc = serde_json::json!({
                "variant": G::name(&base),
                "targets": setup.targets,
                "games": s.games,
                "brackets": s.brackets,
                "bracket_cut_short": s.cut_short,
                "points_tried": s.points,
                "partial": s.stopped.is_some(),
                "original": original_row,
                "best_against_original": versus,
                "best": rows,
                "written": (beats && written.is_some()).then_some(&setup.write),
                "warning": warning,
            });
            let text = serde_json::to_string_pretty(&doc)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
        Output::Table | Output::Csv => {
            let mut o = String::new();
            if setup.sim.format == Output::Table {
                let _ = writeln!(
                    o,
                    "Tuning `{}` ({} players, bots {}): {} points in the space",
                    G::name(&base),
                    setup.sim.players,
                    setup.sim.bots,
                    s.size
                );
                let _ = writeln!(
                    o,
                    "Targets: {}",
                    targets
                        .iter()
                        .map(Target::words)
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                let _ = writeln!(
                    o,
                    "{} games in {}{}; {} points tried{}{}\n",
                    s.games,
                    roots::core::count(s.brackets as u64, "bracket", "brackets"),
                    if s.cut_short {
                        " and one cut short by the budget"
                    } else {
                        ""
                    },
                    s.points,
                    if s.invalid > 0 {
                        format!(" ({} not valid variants, skipped)", s.invalid)
                    } else {
                        String::new()
                    },
                    if s.stopped.is_some() { "; partial" } else { "" }
                );
                let _ = writeln!(
                    o,
                    "Best variants, after the original rules (every point on the same seeded games; 95% intervals; distance: one point of a rate or one unit of a mean per target)"
                );
                let _ = write!(o, "  #");
                for a in axes {
                    let _ = write!(o, "  {:>w$}", a.key, w = a.key.len().max(6));
                }
                for t in targets {
                    let _ = write!(o, "  {:<30}", t.measure.key());
                }
                let _ = writeln!(o, "  {:>8}  {:>6}", "distance", "games");
                let rows = original
                    .iter()
                    .map(|r| (None, r))
                    .chain(ranked.iter().map(|(p, _)| Some(p)).zip(&reports));
                for (k, (p, r)) in rows.enumerate() {
                    match p {
                        None => {
                            let _ = write!(o, "orig");
                            for a in axes {
                                let v =
                                    value_at(&own, &a.key).map_or("-".into(), |v| v.to_string());
                                let _ = write!(o, " {:>w$}", v, w = a.key.len().max(6) + 1);
                            }
                        }
                        Some(p) => {
                            let _ = write!(o, "{:>3}", k + usize::from(original.is_none()));
                            for (a, &i) in axes.iter().zip(p) {
                                let _ = write!(
                                    o,
                                    "  {:>w$}",
                                    a.values[i].to_string(),
                                    w = a.key.len().max(6)
                                );
                            }
                        }
                    }
                    for t in targets {
                        let e = t.measure.of(r);
                        let m = &t.measure;
                        let cell = format!(
                            "{} ({} to {})",
                            m.show(e.value),
                            m.show(e.low),
                            m.show(e.high)
                        );
                        let _ = write!(o, "  {cell:<30}");
                    }
                    let _ = writeln!(o, "  {:>8.2}  {:>6}", tune::loss(targets, r), r.games);
                }
                if ranked.is_empty() {
                    let _ = writeln!(o, "  (no point finished a round)");
                }
                if let Some(v) = &versus {
                    let _ = writeln!(
                        o,
                        "\nThe best against the original: {:.2} nearer the targets (± {:.2} at 95%): {}",
                        v.improvement,
                        1.96 * v.se,
                        if v.beats {
                            "beyond noise"
                        } else {
                            "within noise"
                        }
                    );
                }
                if let Some(w) = &written {
                    let _ = writeln!(o, "{w}");
                }
                if let Some(w) = &warning {
                    let _ = writeln!(o, "\n{w}");
                }
            } else {
                for a in axes {
                    let _ = write!(o, "{},", a.key);
                }
                for t in targets {
                    let k = t.measure.key().replace('-', "_");
                    let _ = write!(o, "{k},{k}_low,{k}_high,");
                }
                let _ = writeln!(o, "distance,games");
                let rows = original
                    .iter()
                    .map(|r| (None, r))
                    .chain(ranked.iter().map(|(p, _)| Some(p)).zip(&reports));
                for (p, r) in rows {
                    match p {
                        // The original rules first.
                        None => {
                            for a in axes {
                                let v =
                                    value_at(&own, &a.key).map_or(String::new(), |v| v.to_string());
                                let _ = write!(o, "{v},");
                            }
                        }
                        Some(p) => {
                            for (a, &i) in axes.iter().zip(p) {
                                let _ = write!(o, "{},", a.values[i]);
                            }
                        }
                    }
                    for t in targets {
                        let e = t.measure.of(r);
                        let _ = write!(o, "{},{},{},", e.value, e.low, e.high);
                    }
                    let _ = writeln!(o, "{},{}", tune::loss(targets, r), r.games);
                }
            }
            super::out(&o);
        }
    }
    Ok(())
}

/// The `extends` of the written file: the built-in name, or the variant's
/// path from the file's directory.
fn extends_for(variant: &str, out: &Path) -> String {
    if roots::variant::is_builtin_name(variant) {
        return variant.to_owned();
    }
    let target = std::fs::canonicalize(variant).unwrap_or_else(|_| PathBuf::from(variant));
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return target.display().to_string();
    };
    let a: Vec<_> = dir.components().collect();
    let b: Vec<_> = target.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..a.len() {
        rel.push("..");
    }
    for c in &b[common..] {
        rel.push(c);
    }
    rel.display().to_string()
}

/// Write the best variant: `extends` the original, sets only the keys whose
/// values differ from it; then load it back and check it is the variant
/// played. Returns the line that says where it went.
fn write_best<G: Registered>(
    setup: &Setup,
    targets: &[Target],
    base: &G::Rules,
    best: &G::Rules,
    report: &Report,
) -> Result<String, Failure> {
    let path = Path::new(&setup.write);
    let a = serde_json::to_value(base).unwrap_or_default();
    let b = serde_json::to_value(best).unwrap_or_default();
    // Every key the search or --set may have changed.
    let mut keys: Vec<String> = setup
        .vary
        .iter()
        .map(|v| v.split('=').next().unwrap_or(v).trim().to_owned())
        .collect();
    keys.extend(
        setup
            .fixed
            .iter()
            .map(|f| f.split('=').next().unwrap_or(f).trim().to_owned()),
    );
    let mut sections: Vec<(String, Vec<(String, toml::Value)>)> = Vec::new();
    let mut changed = Vec::new();
    for key in &keys {
        let (Some(old), Some(new)) = (value_at(&a, key), value_at(&b, key)) else {
            continue;
        };
        if old == new {
            continue;
        }
        let (section, leaf) = key.split_once('.').unwrap_or(("", key));
        match sections.iter_mut().find(|(s, _)| s == section) {
            Some((_, v)) => v.push((leaf.to_owned(), new)),
            None => sections.push((section.to_owned(), vec![(leaf.to_owned(), new)])),
        }
        changed.push(key.clone());
    }
    let name = path
        .file_stem()
        .map_or_else(|| "tuned".to_owned(), |s| s.to_string_lossy().into_owned());
    let mut text = String::new();
    if was_interrupted() {
        // The file itself says so, as the text report does.
        let _ = writeln!(
            text,
            "# PARTIAL: the tune was interrupted (Ctrl-C) before its budget was spent: the best found so far, not the result of the whole search."
        );
    }
    let _ = writeln!(
        text,
        "# Found by `roots tune` (seed {}, {} players, bots {}), toward: {}.",
        setup.sim.seed,
        setup.sim.players,
        setup.sim.bots,
        targets
            .iter()
            .map(Target::words)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        text,
        "# Measured over {} games (95% intervals):",
        report.games
    );
    for t in targets {
        let e = t.measure.of(report);
        let m = &t.measure;
        let _ = writeln!(
            text,
            "#   {}: {} ({} to {})",
            m.key(),
            m.show(e.value),
            m.show(e.low),
            m.show(e.high)
        );
    }
    let _ = writeln!(
        text,
        "extends = {}",
        toml::Value::String(extends_for(&setup.variant, path))
    );
    let _ = writeln!(text, "name = {}", toml::Value::String(name));
    let _ = writeln!(
        text,
        "description = {}",
        toml::Value::String(format!(
            "{} tuned by `roots tune` toward {}.",
            G::name(base),
            targets
                .iter()
                .map(Target::words)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    );
    for (section, keys) in &sections {
        let _ = writeln!(text, "\n[{section}]");
        for (k, v) in keys {
            let _ = writeln!(text, "{k} = {v}");
        }
    }
    std::fs::write(path, &text)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    // The file must give back the variant played.
    let loaded = roots::variant::load_file(path).map_err(|d| {
        Failure::usage(format!(
            "{} does not load back:\n{}",
            path.display(),
            roots::variant::render(&d.items, &d.sources, roots::variant::Style::Plain)
        ))
    })?;
    let mut got = G::unwrap(&loaded.rules)
        .map(|r| serde_json::to_value(&**r).unwrap_or_default())
        .unwrap_or_default();
    let mut want = b;
    for v in [&mut got, &mut want] {
        if let Some(o) = v.as_object_mut() {
            o.remove("name");
            o.remove("description");
        }
    }
    if got != want {
        return Err(Failure::usage(format!(
            "{} loads as another variant than the one played (a bug: please report it)",
            path.display()
        )));
    }
    Ok(if changed.is_empty() {
        format!(
            "The best is the variant as it is; {} extends it and changes nothing.",
            path.display()
        )
    } else {
        format!(
            "Best variant written to {} (extends `{}`, sets {}): `roots diff {} {}` shows it.",
            path.display(),
            setup.variant,
            changed.join(", "),
            setup.variant,
            path.display()
        )
    })
}

/// Print the report of merged shards of a tune: every shard took part in
/// every round and knows every total, so the parts must agree.
pub fn merge(parts: &[Partial]) -> Result<(), Failure> {
    let first = &parts[0];
    for p in &parts[1..] {
        if p.runs != first.runs {
            return Err(Failure::invalid_line(format!(
                "shard {} of the tune ended with other totals than shard {}: were they run with one --exchange directory, at the same time?",
                p.shard, first.shard
            )));
        }
    }
    let setup: Setup = serde_json::from_value(first.setup.clone())
        .map_err(|e| Failure::usage(format!("the parts' settings cannot be read: {e}")))?;
    let game = GameId::parse(&first.game).ok_or_else(|| {
        Failure::usage(format!("the parts are of an unknown game `{}`", first.game))
    })?;
    roots::with_game_id!(game, G => merge_game::<G>(&setup, first))
}

fn merge_game<G: Registered>(setup: &Setup, part: &Partial) -> Result<(), Failure> {
    let game = GameId::of::<G>();
    let axes: Vec<Axis> = setup
        .vary
        .iter()
        .map(|s| Axis::parse(game, s).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let targets = targets::<G>(&setup.targets, setup.sim.players, setup.sim.depth())?;
    let config = setup.sim.config::<G>(&setup.rules)?;
    let fixed: Vec<Override> = setup
        .fixed
        .iter()
        .map(|f| Override::parse(f).map_err(Failure::usage))
        .collect::<Result<_, _>>()?;
    let mut runner = Runner::<G> {
        variant: &setup.variant,
        fixed: &fixed,
        axes: &axes,
        config,
        pool: None,
        rules: HashMap::new(),
        stop: Arc::new(AtomicBool::new(false)),
        shard: None,
        run_id: 0,
        batches: 0,
        quiet: true,
        started: Instant::now(),
        budget: setup.budget,
    };
    let mut ranked = Vec::new();
    for run in &part.runs {
        let p: Point = axes
            .iter()
            .zip(run.label.split(' '))
            .map(|(a, kv)| {
                let v = kv.split_once('=').map_or("", |(_, v)| v);
                a.values.iter().position(|x| x.to_string() == v)
            })
            .collect::<Option<_>>()
            .ok_or_else(|| {
                Failure::invalid_line(format!("`{}` is not a point of the search", run.label))
            })?;
        runner.rules_of(&p).map_err(Failure::invalid_line)?;
        let acc = run
            .totals
            .as_ref()
            .map(Accumulator::from_data::<G>)
            .transpose()
            .map_err(Failure::invalid_line)?
            .ok_or_else(|| Failure::invalid_line("a best point without totals"))?;
        ranked.push((p, acc));
    }
    super::simulate::print_seed_of(&setup.sim);
    let summary = setup
        .summary
        .clone()
        .ok_or_else(|| Failure::invalid_line("the parts do not say how the search went"))?;
    print_tune::<G>(setup, &axes, &targets, &runner, &ranked, &summary)
}
