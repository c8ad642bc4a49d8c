//! The fast path of house rules: a script in a subset of Rhai (no
//! functions of its own) translated once, when its variant is loaded,
//! into a tree this module walks, calling the game's fields and
//! operations of `ctx` as plain Rust functions. Rhai allocates a cache
//! and resolves each call anew at every run (about 2,300 instructions for
//! a script that reads one field); a walk of the tree costs about 200
//! for such a script, most of it the walk's own calls (README, "Cost").
//! Whole numbers and booleans are kept apart from other values (plain
//! numbers in slots, each typed expression worked out without a
//! [`Val`]), and a field of `ctx` of either type is read through the
//! game's function by index ([`Fields`]), `ctx`'s type checked once a run.
//! The tree is then compiled to closures for the game's `ctx` type
//! (`fast/code.rs`): a run of a script calls them, one call a node, and the walk
//! stays as their reference (and for a `ctx` of another type).
//!
//! The subset: `let` and `const`, assignment and `+=`-style assignment to
//! a local, `if`/`else`, `return`, expression statements; loops: `for v in
//! a..b` and `a..=b` over whole numbers, `while`, `loop`, `break` and
//! `continue` (without a value); whole numbers, true and false, strings
//! (compared with `==` and `!=` only); `+ - * / %` and unary `-` on whole
//! numbers with Rhai's checked overflow, its division by zero and its
//! error messages; `== != < <= > >=` on whole numbers; `!`, `&&`, `||` on
//! booleans; `ctx.field` and `ctx.op(n, ...)` with whole-number
//! arguments, of the fields and operations the game registered through
//! [`Reg`]. Every expression has one type known before the run (a local
//! keeps the type it was declared with), so no operator meets a type it
//! does not take here.
//!
//! A statement outside the subset is left to Rhai: the walk stops there
//! (bails) and Rhai runs the whole script from the start, which gives the
//! same result because nothing before that point can have changed `ctx`
//! (a statement that may follow an operation that changes it, or one in a
//! loop, makes the whole script Rhai's; [`compile`] checks).
//!
//! The budget of operations: the walk counts, for each block it enters
//! and each round of a loop, at least as many operations as Rhai would
//! count for them ([`NODE_WEIGHT`] a statement or expression node, a
//! bound a property test checks against Rhai's own count). While that
//! upper bound stays within [`super::MAX_OPERATIONS`], Rhai would not have
//! stopped the script either; past it the walk stops before doing any
//! more ([`Flow::OverBudget`]) and the caller runs the script in Rhai
//! from the `ctx` it started with (it keeps a copy for a script with a
//! loop), so an endless loop fails with Rhai's own error at Rhai's own
//! place. Without loops a script of at most [`super::MAX_CODE`] bytes
//! cannot come near the budget.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

mod code;

use rhai::{
    ASTFlags, Dynamic, Engine, EvalAltResult, Expr, ImmutableString, Position, Stmt, Variant,
};

/// A result of a field or operation of `ctx`, as Rhai takes it.
pub type Res<T> = Result<T, Box<EvalAltResult>>;

/// A value of the fast path.
#[derive(Clone, Debug)]
pub enum Val {
    Unit,
    Int(i64),
    Bool(bool),
    Str(ImmutableString),
    /// A string of the game's own, such as `ctx.kind` (no allocation: a
    /// script that only compares it never makes a Rhai string of it).
    Text(&'static str),
}

impl PartialEq for Val {
    fn eq(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Unit, Val::Unit) => true,
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::Bool(a), Val::Bool(b)) => a == b,
            _ => match (self.text(), other.text()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }
}

impl Val {
    /// The value as Rhai would hold it.
    pub fn dynamic(self) -> Dynamic {
        match self {
            Val::Unit => Dynamic::UNIT,
            Val::Int(n) => Dynamic::from_int(n),
            Val::Bool(b) => Dynamic::from_bool(b),
            Val::Str(s) => Dynamic::from(s),
            Val::Text(s) => Dynamic::from(ImmutableString::from(s)),
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s.as_str()),
            Val::Text(s) => Some(s),
            _ => None,
        }
    }

    fn int(&self) -> i64 {
        match self {
            Val::Int(n) => *n,
            _ => unreachable!("typed when compiled"),
        }
    }

    fn bool(&self) -> bool {
        match self {
            Val::Bool(b) => *b,
            _ => unreachable!("typed when compiled"),
        }
    }
}

/// The type of a value, known when a script is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Unit,
    Int,
    Bool,
    Str,
}

/// A type a field or operation may give back on the fast path.
pub trait Out: Variant + Clone {
    const TY: Ty;
    fn val(self) -> Val;
}

impl Out for i64 {
    const TY: Ty = Ty::Int;
    fn val(self) -> Val {
        Val::Int(self)
    }
}

impl Out for bool {
    const TY: Ty = Ty::Bool;
    fn val(self) -> Val {
        Val::Bool(self)
    }
}

impl Out for ImmutableString {
    const TY: Ty = Ty::Str;
    fn val(self) -> Val {
        Val::Str(self)
    }
}

impl Out for () {
    const TY: Ty = Ty::Unit;
    fn val(self) -> Val {
        Val::Unit
    }
}

type Getter = Arc<dyn Fn(&mut dyn Any) -> Option<Val> + Send + Sync>;
type Method = Arc<dyn Fn(&mut dyn Any, &[i64]) -> Option<Res<Val>> + Send + Sync>;

struct MethodInfo {
    ty: Ty,
    /// Whether it may change `ctx` (an operation, not a reading).
    changes: bool,
    call: Method,
}

/// The fields of whole numbers and booleans of one `ctx` type `C`, as
/// plain functions: a tree reads them by index, without a boxed closure,
/// a type check or a value of [`Val`] for each read (the type is checked
/// once a run, [`Fast::run`]).
pub struct Fields<C> {
    ints: Vec<fn(&mut C) -> i64>,
    bools: Vec<fn(&mut C) -> bool>,
}

/// How a field of `ctx` is read on the fast path.
#[derive(Clone)]
enum Field {
    /// Through a boxed closure (a word of the game's own, or a `ctx` type
    /// other than the one of [`Natives::fields`]).
    Boxed(Getter),
    /// A whole number or boolean of [`Fields`], by index.
    Int(usize),
    Bool(usize),
}

/// The fields and operations of a game's `ctx` the fast path can call,
/// filled by [`Reg`] alongside their Rhai registration.
#[derive(Default)]
pub struct Natives {
    getters: HashMap<&'static str, (Ty, Field)>,
    methods: HashMap<(&'static str, usize), MethodInfo>,
    /// The [`Fields`] of the `ctx` type registered first, shared with
    /// every tree that reads them.
    fields: Option<Arc<dyn Any + Send + Sync>>,
    /// Compiles a tree to closures for that same `ctx` type ([`code`]).
    build: Option<Build>,
}

/// [`code::build_any`] for one `ctx` type.
type Build = fn(&Fast, Option<&(dyn Any + Send + Sync)>) -> Option<Box<dyn Any + Send + Sync>>;

impl Natives {
    /// The names of the operations registered (the methods that may
    /// change `ctx`: [`Reg::op0`] and the like), in no order.
    pub fn operations(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.methods
            .iter()
            .filter(|(_, m)| m.changes)
            .map(|((name, _), _)| *name)
    }
}

/// A type a field may give back read as a plain function of [`Fields`].
pub trait Plain: Out {
    /// Put `f` among the plain functions of `fields`: its index and how
    /// the fast path reads it.
    #[doc(hidden)]
    fn put<C>(fields: &mut Fields<C>, f: fn(&mut C) -> Self) -> Option<(usize, bool)> {
        let _ = (fields, f);
        None
    }
}

impl Plain for i64 {
    fn put<C>(fields: &mut Fields<C>, f: fn(&mut C) -> i64) -> Option<(usize, bool)> {
        fields.ints.push(f);
        Some((fields.ints.len() - 1, true))
    }
}

impl Plain for bool {
    fn put<C>(fields: &mut Fields<C>, f: fn(&mut C) -> bool) -> Option<(usize, bool)> {
        fields.bools.push(f);
        Some((fields.bools.len() - 1, false))
    }
}

impl Plain for ImmutableString {}
impl Plain for () {}

/// Registers a field or operation of `ctx` once, for Rhai and for the fast
/// path alike. What the fast path cannot call (a name as an argument, an
/// array as a result) is registered on [`Reg::engine`] directly, and a
/// script that uses it runs in Rhai.
pub struct Reg<'a> {
    pub engine: &'a mut Engine,
    pub natives: &'a mut Natives,
}

