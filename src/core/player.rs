//! The vocabulary of players, below the games: the [`Player`] trait every
//! seat's decider implements (bots, external programs, the person at the
//! terminal), why one gives no action, which bot a seat names ([`BotSpec`]),
//! how long a search runs ([`Budget`]), how a game wants its search's
//! playouts to end ([`Playout`]) and its generic bots tuned ([`Style`]). The games bring bots of their own with it;
//! the generic bots ([`crate::bots`]) sit above the games.

use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Seat};

/// Iterations per decision when `mcts` is given without a number.
pub const DEFAULT_ITERATIONS: u32 = 200;

/// Why a player gave no action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoAction {
    /// The player stopped the game (a human quitting); the record stays
    /// resumable.
    Quit,
    /// The player's input ended (end of file) before a decision.
    EndOfInput,
    /// The player loses the game: an external program crashed, did not
    /// answer in time or answered an illegal move. The reason, in words.
    Forfeit(String),
    /// The person at the table asked to take back the last roll or
    /// decision (`undo` at the prompt); the referee decides whether it can.
    Undo,
}

/// Someone who makes the decisions of one seat of a game whose nodes are `S`.
pub trait Player<S: GameState> {
    /// A short name for reports and records, e.g. `random`, `mcts:2000`, `human`.
    fn name(&self) -> String;

    /// Choose an action at a decision node of this player's seat. The state
    /// is at a decision node of this seat; the action must be legal there.
    fn choose(&mut self, state: &S) -> Result<S::Action, NoAction>;

    /// Whether every action [`Player::choose`] returns is one the engine
    /// itself drew as legal ([`GameState::random_action`]), so that a
    /// simulation may apply it with [`GameState::play_unchecked`] instead
    /// of having the referee check it again (release builds; debug builds
    /// check every action). False unless a player is sure of it: an
    /// external program's answer, or a person's, is always checked.
    fn draws_from_engine(&self) -> bool {
        false
    }
}

/// The seat deciding at `state`; at a node that is not a decision (the
/// caller broke [`Player::choose`]'s contract), the action to answer with
/// instead (`Err`): the engine's sampler's, rather than a panic.
pub fn deciding_seat<S: GameState>(state: &S, dice: &mut SeededDice) -> Result<Seat, S::Action> {
    match state.next() {
        Next::Decide(seat) => Ok(seat),
        _ => Err(state.random_action(dice)),
    }
}

/// How every greedy bot starts a choice at `state`: the deciding seat
/// ([`deciding_seat`]), with the legal actions in `actions`, when there is
/// a choice to make; else the answer at once (`Err`): the only legal
/// action, or the sampler's where there is none.
pub fn choice_to_make<S: GameState>(
    state: &S,
    actions: &mut Vec<S::Action>,
    dice: &mut SeededDice,
) -> Result<Seat, S::Action> {
    let seat = deciding_seat(state, dice)?;
    state.legal_actions(actions);
    match actions.as_slice() {
        [] => Err(state.random_action(dice)),
        [only] => Err(*only),
        _ => Ok(seat),
    }
}

/// The best actions found so far by value, equal within `1e-9`: a search
/// offers each action's value as it finds it and then picks among the
/// best with its dice ([`SeededDice::pick`]).
#[derive(Clone, Debug)]
pub struct Ties<A> {
    best: f64,
    list: Vec<A>,
}

impl<A: Copy> Default for Ties<A> {
    fn default() -> Self {
        Ties {
            best: f64::NEG_INFINITY,
            list: Vec::with_capacity(16),
        }
    }
}

impl<A: Copy> Ties<A> {
    /// Values closer than this are equal.
    pub const EPSILON: f64 = 1e-9;

    /// Forget every offer.
    pub fn clear(&mut self) {
        self.best = f64::NEG_INFINITY;
        self.list.clear();
    }

    /// The best value offered (minus infinity before any offer).
    pub fn best(&self) -> f64 {
        self.best
    }

    /// `action` is worth `value`: it replaces the best if it is worth
    /// more, joins them if it is worth as much.
    pub fn offer(&mut self, value: f64, action: A) {
        if value > self.best + Self::EPSILON {
            self.best = value;
            self.list.clear();
            self.list.push(action);
        } else if value >= self.best - Self::EPSILON {
            self.list.push(action);
        }
    }

    /// One of the best, by `dice`; `None` before any offer.
    pub fn pick(&self, dice: &mut SeededDice) -> Option<A> {
        dice.pick(&self.list)
    }
}

