//! A round robin among bots with Elo ratings (`roots ladder`, and the
//! skill measure of `compare --skill`).

use std::sync::Arc;

use crate::games::{AnyRules, Registered};
use crate::sim::ladder::{Ladder, LadderConfig, ladder_players, run_ladder};
use crate::sim::measures::Depth;
use crate::variant::Override;

use super::console::{self, Status};
use super::failure::Failure;
use super::interrupt;
use super::plan::{Format, Plan, parse_bots, random_seed, variant_label};

/// How many times `--games` a pair may grow to when `--max-games` is not
/// given: enough for a search that wins 55% against greedy to be ordered
/// in about 24 ladders of 25 (alpha spending over the looks at 100, 200,
/// 400, 800 and 1,600 games; `examples/ladder_order_rates`). The search's
/// edge over greedy is about that small in Roots and Shoots'
/// `fewer-nutrients`, where 800 games left it unordered in one ladder of
/// three.
pub const DEFAULT_GROWTH: u64 = 16;

/// A ladder, planned.
pub struct LadderPlan {
    /// The bots, comma-separated; the first is the anchor, rated 0.
    pub bots: String,
    /// Games per pair to start with.
    pub games: u64,
    /// The most games per pair (default: [`DEFAULT_GROWTH`] times `games`).
    pub max_games: Option<u64>,
    pub seed: Option<u64>,
    pub jobs: Option<usize>,
    /// The `--set` changes, named with the variant.
    pub sets: Vec<Override>,
}

/// Play the ladder of `rules`.
pub fn ladder(rules: &AnyRules, plan: &LadderPlan) -> Result<Ladder, Failure> {
    let seed = plan.seed.unwrap_or_else(random_seed);
    console::note_seed(seed, plan.seed.is_some());
    let mut ladder = crate::with_game!(rules, G, r => {
        ladder_of::<G>(Arc::clone(r), &plan.bots, plan.games, plan.max_games, seed, plan.jobs, "")?
    });
    ladder.variant = variant_label(&ladder.variant, &plan.sets);
    Ok(ladder)
}

/// The ladder of `rules` between `bots` (shared with `compare --skill`),
/// a status line on a terminal prefixed with `label`.
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
    let plan = Plan {
        games,
        players: ladder_players::<G>(&rules),
        // One bot for both seats: the checks of a run, bots aside.
        bots: specs.first().map(|b| b.to_string()).unwrap_or_default(),
        rotate: true,
        seed,
        seed_given: true,
        jobs,
        format: Format::Table,
        measures: Depth::Standard,
        cmd_timeout_ms: crate::bots::DEFAULT_CMD_TIMEOUT_MS,
    };
    // The same checks as a simulation (games, jobs, bots).
    let jobs = plan.config::<G>(Arc::clone(&rules))?.jobs;
    let config = LadderConfig::<G> {
        rules,
        bots: specs,
        games,
        max_games,
        seed,
        jobs,
    };
    let status = Status::new();
    let ladder = run_ladder(&config, interrupt::flag(), |pair, pairs, done| {
        status.show(
            &format!("{label}pair {} of {pairs}: {done} games", pair + 1),
            false,
        );
    });
    status.clear();
    Ok(ladder?)
}
