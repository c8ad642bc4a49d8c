//! From a file to rules: follow `extends`, find the game of the chain, check
//! each file against that game's schema, merge child over parent key by key,
//! fill the rest from the game's standard variant, then check the keys
//! together ([`crate::games::Game::check`]).

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::load::{self, Layer};
use super::overrides::{self, Override};
use super::scripts;
use crate::core::diagnostic::{Checker, Code, Diagnostic, Diagnostics, Placer, Sources};
use crate::games::{AnyRules, GameId, Registered};

/// The names of every built-in variant, of every game.
pub fn builtin_names() -> Vec<&'static str> {
    GameId::ALL
        .iter()
        .flat_map(|g| g.builtins().iter().map(|(n, _)| *n))
        .collect()
}

/// The longest `extends` chain accepted (files, the first one included).
pub const MAX_CHAIN: usize = 16;

/// A variant that loaded: its rules, its warnings, and where it came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The resolved rules, of whichever game the variant is for.
    pub rules: AnyRules,
    /// Things that will not stop a game but are probably not what was meant.
    pub warnings: Vec<Diagnostic>,
    /// The files of the `extends` chain, the loaded file first
    /// (`["house.toml", "variants/standard.toml"]`, or `["<built-in standard>"]`).
    pub chain: Vec<String>,
    /// The text of those files, for printing the warnings with snippets.
    pub sources: Sources,
}

/// Load the variant file at `path` (shown in messages as written).
pub fn load_file(path: impl AsRef<Path>) -> Result<Loaded, Diagnostics> {
    load_file_with(path, &[])
}

/// [`load_file`] with `--set` overrides on top (see [`load_with`]).
pub fn load_file_with(
    path: impl AsRef<Path>,
    overrides: &[Override],
) -> Result<Loaded, Diagnostics> {
    let path = path.as_ref();
    let display = path.display().to_string();
    let text = load::read_file(path, &display).map_err(|d| {
        // `variants/fewer-beads.toml` outside a clone: the built-in is there.
        let stem = stem_of(path);
        let d = match GameId::of_builtin(&stem) {
            Some(_) if d.code == Code::Io && !path.exists() => (*d).help(format!(
                "`{stem}` is a built-in variant: give its name, `{stem}`, wherever a variant is asked for (or extends = \"{stem}\" in a file)"
            )),
            _ => *d,
        };
        Diagnostics {
            items: vec![d],
            sources: Sources::default(),
        }
    })?;
    let dir = Some(path.parent().map(Path::to_path_buf).unwrap_or_default());
    let identity = identity_of(path);
    let root = load::parse_layer(&display, text.clone(), dir, identity, stem_of(path));
    finish(root, &display, &text, overrides)
}

/// Load a variant from text. `name` is how messages name it (and the default
/// `name` of the variant); a relative `extends` is looked up in `base_dir`
/// (the current directory when `None`).
pub fn load_str(name: &str, text: &str, base_dir: Option<&Path>) -> Result<Loaded, Diagnostics> {
    let dir = Some(base_dir.map(Path::to_path_buf).unwrap_or_default());
    let stem = stem_of(Path::new(name));
    let root = load::parse_layer(name, text.to_owned(), dir, format!("text:{name}"), stem);
    finish(root, name, text, &[])
}

/// [`load_str`] with `--set` overrides on top (see [`load_with`]).
pub fn load_str_with(
    name: &str,
    text: &str,
    base_dir: Option<&Path>,
    overrides: &[Override],
) -> Result<Loaded, Diagnostics> {
    let dir = Some(base_dir.map(Path::to_path_buf).unwrap_or_default());
    let stem = stem_of(Path::new(name));
    let root = load::parse_layer(name, text.to_owned(), dir, format!("text:{name}"), stem);
    finish(root, name, text, overrides)
}

/// A built-in variant by name (`"standard"`, `"btt"`).
pub fn resolve_builtin(name: &str) -> Result<Loaded, Diagnostics> {
    match builtin_layer(name) {
        Some(root) => {
            let text = root.as_ref().map(|l| l.text.clone()).unwrap_or_default();
            finish(root, &builtin_display(name), &text, &[])
        }
        None => Err(Diagnostics {
            items: vec![unknown_builtin(name, &builtin_display(name), None, "")],
            sources: Sources::default(),
        }),
    }
}

