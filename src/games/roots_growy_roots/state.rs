//! The engine: a grid of cards, face down until a root grows onto them, and
//! each player's root of connectors and sticks.
//!
//! A turn is a chain of decisions (grow, bridge, end). Growing onto a
//! face-down card makes the node a draw ([`Next::Draw`]): the card's identity
//! does not exist until it is drawn from what is left of its cell's deck.

use std::sync::Arc;

use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Outcome, Refusal, Seat};

use super::rules::{
    Artifact, BonusTies, EndTrigger, RootMeasure, Rules, Sticks, parse_area, parse_cell,
};

/// A card not yet turned over.
pub const HIDDEN: u8 = 0;
pub const EARTH: u8 = 1;
pub const FERTILIZER: u8 = 2;
pub const WATER: u8 = 3;
pub const STONE: u8 = 4;
/// The first artifact (`Artifact::ALL[face - FIRST_ARTIFACT]`).
pub const FIRST_ARTIFACT: u8 = 5;
/// A seed card (never drawn).
pub const SEED: u8 = 10;
/// A turned stone smashed by the hammer (`destroy`): as earth from now on.
pub const RUBBLE: u8 = 11;
/// A water card dried by the sceptre (`dry`): as earth from now on.
pub const DRIED: u8 = 12;
/// The kinds a deck holds: earth, fertilizer, water, stone, the 5 artifacts.
pub const FACES: usize = 9;

const NONE: u16 = u16::MAX;
const BRIDGE: u8 = 1;
const JUMP: u8 = 2;
/// The sticks a jump costs.
pub const JUMP_COST: u32 = 1;
const DIRS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// How many bits of `m` are set, from a table (a direction mask's moves;
/// the build targets no particular CPU, so no popcount instruction).
#[inline(always)]
fn ones(m: u8) -> u8 {
    const ONES: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        t
    };
    ONES[usize::from(m)]
}

/// The place of the `k`th set bit of `m` (from 0, `k` below the bits
/// set), from a table: the die's pick among a connector's directions with
/// no loop whose length is the pick (a branch the processor cannot guess).
#[inline(always)]
fn kth_bit(m: u8, k: u32) -> usize {
    const KTH: [[u8; 8]; 256] = {
        let mut t = [[8u8; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let mut k = 0;
            let mut bit = 0;
            while bit < 8 {
                if m & (1 << bit) != 0 {
                    t[m][k] = bit as u8;
                    k += 1;
                }
                bit += 1;
            }
            m += 1;
        }
        t
    };
    debug_assert!(k < u32::from(ones(m)));
    usize::from(KTH[usize::from(m)][(k & 7) as usize])
}

/// A decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Grow one stick from a connector to a neighbouring cell.
    Grow { from: u16, to: u16 },
    /// A bridge from the connector over an occupied cell to the cell behind it.
    Bridge { from: u16, to: u16 },
    /// End the turn.
    End,
    /// Flight of Hermes: one stick to the cell two steps away in a line, over
    /// anything.
    Jump { from: u16, to: u16 },
    /// Skrying Runes: turn over a face-down card and its face-down neighbours.
    Skry { at: u16 },
    /// Medusa's head: the seat's next turn is skipped.
    Deny { seat: Seat },
    /// Thor's hammer: a turned stone next to the mover's root becomes rubble.
    Destroy { at: u16 },
    /// The was-sceptre: a water card dries.
    Dry { at: u16 },
}

impl Action {
    /// The two cells of a stick laid, bridged or jumped: `(from, to)`.
    pub fn stick(self) -> Option<(u16, u16)> {
        match self {
            Action::Grow { from, to } | Action::Bridge { from, to } | Action::Jump { from, to } => {
                Some((from, to))
            }
            _ => None,
        }
    }

    /// The artifact whose ability this is.
    pub fn artifact(self) -> Option<Artifact> {
        match self {
            Action::Jump { .. } => Some(Artifact::Jump),
            Action::Skry { .. } => Some(Artifact::Skry),
            Action::Deny { .. } => Some(Artifact::Deny),
            Action::Destroy { .. } => Some(Artifact::Destroy),
            Action::Dry { .. } => Some(Artifact::Dry),
            _ => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The last face-down artifact was turned over.
    LastArtifact,
    /// Every artifact is in a hand.
    AllClaimed,
    /// Every player in a row started a turn unable to grow.
    Blocked,
    /// The round limit.
    RoundLimit,
    /// A house rule written as a script ended it (`ctx.end_game()`).
    Script,
    /// A house rule written as a script failed: the game stopped there.
    ScriptError,
}

/// Counts kept for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub turns: u32,
    pub extensions: u32,
    pub bridges: u32,
    pub stones_hit: u32,
    pub cards_turned: u32,
    /// Cards turned over by kind: earth, fertilizer, water, stone, an
    /// artifact (the face less one, the artifacts together).
    pub drawn: [u32; 5],
    pub voluntary_ends: u32,
    pub blocked_turns: u32,
    pub sticks_received: u32,
    pub sticks_spent: u32,
    pub sticks_lost: u32,
    pub abilities_used: u32,
    pub turns_denied: u32,
}

/// Most seats a game has.
pub const MAX_SEATS: usize = 4;

/// What a seat scores by: its tips (but the seed), its longest root in
/// sticks, its waters and its artifacts (one bit each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Figures {
    pub leaves: u32,
    pub longest: u32,
    pub waters: u16,
    pub hands: u8,
}

/// A root's longest path as it grows (see `State::longest`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Longest {
    ends: [u16; 2],
    any_path: u32,
    from_seed: u32,
    /// What [`Cell::to_ends`] holds less than the sticks to each end:
    /// when the path grows by a tip on its end, every connector is one
    /// stick farther from the new end, and only this changes.
    base: [i16; 2],
}

/// The fixed geometry of a game: the board, whose deck each cell is dealt
/// from, and the seeds.
#[derive(Debug)]
pub struct Geo {
    pub rows: u8,
    pub columns: u8,
    /// Per cell: 0 for the main deck, `1 + k` for start area `k`.
    pub deck_of: Vec<u8>,
    pub seeds: Vec<u16>,
    /// The decks as dealt (face-down cards only).
    pub dealt: Vec<[u32; FACES]>,
    /// Cells laid face up at setup (seed, start waters, artifacts).
    pub face_up: Vec<bool>,
    /// Per cell and direction of [`DIRS`]: the cell one step away and the
    /// cell two steps away, `NONE` off the board (the hot paths read these
    /// instead of dividing by the columns).
    near: Vec<[[u16; 8]; 2]>,
    /// [`Geo::near`] with the sink's index for `NONE`: one past the
    /// board's last cell, where [`State::cells`] keeps one more record that
    /// takes the writes of [`State::mark_full`] and [`State::placed`] off
    /// the board, so they test no edge (a branch the processor cannot
    /// guess). The sink's `closed` is always every seat, its `conn` 0.
    near_sink: Vec<[[u16; 8]; 2]>,
    /// Per cell: the seats a start-area rule keeps off it, one bit each
    /// (`turn.enter_start_areas = false`: every seat but the area's own).
    barred: Vec<u8>,
    /// Per cell and seat: the directions ([`DIRS`], one bit each) whose
    /// cell one step away and whose cell two steps away [`Geo::barred`]
    /// keeps the seat off.
    barred_dirs: Vec<[[u8; 2]; MAX_SEATS]>,
}

impl Geo {
    pub fn cells(&self) -> usize {
        self.deck_of.len()
    }

    /// The table of [`Geo::near`]: one and two steps from every cell.
    fn steps(rows: u8, columns: u8) -> Vec<[[u16; 8]; 2]> {
        let (rows, cols) = (i16::from(rows), i16::from(columns));
        let mut out = Vec::with_capacity((rows * cols) as usize);
        for r in 0..rows {
            for c in 0..cols {
                let mut t = [[NONE; 8]; 2];
                for (i, &(dr, dc)) in DIRS.iter().enumerate() {
                    for k in 1..=2i16 {
                        let (r1, c1) = (r + i16::from(dr) * k, c + i16::from(dc) * k);
                        if (0..rows).contains(&r1) && (0..cols).contains(&c1) {
                            t[k as usize - 1][i] = (r1 * cols + c1) as u16;
                        }
                    }
                }
                out.push(t);
            }
        }
        out
    }

    /// [`Geo::barred_dirs`] from [`Geo::barred`].
    fn barred_dirs(near: &[[[u16; 8]; 2]], barred: &[u8]) -> Vec<[[u8; 2]; MAX_SEATS]> {
        near.iter()
            .map(|steps| {
                std::array::from_fn(|seat| {
                    std::array::from_fn(|k| {
                        (0..DIRS.len()).fold(0u8, |m, d| {
                            let c = steps[k][d];
                            m | u8::from(c != NONE && barred[usize::from(c)] & (1 << seat) != 0)
                                << d
                        })
                    })
                })
            })
            .collect()
    }

    /// The cell one step from `cell` in direction `DIRS[d]`, or `NONE`.
    #[inline]
    fn next_to(&self, cell: u16, d: usize) -> u16 {
        self.near[usize::from(cell)][0][d]
    }

    /// The cell two steps from `cell` in direction `DIRS[d]`, or `NONE`.
    #[inline]
    fn two_from(&self, cell: u16, d: usize) -> u16 {
        self.near[usize::from(cell)][1][d]
    }

    /// How many steps `to` is from `from` in a straight line (orthogonal
    /// or diagonal), if it is in one.
    pub fn distance(&self, from: u16, to: u16) -> Option<u16> {
        let (r0, c0) = self.rc(from);
        let (r1, c1) = self.rc(to);
        let (dr, dc) = ((r1 - r0).abs(), (c1 - c0).abs());
        (dr == 0 || dc == 0 || dr == dc).then_some(dr.max(dc) as u16)
    }

    fn rc(&self, cell: u16) -> (i16, i16) {
        let cols = i16::from(self.columns);
        (cell as i16 / cols, cell as i16 % cols)
    }
}

/// What the engine keeps of one cell (see [`State::cells`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cell {
    /// The card showing, or [`HIDDEN`].
    card: u8,
    /// `1 + seat` of the connector on it, or 0.
    conn: u8,
    /// The seats that may not put a connector on it, one bit each:
    /// all of them once a connector or a turned stone is on it, else those
    /// a start-area rule keeps off ([`Geo::barred`]). One read for the
    /// legality of every grow, bridge and jump.
    closed: u8,
    /// How many connectors grew from it.
    children: u8,
    /// The stick to its parent is 0 laid, [`BRIDGE`] or [`JUMP`].
    bridged: u8,
    /// The diagonal stick in the 2x2 block whose top-left it is: 0
    /// none, 1 `\`, 2 `/`.
    diag: u8,
    /// The directions ([`DIRS`], one bit each) in which a grow
    /// from it would cross a diagonal stick laid already (kept from `diag`
    /// by [`State::cross`]; the hot paths read it instead of the block).
    cut: u8,
    /// The directions ([`DIRS`], one bit each) in which a
    /// connector (of any seat) lies one step away: the changes at a cell
    /// visit only the connectors around it.
    near_conn: u8,
    /// The directions ([`DIRS`], one bit each) in which the cell
    /// one step away, and the cell two steps away, is off the board or
    /// closed to every seat (a connector or a turned stone on it): with
    /// [`Geo::barred_dirs`], a connector's moves are read at once.
    full: [u8; 2],
    /// With a connector: the directions ([`DIRS`], one bit each)
    /// of its grows and of its bridges, whatever the sticks in hand (a grow
    /// and a bridge never share a direction), kept again around every cell
    /// that changes ([`State::close`], [`State::open`],
    /// [`State::placed`], [`State::cross`]): a random move is drawn from
    /// their counts without listing the turn's moves, and a connector's
    /// `k`th move is its `k`th direction.
    dirs: [u8; 2],
    /// With a connector: the cell it grew from (`NONE` at a seed).
    parent: u16,
    /// With a connector: its sticks from the seed.
    depth: u16,
    /// With a connector: its sticks to the two ends of its root's
    /// longest path ([`Longest::ends`]) less [`Longest::base`], so a new
    /// tip's distances are its parent's plus one, without walking the root.
    to_ends: [i16; 2],
}

impl Cell {
    /// A cell at the start of a game: its card, its connector (`1 +
    /// seat`, or 0) and the seats it is closed to; no stick, no move.
    fn new(card: u8, conn: u8, closed: u8) -> Cell {
        Cell {
            card,
            conn,
            closed,
            children: 0,
            bridged: 0,
            diag: 0,
            cut: 0,
            near_conn: 0,
            full: [0, 0],
            dirs: [0, 0],
            parent: NONE,
            depth: 0,
            to_ends: [0, 0],
        }
    }
}

