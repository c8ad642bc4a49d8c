//! `roots compare A B`: two variants side by side over matched seeds.

use std::sync::Arc;

use roots::games::Registered;
use roots::sim::verdict::{Margins, Outcome};
use roots::sim::{self, Report, compare_with};

use super::Failure;
use super::exit;
use super::simulate::{
    Output, SimArgs, interrupted, print_report, print_seed, run_config, was_interrupted,
};

/// Simulate two variants with the same bots and the same seed (game i of both
/// rolls the same dice stream) and show every statistic side by side: the
/// difference B - A with its 95% interval, then the verdict: "different"
/// (significant after Holm's correction across the report and at least the
/// margin), "the same within ±d" (two one-sided tests) or "not decided yet"
/// (with about how many games would decide).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots compare standard fewer-beads
  roots compare standard one-nutrient-per-turn -n 5000 --seed 3 --format json
  roots compare standard one-nutrient-per-turn --until-decided   play until the first-player advantage is decided
  roots compare standard more-beads --margin rounds=0.5 --margin seat1-wins=3
  roots compare standard pre-rolled-values --skill     also: does skill matter more in B?
What every figure means: docs/statistics.md")]
pub struct Args {
    /// The first variant: a built-in name (standard), a path, or `-` for
    /// standard input.
    #[arg(value_name = "A")]
    pub a: String,

    /// The second variant.
    #[arg(value_name = "B")]
    pub b: String,

    #[command(flatten)]
    pub sim: SimArgs,

    /// Change one rule of B without editing a file (repeatable), e.g. to
    /// compare the standard rules with themselves plus one change:
    /// `roots compare standard standard --set beads.supply=35`.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = |t: &str| roots::variant::Override::parse(t))]
    pub set: Vec<roots::variant::Override>,

    /// Also measure how much skill each variant rewards: a ladder (`roots
    /// ladder`) among these bots in both, two players, on the same seed; the
    /// Elo spread and the best bot's score against the next, side by side.
    #[arg(long, value_name = "BOTS", num_args = 0..=1, default_missing_value = DEFAULT_SKILL_BOTS)]
    pub skill: Option<String>,

    /// Games per pair of bots for --skill.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub skill_games: u64,
    /// Play only the K-th of N slices of both sides' games and print a
    /// partial result (JSON) for `roots merge`; needs --seed.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,

    /// The smallest difference that matters for one statistic (repeatable):
    /// a rate's in percentage points (`seat1-wins=3`), a count's in its own
    /// units (`rounds=0.5`). Defaults: 2 points; 5% of a count's mean or a
    /// fifth of its per-game spread, whichever is larger.
    #[arg(long = "margin", value_name = "KEY=VALUE")]
    pub margin: Vec<String>,

    /// Play matched games in batches and stop as soon as the primary
    /// statistic is decided (different, or the same within its margin),
    /// holding both error rates at 5% by alpha spending; --games is ignored.
    #[arg(long, conflicts_with_all = ["shard", "skill"])]
    pub until_decided: bool,

    /// With --until-decided: the most games per side.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 20_000,
        requires = "until_decided"
    )]
    pub max_games: u64,

    /// With --until-decided: the statistic to decide (a measure's key, as
    /// `roots sweep` takes them: first-player-advantage, seat2-wins, ties,
    /// rounds...).
    #[arg(
        long,
        value_name = "STAT",
        default_value = "first-player-advantage",
        requires = "until_decided"
    )]
    pub primary: String,
}

/// Check `--margin` and `--primary` against the measures of game `G`
/// before any game is played.
fn margins_of<G: Registered>(args: &Args) -> Result<Margins, Failure> {
    let mut m = Margins::default();
    for t in &args.margin {
        m.add(t).map_err(Failure::usage)?;
        let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
        sim::sweep::Measure::parse::<G>(key, args.sim.players)
            .map_err(|e| Failure::usage(format!("--margin: {e}")))?;
    }
    Ok(m)
}

/// What `compare --shard` keeps for `merge`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    pub label_b: String,
    pub sim: super::simulate::SimSetup,
    pub rules_a: serde_json::Value,
    pub rules_b: serde_json::Value,
}

/// Print the comparison of merged shards of `compare`.
pub fn merge(
    part: &roots::sim::shard::Partial,
    totals: &[roots::sim::AccumulatorData],
) -> Result<(), Failure> {
    let setup: Setup = serde_json::from_value(part.setup.clone())
        .map_err(|e| Failure::usage(format!("the parts' settings cannot be read: {e}")))?;
    let game = roots::games::GameId::parse(&part.game).ok_or_else(|| {
        Failure::usage(format!("the parts are of an unknown game `{}`", part.game))
    })?;
    let a = roots::with_game_id!(game, G => {
        let ca = setup.sim.config::<G>(&setup.rules_a)?;
        let cb = setup.sim.config::<G>(&setup.rules_b)?;
        let acc = |d| roots::sim::Accumulator::from_data::<G>(d).map_err(Failure::usage);
        let a = Report::new(&ca, &acc(&totals[0])?);
        let mut b = Report::new(&cb, &acc(&totals[1])?);
        b.variant = setup.label_b.clone();
        (a, b, changed_keys::<G>(&ca.rules, &cb.rules))
    });
    super::simulate::print_seed_of(&setup.sim);
    let mut c = compare_with(a.0, a.1, &Margins::default());
    c.dead_rules = dead_rules(&a.2, &c);
    print_comparison(&c, setup.sim.format)
}

