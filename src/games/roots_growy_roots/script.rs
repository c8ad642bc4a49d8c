//! House rules as scripts in Roots Growy Roots: the hook points, the
//! `ctx` a script sees, and the operations it may ask for, each applied
//! through the engine's own checked moves (`docs/scripts.md`). The steps
//! every such game shares are in [`crate::script::session`].
//!
//! A grow or bridge onto a face-down card waits for the card: its
//! `after_action` runs once the card is turned over and played out, so a
//! script sees what the move found (`ctx.card`).

use std::sync::Arc;

use rhai::ImmutableString;

use super::state::{
    Action, DRIED, EARTH, EndReason, FERTILIZER, FIRST_ARTIFACT, HIDDEN, RUBBLE, SEED, STONE,
    State, WATER,
};
use crate::core::protocol::{GameState, Next, Seat};
use crate::script::fast::Reg;
use crate::script::session::{self, Ctx as Common, Host, HouseRules, Op, Res, Session, refuse};
use crate::script::{Api, Hook};

/// The hook points of Roots Growy Roots (numbered as [`session::LEGAL`],
/// [`session::AFTER_ACTION`], [`session::FINAL`]).
pub const HOOKS: &[Hook] = &session::hooks(
    "before a seat decides, once per legal action (ctx.kind: grow, bridge, jump, end, skry, deny, destroy or dry; ctx.x, ctx.y the cell it reaches, ctx.from_x, ctx.from_y); evaluates to false to forbid it; no operations",
    "after an action and the card it turned over were played out (the same fields, and ctx.card: what lies on the cell reached); any operation: add_score, add_sticks, end_turn, end_game",
);

/// What Roots Growy Roots offers scripts.
pub static API: Api = Api {
    hooks: HOOKS,
    register,
};

/// The operations of this game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RgrOp {
    /// Give (or take) sticks to the seat to move, for this turn.
    AddSticks(i64),
}

/// The position a script reads.
#[derive(Clone, Debug, Default)]
pub struct View {
    rows: i64,
    columns: i64,
    from_x: i64,
    from_y: i64,
    card: &'static str,
    sticks: i64,
    waters: [i64; 4],
    /// Each cell's card and connector (seat from 1, 0 for none), row by
    /// row, when a script of the hook may read them.
    board: Option<Arc<[(u8, u8)]>>,
}

/// The `ctx` of a Roots Growy Roots script.
pub type Ctx = Common<View, RgrOp>;

/// The groups of words of a script that read the parts of `ctx` made
/// only when read ([`crate::script::Program::read_groups`]): the cells,
/// the scores, the waters.
const READS: &[&[&str]] = &[&["card_at", "owner"], &["score"], &["waters"]];
const BOARD: usize = 0;
const SCORES: usize = 1;
const WATERS: usize = 2;

/// A card's name, as scripts read it.
fn card_name(face: u8) -> &'static str {
    match face {
        HIDDEN => "hidden",
        EARTH => "earth",
        FERTILIZER => "fertilizer",
        WATER => "water",
        STONE => "stone",
        SEED => "seed",
        RUBBLE => "rubble",
        DRIED => "dried",
        f if f >= FIRST_ARTIFACT => "artifact",
        _ => "unknown",
    }
}

impl View {
    fn cell(&self, x: i64, y: i64) -> Res<(u8, u8)> {
        if !(0..self.columns).contains(&x) || !(0..self.rows).contains(&y) {
            return refuse(format!(
                "{x},{y} is off the board (columns 0 to {}, rows 0 to {})",
                self.columns - 1,
                self.rows - 1
            ));
        }
        match &self.board {
            Some(b) => Ok(b[(y * self.columns + x) as usize]),
            None => refuse("the board was not read for this script (a bug of the engine)".into()),
        }
    }
}

