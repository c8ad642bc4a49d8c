//! The plan of a run: how many games, how many seats, which bots, the seed
//! (given, or drawn and noted), the threads, the shard; the settings a
//! shard's part keeps for `merge`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::bots::BotSpec;
use crate::games::{AnyRules, Registered};
use crate::sim::measures::Depth;
use crate::sim::shard::Shard;
use crate::sim::{Config, Seating};
use crate::variant::Override;

use super::console;
use super::failure::Failure;

/// How a finished report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// A readable report.
    Table,
    /// The whole report as JSON.
    Json,
    /// The summary as CSV rows.
    Csv,
}

/// What a run was asked for, before the variant settles what was left to
/// it ([`Plan::new`]).
#[derive(Clone, Debug)]
pub struct Asked {
    pub games: u64,
    /// `--players`, or none for the variant's own count.
    pub players: Option<u8>,
    /// `--bots`, or empty for the game's default bot in every seat.
    pub bots: String,
    pub rotate: bool,
    /// `--seed`, or none to draw one at random.
    pub seed: Option<u64>,
    pub jobs: Option<usize>,
    pub format: Format,
    pub measures: Depth,
    /// Milliseconds an external player has for each decision.
    pub cmd_timeout_ms: u32,
}

/// The plan of a run's games: every game `i` of it is the same game
/// whichever thread, shard or round plays it.
#[derive(Clone, Debug)]
pub struct Plan {
    pub games: u64,
    pub players: u8,
    /// The bot of each seat, comma-separated, or one for every seat.
    pub bots: String,
    pub rotate: bool,
    pub seed: u64,
    pub seed_given: bool,
    pub jobs: Option<usize>,
    pub format: Format,
    pub measures: Depth,
    pub cmd_timeout_ms: u32,
}

impl Plan {
    /// The plan of `asked` for `rules`: the number of players as given, or
    /// the variant's default ([`AnyRules::default_seats`]); `--bots` as
    /// given, or the game's default bot ([`crate::games::Game::DEFAULT_BOT`])
    /// in every seat; the seed as given, or drawn at random.
    pub fn new(rules: &AnyRules, asked: Asked) -> Plan {
        let bots = if asked.bots.trim().is_empty() {
            rules.game().default_bot().to_string()
        } else {
            asked.bots
        };
        Plan {
            games: asked.games,
            players: asked.players.unwrap_or_else(|| rules.default_seats()),
            bots,
            rotate: asked.rotate,
            seed: asked.seed.unwrap_or_else(random_seed),
            seed_given: asked.seed.is_some(),
            jobs: asked.jobs,
            format: asked.format,
            measures: asked.measures,
            cmd_timeout_ms: asked.cmd_timeout_ms,
        }
    }

    /// Say which seed the run drew, when it was not given.
    pub fn note_seed(&self) {
        console::note_seed(self.seed, self.seed_given);
    }

    /// What a shard's part keeps of the plan.
    pub fn settings(&self) -> Settings {
        Settings {
            games: self.games,
            players: self.players,
            bots: self.bots.clone(),
            rotate: self.rotate,
            seed: self.seed,
            seed_given: self.seed_given,
            format: self.format,
            measures: self.measures,
        }
    }

    /// Measure skill: the better of two comparable bots ([`skill_pair`])
    /// in one seat, the other in every other seat, seats rotated. Gives the
    /// pair's names.
    pub fn for_skill(&mut self) -> Result<(String, String), Failure> {
        let (s, w) = skill_pair(&parse_bots(&self.bots)?);
        let mut line = vec![s.to_string()];
        line.extend((1..self.players).map(|_| w.to_string()));
        self.bots = line.join(",");
        self.rotate = true;
        Ok((s.to_string(), w.to_string()))
    }

    /// The run's configuration for `rules`: the bots (an external one with
    /// its time limit), the threads (at most what the machine can use, said
    /// in a note), checked ([`Config::validate`]).
    pub fn config<G: Registered>(&self, rules: Arc<G::Rules>) -> Result<Config<G>, Failure> {
        let bots: Vec<BotSpec> = parse_bots(&self.bots)?
            .into_iter()
            .map(|b| b.with_timeout(self.cmd_timeout_ms))
            .collect();
        let external = bots.iter().any(|b| b.is_external());
        let most = crate::sim::max_jobs(external);
        let jobs = match self.jobs {
            None => most,
            Some(0) => return Err(Failure::usage("--jobs must be at least 1")),
            Some(j) if j > most => {
                // More threads than cores only share the cores: -j 1000 on
                // 2 cores took 6.5 times as long.
                console::note(&format!(
                    "note: --jobs {j} is more than this machine can use; running {most} (one a core{})\n",
                    if most > 1 && external {
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
            seating: seating(self.rotate),
            games: self.games,
            seed: self.seed,
            jobs,
            measures: self.measures,
        };
        config.validate()?;
        Ok(config)
    }
}

fn seating(rotate: bool) -> Seating {
    if rotate {
        Seating::Rotated
    } else {
        Seating::Fixed
    }
}

/// The settings of a run that make its report, as a shard's part keeps
/// them for `roots merge`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub games: u64,
    pub players: u8,
    pub bots: String,
    pub rotate: bool,
    pub seed: u64,
    pub seed_given: bool,
    pub format: Format,
    /// `--measures` (a part written before it was kept: the default).
    #[serde(default)]
    pub measures: Depth,
}

impl Settings {
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
            seating: seating(self.rotate),
            games: self.games,
            seed: self.seed,
            jobs: 1,
            measures: self.measures,
        };
        config.validate()?;
        Ok(config)
    }

    /// What the single run would have noted of its seed (shards always
    /// have their seed given, so this says nothing today).
    pub fn note_seed(&self) {
        console::note_seed(self.seed, self.seed_given);
    }
}

/// The bots of `--bots`, comma-separated.
pub fn parse_bots(text: &str) -> Result<Vec<BotSpec>, Failure> {
    text.split(',')
        .map(|b| BotSpec::parse(b).map_err(|e| Failure::usage(format!("--bots: {e}"))))
        .collect()
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

/// The `--shard K/N` of a run, checked: it needs a seed given.
pub fn shard(text: Option<&str>, seed_given: bool) -> Result<Option<Shard>, Failure> {
    let Some(text) = text else { return Ok(None) };
    let shard = Shard::parse(text).map_err(Failure::usage)?;
    if !seed_given {
        return Err(Failure::usage(
            "--shard needs --seed: every shard must play the games of one seed",
        ));
    }
    Ok(Some(shard))
}

/// A seed drawn at random (the operating system's entropy through `rand`),
/// short enough to type back: below 10^12.
pub fn random_seed() -> u64 {
    rand::random::<u64>() % 1_000_000_000_000
}

/// How a report names a variant played with `--set` overrides:
/// `standard --set beads.supply=35`.
pub fn variant_label(name: &str, overrides: &[Override]) -> String {
    let mut label = name.to_string();
    for o in overrides {
        label.push_str(&format!(" --set {o}"));
    }
    label
}
