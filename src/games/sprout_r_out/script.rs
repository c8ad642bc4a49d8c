//! House rules as scripts in Sprout-R-Out: the hook points, the `ctx` a
//! script sees, and the operations it may ask for, each applied through
//! the engine's own checked moves (`docs/scripts.md`). The steps every
//! such game shares are in [`crate::script::session`].
//!
//! Cells are named by their number (0 to `ctx.cells - 1`, the board's own
//! order) since the boards are graphs, not grids: `ctx.cell` is the move's,
//! `ctx.label(cell)` its name on the drawing.

use rhai::ImmutableString;

use super::state::{Action, EndReason, State};
use crate::core::graph::{Board, Cell, CellSet};
use crate::core::protocol::Seat;
use crate::script::fast::Reg;
use crate::script::session::{self, Ctx as Common, Host, HouseRules, Op, Res, Session, refuse};
use crate::script::{Api, Hook, Scripts};

/// The hook points of Sprout-R-Out (numbered as [`session::LEGAL`],
/// [`session::AFTER_ACTION`], [`session::FINAL`]).
pub const HOOKS: &[Hook] = &{
    let [legal, after_action, _] = session::hooks(
        "before a seat decides, once per legal sub-move (ctx.kind: place, remove or pass; ctx.cell); evaluates to false to forbid it; no operations",
        "after a sub-move (the same fields; ctx.turn says who moves next); any operation: add_score, add_stone, remove_stone, end_turn, end_game",
    );
    [
        legal,
        after_action,
        Hook {
            name: "final",
            about: "once, when the game is over: adjust the final scores (the territories) with ctx.add_score; the adjusted scores decide the winner",
        },
    ]
};

/// What Sprout-R-Out offers scripts.
pub static API: Api = Api {
    hooks: HOOKS,
    register,
};

/// The operations of this game's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SproutOp {
    /// Put a stone of a seat on an empty cell.
    AddStone(Seat, Cell),
    /// Take the stone off a cell.
    RemoveStone(Cell),
}

/// The position a script reads.
#[derive(Clone, Debug, Default)]
pub struct View {
    board: Option<&'static Board>,
    nbr: &'static [CellSet],
    degree: usize,
    cell: i64,
    stones: [CellSet; 2],
    eyes: [CellSet; 2],
    /// The territories, made when a script of the hook may read them.
    territory: Option<[CellSet; 2]>,
}

/// The `ctx` of a Sprout-R-Out script.
pub type Ctx = Common<View, SproutOp>;

/// The groups of words of a script that read the parts of `ctx` made
/// only when read ([`crate::script::Program::read_groups`]): the scores
/// (the territories, adjusted), the territories, the stones, the eyes, the
/// edge (the board's largest degree).
const READS: &[&[&str]] = &[
    &["score"],
    &["territory", "in_territory"],
    &["stone"],
    &["eye"],
    &["on_edge"],
];
const SCORES: usize = 0;
const TERRITORY: usize = 1;
const STONES: usize = 2;
const EYES: usize = 3;
const EDGE: usize = 4;

impl View {
    fn cell(&self, c: i64) -> Res<Cell> {
        let n = self.board.map_or(0, |b| b.len());
        if (0..n as i64).contains(&c) {
            Ok(c as Cell)
        } else {
            refuse(format!(
                "{c} is not a cell of the board (0 to {})",
                n as i64 - 1
            ))
        }
    }

    fn territory(&self, q: u8) -> Res<CellSet> {
        match &self.territory {
            Some(t) => Ok(t[usize::from(q)]),
            None => {
                refuse("the territory was not read for this script (a bug of the engine)".into())
            }
        }
    }
}

