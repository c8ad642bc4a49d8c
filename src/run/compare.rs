//! Two variants side by side over matched seeds (`roots compare`): both
//! played whole, as a shard, or in batches until the primary statistic is
//! decided; every difference judged, skill measured by a ladder of each.

use std::sync::Arc;

use crate::games::{AnyRules, Game, Registered};
use crate::sim::paired::{PairBuilder, Pairs};
use crate::sim::shard::{Partial, Shard};
use crate::sim::sweep::Measure;
use crate::sim::verdict::Margins;
use crate::sim::{
    self, Accumulator, AccumulatorData, Comparison, Report, SameRules, compare_paired,
};
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
    /// `--independent`: B plays its own seeds ([`independent_seed`]), not
    /// A's, so that equal rules give unrelated games (to audit the error
    /// rates).
    pub independent: bool,
}

/// The seed of B's games with `--independent`: a fixed scramble of the
/// run's seed (SplitMix64's finalizer), so that no report's B shares the
/// seeds of another report's A or B for nearby seeds.
pub fn independent_seed(seed: u64) -> u64 {
    let mut z = seed ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
    /// `--independent` (absent from parts of versions before it: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    independent: bool,
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
    let (a, b, skill, sequential, changed, pairs) = crate::with_game!(rules_a, G, ra => {
        let rb = G::unwrap(rules_b)
            .ok_or_else(|| Failure::usage("the two variants are of different games"))?;
        margins = margins_of::<G>(&job.margins, plan.players)?;
        let changed = changed_keys::<G>(ra, rb);
        let scripts = script_names::<G>(ra, rb);
        // Both sides' settings checked before the seed is announced.
        let config_a = plan.config::<G>(Arc::clone(ra))?;
        let mut config_b = plan.config::<G>(Arc::clone(rb))?;
        // Both configs were admitted, so the count of players lies in both
        // sides' ranges: keys that only bound that range change no game.
        if changed.iter().all(|k| SEAT_RANGE_KEYS.contains(&k.as_str())) && !job.independent {
            // The same rules: matched games would be the same games.
            let same = SameRules::new(
                G::name(ra),
                &variant_label(G::name(rb), &job.sets_b),
                plan.players,
                changed,
            );
            return Ok(Ran::Report(Box::new(same)));
        }
        if job.independent {
            config_b.seed = independent_seed(config_b.seed);
        }
        if let Some(until) = &job.until {
            let primary = Measure::parse::<G>(&until.primary, plan.players)
                .map_err(|e| Failure::usage(format!("--primary: {e}")))?
                .key();
            plan.note_seed();
            let (a, mut b, stopped, pairs) = until_decided(&config_a, &config_b, until, &primary, &margins)?;
            b.variant = variant_label(&b.variant, &job.sets_b);
            (a, b, None, Some(stopped), (changed, scripts), pairs)
        } else {
        if let Some(shard) = job.shard {
            let setup = Setup {
                label_b: variant_label(G::name(rb), &job.sets_b),
                independent: job.independent,
                sim: plan.settings(),
                rules_a: part::rules_json(&**ra)?,
                rules_b: part::rules_json(&**rb)?,
            };
            let mut ck = Checkpoint::open(job.checkpoint.as_deref(), "compare", shard, G::ID, &setup, &["A", "B"])?;
            let (acc_a, acc_b, pairs) = play_shard(&config_a, &config_b, shard, ck.as_mut(), plan.players)?;
            let runs = vec![part::totals("A", &acc_a), part::totals("B", &acc_b)];
            let mut p = part::part("compare", shard, G::ID, &setup, runs)?;
            p.pairs = Some(pairs.unwrap_or_default());
            return Ok(Ran::Part(p));
        }
        plan.note_seed();
        let mut builder = pair_builder(&config_a, &config_b);
        let a = super::simulate::play_each(&config_a, None, "A", |r| builder.add_a(r))?;
        if interrupt::interrupted() {
            // B would play no game: no comparison, only what A played.
            console::err(&format!(
                "interrupted: partial: side A played {} of {} games and side B none, so there is no comparison; A's report follows\n",
                a.games, plan.games
            ));
            return Ok(Ran::Report(Box::new(a)));
        }
        let mut b = super::simulate::play_each(&config_b, None, "B", |r| builder.add_b(r))?;
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
        // Pairs only of matched runs: an interrupted B leaves A's extra
        // games unpaired, and the comparison says it is not of matched runs.
        let pairs = builder.into_pairs().filter(|p| p.pairs == a.games && a.games == b.games);
        (a, b, skill, None, (changed, scripts), pairs)
        }
    });
    let (mut a, mut b) = (a, b);
    a.set_margins(&margins);
    b.set_margins(&margins);
    let mut c = compare_paired(a, b, pairs.as_ref(), &margins);
    c.analysis.independent_seeds = job.independent;
    c.sequential = sequential;
    c.dead_rules = dead_rules(&changed.0, &changed.1, &c);
    c.changed_keys = changed.0;
    let c = match skill {
        Some((la, lb)) => c.with_skill(la, lb),
        None => c,
    };
    Ok(Ran::Report(Box::new(c)))
}

