//! The fast path's tree compiled to closures for one `ctx` type: each
//! node of [`super::Block`], [`super::S`] and [`super::E`] becomes a
//! boxed closure that calls its children directly, typed by what it gives
//! back (a whole number, a boolean, a value, nothing), and a field of
//! `ctx` read by the plain function of the game's [`Fields`] it captured.
//! A run is then one call of the script's closure: no dispatch on the
//! tree's node kinds, no check of `ctx`'s type per field read, no value
//! made for a statement.
//!
//! The closures do exactly what the walk ([`super::Run`]) does, node for
//! node (the same checks, errors, count of operations and stops), so the
//! walk stays the reference: the property tests run both and compare.
//! They are made once, when a script is compiled, for the `ctx` type the
//! game registered its fields on ([`super::Natives`]); a run on another
//! type (none in the games) walks the tree.

use std::any::Any;

use super::{
    Block, Cmp, E, Fast, Fields, Flow, Method, NODE_WEIGHT, S, STACK_SLOTS, Ty, Val, apply,
    arith_err, with_locals,
};

/// What a run's closures work on: the `ctx`, the locals, the count of
/// operations (of a script with a loop).
pub(super) struct Fr<'a, T> {
    pub ctx: &'a mut T,
    pub ints: &'a mut [i64],
    pub vals: &'a mut [Val],
    pub ops: u64,
}

type R<X> = Result<X, Flow>;
type CI<T> = Box<dyn for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<i64> + Send + Sync>;
type CB<T> = Box<dyn for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<bool> + Send + Sync>;
pub(super) type CV<T> = Box<dyn for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<Val> + Send + Sync>;
pub(super) type CS<T> = Box<dyn for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<()> + Send + Sync>;

fn ci<T, F>(f: F) -> CI<T>
where
    F: for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<i64> + Send + Sync + 'static,
{
    Box::new(f)
}

fn cb<T, F>(f: F) -> CB<T>
where
    F: for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<bool> + Send + Sync + 'static,
{
    Box::new(f)
}

fn cv<T, F>(f: F) -> CV<T>
where
    F: for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<Val> + Send + Sync + 'static,
{
    Box::new(f)
}

fn cs<T, F>(f: F) -> CS<T>
where
    F: for<'a, 'b> Fn(&'b mut Fr<'a, T>) -> R<()> + Send + Sync + 'static,
{
    Box::new(f)
}

/// A whole run for what it does: `Ok` when the script ended (by its end
/// or `return`), else why it stopped, boxed (rare): one word back.
type RunEffect<T> = Box<dyn Fn(&mut T) -> Result<(), Box<Flow>> + Send + Sync>;
/// A whole run of a filter: its verdict when it gave a boolean or
/// nothing (true), else what it gave or why it stopped, boxed (rare).
type RunFilter<T> = Box<dyn Fn(&mut T) -> Result<bool, Box<Result<Val, Flow>>> + Send + Sync>;

/// A script's closures for `ctx` type `T`.
pub(super) struct Code<T> {
    /// The script's body, giving its value.
    pub body: CV<T>,
    /// A run of the body for what it does, its value not made (a hook
    /// that ignores it: the walk's `block(b, false)`, with the same
    /// checks, errors and count of operations), its locals made in it.
    pub run_effect: RunEffect<T>,
    /// A run of the body as a filter, its locals made in it.
    pub run_filter: RunFilter<T>,
    /// The body for what it does ([`Code::run_effect`]'s) and as a filter
    /// ([`Code::run_filter`]'s), kept apart when a caller may make the
    /// run's frame itself ([`run_unit`], [`run_value`]): a script without
    /// a loop whose locals are whole numbers and booleans that fit on
    /// the stack.
    pub unit: Option<CS<T>>,
    pub value: Option<CV<T>>,
    /// How many locals the script has.
    pub slots: usize,
}

/// Build the closures of `fast` for `ctx` type `T`, the game's fields
/// `fields` (those the tree's typed reads index); `COUNT` when the script
/// counts its operations (it has a loop).
pub(super) fn build<T: 'static>(fast: &Fast, fields: Option<&Fields<T>>) -> Code<T> {
    let b = Builder { fields };
    let (slots, plain) = (fast.slots, fast.plain);
    if fast.loops {
        Code {
            body: b.block_value::<true>(&fast.body),
            run_effect: effect_runner(b.block_unit::<true>(&fast.body), slots, plain),
            run_filter: filter_runner(b.block_value::<true>(&fast.body), slots, plain),
            unit: None,
            value: None,
            slots,
        }
    } else {
        let apart = plain && slots <= STACK_SLOTS;
        Code {
            body: b.block_value::<false>(&fast.body),
            run_effect: effect_runner(b.block_unit::<false>(&fast.body), slots, plain),
            run_filter: filter_runner(b.block_value::<false>(&fast.body), slots, plain),
            unit: apart.then(|| b.block_unit::<false>(&fast.body)),
            value: apart.then(|| b.block_value::<false>(&fast.body)),
            slots,
        }
    }
}

