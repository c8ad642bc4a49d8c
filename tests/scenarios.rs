//! Rules tests as data: every `tests/scenarios/*.scn` file draws a position,
//! applies rolls and choices, and states the position after.
//!
//! A scenario file:
//!
//! ```text
//! # Title, and why the rule is read this way (comment lines start with #)
//! set removal.lost_ends = "all_ends"   # optional: variant keys changed from standard
//! players 2                            # optional, default 2
//! turn A                               # whose turn the drawn position starts (default A)
//! before:                              # a drawn board (see src/roots/draw.rs), or `before: new`
//!   . . A ...
//!   nutrients: 3,4=7
//!   store: 6 6
//! do:
//!   grow buds                          # an action in its text form
//!   roll 3                             # a die face for the chance node
//!   refuse place 0,0: touches none     # an action that must be refused (reason must contain the text)
//!   refuse roll 9                      # a face that must be refused
//!   expect seat B chooses              # the node's description must contain the text
//! after:
//!   <the board, nutrients, seat lines and pile as `State::draw` prints them>
//! ```
//!
//! Run with `UPDATE_SCENARIOS=1` to rewrite the `after:` sections from the
//! engine (then read every changed board by eye before committing).

use std::path::Path;
use std::sync::Arc;

use roots::core::protocol::GameState;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::{Action, State};

struct Scenario {
    sets: Vec<(String, String)>,
    players: u8,
    turn: u8,
    before: Option<String>,
    steps: Vec<(usize, String)>,
    after: String,
    after_line: usize,
}

fn parse(text: &str) -> Result<Scenario, String> {
    let mut sc = Scenario {
        sets: Vec::new(),
        players: 2,
        turn: 0,
        before: None,
        steps: Vec::new(),
        after: String::new(),
        after_line: 0,
    };
    let mut section = "";
    let mut before = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') || (line.is_empty() && section != "after") {
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
            } else if let Some(rest) = line.strip_prefix("turn ") {
                let c = rest.trim().chars().next().ok_or("turn needs a letter")?;
                sc.turn = (c as u8).wrapping_sub(b'A');
            } else if line == "before: new" {
                sc.before = None;
            } else if line == "before:" {
                section = "before";
            } else if line == "do:" {
                section = "do";
            } else if line == "after:" {
                section = "after";
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

/// Lines of a drawing without column headers and row numbers, for comparing.
fn normalise(drawing: &str) -> Vec<String> {
    drawing
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter(|l| {
            !l.split_whitespace()
                .all(|t| t.chars().all(|c| c.is_ascii_digit()))
        })
        .map(|l| {
            let tokens: Vec<&str> = l.split_whitespace().collect();
            let is_row =
                tokens.len() > 1 && tokens[1..].iter().all(|t| t.len() == 1) && !l.contains(':');
            if is_row && tokens[0].chars().all(|c| c.is_ascii_digit()) {
                tokens[1..].join(" ")
            } else {
                tokens.join(" ")
            }
        })
        .collect()
}

fn run(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let sc = parse(&text)?;
    let rules = Arc::new(rules_with(&sc.sets)?);
    let mut state = match &sc.before {
        None => State::new(rules, sc.players).map_err(|e| e.to_string())?,
        Some(drawing) => State::from_drawing(rules, sc.players, sc.turn, drawing)?,
    };
    state.check_invariants()?;
    for (line, step) in &sc.steps {
        let at = |state: &State, msg: String| {
            format!(
                "{}:{line}: `{step}`: {msg}\n{}",
                path.display(),
                state.draw()
            )
        };
        if let Some(rest) = step.strip_prefix("expect ") {
            let node = state.describe_node();
            if !node.contains(rest) {
                return Err(at(&state, format!("the node is `{node}`")));
            }
        } else if let Some(rest) = step.strip_prefix("refuse ") {
            let (what, reason) = match rest.split_once(':') {
                Some((w, r)) => (w.trim(), Some(r.trim())),
                None => (rest.trim(), None),
            };
            let result = match what.strip_prefix("roll ") {
                Some(face) => match face.trim().parse() {
                    Ok(face) => state.roll(face),
                    Err(_) => return Err(at(&state, "bad face".into())),
                },
                None => match Action::parse(state.grid(), what) {
                    Ok(action) => state.play(action),
                    Err(e) => return Err(at(&state, e)),
                },
            };
            match result {
                Ok(()) => return Err(at(&state, "was accepted, but must be refused".into())),
                Err(e) => {
                    if let Some(reason) = reason
                        && !e.to_string().contains(reason)
                    {
                        return Err(at(
                            &state,
                            format!(
                                "refused with `{e}`, expected the reason to contain `{reason}`"
                            ),
                        ));
                    }
                }
            }
        } else if let Some(face) = step.strip_prefix("roll ") {
            let Ok(face) = face.trim().parse::<u8>() else {
                return Err(at(&state, "bad face".into()));
            };
            if let Err(e) = state.roll(face) {
                return Err(at(&state, e.to_string()));
            }
        } else {
            let action = match Action::parse(state.grid(), step) {
                Ok(a) => a,
                Err(e) => return Err(at(&state, e)),
            };
            if let Err(e) = state.play(action) {
                return Err(at(&state, e.to_string()));
            }
        }
        if let Err(e) = state.check_invariants() {
            return Err(at(&state, e));
        }
    }
    let actual = format!("{}next: {}\n", state.draw(), state.describe_node());
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 30,
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
    // The runner must be able to fail: a wrong `after:` is reported.
    let dir = std::env::temp_dir().join(format!("roots-scn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrong.scn");
    std::fs::write(
        &path,
        "set board.size = 5\nbefore:\n  . . . . .\n  . . . . .\n  . . A . .\n  . . . . .\n  . . . . .\ndo:\n  grow sunbathe\n  roll 4\nafter:\n  nonsense\n",
    )
    .unwrap();
    if std::env::var_os("UPDATE_SCENARIOS").is_none() {
        let err = run(&path).unwrap_err();
        assert!(err.contains("differs"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