/// A node of the game.
#[derive(Debug)]
pub struct State {
    rules: Arc<Rules>,
    geo: Arc<Geo>,
    seats: u8,
    /// Per cell: what lies on it and what is kept of it ([`Cell`]), one
    /// record each (one allocation per copy, one bounds check per read).
    cells: Vec<Cell>,
    /// Cards left of each kind, per deck.
    decks: Vec<[u32; FACES]>,
    /// Each seat's connector cells, in the order they were placed.
    roots: Vec<Vec<u16>>,
    /// Per seat: the grows and the bridges of `dirs` over its connectors.
    totals: [[u32; 2]; MAX_SEATS],
    waters: [u16; MAX_SEATS],
    leaves: [u16; MAX_SEATS],
    /// Per seat: its root's longest path, kept as it grows (a new tip's
    /// farthest connector is an end of the old longest path): the two ends
    /// of a longest path, its sticks, and the deepest connector's sticks
    /// from the seed.
    longest: [Longest; MAX_SEATS],
    /// Artifacts in hand, one bit per artifact.
    hands: [u8; MAX_SEATS],
    /// Sticks kept for each seat's next turn.
    kept: [u32; MAX_SEATS],
    to_move: Seat,
    /// Sticks in the mover's hand.
    sticks: u32,
    /// The connector the turn's chain continues from, or `NONE`.
    current: u16,
    /// A grow or bridge onto a face-down card, waiting for the draw.
    pending: Option<Action>,
    round: u16,
    blocked_streak: u8,
    hidden_artifacts: u8,
    unclaimed_artifacts: u8,
    /// Artifacts whose ability was used (each exists once), one bit each.
    used: u8,
    /// Seats whose next turn is skipped (deny), one bit each.
    frozen: u8,
    /// Seats whose turn was skipped just before the mover's (deny).
    skipped: u8,
    /// Cells a skry turns over, the next one last.
    reveal: [u16; 9],
    reveal_len: u8,
    over: Option<EndReason>,
    /// The last action chosen but a voluntary end (pictures highlight it).
    last: Option<Action>,
    pub tally: Tally,
    /// The variant's house rules written as scripts, and what they keep;
    /// `None` without scripts.
    pub(super) script: Option<Box<super::script::Scripted>>,
}

/// `Clone` field by field, with a `clone_from` that reuses the target's
/// buffers: the greedy bot and the evaluation play moves and cards on one
/// scratch copy, refilled without allocating. Every field is named (a new
/// field that is not copied does not compile).
macro_rules! clone_fields {
    ($($f:ident),* $(,)?) => {
        impl Clone for State {
            fn clone(&self) -> State {
                let State { $($f),* } = self;
                State { $($f: $f.clone()),* }
            }

            fn clone_from(&mut self, source: &State) {
                let State { $($f),* } = source;
                $(self.$f.clone_from($f);)*
            }
        }
    };
}

clone_fields!(
    rules,
    geo,
    seats,
    cells,
    decks,
    roots,
    totals,
    waters,
    leaves,
    longest,
    hands,
    kept,
    to_move,
    sticks,
    current,
    pending,
    round,
    blocked_streak,
    hidden_artifacts,
    unclaimed_artifacts,
    used,
    frozen,
    skipped,
    reveal,
    reveal_len,
    over,
    last,
    tally,
    script,
);

/// The buffers of a game's state that [`State::fresh`] fills for the
/// next game on the same thread: a game of a run allocates nothing once
/// the first one has ended.
#[derive(Default)]
struct Spare {
    cells: Vec<Cell>,
    decks: Vec<[u32; FACES]>,
    roots: Vec<Vec<u16>>,
}

thread_local! {
    /// Buffers of states dropped on this thread (at most two kept).
    static SPARE: std::cell::RefCell<Vec<Spare>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Spare {
    /// `out` made a copy of `from`, each list with room for `cells`,
    /// reusing `out`'s lists.
    fn refill(out: &mut Vec<Vec<u16>>, from: &[Vec<u16>], cells: usize) {
        out.truncate(from.len());
        for (list, of) in out.iter_mut().zip(from) {
            list.clear();
            list.reserve(cells.max(of.len()));
            list.extend_from_slice(of);
        }
        for of in &from[out.len()..] {
            let mut list = Vec::with_capacity(cells.max(of.len()));
            list.extend_from_slice(of);
            out.push(list);
        }
    }
}

/// A state whose roots' lists have room for the whole board (a game's
/// start from [`State::new`], played on) leaves its buffers to the next
/// game's start on the thread; copies (a bot's, a search's) free theirs.
impl Drop for State {
    fn drop(&mut self) {
        let cells = self.geo.cells();
        if self.cells.is_empty() || !self.roots.iter().all(|list| list.capacity() >= cells) {
            return;
        }
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut()
                && spare.len() < 2
            {
                spare.push(Spare {
                    cells: std::mem::take(&mut self.cells),
                    decks: std::mem::take(&mut self.decks),
                    roots: std::mem::take(&mut self.roots),
                });
            }
        });
    }
}

