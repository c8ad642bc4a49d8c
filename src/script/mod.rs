//! House rules written as scripts: the `[[script]]` tables of a variant
//! file, in Rhai (<https://rhai.rs>), checked when the file is loaded and
//! run by a game's engine at its hook points (`docs/scripts.md`).
//!
//! This layer knows no game. A game that offers scripts describes its hook
//! points and registers the context type its scripts see ([`Api`]); its
//! engine builds that context at a hook, runs every script of the hook on
//! it ([`Program::run`]) and applies the operations the scripts asked for
//! through its own checked moves. A game may keep the program's
//! [`Hooked`] table for its `ctx` type (each hook's scripts with their
//! closures, found once; Roots and Shoots does), so that a run of a
//! script at a hook is a call of its closure ([`Program::effect`],
//! [`Program::filter`]).
//!
//! Sandboxed: Rhai has no file, network or environment access; the build
//! leaves out its clock (`no_time`) and its modules (`no_module`), `eval`
//! is disabled, `print` and `debug` go nowhere. Every run has a budget of
//! operations and bounds on strings, arrays, maps, call depth and
//! expression depth, so a script that loops for ever or grows a string
//! without end fails, and the game it runs in ends with the failure.
//! Nothing in a script can draw a random number: a house rule that wants
//! chance asks the engine to roll a die again, a chance node like any
//! other (seeded, recorded, checked by `roots replay`).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use rhai::{Dynamic, Engine, EvalAltResult, Position, Scope};
use serde::{Deserialize, Serialize};

pub mod fast;
mod names;
pub mod session;

pub use names::{Unknown, unknown_names};

/// Operations one run of one script may take (Rhai counts each step of
/// evaluation): a loop that never ends fails here, in a few milliseconds.
pub const MAX_OPERATIONS: u64 = 200_000;
/// The keys of the ways to end a game that only house rules bring (a rule
/// ends it; a rule fails): a game that offers scripts lists them among its
/// `END_REASONS`, and reports show them only for rules with scripts.
pub const END_KEYS: [&str; 2] = ["script", "script_error"];
/// Longest string a script may build, in bytes.
pub const MAX_STRING: usize = 1_000;
/// Most items in an array a script builds.
pub const MAX_ARRAY: usize = 1_000;
/// Most entries in an object map a script builds.
pub const MAX_MAP: usize = 100;
/// Deepest chain of function calls.
pub const MAX_CALL_LEVELS: usize = 16;
/// Deepest nesting of expressions (and of statements in functions).
pub const MAX_EXPR_DEPTH: usize = 32;
/// Longest script, in bytes.
pub const MAX_CODE: usize = 10_000;
/// Most scripts in one variant.
pub const MAX_SCRIPTS: usize = 32;
/// Most named numbers a game keeps for its scripts (`ctx.set`).
pub const MAX_MEMORY: usize = 64;

/// One house rule written as a script, as the resolved rules carry it (and
/// so every record of a game played with it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// Its name: what `explain`, `diff`, the narration and errors call it,
    /// and what a child variant names to change or turn it off.
    pub name: String,
    /// The rule in words, for people.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The hook point it runs at (the game's own list: `docs/scripts.md`).
    pub hook: String,
    /// The Rhai code.
    pub code: String,
}

/// A `[[script]]` table of a variant file: every key but `name` optional,
/// since a child variant may change one key of a script it inherits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScriptFile {
    /// The rule's name, unique in the variant: a child variant changes or turns off an inherited rule by naming it.
    #[schemars(length(min = 1, max = 64))]
    pub name: String,
    /// The rule in words, shown by `roots explain` and `roots diff`.
    #[schemars(length(max = 1000))]
    pub description: Option<String>,
    /// When the script runs: one of the game's hook points (docs/scripts.md), such as "after_action", "scored", "legal" or "final" in Roots and Shoots. Required for a new rule.
    #[schemars(length(min = 1, max = 64))]
    pub hook: Option<String>,
    /// The script, in Rhai. It sees the moment through `ctx` (what happened, the position) and changes the game only by asking `ctx` (`ctx.add_score(1, 2)`). Required for a new rule.
    #[schemars(length(max = 10000))]
    pub code: Option<String>,
    /// false turns off a rule inherited through `extends`. Standard: true.
    pub enabled: Option<bool>,
}

/// A hook point of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// Its name in `hook = "..."`.
    pub name: &'static str,
    /// When it runs and what it may do, in words.
    pub about: &'static str,
}

