//! From a file to [`Rules`]: follow `extends`, merge child over parent key by
//! key, fill the rest from the standard variant, then check the keys together.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value};

use super::diagnostic::{Code, Diagnostic, Diagnostics, Sources};
use super::load::{self, Layer};
use super::overrides::{self, Override};
use super::rules::{ActionDie, BeadsOut, Growth, Rules};

/// The variants built into the toolkit, by name.
pub const BUILTINS: &[(&str, &str)] = &[("standard", super::STANDARD_TOML)];

/// The longest `extends` chain accepted (files, the first one included).
pub const MAX_CHAIN: usize = 16;

/// A variant that loaded: its rules, its warnings, and where it came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub rules: Rules,
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
    let text = load::read_file(path, &display).map_err(|d| Diagnostics {
        items: vec![*d],
        sources: Sources::default(),
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

/// A built-in variant by name (`"standard"`).
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

/// [`load`], then `overrides` (`--set key.path=value`) as one more layer on
/// top of the `extends` chain, checked like a file: schema, ranges and the
/// cross-key checks. Diagnostics about an override name it as their file
/// (`--set beads.supply=abc`). Of two overrides of one key, the last wins.
pub fn load_with(variant: &str, overrides: &[Override]) -> Result<Loaded, Diagnostics> {
    if is_builtin_name(variant) {
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

/// Whether `extends = "x"` names a built-in (a bare word) rather than a file.
pub fn is_builtin_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['/', '\\', '.'])
}

fn builtin_display(name: &str) -> String {
    format!("<built-in {name}>")
}

fn builtin_layer(name: &str) -> Option<Result<Layer, Vec<Diagnostic>>> {
    let (_, text) = BUILTINS.iter().find(|(n, _)| *n == name)?;
    Some(load::parse_layer(
        &builtin_display(name),
        (*text).to_owned(),
        None,
        format!("builtin:{name}"),
        name.to_owned(),
    ))
}

fn unknown_builtin(
    name: &str,
    file: &str,
    span: Option<std::ops::Range<usize>>,
    text: &str,
) -> Diagnostic {
    let names: Vec<String> = BUILTINS.iter().map(|(n, _)| n.to_string()).collect();
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let mut d = Diagnostic::error(
        Code::Extends,
        file,
        format!("there is no built-in variant \"{name}\""),
    )
    .key("extends")
    .expected(format!(
        "a built-in name ({}) or the path of a .toml file",
        quoted.join(", ")
    ))
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
    let root = root.map_err(|items| Diagnostics {
        items,
        sources: sources.clone(),
    })?;
    let chain = build_chain(root, &mut sources)?;
    let overrides = overrides::dedup(overrides);
    let layer = override_layer(&overrides).map_err(|items| Diagnostics {
        items,
        sources: sources.clone(),
    })?;
    resolve(chain, layer.map(|l| (l, overrides.as_slice())), sources)
}

/// The overrides as one layer, parsed and schema-checked like a file.
fn override_layer(overrides: &[Override]) -> Result<Option<Layer>, Vec<Diagnostic>> {
    if overrides.is_empty() {
        return Ok(None);
    }
    if let Some(o) = overrides.iter().find(|o| o.key() == "extends") {
        let d = Diagnostic::error(
            Code::Extends,
            o.display(),
            "`extends` cannot be set with --set",
        )
        .key("extends")
        .help("give the variant to start from as the VARIANT argument instead (a built-in name or a file)");
        return Err(vec![d]);
    }
    let mut text = String::new();
    for o in overrides {
        text.push_str(&o.line());
        text.push('\n');
    }
    load::parse_layer("--set", text, None, "overrides".into(), String::new())
        .map(Some)
        .map_err(|items| {
            items
                .into_iter()
                .map(|d| {
                    let owner = overrides::owner(overrides, d.line, d.key_path.as_deref());
                    overrides::relabel(d, owner)
                })
                .collect()
        })
}

/// The provenance index of keys set by `--set`.
const OVERRIDE: usize = usize::MAX;

/// Follow `extends` from `root`, parsing each parent.
fn build_chain(root: Layer, sources: &mut Sources) -> Result<Vec<Layer>, Diagnostics> {
    let mut chain = vec![root];
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
        let parent = if is_builtin_name(&target) {
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
                        .help("the path is relative to the file that contains `extends`; for the built-in standard rules write extends = \"standard\"");
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
                for d in &mut items {
                    let note = format!(
                        "{} is the parent of {} (through `extends`)",
                        d.file, last.file
                    );
                    d.help = Some(match d.help.take() {
                        Some(h) => format!("{h}; {note}"),
                        None => note,
                    });
                }
                return Err(Diagnostics {
                    items,
                    sources: sources.clone(),
                });
            }
        }
    }
    Ok(chain)
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

fn resolve(
    chain: Vec<Layer>,
    extra: Option<(Layer, &[Override])>,
    sources: Sources,
) -> Result<Loaded, Diagnostics> {
    let standard = serde_json::to_value(Rules::standard()).unwrap_or(Value::Null);
    let mut merged = standard.as_object().cloned().unwrap_or_default();
    let mut prov = Provenance::new();
    // Parents first, so that children overwrite them.
    for (index, layer) in chain.iter().enumerate().rev() {
        if let Value::Object(doc) = &layer.json {
            let mut doc = doc.clone();
            doc.remove("extends");
            doc.remove("name");
            doc.remove("description");
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
    merged.insert("name".into(), Value::String(name));
    merged.insert("description".into(), Value::String(description));
    let rules: Rules = match serde_json::from_value(Value::Object(merged)) {
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
    let checker = Checker {
        chain: &chain,
        prov: &prov,
        overrides,
    };
    let diagnostics = checker.check(&rules);
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
            rules,
            warnings: diagnostics,
            chain: names,
            sources,
        })
    }
}

struct Checker<'a> {
    chain: &'a [Layer],
    prov: &'a Provenance,
    /// The `--set` overrides, whose keys have the provenance [`OVERRIDE`].
    overrides: &'a [Override],
}

