//! House rules as scripts in Branches & Twigs & Thorns: the hook points,
//! the `ctx` a script sees, and the operations it may ask for, each
//! applied through the engine's own checked moves (`docs/scripts.md`).
//! The steps every such game shares are in [`crate::script::session`].

use std::cell::Cell;
use std::sync::Arc;

use rhai::ImmutableString;

use super::action::Action;
use super::board::{Dir, MAX_CELLS, NONE};
use super::rules::OwnerPaidBy;
use super::state::{EMPTY, End, Fixed, MAX_SEATS, NULL, ROOT, State, as_pyramid};
use crate::core::protocol::Seat;
use crate::script::fast::Reg;
use crate::script::session::{self, Ctx as Common, Host, HouseRules, Op, Res, Session, refuse};
use crate::script::{Api, Hook};

/// The hook points of Branches & Twigs & Thorns (numbered as
/// [`session::LEGAL`], [`session::AFTER_ACTION`], [`session::FINAL`]).
pub const HOOKS: &[Hook] = &session::hooks(
    "before a seat decides, once per legal move (ctx.kind: null, root or place; ctx.x, ctx.y, ctx.size, ctx.dir, ctx.target_owner, ctx.target_size); evaluates to false to forbid the move; no operations",
    "after a marker or pyramid was placed (the same fields; the turn has passed on); any operation: add_score, add_stash, add_root, remove_pyramid, end_turn (the seat to move is passed), end_game",
);

/// What Branches & Twigs & Thorns offers scripts.
pub static API: Api = Api {
    hooks: HOOKS,
    register,
};

/// The operations of this game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BttOp {
    /// Give (or take) pyramids of one size to a seat's stash.
    AddStash(Seat, u8, i64),
    /// Put a root on an empty cell.
    AddRoot(u8),
    /// Take a pyramid off the board, back into its owner's stash.
    RemovePyramid(u8),
}

/// The position a script reads: the cells, the stashes, the board's shape.
#[derive(Clone, Debug)]
pub struct View {
    fixed: Option<Arc<Fixed>>,
    cells: [u8; MAX_CELLS],
    stash: [[u8; 3]; MAX_SEATS],
    size: i64,
    dir: &'static str,
    target_owner: i64,
    target_size: i64,
}

impl Default for View {
    fn default() -> View {
        View {
            fixed: None,
            cells: [EMPTY; MAX_CELLS],
            stash: [[0; 3]; MAX_SEATS],
            size: 0,
            dir: "",
            target_owner: 0,
            target_size: 0,
        }
    }
}

/// The `ctx` of a Branches script.
pub type Ctx = Common<View, BttOp>;

impl View {
    /// The cell at column `x`, row `y` (both from 0, a1 is 0,0).
    fn cell(&self, x: i64, y: i64) -> Res<Option<u8>> {
        let Some(f) = &self.fixed else {
            return refuse("the board is not known here (a bug of the engine)".into());
        };
        if !(0..=255).contains(&x) || !(0..=255).contains(&y) {
            return Ok(None);
        }
        Ok(f.board.cell_at(x as u8, y as u8))
    }

    fn content(&self, x: i64, y: i64) -> Res<u8> {
        match self.cell(x, y)? {
            Some(c) => Ok(self.cells[usize::from(c)]),
            None => refuse(format!("{x},{y} is not a cell of the board")),
        }
    }
}

