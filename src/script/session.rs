//! What a game's house rules keep during one game, and the steps every
//! game runs them by: a filter on the legal moves (hook `legal`), the
//! scripts after each action (hook `after_action`), and the final scores
//! (hook `final`). A game that offers these three hooks (Branches & Twigs
//! & Thorns, Sprout-R-Out, Roots Growy Roots) implements [`Host`]: its own
//! `ctx` view, its own operations, each applied through its own checked
//! moves, and its own invariants, checked after every scripted change.
//!
//! This layer knows no game: it lends the memory, counts the runs that
//! changed something, keeps the narration's notes, and ends the game with
//! a message naming the script, the hook and the event when a script
//! fails or breaks a rule of the game.

use std::any::Any;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use rhai::EvalAltResult;

use super::fast::Reg;
use super::{Failure, Hook, MAX_MEMORY, Program};
use crate::core::dice::SeededDice;
use crate::core::protocol::{GameState, Next, Refusal};

/// `hook = "legal"`: may the seat make this move? Evaluates to `false`
/// to forbid it.
pub const LEGAL: usize = 0;
/// `hook = "after_action"`: a move was applied.
pub const AFTER_ACTION: usize = 1;
/// `hook = "final"`: the game is over: adjust the final scores.
pub const FINAL: usize = 2;
/// The names of the three hooks, in the order of their numbers.
pub const HOOK_NAMES: [&str; 3] = ["legal", "after_action", "final"];

/// Hook `final`, in every game's words.
pub const FINAL_HOOK: Hook = Hook {
    name: "final",
    about: "once, when the game is over: adjust the final scores with ctx.add_score",
};

/// The three hook points of a game of this module, numbered as [`LEGAL`],
/// [`AFTER_ACTION`], [`FINAL`]: `legal` and `after_action` described in
/// the game's own terms.
pub const fn hooks(legal: &'static str, after_action: &'static str) -> [Hook; 3] {
    [
        Hook {
            name: HOOK_NAMES[LEGAL],
            about: legal,
        },
        Hook {
            name: HOOK_NAMES[AFTER_ACTION],
            about: after_action,
        },
        FINAL_HOOK,
    ]
}

/// Most script runs after one move.
pub const MAX_RUNS_PER_STEP: usize = 1000;
/// Most operations one run may ask for.
pub const MAX_OPS: usize = 1000;
/// The largest change of a score one operation may make.
pub const MAX_CHANGE: i64 = 1000;
/// The largest a scripted score adjustment may grow, either way.
pub const MAX_BONUS: i64 = 1_000_000;

/// What a script asked for: the operations every game has, or one of the
/// game's own (`P`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op<P> {
    /// Add to a seat's score (0-based seat).
    AddScore(u8, i64),
    /// End the turn of the seat to move.
    EndTurn,
    /// End the game here.
    EndGame,
    /// An operation of the game's own.
    Game(P),
}

/// Where the hook runs, and so what its scripts may ask for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stage {
    /// A filter: reads, changes nothing.
    #[default]
    Filter,
    /// After a move: any operation.
    Change,
    /// The game is over: only scores change.
    Final,
}

/// The `ctx` a script of such a game sees: what every game has (the
/// moment, the seats, the scores, the memory), the game's own view `V`,
/// and the operations asked for so far.
#[derive(Clone, Debug)]
pub struct Ctx<V, P> {
    pub hook: &'static str,
    pub stage: Stage,
    /// What happened: the game's own word (`place`, `grow`, `over`...).
    pub kind: &'static str,
    /// The seat (from 1) that moved or would move; 0 for none.
    pub seat: i64,
    /// The cell of the move: column and row from 0, -1 for none.
    pub x: i64,
    pub y: i64,
    pub seats: i64,
    /// The seat (from 1) to move now, 0 when the game is over.
    pub turn: i64,
    pub round: i64,
    pub over: bool,
    /// Each seat's score, as the game counts it with the adjustments the
    /// house rules made.
    pub scores: [i64; 8],
    pub view: V,
    pub memory: Vec<(String, i64)>,
    pub ops: Vec<Op<P>>,
}

