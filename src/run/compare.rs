//! Two variants side by side over matched seeds (`roots compare`): both
//! played whole, as a shard, or in batches until the primary statistic is
//! decided; every difference judged, skill measured by a ladder of each.

use std::sync::Arc;

use crate::games::{AnyRules, Game, Registered};
use crate::sim::shard::{Partial, Shard};
use crate::sim::sweep::Measure;
use crate::sim::verdict::{Margins, Outcome};
use crate::sim::{self, Accumulator, AccumulatorData, Comparison, Report, compare_with};
use crate::variant::Override;

use super::checkpoint::Checkpoint;
use super::console::{self, Progress};
use super::failure::Failure;
use super::finished::{Finished, Ran, Render};
use super::interrupt;
use super::ladder::ladder_of;
use super::part;
use super::plan::{Plan, Settings, variant_label};

/// A comparison, planned.
pub struct Compare {
    pub plan: Plan,
    /// Play only this slice of both sides' games, for a part.
    pub shard: Option<Shard>,
    /// Keep the shard's progress in this file, and resume from it.
    pub checkpoint: Option<std::path::PathBuf>,
    /// The `--set` changes of B, named with its variant.
    pub sets_b: Vec<Override>,
    /// Also a ladder among these bots in both variants.
    pub skill: Option<String>,
    /// Games per pair of bots of the ladders.
    pub skill_games: u64,
    /// `--margin KEY=VALUE`: the smallest difference that matters.
    pub margins: Vec<String>,
    /// Play in batches until the primary statistic is decided.
    pub until: Option<Until>,
}

/// `--until-decided`: the most games per side and the statistic decided.
pub struct Until {
    pub max_games: u64,
    pub primary: String,
}

/// What `compare --shard` keeps for `merge`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Setup {
    label_b: String,
    sim: Settings,
    rules_a: serde_json::Value,
    rules_b: serde_json::Value,
}

/// Check `--margin` against the measures of game `G` before any game is
/// played.
fn margins_of<G: Registered>(texts: &[String], players: u8) -> Result<Margins, Failure> {
    let mut m = Margins::default();
    for t in texts {
        m.add(t).map_err(Failure::usage)?;
        let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
        Measure::parse::<G>(key, players).map_err(|e| Failure::usage(format!("--margin: {e}")))?;
    }
    Ok(m)
}

