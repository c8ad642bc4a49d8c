//! The oracle: every trace of a peer implementation of BTT (Abstract Play's
//! engine, the project's copy in `tests/oracles/btt/traces/`) replayed move by move. At every
//! ply the legal moves must be the same sets, the mover and the scores after
//! the same, and the game must end where the trace ends, with the same board
//! and winners.
//!
//! Where the peer reads a rule differently, the replay runs under the variant
//! keys that select its reading: its 3-, 5- and 6-player boards are 8 x 2n
//! rectangles (`board.shape = "rectangle"`), its `martian-go` for 2 to 4
//! players fixes roots on the centre cells and pays owners nothing, and for 5
//! and 6 players keeps the placed nulls and roots with penalty-only scoring.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use roots::core::protocol::{GameState, Next};
use roots::games::branches::rules::{BoardShape, Markers, OwnerPaidBy};
use roots::games::branches::{Action, Rules, State, format_action, parse_action};
use serde_json::Value;

use crate::common;

fn oracle_dir() -> PathBuf {
    common::oracle_dir("btt")
}

/// The rules that select the peer's reading for a configuration.
fn rules_for(config: &str, players: u8) -> Rules {
    let mut r = Rules::standard();
    r.board.shape = BoardShape::Rectangle;
    if config.starts_with("arcade") {
        r.board.shape = BoardShape::Arcade;
        r.pyramids.small = 3;
        r.pyramids.medium = 3;
        r.pyramids.large = 3;
    } else if config.starts_with("martian-go") {
        r.scoring.owner_paid_by = OwnerPaidBy::Nobody;
        if players <= 4 {
            r.setup.markers = Markers::CentreRoots;
        }
    }
    r
}

