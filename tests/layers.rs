//! The layers of the crate point one way: a scan of `src/` itself (every
//! `crate::X` path outside test modules and comments) finds no import cycle
//! between the top-level modules, and no module of a known layer reaching
//! up into a higher one. ARCHITECTURE.md draws the same layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The known layers, lowest first; a module may use its own layer and the
/// ones below. A top-level module not listed here is held only to the
/// no-cycle rule.
const LAYERS: &[&[&str]] = &[
    &["core"],
    &["script"],
    &["games"],
    &["bots", "record", "variant"],
    &["referee"],
    &["sim"],
    &["view"],
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
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
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
}