impl<V: Default, P> Default for Ctx<V, P> {
    fn default() -> Self {
        Ctx {
            hook: "",
            stage: Stage::Filter,
            kind: "",
            seat: 0,
            x: -1,
            y: -1,
            seats: 0,
            turn: 0,
            round: 0,
            over: false,
            scores: [0; 8],
            view: V::default(),
            memory: Vec::new(),
            ops: Vec::new(),
        }
    }
}

/// A result of an operation or field of `ctx`.
pub type Res<T> = Result<T, Box<EvalAltResult>>;

/// Refuse what a script asked, in words.
pub fn refuse<T>(message: String) -> Res<T> {
    Err(message.into())
}

impl<V, P> Ctx<V, P> {
    /// The 0-based seat of a script's seat number (from 1).
    pub fn seat_index(&self, s: i64) -> Res<u8> {
        if (1..=self.seats).contains(&s) {
            Ok((s - 1) as u8)
        } else {
            refuse(format!(
                "seat {s} does not play (the seats are 1 to {})",
                self.seats
            ))
        }
    }

    /// Ask for `op`, if the hook may change the game and `op` is allowed at it.
    pub fn push(&mut self, op: Op<P>) -> Res<()> {
        let allowed = match self.stage {
            Stage::Filter => false,
            Stage::Final => matches!(op, Op::AddScore(..)),
            Stage::Change => true,
        };
        if !allowed {
            return refuse(format!(
                "this operation cannot be asked for at hook `{}`",
                self.hook
            ));
        }
        if self.ops.len() >= MAX_OPS {
            return refuse(format!("more than {MAX_OPS} operations in one run"));
        }
        self.ops.push(op);
        Ok(())
    }
}

/// A change a script asked for, checked for size.
pub fn amount(n: i64) -> Res<i64> {
    if (-MAX_CHANGE..=MAX_CHANGE).contains(&n) {
        Ok(n)
    } else {
        refuse(format!(
            "{n} is too large a change (at most {MAX_CHANGE} either way)"
        ))
    }
}

/// `ctx.set(name, v)`: remember `v` under `name` in a game's memory of
/// named numbers, within its limits (every game's scripts share them).
pub fn remember(memory: &mut Vec<(String, i64)>, name: &str, v: i64) -> Res<()> {
    if let Some(slot) = memory.iter_mut().find(|(k, _)| k == name) {
        slot.1 = v;
        return Ok(());
    }
    if memory.len() >= MAX_MEMORY || name.len() > 64 {
        return refuse(format!(
            "at most {MAX_MEMORY} remembered names of up to 64 bytes"
        ));
    }
    memory.push((name.to_owned(), v));
    Ok(())
}

