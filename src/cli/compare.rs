//! `roots compare A B`: two variants side by side over matched seeds.

use std::sync::Arc;

use roots::games::Game;
use roots::sim::{Report, compare};

use super::Failure;
use super::exit;
use super::simulate::{
    Output, SimArgs, interrupted, print_report, print_seed, run_config, was_interrupted,
};

/// Simulate two variants with the same bots and the same seed (game i of both
/// rolls the same dice stream) and show every statistic side by side, each
/// difference with a significance verdict (two-proportion z-test for rates,
/// Welch's t-test for means; p < 0.05 is called a difference).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots compare standard variants/fewer-beads.toml
  roots compare standard one-nutrient-per-turn -n 5000 --seed 3 --format json
  roots compare standard pre-rolled-values --skill     also: does skill matter more in B?
What every figure means: docs/statistics.md")]
pub struct Args {
    /// The first variant: a built-in name (standard) or a path.
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

fn side<G: Game>(
    rules: Arc<G::Rules>,
    overrides: &[roots::variant::Override],
    sim: &SimArgs,
    seed: u64,
    label: &str,
) -> Result<Report, Failure> {
    let config = sim.config::<G>(rules, seed)?;
    let mut report = run_config(&config, None, label)?;
    report.variant = super::variant_label(&report.variant, overrides);
    Ok(report)
}

fn try_run(args: Args) -> Result<(), Failure> {
    // Load both variants (once) before playing either.
    let rules_a = super::load_variant(&args.a, &[])?;
    let rules_b = super::load_variant(&args.b, &args.set)?;
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
    print_seed(&args.sim, seed);
    let (a, b, skill) = roots::with_game!(&rules_a, G, ra => {
        let rb = G::unwrap(&rules_b)
            .ok_or_else(|| Failure::usage("the two variants are of different games"))?;
        let a = side::<G>(Arc::clone(ra), &[], &args.sim, seed, "A")?;
        if was_interrupted() {
            // B would play no game: no comparison, only what A played.
            super::err(&format!(
                "interrupted: partial: side A played {} of {} games and side B none, so there is no comparison; A's report follows\n",
                a.games, args.sim.games
            ));
            return print_report(&a, args.sim.format);
        }
        let b = side::<G>(Arc::clone(rb), &args.set, &args.sim, seed, "B")?;
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
                let la = super::ladder::ladder_of::<G>(Arc::clone(ra), bots, args.skill_games, seed, args.sim.jobs, "A skill: ")?;
                let mut lb = super::ladder::ladder_of::<G>(Arc::clone(rb), bots, args.skill_games, seed, args.sim.jobs, "B skill: ")?;
                lb.variant = super::variant_label(&lb.variant, &args.set);
                Some((la, lb))
            }
            _ => None,
        };
        (a, b, skill)
    });
    let c = compare(a, b);
    let c = match skill {
        Some((la, lb)) => c.with_skill(la, lb),
        None => c,
    };
    match args.sim.format {
        Output::Table => super::out(&c.to_table()),
        Output::Csv => super::out(&c.to_csv()),
        Output::Json => {
            let text = serde_json::to_string_pretty(&c)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}
