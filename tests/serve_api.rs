//! `roots serve`'s HTTP API, over loopback against the real binary: tables
//! opened by the host, seats that only their own link can play, moves
//! checked by the engine, the undo by agreement, typed dice, the record
//! (replayable, resumable after `kill -9`), the questionnaire and `roots
//! feedback`, and the server's limits.
#![cfg(feature = "serve")]

use crate::common;
use crate::serve_kit;

use serde_json::json;
use serve_kit::{Server, key_of, post_patiently, raw, settled, tmp_dir, wait_view};

/// A two-person table of `variant`; its id and the two seats' keys.
fn two_people(server: &Server, variant: &str) -> (String, String, String) {
    let t = server.open(&json!({
        "variant": variant,
        "players": ["human", "human"],
        "names": ["Ann", "Bob"],
        "seed": 7,
    }));
    let id = t["id"].as_str().unwrap().to_string();
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    let k2 = key_of(t["seats"][1]["link"].as_str().unwrap());
    (id, k1, k2)
}

/// Play the first legal move of whichever seat is due until the game ends
/// (or `limit` moves); the number of moves played.
fn play_out(server: &Server, id: &str, keys: &[String], limit: usize) -> usize {
    for n in 0..limit {
        let v = wait_view(server, id, &keys[0], settled);
        if v["outcome"].is_object() {
            return n;
        }
        let due = v["due"].as_u64().expect("a seat is due") as usize;
        let key = &keys[due - 1];
        let mine = wait_view(server, id, key, |_| true);
        assert_eq!(mine["mine"], true, "{mine}");
        let text = mine["moves"][0]["text"].as_str().unwrap().to_string();
        // A scripted client is quicker than the rate limit allows: it waits.
        let (code, r, _) = post_patiently(
            server,
            &format!("/api/t/{id}/act"),
            key,
            &json!({ "action": text }),
        );
        assert_eq!(code, 200, "{text}: {r}");
    }
    limit
}