/// What a game offers scripts: its hook points, and the registration of
/// the context its scripts see as `ctx`.
pub struct Api {
    /// The game's hook points; a hook's number is its index here.
    pub hooks: &'static [Hook],
    /// Registers the context type, its fields and its operations (for
    /// Rhai and for the fast path alike: [`fast::Reg`]).
    pub register: fn(&mut fast::Reg),
}

impl Api {
    /// The number of the hook named `name`.
    pub fn hook(&self, name: &str) -> Option<usize> {
        self.hooks.iter().position(|h| h.name == name)
    }

    /// The hook names, in order.
    pub fn hook_names(&self) -> Vec<&'static str> {
        self.hooks.iter().map(|h| h.name).collect()
    }
}

/// The engine every script runs in: the game's context registered, the
/// limits set, nothing that reaches outside.
pub fn engine(api: &Api) -> Engine {
    engine_and_natives(api).0
}

/// [`engine`], and the fields and operations of `ctx` the fast path calls.
fn engine_and_natives(api: &Api) -> (Engine, fast::Natives) {
    let mut e = Engine::new();
    e.set_max_operations(MAX_OPERATIONS)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_MAP)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH)
        .set_max_variables(256)
        .set_max_functions(64)
        .set_strict_variables(true)
        .set_fail_on_invalid_map_property(true);
    e.disable_symbol("eval");
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    let mut natives = fast::Natives::default();
    (api.register)(&mut fast::Reg {
        engine: &mut e,
        natives: &mut natives,
    });
    (e, natives)
}

/// Where a problem is in a script's own text: 1-based line and column (in
/// characters), and how many characters it spans (at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub line: usize,
    pub col: usize,
    pub len: usize,
}

/// A problem found in a script before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key of the `[[script]]` table it is about: `hook` or `code`.
    pub key: &'static str,
    pub spot: Option<Spot>,
    pub message: String,
    pub help: Option<String>,
}

/// Every problem of `script` for a game of `api`: an unknown hook, a
/// syntax error, an undefined variable, an unknown operation or field
/// (with "did you mean"), a script over [`MAX_CODE`].
pub fn check(api: &Api, engine: &Engine, script: &Script) -> Vec<Problem> {
    let mut out = Vec::new();
    if api.hook(&script.hook).is_none() {
        let names = api.hook_names();
        let help = crate::core::did_you_mean(&script.hook, &names)
            .map(|w| format!("did you mean `{w}`?"))
            .or_else(|| Some(format!("the hooks are {}", names.join(", "))));
        out.push(Problem {
            key: "hook",
            spot: None,
            message: format!("`{}` is not a hook of this game", script.hook),
            help,
        });
    }
    if script.code.len() > MAX_CODE {
        out.push(Problem {
            key: "code",
            spot: None,
            message: format!(
                "the script is {} bytes long; the most is {MAX_CODE}",
                script.code.len()
            ),
            help: Some("a house rule is a few lines: split it, or simplify it".into()),
        });
        return out;
    }
    let mut found = Vec::new();
    if let Err(e) = compile(engine, &script.code) {
        let help = match e.err_type() {
            rhai::ParseErrorType::VariableUndefined(_) => {
                "a script starts with one variable, `ctx`; declare others with `let`"
            }
            _ => "the script is Rhai: https://rhai.rs/book/",
        };
        found.push(Problem {
            key: "code",
            spot: spot_of(e.position(), 1),
            message: format!("the script does not compile: {}", parse_message(&e)),
            help: Some(help.into()),
        });
    }
    for u in unknown_names(engine, &script.code) {
        found.push(Problem {
            key: "code",
            spot: Some(u.spot),
            message: u.message,
            help: u.help,
        });
    }
    // In the order of the script's text.
    found.sort_by_key(|p| p.spot.map(|s| (s.line, s.col)));
    out.extend(found);
    out
}

/// A script compiled with `ctx` known, as every hook runs it.
fn compile(engine: &Engine, code: &str) -> Result<rhai::AST, rhai::ParseError> {
    let mut scope = Scope::new();
    scope.push_dynamic("ctx", Dynamic::UNIT);
    engine.compile_with_scope(&scope, code)
}

/// A parse error's message without the position Rhai appends.
fn parse_message(e: &rhai::ParseError) -> String {
    e.err_type().to_string()
}

