//! `roots ladder [VARIANT]`: a round robin among bots, with Elo ratings.

use std::sync::Arc;

use roots::games::Registered;
use roots::sim::ladder::{Ladder, LadderConfig, run_ladder};

use super::exit;
use super::simulate::{Output, interrupted, parse_bots, was_interrupted};
use super::{Failure, SetArgs};

/// The bots of a ladder when none are given: random play, the one-step
/// greedy and the search at its default budget (200 iterations), the ranks
/// a designer asks about (`mcts:100,mcts:400` beside each other measured
/// budgets, not the game: in Roots and Shoots and Roots Growy Roots their
/// head-to-head is often not ordered after 400 games).
pub const DEFAULT_BOTS: &str = "greedy,random,mcts";

/// How many times `--games` a pair may grow to when `--max-games` is not
/// given: enough for a search that wins 55% against greedy to be ordered
/// in about 24 ladders of 25 (alpha spending over the looks at 100, 200,
/// 400, 800 and 1,600 games; `examples/ladder_order_rates`). The search's
/// edge over greedy is about that small in Roots and Shoots'
/// `fewer-nutrients`, where 800 games left it unordered in one ladder of
/// three.
pub const DEFAULT_GROWTH: u64 = 16;

/// Play every pair of bots against each other (two players, seats rotated,
/// the same games' luck for every pair; a variant for more players only
/// seats the two bots in alternate seats) and rate them on the Elo scale, with
/// 95% intervals; the spread of the ratings and the best bot's score against
/// the next say how much the variant rewards skill.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  roots ladder                                       standard rules, default bots
  roots ladder pre-rolled-values -n 200 --seed 1
  roots ladder btt --bots random,greedy,mcts:100,mcts:400
What the figures mean: docs/statistics.md")]
pub struct Args {
    /// A built-in variant name (standard) or the path of a variant file.
    #[arg(default_value = "standard", value_name = "VARIANT")]
    pub variant: String,

    /// The bots, comma-separated: random, greedy, greedy-v1, mcts (200
    /// iterations a decision), mcts:ITERATIONS or mcts:MILLISms. The first
    /// is the anchor, rated 0.
    #[arg(long, short = 'b', default_value = DEFAULT_BOTS, value_name = "B1,B2,...",
          value_parser = super::OfferedNames::bots(false), hide_possible_values = true)]
    pub bots: String,

    /// Games per pair of bots, to start with.
    #[arg(long, short = 'n', default_value_t = 100)]
    pub games: u64,

    /// The most games per pair: while two bots rated next to each other
    /// are not ordered by their head-to-head score, their pair plays twice
    /// as many games, up to this (default: 16 times --games; --max-games
    /// equal to --games plays a fixed number). Each look at a pair's games
    /// tests at a level below 5% (alpha spending), so growing does not
    /// raise the chance of a wrong order.
    #[arg(long, value_name = "N")]
    pub max_games: Option<u64>,

    /// The seed; the same seed replays the same games. Drawn at random and
    /// printed when not given.
    #[arg(long, short = 's')]
    pub seed: Option<u64>,

    /// Worker threads (default: the number of cores). Results do not depend on it.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,

    /// How to print the ratings.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    pub format: Output,

    #[command(flatten)]
    pub set: SetArgs,
}

pub fn run(args: Args) -> u8 {
    interrupted();
    match try_run(&args) {
        Ok(()) if was_interrupted() => 130,
        Ok(()) => exit::OK,
        Err(f) => f.report(),
    }
}

/// The ladder of `rules` between `bots` (shared with `compare --ladder`).
pub fn ladder_of<G: Registered>(
    rules: Arc<G::Rules>,
    bots: &str,
    games: u64,
    max_games: Option<u64>,
    seed: u64,
    jobs: Option<usize>,
    label: &str,
) -> Result<Ladder, Failure> {
    let max_games = max_games.unwrap_or(games.saturating_mul(DEFAULT_GROWTH));
    if max_games < games {
        return Err(Failure::usage(format!(
            "--max-games {max_games} is below --games {games}"
        )));
    }
    let specs = parse_bots(bots)?;
    let sim = super::simulate::SimArgs {
        games,
        players_given: None,
        players: roots::sim::ladder::ladder_players::<G>(&rules),
        // One bot for both seats: the checks of a run, bots aside.
        bots: specs.first().map(|b| b.to_string()).unwrap_or_default(),
        rotate: true,
        seed: Some(seed),
        jobs,
        format: Output::Table,
        cmd_timeout: super::simulate::DEFAULT_CMD_TIMEOUT_SECS,
        measures: super::simulate::Depth::Standard,
    };
    // The same checks as a simulation (games, jobs, bots).
    let jobs = sim.config::<G>(Arc::clone(&rules), seed)?.jobs;
    let config = LadderConfig::<G> {
        rules,
        bots: specs,
        games,
        max_games,
        seed,
        jobs,
    };
    let on = super::stderr_is_terminal();
    let ladder = run_ladder(&config, interrupted(), |pair, pairs, done| {
        if on {
            super::err_raw("\r");
            super::err(&format!(
                "{label}pair {} of {pairs}: {done} games",
                pair + 1
            ));
        }
    });
    if on {
        super::err_raw("\r\x1b[2K");
    }
    Ok(ladder?)
}

fn try_run(args: &Args) -> Result<(), Failure> {
    let rules = super::load_variant(&args.variant, &args.set.set)?;
    let seed = super::simulate::SimArgs {
        games: args.games,
        players_given: None,
        players: 2,
        bots: args.bots.clone(),
        rotate: true,
        seed: args.seed,
        jobs: args.jobs,
        format: args.format,
        cmd_timeout: super::simulate::DEFAULT_CMD_TIMEOUT_SECS,
        measures: super::simulate::Depth::Standard,
    }
    .seed();
    super::simulate::note_seed(seed, args.seed.is_some());
    let mut ladder = roots::with_game!(&rules, G, r => {
        ladder_of::<G>(Arc::clone(r), &args.bots, args.games, args.max_games, seed, args.jobs, "")?
    });
    ladder.variant = super::variant_label(&ladder.variant, &args.set.set);
    match args.format {
        Output::Table => super::out(&ladder.to_table()),
        Output::Csv => super::out(&ladder.to_csv()),
        Output::Json => {
            let text = serde_json::to_string_pretty(&ladder)
                .map_err(|e| Failure::usage(format!("cannot print JSON: {e}")))?;
            super::out(&format!("{text}\n"));
        }
    }
    Ok(())
}
