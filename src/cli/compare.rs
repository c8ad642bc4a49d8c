//! `roots compare A B`: two variants side by side over matched seeds.

use roots::run::compare::{Compare, Until, compare};
use roots::run::{Failure, interrupt, plan};

use super::args::SimArgs;
use super::print;

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

    /// With --shard: keep the shard's progress in FILE as it plays (every
    /// 2 s, written whole), and when FILE exists, resume from it: the same
    /// command run again after a SIGTERM, a kill -9 or a preemption goes on
    /// where it stopped and prints the same part. A FILE of other arguments
    /// is refused.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub checkpoint: Option<std::path::PathBuf>,

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

    /// B plays its own seeds instead of A's: equal rules then give
    /// unrelated games, so the rate of wrong "different" verdicts can be
    /// measured (docs/statistics.md). Identical rules are compared too.
    #[arg(long)]
    pub independent: bool,
}

/// The bots of `compare --skill` when none are named.
pub const DEFAULT_SKILL_BOTS: &str = "greedy,mcts:100";

pub fn run(args: Args) -> u8 {
    interrupt::exit_code(try_run(args))
}

fn try_run(args: Args) -> Result<(), Failure> {
    super::stdin_once([args.a.as_str(), args.b.as_str()])?;
    print::no_page_of_a_shard(args.sim.html.as_deref(), args.shard.as_deref())?;
    // Load both variants (once) before playing either.
    let rules_a = super::load_variant(&args.a, &[])?;
    let rules_b = super::load_variant(&args.b, &args.set)?;
    let plan = args.sim.plan(&rules_a);
    if rules_a.game() != rules_b.game() {
        return Err(Failure::usage(format!(
            "`{}` is a {} variant and `{}` a {} variant: compare two variants of one game",
            args.a,
            rules_a.game().title(),
            args.b,
            rules_b.game().title()
        )));
    }
    let format = plan.format;
    let sample = plan.settings();
    let job = Compare {
        shard: plan::shard(args.shard.as_deref(), plan.seed_given)?,
        checkpoint: args.checkpoint.clone(),
        plan,
        sets_b: args.set.clone(),
        skill: args.skill.clone(),
        skill_games: args.skill_games,
        margins: args.margin.clone(),
        until: args.until_decided.then(|| Until {
            max_games: args.max_games,
            primary: args.primary.clone(),
        }),
        independent: args.independent,
    };
    let ran = compare(&rules_a, &rules_b, &job)?;
    print::ran(&ran, format)?;
    let variants = vec![
        print::variant(&args.a, &[], &rules_a),
        print::variant(&args.b, &args.set, &rules_b),
    ];
    print::ran_page(args.sim.html.as_deref(), &ran, variants, Some(sample))
}
