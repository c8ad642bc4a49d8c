//! The first hour of a new user (issue 19): each test is named after a bug
//! met on a fresh clone, and fails on the code before its fix. Every fix
//! goes through the generic layers, so the tests run over every game where
//! the bug could show.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The binary under test: this build's, or the one `ROOTS_BIN` names (to
/// show a test fails on a build from before its fix).
fn bin() -> String {
    std::env::var("ROOTS_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_roots").to_owned())
}

/// `roots ARGS` with NO_COLOR set and nothing on stdin.
fn roots(args: &[&str]) -> common::Run {
    run_env(args, &[("NO_COLOR", "1")], "")
}

/// The roots binary with a clean colour environment (no NO_COLOR, no
/// CLICOLOR_FORCE), `env` on top, `stdin` fed in.
fn run_env(args: &[&str], env: &[(&str, &str)], stdin: &str) -> common::Run {
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("the roots binary runs");
    let mut input = child.stdin.take().expect("stdin");
    // A command that does not read stdin may exit first: ignore the pipe.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let output = child.wait_with_output().expect("roots ends");
    common::Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A fresh directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-first-hour-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A built-in variant of each game.
const GAMES: [&str; 3] = ["standard", "btt", "sprout-r-out"];

// ---------------------------------------------------------------- install

#[test]
fn validate_accepts_a_built_in_name_like_every_other_command() {
    let r = roots(&[
        "validate",
        "standard",
        "fewer-beads",
        "btt",
        "sprout-r-out-ludii",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    for name in ["standard", "fewer-beads", "btt", "sprout-r-out-ludii"] {
        assert!(
            r.stdout.contains(&format!("ok: {name} (variant {name})")),
            "{}",
            r.transcript()
        );
    }
}

#[test]
fn simulate_of_a_built_in_name_prints_no_unrelated_hint() {
    for name in ["fewer-beads", "btt-arcade", "sprout-r-out-ludii"] {
        let r = roots(&["simulate", name, "-n", "4", "--seed", "1"]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        assert_eq!(r.stderr, "", "{name}: nothing but the report");
    }
}

// ---------------------------------------------------------------- progress

/// Run `roots ARGS` with stderr (and stdout) on a terminal, through
/// `script`'s pseudo-terminal: what a person sees.
fn on_a_terminal(args: &str) -> String {
    let output = Command::new("script")
        .args(["-qec", &format!("{} {args}", bin()), "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn progress_is_shown_per_game_with_a_rate_and_the_time_left() {
    // Slow games (tree search): the old bar moved once per 512 games, so it
    // showed 0/3 until the end.
    for (game, bots) in [("standard", "mcts:150"), ("sprout-r-out", "mcts:300")] {
        let seen = on_a_terminal(&format!("simulate {game} -n 3 -j 1 --seed 1 --bots {bots}"));
        assert!(
            seen.contains("1/3 games") || seen.contains("2/3 games"),
            "{game}: no progress between games:\n{seen:?}"
        );
        assert!(seen.contains("/s") && seen.contains("left"), "{seen:?}");
    }
}

#[test]
fn quiet_turns_the_progress_bar_and_the_notes_off() {
    let seen = on_a_terminal("simulate -q -n 3 -j 1 --bots mcts:150");
    assert!(!seen.contains("/3 games"), "{seen:?}");
    assert!(!seen.contains("seed:"), "{seen:?}");
    assert!(
        seen.contains("3 games"),
        "the report is still there: {seen:?}"
    );
}

// ---------------------------------------------------------------- colour

const ESC: &str = "\u{1b}[";

#[test]
fn color_always_reaches_play_replay_and_the_diagnostics_of_simulate() {
    let dir = scratch("colour");
    for game in GAMES {
        let record = s(&dir.join(format!("{game}.jsonl")));
        let play = run_env(
            &[
                "play",
                game,
                "--players",
                "random,random",
                "--seed",
                "3",
                "--record",
                &record,
                "--color",
                "always",
            ],
            &[],
            "",
        );
        assert_eq!(play.code, 0, "{}", play.transcript());
        assert!(play.stdout.contains(ESC), "play {game} is not coloured");
        let replay = run_env(&["replay", &record, "--color", "always"], &[], "");
        assert!(
            replay.stdout.contains(ESC),
            "replay {game}: {}",
            replay.transcript()
        );
    }
    let bad = s(&dir.join("bad.toml"));
    std::fs::write(&bad, "[beads]\nsupply = \"lots\"\n").unwrap();
    for cmd in [
        vec!["simulate", bad.as_str(), "-n", "2"],
        vec!["compare", "standard", bad.as_str(), "-n", "2"],
        vec![
            "sweep",
            bad.as_str(),
            "--set",
            "beads.store=1..2",
            "-n",
            "2",
        ],
    ] {
        let mut args = cmd.clone();
        args.extend(["--color", "always"]);
        let r = run_env(&args, &[], "");
        assert_eq!(r.code, 1, "{}", r.transcript());
        assert!(r.stderr.contains(ESC), "{cmd:?}: {}", r.transcript());
        // And never when told so.
        let mut args = cmd.clone();
        args.extend(["--color", "never"]);
        let r = run_env(&args, &[("CLICOLOR_FORCE", "1")], "");
        assert!(!r.stderr.contains(ESC), "{cmd:?}: {}", r.transcript());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clicolor_force_turns_colour_on_and_no_color_off() {
    let dir = scratch("clicolor");
    let record = s(&dir.join("g.jsonl"));
    let forced = run_env(
        &[
            "play",
            "--players",
            "random,random",
            "--seed",
            "5",
            "--record",
            &record,
        ],
        &[("CLICOLOR_FORCE", "1")],
        "",
    );
    assert!(forced.stdout.contains(ESC), "{}", forced.transcript());
    let bad = run_env(
        &["validate", "-"],
        &[("CLICOLOR_FORCE", "1")],
        "[beads]\nsupply = -1\n",
    );
    assert!(bad.stdout.contains(ESC), "{}", bad.transcript());
    let plain = run_env(&["replay", &record], &[("NO_COLOR", "1")], "");
    assert!(!plain.stdout.contains(ESC), "{}", plain.transcript());
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- --out

/// The winner column of a CSV file, by game.
fn csv_winners(path: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = headers.iter().position(|h| h == "winner").unwrap();
    reader
        .records()
        .map(|r| r.unwrap().get(col).unwrap().to_owned())
        .collect()
}

#[test]
fn out_numbers_the_winner_from_1_in_json_lines_as_in_csv() {
    let dir = scratch("out-seats");
    for game in GAMES {
        let csv = dir.join(format!("{game}.csv"));
        let jsonl = dir.join(format!("{game}.jsonl"));
        for out in [&csv, &jsonl] {
            let r = roots(&[
                "simulate",
                game,
                "-n",
                "30",
                "--seed",
                "9",
                "--out",
                &s(out),
            ]);
            assert_eq!(r.code, 0, "{}", r.transcript());
        }
        let from_csv = csv_winners(&csv);
        let text = std::fs::read_to_string(&jsonl).unwrap();
        let from_jsonl: Vec<String> = text
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                for seat in v["top"].as_array().unwrap() {
                    assert!(seat.as_u64().unwrap() >= 1, "{game}: top from 1: {l}");
                }
                v["winner"]
                    .as_u64()
                    .map_or(String::new(), |w| w.to_string())
            })
            .collect();
        assert_eq!(from_csv, from_jsonl, "{game}: one seat numbering");
        assert!(from_csv.iter().any(|w| !w.is_empty()));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_with_a_json_extension_writes_one_json_document() {
    let dir = scratch("out-json");
    let path = dir.join("games.json");
    let r = roots(&[
        "simulate",
        "btt",
        "-n",
        "7",
        "--seed",
        "2",
        "--out",
        &s(&path),
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).expect("one JSON document");
    assert_eq!(doc.as_array().map(Vec::len), Some(7));
    // The format flag wins over the extension.
    let txt = dir.join("games.txt");
    let r = roots(&[
        "simulate",
        "-n",
        "3",
        "--seed",
        "2",
        "--out",
        &s(&txt),
        "--out-format",
        "jsonl",
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let text = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a JSON line");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- replay

#[test]
fn replay_of_a_glob_accepts_several_records() {
    let dir = scratch("replay-many");
    let mut records = Vec::new();
    for (i, game) in GAMES.iter().enumerate() {
        let record = s(&dir.join(format!("roots-game-{i}.jsonl")));
        let r = roots(&[
            "play",
            game,
            "--players",
            "random,random",
            "--seed",
            "4",
            "--record",
            &record,
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        records.push(record);
    }
    let mut args = vec!["replay"];
    args.extend(records.iter().map(String::as_str));
    let r = roots(&args);
    assert_eq!(r.code, 0, "{}", r.transcript());
    for record in &records {
        assert!(r.stdout.contains(record.as_str()), "{}", r.transcript());
    }
    args.extend(["--format", "json"]);
    let doc = roots(&args).json();
    assert_eq!(doc.as_array().map(Vec::len), Some(3));
    // One bad record among good ones: reported, the others still replayed.
    let missing = s(&dir.join("missing.jsonl"));
    let r = roots(&["replay", &records[0], &missing, &records[1]]);
    assert_eq!(r.code, 2, "{}", r.transcript());
    assert!(r.stdout.contains(&records[1]), "{}", r.transcript());
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- statistics

#[test]
fn a_zero_rate_has_a_lower_bound_of_zero() {
    // Seed 2: in each game's 50 games of its default bot some way to end
    // never comes (a few seconds of Sprout-R-Out's whole-turn greedy).
    for game in GAMES {
        let r = roots(&[
            "simulate", game, "-n", "50", "--seed", "2", "--format", "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        let doc = r.json();
        let mut zeros = 0;
        for (key, rate) in doc["end_reasons"].as_object().unwrap() {
            if rate["count"] == 0 {
                zeros += 1;
                assert_eq!(rate["low"].as_f64(), Some(0.0), "{game} {key}: {rate}");
            }
        }
        assert!(zeros > 0, "{game}: some way to end never came");
    }
}

// ---------------------------------------------------------------- man

#[test]
fn man_has_every_page_it_names_with_every_option() {
    let main = roots(&["man"]);
    assert_eq!(main.code, 0, "{}", main.transcript());
    let dir = scratch("man");
    let r = roots(&["man", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    // Every page the main page names exists.
    let mut named = 0;
    for word in main.stdout.split(|c: char| c.is_whitespace() || c == ',') {
        if let Some(page) = word.strip_suffix("(1)") {
            let file = dir.join(format!(
                "{}.1",
                page.replace("\\-", "-").replace("\\fR", "")
            ));
            assert!(
                file.exists(),
                "{page}(1) is named but {file:?} is not written"
            );
            named += 1;
        }
    }
    assert!(named >= 14, "{named} pages named");
    // A command's page lists its options, and the examples keep their lines.
    let sim = roots(&["man", "simulate"]);
    assert_eq!(sim.code, 0, "{}", sim.transcript());
    for option in [
        "\\-\\-games",
        "\\-\\-bots",
        "\\-\\-out\\-format",
        "\\-\\-seed",
    ] {
        assert!(sim.stdout.contains(option), "{option} missing");
    }
    let examples = sim
        .stdout
        .split(".SH \"EXAMPLES\"")
        .nth(1)
        .expect("examples");
    assert!(
        examples.starts_with("\n.nf\n"),
        "examples are filled: {examples}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("roots-simulate.1")).unwrap(),
        sim.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- small text

#[test]
fn play_help_names_every_bot() {
    let r = roots(&["play", "--help"]);
    for bot in ["random", "greedy", "mcts"] {
        assert!(r.stdout.contains(bot), "{bot}: {}", r.stdout);
    }
}

#[test]
fn play_usage_does_not_show_record_as_required() {
    let r = roots(&["play", "--record", "x.jsonl"]);
    assert_eq!(r.code, 2);
    let usage = r.stderr.lines().find(|l| l.starts_with("Usage:")).unwrap();
    assert!(!usage.contains("--record <FILE>"), "{usage}");
    assert!(usage.contains("[OPTIONS]"), "{usage}");
}

#[test]
fn a_single_player_count_is_not_a_range() {
    let r = roots(&["simulate", "sprout-r-out", "-p", "3"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("is for 2 players, not 3"), "{}", r.stderr);
    let r = roots(&["simulate", "-p", "1", "--set", "players.max=2"]);
    assert!(!r.stderr.contains("2 to 2"), "{}", r.stderr);
}

#[test]
fn compare_prints_no_seed_before_failing_on_the_player_count() {
    for game in GAMES {
        let r = roots(&["compare", game, game, "-p", "9"]);
        assert_eq!(r.code, 2, "{}", r.transcript());
        assert_eq!(r.stdout, "");
        assert!(!r.stderr.contains("seed"), "{}", r.stderr);
    }
    let r = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.supply=30..40:10",
        "-p",
        "9",
    ]);
    assert_eq!(r.code, 2, "{}", r.transcript());
    assert!(!r.stdout.contains("seed") && !r.stderr.contains("seed"));
}

#[test]
fn new_quotes_a_name_with_spaces_in_the_commands_it_suggests() {
    let dir = scratch("new");
    let r = roots(&["new", "my rules", "--dir", &s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let file = s(&dir.join("my rules.toml"));
    let line = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("roots validate"))
        .unwrap();
    assert!(line.contains(&format!("roots validate '{file}'")), "{line}");
    // The suggestion works as a shell would split it.
    let r = roots(&["validate", &file]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn seed_and_plot_notes_go_to_stderr_not_into_the_table() {
    let dir = scratch("notes");
    let svg = s(&dir.join("p.svg"));
    let r = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.supply=30..40:10",
        "-n",
        "4",
        "--svg",
        &svg,
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    assert!(
        !r.stdout.contains("seed:") && !r.stdout.contains("plot written"),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.contains("seed:") && r.stderr.contains("plot written"),
        "{}",
        r.stderr
    );
    for game in GAMES {
        let r = roots(&["simulate", game, "-n", "3"]);
        assert!(!r.stdout.contains("seed:"), "{}", r.stdout);
        assert!(r.stderr.contains("seed:"), "{}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- conventions

/// A variant file of each game, as a person would pipe it in.
const PIPED: [(&str, &str); 3] = [
    (
        "standard",
        "extends = \"standard\"\nname = \"piped\"\n[beads]\nsupply = 40\n",
    ),
    (
        "btt",
        "game = \"branches\"\nextends = \"btt\"\nname = \"piped\"\n",
    ),
    (
        "sprout-r-out",
        "game = \"sprout-r-out\"\nextends = \"sprout-r-out\"\nname = \"piped\"\n",
    ),
];

#[test]
fn a_dash_reads_the_variant_from_stdin_on_every_command() {
    let dir = scratch("stdin");
    let record = s(&dir.join("g.jsonl"));
    for (game, text) in PIPED {
        let _ = std::fs::remove_file(&record);
        for args in [
            vec!["validate", "-"],
            vec!["show", "-"],
            vec!["explain", "-"],
            vec!["diff", game, "-"],
            vec!["simulate", "-", "-n", "3", "--seed", "1"],
            vec!["compare", game, "-", "-n", "3", "--seed", "1"],
            vec![
                "play",
                "-",
                "--players",
                "random,random",
                "--seed",
                "1",
                "--record",
                &record,
            ],
        ] {
            let r = run_env(&args, &[("NO_COLOR", "1")], text);
            assert!(
                r.code == 0 || (args[0] == "diff" && r.code == 1),
                "{args:?}: {}",
                r.transcript()
            );
            assert!(
                r.stdout.contains("piped") || args[0] == "play",
                "{game} {args:?}: {}",
                r.transcript()
            );
        }
    }
    let r = run_env(
        &[
            "sweep",
            "-",
            "--set",
            "beads.supply=30..40:10",
            "-n",
            "3",
            "--seed",
            "1",
        ],
        &[],
        PIPED[0].1,
    );
    assert_eq!(r.code, 0, "{}", r.transcript());
    assert!(r.stdout.contains("piped"), "{}", r.transcript());
    // Standard input holds one variant.
    let r = run_env(&["diff", "-", "-"], &[], PIPED[0].1);
    assert_eq!(r.code, 2, "{}", r.transcript());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn format_json_prints_show_explain_and_diff_as_json() {
    for game in GAMES {
        let show = roots(&["show", game, "--format", "json"]);
        assert_eq!(show.code, 0, "{}", show.transcript());
        assert_eq!(show.stderr, "", "no stray []");
        assert_eq!(show.json()["name"], game);
        assert!(show.json()["rules"].is_object());
        let explain = roots(&["explain", game, "--format", "json"]);
        assert_eq!(explain.stderr, "", "no stray []");
        assert!(
            explain.json()["markdown"]
                .as_str()
                .unwrap()
                .starts_with('#')
        );
        let diff = roots(&["diff", game, game, "--format", "json"]);
        assert_eq!(diff.stderr, "", "no stray []");
        assert_eq!(diff.json()["changes"], serde_json::json!([]));
    }
    let diff = roots(&["diff", "standard", "fewer-beads", "--format", "json"]);
    assert_eq!(diff.json()["changes"][0]["key"], "beads.supply");
}

#[test]
fn diff_exits_1_when_the_variants_differ() {
    for (a, b) in [
        ("standard", "fewer-beads"),
        ("btt", "btt-arcade"),
        ("sprout-r-out", "sprout-r-out-ludii"),
    ] {
        assert_eq!(roots(&["diff", a, b]).code, 1, "{a} {b}");
        assert_eq!(roots(&["diff", a, a]).code, 0, "{a}");
    }
    // Trouble is 2, as with diff(1).
    assert_eq!(roots(&["diff", "standard", "no-such-variant"]).code, 2);
}

#[test]
fn csv_report_quotes_a_measure_with_a_comma() {
    // Sprout-R-Out counts "final territory, seat 1": unquoted, its row had
    // one field too many.
    for game in GAMES {
        let r = roots(&[
            "simulate", game, "-n", "5", "--seed", "1", "--format", "csv",
        ]);
        assert_eq!(r.code, 0, "{}", r.transcript());
        let mut reader = csv::Reader::from_reader(r.stdout.as_bytes());
        let width = reader.headers().unwrap().len();
        for row in reader.records() {
            let row = row.unwrap_or_else(|e| panic!("{game}: {e}\n{}", r.stdout));
            assert_eq!(row.len(), width, "{game}: {row:?}");
        }
    }
}

#[test]
fn bash_completion_offers_bot_names_for_bots() {
    let r = roots(&["completions", "bash"]);
    let script = &r.stdout;
    let mut seen = 0;
    for (i, _) in script.match_indices("--bots)") {
        let case = &script[i..i + 200.min(script.len() - i)];
        let first = case.lines().nth(1).unwrap_or("");
        assert!(first.contains("random greedy greedy-v1 mcts"), "{first}");
        assert!(!first.contains("compgen -f"), "{first}");
        seen += 1;
    }
    assert!(seen >= 3, "simulate, compare and sweep");
    for (i, _) in script.match_indices("--players)") {
        let first = script[i..].lines().nth(1).unwrap_or("");
        if first.contains("human") {
            assert!(
                first.contains("human random greedy greedy-v1 mcts"),
                "{first}"
            );
            return;
        }
    }
    panic!("play --players offers no names");
}

#[test]
fn several_toml_syntax_errors_are_reported_at_once() {
    let text = "[beads]\nsupply = \nstore = 3\n[nutrients\nsupply = 4 4\n";
    let r = run_env(&["validate", "-", "--format", "json"], &[], text);
    assert_eq!(r.code, 1, "{}", r.transcript());
    let doc = r.json();
    let lines: Vec<u64> = doc
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "syntax")
        .filter_map(|d| d["line"].as_u64())
        .collect();
    // Line 5 may be lost to the recovery after the unclosed table; the
    // faults of lines 2 and 4 are both reported, in order.
    assert!(lines.starts_with(&[2, 4]), "{lines:?}: {}", r.stdout);
}

/// `replay --format json` named the winning seat from 0 while every other
/// output counts seats from 1.
#[test]
fn replay_json_numbers_the_winners_from_1() {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records/good.jsonl");
    let r = roots(&["replay", record.to_str().unwrap(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("json");
    // The record's text form says "winner: A (seat 1, random)".
    assert_eq!(v["winners"], serde_json::json!([1]), "{v}");
}