fn register(r: &mut Reg) {
    session::register_common::<View, RgrOp>(r);
    r.get("rows", |c: &mut Ctx| c.view.rows);
    r.get("columns", |c: &mut Ctx| c.view.columns);
    r.get("from_x", |c: &mut Ctx| c.view.from_x);
    r.get("from_y", |c: &mut Ctx| c.view.from_y);
    r.get_str("card", |c: &mut Ctx| c.view.card);
    r.get("sticks", |c: &mut Ctx| c.view.sticks);
    r.read1("waters", |c: &mut Ctx, s: i64| -> Res<i64> {
        let q = c.seat_index(s)?;
        Ok(c.view.waters[usize::from(q)])
    });
    r.read2(
        "card_at",
        |c: &mut Ctx, x: i64, y: i64| -> Res<ImmutableString> {
            Ok(card_name(c.view.cell(x, y)?.0).into())
        },
    );
    r.read2("owner", |c: &mut Ctx, x: i64, y: i64| -> Res<i64> {
        Ok(i64::from(c.view.cell(x, y)?.1))
    });
    r.op1("add_sticks", |c: &mut Ctx, n: i64| -> Res<()> {
        let n = session::amount(n)?;
        c.push(Op::Game(RgrOp::AddSticks(n)))
    });
}

/// What happened, for a hook's `ctx` and for a failure's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` made `action` in round `round`.
    Action {
        seat: Seat,
        action: Action,
        round: u16,
    },
    /// The game is over.
    Over,
}

/// The house rules of one game, and the action whose card is still to
/// be turned over (its hook runs then).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scripted {
    pub session: Session,
    pub waiting: Option<Event>,
}

impl State {
    /// This state with the variant's house rules attached (none without
    /// scripts); `Err` when a script does not compile.
    pub fn with_scripts(mut self) -> Result<State, String> {
        let rules = self.rules();
        let program = rules
            .script
            .program(&API)
            .map_err(|e| format!("variant `{}`: {e}", rules.name))?;
        self.script = program.map(|p| {
            p.read_groups(READS);
            Box::new(Scripted {
                session: Session::new(p),
                waiting: None,
            })
        });
        Ok(self)
    }

    /// `play_unchecked` of a game with scripts.
    pub(super) fn play_scripted(&mut self, action: Action) {
        if let Some(event) = session::step(self, action, State::apply_plain) {
            self.hooks_when_settled(event);
        }
    }

    /// A card turned over in a game with scripts.
    #[cold]
    #[inline(never)]
    pub(super) fn roll_scripted(&mut self, face: u8) -> Result<(), crate::core::protocol::Refusal> {
        self.roll_plain(face)?;
        if let Some(event) = self.script.as_deref_mut().and_then(|s| s.waiting.take()) {
            self.hooks_when_settled(event);
        }
        Ok(())
    }

    /// Run the hooks of `event` now if no card is left to turn over for
    /// it, else when the last one is.
    fn hooks_when_settled(&mut self, event: Event) {
        if matches!(self.next(), Next::Draw) {
            if let Some(s) = self.script.as_deref_mut() {
                s.waiting = Some(event);
            }
            return;
        }
        session::after_move(self, event);
    }

    /// The scores with what the house rules added.
    pub(super) fn scripted_scores(&self, mut scores: Vec<i32>) -> Vec<i32> {
        if let Some(s) = self.script.as_deref() {
            for (out, b) in scores.iter_mut().zip(s.session.bonus) {
                *out += b as i32;
            }
        }
        scores
    }
}

impl HouseRules for State {
    fn session(&self) -> Option<&Session> {
        self.script.as_deref().map(|s| &s.session)
    }
}

impl Host for State {
    type View = View;
    type Op = RgrOp;
    type Event = Event;
    const OVER: Event = Event::Over;

    fn session_mut(&mut self) -> Option<&mut Session> {
        self.script.as_deref_mut().map(|s| &mut s.session)
    }

