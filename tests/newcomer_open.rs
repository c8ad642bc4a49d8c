//! Issue #51's newcomer list, the items left open after the last round:
//! each as a newcomer met it, run through the real binary.

use crate::common::{roots, roots_in, tmp_dir};

/// The ties line of a simulate report.
fn ties_line(stdout: &str) -> String {
    stdout
        .lines()
        .find(|l| l.trim_start().starts_with("Ties"))
        .unwrap_or_default()
        .to_owned()
}

/// Sprout-R-Out's `rules.tie = "mover-wins"` gives the simulator no ties:
/// the winner is the game's own, not the best score's. Under `draw` the same
/// games do tie (so the rule has something to break).
#[test]
fn the_simulator_takes_the_winner_from_the_game() {
    let run = |tie: &str| {
        let set = format!("rules.tie={tie}");
        let args = [
            "simulate",
            "sprout-r-out",
            "--set",
            &set,
            "-n",
            "2000",
            "--seed",
            "1",
            "--bots",
            "random",
            "-q",
        ];
        let r = roots(&args);
        assert_eq!(r.code, 0, "{}", r.transcript());
        ties_line(&r.stdout)
    };
    let draw = run("draw");
    assert!(!draw.contains(" 0.0% ("), "draw gives ties here: {draw}");
    let mover = run("mover-wins");
    assert!(mover.contains(" 0.0% ("), "mover-wins: {mover}");
}

/// `simulate --summary` says what never happened in the game's words (no
/// raw event keys), leaves out what the variant rules out (abilities with
/// abilities off), and names the two lengths apart.
#[test]
fn the_summary_speaks_the_games_words() {
    let summary = |variant: &str, extra: &[&str]| {
        let mut args = vec!["simulate", variant, "-n", "40", "--seed", "5", "--summary"];
        args.extend_from_slice(extra);
        let r = roots(&args);
        assert_eq!(r.code, 0, "{}", r.transcript());
        r.stdout
    };
    let rgr = summary("roots-growy-roots", &[]);
    assert!(
        rgr.contains("Never happened in 40 games: sticks lost\n"),
        "{rgr}"
    );
    assert!(!rgr.contains("abilities"), "abilities are off: {rgr}");
    assert!(!rgr.contains("(`"), "a raw key: {rgr}");
    // Nor has it a row in the table; with abilities on, their use is a
    // rule event like any other.
    let table = |extra: &[&str]| {
        let mut args = vec!["simulate", "roots-growy-roots", "-n", "10", "--seed", "5"];
        args.extend_from_slice(extra);
        roots(&args).stdout
    };
    assert!(!table(&[]).contains("artifact abilities used"));
    let on = table(&["--set", "artifacts.abilities=true"]);
    assert!(on.contains("  artifact abilities used "), "{on}");
    let standard = summary("standard", &[]);
    assert!(
        standard.contains("Never happened in 40 games: first-turn nutrient rerolls\n"),
        "{standard}"
    );
    assert!(!standard.contains("(`first_reroll`)"), "{standard}");
    // Roots and Shoots counts its turns otherwise than the runs of one
    // seat's decisions: the summary names both, each by its own name.
    let length = standard
        .lines()
        .find(|l| l.trim_start().starts_with("Length:"))
        .unwrap_or_default();
    assert!(
        length.contains("seat runs a game") && length.contains("the game's own count: 47.5 turns"),
        "{length}"
    );
    let table = roots(&["simulate", "standard", "-n", "40", "--seed", "5"]).stdout;
    assert!(!table.contains("turns (seat runs)"), "{table}");
    assert!(table.contains("  duration    seat runs "), "{table}");
}

