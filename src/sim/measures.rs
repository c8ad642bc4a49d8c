//! What a designer asks of a playtest beyond who won: the evaluation
//! measures of Ludii's playtesting (Browne's measures of game quality), for
//! every game, each with a 95% interval, and which rules ever fired.
//!
//! Everything comes out of the one pass that plays the games: at each
//! decision the simulator notes how many legal moves there were, and after
//! it, the game's evaluation of the position turned into each seat's chance
//! of winning ([`Trace`]). At the end of a game the trace is reduced to one
//! value per measure ([`GameMeasures`]); a run keeps exact integer moments
//! of those values ([`MeasureTotals`]), so the totals are the same whatever
//! the threads or shards, and its report ([`Design`]) gives each measure
//! with its interval. `docs/statistics.md` defines every measure.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use super::rate::Rate;
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::{ActionOf, Game, RuleEvent};
use crate::sim::stats::{Z95, wilson};
use crate::sim::verdict::{Margins, Statistic, Unit, rate_variance, thousands};

/// How much a simulation measures beyond the outcome. The depths are
/// ordered: each measures what the one before it does, and more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Depth {
    /// Outcomes, length, board coverage and rule events only: nothing
    /// looked at per decision but who decides (no legal count, no
    /// evaluation), for runs whose design measures nobody reads, or many
    /// random-play games (where the evaluation after each decision costs
    /// many times the game itself).
    Outcomes,
    /// Length, choice, tension and rule events: one count of the legal
    /// moves and one evaluation per seat after each decision.
    #[default]
    Standard,
    /// Also clarity (every legal move of every decision evaluated: about
    /// the work of a greedy bot's decisions again) and repeated positions
    /// for games without a cheap position key (the position drawn as text
    /// after each decision).
    Full,
}

impl Depth {
    /// Its name as `--measures` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Depth::Outcomes => "outcomes",
            Depth::Standard => "standard",
            Depth::Full => "full",
        }
    }
}

/// A per-game measure: its key (JSON, `--measure`), its name in words, its
/// group in the report and its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Def {
    pub key: &'static str,
    pub label: &'static str,
    pub group: &'static str,
    /// A share (shown in percent) or a count.
    pub share: bool,
    /// The least depth that measures it.
    pub depth: Depth,
}

const fn def(key: &'static str, label: &'static str, group: &'static str, share: bool) -> Def {
    Def {
        key,
        label,
        group,
        share,
        depth: Depth::Standard,
    }
}

/// The per-game measures, in report order. Their indexes are the `M_*`
/// constants.
pub const PER_GAME: &[Def] = &[
    Def {
        depth: Depth::Outcomes,
        ..def("duration_turns", "seat runs", "duration", false)
    },
    Def {
        depth: Depth::Outcomes,
        ..def("duration_decisions", "decisions", "duration", false)
    },
    def("decision_moves", "decisions with a choice", "choice", true),
    def("branching", "legal moves per decision", "choice", false),
    def("forced_moves", "forced moves per game", "choice", false),
    def(
        "favourite_changes",
        "favourite changes per decision",
        "tension",
        true,
    ),
    def("stability", "stability", "tension", true),
    def("chance_entropy", "entropy of chances", "tension", true),
    def("winner_behind", "winner behind", "tension", true),
    def("settled_at", "settled at", "tension", true),
    def("repetition", "repeated positions", "repetition", true),
    Def {
        depth: Depth::Outcomes,
        ..def("coverage", "board used", "coverage", true)
    },
    Def {
        depth: Depth::Full,
        ..def(
            "clarity_narrowness",
            "clarity: moves near best",
            "tension",
            true,
        )
    },
    Def {
        depth: Depth::Full,
        ..def(
            "clarity_variance",
            "clarity: spread of moves",
            "tension",
            false,
        )
    },
];

pub const M_TURNS: usize = 0;
pub const M_DECISIONS: usize = 1;
pub const M_DECISION_MOVES: usize = 2;
pub const M_BRANCHING: usize = 3;
pub const M_FORCED: usize = 4;
pub const M_LEAD_CHANGE: usize = 5;
pub const M_STABILITY: usize = 6;
pub const M_UNCERTAINTY: usize = 7;
pub const M_DRAMA: usize = 8;
pub const M_DECISIVENESS: usize = 9;
pub const M_REPETITION: usize = 10;
pub const M_COVERAGE: usize = 11;
pub const M_CLARITY_NARROWNESS: usize = 12;
pub const M_CLARITY_VARIANCE: usize = 13;

/// Each seat's chance of winning from the game's evaluation of the
/// position for each seat (its lead over its best opponent):
/// `p_s = exp(v_s / 2 scale) / sum_j exp(v_j / 2 scale)`. For two seats,
/// `v_1 = -v_2 = lead`, this is `1 / (1 + exp(-lead / scale))`, the curve
/// the generic search's cut playouts use.
pub fn win_chances(values: &[f64], scale: f64, out: &mut Vec<f64>) {
    out.clear();
    let scale = if scale > 0.0 { scale } else { 1.0 };
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    out.extend(values.iter().map(|v| ((v - top) / (2.0 * scale)).exp()));
    let sum: f64 = out.iter().sum();
    for p in out.iter_mut() {
        *p = if sum > 0.0 && sum.is_finite() {
            *p / sum
        } else {
            1.0 / values.len() as f64
        };
    }
}

/// What the simulator notes about one game as it plays, for the measures.
///
/// Cheap by design: at each decision a count of the legal moves (into a
/// list kept for the whole game) and, after it, one evaluation of every
/// seat ([`Game::evaluate_all`]) folded into running sums ([`Tension`]);
/// nothing is allocated per decision once the game's buffers have grown.
pub struct Trace<G: Game> {
    depth: Depth,
    seats: usize,
    scale: f64,
    decisions: u32,
    turns: u32,
    last: Option<Seat>,
    with_choice: u32,
    legal_total: u64,
    tension: Tension,
    /// The position key after each decision (sorted at the end to count
    /// repeats).
    keys: Vec<u64>,
    narrowness: f64,
    spread: f64,
    judged: u32,
    legal: Vec<ActionOf<G>>,
    values: Vec<f64>,
    row: Vec<f64>,
    after: Vec<f64>,
    /// Every row of chances, kept when recording ([`Trace::recording`]).
    chances: Option<Vec<f64>>,
}

impl<G: Game> Trace<G> {
    /// Keep every row of win chances too, for [`GameMeasures::chances`]
    /// (`simulate --trace-measures`): a row per decision, so only for a
    /// game replayed to show them.
    pub fn recording(mut self) -> Trace<G> {
        self.chances = Some(Vec::new());
        self
    }

    pub fn new(seats: u8, depth: Depth) -> Trace<G> {
        let k = usize::from(seats);
        // Outcomes only: no row of chances is ever made, so no buffer for
        // one (nothing allocated per game).
        let rows = if depth == Depth::Outcomes { 0 } else { k };
        Trace {
            depth,
            seats: k,
            scale: G::eval_scale(),
            decisions: 0,
            turns: 0,
            last: None,
            with_choice: 0,
            legal_total: 0,
            tension: Tension::new(rows),
            keys: Vec::new(),
            narrowness: 0.0,
            spread: 0.0,
            judged: 0,
            legal: Vec::new(),
            values: Vec::with_capacity(rows),
            row: Vec::with_capacity(rows),
            after: Vec::new(),
            chances: None,
        }
    }

    /// Seat `seat` is about to decide at `state`.
    ///
    /// Inlined where the games are played, so that a run measuring only
    /// outcomes pays a test and a count per decision, however the compiler
    /// splits the crate into units (the per-decision measures are a call).
    #[inline]
    pub fn before(&mut self, state: &G::State, seat: Seat) {
        if self.depth == Depth::Outcomes {
            self.note_turn(seat);
        } else {
            self.before_measured(state, seat);
        }
    }

    /// [`Trace::before`] at `Standard` and `Full`.
    fn before_measured(&mut self, state: &G::State, seat: Seat) {
        // Clarity reads the moves themselves; the count alone may come
        // from the game without listing them.
        let n = match G::legal_count(state) {
            Some(n) if self.depth != Depth::Full => n,
            _ => {
                self.legal.clear();
                state.legal_actions(&mut self.legal);
                self.legal.len()
            }
        };
        self.note(seat, n);
        if n > 1 && self.depth == Depth::Full {
            self.clarity(state, seat);
        }
    }

    /// A decision of `seat` among `legal` moves.
    fn note(&mut self, seat: Seat, legal: usize) {
        self.note_turn(seat);
        self.legal_total += legal as u64;
        if legal > 1 {
            self.with_choice += 1;
        }
    }