macro_rules! method {
    (@int $a:ident) => { i64 };
    ($(#[$doc:meta])* $name:ident, $changes:expr, $n:expr, ($($a:ident),*)) => {
        $(#[$doc])*
        #[allow(unused_variables, unused_mut, clippy::type_complexity)]
        pub fn $name<C: Variant + Clone, R: Out>(
            &mut self,
            name: &'static str,
            f: fn(&mut C $(, method!(@int $a))*) -> Res<R>,
        ) {
            self.engine.register_fn(name, f);
            let call: Method = Arc::new(move |c: &mut dyn Any, args: &[i64]| {
                let c = c.downcast_mut::<C>()?;
                let mut it = args.iter().copied();
                $(let $a: i64 = it.next()?;)*
                Some(f(c $(, $a)*).map(Out::val))
            });
            self.natives.methods.insert(
                (name, $n),
                MethodInfo { ty: R::TY, changes: $changes, call },
            );
        }
    };
}

impl Reg<'_> {
    /// A field: `ctx.name`.
    pub fn get<C: Variant + Clone, R: Plain>(&mut self, name: &'static str, f: fn(&mut C) -> R) {
        self.engine.register_get(name, f);
        self.natives.build.get_or_insert(code::build_any::<C>);
        let fields = self.natives.fields.get_or_insert_with(|| {
            Arc::new(Fields::<C> {
                ints: Vec::new(),
                bools: Vec::new(),
            })
        });
        let field = match Arc::get_mut(fields)
            .and_then(|t| t.downcast_mut::<Fields<C>>())
            .and_then(|t| R::put(t, f))
        {
            Some((i, true)) => Field::Int(i),
            Some((i, false)) => Field::Bool(i),
            None => Field::Boxed(Arc::new(move |c: &mut dyn Any| {
                Some(f(c.downcast_mut::<C>()?).val())
            })),
        };
        self.natives.getters.insert(name, (R::TY, field));
    }

    /// A field whose value is one of the game's own words: `ctx.name`, a
    /// string for Rhai, read without making one on the fast path.
    pub fn get_str<C: Variant + Clone>(
        &mut self,
        name: &'static str,
        f: fn(&mut C) -> &'static str,
    ) {
        self.engine
            .register_get(name, move |c: &mut C| ImmutableString::from(f(c)));
        let g: Getter = Arc::new(move |c: &mut dyn Any| Some(Val::Text(f(c.downcast_mut::<C>()?))));
        self.natives
            .getters
            .insert(name, (Ty::Str, Field::Boxed(g)));
    }

    method!(
        /// A reading without arguments: `ctx.name()`.
        read0, false, 0, ());
    method!(
        /// A reading: `ctx.name(a)`.
        read1, false, 1, (a));
    method!(
        /// A reading: `ctx.name(a, b)`.
        read2, false, 2, (a, b));
    method!(
        /// An operation (it may change `ctx`): `ctx.name()`.
        op0, true, 0, ());
    method!(
        /// An operation: `ctx.name(a)`.
        op1, true, 1, (a));
    method!(
        /// An operation: `ctx.name(a, b)`.
        op2, true, 2, (a, b));
    method!(
        /// An operation: `ctx.name(a, b, c)`.
        op3, true, 3, (a, b, c));
}

#[derive(Clone, Copy, Debug)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether `x OP y` holds (the compiler gives booleans and other values
    /// only `==` and `!=`).
    #[inline]
    fn holds<T: PartialOrd>(self, x: T, y: T) -> bool {
        match self {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
        }
    }
}

enum E {
    Const(Val),
    /// A local of whole numbers or booleans (kept as 0 and 1), in the
    /// run's numbers; any other local, in its values.
    LocalInt(usize),
    LocalBool(usize),
    LocalVal(usize),
    /// A field of `ctx`: through a boxed closure, or a plain function of
    /// the game's [`Fields`], by index.
    Get(Getter),
    GetInt(usize),
    GetBool(usize),
    Call(Method, Box<[E]>, Position),
    Arith(Arith, Box<(E, E)>, Position),
    Neg(Box<E>, Position),
    /// A comparison of two values of the type given.
    Cmp(Cmp, Ty, Box<(E, E)>),
    Not(Box<E>),
    And(Box<[E]>),
    Or(Box<[E]>),
}

enum S {
    Expr(E),
    /// `let` or an assignment: to a local of whole numbers, of booleans,
    /// or of another type (a string or nothing).
    SetInt(usize, E),
    SetBool(usize, E),
    SetVal(usize, E),
    OpAssign(usize, Arith, E, Position),
    If(E, Block, Block),
    /// `for v in from..to` (`..=` when `inclusive`): the loop variable's
    /// slot.
    For {
        slot: usize,
        from: E,
        to: E,
        inclusive: bool,
        body: Block,
    },
    /// `while cond` (`loop` without one), with the weight of one test of
    /// the condition.
    While(Option<E>, u64, Block),
    Break,
    Continue,
    Return(Option<E>),
    /// Leave the script to Rhai.
    Bail,
}

/// Statements run in order, with their weight: at least as many
/// operations as Rhai counts to run them once (their expressions
/// included, the blocks within them apart), counted on entry.
struct Block {
    w: u64,
    body: Box<[S]>,
}

/// The weight of one statement or expression node: Rhai counts one
/// operation for each statement and each expression it evaluates, and at
/// most two more for an argument or a call (a property test checks the
/// bound against Rhai's own count).
const NODE_WEIGHT: u64 = 3;

/// A script compiled for the fast path.
pub struct Fast {
    body: Block,
    slots: usize,
    /// Whether some statement is left to Rhai.
    pub bails: bool,
    /// Whether it has a loop: a run may then pass the budget of
    /// operations (it stops with [`Flow::OverBudget`] before Rhai would,
    /// and the caller runs the script again in Rhai from the `ctx` it
    /// started with).
    pub loops: bool,
    /// Whether every local is a whole number or a boolean: a run then
    /// needs no slots of [`Val`].
    plain: bool,
    /// The game's [`Fields`], when the tree reads one of them.
    fields: Option<Arc<dyn Any + Send + Sync>>,
    /// The tree compiled to closures ([`code::Code`]) for the game's `ctx`
    /// type: a run on that type calls them instead of walking the tree
    /// (shared with the [`Typed`] handles a game keeps).
    code: Option<Arc<dyn Any + Send + Sync>>,
}

/// A script's closures for the game's `ctx` type `T`, found once
/// ([`Fast::typed`]) and kept by the game: a run calls them with no
/// look-up of the script and no check of `ctx`'s type.
pub struct Typed<T>(Arc<code::Code<T>>);

impl<T> Clone for Typed<T> {
    fn clone(&self) -> Typed<T> {
        Typed(Arc::clone(&self.0))
    }
}

impl<T> Typed<T> {
    /// [`Fast::run_effect`]: for a script whose locals are a few whole
    /// numbers and booleans, the run's frame made here, in the caller,
    /// and its body called (one call a run, not two).
    #[inline(always)]
    pub fn run_effect(&self, ctx: &mut T) -> Result<(), Box<Flow>> {
        match &self.0.unit {
            Some(body) => code::run_unit(body, self.0.slots, ctx),
            None => (self.0.run_effect)(ctx),
        }
    }

    /// [`Fast::run_filter`], as [`Typed::run_effect`].
    #[inline(always)]
    pub fn run_filter(&self, ctx: &mut T) -> Result<bool, Box<Result<Val, Flow>>> {
        match &self.0.value {
            Some(body) => code::run_value(body, self.0.slots, ctx),
            None => (self.0.run_filter)(ctx),
        }
    }
}

/// Why a walk stopped early.
pub enum Flow {
    Err(Box<EvalAltResult>),
    Return(Val),
    /// A statement outside the subset: Rhai runs the script.
    Bail,
    /// The walk's count of operations, an upper bound of Rhai's, passed
    /// the budget: Rhai might have stopped the script earlier, so it must
    /// run it again from the start (see [`Fast::loops`]).
    OverBudget,
    /// `break` and `continue`, on their way to their loop.
    Break,
    Continue,
}

impl From<Box<EvalAltResult>> for Flow {
    fn from(e: Box<EvalAltResult>) -> Flow {
        Flow::Err(e)
    }
}

/// The most locals a fast script declares (Rhai's own bound is 256).
const MAX_LOCALS: usize = 200;

struct Compiler<'n> {
    natives: &'n Natives,
    /// Locals in scope: name, slot, type, constant.
    names: Vec<(ImmutableString, usize, Ty, bool)>,
    slots: usize,
    types: Vec<Ty>,
    /// Whether an operation that changes `ctx` may have run before the
    /// point being compiled.
    dirty: bool,
    bails: bool,
    /// How many loops enclose the point being compiled: within one, a
    /// statement outside the subset makes the whole loop Rhai's (a later
    /// round may follow a change).
    in_loop: u32,
    loops: bool,
    /// Expression nodes made in the block being compiled.
    nodes: u64,
    /// Whether the tree reads a field of the game's [`Fields`].
    typed: bool,
}