fn spot_of(pos: Position, len: usize) -> Option<Spot> {
    Some(Spot {
        line: pos.line()?,
        col: pos.position().unwrap_or(1),
        len,
    })
}

/// The compiled scripts of a variant for one game: an engine, and each
/// script's code ready to run, by hook.
pub struct Program {
    engine: Engine,
    compiled: Vec<Compiled>,
    /// `by_hook[h]`: the scripts of hook `h`, in file order.
    by_hook: Vec<Vec<usize>>,
    /// For each hook, whether its scripts may use the memory (`ctx.get`,
    /// `ctx.set`): else a game need not lend it to their `ctx`.
    lends: Vec<bool>,
    /// For each hook, which of the game's groups of `ctx`'s words its
    /// scripts may read, a bit a group ([`Program::read_groups`]).
    reads: OnceLock<Vec<u32>>,
    /// The [`Hooked`] table of the game's `ctx` type, made on first use
    /// ([`Program::hooked`]).
    hooked: OnceLock<Arc<dyn Any + Send + Sync>>,
}

/// Each hook's scripts, in file order, each with its fast closures for a
/// game's `ctx` type `T` when it has them: found once for a program
/// ([`Program::hooked`]) and kept by each game of it, so that a run of a
/// script is a call of its closure ([`Program::effect`],
/// [`Program::filter`]), with no look-up of the script and no check of
/// `ctx`'s type.
pub struct Hooked<T> {
    /// Each hook's scripts, in the table itself (no pointer to follow to
    /// the list of hooks, and an index checked against a constant: none
    /// when the hook is one).
    hooks: [Box<[Step<T>]>; MAX_HOOKS],
}

/// Most hooks a game may have (Roots and Shoots has six).
pub const MAX_HOOKS: usize = 8;

impl<T> Hooked<T> {
    /// The scripts of hook `hook`.
    #[inline(always)]
    pub fn at(&self, hook: usize) -> &[Step<T>] {
        &self.hooks[hook]
    }
}

/// A script of a hook in a [`Hooked`] table.
pub struct Step<T> {
    /// Its index in the program.
    pub i: usize,
    /// Its closures for `T`: `None` when the script runs otherwise (in
    /// Rhai, or with a loop: [`Program::exec_effect`]).
    fast: Option<fast::Typed<T>>,
}

impl<T> Step<T> {
    /// Its closures, when it has them: a caller that runs them itself
    /// hands a stop to [`Program::effect_stopped`] and a script without
    /// them to [`Program::exec_effect`].
    #[inline(always)]
    pub fn fast(&self) -> Option<&fast::Typed<T>> {
        self.fast.as_ref()
    }
}

struct Compiled {
    name: String,
    hook: &'static str,
    ast: rhai::AST,
    /// Its fast form, when it is in the subset the fast path runs
    /// ([`fast`]); else Rhai runs it.
    fast: Option<fast::Fast>,
    /// The words of its code (names, keywords, words in strings and
    /// comments), sorted: what it may read, for [`Program::mentions`].
    words: Vec<String>,
    /// Whether it may call a function by a name it computes (`Fn`,
    /// `call`, `curry`): it then may read anything.
    calls_by_name: bool,
}

/// The words of `code`: runs of letters, digits and `_`, sorted, once each.
fn words_of(code: &str) -> Vec<String> {
    let mut words: Vec<String> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

thread_local! {
    /// The scope every run on this thread reuses: `ctx` stays in it from
    /// one run to the next (its value swapped in and out), so a run costs
    /// no allocation of its own.
    static SCOPE: std::cell::RefCell<Scope<'static>> = std::cell::RefCell::new(Scope::new());
}

/// What a run of a script gave ([`Program::exec`]).
pub enum Ran {
    /// The fast path's value.
    Fast(fast::Val),
    /// Rhai's.
    Rhai(Dynamic),
}

impl Ran {
    /// The value as Rhai holds it.
    pub fn dynamic(self) -> Dynamic {
        match self {
            Ran::Fast(v) => v.dynamic(),
            Ran::Rhai(d) => d,
        }
    }
}

/// A script that failed while a game was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The script's name.
    pub script: String,
    /// Its hook.
    pub hook: &'static str,
    /// What went wrong, with its place in the script when Rhai knows it.
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "house rule `{}` (hook `{}`) failed: {}",
            self.script, self.hook, self.message
        )
    }
}