impl State {
    /// A new game; the rules are checked (a variant file's checks passed).
    ///
    /// Set up once per rules (the same `Arc`) and seat count on each
    /// thread: the next games start from a copy of the first one's start,
    /// without checking the rules or laying the board out again.
    pub fn new(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        thread_local! {
            /// The last few starts set up, newest last.
            static STARTS: std::cell::RefCell<Vec<State>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        let hit = STARTS.with_borrow_mut(|starts| {
            starts
                .iter_mut()
                .find(|s| s.seats == seats && Arc::ptr_eq(&s.rules, &rules))
                .map(State::fresh)
        });
        if let Some(state) = hit {
            return Ok(state);
        }
        let mut state = State::set_up(rules, seats)?;
        let start = state.fresh();
        STARTS.with_borrow_mut(|starts| {
            if starts.len() >= 4 {
                starts.remove(0);
            }
            starts.push(start);
        });
        Ok(state)
    }

    /// `self` copied into `slot` (made on first use, then refilled with
    /// `clone_from`: no allocation once its buffers have grown): the one
    /// scratch copy a bot or the evaluation plays moves and cards on.
    pub(super) fn copy_into<'a>(&self, slot: &'a mut Option<State>) -> &'a mut State {
        match slot {
            Some(copy) => {
                copy.clone_from(self);
                copy
            }
            None => slot.insert(self.clone()),
        }
    }

    /// A copy of a game's start with the roots' lists sized to the board,
    /// as [`State::set_up`] makes them: random play allocates nothing.
    /// The copy is made in the buffers a finished game on this thread left
    /// ([`Spare`]) when there are some, and each list at its full size and
    /// filled once; `self`'s buffers are lent out while the rest is cloned
    /// (then nothing is allocated), and given back.
    fn fresh(&mut self) -> State {
        let cells = self.geo.cells();
        let mut spare = SPARE
            .try_with(|spare| spare.try_borrow_mut().ok().and_then(|mut s| s.pop()))
            .ok()
            .flatten()
            .unwrap_or_default();
        let board = std::mem::take(&mut self.cells);
        let decks = std::mem::take(&mut self.decks);
        let roots = std::mem::take(&mut self.roots);
        let mut state = self.clone();
        spare.cells.clone_from(&board);
        spare.decks.clone_from(&decks);
        Spare::refill(&mut spare.roots, &roots, cells);
        state.cells = spare.cells;
        state.decks = spare.decks;
        state.roots = spare.roots;
        self.cells = board;
        self.decks = decks;
        self.roots = roots;
        state
    }

    /// [`State::new`] from scratch.
    fn set_up(rules: Arc<Rules>, seats: u8) -> Result<State, String> {
        crate::games::admit_seats(&rules.name, rules.seats(), seats)?;
        let problems = super::rules::check(&rules);
        if let Some(p) = problems.first() {
            return Err(format!("{}: {}", p.path, p.message));
        }
        let b = rules.board(seats);
        let cells = usize::from(b.rows) * usize::from(b.columns);
        let mut deck_of = vec![0u8; cells];
        let mut card = vec![HIDDEN; cells];
        let mut conn = vec![0u8; cells];
        let mut face_up = vec![false; cells];
        let mut seeds = Vec::new();
        // Sized to the board (not `vec![..; n]`, whose copies of the first
        // list are empty): random play allocates nothing.
        let mut roots: Vec<Vec<u16>> = (0..seats).map(|_| Vec::with_capacity(cells)).collect();
        let mut dealt = Vec::with_capacity(1 + usize::from(seats));
        let mut main = [0u32; FACES];
        main[0] = u32::from(b.main_deck.earth);
        main[1] = u32::from(b.main_deck.fertilizer);
        main[2] = u32::from(b.main_deck.water);
        main[3] = u32::from(b.main_deck.stone);
        for a in Artifact::ALL {
            if !b.artifacts.iter().any(|f| f.artifact == a) {
                main[4 + a as usize] = 1;
            }
        }
        dealt.push(main);
        let bad = |what: &str| format!("the board for {seats} players has a bad {what}");
        for (k, s) in b.starts.iter().enumerate() {
            let (r0, c0, r1, c1) =
                parse_area(b.rows, b.columns, &s.area).ok_or_else(|| bad("area"))?;
            for r in r0..=r1 {
                for c in c0..=c1 {
                    deck_of[usize::from(r) * usize::from(b.columns) + usize::from(c)] = 1 + k as u8;
                }
            }
            let seed = parse_cell(b.rows, b.columns, &s.seed).ok_or_else(|| bad("seed"))?;
            let water = parse_cell(b.rows, b.columns, &s.water).ok_or_else(|| bad("water"))?;
            card[usize::from(seed)] = SEED;
            conn[usize::from(seed)] = 1 + k as u8;
            face_up[usize::from(seed)] = true;
            card[usize::from(water)] = WATER;
            face_up[usize::from(water)] = true;
            seeds.push(seed);
            roots[k].push(seed);
            let d = &rules.start_deck;
            let mut deck = [0u32; FACES];
            deck[0] = u32::from(d.earth);
            deck[1] = u32::from(d.fertilizer);
            deck[2] = u32::from(d.water).saturating_sub(1);
            deck[3] = u32::from(d.stone);
            dealt.push(deck);
        }
        for f in &b.artifacts {
            let c = parse_cell(b.rows, b.columns, &f.cell).ok_or_else(|| bad("artifact cell"))?;
            card[usize::from(c)] = FIRST_ARTIFACT + f.artifact as u8;
            face_up[usize::from(c)] = true;
        }
        let barred: Vec<u8> = deck_of
            .iter()
            .map(|&k| {
                if rules.turn.enter_start_areas || k == 0 {
                    0
                } else {
                    !(1u8 << (k - 1))
                }
            })
            .collect();
        let closed: Vec<u8> = (0..cells)
            .map(|c| {
                if conn[c] != 0 || card[c] == STONE {
                    u8::MAX
                } else {
                    barred[c]
                }
            })
            .collect();
        let near = Geo::steps(b.rows, b.columns);
        let geo = Arc::new(Geo {
            barred_dirs: Geo::barred_dirs(&near, &barred),
            barred,
            rows: b.rows,
            columns: b.columns,
            deck_of,
            seeds,
            dealt: dealt.clone(),
            face_up,
            near_sink: near
                .iter()
                .map(|t| t.map(|k| k.map(|c| if c == NONE { cells as u16 } else { c })))
                .collect(),
            near,
        });
        let hidden = (5 - b.artifacts.len()) as u8;
        let mut state = State {
            seats,
            cells: (0..cells)
                .map(|c| Cell::new(card[c], conn[c], closed[c]))
                // The sink ([`Geo::near_sink`]): closed to every seat, no
                // connector, and nothing of it read.
                .chain(std::iter::once(Cell::new(HIDDEN, 0, u8::MAX)))
                .collect(),
            totals: [[0, 0]; MAX_SEATS],
            decks: dealt,
            roots,
            waters: [0; MAX_SEATS],
            leaves: [0; MAX_SEATS],
            longest: [Longest::default(); MAX_SEATS],
            hands: [0; MAX_SEATS],
            kept: [0; MAX_SEATS],
            to_move: 0,
            sticks: 0,
            current: NONE,
            pending: None,
            round: 0,
            blocked_streak: 0,
            hidden_artifacts: hidden,
            unclaimed_artifacts: 5,
            used: 0,
            frozen: 0,
            skipped: 0,
            reveal: [NONE; 9],
            reveal_len: 0,
            over: None,
            last: None,
            tally: Tally::default(),
            script: None,
            rules,
            geo,
        };
        for c in 0..cells {
            state.cells[c].full = state.full_scratch(c as u16);
        }
        for k in 0..state.geo.seeds.len() {
            let seed = state.geo.seeds[k];
            state.set_full(seed, true, true);
            state.recount(seed);
            state.longest[k] = Longest {
                ends: [seed, seed],
                any_path: 0,
                from_seed: 0,
                base: [0, 0],
            };
        }
        state.begin_turn();
        Ok(state)
    }

    /// The cell at `i`, an index that is a cell of the board by the way it
    /// was found, without a bounds check (the hot loops' reads: a step of
    /// [`Geo::near`] tested not `NONE`, a connector of [`State::roots`], a
    /// connector's parent tested not `NONE`).
    #[inline(always)]
    fn board_cell(&self, i: usize) -> &Cell {
        debug_assert!(i < self.geo.cells() && self.cells.len() == self.geo.cells() + 1);
        // SAFETY: `self.cells` holds one record per cell of the board and
        // the sink after them, for every state (set up so, and copied
        // whole), and `i` is a cell of the board: [`Geo::steps`] lists only cells inside it (`NONE`
        // off it), a root lists the cells its connectors were put on, and
        // a connector's parent is a connector's cell (`NONE` at a seed).
        unsafe { self.cells.get_unchecked(i) }
    }

    /// [`State::board_cell`] to change.
    #[inline(always)]
    fn board_cell_mut(&mut self, i: usize) -> &mut Cell {
        debug_assert!(i < self.geo.cells() && self.cells.len() == self.geo.cells() + 1);
        // SAFETY: as in `board_cell`.
        unsafe { self.cells.get_unchecked_mut(i) }
    }

    /// [`State::board_cell`] for a step of [`Geo::near_sink`]: a cell of
    /// the board or the sink past them.
    #[inline(always)]
    fn sink_cell(&self, i: usize) -> &Cell {
        debug_assert!(i <= self.geo.cells() && self.cells.len() == self.geo.cells() + 1);
        // SAFETY: `self.cells` holds a record for every cell of the board
        // and one for the sink after them (set up so, copied whole), and a
        // step of [`Geo::near_sink`] is a cell of the board or the sink.
        unsafe { self.cells.get_unchecked(i) }
    }

    /// [`State::sink_cell`] to change (the sink takes any write: nothing
    /// reads it but its `closed` and `conn`, which no write here changes).
    #[inline(always)]
    fn sink_cell_mut(&mut self, i: usize) -> &mut Cell {
        debug_assert!(i <= self.geo.cells() && self.cells.len() == self.geo.cells() + 1);
        // SAFETY: as in `sink_cell`.
        unsafe { self.cells.get_unchecked_mut(i) }
    }

    // --- Reading the state ------------------------------------------------

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn geo(&self) -> &Geo {
        &self.geo
    }
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
    pub fn sticks(&self) -> u32 {
        self.sticks
    }
    pub fn kept(&self, seat: Seat) -> u32 {
        self.kept[usize::from(seat)]
    }
    pub fn card(&self, cell: u16) -> u8 {
        self.cells[usize::from(cell)].card
    }
    /// The seat whose connector is on `cell`.
    pub fn connector(&self, cell: u16) -> Option<Seat> {
        self.cells[usize::from(cell)].conn.checked_sub(1)
    }
    pub fn parent(&self, cell: u16) -> Option<u16> {
        let p = self.cells[usize::from(cell)].parent;
        (p != NONE).then_some(p)
    }
    /// Whether the stick to `cell` goes over a cell (a bridge or a jump).
    pub fn is_bridge(&self, cell: u16) -> bool {
        self.cells[usize::from(cell)].bridged != 0
    }
    /// Whether the stick to `cell` is a jump (Flight of Hermes).
    pub fn is_jump(&self, cell: u16) -> bool {
        self.cells[usize::from(cell)].bridged == JUMP
    }
    /// Whether `artifact`'s ability was used.
    pub fn used(&self, artifact: Artifact) -> bool {
        self.used & (1 << artifact as u8) != 0
    }
    /// Whether `seat`'s next turn is skipped (deny).
    pub fn frozen(&self, seat: Seat) -> bool {
        self.frozen & (1 << seat) != 0
    }
    /// The seats whose turn was skipped (deny) just before the mover's.
    pub fn skipped(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats).filter(|&s| self.skipped & (1 << s) != 0)
    }
    /// The cell a skry turns over next, while its cards are drawn.
    pub fn revealing(&self) -> Option<u16> {
        self.reveal_len
            .checked_sub(1)
            .map(|i| self.reveal[usize::from(i)])
    }
    /// Whether a skry at `at` turns over more than the card at `at` (a
    /// face-down neighbour).
    pub(super) fn hidden_around(&self, at: u16) -> bool {
        (0..DIRS.len()).any(|d| {
            let c = self.geo.next_to(at, d);
            c != NONE && self.cells[usize::from(c)].card == HIDDEN
        })
    }

    /// Whether `seat` holds `artifact` (used or not).
    pub fn holds(&self, seat: Seat, artifact: Artifact) -> bool {
        self.hands[usize::from(seat)] & (1 << artifact as u8) != 0
    }
    /// The connector the chain continues from, mid-turn.
    pub fn current(&self) -> Option<u16> {
        (self.current != NONE).then_some(self.current)
    }
    pub fn pending(&self) -> Option<Action> {
        self.pending
    }
    pub fn hand(&self, seat: Seat) -> Vec<Artifact> {
        Artifact::ALL
            .into_iter()
            .filter(|a| self.holds(seat, *a))
            .collect()
    }
    /// The artifacts `seat` holds whose ability it may still use, one bit
    /// each (none when the variant's artifacts have no abilities).
    #[inline]
    pub fn usable(&self, seat: Seat) -> u8 {
        if self.rules.artifacts.abilities {
            self.hands[usize::from(seat)] & !self.used
        } else {
            0
        }
    }
    /// The sticks `seat` receives at the start of its turn.
    pub fn income(&self, seat: Seat) -> u32 {
        u32::from(self.rules.turn.income)
            + u32::from(self.rules.turn.water_income) * u32::from(self.waters[usize::from(seat)])
    }
    pub fn waters(&self, seat: Seat) -> u16 {
        self.waters[usize::from(seat)]
    }
    pub fn round(&self) -> u16 {
        self.round
    }
    pub fn end(&self) -> Option<EndReason> {
        self.over
    }
    pub fn roots(&self, seat: Seat) -> &[u16] {
        &self.roots[usize::from(seat)]
    }
    /// Cards left in deck `deck` (0 main, `1 + k` start area of seat `k`).
    pub fn deck(&self, deck: usize) -> &[u32; FACES] {
        &self.decks[deck]
    }
    pub fn decks(&self) -> usize {
        self.decks.len()
    }
    pub fn hidden_artifacts(&self) -> u8 {
        self.hidden_artifacts
    }
    /// The cell whose card the next draw turns over: the skry's next one,
    /// else the target of the stick waiting for its card.
    pub fn drawing_at(&self) -> Option<u16> {
        if self.over.is_some() {
            return None;
        }
        self.revealing()
            .or_else(|| self.pending.and_then(Action::stick).map(|(_, to)| to))
    }
    /// The last action chosen but a voluntary end, if any (a grow may have
    /// hit a stone).
    pub fn last_move(&self) -> Option<Action> {
        self.last
    }

    // --- What the greedy bot reads ------------------------------------------

    /// How many connectors grew from `cell`.
    pub(super) fn children_of(&self, cell: u16) -> u8 {
        self.cells[usize::from(cell)].children
    }
    /// The sticks from the seed to the connector on `cell`.
    pub(super) fn depth_of(&self, cell: u16) -> u16 {
        self.cells[usize::from(cell)].depth
    }
    /// The two ends of a longest path of `seat`'s root.
    pub(super) fn longest_ends(&self, seat: usize) -> [u16; 2] {
        self.longest[seat].ends
    }
    /// The kept grow and bridge counts of the connector on `cell`.
    pub(super) fn moves_of(&self, cell: u16) -> [u8; 2] {
        self.cells[usize::from(cell)].dirs.map(ones)
    }
    /// `seat`'s grows and bridges, summed over its connectors.
    pub(super) fn totals_of(&self, seat: Seat) -> [u32; 2] {
        self.totals[usize::from(seat)]
    }
    pub(super) fn unclaimed_artifacts(&self) -> u8 {
        self.unclaimed_artifacts
    }
    /// The artifacts whose ability was used, one bit each.
    pub(super) fn used_bits(&self) -> u8 {
        self.used
    }
    /// `f` on `x` and on every cell one or two steps from it in a line (the
    /// cells whose connectors a change at `x` can give or take moves).
    #[inline]
    pub(super) fn around_two(&self, x: u16, mut f: impl FnMut(u16)) {
        f(x);
        for d in 0..DIRS.len() {
            let a = self.geo.next_to(x, d);
            if a != NONE {
                f(a);
                let b = self.geo.two_from(x, d);
                if b != NONE {
                    f(b);
                }
            }
        }
    }

    // --- Legality ------------------------------------------------------------

    /// Whether the mover may put a connector on `to` (a free cell, not a
    /// stone, and in an allowed area).
    #[inline]
    fn free_for(&self, seat: Seat, to: u16) -> bool {
        self.cells[usize::from(to)].closed & (1 << seat) == 0
    }

    /// The diagonal stick `from`-`to` (one step) as (block, kind), if diagonal.
    #[inline]
    fn diagonal(&self, from: u16, to: u16) -> Option<(usize, u8)> {
        let (r0, c0) = self.geo.rc(from);
        let (r1, c1) = self.geo.rc(to);
        let (dr, dc) = (r1 - r0, c1 - c0);
        if dr == 0 || dc == 0 {
            return None;
        }
        let block = (r0.min(r1) * i16::from(self.geo.columns) + c0.min(c1)) as usize;
        Some((block, if dr == dc { 1 } else { 2 }))
    }

    /// [`State::diagonal`] of a grow, from the difference of the cells (no
    /// division by the columns).
    #[inline]
    fn diagonal_step(&self, from: u16, to: u16) -> Option<(usize, u8)> {
        // `to` is a neighbour of `from`: with at least 3 columns (as the
        // rules check) the eight steps are eight different differences.
        // The step's rows `v` and columns `h` (each -1, 0 or 1) by
        // arithmetic, not by a chain of tests that stops at a random place.
        let cols = i32::from(self.geo.columns);
        let step = i32::from(to) - i32::from(from);
        let v = i32::from(step > 1) - i32::from(step < -1);
        let h = step - v * cols;
        let out = (v != 0 && h != 0).then(|| {
            // The block's top-left: the upper row and the left column.
            let block = i32::from(from) + v.min(0) * cols + h.min(0);
            (block as usize, if v == h { 1 } else { 2 })
        });
        debug_assert_eq!(out, self.diagonal(from, to));
        out
    }

    /// A grow from `from` in direction `DIRS[d]`: its target, if free and
    /// not crossing a diagonal stick.
    #[inline]
    fn grow_ok(&self, seat: Seat, from: u16, d: usize) -> Option<u16> {
        let to = self.geo.next_to(from, d);
        if to == NONE || !self.free_for(seat, to) {
            return None;
        }
        self.diagonal_clear(from, to, d).then_some(to)
    }

    /// Whether the step `from`-`to` in direction `DIRS[d]` crosses no
    /// diagonal stick (an orthogonal step crosses none).
    #[inline(always)]
    fn diagonal_clear(&self, from: u16, to: u16, d: usize) -> bool {
        // The 2x2 block of a diagonal step, by its top-left cell, and the
        // diagonal's kind (1 `\`, 2 `/`), as [`State::diagonal`] says.
        let (block, kind) = match d {
            0 => (to, 1),
            2 => (to - 1, 2),
            5 => (from - 1, 2),
            7 => (from, 1),
            _ => return true,
        };
        let taken = self.cells[usize::from(block)].diag;
        taken == 0 || taken == kind
    }

    /// A bridge's target in direction `DIRS[d]` whatever the sticks in hand
    /// (a connector to build over, a free cell behind it).
    #[inline]
    fn bridge_target(&self, seat: Seat, from: u16, d: usize) -> Option<u16> {
        if !self.rules.turn.bridges {
            return None;
        }
        let to = self.geo.two_from(from, d);
        if to == NONE {
            return None;
        }
        let mid = self.geo.next_to(from, d);
        (self.cells[usize::from(mid)].conn != 0 && self.free_for(seat, to)).then_some(to)
    }

    #[inline]
    fn bridge_ok(&self, seat: Seat, from: u16, d: usize, sticks: u32) -> Option<u16> {
        if sticks < u32::from(self.rules.turn.bridge_cost) {
            return None;
        }
        self.bridge_target(seat, from, d)
    }

    #[inline]
    fn jump_ok(&self, seat: Seat, from: u16, d: usize) -> Option<u16> {
        let to = self.geo.two_from(from, d);
        (to != NONE && self.free_for(seat, to)).then_some(to)
    }

    /// Whether bridges may be built with `sticks` in hand.
    #[inline]
    pub(super) fn bridges_with(&self, sticks: u32) -> bool {
        sticks >= u32::from(self.rules.turn.bridge_cost)
    }

    /// The grows and bridges from connector `from` with `sticks` in hand,
    /// from the kept counts.
    #[inline]
    fn moves_from(&self, from: u16, sticks: u32) -> u32 {
        let [g, b] = self.dirs_with(from, sticks);
        u32::from(ones(g)) + u32::from(ones(b))
    }

    /// The directions of the grows and of the bridges from connector
    /// `from` that `sticks` in hand pay for, from the kept ones.
    #[inline]
    fn dirs_with(&self, from: u16, sticks: u32) -> [u8; 2] {
        let [g, b] = self.cells[usize::from(from)].dirs;
        [
            if sticks >= 1 { g } else { 0 },
            if self.bridges_with(sticks) { b } else { 0 },
        ]
    }

    fn can_grow_from(&self, seat: Seat, from: u16, sticks: u32) -> bool {
        debug_assert_eq!(self.cells[usize::from(from)].conn, seat + 1);
        let [g, b] = self.cells[usize::from(from)].dirs.map(ones);
        sticks >= 1 && (g > 0 || (b > 0 && self.bridges_with(sticks)))
    }

    /// Whether `seat` can grow from `from`: a grow, a bridge, or with an
    /// unused artifact a jump, or a hammer for a stone next to it.
    #[inline]
    fn can_act_from(&self, seat: Seat, from: u16, sticks: u32) -> bool {
        if self.can_grow_from(seat, from, sticks) {
            return true;
        }
        let usable = self.usable(seat);
        if usable == 0 {
            return false;
        }
        let jump = usable & (1 << Artifact::Jump as u8) != 0 && sticks >= JUMP_COST;
        let hammer = usable & (1 << Artifact::Destroy as u8) != 0;
        (0..DIRS.len()).any(|d| {
            (jump && self.jump_ok(seat, from, d).is_some())
                || (hammer && {
                    let c = self.geo.next_to(from, d);
                    c != NONE && self.cells[usize::from(c)].card == STONE
                })
        })
    }

    /// Whether a turned stone at `at` lies next to one of `seat`'s connectors.
    fn stone_by_root(&self, seat: Seat, at: u16) -> bool {
        self.cells[usize::from(at)].card == STONE
            && (0..DIRS.len()).any(|d| {
                let c = self.geo.next_to(at, d);
                c != NONE && self.cells[usize::from(c)].conn == seat + 1
            })
    }

    /// The connectors the mover may grow from now (the chain's newest, or
    /// at the start of a turn all of them).
    pub fn sources(&self) -> &[u16] {
        if self.current != NONE {
            std::slice::from_ref(&self.current)
        } else {
            &self.roots[usize::from(self.to_move)]
        }
    }

    /// Every grow and bridge, then every ability, to `f`; stops when `f`
    /// returns true.
    fn each_move(&self, mut f: impl FnMut(Action) -> bool) {
        let s = self.to_move;
        for &from in self.grow_starts() {
            if self.moves_from(from, self.sticks) == 0 {
                continue;
            }
            for d in 0..DIRS.len() {
                if self.sticks >= 1
                    && let Some(to) = self.grow_ok(s, from, d)
                    && f(Action::Grow { from, to })
                {
                    return;
                }
                if let Some(to) = self.bridge_ok(s, from, d, self.sticks)
                    && f(Action::Bridge { from, to })
                {
                    return;
                }
            }
        }
        let usable = self.usable(s);
        if usable != 0 {
            self.each_ability(usable, f);
        }
    }

    /// The abilities of the artifacts in `usable` (cold: only while a
    /// player holds an unused artifact).
    #[cold]
    fn each_ability(&self, usable: u8, mut f: impl FnMut(Action) -> bool) {
        let s = self.to_move;
        let has = |a: Artifact| usable & (1 << a as u8) != 0;
        if has(Artifact::Jump) && self.sticks >= JUMP_COST {
            for &from in self.sources() {
                for d in 0..DIRS.len() {
                    if let Some(to) = self.jump_ok(s, from, d)
                        && f(Action::Jump { from, to })
                    {
                        return;
                    }
                }
            }
        }
        if has(Artifact::Deny) {
            for seat in 0..self.seats {
                if seat != s && !self.frozen(seat) && f(Action::Deny { seat }) {
                    return;
                }
            }
        }
        let (skry, hammer, dry) = (
            has(Artifact::Skry),
            has(Artifact::Destroy),
            has(Artifact::Dry),
        );
        if skry || hammer || dry {
            for at in 0..self.geo.cells() as u16 {
                let c = self.cells[usize::from(at)].card;
                let a = if skry && c == HIDDEN {
                    Action::Skry { at }
                } else if hammer && c == STONE && self.stone_by_root(s, at) {
                    Action::Destroy { at }
                } else if dry && c == WATER && self.cells[usize::from(at)].conn != s + 1 {
                    Action::Dry { at }
                } else {
                    continue;
                };
                if f(a) {
                    return;
                }
            }
        }
    }

    fn check(&self, action: Action) -> Result<(), Refusal> {
        if self.over.is_some() {
            return Err(Refusal::GameOver);
        }
        if self.pending.is_some() || self.reveal_len > 0 {
            return Err(Refusal::Illegal {
                reason: "a card is being turned over: its draw is expected, not a decision".into(),
            });
        }
        let s = self.to_move;
        let name = |c: u16| super::rules::cell_name(self.geo.columns, c);
        let cells = self.geo.cells() as u16;
        let illegal = |reason: String| Err(Refusal::Illegal { reason });
        if let Some(a) = action.artifact() {
            if !self.rules.artifacts.abilities {
                return illegal(format!(
                    "the artifacts of this variant have no abilities: {} is worth its point and nothing more (variant key artifacts.abilities)",
                    a.key()
                ));
            }
            if !self.holds(s, a) {
                return illegal(format!("you do not hold the {} artifact", a.key()));
            }
            if self.used(a) {
                return illegal(format!(
                    "the {} artifact was used already: each ability is used once",
                    a.key()
                ));
            }
        }
        let (from, to, bridge) = match action {
            Action::End => return Ok(()),
            Action::Grow { from, to } => (from, to, false),
            Action::Bridge { from, to } => (from, to, true),
            Action::Jump { from, to } => (from, to, true),
            Action::Deny { seat } => {
                if seat >= self.seats {
                    return illegal(format!("there is no seat {}", u16::from(seat) + 1));
                }
                if seat == s {
                    return illegal("Medusa's head turns on another player, not yourself".into());
                }
                if self.frozen(seat) {
                    return illegal(format!("seat {}'s next turn is skipped already", seat + 1));
                }
                return Ok(());
            }
            Action::Skry { at } | Action::Destroy { at } | Action::Dry { at } => {
                if at >= cells {
                    return illegal("that cell is not on the board".into());
                }
                let c = self.cells[usize::from(at)].card;
                return match action {
                    Action::Skry { .. } if c != HIDDEN => illegal(format!(
                        "{} is face up: the runes are read on a face-down card",
                        name(at)
                    )),
                    Action::Destroy { .. } if c != STONE => illegal(format!(
                        "{} is not a turned stone: the hammer smashes a stone",
                        name(at)
                    )),
                    Action::Destroy { .. } if !self.stone_by_root(s, at) => illegal(format!(
                        "the stone at {} is not next to your root",
                        name(at)
                    )),
                    Action::Dry { .. } if c != WATER => {
                        illegal(format!("{} is not a water card", name(at)))
                    }
                    Action::Dry { .. } if self.cells[usize::from(at)].conn == s + 1 => {
                        illegal(format!("the water at {} is your own", name(at)))
                    }
                    _ => Ok(()),
                };
            }
        };
        let jump = matches!(action, Action::Jump { .. });
        if from >= cells || to >= cells {
            return illegal("that cell is not on the board".into());
        }
        if self.current != NONE && from != self.current {
            return illegal(format!(
                "this turn's root continues from {}: every stick after the first grows from the newest connector",
                name(self.current)
            ));
        }
        if self.cells[usize::from(from)].conn != s + 1 {
            return illegal(format!("{} holds no connector of yours", name(from)));
        }
        let d = (0..DIRS.len()).find(|&d| {
            let at = if bridge {
                self.geo.two_from(from, d)
            } else {
                self.geo.next_to(from, d)
            };
            at == to
        });
        let Some(d) = d else {
            return illegal(self.out_of_reach(from, to, bridge, jump));
        };
        let t = usize::from(to);
        if self.cells[t].conn != 0 {
            return illegal(format!("{} already holds a connector", name(to)));
        }
        if self.cells[t].card == STONE {
            return illegal(format!("{} is a stone", name(to)));
        }
        if !self.free_for(s, to) {
            return illegal(format!("{} is in another player's start area", name(to)));
        }
        if jump {
            if self.sticks < JUMP_COST {
                return illegal("you have no sticks".into());
            }
        } else if bridge {
            if !self.rules.turn.bridges {
                return illegal("this variant has no bridges".into());
            }
            let cost = u32::from(self.rules.turn.bridge_cost);
            if self.sticks < cost {
                return illegal(format!(
                    "a bridge costs {cost} sticks; you have {}",
                    self.sticks
                ));
            }
            if self.bridge_ok(s, from, d, self.sticks).is_none() {
                let mid = self.geo.next_to(from, d);
                return illegal(format!(
                    "a bridge crosses a root: {} holds no connector to build over",
                    name(mid)
                ));
            }
        } else {
            if self.sticks == 0 {
                return illegal("you have no sticks".into());
            }
            if self.grow_ok(s, from, d).is_none() {
                return illegal(format!(
                    "the stick {}-{} would cross another stick",
                    name(from),
                    name(to)
                ));
            }
        }
        Ok(())
    }

    /// Why a move from `from` cannot reach `to` (not next to it, or for a
    /// bridge or jump not two cells away in a line): which of the seat's
    /// connectors do reach it, or that none does, and where its moves of
    /// that kind can go. Said only on a refusal.
    fn out_of_reach(&self, from: u16, to: u16, bridge: bool, jump: bool) -> String {
        let name = |c: u16| super::rules::cell_name(self.geo.columns, c);
        let steps = if bridge { 2 } else { 1 };
        let what = if jump {
            "a jump goes two cells in a straight line"
        } else if bridge {
            "a bridge goes two cells in a straight line"
        } else {
            "a stick grows to a neighbouring cell"
        };
        let sources = self.sources();
        let apart = if bridge {
            "two cells in a line from"
        } else {
            "next to"
        };
        let names: Vec<String> = sources.iter().map(|&c| name(c)).collect();
        let others: Vec<String> = sources
            .iter()
            .filter(|&&c| c != from && self.geo.distance(c, to) == Some(steps))
            .map(|&c| name(c))
            .collect();
        let mut why = if !others.is_empty() {
            format!(
                "{} is not {apart} {}, but it is {apart} your connector {}: type {}-{}",
                name(to),
                name(from),
                others.join(", "),
                others[0],
                name(to)
            )
        } else if self.current != NONE {
            format!(
                "{} is not {apart} {}, where this turn's root grows on from ({what})",
                name(to),
                name(from)
            )
        } else if sources.len() > 1 {
            format!(
                "{} is {apart} none of your connectors ({}): {what}",
                name(to),
                names.join(", ")
            )
        } else {
            format!(
                "{} is not {apart} {}, your only connector: {what}",
                name(to),
                name(from)
            )
        };
        if !others.is_empty() {
            return why;
        }
        // What would: the cells the seat's moves of this kind reach now.
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        let mut targets: Vec<u16> = legal
            .iter()
            .filter_map(|a| match (*a, bridge, jump) {
                (Action::Grow { to, .. }, false, _) => Some(to),
                (Action::Bridge { to, .. }, true, false) => Some(to),
                (Action::Jump { to, .. }, true, true) => Some(to),
                _ => None,
            })
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let kind = if jump {
            "jump"
        } else if bridge {
            "bridge"
        } else {
            "grow"
        };
        if targets.is_empty() {
            why.push_str(&format!("; you can {kind} nowhere now (type `legal`)"));
        } else {
            let cells: Vec<String> = targets.iter().map(|&c| name(c)).collect();
            why.push_str(&format!("; you can {kind} to {}", cells.join(", ")));
        }
        why
    }

    /// Why `action` would be refused now, in words (`None`: it is legal).
    pub fn refusal(&self, action: Action) -> Option<String> {
        self.check(action).err().map(|e| e.to_string())
    }

    // --- The kept moves ------------------------------------------------------

    /// From scratch: the grow and bridge targets of the connector on `c`
    /// (of seat `seat`), whatever the sticks in hand.
    #[inline]
    pub(super) fn count_moves(&self, seat: Seat, c: u16) -> [u8; 2] {
        self.move_dirs(seat, c).map(ones)
    }

    /// The directions of the grows and of the bridges of a connector of
    /// `seat` on `c`, whatever the sticks in hand, one bit each.
    #[inline]
    fn move_dirs(&self, seat: Seat, c: u16) -> [u8; 2] {
        // A grow onto a neighbour open to the seat, not across a diagonal
        // stick; a bridge over a neighbouring connector onto a cell open to
        // the seat (a grow and a bridge never share a direction: a
        // connector's cell is closed).
        let ci = usize::from(c);
        let [full1, full2] = self.cells[ci].full;
        let [barred1, barred2] = self.geo.barred_dirs[ci][usize::from(seat)];
        let grows = !(full1 | barred1 | self.cells[ci].cut);
        let bridges = if self.rules.turn.bridges {
            self.cells[ci].near_conn & !(full2 | barred2)
        } else {
            0
        };
        let n = [grows, bridges];
        debug_assert_eq!(n, self.move_dirs_scratch(seat, c));
        n
    }

    /// [`State::move_dirs`] from the legality rules one move at a time
    /// (the reference the kept counts are checked against).
    fn move_dirs_scratch(&self, seat: Seat, c: u16) -> [u8; 2] {
        let mut n = [0u8; 2];
        for d in 0..DIRS.len() {
            n[0] |= u8::from(self.grow_ok(seat, c, d).is_some()) << d;
            n[1] |= u8::from(self.bridge_target(seat, c, d).is_some()) << d;
        }
        n
    }

    /// [`Cell::full`] of cell `c` from the board.
    fn full_scratch(&self, c: u16) -> [u8; 2] {
        let [one, two] = self.geo.near[usize::from(c)];
        let shut = |x: u16| x == NONE || self.cells[usize::from(x)].closed == u8::MAX;
        let mut m = [0u8; 2];
        for d in 0..DIRS.len() {
            m[0] |= u8::from(shut(one[d])) << d;
            m[1] |= u8::from(shut(two[d])) << d;
        }
        m
    }

    /// Cell `x` is now closed to every seat (`shut`) or open again: the
    /// cells one and two steps from it see it so in [`Cell::full`]; with
    /// `connector` (a connector put on it) its neighbours also see one next
    /// to them in [`Cell::near_conn`] (no connector is ever taken off).
    #[inline]
    fn set_full(&mut self, x: u16, shut: bool, connector: bool) {
        let [one, two] = self.geo.near_sink[usize::from(x)];
        self.mark_full(&one, &two, shut, connector);
    }

    /// [`State::set_full`] from the cells one and two steps away
    /// ([`Geo::near_sink`]), read already (a caller that has them saves
    /// reading them again, and with constant flags gets a loop of its own).
    /// A step off the board writes the sink: no test of the edge.
    #[inline(always)]
    fn mark_full(&mut self, one: &[u16; 8], two: &[u16; 8], shut: bool, connector: bool) {
        debug_assert!(shut || !connector);
        for d in 0..DIRS.len() {
            let a = one[d];
            let bit = 1u8 << (DIRS.len() - 1 - d);
            let b = two[d];
            // The cell one step away changed through one reference (no
            // bounds check: a step of the board or the sink); the one two
            // steps away is another cell, or the sink again.
            let near = self.sink_cell_mut(usize::from(a));
            if shut {
                near.full[0] |= bit;
            } else {
                near.full[0] &= !bit;
            }
            if connector {
                near.near_conn |= bit;
            }
            let far = &mut self.sink_cell_mut(usize::from(b)).full[1];
            if shut {
                *far |= bit;
            } else {
                *far &= !bit;
            }
        }
    }

    /// Counts the moves of the connector on `c`, if any, again.
    #[inline(always)]
    fn recount(&mut self, c: u16) {
        let cu = usize::from(c);
        let Some(seat) = self.cells[cu].conn.checked_sub(1) else {
            return;
        };
        let now = self.move_dirs(seat, c);
        let was = std::mem::replace(&mut self.cells[cu].dirs, now);
        let total = &mut self.totals[usize::from(seat)];
        for k in 0..2 {
            total[k] = total[k] + u32::from(ones(now[k])) - u32::from(ones(was[k]));
        }
    }

    /// Cell `x`, free until now, is about to be taken (a connector or a
    /// turned stone put on it; called before it changes): the connectors
    /// one step away lose their grow onto it, those two steps away their
    /// bridge onto it. Nothing else's moves read whether `x` is free: a
    /// grow reads its target and its 2x2 block's diagonal, a bridge the
    /// cell it crosses and its target.
    fn close(&mut self, x: u16) {
        self.moves_onto(x, false);
    }

    /// Cell `x` is free again (a stone broken; called after it changed):
    /// the connectors around it gain what [`State::close`] took.
    fn open(&mut self, x: u16) {
        self.moves_onto(x, true);
    }

    /// The grows onto free cell `x` of the connectors one step away and the
    /// bridges onto it of those two steps away, each taken off (`gain`
    /// false) or given back.
    #[inline]
    fn moves_onto(&mut self, x: u16, gain: bool) {
        let xi = usize::from(x);
        let [one, two] = self.geo.near[xi];
        // Whom `x` is closed to, read once: the grows and bridges onto it
        // read nothing else of it.
        let closed = self.cells[xi].closed;
        let bridges = self.rules.turn.bridges;
        // Without a connector next to `x`, neither a grow from it nor a
        // bridge over it.
        let mut around = self.cells[xi].near_conn;
        while around != 0 {
            let d = around.trailing_zeros() as usize;
            around &= around - 1;
            let a = one[d];
            let seat = self.cells[usize::from(a)].conn - 1;
            let od = DIRS.len() - 1 - d;
            if closed & (1 << seat) == 0 && self.cells[usize::from(a)].cut & (1 << od) == 0 {
                debug_assert!(self.grow_ok(seat, a, od).is_some());
                self.change(seat, a, 0, od, gain);
            }
            let b = two[d];
            if bridges
                && b != NONE
                && let Some(far) = self.cells[usize::from(b)].conn.checked_sub(1)
                && closed & (1 << far) == 0
            {
                debug_assert!(self.bridge_target(far, b, od).is_some());
                self.change(far, b, 1, od, gain);
            }
        }
    }

    /// The connector on `c` (of `seat`) gains or loses one move of kind `k`.
    #[inline(always)]
    fn change(&mut self, seat: Seat, c: u16, k: usize, d: usize, gain: bool) {
        if gain {
            self.gain(seat, c, k, d);
        } else {
            self.lose(seat, c, k, d);
        }
    }

    /// A connector was put on `x` (called after; `was`: the seats it was
    /// closed to before): what [`State::close`] does, and more, in one visit
    /// of the connectors around it: one next to it loses its grow onto `x`
    /// and may bridge over it now (the same direction), one two steps away
    /// loses its bridge onto `x`. Then the cells around see it
    /// ([`State::set_full`]) and its own moves are counted.
    fn placed(&mut self, x: u16, was: u8) {
        let xi = usize::from(x);
        // The steps with the sink off the board: `a` below is a connector's
        // cell, `beyond` and `b` may be the sink (closed to every seat, no
        // connector: nothing gained or lost), and so is every step
        // `mark_full` writes.
        let [one, two] = self.geo.near_sink[xi];
        let bridges = self.rules.turn.bridges;
        let mut around = self.cells[xi].near_conn;
        while around != 0 {
            let d = around.trailing_zeros() as usize;
            around &= around - 1;
            let od = DIRS.len() - 1 - d;
            let bit = 1u8 << od;
            let a = one[d];
            let ai = usize::from(a);
            let near = self.board_cell(ai);
            let (conn, cut) = (near.conn, near.cut);
            let seat = conn - 1;
            // The bridge over `x` gained, the grow onto it lost: each
            // worked out as a 0 or 1 and applied whatever it is (no branch
            // on the board around, which the processor cannot guess).
            let beyond_closed = self.sink_cell(usize::from(one[od])).closed;
            let gain = u8::from(bridges) & ((!beyond_closed >> seat) & 1);
            let lose = ((!was >> seat) & 1) & ((!cut >> od) & 1);
            let cell = self.board_cell_mut(ai);
            let mut dirs = cell.dirs;
            debug_assert!(gain == 0 || dirs[1] & bit == 0);
            debug_assert!(lose == 0 || dirs[0] & bit != 0);
            dirs[1] |= gain << od;
            dirs[0] &= !(lose << od);
            cell.dirs = dirs;
            // (A seat is below `MAX_SEATS`, a power of two: the mask keeps
            // it, and takes the bounds check.)
            let total = &mut self.totals[usize::from(seat) & (MAX_SEATS - 1)];
            total[1] += u32::from(gain);
            total[0] -= u32::from(lose);
            // The bridge onto `x` of a connector two steps away lost.
            // (Off the board, the sink: no connector, nothing lost.)
            if bridges {
                let bi = usize::from(two[d]);
                let far = self.sink_cell(bi).conn;
                // `was` one place up, with "closed" for no connector (0).
                let open = !((u16::from(was) << 1 | 1) >> far) & 1;
                let lose = open as u8;
                let cell = self.sink_cell_mut(bi);
                let mut dirs = cell.dirs;
                debug_assert!(lose == 0 || dirs[1] & bit != 0);
                dirs[1] &= !(lose << od);
                cell.dirs = dirs;
                self.totals[usize::from(far.saturating_sub(1)) & (MAX_SEATS - 1)][1] -=
                    u32::from(lose);
            }
        }
        // The cells around see it closed, and a connector next to them
        // (the steps read above, not read again).
        self.mark_full(&one, &two, true, true);
        self.recount(x);
    }

    /// A diagonal stick of `kind` is about to be laid in the 2x2 block
    /// whose top-left cell is `block` (called before): the connectors on
    /// the block's other two corners lose their grow across it.
    fn cross(&mut self, block: u16, kind: u8) {
        let cols = u16::from(self.geo.columns);
        // The other diagonal's corners and the directions from each to the
        // other ([`DIRS`]: 2 up-right, 5 down-left, 0 up-left, 7 down-right).
        let [(p, pd), (q, qd)] = if kind == 1 {
            [(block + 1, 5), (block + cols, 2)]
        } else {
            [(block, 7), (block + cols + 1, 0)]
        };
        for (c, d) in [(p, pd), (q, qd)] {
            if let Some(seat) = self.cells[usize::from(c)].conn.checked_sub(1)
                && self.grow_ok(seat, c, d).is_some()
            {
                self.lose(seat, c, 0, d);
            }
            self.cells[usize::from(c)].cut |= 1 << d;
        }
    }

    /// The connector on `c` (of `seat`) lost one move of kind `k` (0 grow,
    /// 1 bridge).
    #[inline]
    fn lose(&mut self, seat: Seat, c: u16, k: usize, d: usize) {
        debug_assert!(self.cells[usize::from(c)].dirs[k] & (1 << d) != 0);
        // Both masks changed and stored together, then tested in the
        // register: a one-byte store read back as two bytes would wait for
        // the store to land.
        let kept = &mut self.cells[usize::from(c)].dirs;
        let mut dirs = *kept;
        dirs[k] &= !(1 << d);
        *kept = dirs;
        self.totals[usize::from(seat)][k] -= 1;
    }

    /// The connector on `c` (of `seat`) gained one move of kind `k`.
    #[inline]
    fn gain(&mut self, seat: Seat, c: u16, k: usize, d: usize) {
        debug_assert!(self.cells[usize::from(c)].dirs[k] & (1 << d) == 0);
        let kept = &mut self.cells[usize::from(c)].dirs;
        let mut dirs = *kept;
        dirs[k] |= 1 << d;
        *kept = dirs;
        self.totals[usize::from(seat)][k] += 1;
    }

    /// From scratch: every connector's kept move counts and each seat's
    /// sums.
    fn moves_ok(&self) -> Result<(), String> {
        // The closed cells first: the counts below read them.
        for c in 0..self.geo.cells() {
            let area = self.geo.deck_of[c];
            let want = if self.cells[c].conn != 0 || self.cells[c].card == STONE {
                u8::MAX
            } else if self.rules.turn.enter_start_areas || area == 0 {
                0
            } else {
                !(1u8 << (area - 1))
            };
            if self.cells[c].closed != want {
                return Err(format!(
                    "{}: closed to seats {:#010b} kept, {want:#010b} from scratch",
                    super::rules::cell_name(self.geo.columns, c as u16),
                    self.cells[c].closed
                ));
            }
        }
        let mut totals = [[0u32; 2]; MAX_SEATS];
        for c in 0..self.geo.cells() {
            let want = match self.cells[c].conn.checked_sub(1) {
                Some(seat) => {
                    let dirs = self.move_dirs_scratch(seat, c as u16);
                    for k in 0..2 {
                        totals[usize::from(seat)][k] += u32::from(ones(dirs[k]));
                    }
                    dirs
                }
                None => [0, 0],
            };
            if self.cells[c].dirs != want {
                return Err(format!(
                    "{}: grow and bridge directions {:?} kept, {want:?} from scratch",
                    super::rules::cell_name(self.geo.columns, c as u16),
                    self.cells[c].dirs
                ));
            }
        }
        if totals != self.totals {
            return Err(format!(
                "the seats' moves: {:?} kept, {totals:?} counted",
                self.totals
            ));
        }
        Ok(())
    }

    /// The connectors the mover's grows and bridges may start from: the
    /// current one, or at the turn's first decision every connector of the
    /// mover's root, in the order they were placed. A connector without a
    /// grow or bridge left costs a read of its masks (its kept
    /// [`Cell::dirs`] are empty); no list of the connectors that still have
    /// one is kept, since pruning it at every turn cost more than the
    /// walks over those without.
    #[inline]
    fn grow_starts(&self) -> &[u16] {
        self.sources()
    }

    /// The `k`th move of [`State::each_move`], counted from 0 (`k` below
    /// their number).
    fn nth_move(&self, mut k: u32) -> Action {
        let mut pick = Action::End;
        self.each_move(|a| {
            if k == 0 {
                pick = a;
                true
            } else {
                k -= 1;
                false
            }
        });
        pick
    }

    // --- Changing the state --------------------------------------------------

    fn begin_turn(&mut self) {
        self.skipped = 0;
        loop {
            let s = usize::from(self.to_move);
            if self.frozen & (1 << s) != 0 {
                // Medusa's head: the turn is skipped, no income, the kept
                // sticks stay kept.
                self.frozen &= !(1 << s);
                self.skipped |= 1 << s;
                self.tally.turns_denied += 1;
                if !self.next_seat() {
                    return;
                }
                continue;
            }
            let income = self.income(self.to_move);
            self.tally.sticks_received += income;
            self.sticks = std::mem::take(&mut self.kept[s]) + income;
            self.current = NONE;
            let me = self.to_move;
            let can = if self.usable(me) == 0 {
                let [g, b] = self.totals[s];
                let fast = self.sticks >= 1 && (g > 0 || (b > 0 && self.bridges_with(self.sticks)));
                debug_assert!(self.moves_ok().is_ok(), "{:?}", self.moves_ok());
                debug_assert_eq!(
                    fast,
                    self.roots[s]
                        .iter()
                        .any(|&c| self.can_act_from(me, c, self.sticks))
                );
                fast
            } else {
                self.roots[s]
                    .iter()
                    .any(|&c| self.can_act_from(me, c, self.sticks))
            };
            if can {
                self.blocked_streak = 0;
                return;
            }
            self.tally.blocked_turns += 1;
            self.blocked_streak += 1;
            self.put_away(self.rules.turn.blocked_end);
            if self.blocked_streak >= self.seats {
                self.over = Some(EndReason::Blocked);
                return;
            }
            if !self.next_seat() {
                return;
            }
        }
    }

    /// The sticks in hand kept for next turn or lost.
    fn put_away(&mut self, fate: Sticks) {
        let n = std::mem::take(&mut self.sticks);
        match fate {
            Sticks::Keep => self.kept[usize::from(self.to_move)] += n,
            Sticks::Lose => self.tally.sticks_lost += n,
        }
    }

    /// The next seat; false when the round limit ended the game.
    fn next_seat(&mut self) -> bool {
        self.tally.turns += 1;
        self.to_move = if self.to_move + 1 == self.seats {
            0
        } else {
            self.to_move + 1
        };
        if self.to_move == 0 {
            self.round += 1;
            if self.round >= self.rules.end.max_rounds {
                self.over = Some(EndReason::RoundLimit);
                return false;
            }
        }
        true
    }

    /// Give the seat to move `n` more sticks for this turn, or take `-n`
    /// (a house rule's `add_sticks`): counted received or lost, so the
    /// sticks stay conserved; a turn left with none ends, as after a move.
    pub(super) fn script_sticks(&mut self, n: i64) -> Result<u32, String> {
        if self.over.is_some() || !matches!(self.next(), Next::Decide(_)) {
            return Err(
                "sticks change only at a decision (not while a card is turned over)".into(),
            );
        }
        let new = i64::from(self.sticks) + n;
        if !(0..=1000).contains(&new) {
            return Err(format!(
                "the seat to move would hold {new} sticks (0 to 1000)"
            ));
        }
        if n >= 0 {
            self.tally.sticks_received += n as u32;
        } else {
            self.tally.sticks_lost += n.unsigned_abs() as u32;
        }
        self.sticks = new as u32;
        if self.sticks == 0 {
            self.end_turn(Sticks::Keep);
        }
        Ok(new as u32)
    }

    fn end_turn(&mut self, fate: Sticks) {
        self.put_away(fate);
        self.current = NONE;
        self.pending = None;
        if self.over.is_none() && self.next_seat() {
            self.begin_turn();
        }
    }

    fn apply(&mut self, action: Action) {
        // The last move, for the picture and the terminal board: every
        // action but a voluntary end (which leaves the board as it was).
        if action != Action::End {
            self.last = Some(action);
        }
        if let Some(a) = action.artifact() {
            self.used |= 1 << a as u8;
            self.tally.abilities_used += 1;
        }
        let (from, to) = match action {
            Action::End => {
                self.tally.voluntary_ends += 1;
                self.end_turn(self.rules.turn.voluntary_end);
                return;
            }
            Action::Grow { from, to } | Action::Bridge { from, to } | Action::Jump { from, to } => {
                (from, to)
            }
            Action::Skry { at } => {
                // The cell first, then its face-down neighbours; drawn last
                // to first.
                let mut cells = [NONE; 9];
                let mut n = 0;
                cells[n] = at;
                n += 1;
                for d in 0..DIRS.len() {
                    let c = self.geo.next_to(at, d);
                    if c != NONE && self.cells[usize::from(c)].card == HIDDEN {
                        cells[n] = c;
                        n += 1;
                    }
                }
                for (i, &c) in cells[..n].iter().rev().enumerate() {
                    self.reveal[i] = c;
                }
                self.reveal_len = n as u8;
                return;
            }
            Action::Deny { seat } => {
                self.frozen |= 1 << seat;
                return;
            }
            Action::Destroy { at } => {
                self.cells[usize::from(at)].card = RUBBLE;
                self.cells[usize::from(at)].closed = self.geo.barred[usize::from(at)];
                self.set_full(at, false, false);
                // The cell is free again: its neighbours may grow onto it,
                // and connectors two away bridge onto it.
                self.open(at);
                self.after_ability();
                return;
            }
            Action::Dry { at } => {
                let t = usize::from(at);
                if let Some(owner) = self.cells[t].conn.checked_sub(1) {
                    self.waters[usize::from(owner)] -= 1;
                }
                self.cells[t].card = DRIED;
                self.after_ability();
                return;
            }
        };
        self.current = from;
        let face = self.cells[usize::from(to)].card;
        if face == HIDDEN {
            self.pending = Some(action);
        } else {
            self.resolve(action, face, false);
        }
    }

    /// The card under the grow or bridge is known: play it out.
    fn resolve(&mut self, action: Action, face: u8, drawn: bool) {
        self.pending = None;
        let s = self.to_move;
        let si = usize::from(s);
        let (from, to, cost, bridge) = match action {
            Action::Grow { from, to } => (from, to, 1, false),
            Action::Bridge { from, to } => (from, to, u32::from(self.rules.turn.bridge_cost), true),
            Action::Jump { from, to } => (from, to, JUMP_COST, true),
            _ => return,
        };
        if face == STONE {
            self.tally.stones_hit += 1;
            self.end_turn(Sticks::Keep);
            return;
        }
        self.sticks -= cost;
        self.tally.sticks_spent += cost;
        self.tally.extensions += 1;
        let t = usize::from(to);
        // Who could grow or bridge onto it until now.
        let was = self.cells[t].closed;
        // Its stick may cross another's way.
        let diagonal = if bridge {
            None
        } else {
            self.diagonal_step(from, to)
        };
        if let Some((block, kind)) = diagonal
            && self.cells[block].diag == 0
        {
            self.cross(block as u16, kind);
        }
        let cell = &mut self.cells[t];
        cell.conn = s + 1;
        cell.closed = u8::MAX;
        cell.parent = from;
        cell.bridged = match action {
            Action::Jump { .. } => JUMP,
            _ if bridge => BRIDGE,
            _ => 0,
        };
        if matches!(action, Action::Bridge { .. }) {
            self.tally.bridges += 1;
        }
        // A laid stick (not one over a cell) takes its 2x2 block's diagonal.
        if let Some((block, kind)) = diagonal {
            self.cells[block].diag = kind;
        }
        let parent = &mut self.cells[usize::from(from)];
        if parent.children == 0 && self.geo.seeds[si] != from {
            self.leaves[si] -= 1;
        }
        parent.children += 1;
        self.leaves[si] += 1;
        self.roots[si].push(to);
        self.grow_longest(si, to);
        // No one grows onto it or bridges onto it now, its neighbours may
        // bridge over it, and its own moves are counted.
        self.placed(to, was);
        self.current = to;
        let mut stop = false;
        match face {
            WATER => self.waters[si] += 1,
            FERTILIZER => {
                let n = u32::from(self.rules.turn.fertilizer);
                self.sticks += n;
                self.tally.sticks_received += n;
            }
            a if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&a) => {
                self.hands[si] |= 1 << (a - FIRST_ARTIFACT);
                self.unclaimed_artifacts -= 1;
                if drawn {
                    self.hidden_artifacts -= 1;
                }
                let end = match self.rules.end.trigger {
                    EndTrigger::LastHiddenArtifact => drawn && self.hidden_artifacts == 0,
                    EndTrigger::AllArtifactsClaimed => self.unclaimed_artifacts == 0,
                };
                if end {
                    self.over = Some(if drawn && self.hidden_artifacts == 0 {
                        EndReason::LastArtifact
                    } else {
                        EndReason::AllClaimed
                    });
                    return;
                }
                stop = self.rules.turn.artifact_ends_turn;
            }
            _ => {}
        }
        if stop || self.sticks == 0 {
            self.end_turn(Sticks::Keep);
        } else if !self.can_act_from(s, to, self.sticks) {
            self.end_turn(self.rules.turn.blocked_end);
        }
    }

    /// After an ability that changed the board: the turn ends by itself
    /// when no connector it may grow from can grow any more (R8).
    fn after_ability(&mut self) {
        if self.over.is_some() {
            return;
        }
        let s = self.to_move;
        if !self
            .sources()
            .iter()
            .any(|&c| self.can_act_from(s, c, self.sticks))
        {
            self.end_turn(self.rules.turn.blocked_end);
        }
    }

    /// Turn the card at `at` over as `face`, from its deck.
    fn draw_card(&mut self, at: u16, face: u8) -> Result<(), Refusal> {
        let d = usize::from(self.geo.deck_of[usize::from(at)]);
        let k = usize::from(face).wrapping_sub(1);
        if k >= FACES || self.decks[d][k] == 0 {
            return Err(self.none_left(d, face));
        }
        self.decks[d][k] -= 1;
        if face == STONE {
            self.close(at);
            self.cells[usize::from(at)].closed = u8::MAX;
            self.set_full(at, true, false);
        }
        self.cells[usize::from(at)].card = face;
        self.tally.cards_turned += 1;
        self.tally.drawn[k.min(4)] += 1;
        Ok(())
    }

    /// The refusal of a card its deck has none of (out of the hot path:
    /// the message is built only when a card is refused).
    #[cold]
    #[inline(never)]
    fn none_left(&self, d: usize, face: u8) -> Refusal {
        Refusal::Illegal {
            reason: format!(
                "no {} is left in {}",
                super::text::card_name(face),
                super::text::deck_name(self, d)
            ),
        }
    }

    // --- Scores ----------------------------------------------------------------

    /// The sticks between two connectors of one root (bridges and jumps are
    /// one step each).
    pub(super) fn sticks_between(&self, mut a: u16, mut b: u16) -> u32 {
        let mut n = 0;
        while self.cells[usize::from(a)].depth > self.cells[usize::from(b)].depth {
            a = self.cells[usize::from(a)].parent;
            n += 1;
        }
        while self.cells[usize::from(b)].depth > self.cells[usize::from(a)].depth {
            b = self.cells[usize::from(b)].parent;
            n += 1;
        }
        while a != b {
            a = self.cells[usize::from(a)].parent;
            b = self.cells[usize::from(b)].parent;
            n += 2;
        }
        n
    }

    /// Seat `s`'s root grew a new tip `x`: its depth, and the longest path
    /// (the tip's farthest connector is an end of a longest path of the
    /// root before it, so the new longest path is the old one or ends at
    /// `x` and one of the old ends).
    fn grow_longest(&mut self, s: usize, x: u16) {
        let xi = usize::from(x);
        let p = self.cells[xi].parent;
        let depth = self.cells[usize::from(p)].depth + 1;
        self.cells[xi].depth = depth;
        let mut l = self.longest[s];
        l.from_seed = l.from_seed.max(u32::from(depth));
        // A new tip's way to anything else of its root passes its parent.
        let kept = self.cells[usize::from(p)].to_ends;
        self.cells[xi].to_ends = kept.map(|n| n + 1);
        let [to_a, to_b] = [0, 1].map(|k| (kept[k] + l.base[k] + 1) as u32);
        debug_assert_eq!([to_a, to_b], l.ends.map(|e| self.sticks_between(x, e)));
        if to_a.max(to_b) > l.any_path {
            let k = if to_a >= to_b {
                l.any_path = to_a;
                1
            } else {
                l.any_path = to_b;
                0
            };
            if l.ends[k] == p {
                // The path grew at its end `k`: everything is one stick
                // farther from the new end than from the old.
                l.base[k] += 1;
                self.cells[xi].to_ends[k] = -l.base[k];
                l.ends[k] = x;
                self.longest[s] = l;
            } else {
                l.ends[k] = x;
                l.base[k] = 0;
                self.longest[s] = l;
                self.measure_from(s, x, k);
            }
        } else {
            self.longest[s] = l;
        }
    }

    /// The sticks of every connector of seat `s`'s root to `x`, the new
    /// end `k` of its longest path, into [`Cell::to_ends`] (its base 0),
    /// the root in the order it grew (a parent before its children):
    /// `x`'s ancestors are marked first, their sticks to it are the
    /// difference of depths, anyone else's its parent's plus one.
    fn measure_from(&mut self, s: usize, x: u16, k: usize) {
        // Out of reach of the kept values (at most the cells, 1,040, from 0
        // either way).
        const ANCESTOR: i16 = i16::MIN;
        let mut a = x;
        while a != NONE {
            let cell = self.board_cell_mut(usize::from(a));
            cell.to_ends[k] = ANCESTOR;
            a = cell.parent;
        }
        let top = self.cells[usize::from(x)].depth as i16;
        for &c in &self.roots[s] {
            let ci = usize::from(c);
            let cell = *self.board_cell(ci);
            // Both ways worked out and one kept, without a branch on the
            // walk's shape (an ancestor reads itself, not its parent: the
            // seed has none).
            let ancestor = cell.to_ends[k] == ANCESTOR;
            let from_top = top - cell.depth as i16;
            // (`select_unpredictable`: the compiler made a branch of a
            // plain `if` here, mispredicted about once a root's walk.)
            let via = std::hint::select_unpredictable(ancestor, ci, usize::from(cell.parent));
            // (`via` is the cell or its parent, a connector's: a seed is
            // an ancestor and reads itself.)
            let from_parent = self.board_cell(via).to_ends[k].wrapping_add(1);
            self.cells[ci].to_ends[k] =
                std::hint::select_unpredictable(ancestor, from_top, from_parent);
        }
    }

    /// The sticks from the connector on `c` to the ends of its root's
    /// longest path, kept.
    pub(super) fn sticks_to_ends(&self, c: u16) -> [u32; 2] {
        let seat = usize::from(self.cells[usize::from(c)].conn - 1);
        let (kept, base) = (self.cells[usize::from(c)].to_ends, self.longest[seat].base);
        [0, 1].map(|k| (kept[k] + base[k]) as u32)
    }

    /// Per seat: (tips other than the seed, longest root in sticks), kept
    /// as the roots grow.
    #[inline]
    fn measure(&self, s: usize) -> (u32, u32) {
        let l = &self.longest[s];
        let longest = match self.rules.scoring.longest_root_measure {
            RootMeasure::AnyPath => l.any_path,
            RootMeasure::FromSeed => l.from_seed,
        };
        (u32::from(self.leaves[s]), longest)
    }

    /// Per seat: (tips other than the seed, longest root in sticks).
    pub fn root_measures(&self) -> Vec<(u32, u32)> {
        (0..usize::from(self.seats))
            .map(|s| self.measure(s))
            .collect()
    }

    /// [`State::root_measures`] from scratch, walking every root.
    fn root_measures_recount(&self) -> Vec<(u32, u32)> {
        // The roots hold disjoint cells: one scratch table serves them all.
        let mut best = match self.rules.scoring.longest_root_measure {
            RootMeasure::AnyPath => vec![(0u32, 0u32); self.geo.cells()],
            RootMeasure::FromSeed => Vec::new(),
        };
        (0..self.seats)
            .map(|s| {
                let root = &self.roots[usize::from(s)];
                // Kept as the roots grow (and recounted by the invariants).
                let leaves = u32::from(self.leaves[usize::from(s)]);
                let longest = match self.rules.scoring.longest_root_measure {
                    RootMeasure::FromSeed => root
                        .iter()
                        .map(|&c| {
                            let mut d = 0;
                            let mut x = c;
                            while let Some(p) = self.parent(x) {
                                d += 1;
                                x = p;
                            }
                            d
                        })
                        .max()
                        .unwrap_or(0),
                    RootMeasure::AnyPath => {
                        // Children come after parents in `root`: walk it
                        // backwards, keeping each cell's two longest arms.
                        let mut diameter = 0;
                        for &c in root.iter().rev() {
                            let ci = usize::from(c);
                            let (a, b) = best[ci];
                            diameter = diameter.max(a + b);
                            if let Some(p) = self.parent(c) {
                                let h = a + 1;
                                let e = &mut best[usize::from(p)];
                                if h > e.0 {
                                    *e = (h, e.0);
                                } else if h > e.1 {
                                    e.1 = h;
                                }
                            }
                        }
                        diameter
                    }
                };
                (leaves, longest)
            })
            .collect()
    }

    /// The figures a seat scores by now.
    #[inline]
    pub(super) fn figures(&self, s: usize) -> Figures {
        let (leaves, longest) = self.measure(s);
        Figures {
            leaves,
            longest,
            waters: self.waters[s],
            hands: self.hands[s],
        }
    }

    /// Each seat's score parts (water, artifacts, branches bonus,
    /// longest-root bonus) from each seat's figures.
    #[inline]
    pub(super) fn score_table(&self, figures: impl Fn(usize) -> Figures) -> [[i32; 4]; MAX_SEATS] {
        let seats = usize::from(self.seats);
        let mut f = [Figures::default(); MAX_SEATS];
        for (s, slot) in f.iter_mut().enumerate().take(seats) {
            *slot = figures(s);
        }
        let sc = &self.rules.scoring;
        // Who gets a bonus measured by `value`, one bit per seat.
        let bonus = |value: fn(&Figures) -> u32| -> u8 {
            let best = f[..seats].iter().map(value).max().unwrap_or(0);
            let n = f[..seats].iter().filter(|x| value(x) == best).count();
            if best == 0 || (n > 1 && sc.bonus_ties != BonusTies::AllTied) {
                return 0;
            }
            (0..seats)
                .filter(|&s| value(&f[s]) == best)
                .fold(0, |bits, s| bits | 1 << s)
        };
        let branches = bonus(|x| x.leaves);
        let longest = bonus(|x| x.longest);
        let mut out = [[0; 4]; MAX_SEATS];
        for s in 0..seats {
            let points = |bits: u8, points: u8| {
                if bits & (1 << s) != 0 {
                    i32::from(points)
                } else {
                    0
                }
            };
            out[s] = [
                i32::from(sc.water) * i32::from(f[s].waters),
                i32::from(sc.artifact) * f[s].hands.count_ones() as i32,
                points(branches, sc.most_branches),
                points(longest, sc.longest_root),
            ];
        }
        out
    }

    /// Each seat's score and its parts: water, artifacts, branches bonus,
    /// longest-root bonus.
    pub fn score_parts(&self) -> Vec<[i32; 4]> {
        self.score_table(|s| self.figures(s))[..usize::from(self.seats)].to_vec()
    }

    pub fn scores(&self) -> Vec<i32> {
        let scores = self.score_table(|s| self.figures(s))[..usize::from(self.seats)]
            .iter()
            .map(|p| p.iter().sum())
            .collect();
        if self.script.is_some() {
            return self.scripted_scores(scores);
        }
        scores
    }

    // --- Invariants ------------------------------------------------------------

    /// Recount everything from the cells and compare.
    pub fn check_invariants(&self) -> Result<(), String> {
        let g = &self.geo;
        let cells = g.cells();
        let name = |c: usize| super::rules::cell_name(g.columns, c as u16);
        // The board's records and the sink after them, which stays closed
        // to every seat, without a connector or moves ([`Geo::near_sink`]).
        match self.cells.get(cells..) {
            Some([sink]) if sink.closed == u8::MAX && sink.conn == 0 && sink.dirs == [0, 0] => {}
            _ => {
                return Err(format!(
                    "{} cell records, not the board's {cells} and the sink",
                    self.cells.len()
                ));
            }
        }
        // Cards conserved per deck: left + turned over = dealt; the hidden
        // cells of a deck are exactly the cards left in it.
        let mut turned = vec![[0u32; FACES]; self.decks.len()];
        let mut hidden = vec![0u32; self.decks.len()];
        for c in 0..cells {
            let d = usize::from(g.deck_of[c]);
            match self.cells[c].card {
                HIDDEN => hidden[d] += 1,
                RUBBLE if g.face_up[c] => {
                    return Err(format!("{}: rubble of a stone never dealt", name(c)));
                }
                RUBBLE if !g.face_up[c] => turned[d][usize::from(STONE) - 1] += 1,
                DRIED if !g.face_up[c] => turned[d][usize::from(WATER) - 1] += 1,
                f if !g.face_up[c] => {
                    if !(1..=FACES as u8).contains(&f) {
                        return Err(format!("{}: card {f} was never in a deck", name(c)));
                    }
                    turned[d][usize::from(f) - 1] += 1;
                }
                _ => {}
            }
        }
        for d in 0..self.decks.len() {
            for (k, ((left, turned), dealt)) in self.decks[d]
                .iter()
                .zip(&turned[d])
                .zip(&g.dealt[d])
                .enumerate()
            {
                if left + turned != *dealt {
                    return Err(format!(
                        "deck {d}, kind {k}: {left} left and {turned} turned over, but {dealt} dealt"
                    ));
                }
            }
            let left: u32 = self.decks[d].iter().sum();
            if left != hidden[d] {
                return Err(format!(
                    "deck {d}: {left} cards left for {hidden:?} face-down cells"
                ));
            }
        }
        // Roots: trees of adjacent cells, one connector per cell.
        let mut diag = vec![0u8; cells];
        let mut leaves = [0u16; MAX_SEATS];
        let mut waters = [0u16; MAX_SEATS];
        let mut children = vec![0u8; cells];
        let mut count = vec![0usize; usize::from(self.seats)];
        for c in 0..cells {
            let Some(s) = self.cells[c].conn.checked_sub(1) else {
                continue;
            };
            let si = usize::from(s);
            count[si] += 1;
            if self.cells[c].card == HIDDEN || self.cells[c].card == STONE {
                return Err(format!(
                    "{}: a connector on a face-down card or a stone",
                    name(c)
                ));
            }
            if self.cells[c].card == WATER {
                waters[si] += 1;
            }
            if c as u16 == g.seeds[si] {
                if self.cells[c].parent != NONE {
                    return Err(format!("{}: the seed has a parent", name(c)));
                }
                continue;
            }
            let p = self.cells[c].parent;
            if p == NONE || self.cells[usize::from(p)].conn != s + 1 {
                return Err(format!("{}: not joined to its own root", name(c)));
            }
            children[usize::from(p)] += 1;
            let (r0, c0) = g.rc(p);
            let (r1, c1) = g.rc(c as u16);
            let (dr, dc) = ((r1 - r0).abs(), (c1 - c0).abs());
            let ok = if self.cells[c].bridged != 0 {
                (dr == 2 || dr == 0) && (dc == 2 || dc == 0) && dr + dc > 0
            } else {
                dr <= 1 && dc <= 1 && dr + dc > 0
            };
            if !ok {
                return Err(format!(
                    "{}: its stick from {} is too long",
                    name(c),
                    name(usize::from(p))
                ));
            }
            if self.cells[c].bridged == 0
                && let Some((block, kind)) = self.diagonal(p, c as u16)
            {
                if diag[block] != 0 && diag[block] != kind {
                    return Err(format!("{}: two sticks cross", name(block)));
                }
                diag[block] = kind;
            }
        }
        if diag
            .iter()
            .zip(&self.cells)
            .any(|(&d, cell)| d != cell.diag)
        {
            return Err("the diagonal sticks do not match the roots".into());
        }
        for c in 0..g.cells() {
            let next = (0..DIRS.len()).fold(0u8, |m, d| {
                let a = g.next_to(c as u16, d);
                m | u8::from(a != NONE && self.cells[usize::from(a)].conn != 0) << d
            });
            if self.cells[c].near_conn != next {
                return Err(format!(
                    "{}: connectors around it {:#010b} kept, {next:#010b} on the board",
                    name(c),
                    self.cells[c].near_conn
                ));
            }
            let want = (0..DIRS.len()).fold(0u8, |m, d| {
                let to = g.next_to(c as u16, d);
                m | u8::from(to != NONE && !self.diagonal_clear(c as u16, to, d)) << d
            });
            if self.cells[c].full != self.full_scratch(c as u16) {
                return Err(format!(
                    "{}: closed cells around it {:?} kept, {:?} on the board",
                    name(c),
                    self.cells[c].full,
                    self.full_scratch(c as u16)
                ));
            }
            if self.cells[c].cut != want {
                return Err(format!(
                    "{}: grows cut by diagonals {:#010b} kept, {want:#010b} from the sticks",
                    name(c),
                    self.cells[c].cut
                ));
            }
        }
        if children
            .iter()
            .zip(&self.cells)
            .any(|(&n, cell)| n != cell.children)
        {
            return Err("the branch counts do not match the roots".into());
        }
        for s in 0..usize::from(self.seats) {
            leaves[s] = self.roots[s]
                .iter()
                .filter(|&&c| c != g.seeds[s] && children[usize::from(c)] == 0)
                .count() as u16;
            if count[s] != self.roots[s].len() {
                return Err(format!("seat {}: connectors and root list differ", s + 1));
            }
        }
        if leaves != self.leaves || waters != self.waters {
            return Err("tips or waters do not match the roots".into());
        }
        if self.root_measures() != self.root_measures_recount() {
            return Err(format!(
                "the longest roots: {:?} kept, {:?} measured",
                self.root_measures(),
                self.root_measures_recount()
            ));
        }
        for (s, root) in self.roots.iter().enumerate() {
            let ends = self.longest[s].ends;
            for &c in root {
                let want = ends.map(|e| self.sticks_between(c, e));
                if self.sticks_to_ends(c) != want {
                    return Err(format!(
                        "{}: sticks to the longest path's ends {:?} kept, {want:?} counted",
                        name(usize::from(c)),
                        self.sticks_to_ends(c)
                    ));
                }
            }
        }
        // Artifacts: each in at most one hand, hands match the cells.
        let mut all = 0u8;
        for &h in &self.hands {
            if all & h != 0 {
                return Err("an artifact is in two hands".into());
            }
            all |= h;
        }
        for c in 0..cells {
            let f = self.cells[c].card;
            if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&f) {
                let bit = 1u8 << (f - FIRST_ARTIFACT);
                let held = self.cells[c]
                    .conn
                    .checked_sub(1)
                    .map(|s| self.hands[usize::from(s)] & bit != 0);
                if held == Some(false) || (held.is_none() && all & bit != 0) {
                    return Err(format!("{}: the artifact's owner is wrong", name(c)));
                }
            }
        }
        if self.used & !all != 0 {
            return Err("an artifact nobody holds was used".into());
        }
        if !self.rules.artifacts.abilities && (self.used != 0 || self.frozen != 0) {
            return Err("an ability was used in a variant without abilities".into());
        }
        if 5 - all.count_ones() as u8 != self.unclaimed_artifacts {
            return Err("the unclaimed artifacts are miscounted".into());
        }
        let hidden_artifacts: u32 = self.decks[0][4..].iter().sum();
        if hidden_artifacts != u32::from(self.hidden_artifacts) {
            return Err("the hidden artifacts are miscounted".into());
        }
        // Sticks: received = spent + lost + held.
        let held: u32 = self.kept.iter().sum::<u32>() + self.sticks;
        let t = &self.tally;
        if t.sticks_received != t.sticks_spent + t.sticks_lost + held {
            return Err(format!(
                "sticks: {} received, but {} spent + {} lost + {held} held",
                t.sticks_received, t.sticks_spent, t.sticks_lost
            ));
        }
        let spent_recount: u32 = (0..cells)
            .filter(|&c| self.cells[c].conn != 0 && self.cells[c].parent != NONE)
            .map(|c| match self.cells[c].bridged {
                BRIDGE => u32::from(self.rules.turn.bridge_cost),
                JUMP => JUMP_COST,
                _ => 1,
            })
            .sum();
        if spent_recount != t.sticks_spent {
            return Err(format!(
                "{spent_recount} sticks lie on the board, {} counted spent",
                t.sticks_spent
            ));
        }
        // The move counts, recounted from the board.
        self.moves_ok()?;
        Ok(())
    }
}