    /// A decision of `seat`, counted for the duration measures (all a run
    /// of outcomes only notes of a decision).
    #[inline(always)]
    pub fn note_turn(&mut self, seat: Seat) {
        self.decisions += 1;
        if self.last != Some(seat) {
            self.turns += 1;
            self.last = Some(seat);
        }
    }

    /// The duration and choice measures, into `m` (the choice measures
    /// only where the legal moves were counted).
    fn choice(&self, m: &mut [Option<f64>]) {
        m[M_TURNS] = Some(f64::from(self.turns));
        m[M_DECISIONS] = Some(f64::from(self.decisions));
        if self.depth == Depth::Outcomes {
            return;
        }
        if self.decisions > 0 {
            let d = f64::from(self.decisions);
            m[M_DECISION_MOVES] = Some(f64::from(self.with_choice) / d);
            m[M_BRANCHING] = Some(self.legal_total as f64 / d);
        }
        m[M_FORCED] = Some(f64::from(self.decisions - self.with_choice));
    }

    /// Clarity at one decision: the mover's chance of winning after each
    /// legal move; the share of moves above `mean + 0.75 (best - mean)`
    /// and the variance of the chances.
    fn clarity(&mut self, state: &G::State, seat: Seat) {
        let legal = std::mem::take(&mut self.legal);
        let mut after = std::mem::take(&mut self.after);
        after.clear();
        for &a in &legal {
            let mut child = state.clone();
            child.play_unchecked(a);
            self.row_of(&child);
            after.push(self.row[usize::from(seat)]);
        }
        self.legal = legal;
        let n = after.len() as f64;
        let mean = after.iter().sum::<f64>() / n;
        let best = after.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let bar = mean + 0.75 * (best - mean);
        let near = after.iter().filter(|&&v| v >= bar).count() as f64;
        self.narrowness += near / n;
        self.spread += after.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        self.judged += 1;
        self.after = after;
    }

    /// Every seat's chance of winning at `state`, into `self.row`: one
    /// evaluation of every seat.
    fn row_of(&mut self, state: &G::State) {
        G::evaluate_all(state, self.seats, &mut self.values);
        win_chances(&self.values, self.scale, &mut self.row);
    }

    /// The decision was played: `state` is the position after it. Inlined
    /// as [`Trace::before`] is: nothing to do when only outcomes are
    /// measured.
    #[inline]
    pub fn after(&mut self, state: &G::State) {
        if self.depth != Depth::Outcomes {
            self.after_measured(state);
        }
    }

    /// [`Trace::after`] at `Standard` and `Full`.
    fn after_measured(&mut self, state: &G::State) {
        if state.next() != Next::Over {
            self.row_of(state);
            self.tension.push(&self.row);
            if let Some(c) = &mut self.chances {
                c.extend_from_slice(&self.row);
            }
        }
        let key = G::position_key(state).or_else(|| {
            (self.depth == Depth::Full).then(|| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                G::draw(state).hash(&mut h);
                h.finish()
            })
        });
        if let Some(k) = key {
            self.keys.push(k);
        }
    }

    /// The game is over at `state` with the seats `top` sharing the top.
    pub fn finish(mut self, state: &G::State, top: &[Seat]) -> GameMeasures {
        let mut m = vec![None; PER_GAME.len()];
        if self.decisions > 0 && self.depth >= Depth::Standard {
            // The last row is the outcome itself: the winners share the game.
            self.tension.outcome(top);
            self.tension.measures(top, &mut m);
        }
        self.choice(&mut m);
        if !self.keys.is_empty() {
            let n = self.keys.len();
            self.keys.sort_unstable();
            let repeats = self.keys.windows(2).filter(|w| w[0] == w[1]).count();
            m[M_REPETITION] = Some(repeats as f64 / n as f64);
        }
        m[M_COVERAGE] = G::board_use(state)
            .filter(|&(_, cells)| cells > 0)
            .map(|(used, cells)| f64::from(used) / f64::from(cells));
        if self.judged > 0 {
            let j = f64::from(self.judged);
            m[M_CLARITY_NARROWNESS] = Some(self.narrowness / j);
            m[M_CLARITY_VARIANCE] = Some(self.spread / j);
        }
        // The outcome row closes the recorded rows, as it closes the
        // tension measures' (the seats on top share the game).
        let chances = self.chances.take().map(|mut c| {
            if self.depth >= Depth::Standard && self.decisions > 0 {
                let share = 1.0 / top.len().max(1) as f64;
                c.extend((0..self.seats).map(|s| {
                    if top.iter().any(|&t| usize::from(t) == s) {
                        share
                    } else {
                        0.0
                    }
                }));
            }
            c
        });
        GameMeasures {
            values: m,
            events: G::rule_events(state),
            scripts: G::script_fired(state),
            chances,
        }
    }
}

/// The tension measures of one game, folded in as the rows of win chances
/// come (a row after each decision, then the outcome): a few sums per seat,
/// nothing kept per decision.
#[derive(Clone, Debug)]
pub struct Tension {
    k: usize,
    /// Rows so far, the outcome's included once it came.
    rows: u32,
    /// Rows before the outcome.
    live: u32,
    /// The sole leader of the last row (`None`: shared), if a row came.
    last: Option<Option<usize>>,
    changes: u32,
    /// Per seat: sum and sum of squares of its chance over the rows.
    sum: Vec<f64>,
    squares: Vec<f64>,
    /// Sum over the live rows of their normalised entropy.
    entropy: f64,
    /// Per seat: live rows it led alone.
    led: Vec<u32>,
    /// Per seat: the last row it did not lead alone, if any.
    not_led: Vec<Option<u32>>,
    /// The outcome row, built in place.
    end: Vec<f64>,
}

impl Tension {
    pub fn new(k: usize) -> Tension {
        Tension {
            k,
            rows: 0,
            live: 0,
            last: None,
            changes: 0,
            sum: vec![0.0; k],
            squares: vec![0.0; k],
            entropy: 0.0,
            led: vec![0; k],
            not_led: vec![None; k],
            end: Vec::new(),
        }
    }

    /// The seat with the highest chance alone (`None` when shared).
    fn leader(r: &[f64]) -> Option<usize> {
        let best = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut at = r.iter().enumerate().filter(|(_, v)| **v >= best - 1e-12);
        let first = at.next().map(|(i, _)| i);
        // A shared lead is nobody's.
        if at.next().is_some() { None } else { first }
    }

    /// Any row: leads, changes, sums. Returns the row's leader.
    fn fold(&mut self, r: &[f64]) -> Option<usize> {
        let leader = Self::leader(r);
        if let Some(prev) = self.last
            && prev.is_some()
            && leader.is_some()
            && prev != leader
        {
            self.changes += 1;
        }
        self.last = Some(leader);
        for (s, &p) in r.iter().enumerate().take(self.k) {
            self.sum[s] += p;
            self.squares[s] += p * p;
            if leader != Some(s) {
                self.not_led[s] = Some(self.rows);
            }
        }
        self.rows += 1;
        leader
    }

    /// The chances after a decision, the game not over.
    pub fn push(&mut self, r: &[f64]) {
        let leader = self.fold(r);
        self.live += 1;
        if let Some(s) = leader {
            self.led[s] += 1;
        }
        if self.k > 1 {
            let h: f64 = r.iter().filter(|p| **p > 0.0).map(|p| p * p.ln()).sum();
            self.entropy += -h / (self.k as f64).ln();
        }
    }

    /// The outcome: the seats `top` share the game.
    pub fn outcome(&mut self, top: &[Seat]) {
        let mut end = std::mem::take(&mut self.end);
        end.clear();
        end.resize(self.k, 0.0);
        let share = 1.0 / top.len().max(1) as f64;
        for &s in top {
            if let Some(e) = end.get_mut(usize::from(s)) {
                *e = share;
            }
        }
        self.fold(&end);
        self.end = end;
    }

