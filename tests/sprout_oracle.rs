//! Replays every Ludii 1.3.12 trace of Sprout-R-Out under the
//! `sprout-r-out-ludii` rules: at every sub-move the same set of legal moves
//! (and of moves the repetition rule blocks), the same board, marks, eyes and
//! scores after it, the same turn ends, and the same end and winner.

use std::path::{Path, PathBuf};

use roots::core::protocol::{GameState, Next};
use roots::games::sprout_r_out::{
    Action, BoardShape, EndReason, Groups, Rules, State, VariantFile, resolve,
};
use serde_json::Value;

use crate::common;

fn oracle() -> PathBuf {
    common::oracle_dir("sprout-r-out")
}

fn load(name: &str) -> Rules {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let text = std::fs::read_to_string(dir.join(name)).expect("variant file");
    let file: VariantFile = toml::from_str(&text).expect("variant TOML");
    let parent = match &file.extends {
        Some(p) => load(p),
        None => Rules::standard(),
    };
    resolve(&parent, &file).expect("variant resolves")
}

fn board_of(option: &str, direction: &str) -> (BoardShape, Groups) {
    let shape = match option.trim_start_matches("Board Size/") {
        "Limping 3 (27)" => BoardShape::Limping3,
        "Limping 5 (75)" => BoardShape::Limping5,
        "Limping 7 (147)" => BoardShape::Limping7,
        "Hex 6 (91)" => BoardShape::Hex6,
        "Triangle 9 (45)" => BoardShape::Triangle9,
        "Epoxy (39)" => BoardShape::Epoxy39,
        "Epoxy (72)" => BoardShape::Epoxy72,
        "Square (diagonal-groups) 9 (81)" | "Square (ortho-groups) 9 (81)" => BoardShape::Square9,
        "Cairo 1" | "Cairo 1 diagonal groups" => BoardShape::Cairo1,
        "Cairo 2 (160)" | "Cairo 2 diagonal groups (160)" => BoardShape::Cairo2,
        other => panic!("unknown board option {other}"),
    };
    let groups = if direction == "Adjacent" {
        Groups::EdgeOrVertex
    } else {
        Groups::Edge
    };
    (shape, groups)
}

fn cells(v: &Value) -> Vec<u16> {
    let mut c: Vec<u16> = v
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_u64())
                .map(|x| x as u16)
                .collect()
        })
        .unwrap_or_default();
    c.sort_unstable();
    c.dedup();
    c
}

fn set(s: roots::core::graph::CellSet) -> Vec<u16> {
    s.iter().collect()
}