#[test]
fn a_whole_game_is_recorded_replays_and_collects_answers() {
    let dir = tmp_dir("whole");
    let server = Server::start(&dir, &[]);
    let (id, k1, k2) = two_people(&server, "sprout-r-out");
    let keys = vec![k1.clone(), k2.clone()];
    // Seat 1's view offers its moves, with points on the picture.
    let v = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    assert_eq!(v["mine"], true);
    assert_eq!(v["you"], 1);
    assert!(v["moves"].as_array().unwrap().len() > 10);
    assert!(v["moves"][0]["at"].is_u64(), "{}", v["moves"][0]);
    assert!(v["svg"].as_str().unwrap().contains("class=\"mv\""));
    // Seat 2 sees no moves and no marks.
    let w = server.get(&format!("/api/t/{id}"), Some(&k2)).1;
    assert_eq!(w["mine"], false);
    assert_eq!(w["moves"], json!([]));
    assert!(!w["svg"].as_str().unwrap().contains("class=\"mv\""));
    // The questionnaire waits for the end.
    let early = server.post(
        &format!("/api/t/{id}/feedback"),
        Some(&k1),
        &json!({"fun": 4, "fairness": 4, "length": "right"}),
    );
    assert_eq!(early.0, 409);

    let moves = play_out(&server, &id, &keys, 400);
    assert!(moves > 5 && moves < 400, "{moves} moves");
    // Through wait_view: a plain GET right after the game's quick requests
    // may meet the rate limit (429) instead of the view.
    let end = wait_view(&server, &id, &k1, |v| v["outcome"].is_object());
    assert!(end["outcome"]["winners"].is_array(), "{end}");

    // The record replays, as any record of `roots play` does.
    let record = dir.join(format!("{id}.jsonl"));
    let replay = common::roots(&["replay", record.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    let page = common::roots(&[
        "view",
        record.to_str().unwrap(),
        "-o",
        dir.join("v.html").to_str().unwrap(),
    ]);
    assert_eq!(page.code, 0, "{}", page.transcript());

    // Each seat answers once; the answers are kept beside the record.
    // Patiently: the game's quick requests may have spent a seat's request
    // budget, and a 429 here is the rate limit, not the answer under test.
    for (k, fun, len) in [(&k1, 5, "right"), (&k2, 3, "long")] {
        let (code, r, _) = post_patiently(
            &server,
            &format!("/api/t/{id}/feedback"),
            k,
            &json!({"fun": fun, "fairness": 4, "length": len, "text": "<b>odd</b> \u{1b}[2J ending"}),
        );
        assert_eq!(code, 200, "{r}");
    }
    let again = post_patiently(
        &server,
        &format!("/api/t/{id}/feedback"),
        &k1,
        &json!({"fun": 1, "fairness": 1, "length": "short"}),
    );
    assert_eq!(again.0, 409, "{}", again.1);
    let bad = post_patiently(
        &server,
        &format!("/api/t/{id}/feedback"),
        &k2,
        &json!({"fun": 9, "fairness": 1, "length": "short"}),
    );
    assert_eq!(bad.0, 400, "{}", bad.1);
    let fb = common::roots(&["feedback", "--bot-games", "20", record.to_str().unwrap()]);
    assert_eq!(fb.code, 0, "{}", fb.transcript());
    assert!(fb.stdout.contains("answers: 2"), "{}", fb.stdout);
    assert!(
        fb.stdout.contains("fun (1-5): mean 4.00, 95% interval"),
        "{}",
        fb.stdout
    );
    assert!(fb.stdout.contains("too long 1/2"), "{}", fb.stdout);
    assert!(
        fb.stdout.contains("bots (20 seeded greedy games"),
        "{}",
        fb.stdout
    );
    // A player's text cannot move the terminal's cursor.
    assert!(!fb.stdout.contains('\u{1b}'), "{}", fb.stdout);
}

#[test]
fn only_a_seat_s_own_link_plays_it() {
    let dir = tmp_dir("seats");
    let server = Server::start(&dir, &[]);
    let (id, k1, k2) = two_people(&server, "sprout-r-out");
    let v = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    let text = v["moves"][0]["text"].as_str().unwrap().to_string();
    let path = format!("/api/t/{id}/act");
    // Seat 2 at seat 1's turn: refused by the referee.
    let (code, r) = server.post(&path, Some(&k2), &json!({ "action": text }));
    assert_eq!(code, 409, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("expected a decision of seat 1"),
        "{r}"
    );
    // No key, a wrong key, the host's key: refused before the game sees it.
    assert_eq!(server.post(&path, None, &json!({ "action": text })).0, 403);
    assert_eq!(
        server
            .post(
                &path,
                Some("0123456789abcdef0123456789abcdef"),
                &json!({ "action": text })
            )
            .0,
        403
    );
    assert_eq!(
        server
            .post(
                &path,
                Some(&server.host.clone()),
                &json!({ "action": text })
            )
            .0,
        403
    );
    // An illegal move: the engine's message, nothing recorded.
    let (code, r) = server.post(&path, Some(&k1), &json!({ "action": "place zz99" }));
    assert_eq!(code, 409, "{r}");
    let after = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    assert_eq!(after["events"], 0);
    // The lobby needs the host's key; a seat's key does not open it.
    assert_eq!(server.get("/api/tables", Some(&k1)).0, 403);
    assert_eq!(server.get("/api/tables", Some(&server.host.clone())).0, 200);
    // Another table's key opens nothing here.
    let (id2, k3, _) = two_people(&server, "sprout-r-out");
    assert_ne!(id, id2);
    assert_eq!(server.get(&format!("/api/t/{id}"), Some(&k3)).0, 403);
}

#[test]
fn undo_happens_when_every_person_asks() {
    let dir = tmp_dir("undo");
    let server = Server::start(&dir, &[]);
    let (id, k1, k2) = two_people(&server, "sprout-r-out");
    let v = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    let text = v["moves"][0]["text"].as_str().unwrap().to_string();
    let (code, _) = server.post(
        &format!("/api/t/{id}/act"),
        Some(&k1),
        &json!({ "action": text }),
    );
    assert_eq!(code, 200);
    let (code, r) = server.post(&format!("/api/t/{id}/undo"), Some(&k1), &json!({}));
    assert_eq!(code, 200);
    assert!(r["ok"].as_str().unwrap().contains("every person"), "{r}");
    let mid = server.get(&format!("/api/t/{id}"), Some(&k2)).1;
    assert_eq!(mid["events"], 1);
    assert_eq!(mid["seats"][0]["undo"], true);
    let (code, r) = server.post(&format!("/api/t/{id}/undo"), Some(&k2), &json!({}));
    assert_eq!(code, 200, "{r}");
    let after = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    // The move and the undo are both in the record; seat 1 is due again.
    assert_eq!(after["events"], 2);
    assert_eq!(after["mine"], true);
    let record = std::fs::read_to_string(dir.join(format!("{id}.jsonl"))).unwrap();
    assert!(record.contains("\"undo\""), "{record}");
}

#[test]
fn dice_typed_at_the_table_and_a_bot() {
    let dir = tmp_dir("dice");
    let server = Server::start(&dir, &[]);
    let t = server.open(&json!({
        "variant": "standard",
        "players": ["human", "greedy"],
        "dice": "manual",
        "seed": 3,
    }));
    let id = t["id"].as_str().unwrap();
    assert!(t["seats"][1]["link"].is_null(), "a bot has no link");
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    let mut typed = 0;
    for _ in 0..60 {
        let v = wait_view(&server, id, &k1, settled);
        if v["outcome"].is_object() || typed >= 6 {
            break;
        }
        if v["chance"].is_object() {
            let sides = v["chance"]["sides"].as_u64().unwrap();
            // A face out of range is refused with the die's range.
            let (code, r) = server.post(
                &format!("/api/t/{id}/chance"),
                Some(&k1),
                &json!({ "face": (sides + 1).to_string() }),
            );
            assert_eq!(code, 409, "{r}");
            let (code, r) = server.post(
                &format!("/api/t/{id}/chance"),
                Some(&k1),
                &json!({ "face": "1" }),
            );
            assert_eq!(code, 200, "{r}");
            typed += 1;
        } else {
            let text = v["moves"][0]["text"].as_str().unwrap().to_string();
            let (code, r) = server.post(
                &format!("/api/t/{id}/act"),
                Some(&k1),
                &json!({ "action": text }),
            );
            assert_eq!(code, 200, "{r}");
        }
    }
    assert!(typed >= 2, "faces typed: {typed}");
    let record = dir.join(format!("{id}.jsonl"));
    let replay = common::roots(&["replay", record.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}", replay.transcript());
}

#[test]
fn a_killed_server_loses_no_move() {
    let dir = tmp_dir("kill");
    let mut server = Server::start(&dir, &[]);
    let t = server.open(&json!({
        "variant": "sprout-r-out",
        "players": ["human", "greedy"],
        "seed": 11,
    }));
    let id = t["id"].as_str().unwrap().to_string();
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    for _ in 0..4 {
        let v = wait_view(&server, &id, &k1, settled);
        let text = v["moves"][0]["text"].as_str().unwrap().to_string();
        let (code, _) = server.post(
            &format!("/api/t/{id}/act"),
            Some(&k1),
            &json!({ "action": text }),
        );
        assert_eq!(code, 200);
    }
    let before = wait_view(&server, &id, &k1, settled);
    let events = before["events"].as_u64().unwrap();
    assert!(events >= 8, "{before}");
    server.kill();
    // A restart on the same directory picks the table up where it was, with
    // the same link, and the game goes on.
    let server = Server::start(&dir, &[]);
    let after = wait_view(&server, &id, &k1, settled);
    assert_eq!(after["events"].as_u64().unwrap(), events);
    assert_eq!(after["log"], before["log"]);
    assert_eq!(after["svg"], before["svg"]);
    let moves = play_out(&server, &id, &[k1.clone(), k1.clone()], 400);
    assert!(moves > 0);
    let record = dir.join(format!("{id}.jsonl"));
    let replay = common::roots(&["replay", record.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}", replay.transcript());
}

#[test]
fn the_host_closes_a_table() {
    let dir = tmp_dir("close");
    let server = Server::start(&dir, &[]);
    let t = server.open(&json!({ "variant": "sprout-r-out", "players": ["human", "human"] }));
    let id = t["id"].as_str().unwrap();
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    let host = key_of(t["host"].as_str().unwrap());
    assert_eq!(
        server
            .post(&format!("/api/t/{id}/close"), Some(&k1), &json!({}))
            .0,
        403
    );
    assert_eq!(
        server
            .post(&format!("/api/t/{id}/close"), Some(&host), &json!({}))
            .0,
        200
    );
    let v = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    assert_eq!(v["closed"], true);
    let text = v["moves"][0]["text"].as_str().unwrap().to_string();
    let (code, r) = server.post(
        &format!("/api/t/{id}/act"),
        Some(&k1),
        &json!({ "action": text }),
    );
    assert_eq!(code, 409, "{r}");
    assert!(r["error"].as_str().unwrap().contains("closed"), "{r}");
}

#[test]
fn limits_paths_and_escaping() {
    let dir = tmp_dir("limits");
    let server = Server::start(&dir, &[]);
    let host = server.host.clone();
    // Names are text, escaped in the picture.
    let t = server.open(&json!({
        "variant": "sprout-r-out",
        "players": ["human", "human"],
        "names": ["<script>alert(1)</script>", "B\u{7}ob"],
    }));
    let id = t["id"].as_str().unwrap();
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    let v = server.get(&format!("/api/t/{id}"), Some(&k1)).1;
    let svg = v["svg"].as_str().unwrap();
    assert!(!svg.contains("<script>"), "{svg}");
    assert!(svg.contains("&lt;script&gt;"));
    assert_eq!(v["seats"][1]["name"], "Bob");
    // A body over the limit is refused before it is read whole.
    let big = vec![b'x'; 64 * 1024];
    let (code, _) = raw(
        server.port,
        "POST",
        &format!("/api/t/{id}/act"),
        Some(&k1),
        Some(&big),
    );
    assert_eq!(code, 413);
    // Nothing outside the binary: no file, however the path is spelled.
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/api/t/..%2f..%2fCargo.toml",
        &format!("/api/t/{id}/..%2f..%2f{id}.table.json"),
        "/src/serve/app.js",
        "/host.key",
    ] {
        let (code, body) = raw(server.port, "GET", path, Some(&host), None);
        assert!(
            code == 404 || code == 403 || code == 400 || code == 405,
            "{path}: {code} {body}"
        );
        assert!(!body.contains(&host), "{path} leaks the host key");
    }
    // The page and its script come from the binary, with a strict policy.
    let (code, page) = raw(server.port, "GET", "/", None, None);
    assert_eq!(code, 200);
    assert!(page.contains("<script src=\"/app.js\""));
    let head = request_head(server.port, "/app.js");
    assert!(
        head.contains("content-security-policy: default-src 'none'; script-src 'self'"),
        "{head}"
    );
    assert!(head.contains("referrer-policy: no-referrer"), "{head}");
    // Too many requests from one key are slowed down.
    let mut refused = 0;
    for _ in 0..200 {
        if server.get(&format!("/api/t/{id}"), Some(&k1)).0 == 429 {
            refused += 1;
        }
    }
    assert!(refused > 0, "no request was refused");
    // A cmd: seat needs --allow-cmd.
    let (code, r) = server.post(
        "/api/tables",
        Some(&host),
        &json!({ "variant": "sprout-r-out", "players": ["human", "cmd:true"] }),
    );
    assert_eq!(code, 400);
    assert!(r["error"].as_str().unwrap().contains("--allow-cmd"), "{r}");
    // A variant the server does not offer (a path) is refused.
    let (code, _) = server.post(
        "/api/tables",
        Some(&host),
        &json!({ "variant": "/etc/passwd", "players": ["human", "human"] }),
    );
    assert_eq!(code, 400);
}

fn request_head(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.split("\r\n\r\n")
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The table id and seat 1's link (`/?t=ID&k=KEY`) a `--players` start
/// printed.
fn printed_table(server: &Server) -> (String, String) {
    let said = server.said.join("\n");
    let line = server
        .said
        .iter()
        .find(|l| l.starts_with("  seat 1 (player 1): http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no link for seat 1:\n{said}"));
    let link = &line[line.find("/?t=").expect("a link")..];
    let id = link["/?t=".len()..].split('&').next().unwrap().to_string();
    (id, link.to_string())
}

#[test]
fn players_on_the_command_line_print_the_links_and_a_restart_goes_on_with_that_game() {
    let dir = tmp_dir("cli");
    let args = ["rgr-2p", "--players", "human,greedy"];
    let mut server = Server::start(&dir, &args);
    let said = server.said.join("\n");
    assert!(said.contains("seat 2 (greedy): a bot"), "{said}");
    assert!(!said.contains("picked up"), "{said}");
    let (id, link) = printed_table(&server);
    // Seat 1 plays a move; the bot answers.
    let key = key_of(&link);
    let before = wait_view(&server, &id, &key, settled)["events"].clone();
    assert_eq!(play_out(&server, &id, std::slice::from_ref(&key), 1), 1);
    let played =
        wait_view(&server, &id, &key, |v| settled(v) && v["events"] != before)["events"].clone();
    server.kill();

    // Started again the same way, the server goes on with that game: the
    // same table, the same link, the moves kept.
    let mut again = Server::start(&dir, &args);
    let said = again.said.join("\n");
    assert!(
        said.contains(&format!(
            "table {id} of rgr-2p, picked up: its game goes on"
        )),
        "{said}"
    );
    assert_eq!(printed_table(&again), (id.clone(), link.clone()), "{said}");
    let v = wait_view(&again, &id, &key, settled);
    assert_eq!(v["events"], played, "{v}");
    again.kill();

    // Other seats are another table.
    let other = Server::start(&dir, &["rgr-2p", "--players", "human,random"]);
    let said = other.said.join("\n");
    assert!(!said.contains("picked up"), "{said}");
    assert_ne!(printed_table(&other).0, id, "{said}");
}

#[test]
fn an_external_program_plays_a_seat_at_a_table() {
    // With --allow-cmd, a `cmd:` seat is a program speaking the engine
    // protocol (a line of JSON per decision): here one that plays the last
    // legal move, against a person who plays the first.
    let dir = tmp_dir("cmd-seat");
    let bot = dir.join("last.py");
    std::fs::write(
        &bot,
        r#"import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("player") == "move":
        print(json.dumps({"action": msg["state"]["legal"][-1]}), flush=True)
"#,
    )
    .expect("write the bot");
    let server = Server::start(&dir, &["--allow-cmd"]);
    let cmd = format!("cmd:python3 {}", bot.display());
    let t = server.open(&json!({ "variant": "btt", "players": ["human", cmd], "seed": 3 }));
    let id = t["id"].as_str().unwrap().to_string();
    assert!(t["seats"][1]["link"].is_null(), "{t}");
    let k1 = key_of(t["seats"][0]["link"].as_str().unwrap());
    let moves = play_out(&server, &id, std::slice::from_ref(&k1), 100);
    assert!(moves < 100, "the game did not end");
    let end = wait_view(&server, &id, &k1, |v| v["outcome"].is_object());
    assert!(end["outcome"]["winners"].is_array(), "{end}");
    assert!(end["stopped"].is_null(), "{end}");
    // The program's moves are in the record, which replays.
    let record = dir.join(format!("{id}.jsonl"));
    let text = std::fs::read_to_string(&record).expect("the record");
    assert!(text.contains("cmd:python3"), "{text}");
    let replay = common::roots(&["replay", record.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    assert!(replay.stdout.contains("game over"), "{}", replay.stdout);
}

#[test]
fn a_mistake_in_players_is_said_before_any_link_and_opens_nothing() {
    // The server must refuse before it listens: `timeout` ends it should a
    // regression start it instead (exit 124).
    let dir = tmp_dir("cli-bad-players");
    let out = std::process::Command::new("timeout")
        .arg(crate::common::HANG.as_secs().to_string())
        .arg(env!("CARGO_BIN_EXE_roots"))
        .args([
            "serve",
            "standard",
            "--port",
            "0",
            "--players",
            "human,gredy",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run roots serve");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("error: --players: seat 2: unknown bot `gredy` (did you mean `greedy`?)"),
        "{stderr}"
    );
    assert!(
        !stdout.contains("host"),
        "a link was printed first:\n{stdout}"
    );
    let tables: Vec<_> = std::fs::read_dir(dir.join("roots-tables"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        !tables
            .iter()
            .any(|n| n.to_string_lossy().ends_with(".jsonl")),
        "{tables:?}"
    );
}

/// The local addresses (`IP:port` in /proc's hex) listening on `port`.
fn listening_on(port: u16) -> Vec<String> {
    let mut out = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // State 0A: listening.
            if f.len() > 3 && f[3] == "0A" && f[1].ends_with(&format!(":{port:04X}")) {
                out.push(f[1].to_string());
            }
        }
    }
    out
}

#[test]
fn loopback_unless_listen_says_otherwise_then_a_warning() {
    // By default only this machine can reach the server: it listens on
    // 127.0.0.1 and nowhere else.
    let dir = tmp_dir("listen");
    let server = Server::start(&dir, &[]);
    if std::path::Path::new("/proc/net/tcp").exists() {
        assert_eq!(
            listening_on(server.port),
            vec![format!("0100007F:{:04X}", server.port)]
        );
    }
    drop(server);
    // --listen 0.0.0.0: a warning on stderr, and the links still name
    // 127.0.0.1 (the address this machine's browser reaches).
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_roots"))
        .args(["serve", "--listen", "0.0.0.0", "--port", "0", "--dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("roots serve starts");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut warning = String::new();
    err.read_line(&mut warning).unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = String::new();
    for _ in 0..2 {
        out.read_line(&mut lines).unwrap();
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        warning.starts_with("warning: listening on 0.0.0.0:")
            && warning.contains("other machines can reach this server"),
        "{warning}"
    );
    assert!(
        lines.contains("host (open tables, watch them): http://127.0.0.1:"),
        "{lines}"
    );
}