    /// The tension measures into `m`, `top` the seats that shared the top.
    /// Left `None` where undefined (no row; drama and decisiveness on a
    /// tie; uncertainty and drama without a row before the outcome).
    pub fn measures(&self, top: &[Seat], m: &mut [Option<f64>]) {
        let (k, t) = (self.k, self.rows);
        if k == 0 || t == 0 {
            return;
        }
        let tf = f64::from(t);
        if t >= 2 {
            m[M_LEAD_CHANGE] = Some(f64::from(self.changes) / (tf - 1.0));
        }
        // Stability: 1 - 4 x the mean over seats of the variance of the
        // seat's chance over the game (a chance varies by at most 1/4).
        let var: f64 = (0..k)
            .map(|s| {
                let mean = self.sum[s] / tf;
                (self.squares[s] / tf - mean * mean).max(0.0)
            })
            .sum();
        m[M_STABILITY] = Some((1.0 - 4.0 * var / k as f64).clamp(0.0, 1.0));
        // Uncertainty: the mean normalised entropy of the chances, the
        // outcome row left out (it is certain by definition).
        let live = self.live.min(t - 1);
        if k > 1 && live > 0 {
            m[M_UNCERTAINTY] = Some(self.entropy / f64::from(live));
        }
        if let [winner] = top {
            let w = usize::from(*winner);
            if live > 0 {
                m[M_DRAMA] = Some(f64::from(live - self.led[w]) / f64::from(live));
            }
            // The first row from which the winner leads to the end.
            let from = self.not_led[w].map_or(0, |i| i + 1);
            m[M_DECISIVENESS] = Some(f64::from(from) / tf);
        }
    }
}

/// The tension measures of one game from its rows of win chances (`k` a
/// row, one row after each decision, the last the outcome) and the seats
/// that shared the top: [`Tension`] over the rows. `None` where a measure
/// is undefined (no decision; drama and decisiveness on a tie).
pub fn tension(chances: &[f64], k: usize, top: &[Seat]) -> Vec<Option<f64>> {
    let mut m = vec![None; PER_GAME.len()];
    if k == 0 || chances.len() < k {
        return m;
    }
    let rows: Vec<&[f64]> = chances.chunks_exact(k).collect();
    let mut t = Tension::new(k);
    let (last, live) = rows.split_last().expect("a row");
    for r in live {
        t.push(r);
    }
    t.fold(last);
    t.measures(top, &mut m);
    m
}

/// One game's measures: a value per [`PER_GAME`] measure (`None` where
/// undefined) and the count of each rule event of the game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameMeasures {
    pub values: Vec<Option<f64>>,
    pub events: Vec<u32>,
    /// Per house rule written as a script ([`Game::script_fired`]): how
    /// many of its runs changed the game; empty without scripts.
    pub scripts: Vec<u32>,
    /// Each seat's chance of winning after every decision, row after row
    /// (the last row the outcome), when recorded ([`Trace::recording`]).
    pub chances: Option<Vec<f64>>,
}

/// Values are kept in millionths, as integers: sums are then exact, and a
/// run's totals the same whatever order games or shards are merged in.
const UNIT: f64 = 1e6;

/// Exact moments of a measure's per-game values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub n: u64,
    /// Sum of the values, in millionths.
    pub sum: u128,
    /// Sum of the squared values, in millionths squared.
    pub squares: u128,
}

impl Moments {
    pub fn add(&mut self, v: f64) {
        self.add_times(v, 1);
    }

    /// Add the value `v` of `times` games.
    pub fn add_times(&mut self, v: f64, times: u64) {
        let q = (v.max(0.0) * UNIT).round() as u128;
        self.n += times;
        self.sum += q * u128::from(times);
        self.squares += q * q * u128::from(times);
    }

    fn merge(&mut self, o: &Moments) {
        self.n += o.n;
        self.sum += o.sum;
        self.squares += o.squares;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.sum as f64 / UNIT / self.n as f64
    }

    /// The sample standard deviation (n - 1).
    pub fn sd(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.sum as f64 / n;
        let var = (self.squares as f64 - n * mean * mean) / (n - 1.0);
        var.max(0.0).sqrt() / UNIT
    }
}

/// A run's totals of the measures: moments per measure, rule events, and
/// how often each set of seats shared the top (the outcomes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasureTotals {
    pub moments: Vec<Moments>,
    /// Per rule event: (times fired, games where it fired).
    pub events: Vec<(u64, u64)>,
    /// Games by the set of seats sharing the top score (bit `s`: seat `s`).
    pub outcomes: BTreeMap<u32, u64>,
    /// Per house rule written as a script, in the rules' order: (runs that
    /// changed the game, games where one did). Empty without scripts, and
    /// in files of versions before it (their reports then give only the
    /// rule event `script`, all the house rules together).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<(u64, u64)>,
}

impl MeasureTotals {
    pub fn new(events: usize) -> MeasureTotals {
        MeasureTotals {
            moments: vec![Moments::default(); PER_GAME.len()],
            events: vec![(0, 0); events],
            outcomes: BTreeMap::new(),
            scripts: Vec::new(),
        }
    }

    pub fn add(&mut self, m: &GameMeasures, top: &[Seat]) {
        for (acc, v) in self.moments.iter_mut().zip(&m.values) {
            if let Some(v) = v {
                acc.add(*v);
            }
        }
        count_fired(&mut self.events, &m.events);
        count_fired(&mut self.scripts, &m.scripts);
        let mask = top.iter().fold(0u32, |m, &s| m | (1 << s));
        *self.outcomes.entry(mask).or_default() += 1;
    }

    /// Check that these totals are those of `games` real games with these
    /// sole wins per seat and `ties`: every game counted once by its set
    /// of top seats, a set of one seat being that seat's sole win (so
    /// seat wins edited, even to the same sum, do not pass); no measure
    /// or rule event counted in more games than there are.
    pub fn check(&self, games: u64, seat_wins: &[u64], ties: u64) -> Result<(), String> {
        let seats = seat_wins.len();
        let mut total = 0u64;
        let mut shared = 0u64;
        let mut sole = vec![0u64; seats];
        for (&mask, &n) in &self.outcomes {
            if mask == 0 || (seats < 32 && mask >> seats != 0) {
                return Err(format!(
                    "the games by top seats name a set of seats ({mask:#b}) that is not of {seats} seats"
                ));
            }
            total = total
                .checked_add(n)
                .ok_or_else(|| "a sum is larger than 2^64".to_string())?;
            if mask.count_ones() == 1 {
                sole[mask.trailing_zeros() as usize] = n;
            } else {
                shared += n;
            }
        }
        if total != games {
            return Err(format!(
                "expected the games by top seats to count the {games} games, found {total}"
            ));
        }
        if let Some(s) = (0..seats).find(|&s| sole[s] != seat_wins[s]) {
            return Err(format!(
                "seat {} has {} wins, but {} games with it alone on top",
                s + 1,
                seat_wins[s],
                sole[s]
            ));
        }
        if shared != ties {
            return Err(format!(
                "expected {ties} ties to be the games with several seats on top, found {shared}"
            ));
        }
        if let Some(m) = self.moments.iter().position(|m| m.n > games) {
            return Err(format!(
                "a measure ({}) counts {} games of {games}",
                PER_GAME.get(m).map_or("?", |s| s.key),
                self.moments[m].n
            ));
        }
        if let Some((e, fired, n)) = overcounted(&self.events, games) {
            return Err(format!(
                "rule event {e} fired {fired} times in {n} games of {games}"
            ));
        }
        if let Some((e, fired, n)) = overcounted(&self.scripts, games) {
            return Err(format!(
                "house rule {e} changed the game {fired} times in {n} games of {games}"
            ));
        }
        Ok(())
    }

    /// Whether [`MeasureTotals::merge`] of `o` fits (forged parts may hold
    /// sums near the largest integers).
    pub fn can_merge(&self, o: &MeasureTotals) -> bool {
        self.moments.iter().zip(&o.moments).all(|(a, b)| {
            a.n.checked_add(b.n).is_some()
                && a.sum.checked_add(b.sum).is_some()
                && a.squares.checked_add(b.squares).is_some()
        }) && fired_fits(&self.events, &o.events)
            && fired_fits(&self.scripts, &o.scripts)
            && o.outcomes.iter().all(|(k, n)| {
                self.outcomes
                    .get(k)
                    .is_none_or(|m| m.checked_add(*n).is_some())
            })
    }

    pub fn merge(&mut self, o: &MeasureTotals) {
        for (a, b) in self.moments.iter_mut().zip(&o.moments) {
            a.merge(b);
        }
        merge_fired(&mut self.events, &o.events);
        merge_fired(&mut self.scripts, &o.scripts);
        for (k, v) in &o.outcomes {
            *self.outcomes.entry(*k).or_default() += v;
        }
    }
}

/// Add one game's counts (of rule events, or of house rules) to the totals
/// `acc` of (times fired, games where it fired), `acc` grown to them.
fn count_fired(acc: &mut Vec<(u64, u64)>, counts: &[u32]) {
    if acc.len() < counts.len() {
        acc.resize(counts.len(), (0, 0));
    }
    for (a, &c) in acc.iter_mut().zip(counts) {
        a.0 += u64::from(c);
        a.1 += u64::from(c > 0);
    }
}

