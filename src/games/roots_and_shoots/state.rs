//! The state of a game of Roots and Shoots: one node of its game tree.
//!
//! The state is a small machine with two layers:
//!
//! * the **phase** of the turn (first-turn beads and spawns, choosing a growth
//!   action, rolling it, placing beads, the spawn check, spawning, turn end);
//! * a stack of **tasks** that interrupt the phase wherever they arise: rain and
//!   scoring, nutrient value rolls, removals and the lost-end rule. A task runs
//!   before the phase continues, which is how "scoring takes place immediately,
//!   regardless of whose turn it is or what phase it is" is implemented.
//!
//! After every roll or action, `State::advance` runs every step that needs
//! no roll and no choice, and stops at the next chance node, decision or end.

use std::sync::Arc;

use crate::core::dice::{Die, SeededDice};
use crate::core::geometry::{Grid, Point};
use crate::core::protocol::{GameState, Next, Outcome, Refusal, Seat};
use crate::games::roots_and_shoots::action::Action;
use crate::games::roots_and_shoots::legal::PlaceKind;
use crate::games::roots_and_shoots::rules::{
    BeadsOut, FaceMapping, Finish, FirstSpawnOnBead, Growth, LostEnds, RemovedBeads, RollKind,
    Rules, ValueRolled,
};
use crate::games::roots_and_shoots::script::{self, Event, Scripted};

// `State::severs` and `State::growth_die` are indexed by `Growth as usize`
// but built in the order of `Growth::ALL`: the two must agree.
const _: () = {
    let mut i = 0;
    while i < Growth::ALL.len() {
        assert!(Growth::ALL[i] as usize == i);
        i += 1;
    }
};

/// Sentinel bead value of border cells.
pub(crate) const OFF: u8 = u8::MAX;

/// Most seats a game can have (the variant schema allows 2 to 8).
pub const MAX_SEATS: usize = 8;

/// One cell of the flat board, with the neighbour counts of its point, so
/// that a placement updates one cell per neighbour.
///
/// Aligned to 16 bytes so that a cell's address is a shift of its index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(align(16))]
pub(crate) struct Cell {
    /// 0: no bead; `s + 1`: a bead of seat `s`; [`OFF`]: border.
    pub bead: u8,
    /// Nutrient markers stacked on this point.
    pub nuts: u8,
    /// Beads of any colour around this point.
    pub adj_all: u8,
    /// Beads of the current roll around this point, counted only while a new
    /// plant is placed (the one action whose rule needs them; see
    /// `State::count_turn`).
    pub turn_adj: u8,
    /// Index of the bead here in its owner's `beads` list.
    pub index: u16,
    /// `adj[s]`: beads of seat `s` around this point.
    pub adj: [u8; MAX_SEATS],
    /// With a bead here, bit `i` set when the `i`-th neighbour (the order
    /// of [`Grid::offsets`]) holds a bead of the same colour: the links a
    /// root strength is traced along, kept instead of looked for (0 on an
    /// empty cell). Fits in the cell's padding.
    pub links: u8,
}

/// A nutrient marker on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nutrient {
    /// Serial number, unique within a game.
    pub id: u32,
    pub point: Point,
    /// The d12 value, once rolled.
    pub value: Option<u8>,
}

/// One player's beads and score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// Beads in hand.
    pub store: u32,
    /// Beads in the pile.
    pub supply: u32,
    /// Beads taken off the board and out of play.
    pub removed: u32,
    /// Nutrient points scored.
    pub score: i32,
    /// This player's beads on the board.
    pub(crate) beads: Vec<Point>,
}

impl Player {
    pub fn on_board(&self) -> u32 {
        self.beads.len() as u32
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The nutrient pile ran out.
    NutrientsOut,
    /// A player's beads ran out (see `end.beads_out`).
    BeadsOut,
    /// The safety limit `end.max_rounds` was reached.
    RoundLimit,
    /// A house rule written as a script ended it (`ctx.end_game()`).
    Script,
    /// A house rule written as a script failed: the game stopped there.
    ScriptError,
}

impl EndReason {
    pub const fn key(self) -> &'static str {
        match self {
            EndReason::NutrientsOut => "nutrients_out",
            EndReason::BeadsOut => "beads_out",
            EndReason::RoundLimit => "round_limit",
            EndReason::Script => "script",
            EndReason::ScriptError => "script_error",
        }
    }
}

/// Counters kept as the game is played, for statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Completed turns (not counting the first-turn setup).
    pub turns: u32,
    /// Beads placed by growth actions (first-turn beads not included).
    pub placements: u32,
    /// Rains (not counting a final scoring).
    pub rains: u32,
    /// Struggles started, and struggles the attacker won.
    pub struggles: u32,
    pub severings: u32,
    /// Nutrients that spawned (first turn included), and spawns that landed on
    /// a bead and removed it.
    pub spawns: u32,
    pub spawn_removals: u32,
    /// Nutrient markers scored, and the sum of their values.
    pub nutrients_scored: u32,
    pub value_scored: u32,
    /// Points lost as remainders of uneven splits.
    pub points_lost: u32,
    /// Beads lost to the lost-end rule (beyond the removed bead itself).
    pub beads_lost_to_ends: u32,
    /// Times the sole leader changed.
    pub lead_changes: u32,
    /// Sunbathes that emptied the roller's bead pile (or found it empty).
    pub piles_emptied: u32,
    /// First-turn nutrient rolls rerolled because every reading held a bead.
    pub first_rerolls: u32,
}

/// Where a line of a d20 reading points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    At(u8),
    /// A 20: the roller chooses any line.
    Any,
}

impl Line {
    fn holds(self, v: u8) -> bool {
        match self {
            Line::At(l) => l == v,
            Line::Any => true,
        }
    }
}

/// `repr(u8)`: a plain tag byte, so matching on the phase (several times a
/// step) is a load and a jump, not a decoding of niches in its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Phase {
    /// First turn: the seat places one bead around the centre.
    SetupBead,
    /// The seat chooses a growth action.
    ChooseGrowth,
    /// The growth die is rolled.
    RollGrowth(Growth),
    /// The seat places beads.
    Place {
        action: Growth,
        /// Beads the roll still allows.
        left: u8,
        /// Struggles started this turn.
        struggles: u8,
        /// No plain placement is left, only struggles: passing is allowed.
        only_attacks: bool,
    },
    /// Phase 2: the d12 that decides whether a nutrient spawns.
    SpawnCheck,
    /// The spawn d12 showed `face`; compared with the nutrients on the board
    /// once any rain it brought has been scored.
    SpawnResolve {
        face: u8,
    },
    /// Two d20s for a spawn; `first` on the first turn.
    Spawn {
        first: bool,
        a: Option<Line>,
        b: Option<Line>,
    },
    /// The turn is over (tasks may still run before the next turn starts).
    TurnEnd,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Task {
    /// Roll the d12 value of nutrient `id`. During scoring, a 1 brings no rain.
    RollValue { id: u32, scoring: bool },
    /// It rains: score every nutrient that has a bead next to it or on it.
    Rain { last: bool },
    /// Values are known: split them and clear the scored nutrients.
    Score { last: bool },
    /// Take the bead of `owner` at `point` off the board (if it is still
    /// there), then apply the lost-end rule.
    Remove { point: Point, owner: Seat },
    /// Apply the lost-end rule around `point`, where a bead of `owner` was.
    Ends { point: Point, owner: Seat },
    /// `owner` chooses which dangling end to lose (candidates in `State::lose`).
    LoseChoice { owner: Seat },
}

/// A dangling end offered to an owner: the bead next to the removed one, and
/// every bead that goes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DanglingEnd {
    pub end: Point,
    pub beads: Vec<Point>,
}

/// A node of a game of Roots and Shoots.
#[derive(Debug)]
pub struct State {
    pub(crate) rules: Arc<Rules>,
    pub(crate) grid: Grid,
    pub(crate) seats: u8,
    pub(crate) cells: Vec<Cell>,
    /// Beads of the current roll, in order.
    pub(crate) placed: Vec<Point>,
    /// Beads of the last roll that placed any, once it is over: the last
    /// move, for the pictures and the referee's board (never read by the
    /// rules). Swapped with `placed`, so it costs no allocation.
    pub(crate) last_placed: Vec<Point>,
    /// Whether the beads of the current roll are counted in `Cell::turn_adj`:
    /// only a new plant's rule asks for them, so other rolls skip the work.
    pub(crate) count_turn: bool,
    /// The growth actions this variant enables, in `Growth::ALL` order (the
    /// first `growth_count`), so a random choice needs no look-up.
    growth_options: [Growth; 4],
    growth_count: u8,
    /// `severs[a]`: beads of growth action `a` may start a struggle
    /// ([`Rules::severs_with`], looked up once).
    pub(crate) severs: [bool; 4],
    /// `growth_die[a]`: the die of growth action `a`, if enabled.
    growth_die: [Option<Die>; 4],
    /// The node the state is at: worked out by `advance`, where every step
    /// settles, so that `next` is a read, not a second match on the phase.
    node: Next,
    pub(crate) players: Vec<Player>,
    pub(crate) nutrients: Vec<Nutrient>,
    pub(crate) next_nutrient_id: u32,
    pub(crate) nutrient_supply: u32,
    pub(crate) phase: Phase,
    pub(crate) tasks: Vec<Task>,
    pub(crate) lose: Vec<DanglingEnd>,
    /// Whose turn it is (or who rolls during the first turn).
    pub(crate) seat: Seat,
    /// Round number, from 1; 0 during the first turn.
    pub(crate) round: u32,
    pub(crate) end_trigger: Option<EndReason>,
    pub(crate) ended: Option<EndReason>,
    pub(crate) leader: Option<Seat>,
    pub(crate) stats: Stats,
    /// What the conservation invariants count from.
    pub(crate) baseline: Baseline,
    /// The cells changed since the state was made a copy of another
    /// (`clone`, `clone_from`, [`State::restore_from`]): those from
    /// index `.0` up to `.1` (none when `.0 >= .1`). Bookkeeping for
    /// `restore_from` only, never read by the rules.
    dirty: (u16, u16),
    /// The variant's house rules written as scripts, and what they keep;
    /// `None` without scripts (checked once a step: the plain game pays
    /// nothing else for them).
    pub(crate) script: Option<Box<Scripted>>,
}