fn register(r: &mut Reg) {
    session::register_common::<View, BttOp>(r);
    r.get("size", |c: &mut Ctx| c.view.size);
    r.get_str("dir", |c: &mut Ctx| c.view.dir);
    r.get("target_owner", |c: &mut Ctx| c.view.target_owner);
    r.get("target_size", |c: &mut Ctx| c.view.target_size);
    r.read2("on_board", |c: &mut Ctx, x: i64, y: i64| -> Res<bool> {
        Ok(c.view.cell(x, y)?.is_some())
    });
    r.read2(
        "piece",
        |c: &mut Ctx, x: i64, y: i64| -> Res<ImmutableString> {
            let v = c.view.content(x, y)?;
            Ok(match v {
                EMPTY => "empty",
                NULL => "null",
                ROOT => "root",
                _ => "pyramid",
            }
            .into())
        },
    );
    r.read2("owner", |c: &mut Ctx, x: i64, y: i64| -> Res<i64> {
        let v = c.view.content(x, y)?;
        Ok(as_pyramid(v).map_or(0, |(s, _, _)| i64::from(s) + 1))
    });
    r.read2("size_at", |c: &mut Ctx, x: i64, y: i64| -> Res<i64> {
        let v = c.view.content(x, y)?;
        Ok(as_pyramid(v).map_or(0, |(_, size, _)| i64::from(size)))
    });
    r.read2("stash", |c: &mut Ctx, s: i64, size: i64| -> Res<i64> {
        let s = c.seat_index(s)?;
        if !(1..=3).contains(&size) {
            return refuse(format!("sizes are 1 to 3, not {size}"));
        }
        Ok(i64::from(c.view.stash[usize::from(s)][(size - 1) as usize]))
    });
    r.op3(
        "add_stash",
        |c: &mut Ctx, s: i64, size: i64, n: i64| -> Res<()> {
            let s = c.seat_index(s)?;
            if !(1..=3).contains(&size) {
                return refuse(format!("sizes are 1 to 3, not {size}"));
            }
            let n = session::amount(n)?;
            c.push(Op::Game(BttOp::AddStash(s, size as u8, n)))
        },
    );
    r.op2("add_root", |c: &mut Ctx, x: i64, y: i64| -> Res<()> {
        match c.view.cell(x, y)? {
            Some(cell) => c.push(Op::Game(BttOp::AddRoot(cell))),
            None => refuse(format!("{x},{y} is not a cell of the board")),
        }
    });
    r.op2("remove_pyramid", |c: &mut Ctx, x: i64, y: i64| -> Res<()> {
        match c.view.cell(x, y)? {
            Some(cell) => c.push(Op::Game(BttOp::RemovePyramid(cell))),
            None => refuse(format!("{x},{y} is not a cell of the board")),
        }
    });
}

/// What happened, for a hook's `ctx` and for a failure's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` made `action`.
    Action { seat: Seat, action: Action },
    /// The game is over.
    Over,
}

/// The groups of words of a script that read the parts of `ctx` made
/// only when read ([`crate::script::Program::read_groups`]): the cells
/// (and the board's shape), the stashes, the scores.
const READS: &[&[&str]] = &[
    &[
        "on_board",
        "piece",
        "owner",
        "size_at",
        "add_root",
        "remove_pyramid",
    ],
    &["stash"],
    &["score"],
    &["size", "dir", "target_owner", "target_size"],
    &["x", "y"],
];
const CELLS: usize = 0;
const STASH: usize = 1;
const SCORES: usize = 2;
/// What a placement points at: the size placed, its direction, the
/// pyramid it targets (worked out only for a hook with a script that
/// names one of them).
const TARGET: usize = 3;
/// The cell of the move as column and row.
const XY: usize = 4;

thread_local! {
    /// The `ctx` of the last filter run on this thread, kept for the next
    /// decision ([`Host::with_filter_spare`]).
    static FILTER_CTX: Cell<Option<Box<Ctx>>> = const { Cell::new(None) };
}

/// Session slots of this game's counts: pyramids of each size added to a
/// stash (0..3), roots added (3).
const ROOTS_ADDED: usize = 3;

impl State {
    /// This state with the variant's house rules attached (none without
    /// scripts); `Err` when a script does not compile (rules that did not
    /// come through the variant pipeline).
    pub fn with_scripts(mut self) -> Result<State, String> {
        let rules = self.rules();
        let program = rules
            .script
            .program(&API)
            .map_err(|e| format!("variant `{}`: {e}", rules.name))?;
        self.script = program.map(|p| {
            p.read_groups(READS);
            Box::new(Session::new(p))
        });
        Ok(self)
    }

    /// What the house rules added to seat `s`'s stash of size `k` (0-based)
    /// and to the roots on the board.
    pub(super) fn scripted_counts(&self, s: usize, k: usize) -> (i64, i64) {
        self.script
            .as_deref()
            .map_or((0, 0), |sc| (sc.tallies[s][k], sc.tallies[0][ROOTS_ADDED]))
    }

    /// What the house rules added to seat `s`'s score.
    pub(super) fn scripted_bonus(&self, s: usize) -> i64 {
        self.script.as_deref().map_or(0, |sc| sc.bonus[s])
    }

    /// `play_unchecked` of a game with scripts.
    pub(super) fn play_scripted(&mut self, action: Action) {
        if let Some(event) = session::step(self, action, State::play_plain) {
            session::after_move(self, event);
        }
    }

    fn when(&self) -> String {
        if self.in_play() {
            format!("at ply {}", self.tally.plies + 1)
        } else {
            format!("in the setup, ply {}", self.setup_done + 1)
        }
    }
}

impl HouseRules for State {
    fn session(&self) -> Option<&Session> {
        self.script.as_deref()
    }
}

impl Host for State {
    type View = View;
    type Op = BttOp;
    type Event = Event;
    const OVER: Event = Event::Over;