fn register(r: &mut Reg) {
    session::register_common::<View, SproutOp>(r);
    r.get("cell", |c: &mut Ctx| c.view.cell);
    r.get("cells", |c: &mut Ctx| {
        c.view.board.map_or(0, |b| b.len() as i64)
    });
    r.read1("label", |c: &mut Ctx, cell: i64| -> Res<ImmutableString> {
        let cell = c.view.cell(cell)?;
        Ok(c.view.board.map_or("", |b| b.label(cell)).into())
    });
    r.read1("stone", |c: &mut Ctx, cell: i64| -> Res<i64> {
        let cell = c.view.cell(cell)?;
        Ok(if c.view.stones[0].contains(cell) {
            1
        } else if c.view.stones[1].contains(cell) {
            2
        } else {
            0
        })
    });
    r.read2("eye", |c: &mut Ctx, s: i64, cell: i64| -> Res<bool> {
        let q = c.seat_index(s)?;
        let cell = c.view.cell(cell)?;
        Ok(c.view.eyes[usize::from(q)].contains(cell))
    });
    r.read1("on_edge", |c: &mut Ctx, cell: i64| -> Res<bool> {
        let cell = c.view.cell(cell)?;
        Ok(c.view.nbr[usize::from(cell)].len() < c.view.degree as u32)
    });
    r.engine
        .register_fn("neighbours", |c: &mut Ctx, cell: i64| -> Res<rhai::Array> {
            let cell = c.view.cell(cell)?;
            Ok(c.view.nbr[usize::from(cell)]
                .iter()
                .map(|n| rhai::Dynamic::from(i64::from(n)))
                .collect())
        });
    r.read1("territory", |c: &mut Ctx, s: i64| -> Res<i64> {
        let q = c.seat_index(s)?;
        Ok(i64::from(c.view.territory(q)?.len()))
    });
    r.read2(
        "in_territory",
        |c: &mut Ctx, s: i64, cell: i64| -> Res<bool> {
            let q = c.seat_index(s)?;
            let cell = c.view.cell(cell)?;
            Ok(c.view.territory(q)?.contains(cell))
        },
    );
    r.op2("add_stone", |c: &mut Ctx, s: i64, cell: i64| -> Res<()> {
        let q = c.seat_index(s)?;
        let cell = c.view.cell(cell)?;
        c.push(Op::Game(SproutOp::AddStone(q, cell)))
    });
    r.op1("remove_stone", |c: &mut Ctx, cell: i64| -> Res<()> {
        let cell = c.view.cell(cell)?;
        c.push(Op::Game(SproutOp::RemoveStone(cell)))
    });
}

/// What happened, for a hook's `ctx` and for a failure's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` made `action` in turn `turn`.
    Action {
        seat: Seat,
        action: Action,
        turn: u32,
    },
    /// The game is over.
    Over,
}

impl State {
    /// This state with the variant's house rules attached (none without
    /// scripts); `Err` when a script does not compile.
    pub fn with_scripts(mut self, scripts: &Scripts, name: &str) -> Result<State, String> {
        let program = scripts
            .program(&API)
            .map_err(|e| format!("variant `{name}`: {e}"))?;
        self.script = program.map(|p| {
            p.read_groups(READS);
            Box::new(Session::new(p))
        });
        Ok(self)
    }

    /// `play_unchecked` of a game with scripts.
    pub(super) fn play_scripted(&mut self, action: Action) {
        if let Some(event) = session::step(self, action, State::apply_plain) {
            session::after_move(self, event);
        }
    }

    /// The winner by the scores the house rules adjusted, when they did.
    pub(super) fn scripted_outcome(
        &self,
        scores: [i32; 2],
        winner: Option<Seat>,
    ) -> (Vec<i32>, Vec<Seat>) {
        let bonus = self.script.as_deref().map_or([0; 8], |s| s.bonus);
        let adjusted = [scores[0] + bonus[0] as i32, scores[1] + bonus[1] as i32];
        let winner = if bonus[..2] == [0, 0] {
            winner
        } else {
            self.winner_of(adjusted)
        };
        (
            adjusted.to_vec(),
            match winner {
                Some(w) => vec![w],
                None => vec![0, 1],
            },
        )
    }
}

impl HouseRules for State {
    fn session(&self) -> Option<&Session> {
        self.script.as_deref()
    }
}

impl Host for State {
    type View = View;
    type Op = SproutOp;
    type Event = Event;
    const OVER: Event = Event::Over;

    fn session_mut(&mut self) -> Option<&mut Session> {
        self.script.as_deref_mut()
    }