impl Program {
    /// Compile `scripts` for a game of `api`; `Err` says which script is
    /// wrong and why (the variant pipeline reports each problem at its
    /// place; a record's rules come here unchecked).
    pub fn new(api: &Api, scripts: &[Script]) -> Result<Program, String> {
        if scripts.len() > MAX_SCRIPTS {
            return Err(format!(
                "{} house rules; the most is {MAX_SCRIPTS}",
                scripts.len()
            ));
        }
        let (engine, natives) = engine_and_natives(api);
        let mut compiled = Vec::with_capacity(scripts.len());
        let mut by_hook = vec![Vec::new(); api.hooks.len()];
        for (i, s) in scripts.iter().enumerate() {
            if let Some(p) = check(api, &engine, s).into_iter().next() {
                let at = p
                    .spot
                    .map(|s| format!(" (line {}, column {})", s.line, s.col))
                    .unwrap_or_default();
                return Err(format!("house rule `{}`: {}{at}", s.name, p.message));
            }
            let hook = api.hook(&s.hook).expect("checked");
            let ast = compile(&engine, &s.code).map_err(|e| e.to_string())?;
            by_hook[hook].push(i);
            let words = words_of(&s.code);
            let calls_by_name = ["Fn", "call", "curry"]
                .iter()
                .any(|w| words.binary_search_by(|x| x.as_str().cmp(w)).is_ok());
            compiled.push(Compiled {
                name: s.name.clone(),
                hook: api.hooks[hook].name,
                fast: fast::compile(&natives, &ast),
                ast,
                words,
                calls_by_name,
            });
        }
        let mut p = Program {
            engine,
            compiled,
            by_hook,
            lends: Vec::new(),
            reads: OnceLock::new(),
            hooked: OnceLock::new(),
        };
        p.lends = (0..p.hooks())
            .map(|h| p.hook_mentions(h, &["get", "set"]))
            .collect();
        Ok(p)
    }

    /// The scripts of hook `hook`, by index.
    #[inline]
    pub fn at(&self, hook: usize) -> &[usize] {
        &self.by_hook[hook]
    }

    /// How many hooks the game has.
    pub fn hooks(&self) -> usize {
        self.by_hook.len()
    }

    /// Whether some script of `hook` may use the memory (`ctx.get`,
    /// `ctx.set`).
    #[inline]
    pub fn lends(&self, hook: usize) -> bool {
        self.lends[hook]
    }

    /// Tell the program the game's groups of `ctx`'s words (the parts of
    /// `ctx` it builds only when a script reads them; at most 32 groups),
    /// for [`Program::reads`]. Only the first call counts: a program is
    /// compiled for one game.
    pub fn read_groups(&self, groups: &[&[&str]]) {
        self.reads.get_or_init(|| {
            (0..self.hooks())
                .map(|h| {
                    groups
                        .iter()
                        .take(32)
                        .enumerate()
                        .filter(|(_, words)| self.hook_mentions(h, words))
                        .fold(0, |m, (g, _)| m | 1 << g)
                })
                .collect()
        });
    }

    /// Whether some script of `hook` may read group `group` of the
    /// game's words ([`Program::read_groups`]); true before those are
    /// known.
    #[inline]
    pub fn reads(&self, hook: usize, group: usize) -> bool {
        self.reads.get().is_none_or(|r| r[hook] >> group & 1 == 1)
    }

    /// [`Program::reads`] of every hook (up to 8) and group, one bit a
    /// group, for a game to keep at hand (hooks past 8: all read).
    pub fn read_masks(&self) -> [u32; 8] {
        std::array::from_fn(|h| match self.reads.get() {
            Some(r) => r.get(h).copied().unwrap_or(u32::MAX),
            None => u32::MAX,
        })
    }

    /// How many scripts there are.
    pub fn len(&self) -> usize {
        self.compiled.len()
    }

    pub fn is_empty(&self) -> bool {
        self.compiled.is_empty()
    }

    /// The name of script `i`.
    pub fn name(&self, i: usize) -> &str {
        &self.compiled[i].name
    }

    /// Whether script `i` may use `word` (a field or an operation of
    /// `ctx`): false only when the word is nowhere in its code and the
    /// code calls no function by a computed name. A game builds the parts
    /// of the position a hook's scripts never read only when one does.
    pub fn mentions(&self, i: usize, word: &str) -> bool {
        let c = &self.compiled[i];
        c.calls_by_name || c.words.binary_search_by(|w| w.as_str().cmp(word)).is_ok()
    }