/// Not in the subset.
struct No;

/// The fast form of `ast`, or `None` when it must run in Rhai (a part of
/// it outside the subset after an operation that changes `ctx`, or no part
/// of it in the subset).
pub fn compile(natives: &Natives, ast: &rhai::AST) -> Option<Fast> {
    if ast.has_functions() {
        return None;
    }
    let mut c = Compiler {
        natives,
        names: Vec::new(),
        slots: 0,
        types: Vec::new(),
        dirty: false,
        bails: false,
        in_loop: 0,
        loops: false,
        nodes: 0,
        typed: false,
    };
    let body = c.block(ast.statements()).ok()?;
    if matches!(body.body.first(), Some(S::Bail)) || c.slots > MAX_LOCALS {
        return None;
    }
    // Without loops a run counts at most the weight of all the blocks,
    // which a script of at most `MAX_CODE` bytes keeps far under the
    // budget; else it would need the caller's copy of `ctx`.
    if !c.loops && weight(&body) > super::MAX_OPERATIONS {
        return None;
    }
    let mut fast = Fast {
        body,
        slots: c.slots,
        bails: c.bails,
        loops: c.loops,
        plain: c.types.iter().all(|t| matches!(t, Ty::Int | Ty::Bool)),
        fields: c.typed.then(|| c.natives.fields.clone()).flatten(),
        code: None,
    };
    fast.code = natives
        .build
        .and_then(|build| build(&fast, fast.fields.as_deref()))
        .map(Arc::from);
    Some(fast)
}

/// The weight of every block of `b`, all together.
fn weight(b: &Block) -> u64 {
    b.w + b
        .body
        .iter()
        .map(|s| match s {
            S::If(_, x, y) => weight(x) + weight(y),
            S::For { body, .. } | S::While(_, _, body) => weight(body),
            _ => 0,
        })
        .sum::<u64>()
}

impl Compiler<'_> {
    fn block(&mut self, stmts: &[Stmt]) -> Result<Block, No> {
        let depth = self.names.len();
        let outer = std::mem::replace(&mut self.nodes, 0);
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            let dirty = self.dirty;
            match self.stmt(s) {
                Ok(s) => out.push(s),
                Err(No) => {
                    // Nothing of it runs here.
                    self.dirty = dirty;
                    // Left to Rhai: valid only while nothing has changed.
                    if self.dirty || self.in_loop > 0 {
                        self.nodes = outer;
                        return Err(No);
                    }
                    self.bails = true;
                    out.push(S::Bail);
                    // Nothing after a bail runs here.
                    break;
                }
            }
        }
        self.names.truncate(depth);
        let w = NODE_WEIGHT * (out.len() as u64 + self.nodes);
        self.nodes = outer;
        Ok(Block {
            w,
            body: out.into(),
        })
    }

    /// A loop's body, with `var` (the loop variable, if any) declared in
    /// it. Nothing in it may be left to Rhai (a round may follow a change
    /// of the round before).
    fn loop_body(
        &mut self,
        var: Option<(ImmutableString, usize)>,
        body: &[Stmt],
    ) -> Result<Block, No> {
        let depth = self.names.len();
        if let Some((name, slot)) = var {
            self.names.push((name, slot, Ty::Int, false));
        }
        self.in_loop += 1;
        self.loops = true;
        let b = self.block(body);
        self.in_loop -= 1;
        self.names.truncate(depth);
        b
    }

    fn new_slot(&mut self, ty: Ty) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.types.push(ty);
        slot
    }

    /// The bounds of a range `a..b` or `a..=b` of whole numbers.
    fn range(&mut self, e: &Expr) -> Result<(E, E, bool), No> {
        match e {
            Expr::FnCall(call, _) if call.op_token.is_some() && call.args.len() == 2 => {
                let inclusive = match call.name.as_str() {
                    ".." => false,
                    "..=" => true,
                    _ => return Err(No),
                };
                let (a, at) = self.expr(&call.args[0])?;
                let (b, bt) = self.expr(&call.args[1])?;
                if at != Ty::Int || bt != Ty::Int {
                    return Err(No);
                }
                Ok((a, b, inclusive))
            }
            Expr::DynamicConstant(d, _) => {
                self.nodes += 2;
                if let Some(r) = d.read_lock::<std::ops::Range<i64>>() {
                    Ok((
                        E::Const(Val::Int(r.start)),
                        E::Const(Val::Int(r.end)),
                        false,
                    ))
                } else if let Some(r) = d.read_lock::<std::ops::RangeInclusive<i64>>() {
                    Ok((
                        E::Const(Val::Int(*r.start())),
                        E::Const(Val::Int(*r.end())),
                        true,
                    ))
                } else {
                    Err(No)
                }
            }
            _ => Err(No),
        }
    }

    fn local(&self, name: &str) -> Option<&(ImmutableString, usize, Ty, bool)> {
        self.names.iter().rev().find(|n| n.0.as_str() == name)
    }

    fn stmt(&mut self, s: &Stmt) -> Result<S, No> {
        Ok(match s {
            Stmt::Noop(..) => S::Expr(E::Const(Val::Unit)),
            Stmt::Expr(e) => S::Expr(self.expr(e)?.0),
            Stmt::FnCall(call, pos) => {
                // An operator as a statement: Rhai counts the statement and
                // the call, as it does for the same call within an
                // expression (where `expr` counts its node).
                self.nodes += 1;
                S::Expr(self.fn_call(call, *pos)?.0)
            }
            Stmt::Var(x, flags, _) => {
                if flags.intersects(!ASTFlags::CONSTANT) {
                    return Err(No);
                }
                let (ident, init, _) = &**x;
                let (e, ty) = self.expr(init)?;
                let slot = self.slots;
                self.slots += 1;
                self.types.push(ty);
                self.names.push((
                    ident.name.clone(),
                    slot,
                    ty,
                    flags.contains(ASTFlags::CONSTANT),
                ));
                set(slot, ty, e)
            }
            Stmt::Assignment(x) => {
                let (op, bin) = &**x;
                let Expr::Variable(v, _, _) = &bin.lhs else {
                    return Err(No);
                };
                let &(_, slot, ty, constant) = self.local(v.1.as_str()).ok_or(No)?;
                if constant {
                    return Err(No);
                }
                let (rhs, rty) = self.expr(&bin.rhs)?;
                if rty != ty {
                    return Err(No);
                }
                match op.get_op_assignment_info() {
                    None => set(slot, ty, rhs),
                    Some((.., syntax)) => {
                        if ty != Ty::Int {
                            return Err(No);
                        }
                        S::OpAssign(slot, arith(syntax).ok_or(No)?, rhs, op.position())
                    }
                }
            }
            Stmt::If(fc, _) => {
                let (cond, ty) = self.expr(&fc.expr)?;
                if ty != Ty::Bool {
                    return Err(No);
                }
                let before = self.dirty;
                let body = self.block(fc.body.statements())?;
                let after_body = self.dirty;
                self.dirty = before;
                let branch = self.block(fc.branch.statements())?;
                self.dirty |= after_body;
                S::If(cond, body, branch)
            }
            Stmt::Block(b) => {
                // A block of its own: its locals end with it.
                let inner = self.block(b.statements())?;
                let empty = Block {
                    w: 0,
                    body: Box::new([]),
                };
                S::If(E::Const(Val::Bool(true)), inner, empty)
            }
            Stmt::For(x, _) => {
                let (var, counter, fc) = &**x;
                if counter.is_some() {
                    return Err(No);
                }
                let (from, to, inclusive) = self.range(&fc.expr)?;
                let slot = self.new_slot(Ty::Int);
                let body = self.loop_body(Some((var.name.clone(), slot)), fc.body.statements())?;
                S::For {
                    slot,
                    from,
                    to,
                    inclusive,
                    body,
                }
            }
            Stmt::While(fc, _) => {
                let (cond, cw) = match &fc.expr {
                    Expr::Unit(_) | Expr::BoolConstant(true, _) => (None, 0),
                    e => {
                        let before = self.nodes;
                        let (cond, ty) = self.expr(e)?;
                        if ty != Ty::Bool {
                            return Err(No);
                        }
                        (Some(cond), NODE_WEIGHT * (self.nodes - before))
                    }
                };
                let body = self.loop_body(None, fc.body.statements())?;
                S::While(cond, cw, body)
            }
            Stmt::BreakLoop(value, flags, _) => {
                if value.is_some() || self.in_loop == 0 {
                    return Err(No);
                }
                if flags.contains(ASTFlags::BREAK) {
                    S::Break
                } else {
                    S::Continue
                }
            }
            Stmt::Return(value, flags, _) => {
                if flags.contains(ASTFlags::BREAK) {
                    // `throw`
                    return Err(No);
                }
                S::Return(match value {
                    Some(e) => Some(self.expr(e)?.0),
                    None => None,
                })
            }
            _ => return Err(No),
        })
    }

    fn expr(&mut self, e: &Expr) -> Result<(E, Ty), No> {
        self.nodes += 1;
        Ok(match e {
            Expr::IntegerConstant(n, _) => (E::Const(Val::Int(*n)), Ty::Int),
            Expr::BoolConstant(b, _) => (E::Const(Val::Bool(*b)), Ty::Bool),
            Expr::StringConstant(s, _) => (E::Const(Val::Str(s.clone())), Ty::Str),
            Expr::Unit(_) => (E::Const(Val::Unit), Ty::Unit),
            Expr::DynamicConstant(d, _) => {
                if let Ok(n) = d.as_int() {
                    (E::Const(Val::Int(n)), Ty::Int)
                } else if let Ok(b) = d.as_bool() {
                    (E::Const(Val::Bool(b)), Ty::Bool)
                } else if d.is_unit() {
                    (E::Const(Val::Unit), Ty::Unit)
                } else if let Some(s) = d.read_lock::<ImmutableString>() {
                    (E::Const(Val::Str(s.clone())), Ty::Str)
                } else {
                    return Err(No);
                }
            }
            Expr::Variable(v, _, _) => {
                let &(_, slot, ty, _) = self.local(v.1.as_str()).ok_or(No)?;
                let e = match ty {
                    Ty::Int => E::LocalInt(slot),
                    Ty::Bool => E::LocalBool(slot),
                    _ => E::LocalVal(slot),
                };
                (e, ty)
            }
            Expr::Dot(bin, flags, _) => {
                if !flags.is_empty() {
                    return Err(No);
                }
                // Rhai counts up to four operations for a property or a
                // method of `ctx` (its lookup, its call, their arguments'
                // own apart): two nodes' worth.
                self.nodes += 1;
                // `ctx` itself, not a local that hides it.
                match &bin.lhs {
                    Expr::Variable(v, _, _)
                        if v.1.as_str() == "ctx" && self.local("ctx").is_none() => {}
                    _ => return Err(No),
                }
                match &bin.rhs {
                    Expr::Property(p, _) => {
                        let (ty, g) = self.natives.getters.get(p.2.as_str()).ok_or(No)?;
                        let e = match g {
                            Field::Boxed(g) => E::Get(Arc::clone(g)),
                            Field::Int(i) => E::GetInt(*i),
                            Field::Bool(i) => E::GetBool(*i),
                        };
                        self.typed |= !matches!(e, E::Get(_));
                        (e, *ty)
                    }
                    Expr::MethodCall(call, pos) => {
                        if call.op_token.is_some() || call.capture_parent_scope {
                            return Err(No);
                        }
                        let m = self
                            .natives
                            .methods
                            .get(&(call.name.as_str(), call.args.len()))
                            .ok_or(No)?;
                        let mut args = Vec::with_capacity(call.args.len());
                        for a in &call.args {
                            let (a, ty) = self.expr(a)?;
                            if ty != Ty::Int {
                                return Err(No);
                            }
                            args.push(a);
                        }
                        self.dirty |= m.changes;
                        (E::Call(Arc::clone(&m.call), args.into(), *pos), m.ty)
                    }
                    _ => return Err(No),
                }
            }
            Expr::FnCall(call, pos) => self.fn_call(call, *pos)?,
            Expr::And(list, _) | Expr::Or(list, _) => {
                let mut items = Vec::with_capacity(list.len());
                for x in list.iter() {
                    let (x, ty) = self.expr(x)?;
                    if ty != Ty::Bool {
                        return Err(No);
                    }
                    items.push(x);
                }
                let items = items.into_boxed_slice();
                let e = if matches!(e, Expr::And(..)) {
                    E::And(items)
                } else {
                    E::Or(items)
                };
                (e, Ty::Bool)
            }
            _ => return Err(No),
        })
    }

    fn fn_call(&mut self, call: &rhai::FnCallExpr, pos: Position) -> Result<(E, Ty), No> {
        if call.op_token.is_none() {
            return Err(No);
        }
        let name = call.name.as_str();
        match call.args.len() {
            1 => {
                let (x, ty) = self.expr(&call.args[0])?;
                match (name, ty) {
                    ("!", Ty::Bool) => Ok((E::Not(Box::new(x)), Ty::Bool)),
                    ("-", Ty::Int) => Ok((E::Neg(Box::new(x), pos), Ty::Int)),
                    _ => Err(No),
                }
            }
            2 => {
                let (a, at) = self.expr(&call.args[0])?;
                let (b, bt) = self.expr(&call.args[1])?;
                if at != bt {
                    return Err(No);
                }
                if let Some(op) = arith(name) {
                    if at != Ty::Int {
                        return Err(No);
                    }
                    return Ok((E::Arith(op, Box::new((a, b)), pos), Ty::Int));
                }
                let cmp = match name {
                    "==" => Cmp::Eq,
                    "!=" => Cmp::Ne,
                    "<" => Cmp::Lt,
                    "<=" => Cmp::Le,
                    ">" => Cmp::Gt,
                    ">=" => Cmp::Ge,
                    _ => return Err(No),
                };
                let ok = match at {
                    Ty::Int => true,
                    Ty::Bool | Ty::Str => matches!(cmp, Cmp::Eq | Cmp::Ne),
                    Ty::Unit => false,
                };
                if !ok {
                    return Err(No);
                }
                Ok((E::Cmp(cmp, at, Box::new((a, b))), Ty::Bool))
            }
            _ => Err(No),
        }
    }
}