/// Add the totals `o` to `acc` ([`count_fired`]'s totals).
fn merge_fired(acc: &mut Vec<(u64, u64)>, o: &[(u64, u64)]) {
    if acc.len() < o.len() {
        acc.resize(o.len(), (0, 0));
    }
    for (a, b) in acc.iter_mut().zip(o) {
        a.0 += b.0;
        a.1 += b.1;
    }
}

/// Whether [`merge_fired`] of `o` into `acc` overflows nothing.
fn fired_fits(acc: &[(u64, u64)], o: &[(u64, u64)]) -> bool {
    acc.iter()
        .zip(o)
        .all(|(a, b)| a.0.checked_add(b.0).is_some() && a.1.checked_add(b.1).is_some())
}

/// The first of totals `v` (numbered from 1) counted in more games than
/// `games`, or than the times it fired: (its number, fired, games).
fn overcounted(v: &[(u64, u64)], games: u64) -> Option<(usize, u64, u64)> {
    v.iter()
        .position(|&(fired, n)| n > games || n > fired)
        .map(|e| (e + 1, v[e].0, v[e].1))
}

/// How an interval was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Mean ± 1.96 standard errors.
    Mean,
    /// Wilson's interval of a proportion.
    Wilson,
    /// The 2.5% and 97.5% points of 1,000 bootstrap resamples of the games,
    /// drawn from the run's seed.
    Bootstrap,
    /// Every game went the same way, so every resample is that one game
    /// again and a bootstrap has no width: the bound of a game unlike all
    /// of them, Wilson's 95% upper bound `u` on 0 of n games, moves each
    /// seat's mean result by at most `u` and its variance by at most `u`.
    OneWay,
}

/// One measure of a run with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub key: String,
    pub label: String,
    pub group: &'static str,
    /// A share (0 to 1, shown in percent) or a count.
    pub share: bool,
    pub value: f64,
    pub low: f64,
    pub high: f64,
    /// The spread of single games, for per-game measures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sd: Option<f64>,
    /// The games the measure is defined on.
    pub n: u64,
    pub method: Method,
    /// What the games show, in words, where the interval alone would
    /// mislead (`all 10 games went to seat 1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Estimate {
    /// `53.1% (50.0–56.2%)` or `31.2 (30.9–31.5)`; a measure that took
    /// the same value in every game says so in words (`always 32`), not as
    /// an interval of no width (`32.00 (32.00–32.00)`).
    pub fn words(&self) -> String {
        if let Some(w) = self.constant_words() {
            return w;
        }
        let interval = self.interval_words();
        match &self.note {
            Some(note) => format!("{interval}: {note}"),
            None => interval,
        }
    }

    fn interval_words(&self) -> String {
        if self.share {
            format!(
                "{:.1}% ({:.1}–{:.1}%)",
                100.0 * self.value,
                100.0 * self.low,
                100.0 * self.high
            )
        } else {
            let k = if self.value.abs() >= 100.0 { 0 } else { 2 };
            format!("{:.k$} ({:.k$}–{:.k$})", self.value, self.low, self.high)
        }
    }

    /// Whether every game gave the same value: a per-game measure whose
    /// games do not vary (its spread 0), or the spread of such a measure.
    pub fn constant(&self) -> bool {
        self.n > 0
            && self.method == Method::Mean
            && match self.sd {
                Some(sd) => sd == 0.0,
                // A spread (`duration_turns_sd`): 0 when the games do not vary.
                None => self.value == 0.0 && self.high == 0.0,
            }
    }

    /// The value alone: `32`, `2.50`, `100.0%`.
    pub fn value_words(&self) -> String {
        if self.share {
            format!("{:.1}%", 100.0 * self.value)
        } else if self.value.fract() == 0.0 {
            format!("{:.0}", self.value)
        } else {
            let k = if self.value.abs() >= 100.0 { 0 } else { 2 };
            format!("{:.k$}", self.value)
        }
    }

    /// `always 32` for a measure that every game gave alike; `none` for
    /// the spread of such a measure.
    fn constant_words(&self) -> Option<String> {
        if !self.constant() {
            return None;
        }
        Some(if self.sd.is_none() {
            "none: every game alike".to_owned()
        } else {
            format!("always {}", self.value_words())
        })
    }

    /// The standard error the interval implies (for tests between runs).
    pub fn se(&self) -> f64 {
        (self.high - self.low) / (2.0 * Z95)
    }

    fn mean(d: &Def, m: &Moments) -> Estimate {
        let (mean, sd) = (m.mean(), m.sd());
        let half = if m.n > 0 {
            Z95 * sd / (m.n as f64).sqrt()
        } else {
            0.0
        };
        let (lo, hi) = if d.share { (0.0, 1.0) } else { (0.0, f64::MAX) };
        Estimate {
            key: d.key.to_owned(),
            label: d.label.to_owned(),
            group: d.group,
            share: d.share,
            value: mean,
            low: (mean - half).clamp(lo, hi),
            high: (mean + half).clamp(lo, hi),
            sd: Some(sd),
            n: m.n,
            method: Method::Mean,
            note: None,
        }
    }
}

/// A rule event's line in a report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventLine {
    pub key: &'static str,
    pub label: &'static str,
    /// The variant keys that only matter when the event happens.
    pub keys: Vec<&'static str>,
    /// Times it fired per game.
    pub per_game: f64,
    /// Games where it fired at least once.
    pub games: Rate,
    /// Whether the variant's rules let it happen at all
    /// ([`crate::games::Game::rule_event_possible`]).
    #[serde(skip)]
    pub possible: bool,
}

/// The measures of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Design {
    pub depth: Depth,
    /// Outcomes, duration, choice, tension, repetition, coverage.
    pub measures: Vec<Estimate>,
    pub rule_events: Vec<EventLine>,
    /// Each house rule written as a script: how often its runs changed
    /// the game ([`Design::count_house_rules`]); empty without scripts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub house_rules: Vec<HouseRuleLine>,
}

/// How often one house rule written as a script changed the game: the
/// rule event `script` of that script alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HouseRuleLine {
    /// The script's name in the variant file.
    pub name: String,
    /// Its runs that changed the game, per game.
    pub per_game: f64,
    /// Games where one of its runs changed the game.
    pub games: Rate,
}

/// Resamples of a bootstrap.
const RESAMPLES: usize = 1000;