/// The comparison of merged shards of `compare`: `parts` in shard order,
/// named `names` (in the order given), each with its paired sums.
pub fn merge(
    names: &[String],
    parts: &[Partial],
    totals: &[AccumulatorData],
) -> Result<Finished, Failure> {
    let part = parts
        .first()
        .ok_or_else(|| Failure::usage("no part to merge"))?;
    let mut pairs = Pairs::default();
    for p in parts {
        let this = p.pairs.as_ref().ok_or_else(|| {
            Failure::invalid_line(format!(
                "shard {} of the parts given ({}) has no paired sums: a part of `roots compare` written by a version before paired analysis; run that shard again with this version",
                p.shard,
                names.join(", ")
            ))
        })?;
        pairs = pairs.checked_add(this).map_err(Failure::invalid_line)?;
    }
    let setup: Setup = part::setup_of(part)?;
    let game = part::game_of(part)?;
    let a = crate::with_game_id!(game, G => {
        let ca = setup.sim.config::<G>(&setup.rules_a)?;
        let mut cb = setup.sim.config::<G>(&setup.rules_b)?;
        if setup.independent {
            cb.seed = independent_seed(cb.seed);
        }
        let acc = |d| Accumulator::from_data::<G>(d).map_err(Failure::usage);
        let a = Report::new(&ca, &acc(&totals[0])?);
        let mut b = Report::new(&cb, &acc(&totals[1])?);
        b.variant = setup.label_b.clone();
        let scripts = script_names::<G>(&ca.rules, &cb.rules);
        (a, b, (changed_keys::<G>(&ca.rules, &cb.rules), scripts))
    });
    setup.sim.note_seed();
    if pairs.pairs != a.0.games || pairs.pairs != a.1.games {
        return Err(Failure::invalid_line(format!(
            "the parts' paired sums hold {} pairs, but the sides {} and {} games",
            pairs.pairs, a.0.games, a.1.games
        )));
    }
    let mut c = compare_paired(a.0, a.1, Some(&pairs), &Margins::default());
    c.analysis.independent_seeds = setup.independent;
    c.dead_rules = dead_rules(&a.2.0, &a.2.1, &c);
    c.changed_keys = a.2.0;
    Ok(Finished::new(c, setup.sim.format))
}

/// The dotted keys whose values differ between two variants.
/// The keys that only say how many may play (common to every game; no
/// game reads them while playing, only to admit the seats).
const SEAT_RANGE_KEYS: &[&str] = &["players.min", "players.max"];

fn changed_keys<G: Game>(a: &G::Rules, b: &G::Rules) -> Vec<String> {
    crate::variant::diff::diff::<G>(a, b)
        .into_iter()
        .map(|c| c.key)
        .collect()
}

/// A [`PairBuilder`] that knows each side's safety limit (for the
/// completion rate).
fn pair_builder<G: Game>(a: &sim::Config<G>, b: &sim::Config<G>) -> PairBuilder {
    let limit = |c: &sim::Config<G>| G::safety_limit(&c.rules).map(|l| l.reason);
    PairBuilder::new().limits(limit(a), limit(b))
}

/// The changed keys that cannot have mattered: their rule events never
/// happened in either run.
fn dead_rules(changed: &[String], scripts: &[Vec<String>; 2], c: &Comparison) -> Vec<String> {
    let scripts = [scripts[0].as_slice(), scripts[1].as_slice()];
    sim::measures::dead_changes(changed, &c.a.design, &c.b.design, c.a.games, scripts)
}

/// The names of the house rules written as scripts of each side.
fn script_names<G: Game>(a: &G::Rules, b: &G::Rules) -> [Vec<String>; 2] {
    [G::script_names(a), G::script_names(b)]
}