    /// Whether some script of `hook` may use one of `words`.
    pub fn hook_mentions(&self, hook: usize, words: &[&str]) -> bool {
        self.by_hook[hook]
            .iter()
            .any(|&i| words.iter().any(|w| self.mentions(i, w)))
    }

    /// Run script `i` with `ctx` as its `ctx`: what the script evaluates to
    /// (the value of its last statement, or of `return`), `ctx` as the
    /// script left it. The scope is the thread's own, reused: `ctx` is
    /// swapped into the value already there, the variables the script
    /// declared are dropped after it.
    pub fn run<T>(&self, i: usize, ctx: &mut T) -> Result<Dynamic, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        self.exec(i, ctx).map(Ran::dynamic)
    }

    /// [`Program::run`], its value left as the fast path made it: a hook
    /// that ignores the value, or only wants a boolean, makes no Rhai
    /// value of it.
    #[inline]
    pub fn exec<T>(&self, i: usize, ctx: &mut T) -> Result<Ran, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        if let Some(f) = &self.compiled[i].fast {
            if f.loops {
                return self.run_looping(i, f, ctx);
            }
            match f.run(ctx) {
                Ok(v) => return Ok(Ran::Fast(v)),
                Err(fast::Flow::Err(e)) => return Err(self.failure(i, &e)),
                // A statement outside the subset, reached before anything
                // changed `ctx`: Rhai runs the script.
                Err(fast::Flow::Bail) => {}
                // Never returned by `Fast::run` (without loops nothing
                // comes near the budget: `fast::compile` checks).
                Err(_) => return Ok(Ran::Fast(fast::Val::Unit)),
            }
        }
        self.run_rhai(i, ctx).map(Ran::Rhai)
    }

    /// Each hook's scripts with their closures for `ctx` type `T`
    /// ([`Hooked`]), made once for the program (for the first type asked;
    /// another type gets a table of its own).
    pub fn hooked<T: Send + Sync + 'static>(&self) -> Arc<Hooked<T>> {
        assert!(
            self.by_hook.len() <= MAX_HOOKS,
            "a game has at most {MAX_HOOKS} hooks"
        );
        let make = || {
            Arc::new(Hooked {
                hooks: std::array::from_fn(|h| {
                    self.by_hook.get(h).map_or_else(Box::default, |list| {
                        list.iter()
                            .map(|&i| Step {
                                i,
                                fast: self.compiled[i].fast.as_ref().and_then(|f| f.typed::<T>()),
                            })
                            .collect()
                    })
                }),
            })
        };
        let kept = self
            .hooked
            .get_or_init(|| make() as Arc<dyn Any + Send + Sync>);
        Arc::clone(kept).downcast().unwrap_or_else(|_| make())
    }

    /// [`Program::exec_effect`] of `step`, a script of a [`Hooked`] table:
    /// its closure called directly when it has one.
    #[inline(always)]
    pub fn effect<T>(&self, step: &Step<T>, ctx: &mut T) -> Result<(), Box<Failure>>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        match &step.fast {
            Some(f) => self.effect_done(step.i, f.run_effect(ctx), ctx),
            None => self.exec_effect(step.i, ctx),
        }
    }

    /// [`Program::exec_filter`] of `step`, a script of hook `legal` of a
    /// [`Hooked`] table: `false` when it forbids the move.
    #[inline(always)]
    pub fn filter<T>(
        &self,
        step: &Step<T>,
        ctx: &mut T,
        pending: &OnceLock<String>,
        event_words: impl FnOnce() -> String,
    ) -> bool
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        match &step.fast {
            Some(f) => self.filter_done(step.i, f.run_filter(ctx), ctx, pending, event_words),
            None => self.exec_filter(step.i, ctx, pending, event_words),
        }
    }

    /// [`Program::exec`] at a hook that ignores the script's value: only
    /// whether the run failed, in one word (the rare failure boxed).
    #[inline]
    pub fn exec_effect<T>(&self, i: usize, ctx: &mut T) -> Result<(), Box<Failure>>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        if let Some(f) = &self.compiled[i].fast
            && !f.loops
        {
            return self.effect_done(i, f.run_effect(ctx), ctx);
        }
        self.exec(i, ctx).map(drop).map_err(Box::new)
    }

    /// What a fast run of script `i` for its effect (`ran`) comes to.
    #[inline(always)]
    fn effect_done<T>(
        &self,
        i: usize,
        ran: Result<(), Box<fast::Flow>>,
        ctx: &mut T,
    ) -> Result<(), Box<Failure>>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        match ran {
            Ok(()) => Ok(()),
            Err(flow) => self.effect_stopped(i, *flow, ctx),
        }
    }

    /// [`Program::exec_effect`] of a fast run that stopped with `flow`.
    #[cold]
    #[inline(never)]
    pub fn effect_stopped<T>(
        &self,
        i: usize,
        flow: fast::Flow,
        ctx: &mut T,
    ) -> Result<(), Box<Failure>>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        self.after_stop(i, flow, ctx).map(drop).map_err(Box::new)
    }

    /// What a fast run of script `i` (without loops) that stopped with
    /// `flow` comes to: a failure; or, at a statement outside the subset
    /// (reached before anything changed `ctx`), Rhai's run of the script;
    /// the stops such a run never returns (as in `exec`) give nothing.
    fn after_stop<T>(&self, i: usize, flow: fast::Flow, ctx: &mut T) -> Result<Ran, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        match flow {
            fast::Flow::Err(e) => Err(self.failure(i, &e)),
            fast::Flow::Bail => self.run_rhai(i, ctx).map(Ran::Rhai),
            _ => Ok(Ran::Fast(fast::Val::Unit)),
        }
    }

    /// Run script `i` of hook `legal` on `ctx` and give its verdict
    /// ([`Program::filter_verdict`]): `false` when it forbids the move.
    #[inline]
    pub fn exec_filter<T>(
        &self,
        i: usize,
        ctx: &mut T,
        pending: &OnceLock<String>,
        event_words: impl FnOnce() -> String,
    ) -> bool
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        if let Some(f) = &self.compiled[i].fast
            && !f.loops
        {
            return self.filter_done(i, f.run_filter(ctx), ctx, pending, event_words);
        }
        let run = self.exec(i, ctx);
        self.filter_verdict(i, run, pending, event_words)
    }

    /// What a fast run of script `i` of hook `legal` (`ran`) comes to:
    /// `false` when it forbids the move.
    #[inline(always)]
    fn filter_done<T>(
        &self,
        i: usize,
        ran: Result<bool, Box<Result<fast::Val, fast::Flow>>>,
        ctx: &mut T,
        pending: &OnceLock<String>,
        event_words: impl FnOnce() -> String,
    ) -> bool
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        match ran {
            Ok(allowed) => allowed,
            Err(other) => self.filter_other(i, *other, ctx, pending, event_words),
        }
    }

    /// [`Program::exec_filter`] of a fast run that gave neither a
    /// boolean nor nothing, or stopped.
    #[cold]
    #[inline(never)]
    fn filter_other<T>(
        &self,
        i: usize,
        other: Result<fast::Val, fast::Flow>,
        ctx: &mut T,
        pending: &OnceLock<String>,
        event_words: impl FnOnce() -> String,
    ) -> bool
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        let run = match other {
            Ok(v) => Ok(Ran::Fast(v)),
            // A value of nothing (a stop never returned without loops)
            // forbids nothing.
            Err(flow) => self.after_stop(i, flow, ctx),
        };
        self.filter_verdict(i, run, pending, event_words)
    }

    /// [`Program::exec`] of a script with a loop in the fast path: it may
    /// pass the budget, and Rhai then runs it again from the `ctx` it
    /// started with, so it fails (or not) exactly where Rhai does.
    #[inline(never)]
    fn run_looping<T>(&self, i: usize, f: &fast::Fast, ctx: &mut T) -> Result<Ran, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        let start = ctx.clone();
        match f.run(ctx) {
            Ok(v) => Ok(Ran::Fast(v)),
            Err(fast::Flow::Err(e)) => Err(self.failure(i, &e)),
            Err(fast::Flow::OverBudget) => {
                *ctx = start;
                self.run_rhai(i, ctx).map(Ran::Rhai)
            }
            Err(fast::Flow::Bail) => self.run_rhai(i, ctx).map(Ran::Rhai),
            // Never returned by `Fast::run`.
            Err(_) => Ok(Ran::Fast(fast::Val::Unit)),
        }
    }

    /// [`Program::run`] in Rhai, whatever the script.
    pub fn run_rhai<T>(&self, i: usize, ctx: &mut T) -> Result<Dynamic, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        SCOPE.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scope) => self.run_in(i, ctx, &mut scope),
            // A run within a run (no operation does that): a scope of its own.
            Err(_) => self.run_in(i, ctx, &mut Scope::new()),
        })
    }

    fn run_in<T>(
        &self,
        i: usize,
        ctx: &mut T,
        scope: &mut Scope<'static>,
    ) -> Result<Dynamic, Failure>
    where
        T: Clone + Default + Send + Sync + 'static,
    {
        let c = &self.compiled[i];
        // `ctx` first and alone, holding a `T`: else start afresh.
        let reuse = scope.len() == 1
            && scope
                .get_mut("ctx")
                .and_then(|d| {
                    d.write_lock::<T>()
                        .map(|mut v| std::mem::swap(&mut *v, ctx))
                })
                .is_some();
        if !reuse {
            scope.clear();
            scope.push("ctx", std::mem::take(ctx));
        }
        let result = self.engine.eval_ast_with_scope::<Dynamic>(scope, &c.ast);
        scope.rewind(1);
        let back = scope.get_mut("ctx").and_then(|d| {
            d.write_lock::<T>()
                .map(|mut v| std::mem::swap(&mut *v, ctx))
        });
        let result = result.map_err(|e| self.failure(i, &e))?;
        if back.is_none() {
            scope.clear();
            return Err(self.refused(i, "it gave `ctx` another value"));
        }
        Ok(result)
    }

    /// Whether script `i` has a fast form (some or all of it runs
    /// without Rhai).
    pub fn is_fast(&self, i: usize) -> bool {
        self.compiled[i].fast.is_some()
    }

    /// A failure of script `i` in words.
    pub fn failure(&self, i: usize, e: &EvalAltResult) -> Failure {
        let c = &self.compiled[i];
        let pos = e.position();
        let place = match (pos.line(), pos.position()) {
            (Some(l), Some(col)) => format!(" at line {l}, column {col} of the script"),
            (Some(l), None) => format!(" at line {l} of the script"),
            _ => String::new(),
        };
        let what = match e.unwrap_inner() {
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "it ran past its budget of {MAX_OPERATIONS} operations (a loop that does not end?)"
            ),
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                format!("{what} grew past its limit")
            }
            EvalAltResult::ErrorStackOverflow(_) => {
                format!("it called functions deeper than {MAX_CALL_LEVELS} levels")
            }
            other => {
                let mut text = other.to_string();
                // Rhai appends the position; ours is said apart.
                if let Some(i) = text.rfind(" (line ") {
                    text.truncate(i);
                }
                text
            }
        };
        Failure {
            script: c.name.clone(),
            hook: c.hook,
            message: format!("{what}{place}"),
        }
    }

    /// A failure of script `i` the engine found in what it asked for (an
    /// operation refused, a wrong result).
    pub fn refused(&self, i: usize, message: impl Into<String>) -> Failure {
        let c = &self.compiled[i];
        Failure {
            script: c.name.clone(),
            hook: c.hook,
            message: message.into(),
        }
    }

    /// What a run of script `i` at hook `legal` says of a move: `false`
    /// when it forbids it. A failure, or an answer other than true, false
    /// or nothing, forbids nothing but is noted in `pending` (with the event
    /// in words), to end the game before the move is played: a filter
    /// cannot change the state it is asked about.
    pub fn filter_verdict(
        &self,
        i: usize,
        run: Result<Ran, Failure>,
        pending: &OnceLock<String>,
        event_words: impl FnOnce() -> String,
    ) -> bool {
        let run = match run {
            Ok(Ran::Fast(fast::Val::Bool(allowed))) => return allowed,
            Ok(Ran::Fast(fast::Val::Unit)) => return true,
            other => other.map(Ran::dynamic),
        };
        let failure = match run {
            Ok(v) => match v.as_bool() {
                Ok(allowed) => return allowed,
                Err(_) if v.is_unit() => return true,
                Err(_) => self.refused(
                    i,
                    format!(
                        "hook `legal` must give true or false, not {}",
                        v.type_name()
                    ),
                ),
            },
            Err(f) => f,
        };
        let _ = pending.set(format!("{failure}; event: {}", event_words()));
        true
    }
}