impl GameState for State {
    type Action = Action;

    crate::script_moves!(apply);

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    fn next(&self) -> Next {
        if self.over.is_some() {
            Next::Over
        } else if self.pending.is_some() || self.reveal_len > 0 {
            Next::Draw
        } else {
            Next::Decide(self.to_move)
        }
    }

    fn roll(&mut self, face: u8) -> Result<(), Refusal> {
        if self.script.is_some() {
            return self.roll_scripted(face);
        }
        self.roll_plain(face)
    }

    fn draw_weights(&self) -> &[u32] {
        let Some(at) = self.drawing_at() else {
            return &[];
        };
        &self.decks[usize::from(self.geo.deck_of[usize::from(at)])]
    }

    fn outcome(&self) -> Option<Outcome> {
        self.over.map(|_| Outcome::from_scores(self.scores()))
    }
}

impl State {
    /// The legal actions before any house rule filters them.
    pub(super) fn legal_plain(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.over.is_some() || self.pending.is_some() || self.reveal_len > 0 {
            return;
        }
        self.each_move(|a| {
            out.push(a);
            false
        });
        out.push(Action::End);
    }

    /// Apply an action, no house rule run.
    #[inline]
    pub(super) fn apply_plain(&mut self, action: Action) {
        self.apply(action);
    }

