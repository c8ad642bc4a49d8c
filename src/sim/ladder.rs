//! A round robin among bots, and their Elo ratings.
//!
//! Every pair of bots plays the same number of games, seats rotated, on the
//! run's seed. Games are two-player where the variant allows it; a variant
//! for more players only (Roots Growy Roots' 3- and 4-player boards) seats
//! the two bots in alternate seats, and with an odd number of seats plays
//! half the games with each bot in the extra seat, on the same dice, so
//! that both hold as many seats. A game counts as won by the bot whose seat
//! won it alone; a shared top score is a tie (game `i` of every pair rolls the same dice
//! stream, so every pair meets the same luck). Each pair is an ordinary
//! [`crate::sim`] run, so a ladder is reproducible by seed whatever the number
//! of threads.
//!
//! Ratings are the maximum-likelihood fit of the Bradley-Terry model: the
//! chance that bot `i` beats bot `j` is `1 / (1 + 10^((R_j - R_i) / 400))`,
//! the Elo scale, a tie counting half a win to each. One virtual tie is added
//! to every pair that played, so that a bot that won every game gets a large
//! but finite rating (the prior BayesElo uses). The first bot is the anchor
//! at 0; each other rating has a 95% interval from the curvature of the
//! likelihood (the inverse of the Fisher information), relative to the
//! anchor.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use super::play::{Config, Seating, SimError};
use super::rate::Rate;
use crate::bots::BotSpec;
use crate::games::Game;
use crate::sim::stats::Z95;

/// Elo points per unit of the natural-log odds.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// A round robin to play.
#[derive(Debug)]
pub struct LadderConfig<G: Game> {
    pub rules: Arc<G::Rules>,
    pub bots: Vec<BotSpec>,
    /// Games per pair.
    pub games: u64,
    /// The most games per pair: while two bots rated next to each other are
    /// not ordered by their head-to-head games (the score's interval holds
    /// 50%), their pair plays twice as many games, up to this many.
    pub max_games: u64,
    pub seed: u64,
    pub jobs: usize,
}

/// The games of one pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    pub a: String,
    pub b: String,
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub ties: u64,
    /// `a`'s score: wins plus half the ties, over the games, with its 95%
    /// Wilson interval (on the win rate counting a tie half).
    pub a_score: Rate,
    /// The significance level of the pair's last look ([`look_level`]):
    /// 5% for a pair played in one go, less for a pair whose games may
    /// grow, so that looking again does not raise the chance of a wrong
    /// order.
    pub level: f64,
    /// Whether the games order the two bots: the score differs from 50%
    /// at [`Pairing::level`] (the score test, which the Wilson interval
    /// inverts).
    pub ordered: bool,
}

/// The error rate of a ladder's order between two bots, over all the looks
/// at their games.
pub const ORDER_ALPHA: f64 = 0.05;

/// The level of the look at a pair's games after `now` games, the previous
/// look having been after `before` (0 for the first), when the pair may play
/// up to `max_games`: alpha spending as `compare --until-decided` does it
/// ([`crate::sim::sequential::Plan`]), so that over all the looks the
/// chance of ordering two equal bots is at most [`ORDER_ALPHA`]. A pair
/// that cannot grow (`now == max_games` at its only look) is tested at 5%.
pub fn look_level(before: u64, now: u64, max_games: u64) -> f64 {
    crate::sim::sequential::Plan::new(ORDER_ALPHA, max_games).level(before, now)
}

/// The games a pair may have played at each of its looks: `games`, then
/// twice as many while not ordered, up to `max_games` (the last look). The
/// schedule [`run_ladder`] follows.
pub fn looks(games: u64, max_games: u64) -> Vec<u64> {
    let mut v = vec![games];
    while let Some(&n) = v.last().filter(|&&n| n < max_games) {
        v.push(next_look(n, max_games));
    }
    v
}

/// The games of the look after one at `games`.
fn next_look(games: u64, max_games: u64) -> u64 {
    games.saturating_mul(2).min(max_games)
}

/// Whether a score of `score` points in `games` differs from 50% at `level`
/// (two-sided): the score test, the one the Wilson interval inverts.
pub fn ordered_at(score: f64, games: u64, level: f64) -> bool {
    if games == 0 || level <= 0.0 {
        return false;
    }
    let n = games as f64;
    let z = (score / n - 0.5).abs() * 2.0 * n.sqrt();
    z > crate::sim::stats::normal_quantile(1.0 - level / 2.0)
}

