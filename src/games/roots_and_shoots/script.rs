//! House rules as scripts in Roots and Shoots: the hook points, the `ctx`
//! a script sees, and the operations it may ask for, each applied through
//! the engine's own checked moves (`docs/scripts.md`).
//!
//! A game without scripts never comes here: the state holds its scripts
//! as an `Option`, checked once a step.

use std::cell::Cell;
use std::sync::Arc;

use rhai::EvalAltResult;

use crate::core::dice::Die;
use crate::core::geometry::Point;
use crate::core::protocol::{GameState, Next, Seat};
use crate::games::roots_and_shoots::action::Action;
use crate::games::roots_and_shoots::rules::ValueRolled;
use crate::games::roots_and_shoots::state::{EndReason, MAX_SEATS, Phase, State, Task};
use crate::script::fast::{self, Reg};
use crate::script::session::{HouseRules, Session, filter_names, push_num};
use crate::script::{Api, Failure, Hook, Hooked, Program, Step};

/// `hook = "legal"`: may the seat make this move? Evaluates to `false` to
/// forbid it.
pub const LEGAL: usize = 0;
/// `hook = "roll"`: a die was rolled, not yet applied: may roll it again
/// or set its face.
pub const ROLL: usize = 1;
/// `hook = "after_roll"`: a roll was applied and everything it set off has
/// run.
pub const AFTER_ROLL: usize = 2;
/// `hook = "after_action"`: a decision was applied and everything it set
/// off has run.
pub const AFTER_ACTION: usize = 3;
/// `hook = "scored"`: a nutrient was scored.
pub const SCORED: usize = 4;
/// `hook = "final"`: the game is over: adjust the final scores.
pub const FINAL: usize = 5;

/// The hook points of Roots and Shoots.
pub const HOOKS: &[Hook] = &[
    Hook {
        name: "legal",
        about: "before a seat decides, once per legal move (ctx.kind, ctx.x, ctx.y, ctx.growth); evaluates to false to forbid the move; no operations",
    },
    Hook {
        name: "roll",
        about: "a die was rolled and not yet applied (ctx.die, ctx.face, ctx.kind: growth, spawn_check, coordinate or value); ctx.reroll() rolls it again, ctx.set_face(n) changes the face",
    },
    Hook {
        name: "after_roll",
        about: "after a roll and all it set off (rain, scoring, removals); any operation",
    },
    Hook {
        name: "after_action",
        about: "after a decision (ctx.kind: place, grow, pass, spawn, lose; ctx.x, ctx.y) and all it set off; any operation",
    },
    Hook {
        name: "scored",
        about: "after a nutrient was scored (ctx.x, ctx.y, ctx.value, ctx.share(seat), ctx.on_top); any operation",
    },
    crate::script::session::FINAL_HOOK,
];

/// What Roots and Shoots offers scripts.
pub static API: Api = Api {
    hooks: HOOKS,
    register,
};

/// A point as a script names it: column, row.
pub type Xy = (u8, u8);

/// What a script asked for, applied in order once it returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    AddScore(Seat, i64),
    AddBead(Seat, Xy),
    RemoveBead(Xy),
    AddStore(Seat, i64),
    AddSupply(Seat, i64),
    AddNutrient(Xy),
    Rain,
    EndTurn,
    EndGame,
}

/// The position a script reads, made for each run: a few numbers, and
/// the board only when a script of the hook may read it (`bead`,
/// `nutrients`: [`Program::mentions`]), made once per step then shared.
#[derive(Clone, Debug, Default)]
pub struct View {
    size: i64,
    seats: i64,
    /// The points, when a script of the hook reads them.
    board: Option<Arc<Board>>,
    /// score, store, supply, on board, removed, per seat.
    players: Option<Arc<[[i64; 5]; MAX_SEATS]>>,
    pile: i64,
    round: i64,
    turn: i64,
    first_turn: bool,
    over: bool,
}

/// The points of the board as a script reads them.
#[derive(Debug, Default)]
pub struct Board {
    /// Seat (from 1) of the bead on each point, row by row; 0 for none.
    beads: Vec<u8>,
    /// Nutrient markers on each point.
    nuts: Vec<u8>,
}

/// The words of a script that read the board's points.
const BOARD_WORDS: &[&str] = &["bead", "nutrients"];

/// The words of a script that read the seats' counts.
const PLAYER_WORDS: &[&str] = &["score", "store", "supply", "on_board", "removed"];

/// The words of a script that read the position ([`View`]): its fields,
/// and every field or operation that checks a seat (against `seats`) or a
/// point (against `size`), the board's and the seats' words among them.
/// A hook none of whose scripts names one leaves the view unwritten.
const VIEW_WORDS: &[&str] = &[
    "size",
    "seats",
    "round",
    "turn",
    "pile",
    "first_turn",
    "over",
    "bead",
    "nutrients",
    "on_edge",
    "score",
    "store",
    "supply",
    "on_board",
    "removed",
    "share",
    "add_score",
    "add_bead",
    "remove_bead",
    "add_store",
    "add_supply",
    "add_nutrient",
];

/// The words that read the point of the moment, its growth action and
/// the shares of a scored nutrient: each worked out only for a hook with
/// a script that names it.
const XY_WORDS: &[&str] = &["x", "y"];
const GROWTH_WORDS: &[&str] = &["growth"];
const SHARE_WORDS: &[&str] = &["share"];
/// The words that read the rest of the moment: what happened, the die
/// and its face (`set_face` checks the die), a scored nutrient's value
/// and marker. A seat's number is the one every run may be written
/// alone.
const KIND_WORDS: &[&str] = &["kind"];
const SEAT_WORDS: &[&str] = &["seat"];
const ROLL_WORDS: &[&str] = &["die", "face", "set_face"];
const VALUE_WORDS: &[&str] = &["value", "on_top"];
/// The words that read the hook's name: `ctx.hook`, and every operation
/// (each checks the hook it is asked for at; a test holds the list to the
/// operations registered).
const HOOK_WORDS: &[&str] = &[
    "hook",
    "add_score",
    "add_bead",
    "remove_bead",
    "add_store",
    "add_supply",
    "add_nutrient",
    "rain",
    "end_turn",
    "end_game",
    "reroll",
    "set_face",
];

