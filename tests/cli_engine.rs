//! `roots engine` and `cmd:` players, through the real binary and the
//! Python example bot (`examples/python_bot.py`, plain python3): whole games
//! of every game against greedy, forfeits that lose a game and let the run
//! go on, reproducible runs, and the session of `docs/protocol.md` replayed.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::roots;
use roots::games::GameId;
use serde_json::Value;

const BOT: &str = "cmd:python3 examples/python_bot.py";

fn standard(g: GameId) -> &'static str {
    g.builtins()[0].0
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-cli-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The Python bot drives `roots engine` as a client: seat 1 at random
/// against the engine's greedy bot, seeded rolls, to the end of the game.
#[test]
fn the_python_bot_drives_a_whole_game_of_every_game() {
    for &g in GameId::ALL {
        let out = Command::new("python3")
            .args([
                "examples/python_bot.py",
                "--drive",
                env!("CARGO_BIN_EXE_roots"),
                standard(g),
                "3",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("python3 runs (the test needs it)");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{g}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let outcome: Value = serde_json::from_str(stdout.trim()).unwrap();
        assert!(!outcome["winners"].as_array().unwrap().is_empty(), "{g}");
        assert_eq!(outcome["scores"].as_array().unwrap().len(), 2, "{g}");
    }
}

/// The Python bot as a seated player against greedy in `simulate`, every
/// game: no forfeit, and the same seed gives the same rows.
#[test]
fn the_python_bot_plays_simulate_against_greedy_in_every_game() {
    for &g in GameId::ALL {
        let rows = |name: &str| {
            let out = temp(name);
            let bots = format!("{BOT},greedy");
            let r = roots(&[
                "simulate",
                standard(g),
                "--bots",
                &bots,
                "-n",
                "3",
                "--seed",
                "9",
                "-j",
                "2",
                "--format",
                "json",
                "--out",
                out.to_str().unwrap(),
            ]);
            assert_eq!(r.code, 0, "{g}: {}", r.stderr);
            let report = r.json();
            assert_eq!(report["games"], 3, "{g}");
            assert!(
                report["end_reasons"].get("forfeit").is_none(),
                "{g}: {report}"
            );
            assert_eq!(report["bots"][0], BOT);
            std::fs::read_to_string(out).unwrap()
        };
        let a = rows(&format!("{g}-a.jsonl"));
        let b = rows(&format!("{g}-b.jsonl"));
        assert_eq!(a.lines().count(), 3);
        assert_eq!(a, b, "{g}: the same seed gave other games");
    }
}

/// A program that crashes, hangs or answers an illegal move loses the game
/// with its reason, and the run plays every game.
#[test]
fn forfeits_lose_the_game_and_the_run_goes_on() {
    for (program, reason) in [
        ("cmd:exit 3", "ended without answering (exit status: 3)"),
        (
            "cmd:sleep 30",
            "did not answer within the time limit of 0.3 s",
        ),
        (
            r#"cmd:while read l; do echo '{"action":"z9 9 Q"}'; done"#,
            "answered an illegal move: expected an action",
        ),
        (
            "cmd:while read l; do echo '[]'; done",
            "expected a JSON object",
        ),
    ] {
        let bots = format!("greedy,{program}");
        let out = temp("forfeits.jsonl");
        let r = roots(&[
            "simulate",
            "btt",
            "--bots",
            &bots,
            "-n",
            "2",
            "--seed",
            "1",
            "--cmd-timeout",
            "0.3",
            "--format",
            "json",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{program}: {}", r.stderr);
        assert!(r.stderr.contains("seat 2"), "{program}: {}", r.stderr);
        assert!(r.stderr.contains(reason), "{program}: {}", r.stderr);
        let report = r.json();
        assert_eq!(report["games"], 2);
        assert_eq!(report["end_reasons"]["forfeit"]["count"], 2, "{report}");
        assert_eq!(report["seats"][0]["wins"]["count"], 2, "{report}");
        let rows = std::fs::read_to_string(&out).unwrap();
        for row in rows.lines() {
            let v: Value = serde_json::from_str(row).unwrap();
            assert_eq!(v["end_reason"], "forfeit");
            assert_eq!(v["forfeit_seat"], 2);
            // Seats count from 1 in every row (as in CSV).
            assert_eq!(v["winner"], 1);
            assert!(v["forfeit"].as_str().unwrap().contains(reason));
        }
    }
}

#[test]
fn compare_seats_an_external_player() {
    let bots = format!("{BOT},greedy");
    let r = roots(&[
        "compare",
        "btt",
        "btt",
        "--bots",
        &bots,
        "-n",
        "2",
        "--seed",
        "4",
        "--format",
        "json",
        // The same rules on both sides: played only with B on its own seeds.
        "--independent",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `play` with an external seat: the record names it, and `replay` runs it
/// again and finds the same moves.
#[test]
fn play_records_an_external_player_and_replay_agrees() {
    let record = temp("played.jsonl");
    let players = format!("{BOT},greedy");
    let r = roots(&[
        "play",
        "sprout-r-out",
        "--players",
        &players,
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("game over"), "{}", r.stdout);
    let header = std::fs::read_to_string(&record).unwrap();
    assert!(header.lines().next().unwrap().contains(BOT));
    let again = roots(&["replay", record.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(!again.stderr.contains("differs"), "{}", again.stderr);

    let crashed = temp("crashed.jsonl");
    let r = roots(&[
        "play",
        "btt",
        "--players",
        "greedy,cmd:exit 1",
        "--seed",
        "3",
        "--record",
        crashed.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("seat 2 (cmd:exit 1) forfeits and loses"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("seat 1 (greedy) wins"), "{}", r.stderr);
}

/// The session of `docs/protocol.md`, request by request, against the real
/// engine: each answer is the one the page shows (with the page's cuts:
/// boards as "…", `legal` lists of more than four cut, record lines cut).
#[test]
fn the_documented_session_is_what_the_engine_says() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md")).unwrap();
    let section = doc
        .split("## A full session")
        .nth(1)
        .unwrap()
        .split("## The player side")
        .next()
        .unwrap();
    let lines: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with('{') || *l == "nonsense")
        .collect();
    assert!(lines.len() >= 20, "{}", lines.len());
    let save = temp("doc-session.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_roots"))
        .arg("engine")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    for pair in lines.chunks(2) {
        let (request, shown) = (pair[0], pair[1]);
        let request = request.replace("\"game.jsonl\"", &format!("{:?}", save.to_str().unwrap()));
        writeln!(to, "{request}").unwrap();
        to.flush().unwrap();
        let mut answer = String::new();
        from.read_line(&mut answer).unwrap();
        let mut got: Value = serde_json::from_str(&answer).unwrap();
        let mut want: Value = serde_json::from_str(shown).unwrap();
        cut(&mut got);
        if let Some(p) = want.get_mut("path") {
            *p = Value::from(save.to_str().unwrap());
        }
        assert_eq!(got, want, "{request}");
    }
    assert!(child.wait().unwrap().success());
}

fn cut(v: &mut Value) {
    if let Some(s) = v.get_mut("state") {
        s["board"] = Value::from("…");
        if let Some(Value::Array(l)) = s.get_mut("legal")
            && l.len() > 4
        {
            let more = l.len() - 4;
            l.truncate(4);
            l.push(Value::from(format!("… {more} more")));
        }
    }
    if let Some(Value::Array(lines)) = v.get_mut("lines") {
        for l in lines {
            let s = l.as_str().unwrap().to_string();
            if s.chars().count() >= 80 {
                *l = Value::from(format!("{}…", s.chars().take(60).collect::<String>()));
            }
        }
    }
}

/// Regression: `play --resume` took `--cmd-timeout` and ignored it, so a
/// resumed game gave an external player the default 10 s per decision.
#[test]
fn play_resume_ignored_cmd_timeout() {
    let dir = common::tmp_dir("cli_engine", "resume_cmd_timeout");
    // A game stopped at seat 1's first decision (stdin ends at once): the
    // record names an external seat 2 that never answers (so resuming it
    // needs --run-programs).
    let r = common::roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "human,cmd:sleep 20",
            "--seed",
            "1",
            "--record",
            "game.jsonl",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.transcript());
    let r = common::roots_in(
        &dir,
        &[
            "play",
            "--resume",
            "game.jsonl",
            "--run-programs",
            "--cmd-timeout",
            "0.3",
        ],
        "null a4\n",
    );
    let said = r.transcript();
    assert!(
        said.contains("did not answer within the time limit of 0.3 s"),
        "{said}"
    );
    assert!(said.contains("seat 2 (cmd:sleep 20) forfeits"), "{said}");
}
