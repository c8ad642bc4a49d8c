//! The state of a game of Sprout-R-Out: stones as bitmaps, per-stone marks,
//! eyes, the turn's progress, and the legal sub-moves of the next decision,
//! worked out once after each sub-move.

use crate::core::dice::SeededDice;
use crate::core::graph::{Board, Cell, CellSet, MAX_CELLS};
use crate::core::protocol::{GameState, Next, Outcome, Refusal, Seat};

use super::rules::{
    EndCheck, EyeDetection, EyeMemory, Repetition, Rules, StrictOrder, StuckRemoval, Territory, Tie,
};

/// A sub-move: one decision of the player whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Place a stone on an empty cell.
    Place(Cell),
    /// Remove the enemy group holding this cell (named by its lowest cell).
    Remove(Cell),
    /// Pass: only when the rules leave nothing else.
    Pass,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// A territory covers more than half the board.
    Majority,
    /// Both players passed, one turn after the other.
    DoublePass,
    /// A house rule written as a script ended it (`ctx.end_game()`).
    Script,
    /// A house rule written as a script failed: the game stopped there.
    ScriptError,
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE5_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn keys(salt: u64) -> [u64; MAX_CELLS] {
    let mut k = [0; MAX_CELLS];
    let mut i = 0;
    while i < MAX_CELLS {
        k[i] = splitmix(salt.wrapping_mul(1_000_003).wrapping_add(i as u64));
        i += 1;
    }
    k
}

/// Zobrist keys: a stone of seat 0, of seat 1, and a mark, on each cell.
static STONE_KEYS: [[u64; MAX_CELLS]; 2] = [keys(1), keys(2)];
static MARK_KEYS: [u64; MAX_CELLS] = keys(3);

fn stone_hash(seat: usize, set: CellSet) -> u64 {
    set.iter().fold(0, |h, c| h ^ STONE_KEYS[seat][c as usize])
}
fn mark_hash(set: CellSet) -> u64 {
    set.iter().fold(0, |h, c| h ^ MARK_KEYS[c as usize])
}

/// The legal sub-moves of the next decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Legal {
    /// Cells where a stone may go.
    pub place: CellSet,
    /// Enemy groups that may be removed, each named by its lowest cell.
    pub remove: CellSet,
    /// Whether passing is legal (then it is the only move).
    pub pass: bool,
    /// Whether the pass is forced by the repetition rule although the rules
    /// offered moves.
    pub forced: bool,
    /// Moves the rules offer but the repetition rule forbids.
    pub blocked_place: CellSet,
    pub blocked_remove: CellSet,
}

impl Legal {
    fn count(&self) -> u32 {
        self.place.len() + self.remove.len() + u32::from(self.pass)
    }
}

/// One node of a game of Sprout-R-Out.
#[derive(Clone, Debug)]
pub struct State {
    rules: Rules,
    board: &'static Board,
    nbr: &'static [CellSet],
    all: CellSet,
    stones: [CellSet; 2],
    /// Groups kept incrementally (stones are only added, merging groups, or
    /// removed a whole group at a time): the group of every stone, named by
    /// a representative cell, and each group's cells and neighbours. Entries
    /// of cells without a stone are stale and never read.
    /// One entry per cell of the board (sized to the board, so a small
    /// board's state is small to make and to clone).
    groups: Box<[GroupEntry]>,
    /// Stones still to be played against this turn (and stale marks, see
    /// the rules document).
    marks: CellSet,
    eyes: [CellSet; 2],
    mover: u8,
    /// Sub-moves made so far in this turn.
    sub: u16,
    turn: u32,
    /// Consecutive turns that were a single pass.
    lone_passes: u8,
    /// Hash of the stones and of the marks. The marks' hash is kept up to
    /// date only under superko, the one rule that reads it at every
    /// decision (0 otherwise: [`State::position_hash`] works it out from
    /// the marks when asked, and a random game never asks).
    hash_stones: u64,
    hash_marks: u64,
    /// Superko: positions recorded after the first sub-move of every turn.
    history: Vec<u64>,
    bloom: [u64; 4],
    /// Designer's repetition rule: the stones at the start of each seat's
    /// previous turn.
    turn_start: [Option<u64>; 2],
    scores: [i32; 2],
    /// Cells next to two or more groups of the mover's enemy (changes only
    /// at a turn's start and with removals).
    multi: CellSet,
    legal: Legal,
    over: Option<(EndReason, Option<Seat>)>,
    last: Option<Action>,
    counts: Counts,
    /// The variant's house rules written as scripts, and what they keep;
    /// `None` without scripts.
    pub(super) script: Option<Box<crate::script::session::Session>>,
}