/// The bits of [`Scripted::reads`]: a group of `ctx`'s words some script
/// of a hook names (in the order given to [`Program::read_groups`]).
const READS_BOARD: u16 = 1;
const READS_PLAYERS: u16 = 1 << 1;
const READS_VIEW: u16 = 1 << 2;
const READS_XY: u16 = 1 << 3;
const READS_GROWTH: u16 = 1 << 4;
const READS_SHARES: u16 = 1 << 5;
const READS_KIND: u16 = 1 << 6;
const READS_SEAT: u16 = 1 << 7;
const READS_ROLL: u16 = 1 << 8;
const READS_VALUE: u16 = 1 << 9;
const READS_HOOK: u16 = 1 << 10;
/// The groups of the moment other than the seat: a hook whose scripts
/// read none of them has only the seat written for each run.
const READS_EVENT: u16 =
    READS_XY | READS_GROWTH | READS_SHARES | READS_KIND | READS_ROLL | READS_VALUE | READS_HOOK;
/// How many groups there are.
const GROUPS: usize = 11;
/// Not a group: the bit of [`Scripted::reads`] that says the hook's
/// scripts may use the memory ([`Program::lends`]), at hand with the
/// groups.
const READS_LEND: u16 = 1 << 15;

/// The `ctx` of a script: the moment (what happened), the position, the
/// game's memory for its scripts, and what the script asked for.
#[derive(Clone, Debug, Default)]
pub struct Ctx {
    view: View,
    hook: &'static str,
    kind: &'static str,
    growth: &'static str,
    seat: i64,
    x: i64,
    y: i64,
    die: i64,
    face: i64,
    value: i64,
    on_top: i64,
    shares: [i64; 8],
    memory: Vec<(String, i64)>,
    ops: Vec<Op>,
    reroll: bool,
    new_face: Option<i64>,
}

type Res<T> = Result<T, Box<EvalAltResult>>;

fn refuse<T>(message: String) -> Res<T> {
    Err(message.into())
}

impl Ctx {
    fn seat_index(&self, s: i64) -> Res<Seat> {
        if (1..=self.view.seats).contains(&s) {
            Ok((s - 1) as Seat)
        } else {
            refuse(format!(
                "seat {s} does not play (the seats are 1 to {})",
                self.view.seats
            ))
        }
    }

    fn cell(&self, x: i64, y: i64) -> Res<usize> {
        let n = self.view.size;
        if (0..n).contains(&x) && (0..n).contains(&y) {
            Ok((y * n + x) as usize)
        } else {
            refuse(format!(
                "{x},{y} is off the board (0 to {} each way)",
                n - 1
            ))
        }
    }

    fn point(&self, x: i64, y: i64) -> Res<(u8, u8)> {
        self.cell(x, y)?;
        Ok((x as u8, y as u8))
    }

    fn op(&mut self, op: Op) -> Res<()> {
        let allowed = match self.hook {
            "legal" | "roll" => false,
            "final" => matches!(op, Op::AddScore(..)),
            _ => true,
        };
        if !allowed {
            return refuse(format!(
                "this operation cannot be asked for at hook `{}`",
                self.hook
            ));
        }
        if self.ops.len() >= 1000 {
            return refuse("more than 1000 operations in one run".into());
        }
        self.ops.push(op);
        Ok(())
    }

    fn board(&self) -> Res<&Board> {
        match &self.view.board {
            Some(b) => Ok(b),
            None => refuse("the board was not read for this script (a bug of the engine)".into()),
        }
    }

    fn player(&self, s: i64, k: usize) -> Res<i64> {
        let i = self.seat_index(s)?;
        match &self.view.players {
            Some(p) => Ok(p[usize::from(i)][k]),
            None => refuse("the seats were not read for this script (a bug of the engine)".into()),
        }
    }
}

fn amount(n: i64) -> Res<i64> {
    if (-1000..=1000).contains(&n) {
        Ok(n)
    } else {
        refuse(format!(
            "{n} is too large a change (at most 1000 either way)"
        ))
    }
}

fn register(r: &mut Reg) {
    r.engine.register_type_with_name::<Ctx>("Ctx");
    r.get_str("hook", |c: &mut Ctx| c.hook);
    r.get_str("kind", |c: &mut Ctx| c.kind);
    r.get_str("growth", |c: &mut Ctx| c.growth);
    r.get("seat", |c: &mut Ctx| c.seat);
    r.get("x", |c: &mut Ctx| c.x);
    r.get("y", |c: &mut Ctx| c.y);
    r.get("die", |c: &mut Ctx| c.die);
    r.get("face", |c: &mut Ctx| c.face);
    r.get("value", |c: &mut Ctx| c.value);
    r.get("on_top", |c: &mut Ctx| c.on_top);
    r.get("size", |c: &mut Ctx| c.view.size);
    r.get("seats", |c: &mut Ctx| c.view.seats);
    r.get("round", |c: &mut Ctx| c.view.round);
    r.get("turn", |c: &mut Ctx| c.view.turn);
    r.get("pile", |c: &mut Ctx| c.view.pile);
    r.get("first_turn", |c: &mut Ctx| c.view.first_turn);
    r.get("over", |c: &mut Ctx| c.view.over);
    r.read2("bead", |c: &mut Ctx, x: i64, y: i64| -> Res<i64> {
        let i = c.cell(x, y)?;
        Ok(i64::from(c.board()?.beads[i]))
    });
    r.read2("nutrients", |c: &mut Ctx, x: i64, y: i64| -> Res<i64> {
        let i = c.cell(x, y)?;
        Ok(i64::from(c.board()?.nuts[i]))
    });
    r.read2("on_edge", |c: &mut Ctx, x: i64, y: i64| -> Res<bool> {
        c.cell(x, y)?;
        let last = c.view.size - 1;
        Ok(x == 0 || y == 0 || x == last || y == last)
    });
    r.read1("score", |c: &mut Ctx, s: i64| c.player(s, 0));
    r.read1("store", |c: &mut Ctx, s: i64| c.player(s, 1));
    r.read1("supply", |c: &mut Ctx, s: i64| c.player(s, 2));
    r.read1("on_board", |c: &mut Ctx, s: i64| c.player(s, 3));
    r.read1("removed", |c: &mut Ctx, s: i64| c.player(s, 4));
    r.read1("share", |c: &mut Ctx, s: i64| -> Res<i64> {
        let i = c.seat_index(s)?;
        Ok(c.shares[usize::from(i)])
    });
    r.engine
        .register_fn("get", |c: &mut Ctx, name: &str| -> i64 {
            c.memory
                .iter()
                .find(|(k, _)| k == name)
                .map_or(0, |(_, v)| *v)
        });
    r.engine
        .register_fn("set", |c: &mut Ctx, name: &str, v: i64| -> Res<()> {
            crate::script::session::remember(&mut c.memory, name, v)
        });
    r.op2("add_score", |c: &mut Ctx, s: i64, n: i64| -> Res<()> {
        let s = c.seat_index(s)?;
        let n = amount(n)?;
        c.op(Op::AddScore(s, n))
    });
    r.op3(
        "add_bead",
        |c: &mut Ctx, s: i64, x: i64, y: i64| -> Res<()> {
            let s = c.seat_index(s)?;
            let (x, y) = c.point(x, y)?;
            c.op(Op::AddBead(s, (x, y)))
        },
    );
    r.op2("remove_bead", |c: &mut Ctx, x: i64, y: i64| -> Res<()> {
        let (x, y) = c.point(x, y)?;
        c.op(Op::RemoveBead((x, y)))
    });
    r.op2("add_store", |c: &mut Ctx, s: i64, n: i64| -> Res<()> {
        let s = c.seat_index(s)?;
        let n = amount(n)?;
        c.op(Op::AddStore(s, n))
    });
    r.op2("add_supply", |c: &mut Ctx, s: i64, n: i64| -> Res<()> {
        let s = c.seat_index(s)?;
        let n = amount(n)?;
        c.op(Op::AddSupply(s, n))
    });
    r.op2("add_nutrient", |c: &mut Ctx, x: i64, y: i64| -> Res<()> {
        let (x, y) = c.point(x, y)?;
        c.op(Op::AddNutrient((x, y)))
    });
    r.op0("rain", |c: &mut Ctx| c.op(Op::Rain));
    r.op0("end_turn", |c: &mut Ctx| c.op(Op::EndTurn));
    r.op0("end_game", |c: &mut Ctx| c.op(Op::EndGame));
    r.op0("reroll", |c: &mut Ctx| -> Res<()> {
        if c.hook != "roll" {
            return refuse("reroll() is for hook `roll`".into());
        }
        c.reroll = true;
        Ok(())
    });
    r.op1("set_face", |c: &mut Ctx, f: i64| -> Res<()> {
        if c.hook != "roll" {
            return refuse("set_face() is for hook `roll`".into());
        }
        if !(1..=c.die).contains(&f) {
            return refuse(format!("a d{} has no face {f}", c.die));
        }
        c.new_face = Some(f);
        Ok(())
    });
}