    /// End the game now: a house rule ends it, or fails.
    pub(super) fn end_now(&mut self, reason: EndReason) {
        self.over = Some(reason);
        self.pending = None;
        self.reveal_len = 0;
    }

    /// A card turned over, no house rule run.
    pub(super) fn roll_plain(&mut self, face: u8) -> Result<(), Refusal> {
        if let Some(at) = self.revealing()
            && self.over.is_none()
        {
            self.draw_card(at, face)?;
            self.reveal_len -= 1;
            if (FIRST_ARTIFACT..FIRST_ARTIFACT + 5).contains(&face) {
                // Turned over by the runes: it lies face up for anyone to
                // reach; the last face-down one ends the game and goes to
                // nobody.
                self.hidden_artifacts -= 1;
                if self.rules.end.trigger == EndTrigger::LastHiddenArtifact
                    && self.hidden_artifacts == 0
                {
                    self.over = Some(EndReason::LastArtifact);
                    self.reveal_len = 0;
                    return Ok(());
                }
            }
            if self.reveal_len == 0 {
                self.after_ability();
            }
            return Ok(());
        }
        let Some(action) = self.pending else {
            return Err(match self.next() {
                Next::Over => Refusal::GameOver,
                _ => Refusal::ExpectedAction { seat: self.to_move },
            });
        };
        let Some((_, to)) = action.stick() else {
            return Err(Refusal::GameOver);
        };
        self.draw_card(to, face)?;
        self.resolve(action, face, true);
        Ok(())
    }