    fn moment(&self, hook: usize, c: &mut Ctx) {
        let geo = self.geo();
        let seats = usize::from(self.seats() as u8);
        let sc = self.script.as_deref();
        let reads = |group: usize| sc.is_none_or(|s| s.session.reads(hook, group));
        if reads(SCORES) {
            c.scores = [0; 8];
            for (o, s) in c.scores.iter_mut().zip(self.scores()) {
                *o = i64::from(s);
            }
        }
        c.view.board = reads(BOARD).then(|| {
            (0..geo.cells() as u16)
                .map(|c| (self.card(c), self.connector(c).map_or(0, |s| s + 1)))
                .collect()
        });
        if reads(WATERS) {
            c.view.waters = [0; 4];
            for (s, w) in c.view.waters.iter_mut().enumerate().take(seats) {
                *w = i64::from(self.waters(s as Seat));
            }
        }
        let over = self.end().is_some();
        c.seats = seats as i64;
        c.turn = if over {
            0
        } else {
            i64::from(self.to_move()) + 1
        };
        c.round = i64::from(self.round());
        c.over = over;
        c.view.rows = i64::from(geo.rows);
        c.view.columns = i64::from(geo.columns);
        (c.view.from_x, c.view.from_y, c.view.card) = (-1, -1, "");
        c.view.sticks = i64::from(self.sticks());
    }

    fn describe(&self, c: &mut Ctx, event: &Event, _hook: usize) {
        (c.view.from_x, c.view.from_y, c.view.card) = (-1, -1, "");
        let cols = u16::from(self.geo().columns);
        let xy = |cell: u16| (i64::from(cell % cols), i64::from(cell / cols));
        match *event {
            Event::Action { seat, action, .. } => {
                c.seat = i64::from(seat) + 1;
                let (kind, from, to) = match action {
                    Action::Grow { from, to } => ("grow", Some(from), Some(to)),
                    Action::Bridge { from, to } => ("bridge", Some(from), Some(to)),
                    Action::Jump { from, to } => ("jump", Some(from), Some(to)),
                    Action::End => ("end", None, None),
                    Action::Skry { at } => ("skry", None, Some(at)),
                    Action::Deny { .. } => ("deny", None, None),
                    Action::Destroy { at } => ("destroy", None, Some(at)),
                    Action::Dry { at } => ("dry", None, Some(at)),
                };
                c.kind = kind;
                if let Some(f) = from {
                    (c.view.from_x, c.view.from_y) = xy(f);
                }
                if let Some(t) = to {
                    (c.x, c.y) = xy(t);
                    c.view.card = card_name(self.card(t));
                }
            }
            Event::Over => c.kind = "over",
        }
    }

    fn apply(&mut self, op: &Op<RgrOp>) -> Result<String, String> {
        match *op {
            Op::AddScore(s, n) => {
                let seat = usize::from(s);
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                let bonus = sc.session.bonus[seat] + n;
                if bonus.abs() > session::MAX_BONUS {
                    return Err(format!("seat {}'s score would pass a million", s + 1));
                }
                sc.session.bonus[seat] = bonus;
                Ok(format!(
                    "seat {} {} {}",
                    s + 1,
                    if n < 0 { "loses" } else { "scores" },
                    n.abs()
                ))
            }
            Op::EndTurn => {
                let who = self.to_move();
                if !matches!(self.next(), Next::Decide(_)) {
                    return Err(
                        "the turn cannot end here (a card is still to be turned over)".into(),
                    );
                }
                self.apply_plain(Action::End);
                Ok(format!("seat {}'s turn ends", who + 1))
            }
            Op::EndGame => {
                self.end_now(EndReason::Script);
                Ok("the game ends".into())
            }
            Op::Game(RgrOp::AddSticks(n)) => {
                let who = self.to_move();
                let now = self.script_sticks(n)?;
                Ok(format!(
                    "seat {} {} {}: {now} in hand",
                    who + 1,
                    if n < 0 { "loses" } else { "gains" },
                    crate::core::count(n.unsigned_abs(), "stick", "sticks")
                ))
            }
        }
    }

    fn invariants(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn event_words(&self, event: &Event) -> String {
        match *event {
            Event::Action {
                seat,
                action,
                round,
            } => format!(
                "seat {}'s action `{}` in round {}",
                seat + 1,
                super::text::format_action(self, action),
                u32::from(round) + 1
            ),
            Event::Over => "the end of the game".into(),
        }
    }

    fn stop(&mut self) {
        self.end_now(EndReason::ScriptError);
    }

    fn decision(&self, action: Action) -> Event {
        Event::Action {
            seat: self.to_move(),
            action,
            round: self.round(),
        }
    }

    fn unfiltered(&self, out: &mut Vec<Action>) {
        self.legal_plain(out);
    }
}
