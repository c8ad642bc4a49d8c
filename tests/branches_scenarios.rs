//! BTT rules tests as data: every `tests/scenarios/branches/*.scn` file draws
//! a position, applies actions, and states the position after.
//!
//! ```text
//! # Title, and why the rule is read this way (comment lines start with #)
//! set scoring.owner_paid_by = "mover"   # optional: keys changed from btt.toml
//! players 2                             # optional, default 2
//! before:                               # a drawing (see src/games/branches/draw.rs), or `before: new`
//!   ...
//! do:
//!   c2 2 W                              # an action in its text form
//!   refuse c3 1 N: empty                # must be refused (reason must contain the text)
//!   reject c9 1 N: not a cell           # must not even parse (message must contain the text)
//!   legal 6                             # the number of legal actions here
//!   expect A places                     # the node's description must contain the text
//! after:
//!   <the drawing as `draw` prints it, `next:` line included>
//! ```
//!
//! Run with `UPDATE_SCENARIOS=1` to rewrite the `after:` sections from the
//! engine (then read every changed board by eye before committing).

use std::path::Path;

use roots::core::protocol::GameState;
use roots::games::branches::{Rules, State, describe_node, draw, parse_action};

struct Scenario {
    sets: Vec<(String, String)>,
    players: u8,
    before: Option<String>,
    steps: Vec<(usize, String)>,
    after: String,
    after_line: usize,
}

fn parse(text: &str) -> Result<Scenario, String> {
    let mut sc = Scenario {
        sets: Vec::new(),
        players: 2,
        before: None,
        steps: Vec::new(),
        after: String::new(),
        after_line: 0,
    };
    let mut section = "";
    let mut before = String::new();
    let mut saw_after = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if !raw.starts_with(' ') && !raw.starts_with('\t') {
            section = "";
            if let Some(rest) = line.strip_prefix("set ") {
                let (k, v) = rest
                    .split_once('=')
                    .ok_or(format!("line {}: set key = value", i + 1))?;
                sc.sets.push((k.trim().to_string(), v.trim().to_string()));
            } else if let Some(rest) = line.strip_prefix("players ") {
                sc.players = rest
                    .trim()
                    .parse()
                    .map_err(|_| format!("line {}: players N", i + 1))?;
            } else if line == "before: new" {
                sc.before = None;
            } else if line == "before:" {
                section = "before";
            } else if line == "do:" {
                section = "do";
            } else if line == "after:" {
                section = "after";
                saw_after = true;
                sc.after_line = i + 1;
            } else {
                return Err(format!("line {}: unknown line `{line}`", i + 1));
            }
            continue;
        }
        match section {
            "before" => {
                before.push_str(line);
                before.push('\n');
            }
            "do" => sc.steps.push((i + 1, line.to_string())),
            "after" => {
                sc.after.push_str(line);
                sc.after.push('\n');
            }
            _ => return Err(format!("line {}: indented line outside a section", i + 1)),
        }
    }
    if !saw_after {
        return Err("no `after:` section".into());
    }
    if !before.is_empty() {
        sc.before = Some(before);
    }
    Ok(sc)
}

/// The standard rules with `key.path = value` overrides (TOML values).
fn rules_with(sets: &[(String, String)]) -> Result<Rules, String> {
    let mut doc = toml::Table::try_from(Rules::standard()).map_err(|e| e.to_string())?;
    for (key, value) in sets {
        let parsed: toml::Table =
            toml::from_str(&format!("v = {value}")).map_err(|e| format!("set {key}: {e}"))?;
        let mut table = &mut doc;
        let parts: Vec<&str> = key.split('.').collect();
        for part in &parts[..parts.len() - 1] {
            table = table
                .get_mut(*part)
                .and_then(|v| v.as_table_mut())
                .ok_or(format!("set {key}: no table `{part}`"))?;
        }
        let last = parts[parts.len() - 1];
        if !table.contains_key(last) {
            return Err(format!("set {key}: no key `{last}`"));
        }
        table.insert(last.to_string(), parsed["v"].clone());
    }
    doc.try_into().map_err(|e: toml::de::Error| e.to_string())
}