/// The group table's entry of one cell: the representative cell of the
/// group of its stone and, when the cell is a representative, the group's
/// cells and the cells next to them.
#[derive(Clone, Copy, Debug, Default)]
struct GroupEntry {
    gid: Cell,
    cells: CellSet,
    adj: CellSet,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    sub_moves: u32,
    placements: u32,
    removals: u32,
    stuck_removals: u32,
    passes: u32,
    forced_passes: u32,
    /// Cells that became an eye of the mover (a cell counts again when it
    /// is enclosed again after its eye was lost with its group).
    eyes_made: u32,
    mid_turn_end: bool,
}

impl State {
    /// A new game; Sprout-R-Out is for two players whatever `players` says.
    pub fn new(rules: &Rules, _players: u8) -> State {
        let board = rules.board();
        let mut s = State {
            rules: rules.clone(),
            board,
            nbr: board.neighbour_sets(rules.groups.adjacency()),
            all: board.cells(),
            stones: [CellSet::EMPTY; 2],
            groups: vec![GroupEntry::default(); board.len()].into_boxed_slice(),
            marks: CellSet::EMPTY,
            eyes: [CellSet::EMPTY; 2],
            mover: 0,
            sub: 0,
            turn: 1,
            lone_passes: 0,
            hash_stones: 0,
            hash_marks: 0,
            history: Vec::with_capacity(256),
            bloom: [0; 4],
            turn_start: [None; 2],
            scores: [0; 2],
            multi: CellSet::EMPTY,
            legal: Legal::default(),
            over: None,
            last: None,
            counts: Counts::default(),
            script: None,
        };
        if s.rules.repetition == Repetition::Superko {
            s.record(0);
        }
        s.begin_turn();
        s
    }

    /// A position set up by hand (for tests and problems): the stones of
    /// each seat, the eyes already formed, and the seat to start a turn. The
    /// position counts as the game's start for the repetition rules.
    pub fn setup(
        rules: &Rules,
        stones: [CellSet; 2],
        eyes: [CellSet; 2],
        mover: Seat,
    ) -> Result<State, String> {
        let mut s = State::new(rules, 2);
        let all = s.all;
        if stones[0].intersects(&stones[1]) {
            return Err("a cell holds stones of both seats".into());
        }
        if !(stones[0] | stones[1] | eyes[0] | eyes[1]).is_subset(&all) {
            return Err("a cell lies off the board".into());
        }
        if mover > 1 {
            return Err(format!("there is no seat {}", mover + 1));
        }
        s.stones = stones;
        s.rebuild_groups();
        s.eyes = eyes;
        s.mover = mover;
        s.hash_stones = stone_hash(0, stones[0]) ^ stone_hash(1, stones[1]);
        s.history.clear();
        s.bloom = [0; 4];
        if s.rules.repetition == Repetition::Superko {
            s.record(s.position_hash());
        }
        s.scores = s.territories_overlap_free_scores();
        s.begin_turn();
        Ok(s)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn board(&self) -> &'static Board {
        self.board
    }
    /// The seat to move (also after the game ended: the last mover).
    pub fn mover(&self) -> Seat {
        self.mover
    }
    /// The turn number, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }
    /// Sub-moves already made in this turn.
    pub fn sub(&self) -> u16 {
        self.sub
    }
    /// The stones of a seat.
    pub fn stones(&self, seat: Seat) -> CellSet {
        self.stones[seat as usize & 1]
    }
    /// Marked stones: enemy stones not yet played against this turn, and
    /// stale marks left by a pass in the middle of a turn.
    pub fn marks(&self) -> CellSet {
        self.marks
    }
    /// The eyes of a seat.
    pub fn eyes(&self, seat: Seat) -> CellSet {
        self.eyes[seat as usize & 1]
    }
    /// The legal sub-moves of the next decision (empty sets once over).
    pub fn legal(&self) -> &Legal {
        &self.legal
    }
    /// Why and with which winner the game ended.
    pub fn end(&self) -> Option<(EndReason, Option<Seat>)> {
        self.over
    }
    /// Whether the game ended in the middle of a turn.
    pub fn ended_mid_turn(&self) -> bool {
        self.counts.mid_turn_end
    }
    /// The last sub-move played.
    pub fn last_action(&self) -> Option<Action> {
        self.last
    }
    /// Current scores per seat: the territories, with what the house
    /// rules added.
    pub fn scores(&self) -> Vec<i32> {
        match self.script.as_deref() {
            Some(sc) => vec![
                self.scores[0] + sc.bonus[0] as i32,
                self.scores[1] + sc.bonus[1] as i32,
            ],
            None => self.scores.to_vec(),
        }
    }