    fn session_mut(&mut self) -> Option<&mut Session> {
        self.script.as_deref_mut()
    }

    fn with_filter_spare<R>(f: impl FnOnce(&mut Ctx) -> R) -> R {
        // Taken from the thread (none there: a run within a run, or the
        // first), given back after.
        let mut c = FILTER_CTX
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default();
        let out = f(&mut c);
        let _ = FILTER_CTX.try_with(|k| k.set(Some(c)));
        out
    }

    fn moment(&self, hook: usize, c: &mut Ctx) {
        let sc = self.script.as_deref();
        let reads = |group: usize| sc.is_none_or(|s| s.reads(hook, group));
        let n = usize::from(self.players);
        if reads(SCORES) {
            c.scores = [0; 8];
            for (o, s) in c.scores.iter_mut().zip(&self.scores[..n]) {
                *o = i64::from(*s);
            }
        }
        if reads(CELLS) {
            c.view.fixed = Some(Arc::clone(&self.fixed));
            c.view.cells = self.cell;
        }
        if reads(STASH) {
            c.view.stash = self.stash;
        }
        c.seats = i64::from(self.players);
        c.turn = if self.end.is_some() {
            0
        } else {
            i64::from(self.to_move) + 1
        };
        c.round = i64::from(self.tally.plies);
        c.over = self.end.is_some();
    }

    fn describe(&self, c: &mut Ctx, event: &Event, hook: usize) {
        let sc = self.script.as_deref();
        let reads = |group: usize| sc.is_none_or(|s| s.reads(hook, group));
        let target = reads(TARGET);
        let xy = reads(XY);
        let board = &self.fixed.board;
        if target {
            (c.view.size, c.view.dir) = (0, "");
            (c.view.target_owner, c.view.target_size) = (0, 0);
        }
        match *event {
            Event::Action { seat, action } => {
                c.seat = i64::from(seat) + 1;
                let (kind, cell) = match action {
                    Action::Null(cell) => ("null", cell),
                    Action::Root(cell) => ("root", cell),
                    Action::Place { cell, .. } if !target => ("place", cell),
                    Action::Place { cell, size, dir } => {
                        c.view.size = i64::from(size);
                        c.view.dir = ["N", "E", "S", "W"][dir as usize];
                        let t = board.neighbour(cell, dir);
                        if t != NONE
                            && let Some((owner, tsize, _)) = as_pyramid(self.cell[usize::from(t)])
                        {
                            c.view.target_owner = i64::from(owner) + 1;
                            c.view.target_size = i64::from(tsize);
                        }
                        ("place", cell)
                    }
                };
                c.kind = kind;
                if xy && usize::from(cell) < board.cells() {
                    let (x, y) = board.place(cell);
                    (c.x, c.y) = (i64::from(x), i64::from(y));
                }
            }
            Event::Over => c.kind = "over",
        }
    }