impl Design {
    /// The measures of a run among `players` seats, from its totals;
    /// `completed` games ended by the rules (not a safety limit); `seed`
    /// draws the bootstrap resamples.
    pub fn new(
        t: &MeasureTotals,
        events: &'static [RuleEvent],
        players: u8,
        completed: u64,
        depth: Depth,
        seed: u64,
    ) -> Design {
        let k = usize::from(players);
        let games: u64 = t.outcomes.values().sum();
        let ties: u64 = t
            .outcomes
            .iter()
            .filter(|(m, _)| m.count_ones() > 1)
            .map(|(_, n)| n)
            .sum();
        let mut measures = Vec::new();
        // Outcomes: a seat's result in a game is 1 for a sole win, 1/m for
        // a top shared by m seats, 0 otherwise.
        let outcomes: Vec<(Vec<f64>, u64)> = t
            .outcomes
            .iter()
            .map(|(&mask, &n)| {
                let m = mask.count_ones().max(1) as f64;
                let r = (0..k)
                    .map(|s| if mask & (1 << s) != 0 { 1.0 / m } else { 0.0 })
                    .collect();
                (r, n)
            })
            .collect();
        let total: u64 = outcomes.iter().map(|(_, n)| n).sum();
        let boot = bootstrap(&outcomes, total, seed, k);
        for s in 0..k {
            let mut mo = Moments::default();
            for (r, n) in &outcomes {
                mo.add_times(r[s], *n);
            }
            let d = Def {
                key: "",
                label: "",
                group: "outcomes",
                share: true,
                depth: Depth::Outcomes,
            };
            let mut e = Estimate::mean(&d, &mo);
            e.key = format!("advantage_{}", s + 1);
            e.label = format!("seat {} advantage", s + 1);
            // A share of games (a shared top counting its fraction): Wilson's
            // interval, which stays honest where every game went one way (a
            // t interval there has no width: 10 of 10 gave 100-100%).
            (e.low, e.high) = wilson(e.value * total as f64, total as f64);
            e.sd = None;
            e.method = Method::Wilson;
            measures.push(e);
        }
        let (bal, uni) = outcome_figures(&outcomes, k);
        // Every game went one way: the bootstrap has no width; bound a game
        // unlike them instead, and say what the games show.
        let one_way = match (t.outcomes.len(), t.outcomes.keys().next()) {
            (1, Some(&mask)) if total > 0 => Some(one_way_words(mask, total)),
            _ => None,
        };
        let u = wilson(0.0, total as f64).1;
        let (boot, method) = if one_way.is_some() {
            (
                (
                    ((bal - 2.0 * u).max(0.0), (bal + 2.0 * u).min(1.0)),
                    ((uni - u).max(0.0), uni.min(1.0)),
                ),
                Method::OneWay,
            )
        } else {
            (boot, Method::Bootstrap)
        };
        measures.push(Estimate {
            key: "balance".into(),
            label: "balance".into(),
            group: "outcomes",
            share: true,
            value: bal,
            low: boot.0.0,
            high: boot.0.1,
            sd: None,
            n: total,
            method,
            note: one_way.clone(),
        });
        let rate = |key: &str, label: &str, c: u64| {
            let (low, high) = wilson(c as f64, games as f64);
            Estimate {
                key: key.into(),
                label: label.into(),
                group: "outcomes",
                share: true,
                value: if games == 0 {
                    0.0
                } else {
                    c as f64 / games as f64
                },
                low,
                high,
                sd: None,
                n: games,
                method: Method::Wilson,
                note: None,
            }
        };
        measures.push(rate("drawishness", "drawishness", ties));
        measures.push(Estimate {
            key: "outcome_uniformity".into(),
            label: "outcome uniformity".into(),
            group: "outcomes",
            share: true,
            value: uni,
            low: boot.1.0,
            high: boot.1.1,
            sd: None,
            n: total,
            method,
            note: one_way,
        });
        measures.push(rate("completion", "completion", completed));
        for (d, m) in PER_GAME.iter().zip(&t.moments) {
            if m.n == 0 {
                // Not measured (at a shallower depth: clarity without
                // `--measures full`, choice and tension at `outcomes`; or
                // coverage or repetition a game does not give).
                continue;
            }
            measures.push(Estimate::mean(d, m));
            if d.group == "duration" {
                // The spread of single games, with a normal interval for a
                // standard deviation: sd ± 1.96 sd / sqrt(2 (n - 1)).
                let sd = m.sd();
                let half = if m.n > 1 {
                    Z95 * sd / (2.0 * (m.n as f64 - 1.0)).sqrt()
                } else {
                    0.0
                };
                measures.push(Estimate {
                    key: format!("{}_sd", d.key),
                    label: format!("{} spread (sd)", d.label),
                    group: "duration",
                    share: false,
                    value: sd,
                    low: (sd - half).max(0.0),
                    high: sd + half,
                    sd: None,
                    n: m.n,
                    method: Method::Mean,
                    note: None,
                });
            }
        }
        let rule_events = events
            .iter()
            .zip(&t.events)
            .map(|(e, &(fired, in_games))| EventLine {
                key: e.key,
                label: e.label,
                keys: e.keys.to_vec(),
                per_game: if games == 0 {
                    0.0
                } else {
                    fired as f64 / games as f64
                },
                games: Rate::new(in_games, games),
                possible: true,
            })
            .collect();
        Design {
            depth,
            measures,
            rule_events,
            house_rules: Vec::new(),
        }
    }

    /// Fill [`Design::house_rules`] from the totals `t` of `games` games of
    /// rules whose scripts are named `names` (in the rules' order). Totals
    /// without per-script counts (a part file of an older version) give
    /// none: the rule event `script` still counts them all together.
    pub fn count_house_rules(&mut self, t: &MeasureTotals, names: &[String], games: u64) {
        if t.scripts.len() != names.len() {
            self.house_rules.clear();
            return;
        }
        self.house_rules = names
            .iter()
            .zip(&t.scripts)
            .map(|(name, &(fired, in_games))| HouseRuleLine {
                name: name.clone(),
                per_game: if games == 0 {
                    0.0
                } else {
                    fired as f64 / games as f64
                },
                games: Rate::new(in_games, games),
            })
            .collect();
    }

    /// The measure `key`, if the run has it.
    pub fn get(&self, key: &str) -> Option<&Estimate> {
        self.measures.iter().find(|e| e.key == key)
    }

    /// The rule events that never fired.
    pub fn dead(&self) -> impl Iterator<Item = &EventLine> {
        self.rule_events
            .iter()
            .filter(|e| e.games.count == 0 && e.possible)
    }
}

/// Balance (1 - the gap between the best and worst seat's mean result) and
/// outcome uniformity (1 - the mean over seats of the variance of a seat's
/// result) of outcomes given as (each seat's result, games).
fn outcome_figures(outcomes: &[(Vec<f64>, u64)], k: usize) -> (f64, f64) {
    let n: u64 = outcomes.iter().map(|(_, c)| c).sum();
    if n == 0 || k == 0 {
        return (1.0, 1.0);
    }
    let nf = n as f64;
    let mut best = f64::NEG_INFINITY;
    let mut worst = f64::INFINITY;
    let mut var = 0.0;
    for s in 0..k {
        let mean = outcomes.iter().map(|(r, c)| r[s] * *c as f64).sum::<f64>() / nf;
        let sq = outcomes
            .iter()
            .map(|(r, c)| r[s] * r[s] * *c as f64)
            .sum::<f64>()
            / nf;
        best = best.max(mean);
        worst = worst.min(mean);
        var += (sq - mean * mean).max(0.0);
    }
    (1.0 - (best - worst), 1.0 - var / k as f64)
}

/// 95% percentile intervals of balance and outcome uniformity from
/// [`RESAMPLES`] resamples of the games (with replacement), drawn from
/// `seed`: the same run gives the same interval.
///
/// The figures depend on a resample only through how many of its games
/// fell in each outcome class, and those counts are multinomial: each
/// resample draws them as a chain of binomials (class `i` takes a
/// binomial share of the games the classes before it left, at its
/// weight among the classes from `i` on), which is the same resampling
/// in law as drawing `n` games one by one, at a cost that does not grow
/// with the games (it did: 1,000 draws per game, more than a random game
/// of Branches & Twigs & Thorns itself).
fn bootstrap(
    outcomes: &[(Vec<f64>, u64)],
    n: u64,
    seed: u64,
    k: usize,
) -> ((f64, f64), (f64, f64)) {
    use rand_distr::{Binomial, Distribution};
    if n == 0 || outcomes.is_empty() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    // A stream of its own, apart from every game's and seat's.
    let mut dice = crate::core::dice::SeededDice::new(seed, u64::MAX - 1);
    let rng = dice.rng_mut();
    // The weight of the classes from `i` on, for each `i`.
    let mut rest: Vec<u64> = outcomes.iter().map(|(_, c)| *c).collect();
    for i in (0..rest.len().saturating_sub(1)).rev() {
        rest[i] += rest[i + 1];
    }
    let mut bal = Vec::with_capacity(RESAMPLES);
    let mut uni = Vec::with_capacity(RESAMPLES);
    let mut resampled: Vec<(Vec<f64>, u64)> = outcomes.to_vec();
    for _ in 0..RESAMPLES {
        let mut left = n;
        let last = resampled.len() - 1;
        for (i, r) in resampled.iter_mut().enumerate() {
            let c = if i == last || left == 0 {
                left
            } else {
                let p = outcomes[i].1 as f64 / rest[i] as f64;
                // `p` is in 0..=1 by construction; a bad one takes none.
                Binomial::new(left, p.clamp(0.0, 1.0)).map_or(0, |b| b.sample(rng))
            };
            r.1 = c;
            left -= c;
        }
        let (b, u) = outcome_figures(&resampled, k);
        bal.push(b);
        uni.push(u);
    }
    (percentiles(&mut bal), percentiles(&mut uni))
}

/// What `games` games that all had the seats of `mask` (bit `s`: seat
/// `s`) sharing the top show: `all 10 games went to seat 1`.
fn one_way_words(mask: u32, games: u64) -> String {
    let seats: Vec<String> = (0..32)
        .filter(|s| mask & (1 << s) != 0)
        .map(|s| (s + 1).to_string())
        .collect();
    let all = if games == 1 {
        "the one game".to_owned()
    } else {
        format!("all {} games", thousands(games))
    };
    match seats.as_slice() {
        [one] => format!("{all} went to seat {one}"),
        [rest @ .., last] => format!("{all} were shared by seats {} and {last}", rest.join(", ")),
        [] => format!("{all} had no winner"),
    }
}

fn percentiles(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
    (at(0.025), at(0.975))
}