    /// Each seat's territory, in cells.
    pub fn territories(&self) -> [i32; 2] {
        self.scores
    }
    /// The hash of the position (stones and marks).
    pub fn position_hash(&self) -> u64 {
        if self.superko() {
            self.hash_stones ^ self.hash_marks
        } else {
            self.hash_stones ^ mark_hash(self.marks)
        }
    }

    /// Whether positions may not repeat (superko): the marks' hash is then
    /// kept as they change ([`State::set_marks`]).
    #[inline]
    fn superko(&self) -> bool {
        self.rules.repetition == Repetition::Superko
    }

    pub(crate) fn counter_values(&self) -> [(&'static str, i64); 9] {
        let c = &self.counts;
        [
            ("sub_moves", c.sub_moves.into()),
            ("turns", self.turn.into()),
            ("placements", c.placements.into()),
            ("removals", c.removals.into()),
            ("stuck_removals", c.stuck_removals.into()),
            ("passes", c.passes.into()),
            ("forced_passes", c.forced_passes.into()),
            ("eyes_made", c.eyes_made.into()),
            ("mid_turn_end", i64::from(c.mid_turn_end)),
        ]
    }

    // ----- sets -----------------------------------------------------------

    #[inline]
    fn empty(&self) -> CellSet {
        self.all & !(self.stones[0] | self.stones[1])
    }

    #[inline]
    fn dilate(&self, set: CellSet) -> CellSet {
        let mut d = CellSet::EMPTY;
        for c in set.iter() {
            d |= self.nbr[c as usize];
        }
        d
    }

    /// Everything in `within` connected to `seeds` through `within`.
    #[inline]
    fn flood(&self, seeds: CellSet, within: CellSet) -> CellSet {
        let mut reached = seeds & within;
        let mut frontier = reached;
        while frontier.any() {
            let next = self.dilate(frontier) & within & !reached;
            reached |= next;
            frontier = next;
        }
        reached
    }

    /// `seat`'s groups, lowest cell first, each as its cells and the cells
    /// next to them, read from the group table kept incrementally.
    pub fn groups(&self, seat: Seat) -> impl Iterator<Item = (CellSet, CellSet)> + '_ {
        let mut left = self.stones[usize::from(seat & 1)];
        std::iter::from_fn(move || {
            let c = left.lowest()?;
            let cells = self.group(c);
            left &= !cells;
            Some((cells, self.group_adj(c)))
        })
    }

    /// The group of the stone on `c` (a cell holding a stone).
    #[inline]
    fn group(&self, c: Cell) -> CellSet {
        let g = self.groups[self.groups[c as usize].gid as usize].cells;
        debug_assert!(
            {
                let q = usize::from(self.stones[1].contains(c));
                self.stones[q].contains(c) && g == self.flood(CellSet::single(c), self.stones[q])
            },
            "the kept group of cell {c} differs from a flood fill"
        );
        g
    }

    /// The cells next to the group of the stone on `c`.
    #[inline]
    fn group_adj(&self, c: Cell) -> CellSet {
        let a = self.groups[self.groups[c as usize].gid as usize].adj;
        debug_assert_eq!(a, self.dilate(self.group(c)), "kept neighbours of a group");
        a
    }

    /// Every whole group of one seat's `stones` that has a stone in `seeds`.
    #[inline]
    fn groups_at(&self, seeds: CellSet) -> CellSet {
        let mut rest = seeds;
        let mut all = CellSet::EMPTY;
        while let Some(c) = rest.lowest() {
            let g = self.group(c);
            all |= g;
            rest &= !g;
        }
        all
    }

    /// Add a stone of `seat` on `s` to the group table, merging the groups
    /// it touches into the largest of them.
    fn join(&mut self, seat: usize, s: Cell) {
        let touching = self.nbr[s as usize] & self.stones[seat];
        let mut rep = s;
        let mut best = 0;
        let mut rest = touching;
        while let Some(c) = rest.lowest() {
            let r = self.groups[c as usize].gid;
            let g = self.groups[r as usize].cells;
            rest &= !g;
            if g.len() > best {
                best = g.len();
                rep = r;
            }
        }
        let r = rep as usize;
        if rep == s {
            self.groups[r].cells = CellSet::EMPTY;
            self.groups[r].adj = CellSet::EMPTY;
        }
        let mut rest = touching;
        while let Some(c) = rest.lowest() {
            let o = self.groups[c as usize].gid as usize;
            let g = self.groups[o].cells;
            rest &= !g;
            if o != r {
                for m in g.iter() {
                    self.groups[m as usize].gid = rep;
                }
                self.groups[r].cells |= g;
                let a = self.groups[o].adj;
                self.groups[r].adj |= a;
            }
        }
        self.groups[s as usize].gid = rep;
        self.groups[r].cells.insert(s);
        self.groups[r].adj |= self.nbr[s as usize];
    }

