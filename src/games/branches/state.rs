//! The state of a game of BTT: one node of the game tree, and the rules that
//! move it on. Chance-free: a node is a decision or the end.
//!
//! The hot path keeps sets of cells as `u128` bit sets: the empty cells, the
//! cells a pyramid may point at (roots and pyramids), and for each direction
//! the *spots*: empty cells whose neighbour in that direction may be pointed
//! at. A placement updates them through the placed cell's (at most four)
//! neighbours, so legal-move generation is four bit sets times the sizes left.

use std::sync::Arc;

use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Outcome, Refusal, Seat};

use super::action::Action;
use super::board::{Board, Dir, MAX_CELLS, NONE};
use super::rules::{Markers, OwnerPaidBy, Rules, WhenStuck};

/// Most seats.
pub const MAX_SEATS: usize = 6;

pub(super) const EMPTY: u8 = 0;
pub(super) const NULL: u8 = 1;
pub(super) const ROOT: u8 = 2;
const PYRAMID: u8 = 0x80;

/// The content byte of a pyramid.
#[inline]
pub(super) const fn pyramid(seat: u8, size: u8, dir: u8) -> u8 {
    PYRAMID | (seat << 4) | (size << 2) | dir
}

/// `(seat, size, dir)` of a content byte holding a pyramid.
#[inline]
pub(super) const fn as_pyramid(c: u8) -> Option<(u8, u8, u8)> {
    if c & PYRAMID != 0 {
        Some(((c >> 4) & 7, (c >> 2) & 3, c & 3))
    } else {
        None
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Every cell is filled (the standard end).
    BoardFull,
    /// Every stash is empty, with cells left over (variants only).
    StashesEmpty,
    /// Cells and pyramids are left, but nobody can point anywhere (variants only).
    NoMoves,
    /// A house rule written as a script ended it (`ctx.end_game()`).
    Script,
    /// A house rule written as a script failed: the game stopped there.
    ScriptError,
}

impl End {
    /// The snake_case label.
    pub const fn label(self) -> &'static str {
        match self {
            End::BoardFull => "board_full",
            End::StashesEmpty => "stashes_empty",
            End::NoMoves => "no_moves",
            End::Script => "script",
            End::ScriptError => "script_error",
        }
    }
}

/// What the rules fix for a whole game: shared by every node of it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Fixed {
    pub rules: Rules,
    pub board: Board,
    pub stash: [u8; 3],
    /// Setup plies: the marker each places (NULL or ROOT).
    pub markers: Vec<u8>,
}

/// Counters kept for the simulator's statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    pub plies: u32,
    pub pyramids: u32,
    pub at_root: u32,
    pub at_own: u32,
    pub penalties: u32,
    pub to_pot: u32,
    pub to_owners: u32,
    pub passes: u32,
}

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Nothing yet.
    Empty,
    /// A null: nothing may go on it or point at it.
    Null,
    /// A root: anyone may point at it for free.
    Root,
    /// A pyramid.
    Pyramid {
        /// Its owner's seat (0-based).
        seat: u8,
        /// 1, 2 or 3 pips.
        size: u8,
        /// Where it points.
        dir: Dir,
    },
}

/// One node of a game of Branches & Twigs & Thorns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) fixed: Arc<Fixed>,
    pub(super) players: u8,
    pub(super) cell: [u8; MAX_CELLS],
    pub(super) empty: u128,
    pub(super) targets: u128,
    pub(super) spots: [u128; 4],
    pub(super) stash: [[u8; 3]; MAX_SEATS],
    pub(super) scores: [i32; MAX_SEATS],
    pub(super) resets: u32,
    pub(super) to_move: u8,
    /// Setup plies played.
    pub(super) setup_done: u8,
    pub(super) end: Option<End>,
    pub(super) tally: Tally,
    /// The cell of the last marker or pyramid placed, or `NONE`.
    pub(super) last: u8,
    /// The variant's house rules written as scripts, and what they keep;
    /// `None` without scripts.
    pub(super) script: Option<Box<super::script::Scripted>>,
}