/// `--until-decided`: matched games in batches until the primary statistic
/// is decided or `--max-games` are played (see `crate::sim::sequential`).
fn until_decided<G: Registered>(
    config_a: &sim::Config<G>,
    config_b: &sim::Config<G>,
    until: &Until,
    primary: &str,
    margins: &Margins,
) -> Result<(Report, Report, sim::sequential::Stopped, Option<Pairs>), Failure> {
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
    let mut builder = pair_builder(&ca, &cb);
    let all_looks = plan.looks();
    loop {
        let now = all_looks[looks];
        let done_a = acc_a.games;
        acc_a.merge(&sim::run_games(
            &ca,
            before..now,
            pool.as_ref(),
            stop,
            |r| {
                builder.add_a(r);
                Ok(())
            },
            |d| progress.update(2 * before + d),
        )?);
        acc_b.merge(&sim::run_games(
            &cb,
            before..now,
            pool.as_ref(),
            stop,
            |r| {
                builder.add_b(r);
                Ok(())
            },
            |d| progress.update(before + now + d),
        )?);
        builder.next_range();
        looks += 1;
        let a = Report::new(&ca, &acc_a);
        let b = Report::new(&cb, &acc_b);
        let interrupted_now = interrupt::interrupted() || acc_a.games - done_a < now - before;
        // Both families from the pairs (matched games only).
        let pairs = builder
            .pairs()
            .filter(|p| p.pairs == acc_a.games && p.pairs == acc_b.games);
        let mut stats = sim::paired_statistics(&a, &b, pairs, margins);
        stats.extend(sim::paired_measures(&a, &b, pairs, margins));
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
        if verdict.verdict.is_final() || last {
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
            let pairs = builder
                .into_pairs()
                .filter(|p| p.pairs == acc_a.games && p.pairs == acc_b.games);
            return Ok((a, b, stopped, pairs));
        }
        before = now;
    }
}

/// Games of a shard's slice per step of [`play_shard`]: A's values are
/// kept only until B's game of the same index is played.
const STEP: u64 = 256;

/// Both sides of a shard's slice, step by step ([`STEP`] games of A, then
/// the same games of B, their pairs folded), so that after every step the
/// two sides have played the same games and their totals and pairs can be
/// kept by the checkpoint, which a rerun resumes from. Interrupted, the
/// games played so far are returned (the part is then marked partial); the
/// checkpoint keeps only whole steps.
fn play_shard<G: Game>(
    config_a: &sim::Config<G>,
    config_b: &sim::Config<G>,
    shard: Shard,
    mut ck: Option<&mut Checkpoint>,
    players: u8,
) -> Result<(Accumulator, Accumulator, Option<Pairs>), Failure> {
    let range = shard.range(config_a.games);
    let slice = range.end - range.start;
    let resumed = |ck: &Option<&mut Checkpoint>, run| match ck {
        Some(c) => c.resumed::<G>(run, slice),
        None => Ok(None),
    };
    let fresh = || Accumulator::new::<G>(players);
    let mut acc_a = resumed(&ck, 0)?.unwrap_or_else(fresh);
    let mut acc_b = resumed(&ck, 1)?.unwrap_or_else(fresh);
    let mut pairs = match &ck {
        Some(c) if acc_a.games > 0 => c.pairs().cloned(),
        _ => Some(Pairs::default()),
    };
    if acc_a.games != acc_b.games || pairs.as_ref().is_some_and(|p| p.pairs != acc_a.games) {
        return Err(Failure::invalid(
            "--checkpoint: its sides A and B, or their pairs, hold different numbers of games: not a checkpoint this run wrote\n  = help: remove it to start the shard again",
        ));
    }
    let progress = Progress::new(2 * slice, "A and B");
    let mut start = range.start + acc_a.games;
    while start < range.end && !interrupt::interrupted() {
        let end = (start + STEP).min(range.end);
        let base = 2 * (start - range.start);
        let mut builder = pair_builder(config_a, config_b);
        let a = part::play_range(
            config_a,
            start..end,
            |r| builder.add_a(r),
            |n| progress.update(base + n),
        )?;
        acc_a.merge(&a);
        if interrupt::interrupted() {
            break;
        }
        let b = part::play_range(
            config_b,
            start..end,
            |r| builder.add_b(r),
            |n| progress.update(base + (end - start) + n),
        )?;
        acc_b.merge(&b);
        pairs = match (pairs, builder.into_pairs()) {
            (Some(p), Some(q)) => Some(p.checked_add(&q).map_err(Failure::invalid)?),
            _ => None,
        };
        if interrupt::interrupted() {
            break;
        }
        if let Some(c) = ck.as_deref_mut()
            && (c.due() || end == range.end)
        {
            c.save_all(&[&acc_a, &acc_b], pairs.as_ref());
        }
        start = end;
    }
    progress.finish();
    Ok((acc_a, acc_b, pairs))
}