    /// The group table from scratch (after a position is set up by hand).
    fn rebuild_groups(&mut self) {
        for q in 0..2 {
            let stones = self.stones[q];
            let mut rest = stones;
            while let Some(c) = rest.lowest() {
                let g = self.flood(CellSet::single(c), stones);
                rest &= !g;
                for m in g.iter() {
                    self.groups[m as usize].gid = c;
                }
                self.groups[c as usize].cells = g;
                self.groups[c as usize].adj = self.dilate(g);
            }
        }
    }

    /// Cells next to two or more groups of `stones` (all of one seat's).
    fn touching_two(&self, stones: CellSet) -> CellSet {
        let mut rest = stones;
        let mut seen = CellSet::EMPTY;
        let mut multi = CellSet::EMPTY;
        while let Some(c) = rest.lowest() {
            rest &= !self.group(c);
            let d = self.group_adj(c);
            multi |= seen & d;
            seen |= d;
        }
        multi
    }

    // ----- territory ------------------------------------------------------

    /// The territory of a seat, from scratch.
    pub fn territory(&self, seat: Seat) -> CellSet {
        let q = seat as usize & 1;
        let eyes = self.eyes[q];
        if eyes.is_empty() {
            return CellSet::EMPTY;
        }
        let around = self.dilate(eyes) & !eyes;
        match self.rules.territory {
            Territory::ImmortalGroups => eyes | self.groups_at(around & self.stones[q]),
            Territory::FloodFill => {
                let empty = self.empty();
                eyes | self.flood(around & empty, empty)
                    | self.groups_at(around & (self.stones[0] | self.stones[1]))
            }
        }
    }

    fn territories_overlap_free_scores(&self) -> [i32; 2] {
        [
            self.territory(0).len() as i32,
            self.territory(1).len() as i32,
        ]
    }

    // ----- superko --------------------------------------------------------

    fn record(&mut self, h: u64) {
        self.bloom[(h >> 6) as usize & 3] |= 1 << (h & 63);
        self.history.push(h);
    }

    #[inline]
    fn seen(&self, h: u64) -> bool {
        self.rules.repetition == Repetition::Superko
            && self.bloom[(h >> 6) as usize & 3] >> (h & 63) & 1 == 1
            && self.history.contains(&h)
    }

    // ----- the legal moves --------------------------------------------------