/// No cell changed ([`State::dirty`]).
const CLEAN: (u16, u16) = (u16::MAX, 0);

/// Cloned field by field; `clone_from` reuses the target's memory (the bots
/// copy a position into the same scratch state thousands of times a
/// decision). Both destructure every field, so a new field cannot be
/// forgotten. (Every field is cloned alike, Copy or not, so that a field
/// that stops being Copy needs no change here.)
#[allow(clippy::clone_on_copy)]
impl Clone for State {
    fn clone(&self) -> State {
        let State {
            rules,
            grid,
            seats,
            cells,
            placed,
            last_placed,
            count_turn,
            growth_options,
            growth_count,
            severs,
            growth_die,
            node,
            players,
            nutrients,
            next_nutrient_id,
            nutrient_supply,
            phase,
            tasks,
            lose,
            seat,
            round,
            end_trigger,
            ended,
            leader,
            stats,
            baseline,
            dirty: _,
            script,
        } = self;
        State {
            rules: rules.clone(),
            grid: grid.clone(),
            seats: seats.clone(),
            cells: cells.clone(),
            placed: placed.clone(),
            last_placed: last_placed.clone(),
            count_turn: count_turn.clone(),
            growth_options: growth_options.clone(),
            growth_count: growth_count.clone(),
            severs: severs.clone(),
            growth_die: growth_die.clone(),
            node: node.clone(),
            players: players.clone(),
            nutrients: nutrients.clone(),
            next_nutrient_id: next_nutrient_id.clone(),
            nutrient_supply: nutrient_supply.clone(),
            phase: phase.clone(),
            tasks: tasks.clone(),
            lose: lose.clone(),
            seat: seat.clone(),
            round: round.clone(),
            end_trigger: end_trigger.clone(),
            ended: ended.clone(),
            leader: leader.clone(),
            stats: stats.clone(),
            baseline: baseline.clone(),
            dirty: CLEAN,
            script: script.clone(),
        }
    }

    fn clone_from(&mut self, source: &State) {
        self.copy_from(source, true);
    }
}

impl State {
    /// Make this state `source` again after it was made a copy of `source`
    /// (by `clone`, `clone_from` or this) and played on, `source`
    /// unchanged since: every field is copied as `clone_from` copies it
    /// but the cells, of which only those changed since are. The bots
    /// try one move after another on one copy; a move changes a few
    /// cells of the board's hundreds. Debug builds compare the cells.
    pub(crate) fn restore_from(&mut self, source: &State) {
        self.copy_from(source, false);
        debug_assert!(self.cells == source.cells, "restored from another state");
    }

    /// Note that the cells from index `lo` up to `hi` changed.
    #[inline(always)]
    fn touch(&mut self, lo: usize, hi: usize) {
        self.dirty.0 = self.dirty.0.min(lo as u16);
        self.dirty.1 = self.dirty.1.max(hi as u16);
    }

    /// `clone_from`, the cells all copied (`whole`) or only those changed
    /// since the copy (see [`State::restore_from`]).
    fn copy_from(&mut self, source: &State, whole: bool) {
        let State {
            rules,
            grid,
            seats,
            cells,
            placed,
            last_placed,
            count_turn,
            growth_options,
            growth_count,
            severs,
            growth_die,
            node,
            players,
            nutrients,
            next_nutrient_id,
            nutrient_supply,
            phase,
            tasks,
            lose,
            seat,
            round,
            end_trigger,
            ended,
            leader,
            stats,
            baseline,
            dirty: _,
            script,
        } = source;
        self.rules.clone_from(rules);
        self.grid.clone_from(grid);
        self.seats.clone_from(seats);
        let (lo, hi) = (usize::from(self.dirty.0), usize::from(self.dirty.1));
        if whole || self.cells.len() != cells.len() {
            self.cells.clone_from(cells);
        } else if lo < hi {
            self.cells[lo..hi].copy_from_slice(&cells[lo..hi]);
        }
        self.dirty = CLEAN;
        self.placed.clone_from(placed);
        self.last_placed.clone_from(last_placed);
        self.count_turn.clone_from(count_turn);
        self.growth_options.clone_from(growth_options);
        self.growth_count.clone_from(growth_count);
        self.severs.clone_from(severs);
        self.growth_die.clone_from(growth_die);
        self.node.clone_from(node);
        self.nutrients.clone_from(nutrients);
        self.next_nutrient_id.clone_from(next_nutrient_id);
        self.nutrient_supply.clone_from(nutrient_supply);
        self.phase.clone_from(phase);
        self.tasks.clone_from(tasks);
        self.lose.clone_from(lose);
        self.seat.clone_from(seat);
        self.round.clone_from(round);
        self.end_trigger.clone_from(end_trigger);
        self.ended.clone_from(ended);
        self.leader.clone_from(leader);
        self.stats.clone_from(stats);
        self.script.clone_from(script);
        let Baseline {
            beads,
            nutrients,
            score,
        } = baseline;
        self.baseline.beads.clone_from(beads);
        self.baseline.nutrients = *nutrients;
        self.baseline.score = *score;
        self.players.truncate(players.len());
        for (mine, theirs) in self.players.iter_mut().zip(players) {
            let Player {
                store,
                supply,
                removed,
                score,
                beads,
            } = theirs;
            mine.store = *store;
            mine.supply = *supply;
            mine.removed = *removed;
            mine.score = *score;
            mine.beads.clone_from(beads);
        }
        let have = self.players.len();
        self.players.extend_from_slice(&players[have..]);
    }
}

impl State {
    /// Whether `self` is `other` for every decision made in it, but perhaps
    /// for the beads its roll leaves to place (`left` of a placing phase,
    /// at least one in both: no rule but the end of the roll reads it) and
    /// for what is kept for the record only (the statistics, the last
    /// move's beads, the conservation baseline). Every other field is
    /// compared (the rules by address: a copy of the same rules counts as
    /// different), so a bot that worked a choice out in `other` may make it
    /// again in `self`. The cells are not compared: they follow from the
    /// beads, the nutrients and the roll's beads, which are (the invariants
    /// [`State::check_invariants`] checks; debug builds compare them too).
    pub(crate) fn same_but_left(&self, other: &State) -> bool {
        let State {
            rules,
            grid,
            seats,
            cells,
            placed,
            last_placed: _,
            count_turn,
            growth_options,
            growth_count,
            severs,
            growth_die,
            node,
            players,
            nutrients,
            next_nutrient_id,
            nutrient_supply,
            phase,
            tasks,
            lose,
            seat,
            round,
            end_trigger,
            ended,
            leader,
            stats: _,
            baseline: _,
            dirty: _,
            script,
        } = self;
        let same_phase = match (*phase, other.phase) {
            (
                Phase::Place {
                    action,
                    left,
                    struggles,
                    only_attacks,
                },
                Phase::Place {
                    action: a,
                    left: l,
                    struggles: s,
                    only_attacks: o,
                },
            ) => action == a && struggles == s && only_attacks == o && left > 0 && l > 0,
            (mine, theirs) => mine == theirs,
        };
        let same = same_phase
            && Arc::ptr_eq(rules, &other.rules)
            && *grid == other.grid
            && *seats == other.seats
            && *seat == other.seat
            && *round == other.round
            && *count_turn == other.count_turn
            && *growth_options == other.growth_options
            && *growth_count == other.growth_count
            && *severs == other.severs
            && *growth_die == other.growth_die
            && *node == other.node
            && *next_nutrient_id == other.next_nutrient_id
            && *nutrient_supply == other.nutrient_supply
            && *end_trigger == other.end_trigger
            && *ended == other.ended
            && *leader == other.leader
            && *tasks == other.tasks
            && *lose == other.lose
            && *placed == other.placed
            && *nutrients == other.nutrients
            && *players == other.players
            && *script == other.script;
        debug_assert!(
            !same || *cells == other.cells,
            "the same beads, other cells"
        );
        same
    }
}

/// Totals the game conserves: each seat's beads (store + supply + board +
/// removed), all nutrient markers (pile + board + scored), and the points
/// scored before the game started (positions drawn for tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Baseline {
    pub beads: Vec<u32>,
    pub nutrients: u32,
    pub score: i64,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

impl State {
    /// A new game for `players` seats, at its first decision (seat 0 places
    /// its first bead). Seat 0 plays first: whoever drives the game decides
    /// who sits where.
    pub fn new(rules: Arc<Rules>, players: u8) -> Result<State, SetupError> {
        crate::games::admit_seats(&rules.name, rules.players.min..=rules.players.max, players)
            .map_err(SetupError)?;
        // The first-turn bead comes from the store (the pipeline refuses 0).
        if rules.beads.store == 0 {
            return Err(SetupError(format!(
                "variant `{}` has `beads.store` 0: the first-turn bead comes from the store, which needs at least 1",
                rules.name
            )));
        }
        let program = rules
            .script
            .program(&script::API)
            .map_err(|e| SetupError(format!("variant `{}`: {e}", rules.name)))?;
        let mut state = State::empty(rules, players);
        state.script = program.map(|p| Box::new(Scripted::new(p)));
        state.advance();
        Ok(state)
    }