/// A built-in name, or else a path: what `roots show VARIANT` accepts.
pub fn load(variant: &str) -> Result<Loaded, Diagnostics> {
    load_with(variant, &[])
}

/// [`fn@load`], then `overrides` (`--set key.path=value`) as one more layer on
/// top of the `extends` chain, checked like a file: schema, ranges and the
/// cross-key checks. Diagnostics about an override name it as their file
/// (`--set beads.supply=abc`). Of two overrides of one key, the last wins.
pub fn load_with(variant: &str, overrides: &[Override]) -> Result<Loaded, Diagnostics> {
    if variant == STDIN_ARG {
        load_stdin_with(overrides)
    } else if is_builtin_name(variant) {
        match builtin_layer(variant) {
            Some(root) => {
                let text = root.as_ref().map(|l| l.text.clone()).unwrap_or_default();
                finish(root, &builtin_display(variant), &text, overrides)
            }
            None => Err(Diagnostics {
                items: vec![unknown_builtin(
                    variant,
                    &builtin_display(variant),
                    None,
                    "",
                )],
                sources: Sources::default(),
            }),
        }
    } else {
        load_file_with(variant, overrides)
    }
}

/// The variant argument that means "read the variant from standard input".
pub const STDIN_ARG: &str = "-";

/// How messages name a variant read from standard input.
pub const STDIN_DISPLAY: &str = "<stdin>";

/// A variant from standard input (`roots show -`), `overrides` on top; a
/// relative `extends` is looked up in the current directory.
pub fn load_stdin_with(overrides: &[Override]) -> Result<Loaded, Diagnostics> {
    let text = load::read_stdin(STDIN_DISPLAY).map_err(|d| Diagnostics {
        items: vec![*d],
        sources: Sources::default(),
    })?;
    let root = load::parse_layer(
        STDIN_DISPLAY,
        text.clone(),
        Some(PathBuf::new()),
        "stdin:".to_owned(),
        "stdin".to_owned(),
    );
    finish(root, STDIN_DISPLAY, &text, overrides)
}

/// Whether `extends = "x"` names a built-in (a bare word) rather than a file.
pub fn is_builtin_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\', '.'])
}

fn builtin_display(name: &str) -> String {
    format!("<built-in {name}>")
}

fn builtin_layer(name: &str) -> Option<Result<Layer, Vec<Diagnostic>>> {
    let (game, text) = GameId::of_builtin(name)?;
    Some(
        load::parse_layer(
            &builtin_display(name),
            text.to_owned(),
            None,
            format!("builtin:{name}"),
            name.to_owned(),
        )
        .map(|mut layer| {
            layer.implied_game = Some(game);
            layer
        }),
    )
}

fn unknown_builtin(
    name: &str,
    file: &str,
    span: Option<std::ops::Range<usize>>,
    text: &str,
) -> Diagnostic {
    let names: Vec<String> = builtin_names().iter().map(|n| n.to_string()).collect();
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let mut d = Diagnostic::error(
        Code::Extends,
        file,
        format!("there is no built-in variant \"{name}\""),
    )
    .key("extends")
    .expected(if quoted.len() <= 8 {
        format!(
            "a built-in name ({}) or the path of a .toml file",
            quoted.join(", ")
        )
    } else {
        "a built-in name (`roots games` lists them) or the path of a .toml file".to_owned()
    })
    .help(match load::did_you_mean(name, &names) {
        Some(w) => format!("did you mean \"{w}\"? To extend a file, give its path ending in .toml"),
        None => "to extend a file, give its path ending in .toml, relative to this file".to_owned(),
    });
    if let Some(span) = span {
        d = d.at(text, span);
    }
    d
}

fn stem_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "variant".into())
}

fn identity_of(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| normalize(path))
        .display()
        .to_string()
}