/// Undo at the terminal names seats as the game does (X and O in
/// Sprout-R-Out, A and B in Roots Growy Roots), and names every sub-move
/// of a bot's turn it takes back.
#[test]
fn undo_names_seats_as_the_game_does() {
    let dir = tmp_dir("newcomer-open", "undo");
    let run = roots_in(
        &dir,
        &[
            "play",
            "sprout-r-out",
            "--players",
            "human,greedy",
            "--seed",
            "3",
            "--record",
            "s.jsonl",
        ],
        "E5\nundo\n",
    );
    let out = &run.stdout;
    assert!(!out.contains("of seat"), "{out}");
    for line in [
        "  undone: the decision \"D4\" of O (greedy) (recorded as an undo)",
        "  undone: the decision \"C3\" of O (greedy) (recorded as an undo)",
        "  undone: the decision \"E5\" of X (human) (recorded as an undo)",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    let run = roots_in(
        &dir,
        &[
            "play",
            "roots-growy-roots",
            "--players",
            "human,greedy",
            "--seed",
            "3",
            "--record",
            "r.jsonl",
        ],
        "C1\nundo\n",
    );
    assert!(
        run.stdout
            .contains("cannot undo: the move `C1` of A turned over a card"),
        "{}",
        run.stdout
    );
}

/// `tune` over a space smaller than `--candidates` counts the first round
/// by the points there are (8 here, not 27), and shows the original rules
/// once: as the `orig` row, never again as a ranked row.
#[test]
fn tune_counts_the_points_of_a_small_space() {
    let dir = tmp_dir("newcomer-open", "tune");
    let run = roots_in(
        &dir,
        &[
            "tune",
            "standard",
            "--vary",
            "nutrients.supply=36..43",
            "--target",
            "rounds=25",
            "--games",
            "270",
            "--budget",
            "200",
            "--seed",
            "1",
            "--bots",
            "random",
            "-q",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("8 points in the space"),
        "{}",
        run.stdout
    );
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("  #"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert!(rows[0].starts_with("orig"), "{rows:?}");
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.split_whitespace().nth(1) != Some("40")),
        "{rows:?}"
    );
    // Too small a budget is told in the space's points.
    let run = roots_in(
        &dir,
        &[
            "tune",
            "standard",
            "--vary",
            "nutrients.supply=36..43",
            "--target",
            "rounds=25",
            "--games",
            "270",
            "--budget",
            "50",
        ],
        "",
    );
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("(8 points of 10 games each: 80 games)"),
        "{}",
        run.stderr
    );
}