/// The scripts of a variant, as its resolved rules carry them (the key
/// `script`), with their compiled form made once, on first use, and
/// shared by every game of the rules (and every thread).
#[derive(Clone, Default)]
pub struct Scripts {
    list: Vec<Script>,
    program: OnceLock<Result<Arc<Program>, String>>,
}

impl Scripts {
    pub fn new(list: Vec<Script>) -> Scripts {
        Scripts {
            list,
            program: OnceLock::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn list(&self) -> &[Script] {
        &self.list
    }

    /// The compiled program for `api`, `None` without scripts (the engine
    /// then pays nothing for them); `Err` when a script does not compile
    /// (rules that did not come through the variant pipeline).
    pub fn program(&self, api: &Api) -> Result<Option<Arc<Program>>, String> {
        if self.list.is_empty() {
            return Ok(None);
        }
        self.program
            .get_or_init(|| Program::new(api, &self.list).map(Arc::new))
            .clone()
            .map(Some)
    }
}

impl PartialEq for Scripts {
    fn eq(&self, other: &Scripts) -> bool {
        self.list == other.list
    }
}

impl Eq for Scripts {}

impl std::fmt::Debug for Scripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.list.fmt(f)
    }
}

impl Serialize for Scripts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.list.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Scripts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Scripts, D::Error> {
        Vec::<Script>::deserialize(d).map(Scripts::new)
    }
}