/// One bot's rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub bot: String,
    pub elo: f64,
    /// 95% interval relative to the anchor (0 wide for the anchor).
    pub low: f64,
    pub high: f64,
    pub games: u64,
}

/// How much skill the variant rewards, from the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillSpread {
    /// Elo of the best bot less the worst.
    pub spread: f64,
    /// The best bot and the one rated next.
    pub best: String,
    pub next: String,
    /// The best bot's score against the next, head to head.
    pub best_vs_next: Rate,
    /// Whether the head-to-head games order the two ([`Pairing::ordered`]:
    /// the score differs from 50% at the level of the pair's last look,
    /// which for a pair whose games could grow is below 5%): only then does
    /// the gap measure the game.
    pub ordered: bool,
    /// That level.
    pub level: f64,
    /// Elo of the best less the next, from their head-to-head score, with
    /// the interval of that score on the same scale (one estimate, one
    /// interval).
    ///
    /// A score of 0% or 100% has no finite Elo: the score is held within
    /// [`GAP_SCORE_BOUND`] of them, so a clean sweep's `gap` (and an upper
    /// end reaching 100%) reads 1,600 Elo, a bound of the arithmetic, not a
    /// measurement; `gap_unbounded` says so, and the words give only the
    /// lower end ("at least 446 Elo").
    pub gap: f64,
    pub gap_low: f64,
    pub gap_high: f64,
    /// The interval's upper end (or the score itself) reached the bound:
    /// no finite upper end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gap_unbounded: bool,
}

/// How near 0% or 100% a head-to-head score is taken on the Elo scale
/// (`400 log10((1 - b) / b)` = 1,600 Elo at the bound).
pub const GAP_SCORE_BOUND: f64 = 1e-4;

impl SkillSpread {
    /// The gap in words: `188 Elo (120 to 260)`, or `at least 446 Elo (...)`
    /// when the score or its interval reaches 100% (a sweep has no finite
    /// Elo; see [`SkillSpread::gap`]).
    pub fn gap_words(&self) -> String {
        if self.gap_unbounded {
            format!(
                "at least {:.0} Elo (the score's interval reaches 100%, which has no finite Elo: no upper end)",
                self.gap_low
            )
        } else {
            format!(
                "{:.0} Elo ({:.0} to {:.0})",
                self.gap, self.gap_low, self.gap_high
            )
        }
    }
}

/// The result of a round robin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ladder {
    pub variant: String,
    /// Seats in each game (2, or the variant's smallest number of players).
    pub players: u8,
    pub seed: u64,
    pub games_per_pair: u64,
    pub pairings: Vec<Pairing>,
    /// Best first.
    pub ratings: Vec<Rating>,
    pub skill: Option<SkillSpread>,
    /// Whether a Ctrl-C cut the ladder short (the pairs hold what was played).
    pub interrupted: bool,
}

impl<G: Game> LadderConfig<G> {
    pub fn validate(&self) -> Result<(), SimError> {
        if self.bots.len() < 2 {
            return Err(SimError::Config(
                "a ladder needs at least two bots".to_string(),
            ));
        }
        for (i, b) in self.bots.iter().enumerate() {
            if self.bots[..i].contains(b) {
                return Err(SimError::Config(format!(
                    "bot `{b}` is listed twice: each bot plays once in a ladder"
                )));
            }
        }
        Ok(())
    }

    /// The number of seats in each game ([`ladder_players`]).
    pub fn players(&self) -> u8 {
        ladder_players::<G>(&self.rules)
    }

    /// The runs of the pair `(i, j)`: one, or two for an odd number of seats
    /// (each bot in the extra seat for half of the games, on the same dice).
    pub fn pair_configs(&self, i: usize, j: usize) -> Vec<Config<G>> {
        let n = self.players();
        let (a, b) = (self.bots[i], self.bots[j]);
        let alternate = |first: BotSpec, second: BotSpec| -> Vec<BotSpec> {
            (0..n)
                .map(|s| if s % 2 == 0 { first } else { second })
                .collect()
        };
        let run = |bots: Vec<BotSpec>, games: u64| Config {
            rules: Arc::clone(&self.rules),
            players: n,
            bots,
            seating: Seating::Rotated,
            games,
            seed: self.seed,
            jobs: self.jobs,
            // A ladder reads who won, nothing per decision.
            measures: crate::sim::measures::Depth::Outcomes,
        };
        if n.is_multiple_of(2) {
            vec![run(alternate(a, b), self.games)]
        } else {
            vec![
                run(alternate(a, b), self.games.div_ceil(2)),
                run(alternate(b, a), self.games / 2),
            ]
        }
    }