/// A script's point, as a point of `state`'s grid.
fn unpack(state: &State, (x, y): Xy) -> Option<Point> {
    state.grid().point(i32::from(x), i32::from(y))
}

/// What happened, for a hook's `ctx` and for a failure's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// `seat` made `action`.
    Action { seat: Seat, action: Action },
    /// A die showed `face`.
    Roll {
        die: Die,
        kind: &'static str,
        face: u8,
    },
    /// A nutrient of `value` at `point` was scored; `shares[s]` went to
    /// seat `s`; `on_top` marked it.
    Scored {
        point: Point,
        value: u8,
        shares: [u32; 8],
        on_top: Option<Seat>,
    },
    /// The game is over.
    Over,
}

thread_local! {
    /// The `ctx` of the last filter run on this thread, kept for the next
    /// decision (a filter reads the state through `&`, so its session
    /// cannot keep it).
    static FILTER_CTX: Cell<Option<Box<Ctx>>> = const { Cell::new(None) };
}

/// The scripts of one game and what they keep: what every game keeps
/// ([`Session`]), and what only Roots and Shoots does.
#[derive(Clone)]
pub(crate) struct Scripted {
    pub session: Session,
    /// Nutrients scored since the hooks last ran.
    pub scored: Vec<Event>,
    /// Rolls thrown again in a row.
    pub rerolls: u32,
    /// For each hook, the groups of `ctx`'s words its scripts name
    /// (`READS_*`): the board's points, the seats' counts (score, store,
    /// supply, beads on the board, beads removed), the rest of the
    /// position, the point, the growth action, the shares, what happened,
    /// the seat, the die, the value. A part no script of the hook names
    /// is not written into its `ctx`.
    pub reads: [u16; HOOKS.len()],
    /// A `ctx` kept from run to run and written afresh for each
    /// ([`State::fill`]): a run neither makes nor drops one.
    spare: Option<Box<Ctx>>,
    /// Each hook's scripts with their closures for [`Ctx`], the
    /// program's table ([`Program::hooked`]).
    hooked: Arc<Hooked<Ctx>>,
    /// A bit a hook: whether its scripts may use the memory
    /// ([`Program::lends`]).
    lends: u8,
    /// A bit a hook: whether it has scripts.
    has: u8,
}

impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripted")
            .field("session", &self.session)
            .field("rerolls", &self.rerolls)
            .finish_non_exhaustive()
    }
}

impl PartialEq for Scripted {
    fn eq(&self, other: &Scripted) -> bool {
        self.session == other.session && self.rerolls == other.rerolls
    }
}

/// Most rolls thrown again in a row before the rule counts as broken.
pub const MAX_REROLLS: u32 = 100;
/// Most script runs of one step (scored nutrients included).
pub const MAX_RUNS_PER_STEP: usize = 1000;

impl Scripted {
    pub fn new(program: Arc<Program>) -> Scripted {
        // Worked out once for the program, not for each game.
        program.read_groups(&[
            BOARD_WORDS,
            PLAYER_WORDS,
            VIEW_WORDS,
            XY_WORDS,
            GROWTH_WORDS,
            SHARE_WORDS,
            KIND_WORDS,
            SEAT_WORDS,
            ROLL_WORDS,
            VALUE_WORDS,
            HOOK_WORDS,
        ]);
        Scripted {
            scored: Vec::new(),
            rerolls: 0,
            reads: std::array::from_fn(|h| {
                (0..GROUPS).fold(0, |m, g| m | u16::from(program.reads(h, g)) << g)
                    | if program.lends(h) { READS_LEND } else { 0 }
            }),
            spare: Some(Box::default()),
            hooked: program.hooked(),
            lends: (0..HOOKS.len()).fold(0, |m, h| m | u8::from(program.lends(h)) << h),
            has: (0..HOOKS.len()).fold(0, |m, h| m | u8::from(!program.at(h).is_empty()) << h),
            session: Session::new(program),
        }
    }

    /// Run `step` on `c`, with the game's memory lent to it when its hook
    /// lends it (`lend`: [`Scripted::lends_at`]).
    #[inline(always)]
    fn effect(&mut self, step: &Step<Ctx>, c: &mut Ctx, lend: bool) -> Result<(), Box<Failure>> {
        if lend {
            self.exec_lending(step, c)
        } else {
            self.session.program.effect(step, c)
        }
    }