/// The peer's name of one of our legal actions: `b1-NULL`, `c1-ROOT`, `c2-2W`.
fn peer_name(state: &State, a: Action) -> String {
    let b = state.board();
    match a {
        Action::Null(c) => format!("{}-NULL", b.name(c)),
        Action::Root(c) => format!("{}-ROOT", b.name(c)),
        Action::Place { cell, size, dir } => format!("{}-{size}{}", b.name(cell), dir.letter()),
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// Replay one trace; returns the plies replayed.
fn replay(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Value = serde_json::from_str(lines.next().ok_or("empty trace")?)
        .map_err(|e| format!("header: {e}"))?;
    let config = header["config"].as_str().ok_or("header: config")?;
    let players = header["players"].as_u64().ok_or("header: players")? as u8;
    let rules = rules_for(config, players);
    let mut state = State::new(&rules, players);
    let board = state.board().clone();
    let (w, h) = (
        header["board"]["width"].as_u64(),
        header["board"]["height"].as_u64(),
    );
    if (w, h) != (Some(u64::from(board.width)), Some(u64::from(board.height))) {
        return Err(format!("board {w:?}x{h:?}, ours {}", board.describe()));
    }
    let stash0 = ints(&header["initial_stash"]);
    if stash0 != state.stash(0).map(i64::from) {
        return Err(format!("initial stash {stash0:?}"));
    }
    let prefab: BTreeSet<String> = header["prefab"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p["cell"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let ours: BTreeSet<String> = board
        .centre_roots()
        .iter()
        .map(|&c| board.name(c))
        .collect();
    if prefab != ours {
        return Err(format!("prefab roots {prefab:?}, ours {ours:?}"));
    }
    let mut legal = Vec::new();
    let mut plies = 0;
    for line in lines {
        let ev: Value = serde_json::from_str(line).map_err(|e| format!("{e}: {line}"))?;
        let at = |msg: String| format!("ply {}: {msg}", ev["ply"]);
        match ev["type"].as_str() {
            Some("move") => {
                let player = ev["player"].as_u64().ok_or("player")? as u8;
                if state.next() != Next::Decide(player - 1) {
                    return Err(at(format!(
                        "the trace moves seat {player}, ours is at {:?}",
                        state.next()
                    )));
                }
                state.legal_actions(&mut legal);
                let mine: BTreeSet<String> = legal.iter().map(|&a| peer_name(&state, a)).collect();
                let theirs: BTreeSet<String> = match ev["kind"].as_str() {
                    Some("null") => strings(&ev["legal_cells"])
                        .iter()
                        .map(|c| format!("{c}-NULL"))
                        .collect(),
                    Some("root") => strings(&ev["legal_cells"])
                        .iter()
                        .map(|c| format!("{c}-ROOT"))
                        .collect(),
                    _ => {
                        let sizes = ints(&ev["legal_sizes"]);
                        strings(&ev["legal_spots"])
                            .iter()
                            .flat_map(|s| {
                                let (cell, d) = s.split_once('-').unwrap_or((s, ""));
                                sizes.iter().map(move |z| format!("{cell}-{z}{d}"))
                            })
                            .collect()
                    }
                };
                if mine != theirs {
                    let extra: Vec<_> = mine.difference(&theirs).collect();
                    let missing: Vec<_> = theirs.difference(&mine).collect();
                    return Err(at(format!(
                        "legal sets differ: ours only {extra:?}, theirs only {missing:?}"
                    )));
                }
                if ev["legal_count"].as_u64() != Some(legal.len() as u64) {
                    return Err(at(format!(
                        "legal count {} vs ours {}",
                        ev["legal_count"],
                        legal.len()
                    )));
                }
                let notation = ev["notation"].as_str().ok_or("notation")?;
                let action = parse_action(&state, notation).map_err(&at)?;
                if peer_name(&state, action) != notation {
                    return Err(at(format!(
                        "`{notation}` read as `{}`",
                        format_action(&state, action)
                    )));
                }
                state.play(action).map_err(|e| at(e.to_string()))?;
                state.check_invariants().map_err(at)?;
                let scores: Vec<i64> = state.scores().into_iter().map(i64::from).collect();
                if scores != ints(&ev["scores"]) {
                    return Err(at(format!("scores {:?}, ours {scores:?}", ev["scores"])));
                }
                if ints(&ev["stash"]) != state.stash(player - 1).map(i64::from) {
                    return Err(at(format!(
                        "stash {:?}, ours {:?}",
                        ev["stash"],
                        state.stash(player - 1)
                    )));
                }
                plies += 1;
            }
            Some("result") => {
                if state.next() != Next::Over {
                    return Err(format!(
                        "the trace ends after {plies} plies, our game goes on"
                    ));
                }
                let outcome = state.outcome().ok_or("no outcome")?;
                let scores: Vec<i64> = outcome.scores.iter().map(|&s| i64::from(s)).collect();
                if scores != ints(&ev["scores"]) {
                    return Err(format!("final scores {:?}, ours {scores:?}", ev["scores"]));
                }
                let winners: Vec<i64> = outcome.winners.iter().map(|&s| i64::from(s) + 1).collect();
                if winners != ints(&ev["winners"]) {
                    return Err(format!("winners {:?}, ours {winners:?}", ev["winners"]));
                }
                if ev["board_full"].as_bool() != Some(true)
                    || roots::games::branches::end_reason(&state) != Some("board_full")
                {
                    return Err("the game must end with the board full".into());
                }
                if ev["plies"].as_u64() != Some(plies as u64) {
                    return Err(format!("plies {} vs {plies}", ev["plies"]));
                }
                let rows = strings(&ev["final_board"]);
                for (y, row) in rows.iter().enumerate() {
                    let rank0 = board.height as usize - 1 - y;
                    for (x, tok) in row.split_whitespace().enumerate() {
                        let c = board.cell_at(x as u8, rank0 as u8).ok_or("cell")?;
                        let ours = peer_token(&state, c);
                        if ours != tok {
                            return Err(format!(
                                "final board at {}: {tok}, ours {ours}",
                                board.name(c)
                            ));
                        }
                    }
                }
                return Ok(plies);
            }
            _ => return Err(format!("unknown line {line}")),
        }
    }
    Err("no result line".into())
}

/// Our cell in the peer's final-board notation, read from our drawing.
fn peer_token(state: &State, c: u8) -> String {
    let drawing = roots::games::branches::draw(state);
    let board = state.board();
    let (col, rank0) = board.place(c);
    let row = drawing
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&(rank0 + 1).to_string()))
        .unwrap_or("");
    let tok = row
        .split_whitespace()
        .nth(1 + usize::from(col))
        .unwrap_or("?");
    match tok {
        "X" | "R" | "." => tok.to_owned(),
        t => {
            let b = t.as_bytes();
            format!("{}{}{}", b[0] - b'A' + 1, b[1] as char, b[2] as char)
        }
    }
}

#[test]
fn every_peer_trace_replays() {
    let dir = oracle_dir().join("traces");
    assert!(
        dir.is_dir(),
        "the oracle traces are missing: expected {} (the project's copy of the peer's traces)",
        dir.display()
    );
    let files = common::trace_files(&dir);
    assert!(
        files.len() >= 150,
        "expected the whole corpus of traces, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    let mut plies = 0;
    for f in &files {
        match replay(f) {
            Ok(n) => plies += n,
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} traces differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} traces, {plies} plies replayed", files.len());
}

#[test]
fn a_doctored_trace_fails() {
    // The replay must be able to fail: change one score in a real trace.
    let dir = oracle_dir().join("traces/standard-2p");
    let first = std::fs::read_dir(&dir)
        .expect("the oracle traces exist")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .min()
        .expect("a trace");
    let text = std::fs::read_to_string(&first).expect("readable");
    let doctored = text.replacen("\"scores\":[0,0]", "\"scores\":[0,1]", 1);
    assert_ne!(text, doctored);
    let tmp = std::env::temp_dir().join(format!("btt-doctored-{}.jsonl", std::process::id()));
    std::fs::write(&tmp, doctored).expect("writable temp");
    let result = replay(&tmp);
    std::fs::remove_file(&tmp).ok();
    assert!(result.is_err(), "a wrong score must be caught");
}
