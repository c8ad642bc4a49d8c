//! The file a tune writes: the best variant found, as a variant file that
//! `extends` the original and sets only the keys whose values differ from
//! it, loaded back to check it is the variant played.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::games::Registered;
use crate::sim::Report;
use crate::sim::tune::Target;

use super::failure::Failure;
use super::interrupt;
use super::tune::Setup;

/// The `extends` of the written file: the built-in name, or the variant's
/// path from the file's directory.
fn extends_for(variant: &str, out: &Path) -> String {
    if crate::variant::is_builtin_name(variant) {
        return variant.to_owned();
    }
    let target = std::fs::canonicalize(variant).unwrap_or_else(|_| PathBuf::from(variant));
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let Ok(dir) = std::fs::canonicalize(dir) else {
        return target.display().to_string();
    };
    let a: Vec<_> = dir.components().collect();
    let b: Vec<_> = target.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut rel = PathBuf::new();
    for _ in common..a.len() {
        rel.push("..");
    }
    for c in &b[common..] {
        rel.push(c);
    }
    rel.display().to_string()
}

/// Write the best variant: `extends` the original, sets only the keys whose
/// values differ from it; then load it back and check it is the variant
/// played. Returns the line that says where it went.
pub fn write_best<G: Registered>(
    setup: &Setup,
    targets: &[Target],
    base: &G::Rules,
    best: &G::Rules,
    report: &Report,
) -> Result<String, Failure> {
    let path = Path::new(&setup.write);
    let a = serde_json::to_value(base).unwrap_or_default();
    let b = serde_json::to_value(best).unwrap_or_default();
    // Every key the search or --set may have changed.
    let mut keys: Vec<String> = setup
        .vary
        .iter()
        .map(|v| v.split('=').next().unwrap_or(v).trim().to_owned())
        .collect();
    keys.extend(
        setup
            .fixed
            .iter()
            .map(|f| f.split('=').next().unwrap_or(f).trim().to_owned()),
    );
    let mut sections: Vec<(String, Vec<(String, toml::Value)>)> = Vec::new();
    let mut changed = Vec::new();
    for key in &keys {
        let (Some(old), Some(new)) = (value_at(&a, key), value_at(&b, key)) else {
            continue;
        };
        if old == new {
            continue;
        }
        let (section, leaf) = key.split_once('.').unwrap_or(("", key));
        match sections.iter_mut().find(|(s, _)| s == section) {
            Some((_, v)) => v.push((leaf.to_owned(), new)),
            None => sections.push((section.to_owned(), vec![(leaf.to_owned(), new)])),
        }
        changed.push(key.clone());
    }
    let name = path
        .file_stem()
        .map_or_else(|| "tuned".to_owned(), |s| s.to_string_lossy().into_owned());
    let mut text = String::new();
    if interrupt::interrupted() {
        // The file itself says so, as the text report does.
        let _ = writeln!(
            text,
            "# PARTIAL: the tune was interrupted (Ctrl-C) before its budget was spent: the best found so far, not the result of the whole search."
        );
    }
    let _ = writeln!(
        text,
        "# Found by `roots tune` (seed {}, {} players, bots {}), toward: {}.",
        setup.sim.seed,
        setup.sim.players,
        setup.sim.bots,
        targets
            .iter()
            .map(Target::words)
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(
        text,
        "# Measured over {} games (95% intervals):",
        report.games
    );
    for t in targets {
        let e = t.measure.of(report);
        let m = &t.measure;
        let _ = writeln!(
            text,
            "#   {}: {} ({} to {})",
            m.key(),
            m.show(e.value),
            m.show(e.low),
            m.show(e.high)
        );
    }
    let _ = writeln!(
        text,
        "extends = {}",
        toml::Value::String(extends_for(&setup.variant, path))
    );
    let _ = writeln!(text, "name = {}", toml::Value::String(name));
    let _ = writeln!(
        text,
        "description = {}",
        toml::Value::String(format!(
            "{} tuned by `roots tune` toward {}.",
            G::name(base),
            targets
                .iter()
                .map(Target::words)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    );
    for (section, keys) in &sections {
        let _ = writeln!(text, "\n[{section}]");
        for (k, v) in keys {
            let _ = writeln!(text, "{k} = {v}");
        }
    }
    std::fs::write(path, &text)
        .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
    // The file must give back the variant played.
    let loaded = crate::variant::load_file(path).map_err(|d| {
        Failure::usage(format!(
            "{} does not load back:\n{}",
            path.display(),
            crate::variant::render(&d.items, &d.sources, crate::variant::Style::Plain)
        ))
    })?;
    let mut got = G::unwrap(&loaded.rules)
        .map(|r| serde_json::to_value(&**r).unwrap_or_default())
        .unwrap_or_default();
    let mut want = b;
    for v in [&mut got, &mut want] {
        if let Some(o) = v.as_object_mut() {
            o.remove("name");
            o.remove("description");
        }
    }
    if got != want {
        return Err(Failure::usage(format!(
            "{} loads as another variant than the one played (a bug: please report it)",
            path.display()
        )));
    }
    Ok(if changed.is_empty() {
        format!(
            "The best is the variant as it is; {} extends it and changes nothing.",
            path.display()
        )
    } else {
        format!(
            "Best variant written to {} (extends `{}`, sets {}): `roots diff {} {}` shows it.",
            path.display(),
            setup.variant,
            changed.join(", "),
            setup.variant,
            path.display()
        )
    })
}

/// The value at a dotted key of a rules JSON, as TOML.
pub fn value_at(json: &serde_json::Value, key: &str) -> Option<toml::Value> {
    let mut at = json;
    for part in key.split('.') {
        at = at.get(part)?;
    }
    match at {
        serde_json::Value::Bool(b) => Some(toml::Value::Boolean(*b)),
        serde_json::Value::Number(n) => n.as_i64().map(toml::Value::Integer),
        serde_json::Value::String(s) => Some(toml::Value::String(s.clone())),
        _ => None,
    }
}