/// `greedy_player!(Bot, State)`: [`Player`] for a game's own greedy bot,
/// named `greedy`, with the fields `dice` (its [`SeededDice`]) and
/// `actions` (a buffer of actions) and a method `decide(&mut self, state,
/// seat, actions) -> Action` for a node with a choice to make: the start of
/// the choice is every greedy bot's ([`choice_to_make`]).
#[macro_export]
macro_rules! greedy_player {
    ($bot:ty, $state:ty) => {
        impl $crate::core::player::Player<$state> for $bot {
            fn name(&self) -> String {
                "greedy".to_string()
            }

            fn choose(
                &mut self,
                state: &$state,
            ) -> Result<
                <$state as $crate::core::protocol::GameState>::Action,
                $crate::core::player::NoAction,
            > {
                let mut actions = std::mem::take(&mut self.actions);
                let choice =
                    match $crate::core::player::choice_to_make(state, &mut actions, &mut self.dice)
                    {
                        Ok(seat) => self.decide(state, seat, &actions),
                        Err(answer) => answer,
                    };
                self.actions = actions;
                Ok(choice)
            }
        }
    };
}

/// Whether `text` is a time budget: digits then `ms` or `s`.
fn is_time(text: &str) -> bool {
    let digits = text
        .strip_suffix("ms")
        .or_else(|| text.strip_suffix('s'))
        .unwrap_or("");
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Which bot plays a seat, as written on the command line: `random`,
/// `greedy`, `greedy-v1`, `mcts`, `mcts:ITERATIONS`, `mcts:TIMEms` or `cmd:PROGRAM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// Any legal action, from the engine's fast sampler.
    Random,
    /// One decision ahead with the static evaluation.
    Greedy,
    /// The first greedy bot, kept for comparison: the same idea, pricing
    /// every candidate on a copy of the position (a game without a faster
    /// greedy bot plays its greedy bot here).
    GreedyV1,
    /// `mcts` without a number: the game's own search at its default
    /// budget (a look-ahead on the evaluation in Branches & Twigs & Thorns
    /// and Roots Growy Roots); a game without one plays the generic
    /// search at [`DEFAULT_ITERATIONS`]. `mcts:200` is [`BotSpec::Mcts`],
    /// never this: a number always means Monte Carlo tree search.
    Search,
    /// Monte Carlo tree search with this many iterations per decision
    /// (`mcts:N`).
    Mcts { iterations: u32 },
    /// An external program speaking the player side of the engine protocol
    /// (`docs/protocol.md`), run by the shell; it forfeits a decision not
    /// answered within `timeout_ms`.
    Cmd {
        program: &'static str,
        timeout_ms: u32,
    },
    /// The first version of a game's own search, kept to measure the
    /// speed-up (Roots and Shoots: candidates priced on copies); a game
    /// without one plays its `mcts` here.
    MctsV1 { iterations: u32 },
    /// Monte Carlo tree search for this many milliseconds per decision (as
    /// many iterations as fit, at most [`BotSpec::MAX_ITERATIONS`]). Games
    /// then depend on the machine's speed: not reproducible by seed.
    MctsTime { millis: u32 },
}

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Iterations(u32),
    Millis(u32),
}

impl Budget {
    /// The bot's name for this budget: `mcts`, `mcts:2000`, `mcts:250ms`.
    pub fn name(self) -> String {
        match self {
            Budget::Iterations(n) if n == DEFAULT_ITERATIONS => "mcts".to_string(),
            Budget::Iterations(n) => format!("mcts:{n}"),
            Budget::Millis(ms) => format!("mcts:{ms}ms"),
        }
    }

    /// Run `step` as the budget allows (at least once).
    pub fn run(self, mut step: impl FnMut()) {
        match self {
            Budget::Iterations(n) => {
                for _ in 0..n.max(1) {
                    step();
                }
            }
            Budget::Millis(ms) => {
                let start = std::time::Instant::now();
                let limit = std::time::Duration::from_millis(u64::from(ms));
                for i in 0..BotSpec::MAX_ITERATIONS {
                    step();
                    if i % 8 == 7 && start.elapsed() >= limit {
                        break;
                    }
                }
            }
        }
    }
}

/// The time an external player has for each decision unless told otherwise.
pub const DEFAULT_CMD_TIMEOUT_MS: u32 = 10_000;

/// The program text of a `cmd:` spec, kept for the life of the process so
/// that [`BotSpec`] stays `Copy`: each distinct text is stored once.
fn intern(text: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static TEXTS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = TEXTS
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(t) = set.get(text) {
        return t;
    }
    let t: &'static str = Box::leak(text.to_owned().into_boxed_str());
    set.insert(t);
    t
}

impl BotSpec {
    /// Most MCTS iterations accepted per decision.
    pub const MAX_ITERATIONS: u32 = 1_000_000;

