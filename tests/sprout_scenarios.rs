//! Rules tests as data: every `tests/scenarios/sprout-r-out/*.scn` draws a
//! position, plays sub-moves, and states the position after.
//!
//! ```text
//! # Title and why the rule reads this way (comment lines start with #)
//! rules ludii                          # optional: start from Ludii's readings (default: the designer's)
//! set rules.tie = "draw"               # optional: variant keys, as in a variant file
//! set board.shape = "limping-3"        # the board (default limping-3 here)
//! turn O                               # who starts a turn in the drawn position (default X)
//! before:                              # the board as `draw` prints it (row labels, X O . + *)
//!   D6  . . .
//!   ...
//! do:
//!   C3                                 # a sub-move in its text form
//!   legal C1 D2 remove A1              # the legal sub-moves now, in any order
//!   refuse D4: not empty               # must be refused; the reason must contain the text
//! after:
//!   <the position as `draw` prints it>
//! ```
//!
//! `UPDATE_SCENARIOS=1` rewrites the `after:` sections from the engine (read
//! every changed board by eye before committing).

use std::path::Path;

use roots::core::graph::CellSet;
use roots::core::protocol::GameState;
use roots::games::sprout_r_out::{
    Rules, State, VariantFile, draw, format_action, parse_action, resolve,
};

fn parse_board(state: &State, lines: &[String]) -> Result<([CellSet; 2], [CellSet; 2]), String> {
    let b = state.board();
    let mut rows: Vec<Vec<char>> = Vec::new();
    for l in lines {
        let mut words = l.split_whitespace();
        let _label = words.next();
        let glyphs: Vec<char> = words.flat_map(|w| w.chars()).collect();
        if glyphs.iter().any(|c| !"XOxo.+*".contains(*c)) {
            return Err(format!("unknown glyph in \"{l}\""));
        }
        rows.push(glyphs);
    }
    rows.reverse();
    let glyphs: Vec<char> = rows.concat();
    if glyphs.len() != b.len() {
        return Err(format!(
            "{} cells drawn, the board has {}",
            glyphs.len(),
            b.len()
        ));
    }
    let mut stones = [CellSet::EMPTY; 2];
    let mut eyes = [CellSet::EMPTY; 2];
    for (c, g) in glyphs.iter().enumerate() {
        let c = c as u16;
        match g {
            'X' | 'x' => stones[0].insert(c),
            'O' | 'o' => stones[1].insert(c),
            '+' => eyes[0].insert(c),
            '*' => eyes[1].insert(c),
            _ => {}
        }
    }
    Ok((stones, eyes))
}

fn run(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut rules = Rules {
        board: roots::games::sprout_r_out::BoardShape::Limping3,
        ..Rules::standard()
    };
    let mut sets = String::new();
    let mut turn = 0u8;
    let mut section = "";
    let (mut before, mut steps, mut after) = (Vec::new(), Vec::new(), Vec::new());
    let mut after_start = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if section.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        match t {
            "before:" => section = "before",
            "do:" => section = "do",
            "after:" => {
                section = "after";
                after_start = Some(i + 1);
            }
            _ => match section {
                "" => {
                    if t == "rules ludii" {
                        rules = Rules {
                            board: rules.board,
                            groups: rules.groups,
                            ..Rules::ludii()
                        };
                    } else if let Some(kv) = t.strip_prefix("set ") {
                        let (k, v) = kv.split_once('=').ok_or("set needs key = value")?;
                        let (table, key) = k.trim().split_once('.').ok_or("set table.key")?;
                        sets.push_str(&format!("[{table}]\n{key} = {}\n", v.trim()));
                    } else if let Some(w) = t.strip_prefix("turn ") {
                        turn = if w.trim() == "O" { 1 } else { 0 };
                    } else {
                        return Err(format!("line {}: unknown header \"{t}\"", i + 1));
                    }
                }
                "before" => before.push(line.to_string()),
                "do" if !t.is_empty() && !t.starts_with('#') => steps.push((i + 1, t.to_string())),
                "after" => after.push(line.to_string()),
                _ => {}
            },
        }
    }
    for chunk in sets.split("[").filter(|c| !c.is_empty()) {
        let file: VariantFile = toml::from_str(&format!("[{chunk}")).map_err(|e| e.to_string())?;
        rules = resolve(&rules, &file).map_err(|p| format!("{p:?}"))?;
    }
    let probe = State::new(&rules, 2);
    let (stones, eyes) = parse_board(&probe, &before)?;
    let mut state = State::setup(&rules, stones, eyes, turn)?;
    for (line, step) in steps {
        if let Some(rest) = step.strip_prefix("legal") {
            let mut want: Vec<String> = Vec::new();
            let words: Vec<&str> = rest.split_whitespace().collect();
            let mut k = 0;
            while k < words.len() {
                if words[k] == "remove" && k + 1 < words.len() {
                    want.push(format!("remove {}", words[k + 1].to_uppercase()));
                    k += 2;
                } else {
                    want.push(words[k].to_uppercase().replace("PASS", "pass"));
                    k += 1;
                }
            }
            want.sort();
            let mut list = Vec::new();
            state.legal_actions(&mut list);
            let mut got: Vec<String> = list.iter().map(|&a| format_action(&state, a)).collect();
            got.sort();
            if got != want {
                return Err(format!("line {line}: legal {want:?}, engine {got:?}"));
            }
        } else if let Some(rest) = step.strip_prefix("refuse ") {
            let (act, why) = rest.split_once(':').unwrap_or((rest, ""));
            let a = parse_action(&state, act)?;
            let before = draw(&state);
            match state.play(a) {
                Ok(()) => return Err(format!("line {line}: {act} was accepted")),
                Err(e) if e.to_string().contains(why.trim()) => {}
                Err(e) => {
                    return Err(format!(
                        "line {line}: refused with \"{e}\", expected \"{}\"",
                        why.trim()
                    ));
                }
            }
            if draw(&state) != before {
                return Err(format!("line {line}: a refusal changed the state"));
            }
        } else {
            let a = parse_action(&state, &step).map_err(|e| format!("line {line}: {e}"))?;
            state
                .play(a)
                .map_err(|e| format!("line {line}: {step} refused: {e}"))?;
            state
                .check_invariants()
                .map_err(|e| format!("line {line}: {e}"))?;
        }
    }
    let got = draw(&state);
    let want: Vec<&str> = after.iter().map(|l| l.trim_end()).collect();
    let want = want.join("\n").trim_matches('\n').to_string();
    let norm = |s: &str| {
        s.lines()
            .map(|l| l.trim().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    if norm(&want) != norm(got.trim_end()) {
        if std::env::var("UPDATE_SCENARIOS").is_ok() {
            let start = after_start.ok_or("no after: section")?;
            let mut lines: Vec<String> = text.lines().take(start).map(String::from).collect();
            lines.extend(got.lines().map(|l| format!("  {l}")));
            return Ok(Some(lines.join("\n") + "\n"));
        }
        return Err(format!("after differs; engine:\n{got}"));
    }
    Ok(None)
}

#[test]
fn sprout_scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/sprout-r-out");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the scenario folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "scenarios present");
    let mut failures = Vec::new();
    for f in &files {
        match run(f) {
            Ok(None) => {}
            Ok(Some(updated)) => std::fs::write(f, updated).expect("rewrite scenario"),
            Err(e) => failures.push(format!(
                "{}: {e}",
                f.file_name().unwrap_or_default().to_string_lossy()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