    /// The pairs in the order they are played.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.bots.len();
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    }
}

/// The number of seats in each game of a ladder of `rules`: two where the
/// variant allows it, else its smallest number of players.
pub fn ladder_players<G: Game>(rules: &G::Rules) -> u8 {
    let seats = G::seats(rules);
    if seats.contains(&2) {
        2
    } else {
        (*seats.start()).max(2)
    }
}

/// Play the round robin, then grow the games of adjacent pairs not yet
/// ordered ([`LadderConfig::max_games`]); `progress(pair, pairs, games
/// done)`.
pub fn run_ladder<G: Game>(
    config: &LadderConfig<G>,
    stop: &AtomicBool,
    progress: impl Fn(usize, usize, u64) + Sync,
) -> Result<Ladder, SimError> {
    use std::sync::atomic::Ordering::Relaxed;
    config.validate()?;
    let pairs = config.pairs();
    let names: Vec<String> = config.bots.iter().map(|b| b.to_string()).collect();
    let pool = super::play::pool(config.jobs)?;
    // Per pair: games played by each of its runs, and the totals.
    let mut played: Vec<Vec<u64>> = vec![Vec::new(); pairs.len()];
    let mut pairings: Vec<Pairing> = pairs
        .iter()
        .map(|&(i, j)| Pairing {
            a: names[i].clone(),
            b: names[j].clone(),
            games: 0,
            a_wins: 0,
            b_wins: 0,
            ties: 0,
            a_score: half_rate(0, 0, 0),
            level: 0.0,
            ordered: false,
        })
        .collect();
    // Per pair: the games of its last look.
    let mut looked: Vec<u64> = vec![0; pairs.len()];
    let mut todo: Vec<usize> = (0..pairs.len()).collect();
    let mut per_pair = config.games;
    let mut interrupted = false;
    loop {
        for &k in &todo {
            let (i, j) = pairs[k];
            let target = LadderConfig::<G> {
                rules: Arc::clone(&config.rules),
                bots: config.bots.clone(),
                games: per_pair,
                max_games: config.max_games,
                seed: config.seed,
                jobs: config.jobs,
            };
            let runs = target.pair_configs(i, j);
            played[k].resize(runs.len(), 0);
            let p = &mut pairings[k];
            for (r, c) in runs.iter().enumerate() {
                c.validate()?;
                let before = p.games;
                let acc = super::play::run_games(
                    c,
                    played[k][r]..c.games,
                    pool.as_ref(),
                    stop,
                    |_| Ok(()),
                    |done| progress(k, pairs.len(), before + done),
                )?;
                played[k][r] += acc.games;
                let wins = |name: &str| acc.bots.get(name).map_or(0, |&(_, w)| w);
                p.games += acc.games;
                p.a_wins += wins(&p.a);
                p.b_wins += wins(&p.b);
                p.ties += acc.ties;
                if stop.load(Relaxed) {
                    break;
                }
            }
            p.a_score = half_rate(p.a_wins, p.ties, p.games);
            p.level = look_level(looked[k], p.games, config.max_games);
            p.ordered = ordered_at(p.a_wins as f64 + p.ties as f64 / 2.0, p.games, p.level);
            looked[k] = p.games;
            if stop.load(Relaxed) {
                interrupted = true;
                break;
            }
        }
        let ladder = Ladder::new(
            G::name(&config.rules).to_string(),
            config.players(),
            config.seed,
            config.games,
            &names,
            pairings.iter().filter(|p| p.games > 0).cloned().collect(),
            interrupted,
        );
        if interrupted || per_pair >= config.max_games {
            return Ok(ladder);
        }
        // Adjacent bots (by rating) whose head-to-head does not order them.
        todo = ladder
            .ratings
            .windows(2)
            .filter_map(|w| {
                let k = pairs.iter().position(|&(i, j)| {
                    (names[i] == w[0].bot && names[j] == w[1].bot)
                        || (names[i] == w[1].bot && names[j] == w[0].bot)
                })?;
                (!pairings[k].ordered).then_some(k)
            })
            .collect();
        if todo.is_empty() {
            return Ok(ladder);
        }
        per_pair = next_look(per_pair, config.max_games);
    }
}