/// The dotted keys whose values differ between two variants.
fn changed_keys<G: roots::games::Game>(a: &G::Rules, b: &G::Rules) -> Vec<String> {
    roots::variant::diff::diff::<G>(a, b)
        .into_iter()
        .map(|c| c.key)
        .collect()
}

/// The changed keys that cannot have mattered: their rule events never
/// happened in either run.
fn dead_rules(changed: &[String], c: &roots::sim::Comparison) -> Vec<String> {
    roots::sim::measures::dead_changes(changed, &c.a.design, &c.b.design, c.a.games)
}

fn print_comparison(c: &roots::sim::Comparison, format: Output) -> Result<(), Failure> {
    match format {
        Output::Table => super::out(&c.to_table()),
        Output::Csv => super::out(&c.to_csv()),
        Output::Json => {
            let text = serde_json::to_string_pretty(c)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}

/// The bots of `compare --skill` when none are named.
pub const DEFAULT_SKILL_BOTS: &str = "greedy,mcts:100";

pub fn run(args: Args) -> u8 {
    interrupted();
    match try_run(args) {
        // Interrupted, partial report printed.
        Ok(()) if was_interrupted() => 130,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

fn side<G: Registered>(
    config: &sim::Config<G>,
    overrides: &[roots::variant::Override],
    label: &str,
) -> Result<Report, Failure> {
    let mut report = run_config(config, None, label)?;
    report.variant = super::variant_label(&report.variant, overrides);
    Ok(report)
}

fn try_run(mut args: Args) -> Result<(), Failure> {
    super::stdin_once([args.a.as_str(), args.b.as_str()])?;
    // Load both variants (once) before playing either.
    let rules_a = super::load_variant(&args.a, &[])?;
    let rules_b = super::load_variant(&args.b, &args.set)?;
    args.sim.settle(&rules_a);
    if rules_a.game() != rules_b.game() {
        return Err(Failure::usage(format!(
            "`{}` is a {} variant and `{}` a {} variant: compare two variants of one game",
            args.a,
            rules_a.game().title(),
            args.b,
            rules_b.game().title()
        )));
    }
    let seed = args.sim.seed();
    let shard = super::simulate::parse_shard(args.shard.as_deref(), &args.sim)?;
    let margins: Margins;
    let (a, b, skill, sequential, changed) = roots::with_game!(&rules_a, G, ra => {
        let rb = G::unwrap(&rules_b)
            .ok_or_else(|| Failure::usage("the two variants are of different games"))?;
        margins = margins_of::<G>(&args)?;
        let changed = changed_keys::<G>(ra, rb);
        // Both sides' settings checked before the seed is announced.
        let config_a = args.sim.config::<G>(Arc::clone(ra), seed)?;
        let config_b = args.sim.config::<G>(Arc::clone(rb), seed)?;
        if args.until_decided {
            let primary = sim::sweep::Measure::parse::<G>(&args.primary, args.sim.players)
                .map_err(|e| Failure::usage(format!("--primary: {e}")))?
                .key();
            print_seed(&args.sim, seed);
            let (a, b, stopped) = until_decided(&config_a, &config_b, &args, &primary, &margins)?;
            (a, b, None, Some(stopped), changed)
        } else {
        if let Some(shard) = shard {
            let acc_a = super::simulate::run_shard(&config_a, shard, "A")?;
            let acc_b = if was_interrupted() {
                roots::sim::Accumulator::new::<G>(args.sim.players)
            } else {
                super::simulate::run_shard(&config_b, shard, "B")?
            };
            let json = |r: &Arc<_>| {
                serde_json::to_value(&**r)
                    .map_err(|e| Failure::usage(format!("cannot write the rules as JSON: {e}")))
            };
            let setup = Setup {
                label_b: super::variant_label(G::name(rb), &args.set),
                sim: super::simulate::SimSetup::of(&args.sim, seed),
                rules_a: json(ra)?,
                rules_b: json(rb)?,
            };
            let setup = serde_json::to_value(&setup)
                .map_err(|e| Failure::usage(format!("cannot write the partial result: {e}")))?;
            let run = |label: &str, acc: &roots::sim::Accumulator| roots::sim::shard::PartialRun {
                label: label.into(),
                totals: Some(acc.to_data()),
                error: None,
            };
            let mut part = roots::sim::shard::Partial::new(
                "compare",
                shard,
                G::ID,
                setup,
                vec![run("A", &acc_a), run("B", &acc_b)],
            );
            part.interrupted = was_interrupted();
            super::out(&part.to_text());
            return Ok(());
        }
        print_seed(&args.sim, seed);
        let a = side::<G>(&config_a, &[], "A")?;
        if was_interrupted() {
            // B would play no game: no comparison, only what A played.
            super::err(&format!(
                "interrupted: partial: side A played {} of {} games and side B none, so there is no comparison; A's report follows\n",
                a.games, args.sim.games
            ));
            return print_report(&a, args.sim.format);
        }
        let b = side::<G>(&config_b, &args.set, "B")?;
        if was_interrupted() {
            if b.games == 0 {
                super::err(&format!(
                    "interrupted: partial: side B played no game, so there is no comparison; A's report ({} games) follows\n",
                    a.games
                ));
                return print_report(&a, args.sim.format);
            }
            super::err(&format!(
                "interrupted: partial: side A played {} games, side B only the first {} of them; the comparison below is of those, not of matched runs\n",
                a.games, b.games
            ));
        }
        let skill = match &args.skill {
            Some(bots) if !was_interrupted() => {
                let la = super::ladder::ladder_of::<G>(Arc::clone(ra), bots, args.skill_games, Some(args.skill_games), seed, args.sim.jobs, "A skill: ")?;
                let mut lb = super::ladder::ladder_of::<G>(Arc::clone(rb), bots, args.skill_games, Some(args.skill_games), seed, args.sim.jobs, "B skill: ")?;
                lb.variant = super::variant_label(&lb.variant, &args.set);
                Some((la, lb))
            }
            _ => None,
        };
        (a, b, skill, None, changed)
        }
    });
    let (mut a, mut b) = (a, b);
    a.set_margins(&margins);
    b.set_margins(&margins);
    let mut c = compare_with(a, b, &margins);
    c.sequential = sequential;
    c.dead_rules = dead_rules(&changed, &c);
    let c = match skill {
        Some((la, lb)) => c.with_skill(la, lb),
        None => c,
    };
    print_comparison(&c, args.sim.format)
}

/// `--until-decided`: matched games in batches until the primary statistic
/// is decided or `--max-games` are played (see `roots::sim::sequential`).
fn until_decided<G: Registered>(
    config_a: &sim::Config<G>,
    config_b: &sim::Config<G>,
    args: &Args,
    primary: &str,
    margins: &Margins,
) -> Result<(Report, Report, sim::sequential::Stopped), Failure> {
    use roots::sim::sequential::{Plan, Stopped};
    if args.max_games == 0 || args.max_games > sim::MAX_GAMES {
        return Err(Failure::usage(format!(
            "--max-games must be from 1 to {}",
            sim::MAX_GAMES
        )));
    }
    let plan = Plan::new(roots::sim::verdict::ALPHA, args.max_games);
    let (mut ca, mut cb) = (config_a.clone(), config_b.clone());
    ca.games = args.max_games;
    cb.games = args.max_games;
    let pool = sim::pool(ca.jobs)?;
    let stop = interrupted();
    let progress = super::simulate::Progress::new(2 * args.max_games, "until decided");
    let mut acc_a = sim::Accumulator::new::<G>(ca.players);
    let mut acc_b = sim::Accumulator::new::<G>(cb.players);
    let (mut before, mut looks) = (0u64, 0usize);
    let all_looks = plan.looks();
    loop {
        let now = all_looks[looks];
        let done_a = acc_a.games;
        acc_a.merge(&sim::run_games(
            &ca,
            before..now,
            pool.as_ref(),
            stop,
            |_| Ok(()),
            |d| progress.update(2 * before + d),
        )?);
        acc_b.merge(&sim::run_games(
            &cb,
            before..now,
            pool.as_ref(),
            stop,
            |_| Ok(()),
            |d| progress.update(before + now + d),
        )?);
        looks += 1;
        let a = Report::new(&ca, &acc_a);
        let b = Report::new(&cb, &acc_b);
        let interrupted_now = was_interrupted() || acc_a.games - done_a < now - before;
        let stats = sim::statistics(&a, &b, margins);
        let stat = stats
            .iter()
            .find(|s| s.2.key.replace('_', "-") == primary.replace('_', "-"))
            .map(|s| s.2.clone())
            .ok_or_else(|| {
                Failure::usage(format!(
                    "--primary {primary}: this comparison has no such statistic"
                ))
            })?;
        let verdict = plan.look(&stat, before, now);
        let last = now >= args.max_games || interrupted_now;
        if verdict.verdict != Outcome::Undecided || last {
            progress.finish();
            if interrupted_now {
                super::err(&format!(
                    "interrupted: stopped after {} games per side, undecided; the table is of the games played\n",
                    acc_a.games.min(acc_b.games)
                ));
            }
            let mut b = b;
            b.variant = super::variant_label(&b.variant, &args.set);
            let stopped = Stopped {
                primary: primary.to_owned(),
                games: now,
                max_games: args.max_games,
                looks,
                alpha: plan.alpha,
                level: plan.level(before, now),
                verdict,
            };
            return Ok((a, b, stopped));
        }
        before = now;
    }
}