    fn moment(&self, hook: usize, c: &mut Ctx) {
        let sc = self.script.as_deref();
        let reads = |group: usize| sc.is_none_or(|s| s.reads(hook, group));
        let scores = if reads(SCORES) {
            self.territories()
        } else {
            [0; 2]
        };
        let bonus = sc.map_or([0; 8], |s| s.bonus);
        let nbr = self.neighbour_sets();
        c.seats = 2;
        c.turn = if self.end().is_some() {
            0
        } else {
            i64::from(self.mover()) + 1
        };
        c.round = i64::from(self.turn());
        c.over = self.end().is_some();
        c.scores = [
            i64::from(scores[0]) + bonus[0],
            i64::from(scores[1]) + bonus[1],
            0,
            0,
            0,
            0,
            0,
            0,
        ];
        let v = &mut c.view;
        v.board = Some(self.board());
        v.nbr = nbr;
        v.degree = if reads(EDGE) {
            nbr.iter().map(|n| n.len() as usize).max().unwrap_or(0)
        } else {
            0
        };
        v.cell = -1;
        if reads(STONES) {
            v.stones = [self.stones(0), self.stones(1)];
        }
        if reads(EYES) {
            v.eyes = [self.eyes(0), self.eyes(1)];
        }
        v.territory = reads(TERRITORY).then(|| [self.territory(0), self.territory(1)]);
    }

    fn describe(&self, c: &mut Ctx, event: &Event, _hook: usize) {
        c.view.cell = -1;
        match *event {
            Event::Action { seat, action, .. } => {
                c.seat = i64::from(seat) + 1;
                let (kind, cell) = match action {
                    Action::Place(cell) => ("place", Some(cell)),
                    Action::Remove(cell) => ("remove", Some(cell)),
                    Action::Pass => ("pass", None),
                };
                c.kind = kind;
                c.view.cell = cell.map_or(-1, i64::from);
            }
            Event::Over => c.kind = "over",
        }
    }

    fn apply(&mut self, op: &Op<SproutOp>) -> Result<String, String> {
        let board = self.board();
        match *op {
            Op::AddScore(s, n) => {
                let seat = usize::from(s);
                let sc = self.script.as_deref_mut().ok_or("no house rules")?;
                let bonus = sc.bonus[seat] + n;
                if bonus.abs() > session::MAX_BONUS {
                    return Err(format!("seat {}'s score would pass a million", s + 1));
                }
                sc.bonus[seat] = bonus;
                Ok(format!(
                    "seat {} {} {}",
                    s + 1,
                    if n < 0 { "loses" } else { "scores" },
                    n.abs()
                ))
            }
            Op::EndTurn => {
                if self.end().is_some() || self.sub() == 0 {
                    return Err(
                        "the turn has not begun (a turn ends after at least one sub-move)".into(),
                    );
                }
                let who = self.mover();
                self.end_turn_now();
                Ok(format!("seat {}'s turn ends", who + 1))
            }
            Op::EndGame => {
                self.end_now(EndReason::Script);
                Ok("the game ends".into())
            }
            Op::Game(SproutOp::AddStone(s, cell)) => {
                if (self.stones(0) | self.stones(1)).contains(cell) {
                    return Err(format!("{} holds a stone", board.label(cell)));
                }
                self.edit_stone(Some(s), cell);
                Ok(format!(
                    "a stone of seat {} is put on {}",
                    s + 1,
                    board.label(cell)
                ))
            }
            Op::Game(SproutOp::RemoveStone(cell)) => {
                if !(self.stones(0) | self.stones(1)).contains(cell) {
                    return Err(format!("there is no stone on {}", board.label(cell)));
                }
                self.edit_stone(None, cell);
                Ok(format!("the stone on {} is taken off", board.label(cell)))
            }
        }
    }

    fn invariants(&self) -> Result<(), String> {
        self.check_invariants()
    }

    fn event_words(&self, event: &Event) -> String {
        match *event {
            Event::Action { seat, action, turn } => format!(
                "seat {}'s sub-move `{}` in turn {turn}",
                seat + 1,
                super::format_action(self, action)
            ),
            Event::Over => "the end of the game".into(),
        }
    }

    fn stop(&mut self) {
        self.end_now(EndReason::ScriptError);
    }

    fn decision(&self, action: Action) -> Event {
        Event::Action {
            seat: self.mover(),
            action,
            turn: self.turn(),
        }
    }

    fn unfiltered(&self, out: &mut Vec<Action>) {
        self.legal_plain(out);
    }
}