/// Replay one game; the first divergence, if any.
fn replay(path: &Path, base: &Rules) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text.lines();
    let header: Value =
        serde_json::from_str(lines.next().ok_or("empty trace")?).map_err(|e| e.to_string())?;
    let (shape, groups) = board_of(
        header["board_option"].as_str().unwrap_or(""),
        header["direction"].as_str().unwrap_or(""),
    );
    let rules = Rules {
        board: shape,
        groups,
        ..base.clone()
    };
    let mut state = State::new(&rules, 2);
    if state.board().len() as u64 != header["cells"].as_u64().unwrap_or(0) {
        return Err("cell count differs".into());
    }
    let mut n = 0;
    for line in lines {
        let x: Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let at = format!("n={}", x["n"]);
        let mover = x["mover"].as_u64().unwrap_or(0) as u8;
        if state.next() != Next::Decide(mover - 1) {
            return Err(format!(
                "{at}: mover {mover} expected, state says {:?}",
                state.next()
            ));
        }
        let legal = *state.legal();
        let want = (
            cells(&x["legal"]["place"]),
            cells(&x["legal"]["remove"]),
            x["legal"]["pass"].as_bool(),
        );
        let got = (set(legal.place), set(legal.remove), Some(legal.pass));
        if want != got {
            return Err(format!("{at}: legal {want:?}, engine {got:?}"));
        }
        let wb = (
            cells(&x["blocked"]["place"]),
            cells(&x["blocked"]["remove"]),
        );
        let gb = (set(legal.blocked_place), set(legal.blocked_remove));
        if wb != gb {
            return Err(format!("{at}: blocked {wb:?}, engine {gb:?}"));
        }
        let m = &x["move"];
        let site = m["site"].as_u64().unwrap_or(0) as u16;
        let action = match m["type"].as_str() {
            Some("place") => Action::Place(site),
            Some("remove") => Action::Remove(site),
            Some("pass") => {
                if m["forced"].as_bool() != Some(legal.forced) {
                    return Err(format!(
                        "{at}: pass forced {} engine {}",
                        m["forced"], legal.forced
                    ));
                }
                Action::Pass
            }
            _ => return Err(format!("{at}: unknown move {m}")),
        };
        let before = state.stones((mover - 1) ^ 1);
        state
            .play(action)
            .map_err(|e| format!("{at}: engine refused {action:?}: {e}"))?;
        if let Action::Remove(_) = action {
            let gone: Vec<u16> = set(before & !state.stones((mover - 1) ^ 1));
            if gone != cells(&m["removed"]) {
                return Err(format!("{at}: removed {gone:?}, Ludii {}", m["removed"]));
            }
        }
        let board: String = (0..state.board().len() as u16)
            .map(|c| {
                if state.stones(0).contains(c) {
                    '1'
                } else if state.stones(1).contains(c) {
                    '2'
                } else {
                    '.'
                }
            })
            .collect();
        if board != x["board"].as_str().unwrap_or("") {
            return Err(format!("{at}: board\n  {board}\n  {}", x["board"]));
        }
        if set(state.marks()) != cells(&x["marks"]) {
            return Err(format!(
                "{at}: marks {:?}, Ludii {}",
                set(state.marks()),
                x["marks"]
            ));
        }
        for seat in 0..2u8 {
            let key = (seat + 1).to_string();
            if set(state.eyes(seat)) != cells(&x["eyes"][&key]) {
                return Err(format!(
                    "{at}: eyes of {key} {:?}, Ludii {}",
                    set(state.eyes(seat)),
                    x["eyes"][&key]
                ));
            }
        }
        let score: Vec<i32> = x["score"]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_i64().unwrap_or(-1) as i32).collect())
            .unwrap_or_default();
        if state.scores() != score {
            return Err(format!("{at}: score {:?}, Ludii {score:?}", state.scores()));
        }
        state.check_invariants().map_err(|e| format!("{at}: {e}"))?;
        let over = x["over"].as_bool() == Some(true);
        let ends_turn = over || state.mover() != mover - 1 || state.sub() == 0;
        if x["ends_turn"].as_bool() != Some(ends_turn) && !over {
            return Err(format!(
                "{at}: ends_turn {}, engine {ends_turn}",
                x["ends_turn"]
            ));
        }
        if over != state.end().is_some() {
            return Err(format!("{at}: over {over}, engine {:?}", state.end()));
        }
        if over {
            let (reason, winner) = state.end().unwrap_or((EndReason::Majority, None));
            let r = match reason {
                EndReason::Majority => "majority",
                EndReason::DoublePass => "double_pass",
                EndReason::Script | EndReason::ScriptError => "script",
            };
            if x["end_reason"].as_str() != Some(r) {
                return Err(format!("{at}: end {}, engine {r}", x["end_reason"]));
            }
            if x["winner"].as_u64() != winner.map(|w| u64::from(w) + 1) {
                return Err(format!("{at}: winner {}, engine {winner:?}", x["winner"]));
            }
            if x["mid_turn_end"].as_bool() != Some(state.ended_mid_turn()) {
                return Err(format!("{at}: mid_turn_end {}", x["mid_turn_end"]));
            }
        }
        n += 1;
    }
    if state.end().is_none() {
        return Err("the trace ended but the game is not over".into());
    }
    Ok(n)
}

#[test]
fn the_ludii_variant_selects_every_ludii_reading() {
    let ludii = load("sprout-r-out-ludii.toml");
    assert_eq!(ludii, Rules::ludii());
    assert_eq!(load("sprout-r-out.toml"), Rules::standard());
}

#[test]
fn every_ludii_trace_replays_sub_move_by_sub_move() {
    let dir = oracle().join("traces");
    assert!(
        dir.is_dir(),
        "the Sprout-R-Out oracle traces {} are absent: this test needs them",
        dir.display()
    );
    let rules = load("sprout-r-out-ludii.toml");
    let files = common::trace_files(&dir);
    assert!(
        files.len() >= 176,
        "expected the 176 games of the oracle, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    let mut sub_moves = 0;
    for f in &files {
        match replay(f, &rules) {
            Ok(n) => sub_moves += n,
            Err(e) => failures.push(format!(
                "{}: {e}",
                f.strip_prefix(&dir).unwrap_or(f).display()
            )),
        }
    }
    eprintln!(
        "{} games, {} matched, {sub_moves} sub-moves",
        files.len(),
        files.len() - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} games diverge:\n{}",
        failures.len(),
        files.len(),
        failures[..failures.len().min(25)].join("\n")
    );
}