/// A run of `body` for what it does ([`Code::unit`]), its frame made by
/// the caller: what [`Code::run_effect`] does, inlined.
#[inline(always)]
pub(super) fn run_unit<T>(body: &CS<T>, slots: usize, ctx: &mut T) -> Result<(), Box<Flow>> {
    let mut ints = [0i64; STACK_SLOTS];
    let mut f = Fr {
        ctx,
        ints: &mut ints[..slots],
        vals: &mut [],
        ops: 0,
    };
    effect_end(body(&mut f))
}

/// A run of `body` as a filter ([`Code::value`]), as [`run_unit`].
#[inline(always)]
pub(super) fn run_value<T>(
    body: &CV<T>,
    slots: usize,
    ctx: &mut T,
) -> Result<bool, Box<Result<Val, Flow>>> {
    let mut ints = [0i64; STACK_SLOTS];
    let mut f = Fr {
        ctx,
        ints: &mut ints[..slots],
        vals: &mut [],
        ops: 0,
    };
    filter_end(body(&mut f))
}

/// What a run for its effect gives back: the end or `return`, or why it
/// stopped.
#[inline(always)]
fn effect_end(r: R<()>) -> Result<(), Box<Flow>> {
    match r {
        Ok(()) | Err(Flow::Return(_)) => Ok(()),
        Err(e) => Err(Box::new(e)),
    }
}

/// What a filter's run gives back ([`RunFilter`]).
#[inline(always)]
fn filter_end(r: R<Val>) -> Result<bool, Box<Result<Val, Flow>>> {
    match r {
        Ok(Val::Bool(b)) | Err(Flow::Return(Val::Bool(b))) => Ok(b),
        Ok(Val::Unit) | Err(Flow::Return(Val::Unit)) => Ok(true),
        Ok(v) | Err(Flow::Return(v)) => Err(Box::new(Ok(v))),
        Err(e) => Err(Box::new(Err(e))),
    }
}

/// [`Code::run_effect`] of `body`, for a script of `slots` locals
/// (`plain`: of whole numbers and booleans only).
fn effect_runner<T: 'static>(body: CS<T>, slots: usize, plain: bool) -> RunEffect<T> {
    if plain && slots <= STACK_SLOTS {
        // The commonest: a few whole numbers, on the stack.
        return Box::new(move |ctx: &mut T| {
            let mut ints = [0i64; STACK_SLOTS];
            let mut f = Fr {
                ctx,
                ints: &mut ints[..slots],
                vals: &mut [],
                ops: 0,
            };
            effect_end(body(&mut f))
        });
    }
    Box::new(move |ctx: &mut T| {
        with_locals(slots, plain, |ints, vals| {
            let mut f = Fr {
                ctx,
                ints,
                vals,
                ops: 0,
            };
            effect_end(body(&mut f))
        })
    })
}

/// [`Code::run_filter`] of `body` (as [`effect_runner`]).
fn filter_runner<T: 'static>(body: CV<T>, slots: usize, plain: bool) -> RunFilter<T> {
    if plain && slots <= STACK_SLOTS {
        return Box::new(move |ctx: &mut T| {
            let mut ints = [0i64; STACK_SLOTS];
            let mut f = Fr {
                ctx,
                ints: &mut ints[..slots],
                vals: &mut [],
                ops: 0,
            };
            filter_end(body(&mut f))
        });
    }
    Box::new(move |ctx: &mut T| {
        with_locals(slots, plain, |ints, vals| {
            let mut f = Fr {
                ctx,
                ints,
                vals,
                ops: 0,
            };
            filter_end(body(&mut f))
        })
    })
}

/// [`build`] behind `dyn Any`, for [`super::Natives`] to keep as a plain
/// function of the game's `ctx` type: `None` when `fields` are not of `T`.
pub(super) fn build_any<T: 'static>(
    fast: &Fast,
    fields: Option<&(dyn Any + Send + Sync)>,
) -> Option<Box<dyn Any + Send + Sync>> {
    let fields = match fields {
        Some(f) => Some(f.downcast_ref::<Fields<T>>()?),
        None => None,
    };
    Some(Box::new(build::<T>(fast, fields)))
}