/// `a/b/../c.toml` -> `a/c.toml`, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn finish(
    root: Result<Layer, Vec<Diagnostic>>,
    display: &str,
    text: &str,
    overrides: &[Override],
) -> Result<Loaded, Diagnostics> {
    let mut sources = Sources::default();
    sources.insert(display, text);
    let fail = |items: Vec<Diagnostic>, sources: &Sources| Diagnostics {
        items,
        sources: sources.clone(),
    };
    let root = root.map_err(|items| fail(items, &sources))?;
    let (chain, broken) = build_chain(root, &mut sources);
    // A chain cut short by a parent that cannot be had may not say its game:
    // the missing parent's name can (`extends = "btt.toml"` is a BTT file).
    let named = chain
        .iter()
        .any(|l| l.parsed.game.is_some() || l.implied_game.is_some());
    let hinted = broken
        .as_ref()
        .filter(|_| !named)
        .and_then(|_| chain.last()?.parsed.extends.as_deref())
        .and_then(|t| GameId::of_builtin(&stem_of(Path::new(t))))
        .map(|(g, _)| g);
    // A chain cut short that names no game: the loaded file's own keys may
    // still say it (`board.size` is Roots and Shoots'), and its own
    // mistakes are then told with the broken parent.
    let fitting = broken
        .as_ref()
        .filter(|_| !named && hinted.is_none())
        .and_then(|_| fitting_game(&chain[0]));
    let hinted = hinted.or(fitting);
    let game = match game_of(&chain) {
        Ok(game) => hinted.unwrap_or(game),
        Err(d) => {
            let mut items = vec![*d];
            items.extend(broken.map(|b| b.items).unwrap_or_default());
            return Err(fail(items, &sources));
        }
    };
    // Every mistake at once: the loaded file's own first (unless its game
    // is unknown: a chain cut short that names none would judge its keys
    // against the wrong game); then a parent that could not be had; then
    // the mistakes of the parents, each saying whose parent it is.
    let mut errors = Vec::new();
    if broken.is_none() || named || hinted.is_some() {
        errors.extend(own_errors(&chain, game));
    }
    if let Some(broken) = broken {
        errors.extend(broken.items);
    }
    for pair in chain.windows(2) {
        let mut more = load::check_layer(&pair[1], game);
        note_parent(&mut more, &pair[0].file);
        errors.extend(more);
    }
    if !errors.is_empty() {
        return Err(fail(errors, &sources));
    }
    let overrides = overrides::dedup(overrides);
    let layer = override_layer(game, &overrides).map_err(|items| fail(items, &sources))?;
    let extra = layer.map(|l| (l, overrides.as_slice()));
    crate::with_game_id!(game, G => resolve::<G>(chain, extra, sources))
}

/// The one game whose keys the file's own keys all are (a file that names
/// no game, read before its game is known), if exactly one.
fn fitting_game(layer: &Layer) -> Option<GameId> {
    let mut fits = GameId::ALL.iter().copied().filter(|&g| {
        !load::check_layer(layer, g)
            .iter()
            .any(|d| d.code == Code::UnknownKey)
    });
    let first = fits.next()?;
    fits.next().is_none().then_some(first)
}

/// The game the chain so far says it is: a `game` key or a built-in's,
/// else the one game the loaded file's keys fit.
fn chain_game(chain: &[Layer]) -> Option<GameId> {
    chain
        .iter()
        .find_map(|l| {
            l.parsed
                .game
                .as_deref()
                .and_then(GameId::parse)
                .or(l.implied_game)
        })
        .or_else(|| chain.first().and_then(fitting_game))
}

/// The built-in variant a file of `game` can extend: the game's own first
/// (`standard` for Roots and Shoots, `btt` for Branches & Twigs & Thorns).
fn base_of(game: Option<GameId>) -> &'static str {
    game.and_then(|g| g.builtins().first().map(|(n, _)| *n))
        .unwrap_or("standard")
}

/// The loaded file's own mistakes as a file of `game`. A file that names
/// no game, extends a variant of `game` and whose keys are another game's
/// is told so once, and its keys are judged as that game's (not a flood of
/// unknown tables).
fn own_errors(chain: &[Layer], game: GameId) -> Vec<Diagnostic> {
    let root = &chain[0];
    let errors = load::check_layer(root, game);
    if root.parsed.game.is_some() || !errors.iter().any(|d| d.code == Code::UnknownKey) {
        return errors;
    }
    let Some(own) = fitting_game(root).filter(|&g| g != game) else {
        return errors;
    };
    let parent = chain.get(1).map_or("its parent", |l| l.file.as_str());
    let mut d = Diagnostic::error(
        Code::Extends,
        &root.file,
        format!(
            "this file's keys are those of a {} variant, but it extends {parent}, a {} variant",
            own.title(),
            game.title()
        ),
    )
    .help(format!(
        "extend a {} variant (extends = \"{}\"), and name the game: game = \"{}\"",
        own.title(),
        base_of(Some(own)),
        own.key()
    ));
    if let Some(place) = root.place("extends") {
        d = d.at(&root.text, place.value.clone()).key("extends");
    }
    let mut out = vec![d];
    out.extend(load::check_layer(root, own));
    out
}

