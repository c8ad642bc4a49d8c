//! The layers of the crate point one way: a scan of `src/` itself (every
//! `crate::X` path outside test modules and comments) finds no import cycle
//! between the top-level modules, and no module of a known layer reaching
//! up into a higher one. Inside `sim/` the same holds between its files
//! (statistics below verdicts below the games' totals below reports), and
//! in `cli/` no command uses another command's module (what commands share
//! is the run layer below them, `src/run/`, or a helper of `cli/`), and no
//! file is over 400 lines. ARCHITECTURE.md draws the same layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The known layers, lowest first; a module may use its own layer and the
/// ones below. A top-level module not listed here is held only to the
/// no-cycle rule.
const LAYERS: &[&[&str]] = &[
    &["core", "signals"],
    &["script"],
    &["games"],
    &["bots", "record", "variant"],
    &["referee"],
    &["sim"],
    &["run"],
    &["view"],
    &["report_page"],
    &["engine"],
    &["serve"],
];

/// Top-level modules outside the layering: the binary's own front end and
/// the fuzzing entry points (which reach every layer on purpose).
const OUTSIDE: &[&str] = &["main", "lib", "cli", "fuzzing"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file that the library is built from: test modules (from
/// the first `#[cfg(test)]`) and `//` comments (doc links included) cut.
fn code_of(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a piece of code names through `crate::`.
fn uses(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    names_after(code, "crate::", modules)
}

/// The names of `modules` that code names right after `prefix`
/// (`crate::`, `super::`, `crate::sim::`), one or a `{group}` of them.
fn names_after(code: &str, prefix: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut at = 0;
    while let Some(i) = code[at..].find(prefix) {
        // `super::super::x` is not `super::x` (nor `crate::sim::x` a
        // `sim::x` of another path): the prefix must start a path.
        let before = code[..at + i].chars().next_back();
        at += i + prefix.len();
        let rest = &code[at..];
        if before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if modules.contains(name) {
                    out.insert(name.to_owned());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if modules.contains(&name) {
                out.insert(name);
            }
        }
    }
    out
}

/// Every edge `from -> to` between top-level modules, with a file that
/// makes it.
fn edges(src: &Path) -> BTreeMap<(String, String), String> {
    let modules: BTreeSet<String> = std::fs::read_dir(src)
        .expect("src/ is readable")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_stem()?.to_str()?.to_owned();
            (path.is_dir() || path.extension().is_some_and(|x| x == "rs")).then_some(name)
        })
        .collect();
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src/");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("")
            .trim_end_matches(".rs")
            .to_owned();
        if OUTSIDE.contains(&top.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file is UTF-8");
        for other in uses(&code_of(&text), &modules) {
            if other != top && !OUTSIDE.contains(&other.as_str()) {
                out.entry((top.clone(), other))
                    .or_insert_with(|| rel.display().to_string());
            }
        }
    }
    out
}

/// The strongly connected components of more than one module.
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<BTreeSet<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (a, b) in edges.keys() {
                if *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for n in &nodes {
        let comp: BTreeSet<String> = nodes
            .iter()
            .filter(|m| reached[*n].contains(**m) && reached[**m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if comp.len() > 1 && !out.contains(&comp) {
            out.push(comp);
        }
    }
    out
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

#[test]
fn no_import_cycle_between_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = edges(&src);
    let found = cycles(&edges);
    let words: Vec<String> = found
        .iter()
        .map(|c| {
            let ties: Vec<String> = edges
                .iter()
                .filter(|((a, b), _)| c.contains(a) && c.contains(b))
                .map(|((a, b), file)| format!("{a}->{b} ({file})"))
                .collect();
            format!("cycle: {}", ties.join("; "))
        })
        .collect();
    assert!(found.is_empty(), "{}", words.join("\n"));
}

#[test]
fn no_layer_reaches_up() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let upward: Vec<String> = edges(&src)
        .into_iter()
        .filter(|((a, b), _)| match (layer_of(a), layer_of(b)) {
            (Some(x), Some(y)) => y > x,
            _ => false,
        })
        .map(|((a, b), file)| format!("{a} -> {b} in {file}"))
        .collect();
    assert!(
        upward.is_empty(),
        "a lower layer uses a higher one (ARCHITECTURE.md, \"Layers\"):\n{}",
        upward.join("\n")
    );
}

/// The scan itself finds what it looks for (a test that could not fail
/// would prove nothing).
#[test]
fn the_scan_sees_paths_groups_and_cycles() {
    let modules: BTreeSet<String> = ["core", "games", "bots"].map(String::from).into();
    let code = code_of(
        "use crate::{core::x, games};\n// crate::bots in a comment\nlet b = crate::bots::y();\n#[cfg(test)]\nuse crate::nothing;",
    );
    assert_eq!(
        uses(&code, &modules),
        ["bots", "core", "games"].map(String::from).into()
    );
    let mut e = BTreeMap::new();
    e.insert(("a".to_owned(), "b".to_owned()), "a.rs".to_owned());
    e.insert(("b".to_owned(), "c".to_owned()), "b.rs".to_owned());
    assert!(cycles(&e).is_empty());
    e.insert(("c".to_owned(), "a".to_owned()), "c.rs".to_owned());
    assert_eq!(cycles(&e), vec![["a", "b", "c"].map(String::from).into()]);
    // Within a directory: `super::x`, `super::{x, y::z}`, not
    // `super::super::x`; a re-exported name is its file.
    let names: BTreeSet<String> = ["play", "report", "Config"].map(String::from).into();
    let code = "use super::{play::run, Config};\nlet r = super::super::report::x;";
    assert_eq!(
        names_after(code, "super::", &names),
        ["Config", "play"].map(String::from).into()
    );
    let named =
        reexports("mod play;\npub use play::{\n    Config, run,\n};\npub use report::Report;");
    assert_eq!(named.get("Config").map(String::as_str), Some("play"));
    assert_eq!(named.get("Report").map(String::as_str), Some("report"));
}

/// The files of `sim/` in layers, lowest first: the statistics, the
/// verdicts drawn from them, a game's measures, result and totals and the
/// playing of games, then the reports made of those totals. A file may use
/// its own layer and the ones below; every file of `sim/` but `mod.rs` (its
/// declarations and re-exports) must be listed.
const SIM_LAYERS: &[&[&str]] = &[
    &["stats", "histogram", "rate", "csv"],
    &["verdict", "sequential"],
    &["measures", "game", "accum", "play", "shard", "paired"],
    &[
        "ladder",
        "report",
        "comparison",
        "findings",
        "sweep",
        "plot",
        "sweep_table",
        "tune",
        "tune_table",
    ],
];

/// The names `mod.rs` re-exports (`pub use file::{A, B};`), by the file
/// that defines them.
fn reexports(mod_rs: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let code = code_of(mod_rs);
    let mut rest = code.as_str();
    while let Some(i) = rest.find("pub use ") {
        rest = &rest[i + "pub use ".len()..];
        let end = rest.find(';').unwrap_or(rest.len());
        let (file, names) = rest[..end].split_once("::").unwrap_or(("", ""));
        for name in names
            .trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace())
            .split(',')
        {
            let name = name.trim();
            if !name.is_empty() && name != "self" {
                out.insert(name.to_owned(), file.trim().to_owned());
            }
        }
    }
    out
}

/// Every edge `from -> to` between the files of one directory module
/// (`src/sim`), through `super::` or `crate::MODULE::` paths, a name
/// re-exported by `mod.rs` counted as a use of the file that defines it.
fn file_edges(dir: &Path, module: &str) -> BTreeMap<(String, String), String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let stems: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.file_stem()?.to_str().map(str::to_owned))
        .filter(|s| s != "mod")
        .collect();
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).expect("mod.rs");
    let named = reexports(&mod_rs);
    let mut names = stems.clone();
    names.extend(named.keys().cloned());
    let absolute = format!("crate::{module}::");
    let mut out = BTreeMap::new();
    for file in &files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_owned();
        if stem == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file is UTF-8");
        let code = code_of(&text);
        let mut used = names_after(&code, "super::", &names);
        used.extend(names_after(&code, &absolute, &names));
        for name in used {
            let to = named.get(&name).cloned().unwrap_or(name);
            if to != stem {
                out.entry((stem.clone(), to))
                    .or_insert_with(|| format!("{module}/{stem}.rs"));
            }
        }
    }
    out
}