struct Builder<'f, T> {
    fields: Option<&'f Fields<T>>,
}

/// Count `w` more operations (only when `COUNT`): past the budget, stop.
#[inline(always)]
fn charge<T, const COUNT: bool>(f: &mut Fr<'_, T>, w: u64) -> R<()> {
    if !COUNT {
        return Ok(());
    }
    f.ops += w;
    if f.ops > crate::script::MAX_OPERATIONS {
        return Err(Flow::OverBudget);
    }
    Ok(())
}

/// One round of a loop's body: `false` at `break`.
#[inline(always)]
fn round<T, const COUNT: bool>(f: &mut Fr<'_, T>, body: &CS<T>) -> R<bool> {
    charge::<T, COUNT>(f, NODE_WEIGHT)?;
    match body(f) {
        Ok(()) | Err(Flow::Continue) => Ok(true),
        Err(Flow::Break) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Whether an expression is of whole numbers ([`Ty::Int`]) as the walk
/// evaluates it, or of booleans.
fn is_int(e: &E) -> bool {
    matches!(
        e,
        E::LocalInt(_) | E::GetInt(_) | E::Arith(..) | E::Neg(..) | E::Const(Val::Int(_))
    )
}

fn is_bool(e: &E) -> bool {
    matches!(
        e,
        E::LocalBool(_)
            | E::GetBool(_)
            | E::Cmp(..)
            | E::Not(_)
            | E::And(_)
            | E::Or(_)
            | E::Const(Val::Bool(_))
    )
}

impl<T: 'static> Builder<'_, T> {
    /// A block run for what it does (the walk's `block(b, false)`).
    fn block_unit<const COUNT: bool>(&self, b: &Block) -> CS<T> {
        let w = b.w;
        let mut stmts: Vec<CS<T>> = b.body.iter().map(|s| self.stmt::<COUNT>(s)).collect();
        if COUNT {
            return cs(move |f| {
                charge::<T, COUNT>(f, w)?;
                for s in &stmts {
                    s(f)?;
                }
                Ok(())
            });
        }
        match stmts.len() {
            0 => cs(|_| Ok(())),
            1 => stmts.pop().expect("one"),
            2 => {
                let b = stmts.pop().expect("two");
                let a = stmts.pop().expect("two");
                cs(move |f| {
                    a(f)?;
                    b(f)
                })
            }
            _ => cs(move |f| {
                for s in &stmts {
                    s(f)?;
                }
                Ok(())
            }),
        }
    }

    /// A block's value, that of its last statement (the walk's
    /// `block(b, true)`).
    fn block_value<const COUNT: bool>(&self, b: &Block) -> CV<T> {
        let w = b.w;
        let Some((last, rest)) = b.body.split_last() else {
            return cv(move |f| {
                charge::<T, COUNT>(f, w)?;
                Ok(Val::Unit)
            });
        };
        let rest: Vec<CS<T>> = rest.iter().map(|s| self.stmt::<COUNT>(s)).collect();
        let last = self.value::<COUNT>(last);
        if !COUNT && rest.is_empty() {
            return last;
        }
        cv(move |f| {
            charge::<T, COUNT>(f, w)?;
            for s in &rest {
                s(f)?;
            }
            last(f)
        })
    }

    /// A statement's value, for the last of a block whose value counts.
    fn value<const COUNT: bool>(&self, s: &S) -> CV<T> {
        match s {
            S::Expr(e) => self.val(e),
            S::If(cond, body, branch) => {
                let c = self.boolean(cond);
                let a = self.block_value::<COUNT>(body);
                let b = self.block_value::<COUNT>(branch);
                cv(move |f| if c(f)? { a(f) } else { b(f) })
            }
            s => {
                let s = self.stmt::<COUNT>(s);
                cv(move |f| {
                    s(f)?;
                    Ok(Val::Unit)
                })
            }
        }
    }

    /// A statement run for what it does.
    fn stmt<const COUNT: bool>(&self, s: &S) -> CS<T> {
        match s {
            S::Expr(e) => self.effect(e),
            &S::SetInt(slot, ref e) => {
                if let (E::GetInt(i), Some(fields)) = (e, self.fields) {
                    let g = fields.ints[*i];
                    return cs(move |f| {
                        f.ints[slot] = g(f.ctx);
                        Ok(())
                    });
                }
                let x = self.int(e);
                cs(move |f| {
                    f.ints[slot] = x(f)?;
                    Ok(())
                })
            }
            &S::SetBool(slot, ref e) => {
                let x = self.boolean(e);
                cs(move |f| {
                    f.ints[slot] = i64::from(x(f)?);
                    Ok(())
                })
            }
            &S::SetVal(slot, ref e) => {
                let x = self.val(e);
                cs(move |f| {
                    f.vals[slot] = x(f)?;
                    Ok(())
                })
            }
            &S::OpAssign(slot, op, ref e, pos) => {
                let y = self.int(e);
                cs(move |f| {
                    let y = y(f)?;
                    let x = f.ints[slot];
                    f.ints[slot] = apply(op, x, y, pos)?;
                    Ok(())
                })
            }
            S::If(cond, body, branch) => {
                let c = self.boolean(cond);
                let a = self.block_unit::<COUNT>(body);
                let b = self.block_unit::<COUNT>(branch);
                cs(move |f| if c(f)? { a(f) } else { b(f) })
            }
            &S::For {
                slot,
                ref from,
                ref to,
                inclusive,
                ref body,
            } => {
                let from = self.int(from);
                let to = self.int(to);
                let body = self.block_unit::<COUNT>(body);
                cs(move |f| {
                    let a = from(f)?;
                    let b = to(f)?;
                    // Rhai iterates a range of whole numbers as Rust does.
                    if inclusive {
                        for v in a..=b {
                            f.ints[slot] = v;
                            if !round::<T, COUNT>(f, &body)? {
                                break;
                            }
                        }
                    } else {
                        for v in a..b {
                            f.ints[slot] = v;
                            if !round::<T, COUNT>(f, &body)? {
                                break;
                            }
                        }
                    }
                    Ok(())
                })
            }
            &S::While(ref cond, cw, ref body) => {
                let cond = cond.as_ref().map(|c| self.boolean(c));
                let body = self.block_unit::<COUNT>(body);
                cs(move |f| {
                    loop {
                        if let Some(c) = &cond {
                            charge::<T, COUNT>(f, cw)?;
                            if !c(f)? {
                                break;
                            }
                        }
                        if !round::<T, COUNT>(f, &body)? {
                            break;
                        }
                    }
                    Ok(())
                })
            }
            S::Break => cs(|_| Err(Flow::Break)),
            S::Continue => cs(|_| Err(Flow::Continue)),
            S::Return(e) => match e {
                Some(e) => {
                    let x = self.val(e);
                    cs(move |f| Err(Flow::Return(x(f)?)))
                }
                None => cs(|_| Err(Flow::Return(Val::Unit))),
            },
            S::Bail => cs(|_| Err(Flow::Bail)),
        }
    }

    /// An expression evaluated for what it does (its value unused).
    fn effect(&self, e: &E) -> CS<T> {
        match e {
            E::Const(_) | E::LocalInt(_) | E::LocalBool(_) | E::LocalVal(_) => cs(|_| Ok(())),
            e if is_int(e) => {
                let x = self.int(e);
                cs(move |f| x(f).map(drop))
            }
            e if is_bool(e) => {
                let x = self.boolean(e);
                cs(move |f| x(f).map(drop))
            }
            e => {
                let x = self.val(e);
                cs(move |f| x(f).map(drop))
            }
        }
    }

    /// A field or operation of `ctx` through its boxed closure.
    fn call(&self, m: &Method, args: &[E], pos: rhai::Position) -> CV<T> {
        let m = m.clone();
        let args: Vec<CI<T>> = args.iter().map(|a| self.int(a)).collect();
        cv(move |f| {
            let mut values = [0i64; 3];
            for (out, a) in values.iter_mut().zip(args.iter()) {
                *out = a(f)?;
            }
            let ctx: &mut dyn Any = f.ctx;
            match m(ctx, &values[..args.len()]).ok_or(Flow::Bail)? {
                Ok(v) => Ok(v),
                Err(mut err) => {
                    err.set_position(pos);
                    Err(Flow::Err(err))
                }
            }
        })
    }

    /// An expression of type [`Ty::Int`].
    fn int(&self, e: &E) -> CI<T> {
        match e {
            E::Const(v) => {
                let n = v.int();
                ci(move |_| Ok(n))
            }
            &E::LocalInt(slot) => ci(move |f| Ok(f.ints[slot])),
            &E::GetInt(i) => match self.fields {
                Some(fields) => {
                    let g = fields.ints[i];
                    ci(move |f| Ok(g(f.ctx)))
                }
                None => ci(|_| Err(Flow::Bail)),
            },
            &E::Arith(op, ref ab, pos) => {
                let x = self.int(&ab.0);
                let y = self.int(&ab.1);
                ci(move |f| {
                    let a = x(f)?;
                    let b = y(f)?;
                    apply(op, a, b, pos)
                })
            }
            &E::Neg(ref x, pos) => {
                let x = self.int(x);
                ci(move |f| {
                    x(f)?
                        .checked_neg()
                        .ok_or_else(|| arith_err("integer overflow".into(), pos))
                })
            }
            e => {
                let x = self.val(e);
                ci(move |f| Ok(x(f)?.int()))
            }
        }
    }

    /// An expression of type [`Ty::Bool`].
    fn boolean(&self, e: &E) -> CB<T> {
        match e {
            E::Const(v) => {
                let b = v.bool();
                cb(move |_| Ok(b))
            }
            &E::LocalBool(slot) => cb(move |f| Ok(f.ints[slot] != 0)),
            &E::GetBool(i) => match self.fields {
                Some(fields) => {
                    let g = fields.bools[i];
                    cb(move |f| Ok(g(f.ctx)))
                }
                None => cb(|_| Err(Flow::Bail)),
            },
            &E::Cmp(op, Ty::Int, ref ab) => {
                let x = self.int(&ab.0);
                // A comparison with a constant, the commonest.
                if let E::Const(Val::Int(n)) = ab.1 {
                    return cb(move |f| Ok(op.holds(x(f)?, n)));
                }
                let y = self.int(&ab.1);
                cb(move |f| {
                    let a = x(f)?;
                    Ok(op.holds(a, y(f)?))
                })
            }
            &E::Cmp(op, Ty::Bool, ref ab) => {
                let x = self.boolean(&ab.0);
                let y = self.boolean(&ab.1);
                cb(move |f| {
                    let a = x(f)?;
                    Ok(op.holds(a, y(f)?))
                })
            }
            &E::Cmp(op, _, ref ab) => {
                // A comparison with a constant string, the commonest
                // (`ctx.kind == "place"`): the constant is kept by the
                // closure and compared as text, not cloned at each run.
                if let (x, E::Const(Val::Str(k))) | (E::Const(Val::Str(k)), x) = (&ab.0, &ab.1)
                    && matches!(op, Cmp::Eq | Cmp::Ne)
                {
                    let x = self.val(x);
                    let k = k.clone();
                    let eq = matches!(op, Cmp::Eq);
                    return cb(move |f| Ok((x(f)?.text() == Some(k.as_str())) == eq));
                }
                let x = self.val(&ab.0);
                let y = self.val(&ab.1);
                cb(move |f| {
                    let a = x(f)?;
                    let b = y(f)?;
                    Ok(match op {
                        Cmp::Eq => a == b,
                        Cmp::Ne => a != b,
                        _ => unreachable!("typed when compiled"),
                    })
                })
            }
            E::Not(x) => {
                let x = self.boolean(x);
                cb(move |f| Ok(!x(f)?))
            }
            E::And(items) => {
                let items: Vec<CB<T>> = items.iter().map(|x| self.boolean(x)).collect();
                cb(move |f| {
                    for x in &items {
                        if !x(f)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                })
            }
            E::Or(items) => {
                let items: Vec<CB<T>> = items.iter().map(|x| self.boolean(x)).collect();
                cb(move |f| {
                    for x in &items {
                        if x(f)? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                })
            }
            e => {
                let x = self.val(e);
                cb(move |f| Ok(x(f)?.bool()))
            }
        }
    }

    /// An expression of any type, as a value.
    fn val(&self, e: &E) -> CV<T> {
        match e {
            E::Const(v) => {
                let v = v.clone();
                cv(move |_| Ok(v.clone()))
            }
            &E::LocalVal(slot) => cv(move |f| Ok(f.vals[slot].clone())),
            E::Get(g) => {
                let g = g.clone();
                cv(move |f| {
                    let ctx: &mut dyn Any = f.ctx;
                    g(ctx).ok_or(Flow::Bail)
                })
            }
            E::Call(m, args, pos) => self.call(m, args, *pos),
            e if is_int(e) => {
                let x = self.int(e);
                cv(move |f| Ok(Val::Int(x(f)?)))
            }
            e => {
                let x = self.boolean(e);
                cv(move |f| Ok(Val::Bool(x(f)?)))
            }
        }
    }
}
