//! The engine protocol (`docs/protocol.md`) in process: one answer per
//! request, the referee's refusals with the state unchanged, undo, the
//! record, variants inline with overrides, and whole games of every game.

use std::io::Cursor;
use std::sync::Arc;

use roots::engine::{Access, Engine, MAX_LINE_BYTES, serve};
use roots::games::{Game, GameId};
use roots::record::{Event, RawRecord, reader};
use roots::referee::Referee;
use serde_json::{Value, json};

const FILES: Access = Access::ALL;

fn ask(engine: &mut Engine, request: Value) -> Value {
    let line = engine.handle_line(&request.to_string());
    assert!(!line.contains('\n'), "one line: {line}");
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

fn ok(engine: &mut Engine, request: Value) -> Value {
    let a = ask(engine, request.clone());
    assert_eq!(a["ok"], true, "{request} -> {a}");
    a
}

fn refused(engine: &mut Engine, request: Value) -> Value {
    let a = ask(engine, request.clone());
    assert_eq!(a["ok"], false, "{request} -> {a}");
    a["error"].clone()
}

fn started(variant: &str, seed: u64) -> Engine {
    let mut e = Engine::new(FILES);
    let a = ok(&mut e, json!({"cmd":"start","variant":variant,"seed":seed}));
    assert_eq!(a["protocol"], "roots-engine");
    assert_eq!(a["version"], 1);
    e
}

#[test]
fn hello_lists_every_game_and_echoes_the_id() {
    let mut e = Engine::new(FILES);
    let a = ok(&mut e, json!({"cmd":"hello","id":"h1","version":1}));
    assert_eq!(a["id"], "h1");
    let games: Vec<&str> = a["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = GameId::ALL.iter().map(|g| g.key()).collect();
    assert_eq!(games, all);
    // The id comes first, then ok.
    let line = e.handle_line(r#"{"id":7,"cmd":"hello"}"#);
    assert!(line.starts_with(r#"{"id":7,"ok":true,"#), "{line}");
}

#[test]
fn malformed_lines_get_one_error_line_each() {
    let mut e = started("btt", 1);
    let before = ok(&mut e, json!({"cmd":"state"}));
    for (line, kind) in [
        ("not json", "malformed"),
        ("[1,2]", "malformed"),
        ("{}", "malformed"),
        (r#"{"cmd":3}"#, "malformed"),
        (r#"{"cmd":"jump"}"#, "unknown_command"),
        (r#"{"cmd":"state","colour":"red"}"#, "malformed"),
        (r#"{"cmd":"state","version":2}"#, "version"),
        (r#"{"cmd":"act"}"#, "malformed"),
        (r#"{"cmd":"act","action":5}"#, "malformed"),
        (r#"{"cmd":"act","action":"c2 2 W","seat":0}"#, "malformed"),
        (r#"{"cmd":"undo","steps":0}"#, "malformed"),
        (r#"{"cmd":"roll","face":"six"}"#, "malformed"),
        (
            r#"{"cmd":"start","variant":"btt","players":"two"}"#,
            "malformed",
        ),
    ] {
        let a: Value = serde_json::from_str(&e.handle_line(line)).unwrap();
        assert_eq!(a["ok"], false, "{line}");
        assert_eq!(a["error"]["kind"], kind, "{line}: {a}");
        assert!(!a["error"]["message"].as_str().unwrap().is_empty());
    }
    assert_eq!(ok(&mut e, json!({"cmd":"state"})), before);
}

#[test]
fn requests_before_a_start_are_refused() {
    let mut e = Engine::new(FILES);
    for cmd in ["state", "roll", "act", "bot", "undo", "record", "save"] {
        assert_eq!(
            refused(&mut e, json!({"cmd":cmd}))["kind"],
            "no_game",
            "{cmd}"
        );
    }
}

#[test]
fn serve_answers_every_line_and_survives_bad_bytes() {
    let mut input = Vec::new();
    input.extend_from_slice(b"{\"cmd\":\"hello\"}\n\n   \n");
    input.extend_from_slice(b"\xff\xfe{\"cmd\":\"hello\"}\n");
    input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    input.extend_from_slice(b"\n{\"cmd\":\"start\",\"variant\":\"btt\"}\r\n");
    input.extend_from_slice(b"{\"cmd\":\"quit\"}\n{\"cmd\":\"hello\"}\n");
    let mut out = Vec::new();
    serve(&mut Cursor::new(input), &mut out, FILES).unwrap();
    let text = String::from_utf8(out).unwrap();
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // hello, bad UTF-8, too long, start, quit; blank lines get nothing and
    // nothing is read after quit.
    let oks: Vec<bool> = answers.iter().map(|a| a["ok"] == true).collect();
    assert_eq!(oks, [true, false, false, true, true], "{text}");
    assert!(
        answers[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("UTF-8")
    );
    assert!(
        answers[2]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("bytes")
    );
}

/// A refused action or roll gives the referee's own message and leaves the
/// state as it was.
#[test]
fn refusals_are_the_referees_and_change_nothing() {
    use roots::games::roots_and_shoots::RootsAndShoots;
    let mut e = started("standard", 5);
    let before = ok(&mut e, json!({"cmd":"state"}));
    assert_eq!(before["state"]["node"], "decision");
    let mut referee =
        Referee::<RootsAndShoots>::new(Arc::new(RootsAndShoots::standard()), 2).unwrap();
    for (request, event) in [
        (
            json!({"cmd":"act","action":"place 99,99"}),
            Event::Act {
                action: "place 99,99".into(),
                seat: 0,
            },
        ),
        (
            json!({"cmd":"act","action":"place 0,0"}),
            Event::Act {
                action: "place 0,0".into(),
                seat: 0,
            },
        ),
        (
            json!({"cmd":"act","action":"pass","seat":2}),
            Event::Act {
                action: "pass".into(),
                seat: 1,
            },
        ),
        (
            json!({"cmd":"roll","face":3}),
            Event::Roll { face: 3, die: None },
        ),
    ] {
        let err = refused(&mut e, request.clone());
        assert_eq!(err["kind"], "refused");
        let theirs = referee.apply(&event).unwrap_err().to_string();
        assert_eq!(err["message"], theirs, "{request}");
        assert_eq!(ok(&mut e, json!({"cmd":"state"})), before, "{request}");
    }
    // At a chance node: a face out of range, another die.
    let legal = before["state"]["legal"][0].as_str().unwrap().to_string();
    ok(&mut e, json!({"cmd":"act","action":legal}));
    let mut s = ok(&mut e, json!({"cmd":"state"}));
    while s["state"]["node"] == "decision" {
        s = ok(&mut e, json!({"cmd":"bot","bot":"random","play":true}));
    }
    assert_eq!(s["state"]["node"], "chance");
    let chance = s["state"]["chance"].clone();
    assert_eq!(chance["kind"], "die");
    let sides = chance["faces"].as_array().unwrap().len();
    let die = chance["die"].as_str().unwrap();
    assert_eq!(chance["faces"][0], "1");
    let err = refused(&mut e, json!({"cmd":"roll","face":sides + 1}));
    assert_eq!(
        err["message"],
        format!(
            "expected a face of the {die} (1 to {sides}), found {}",
            sides + 1
        )
    );
    let other = if die == "d20" { "d4" } else { "d20" };
    let err = refused(&mut e, json!({"cmd":"roll","face":1,"die":other}));
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("expected a roll of the {die} (")),
        "{err}"
    );
    assert_eq!(ok(&mut e, json!({"cmd":"state"}))["state"], s["state"]);
    let a = ok(&mut e, json!({"cmd":"roll","face":"1"}));
    assert_eq!(a["rolled"], "1");
}

#[test]
fn a_bot_suggests_without_playing_and_plays_when_asked() {
    let mut e = started("sprout-r-out", 2);
    let before = ok(&mut e, json!({"cmd":"state"}));
    let a = ok(&mut e, json!({"cmd":"bot","bot":"greedy"}));
    assert_eq!(a["seat"], 1);
    let action = a["action"].as_str().unwrap().to_string();
    assert!(
        before["state"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == action.as_str())
    );
    assert_eq!(ok(&mut e, json!({"cmd":"state"})), before);
    let b = ok(&mut e, json!({"cmd":"bot","bot":"greedy","play":true}));
    assert_eq!(b["action"], action.as_str());
    assert_eq!(b["state"]["events"], 1);
    assert_eq!(
        refused(&mut e, json!({"cmd":"bot","bot":"cmd:sh"}))["kind"],
        "refused"
    );
    assert_eq!(
        refused(&mut e, json!({"cmd":"bot","bot":"wizard"}))["kind"],
        "refused"
    );
}

/// Undo goes back to the very state, and a seeded roll after it draws the
/// same face again (the seed's stream follows the game, not the requests).
#[test]
fn undo_restores_the_state_and_the_seeded_dice() {
    let mut e = started("standard", 11);
    let mut states = vec![ok(&mut e, json!({"cmd":"state"}))["state"].clone()];
    let mut rolled = Vec::new();
    for _ in 0..30 {
        let s = &states[states.len() - 1];
        let a = match s["node"].as_str().unwrap() {
            "chance" => {
                let a = ok(&mut e, json!({"cmd":"roll"}));
                rolled.push((states.len(), a["rolled"].clone()));
                a
            }
            "decision" => ok(&mut e, json!({"cmd":"bot","bot":"random","play":true})),
            _ => break,
        };
        states.push(a["state"].clone());
    }
    assert!(!rolled.is_empty());
    let (at, face) = rolled[rolled.len() - 1].clone();
    let steps = states.len() - at;
    let a = ok(&mut e, json!({"cmd":"undo","steps":steps}));
    assert_eq!(a["undone"], steps);
    assert_eq!(a["state"], states[at - 1]);
    let again = ok(&mut e, json!({"cmd":"roll"}));
    assert_eq!(again["rolled"], face);
    assert_eq!(again["state"], states[at]);
    let err = refused(&mut e, json!({"cmd":"undo","steps":100000}));
    assert_eq!(err["kind"], "refused");
    let all = at;
    ok(&mut e, json!({"cmd":"undo","steps":all}));
    assert_eq!(ok(&mut e, json!({"cmd":"state"}))["state"], states[0]);
}

/// The record the engine gives replays through the referee to the same
/// state, with automatic dice while every face came from the seed.
#[test]
fn the_record_replays_to_the_same_state() {
    use roots::games::roots_and_shoots::RootsAndShoots;
    let mut e = started("standard", 4);
    for _ in 0..40 {
        let s = ok(&mut e, json!({"cmd":"state"}));
        match s["state"]["node"].as_str().unwrap() {
            "chance" => ok(&mut e, json!({"cmd":"roll"})),
            _ => ok(&mut e, json!({"cmd":"bot","play":true})),
        };
    }
    let check = |e: &mut Engine, dice: &str| {
        let lines = ok(e, json!({"cmd":"record"}))["lines"].clone();
        let text: String = lines
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}\n", l.as_str().unwrap()))
            .collect();
        let raw: RawRecord = reader::parse(text.as_bytes(), reader::PartialTail::Drop).unwrap();
        assert_eq!(raw.header.dice.key(), dice);
        assert_eq!(raw.header.seed, Some(4));
        let replayed = Referee::<RootsAndShoots>::replay(&raw, None).unwrap();
        let shown = roots::engine::state_json::<RootsAndShoots>(replayed.state());
        let now = ok(e, json!({"cmd":"state"}))["state"].clone();
        for key in ["node", "seat", "legal", "board", "scores", "chance"] {
            assert_eq!(shown[key], now[key], "{key}");
        }
    };
    check(&mut e, "auto");
    // A face given by the client makes the dice manual.
    loop {
        let s = ok(&mut e, json!({"cmd":"state"}));
        if s["state"]["node"] == "chance" {
            ok(&mut e, json!({"cmd":"roll","face":1}));
            break;
        }
        ok(&mut e, json!({"cmd":"bot","play":true}));
    }
    check(&mut e, "manual");
}

#[test]
fn save_writes_a_record_and_never_overwrites() {
    let dir = std::env::temp_dir().join(format!("roots-engine-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&path);
    let mut e = started("btt", 9);
    for _ in 0..6 {
        ok(&mut e, json!({"cmd":"bot","bot":"random","play":true}));
    }
    let a = ok(&mut e, json!({"cmd":"save","path":path.to_str().unwrap()}));
    assert_eq!(a["events"], 6);
    let raw = reader::read_path(&path, reader::PartialTail::Drop).unwrap();
    assert_eq!(raw.events.len(), 6);
    let err = refused(&mut e, json!({"cmd":"save","path":path.to_str().unwrap()}));
    assert_eq!(err["kind"], "io");
    // An engine without file access writes nothing.
    let mut closed = Engine::new(Access::CLOSED);
    ok(&mut closed, json!({"cmd":"start","variant":"btt"}));
    let other = dir.join("never.jsonl");
    assert_eq!(
        refused(
            &mut closed,
            json!({"cmd":"save","path":other.to_str().unwrap()})
        )["kind"],
        "io"
    );
    assert!(!other.exists());
    assert_eq!(
        refused(
            &mut closed,
            json!({"cmd":"start","variant":"variants/fewer-beads.toml"})
        )["kind"],
        "io"
    );
    // Nor does it follow an inline file's `extends` to a file; a built-in
    // parent is fine.
    assert_eq!(
        refused(
            &mut closed,
            json!({"cmd":"start","toml":"extends = \"variants/standard.toml\"\n"})
        )["kind"],
        "io"
    );
    ok(
        &mut closed,
        json!({"cmd":"start","toml":"extends = \"btt\"\nname = \"mine\"\n"}),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variants_inline_with_overrides_and_their_diagnostics() {
    let mut e = Engine::new(FILES);
    let a = ok(
        &mut e,
        json!({"cmd":"start","toml":"name = \"mine\"\n[beads]\nsupply = 30\n","set":["beads.store=4"]}),
    );
    assert_eq!(a["state"]["variant"], "mine");
    let data = &a["state"]["board"]["data"];
    assert_eq!(data["players"][0]["store"], 4);
    // The same variant from a file and with --set style overrides.
    let b = ok(
        &mut e,
        json!({"cmd":"start","variant":"variants/fewer-beads.toml","set":["board.size=9"],"seed":3}),
    );
    assert_eq!(b["state"]["board"]["data"]["size"], 9);
    // An invalid file: every diagnostic, with line and column.
    let err = refused(
        &mut e,
        json!({"cmd":"start","toml":"game = \"branches\"\n[board]\nwidth = \"wide\"\n"}),
    );
    assert_eq!(err["kind"], "invalid_variant");
    let d = &err["diagnostics"][0];
    assert_eq!(d["file"], "<inline toml>");
    assert_eq!(d["line"], 3);
    assert!(d["col"].as_u64().is_some(), "{err}");
    let err = refused(
        &mut e,
        json!({"cmd":"start","variant":"btt","set":["board.width=99"]}),
    );
    assert_eq!(err["kind"], "invalid_variant");
    assert!(
        err["diagnostics"][0]["file"]
            .as_str()
            .unwrap()
            .starts_with("--set")
    );
    let err = refused(&mut e, json!({"cmd":"start","variant":"btt","players":9}));
    assert_eq!(err["kind"], "refused");
    // The game started last (fewer-beads) is still there.
    assert_eq!(
        ok(&mut e, json!({"cmd":"state"}))["state"]["board"]["data"]["size"],
        9
    );
}

/// Every built-in variant of every game, played to its end through the
/// protocol alone: seeded rolls, the greedy bot against random.
#[test]
fn every_builtin_plays_to_the_end() {
    for &g in GameId::ALL {
        for (name, _) in g.builtins() {
            let mut e = started(name, 1);
            let mut s = ok(&mut e, json!({"cmd":"state"}))["state"].clone();
            assert_eq!(s["game"], g.key());
            let mut steps = 0;
            while s["node"] != "over" {
                s = match s["node"].as_str().unwrap() {
                    "chance" => ok(&mut e, json!({"cmd":"roll"}))["state"].clone(),
                    "decision" => {
                        let bot = if s["seat"] == 1 { "greedy" } else { "random" };
                        ok(&mut e, json!({"cmd":"bot","bot":bot,"play":true}))["state"].clone()
                    }
                    other => panic!("{name}: node {other}"),
                };
                steps += 1;
                assert!(steps < 20_000, "{name} did not end");
            }
            let outcome = &s["outcome"];
            assert_eq!(outcome["scores"], s["scores"], "{name}");
            assert!(!outcome["winners"].as_array().unwrap().is_empty());
            assert!(
                refused(&mut e, json!({"cmd":"roll"}))["message"]
                    .as_str()
                    .unwrap()
                    .contains("over")
            );
        }
    }
}

#[test]
fn validate_and_simulate_requests() {
    let mut e = Engine::new(FILES);
    let v = ok(&mut e, json!({"cmd":"validate","variant":"btt"}));
    assert_eq!(v["game"], "branches");
    let w = ok(&mut e, json!({"cmd":"validate","set":["beads.supply=35"]}));
    assert_eq!(w["rules"]["beads"]["supply"], 35);
    assert!(
        v["toml"]
            .as_str()
            .unwrap()
            .starts_with("game = \"branches\"")
    );
    let s = ok(
        &mut e,
        json!({"cmd":"simulate","variant":"btt","games":4,"bots":["greedy","random"],"seed":3,"jobs":2}),
    );
    assert_eq!(s["report"]["games"], 4);
    let rows = s["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["bots"], json!(["greedy", "random"]));
    // The same rows as the simulator gives for that seed, on one thread.
    let again = ok(
        &mut e,
        json!({"cmd":"simulate","variant":"btt","games":4,"bots":"greedy,random","seed":3}),
    );
    assert_eq!(again["rows"], s["rows"]);
    let mut closed = Engine::new(Access::CLOSED);
    assert_eq!(
        refused(
            &mut closed,
            json!({"cmd":"simulate","variant":"btt","games":9})
        )["kind"],
        "refused"
    );
    assert_eq!(
        refused(
            &mut closed,
            json!({"cmd":"simulate","variant":"btt","games":2,"bots":["cmd:sh"]})
        )["kind"],
        "io"
    );
}