/// `let` or an assignment of `e`, of type `ty`, to local `slot`.
fn set(slot: usize, ty: Ty, e: E) -> S {
    match ty {
        Ty::Int => S::SetInt(slot, e),
        Ty::Bool => S::SetBool(slot, e),
        _ => S::SetVal(slot, e),
    }
}

fn arith(op: &str) -> Option<Arith> {
    Some(match op {
        "+" => Arith::Add,
        "-" => Arith::Sub,
        "*" => Arith::Mul,
        "/" => Arith::Div,
        "%" => Arith::Rem,
        _ => return None,
    })
}

fn arith_err(message: String, pos: Position) -> Flow {
    Flow::Err(EvalAltResult::ErrorArithmetic(message, pos).into())
}

fn apply(op: Arith, x: i64, y: i64, pos: Position) -> Result<i64, Flow> {
    match op {
        Arith::Add => x
            .checked_add(y)
            .ok_or_else(|| arith_err(format!("Addition overflow: {x} + {y}"), pos)),
        Arith::Sub => x
            .checked_sub(y)
            .ok_or_else(|| arith_err(format!("Subtraction overflow: {x} - {y}"), pos)),
        Arith::Mul => x
            .checked_mul(y)
            .ok_or_else(|| arith_err(format!("Multiplication overflow: {x} * {y}"), pos)),
        Arith::Div => {
            if y == 0 {
                Err(arith_err(format!("Division by zero: {x} / {y}"), pos))
            } else {
                x.checked_div(y)
                    .ok_or_else(|| arith_err(format!("Division overflow: {x} / {y}"), pos))
            }
        }
        Arith::Rem => x.checked_rem(y).ok_or_else(|| {
            arith_err(
                format!("Modulo division by zero or overflow: {x} % {y}"),
                pos,
            )
        }),
    }
}

/// A walk of a tree on a `ctx` of type `T`; `COUNT`: counting operations
/// (a script with a loop; without one the count cannot come near the
/// budget).
struct Run<'a, T, const COUNT: bool> {
    ctx: &'a mut T,
    /// The game's fields, for a tree that reads them ([`Fast::fields`]).
    fields: Option<&'a Fields<T>>,
    /// The locals of whole numbers and booleans (0 and 1), by slot.
    ints: &'a mut [i64],
    /// The other locals, by slot (empty for a [`Fast::plain`] script).
    vals: &'a mut [Val],
    /// Operations so far, as an upper bound of Rhai's count.
    ops: u64,
}

/// Locals a run keeps on the stack; a script with more allocates them.
const STACK_SLOTS: usize = 8;