    /// Work out the legal sub-moves of the decision now due.
    fn analyse(&mut self) {
        let mut legal = Legal::default();
        if self.over.is_some() {
            self.legal = legal;
            return;
        }
        let p = self.mover as usize;
        let o = p ^ 1;
        let ostones = self.stones[o];
        let empty = self.empty();
        let multi = self.multi;
        debug_assert_eq!(
            multi,
            self.touching_two(ostones),
            "cached cells touching two groups"
        );
        // The hashes of the positions a sub-move would make matter only
        // under superko (`seen` is false under the other rules): worked out
        // only then, as every one costs a pass over a set of cells.
        let superko = self.superko();
        let h = if superko { self.position_hash() } else { 0 };
        if self.sub == 0 {
            if self.rules.repetition == Repetition::TurnStart
                && self.lone_passes == 0
                && self.turn_start[p] == Some(self.hash_stones)
            {
                legal.pass = true;
                legal.forced = true;
                self.legal = legal;
                return;
            }
            // The first sub-move marks every enemy stone.
            let h_marked = if superko {
                h ^ mark_hash(ostones & !self.marks)
            } else {
                0
            };
            let first = empty & !(self.eyes[0] | self.eyes[1]) & !multi;
            if first.any() {
                if self.rules.repetition != Repetition::Superko {
                    legal.place = first;
                } else {
                    // Group by group: the stone unmarks the group it touches.
                    let mut free = first;
                    let mut rest = ostones;
                    while let Some(c) = rest.lowest() {
                        let g = self.group(c);
                        rest &= !g;
                        let near = self.group_adj(c) & first;
                        free &= !near;
                        let base = h_marked ^ mark_hash(g);
                        for s in near.iter() {
                            if self.seen(base ^ STONE_KEYS[p][s as usize]) {
                                legal.blocked_place.insert(s);
                            } else {
                                legal.place.insert(s);
                            }
                        }
                    }
                    for s in free.iter() {
                        if self.seen(h_marked ^ STONE_KEYS[p][s as usize]) {
                            legal.blocked_place.insert(s);
                        } else {
                            legal.place.insert(s);
                        }
                    }
                }
                if legal.place.is_empty() {
                    legal.pass = true;
                    legal.forced = true;
                }
                self.legal = legal;
                return;
            }
            // No first placement: remove one enemy group, and the turn ends.
            let clear = if superko {
                h ^ mark_hash(self.marks & ostones)
            } else {
                0
            };
            let mut rest = ostones;
            while let Some(c) = rest.lowest() {
                let g = self.group(c);
                rest &= !g;
                let candidate = match self.rules.stuck_removal {
                    StuckRemoval::Eyeless => !self.group_adj(c).intersects(&self.eyes[o]),
                    StuckRemoval::Unplayable => {
                        let sites = self.group_adj(c) & empty & !multi;
                        if superko {
                            let base = h_marked ^ mark_hash(g);
                            sites
                                .iter()
                                .all(|s| self.seen(base ^ STONE_KEYS[p][s as usize]))
                        } else {
                            // Nothing is seen: playable wherever there is a site.
                            sites.is_empty()
                        }
                    }
                };
                if candidate {
                    if self.seen(clear ^ stone_hash(o, g)) {
                        legal.blocked_remove.insert(c);
                    } else {
                        legal.remove.insert(c);
                    }
                }
            }
            if legal.remove.is_empty() {
                legal.pass = true;
                legal.forced = legal.blocked_remove.any();
            }
            self.legal = legal;
            return;
        }
        // Later sub-moves: handle each marked enemy group once.
        let marked = self.marks & ostones;
        let mut rest = marked;
        while let Some(c) = rest.lowest() {
            // Marks cover whole groups once the turn's first sub-move is made.
            let g = self.group(c);
            debug_assert!(g.is_subset(&marked), "a group is marked in part");
            rest &= !g;
            let sites = self.group_adj(c) & empty & !multi;
            if self.rules.repetition != Repetition::Superko {
                // Nothing is blocked: the sites are the moves.
                if sites.any() {
                    legal.place |= sites;
                } else {
                    legal.remove.insert(c);
                }
                continue;
            }
            let base = h ^ mark_hash(g);
            let mut any = false;
            for s in sites.iter() {
                if self.seen(base ^ STONE_KEYS[p][s as usize]) {
                    legal.blocked_place.insert(s);
                } else {
                    legal.place.insert(s);
                    any = true;
                }
            }
            if !any {
                if self.seen(base ^ stone_hash(o, g)) {
                    legal.blocked_remove.insert(c);
                } else {
                    legal.remove.insert(c);
                }
            }
        }
        let strict = match self.rules.strict_order {
            StrictOrder::None => false,
            StrictOrder::First => p == 0,
            StrictOrder::Second => p == 1,
            StrictOrder::Both => true,
        };
        if strict {
            if legal.remove.any() {
                legal.place = CellSet::EMPTY;
            } else if let Some(c) = marked.lowest() {
                legal.place &= self.group_adj(c);
            }
        }
        if legal.place.is_empty() && legal.remove.is_empty() {
            legal.pass = true;
            legal.forced = true;
        }
        self.legal = legal;
    }

    /// Is this action among the legal ones?
    pub fn is_legal(&self, a: Action) -> bool {
        match a {
            Action::Place(c) => self.legal.place.contains(c),
            Action::Remove(c) => self.legal.remove.contains(c),
            Action::Pass => self.legal.pass,
        }
    }