/// A level as a percentage, "5%" or "1.9%".
fn percent(level: f64) -> String {
    let p = 100.0 * level;
    if (p - p.round()).abs() < 0.05 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}

/// A score counting ties half, as a rate with its Wilson interval computed
/// on the score itself, half points as halves (`count` is the whole points).
fn half_rate(wins: u64, ties: u64, games: u64) -> Rate {
    let score = wins as f64 + ties as f64 / 2.0;
    let (low, high) = crate::sim::stats::wilson(score, games as f64);
    Rate {
        count: wins + ties / 2,
        of: games,
        rate: if games == 0 {
            0.0
        } else {
            score / games as f64
        },
        low,
        high,
    }
}

impl Ladder {
    pub fn new(
        variant: String,
        players: u8,
        seed: u64,
        games_per_pair: u64,
        names: &[String],
        pairings: Vec<Pairing>,
        interrupted: bool,
    ) -> Ladder {
        let n = names.len();
        let index = |b: &str| names.iter().position(|x| x == b).unwrap_or(0);
        // w[i][j]: score of i against j (wins plus half ties).
        let mut w = vec![vec![0.0; n]; n];
        let mut games = vec![0u64; n];
        for p in &pairings {
            let (i, j) = (index(&p.a), index(&p.b));
            let half = p.ties as f64 / 2.0;
            w[i][j] += p.a_wins as f64 + half;
            w[j][i] += p.b_wins as f64 + half;
            games[i] += p.games;
            games[j] += p.games;
            if p.games > 0 {
                // The prior: one virtual tie.
                w[i][j] += 0.5;
                w[j][i] += 0.5;
            }
        }
        let (r, se) = bradley_terry(&w);
        let mut ratings: Vec<Rating> = (0..n)
            .map(|i| Rating {
                bot: names[i].clone(),
                elo: ELO * r[i],
                low: ELO * (r[i] - Z95 * se[i]),
                high: ELO * (r[i] + Z95 * se[i]),
                games: games[i],
            })
            .collect();
        ratings.sort_by(|a, b| b.elo.total_cmp(&a.elo));
        let skill = (ratings.len() >= 2).then(|| {
            let best = &ratings[0];
            let next = &ratings[1];
            let (bi, ni) = (index(&best.bot), index(&next.bot));
            let pair = pairings.iter().find(|p| {
                (index(&p.a), index(&p.b)) == (bi, ni) || (index(&p.a), index(&p.b)) == (ni, bi)
            });
            let best_vs_next = match pair {
                Some(p) if index(&p.a) == bi => p.a_score.clone(),
                Some(p) => half_rate(p.b_wins, p.ties, p.games),
                None => Rate::new(0, 0),
            };
            // Ordered at the level of the pair's last look, the best ahead.
            let ordered = pair.is_some_and(|p| p.ordered) && best_vs_next.rate > 0.5;
            let level = pair.map_or(ORDER_ALPHA, |p| p.level);
            // The gap's interval from the two bots' head-to-head score, on
            // the Elo scale (the direct evidence for this one difference).
            let to_elo = |s: f64| {
                let s = s.clamp(GAP_SCORE_BOUND, 1.0 - GAP_SCORE_BOUND);
                ELO * (s / (1.0 - s)).ln()
            };
            // Among comparable bots: random's rating after a clean sweep
            // says only how many games were played.
            let competent: Vec<f64> = ratings
                .iter()
                .filter(|r| r.bot != "random")
                .map(|r| r.elo)
                .collect();
            let pool: Vec<f64> = if competent.len() >= 2 {
                competent
            } else {
                ratings.iter().map(|r| r.elo).collect()
            };
            let top = pool.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let bottom = pool.iter().copied().fold(f64::INFINITY, f64::min);
            SkillSpread {
                spread: top - bottom,
                best: best.bot.clone(),
                next: next.bot.clone(),
                ordered,
                level,
                gap: to_elo(best_vs_next.rate),
                gap_low: to_elo(best_vs_next.low),
                gap_high: to_elo(best_vs_next.high),
                gap_unbounded: best_vs_next.high >= 1.0 - GAP_SCORE_BOUND
                    || best_vs_next.rate >= 1.0 - GAP_SCORE_BOUND,
                best_vs_next,
            }
        });
        Ladder {
            variant,
            players,
            seed,
            games_per_pair,
            pairings,
            ratings,
            skill,
            interrupted,
        }
    }