/// A number a script gave, as an `i64`, or why not.
pub fn int(value: &Dynamic, what: &str) -> Result<i64, String> {
    value
        .as_int()
        .map_err(|t| format!("{what} must be a whole number, not {t}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default)]
    struct Probe {
        n: i64,
        big: [i64; 8],
    }

    fn register(r: &mut fast::Reg) {
        // On the engine directly: these tests are of the Rhai path.
        let e = &mut *r.engine;
        e.register_type_with_name::<Probe>("Probe");
        e.register_get("n", |p: &mut Probe| p.n);
        e.register_fn("bump", |p: &mut Probe| p.n += 1);
        e.register_fn("peek", |p: &mut Probe, i: i64| p.big[i as usize & 7]);
    }

    static TEST_API: Api = Api {
        hooks: &[
            Hook {
                name: "a",
                about: "",
            },
            Hook {
                name: "b",
                about: "",
            },
        ],
        register,
    };

    fn script(name: &str, hook: &str, code: &str) -> Script {
        Script {
            name: name.into(),
            description: String::new(),
            hook: hook.into(),
            code: code.into(),
        }
    }

    #[test]
    fn mentions_sees_the_words_of_a_script_and_everything_behind_a_computed_name() {
        let p = Program::new(
            &TEST_API,
            &[
                script("plain", "a", "ctx.bump(); // peek later"),
                script("computed", "b", "let f = Fn(\"bu\" + \"mp\"); f.call(ctx);"),
            ],
        )
        .expect("compiles");
        assert!(p.mentions(0, "bump"));
        assert!(p.mentions(0, "peek"), "a word in a comment counts");
        assert!(!p.mentions(0, "pee"));
        assert!(!p.mentions(0, "n"));
        assert!(p.mentions(1, "anything"), "a computed name may be any");
        assert!(p.hook_mentions(0, &["n", "bump"]));
        assert!(!p.hook_mentions(0, &["n", "x"]));
        assert!(p.hook_mentions(1, &["x"]));
    }

    #[test]
    fn runs_reuse_the_scope_and_give_back_ctx_and_forget_their_variables() {
        let p = Program::new(
            &TEST_API,
            &[
                script("bump", "a", "let x = ctx.n; ctx.bump(); x"),
                script("strict", "a", "ctx.bump(); ctx.n"),
                script("replace", "b", "ctx = 3;"),
            ],
        )
        .expect("compiles");
        let mut c = Probe { n: 5, big: [7; 8] };
        assert_eq!(p.run(0, &mut c).unwrap().as_int(), Ok(5));
        assert_eq!(c.n, 6);
        assert_eq!(c.big, [7; 8]);
        // `x` of the last run is gone: a script that read it would not
        // compile (strict variables), and the scope holds `ctx` alone.
        assert_eq!(p.run(1, &mut c).unwrap().as_int(), Ok(7));
        SCOPE.with(|s| assert_eq!(s.borrow().len(), 1));
        let f = p.run(2, &mut c).expect_err("ctx replaced");
        assert!(f.message.contains("another value"), "{f}");
        // The next run starts afresh.
        let mut d = Probe::default();
        assert_eq!(p.run(0, &mut d).unwrap().as_int(), Ok(0));
        assert_eq!(d.n, 1);
    }
}
