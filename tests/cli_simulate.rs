//! `roots simulate`, `compare` and `sweep` through the real binary.

use crate::common;

use common::roots;

#[test]
fn simulate_table_report() {
    let run = roots(&["simulate", "-n", "40", "--seed", "7", "-j", "2"]);
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn simulate_json_report() {
    let run = roots(&[
        "simulate",
        "-n",
        "30",
        "--seed",
        "11",
        "--bots",
        "greedy,random",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value = run.json();
    insta::assert_json_snapshot!(value);
}

#[test]
fn results_do_not_depend_on_jobs() {
    let args = |jobs: &'static str| {
        roots(&[
            "simulate",
            "-n",
            "600",
            "--seed",
            "3",
            "--players",
            "3",
            "--format",
            "json",
            "-j",
            jobs,
        ])
    };
    let (one, two) = (args("1"), args("2"));
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn per_game_rows_are_written_in_game_order() {
    let dir = std::env::temp_dir().join(format!("roots-sim-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let csv = dir.join("games.csv");
    let jsonl = dir.join("games.jsonl");
    for (file, jobs) in [(&csv, "2"), (&jsonl, "1")] {
        let run = roots(&[
            "simulate",
            "-n",
            "25",
            "--seed",
            "4",
            "-j",
            jobs,
            "--format",
            "csv",
            "--out",
            file.to_str().expect("utf-8"),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let text = std::fs::read_to_string(&csv).expect("written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 26);
    assert!(lines[0].starts_with("game,bot_1,bot_2,score_1,score_2,winner,end_reason"));
    for (i, l) in lines[1..].iter().enumerate() {
        assert!(l.starts_with(&format!("{i},greedy,greedy,")), "{l}");
    }
    let text = std::fs::read_to_string(&jsonl).expect("written");
    let games: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("json line")["game"]
                .as_u64()
                .expect("game")
        })
        .collect();
    assert_eq!(games, (0..25).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn skill_is_reported() {
    // Two comparable bots: the first against the second, seats rotated.
    let run = roots(&[
        "simulate",
        "--skill",
        "--bots",
        "greedy,greedy-v1",
        "-n",
        "20",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["skill"]["strong"], "greedy");
    assert_eq!(v["skill"]["against"], "greedy-v1");
    assert_eq!(v["seating"], "rotated");
    // Two bots of the same strength on 20 games are not ordered: no skill
    // figure (it would be luck measured on an unknown scale), and why.
    assert_eq!(v["skill"]["ordered"], false, "{}", v["skill"]);
    assert!(v["skill"].get("skill").is_none(), "{}", v["skill"]);
    let why = v["skill"]["not_decided"].as_str().expect("a reason");
    assert!(why.contains("not ordered"), "{why}");
}

#[test]
fn mistakes_get_clear_errors() {
    let cases: &[&[&str]] = &[
        &["simulate", "--bots", "minimax"],
        &["simulate", "--players", "9"],
        &["simulate", "--games", "0"],
        &["simulate", "--bots", "random,greedy,mcts"],
        &["simulate", "--bots", "mcts:lots"],
        &["simulate", "no-such-variant.toml"],
        &["simulate", "tests/variants/bad/board-size-even.toml"],
        &[
            "compare",
            "standard",
            "standard",
            "--set",
            "beads.supply=-1",
        ],
        &["sweep", "standard", "--set", "beads.suply=1..3"],
        &["sweep", "standard", "--set", "board.size=27..999:2"],
        &["sweep", "standard", "--set", "beads.supply=9..3"],
    ];
    let mut out = String::new();
    for args in cases {
        let run = roots(args);
        assert_ne!(run.code, 0, "{args:?}");
        out.push_str(&format!(
            "$ roots {}\n{}\n",
            args.join(" "),
            run.transcript()
        ));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn compare_reports_differences() {
    let run = roots(&[
        "compare",
        "standard",
        "variants/fewer-beads.toml",
        "-n",
        "200",
        "--seed",
        "5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn sweep_writes_a_table_and_a_plot() {
    let dir = std::env::temp_dir().join(format!("roots-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg = dir.join("plot.svg");
    let run = roots(&[
        "sweep",
        "standard",
        "--set",
        "beads.supply=30..60:15",
        "-n",
        "40",
        "--seed",
        "1",
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&svg).expect("plot written");
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    assert!(text.contains("mean rounds") && text.contains("beads.supply"));
    let stdout = run.stdout.replace(svg.to_str().expect("utf-8"), "PLOT");
    insta::assert_snapshot!(stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant changed with `--set` is named with its changes, so that
/// `compare standard standard --set ...` does not read "standard vs standard".
#[test]
fn set_overrides_are_named_in_reports() {
    let run = roots(&[
        "compare",
        "standard",
        "standard",
        "--set",
        "beads.supply=35",
        "--games",
        "20",
        "--seed",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("A: `standard`   B: `standard --set beads.supply=35`"),
        "{}",
        run.stdout
    );
    let run = roots(&[
        "simulate",
        "--set",
        "beads.supply=35",
        "--games",
        "5",
        "--seed",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["variant"], "standard --set beads.supply=35");
}

/// `compare` loads each variant once: its warnings are printed once.
#[test]
fn compare_prints_each_warning_once() {
    let run = roots(&[
        "compare",
        "standard",
        "tests/variants/warn/short-game.toml",
        "--games",
        "5",
        "--seed",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr
            .matches("a supply of 8 beads ends the game after a few turns")
            .count(),
        1,
        "{}",
        run.stderr
    );
}

/// The designer's summary of each game's standard variant: a few lines,
/// each with its interval.
#[test]
fn simulate_summary_of_each_game() {
    for game in ["standard", "btt", "sprout-r-out", "roots-growy-roots"] {
        let run = roots(&["simulate", game, "--summary", "-n", "40", "--seed", "5"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        insta::assert_snapshot!(format!("summary_{game}"), run.stdout);
    }
}

/// When every rule event happened, the summary still reports coverage: a
/// line with the rarest event (seed 1: a bead pile emptied in 1 of 200).
#[test]
fn summary_says_every_rule_came_into_play() {
    let run = roots(&["simulate", "--summary", "-n", "200", "--seed", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains("Never happened"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "Rules: each of the 9 rule events happened in some game; the rarest, a bead pile emptied, in 0.5% (0.1–2.8%) of games"
        ),
        "{}",
        run.stdout
    );
}

/// `--format json` carries every measure with its interval, and the rule
/// events.
#[test]
fn simulate_json_carries_the_measures() {
    let run = roots(&["simulate", "-n", "20", "--seed", "2", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    let measures = v["measures"]["measures"].as_array().expect("measures");
    for key in [
        "advantage_1",
        "balance",
        "drawishness",
        "outcome_uniformity",
        "completion",
        "duration_turns",
        "decision_moves",
        "branching",
        "favourite_changes",
        "winner_behind",
        "settled_at",
        "coverage",
    ] {
        let m = measures
            .iter()
            .find(|m| m["key"] == key)
            .unwrap_or_else(|| panic!("{key} missing"));
        assert!(m["low"].as_f64() <= m["value"].as_f64(), "{key}");
        assert!(m["value"].as_f64() <= m["high"].as_f64(), "{key}");
    }
    assert!(
        !v["measures"]["rule_events"]
            .as_array()
            .expect("events")
            .is_empty()
    );
}

/// `--measures outcomes` plays the same games (the measures never touch
/// play): the same winners, lengths and counters as `standard`, without
/// the choice and tension measures, and it says so. A measure it does not
/// take is refused by `sweep` and `tune`, not read as 0.
#[test]
fn outcomes_depth_plays_the_same_games_and_measures_less() {
    let run = |depth: &'static str| {
        let r = roots(&[
            "simulate",
            "-n",
            "60",
            "--seed",
            "4",
            "-b",
            "random",
            "--measures",
            depth,
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.json()
    };
    let (out, std) = (run("outcomes"), run("standard"));
    // Everything but the measures: seats, ties, endings, every count.
    let rest = |v: &serde_json::Value| {
        let mut v = v.clone();
        v.as_object_mut().expect("object").remove("measures");
        v
    };
    assert_eq!(rest(&out), rest(&std));
    assert!(out["rounds"].is_object(), "{out}");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v["measures"]["measures"]
            .as_array()
            .expect("measures")
            .iter()
            .map(|m| m["key"].as_str().expect("key").to_owned())
            .collect()
    };
    let (ko, ks) = (keys(&out), keys(&std));
    for key in [
        "advantage_1",
        "balance",
        "duration_turns",
        "duration_decisions",
        "coverage",
    ] {
        assert!(ko.iter().any(|k| k == key), "{key} missing at outcomes");
        let a = out["measures"]["measures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["key"] == key);
        let b = std["measures"]["measures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["key"] == key);
        assert_eq!(a, b, "{key} differs between the depths");
    }
    for key in [
        "decision_moves",
        "branching",
        "favourite_changes",
        "stability",
        "winner_behind",
    ] {
        assert!(!ko.iter().any(|k| k == key), "{key} at outcomes");
        assert!(ks.iter().any(|k| k == key), "{key} missing at standard");
    }
    assert_eq!(out["measures"]["depth"], "outcomes");
    // The table and the summary say what was left out.
    for (extra, says) in [
        (None, "choice and tension not measured"),
        (Some("--summary"), "Tension, choice: not measured"),
    ] {
        let mut args = vec![
            "simulate",
            "-n",
            "10",
            "--seed",
            "4",
            "--measures",
            "outcomes",
        ];
        args.extend(extra);
        let r = roots(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.contains(says), "{extra:?}: {}", r.stdout);
    }
    let refused = [
        "sweep standard --set beads.supply=30,40 -n 4 --measure stability --measures outcomes",
        "sweep standard --set beads.supply=30,40 -n 4 --measure clarity_narrowness",
        "tune standard --vary beads.supply=20..40 --target winner_behind=max --measures outcomes",
    ];
    for line in refused {
        let args: Vec<&str> = line.split(' ').collect();
        let r = roots(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("is measured only with `--measures"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // Parts keep their depth: merged, they are the whole run; parts of
    // two depths are not one run.
    let dir = std::env::temp_dir().join(format!("roots-depth-parts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let run = |depth: &str, shard: Option<&str>| {
        let mut args = vec![
            "simulate",
            "-n",
            "20",
            "--seed",
            "3",
            "-b",
            "random",
            "--measures",
            depth,
        ];
        args.extend(shard.map(|k| ["--shard", k]).into_iter().flatten());
        let r = roots(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let part = |k: &str, depth: &str| {
        let f = dir.join(format!("{}-{depth}.json", k.replace('/', "of")));
        std::fs::write(&f, run(depth, Some(k))).expect("part written");
        f.to_string_lossy().into_owned()
    };
    let (a, b, c) = (
        part("1/2", "outcomes"),
        part("2/2", "outcomes"),
        part("2/2", "standard"),
    );
    let whole = run("outcomes", None);
    let merged = roots(&["merge", &a, &b]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, whole);
    let mixed = roots(&["merge", &a, &c]);
    assert_ne!(mixed.code, 0);
    assert!(
        mixed.stderr.contains("not a shard of the same run"),
        "{}",
        mixed.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