    /// The board with no beads and no nutrients, at the first-turn bead of
    /// seat 0, without running `advance`.
    pub(crate) fn empty(rules: Arc<Rules>, players: u8) -> State {
        let grid = Grid::new(rules.board.size);
        let cells = grid.cells();
        // All empty (zeroes: a memset), then the border marked: the first and
        // last rows, and the first and last cell of every row between.
        let mut cell_vec = vec![Cell::default(); cells];
        let stride = grid.stride();
        for (y, row) in cell_vec.chunks_exact_mut(stride).enumerate() {
            if y == 0 || y == stride - 1 {
                row.iter_mut().for_each(|cell| cell.bead = OFF);
            } else {
                row[0].bead = OFF;
                row[stride - 1].bead = OFF;
            }
        }
        let growth_die = Growth::ALL.map(|a| rules.die_for(a));
        let mut growth_options = [Growth::Sunbathe; 4];
        let mut growth_count = 0;
        for a in Growth::ALL
            .into_iter()
            .filter(|&a| growth_die[a as usize].is_some())
        {
            growth_options[growth_count] = a;
            growth_count += 1;
        }
        // Room for every bead a seat can have on the board: no reallocation
        // while placing.
        let room = (rules.beads.store + rules.beads.supply).min(grid.points() as u32) as usize;
        let players_vec = (0..players)
            .map(|_| Player {
                store: rules.beads.store,
                supply: rules.beads.supply,
                beads: Vec::with_capacity(room),
                ..Player::default()
            })
            .collect();
        State {
            grid,
            seats: players,
            cells: cell_vec,
            placed: Vec::with_capacity(32),
            last_placed: Vec::with_capacity(32),
            count_turn: false,
            growth_options,
            growth_count: growth_count as u8,
            severs: Growth::ALL.map(|a| rules.severs_with(a)),
            growth_die,
            node: Next::Decide(0),
            players: players_vec,
            nutrients: Vec::with_capacity(16),
            next_nutrient_id: 0,
            nutrient_supply: rules.nutrients.supply,
            phase: Phase::SetupBead,
            tasks: Vec::with_capacity(16),
            lose: Vec::new(),
            seat: 0,
            round: 0,
            end_trigger: None,
            ended: None,
            leader: None,
            stats: Stats::default(),
            baseline: Baseline {
                beads: vec![rules.beads.store + rules.beads.supply; usize::from(players)],
                nutrients: rules.nutrients.supply,
                score: 0,
            },
            rules,
            dirty: CLEAN,
            script: None,
        }
    }

    // ----- read access -----------------------------------------------------

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn nutrients(&self) -> &[Nutrient] {
        &self.nutrients
    }

    /// Markers left in the nutrient pile.
    pub fn nutrient_supply(&self) -> u32 {
        self.nutrient_supply
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Whose turn it is (during the first turn: who places or rolls).
    pub fn turn_seat(&self) -> Seat {
        self.seat
    }

    /// The round, from 1; 0 during the first turn.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Why the game ended, once it has.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.ended
    }