/// How far a change of the variant keys `changed` (`beads.supply`) can
/// reach, from the rule events it acts through: a line for each changed key
/// that governs events. When none of its events happened in either run of
/// `games` games, the change cannot matter under these bots; otherwise the
/// line gives in what share of each run's games each event happened (the
/// games with one of them, where the change can matter). A house rule
/// written as a script (`script.NAME`) gets a line of its own
/// ([`house_rule_fired`]); `scripts` names each side's scripts.
pub fn dead_changes(
    changed: &[String],
    a: &Design,
    b: &Design,
    games: u64,
    scripts: [&[String]; 2],
) -> Vec<String> {
    let mut out = Vec::new();
    for key in changed {
        if let Some(name) = key.strip_prefix("script.") {
            out.extend(house_rule_fired(name, [a, b], games, scripts));
            continue;
        }
        let governs = |e: &&EventLine| e.keys.iter().any(|k| key_under(key, k));
        let ea: Vec<&EventLine> = a.rule_events.iter().filter(governs).collect();
        let eb: Vec<&EventLine> = b.rule_events.iter().filter(governs).collect();
        // A house rule's events exist only in the variant that has it: the
        // events of either side, A's first.
        let mut all = ea.clone();
        all.extend(eb.iter().filter(|y| !ea.iter().any(|x| x.key == y.key)));
        if all.is_empty() {
            continue;
        }
        let names: Vec<String> = all
            .iter()
            .map(|e| format!("{} (`{}`)", e.label, e.key))
            .collect();
        let never = |v: &[&EventLine]| v.iter().all(|e| e.games.count == 0);
        if never(&ea) && never(&eb) {
            out.push(format!(
                "`{key}` acts only through {}, which never happened in {} games of either variant: this change cannot matter under these bots",
                names.join(", "),
                thousands(games)
            ));
            continue;
        }
        let counted = |v: &[&EventLine], key: &str| {
            v.iter()
                .find(|y| y.key == key)
                .map_or_else(|| "not counted".to_owned(), |y| happened_in(y))
        };
        let each: Vec<String> = all
            .iter()
            .map(|x| {
                format!(
                    "{} (`{}`): A {}, B {}",
                    x.label,
                    x.key,
                    counted(&ea, x.key),
                    counted(&eb, x.key)
                )
            })
            .collect();
        out.push(format!(
            "`{key}` can matter only in games with {}",
            each.join("; or ")
        ));
    }
    out
}

/// In what share of its run's games event `e` happened: `12.0% (8.1–17.4%)
/// of games`, or `never in 100 games (0 to 3.7%)`.
fn happened_in(e: &EventLine) -> String {
    happened_in_games(&e.games)
}

/// [`happened_in`] of a share of games.
fn happened_in_games(games: &Rate) -> String {
    if games.count == 0 {
        format!(
            "never in {} games (0 to {:.1}%)",
            thousands(games.of),
            100.0 * games.high
        )
    } else {
        format!("{} of games", games.words())
    }
}

/// House rule `name`, of the sides `has` says, never changed the game.
fn never_changed(name: &str, has: [bool; 2], games: u64) -> String {
    let which = match has {
        [true, true] => "either variant",
        [true, false] => "A",
        _ => "B",
    };
    format!(
        "house rule `{name}` (a script) never changed the game in {} games of {which}: it cannot matter under these bots",
        thousands(games)
    )
}

/// Whether house rule `name`, a script of one side or both, changed the
/// game, and in what share of `games` games of each side that has it: the
/// rule event `script` counts the runs of all a side's scripts that changed
/// the game, so a side with several says so. `None` when neither side has
/// the event (no game of this build counts it).
fn house_rule_fired(
    name: &str,
    sides: [&Design; 2],
    games: u64,
    scripts: [&[String]; 2],
) -> Option<String> {
    let has = scripts.map(|names| names.iter().any(|n| n == name));
    // Each side that has the rule counted it alone: its own line.
    let own = sides.map(|d| d.house_rules.iter().find(|h| h.name == name));
    if (0..2).all(|i| !has[i] || own[i].is_some()) && own.iter().any(Option::is_some) {
        let fired = own.iter().flatten().any(|h| h.games.count > 0);
        if !fired {
            return Some(never_changed(name, has, games));
        }
        let side = |i: usize| {
            let label = ["A", "B"][i];
            match own[i] {
                Some(h) if has[i] => format!(
                    "{label} {} ({:.2} changes a game)",
                    happened_in_games(&h.games),
                    h.per_game
                ),
                _ => format!("not in {label}"),
            }
        };
        return Some(format!(
            "house rule `{name}` (a script) changed the game in: {}; {}",
            side(0),
            side(1)
        ));
    }
    // Totals without a count per script (parts of an older version): the
    // rule event `script`, all a side's house rules together.
    let event = |d: &Design| d.rule_events.iter().find(|e| e.key == "script").cloned();
    let events = sides.map(event);
    if events.iter().all(Option::is_none) {
        return None;
    }
    let fired = (0..2).any(|i| has[i] && events[i].as_ref().is_some_and(|e| e.games.count > 0));
    if !fired {
        return Some(never_changed(name, has, games));
    }
    let side = |i: usize| {
        let label = ["A", "B"][i];
        match &events[i] {
            Some(e) if has[i] => {
                let share = happened_in(e);
                let together = match scripts[i].len() {
                    0 | 1 => String::new(),
                    2 => " (counted with its other script: a side's scripts are counted together)"
                        .to_owned(),
                    n => format!(
                        " (counted with its other {} scripts: a side's scripts are counted together)",
                        n - 1
                    ),
                };
                format!("{label} {share}{together}")
            }
            _ => format!("not in {label}"),
        }
    };
    Some(format!(
        "house rule `{name}` (a script) changed the game in: {}; {}",
        side(0),
        side(1)
    ))
}

/// Whether `key` is `rule` or lies under it (`beads.supply` under `beads`).
fn key_under(key: &str, rule: &str) -> bool {
    key == rule || key.strip_prefix(rule).is_some_and(|r| r.starts_with('.'))
}

/// Each measure of two runs side by side as a statistic of the one verdict
/// rule ([`crate::sim::verdict`]), for `compare` to judge with its other
/// statistics in one family: a mean with Welch's standard error, a
/// proportion with the verdict rule's rate variance, a bootstrapped figure
/// with the standard error its interval implies. Shares have a rate's
/// margin (2 points unless `--margin KEY=...`), counts a count's.
/// Each item: (A's value, B's value, the statistic of B - A).
pub fn statistics(a: &Design, b: &Design, margins: &Margins) -> Vec<(f64, f64, Statistic)> {
    let mut out = Vec::new();
    for x in &a.measures {
        // Drawishness is the report's `ties`, already in the family.
        if x.key == "drawishness" {
            continue;
        }
        let Some(y) = b.get(&x.key) else { continue };
        let unit = if x.share { Unit::Rate } else { Unit::Count };
        let sd = |e: &Estimate| e.sd.unwrap_or_else(|| e.se() * (e.n as f64).sqrt());
        let margin = margins.of_spread(
            &x.key,
            unit,
            x.value.abs().max(y.value.abs()),
            sd(x).max(sd(y)),
        );
        let (se, df) = match x.method {
            Method::Mean => {
                let v = |e: &Estimate| {
                    if e.n < 2 {
                        0.0
                    } else {
                        sd(e).powi(2) / e.n as f64
                    }
                };
                let (va, vb) = (v(x), v(y));
                let se2 = va + vb;
                let df = if se2 == 0.0 || x.n < 2 || y.n < 2 {
                    f64::INFINITY
                } else {
                    se2 * se2 / (va * va / (x.n as f64 - 1.0) + vb * vb / (y.n as f64 - 1.0))
                };
                (se2.sqrt(), df)
            }
            Method::Wilson => {
                let var = |e: &Estimate| rate_variance((e.value * e.n as f64).round(), e.n);
                ((var(x) + var(y)).sqrt(), f64::INFINITY)
            }
            Method::Bootstrap | Method::OneWay => {
                ((x.se().powi(2) + y.se().powi(2)).sqrt(), f64::INFINITY)
            }
        };
        out.push((
            x.value,
            y.value,
            Statistic {
                key: x.key.clone(),
                label: x.label.clone(),
                unit,
                estimate: y.value - x.value,
                se,
                df,
                margin,
                games: x.n.min(y.n),
            },
        ));
    }
    out
}

/// The least depth that measures the measure `key` (a key of [`keys`]);
/// `None` for a key that is not one.
pub fn depth_of(key: &str) -> Option<Depth> {
    let base = key.strip_suffix("_sd").unwrap_or(key);
    if let Some(d) = PER_GAME.iter().find(|d| d.key == base) {
        return (base == key || d.group == "duration").then_some(d.depth);
    }
    let seat = key
        .strip_prefix("advantage_")
        .is_some_and(|s| s.parse::<u8>().is_ok());
    let outcome = ["balance", "drawishness", "outcome_uniformity", "completion"].contains(&key);
    (seat || outcome).then_some(Depth::Outcomes)
}