    fn apply(&mut self, op: &Op<BttOp>) -> Result<String, String> {
        match *op {
            Op::AddScore(s, n) => {
                let seat = usize::from(s);
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                let bonus = sc.bonus[seat] + n;
                let new = i64::from(self.scores[seat]) + n;
                if bonus.abs() > session::MAX_BONUS || new.abs() > session::MAX_BONUS {
                    return Err(format!("seat {}'s score would pass a million", s + 1));
                }
                let old = self.scores[seat];
                self.scores[seat] = new as i32;
                if self.rules().coins.reset > 0 && self.coins().iter().any(|&c| c < 0) {
                    // The coin resets pay only penalties: a rule may not
                    // take coins a player does not hold.
                    self.scores[seat] = old;
                    return Err(format!("seat {} holds too few coins to pay {}", s + 1, -n));
                }
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                sc.bonus[seat] = bonus;
                // "seat 1 gains 2 coins", built without `format!` (a rule
                // that pays at every move words it every move).
                let mut note = String::with_capacity(24);
                note.push_str("seat ");
                session::push_num(&mut note, u64::from(s) + 1);
                note.push_str(if n < 0 { " pays " } else { " gains " });
                session::push_num(&mut note, n.unsigned_abs());
                note.push_str(if n.unsigned_abs() == 1 {
                    " coin"
                } else {
                    " coins"
                });
                Ok(note)
            }
            Op::EndTurn => {
                if self.end.is_some() || !self.in_play() {
                    return Err(
                        "a turn can be passed only in play (not in the setup, not at the end)"
                            .into(),
                    );
                }
                let passed = self.to_move;
                self.tally.passes += 1;
                self.settle_from((passed + 1) % self.players);
                Ok(format!("seat {} is passed", passed + 1))
            }
            Op::EndGame => {
                self.end = Some(End::Script);
                Ok("the game ends".into())
            }
            Op::Game(BttOp::AddStash(s, size, n)) => {
                let seat = usize::from(s);
                let k = usize::from(size - 1);
                let new = i64::from(self.stash[seat][k]) + n;
                if !(0..=60).contains(&new) {
                    return Err(format!(
                        "seat {}'s stash of size {size} would hold {new} (0 to 60)",
                        s + 1
                    ));
                }
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                sc.tallies[seat][k] += n;
                self.stash[seat][k] = new as u8;
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                Ok(format!(
                    "seat {} {} {} of size {size}",
                    s + 1,
                    if n < 0 { "loses" } else { "gains" },
                    crate::core::count(n.unsigned_abs(), "pyramid", "pyramids")
                ))
            }
            Op::Game(BttOp::AddRoot(cell)) => {
                if self.cell[usize::from(cell)] != EMPTY {
                    return Err(format!("{} is not empty", self.fixed.board.name(cell)));
                }
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                sc.tallies[0][ROOTS_ADDED] += 1;
                self.place_raw(cell, ROOT);
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                Ok(format!("a root is put on {}", self.fixed.board.name(cell)))
            }
            Op::Game(BttOp::RemovePyramid(cell)) => {
                let board = &self.fixed.board;
                let Some((owner, size, dir)) = as_pyramid(self.cell[usize::from(cell)]) else {
                    return Err(format!("there is no pyramid on {}", board.name(cell)));
                };
                let pointed_at = board.incoming(cell).iter().any(|&(y, d)| {
                    y != NONE
                        && as_pyramid(self.cell[usize::from(y)]).is_some_and(|(_, _, yd)| yd == d)
                });
                if pointed_at {
                    return Err(format!(
                        "a pyramid points at the one on {}",
                        board.name(cell)
                    ));
                }
                let (o, k) = (usize::from(owner), usize::from(size - 1));
                if self.stash[o][k] >= 60 {
                    return Err(format!("seat {}'s stash of size {size} is full", owner + 1));
                }
                // What it paid and earned stays paid: the house rules' part
                // of the scores takes over the board's part of it.
                let t = board.neighbour(cell, Dir::from_index(dir));
                let target = self.cell[usize::from(t)];
                let name = board.name(cell);
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                if let Some((t_owner, tsize, _)) = as_pyramid(target)
                    && t_owner != owner
                {
                    let (pays, gain) = match self.fixed.rules.scoring.owner_paid_by {
                        OwnerPaidBy::Pot => (tsize, size),
                        OwnerPaidBy::Mover => (tsize + size, size),
                        OwnerPaidBy::Nobody => (tsize, 0),
                    };
                    sc.bonus[o] -= i64::from(pays);
                    sc.bonus[usize::from(t_owner)] += i64::from(gain);
                }
                self.stash[o][k] += 1;
                self.lift_pyramid(cell);
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                Ok(format!(
                    "the pyramid on {name} goes back to seat {}'s stash",
                    owner + 1
                ))
            }
        }
    }

    fn invariants(&self) -> Result<(), String> {
        self.check_invariants()
    }

    /// After a score's change, in release builds, only what it can break:
    /// [`Host::apply`] changes the score and the house rules' part of it
    /// together (so the recount of the board's part still matches), and
    /// refuses one that leaves a player fewer than no coins under the
    /// resets, the one invariant a score can break, checked again here. The
    /// full check (a recount of the board, about 40% of the cost of a rule
    /// that pays at every move) runs after every other operation, and
    /// after every one in debug builds and tests.
    fn invariants_after(&self, op: &Op<BttOp>) -> Result<(), String> {
        if cfg!(debug_assertions) || !matches!(op, Op::AddScore(..)) {
            return self.check_invariants();
        }
        if self.rules().coins.reset > 0 && self.coins().iter().any(|&c| c < 0) {
            return Err("a player holds fewer than no coins despite the resets".into());
        }
        Ok(())
    }

    fn event_words(&self, event: &Event) -> String {
        match *event {
            Event::Action { seat, action } => format!(
                "seat {}'s move `{}` {}",
                seat + 1,
                super::format_action(self, action),
                self.when()
            ),
            Event::Over => "the end of the game".into(),
        }
    }

    fn stop(&mut self) {
        self.end = Some(End::ScriptError);
    }

    fn decision(&self, action: Action) -> Event {
        Event::Action {
            seat: self.to_move,
            action,
        }
    }

    fn unfiltered(&self, out: &mut Vec<Action>) {
        self.legal_plain(out);
    }
}