    /// The last move's beads still on the board: the beads of the roll
    /// being played out, else those of the last roll that placed any.
    pub fn last_beads(&self) -> impl Iterator<Item = Point> + '_ {
        let beads = if self.placed.is_empty() {
            &self.last_placed
        } else {
            &self.placed
        };
        beads.iter().copied().filter(|&p| self.bead(p).is_some())
    }

    /// The seat whose bead is on `p`, if any.
    pub fn bead(&self, p: Point) -> Option<Seat> {
        match self.cells[p.index()].bead {
            0 | OFF => None,
            b => Some(b - 1),
        }
    }

    /// Number of nutrient markers on `p`.
    pub fn nutrients_at(&self, p: Point) -> u8 {
        self.cells[p.index()].nuts
    }

    /// The dangling ends offered at a pending "which end to lose" decision.
    pub fn dangling_ends(&self) -> &[DanglingEnd] {
        match self.tasks.last() {
            Some(Task::LoseChoice { .. }) => &self.lose,
            _ => &[],
        }
    }

    #[inline]
    pub(crate) fn adj_of(&self, s: Seat, p: Point) -> u8 {
        self.cells[p.index()].adj[usize::from(s)]
    }

    /// Beads of `s` around `p`, in the order of the neighbour offsets.
    #[inline]
    pub(crate) fn own_around(&self, s: Seat, p: Point) -> impl Iterator<Item = Point> + use<> {
        let offsets = *self.grid.offsets();
        let mut mask = self.own_mask(s, p);
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                p.offset(offsets[i])
            })
        })
    }

    /// [`State::own_mask`] of the bead on `p` for its own colour: the links
    /// kept in its cell (debug builds check them).
    #[inline(always)]
    pub(crate) fn links(&self, p: Point) -> u8 {
        let c = &self.cells[p.index()];
        debug_assert!(c.bead != 0 && c.bead != OFF);
        debug_assert_eq!(c.links, self.own_mask(c.bead - 1, p));
        c.links
    }

    /// Bit `i` set when the `i`-th neighbour of `p` holds a bead of `s`: the
    /// eight tests made without a branch each (which neighbours hold a bead
    /// is as good as random to the branch predictor).
    #[inline]
    fn own_mask(&self, s: Seat, p: Point) -> u8 {
        let b = s + 1;
        let stride = self.grid.stride();
        let centre = p.index();
        let row = |r: usize| -> [u8; 3] {
            let [x, y, z] = &self.cells[r - 1..r + 2] else {
                unreachable!("a row of three cells")
            };
            [
                u8::from(x.bead == b),
                u8::from(y.bead == b),
                u8::from(z.bead == b),
            ]
        };
        // Offsets in order: the row above (3), left and right, the row below.
        let [a0, a1, a2] = row(centre - stride);
        let [m0, _, m2] = row(centre);
        let [c0, c1, c2] = row(centre + stride);
        a0 | a1 << 1 | a2 << 2 | m0 << 3 | m2 << 4 | c0 << 5 | c1 << 6 | c2 << 7
    }

    /// What is being decided or rolled, in words.
    pub fn describe_node(&self) -> String {
        let g = &self.grid;
        match self.tasks.last() {
            Some(Task::RollValue { id, .. }) => {
                let at = self
                    .nutrients
                    .iter()
                    .find(|n| n.id == *id)
                    .map(|n| g.name(n.point));
                return format!(
                    "roll the d12 value of the nutrient at {}",
                    at.unwrap_or_default()
                );
            }
            Some(Task::LoseChoice { owner }) => {
                return format!("seat {} chooses which dangling end to lose", owner + 1);
            }
            _ => {}
        }
        let who = self.seat + 1;
        match self.phase {
            Phase::SetupBead => format!("seat {who} places a first bead next to the centre"),
            Phase::ChooseGrowth => format!("seat {who} chooses a growth action"),
            Phase::RollGrowth(a) => format!(
                "seat {who} rolls the {} for {}",
                self.rules.die_for(a).map(Die::name).unwrap_or("?"),
                a.words()
            ),
            Phase::Place { action, left, .. } => {
                format!(
                    "seat {who} places a bead ({}, {left} left of the roll)",
                    action.words()
                )
            }
            Phase::SpawnCheck => {
                format!("seat {who} rolls the d12 to see whether a nutrient spawns")
            }
            Phase::Spawn { a: None, .. } => format!("seat {who} rolls the first d20 for a spawn"),
            Phase::Spawn { b: None, .. } => format!("seat {who} rolls the second d20 for a spawn"),
            Phase::Spawn { .. } => format!("seat {who} chooses where the nutrient lands"),
            Phase::SpawnResolve { .. } | Phase::TurnEnd => format!("seat {who} ends the turn"),
            Phase::Over => {
                let reason = self.ended.map_or("", |e| {
                    crate::games::Stat::words(
                        <super::RootsAndShoots as crate::games::Game>::END_REASONS,
                        e.key(),
                    )
                });
                let winners = self.outcome().map(|o| o.winners).unwrap_or_default();
                let names: Vec<String> = winners
                    .iter()
                    .map(|&s| crate::games::roots_and_shoots::draw::seat_letter(s).to_string())
                    .collect();
                let verb = if names.len() == 1 {
                    "wins"
                } else {
                    "share the win"
                };
                format!(
                    "the game is over ({reason}): {} {verb}",
                    names.join(" and ")
                )
            }
        }
    }

    // ----- the machine -------------------------------------------------------

    /// Run every step that needs no roll and no choice, and note the node
    /// the state then waits at.
    #[inline]
    pub(crate) fn advance(&mut self) {
        // Most steps land on a node that waits for a roll or a choice with
        // nothing to run: note it without entering the machine.
        if self.tasks.is_empty() {
            let node = match self.phase {
                Phase::SetupBead | Phase::ChooseGrowth => Some(Next::Decide(self.seat)),
                Phase::RollGrowth(a) => Some(self.growth_roll(a)),
                Phase::SpawnCheck => Some(Next::Chance(Die::D12)),
                Phase::Spawn { a: None, .. } | Phase::Spawn { b: None, .. } => {
                    Some(Next::Chance(Die::D20))
                }
                // A roll used up: no need to look for another point.
                Phase::Place { left: 0, .. } => {
                    self.phase = Phase::SpawnCheck;
                    Some(Next::Chance(Die::D12))
                }
                // The commonest step of all, a bead placed with nothing
                // pending: a small function of its own, not the machine.
                Phase::Place { .. } => Some(self.continue_placing()),
                Phase::TurnEnd => {
                    self.end_turn();
                    // The next turn waits for its growth choice, unless the
                    // game ended (perhaps with a final scoring to run).
                    (self.tasks.is_empty() && self.phase == Phase::ChooseGrowth)
                        .then_some(Next::Decide(self.seat))
                }
                _ => None,
            };
            if let Some(node) = node {
                self.node = node;
                return;
            }
        }
        self.run_machine();
        self.node = self.node_now();
    }

    /// Note the node the state waits at (a script's failure ends the game).
    pub(crate) fn set_node(&mut self, node: Next) {
        self.node = node;
    }

    /// Apply an action and run what follows (the plain step).
    pub(crate) fn apply_action_and_advance(&mut self, action: Action) {
        self.apply_action(action);
        self.advance();
    }

    /// Apply a face and run what follows (the plain step).
    pub(crate) fn apply_roll_and_advance(&mut self, face: u8) {
        self.apply_roll(face);
        self.advance();
    }

    /// The chance node of the growth die of `action`.
    #[inline]
    fn growth_roll(&self, action: Growth) -> Next {
        Next::Chance(self.growth_die[action as usize].expect("an enabled action"))
    }

    /// The node the state is at, worked out from the phase and the tasks.
    fn node_now(&self) -> Next {
        match self.tasks.last() {
            Some(Task::RollValue { .. }) => return Next::Chance(Die::D12),
            Some(Task::LoseChoice { owner }) => return Next::Decide(*owner),
            Some(_) => unreachable!("advance runs every other task"),
            None => {}
        }
        match self.phase {
            Phase::SetupBead | Phase::ChooseGrowth | Phase::Place { .. } => Next::Decide(self.seat),
            Phase::RollGrowth(a) => self.growth_roll(a),
            Phase::SpawnCheck => Next::Chance(Die::D12),
            Phase::Spawn { a: None, .. } | Phase::Spawn { b: None, .. } => Next::Chance(Die::D20),
            Phase::Spawn { .. } => Next::Decide(self.seat),
            Phase::Over => Next::Over,
            Phase::SpawnResolve { .. } | Phase::TurnEnd => unreachable!("advance resolves these"),
        }
    }

    /// The machine's step for a placement phase with no task pending: place
    /// on, or go to the spawn check.
    #[inline(never)]
    fn continue_placing(&mut self) -> Next {
        if self.placing_continues() {
            Next::Decide(self.seat)
        } else {
            self.phase = Phase::SpawnCheck;
            Next::Chance(Die::D12)
        }
    }

    #[inline(never)]
    fn run_machine(&mut self) {
        loop {
            if let Some(&task) = self.tasks.last() {
                match task {
                    Task::RollValue { id, .. } => {
                        let pending = self
                            .nutrients
                            .iter()
                            .any(|n| n.id == id && n.value.is_none());
                        if pending {
                            return;
                        }
                        self.tasks.pop();
                    }
                    Task::LoseChoice { .. } => return,
                    Task::Rain { last } => {
                        self.tasks.pop();
                        self.start_rain(last);
                    }
                    Task::Score { last } => {
                        self.tasks.pop();
                        self.score(last);
                    }
                    Task::Remove { point, owner } => {
                        self.tasks.pop();
                        if self.cells[point.index()].bead == owner + 1 {
                            self.remove_bead(point);
                            self.tasks.push(Task::Ends { point, owner });
                        }
                    }
                    Task::Ends { point, owner } => {
                        self.tasks.pop();
                        self.lost_ends(point, owner);
                    }
                }
                continue;
            }
            match self.phase {
                Phase::Place { .. } => {
                    self.continue_placing();
                    return;
                }
                Phase::Spawn {
                    first,
                    a: Some(a),
                    b: Some(b),
                } => {
                    match self.spawn_candidates(first, a, b) {
                        Candidates::None => {
                            // First turn, every reading holds a bead: reroll both dice.
                            self.stats.first_rerolls += 1;
                            self.phase = Phase::Spawn {
                                first,
                                a: None,
                                b: None,
                            };
                            return;
                        }
                        Candidates::One(p) => self.spawn_at(p),
                        Candidates::Many => return,
                    }
                }
                Phase::SpawnResolve { face } => self.phase = self.spawn_check(face),
                Phase::TurnEnd => self.end_turn(),
                _ => return,
            }
        }
    }

    /// What follows a spawn check of `face` with the nutrients now on the
    /// board: a spawn when the face beats their count, else the turn's end.
    fn spawn_check(&self, face: u8) -> Phase {
        let count = self.nutrients.len() as u32;
        if (u32::from(face) > count) & self.can_spawn() {
            Phase::Spawn {
                first: false,
                a: None,
                b: None,
            }
        } else {
            Phase::TurnEnd
        }
    }

    fn start_rain(&mut self, last: bool) {
        if !last {
            self.stats.rains += 1;
        }
        self.tasks.push(Task::Score { last });
        let mut any = false;
        for i in (0..self.nutrients.len()).rev() {
            let n = self.nutrients[i];
            if self.scorable(n.point) {
                any = true;
                if n.value.is_none() {
                    self.tasks.push(Task::RollValue {
                        id: n.id,
                        scoring: true,
                    });
                }
            }
        }
        if !any {
            // Nothing to score (a common dry spell): the scoring task, still
            // on top, goes without a second look at every nutrient.
            self.tasks.pop();
            self.update_leader();
        }
    }

    /// A nutrient scores when a bead is next to it or on it.
    pub(crate) fn scorable(&self, p: Point) -> bool {
        self.cells[p.index()].bead != 0 || self.cells[p.index()].adj_all > 0
    }

    fn score(&mut self, last: bool) {
        let mut markers: Vec<(Point, Seat)> = Vec::new();
        let mut i = 0;
        while i < self.nutrients.len() {
            let n = self.nutrients[i];
            if !self.scorable(n.point) {
                i += 1;
                continue;
            }
            let value = u32::from(n.value.unwrap_or(0));
            let on_top = self.bead(n.point);
            // Who shares, counted and paid without a branch per seat.
            let mut sharers = [0u32; MAX_SEATS];
            let mut k = 0u32;
            for s in 0..self.seats {
                let shares = (self.adj_of(s, n.point) > 0) | (on_top == Some(s));
                sharers[usize::from(s)] = u32::from(shares);
                k += u32::from(shares);
            }
            let share = value / k;
            let rest = value % k;
            for s in 0..self.seats {
                self.players[usize::from(s)].score += (share * sharers[usize::from(s)]) as i32;
            }
            match on_top {
                Some(m) => self.players[usize::from(m)].score += rest as i32,
                None => self.stats.points_lost += rest,
            }
            self.stats.nutrients_scored += 1;
            self.stats.value_scored += value;
            if let Some(sc) = self.script.as_deref_mut() {
                let mut shares = [0u32; MAX_SEATS];
                for (s, out) in shares.iter_mut().enumerate().take(usize::from(self.seats)) {
                    *out = share * sharers[s] + if on_top == Some(s as Seat) { rest } else { 0 };
                }
                sc.scored.push(Event::Scored {
                    point: n.point,
                    value: value as u8,
                    shares,
                    on_top,
                });
            }
            if let Some(m) = on_top
                && !markers.contains(&(n.point, m))
            {
                markers.push((n.point, m));
            }
            self.touch(n.point.index(), n.point.index() + 1);
            self.cells[n.point.index()].nuts -= 1;
            self.nutrients.remove(i);
        }
        self.update_leader();
        // Marking beads leave the board with their nutrients, one after
        // another, each followed by the lost-end rule.
        for &(point, owner) in markers.iter().rev() {
            if last {
                self.remove_bead(point);
            } else {
                self.tasks.push(Task::Remove { point, owner });
            }
        }
    }

    pub(crate) fn update_leader(&mut self) {
        let best = self.players.iter().map(|p| p.score).max().unwrap_or(0);
        let mut leaders = self
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.score == best);
        let first = leaders.next().map(|(s, _)| s as Seat);
        if leaders.next().is_none() && best > 0 {
            if self.leader.is_some() && self.leader != first {
                self.stats.lead_changes += 1;
            }
            self.leader = first;
        }
    }

    /// The lost-end rule after the bead of `owner` at `point` was removed.
    fn lost_ends(&mut self, point: Point, owner: Seat) {
        let mode = self.rules.removal.lost_ends;
        if mode == LostEnds::None {
            return;
        }
        if self.adj_of(owner, point) == 1 {
            self.lose_only_end(point, owner);
            return;
        }
        let ends = self.dangling(point, owner);
        match (mode, ends.len()) {
            (_, 0) => {}
            (LostEnds::OneEnd, 1) | (LostEnds::AllEnds, _) => {
                for end in ends {
                    self.lose_beads(&end.beads);
                }
            }
            _ => {
                self.lose = ends;
                self.tasks.push(Task::LoseChoice { owner });
            }
        }
    }

    pub(crate) fn lose_beads(&mut self, beads: &[Point]) {
        for &b in beads {
            if self.cells[b.index()].bead != 0 {
                self.remove_bead(b);
                self.stats.beads_lost_to_ends += 1;
            }
        }
    }

    fn spawn_candidates(&self, first: bool, a: Line, b: Line) -> Candidates {
        if !first {
            // After the first turn every named point is a choice.
            let mut points = self.spawn_points(a, b);
            return match (points.len(), points.next()) {
                (1, Some(p)) => Candidates::One(p),
                _ => Candidates::Many,
            };
        }
        let free_only = self.spawn_free_only(first);
        let mut found = None;
        let mut any_free = false;
        let mut count = 0;
        for p in self.spawn_points(a, b) {
            let has_bead = self.cells[p.index()].bead != 0;
            any_free |= !has_bead;
            if free_only && has_bead {
                continue;
            }
            count += 1;
            found = Some(p);
        }
        if first && !any_free {
            return Candidates::None;
        }
        match (count, found) {
            (1, Some(p)) => Candidates::One(p),
            _ => Candidates::Many,
        }
    }

    /// The points a pair of d20 readings can name (x/y either way round),
    /// each once, built from the lines rather than by scanning the board: two
    /// fixed lines name at most two points.
    pub(crate) fn spawn_points(&self, a: Line, b: Line) -> SpawnPoints {
        let n = self.grid.size();
        let (fixed, any) = match (a, b) {
            (Line::At(x), Line::At(y)) => {
                let mut pts = SpawnPoints::default();
                pts.push(self.grid, x, y);
                if x != y {
                    pts.push(self.grid, y, x);
                }
                return pts;
            }
            (Line::At(l), Line::Any) | (Line::Any, Line::At(l)) => (Some(l), 2 * u16::from(n) - 1),
            (Line::Any, Line::Any) => (None, u16::from(n) * u16::from(n)),
        };
        SpawnPoints {
            grid: Some(self.grid),
            fixed,
            next: 0,
            end: any,
            list: [Point(0); 2],
            len: 0,
        }
    }

    pub(crate) fn is_spawn_choice(&self, p: Point) -> bool {
        let Phase::Spawn {
            first,
            a: Some(a),
            b: Some(b),
        } = self.phase
        else {
            return false;
        };
        if !self.grid.on_board(p) {
            return false;
        }
        let (x, y) = self.grid.xy(p);
        let named = (a.holds(x) && b.holds(y)) || (b.holds(x) && a.holds(y));
        named && !(self.spawn_free_only(first) && self.cells[p.index()].bead != 0)
    }

    /// Whether a spawn must avoid beads (a first-turn spawn under
    /// `choose_free`).
    fn spawn_free_only(&self, first: bool) -> bool {
        first && self.rules.setup.first_spawn_on_bead == FirstSpawnOnBead::ChooseFree
    }

    /// A nutrient lands on `p` (or removes the bead there).
    fn spawn_at(&mut self, p: Point) {
        let first = matches!(self.phase, Phase::Spawn { first: true, .. });
        let cell = self.cells[p.index()];
        if cell.nuts == 0 && cell.bead != 0 {
            // A root is there: the bead is removed, even the roller's own, and
            // no nutrient is placed.
            self.stats.spawn_removals += 1;
            self.tasks.push(Task::Remove {
                point: p,
                owner: cell.bead - 1,
            });
        } else {
            // An empty point, or a stack: one more marker. A marker on a stack
            // already found (a bead on top) is valued at once.
            let id = self.add_nutrient(p);
            self.stats.spawns += 1;
            if self.rules.nutrients.value_rolled == ValueRolled::OnSpawn || cell.bead != 0 {
                self.tasks.push(Task::RollValue { id, scoring: false });
            }
        }
        self.phase = if first && self.seat + 1 < self.seats {
            self.seat += 1;
            self.first_spawn_or_start()
        } else if first {
            self.start_turns()
        } else {
            Phase::TurnEnd
        };
    }

    pub(crate) fn add_nutrient(&mut self, p: Point) -> u32 {
        let id = self.next_nutrient_id;
        self.next_nutrient_id += 1;
        self.nutrient_supply -= 1;
        self.touch(p.index(), p.index() + 1);
        self.cells[p.index()].nuts += 1;
        self.nutrients.push(Nutrient {
            id,
            point: p,
            value: None,
        });
        id
    }

    fn can_spawn(&self) -> bool {
        (self.nutrient_supply > 0)
            & ((self.nutrients.len() as u32) < self.rules.nutrients.max_on_board)
    }

    /// First-turn spawn of the current seat, or (if no nutrient may spawn)
    /// the next seat's, or the first turn proper.
    fn first_spawn_or_start(&mut self) -> Phase {
        if self.can_spawn() {
            Phase::Spawn {
                first: true,
                a: None,
                b: None,
            }
        } else {
            self.start_turns()
        }
    }

    fn start_turns(&mut self) -> Phase {
        self.seat = 0;
        self.round = 1;
        Phase::ChooseGrowth
    }

    #[inline(never)]
    fn end_turn(&mut self) {
        self.clear_turn();
        self.stats.turns += 1;
        if self.end_trigger.is_none() {
            self.end_trigger = self.end_condition();
        }
        if let Some(reason) = self.finishes_at_turn_end(self.end_trigger) {
            self.finish(reason);
            return;
        }
        let last_in_round = self.seat + 1 == self.seats;
        // The next seat, and the next round after the last seat: selects
        // rather than branches, since seats alternate every turn.
        self.round += u32::from(last_in_round);
        self.seat = if last_in_round { 0 } else { self.seat + 1 };
        self.phase = Phase::ChooseGrowth;
    }

    /// Why the game finishes at the end of this turn, `end_trigger` being
    /// the turn's end trigger (a condition met now or earlier), if it does.
    fn finishes_at_turn_end(&self, end_trigger: Option<EndReason>) -> Option<EndReason> {
        let last_in_round = self.seat + 1 == self.seats;
        if let Some(reason) = end_trigger
            && (self.rules.end.finish == Finish::EndOfTurn || last_in_round)
        {
            return Some(reason);
        }
        (last_in_round && self.round >= self.rules.end.max_rounds).then_some(EndReason::RoundLimit)
    }

    /// Whether a nutrient spawned on an empty point now (at a spawn choice
    /// after the first turn) ends the turn and leaves the game going: the
    /// position after it is this one with one more nutrient on the board
    /// and one fewer in the pile (the bots price such a spawn without
    /// playing it). `false` when the game would finish, and when the
    /// nutrient's value is rolled at once.
    pub(crate) fn spawn_only_adds(&self) -> bool {
        if !matches!(self.phase, Phase::Spawn { first: false, .. })
            || !self.tasks.is_empty()
            || self.rules.nutrients.value_rolled == ValueRolled::OnSpawn
            || self.nutrient_supply == 0
        {
            return false;
        }
        let trigger = self.end_trigger.or_else(|| {
            if self.nutrient_supply == 1 {
                Some(EndReason::NutrientsOut)
            } else {
                self.end_condition()
            }
        });
        self.finishes_at_turn_end(trigger).is_none()
    }

    fn end_condition(&self) -> Option<EndReason> {
        if self.nutrient_supply == 0 {
            return Some(EndReason::NutrientsOut);
        }
        let out = |p: &Player| match self.rules.end.beads_out {
            BeadsOut::SupplyEmpty => p.supply == 0,
            BeadsOut::SupplyAndStoreEmpty => p.supply == 0 && p.store == 0,
        };
        self.players.iter().any(out).then_some(EndReason::BeadsOut)
    }

    pub(crate) fn finish(&mut self, reason: EndReason) {
        self.ended = Some(reason);
        self.phase = Phase::Over;
        if self.rules.end.final_scoring {
            self.tasks.push(Task::Rain { last: true });
        }
    }

    #[inline]
    pub(crate) fn clear_turn(&mut self) {
        if self.count_turn {
            let placed = std::mem::take(&mut self.placed);
            for &p in &placed {
                self.around_mut(p, |_, cell| cell.turn_adj -= 1);
            }
            self.placed = placed;
        }
        if !self.placed.is_empty() {
            std::mem::swap(&mut self.placed, &mut self.last_placed);
        }
        self.placed.clear();
        self.count_turn = false;
    }

    // ----- beads -------------------------------------------------------------

    /// Apply `f` to the eight cells around `p`, a row of three at a time (one
    /// bounds check a row, not one a cell), with each cell's place `i` in
    /// the order of [`Grid::offsets`] (the row above, left and right, the
    /// row below: the bits of [`State::own_mask`]).
    #[inline(always)]
    fn around_mut(&mut self, p: Point, mut f: impl FnMut(u32, &mut Cell)) {
        let stride = self.grid.stride();
        let centre = p.index();
        // The square round `p`, `p` and its neighbours included (the
        // callers change those too).
        self.touch(centre - stride - 1, centre + stride + 2);
        let row = centre - stride;
        let [a, b, c] = &mut self.cells[row - 1..row + 2] else {
            unreachable!("a row of three cells")
        };
        f(0, a);
        f(1, b);
        f(2, c);
        let [a, _, c] = &mut self.cells[centre - 1..centre + 2] else {
            unreachable!("a row of three cells")
        };
        f(3, a);
        f(4, c);
        let row = centre + stride;
        let [a, b, c] = &mut self.cells[row - 1..row + 2] else {
            unreachable!("a row of three cells")
        };
        f(5, a);
        f(6, b);
        f(7, c);
    }

    /// Put a bead of `s` on the empty point `p`, from its store.
    pub(crate) fn put_bead(&mut self, s: Seat, p: Point, this_roll: bool) {
        let seat = usize::from(s);
        let turn = u8::from(this_roll && self.count_turn);
        // Count the bead around `p` and link it with its own neighbours in
        // the same pass (offsets `i` and `7 - i` are opposite): no branch
        // per cell, as in `own_mask` (another cell's `links` gains a zero).
        let bead = s + 1;
        let mut links = 0u8;
        self.around_mut(p, |i, cell| {
            cell.adj[seat] += 1;
            cell.adj_all += 1;
            cell.turn_adj += turn;
            let own = u8::from(cell.bead == bead);
            cell.links |= own << (7 - i);
            links |= own << i;
        });
        debug_assert_eq!(links, self.own_mask(s, p));
        let player = &mut self.players[seat];
        player.store -= 1;
        let cell = &mut self.cells[p.index()];
        cell.bead = s + 1;
        cell.links = links;
        cell.index = player.beads.len() as u16;
        player.beads.push(p);
        if this_roll {
            self.placed.push(p);
        }
    }

    /// Take the bead on `p` off the board.
    pub(crate) fn remove_bead(&mut self, p: Point) {
        let s = self.cells[p.index()].bead - 1;
        // A bead of this roll leaves the roll's list (a handful of points).
        if let Some(i) = self.placed.iter().position(|&q| q == p) {
            self.placed.remove(i);
            if self.count_turn {
                self.around_mut(p, |_, cell| cell.turn_adj -= 1);
            }
        }
        self.cells[p.index()].bead = 0;
        let offsets = *self.grid.offsets();
        let mut m = std::mem::take(&mut self.cells[p.index()].links);
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.cells[p.offset(offsets[i]).index()].links &= !(1 << (7 - i));
        }
        let seat = usize::from(s);
        self.around_mut(p, |_, cell| {
            cell.adj[seat] -= 1;
            cell.adj_all -= 1;
        });
        let player = &mut self.players[seat];
        let i = usize::from(self.cells[p.index()].index);
        player.beads.swap_remove(i);
        match self.rules.beads.removed_go_to {
            RemovedBeads::OutOfPlay => player.removed += 1,
            RemovedBeads::Supply => player.supply += 1,
        }
        if let Some(&moved) = self.players[seat].beads.get(i) {
            self.cells[moved.index()].index = i as u16;
            self.touch(moved.index(), moved.index() + 1);
        }
    }

    // ----- applying rolls and actions ------------------------------------------

    #[inline(always)]
    fn apply_roll(&mut self, face: u8) {
        if let Some(&Task::RollValue { id, scoring }) = self.tasks.last() {
            self.tasks.pop();
            if let Some(n) = self.nutrients.iter_mut().find(|n| n.id == id) {
                n.value = Some(face);
            }
            if face == 1 && !scoring && self.rules.rains_on(RollKind::NutrientValue) {
                self.tasks.push(Task::Rain { last: false });
            }
            return;
        }
        let rain_kind = match self.phase {
            Phase::RollGrowth(action) => {
                if action == Growth::Sunbathe {
                    let player = &mut self.players[usize::from(self.seat)];
                    let take = u32::from(face).min(player.supply);
                    player.supply -= take;
                    player.store += take;
                    // Counted once, when the last beads are taken.
                    if take > 0 && player.supply == 0 {
                        self.stats.piles_emptied += 1;
                    }
                    self.phase = Phase::SpawnCheck;
                } else {
                    self.count_turn = action == Growth::NewPlant;
                    self.phase = Phase::Place {
                        action,
                        left: face,
                        struggles: 0,
                        only_attacks: false,
                    };
                }
                RollKind::Growth
            }
            Phase::SpawnCheck => {
                if face == 1 && self.rules.rains_on(RollKind::SpawnCheck) {
                    // The rain is scored first: it may clear nutrients.
                    self.phase = Phase::SpawnResolve { face };
                } else {
                    self.phase = self.spawn_check(face);
                }
                RollKind::SpawnCheck
            }
            Phase::Spawn { first, a, b } => {
                let line = if face == 20 {
                    Some(Line::Any)
                } else {
                    let l = match self.rules.coordinates.faces {
                        FaceMapping::FaceMinusOne => face - 1,
                        FaceMapping::FaceIsLine => face,
                    };
                    // A face that names a line off the board is rolled again.
                    (l < self.grid.size()).then_some(Line::At(l))
                };
                if line.is_some() {
                    self.phase = match a {
                        None => Phase::Spawn { first, a: line, b },
                        Some(_) => Phase::Spawn { first, a, b: line },
                    };
                }
                RollKind::Coordinate
            }
            _ => unreachable!("apply_roll is only called at chance nodes"),
        };
        if face == 1 && self.rules.rains_on(rain_kind) {
            self.tasks.push(Task::Rain { last: false });
        }
    }

    // Always inlined into `play_unchecked`, as it was before scripts gave
    // it a second caller (the scripted step, `apply_action_and_advance`).
    #[inline(always)]
    fn apply_action(&mut self, action: Action) {
        if let Some(&Task::LoseChoice { .. }) = self.tasks.last() {
            self.tasks.pop();
            let Action::Lose(end) = action else {
                unreachable!("checked")
            };
            let chosen = std::mem::take(&mut self.lose);
            if let Some(e) = chosen.into_iter().find(|e| e.end == end) {
                self.lose_beads(&e.beads);
            }
            return;
        }
        match (self.phase, action) {
            (Phase::SetupBead, Action::Place(p)) => {
                self.put_bead(self.seat, p, false);
                self.phase = if self.seat + 1 < self.seats {
                    self.seat += 1;
                    Phase::SetupBead
                } else {
                    self.seat = 0;
                    self.first_spawn_or_start()
                };
            }
            (Phase::ChooseGrowth, Action::Grow(g)) => self.phase = Phase::RollGrowth(g),
            (Phase::Place { .. }, Action::Pass) => self.phase = Phase::SpawnCheck,
            (
                Phase::Place {
                    action,
                    left,
                    struggles,
                    ..
                },
                Action::Place(p),
            ) => {
                debug_assert!(
                    self.judge(self.seat, action, struggles, p).is_ok(),
                    "play_unchecked with an illegal placement"
                );
                let kind = self.place_kind(p);
                self.place(action, left, struggles, p, kind);
            }
            (Phase::Spawn { .. }, Action::Spawn(p)) => self.spawn_at(p),
            _ => unreachable!("checked"),
        }
    }

    fn place(&mut self, action: Growth, left: u8, struggles: u8, p: Point, kind: PlaceKind) {
        let s = self.seat;
        let mut left = left;
        let mut struggles = struggles;
        match kind {
            PlaceKind::Plain => {
                self.put_bead(s, p, true);
                self.stats.placements += 1;
                left -= 1;
            }
            PlaceKind::Mark => {
                self.put_bead(s, p, true);
                self.stats.placements += 1;
                left -= 1;
                self.roll_found_values(p);
                if self.rules.turn.one_nutrient_per_turn {
                    left = 0;
                }
            }
            PlaceKind::Attack(defender) => {
                struggles += 1;
                self.stats.struggles += 1;
                let defence = self.strength(p);
                if self.attack_beats(s, p, defence) {
                    self.stats.severings += 1;
                    self.remove_bead(p);
                    if self.rules.severing.winner_occupies {
                        self.put_bead(s, p, true);
                        self.stats.placements += 1;
                        left -= 1;
                        if self.cells[p.index()].nuts > 0 {
                            self.roll_found_values(p);
                            if self.rules.turn.one_nutrient_per_turn {
                                left = 0;
                            }
                        }
                    }
                    self.tasks.push(Task::Ends {
                        point: p,
                        owner: defender,
                    });
                }
            }
        }
        self.phase = Phase::Place {
            action,
            left,
            struggles,
            only_attacks: false,
        };
    }

    /// A bead now sits on the nutrients at `p`: roll the values not yet known,
    /// first marker first.
    fn roll_found_values(&mut self, p: Point) {
        for i in (0..self.nutrients.len()).rev() {
            let n = self.nutrients[i];
            if n.point == p && n.value.is_none() {
                self.tasks.push(Task::RollValue {
                    id: n.id,
                    scoring: false,
                });
            }
        }
    }

    /// Whether the current seat still places beads this roll; sets
    /// `only_attacks` when struggles are all that is left.
    fn placing_continues(&mut self) -> bool {
        let Phase::Place {
            action,
            left,
            struggles,
            ..
        } = self.phase
        else {
            return false;
        };
        if left == 0 || self.players[usize::from(self.seat)].store == 0 {
            return false;
        }
        let (plain, attack) = self.placement_options(action, struggles);
        self.phase = Phase::Place {
            action,
            left,
            struggles,
            only_attacks: !plain,
        };
        plain || attack
    }

    // ----- checks ----------------------------------------------------------------

    fn check_action(&self, action: Action) -> Result<(), Refusal> {
        self.check_plain(action)?;
        // A filter that failed (or forbade every move) ends the game at
        // this step: the move is let through for that.
        if self.script.is_some()
            && !self.script_pending()
            && let Some(names) = self.forbidding_script(action)
        {
            return Err(Refusal::Illegal {
                reason: format!("the house rule `{names}` forbids this move"),
            });
        }
        Ok(())
    }

    /// [`State::check_action`] by the rules' keys alone.
    fn check_plain(&self, action: Action) -> Result<(), Refusal> {
        let illegal = |reason: String| Err(Refusal::Illegal { reason });
        let g = &self.grid;
        let seat = match self.next() {
            Next::Decide(s) => s,
            Next::Chance(die) => return Err(Refusal::ExpectedRoll { die }),
            Next::Over | Next::Draw => return Err(Refusal::GameOver),
        };
        if let Some(Task::LoseChoice { .. }) = self.tasks.last() {
            return match action {
                Action::Lose(p) if self.lose.iter().any(|e| e.end == p) => Ok(()),
                Action::Lose(p) => illegal(format!(
                    "{} is not a dangling end; choose one of: {}",
                    g.name(p),
                    self.lose
                        .iter()
                        .map(|e| g.name(e.end))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                _ => illegal(format!(
                    "seat {} must choose which end to lose (`lose x,y`)",
                    seat + 1
                )),
            };
        }
        match (self.phase, action) {
            (Phase::SetupBead, Action::Place(p)) => {
                if !g.adjacent(p, g.centre()) {
                    illegal(format!(
                        "the first bead goes on one of the 8 points around the centre {}, not {}",
                        g.name(g.centre()),
                        g.name(p)
                    ))
                } else if self.cells[p.index()].bead != 0 {
                    illegal(format!("{} already holds a bead", g.name(p)))
                } else {
                    Ok(())
                }
            }
            (Phase::ChooseGrowth, Action::Grow(a)) => match self.rules.die_for(a) {
                Some(_) => Ok(()),
                None => illegal(format!("this variant has no {a} action")),
            },
            (Phase::Place { only_attacks, .. }, Action::Pass) => {
                if only_attacks {
                    Ok(())
                } else {
                    illegal("you must place while a placement is possible (passing is only allowed when every placement left would start a struggle)".to_string())
                }
            }
            (
                Phase::Place {
                    action, struggles, ..
                },
                Action::Place(p),
            ) => {
                if !g.on_board(p) {
                    return illegal(format!("{} is off the board", g.name(p)));
                }
                match self.judge(seat, action, struggles, p) {
                    Ok(_) => Ok(()),
                    Err(why) => illegal(why.explain(self, action, p)),
                }
            }
            (Phase::Spawn { .. }, Action::Spawn(p)) => {
                if self.is_spawn_choice(p) {
                    Ok(())
                } else {
                    illegal(format!("the dice do not allow a nutrient at {}", g.name(p)))
                }
            }
            _ => illegal(format!("expected: {}", self.describe_node())),
        }
    }

    fn check_roll(&self, face: u8) -> Result<(), Refusal> {
        match self.next() {
            Next::Chance(die) if die.has_face(face) => Ok(()),
            Next::Chance(die) => Err(Refusal::FaceOutOfRange { die, face }),
            Next::Decide(seat) => Err(Refusal::ExpectedAction { seat }),
            Next::Over | Next::Draw => Err(Refusal::GameOver),
        }
    }
}

/// The points named by two d20 readings (see [`State::spawn_points`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct SpawnPoints {
    /// Set when the readings include a 20 and points are generated.
    grid: Option<Grid>,
    /// The fixed line when exactly one reading is a 20.
    fixed: Option<u8>,
    next: u16,
    end: u16,
    /// The one or two points of two fixed lines.
    list: [Point; 2],
    len: u8,
}