    /// "100 two-player games", or for more seats "100 three-player games,
    /// the two bots in alternate seats".
    pub fn games_described(&self) -> String {
        let n = match self.players {
            2 => "two".to_owned(),
            3 => "three".to_owned(),
            4 => "four".to_owned(),
            5 => "five".to_owned(),
            6 => "six".to_owned(),
            k => k.to_string(),
        };
        let most = self.pairings.iter().map(|p| p.games).max().unwrap_or(0);
        let grown = if most > self.games_per_pair {
            format!(" (up to {most} for bots not yet ordered)")
        } else {
            String::new()
        };
        if self.players == 2 {
            format!("{} {n}-player games{grown}", self.games_per_pair)
        } else {
            format!(
                "{} {n}-player games, the two bots in alternate seats{grown}",
                self.games_per_pair
            )
        }
    }

    /// The readable report.
    pub fn to_table(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "Ladder of `{}`: {} per pair, seats rotated, seed {}\n",
            self.variant,
            self.games_described(),
            self.seed
        );
        let anchor = self
            .ratings
            .iter()
            .find(|r| r.low == r.high)
            .map_or("the first bot", |r| r.bot.as_str());
        let _ = writeln!(
            o,
            "Elo ratings (95% intervals; {anchor} is 0 by definition; 400 points = 10 to 1 odds)"
        );
        for r in &self.ratings {
            let interval = if r.low == r.high {
                "anchor".to_string()
            } else {
                format!("{:.0} to {:.0}", r.low, r.high)
            };
            let _ = writeln!(
                o,
                "  {:<14} {:>6.0}   ({interval}; {} games)",
                r.bot, r.elo, r.games
            );
        }
        let _ = writeln!(o, "\nHead to head (first bot's score, a tie counting half)");
        if self.pairings.iter().any(|p| p.games > self.games_per_pair) {
            let _ = writeln!(
                o,
                "  (a pair of bots rated next to each other and not yet ordered played more games; each look\n  at a pair tests at a level below 5%, alpha spending, so that looking again does not raise the\n  chance of a wrong order above 5%: a 95% interval may miss 50% for a pair still not ordered)"
            );
        }
        for p in &self.pairings {
            let _ = writeln!(
                o,
                "  {:<14} v {:<14} {}   ({} wins, {} losses, {} ties of {} games)",
                p.a,
                p.b,
                p.a_score.words(),
                p.a_wins,
                p.b_wins,
                p.ties,
                p.games
            );
        }
        if let Some(s) = &self.skill {
            let _ = writeln!(
                o,
                "\nSkill: the ratings span {:.0} Elo (random left out when two others play). The best bot, {}, scores {} against the next, {}:\n  a gap of {}. The wider the gap between comparable bots, the more\n  the variant rewards better play; near 50% and 0 Elo, luck decides between them.",
                s.spread,
                s.best,
                s.best_vs_next.words(),
                s.next,
                s.gap_words()
            );
            if !s.ordered {
                let _ = writeln!(
                    o,
                    "  Not decided: the bots are not ordered ({} against {} could be 50% at the {} level of the last look): more games per pair (--max-games), or bots further apart.",
                    s.best,
                    s.next,
                    percent(s.level)
                );
            }
        }
        if self.interrupted {
            let _ = writeln!(
                o,
                "\nInterrupted: the ladder covers the pairs above, the last one perhaps in part."
            );
        }
        let _ = writeln!(o, "\nWhat these figures mean: docs/statistics.md");
        o
    }

    pub fn to_csv(&self) -> String {
        use std::fmt::Write as _;
        let mut o = String::from("bot,elo,low,high,games\n");
        for r in &self.ratings {
            let _ = writeln!(o, "{},{},{},{},{}", r.bot, r.elo, r.low, r.high, r.games);
        }
        o
    }
}