    /// Parse `random`, `greedy`, `mcts`, `mcts:ITERATIONS` or `cmd:PROGRAM`
    /// (the program as the shell runs it, its case kept).
    pub fn parse(s: &str) -> Result<BotSpec, String> {
        let trimmed = s.trim();
        // `get`, not indexing: the text may start with a character of
        // several bytes (found by fuzzing the engine protocol).
        if let Some(program) = trimmed
            .get(..4)
            .filter(|head| head.eq_ignore_ascii_case("cmd:"))
            .and_then(|_| trimmed.get(4..))
        {
            let program = program.trim();
            if program.is_empty() {
                return Err(
                    "`cmd:` needs a program: `cmd:python3 examples/python_bot.py`".to_string(),
                );
            }
            return Ok(BotSpec::Cmd {
                program: intern(program),
                timeout_ms: DEFAULT_CMD_TIMEOUT_MS,
            });
        }
        let text = s.trim().to_ascii_lowercase();
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (text.as_str(), None),
        };
        match (name, arg) {
            ("random", None) => Ok(BotSpec::Random),
            ("greedy", None) => Ok(BotSpec::Greedy),
            ("greedy-v1", None) => Ok(BotSpec::GreedyV1),
            ("mcts", None) => Ok(BotSpec::Search),
            ("mcts-v1", None) => Ok(BotSpec::MctsV1 {
                iterations: DEFAULT_ITERATIONS,
            }),
            ("mcts-v1", Some(n)) => match n.parse::<u32>() {
                Ok(i) if (1..=Self::MAX_ITERATIONS).contains(&i) => {
                    Ok(BotSpec::MctsV1 { iterations: i })
                }
                _ => Err(format!(
                    "`mcts-v1:{n}`: the iterations must be a whole number from 1 to {}",
                    Self::MAX_ITERATIONS
                )),
            },
            ("mcts", Some(n)) if is_time(n) => {
                let (digits, scale) = match n.strip_suffix("ms") {
                    Some(d) => (d, 1),
                    None => (&n[..n.len() - 1], 1000),
                };
                match digits.trim().parse::<u32>() {
                    Ok(v) if v >= 1 && u64::from(v) * scale <= 600_000 => Ok(BotSpec::MctsTime {
                        millis: v * scale as u32,
                    }),
                    _ => Err(format!(
                        "`mcts:{n}`: a time budget is a whole number of milliseconds or seconds, from 1ms to 600s (`mcts:250ms`, `mcts:2s`)"
                    )),
                }
            }
            ("mcts", Some(n)) => match n.parse::<u32>() {
                Ok(i) if (1..=Self::MAX_ITERATIONS).contains(&i) => {
                    Ok(BotSpec::Mcts { iterations: i })
                }
                _ => Err(format!(
                    "`mcts:{n}`: the iterations must be a whole number from 1 to {}",
                    Self::MAX_ITERATIONS
                )),
            },
            ("random" | "greedy" | "greedy-v1", Some(_)) => {
                Err(format!("`{text}`: only mcts takes a number (`mcts:2000`)"))
            }
            _ => {
                let word = s.trim();
                let head = word.split(':').next().unwrap_or_default();
                let guess =
                    super::did_you_mean(head, &["random", "greedy", "greedy-v1", "mcts", "human"])
                        .map(|c| format!(" (did you mean `{c}`?)"))
                        .unwrap_or_default();
                Err(format!(
                    "unknown bot `{word}`{guess}: expected random, greedy, greedy-v1, mcts, mcts:ITERATIONS, mcts:MILLISms or cmd:PROGRAM"
                ))
            }
        }
    }

    /// Whether this is a searching bot (stronger than random).
    pub fn is_strong(self) -> bool {
        !matches!(self, BotSpec::Random)
    }

    /// An external player's time for each decision; other bots unchanged.
    pub fn with_timeout(self, timeout_ms: u32) -> BotSpec {
        match self {
            BotSpec::Cmd { program, .. } => BotSpec::Cmd {
                program,
                timeout_ms,
            },
            other => other,
        }
    }

    /// Whether this seat is an external program.
    pub fn is_external(self) -> bool {
        matches!(self, BotSpec::Cmd { .. })
    }
}

impl std::fmt::Display for BotSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::GreedyV1 => f.write_str("greedy-v1"),
            BotSpec::Search => f.write_str("mcts"),
            BotSpec::Mcts { iterations } => write!(f, "mcts:{iterations}"),
            BotSpec::Cmd { program, .. } => write!(f, "cmd:{program}"),
            BotSpec::MctsTime { millis } => write!(f, "mcts:{millis}ms"),
            BotSpec::MctsV1 { iterations } if *iterations == DEFAULT_ITERATIONS => {
                f.write_str("mcts-v1")
            }
            BotSpec::MctsV1 { iterations } => write!(f, "mcts-v1:{iterations}"),
        }
    }
}