    /// Whether the scripts of `hook` may use the memory.
    #[inline(always)]
    fn lends_at(&self, hook: usize) -> bool {
        self.lends >> hook & 1 != 0
    }

    /// Whether `hook` has scripts.
    #[inline(always)]
    fn has(&self, hook: usize) -> bool {
        self.has >> hook & 1 != 0
    }

    /// Run `step` on `c` with the game's memory lent to it.
    #[inline(never)]
    fn exec_lending(&mut self, step: &Step<Ctx>, c: &mut Ctx) -> Result<(), Box<Failure>> {
        c.memory = std::mem::take(&mut self.session.memory);
        let ran = self.session.program.effect(step, c);
        self.session.memory = std::mem::take(&mut c.memory);
        ran
    }
}

impl State {
    /// Write into `v`, every field, the position as a script of a hook
    /// reads it (`reads`: its groups, with [`READS_VIEW`]); with the
    /// board's points when `board` (else `None`), and the seats' counts
    /// when a script of the hook may read them (else `None`).
    #[inline(never)]
    fn fill_view(&self, v: &mut View, board: Option<&Arc<Board>>, reads: u16) {
        let reads_players = reads & READS_PLAYERS != 0;
        v.players = reads_players.then(|| {
            let mut players = [[0i64; 5]; MAX_SEATS];
            for (out, p) in players.iter_mut().zip(&self.players) {
                *out = [
                    i64::from(p.score),
                    i64::from(p.store),
                    i64::from(p.supply),
                    i64::from(p.on_board()),
                    i64::from(p.removed),
                ];
            }
            Arc::new(players)
        });
        v.size = i64::from(self.grid().size());
        v.seats = i64::from(self.seats);
        v.board = board.cloned();
        v.pile = i64::from(self.nutrient_supply);
        v.round = i64::from(self.round);
        v.turn = i64::from(self.seat) + 1;
        v.first_turn = self.in_first_turn();
        v.over = self.phase == Phase::Over;
    }

    /// The board's points as a script reads them, when a script of a
    /// hook (of groups `reads`) may read them.
    #[inline(always)]
    fn board_for(&self, reads: u16) -> Option<Arc<Board>> {
        if self.script.is_none() || reads & READS_BOARD == 0 {
            return None;
        }
        Some(self.board_points())
    }

    /// The board's points as a script reads them.
    #[inline(never)]
    fn board_points(&self) -> Arc<Board> {
        let g = self.grid();
        let n = usize::from(g.size());
        let mut beads = vec![0u8; n * n];
        let mut nuts = vec![0u8; n * n];
        for p in g.all() {
            let (x, y) = g.xy(p);
            let i = usize::from(y) * n + usize::from(x);
            beads[i] = self.bead(p).map_or(0, |s| s + 1);
            nuts[i] = self.nutrients_at(p);
        }
        Arc::new(Board { beads, nuts })
    }

    /// Write the `ctx` of `event` at `hook` into `c`, every field its
    /// scripts (of groups `reads`) may read (the board's points made
    /// afresh if read), no memory (the caller lends it) and no operations
    /// asked for: a kept `ctx` reads as a new one. (What hook `roll`
    /// asks for, `reroll` and `new_face`, no script reads: its loop
    /// resets them before each run.)
    #[inline(always)]
    fn fill(&self, c: &mut Ctx, hook: usize, event: &Event, reads: u16) {
        if reads & READS_VIEW != 0 {
            self.fill_position(&mut c.view, reads);
        }
        // The kept `ctx` holds the memory only while a run borrows it
        // (`Scripted::exec_lending` gives it back, failed or not).
        debug_assert!(c.memory.is_empty());
        c.ops.clear();
        if reads & READS_EVENT != 0 {
            // The hook's name, read only by scripts that name it or an
            // operation (`HOOK_WORDS`, one of the moment's groups).
            c.hook = HOOKS[hook].name;
            return self.describe_all(c, event, reads);
        }
        self.describe(c, event, reads);
    }

    /// [`State::fill_view`] with the board's points made afresh if read.
    #[inline(never)]
    fn fill_position(&self, v: &mut View, reads: u16) {
        let board = self.board_for(reads);
        self.fill_view(v, board.as_ref(), reads);
    }

    /// Keep `c` for the next step, in the slot it was taken from (empty:
    /// nothing to drop there).
    #[inline(always)]
    fn keep_ctx(&mut self, c: Box<Ctx>) {
        if let Some(s) = self.script.as_deref_mut()
            && s.spare.is_none()
        {
            s.spare = Some(c);
        }
    }

    /// Write `event` into `c` as the scripts of a hook (of groups `reads`)
    /// read it: every field of the moment they may read, reset first (a
    /// filter's `ctx` is reused for every move of a decision). A hook
    /// whose scripts read only the seat has only the seat written.
    #[inline(always)]
    fn describe(&self, c: &mut Ctx, event: &Event, reads: u16) {
        if reads & READS_EVENT != 0 {
            return self.describe_all(c, event, reads);
        }
        if reads & READS_SEAT != 0 {
            c.seat = match *event {
                Event::Action { seat, .. } => i64::from(seat) + 1,
                Event::Roll { .. } => i64::from(self.seat) + 1,
                Event::Scored { .. } | Event::Over => 0,
            };
        }
    }

    /// [`State::describe`] of a hook whose scripts read more than the
    /// seat: every field of the moment (the point, the growth action and
    /// the shares only when a script of the hook names them).
    #[inline(never)]
    fn describe_all(&self, c: &mut Ctx, event: &Event, reads: u16) {
        (c.kind, c.growth) = ("", "");
        (c.seat, c.x, c.y) = (0, -1, -1);
        (c.die, c.face, c.value, c.on_top) = (0, 0, 0, 0);
        if reads & READS_SHARES != 0 {
            c.shares = [0; 8];
        }
        let g = self.grid();
        let xy = |p: Point| {
            if reads & READS_XY == 0 {
                return (-1, -1);
            }
            let (x, y) = g.xy(p);
            (i64::from(x), i64::from(y))
        };
        match *event {
            Event::Action { seat, action } => {
                c.seat = i64::from(seat) + 1;
                let (kind, at) = match action {
                    Action::Place(p) => ("place", Some(p)),
                    Action::Spawn(p) => ("spawn", Some(p)),
                    Action::Lose(p) => ("lose", Some(p)),
                    Action::Pass => ("pass", None),
                    Action::Grow(a) => {
                        c.growth = a.key();
                        ("grow", None)
                    }
                };
                c.kind = kind;
                if let Some(p) = at {
                    (c.x, c.y) = xy(p);
                }
                if reads & READS_GROWTH != 0
                    && let Phase::Place { action, .. } | Phase::RollGrowth(action) = self.phase
                    && c.growth.is_empty()
                {
                    c.growth = action.key();
                }
            }
            Event::Roll { die, kind, face } => {
                c.seat = i64::from(self.seat) + 1;
                c.kind = kind;
                c.die = i64::from(die.sides());
                c.face = i64::from(face);
            }
            Event::Scored {
                point,
                value,
                shares,
                on_top,
            } => {
                c.kind = "scored";
                (c.x, c.y) = xy(point);
                c.value = i64::from(value);
                c.on_top = on_top.map_or(0, |s| i64::from(s) + 1);
                if reads & READS_SHARES != 0 {
                    for (out, s) in c.shares.iter_mut().zip(shares) {
                        *out = i64::from(s);
                    }
                }
            }
            Event::Over => c.kind = "over",
        }
    }