impl SpawnPoints {
    fn push(&mut self, grid: Grid, x: u8, y: u8) {
        self.list[usize::from(self.len)] = grid
            .point(i32::from(x), i32::from(y))
            .expect("lines are on the board");
        self.len += 1;
    }
}

impl ExactSizeIterator for SpawnPoints {}

impl Iterator for SpawnPoints {
    type Item = Point;

    fn size_hint(&self) -> (usize, Option<usize>) {
        let end = match self.grid {
            Some(_) => self.end,
            None => u16::from(self.len),
        };
        let n = usize::from(end.saturating_sub(self.next));
        (n, Some(n))
    }

    #[inline]
    fn nth(&mut self, k: usize) -> Option<Point> {
        // Every point is computed from its index: skipping is free.
        self.next = self
            .next
            .saturating_add(u16::try_from(k).unwrap_or(u16::MAX));
        self.next()
    }

    #[inline]
    fn next(&mut self) -> Option<Point> {
        let Some(grid) = self.grid else {
            if self.next < u16::from(self.len) {
                self.next += 1;
                return Some(self.list[usize::from(self.next - 1)]);
            }
            return None;
        };
        if self.next >= self.end {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let n = u16::from(grid.size());
        let (x, y) = match self.fixed {
            // Line l as y (x from 0..n), then line l as x (y from 0..n, skipping y = l).
            Some(l) if i < n => (i, u16::from(l)),
            Some(l) => {
                let j = i - n;
                let y = if j < u16::from(l) { j } else { j + 1 };
                (u16::from(l), y)
            }
            None => (i % n, i / n),
        };
        grid.point(i32::from(x), i32::from(y))
    }
}

enum Candidates {
    None,
    One(Point),
    Many,
}

impl State {
    /// How many actions [`GameState::legal_actions`] lists, when the state
    /// is placing beads (the bulk of a game's decisions, and the long
    /// lists): counted from the set of legal points, without listing them.
    /// `None` elsewhere, and where a house rule may forbid moves (the
    /// caller lists them). Debug builds check the count against the list.
    pub(crate) fn placement_count(&self) -> Option<usize> {
        if !matches!(self.next(), Next::Decide(_)) || !self.tasks.is_empty() || self.filters_moves()
        {
            return None;
        }
        let Phase::Place {
            action,
            struggles,
            only_attacks,
            ..
        } = self.phase
        else {
            return None;
        };
        let n = self.legal_placements(action, struggles).len() + usize::from(only_attacks);
        debug_assert_eq!(n, {
            let mut all = Vec::new();
            self.legal_actions(&mut all);
            all.len()
        });
        Some(n)
    }
}

impl GameState for State {
    type Action = Action;