impl State {
    /// A new game; `players` within `rules.seats()` (the caller checked; a
    /// count outside 2..=6 is clamped).
    pub fn new(rules: &Rules, players: u8) -> State {
        let players = players.clamp(2, MAX_SEATS as u8);
        let board = Board::for_rules(rules, players);
        let markers = match rules.setup.markers {
            Markers::Placed => (0..players)
                .map(|k| if k < players / 2 { NULL } else { ROOT })
                .collect(),
            Markers::CentreRoots => Vec::new(),
        };
        let stash = rules.pyramids.stash();
        let all = board.all();
        let centre: Vec<u8> = board.centre_roots().to_vec();
        let mut s = State {
            fixed: Arc::new(Fixed {
                rules: rules.clone(),
                board,
                stash,
                markers,
            }),
            players,
            cell: [EMPTY; MAX_CELLS],
            empty: all,
            targets: 0,
            spots: [0; 4],
            stash: [stash; MAX_SEATS],
            scores: [0; MAX_SEATS],
            resets: 0,
            to_move: 0,
            setup_done: 0,
            end: None,
            tally: Tally::default(),
            last: NONE,
            script: None,
        };
        for c in centre {
            s.put_target(c, ROOT);
        }
        if s.in_play() {
            s.settle(0);
        }
        s
    }