/// Append `n` in decimal to `out` (what `format!("{n}")` writes, without
/// its machinery: for the notes of a rule that fires often).
pub fn push_num(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

/// Register the `ctx` type of a game (`V`, `P`) with what every game has;
/// the game then registers its own fields and operations on the same type.
pub fn register_common<V, P>(r: &mut Reg)
where
    V: Clone + Default + Send + Sync + 'static,
    P: Clone + Send + Sync + 'static,
{
    type C<V, P> = Ctx<V, P>;
    r.engine.register_type_with_name::<C<V, P>>("Ctx");
    r.get_str("hook", |c: &mut C<V, P>| c.hook);
    r.get_str("kind", |c: &mut C<V, P>| c.kind);
    r.get("seat", |c: &mut C<V, P>| c.seat);
    r.get("x", |c: &mut C<V, P>| c.x);
    r.get("y", |c: &mut C<V, P>| c.y);
    r.get("seats", |c: &mut C<V, P>| c.seats);
    r.get("turn", |c: &mut C<V, P>| c.turn);
    r.get("round", |c: &mut C<V, P>| c.round);
    r.get("over", |c: &mut C<V, P>| c.over);
    r.read1("score", |c: &mut C<V, P>, s: i64| -> Res<i64> {
        let i = c.seat_index(s)?;
        Ok(c.scores[usize::from(i)])
    });
    // A name as argument: Rhai only.
    r.engine
        .register_fn("get", |c: &mut C<V, P>, name: &str| -> i64 {
            c.memory
                .iter()
                .find(|(k, _)| k == name)
                .map_or(0, |(_, v)| *v)
        });
    r.engine
        .register_fn("set", |c: &mut C<V, P>, name: &str, v: i64| -> Res<()> {
            if c.stage == Stage::Filter {
                return refuse(
                    "a filter (hook `legal`) cannot remember: it changes nothing".into(),
                );
            }
            remember(&mut c.memory, name, v)
        });
    r.op2("add_score", |c: &mut C<V, P>, s: i64, n: i64| -> Res<()> {
        let s = c.seat_index(s)?;
        let n = amount(n)?;
        c.push(Op::AddScore(s, n))
    });
    r.op0("end_turn", |c: &mut C<V, P>| c.push(Op::EndTurn));
    r.op0("end_game", |c: &mut C<V, P>| c.push(Op::EndGame));
}

/// The house rules of one game and what they keep.
#[derive(Clone)]
pub struct Session {
    pub program: Arc<Program>,
    /// The numbers scripts remember (`ctx.set`), in order of first use.
    pub memory: Vec<(String, i64)>,
    /// What the house rules did in the last step, for the narration.
    pub notes: Vec<String>,
    /// How many runs of each script changed the game.
    pub fired: Vec<u32>,
    /// Why the game ended with a failed script.
    pub failure: Option<String>,
    /// A failure found where the state cannot change (a filter): the game
    /// ends with it at its next step.
    pub pending: OnceLock<String>,
    /// Whether hook `final` has run.
    pub final_done: bool,
    /// What the house rules added to each seat's score.
    pub bonus: [i64; 8],
    /// What the house rules added to each seat's counts of the game's own
    /// (the game names them: Branches its three stash sizes), for the
    /// game's invariants.
    pub tallies: [[i64; 4]; 8],
    /// [`Program::read_masks`], kept at hand.
    reads: [u32; 8],
    /// The `ctx` of the last run, kept for the next (the game's own
    /// type): a run writes it afresh instead of making one.
    spare: Spare,
}

/// A kept `ctx`, of the game's type; a copy of a session keeps none.
#[derive(Default)]
struct Spare(Option<Box<dyn Any + Send + Sync>>);

impl Clone for Spare {
    fn clone(&self) -> Spare {
        Spare(None)
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("memory", &self.memory)
            .field("fired", &self.fired)
            .field("failure", &self.failure)
            .field("bonus", &self.bonus)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Session {
    fn eq(&self, other: &Session) -> bool {
        Arc::ptr_eq(&self.program, &other.program)
            && self.memory == other.memory
            && self.failure == other.failure
            && self.final_done == other.final_done
            && self.bonus == other.bonus
            && self.tallies == other.tallies
    }
}

impl Eq for Session {}

impl Session {
    pub fn new(program: Arc<Program>) -> Session {
        Session {
            reads: program.read_masks(),
            fired: vec![0; program.len()],
            program,
            memory: Vec::new(),
            notes: Vec::new(),
            failure: None,
            pending: OnceLock::new(),
            final_done: false,
            bonus: [0; 8],
            tallies: [[0; 4]; 8],
            spare: Spare::default(),
        }
    }

    /// A fresh session of the same scripts (a new game).
    pub fn fresh(&self) -> Session {
        Session::new(Arc::clone(&self.program))
    }

    /// Whether some script of `hook` may read group `group` of the
    /// game's groups of words ([`Program::reads`]).
    #[inline]
    pub fn reads(&self, hook: usize, group: usize) -> bool {
        self.reads.get(hook).is_none_or(|m| m >> group & 1 == 1)
    }

    /// Whether some script of `hook` may use the memory.
    #[inline]
    pub fn lends(&self, hook: usize) -> bool {
        self.program.lends(hook)
    }

    /// How many runs of the house rules changed the game, all together.
    pub fn fired_total(&self) -> u32 {
        self.fired.iter().sum()
    }

    /// Each house rule's name and how many of its runs changed the game.
    pub fn fired_by_name(&self) -> Vec<(String, u32)> {
        (0..self.program.len())
            .map(|i| (self.program.name(i).to_owned(), self.fired[i]))
            .collect()
    }

    /// The number remembered under `name`, 0 if none.
    pub fn memory_of(&self, name: &str) -> i64 {
        self.memory
            .iter()
            .find(|(k, _)| k == name)
            .map_or(0, |(_, v)| *v)
    }
}

/// What a game with house rules answers about them, alike in every game:
/// the game gives its [`Session`], the rest follows.
pub trait HouseRules {
    /// The house rules of this game and what they keep; `None` without
    /// scripts.
    fn session(&self) -> Option<&Session>;

    /// What the house rules did in the last step, in words.
    fn script_notes(&self) -> &[String] {
        self.session().map_or(&[], |s| &s.notes)
    }

    /// Why the game ended with a failed house rule, if it did.
    fn script_failure(&self) -> Option<&str> {
        self.session()?.failure.as_deref()
    }

    /// How many runs of the house rules changed the game, all together
    /// (the rule event `script`).
    fn script_fired_total(&self) -> u32 {
        self.session().map_or(0, Session::fired_total)
    }

    /// Each house rule's name and how many of its runs changed the game.
    fn script_fired(&self) -> Vec<(String, u32)> {
        self.session().map_or_else(Vec::new, Session::fired_by_name)
    }

    /// The number a house rule remembered under `name` (`ctx.set`), 0 if
    /// none.
    fn script_memory(&self, name: &str) -> i64 {
        self.session().map_or(0, |s| s.memory_of(name))
    }
}

/// A game that runs house rules at the three hooks of this module.
pub trait Host: HouseRules + GameState {
    /// The game's own part of `ctx`.
    type View: Clone + Default + Send + Sync + 'static;
    /// The game's own operations.
    type Op: Clone + std::fmt::Debug + Send + Sync + 'static;
    /// What happened, for `ctx` and for a failure's message.
    type Event: Copy;
    /// The event of the game's end.
    const OVER: Self::Event;

    fn session_mut(&mut self) -> Option<&mut Session>;
    /// Write the position as the scripts of `hook` see it into `c`,
    /// without the event: the seats, the turn, the scores, the game's
    /// view. `c` is a `ctx` kept from an earlier run (or a new one), so
    /// every field a script of the hook may read is written; a part no
    /// script of the hook reads may be left as it was. Stage, memory and
    /// ops are the session's.
    fn moment(&self, hook: usize, c: &mut Ctx<Self::View, Self::Op>);
    /// Write `event` into `c`, a `ctx` of [`Host::moment`] at `hook`:
    /// `seat`, `kind`, `x`, `y` (reset to none before) and every field of
    /// the view that depends on the event and that a script of the hook
    /// may read (a `ctx` is reused for every move of one decision).
    fn describe(&self, c: &mut Ctx<Self::View, Self::Op>, event: &Self::Event, hook: usize);
    /// Apply one operation through the game's own checked moves: what it
    /// did in words, or why it was refused.
    fn apply(&mut self, op: &Op<Self::Op>) -> Result<String, String>;
    /// The game's invariants.
    fn invariants(&self) -> Result<(), String>;
    /// The invariants operation `op`, just applied, may have broken: by
    /// default all of them ([`Host::invariants`]). A game may check fewer
    /// in release builds, never fewer than what `op` can break; debug
    /// builds (and so the tests) check them all.
    fn invariants_after(&self, op: &Op<Self::Op>) -> Result<(), String> {
        let _ = op;
        self.invariants()
    }
    /// An event in words (who, what, when).
    fn event_words(&self, event: &Self::Event) -> String;
    /// End the game now with a failed house rule (the end reason
    /// `script_error`), the session's failure already set.
    fn stop(&mut self);
    /// The event of the seat to move making `action`.
    fn decision(&self, action: Self::Action) -> Self::Event;
    /// The legal moves before the house rules' filter.
    fn unfiltered(&self, out: &mut Vec<Self::Action>);

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        matches!(self.next(), Next::Over)
    }

    /// `f` on a `ctx` kept on this thread from the last filter
    /// ([`with_spare`]); a game may keep it in a slot of its own type
    /// instead, the cheaper (no check of its type).
    fn with_filter_spare<R>(f: impl FnOnce(&mut Ctx<Self::View, Self::Op>) -> R) -> R {
        with_spare(f)
    }
}

/// Write the `ctx` of `event` at `hook` into `c` (a kept one): no
/// memory, no operations asked for.
fn fill<H: Host>(host: &H, c: &mut Ctx<H::View, H::Op>, hook: usize, event: &H::Event) {
    c.memory.clear();
    c.ops.clear();
    host.moment(hook, c);
    c.hook = HOOK_NAMES[hook];
    describe(host, c, event, hook);
}

/// The `ctx` kept from the last run of the house rules of `host`, or a
/// new one: a run neither makes nor drops one.
fn spare_ctx<H: Host>(host: &mut H) -> Box<Ctx<H::View, H::Op>> {
    host.session_mut()
        .and_then(|s| s.spare.0.take())
        .and_then(|b| b.downcast().ok())
        .unwrap_or_default()
}

#[inline(always)]
fn describe<H: Host>(host: &H, c: &mut Ctx<H::View, H::Op>, event: &H::Event, hook: usize) {
    c.seat = 0;
    c.kind = "";
    (c.x, c.y) = (-1, -1);
    host.describe(c, event, hook);
}

/// End the game of `host` with `failure` at `event`.
pub fn fail<H: Host>(host: &mut H, failure: &Failure, event: &H::Event) {
    let message = format!("{failure}; event: {}", host.event_words(event));
    end_with(host, message);
}

fn end_with<H: Host>(host: &mut H, message: String) {
    if let Some(sc) = host.session_mut() {
        sc.notes.push(format!("the game stops: {message}"));
        sc.failure = Some(message);
        sc.final_done = true;
    }
    host.stop();
}

/// Before a move is applied: end the game with a failure a filter left
/// (`true`: the game is over, the move is not played), and clear the
/// narration's notes.
pub fn before_move<H: Host>(host: &mut H) -> bool {
    let Some(sc) = host.session_mut() else {
        return false;
    };
    sc.notes.clear();
    match sc.pending.take() {
        Some(message) => {
            end_with(host, message);
            true
        }
        None => false,
    }
}

/// A move of a game with house rules: a failure a filter left ends the
/// game instead; else `apply` plays it, and the event is given back for
/// the hooks (`None` when the game ended instead).
#[cold]
#[inline(never)]
pub fn step<H: Host>(
    host: &mut H,
    action: H::Action,
    apply: impl FnOnce(&mut H, H::Action),
) -> Option<H::Event> {
    if before_move(host) {
        return None;
    }
    let event = host.decision(action);
    apply(host, action);
    Some(event)
}

/// After a move (`event`): hook `after_action`, then hook `final` once
/// the game is over.
pub fn after_move<H: Host>(host: &mut H, event: H::Event) {
    let Some(program) = host.session().map(|s| Arc::clone(&s.program)) else {
        return;
    };
    let mut runs = 0usize;
    if !program.at(AFTER_ACTION).is_empty()
        && !run_hook(host, &program, AFTER_ACTION, &event, &mut runs)
    {
        return;
    }
    if host.is_over() && !host.session().is_some_and(|s| s.final_done) {
        if let Some(sc) = host.session_mut() {
            sc.final_done = true;
        }
        if !program.at(FINAL).is_empty() {
            run_hook(host, &program, FINAL, &H::OVER, &mut runs);
        }
    }
}

/// Run every script of `hook` on `event`, applying what each asks for
/// and checking the game's invariants after each; `false` when one failed
/// (the game is then over).
fn run_hook<H: Host>(
    host: &mut H,
    program: &Program,
    hook: usize,
    event: &H::Event,
    runs: &mut usize,
) -> bool {
    // The session's kept `ctx`, written when a script first needs it and
    // again after each script that changed the game.
    let mut c = spare_ctx(host);
    let mut written = false;
    for &i in program.at(hook) {
        *runs += 1;
        if *runs > MAX_RUNS_PER_STEP {
            let f = program.refused(
                i,
                format!("the house rules ran more than {MAX_RUNS_PER_STEP} times in one step"),
            );
            fail(host, &f, event);
            return false;
        }
        if !written {
            fill(host, &mut c, hook, event);
            written = true;
        }
        c.stage = if hook == FINAL {
            Stage::Final
        } else {
            Stage::Change
        };
        let Some(sc) = host.session_mut() else {
            return false;
        };
        let lend = sc.lends(hook);
        if lend {
            c.memory = std::mem::take(&mut sc.memory);
        }
        let ran = program.exec_effect(i, &mut *c);
        if lend {
            sc.memory = std::mem::take(&mut c.memory);
        }
        if let Err(f) = ran {
            fail(host, &f, event);
            return false;
        }
        if c.ops.is_empty() {
            continue;
        }
        sc.fired[i] += 1;
        // The game changes: the next script sees a new `ctx`.
        written = false;
        for (k, op) in c.ops.iter().enumerate() {
            if host.is_over() && !matches!(op, Op::AddScore(..)) {
                let f = program.refused(
                    i,
                    format!(
                        "operation {} refused: the game is over: only add_score may change it now",
                        k + 1
                    ),
                );
                fail(host, &f, event);
                return false;
            }
            match host.apply(op) {
                Ok(note) => {
                    if let Some(sc) = host.session_mut() {
                        // "house rule `NAME`: NOTE", without the cost of
                        // `format!` (a rule that fires every move pays it).
                        let name = program.name(i);
                        let mut line = String::with_capacity(16 + name.len() + note.len());
                        line.push_str("house rule `");
                        line.push_str(name);
                        line.push_str("`: ");
                        line.push_str(&note);
                        sc.notes.push(line);
                    }
                }
                Err(why) => {
                    let f = program.refused(i, format!("operation {} refused: {why}", k + 1));
                    fail(host, &f, event);
                    return false;
                }
            }
            if let Err(broken) = host.invariants_after(op) {
                let f = program.refused(
                    i,
                    format!("what it did broke a rule of the game ({broken})"),
                );
                fail(host, &f, event);
                return false;
            }
        }
    }
    if let Some(sc) = host.session_mut() {
        sc.spare.0 = Some(c);
    }
    true
}

thread_local! {
    /// The value [`with_spare`] lent last on this thread, kept for the
    /// next call.
    static SPARE: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// `f` on a `C` kept on this thread from the last call (a new one when
/// that was of another type, or is in use): for a filter's `ctx`, which
/// a game reads through `&` and so cannot keep in its session. `f` must
/// write every field it reads: the value is the last call's.
pub fn with_spare<C: Default + 'static, R>(f: impl FnOnce(&mut C) -> R) -> R {
    let mut c: Box<C> = SPARE
        .try_with(|k| k.try_borrow_mut().ok().and_then(|mut k| k.take()))
        .ok()
        .flatten()
        .and_then(|b| b.downcast().ok())
        .unwrap_or_default();
    let out = f(&mut c);
    let _ = SPARE.try_with(|k| {
        if let Ok(mut k) = k.try_borrow_mut() {
            *k = Some(c);
        }
    });
    out
}

/// `f` on the `ctx` the filter (hook `legal`) of one decision reads: the
/// moment written once, the memory lent as a copy (a filter changes
/// nothing), the event written in for each move asked about. `None` when
/// the game has no filter to run.
fn with_filter_ctx<H: Host, R>(
    host: &H,
    f: impl FnOnce(&mut Ctx<H::View, H::Op>) -> R,
) -> Option<R> {
    let sc = host.session()?;
    if sc.program.at(LEGAL).is_empty() || host.is_over() {
        return None;
    }
    Some(H::with_filter_spare(|c: &mut Ctx<H::View, H::Op>| {
        c.memory.clear();
        c.ops.clear();
        host.moment(LEGAL, c);
        c.hook = HOOK_NAMES[LEGAL];
        c.stage = Stage::Filter;
        if sc.lends(LEGAL) {
            c.memory.clone_from(&sc.memory);
        }
        f(c)
    }))
}

/// Whether the filter allows `action`, in the decision's `ctx` `c`.
fn allowed_in<H: Host>(host: &H, c: &mut Ctx<H::View, H::Op>, action: H::Action) -> bool {
    let Some(sc) = host.session() else {
        return true;
    };
    let program = &sc.program;
    let event = host.decision(action);
    describe(host, c, &event, LEGAL);
    for &i in program.at(LEGAL) {
        if !program.exec_filter(i, c, &sc.pending, || host.event_words(&event)) {
            return false;
        }
    }
    true
}

/// Whether the house rules allow the seat to move to make `action` (hook
/// `legal`). A script that fails is noted, and ends the game at its next
/// move.
pub fn allows<H: Host>(host: &H, action: H::Action) -> bool {
    with_filter_ctx(host, |c| allowed_in(host, c, action)).unwrap_or(true)
}

/// `Ok` when the house rules allow `action`, else the refusal that names
/// them (for `play`). A filter that failed, or forbade every move, lets
/// the move through: the game ends with that failure when it is played.
pub fn check_allowed<H: Host>(host: &H, action: H::Action) -> Result<(), Refusal> {
    if host.session().is_some_and(|s| s.pending.get().is_some()) || allows(host, action) {
        return Ok(());
    }
    Err(Refusal::Illegal {
        reason: format!(
            "a house rule (`{}`) forbids it",
            host.session().map(filter_names).unwrap_or_default()
        ),
    })
}

/// The names of the house rules of hook `legal`, joined for a message.
pub fn filter_names(sc: &Session) -> String {
    sc.program
        .at(LEGAL)
        .iter()
        .map(|&i| sc.program.name(i).to_owned())
        .collect::<Vec<_>>()
        .join("`, `")
}

/// The failure of a filter that forbids every move of the decision `first`
/// belongs to; the game ends with it at its next move.
fn forbids_all<H: Host>(host: &H, first: H::Action) {
    if let Some(sc) = host.session() {
        let _ = sc.pending.set(format!(
            "house rule `{}` (hook `legal`) failed: it forbids every legal move; event: {}",
            filter_names(sc),
            host.event_words(&host.decision(first))
        ));
    }
}

/// Keep in `out` the moves the house rules allow; when they forbid every
/// one, the game cannot go on: the failure is noted (the game ends at its
/// next move) and the list is left whole.
#[cold]
#[inline(never)]
pub fn filter_legal<H: Host>(host: &H, out: &mut Vec<H::Action>) {
    if out.is_empty() {
        return;
    }
    let Some(kept) = with_filter_ctx(host, |c| {
        out.iter()
            .copied()
            .filter(|&a| allowed_in(host, c, a))
            .collect::<Vec<H::Action>>()
    }) else {
        return;
    };
    if kept.is_empty() {
        forbids_all(host, out[0]);
        return;
    }
    *out = kept;
}

/// A random move the house rules allow: `first` (the game's own random
/// move) if allowed, else moves of the unfiltered legal list drawn one by
/// one without replacement until one is allowed: as uniform over the
/// allowed moves as drawing from the filtered list, and the list is made
/// only when `first` is forbidden.
#[cold]
#[inline(never)]
pub fn random_allowed<H: Host>(host: &H, first: H::Action, dice: &mut SeededDice) -> H::Action {
    with_filter_ctx(host, |c| {
        if allowed_in(host, c, first) {
            return first;
        }
        let mut plain = Vec::new();
        host.unfiltered(&mut plain);
        while !plain.is_empty() {
            let a = plain.swap_remove(dice.below(plain.len() as u32) as usize);
            if allowed_in(host, c, a) {
                return a;
            }
        }
        // Every move forbidden: note it; the game ends at its next move.
        forbids_all(host, first);
        first
    })
    .unwrap_or(first)
}