    fn seats(&self) -> usize {
        usize::from(self.seats)
    }

    #[inline]
    fn next(&self) -> Next {
        debug_assert_eq!(self.node, self.node_now(), "the noted node is stale");
        self.node
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_plain(out);
        if self.script.is_some() {
            self.filter_legal(out);
        }
    }

    fn play(&mut self, action: Action) -> Result<(), Refusal> {
        self.check_action(action)?;
        self.play_unchecked(action);
        Ok(())
    }

    #[inline(always)]
    fn play_unchecked(&mut self, action: Action) {
        if self.script.is_some() {
            return self.play_scripted(action);
        }
        self.apply_action(action);
        self.advance();
    }

    fn roll(&mut self, face: u8) -> Result<(), Refusal> {
        self.check_roll(face)?;
        self.roll_unchecked(face);
        Ok(())
    }

    #[inline]
    fn roll_unchecked(&mut self, face: u8) {
        debug_assert!(self.check_roll(face).is_ok(), "roll_unchecked with {face}");
        if self.script.is_some() {
            return self.roll_scripted(face);
        }
        self.apply_roll(face);
        self.advance();
    }

    #[inline]
    fn random_action(&self, dice: &mut SeededDice) -> Action {
        let a = self.random_plain(dice);
        if self.script.is_some() {
            return self.random_allowed(a, dice);
        }
        a
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.next() == Next::Over)
            .then(|| Outcome::from_scores(self.players.iter().map(|p| p.score).collect()))
    }
}