    /// A new game with the same rules and players, sharing this game's fixed
    /// tables (the board graph): no allocation, for simulators and benches.
    pub fn fresh(&self) -> State {
        let mut s = State {
            fixed: Arc::clone(&self.fixed),
            players: self.players,
            cell: [EMPTY; MAX_CELLS],
            empty: self.fixed.board.all(),
            targets: 0,
            spots: [0; 4],
            stash: [self.fixed.stash; MAX_SEATS],
            scores: [0; MAX_SEATS],
            resets: 0,
            to_move: 0,
            setup_done: 0,
            end: None,
            tally: Tally::default(),
            last: NONE,
            script: self.fresh_scripts(),
        };
        for i in 0..s.fixed.board.centre_roots().len() {
            let c = s.fixed.board.centre_roots()[i];
            s.put_target(c, ROOT);
        }
        if s.in_play() {
            s.settle(0);
        }
        s
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.fixed.board
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.fixed.rules
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Current scores per seat (signed; everyone starts at 0).
    pub fn scores(&self) -> Vec<i32> {
        self.scores[..usize::from(self.players)].to_vec()
    }

    /// Coins each seat holds, as shown at the table: the starting coins, the
    /// score, and five (the `coins.reset` amount) per coin reset.
    pub fn coins(&self) -> Vec<i64> {
        let shift = i64::from(self.fixed.rules.coins.reset) * i64::from(self.resets);
        (0..usize::from(self.players))
            .map(|s| i64::from(self.fixed.rules.coins.start) + i64::from(self.scores[s]) + shift)
            .collect()
    }

    /// How many times everyone took coins from the pot.
    pub fn coin_resets(&self) -> u32 {
        self.resets
    }

    /// A seat's stash: counts of small, medium and large pyramids left.
    pub fn stash(&self, seat: Seat) -> [u8; 3] {
        self.stash[usize::from(seat) % MAX_SEATS]
    }

    /// The cell of the last marker or pyramid placed (pictures and the
    /// terminal board highlight it).
    pub fn last_cell(&self) -> Option<u8> {
        (self.last != NONE).then_some(self.last)
    }

    /// Why the game ended, if it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The seat to move (meaningless once the game is over).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// What cell `c` holds (`Empty` for a cell not on the board).
    pub fn piece(&self, c: u8) -> Piece {
        match self.cell.get(usize::from(c)).copied().unwrap_or(EMPTY) {
            EMPTY => Piece::Empty,
            NULL => Piece::Null,
            ROOT => Piece::Root,
            v => match as_pyramid(v) {
                Some((seat, size, dir)) => Piece::Pyramid {
                    seat,
                    size,
                    dir: Dir::from_index(dir),
                },
                None => Piece::Empty,
            },
        }
    }

    /// The marker the current setup ply places (NULL or ROOT), or None in play.
    pub(super) fn setup_marker(&self) -> Option<u8> {
        self.fixed
            .markers
            .get(usize::from(self.setup_done))
            .copied()
    }

    /// Whether the setup is over.
    pub fn in_play(&self) -> bool {
        self.setup_marker().is_none()
    }

    /// What is in a cell: `None` empty, else a description used by the drawing.
    pub(super) fn content(&self, c: u8) -> u8 {
        self.cell[usize::from(c)]
    }

    /// Whether any placement is open to anyone (some empty cell points at a target).
    #[inline]
    fn any_spot(&self) -> bool {
        (self.spots[0] | self.spots[1] | self.spots[2] | self.spots[3]) != 0
    }

    #[inline]
    fn can_move(&self, seat: u8) -> bool {
        self.stash[usize::from(seat)] != [0, 0, 0]
    }

    /// Put a root or a pyramid on an empty cell and open the spots around it.
    #[inline]
    fn put_target(&mut self, c: u8, content: u8) {
        let bit = 1u128 << c;
        self.cell[usize::from(c)] = content;
        self.empty &= !bit;
        self.targets |= bit;
        for d in &mut self.spots {
            *d &= !bit;
        }
        for &(y, d) in self.fixed.board.incoming(c) {
            if y != NONE {
                let yb = 1u128 << y;
                self.spots[usize::from(d)] |= yb & self.empty;
            }
        }
    }

    /// Whether a null on `c` is allowed (empty, and does not cut the board if the rules say so).
    pub(super) fn null_allowed(&self, c: u8) -> bool {
        let bit = 1u128 << c;
        if self.empty & bit == 0 {
            return false;
        }
        if !self.fixed.rules.setup.nulls_must_not_cut {
            return true;
        }
        let board = &self.fixed.board;
        let nulls = self.nulls();
        board.connected(board.all() & !nulls & !bit)
    }

    /// The cells holding nulls.
    pub(super) fn nulls(&self) -> u128 {
        self.fixed.board.all() & !self.empty & !self.targets
    }

    /// Open faces: `(mine, theirs)`, the (empty cell, direction) spots that
    /// point at one of `seat`'s pyramids and at other players' pyramids.
    pub(super) fn open_faces(&self, seat: u8) -> (u32, u32) {
        let (mut mine, mut theirs) = (0, 0);
        for d in Dir::ALL {
            let mut set = self.spots[d as usize];
            while set != 0 {
                let c = set.trailing_zeros() as u8;
                set &= set - 1;
                let t = self.fixed.board.neighbour(c, d);
                if let Some((owner, _, _)) = as_pyramid(self.cell[usize::from(t)]) {
                    if owner == seat {
                        mine += 1;
                    } else {
                        theirs += 1;
                    }
                }
            }
        }
        (mine, theirs)
    }

    /// Put any content on an empty cell (reading a drawing).
    pub(super) fn place_raw(&mut self, c: u8, content: u8) {
        if content == NULL {
            let bit = 1u128 << c;
            self.cell[usize::from(c)] = NULL;
            self.empty &= !bit;
            for d in &mut self.spots {
                *d &= !bit;
            }
        } else {
            self.put_target(c, content);
        }
    }

    /// Take the pyramid on `c` off the board (a house rule's
    /// `remove_pyramid`): the cell is empty again, the cells around it that
    /// pointed only at it are no longer spots, and it becomes a spot for
    /// every direction that points at a root or pyramid.
    pub(super) fn lift_pyramid(&mut self, c: u8) {
        let bit = 1u128 << c;
        self.cell[usize::from(c)] = EMPTY;
        self.empty |= bit;
        self.targets &= !bit;
        for &(y, d) in self.fixed.board.incoming(c) {
            if y != NONE {
                self.spots[usize::from(d)] &= !(1u128 << y);
            }
        }
        for d in Dir::ALL {
            let t = self.fixed.board.neighbour(c, d);
            if t != NONE && self.targets & (1u128 << t) != 0 {
                self.spots[d as usize] |= bit;
            }
        }
    }

    /// Score a penalty (reading a drawing).
    pub(super) fn score_penalty(&mut self, mover: u8, owner: u8, size: u8, target: u8) {
        self.penalty(mover, owner, size, target);
    }

    /// Settle whose turn it is from `seat` (reading a drawing).
    pub(super) fn settle_from(&mut self, seat: u8) {
        self.settle(seat);
    }

    /// Move on to the first seat from `from` (inclusive) that can place, or end.
    fn settle(&mut self, from: u8) {
        if self.empty == 0 {
            self.end = Some(End::BoardFull);
            return;
        }
        if (0..self.players).all(|s| !self.can_move(s)) {
            self.end = Some(End::StashesEmpty);
            return;
        }
        if !self.any_spot() {
            self.end = Some(End::NoMoves);
            return;
        }
        let mut s = from;
        for _ in 0..self.players {
            if self.can_move(s) {
                self.to_move = s;
                return;
            }
            if self.fixed.rules.play.when_stuck == WhenStuck::End {
                self.end = Some(End::NoMoves);
                return;
            }
            self.tally.passes += 1;
            s = (s + 1) % self.players;
        }
        self.end = Some(End::NoMoves);
    }

    /// Check an action without applying it: `Err(reason)` in words.
    pub fn judge(&self, action: Action) -> Result<(), String> {
        if self.end.is_some() {
            return Err("the game is over".into());
        }
        let board = &self.fixed.board;
        let cells = board.cells();
        let seat = self.to_move + 1;
        match (self.setup_marker(), action) {
            (Some(m), Action::Null(c) | Action::Root(c)) => {
                let wanted = if m == NULL { "null" } else { "root" };
                let is_null = matches!(action, Action::Null(_));
                if is_null != (m == NULL) {
                    return Err(format!("seat {seat} places a {wanted} now"));
                }
                if usize::from(c) >= cells {
                    return Err("that cell is not on the board".into());
                }
                if self.empty & (1u128 << c) == 0 {
                    return Err(format!("{} is not empty", board.name(c)));
                }
                if is_null && !self.null_allowed(c) {
                    return Err(format!(
                        "a null on {} would cut the board in parts",
                        board.name(c)
                    ));
                }
                Ok(())
            }
            (Some(m), Action::Place { .. }) => Err(format!(
                "seat {seat} places a {} before any pyramid is placed",
                if m == NULL { "null" } else { "root" }
            )),
            (None, Action::Null(_) | Action::Root(_)) => {
                Err("the nulls and roots are placed; place a pyramid".into())
            }
            (None, Action::Place { cell, size, dir }) => {
                if usize::from(cell) >= cells {
                    return Err("that cell is not on the board".into());
                }
                if !(1..=3).contains(&size) {
                    return Err(format!("sizes are 1 to 3, not {size}"));
                }
                if self.stash[usize::from(self.to_move)][usize::from(size - 1)] == 0 {
                    return Err(format!(
                        "seat {seat} has no {} pyramid left",
                        ["small", "medium", "large"][usize::from(size - 1)]
                    ));
                }
                if self.empty & (1u128 << cell) == 0 {
                    return Err(format!("{} is not empty", board.name(cell)));
                }
                let t = board.neighbour(cell, dir);
                if t == NONE {
                    return Err(format!(
                        "{} pointing {} points off the board",
                        board.name(cell),
                        dir.letter()
                    ));
                }
                match self.cell[usize::from(t)] {
                    EMPTY => Err(format!(
                        "{} pointing {} points at {}, which is empty",
                        board.name(cell),
                        dir.letter(),
                        board.name(t)
                    )),
                    NULL => Err(format!(
                        "{} pointing {} points at the null on {}",
                        board.name(cell),
                        dir.letter(),
                        board.name(t)
                    )),
                    _ => Ok(()),
                }
            }
        }
    }

    /// Apply a penalty: the mover points a pyramid of `size` at `owner`'s pyramid of `target`.
    fn penalty(&mut self, mover: u8, owner: u8, size: u8, target: u8) {
        let (pays, gain) = match self.fixed.rules.scoring.owner_paid_by {
            OwnerPaidBy::Pot => (target, size),
            OwnerPaidBy::Mover => (target + size, size),
            OwnerPaidBy::Nobody => (target, 0),
        };
        let reset = i64::from(self.fixed.rules.coins.reset);
        if reset > 0 {
            let start = i64::from(self.fixed.rules.coins.start);
            let held = start + i64::from(self.scores[usize::from(mover)]);
            let need = i64::from(pays) - held - reset * i64::from(self.resets);
            if need > 0 {
                // Everyone takes `reset` coins, as often as the payer needs.
                self.resets += ((need + reset - 1) / reset) as u32;
            }
        }
        self.scores[usize::from(mover)] -= i32::from(pays);
        self.scores[usize::from(owner)] += i32::from(gain);
        self.tally.penalties += 1;
        self.tally.to_pot += u32::from(target);
        self.tally.to_owners += u32::from(gain);
    }

    /// Recount everything from scratch and compare with the incremental state.
    pub fn check_invariants(&self) -> Result<(), String> {
        let board = &self.fixed.board;
        let n = usize::from(self.players);
        let cells = board.cells();
        let mut empty = 0u128;
        let mut targets = 0u128;
        let mut nulls = 0u32;
        let mut roots = 0u32;
        let mut on_board = [[0i64; 3]; MAX_SEATS];
        let mut scores = [0i64; MAX_SEATS];
        for c in 0..cells as u8 {
            let bit = 1u128 << c;
            match self.cell[usize::from(c)] {
                EMPTY => empty |= bit,
                NULL => nulls += 1,
                ROOT => {
                    roots += 1;
                    targets |= bit;
                }
                v => {
                    let Some((seat, size, dir)) = as_pyramid(v) else {
                        return Err(format!("{}: unknown content {v:#x}", board.name(c)));
                    };
                    if usize::from(seat) >= n || !(1..=3).contains(&size) {
                        return Err(format!("{}: bad pyramid {v:#x}", board.name(c)));
                    }
                    targets |= bit;
                    on_board[usize::from(seat)][usize::from(size - 1)] += 1;
                    let t = board.neighbour(c, Dir::from_index(dir));
                    if t == NONE {
                        return Err(format!("{} points off the board", board.name(c)));
                    }
                    match self.cell[usize::from(t)] {
                        EMPTY | NULL => {
                            return Err(format!(
                                "{} points at {}, neither root nor pyramid",
                                board.name(c),
                                board.name(t)
                            ));
                        }
                        tv => {
                            if let Some((owner, tsize, _)) = as_pyramid(tv)
                                && owner != seat
                            {
                                let (pays, gain) = match self.fixed.rules.scoring.owner_paid_by {
                                    OwnerPaidBy::Pot => (tsize, size),
                                    OwnerPaidBy::Mover => (tsize + size, size),
                                    OwnerPaidBy::Nobody => (tsize, 0),
                                };
                                scores[usize::from(seat)] -= i64::from(pays);
                                scores[usize::from(owner)] += i64::from(gain);
                            }
                        }
                    }
                }
            }
        }
        for c in cells..MAX_CELLS {
            if self.cell[c] != EMPTY {
                return Err(format!("cell index {c} beyond the board holds something"));
            }
        }
        if empty != self.empty {
            return Err("the set of empty cells differs from a recount".into());
        }
        if targets != self.targets {
            return Err("the set of roots and pyramids differs from a recount".into());
        }
        for d in Dir::ALL {
            let mut spots = 0u128;
            for c in 0..cells as u8 {
                let t = board.neighbour(c, d);
                if empty & (1u128 << c) != 0 && t != NONE && targets & (1u128 << t) != 0 {
                    spots |= 1u128 << c;
                }
            }
            if spots != self.spots[d as usize] {
                return Err(format!(
                    "the spots pointing {} differ from a recount",
                    d.letter()
                ));
            }
        }
        let scripted = self.script.is_some();
        for s in 0..n {
            for (k, &start) in self.fixed.stash.iter().enumerate() {
                let total = on_board[s][k] + i64::from(self.stash[s][k]);
                let added = if scripted {
                    self.scripted_counts(s, k).0
                } else {
                    0
                };
                if total != i64::from(start) + added {
                    return Err(format!(
                        "seat {}: {} size-{} pyramids on board and in stash, not {}",
                        s + 1,
                        total,
                        k + 1,
                        i64::from(start) + added
                    ));
                }
            }
            if scripted {
                scores[s] += self.scripted_bonus(s);
            }
            if i64::from(self.scores[s]) != scores[s] {
                return Err(format!(
                    "seat {}: score {} but the board says {}",
                    s + 1,
                    self.scores[s],
                    scores[s]
                ));
            }
        }
        let centre = board.centre_roots().len() as u32;
        let want_nulls = self.fixed.markers[..usize::from(self.setup_done)]
            .iter()
            .filter(|&&m| m == NULL)
            .count() as u32;
        let added_roots = if scripted {
            self.scripted_counts(0, 0).1
        } else {
            0
        };
        let want_roots =
            (i64::from(u32::from(self.setup_done) - want_nulls + centre) + added_roots) as u32;
        if nulls != want_nulls || roots != want_roots {
            return Err(format!(
                "{nulls} nulls and {roots} roots on the board after {} setup plies",
                self.setup_done
            ));
        }
        if self.fixed.rules.setup.nulls_must_not_cut
            && !board.connected(board.all() & !self.nulls())
        {
            return Err("the nulls cut the board".into());
        }
        if self.fixed.rules.coins.reset > 0 && self.coins().iter().any(|&c| c < 0) {
            return Err("a player holds fewer than no coins despite the resets".into());
        }
        match self.end {
            None => {
                if usize::from(self.to_move) >= n {
                    return Err("the seat to move is not at the table".into());
                }
                if self.in_play() && (!self.can_move(self.to_move) || !self.any_spot()) {
                    return Err("the seat to move has no legal placement".into());
                }
            }
            Some(End::BoardFull) if self.empty != 0 => {
                return Err("ended with the board full, but it is not".into());
            }
            Some(End::Script | End::ScriptError) => {}
            Some(_) => {
                if self.in_play()
                    && self.any_spot()
                    && (0..self.players).any(|s| self.can_move(s))
                    && self.fixed.rules.play.when_stuck == WhenStuck::Pass
                {
                    return Err("ended while a player could still place".into());
                }
            }
        }
        Ok(())
    }

    /// The legal moves before any house rule filters them.
    pub(super) fn legal_plain(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.end.is_some() {
            return;
        }
        let cells = self.fixed.board.cells() as u8;
        match self.setup_marker() {
            Some(NULL) => out.extend(
                (0..cells)
                    .filter(|&c| self.null_allowed(c))
                    .map(Action::Null),
            ),
            Some(_) => out.extend(
                (0..cells)
                    .filter(|&c| self.empty & (1u128 << c) != 0)
                    .map(Action::Root),
            ),
            None => {
                let stash = self.stash[usize::from(self.to_move)];
                for c in 0..cells {
                    let bit = 1u128 << c;
                    for dir in Dir::ALL {
                        if self.spots[dir as usize] & bit != 0 {
                            for size in 1..=3u8 {
                                if stash[usize::from(size - 1)] > 0 {
                                    out.push(Action::Place { cell: c, size, dir });
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn advance(&mut self, mover: u8) {
        self.tally.plies += 1;
        let next = (mover + 1) % self.players;
        if self.in_play() {
            self.settle(next);
        } else {
            self.to_move = next;
        }
    }
}

/// Pick the `n`-th (from 0) set bit of `x` (which has more than `n` set bits).
/// Clearing the lowest bit `n` times beats a popcount search here: the spot
/// masks hold a few dozen bits, and the default target has no popcount
/// instruction.
#[inline]
pub(super) fn select(x: u128, n: u32) -> u8 {
    let hi = (x >> 64) as u64;
    let lo = x as u64;
    let (mut w, mut n, base) = if hi == 0 {
        (lo, n, 0)
    } else {
        let c = lo.count_ones();
        if n < c { (lo, n, 0) } else { (hi, n - c, 64) }
    };
    while n > 0 {
        w &= w - 1;
        n -= 1;
    }
    debug_assert_ne!(w, 0, "fewer set bits than asked for");
    base + w.trailing_zeros() as u8
}

impl GameState for State {
    type Action = Action;

    crate::script_moves!(play_plain, no_chance, own);

    fn seats(&self) -> usize {
        usize::from(self.players)
    }

    fn next(&self) -> Next {
        Next::decide_unless(self.end.is_some(), self.to_move)
    }

    fn roll_unchecked(&mut self, _face: u8) {}

    fn outcome(&self) -> Option<Outcome> {
        self.end.map(|_| Outcome::from_scores(self.scores()))
    }
}

impl State {
    /// Whether the rules allow `action` now (no house rule asked).
    fn check(&self, action: Action) -> Result<(), Refusal> {
        if self.end.is_some() {
            return Err(Refusal::GameOver);
        }
        self.judge(action)
            .map_err(|reason| Refusal::Illegal { reason })
    }

    /// Apply a move, no house rule run.
    #[inline]
    pub(super) fn play_plain(&mut self, action: Action) {
        debug_assert_eq!(self.judge(action), Ok(()));
        let mover = self.to_move;
        self.last = match action {
            Action::Null(c) | Action::Root(c) | Action::Place { cell: c, .. } => c,
        };
        match action {
            Action::Null(c) => {
                let bit = 1u128 << c;
                self.cell[usize::from(c)] = NULL;
                self.empty &= !bit;
                for d in &mut self.spots {
                    *d &= !bit;
                }
                self.setup_done += 1;
            }
            Action::Root(c) => {
                self.put_target(c, ROOT);
                self.setup_done += 1;
            }
            Action::Place { cell, size, dir } => {
                self.put_target(cell, pyramid(mover, size, dir as u8));
                self.stash[usize::from(mover)][usize::from(size - 1)] -= 1;
                self.tally.pyramids += 1;
                let t = self.fixed.board.neighbour(cell, dir);
                match as_pyramid(self.cell[usize::from(t)]) {
                    None => self.tally.at_root += 1,
                    Some((owner, _, _)) if owner == mover => self.tally.at_own += 1,
                    Some((owner, tsize, _)) => self.penalty(mover, owner, size, tsize),
                }
            }
        }
        self.advance(mover);
    }

    /// A random legal move before any house rule filters it.
    #[inline]
    pub(super) fn random_plain(&self, dice: &mut SeededDice) -> Action {
        match self.setup_marker() {
            Some(m) => {
                let empties = self.empty.count_ones();
                if m == ROOT || !self.fixed.rules.setup.nulls_must_not_cut {
                    let c = select(self.empty, dice.below(empties));
                    return if m == ROOT {
                        Action::Root(c)
                    } else {
                        Action::Null(c)
                    };
                }
                // Uniform over the allowed cells by rejection; few cells cut.
                for _ in 0..64 {
                    let c = select(self.empty, dice.below(empties));
                    if self.null_allowed(c) {
                        return Action::Null(c);
                    }
                }
                let mut all = Vec::new();
                self.legal_plain(&mut all);
                all[dice.below(all.len() as u32) as usize]
            }
            None => {
                let stash = self.stash[usize::from(self.to_move)];
                let mut sizes = [0u8; 3];
                let mut k = 0u32;
                for size in 1..=3u8 {
                    if stash[usize::from(size - 1)] > 0 {
                        sizes[k as usize] = size;
                        k += 1;
                    }
                }
                let counts = self.spots.map(u128::count_ones);
                let total: u32 = counts.iter().sum();
                if total * k == 0 {
                    // Not a decision node: any action, which `play` refuses.
                    return Action::Null(0);
                }
                let r = dice.below(total * k);
                let mut spot = r / k;
                let size = sizes[(r % k) as usize];
                for (d, &n) in counts.iter().enumerate() {
                    if spot < n {
                        let cell = select(self.spots[d], spot);
                        return Action::Place {
                            cell,
                            size,
                            dir: Dir::from_index(d as u8),
                        };
                    }
                    spot -= n;
                }
                unreachable!("the spot index is below the total")
            }
        }
    }
}

#[cfg(test)]
mod select_tests {
    use super::select;

    #[test]
    fn select_agrees_with_a_scan() {
        let masks = [
            1u128,
            0b1011_0100,
            u128::MAX,
            1 << 64 | 1 << 3 | 1 << 127,
            0xF0F0 << 60,
        ];
        for x in masks {
            let bits: Vec<u8> = (0..128u8).filter(|&b| x >> b & 1 == 1).collect();
            for (n, &b) in bits.iter().enumerate() {
                assert_eq!(select(x, n as u32), b, "{x:#x} {n}");
            }
        }
    }
}