/// Compare `a` and `b` (variants of one game): the comparison (or, when
/// interrupted before B played, A's report), or a shard's part.
pub fn compare(
    rules_a: &AnyRules,
    rules_b: &AnyRules,
    job: &Compare,
) -> Result<Ran<Box<dyn Render>>, Failure> {
    let plan = &job.plan;
    let margins: Margins;
    let (a, b, skill, sequential, changed) = crate::with_game!(rules_a, G, ra => {
        let rb = G::unwrap(rules_b)
            .ok_or_else(|| Failure::usage("the two variants are of different games"))?;
        margins = margins_of::<G>(&job.margins, plan.players)?;
        let changed = changed_keys::<G>(ra, rb);
        // Both sides' settings checked before the seed is announced.
        let config_a = plan.config::<G>(Arc::clone(ra))?;
        let config_b = plan.config::<G>(Arc::clone(rb))?;
        if let Some(until) = &job.until {
            let primary = Measure::parse::<G>(&until.primary, plan.players)
                .map_err(|e| Failure::usage(format!("--primary: {e}")))?
                .key();
            plan.note_seed();
            let (a, mut b, stopped) = until_decided(&config_a, &config_b, until, &primary, &margins)?;
            b.variant = variant_label(&b.variant, &job.sets_b);
            (a, b, None, Some(stopped), changed)
        } else {
        if let Some(shard) = job.shard {
            let setup = Setup {
                label_b: variant_label(G::name(rb), &job.sets_b),
                sim: plan.settings(),
                rules_a: part::rules_json(&**ra)?,
                rules_b: part::rules_json(&**rb)?,
            };
            let mut ck = Checkpoint::open(job.checkpoint.as_deref(), "compare", shard, G::ID, &setup, &["A", "B"])?;
            let acc_a = part::play_slice(&config_a, shard, "A", ck.as_mut().map(|c| (c, 0)))?;
            let acc_b = if interrupt::interrupted() {
                Accumulator::new::<G>(plan.players)
            } else {
                part::play_slice(&config_b, shard, "B", ck.as_mut().map(|c| (c, 1)))?
            };
            let runs = vec![part::totals("A", &acc_a), part::totals("B", &acc_b)];
            return Ok(Ran::Part(part::part("compare", shard, G::ID, &setup, runs)?));
        }
        plan.note_seed();
        let a = super::simulate::play(&config_a, None, "A")?;
        if interrupt::interrupted() {
            // B would play no game: no comparison, only what A played.
            console::err(&format!(
                "interrupted: partial: side A played {} of {} games and side B none, so there is no comparison; A's report follows\n",
                a.games, plan.games
            ));
            return Ok(Ran::Report(Box::new(a)));
        }
        let mut b = super::simulate::play(&config_b, None, "B")?;
        b.variant = variant_label(&b.variant, &job.sets_b);
        if interrupt::interrupted() {
            if b.games == 0 {
                console::err(&format!(
                    "interrupted: partial: side B played no game, so there is no comparison; A's report ({} games) follows\n",
                    a.games
                ));
                return Ok(Ran::Report(Box::new(a)));
            }
            console::err(&format!(
                "interrupted: partial: side A played {} games, side B only the first {} of them; the comparison below is of those, not of matched runs\n",
                a.games, b.games
            ));
        }
        let skill = match &job.skill {
            Some(bots) if !interrupt::interrupted() => {
                let games = job.skill_games;
                let la = ladder_of::<G>(Arc::clone(ra), bots, games, Some(games), plan.seed, plan.jobs, "A skill: ")?;
                let mut lb = ladder_of::<G>(Arc::clone(rb), bots, games, Some(games), plan.seed, plan.jobs, "B skill: ")?;
                lb.variant = variant_label(&lb.variant, &job.sets_b);
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
    Ok(Ran::Report(Box::new(c)))
}

/// The comparison of merged shards of `compare`.
pub fn merge(part: &Partial, totals: &[AccumulatorData]) -> Result<Finished, Failure> {
    let setup: Setup = part::setup_of(part)?;
    let game = part::game_of(part)?;
    let a = crate::with_game_id!(game, G => {
        let ca = setup.sim.config::<G>(&setup.rules_a)?;
        let cb = setup.sim.config::<G>(&setup.rules_b)?;
        let acc = |d| Accumulator::from_data::<G>(d).map_err(Failure::usage);
        let a = Report::new(&ca, &acc(&totals[0])?);
        let mut b = Report::new(&cb, &acc(&totals[1])?);
        b.variant = setup.label_b.clone();
        (a, b, changed_keys::<G>(&ca.rules, &cb.rules))
    });
    setup.sim.note_seed();
    let mut c = compare_with(a.0, a.1, &Margins::default());
    c.dead_rules = dead_rules(&a.2, &c);
    Ok(Finished::new(c, setup.sim.format))
}

/// The dotted keys whose values differ between two variants.
fn changed_keys<G: Game>(a: &G::Rules, b: &G::Rules) -> Vec<String> {
    crate::variant::diff::diff::<G>(a, b)
        .into_iter()
        .map(|c| c.key)
        .collect()
}

/// The changed keys that cannot have mattered: their rule events never
/// happened in either run.
fn dead_rules(changed: &[String], c: &Comparison) -> Vec<String> {
    sim::measures::dead_changes(changed, &c.a.design, &c.b.design, c.a.games)
}

/// `--until-decided`: matched games in batches until the primary statistic
/// is decided or `--max-games` are played (see `crate::sim::sequential`).
fn until_decided<G: Registered>(
    config_a: &sim::Config<G>,
    config_b: &sim::Config<G>,
    until: &Until,
    primary: &str,
    margins: &Margins,
) -> Result<(Report, Report, sim::sequential::Stopped), Failure> {
    use crate::sim::sequential::{Plan, Stopped};
    let max_games = until.max_games;
    if max_games == 0 || max_games > sim::MAX_GAMES {
        return Err(Failure::usage(format!(
            "--max-games must be from 1 to {}",
            sim::MAX_GAMES
        )));
    }
    let plan = Plan::new(crate::sim::verdict::ALPHA, max_games);
    let (mut ca, mut cb) = (config_a.clone(), config_b.clone());
    ca.games = max_games;
    cb.games = max_games;
    let pool = sim::pool(ca.jobs)?;
    let stop = interrupt::flag();
    let progress = Progress::new(2 * max_games, "until decided");
    let mut acc_a = Accumulator::new::<G>(ca.players);
    let mut acc_b = Accumulator::new::<G>(cb.players);
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
        let interrupted_now = interrupt::interrupted() || acc_a.games - done_a < now - before;
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
        let last = now >= max_games || interrupted_now;
        if verdict.verdict != Outcome::Undecided || last {
            progress.finish();
            if interrupted_now {
                console::err(&format!(
                    "interrupted: stopped after {} games per side, undecided; the table is of the games played\n",
                    acc_a.games.min(acc_b.games)
                ));
            }
            let stopped = Stopped {
                primary: primary.to_owned(),
                games: now,
                max_games,
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