#[test]
fn sim_files_form_no_circle_and_point_down() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
    let edges = file_edges(&dir, "sim");
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import circles between the files of sim/: {found:?}\nedges: {:?}",
        edges.keys().collect::<Vec<_>>()
    );
    let layer = |f: &str| SIM_LAYERS.iter().position(|l| l.contains(&f));
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let unlisted: Vec<String> = files
        .iter()
        .filter_map(|f| f.file_stem()?.to_str().map(str::to_owned))
        .filter(|s| s != "mod" && layer(s).is_none())
        .collect();
    assert!(
        unlisted.is_empty(),
        "files of sim/ without a layer in tests/layers.rs (SIM_LAYERS): {unlisted:?}"
    );
    let upward: Vec<String> = edges
        .iter()
        .filter(|((a, b), _)| layer(b) > layer(a))
        .map(|((a, b), file)| format!("{a} -> {b} in {file}"))
        .collect();
    assert!(
        upward.is_empty(),
        "a file of sim/ uses a higher layer (SIM_LAYERS):\n{}",
        upward.join("\n")
    );
}

/// The modules of `cli/` that are not commands: helpers the commands share
/// (the arguments every run takes, the printer of a run's result, the
/// terminal and standard output, the human at the prompt, what `play` and
/// `replay` share of a record).
const CLI_HELPERS: &[&str] = &["args", "print", "term", "human", "records"];

#[test]
fn no_command_uses_another_command() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let modules: BTreeSet<String> = std::fs::read_dir(&dir)
        .expect("src/cli is readable")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_stem()?.to_str()?.to_owned();
            (path.is_dir() || path.extension().is_some_and(|x| x == "rs")).then_some(name)
        })
        .filter(|n| n != "mod")
        .collect();
    let commands: BTreeSet<String> = modules
        .iter()
        .filter(|m| !CLI_HELPERS.contains(&m.as_str()))
        .cloned()
        .collect();
    assert!(commands.contains("compare") && commands.contains("simulate"));
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&dir).expect("under src/cli");
        let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
        let top = parts[0].trim_end_matches(".rs");
        if top == "mod.rs" || top == "mod" {
            continue;
        }
        // `super::` from cli/X.rs and cli/X/mod.rs, `super::super::`
        // from cli/X/Y.rs.
        let up = if parts.len() == 1 || parts.last() == Some(&"mod.rs") {
            "super::"
        } else {
            "super::super::"
        };
        let code = code_of(&std::fs::read_to_string(&file).expect("UTF-8"));
        let mut used = names_after(&code, up, &commands);
        used.extend(names_after(&code, "crate::cli::", &commands));
        for other in used {
            if other != top {
                found.push(format!("cli/{} uses the command `{other}`", rel.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a module of cli/ uses a command module (what commands share belongs in the run layer, src/run/, or a helper of cli/):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_file_of_cli_is_over_400_lines() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).expect("UTF-8").lines().count();
            (n > 400).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files of cli/ over 400 lines (a command parses, plans, runs and prints; the work is below it):\n{}",
        long.join("\n")
    );
}