/// `f` on the locals of a run of `slots` slots: whole numbers and
/// booleans, other values (none when `plain`: [`Fast::plain`]), on the
/// stack when few.
#[inline(always)]
fn with_locals<R>(slots: usize, plain: bool, f: impl FnOnce(&mut [i64], &mut [Val]) -> R) -> R {
    let mut stack = [0i64; STACK_SLOTS];
    let mut heap: Vec<i64>;
    let ints: &mut [i64] = if slots <= STACK_SLOTS {
        &mut stack[..slots]
    } else {
        heap = vec![0; slots];
        &mut heap
    };
    // Values only for a script with a local of another type.
    let mut small: [Val; 4];
    let mut big: Vec<Val>;
    let vals: &mut [Val] = if plain {
        &mut []
    } else if slots <= 4 {
        small = [Val::Unit, Val::Unit, Val::Unit, Val::Unit];
        &mut small[..slots]
    } else {
        big = vec![Val::Unit; slots];
        &mut big
    };
    f(ints, vals)
}

impl Fast {
    /// The closures of a script without loops for `ctx` type `T`, to keep
    /// ([`Typed`]); `None` for a script with a loop (its run keeps a copy
    /// of `ctx` to run again in Rhai) or a `ctx` of another type.
    pub fn typed<T: 'static>(&self) -> Option<Typed<T>> {
        if self.loops {
            return None;
        }
        let code = Arc::clone(self.code.as_ref()?);
        code.downcast::<code::Code<T>>().ok().map(Typed)
    }

    /// Run the script on `ctx`: its value, or why it stopped ([`Flow::Bail`]:
    /// Rhai must run it; `ctx` is then as it was).
    #[inline]
    pub fn run<T: 'static>(&self, ctx: &mut T) -> Result<Val, Flow> {
        if let Some(code) = self
            .code
            .as_deref()
            .and_then(|c| c.downcast_ref::<code::Code<T>>())
        {
            return self.run_code(code, ctx);
        }
        self.run_walk(ctx)
    }

    /// [`Fast::run`] for what the script does, its value not made (a hook
    /// that ignores it): the same stops and errors, boxed (a run hands
    /// back one word).
    #[inline]
    pub fn run_effect<T: 'static>(&self, ctx: &mut T) -> Result<(), Box<Flow>> {
        if let Some(code) = self
            .code
            .as_deref()
            .and_then(|c| c.downcast_ref::<code::Code<T>>())
        {
            return (code.run_effect)(ctx);
        }
        self.run_walk(ctx).map(drop).map_err(Box::new)
    }

    /// [`Fast::run`] of a filter: its verdict when it gave a boolean (or
    /// nothing: true), else what it gave or why it stopped, boxed.
    #[inline]
    pub fn run_filter<T: 'static>(&self, ctx: &mut T) -> Result<bool, Box<Result<Val, Flow>>> {
        if let Some(code) = self
            .code
            .as_deref()
            .and_then(|c| c.downcast_ref::<code::Code<T>>())
        {
            return (code.run_filter)(ctx);
        }
        match self.run_walk(ctx) {
            Ok(Val::Bool(b)) => Ok(b),
            Ok(Val::Unit) => Ok(true),
            other => Err(Box::new(other)),
        }
    }

    /// [`Fast::run`] by the closures of the tree.
    fn run_code<T: 'static>(&self, code: &code::Code<T>, ctx: &mut T) -> Result<Val, Flow> {
        self.with_locals(|ints, vals| {
            let mut f = code::Fr {
                ctx,
                ints,
                vals,
                ops: 0,
            };
            match (code.body)(&mut f) {
                Ok(v) => Ok(v),
                Err(Flow::Return(v)) => Ok(v),
                Err(f) => Err(f),
            }
        })
    }

    /// `f` on the run's locals ([`with_locals`]).
    #[inline(always)]
    fn with_locals<R>(&self, f: impl FnOnce(&mut [i64], &mut [Val]) -> R) -> R {
        with_locals(self.slots, self.plain, f)
    }

    /// [`Fast::run`] by a walk of the tree (the reference the closures
    /// are tested against, and a run on a `ctx` type they were not made
    /// for).
    pub fn run_walk<T: 'static>(&self, ctx: &mut T) -> Result<Val, Flow> {
        if self.loops {
            self.walk::<T, true>(ctx).0
        } else {
            self.walk::<T, false>(ctx).0
        }
    }

    /// [`Fast::run`], and its count of operations (an upper bound of
    /// Rhai's count for the same run).
    pub fn run_counted<T: 'static>(&self, ctx: &mut T) -> (Result<Val, Flow>, u64) {
        self.walk::<T, true>(ctx)
    }

    fn walk<T: 'static, const COUNT: bool>(&self, ctx: &mut T) -> (Result<Val, Flow>, u64) {
        let fields = match &self.fields {
            // Checked once a run: the fields are of this `ctx` type.
            Some(f) => match f.downcast_ref::<Fields<T>>() {
                Some(f) => Some(f),
                None => return (Err(Flow::Bail), 0),
            },
            None => None,
        };
        self.with_locals(|ints, vals| {
            let mut r = Run::<T, COUNT> {
                ctx,
                fields,
                ints,
                vals,
                ops: 0,
            };
            let result = match r.block(&self.body, true) {
                Ok(v) => Ok(v),
                Err(Flow::Return(v)) => Ok(v),
                Err(f) => Err(f),
            };
            (result, r.ops)
        })
    }
}

impl<T: 'static, const COUNT: bool> Run<'_, T, COUNT> {
    /// Count `w` more operations: past the budget, stop before anything
    /// Rhai might not have reached.
    #[inline(always)]
    fn charge(&mut self, w: u64) -> Result<(), Flow> {
        if !COUNT {
            return Ok(());
        }
        self.ops += w;
        if self.ops > super::MAX_OPERATIONS {
            return Err(Flow::OverBudget);
        }
        Ok(())
    }

    /// Run a block: its value (that of its last statement) when `value`,
    /// else nothing (a value nobody reads is not made).
    #[inline]
    fn block(&mut self, b: &Block, value: bool) -> Result<Val, Flow> {
        self.charge(b.w)?;
        match b.body.split_last() {
            None => Ok(Val::Unit),
            Some((last, rest)) => {
                for s in rest {
                    self.stmt(s)?;
                }
                if value {
                    self.value(last)
                } else {
                    self.stmt(last)?;
                    Ok(Val::Unit)
                }
            }
        }
    }

    /// One round of a loop's body: `false` at `break`.
    fn round(&mut self, body: &Block) -> Result<bool, Flow> {
        // Rhai counts one operation a round besides the body's.
        self.charge(NODE_WEIGHT)?;
        match self.block(body, false) {
            Ok(_) | Err(Flow::Continue) => Ok(true),
            Err(Flow::Break) => Ok(false),
            Err(f) => Err(f),
        }
    }

    /// A statement's value, for the last of a block whose value counts.
    fn value(&mut self, s: &S) -> Result<Val, Flow> {
        match s {
            S::Expr(e) => self.expr(e),
            S::If(cond, body, branch) => {
                if self.boolean(cond)? {
                    self.block(body, true)
                } else {
                    self.block(branch, true)
                }
            }
            s => {
                self.stmt(s)?;
                Ok(Val::Unit)
            }
        }
    }

    /// Run a statement for what it does.
    #[inline]
    fn stmt(&mut self, s: &S) -> Result<(), Flow> {
        match s {
            S::Expr(e) => self.effect(e)?,
            S::SetInt(slot, e) => self.ints[*slot] = self.int(e)?,
            S::SetBool(slot, e) => self.ints[*slot] = i64::from(self.boolean(e)?),
            S::SetVal(slot, e) => self.vals[*slot] = self.expr(e)?,
            S::OpAssign(slot, op, e, pos) => {
                let y = self.int(e)?;
                let x = self.ints[*slot];
                self.ints[*slot] = apply(*op, x, y, *pos)?;
            }
            S::If(cond, body, branch) => {
                if self.boolean(cond)? {
                    self.block(body, false)?;
                } else {
                    self.block(branch, false)?;
                }
            }
            S::For {
                slot,
                from,
                to,
                inclusive,
                body,
            } => {
                let a = self.int(from)?;
                let b = self.int(to)?;
                // Rhai iterates a range of whole numbers as Rust does.
                if *inclusive {
                    for v in a..=b {
                        self.ints[*slot] = v;
                        if !self.round(body)? {
                            break;
                        }
                    }
                } else {
                    for v in a..b {
                        self.ints[*slot] = v;
                        if !self.round(body)? {
                            break;
                        }
                    }
                }
            }
            S::While(cond, cw, body) => loop {
                if let Some(c) = cond {
                    self.charge(*cw)?;
                    if !self.boolean(c)? {
                        break;
                    }
                }
                if !self.round(body)? {
                    break;
                }
            },
            S::Break => return Err(Flow::Break),
            S::Continue => return Err(Flow::Continue),
            S::Return(e) => {
                let v = match e {
                    Some(e) => self.expr(e)?,
                    None => Val::Unit,
                };
                return Err(Flow::Return(v));
            }
            S::Bail => return Err(Flow::Bail),
        }
        Ok(())
    }