impl State {
    /// The legal moves of the rules' keys, before any house rule's filter.
    pub(crate) fn legal_plain(&self, out: &mut Vec<Action>) {
        out.clear();
        if !matches!(self.next(), Next::Decide(_)) {
            return;
        }
        if let Some(Task::LoseChoice { .. }) = self.tasks.last() {
            out.extend(self.lose.iter().map(|e| Action::Lose(e.end)));
            return;
        }
        let g = self.grid;
        match self.phase {
            Phase::SetupBead => out.extend(
                g.around(g.centre())
                    .filter(|p| self.cells[p.index()].bead == 0)
                    .map(Action::Place),
            ),
            Phase::ChooseGrowth => out.extend(
                Growth::ALL
                    .into_iter()
                    .filter(|&a| self.rules.die_for(a).is_some())
                    .map(Action::Grow),
            ),
            Phase::Place {
                action,
                struggles,
                only_attacks,
                ..
            } => {
                let set = self.legal_placements(action, struggles);
                out.reserve(set.len() + 1);
                set.for_each(|p| out.push(Action::Place(p)));
                if only_attacks {
                    out.push(Action::Pass);
                }
            }
            Phase::Spawn {
                first,
                a: Some(a),
                b: Some(b),
            } => {
                let free_only = self.spawn_free_only(first);
                out.extend(
                    self.spawn_points(a, b)
                        .filter(|&p| !free_only || self.cells[p.index()].bead == 0)
                        .map(Action::Spawn),
                );
            }
            _ => {}
        }
    }

    /// A random legal move of the rules' keys (the fast path), before any
    /// house rule's filter.
    #[inline(always)]
    fn random_plain(&self, dice: &mut SeededDice) -> Action {
        if let Some(Task::LoseChoice { .. }) = self.tasks.last() {
            let i = dice.below(self.lose.len() as u32) as usize;
            return Action::Lose(self.lose[i].end);
        }
        match self.phase {
            Phase::ChooseGrowth => {
                let n = self.growth_count;
                Action::Grow(self.growth_options[dice.below(u32::from(n)) as usize])
            }
            Phase::Place {
                action,
                struggles,
                only_attacks: false,
                ..
            } => {
                if let Some(p) = self.sample_placement(action, struggles, dice) {
                    return Action::Place(p);
                }
                match self.scan_placement(action, struggles, false, dice) {
                    Some(p) => Action::Place(p),
                    None => self.random_from_list(dice),
                }
            }
            Phase::Place {
                action,
                struggles,
                only_attacks: true,
                ..
            } => match self.scan_placement(action, struggles, true, dice) {
                Some(p) => Action::Place(p),
                None => Action::Pass,
            },
            Phase::Spawn {
                first,
                a: Some(a),
                b: Some(b),
            } => self.random_spawn(first, a, b, dice),
            Phase::SetupBead => {
                // As from the list: the free points around the centre, in order.
                let g = &self.grid;
                let free = |p: &Point| self.cells[p.index()].bead == 0;
                let count = g.around(g.centre()).filter(free).count();
                let k = dice.below(count as u32) as usize;
                let p = g.around(g.centre()).filter(free).nth(k);
                Action::Place(p.expect("a first bead always has a free point"))
            }
            _ => self.random_from_list(dice),
        }
    }
}

impl State {
    /// Whether `action` may be played now: what `State::check_action`
    /// decides, without building a refusal, and without a legal list (a
    /// search tests a few remembered actions against many positions).
    pub fn allows(&self, action: Action) -> bool {
        self.allows_plain(action) && (self.script.is_none() || self.scripts_allow(action))
    }

    /// [`State::allows`] by the rules' keys alone.
    #[inline]
    fn allows_plain(&self, action: Action) -> bool {
        let Next::Decide(seat) = self.next() else {
            return false;
        };
        if let Some(Task::LoseChoice { .. }) = self.tasks.last() {
            return matches!(action, Action::Lose(p) if self.lose.iter().any(|e| e.end == p));
        }
        let g = &self.grid;
        match (self.phase, action) {
            (Phase::SetupBead, Action::Place(p)) => {
                g.adjacent(p, g.centre()) && self.cells[p.index()].bead == 0
            }
            (Phase::ChooseGrowth, Action::Grow(a)) => self.rules.die_for(a).is_some(),
            (Phase::Place { only_attacks, .. }, Action::Pass) => only_attacks,
            (
                Phase::Place {
                    action, struggles, ..
                },
                Action::Place(p),
            ) => g.on_board(p) && self.judge(seat, action, struggles, p).is_ok(),
            (Phase::Spawn { .. }, Action::Spawn(p)) => self.is_spawn_choice(p),
            _ => false,
        }
    }
}