/// How a playout below the generic search tree ends and is scored (a
/// game's choice: `Game::playout`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playout {
    /// Random decisions to the end of the game (at most the search's
    /// playout steps, then the seat the evaluation ranks first wins).
    ToTheEnd,
    /// At most `decisions` random decisions (rolls and draws do not count),
    /// then each seat of a game not yet over scores
    /// `1 / (1 + exp(-evaluate / scale))`: `scale` is the evaluation
    /// difference worth odds of e to 1. With `at_draw`, the playout also
    /// stops at a card about to be drawn, unsampled, and the evaluation
    /// there is the game's to give (Roots Growy Roots: the exact expectation
    /// over the cards the seat to move may still draw, no face-down card
    /// peeked at); without it the card is drawn at random and play goes on.
    Cut {
        decisions: u32,
        scale: f64,
        at_draw: bool,
    },
}

/// How the generic search grows its tree (a game's choice with its
/// playouts, through [`Style::growth`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// Expand a node's actions best first by the one-step evaluation
    /// (greedy's order) instead of in random order.
    pub guided: bool,
    /// Progressive widening: a node visited `n` times has at most
    /// `ceil(widening * sqrt(n + 1))` children (0: no limit).
    pub widening: f64,
    /// A new child starts with this many virtual visits of the one-step
    /// value of its action (greedy's, [`Game::action_values`] through the
    /// logistic of the playouts' scale) in its mean, so one lucky or
    /// unlucky playout does not rank it; the real visits alone choose the
    /// move played. 0: none (guided growth only).
    ///
    /// [`Game::action_values`]: crate::games::Game::action_values
    pub prior: f64,
    /// The exploration constant of UCB1 (rewards are in 0..1): higher
    /// tries more moves, lower follows the best mean sooner.
    pub exploration: f64,
}

impl Growth {
    /// Random expansion order, no widening: the search as first written.
    pub const PLAIN: Growth = Growth {
        guided: false,
        widening: 0.0,
        prior: 0.0,
        exploration: 0.7,
    };
}

/// How a game tunes the generic bots (a game's choice: `Game::style`),
/// each setting chosen by the game's ladders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// `greedy` counts actions valued within this of the best as equally
    /// good and lets its dice choose; 0: exact ties only.
    pub margin: f64,
    /// `greedy` plans the rest of its turn with a beam of this many partial
    /// turns; 0: one decision ahead.
    pub turn_beam: usize,
    /// How `mcts` grows its tree.
    pub growth: Growth,
}

impl Style {
    /// The bots as first written: exact ties, one decision, random
    /// expansion. `greedy-v1` and `mcts-v1` play this way in every game.
    pub const PLAIN: Style = Style {
        margin: 0.0,
        turn_beam: 0,
        growth: Growth::PLAIN,
    };

    /// Greedy as first written (exact ties, one decision) and a search
    /// that expands a node's actions best first ([`Growth::guided`]),
    /// with this widening, prior and exploration.
    pub const fn guided(widening: f64, prior: f64, exploration: f64) -> Style {
        Style {
            growth: Growth {
                guided: true,
                widening,
                prior,
                exploration,
            },
            ..Style::PLAIN
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{BotSpec, Ties};
    use crate::core::dice::SeededDice;

    /// Ties keep the best offers, equal within `EPSILON`, in the order
    /// offered; a better offer drops them; none is picked before an offer.
    #[test]
    fn ties_keep_the_equal_best() {
        let mut dice = SeededDice::new(1, 0);
        let mut t = Ties::default();
        assert_eq!(t.pick(&mut dice), None::<u8>);
        t.offer(1.0, 1u8);
        t.offer(0.5, 2);
        t.offer(1.0 + 1e-12, 3);
        assert_eq!(t.list, [1, 3]);
        t.offer(2.0, 4);
        assert_eq!((t.best(), t.list.as_slice()), (2.0, [4u8].as_slice()));
        assert_eq!(t.pick(&mut dice), Some(4));
        t.clear();
        assert_eq!(t.best(), f64::NEG_INFINITY);
        assert_eq!(t.pick(&mut dice), None);
    }

    /// A name starting with a character of several bytes is refused in
    /// words (the first bytes are not a `cmd:` prefix), never a panic.
    #[test]
    fn a_bot_name_with_a_multibyte_start_is_refused() {
        for text in ["\u{fffd}greedy", "é:x", "cmd\u{e9}", "\u{1F600}"] {
            assert!(BotSpec::parse(text).is_err(), "{text}");
        }
        assert!(matches!(
            BotSpec::parse("CMD:prog"),
            Ok(BotSpec::Cmd { .. })
        ));
    }
}