/// `roots new` names the game in every file it writes; a file whose keys
/// are one game's but whose `extends` names another game's variant is told
/// so once; a broken `extends` suggests the file's own game's base variant
/// and does not hide the file's own mistakes.
#[test]
fn new_files_name_their_game_and_extends_mistakes_are_plain() {
    let dir = tmp_dir("newcomer-open", "extends");
    let run = roots_in(&dir, &["new", "mine", "--extends", "roots-growy-roots"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let text = std::fs::read_to_string(dir.join("mine.toml")).expect("written");
    assert!(text.contains("\ngame = \"roots-growy-roots\"\n"), "{text}");
    assert_eq!(roots_in(&dir, &["validate", "mine.toml"], "").code, 0);

    // Roots Growy Roots keys, a Branches parent, no `game`.
    std::fs::write(
        dir.join("mixed.toml"),
        "extends = \"btt\"\n[turn]\nincome = 2\n[artifacts]\nabilities = true\n",
    )
    .expect("written");
    let run = roots_in(&dir, &["validate", "mixed.toml"], "");
    assert_ne!(run.code, 0);
    assert!(
        run.stdout.contains(
            "this file's keys are those of a Roots Growy Roots variant, but it extends <built-in btt>, a Branches & Twigs & Thorns variant"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("unknown table"), "{}", run.stdout);

    // A Branches file with a parent that is not there.
    std::fs::write(
        dir.join("b.toml"),
        "game = \"branches\"\nextends = \"nosuch.toml\"\n",
    )
    .expect("written");
    let run = roots_in(&dir, &["validate", "b.toml"], "");
    assert!(
        run.stdout.contains("write extends = \"btt\""),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("\"standard\""), "{}", run.stdout);

    // A Roots and Shoots file (by its keys) with a parent that is not
    // there, and a board of even size: both are told.
    std::fs::write(
        dir.join("d.toml"),
        "extends = \"nosuch.toml\"\n[board]\nsize = 14\n",
    )
    .expect("written");
    let run = roots_in(&dir, &["validate", "d.toml"], "");
    assert!(
        run.stdout.contains("nosuch.toml cannot be read"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("d.toml:3:"), "{}", run.stdout);
}

/// A player's input is quoted the same way in every game's errors: in
/// backticks (Sprout-R-Out used double quotes).
#[test]
fn every_game_quotes_a_players_input_alike() {
    let dir = tmp_dir("newcomer-open", "quoting");
    for (variant, expected) in [
        ("sprout-r-out", "`z9` is not a cell of the"),
        ("btt", "`z9` is not a cell of this board"),
        ("roots-growy-roots", "found `z9`"),
    ] {
        let record = format!("{variant}.jsonl");
        let run = roots_in(
            &dir,
            &[
                "play",
                variant,
                "--players",
                "human,greedy",
                "--seed",
                "3",
                "--record",
                &record,
            ],
            "Z9\n",
        );
        assert!(run.stdout.contains(expected), "{variant}: {}", run.stdout);
        assert!(!run.stdout.contains("\"z9\""), "{variant}: {}", run.stdout);
    }
}

/// `-q` hides the status line `ladder` (and `tune`) redraw on a terminal:
/// run under `script`, stderr is one.
#[test]
fn quiet_hides_the_status_line_on_a_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` to give the run a terminal");
        return;
    }
    let run = |quiet: bool| {
        let cmd = format!(
            "{} ladder btt --bots greedy,random -n 4 --seed 1{}",
            env!("CARGO_BIN_EXE_roots"),
            if quiet { " -q" } else { "" }
        );
        let out = std::process::Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .env("NO_COLOR", "1")
            .output()
            .expect("script runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        run(false).contains("pair 1 of 1: "),
        "the status line is drawn without -q"
    );
    let quiet = run(true);
    assert!(!quiet.contains("pair 1 of 1: "), "{quiet}");
    assert!(quiet.contains("Elo ratings"), "{quiet}");
}

/// Roots Growy Roots' artifact symbols are written over the sticks, at the
/// card's head: in its middle, the connector hid them (rendered with
/// headless chromium and looked at before and after).
#[test]
fn artifact_symbols_are_not_hidden_under_a_connector() {
    let dir = tmp_dir("newcomer-open", "artifacts");
    let run = roots_in(
        &dir,
        &[
            "play",
            "roots-growy-roots",
            "--players",
            "greedy,greedy",
            "--seed",
            "3",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = roots_in(&dir, &["replay", "g.jsonl", "--svg", "p.svg"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let svg = std::fs::read_to_string(dir.join("p.svg")).expect("the picture");
    // The board, before the legend under it (which draws sticks of its own).
    let svg = &svg[..svg.find("<circle cx=\"22\"").expect("the legend")];
    let last_stick = svg.rfind("<line ").expect("sticks");
    for symbol in ["runes", "Hermes", "sceptre", "hammer"] {
        let at = svg
            .find(&format!(">{symbol}</text>"))
            .unwrap_or_else(|| panic!("{symbol} is not written"));
        assert!(at > last_stick, "{symbol} is drawn under the sticks");
    }
}

/// A value out of range gets its own game's help, never another game's:
/// Roots and Shoots explains its 8 players; Branches & Twigs & Thorns and
/// Roots Growy Roots only name their limit.
#[test]
fn range_help_is_the_games_own() {
    let dir = tmp_dir("newcomer-open", "range-help");
    for (name, text, help) in [
        (
            "rs.toml",
            "extends = \"standard\"\n[players]\nmax = 9\n",
            true,
        ),
        ("b.toml", "extends = \"btt\"\n[players]\nmax = 9\n", false),
        (
            "r.toml",
            "extends = \"roots-growy-roots\"\n[players]\nmax = 9\n",
            false,
        ),
    ] {
        std::fs::write(dir.join(name), text).expect("written");
        let run = roots_in(&dir, &["validate", name], "");
        assert_ne!(run.code, 0, "{}", run.transcript());
        assert!(
            run.stdout.contains("more than the largest allowed"),
            "{}",
            run.stdout
        );
        assert_eq!(
            run.stdout.contains("8 points around the centre"),
            help,
            "{name}: {}",
            run.stdout
        );
    }
}