fn normalise(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

fn run(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let sc = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let rules = rules_with(&sc.sets).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut state = match &sc.before {
        None => State::new(&rules, sc.players),
        Some(drawing) => State::from_drawing(&rules, sc.players, drawing)
            .map_err(|e| format!("{}: before: {e}", path.display()))?,
    };
    state.check_invariants()?;
    let mut legal = Vec::new();
    for (line, step) in &sc.steps {
        let at = |state: &State, msg: String| {
            format!(
                "{}:{line}: `{step}`: {msg}\n{}",
                path.display(),
                draw(state)
            )
        };
        let split = |rest: &str| -> (String, Option<String>) {
            match rest.split_once(':') {
                Some((w, r)) => (w.trim().to_string(), Some(r.trim().to_string())),
                None => (rest.trim().to_string(), None),
            }
        };
        if let Some(rest) = step.strip_prefix("expect ") {
            let node = describe_node(&state);
            if !node.contains(rest.trim()) {
                return Err(at(&state, format!("the node is `{node}`")));
            }
        } else if let Some(rest) = step.strip_prefix("legal ") {
            state.legal_actions(&mut legal);
            let want: usize = rest
                .trim()
                .parse()
                .map_err(|_| at(&state, "legal N".into()))?;
            if legal.len() != want {
                return Err(at(&state, format!("{} legal actions", legal.len())));
            }
        } else if let Some(rest) = step.strip_prefix("reject ") {
            let (what, reason) = split(rest);
            match parse_action(&state, &what) {
                Ok(a) => return Err(at(&state, format!("read as {a:?}, but must not parse"))),
                Err(e) => {
                    if let Some(r) = reason
                        && !e.contains(&r)
                    {
                        return Err(at(&state, format!("rejected with `{e}`, expected `{r}`")));
                    }
                }
            }
        } else if let Some(rest) = step.strip_prefix("refuse ") {
            let (what, reason) = split(rest);
            let before = draw(&state);
            let action = parse_action(&state, &what).map_err(|e| at(&state, e))?;
            match state.play(action) {
                Ok(()) => return Err(at(&state, "was accepted, but must be refused".into())),
                Err(e) => {
                    if let Some(r) = reason
                        && !e.to_string().contains(&r)
                    {
                        return Err(at(&state, format!("refused with `{e}`, expected `{r}`")));
                    }
                }
            }
            if draw(&state) != before {
                return Err(at(&state, "a refusal changed the state".into()));
            }
        } else {
            let action = parse_action(&state, step).map_err(|e| at(&state, e))?;
            state.play(action).map_err(|e| at(&state, e.to_string()))?;
        }
        state.check_invariants().map_err(|e| at(&state, e))?;
    }
    let actual = draw(&state);
    if std::env::var_os("UPDATE_SCENARIOS").is_some() {
        let keep: String = text
            .lines()
            .take_while(|l| l.trim() != "after:")
            .map(|l| format!("{l}\n"))
            .collect();
        let body: String = actual.lines().map(|l| format!("  {l}\n")).collect();
        std::fs::write(path, format!("{keep}after:\n{body}")).map_err(|e| e.to_string())?;
        return Ok(());
    }
    if normalise(&actual) != normalise(&sc.after) {
        return Err(format!(
            "{}:{}: the position after differs\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            sc.after_line,
            sc.after,
            actual
        ));
    }
    Ok(())
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/branches");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios/branches exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 15,
        "expected the full scenario corpus, found {}",
        files.len()
    );
    let failures: Vec<String> = files.iter().filter_map(|f| run(f).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_broken_expectation_fails() {
    let dir = std::env::temp_dir().join(format!("btt-scn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrong.scn");
    std::fs::write(&path, "before: new\ndo:\n  null b1\nafter:\n  nonsense\n").unwrap();
    if std::env::var_os("UPDATE_SCENARIOS").is_none() {
        let err = run(&path).unwrap_err();
        assert!(err.contains("differs"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