    /// An expression evaluated for what it does (its value unused).
    #[inline]
    fn effect(&mut self, e: &E) -> Result<(), Flow> {
        match e {
            E::Const(_) | E::LocalInt(_) | E::LocalBool(_) | E::LocalVal(_) => Ok(()),
            _ => self.expr(e).map(drop),
        }
    }

    /// A field or operation of `ctx` through its boxed closure.
    fn call(&mut self, m: &Method, args: &[E], pos: Position) -> Result<Val, Flow> {
        let mut values = [0i64; 3];
        for (out, a) in values.iter_mut().zip(args.iter()) {
            *out = self.int(a)?;
        }
        match m(self.ctx, &values[..args.len()]).ok_or(Flow::Bail)? {
            Ok(v) => Ok(v),
            Err(mut err) => {
                err.set_position(pos);
                Err(Flow::Err(err))
            }
        }
    }

    /// An expression of type [`Ty::Int`].
    #[inline]
    fn int(&mut self, e: &E) -> Result<i64, Flow> {
        Ok(match e {
            E::Const(v) => v.int(),
            E::LocalInt(slot) => self.ints[*slot],
            E::GetInt(i) => match self.fields {
                Some(f) => (f.ints[*i])(self.ctx),
                None => return Err(Flow::Bail),
            },
            E::Arith(op, ab, pos) => {
                let x = self.int(&ab.0)?;
                let y = self.int(&ab.1)?;
                apply(*op, x, y, *pos)?
            }
            E::Neg(x, pos) => {
                let x = self.int(x)?;
                x.checked_neg()
                    .ok_or_else(|| arith_err("integer overflow".into(), *pos))?
            }
            _ => self.expr(e)?.int(),
        })
    }

    /// An expression of type [`Ty::Bool`].
    #[inline]
    fn boolean(&mut self, e: &E) -> Result<bool, Flow> {
        Ok(match e {
            E::Const(v) => v.bool(),
            E::LocalBool(slot) => self.ints[*slot] != 0,
            E::GetBool(i) => match self.fields {
                Some(f) => (f.bools[*i])(self.ctx),
                None => return Err(Flow::Bail),
            },
            E::Cmp(op, Ty::Int, ab) => {
                let x = self.int(&ab.0)?;
                op.holds(x, self.int(&ab.1)?)
            }
            E::Cmp(op, Ty::Bool, ab) => {
                let x = self.boolean(&ab.0)?;
                op.holds(x, self.boolean(&ab.1)?)
            }
            E::Cmp(op, _, ab) => {
                let a = self.expr(&ab.0)?;
                let b = self.expr(&ab.1)?;
                match op {
                    Cmp::Eq => a == b,
                    Cmp::Ne => a != b,
                    _ => unreachable!("typed when compiled"),
                }
            }
            E::Not(x) => !self.boolean(x)?,
            E::And(items) => {
                for x in items.iter() {
                    if !self.boolean(x)? {
                        return Ok(false);
                    }
                }
                true
            }
            E::Or(items) => {
                for x in items.iter() {
                    if self.boolean(x)? {
                        return Ok(true);
                    }
                }
                false
            }
            _ => self.expr(e)?.bool(),
        })
    }