impl State {
    /// Where a random spawn lands: count the choices, then walk to a random
    /// one, without a list.
    #[inline(never)]
    fn random_spawn(&self, first: bool, a: Line, b: Line, dice: &mut SeededDice) -> Action {
        let p = if self.spawn_free_only(first) {
            let free = |p: &Point| self.cells[p.index()].bead == 0;
            let count = self.spawn_points(a, b).filter(free).count();
            let k = dice.below(count as u32) as usize;
            self.spawn_points(a, b).filter(free).nth(k)
        } else {
            let mut points = self.spawn_points(a, b);
            let k = dice.below(points.len() as u32) as usize;
            points.nth(k)
        };
        Action::Spawn(p.expect("a spawn decision has a choice"))
    }

    fn random_from_list(&self, dice: &mut SeededDice) -> Action {
        let mut list = Vec::new();
        self.legal_actions(&mut list);
        assert!(
            !list.is_empty(),
            "a decision node always has a legal action"
        );
        list[dice.below(list.len() as u32) as usize]
    }

    /// The position as the tests and the referee see it: a drawn board.
    pub fn draw(&self) -> String {
        crate::games::roots_and_shoots::draw::draw(self)
    }

    /// Whether the game is in its first turn.
    pub fn in_first_turn(&self) -> bool {
        self.round == 0
    }

    pub(crate) fn set_phase_for_position(&mut self, seat: Seat) {
        self.seat = seat;
        self.round = 1;
        self.phase = Phase::ChooseGrowth;
        self.node = Next::Decide(seat);
    }
}

impl State {
    /// Check every invariant of the position against a recount from scratch:
    /// one bead per point and bead lists that match the board, neighbour counts,
    /// beads conserved per player, nutrients conserved, scores that add up.
    /// Used by the property tests and the fuzzers; `Err` names the first
    /// broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let count = self.check_board()?;
        self.check_seats_and_counts(Some(&count))
    }

    /// The recount of the board: each point's markers, beads and their
    /// owners' lists, this roll's beads, the neighbour counts and the
    /// own-neighbour links; each seat's beads on the board, counted.
    fn check_board(&self) -> Result<Vec<u32>, String> {
        let g = &self.grid;
        let cells = self.cells.len();
        let mut adj = vec![[0u8; MAX_SEATS]; cells];
        let mut adj_all = vec![0u8; cells];
        let mut turn_adj = vec![0u8; cells];
        let mut count = vec![0u32; usize::from(self.seats)];
        let mut nuts = vec![0u8; cells];
        for n in &self.nutrients {
            nuts[n.point.index()] += 1;
            if let Some(v) = n.value
                && !(1..=12).contains(&v)
            {
                return Err(format!("nutrient at {} has value {v}", g.name(n.point)));
            }
        }
        for p in g.all() {
            let c = self.cells[p.index()];
            if c.nuts != nuts[p.index()] {
                return Err(format!(
                    "{}: {} markers drawn, {} listed",
                    g.name(p),
                    c.nuts,
                    nuts[p.index()]
                ));
            }
            if let Some(s) = self.bead(p) {
                if s >= self.seats {
                    return Err(format!("{}: bead of a seat that does not play", g.name(p)));
                }
                count[usize::from(s)] += 1;
                let i = usize::from(c.index);
                if self.players[usize::from(s)].beads.get(i) != Some(&p) {
                    return Err(format!("{}: bead missing from its owner's list", g.name(p)));
                }
                for q in g.around(p) {
                    adj[q.index()][usize::from(s)] += 1;
                    adj_all[q.index()] += 1;
                }
            }
        }
        for (k, &p) in self.placed.iter().enumerate() {
            if self.bead(p) != Some(self.seat) || self.placed[..k].contains(&p) {
                return Err(format!(
                    "{}: listed as a bead of this roll, but not a bead of seat {} (or listed twice)",
                    g.name(p),
                    self.seat + 1
                ));
            }
            if self.count_turn {
                for q in g.around(p) {
                    turn_adj[q.index()] += 1;
                }
            }
        }
        for (i, c) in self.cells.iter().enumerate() {
            if c.adj != adj[i] || c.adj_all != adj_all[i] || c.turn_adj != turn_adj[i] {
                return Err(format!(
                    "neighbour counts of cell {i} differ from a recount"
                ));
            }
        }
        for (i, c) in self.cells.iter().enumerate() {
            let p = Point(i as u16);
            let want = match self.bead(p) {
                Some(s) if g.on_board(p) => self.own_mask(s, p),
                _ => 0,
            };
            if c.links != want {
                return Err(format!(
                    "own-neighbour links of cell {i} differ from the neighbours"
                ));
            }
        }
        Ok(count)
    }

    /// What needs no look at the board: each seat's beads conserved, the
    /// nutrients conserved, scores that add up, the round within the
    /// limit. After a house rule's change of a score, release builds
    /// check only this (`script.rs`, `State::check_after_ops`).
    pub(crate) fn check_counts(&self) -> Result<(), String> {
        self.check_seats_and_counts(None)
    }

    /// [`State::check_counts`], with each seat's list of beads held to
    /// `count`, the beads of the board's recount, when given.
    fn check_seats_and_counts(&self, count: Option<&[u32]>) -> Result<(), String> {
        for (s, pl) in self.players.iter().enumerate() {
            if let Some(count) = count
                && pl.on_board() != count[s]
            {
                return Err(format!(
                    "seat {}: {} beads listed, {} on the board",
                    s + 1,
                    pl.on_board(),
                    count[s]
                ));
            }
            // Widened: a wrapped count must not add up by accident.
            let total = u64::from(pl.store)
                + u64::from(pl.supply)
                + u64::from(pl.on_board())
                + u64::from(pl.removed);
            let expected = u64::from(self.baseline.beads[s]);
            if total != expected {
                return Err(format!(
                    "seat {}: store {} + supply {} + board {} + removed {} = {total}, not {expected}",
                    s + 1,
                    pl.store,
                    pl.supply,
                    pl.on_board(),
                    pl.removed
                ));
            }
        }
        let placed = u64::from(self.nutrient_supply)
            + self.nutrients.len() as u64
            + u64::from(self.stats.nutrients_scored);
        if placed != u64::from(self.baseline.nutrients) {
            return Err(format!(
                "nutrients: pile {} + board {} + scored {} != {}",
                self.nutrient_supply,
                self.nutrients.len(),
                self.stats.nutrients_scored,
                self.baseline.nutrients
            ));
        }
        let scores: i64 = self.players.iter().map(|p| i64::from(p.score)).sum();
        if scores + i64::from(self.stats.points_lost)
            != i64::from(self.stats.value_scored) + self.baseline.score
        {
            return Err(format!(
                "scores {scores} + lost {} != values scored {}",
                self.stats.points_lost, self.stats.value_scored
            ));
        }
        if self.round > self.rules.end.max_rounds {
            return Err(format!("round {} is past the limit", self.round));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts' check (all a release build runs after a house rule's
    /// change of a score) finds a score that does not add up; the board's
    /// recount is the full check's alone.
    #[test]
    fn the_counts_check_finds_a_score_that_does_not_add_up_and_the_full_check_the_board() {
        let mut state = State::empty(Arc::new(Rules::standard()), 2);
        state.check_invariants().expect("a new game holds");
        state.check_counts().expect("a new game's counts hold");
        state.players[0].score += 3;
        let broken = state.check_counts().expect_err("a score changed alone");
        assert!(broken.starts_with("scores "), "{broken}");
        assert_eq!(state.check_invariants(), Err(broken));
        // Paid with the rules' part, as `add_score` does: it adds up.
        state.baseline.score += 3;
        state.check_counts().expect("a scripted score adds up");
        let p = state.grid.all().next().expect("a point");
        state.cells[p.index()].adj_all += 1;
        state
            .check_counts()
            .expect("the board is not the counts' check");
        let broken = state.check_invariants().expect_err("a neighbour count off");
        assert!(broken.contains("neighbour counts"), "{broken}");
    }

    /// The spawn points built from the lines are exactly the points a board
    /// scan would accept, each once.
    #[test]
    fn spawn_points_match_a_board_scan() {
        let state = State::empty(Arc::new(Rules::standard()), 2);
        let g = state.grid;
        let lines = [Line::At(0), Line::At(7), Line::At(18), Line::Any];
        for a in lines {
            for b in lines {
                let mut built: Vec<Point> = state.spawn_points(a, b).collect();
                // Skipping and counting agree with walking.
                assert_eq!(state.spawn_points(a, b).len(), built.len());
                for (k, &p) in built.iter().enumerate() {
                    assert_eq!(state.spawn_points(a, b).nth(k), Some(p), "{a:?} {b:?} {k}");
                    let mut rest = state.spawn_points(a, b);
                    rest.nth(k);
                    assert_eq!(rest.len(), built.len() - k - 1);
                }
                assert_eq!(state.spawn_points(a, b).nth(built.len()), None);
                let mut scanned: Vec<Point> = g
                    .all()
                    .filter(|&p| {
                        let (x, y) = g.xy(p);
                        (a.holds(x) && b.holds(y)) || (b.holds(x) && a.holds(y))
                    })
                    .collect();
                let n = built.len();
                built.sort();
                built.dedup();
                assert_eq!(built.len(), n, "{a:?} {b:?}: a point twice");
                scanned.sort();
                assert_eq!(built, scanned, "{a:?} {b:?}");
            }
        }
    }
}