    /// A random legal action before any house rule filters it.
    #[inline]
    pub(super) fn random_plain(&self, dice: &mut SeededDice) -> Action {
        if self.usable(self.to_move) != 0 {
            return self.random_listed(dice);
        }
        // The grows and bridges are counted already: the die picks one of
        // them or the end, and only the chosen connector's directions are
        // looked at. The same draw, the same enumeration order as listing
        // them ([`State::each_move`]).
        let n = self.counted_moves();
        let k = dice.below(n + 1);
        if k == n {
            return Action::End;
        }
        let pick = self.counted_move(k);
        debug_assert_eq!(pick, self.nth_move(k));
        debug_assert_eq!(
            self.nth_move(n),
            Action::End,
            "{n} moves counted, more listed"
        );
        pick
    }
}

impl State {
    /// The mover's grows and bridges now, from the kept counts.
    #[inline]
    fn counted_moves(&self) -> u32 {
        let sticks = self.sticks;
        if self.current != NONE {
            return self.moves_from(self.current, sticks);
        }
        let [g, b] = self.totals[usize::from(self.to_move)];
        let mut n = 0;
        if sticks >= 1 {
            n += g;
        }
        if self.bridges_with(sticks) {
            n += b;
        }
        n
    }

    /// How many actions [`GameState::legal_actions`] lists, from the kept
    /// counts; `None` while the mover may use an ability (they are listed).
    pub fn legal_count(&self) -> Option<usize> {
        if self.script.is_some() {
            return None;
        }
        if self.over.is_some() || self.pending.is_some() || self.reveal_len > 0 {
            return Some(0);
        }
        if self.usable(self.to_move) != 0 {
            return None;
        }
        let n = self.counted_moves() as usize + 1;
        debug_assert_eq!(
            n,
            {
                let mut listed = Vec::new();
                self.legal_actions(&mut listed);
                listed.len()
            },
            "legal moves counted and listed"
        );
        Some(n)
    }

