//! The leftovers of the newcomer's list (issue #51): a per-game flag read
//! as a share of games, decisions in words in `replay --list`, and a key
//! that never changed a game named by `compare`. The real binary.

use super::common::{roots, roots_in, tmp_dir};

/// Roots Growy Roots' `decided_by_branches` and `decided_by_longest` are
/// 0 or 1 per game: `compare` gives them as rates (percent, a rate's
/// interval), not as means of 0.1.
#[test]
fn per_game_flags_are_shares_of_games_in_compare_simulate_and_sweep() {
    let run = roots(&[
        "compare",
        "roots-growy-roots",
        "rgr-artifacts",
        "-n",
        "60",
        "--seed",
        "3",
        "-b",
        "random",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    for label in ["won by the branch bonus", "won by the longest root"] {
        let row = run
            .stdout
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no row {label}: {}", run.stdout));
        // `  won by the longest root  23.0%  22.7%  -0.3pt (-6.6 to +5.9) ...`
        let cells: Vec<&str> = row[label.len() + 2..].split_whitespace().collect();
        assert!(
            cells[0].ends_with('%') && cells[1].ends_with('%') && cells[2].ends_with("pt"),
            "{row}"
        );
    }

    let sim = roots(&[
        "simulate",
        "roots-growy-roots",
        "-n",
        "40",
        "--seed",
        "3",
        "-b",
        "random",
    ]);
    assert_eq!(sim.code, 0, "{}", sim.transcript());
    let shares = sim
        .stdout
        .split("\nShare of games\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no share of games: {}", sim.stdout));
    assert!(
        shares.starts_with("  won by the branch bonus ")
            && shares.lines().nth(1).is_some_and(|l| l.contains('%')),
        "{shares}"
    );
    let per_game = sim.stdout.split("Per game").nth(1).unwrap_or_default();
    assert!(!per_game.contains("won by"), "{per_game}");

    let json = roots(&[
        "simulate",
        "roots-growy-roots",
        "-n",
        "40",
        "--seed",
        "3",
        "-b",
        "random",
        "--format",
        "json",
    ]);
    let v = json.json();
    let flag = &v["flags"]["decided_by_longest"];
    assert_eq!(flag["of"], 40, "{v}");
    // The count is still there as a summary of 0s and 1s.
    assert!(
        (flag["rate"].as_f64().unwrap() - v["decided_by_longest"]["mean"].as_f64().unwrap()).abs()
            < 1e-9,
        "{v}"
    );

    let sweep = roots(&[
        "sweep",
        "roots-growy-roots",
        "--set",
        "end.max_rounds=40..60:20",
        "--measure",
        "decided_by_branches",
        "-n",
        "30",
        "--seed",
        "2",
        "-b",
        "random",
    ]);
    assert_eq!(sweep.code, 0, "{}", sweep.transcript());
    let row = sweep
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("40 "))
        .unwrap_or_else(|| panic!("{}", sweep.stdout));
    assert!(row.trim_end().ends_with("%)"), "{row}");
}

/// `replay --list` says Roots and Shoots' growth actions as the prompt
/// does (`grow new plant (d4)`), not in the record's form (`grow
/// new_plant`).
#[test]
fn replay_list_says_growth_actions_in_words() {
    let dir = tmp_dir("newcomer_leftovers", "replay-words");
    let play = roots_in(
        &dir,
        &[
            "play",
            "standard",
            "--players",
            "random,random",
            "--seed",
            "3",
            "--record",
            "r.jsonl",
        ],
        "",
    );
    assert_eq!(play.code, 0, "{}", play.transcript());
    let record = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    assert!(record.contains("grow new_plant"), "{record}");
    let list = roots_in(&dir, &["replay", "r.jsonl", "--list"], "");
    assert_eq!(list.code, 0, "{}", list.transcript());
    assert!(
        list.stdout.contains("(random): grow new plant (d4)"),
        "{}",
        list.stdout
    );
    assert!(!list.stdout.contains("new_plant"), "{}", list.stdout);
    assert!(!list.stdout.contains("simple_growth"), "{}", list.stdout);
}

/// Sprout-R-Out's `rules.tie = "mover-wins"` against the default: the
/// random games never end level, so no pair differs, and `compare` names
/// the key that never took effect.
#[test]
fn compare_names_a_key_that_never_changed_a_game() {
    let dir = tmp_dir("newcomer_leftovers", "idle-key");
    std::fs::write(
        dir.join("mw.toml"),
        "name = \"mw\"\ngame = \"sprout-r-out\"\nextends = \"sprout-r-out\"\n[rules]\ntie = \"mover-wins\"\n",
    )
    .unwrap();
    let run = roots_in(
        &dir,
        &[
            "compare",
            "sprout-r-out",
            "mw.toml",
            "-n",
            "60",
            "--seed",
            "2",
            "-b",
            "random",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("The key `rules.tie` never changed a game in 60 pairs"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("the change made no difference"),
        "{}",
        run.stdout
    );
}