/// The skill figures of two ladders side by side: is the score of A's best
/// bot against A's next the same in B? (The same pair, the same way round,
/// whichever is best in B.) Judged by the verdict rule, margin 2 points;
/// `None` when B lacks the pair.
pub fn skill_difference(a: &Ladder, b: &Ladder) -> Option<crate::sim::verdict::Verdict> {
    use crate::sim::verdict::{self, ALPHA, RATE_MARGIN, Statistic};
    let sa = a.skill.as_ref()?;
    let y = b.score_of(&sa.best, &sa.next)?;
    let s = Statistic::rates(
        "best-v-next",
        &format!("{} against {}", sa.best, sa.next),
        &sa.best_vs_next,
        &y,
        RATE_MARGIN,
    );
    verdict::decide(&[s], ALPHA).pop()
}

impl Ladder {
    /// The score of bot `a` against bot `b`, head to head, if they met.
    pub fn score_of(&self, a: &str, b: &str) -> Option<Rate> {
        self.pairings.iter().find_map(|p| {
            if p.a == a && p.b == b {
                Some(p.a_score.clone())
            } else if p.a == b && p.b == a {
                Some(half_rate(p.b_wins, p.ties, p.games))
            } else {
                None
            }
        })
    }
}

/// Maximum-likelihood Bradley-Terry strengths (natural log odds) from the
/// score matrix `w` (`w[i][j]`: i's score against j), the first fixed at 0,
/// and their standard errors (0 for the first). Newton's method on the
/// log-likelihood; the scores must include a prior so the fit is finite.
pub fn bradley_terry(w: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let n = w.len();
    let mut r = vec![0.0; n];
    if n < 2 {
        return (r, vec![0.0; n]);
    }
    let sigma = |d: f64| 1.0 / (1.0 + (-d).exp());
    let hessian = |r: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        // Gradient and negative Hessian over the free strengths 1..n.
        let m = n - 1;
        let mut g = vec![0.0; m];
        let mut h = vec![vec![0.0; m]; m];
        for i in 0..n {
            for j in 0..n {
                if i == j {
                    continue;
                }
                let games = w[i][j] + w[j][i];
                if games == 0.0 {
                    continue;
                }
                let p = sigma(r[i] - r[j]);
                let info = games * p * (1.0 - p);
                if i > 0 {
                    g[i - 1] += w[i][j] - games * p;
                    h[i - 1][i - 1] += info;
                    if j > 0 {
                        h[i - 1][j - 1] -= info;
                    }
                }
            }
        }
        (g, h)
    };
    for _ in 0..100 {
        let (g, h) = hessian(&r);
        let Some(step) = solve(&h, &g) else { break };
        let mut biggest: f64 = 0.0;
        for (slot, d) in r.iter_mut().skip(1).zip(&step) {
            // Damped: at most 2 log-odds a step.
            let s = d.clamp(-2.0, 2.0);
            *slot += s;
            biggest = biggest.max(s.abs());
        }
        if biggest < 1e-10 {
            break;
        }
    }
    let (_, h) = hessian(&r);
    let mut se = vec![0.0; n];
    if let Some(inv) = invert(&h) {
        for (i, slot) in se.iter_mut().enumerate().skip(1) {
            *slot = inv[i - 1][i - 1].max(0.0).sqrt();
        }
    }
    (r, se)
}