    /// The `k`th grow or bridge of [`State::each_move`] (`k` below their
    /// number), found from the kept counts.
    fn counted_move(&self, mut k: u32) -> Action {
        // The kinds of move the sticks in hand pay for, as masks read once.
        let sticks = self.sticks;
        let pays = [
            if sticks >= 1 { u8::MAX } else { 0 },
            if self.bridges_with(sticks) {
                u8::MAX
            } else {
                0
            },
        ];
        for &from in self.grow_starts() {
            let [g, b] = self.board_cell(usize::from(from)).dirs;
            let (grows, bridges) = (g & pays[0], b & pays[1]);
            // A grow and a bridge never share a direction.
            let mask = grows | bridges;
            let m = u32::from(ones(mask));
            if k >= m {
                k -= m;
                continue;
            }
            debug_assert_eq!([grows, bridges], self.dirs_with(from, sticks));
            // The connector's moves in [`State::each_move`]'s order: by
            // direction; the `k`th is its `k`th direction.
            let d = kth_bit(mask, k);
            return if grows & (1 << d) != 0 {
                Action::Grow {
                    from,
                    to: self.geo.next_to(from, d),
                }
            } else {
                Action::Bridge {
                    from,
                    to: self.geo.two_from(from, d),
                }
            };
        }
        debug_assert!(false, "the move counts are short of the moves");
        Action::End
    }