/// Every measure of a run by key, with its name in words and whether it
/// is a share: what `sweep --measure` and `tune --target` accept.
pub fn keys(players: u8) -> Vec<(String, String, bool)> {
    let mut v: Vec<(String, String, bool)> = (1..=players)
        .map(|s| {
            (
                format!("advantage_{s}"),
                format!("seat {s} advantage"),
                true,
            )
        })
        .collect();
    for (k, l) in [
        ("balance", "balance"),
        ("drawishness", "drawishness"),
        ("outcome_uniformity", "outcome uniformity"),
        ("completion", "completion"),
    ] {
        v.push((k.into(), l.into(), true));
    }
    for d in PER_GAME {
        v.push((d.key.into(), d.label.into(), d.share));
        if d.group == "duration" {
            v.push((
                format!("{}_sd", d.key),
                format!("{} spread (sd)", d.label),
                false,
            ));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("defined");
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    /// Seat 1 leads from the first decision to its win.
    #[test]
    fn a_game_decided_at_the_first_move() {
        let rows = [0.9, 0.1, 0.95, 0.05, 0.97, 0.03, 1.0, 0.0];
        let m = tension(&rows, 2, &[0]);
        close(m[M_LEAD_CHANGE], 0.0);
        close(m[M_DRAMA], 0.0);
        close(m[M_DECISIVENESS], 0.0);
        assert!(m[M_UNCERTAINTY].unwrap() < 0.5);
    }

    /// The lead changes after every decision; seat 1 wins at the end.
    #[test]
    fn a_game_with_a_lead_change_every_turn() {
        let rows = [0.6, 0.4, 0.4, 0.6, 0.6, 0.4, 0.4, 0.6, 1.0, 0.0];
        let m = tension(&rows, 2, &[0]);
        close(m[M_LEAD_CHANGE], 1.0);
        // Behind after decisions 2 and 4 of the 4 before the outcome.
        close(m[M_DRAMA], 0.5);
        // Led for good from the fifth row (the outcome) of five.
        close(m[M_DECISIVENESS], 0.8);
        // Chances of 0.6/0.4 are nearly a coin toss.
        assert!(m[M_UNCERTAINTY].unwrap() > 0.95);
    }

    #[test]
    fn a_tie_has_no_drama_or_decisiveness() {
        let rows = [0.5, 0.5, 0.5, 0.5];
        let m = tension(&rows, 2, &[0, 1]);
        assert_eq!(m[M_DRAMA], None);
        assert_eq!(m[M_DECISIVENESS], None);
        close(m[M_STABILITY], 1.0);
        close(m[M_UNCERTAINTY], 1.0);
    }

    /// A game with one legal move at every node: no choice at all.
    #[test]
    fn a_game_with_one_legal_move_everywhere() {
        use crate::games::roots_and_shoots::RootsAndShoots;
        let mut t = Trace::<RootsAndShoots>::new(2, Depth::Standard);
        for seat in [0, 1, 0, 1] {
            t.note(seat, 1);
        }
        let mut m = vec![None; PER_GAME.len()];
        t.choice(&mut m);
        close(m[M_DECISION_MOVES], 0.0);
        close(m[M_BRANCHING], 1.0);
        close(m[M_FORCED], 4.0);
        close(m[M_TURNS], 4.0);
        close(m[M_DECISIONS], 4.0);
        // Several decisions in a row by one seat are one turn.
        let mut t = Trace::<RootsAndShoots>::new(2, Depth::Standard);
        for (seat, legal) in [(0, 3), (0, 1), (1, 5), (1, 1)] {
            t.note(seat, legal);
        }
        let mut m = vec![None; PER_GAME.len()];
        t.choice(&mut m);
        close(m[M_TURNS], 2.0);
        close(m[M_DECISION_MOVES], 0.5);
        close(m[M_BRANCHING], 2.5);
        close(m[M_FORCED], 2.0);
    }

    /// Every measure's depth: the outcomes and duration at every depth,
    /// clarity only at full, the rest from standard on.
    #[test]
    fn each_measure_knows_its_depth() {
        for (k, _, _) in keys(4) {
            assert!(depth_of(&k).is_some(), "{k}");
        }
        assert_eq!(depth_of("advantage_3"), Some(Depth::Outcomes));
        assert_eq!(depth_of("balance"), Some(Depth::Outcomes));
        assert_eq!(depth_of("duration_turns_sd"), Some(Depth::Outcomes));
        assert_eq!(depth_of("coverage"), Some(Depth::Outcomes));
        assert_eq!(depth_of("branching"), Some(Depth::Standard));
        assert_eq!(depth_of("stability"), Some(Depth::Standard));
        assert_eq!(depth_of("clarity_variance"), Some(Depth::Full));
        assert_eq!(depth_of("stability_sd"), None);
        assert_eq!(depth_of("advantage_x"), None);
        assert_eq!(depth_of("nonsense"), None);
        assert!(Depth::Outcomes < Depth::Standard && Depth::Standard < Depth::Full);
    }

    /// At `outcomes` a trace counts turns and decisions and nothing per
    /// decision: no choice measures, no tension.
    #[test]
    fn an_outcomes_trace_counts_the_length_only() {
        use crate::games::roots_and_shoots::RootsAndShoots;
        let mut t = Trace::<RootsAndShoots>::new(2, Depth::Outcomes);
        for seat in [0, 0, 1, 0] {
            t.note_turn(seat);
        }
        let mut m = vec![None; PER_GAME.len()];
        t.choice(&mut m);
        close(m[M_TURNS], 3.0);
        close(m[M_DECISIONS], 4.0);
        assert_eq!(m[M_DECISION_MOVES], None);
        assert_eq!(m[M_BRANCHING], None);
        assert_eq!(m[M_FORCED], None);
    }

    #[test]
    fn win_chances_follow_the_logistic_for_two_seats() {
        let mut p = Vec::new();
        win_chances(&[3.0, -3.0], 3.0, &mut p);
        close(Some(p[0]), 1.0 / (1.0 + (-1.0f64).exp()));
        close(Some(p[0] + p[1]), 1.0);
    }

    #[test]
    fn outcome_figures_by_hand() {
        let one_sided = vec![(vec![1.0, 0.0], 10)];
        assert_eq!(outcome_figures(&one_sided, 2), (0.0, 1.0));
        let even = vec![(vec![1.0, 0.0], 5), (vec![0.0, 1.0], 5)];
        let (b, u) = outcome_figures(&even, 2);
        close(Some(b), 1.0);
        close(Some(u), 0.75);
    }

    #[test]
    fn the_bootstrap_is_deterministic_and_brackets_the_figure() {
        let o = vec![(vec![1.0, 0.0], 60), (vec![0.0, 1.0], 40)];
        let a = bootstrap(&o, 100, 7, 2);
        assert_eq!(a, bootstrap(&o, 100, 7, 2));
        let (bal, _) = outcome_figures(&o, 2);
        assert!(a.0.0 <= bal && bal <= a.0.1, "{a:?} {bal}");
        assert!(a.0.1 - a.0.0 > 0.05);
    }

    /// A run's measures from hand-made totals: `outcomes` as (mask of the
    /// seats sharing the top, games), every per-game measure `value` in
    /// each game.
    fn design_of(outcomes: &[(u32, u64)], value: impl Fn(u64) -> f64) -> Design {
        let mut t = MeasureTotals::new(0);
        let games: u64 = outcomes.iter().map(|(_, n)| n).sum();
        for m in t.moments.iter_mut().take(M_CLARITY_NARROWNESS) {
            (0..games).for_each(|g| m.add(value(g)));
        }
        t.outcomes = outcomes.iter().copied().collect();
        Design::new(&t, &[], 2, games, Depth::Standard, 7)
    }

    /// Branches & Twigs & Thorns has a fixed length: a measure every game
    /// gave alike reads "always 32", not "32.00 (32.00–32.00)".
    #[test]
    fn a_measure_constant_over_all_games_says_so() {
        let d = design_of(&[(1, 6), (2, 4)], |_| 32.0);
        let turns = d.get("duration_turns").unwrap();
        assert!(turns.constant());
        assert_eq!(turns.words(), "always 32");
        assert_eq!(
            d.get("duration_turns_sd").unwrap().words(),
            "none: every game alike"
        );
        let d = design_of(&[(1, 6), (2, 4)], |_| 1.0);
        assert_eq!(d.get("decision_moves").unwrap().words(), "always 100.0%");
        // A measure that varies keeps its interval.
        let d = design_of(&[(1, 6), (2, 4)], |g| 30.0 + (g % 3) as f64);
        let turns = d.get("duration_turns").unwrap();
        assert!(!turns.constant());
        assert!(turns.words().starts_with("30.90 ("), "{}", turns.words());
        assert!(!d.get("duration_turns_sd").unwrap().constant());
    }

    /// Every game went to seat 1: every bootstrap resample is the same, so
    /// a percentile interval would be "0.0% (0.0–0.0%)". The interval is
    /// instead the bound of a game unlike them, and the words say it.
    #[test]
    fn balance_when_every_game_went_one_way() {
        let d = design_of(&[(1, 10)], |_| 1.0);
        let u = wilson(0.0, 10.0).1;
        let bal = d.get("balance").unwrap();
        assert_eq!(bal.method, Method::OneWay);
        assert_eq!((bal.value, bal.low), (0.0, 0.0));
        assert!(
            (bal.high - 2.0 * u).abs() < 1e-12 && bal.high > 0.5,
            "{bal:?}"
        );
        assert_eq!(
            bal.words(),
            format!("0.0% (0.0–{:.1}%): all 10 games went to seat 1", 200.0 * u)
        );
        let uni = d.get("outcome_uniformity").unwrap();
        assert_eq!((uni.value, uni.high), (1.0, 1.0));
        assert!((uni.low - (1.0 - u)).abs() < 1e-12);
        assert!(uni.words().ends_with(": all 10 games went to seat 1"));
        // Every game a tie of both seats.
        let d = design_of(&[(3, 4)], |_| 1.0);
        assert!(
            d.get("balance")
                .unwrap()
                .words()
                .ends_with(": all 4 games were shared by seats 1 and 2"),
            "{:?}",
            d.get("balance")
        );
        // Two outcomes: the bootstrap, no words.
        let d = design_of(&[(1, 9), (2, 1)], |_| 1.0);
        let bal = d.get("balance").unwrap();
        assert_eq!(bal.method, Method::Bootstrap);
        assert_eq!(bal.note, None);
        // In compare, a one-way run still has a spread to test with.
        assert!(d.get("balance").unwrap().se() > 0.0);
        let one = design_of(&[(1, 10)], |_| 1.0);
        assert!(one.get("balance").unwrap().se() > 0.0);
    }

    #[test]
    fn moments_are_exact_whatever_the_merge_order() {
        let vals = [0.1, 0.25, 3.0, 0.333_333_3, 7.5];
        let mut all = Moments::default();
        vals.iter().for_each(|&v| all.add(v));
        let (mut x, mut y) = (Moments::default(), Moments::default());
        vals[..2].iter().for_each(|&v| x.add(v));
        vals[2..].iter().for_each(|&v| y.add(v));
        y.merge(&x);
        assert_eq!(all, y);
        assert!((all.mean() - vals.iter().sum::<f64>() / 5.0).abs() < 1e-6);
    }

    #[test]
    fn a_changed_key_whose_events_never_fire_is_named() {
        let event = |key, label, rule, fired| EventLine {
            key,
            label,
            keys: vec![rule],
            per_game: 0.0,
            games: Rate::new(fired, 100),
            possible: true,
        };
        let line = |fired| event("pile_emptied", "a bead pile emptied", "beads.supply", fired);
        let d = |fired| Design {
            depth: Depth::Standard,
            measures: Vec::new(),
            rule_events: vec![line(fired)],
            house_rules: Vec::new(),
        };
        let changed = vec!["beads.supply".to_owned(), "rain.rolls".to_owned()];
        let out = dead_changes(&changed, &d(0), &d(0), 100, [&[], &[]]);
        assert_eq!(out.len(), 1);
        assert!(
            out[0].starts_with("`beads.supply` acts only through"),
            "{out:?}"
        );
        // Where the event happened, the line says in what share of games.
        let reach = dead_changes(&changed, &d(3), &d(0), 100, [&[], &[]]);
        assert_eq!(reach.len(), 1);
        assert!(
            reach[0].starts_with("`beads.supply` can matter only in games with")
                && reach[0].contains("A 3.0%")
                && reach[0].contains("B never in 100 games"),
            "{reach:?}"
        );
        // A house rule's line says where it fired.
        let script = |fired| {
            event(
                "script",
                "house-rule runs that changed the game",
                "script",
                fired,
            )
        };
        let base = Design {
            depth: Depth::Standard,
            measures: Vec::new(),
            rule_events: Vec::new(),
            house_rules: Vec::new(),
        };
        let ruled = Design {
            rule_events: vec![script(7)],
            ..base.clone()
        };
        let edge = ["edge".to_owned()];
        let two = ["edge".to_owned(), "ones".to_owned()];
        let key = ["script.edge".to_owned()];
        let fired = dead_changes(&key, &base, &ruled, 100, [&[], &edge]);
        let seven = Rate::new(7, 100).words();
        assert!(seven.starts_with("7.0% ("), "{seven}");
        assert_eq!(
            fired,
            [format!(
                "house rule `edge` (a script) changed the game in: not in A; B {seven} of games"
            )],
        );
        // Removed: only A has it; a side with two scripts says so.
        let ones = ["ones".to_owned()];
        let removed = dead_changes(&key, &ruled, &ruled, 100, [&two, &ones]);
        assert!(
            removed[0].ends_with(&format!(
                "A {seven} of games (counted with its other script: a side's scripts are counted together); not in B"
            )),
            "{removed:?}"
        );
        let silent = Design {
            rule_events: vec![script(0)],
            ..base.clone()
        };
        let never = dead_changes(&key, &base, &silent, 100, [&[], &edge]);
        assert_eq!(
            never,
            [
                "house rule `edge` (a script) never changed the game in 100 games of B: it cannot matter under these bots"
            ],
        );
        // Without the event (a build that does not count it), no line.
        assert!(dead_changes(&key, &base, &base, 100, [&[], &edge]).is_empty());
        assert!(key_under("beads.supply", "beads"));
        assert!(!key_under("beads_x", "beads"));
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    /// Each house rule counted alone: a game's counts per script add up
    /// (and merge, and are checked) as the rule events do, and `compare`
    /// tells apart two scripts of one side, one that fired and one that
    /// never did, which the rule event `script` counts together.
    #[test]
    fn each_house_rule_is_counted_alone() {
        let game = |scripts: Vec<u32>| GameMeasures {
            values: vec![None; PER_GAME.len()],
            events: vec![scripts.iter().sum()],
            scripts,
            chances: None,
        };
        let mut t = MeasureTotals::new(1);
        let mut u = MeasureTotals::new(1);
        for i in 0..100u32 {
            let g = game(vec![u32::from(i % 4 == 0) * 3, 0]);
            if i < 60 {
                t.add(&g, &[0]);
            } else {
                u.add(&g, &[1]);
            }
        }
        assert!(t.can_merge(&u));
        t.merge(&u);
        assert_eq!(t.scripts, [(75, 25), (0, 0)]);
        assert_eq!(t.events, [(75, 25)]);
        t.check(100, &[60, 40], 0)
            .expect("the totals of real games");
        let mut forged = t.clone();
        forged.scripts[1] = (3, 4);
        let e = forged.check(100, &[60, 40], 0).unwrap_err();
        assert!(e.contains("house rule 2"), "{e}");
        // Totals of an older version, without counts per script, merge.
        let mut old = MeasureTotals::new(1);
        old.merge(&t);
        assert_eq!(old.scripts, t.scripts);

        let names = ["edge".to_owned(), "quiet".to_owned()];
        let mut b = Design {
            depth: Depth::Standard,
            measures: Vec::new(),
            rule_events: Vec::new(),
            house_rules: Vec::new(),
        };
        b.count_house_rules(&t, &names, 100);
        assert_eq!(b.house_rules.len(), 2);
        assert_eq!(b.house_rules[0].name, "edge");
        assert!((b.house_rules[0].per_game - 0.75).abs() < 1e-12);
        assert_eq!(b.house_rules[0].games.count, 25);
        assert_eq!(b.house_rules[1].games.count, 0);
        // Names that do not match the counts give no lines.
        let mut c = b.clone();
        c.count_house_rules(&t, &names[..1], 100);
        assert!(c.house_rules.is_empty());

        let a = Design {
            house_rules: Vec::new(),
            ..b.clone()
        };
        let quarter = Rate::new(25, 100).words();
        let fired = dead_changes(&["script.edge".to_owned()], &a, &b, 100, [&[], &names]);
        assert_eq!(
            fired,
            [format!(
                "house rule `edge` (a script) changed the game in: not in A; B {quarter} of games (0.75 changes a game)"
            )],
        );
        let quiet = dead_changes(&["script.quiet".to_owned()], &a, &b, 100, [&[], &names]);
        assert_eq!(
            quiet,
            [
                "house rule `quiet` (a script) never changed the game in 100 games of B: it cannot matter under these bots"
            ],
        );
    }
}