impl Checker<'_> {
    /// A diagnostic about `key`: at the key in the loaded file when it sets it;
    /// otherwise at the loaded file's `extends` line, saying where it came from.
    fn about(&self, d: Diagnostic, key: &str) -> Diagnostic {
        let root = &self.chain[0];
        let d = d.key(key);
        match self.prov.get(key) {
            Some(&OVERRIDE) => {
                overrides::relabel(d, overrides::owner(self.overrides, None, Some(key)))
            }
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
                let note = if root.place("extends").is_some() {
                    format!(
                        "`{key}` is not set in this file: it comes from {origin}, through `extends`"
                    )
                } else {
                    format!("`{key}` is not set in this file: it has the standard value")
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

    fn error(&self, key: &str, message: String) -> Diagnostic {
        self.about(
            Diagnostic::error(Code::Conflict, &self.chain[0].file, message),
            key,
        )
    }

    fn warning(&self, key: &str, message: String) -> Diagnostic {
        self.about(Diagnostic::warning(&self.chain[0].file, message), key)
    }

    fn check(&self, r: &Rules) -> Vec<Diagnostic> {
        let mut out = Vec::new();

        if r.players.min > r.players.max {
            let key = self.pick(&["players.min", "players.max"]);
            out.push(
                self.error(
                    key,
                    format!(
                        "`players.min` ({}) is larger than `players.max` ({})",
                        r.players.min, r.players.max
                    ),
                )
                .help("the fewest players cannot be more than the most players"),
            );
        }

        // Growth dice: each die names one action, and some action must place beads.
        for (j, later) in Growth::ALL.iter().enumerate() {
            let Some(die) = r.die_for(*later) else {
                continue;
            };
            if let Some(earlier) = Growth::ALL[..j]
                .iter()
                .find(|g| r.die_for(**g) == Some(die))
            {
                let (ke, kl) = (
                    format!("growth.{}", earlier.key()),
                    format!("growth.{}", later.key()),
                );
                let key = self.pick(&[&kl, &ke]);
                let other = if key == kl { &ke } else { &kl };
                let die_name = format!("{die:?}").to_lowercase();
                out.push(
                    self.error(key, format!("`{key}` rolls the {die_name}, but `{other}` rolls it too"))
                        .help("each die may belong to one action only, so that the die chosen says which action it is; give one of them another die, or \"off\""),
                );
            }
        }
        let growth_keys: Vec<String> = Growth::ALL
            .iter()
            .map(|g| format!("growth.{}", g.key()))
            .collect();
        let growth_refs: Vec<&str> = growth_keys.iter().map(String::as_str).collect();
        if Growth::ALL.iter().all(|g| r.die_for(*g).is_none()) {
            out.push(
                self.error(self.pick(&growth_refs), "every growth action is \"off\": nobody could do anything on their turn".into())
                    .help("give at least one action that places beads a die (new_plant, buds or simple_growth)"),
            );
        } else if !Growth::ALL
            .iter()
            .any(|g| g.places() && r.die_for(*g).is_some())
        {
            out.push(
                self.error(
                    self.pick(&growth_refs[..3]),
                    "no growth action that places beads is on: nobody could ever grow".into(),
                )
                .help("give new_plant, buds or simple_growth a die"),
            );
        }

        if r.beads.supply > 0 && r.beads.store > r.beads.supply {
            let key = self.pick(&["beads.store", "beads.supply"]);
            out.push(
                self.error(key, format!("`beads.store` ({}) is larger than `beads.supply` ({})", r.beads.store, r.beads.supply))
                    .help("the store is the few beads in hand, the supply the big pile: were the two numbers swapped?"),
            );
        }
        if r.beads.supply == 0 && r.end.beads_out == BeadsOut::SupplyEmpty {
            let key = self.pick(&["beads.supply", "end.beads_out"]);
            out.push(
                self.error(key, "`beads.supply` is 0 and the game ends when a supply is empty (`end.beads_out` = \"supply_empty\"), so it would end on the first turn".into())
                    .help("give each player a supply, or set end.beads_out = \"supply_and_store_empty\""),
            );
        }

        let points = u32::from(r.board.size) * u32::from(r.board.size);
        if r.nutrients.max_on_board > points {
            let key = self.pick(&["nutrients.max_on_board", "board.size"]);
            out.push(self.error(
                key,
                format!(
                    "`nutrients.max_on_board` ({}) is more than the {points} points of a {}x{} board",
                    r.nutrients.max_on_board, r.board.size, r.board.size
                ),
            ));
        }

        if let Some(i) = r
            .severing
            .actions
            .iter()
            .position(|g| *g == Growth::Sunbathe)
        {
            let mut d = self.error("severing.actions", "`severing.actions` lists \"sunbathe\", which places no beads and so cannot sever".into())
                .help("remove \"sunbathe\" from the list");
            if self.prov.get("severing.actions") == Some(&0)
                && let Some(place) = self.chain[0].place(&format!("severing.actions[{i}]"))
            {
                d = d.at(&self.chain[0].text, place.value.clone());
            }
            out.push(d);
        }

        // Warnings: playable, but probably not what was meant.
        if (1..10).contains(&r.beads.supply) {
            out.push(self.warning(
                "beads.supply",
                format!(
                    "a supply of {} beads ends the game after a few turns",
                    r.beads.supply
                ),
            ));
        }
        if r.nutrients.supply < 3 {
            out.push(self.warning(
                "nutrients.supply",
                format!(
                    "a pile of {} nutrients ends the game almost at once",
                    r.nutrients.supply
                ),
            ));
        }
        if r.growth.sunbathe == ActionDie::Off
            && Growth::ALL
                .iter()
                .any(|g| g.places() && r.die_for(*g).is_some())
        {
            out.push(self.warning("growth.sunbathe", "sunbathe is \"off\": stores are never refilled and the bead supplies never run out, so only the nutrients (or end.max_rounds) end the game".into()));
        }
        if r.rain.rolls.is_empty() && !r.end.final_scoring {
            out.push(self.warning("rain.rolls", "`rain.rolls` is empty and `end.final_scoring` is false: it never rains, so no nutrient is ever scored".into()));
        }
        if r.end.max_rounds < 20 {
            out.push(self.warning(
                "end.max_rounds",
                format!(
                    "games stop after {} rounds, before most of them could end on their own",
                    r.end.max_rounds
                ),
            ));
        }
        if r.nutrients.max_on_board > 12 && r.nutrients.max_on_board <= points {
            out.push(self.warning("nutrients.max_on_board", format!("a nutrient spawns only when a d12 beats the number on the board, so there are never more than 12, not {}", r.nutrients.max_on_board)));
        }
        let grows = Growth::ALL
            .iter()
            .any(|g| g.places() && r.die_for(*g).is_some());
        for action in &r.severing.actions {
            if grows && action.places() && r.die_for(*action).is_none() {
                out.push(self.warning(
                    "severing.actions",
                    format!("`severing.actions` lists \"{action}\", but that action is \"off\""),
                ));
            }
        }
        out
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