/// Add to each diagnostic of a parent file whose parent it is.
fn note_parent(items: &mut [Diagnostic], child: &str) {
    for d in items {
        let note = format!("{} is the parent of {child} (through `extends`)", d.file);
        d.help = Some(match d.help.take() {
            Some(h) => format!("{h}; {note}"),
            None => note,
        });
    }
}

/// A hint for an unknown `game = "..."`: a typo of a game's key, a built-in
/// variant's name (`btt`) or a title's initials (`rgr`) name their game.
fn game_hint(word: &str, keys: &[String]) -> Option<String> {
    if let Some(w) = load::did_you_mean(word, keys) {
        return Some(format!("did you mean \"{w}\"?"));
    }
    let lower = word.trim().to_ascii_lowercase();
    let by_name = GameId::of_builtin(&lower).map(|(g, _)| g);
    let by_initials = GameId::ALL.iter().copied().find(|g| {
        let initials: String = g
            .title()
            .split(|c: char| c.is_whitespace() || c == '-')
            .filter_map(|w| w.chars().next())
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        initials == lower
    });
    let game = by_name.or(by_initials)?;
    Some(format!(
        "\"{word}\" is {}: write game = \"{}\" (a variant file names its game by this key; a built-in variant is named by `extends`)",
        if by_name.is_some() {
            format!("a built-in variant of {}", game.title())
        } else {
            format!("{}'s initials", game.title())
        },
        game.key()
    ))
}

/// The game of a chain: the first `game` key from the loaded file up (or
/// the game of a built-in), Roots and Shoots when none says. A file that
/// names an unknown game, or another game than its parent's, is an error.
fn game_of(chain: &[Layer]) -> Result<GameId, Box<Diagnostic>> {
    let mut found: Option<(GameId, usize)> = None;
    for (i, layer) in chain.iter().enumerate() {
        let explicit = match &layer.parsed.game {
            Some(word) => match GameId::parse(word) {
                Some(g) => Some(g),
                None => {
                    let keys: Vec<String> =
                        GameId::ALL.iter().map(|g| g.key().to_owned()).collect();
                    let quoted: Vec<String> = keys.iter().map(|k| format!("\"{k}\"")).collect();
                    let mut d = Diagnostic::error(
                        Code::Value,
                        &layer.file,
                        format!("there is no game \"{word}\""),
                    )
                    .key("game")
                    .expected(format!("one of {}", quoted.join(", ")))
                    .maybe_help(game_hint(word, &keys));
                    if let Some(place) = layer.place("game") {
                        d = d.at(&layer.text, place.value.clone());
                    }
                    return Err(Box::new(d));
                }
            },
            None => None,
        };
        let Some(game) = explicit.or(layer.implied_game) else {
            continue;
        };
        match found {
            None => found = Some((game, i)),
            Some((first, at)) if first != game => {
                let child = &chain[at];
                let mut d = Diagnostic::error(
                    Code::Extends,
                    &child.file,
                    format!(
                        "this is a {} variant, but it extends {}, a {} variant",
                        first.title(),
                        layer.file,
                        game.title()
                    ),
                )
                .help(format!(
                    "a variant extends a variant of its own game: extend a {} variant, or drop `game`",
                    first.title()
                ));
                let key = if child.place("game").is_some() {
                    "game"
                } else {
                    "extends"
                };
                if let Some(place) = child.place(key) {
                    d = d.at(&child.text, place.value.clone()).key(key);
                }
                return Err(Box::new(d));
            }
            Some(_) => {}
        }
    }
    Ok(found.map_or(GameId::DEFAULT, |(g, _)| g))
}

/// The overrides as one layer, parsed and checked like a file of `game`.
fn override_layer(game: GameId, overrides: &[Override]) -> Result<Option<Layer>, Vec<Diagnostic>> {
    if overrides.is_empty() {
        return Ok(None);
    }
    if let Some(o) = overrides
        .iter()
        .find(|o| o.key() == "extends" || o.key() == "game")
    {
        let d = Diagnostic::error(
            Code::Extends,
            o.display(),
            format!("`{}` cannot be set with --set", o.key()),
        )
        .key(o.key())
        .help("give the variant to start from as the VARIANT argument instead (a built-in name or a file)");
        return Err(vec![d]);
    }
    let mut text = String::new();
    for o in overrides {
        text.push_str(&o.line());
        text.push('\n');
    }
    let relabel = |items: Vec<Diagnostic>| -> Vec<Diagnostic> {
        items
            .into_iter()
            .map(|d| {
                let owner = overrides::owner(overrides, d.line, d.key_path.as_deref());
                overrides::relabel(game, d, owner)
            })
            .collect()
    };
    let layer = load::parse_layer("--set", text, None, "overrides".into(), String::new())
        .map_err(relabel)?;
    let errors = load::check_layer(&layer, game);
    if errors.is_empty() {
        Ok(Some(layer))
    } else {
        Err(relabel(errors))
    }
}

