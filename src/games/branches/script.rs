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
use crate::core::dice::SeededDice;
use crate::core::protocol::{Refusal, Seat};
use crate::script::fast::Reg;
use crate::script::session::{
    self, AFTER_ACTION, Ctx as Common, FINAL, HOOK_NAMES, Host, HouseRules, LEGAL,
    MAX_RUNS_PER_STEP, Op, Res, Session, Stage, filter_names, refuse,
};
use crate::script::{Api, Hook, Hooked};

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
    /// decision ([`State::with_filter`]).
    static FILTER_CTX: Cell<Option<Box<Ctx>>> = const { Cell::new(None) };
}

/// Session slots of this game's counts: pyramids of each size added to a
/// stash (0..3), roots added (3).
const ROOTS_ADDED: usize = 3;

/// Most strings of notes a game keeps for reuse ([`Scripted::pool`]).
const POOL: usize = 16;

/// The house rules of one game of Branches & Twigs & Thorns: the session
/// every game keeps ([`Session`]), and what this game keeps at hand to run
/// them with no look-up a step: each hook's scripts with their closures
/// typed for this game's [`Ctx`] ([`Hooked`]), which groups of `ctx`'s
/// words each hook reads, which hooks lend the memory, and a `ctx` kept
/// from run to run.
pub struct Scripted {
    pub session: Session,
    /// Each hook's scripts with their closures for [`Ctx`]
    /// ([`crate::script::Program::hooked`]).
    hooked: Arc<Hooked<Ctx>>,
    /// For each hook, the groups of [`READS`] its scripts name.
    reads: [u32; 3],
    /// A bit a hook: whether its scripts may use the memory.
    lends: u8,
    /// The `ctx` of the last run of `after_action` or `final`, written
    /// afresh for the next: a run neither makes nor drops one.
    spare: Option<Box<Ctx>>,
    /// The strings of the last step's notes, cleared and reused for the
    /// next notes (a rule that fires at every move allocates none).
    pool: Vec<String>,
}

impl Scripted {
    fn new(program: Arc<crate::script::Program>) -> Scripted {
        Scripted {
            hooked: program.hooked(),
            reads: std::array::from_fn(|h| {
                (0..READS.len()).fold(0, |m, g| m | u32::from(program.reads(h, g)) << g)
            }),
            lends: (0..HOOKS.len()).fold(0, |m, h| m | u8::from(program.lends(h)) << h),
            spare: None,
            pool: Vec::new(),
            session: Session::new(program),
        }
    }

    /// A fresh game's house rules: the same scripts and table.
    fn fresh(&self) -> Scripted {
        self.with_session(self.session.fresh())
    }

    /// The same scripts and table with `session`; no kept `ctx` nor
    /// notes' strings.
    fn with_session(&self, session: Session) -> Scripted {
        Scripted {
            session,
            hooked: Arc::clone(&self.hooked),
            reads: self.reads,
            lends: self.lends,
            spare: None,
            pool: Vec::new(),
        }
    }

    /// Whether some script of `hook` names a word of group `group`.
    #[inline(always)]
    fn reads(&self, hook: usize, group: usize) -> bool {
        self.reads[hook] >> group & 1 != 0
    }
}

impl Clone for Scripted {
    /// The session copied; no kept `ctx` nor notes' strings.
    fn clone(&self) -> Scripted {
        self.with_session(self.session.clone())
    }
}

impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.session.fmt(f)
    }
}

impl PartialEq for Scripted {
    fn eq(&self, other: &Scripted) -> bool {
        self.session == other.session
    }
}