    /// An event in words, for a failure's message.
    fn event_words(&self, event: &Event) -> String {
        let g = self.grid();
        let when = if self.in_first_turn() {
            "in the first turn".to_owned()
        } else {
            format!("in round {}", self.round)
        };
        match *event {
            Event::Action { seat, action } => {
                format!("seat {}'s move `{}` {when}", seat + 1, action.to_text(g))
            }
            Event::Roll { die, kind, face } => {
                format!("a {die} roll of {face} ({}) {when}", kind.replace('_', " "))
            }
            Event::Scored { point, value, .. } => {
                format!("the nutrient at {} scored {value} {when}", g.name(point))
            }
            Event::Over => "the end of the game".to_owned(),
        }
    }

    /// End the game with a failed script.
    fn fail(&mut self, failure: &str, event: &Event) {
        let message = format!("{failure}; event: {}", self.event_words(event));
        self.end_with_failure(message);
    }

    fn end_with_failure(&mut self, message: String) {
        self.tasks.clear();
        self.lose.clear();
        self.clear_turn();
        self.phase = Phase::Over;
        self.ended = Some(EndReason::ScriptError);
        self.set_node(Next::Over);
        if let Some(sc) = self.script.as_deref_mut() {
            sc.session.notes.push(format!("the game stops: {message}"));
            sc.session.failure = Some(message);
            sc.session.final_done = true;
        }
    }