    fn why_illegal(&self, a: Action) -> String {
        let b = self.board;
        let name = |c: Cell| {
            if (c as usize) < b.len() {
                b.label(c).to_string()
            } else {
                format!("cell {c}")
            }
        };
        match a {
            _ if self.over.is_some() => "the game is over".into(),
            Action::Pass => "passing is allowed only when there is nothing else to do".into(),
            Action::Place(c) if (c as usize) >= b.len() => {
                format!("there is no cell {c} on this board")
            }
            Action::Place(c) if !self.empty().contains(c) => format!("{} is not empty", name(c)),
            Action::Place(c) if self.legal.blocked_place.contains(c) => {
                format!("a stone on {} would repeat an earlier position", name(c))
            }
            Action::Place(c) if self.sub == 0 => format!(
                "{} is not a legal first placement: it must be outside both territories (not an eye) and touch at most one enemy group{}",
                name(c),
                if self.legal.pass || self.legal.remove.any() {
                    ", and none is possible now"
                } else {
                    ""
                }
            ),
            Action::Place(c) => format!(
                "{} does not play against exactly one enemy group not yet played against this turn{}",
                name(c),
                if self.legal.remove.any() && self.legal.place.is_empty() {
                    " (a group must be removed)"
                } else {
                    ""
                }
            ),
            Action::Remove(c) if self.legal.blocked_remove.contains(c) => {
                format!(
                    "removing the group at {} would repeat an earlier position",
                    name(c)
                )
            }
            Action::Remove(c) => format!(
                "{} does not name an enemy group that may be removed now (only a group that cannot be played against, named by its lowest cell)",
                name(c)
            ),
        }
    }

    // ----- playing ------------------------------------------------------------

    fn set_stone(&mut self, seat: usize, c: Cell) {
        self.join(seat, c);
        self.stones[seat].insert(c);
        self.hash_stones ^= STONE_KEYS[seat][c as usize];
    }

    fn set_marks(&mut self, marks: CellSet) {
        if self.superko() {
            self.hash_marks ^= mark_hash(self.marks ^ marks);
        }
        self.marks = marks;
    }

    /// Apply a sub-move, no house rule run.
    #[inline]
    pub(super) fn apply_plain(&mut self, a: Action) {
        debug_assert!(self.is_legal(a), "{a:?} is not legal");
        self.apply(a);
    }

    /// The legal sub-moves before any house rule filters them.
    pub(super) fn legal_plain(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.over.is_some() {
            return;
        }
        out.extend(self.legal.place.iter().map(Action::Place));
        out.extend(self.legal.remove.iter().map(Action::Remove));
        if self.legal.pass {
            out.push(Action::Pass);
        }
    }