impl Eq for Scripted {}

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
            Box::new(Scripted::new(p))
        });
        Ok(self)
    }

    /// A fresh game's house rules ([`State::fresh`]).
    pub(super) fn fresh_scripts(&self) -> Option<Box<Scripted>> {
        self.script.as_deref().map(|sc| Box::new(sc.fresh()))
    }

    /// What the house rules added to seat `s`'s stash of size `k` (0-based)
    /// and to the roots on the board.
    pub(super) fn scripted_counts(&self, s: usize, k: usize) -> (i64, i64) {
        self.script.as_deref().map_or((0, 0), |sc| {
            let t = &sc.session.tallies;
            (t[s][k], t[0][ROOTS_ADDED])
        })
    }

    /// What the house rules added to seat `s`'s score.
    pub(super) fn scripted_bonus(&self, s: usize) -> i64 {
        self.script.as_deref().map_or(0, |sc| sc.session.bonus[s])
    }

    /// `play_unchecked` of a game with scripts: a failure a filter left
    /// ends the game instead; else the move, then hook `after_action`, and
    /// hook `final` once the game is over.
    #[inline(never)]
    pub(super) fn play_scripted(&mut self, action: Action) {
        let Some(sc) = self.script.as_deref_mut() else {
            return self.play_plain(action);
        };
        if !sc.session.notes.is_empty() {
            // The last step's notes go; their strings are kept for reuse.
            let room = POOL.saturating_sub(sc.pool.len());
            let notes = &mut sc.session.notes;
            sc.pool.extend(notes.drain(..).take(room));
        }
        // A failure a filter left ends the game instead of the move.
        if sc.session.pending.get().is_some() && session::before_move(self) {
            return;
        }
        let event = Event::Action {
            seat: self.to_move,
            action,
        };
        self.play_plain(action);
        self.after_move(event);
    }

    /// After a move (`event`): hook `after_action`, then hook `final` once
    /// the game is over.
    fn after_move(&mut self, event: Event) {
        let Some(sc) = self.script.as_deref() else {
            return;
        };
        let mut runs = 0usize;
        if !sc.hooked.at(AFTER_ACTION).is_empty() && !self.run_hook(AFTER_ACTION, &event, &mut runs)
        {
            return;
        }
        if self.end.is_none() {
            return;
        }
        let Some(sc) = self.script.as_deref_mut() else {
            return;
        };
        if sc.session.final_done {
            return;
        }
        sc.session.final_done = true;
        if !sc.hooked.at(FINAL).is_empty() {
            self.run_hook(FINAL, &Event::Over, &mut runs);
        }
    }

    /// Run every script of `hook` (of the game's table, taken by index:
    /// no count of the table's references a move) on `event`, applying
    /// what each asks for and checking the game's invariants after each;
    /// `false` when one failed (the game is then over). The kept `ctx` is
    /// written when a script first needs it and again after each script
    /// that changed the game.
    fn run_hook(&mut self, hook: usize, event: &Event, runs: &mut usize) -> bool {
        let Some(sc) = self.script.as_deref_mut() else {
            return false;
        };
        let mut c = sc.spare.take().unwrap_or_default();
        let lend = sc.lends >> hook & 1 != 0;
        let n = sc.hooked.at(hook).len();
        let mut written = false;
        for k in 0..n {
            *runs += 1;
            if *runs > MAX_RUNS_PER_STEP {
                let i = self
                    .script
                    .as_deref()
                    .map_or(0, |sc| sc.hooked.at(hook)[k].i);
                return self.refuse_run(
                    i,
                    format!("the house rules ran more than {MAX_RUNS_PER_STEP} times in one step"),
                    event,
                );
            }
            if !written {
                self.fill(&mut c, hook, event);
                written = true;
            }
            let Some(sc) = self.script.as_deref_mut() else {
                return false;
            };
            // The table and the session are fields of their own: the step
            // is read while the session runs it.
            let step = &sc.hooked.at(hook)[k];
            let i = step.i;
            let s = &mut sc.session;
            let ran = if lend {
                c.memory = std::mem::take(&mut s.memory);
                let ran = s.program.effect(step, &mut *c);
                s.memory = std::mem::take(&mut c.memory);
                ran
            } else {
                s.program.effect(step, &mut *c)
            };
            if let Err(f) = ran {
                session::fail(self, &f, event);
                return false;
            }
            if c.ops.is_empty() {
                continue;
            }
            s.fired[i] += 1;
            // The game changes: the next script sees a new `ctx`.
            written = false;
            if !self.apply_ops(i, &c.ops, event) {
                return false;
            }
        }
        if let Some(sc) = self.script.as_deref_mut() {
            sc.spare = Some(c);
        }
        true
    }

    /// Apply what script `i` asked for (`ops`) at `event`, each through
    /// the game's checked moves and followed by the invariants it may
    /// break, with a note for each; `false` when one was refused or broke
    /// a rule (the game is then over).
    fn apply_ops(&mut self, i: usize, ops: &[Op<BttOp>], event: &Event) -> bool {
        for (k, op) in ops.iter().enumerate() {
            if self.end.is_some() && !matches!(op, Op::AddScore(..)) {
                return self.refuse_run(
                    i,
                    format!(
                        "operation {} refused: the game is over: only add_score may change it now",
                        k + 1
                    ),
                    event,
                );
            }
            // "house rule `NAME`: NOTE", in a string of the pool.
            let Some(sc) = self.script.as_deref_mut() else {
                return false;
            };
            let mut line = sc.pool.pop().unwrap_or_default();
            line.clear();
            line.push_str("house rule `");
            line.push_str(sc.session.program.name(i));
            line.push_str("`: ");
            if let Err(why) = self.apply_into(op, &mut line) {
                return self.refuse_run(i, format!("operation {} refused: {why}", k + 1), event);
            }
            if let Some(sc) = self.script.as_deref_mut() {
                sc.session.notes.push(line);
            }
            if let Err(broken) = self.invariants_after(op) {
                return self.refuse_run(
                    i,
                    format!("what it did broke a rule of the game ({broken})"),
                    event,
                );
            }
        }
        true
    }

    /// End the game with script `i` refused for `why` at `event`; `false`.
    #[cold]
    #[inline(never)]
    fn refuse_run(&mut self, i: usize, why: String, event: &Event) -> bool {
        if let Some(sc) = self.script.as_deref() {
            let f = sc.session.program.refused(i, why);
            session::fail(self, &f, event);
        }
        false
    }

    /// Write the `ctx` of `event` at `hook` into `c` (a kept one): the
    /// position and the moment as the hook's scripts read them, no memory,
    /// no operations asked for.
    fn fill(&self, c: &mut Ctx, hook: usize, event: &Event) {
        let Some(sc) = self.script.as_deref() else {
            return;
        };
        c.memory.clear();
        c.ops.clear();
        self.write_moment(sc, hook, c);
        c.hook = HOOK_NAMES[hook];
        c.stage = match hook {
            LEGAL => Stage::Filter,
            FINAL => Stage::Final,
            _ => Stage::Change,
        };
        match *event {
            Event::Action { seat, action } => {
                c.seat = i64::from(seat) + 1;
                self.write_move(sc, hook, c, action);
            }
            Event::Over => {
                c.seat = 0;
                c.kind = "over";
                if sc.reads(hook, XY) {
                    (c.x, c.y) = (-1, -1);
                }
                if sc.reads(hook, TARGET) {
                    (c.view.size, c.view.dir) = (0, "");
                    (c.view.target_owner, c.view.target_size) = (0, 0);
                }
            }
        }
    }

    /// Write the position into `c` as the scripts of `hook` see it: the
    /// seats, the turn, and the scores, cells and stashes when read.
    #[inline]
    fn write_moment(&self, sc: &Scripted, hook: usize, c: &mut Ctx) {
        // One test for a hook that reads none of the copies (the common
        // case: a script of the moment's numbers).
        if sc.reads[hook] & (1 << SCORES | 1 << CELLS | 1 << STASH) != 0 {
            self.write_copies(sc, hook, c);
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

    /// The parts of the position [`State::write_moment`] copies only for
    /// a hook that reads them: the scores, the cells, the stashes.
    fn write_copies(&self, sc: &Scripted, hook: usize, c: &mut Ctx) {
        if sc.reads(hook, SCORES) {
            let n = usize::from(self.players);
            c.scores = [0; 8];
            for (o, s) in c.scores.iter_mut().zip(&self.scores[..n]) {
                *o = i64::from(*s);
            }
        }
        if sc.reads(hook, CELLS) {
            c.view.fixed = Some(Arc::clone(&self.fixed));
            c.view.cells = self.cell;
        }
        if sc.reads(hook, STASH) {
            c.view.stash = self.stash;
        }
    }

    /// Write the move `action` into `c` (its seat already written), as
    /// the scripts of `hook` read it: what it is (`ctx.kind`), what a
    /// placement points at, its cell as column and row.
    #[inline(always)]
    fn write_move(&self, sc: &Scripted, hook: usize, c: &mut Ctx, action: Action) {
        let (kind, cell) = match action {
            Action::Null(cell) => ("null", cell),
            Action::Root(cell) => ("root", cell),
            Action::Place { cell, .. } => ("place", cell),
        };
        c.kind = kind;
        if sc.reads[hook] & (1 << TARGET | 1 << XY) == 0 {
            return;
        }
        if sc.reads(hook, TARGET) {
            self.write_target(c, action);
        }
        if sc.reads(hook, XY) {
            let board = &self.fixed.board;
            (c.x, c.y) = if usize::from(cell) < board.cells() {
                let (x, y) = board.place(cell);
                (i64::from(x), i64::from(y))
            } else {
                (-1, -1)
            };
        }
    }

    /// What a placement points at (`ctx.size`, `ctx.dir`,
    /// `ctx.target_owner`, `ctx.target_size`), none for another move.
    fn write_target(&self, c: &mut Ctx, action: Action) {
        (c.view.size, c.view.dir) = (0, "");
        (c.view.target_owner, c.view.target_size) = (0, 0);
        if let Action::Place { cell, size, dir } = action {
            c.view.size = i64::from(size);
            c.view.dir = ["N", "E", "S", "W"][dir as usize];
            let t = self.fixed.board.neighbour(cell, dir);
            if t != NONE
                && let Some((owner, tsize, _)) = as_pyramid(self.cell[usize::from(t)])
            {
                c.view.target_owner = i64::from(owner) + 1;
                c.view.target_size = i64::from(tsize);
            }
        }
    }

    /// `f` on the `ctx` the filter (hook `legal`) of this decision reads,
    /// with the house rules: the position and the seat to move written
    /// once for all its moves (a `ctx` kept on the thread from the last
    /// decision), the memory lent as a copy (a filter changes nothing).
    /// `None` without a filter, or when the game is over.
    fn with_filter<R>(&self, f: impl FnOnce(&Scripted, &mut Ctx) -> R) -> Option<R> {
        let sc = self.script.as_deref()?;
        if sc.hooked.at(LEGAL).is_empty() || self.end.is_some() {
            return None;
        }
        // Taken from the thread (none there: a run within a run, or the
        // first), given back after.
        let mut c = FILTER_CTX
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default();
        c.memory.clear();
        c.ops.clear();
        self.write_moment(sc, LEGAL, &mut c);
        c.hook = HOOK_NAMES[LEGAL];
        c.stage = Stage::Filter;
        c.seat = i64::from(self.to_move) + 1;
        if sc.lends >> LEGAL & 1 != 0 {
            c.memory.clone_from(&sc.session.memory);
        }
        let out = f(sc, &mut c);
        let _ = FILTER_CTX.try_with(|k| k.set(Some(c)));
        Some(out)
    }

    /// Whether the filter allows `action`, in the decision's `ctx` `c`:
    /// only the move's fields written.
    #[inline]
    fn allowed_in(&self, sc: &Scripted, c: &mut Ctx, action: Action) -> bool {
        self.write_move(sc, LEGAL, c, action);
        let program = &sc.session.program;
        for step in sc.hooked.at(LEGAL) {
            if !program.filter(step, c, &sc.session.pending, || {
                self.event_words(&self.decision(action))
            }) {
                return false;
            }
        }
        true
    }

    /// The failure of a filter that forbids every move of the decision
    /// `first` belongs to; the game ends with it at its next move.
    #[cold]
    fn forbids_all(&self, first: Action) {
        if let Some(sc) = self.script.as_deref() {
            let _ = sc.session.pending.set(format!(
                "house rule `{}` (hook `legal`) failed: it forbids every legal move; event: {}",
                filter_names(&sc.session),
                self.event_words(&self.decision(first))
            ));
        }
    }

    /// Keep in `out` the moves the house rules allow; when they forbid
    /// every one, the game cannot go on: the failure is noted (the game
    /// ends at its next move) and the list is left whole.
    #[cold]
    #[inline(never)]
    pub(super) fn filter_legal(&self, out: &mut Vec<Action>) {
        if out.is_empty() {
            return;
        }
        let Some(kept) = self.with_filter(|sc, c| {
            out.iter()
                .copied()
                .filter(|&a| self.allowed_in(sc, c, a))
                .collect::<Vec<Action>>()
        }) else {
            return;
        };
        if kept.is_empty() {
            self.forbids_all(out[0]);
            return;
        }
        *out = kept;
    }

    /// `Ok` when the house rules allow `action`, else the refusal that
    /// names them (for `play`). A filter that failed, or forbade every
    /// move, lets the move through: the game ends with that failure when
    /// it is played.
    pub(super) fn check_allowed(&self, action: Action) -> Result<(), Refusal> {
        let Some(sc) = self.script.as_deref() else {
            return Ok(());
        };
        if sc.session.pending.get().is_some()
            || self
                .with_filter(|sc, c| self.allowed_in(sc, c, action))
                .unwrap_or(true)
        {
            return Ok(());
        }
        Err(Refusal::Illegal {
            reason: format!("a house rule (`{}`) forbids it", filter_names(&sc.session)),
        })
    }

    /// A random move the house rules allow: `first` (the game's own
    /// random move) if allowed, else moves of the unfiltered legal list
    /// drawn one by one without replacement until one is allowed: as
    /// uniform over the allowed moves as drawing from the filtered list,
    /// and the list is made only when `first` is forbidden.
    #[cold]
    #[inline(never)]
    pub(super) fn random_allowed(&self, first: Action, dice: &mut SeededDice) -> Action {
        self.with_filter(|sc, c| {
            if self.allowed_in(sc, c, first) {
                return first;
            }
            let mut plain = Vec::new();
            self.legal_plain(&mut plain);
            while !plain.is_empty() {
                let a = plain.swap_remove(dice.below(plain.len() as u32) as usize);
                if self.allowed_in(sc, c, a) {
                    return a;
                }
            }
            // Every move forbidden: note it; the game ends at its next move.
            self.forbids_all(first);
            first
        })
        .unwrap_or(first)
    }

    /// Whether a player holds fewer than no coins under the coin resets
    /// (which pay only penalties), without making the list of coins.
    fn short_of_coins(&self) -> bool {
        let coins = &self.fixed.rules.coins;
        if coins.reset == 0 {
            return false;
        }
        let base = i64::from(coins.start) + i64::from(coins.reset) * i64::from(self.resets);
        self.scores[..usize::from(self.players)]
            .iter()
            .any(|&s| base + i64::from(s) < 0)
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
        self.script.as_deref().map(|sc| &sc.session)
    }
}

/// The game's side of [`crate::script::session`]'s steps. Its own moves
/// run the hooks through the game's table ([`Scripted`]); the shared
/// steps (a failure's end, a filter's pending failure) go through here.
impl Host for State {
    type View = View;
    type Op = BttOp;
    type Event = Event;
    const OVER: Event = Event::Over;

    fn session_mut(&mut self) -> Option<&mut Session> {
        self.script.as_deref_mut().map(|sc| &mut sc.session)
    }

    fn moment(&self, hook: usize, c: &mut Ctx) {
        if let Some(sc) = self.script.as_deref() {
            self.write_moment(sc, hook, c);
        }
    }

    fn describe(&self, c: &mut Ctx, event: &Event, hook: usize) {
        let Some(sc) = self.script.as_deref() else {
            return;
        };
        match *event {
            Event::Action { seat, action } => {
                c.seat = i64::from(seat) + 1;
                self.write_move(sc, hook, c, action);
            }
            Event::Over => {
                c.kind = "over";
                if sc.reads(hook, TARGET) {
                    (c.view.size, c.view.dir) = (0, "");
                    (c.view.target_owner, c.view.target_size) = (0, 0);
                }
            }
        }
    }

    fn apply(&mut self, op: &Op<BttOp>) -> Result<String, String> {
        let mut note = String::new();
        self.apply_into(op, &mut note).map(|()| note)
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
        if self.short_of_coins() {
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

impl State {
    /// Apply one operation through the game's own checked moves and write
    /// what it did, in words, at the end of `note`; or say why it was
    /// refused.
    fn apply_into(&mut self, op: &Op<BttOp>, note: &mut String) -> Result<(), String> {
        use std::fmt::Write;
        match *op {
            Op::AddScore(s, n) => {
                let seat = usize::from(s);
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                let bonus = sc.session.bonus[seat] + n;
                let new = i64::from(self.scores[seat]) + n;
                if bonus.abs() > session::MAX_BONUS || new.abs() > session::MAX_BONUS {
                    return Err(format!("seat {}'s score would pass a million", s + 1));
                }
                let old = self.scores[seat];
                self.scores[seat] = new as i32;
                if self.short_of_coins() {
                    // The coin resets pay only penalties: a rule may not
                    // take coins a player does not hold.
                    self.scores[seat] = old;
                    return Err(format!("seat {} holds too few coins to pay {}", s + 1, -n));
                }
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                sc.session.bonus[seat] = bonus;
                // "seat 1 gains 2 coins", built without `format!` (a rule
                // that pays at every move words it every move).
                note.push_str("seat ");
                session::push_num(note, u64::from(s) + 1);
                note.push_str(if n < 0 { " pays " } else { " gains " });
                session::push_num(note, n.unsigned_abs());
                note.push_str(if n.unsigned_abs() == 1 {
                    " coin"
                } else {
                    " coins"
                });
                Ok(())
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
                let _ = write!(note, "seat {} is passed", passed + 1);
                Ok(())
            }
            Op::EndGame => {
                self.end = Some(End::Script);
                note.push_str("the game ends");
                Ok(())
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
                sc.session.tallies[seat][k] += n;
                self.stash[seat][k] = new as u8;
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                let _ = write!(
                    note,
                    "seat {} {} {} of size {size}",
                    s + 1,
                    if n < 0 { "loses" } else { "gains" },
                    crate::core::count(n.unsigned_abs(), "pyramid", "pyramids")
                );
                Ok(())
            }
            Op::Game(BttOp::AddRoot(cell)) => {
                if self.cell[usize::from(cell)] != EMPTY {
                    return Err(format!("{} is not empty", self.fixed.board.name(cell)));
                }
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                sc.session.tallies[0][ROOTS_ADDED] += 1;
                self.place_raw(cell, ROOT);
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                let _ = write!(note, "a root is put on {}", self.fixed.board.name(cell));
                Ok(())
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
                    sc.session.bonus[o] -= i64::from(pays);
                    sc.session.bonus[usize::from(t_owner)] += i64::from(gain);
                }
                self.stash[o][k] += 1;
                self.lift_pyramid(cell);
                if self.end.is_none() && self.in_play() {
                    self.settle_from(self.to_move);
                }
                let _ = write!(
                    note,
                    "the pyramid on {name} goes back to seat {}'s stash",
                    owner + 1
                );
                Ok(())
            }
        }
    }
}