/// Solve `a x = b` (Gaussian elimination, partial pivoting).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-12 {
            return None;
        }
        m.swap(c, p);
        let pivot = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, p) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of `a`, column by column.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for c in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == c { 1.0 } else { 0.0 }).collect();
        cols.push(solve(a, &e)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| cols[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bots_rate_as_their_score_says() {
        // 75 to 25 (plus the virtual tie: 75.5 to 25.5): odds 2.96, so
        // 400 log10(2.96) = 188.6 Elo.
        let w = vec![vec![0.0, 25.5], vec![75.5, 0.0]];
        let (r, se) = bradley_terry(&w);
        let elo = ELO * r[1];
        assert!(
            (elo - 400.0 * (75.5f64 / 25.5).log10()).abs() < 1e-6,
            "{elo}"
        );
        // Standard error of the log odds: sqrt(1/(n p (1-p))).
        let p: f64 = 75.5 / 101.0;
        let want = (1.0 / (101.0 * p * (1.0 - p))).sqrt();
        assert!((se[1] - want).abs() < 1e-9);
    }

    #[test]
    fn three_bots_in_a_chain_are_ordered_and_consistent() {
        // b beats a 60%, c beats b 60%, c beats a 69.2% (odds 1.5 * 1.5):
        // a perfectly transitive set, so the fit reproduces the odds.
        let w = vec![
            vec![0.0, 400.0, 308.0],
            vec![600.0, 0.0, 400.0],
            vec![692.0, 600.0, 0.0],
        ];
        let (r, _) = bradley_terry(&w);
        assert!((r[1] - 1.5f64.ln()).abs() < 0.01, "{r:?}");
        assert!((r[2] - 2.0 * 1.5f64.ln()).abs() < 0.01, "{r:?}");
    }

    #[test]
    fn a_pair_played_in_one_go_is_judged_as_its_95_percent_interval_says() {
        assert!((look_level(0, 100, 100) - 0.05).abs() < 1e-12);
        for n in [20u64, 100, 333] {
            for k in 0..=2 * n {
                let score = k as f64 / 2.0;
                let (low, high) = crate::sim::stats::wilson(score, n as f64);
                let outside = low > 0.5 || high < 0.5;
                // The score test and the Wilson interval agree but for
                // rounding at the very edge.
                let z = (score / n as f64 - 0.5).abs() * 2.0 * (n as f64).sqrt();
                if (z - crate::sim::stats::Z95).abs() > 1e-9 {
                    assert_eq!(ordered_at(score, n, 0.05), outside, "{score} of {n}");
                }
            }
        }
    }

    #[test]
    fn the_looks_of_a_growing_pair_spend_five_percent_in_all() {
        assert_eq!(looks(100, 300), vec![100, 200, 300]);
        assert_eq!(looks(100, 100), vec![100]);
        let mut before = 0;
        let mut total = 0.0;
        for n in looks(100, 400) {
            let l = look_level(before, n, 400);
            assert!(l > 0.0 && l < 0.05, "{l}");
            total += l;
            before = n;
        }
        assert!((total - ORDER_ALPHA).abs() < 1e-12, "{total}");
        // 60 of 100 is ordered at 5% (z = 2.0) but not at the first look of
        // a pair that may grow to 400 (about 1.8%).
        assert!(ordered_at(60.0, 100, 0.05));
        assert!(!ordered_at(60.0, 100, look_level(0, 100, 400)));
    }

    /// Equal bots, the ladder's growth (100, 200, 400 games, stopping at
    /// the first order): the chance of ever ordering them stays at most
    /// 5%; judged at 5% at every look, it would be about 13%.
    #[test]
    fn growing_equal_bots_orders_them_at_most_five_percent_of_the_time() {
        let mut dice = crate::core::dice::SeededDice::new(9, 0);
        // Wins of `n` fair games: the set bits of random words.
        let mut wins = |n: u64| -> u64 {
            let mut w = 0;
            let mut left = n;
            while left > 0 {
                let take = left.min(32);
                let mask = if take == 32 {
                    u32::MAX
                } else {
                    (1 << take) - 1
                };
                w += u64::from((dice.next_u32() & mask).count_ones());
                left -= take;
            }
            w
        };
        assert_eq!(looks(100, 400), vec![100, 200, 400]);
        let trials = 20_000;
        let (mut spent, mut naive) = (0u32, 0u32);
        for _ in 0..trials {
            let (mut won, mut before) = (0u64, 0u64);
            let (mut s_done, mut n_done) = (false, false);
            for games in looks(100, 400) {
                won += wins(games - before);
                let score = won as f64;
                s_done |= ordered_at(score, games, look_level(before, games, 400));
                n_done |= ordered_at(score, games, 0.05);
                before = games;
            }
            spent += u32::from(s_done);
            naive += u32::from(n_done);
        }
        let (spent, naive) = (
            f64::from(spent) / f64::from(trials),
            f64::from(naive) / f64::from(trials),
        );
        assert!(spent <= 0.055, "alpha spending: {spent}");
        assert!(naive > 0.07, "naive looks: {naive}");
    }

    #[test]
    fn a_clean_sweep_gets_a_finite_rating() {
        let w = vec![vec![0.0, 0.5], vec![100.5, 0.0]];
        let (r, se) = bradley_terry(&w);
        assert!(r[1].is_finite() && r[1] > 3.0 && se[1].is_finite());
    }
}