    /// Each cell's neighbours, by cell number.
    pub(super) fn neighbour_sets(&self) -> &'static [CellSet] {
        self.nbr
    }

    /// The winner of a game with `scores`, by the variant's tie rule.
    pub(super) fn winner_of(&self, scores: [i32; 2]) -> Option<Seat> {
        match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => match self.rules.tie {
                Tie::Draw => None,
                Tie::MoverWins => Some(self.mover),
            },
        }
    }

    /// End the game now (a house rule ends it, or fails), the winner by
    /// the scores.
    pub(super) fn end_now(&mut self, reason: EndReason) {
        let winner = self.winner_of(self.scores);
        self.counts.mid_turn_end = self.sub > 0;
        self.over = Some((reason, winner));
        self.legal = Legal::default();
    }

    /// End the mover's turn now (a house rule asks), as a turn ends when
    /// no marked stone is left.
    pub(super) fn end_turn_now(&mut self) {
        let o = self.mover as usize ^ 1;
        self.set_marks(self.marks & !self.stones[o]);
        self.lone_passes = 0;
        self.mover ^= 1;
        self.turn += 1;
        self.sub = 0;
        self.begin_turn();
    }

    /// Put a stone of `seat` on the empty `cell`, or (`None`) take the
    /// stone off `cell`: the groups, hashes, marks, eyes and scores made
    /// again, then the legal sub-moves.
    pub(super) fn edit_stone(&mut self, seat: Option<Seat>, cell: Cell) {
        match seat {
            Some(q) => {
                let q = usize::from(q & 1);
                self.stones[q].insert(cell);
                self.hash_stones ^= STONE_KEYS[q][cell as usize];
            }
            None => {
                for (stones, keys) in self.stones.iter_mut().zip(&STONE_KEYS) {
                    if stones.contains(cell) {
                        stones.remove(cell);
                        self.hash_stones ^= keys[cell as usize];
                    }
                }
                let mut marks = self.marks;
                marks.remove(cell);
                self.set_marks(marks);
            }
        }
        self.rebuild_groups();
        if self.rules.eye_memory == EyeMemory::WhileGroupLives {
            for q in 0..2 {
                let mut kept = CellSet::EMPTY;
                for e in self.eyes[q].iter() {
                    if self.nbr[e as usize].is_subset(&self.stones[q]) {
                        kept.insert(e);
                    }
                }
                self.eyes[q] = kept;
            }
        }
        for q in 0..2 {
            self.eyes[q] &= !(self.stones[0] | self.stones[1]);
        }
        self.multi = self.touching_two(self.stones[self.mover as usize ^ 1]);
        self.scores = self.territories_overlap_free_scores();
        if self.over.is_none() {
            self.analyse();
        }
    }

    fn apply(&mut self, a: Action) {
        let p = self.mover as usize;
        let o = p ^ 1;
        let first = self.sub == 0;
        self.counts.sub_moves += 1;
        self.last = Some(a);
        let turn_ends;
        let lone_pass;
        match a {
            Action::Pass => {
                self.counts.passes += 1;
                if self.legal.forced {
                    self.counts.forced_passes += 1;
                }
                turn_ends = true;
                lone_pass = first;
            }
            Action::Place(s) => {
                self.counts.placements += 1;
                lone_pass = false;
                if first {
                    self.set_marks(self.marks | self.stones[o]);
                }
                let touched = self.nbr[s as usize] & self.stones[o];
                if touched.any() {
                    let g = self.groups_at(touched);
                    self.set_marks(self.marks & !g);
                }
                self.set_stone(p, s);
                turn_ends = !self.marks.intersects(&self.stones[o]);
                self.after_action(s, CellSet::EMPTY);
            }
            Action::Remove(c) => {
                self.counts.removals += 1;
                lone_pass = false;
                if first {
                    self.counts.stuck_removals += 1;
                }
                let g = self.group(c);
                self.stones[o] &= !g;
                self.hash_stones ^= stone_hash(o, g);
                self.set_marks(self.marks & !g);
                if self.rules.eye_memory == EyeMemory::WhileGroupLives {
                    self.eyes[o] &= !self.dilate(g);
                }
                self.multi = self.touching_two(self.stones[o]);
                turn_ends = first || !self.marks.intersects(&self.stones[o]);
                self.after_action(c, g);
            }
        }
        if turn_ends && a != Action::Pass {
            self.set_marks(self.marks & !self.stones[o]);
        }
        if first && self.rules.repetition == Repetition::Superko {
            self.record(self.position_hash());
        }
        self.sub += 1;
        self.scores = self.territories_overlap_free_scores();
        if turn_ends {
            self.lone_passes = if lone_pass {
                self.lone_passes.saturating_add(1)
            } else {
                0
            };
        }
        // The end.
        let half = self.board.len() as i32;
        let ended = match self.rules.end_check {
            EndCheck::EverySubMove => {
                if 2 * self.scores[p] > half {
                    Some(EndReason::Majority)
                } else if turn_ends && self.lone_passes >= 2 {
                    Some(EndReason::DoublePass)
                } else {
                    None
                }
            }
            EndCheck::TurnEnd if turn_ends => {
                if self.scores.iter().any(|&s| 2 * s > half) {
                    Some(EndReason::Majority)
                } else if self.lone_passes >= 2 {
                    Some(EndReason::DoublePass)
                } else {
                    None
                }
            }
            EndCheck::TurnEnd => None,
        };
        if let Some(reason) = ended {
            let [a0, a1] = self.scores;
            let winner = match a0.cmp(&a1) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => match self.rules.tie {
                    Tie::Draw => None,
                    Tie::MoverWins => Some(self.mover),
                },
            };
            self.counts.mid_turn_end = !turn_ends;
            self.over = Some((reason, winner));
            self.legal = Legal::default();
            return;
        }
        if turn_ends {
            self.mover ^= 1;
            self.turn += 1;
            self.sub = 0;
            self.begin_turn();
        } else {
            self.analyse();
        }
    }

    fn begin_turn(&mut self) {
        self.multi = self.touching_two(self.stones[self.mover as usize ^ 1]);
        if self.rules.repetition == Repetition::TurnStart {
            // The check itself is in `analyse`; remember this turn's start
            // after it has looked at the previous one.
            let p = self.mover as usize;
            self.analyse();
            self.turn_start[p] = Some(self.hash_stones);
            return;
        }
        self.analyse();
    }

    /// Record the mover's new eyes after a placement on `t`, or the removal
    /// of the group `removed` named by `t`.
    fn after_action(&mut self, t: Cell, removed: CellSet) {
        let p = self.mover as usize;
        let mine = self.stones[p];
        let empty = self.empty();
        let candidates = match self.rules.eye_detection {
            EyeDetection::AroundLastAction => {
                let around = self.nbr[t as usize];
                if !around.intersects(&mine) {
                    return;
                }
                (around | CellSet::single(t)) & empty
            }
            // An empty cell becomes an eye only when its neighbourhood
            // changes: after a placement, a cell next to the group the new
            // stone joined (every other cell sees the same stones and the
            // same groups as before); after a removal, a cell the removed
            // group left (the mover's stones did not change, and a cell next
            // to the removed group had an enemy neighbour before, so still
            // has an empty one).
            EyeDetection::WholeBoard if removed.any() => removed & empty,
            EyeDetection::WholeBoard => self.group_adj(t) & empty,
        };
        for e in candidates.iter() {
            if !self.eyes[p].contains(e) && self.surrounded_by_one_group(e, mine) {
                self.eyes[p].insert(e);
                self.counts.eyes_made += 1;
            }
        }
        debug_assert!(
            self.rules.eye_detection != EyeDetection::WholeBoard
                || empty
                    .iter()
                    .all(|e| !self.surrounded_by_one_group(e, mine) || self.eyes[p].contains(e)),
            "the whole-board eye scan finds an eye the narrowed one missed"
        );
    }

    /// Whether every neighbour of the empty cell `e` is a stone of `mine`,
    /// all in one group.
    #[inline]
    fn surrounded_by_one_group(&self, e: Cell, mine: CellSet) -> bool {
        let n = self.nbr[e as usize];
        n.any()
            && n.is_subset(&mine)
            && n.lowest()
                .is_some_and(|first| n.is_subset(&self.group(first)))
    }

    /// Recount everything from scratch and compare with the incremental state.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.stones[0].intersects(&self.stones[1]) {
            return Err("a cell holds stones of both seats".into());
        }
        if !(self.stones[0] | self.stones[1]).is_subset(&self.all) {
            return Err("a stone lies off the board".into());
        }
        if !self.marks.is_subset(&(self.stones[0] | self.stones[1])) {
            return Err(format!(
                "marks {:?} on empty cells",
                self.marks & self.empty()
            ));
        }
        if stone_hash(0, self.stones[0]) ^ stone_hash(1, self.stones[1]) != self.hash_stones {
            return Err("the stone hash differs from a recount".into());
        }
        if self.hash_marks
            != if self.superko() {
                mark_hash(self.marks)
            } else {
                0
            }
        {
            return Err("the mark hash differs from a recount".into());
        }
        let fresh = self.territories_overlap_free_scores();
        if fresh != self.scores {
            return Err(format!(
                "scores {:?} but territory recounted {:?}",
                self.scores, fresh
            ));
        }
        if self.over.is_none() && self.legal.count() == 0 {
            return Err("no legal sub-move in a game not over".into());
        }
        if self.legal.pass && (self.legal.place.any() || self.legal.remove.any()) {
            return Err("pass offered beside other moves".into());
        }
        if self.rules.eye_memory == EyeMemory::WhileGroupLives {
            for q in 0..2 {
                for e in self.eyes[q].iter() {
                    if !self.nbr[e as usize].is_subset(&self.stones[q]) {
                        return Err(format!("eye {} of seat {} lost its group", e, q + 1));
                    }
                }
            }
        }
        Ok(())
    }

    /// A sub-move drawn uniformly from the legal ones.
    fn pick(&self, k: u32) -> Action {
        let np = self.legal.place.len();
        if k < np {
            return self.legal.place.nth(k).map_or(Action::Pass, Action::Place);
        }
        let nr = self.legal.remove.len();
        if k < np + nr {
            return self
                .legal
                .remove
                .nth(k - np)
                .map_or(Action::Pass, Action::Remove);
        }
        Action::Pass
    }

    /// Whether the rules allow `a` now (no house rule asked).
    fn check(&self, a: Action) -> Result<(), Refusal> {
        if self.over.is_some() {
            return Err(Refusal::GameOver);
        }
        if !self.is_legal(a) {
            return Err(Refusal::Illegal {
                reason: self.why_illegal(a),
            });
        }
        Ok(())
    }

    /// A random legal sub-move before any house rule filters it.
    #[inline]
    fn random_plain(&self, dice: &mut SeededDice) -> Action {
        let n = self.legal.count();
        if n == 0 {
            return Action::Pass;
        }
        self.pick(dice.below(n))
    }
}

impl GameState for State {
    type Action = Action;

    crate::script_moves!(apply_plain, no_chance);

    fn seats(&self) -> usize {
        2
    }

    fn next(&self) -> Next {
        Next::decide_unless(self.over.is_some(), self.mover)
    }

    fn outcome(&self) -> Option<Outcome> {
        let (_, winner) = self.over?;
        if self.script.is_some() {
            let (scores, winners) = self.scripted_outcome(self.scores, winner);
            return Some(Outcome { scores, winners });
        }
        Some(Outcome {
            scores: self.scores.to_vec(),
            winners: match winner {
                Some(w) => vec![w],
                None => vec![0, 1],
            },
        })
    }
}