    /// A random move with the abilities among them: every move is listed.
    #[cold]
    fn random_listed(&self, dice: &mut SeededDice) -> Action {
        // One pass counts the moves and keeps the first `SEEN` of them on
        // the stack; a second pass is needed only when the die picks a
        // later one. The same draw, the same enumeration order.
        const SEEN: usize = 256;
        let mut seen = [Action::End; SEEN];
        let mut n = 0u32;
        self.each_move(|a| {
            if let Some(slot) = seen.get_mut(n as usize) {
                *slot = a;
            }
            n += 1;
            false
        });
        let k = dice.below(n + 1);
        if k == n {
            return Action::End;
        }
        if let Some(&pick) = seen.get(k as usize) {
            debug_assert_eq!(pick, self.nth_move(k));
            return pick;
        }
        self.nth_move(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(state: &State) -> String {
        format!("{state:?}")
    }

    /// The table's `k`th set bit is the one the loop clearing the lowest
    /// bit `k` times finds, for every mask and every `k` below its bits.
    #[test]
    fn kth_bit_is_the_kth_direction() {
        for m in 0..=u8::MAX {
            for k in 0..u32::from(ones(m)) {
                let mut mask = m;
                for _ in 0..k {
                    mask &= mask - 1;
                }
                assert_eq!(kth_bit(m, k), mask.trailing_zeros() as usize, "{m:#b} {k}");
            }
        }
    }

    /// A game started from the thread's set-up start is the start set up
    /// from scratch, its roots' lists sized to the board; other rules (a
    /// different `Arc`, even with the same content) and other seat counts
    /// are set up for themselves.
    #[test]
    fn a_start_set_up_once_is_the_start_set_up_again() {
        let standard = Arc::new(Rules::standard());
        let mut abilities = Rules::standard();
        abilities.artifacts.abilities = true;
        let abilities = Arc::new(abilities);
        for rules in [&standard, &abilities, &standard] {
            for seats in 2..=4 {
                let scratch = State::set_up(Arc::clone(rules), seats).unwrap();
                for _ in 0..2 {
                    let state = State::new(Arc::clone(rules), seats).unwrap();
                    assert_eq!(shown(&state), shown(&scratch), "{seats} seats");
                    assert!(Arc::ptr_eq(&state.rules, rules));
                    let cells = state.geo.cells();
                    for list in &state.roots {
                        assert!(list.capacity() >= cells);
                    }
                }
            }
        }
        let copy = Arc::new(Rules::standard());
        let state = State::new(Arc::clone(&copy), 2).unwrap();
        assert!(Arc::ptr_eq(&state.rules, &copy));
        assert!(State::new(Arc::clone(&standard), 5).is_err());
    }

    /// A scratch copy refilled with `clone_from` from positions of a
    /// seeded game, bigger and smaller, is each position.
    #[test]
    fn clone_from_copies_every_position() {
        let mut rules = Rules::standard();
        rules.artifacts.abilities = true;
        let rules = Arc::new(rules);
        let mut scratch = State::new(Arc::clone(&rules), 4).unwrap();
        let mut positions = Vec::new();
        let mut state = State::new(Arc::clone(&rules), 3).unwrap();
        let mut dice = SeededDice::for_game(3, 1);
        while state.next() != Next::Over {
            positions.push(state.clone());
            match state.next() {
                Next::Decide(_) => state.play_unchecked(state.random_action(&mut dice)),
                _ => {
                    let face = dice.draw(state.draw_weights());
                    state.roll(face).unwrap();
                }
            }
        }
        assert!(positions.len() > 50);
        for k in [positions.len() - 1, 0, positions.len() / 2, 1] {
            scratch.clone_from(&positions[k]);
            assert_eq!(shown(&scratch), shown(&positions[k]), "position {k}");
        }
    }
}