/// The provenance index of keys set by `--set`.
const OVERRIDE: usize = usize::MAX;

/// Follow `extends` from `root`, parsing each parent (TOML only: the schema
/// check waits until the chain's game is known). A parent that cannot be
/// had ends the chain, with the diagnostics that say why.
fn build_chain(root: Layer, sources: &mut Sources) -> (Vec<Layer>, Option<Diagnostics>) {
    let mut chain = vec![root];
    let broken = build_chain_into(&mut chain, sources).err();
    (chain, broken)
}

fn build_chain_into(chain: &mut Vec<Layer>, sources: &mut Sources) -> Result<(), Diagnostics> {
    while let Some(last) = chain.last() {
        let Some(target) = last.parsed.extends.clone() else {
            break;
        };
        let span = last.place("extends").map(|p| p.value.clone());
        let at = |d: Diagnostic| match &span {
            Some(s) => d.at(&last.text, s.clone()).key("extends"),
            None => d.key("extends"),
        };
        let fail = |d: Diagnostic, sources: &Sources| {
            Err(Diagnostics {
                items: vec![d],
                sources: sources.clone(),
            })
        };
        let names: Vec<&str> = chain.iter().map(|l| l.file.as_str()).collect();
        if chain.len() >= MAX_CHAIN {
            let d = Diagnostic::error(
                Code::Extends,
                &last.file,
                format!(
                    "the `extends` chain is longer than {MAX_CHAIN} files: {} -> ...",
                    names.join(" -> ")
                ),
            )
            .help("merge some of these files; a chain of two or three is plenty");
            return fail(at(d), sources);
        }
        // A built-in extends a built-in by its file name (`standard.toml`).
        let builtin_file = last
            .dir
            .is_none()
            .then(|| target.strip_suffix(".toml"))
            .flatten()
            .filter(|stem| GameId::of_builtin(stem).is_some());
        let parent = if let Some(stem) = builtin_file {
            match builtin_layer(stem) {
                Some(layer) => layer,
                None => {
                    return fail(
                        unknown_builtin(stem, &last.file, span.clone(), &last.text),
                        sources,
                    );
                }
            }
        } else if is_builtin_name(&target) {
            match builtin_layer(&target) {
                Some(layer) => layer,
                None => {
                    return fail(
                        unknown_builtin(&target, &last.file, span.clone(), &last.text),
                        sources,
                    );
                }
            }
        } else {
            let Some(dir) = &last.dir else {
                let d = Diagnostic::error(
                    Code::Extends,
                    &last.file,
                    "a built-in variant cannot extend a file",
                );
                return fail(at(d), sources);
            };
            let path = normalize(&dir.join(&target));
            // `extends = "."` next to a file in the working directory
            // normalises to nothing: it names that directory.
            let path = if path.as_os_str().is_empty() {
                std::path::PathBuf::from(".")
            } else {
                path
            };
            let display = path.display().to_string();
            let identity = identity_of(&path);
            if let Some(pos) = chain.iter().position(|l| l.identity == identity) {
                let mut cycle: Vec<&str> = names[pos..].to_vec();
                cycle.push(&display);
                let d = Diagnostic::error(
                    Code::Extends,
                    &last.file,
                    format!("`extends` goes round in a circle: {}", cycle.join(" -> ")),
                )
                .help("one of these files must extend \"standard\" (or nothing) instead");
                return fail(at(d), sources);
            }
            let text = match load::read_file(&path, &display) {
                Ok(text) => text,
                Err(d) => {
                    if d.code == Code::Io {
                        let d = Diagnostic::error(
                            Code::Extends,
                            &last.file,
                            format!("`extends` names \"{target}\", but {display} {}", d.message.replace("cannot read the file: ", "cannot be read: ")),
                        )
                        .help(match GameId::of_builtin(&stem_of(&path)) {
                            Some(_) => format!("`{0}` is a built-in variant: write extends = \"{0}\" (a path is relative to the file that contains `extends`)", stem_of(&path)),
                            None => {
                                let game = chain_game(chain);
                                format!(
                                    "the path is relative to the file that contains `extends`; for the built-in rules of {} write extends = \"{}\"",
                                    game.map_or("Roots and Shoots", GameId::title),
                                    base_of(game)
                                )
                            }
                        });
                        return fail(at(d), sources);
                    }
                    return fail(*d, sources);
                }
            };
            sources.insert(display.clone(), text.clone());
            load::parse_layer(
                &display,
                text,
                Some(path.parent().map(Path::to_path_buf).unwrap_or_default()),
                identity,
                stem_of(&path),
            )
        };
        match parent {
            Ok(layer) => {
                sources.insert(layer.file.clone(), layer.text.clone());
                chain.push(layer);
            }
            Err(mut items) => {
                // Say where the broken parent comes from.
                note_parent(&mut items, &last.file);
                return Err(Diagnostics {
                    items,
                    sources: sources.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Which layer of the chain set each key (`beads.supply` -> index into chain).
type Provenance = BTreeMap<String, usize>;

fn merge_into(
    base: &mut Map<String, Value>,
    layer: &Map<String, Value>,
    prefix: &str,
    index: usize,
    prov: &mut Provenance,
) {
    for (key, value) in layer {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match (base.get_mut(key), value) {
            (Some(Value::Object(base_table)), Value::Object(table)) => {
                merge_into(base_table, table, &path, index, prov);
            }
            _ => {
                base.insert(key.clone(), value.clone());
                prov.insert(path, index);
            }
        }
    }
}

fn resolve<G: Registered>(
    chain: Vec<Layer>,
    extra: Option<(Layer, &[Override])>,
    sources: Sources,
) -> Result<Loaded, Diagnostics> {
    // House rules written as scripts merge by name, not key by key.
    let (scripts, script_errors) = scripts::merge(&chain, G::script_api());
    if !script_errors.is_empty() {
        return Err(Diagnostics {
            items: script_errors,
            sources,
        });
    }
    let standard = serde_json::to_value(G::standard()).unwrap_or(Value::Null);
    let mut merged = standard.as_object().cloned().unwrap_or_default();
    let mut prov = Provenance::new();
    // Parents first, so that children overwrite them.
    for (index, layer) in chain.iter().enumerate().rev() {
        if let Value::Object(doc) = &layer.json {
            let mut doc = doc.clone();
            for key in ["game", "extends", "name", "description", "script"] {
                doc.remove(key);
            }
            merge_into(&mut merged, &doc, "", index, &mut prov);
        }
    }
    let (extra, overrides) = match extra {
        Some((layer, overrides)) => (Some(layer), overrides),
        None => (None, &[][..]),
    };
    if let Some(Value::Object(doc)) = extra.as_ref().map(|l| &l.json) {
        let mut doc = doc.clone();
        doc.remove("name");
        doc.remove("description");
        merge_into(&mut merged, &doc, "", OVERRIDE, &mut prov);
    }
    let root = &chain[0];
    let set = extra.as_ref().map(|l| &l.parsed);
    let name = set
        .and_then(|p| p.name.clone())
        .or_else(|| root.parsed.name.clone())
        .unwrap_or_else(|| root.stem.clone());
    let description = set
        .and_then(|p| p.description.clone())
        .or_else(|| root.parsed.description.clone())
        .unwrap_or_default();
    if !scripts.is_empty() {
        merged.insert(
            "script".into(),
            serde_json::to_value(&scripts).unwrap_or(Value::Null),
        );
    }
    merged.insert("name".into(), Value::String(name));
    merged.insert("description".into(), Value::String(description));
    let rules: G::Rules = match serde_json::from_value(Value::Object(merged)) {
        Ok(rules) => rules,
        Err(e) => {
            return Err(Diagnostics {
                items: vec![Diagnostic::error(
                    Code::Type,
                    &root.file,
                    format!("internal error while merging: {e}"),
                )],
                sources,
            });
        }
    };
    let placer = FilePlacer {
        game: GameId::of::<G>(),
        chain: &chain,
        prov: &prov,
        overrides,
    };
    let diagnostics = G::check(&rules, &Checker::new(&placer));
    let names = overrides
        .iter()
        .map(Override::display)
        .chain(chain.iter().map(|l| l.file.clone()))
        .collect();
    if diagnostics.iter().any(Diagnostic::is_error) {
        Err(Diagnostics {
            items: diagnostics,
            sources,
        })
    } else {
        Ok(Loaded {
            rules: G::wrap(Arc::new(rules)),
            warnings: diagnostics,
            chain: names,
            sources,
        })
    }
}

/// Places the diagnostics of a game's checks across keys ([`crate::games::Game::check`]):
/// at the key in the loaded file when it sets it, otherwise at its `extends`
/// line with a note on where the value came from.
struct FilePlacer<'a> {
    game: GameId,
    chain: &'a [Layer],
    prov: &'a Provenance,
    /// The `--set` overrides, whose keys have the provenance [`OVERRIDE`].
    overrides: &'a [Override],
}

impl Placer for FilePlacer<'_> {
    fn file(&self) -> &str {
        &self.chain[0].file
    }

    /// A diagnostic about `key`: at the key in the loaded file when it sets it;
    /// otherwise at the loaded file's `extends` line, saying where it came from.
    fn about(&self, d: Diagnostic, key: &str) -> Diagnostic {
        let root = &self.chain[0];
        let d = d.key(key);
        match self.prov.get(key) {
            Some(&OVERRIDE) => overrides::relabel(
                self.game,
                d,
                overrides::owner(self.overrides, None, Some(key)),
            ),
            Some(0) => match root.place(key) {
                Some(place) => d.at(&root.text, place.value.clone()),
                None => d,
            },
            other => {
                let origin = match other.and_then(|&i| self.chain.get(i)) {
                    Some(layer) => {
                        let place = layer.place(key).map(|p| {
                            let (line, col) =
                                super::diagnostic::line_col(&layer.text, p.value.start);
                            format!(":{line}:{col}")
                        });
                        format!("{}{}", layer.file, place.unwrap_or_default())
                    }
                    None => "the standard rules".to_owned(),
                };
                // A built-in is not "this file" to a user, and a `--set`
                // of another key did not set this one either.
                let this = if root.dir.is_none() {
                    format!("the built-in variant {}", root.file)
                } else {
                    "this file".to_owned()
                };
                let by_set = if self.overrides.is_empty() {
                    ""
                } else {
                    " nor by --set"
                };
                let note = if root.place("extends").is_some() {
                    format!(
                        "`{key}` is not set in {this}{by_set}: it comes from {origin}, through `extends`"
                    )
                } else {
                    format!("`{key}` is not set in {this}{by_set}: it has the standard value")
                };
                let d = Diagnostic {
                    help: Some(match d.help.clone() {
                        Some(h) => format!("{h}; {note}"),
                        None => note,
                    }),
                    ..d
                };
                match root.place("extends") {
                    Some(place) => d.at(&root.text, place.value.clone()),
                    None => d,
                }
            }
        }
    }

    /// Of `keys`, the first one the loaded file sets itself, else the first.
    fn pick<'k>(&self, keys: &[&'k str]) -> &'k str {
        keys.iter()
            .copied()
            .find(|k| self.prov.get(*k) == Some(&OVERRIDE))
            .or_else(|| keys.iter().copied().find(|k| self.prov.get(*k) == Some(&0)))
            .unwrap_or(keys[0])
    }

    /// Place `d` at item `item` (`severing.actions[2]`) of `key` when the
    /// loaded file sets `key` itself.
    fn at_item(&self, d: Diagnostic, key: &str, item: &str) -> Diagnostic {
        if self.prov.get(key) == Some(&0)
            && let Some(place) = self.chain[0].place(item)
        {
            return d.at(&self.chain[0].text, place.value.clone());
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_removes_dot_segments() {
        assert_eq!(
            normalize(Path::new("a/b/../c.toml")),
            PathBuf::from("a/c.toml")
        );
        assert_eq!(normalize(Path::new("./x.toml")), PathBuf::from("x.toml"));
        assert_eq!(
            normalize(Path::new("../x.toml")),
            PathBuf::from("../x.toml")
        );
    }

    #[test]
    fn builtin_names_are_bare_words() {
        assert!(is_builtin_name("standard"));
        assert!(!is_builtin_name("standard.toml"));
        assert!(!is_builtin_name("dir/x"));
        assert!(!is_builtin_name(""));
    }
}