    /// The kind of roll the chance node waits for.
    fn roll_kind(&self) -> &'static str {
        if let Some(Task::RollValue { .. }) = self.tasks.last() {
            return "value";
        }
        match self.phase {
            Phase::RollGrowth(_) => "growth",
            Phase::SpawnCheck => "spawn_check",
            Phase::Spawn { .. } => "coordinate",
            _ => "roll",
        }
    }

    /// The start of a step of a game with scripts: a failure a filter
    /// left ends the game now (`false`: the step is not played), else the
    /// narration's notes of the last step are cleared. One look into the
    /// scripts for both.
    #[inline(always)]
    fn begin_step(&mut self) -> bool {
        let Some(sc) = self.script.as_deref_mut() else {
            return true;
        };
        if let Some(message) = sc.session.pending.take() {
            self.end_with_failure(message);
            return false;
        }
        sc.session.notes.clear();
        true
    }

    /// `play_unchecked` of a game with scripts.
    #[cold]
    #[inline(never)]
    pub(crate) fn play_scripted(&mut self, action: Action) {
        if !self.begin_step() {
            return;
        }
        let seat = match self.next() {
            Next::Decide(s) => s,
            _ => self.seat,
        };
        self.apply_action_and_advance(action);
        self.after_step(AFTER_ACTION, Event::Action { seat, action });
    }

    /// `roll_unchecked` of a game with scripts.
    #[cold]
    #[inline(never)]
    pub(crate) fn roll_scripted(&mut self, face: u8) {
        if !self.begin_step() {
            return;
        }
        let Some(sc) = self.script.as_deref_mut() else {
            return;
        };
        let hooked = Arc::clone(&sc.hooked);
        let reads = sc.reads[ROLL];
        let lend = reads & READS_LEND != 0;
        // One `ctx` for the step: the roll's scripts, then the hooks after
        // the roll (`State::step_hooks`).
        let mut c = sc.spare.take().unwrap_or_default();
        let die = match self.next() {
            Next::Chance(d) => d,
            _ => Die::D12,
        };
        let kind = self.roll_kind();
        let mut face = face;
        // One event for the step: the face rolled for hook `roll` (and
        // its failures), the face that counts for the hooks after it.
        let mut event = Event::Roll { die, kind, face };
        if !hooked.at(ROLL).is_empty() {
            // The roll's scripts change nothing but the face (no
            // operation is allowed at this hook).
            self.fill(&mut c, ROLL, &event, reads);
            for step in hooked.at(ROLL) {
                let i = step.i;
                c.face = i64::from(face);
                c.reroll = false;
                c.new_face = None;
                if let Err(f) = self.run_script(step, &mut c, lend) {
                    return self.fail(&f.to_string(), &event);
                }
                if c.reroll || c.new_face.is_some() {
                    let sc = self.script.as_deref_mut().expect("scripted");
                    if c.reroll {
                        sc.session.fired[i] += 1;
                        sc.rerolls += 1;
                        let note = format!(
                            "house rule `{}`: the {die} is rolled again",
                            sc.session.program.name(i)
                        );
                        sc.session.notes.push(note);
                        if sc.rerolls > MAX_REROLLS {
                            let f = sc.session.program.refused(
                                i,
                                format!("it asked for the die to be rolled again {MAX_REROLLS} times in a row"),
                            );
                            return self.fail(&f.to_string(), &event);
                        }
                        // The node is unchanged: the die is rolled again.
                        sc.spare = Some(c);
                        return;
                    }
                    if let Some(f) = c.new_face {
                        if f != i64::from(face) {
                            sc.session.fired[i] += 1;
                            let note = format!(
                                "house rule `{}`: the {die} counts as {f}, not {face}",
                                sc.session.program.name(i)
                            );
                            sc.session.notes.push(note);
                        }
                        face = f as u8;
                    }
                }
            }
        }
        if let Some(sc) = self.script.as_deref_mut() {
            sc.rerolls = 0;
        }
        self.apply_roll_and_advance(face);
        let mut runs = 0usize;
        if let Event::Roll { face: counted, .. } = &mut event {
            *counted = face;
        }
        self.step_hooks(&hooked, &mut c, AFTER_ROLL, &event, &mut runs);
        self.keep_ctx(c);
    }

    /// The hooks after a step: each nutrient scored, the step's own hook,
    /// and at the end of the game hook `final`, all on one `ctx` (the
    /// session's kept one, taken once for the step) with one count of
    /// runs; the step's own hook runs here, not through a call.
    #[inline(never)]
    fn after_step(&mut self, hook: usize, event: Event) {
        let Some(sc) = self.script.as_deref_mut() else {
            return;
        };
        let hooked = Arc::clone(&sc.hooked);
        let mut c = sc.spare.take().unwrap_or_default();
        let mut runs = 0usize;
        self.step_hooks(&hooked, &mut c, hook, &event, &mut runs);
        self.keep_ctx(c);
    }

    /// [`State::after_step`] on the step's `ctx` `c`.
    #[inline(always)]
    fn step_hooks(
        &mut self,
        hooked: &Hooked<Ctx>,
        c: &mut Ctx,
        hook: usize,
        event: &Event,
        runs: &mut usize,
    ) {
        if self.scored_waiting() && !self.drain_scored(hooked, c, runs) {
            return;
        }
        if !hooked.at(hook).is_empty() {
            if !self.run_hook(hooked, c, hook, event, runs) {
                return;
            }
            if self.scored_waiting() && !self.drain_scored(hooked, c, runs) {
                return;
            }
        }
        if self.next() == Next::Over
            && let Some(sc) = self.script.as_deref_mut()
            && !sc.session.final_done
        {
            sc.session.final_done = true;
            self.run_hook_apart(hooked, c, FINAL, &Event::Over, runs);
        }
    }

    /// Whether a nutrient was scored since hook `scored` last ran.
    #[inline(always)]
    fn scored_waiting(&self) -> bool {
        self.script
            .as_deref()
            .is_some_and(|sc| !sc.scored.is_empty())
    }

    /// Hook `scored` for every nutrient scored since it last ran (scripts
    /// that make it rain may score more); called when one was.
    #[inline(never)]
    fn drain_scored(&mut self, hooked: &Hooked<Ctx>, c: &mut Ctx, runs: &mut usize) -> bool {
        loop {
            let Some(sc) = self.script.as_deref_mut() else {
                return false;
            };
            if sc.scored.is_empty() {
                return true;
            }
            let events = std::mem::take(&mut sc.scored);
            if hooked.at(SCORED).is_empty() {
                return true;
            }
            for e in &events {
                if !self.run_hook(hooked, c, SCORED, e, runs) {
                    return false;
                }
            }
        }
    }

    /// [`State::run_hook`], called (hook `final`).
    #[inline(never)]
    fn run_hook_apart(
        &mut self,
        hooked: &Hooked<Ctx>,
        c: &mut Ctx,
        hook: usize,
        event: &Event,
        runs: &mut usize,
    ) -> bool {
        self.run_hook(hooked, c, hook, event, runs)
    }

    /// Run every script of `hook` on `event` in `c` (the step's `ctx`),
    /// applying what each asks for; `false` when one failed (the game is
    /// then over). Each script's closures come from the game's [`Hooked`]
    /// table: a run is a call of its closure.
    #[inline(always)]
    fn run_hook(
        &mut self,
        hooked: &Hooked<Ctx>,
        c: &mut Ctx,
        hook: usize,
        event: &Event,
        runs: &mut usize,
    ) -> bool {
        let Some(sc) = self.script.as_deref() else {
            return false;
        };
        let reads = sc.reads[hook];
        let lend = reads & READS_LEND != 0;
        // `c` is written when a script first needs it and again after
        // each script that changed the game: a script changes nothing of
        // it but what it asks for and the memory, both taken back after it.
        let mut written = false;
        for step in hooked.at(hook) {
            *runs += 1;
            if *runs > MAX_RUNS_PER_STEP {
                return self.too_many_runs(step.i, event);
            }
            if !written {
                self.fill(c, hook, event, reads);
                written = true;
            }
            if let Err(f) = self.run_script(step, c, lend) {
                return self.failed(&f, event);
            }
            if !c.ops.is_empty() {
                if !self.apply_asked(step.i, &c.ops, event) {
                    return false;
                }
                written = false;
            }
        }
        true
    }

    /// Run `step` on `c`: its closure called here when it has one and
    /// the hook lends no memory (`lend`), else the longer way.
    #[inline(always)]
    fn run_script(
        &mut self,
        step: &Step<Ctx>,
        c: &mut Ctx,
        lend: bool,
    ) -> Result<(), Box<Failure>> {
        match step.fast() {
            Some(f) if !lend => match f.run_effect(c) {
                Ok(()) => Ok(()),
                Err(flow) => self.effect_stopped(step.i, flow, c),
            },
            _ => self.run_apart(step, c, lend),
        }
    }

    /// [`State::run_script`] of a script without closures, or of a hook
    /// that lends the memory.
    #[inline(never)]
    fn run_apart(&mut self, step: &Step<Ctx>, c: &mut Ctx, lend: bool) -> Result<(), Box<Failure>> {
        match self.script.as_deref_mut() {
            Some(sc) => sc.effect(step, c, lend),
            None => Ok(()),
        }
    }

    /// What a run of script `i` by its closure that stopped (`flow`)
    /// comes to: a failure, or Rhai's run of it.
    // The box is opened here, out of line: the loop that calls this
    // hands on one word (opened there, it cost the do-nothing game 2,360
    // instructions more).
    #[allow(clippy::boxed_local)]
    #[cold]
    #[inline(never)]
    fn effect_stopped(
        &self,
        i: usize,
        flow: Box<fast::Flow>,
        c: &mut Ctx,
    ) -> Result<(), Box<Failure>> {
        match self.script.as_deref() {
            Some(sc) => sc.session.program.effect_stopped(i, *flow, c),
            None => Ok(()),
        }
    }

    /// End the game with failure `f` at `event`: `false`.
    #[cold]
    #[inline(never)]
    fn failed(&mut self, f: &Failure, event: &Event) -> bool {
        self.fail(&f.to_string(), event);
        false
    }

    /// End the game: the house rules ran too often in one step (script
    /// `i` was next).
    #[cold]
    #[inline(never)]
    fn too_many_runs(&mut self, i: usize, event: &Event) -> bool {
        let Some(sc) = self.script.as_deref() else {
            return false;
        };
        let f = sc.session.program.refused(
            i,
            format!("the house rules ran more than {MAX_RUNS_PER_STEP} times in one step (do they set each other off?)"),
        );
        self.fail(&f.to_string(), event);
        false
    }

    /// Apply what script `i` asked for (`ops`), and check the game's
    /// invariants; `false` when refused or broken (the game is then over).
    #[inline(never)]
    fn apply_asked(&mut self, i: usize, ops: &[Op], event: &Event) -> bool {
        let Some(sc) = self.script.as_deref_mut() else {
            return false;
        };
        sc.session.fired[i] += 1;
        let program = Arc::clone(&sc.session.program);
        if let Err(why) = self.apply_ops(program.name(i), ops) {
            let f: Failure = program.refused(i, why);
            self.fail(&f.to_string(), event);
            return false;
        }
        if let Err(broken) = self.check_after_ops(ops) {
            let f = program.refused(
                i,
                format!("what it did broke a rule of the game ({broken})"),
            );
            self.fail(&f.to_string(), event);
            return false;
        }
        true
    }

    /// The game's invariants after a script's operations `ops` (applied):
    /// all of them, except that after a run that asked only for
    /// `add_score` (a score rule's one operation) release builds check
    /// what such a change can break, not the recount of the board (a
    /// third of the cost of a game of `edge-double`).
    /// [`State::apply_op`] changes a seat's score and the rules' part of
    /// the scores together and refuses a score past a million; it writes
    /// nothing of the board, the beads, the stores, the supplies or the
    /// nutrients. The game's own step after it ([`State::advance`]) reads
    /// no score (only the leader's count and the outcome do), so it moves
    /// as it does in a game without scripts, which release builds never
    /// check. What is checked: the scores add up, with each seat's beads
    /// and the nutrients conserved and the round within its limit
    /// ([`State::check_counts`], no look at the board). Debug builds and
    /// the tests check every invariant after every change.
    fn check_after_ops(&self, ops: &[Op]) -> Result<(), String> {
        if cfg!(debug_assertions) || !ops.iter().all(|op| matches!(op, Op::AddScore(..))) {
            return self.check_invariants();
        }
        self.check_counts()
    }

    /// Apply a script's operations, each checked, then let the game run
    /// what they set off.
    fn apply_ops(&mut self, name: &str, ops: &[Op]) -> Result<(), String> {
        for (k, op) in ops.iter().enumerate() {
            let note = self
                .apply_op(op)
                .map_err(|why| format!("operation {} refused: {why}", k + 1))?;
            if let Some(sc) = self.script.as_deref_mut() {
                // "house rule `NAME`: NOTE", without the cost of `format!`
                // (a rule that fires often pays it each time).
                let mut line = String::with_capacity(16 + name.len() + note.len());
                line.push_str("house rule `");
                line.push_str(name);
                line.push_str("`: ");
                line.push_str(&note);
                sc.session.notes.push(line);
            }
        }
        self.advance();
        Ok(())
    }

    fn apply_op(&mut self, op: &Op) -> Result<String, String> {
        let over = self.phase == Phase::Over;
        if over && !matches!(op, Op::AddScore(..)) {
            return Err("the game is over: only add_score may change it now".into());
        }
        let g = *self.grid();
        let at = |p: Xy| -> Result<Point, String> {
            unpack(self, p).ok_or_else(|| "a point off the board".to_owned())
        };
        match *op {
            Op::AddScore(s, n) => {
                let seat = usize::from(s);
                let new = i64::from(self.players[seat].score) + n;
                if new.abs() > 1_000_000 {
                    return Err(format!("seat {}'s score would pass a million", s + 1));
                }
                self.players[seat].score = new as i32;
                self.baseline.score += n;
                self.update_leader();
                // "seat 1 scores 2", built without `format!`.
                let mut note = String::with_capacity(20);
                note.push_str("seat ");
                push_num(&mut note, u64::from(s) + 1);
                note.push_str(if n < 0 { " loses " } else { " scores " });
                push_num(&mut note, n.unsigned_abs());
                Ok(note)
            }
            Op::AddBead(s, p) => {
                let p = at(p)?;
                if self.bead(p).is_some() || self.nutrients_at(p) > 0 {
                    return Err(format!("{} is not an empty point", g.name(p)));
                }
                if self.players[usize::from(s)].store == 0 {
                    return Err(format!("seat {}'s store is empty", s + 1));
                }
                self.put_bead(s, p, false);
                Ok(format!("a bead of seat {} is put at {}", s + 1, g.name(p)))
            }
            Op::RemoveBead(p) => {
                let p = at(p)?;
                let Some(owner) = self.bead(p) else {
                    return Err(format!("there is no bead at {}", g.name(p)));
                };
                self.tasks.push(Task::Remove { point: p, owner });
                Ok(format!("the bead at {} is taken off", g.name(p)))
            }
            Op::AddStore(s, n) | Op::AddSupply(s, n) => {
                let store = matches!(op, Op::AddStore(..));
                let seat = usize::from(s);
                let player = &self.players[seat];
                let old = if store { player.store } else { player.supply };
                let new = i64::from(old) + n;
                if !(0..=10_000).contains(&new) {
                    return Err(format!(
                        "seat {}'s {} would be {new}",
                        s + 1,
                        if store { "store" } else { "supply" }
                    ));
                }
                let total = i64::from(self.baseline.beads[seat]) + n;
                if total < 0 {
                    return Err(format!("seat {} has too few beads", s + 1));
                }
                let player = &mut self.players[seat];
                if store {
                    player.store = new as u32;
                } else {
                    player.supply = new as u32;
                }
                self.baseline.beads[seat] = total as u32;
                Ok(format!(
                    "seat {}'s {} {} {}",
                    s + 1,
                    if store { "store" } else { "supply" },
                    if n < 0 { "loses" } else { "gains" },
                    crate::core::count(n.unsigned_abs(), "bead", "beads")
                ))
            }
            Op::AddNutrient(p) => {
                let p = at(p)?;
                if self.bead(p).is_some() {
                    return Err(format!("{} holds a bead", g.name(p)));
                }
                if self.nutrient_supply == 0 {
                    return Err("the nutrient pile is empty".into());
                }
                let id = self.add_nutrient(p);
                self.stats.spawns += 1;
                if self.rules().nutrients.value_rolled == ValueRolled::OnSpawn {
                    self.tasks.push(Task::RollValue { id, scoring: false });
                }
                Ok(format!("a nutrient is put at {}", g.name(p)))
            }
            Op::Rain => {
                self.tasks.push(Task::Rain { last: false });
                Ok("it rains".into())
            }
            Op::EndTurn => {
                let can = self.tasks.is_empty()
                    && matches!(
                        self.phase,
                        Phase::ChooseGrowth
                            | Phase::RollGrowth(_)
                            | Phase::Place { .. }
                            | Phase::SpawnCheck
                            | Phase::Spawn { first: false, .. }
                    );
                if !can {
                    return Err("the turn cannot end here (the first turn, or something is still to be rolled or chosen)".into());
                }
                self.phase = Phase::TurnEnd;
                Ok("the turn ends".into())
            }
            Op::EndGame => {
                self.tasks.clear();
                self.lose.clear();
                self.clear_turn();
                self.finish(EndReason::Script);
                Ok("the game ends".into())
            }
        }
    }

    /// Whether a house rule may forbid moves (a script on hook `legal`):
    /// a bot that lists moves its own way must then list them through
    /// `legal_actions`.
    pub(crate) fn filters_moves(&self) -> bool {
        self.script
            .as_deref()
            .is_some_and(|sc| !sc.session.program.at(LEGAL).is_empty())
    }

    /// Whether the house rules allow `action` now (hook `legal`); a
    /// script that fails is noted, and ends the game at its next step.
    pub(crate) fn scripts_allow(&self, action: Action) -> bool {
        self.with_filter_ctx(|c, reads| self.allowed_in(c, action, reads))
            .unwrap_or(true)
    }

    /// `f` on the `ctx` the filter (hook `legal`) of this decision reads
    /// and its groups of words, written once for all its moves (a `ctx`
    /// kept on the thread from the last decision, written afresh): the
    /// position (the board's points if read), the memory lent as a copy
    /// (a filter changes nothing). `None` without a filter, or away from
    /// a decision.
    fn with_filter_ctx<R>(&self, f: impl FnOnce(&mut Ctx, u16) -> R) -> Option<R> {
        let sc = self.script.as_deref()?;
        if !sc.has(LEGAL) || !matches!(self.next(), Next::Decide(_)) {
            return None;
        }
        let reads = sc.reads[LEGAL];
        // Taken from the thread (none there: a run within a run, or the
        // first): given back after.
        let mut c = FILTER_CTX
            .try_with(Cell::take)
            .ok()
            .flatten()
            .unwrap_or_default();
        if reads & READS_VIEW != 0 {
            self.fill_position(&mut c.view, reads);
        }
        c.hook = HOOKS[LEGAL].name;
        // What a run may ask for (`ops`, `reroll`, `new_face`) stays
        // empty in a filter's `ctx`: every operation is refused at hook
        // `legal`, so it is not reset here.
        if sc.lends_at(LEGAL) {
            c.memory.clone_from(&sc.session.memory);
        } else {
            c.memory.clear();
        }
        let out = f(&mut c, reads);
        let _ = FILTER_CTX.try_with(|k| k.set(Some(c)));
        Some(out)
    }

    /// Whether the filter allows `action`, in the decision's `ctx` `c`
    /// (of groups `reads`).
    #[inline(always)]
    fn allowed_in(&self, c: &mut Ctx, action: Action, reads: u16) -> bool {
        let (Some(sc), Next::Decide(seat)) = (self.script.as_deref(), self.next()) else {
            return true;
        };
        let program = &sc.session.program;
        let event = Event::Action { seat, action };
        self.describe(c, &event, reads);
        for step in sc.hooked.at(LEGAL) {
            if !program.filter(step, c, &sc.session.pending, || self.event_words(&event)) {
                return false;
            }
        }
        true
    }

    /// The name of the first house rule that forbids `action`, if any.
    pub(crate) fn forbidding_script(&self, action: Action) -> Option<String> {
        if self.scripts_allow(action) {
            return None;
        }
        Some(filter_names(&self.script.as_deref()?.session))
    }

    /// Keep in `out` the moves the house rules allow; when they forbid
    /// every one, the game cannot go on: the failure is noted (the game
    /// ends at its next step) and the list is left whole.
    #[cold]
    #[inline(never)]
    pub(crate) fn filter_legal(&self, out: &mut Vec<Action>) {
        if out.is_empty() {
            return;
        }
        let Some(sc) = self.script.as_deref() else {
            return;
        };
        let Some(kept) = self.with_filter_ctx(|c, reads| {
            out.iter()
                .copied()
                .filter(|&a| self.allowed_in(c, a, reads))
                .collect::<Vec<Action>>()
        }) else {
            return;
        };
        if kept.is_empty() {
            let _ = sc.session.pending.set(format!(
                "house rule `{}` (hook `legal`) failed: it forbids every legal move; event: seat {}'s decision {}",
                filter_names(&sc.session),
                self.seat + 1,
                if self.in_first_turn() { "in the first turn".to_owned() } else { format!("in round {}", self.round) }
            ));
            return;
        }
        *out = kept;
    }

    /// A random move the house rules allow: the move of the fast path if
    /// allowed, else moves of the plain list drawn one by one without
    /// replacement until one is allowed (as uniform over the allowed moves
    /// as drawing from the filtered list, with the filter run only on the
    /// moves drawn).
    #[cold]
    #[inline(never)]
    pub(crate) fn random_allowed(
        &self,
        first: Action,
        dice: &mut crate::core::dice::SeededDice,
    ) -> Action {
        self.with_filter_ctx(|c, reads| {
            if self.allowed_in(c, first, reads) {
                return first;
            }
            let mut list = Vec::new();
            self.legal_plain(&mut list);
            while !list.is_empty() {
                let a = list.swap_remove(dice.below(list.len() as u32) as usize);
                if self.allowed_in(c, a, reads) {
                    return a;
                }
            }
            // Every move forbidden: the filter notes the failure, and the
            // game ends with it at its next step.
            self.legal_actions(&mut list);
            first
        })
        .unwrap_or(first)
    }

    /// Whether a house rule's filter failed, or forbade every move: the
    /// game ends with that at its next step.
    pub(crate) fn script_pending(&self) -> bool {
        self.script
            .as_deref()
            .is_some_and(|s| s.session.pending.get().is_some())
    }
}

impl HouseRules for State {
    fn session(&self) -> Option<&Session> {
        self.script.as_deref().map(|s| &s.session)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ctx.hook` is written only for a hook whose scripts name a word of
    /// [`HOOK_WORDS`]; an operation missing from it would be judged at
    /// another hook's name.
    #[test]
    fn every_operation_reads_the_hook() {
        let mut engine = rhai::Engine::new();
        let mut natives = crate::script::fast::Natives::default();
        (API.register)(&mut crate::script::fast::Reg {
            engine: &mut engine,
            natives: &mut natives,
        });
        let mut ops: Vec<&str> = natives.operations().collect();
        ops.sort_unstable();
        ops.dedup();
        assert!(ops.len() >= 10, "{ops:?}");
        for op in ops {
            assert!(HOOK_WORDS.contains(&op), "`{op}` is not in HOOK_WORDS");
        }
    }
}