    /// An expression of any type, as a value.
    fn expr(&mut self, e: &E) -> Result<Val, Flow> {
        Ok(match e {
            E::Const(v) => v.clone(),
            E::LocalVal(slot) => self.vals[*slot].clone(),
            E::Get(g) => g(self.ctx).ok_or(Flow::Bail)?,
            E::Call(m, args, pos) => self.call(m, args, *pos)?,
            E::LocalInt(_) | E::GetInt(_) | E::Arith(..) | E::Neg(..) => Val::Int(self.int(e)?),
            E::LocalBool(_) | E::GetBool(_) | E::Cmp(..) | E::Not(_) | E::And(_) | E::Or(_) => {
                Val::Bool(self.boolean(e)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Api, Hook, Program, Script};
    use super::*;
    use proptest::prelude::*;

    /// A `ctx` with a field of each type, readings that refuse some
    /// arguments and operations that change it.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Probe {
        n: i64,
        m: i64,
        flag: bool,
        name: &'static str,
        pushed: Vec<i64>,
    }

    fn register(r: &mut Reg) {
        r.engine.register_type_with_name::<Probe>("Probe");
        r.get("n", |p: &mut Probe| p.n);
        r.get("m", |p: &mut Probe| p.m);
        r.get("flag", |p: &mut Probe| p.flag);
        r.get_str("name", |p: &mut Probe| p.name);
        r.read1("at", |p: &mut Probe, i: i64| -> Res<i64> {
            if (0..8).contains(&i) {
                Ok(p.n * i)
            } else {
                Err(format!("{i} is not a place").into())
            }
        });
        r.read2("less", |_: &mut Probe, a: i64, b: i64| -> Res<bool> {
            Ok(a < b)
        });
        r.op1("push", |p: &mut Probe, v: i64| -> Res<()> {
            if v < -50 {
                return Err(format!("{v} is refused").into());
            }
            p.pushed.push(v);
            Ok(())
        });
        r.op0("bump", |p: &mut Probe| -> Res<()> {
            p.n += 1;
            Ok(())
        });
    }

    static API: Api = Api {
        hooks: &[Hook {
            name: "h",
            about: "",
        }],
        register,
    };

    /// A small random source for the generator (xorshift).
    struct Gen {
        s: u64,
        ints: Vec<String>,
        bools: Vec<String>,
        next_var: usize,
        /// Loops around the statement being made.
        loops: u32,
    }

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.s ^= self.s << 13;
            self.s ^= self.s >> 7;
            self.s ^= self.s << 17;
            self.s % n
        }

        fn pick<'a>(&mut self, of: &'a [&'a str]) -> &'a str {
            of[self.below(of.len() as u64) as usize]
        }

        fn int(&mut self, depth: u32) -> String {
            let leaf = depth == 0 || self.below(3) == 0;
            if leaf {
                return match self.below(7) {
                    0 => self.pick(&["0", "1", "2", "7", "-3"]).to_owned(),
                    1 => self
                        .pick(&[
                            "9223372036854775807",
                            "4611686018427387904",
                            "-9223372036854775807",
                        ])
                        .to_owned(),
                    2 if !self.ints.is_empty() => {
                        let i = self.below(self.ints.len() as u64) as usize;
                        self.ints[i].clone()
                    }
                    3 => "ctx.m".to_owned(),
                    4 => format!("ctx.at({})", self.int(depth.saturating_sub(1))),
                    _ => "ctx.n".to_owned(),
                };
            }
            match self.below(3) {
                0 => format!("-({})", self.int(depth - 1)),
                _ => {
                    let op = self.pick(&["+", "-", "*", "/", "%"]);
                    format!("({} {op} {})", self.int(depth - 1), self.int(depth - 1))
                }
            }
        }

        fn boolean(&mut self, depth: u32) -> String {
            if depth == 0 || self.below(3) == 0 {
                return match self.below(5) {
                    0 => self.pick(&["true", "false"]).to_owned(),
                    1 if !self.bools.is_empty() => {
                        let i = self.below(self.bools.len() as u64) as usize;
                        self.bools[i].clone()
                    }
                    2 => format!("ctx.name {} \"a\"", self.pick(&["==", "!="])),
                    3 => format!("ctx.less({}, {})", self.int(1), self.int(1)),
                    _ => "ctx.flag".to_owned(),
                };
            }
            match self.below(4) {
                0 => format!("!({})", self.boolean(depth - 1)),
                1 => {
                    let op = self.pick(&["&&", "||", "==", "!="]);
                    format!(
                        "({} {op} {})",
                        self.boolean(depth - 1),
                        self.boolean(depth - 1)
                    )
                }
                _ => {
                    let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
                    format!("({} {op} {})", self.int(depth - 1), self.int(depth - 1))
                }
            }
        }

        fn block(&mut self, depth: u32, out: &mut String) {
            let (ni, nb) = (self.ints.len(), self.bools.len());
            for _ in 0..1 + self.below(4) {
                self.stmt(depth, out);
            }
            self.ints.truncate(ni);
            self.bools.truncate(nb);
        }

        /// A loop of some kind around a block, or (rarely) one that runs
        /// into the budget of operations or near it.
        fn looped(&mut self, depth: u32, out: &mut String) {
            let v = format!("i{}", self.next_var);
            self.next_var += 1;
            let ni = self.ints.len();
            self.loops += 1;
            match self.below(40) {
                0 => out.push_str("loop { ctx.bump(); }\n"),
                1 => {
                    // About the budget: Rhai may or may not finish it.
                    let n = 30_000 + self.below(40_000);
                    out.push_str(&format!("for {v} in 0..{n} {{ ctx.bump(); }}\n"));
                }
                2 => out.push_str(&format!(
                    "let {v} = 0; while {v} < 100000 {{ {v} += 1; if ctx.n > {} {{ break; }} }}\n",
                    self.below(90_000)
                )),
                3..=20 => {
                    let (a, b) = (self.int(1), self.int(1));
                    let op = self.pick(&["..", "..="]);
                    out.push_str(&format!("for {v} in ({a} % 5){op}({b} % 7) {{\n"));
                    self.ints.push(v);
                    self.block(depth - 1, out);
                    out.push_str("}\n");
                }
                21..=28 => {
                    let (a, b) = (self.below(4), self.below(6));
                    out.push_str(&format!("for {v} in {a}..{b} {{\n"));
                    self.ints.push(v);
                    self.block(depth - 1, out);
                    out.push_str("}\n");
                }
                _ => {
                    out.push_str(&format!(
                        "let {v} = 0;\nwhile {v} < {} {{\n{v} += 1;\n",
                        self.below(5)
                    ));
                    self.block(depth - 1, out);
                    out.push_str("}\n");
                }
            }
            self.loops -= 1;
            self.ints.truncate(ni);
        }

        fn stmt(&mut self, depth: u32, out: &mut String) {
            if depth > 0 && self.below(8) == 0 {
                return self.looped(depth, out);
            }
            if self.loops > 0 && self.below(10) == 0 {
                let what = self.pick(&["break", "continue"]);
                out.push_str(&format!("if {} {{ {what}; }}\n", self.boolean(1)));
                return;
            }
            match self.below(12) {
                0 | 1 => {
                    let v = format!("v{}", self.next_var);
                    self.next_var += 1;
                    out.push_str(&format!("let {v} = {};\n", self.int(2)));
                    self.ints.push(v);
                }
                2 => {
                    let v = format!("b{}", self.next_var);
                    self.next_var += 1;
                    out.push_str(&format!("let {v} = {};\n", self.boolean(2)));
                    self.bools.push(v);
                }
                3 if !self.ints.is_empty() => {
                    let i = self.below(self.ints.len() as u64) as usize;
                    let op = self.pick(&["=", "+=", "-=", "*=", "/=", "%="]);
                    let v = self.ints[i].clone();
                    out.push_str(&format!("{v} {op} {};\n", self.int(2)));
                }
                4 => out.push_str(&format!("ctx.push({});\n", self.int(2))),
                5 => out.push_str("ctx.bump();\n"),
                6 | 7 if depth > 0 => {
                    out.push_str(&format!("if {} {{\n", self.boolean(2)));
                    self.block(depth - 1, out);
                    if self.below(2) == 0 {
                        out.push_str("} else {\n");
                        self.block(depth - 1, out);
                    }
                    out.push_str("}\n");
                }
                8 => {
                    // Outside the subset: Rhai runs the script (a bail),
                    // or all of it when an operation may have come before.
                    out.push_str(&format!(
                        "let s = `x${{{}}}`; ctx.push(s.len());\n",
                        self.int(1)
                    ));
                }
                9 if self.below(4) == 0 => {
                    out.push_str(&format!("return {};\n", self.int(2)));
                }
                10 => out.push_str(&format!("{};\n", self.boolean(2))),
                _ => out.push_str(&format!("{};\n", self.int(2))),
            }
        }
    }

    fn script_of(seed: u64) -> String {
        let mut g = Gen {
            s: seed | 1,
            ints: Vec::new(),
            bools: Vec::new(),
            next_var: 0,
            loops: 0,
        };
        let mut code = String::new();
        g.block(3, &mut code);
        // The script's value: its last statement.
        match g.below(3) {
            0 => code.push_str(&g.int(2)),
            1 => code.push_str(&g.boolean(2)),
            _ => {}
        }
        code
    }

    fn probe(seed: u64) -> Probe {
        Probe {
            n: (seed % 7) as i64 - 2,
            m: [0, 1, -1, i64::MAX, i64::MIN + 1][(seed % 5) as usize],
            flag: seed.is_multiple_of(2),
            name: if seed.is_multiple_of(3) { "a" } else { "b" },
            pushed: Vec::new(),
        }
    }

    /// A script named `s` at the hook `h`.
    fn script(code: &str) -> Script {
        Script {
            name: "s".into(),
            description: String::new(),
            hook: "h".into(),
            code: code.into(),
        }
    }

    /// Run `code` both ways on the same `ctx`: the same value, the same
    /// `ctx` afterwards, the same failure. Whether it took the fast path.
    fn agree(code: &str, seed: u64) -> Result<bool, TestCaseError> {
        let Ok(mut p) = Program::new(&API, &[script(code)]) else {
            // Rhai refuses it (too deep an expression): nothing to compare.
            return Ok(false);
        };
        // Rhai's own count of operations, of its last run.
        let counted = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let c = Arc::clone(&counted);
        p.engine.on_progress(move |n| {
            c.store(n, std::sync::atomic::Ordering::Relaxed);
            None
        });
        let (mut fast, mut slow) = (probe(seed), probe(seed));
        let a = p.run(0, &mut fast);
        let b = p.run_rhai(0, &mut slow);
        let rhai_ops = counted.load(std::sync::atomic::Ordering::Relaxed);
        let show = |r: &Result<Dynamic, super::super::Failure>| match r {
            Ok(v) => Ok(format!("{} {v:?}", v.type_name())),
            Err(f) => Err(f.to_string()),
        };
        prop_assert_eq!(show(&a), show(&b), "{}", code);
        prop_assert_eq!(fast, slow, "{}", code);
        // The closures do what the walk of the tree does, step for step:
        // the same value or stop (a bail, the budget, an error), the same
        // `ctx` afterwards.
        if let Some(f) = &p.compiled[0].fast {
            prop_assert!(f.code.is_some(), "no closures: {}", code);
            let flow = |r: Result<Val, Flow>| match r {
                Ok(v) => format!("{v:?}"),
                Err(Flow::Err(e)) => format!("error {e}"),
                Err(Flow::Return(v)) => format!("return {v:?}"),
                Err(Flow::Bail) => "bail".into(),
                Err(Flow::OverBudget) => "over budget".into(),
                Err(Flow::Break) => "break".into(),
                Err(Flow::Continue) => "continue".into(),
            };
            let (mut x, mut y) = (probe(seed), probe(seed));
            prop_assert_eq!(flow(f.run(&mut x)), flow(f.run_walk(&mut y)), "{}", code);
            prop_assert_eq!(x, y, "{}", code);
            // The runs for an effect and for a filter stop where the walk
            // does, and give its value as they are meant to.
            let (mut x, mut y) = (probe(seed), probe(seed));
            let walked = f.run_walk(&mut y);
            let effect = match f.run_effect(&mut x) {
                Ok(()) => "ended".to_string(),
                Err(e) => flow(Err(*e)),
            };
            let walked_effect = match walked {
                Ok(_) | Err(Flow::Return(_)) => "ended".to_string(),
                other => flow(other),
            };
            prop_assert_eq!(effect, walked_effect, "{}", code);
            prop_assert_eq!(&x, &y, "{}", code);
            let mut x = probe(seed);
            let filter = match f.run_filter(&mut x) {
                Ok(b) => format!("verdict {b}"),
                Err(other) => flow(*other),
            };
            let walked_filter = match f.run_walk(&mut probe(seed)) {
                Ok(Val::Bool(b)) | Err(Flow::Return(Val::Bool(b))) => format!("verdict {b}"),
                Ok(Val::Unit) | Err(Flow::Return(Val::Unit)) => "verdict true".to_string(),
                Err(Flow::Return(v)) => flow(Ok(v)),
                other => flow(other),
            };
            prop_assert_eq!(filter, walked_filter, "{}", code);
            prop_assert_eq!(x, y, "{}", code);
        }
        // What a hook that ignores the value, and a filter, get of a run:
        // the same failure, `ctx` and verdict as a whole run gives.
        {
            let (mut x, mut y) = (probe(seed), probe(seed));
            let whole = p.exec(0, &mut y);
            let effect = p.exec_effect(0, &mut x).map_err(|f| *f);
            prop_assert_eq!(effect, whole.map(drop), "{}", code);
            prop_assert_eq!(x, y, "{}", code);
            let (mut x, mut y) = (probe(seed), probe(seed));
            let (pa, pb) = (std::sync::OnceLock::new(), std::sync::OnceLock::new());
            let a = p.exec_filter(0, &mut x, &pa, || "the event".into());
            let run = p.exec(0, &mut y);
            let b = p.filter_verdict(0, run, &pb, || "the event".into());
            prop_assert_eq!(a, b, "{}", code);
            prop_assert_eq!(pa.get(), pb.get(), "{}", code);
            prop_assert_eq!(x, y, "{}", code);
        }
        // The walk's count is an upper bound of Rhai's wherever the walk
        // ended by itself (neither left to Rhai nor stopped at the budget).
        if let Some(f) = &p.compiled[0].fast {
            let (r, ops) = f.run_counted(&mut probe(seed));
            if matches!(r, Ok(_) | Err(Flow::Err(_))) {
                prop_assert!(
                    rhai_ops <= ops,
                    "Rhai counted {} > {}: {}",
                    rhai_ops,
                    ops,
                    code
                );
            }
        }
        Ok(p.is_fast(0))
    }

    /// Calls nested deep, where Rhai's count per node is highest: the
    /// walk's bound stays above it (two cases the property test once
    /// found, and their kin).
    #[test]
    fn nested_calls_are_counted_at_least_as_rhai_counts() {
        let mut codes = vec![
            "(ctx.at(ctx.n) % ctx.at(ctx.at(ctx.n)));".to_string(),
            "ctx.push(ctx.at(ctx.at(ctx.at(ctx.n))));".to_string(),
            "-ctx.at(-ctx.n)".to_string(),
        ];
        let mut nest = "ctx.n".to_string();
        for _ in 0..12 {
            nest = format!("ctx.at({nest})");
            codes.push(nest.clone());
            codes.push(format!("ctx.push({nest});"));
            codes.push(format!("{nest} + {nest};"));
        }
        let mut compiled = 0;
        for code in &codes {
            // Past Rhai's limit of depth it refuses the script itself.
            let Ok(mut p) = Program::new(&API, &[script(code)]) else {
                continue;
            };
            compiled += 1;
            let counted = Arc::new(std::sync::atomic::AtomicU64::new(0));
            let c = Arc::clone(&counted);
            p.engine.on_progress(move |n| {
                c.store(n, std::sync::atomic::Ordering::Relaxed);
                None
            });
            let _ = p.run_rhai(0, &mut probe(3));
            let rhai = counted.load(std::sync::atomic::Ordering::Relaxed);
            let fast = p.compiled[0].fast.as_ref().expect(code);
            let (_, ours) = fast.run_counted(&mut probe(3));
            assert!(rhai > 0 && rhai <= ours, "{code}: Rhai {rhai}, walk {ours}");
        }
        assert!(compiled >= 20, "only {compiled} scripts compiled");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn the_fast_path_agrees_with_rhai(seed in any::<u64>()) {
            let code = script_of(seed);
            agree(&code, seed)?;
        }
    }

    #[test]
    fn most_generated_scripts_take_the_fast_path_and_all_agree() {
        let mut fast = 0;
        for seed in 1..=2000u64 {
            let code = script_of(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            if agree(&code, seed).expect("agrees") {
                fast += 1;
            }
        }
        assert!(fast > 1000, "only {fast} of 2000 took the fast path");
    }

    #[test]
    fn errors_keep_their_place_and_words() {
        for (code, words) in [
            (
                "let a = 1;\nlet b = ctx.m + 9223372036854775807;",
                "Addition overflow",
            ),
            ("ctx.push(-60);", "-60 is refused"),
            ("let x = ctx.at(9);", "9 is not a place"),
            ("let z = 0; z = ctx.n / z;", "Division by zero"),
            (
                "if ctx.flag || true { let q = -ctx.m; q }",
                "integer overflow",
            ),
        ] {
            let p = Program::new(&API, &[script(code)]).expect("compiles");
            assert!(p.is_fast(0), "{code}");
            let mut c = Probe {
                m: i64::MIN,
                ..probe(0)
            };
            if code.contains("+ 9223372036854775807") {
                c.m = 1;
            }
            let f = p.run(0, &mut c.clone()).expect_err(code);
            let g = p.run_rhai(0, &mut c).expect_err(code);
            assert_eq!(f, g, "{code}");
            assert!(f.message.contains(words), "{code}: {f}");
            assert!(f.message.contains(" at line "), "{code}: {f}");
        }
    }

    #[test]
    fn functions_stay_in_rhai_loops_do_not_and_a_bail_comes_before_any_change() {
        let fast = |code: &str| {
            Program::new(&API, &[script(code)])
                .expect("compiles")
                .is_fast(0)
        };
        assert!(fast("for i in 0..3 { ctx.bump(); }"));
        assert!(fast(
            "for i in 1..=ctx.n { if i == 2 { continue; } ctx.push(i); }"
        ));
        assert!(fast("let i = 0; while i < 3 { i += 1; ctx.bump(); }"));
        assert!(fast("loop { ctx.bump(); if ctx.n > 3 { break; } }"));
        assert!(!fast("fn f(x) { x } ctx.push(f(1));"));
        assert!(fast("if ctx.flag { for i in 0..3 { ctx.bump(); } }"));
        assert!(fast("ctx.bump(); for i in 0..3 { ctx.bump(); }"));
        // Outside the subset after a change, or in a loop: all Rhai's.
        assert!(!fast("ctx.bump(); let s = `x${ctx.n}`;"));
        assert!(!fast("for i in 0..3 { let s = `x${i}`; }"));
        assert!(!fast("for (v, i) in 0..3 { ctx.push(i); }"));
        assert!(fast("let a = ctx.at(1); ctx.bump();"));
        // An endless loop still meets Rhai's budget.
        let p = Program::new(&API, &[script("if ctx.n == 0 { loop { } }")]).expect("compiles");
        assert!(p.is_fast(0));
        let mut c = probe(2);
        let f = p.run(0, &mut c).expect_err("endless");
        assert!(f.message.contains("budget"), "{f}");
        // One that changes `ctx` on its way: Rhai runs it again from the
        // `ctx` it started with, and ends at the same place.
        let p = Program::new(&API, &[script("loop { ctx.bump(); }")]).expect("compiles");
        assert!(p.is_fast(0));
        let (mut a, mut b) = (probe(2), probe(2));
        let f = p.run(0, &mut a).expect_err("endless");
        let g = p.run_rhai(0, &mut b).expect_err("endless");
        assert_eq!(f, g);
        assert!(
            f.message.contains("budget") && f.message.contains("line 1"),
            "{f}"
        );
        assert_eq!(a, b);
    }

    /// Whether the script of shipped variant `name` runs all in the fast
    /// path (`Some(true)`), in part (`Some(false)`: some statement is
    /// Rhai's) or not at all (`None`).
    fn shipped_is_fast(api: &Api, name: &str) -> Option<bool> {
        let path = format!("{}/variants/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("a shipped variant");
        let doc: toml::Table = toml::from_str(&text).expect("toml");
        let table = &doc["script"].as_array().expect("scripts")[0];
        let script = Script {
            name: name.into(),
            description: String::new(),
            hook: table["hook"].as_str().expect("hook").into(),
            code: table["code"].as_str().expect("code").into(),
        };
        let p = Program::new(api, &[script]).expect("compiles");
        if let Some(f) = &p.compiled[0].fast {
            assert!(f.code.is_some(), "{name}: no closures for the game's ctx");
        }
        p.compiled[0].fast.as_ref().map(|f| !f.bails)
    }

    #[test]
    fn the_shipped_examples_take_the_fast_path() {
        use crate::games::{branches, roots_and_shoots, roots_growy_roots, sprout_r_out};
        let rs = &roots_and_shoots::script::API;
        let all = Some(true);
        assert_eq!(shipped_is_fast(rs, "edge-double"), all);
        // `ctx.get` and `ctx.set` are Rhai's: it tests face and kind first.
        assert_eq!(shipped_is_fast(rs, "reroll-ones"), Some(false));
        assert_eq!(shipped_is_fast(rs, "no-edge-plants"), all);
        assert_eq!(
            shipped_is_fast(&branches::script::API, "branches-own-coin"),
            all
        );
        assert_eq!(
            shipped_is_fast(&roots_growy_roots::script::API, "rgr-bridge-water"),
            all
        );
        assert_eq!(
            shipped_is_fast(&sprout_r_out::script::API, "sprout-edge-territory"),
            all
        );
    }
}
