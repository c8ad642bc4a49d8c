//! The newcomer's list of issue #30, item by item, each as it was met: the
//! command a new user ran and what must now come out. (Items with a test of
//! their own elsewhere: fair undo and the legal list in `fair_undo.rs`; seat
//! counts, game-key and bot hints, the end in words and the dice header in
//! `defaults_and_hints.rs`; `extends` errors with local ones in
//! `bad_variants.rs`; the README's figures in `readme_figures.rs`.)

use crate::common;

use common::{roots, roots_in, tmp_dir};

#[test]
fn man_dir_creates_a_missing_folder() {
    let dir = tmp_dir("newcomer", "man-dir");
    let run = roots_in(&dir, &["man", "--dir", "share/man/man1"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(dir.join("share/man/man1/roots.1").is_file());
}

#[test]
fn quiet_hides_the_recorded_game_note() {
    let dir = tmp_dir("newcomer", "quiet");
    let args = [
        "simulate",
        "btt",
        "-n",
        "2",
        "--seed",
        "1",
        "--bots",
        "random,random",
        "--record-game",
        "1",
        "--record",
        "g.jsonl",
    ];
    let run = roots_in(&dir, &args, "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stderr.contains("game 1 recorded"), "{}", run.stderr);
    let mut quiet = vec!["-q"];
    quiet.extend(args);
    let last = quiet.len() - 1;
    quiet[last] = "h.jsonl";
    let run = roots_in(&dir, &quiet, "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(!run.stderr.contains("recorded"), "{}", run.stderr);
    assert!(dir.join("h.jsonl").is_file());
}

#[test]
fn an_existing_record_is_never_overwritten_and_the_error_says_what_to_do() {
    let dir = tmp_dir("newcomer", "existing-record");
    std::fs::write(dir.join("g.jsonl"), "keep me\n").expect("write");
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "random,random",
            "--seed",
            "1",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("a record is never overwritten")
            && run.stderr.contains("roots play --resume g.jsonl"),
        "{}",
        run.stderr
    );
    let kept = std::fs::read_to_string(dir.join("g.jsonl")).expect("read");
    assert_eq!(kept, "keep me\n");
}

/// Every built-in variant name, as `roots games --json` lists them.
fn builtin_names() -> Vec<String> {
    roots(&["games", "--json"])
        .json()
        .as_array()
        .expect("a list of games")
        .iter()
        .flat_map(|g| g["variants"].as_array().expect("variants").clone())
        .map(|v| v.as_str().expect("a name").to_owned())
        .collect()
}

/// What bash's completion function offers for `words` (the last one the
/// word being completed), the script sourced as a user installs it.
fn bash_offers(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _roots roots '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    let out = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn completions_offer_built_in_variant_names_where_a_variant_is_asked_for() {
    let names = builtin_names();
    assert!(names.iter().any(|n| n == "rgr-4p"), "{names:?}");
    let dir = tmp_dir("newcomer", "completions");

    // bash: run the completion function itself.
    let run = roots(&["completions", "bash"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let script = dir.join("roots.bash");
    std::fs::write(&script, &run.stdout).expect("write");
    for words in [
        &["roots", "simulate", ""][..],
        &["roots", "explain", ""],
        &["roots", "play", ""],
        &["roots", "compare", "standard", ""],
        &["roots", "diff", ""],
        &["roots", "validate", ""],
        &["roots", "ladder", ""],
        &["roots", "sweep", ""],
        &["roots", "tune", ""],
        &["roots", "show", ""],
        &["roots", "new", "mine.toml", "--extends", ""],
    ] {
        let offered = bash_offers(&script, words);
        for n in &names {
            assert!(
                offered.contains(n),
                "`{}` offers no {n}: {offered:?}",
                words.join(" ")
            );
        }
    }
    assert_eq!(
        bash_offers(&script, &["roots", "simulate", "rgr-"]),
        [
            "rgr-2p",
            "rgr-3p",
            "rgr-4p",
            "rgr-all-claimed",
            "rgr-artifacts"
        ]
    );
    // Bots where bots are asked for, and not variant names there.
    let bots = bash_offers(&script, &["roots", "simulate", "--bots", ""]);
    assert!(bots.contains(&"greedy-v1".to_owned()), "{bots:?}");
    assert!(!bots.contains(&"standard".to_owned()), "{bots:?}");

    // zsh: every variant argument completes through one function that
    // offers the names and file names both.
    let run = roots(&["completions", "zsh"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let zsh = &run.stdout;
    let function = zsh
        .split("_roots_variants() {")
        .nth(1)
        .and_then(|f| f.split("\n}").next())
        .expect("a _roots_variants function");
    assert!(
        function.contains("'files:variant file:_files'"),
        "{function}"
    );
    for n in &names {
        assert!(
            function.contains(&format!(" {n}\\:")) || function.contains(&format!("(({n}\\:")),
            "zsh: no {n}"
        );
    }
    for arg in [
        "':variant -- ",
        "'::variant -- ",
        "':a -- ",
        "':b -- ",
        "'*::files -- ",
        "'--extends=[",
    ] {
        let lines: Vec<&str> = zsh.lines().filter(|l| l.starts_with(arg)).collect();
        assert!(!lines.is_empty(), "zsh: no {arg}");
        for l in lines {
            assert!(l.ends_with(":_roots_variants' \\"), "zsh: {l}");
        }
    }
    assert!(
        !zsh.contains("ROOTS-VARIANT"),
        "a placeholder left in the zsh script"
    );

    // fish: its generator completes no positional argument; ours are added.
    let run = roots(&["completions", "fish"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    for sub in [
        "simulate", "explain", "play", "compare", "diff", "validate", "show",
    ] {
        for n in &names {
            let line =
                format!("complete -c roots -n \"__fish_roots_using_subcommand {sub}\" -a {n} -d '");
            assert!(run.stdout.contains(&line), "fish: no {line}");
        }
    }
    assert!(
        run.stdout.contains(
            "complete -c roots -n \"__fish_roots_using_subcommand new\" -l extends -r -a btt -d '"
        ),
        "fish: no --extends btt"
    );
    for (shell, check) in [("zsh", "-n"), ("fish", "--no-execute")] {
        // Where the shell is installed, the script also parses.
        let script = dir.join(format!("roots.{shell}"));
        let text = roots(&["completions", shell]).stdout;
        std::fs::write(&script, text).expect("write");
        if let Ok(out) = std::process::Command::new(shell)
            .arg(check)
            .arg(&script)
            .output()
        {
            assert!(
                out.status.success(),
                "{shell}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

#[test]
fn the_help_of_extends_names_built_ins_of_every_game() {
    let run = roots(&["new", "--help"]);
    let line = run
        .stdout
        .lines()
        .find(|l| l.contains("--extends"))
        .expect("an --extends option");
    for name in ["standard", "btt", "sprout-r-out", "rgr-4p"] {
        assert!(line.contains(name), "{line}");
    }
}

#[test]
fn a_mistyped_card_at_the_table_gets_a_did_you_mean() {
    let dir = tmp_dir("newcomer", "card-typo");
    // Cards turned over at the table (`--dice manual`): the person types
    // what the card shows.
    let run = roots_in(
        &dir,
        &[
            "play",
            "roots-growy-roots",
            "--players",
            "human,human",
            "--dice",
            "manual",
            "--seed",
            "6",
            "--record",
            "g.jsonl",
        ],
        "grow d2\neath\nearth\nquit\n",
    );
    assert!(
        run.stdout.contains("did you mean `earth`?"),
        "{}",
        run.stdout
    );
    // `grow D2` is read as the move to D2, not refused as not understood.
    assert!(!run.stdout.contains("not understood"), "{}", run.stdout);
}

#[test]
fn the_13x13_sheet_says_which_faces_reach_a_line() {
    let run = roots(&["explain", "standard", "--set", "board.size=13"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("Faces 14 to 19 name no line of this board and are rolled again"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Faces 1 to 13 between them reach every line"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("Faces 1 to 19"), "{}", run.stdout);
}

#[test]
fn a_lost_bead_is_named_and_actions_are_said_in_words() {
    let dir = tmp_dir("newcomer", "lost-bead");
    let run = roots_in(
        &dir,
        &[
            "play",
            "standard",
            "--players",
            "random,random",
            "--seed",
            "4",
            "--record",
            "g.jsonl",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    let run = roots_in(&dir, &["replay", "g.jsonl", "--list"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let losses: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains(" loses "))
        .collect();
    assert!(!losses.is_empty(), "seed 4 loses beads:\n{}", run.stdout);
    for l in &losses {
        // `A loses 1 bead from the board (5,0)`: where it went.
        assert!(l.trim_end().ends_with(')'), "{l}");
    }
    // The narration says actions in words (the moves keep their text form,
    // `grow simple_growth`, as typed and recorded).
    for raw in [
        "for simple_growth",
        "(simple_growth,",
        "for new_plant",
        "(new_plant,",
    ] {
        assert!(!run.stdout.contains(raw), "{raw}:\n{}", run.stdout);
    }
}

/// The picture of a seeded bot game of `variant` after `until` events.
fn picture(dir: &std::path::Path, variant: &str, until: &str) -> String {
    let run = roots_in(
        dir,
        &[
            "play",
            variant,
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
    let run = roots_in(
        dir,
        &["replay", "g.jsonl", "--until", until, "--svg", "p.svg"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    std::fs::read_to_string(dir.join("p.svg")).expect("the picture")
}

#[test]
fn every_picture_has_a_key_to_its_marks() {
    for (variant, words) in [
        (
            "standard",
            &["a bead of the last roll", "a nutrient not rolled yet"][..],
        ),
        (
            "btt",
            &[
                "null (a hole: nothing may point at it)",
                "root",
                "the last move",
            ][..],
        ),
        (
            "sprout-r-out",
            &["X&#39;s eye", "O&#39;s territory", "not yet played against"][..],
        ),
        (
            "roots-growy-roots",
            &[
                "face down",
                "start area",
                "seed",
                "bridge (over a connector)",
            ][..],
        ),
    ] {
        let dir = tmp_dir("newcomer", &format!("key-{variant}"));
        let svg = picture(&dir, variant, "30");
        for w in words {
            assert!(svg.contains(w), "{variant}: no key {w}");
        }
    }
}

#[test]
fn roots_growy_roots_card_names_are_written_over_its_sticks() {
    let dir = tmp_dir("newcomer", "rgr-labels");
    let svg = picture(&dir, "roots-growy-roots", "30");
    // The board, before the legend under it (whose swatches are drawn like
    // connectors, at x = 22) and the key (which draws sticks of its own).
    let board = &svg[..svg.find("<circle cx=\"22\"").expect("the legend")];
    // Every stick and connector comes before the first card name: none is
    // drawn over a name ("rtilizer", "wa er").
    let last_stick = board.rfind("<line ").expect("sticks");
    let last_dot = board
        .rfind("stroke=\"#ffffff\" stroke-width=\"2\"/>")
        .expect("connectors");
    let first_name = ["earth", "water", "fertilizer", "stone", "seed"]
        .iter()
        .filter_map(|w| board.find(&format!(">{w}</text>")))
        .min()
        .expect("card names");
    assert!(
        last_stick < first_name,
        "a stick is drawn over a card's name"
    );
    assert!(
        last_dot < first_name,
        "a connector is drawn over a card's name"
    );
}

#[test]
fn sprout_r_out_charts_its_seats_in_its_stones_colours() {
    let dir = tmp_dir("newcomer", "sprout-chart");
    let run = roots_in(
        &dir,
        &[
            "play",
            "sprout-r-out",
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
    let run = roots_in(&dir, &["view", "g.jsonl", "-o", "g.html"], "");
    assert_eq!(run.code, 0, "{}", run.transcript());
    let page = std::fs::read_to_string(dir.join("g.html")).expect("the page");
    let chart = &page[page.find("<svg id=\"chart\"").expect("a chart")..];
    let chart = &chart[..chart.find("</svg>").expect("its end")];
    // Black X, white O outlined in black: the stones' own colours.
    assert!(chart.contains("stroke=\"#1e1e1e\""), "{chart}");
    assert!(chart.contains("stroke=\"#f8f8f8\""), "{chart}");
    assert!(
        !chart.contains("#d62728"),
        "the chart uses bead red: {chart}"
    );
}

#[test]
fn a_move_out_of_reach_names_every_connector_of_the_seat() {
    let dir = tmp_dir("newcomer", "rgr-connectors");
    // Seat 1 grows from its seed D1 to D2; on its next turn it has two
    // connectors, and D7 is next to neither.
    let run = roots_in(
        &dir,
        &[
            "play",
            "roots-growy-roots",
            "--players",
            "human,greedy",
            "--seed",
            "6",
            "--record",
            "g.jsonl",
        ],
        "d2\nd7\nbridge d9\nd1-d3\nquit\n",
    );
    // Understood and refused: why (no connector reaches the cell) and what
    // would (every cell the seat can grow to), the cell named as typed.
    assert!(!run.stdout.contains("not understood"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "illegal: D7: D7 is next to none of your connectors (D1, D2): a stick grows to a neighbouring cell; you can grow to C1, C2, C3, D3, E1, E2, E3"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "illegal: bridge D9: D9 is two cells in a line from none of your connectors (D1, D2): a bridge goes two cells in a straight line; you can bridge nowhere now"
        ),
        "{}",
        run.stdout
    );
    // A connector named that does not reach, where another does.
    assert!(
        run.stdout.contains(
            "illegal: D1-D3: D3 is not next to D1, but it is next to your connector D2: type D2-D3"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn turns_are_numbered_alike_in_play_replay_and_view() {
    let dir = tmp_dir("newcomer", "turn-numbers");
    let play = roots_in(
        &dir,
        &[
            "play",
            "standard",
            "--players",
            "greedy,greedy",
            "--seed",
            "3",
            "--record",
            "r.jsonl",
        ],
        "",
    );
    assert_eq!(play.code, 0, "{}", play.transcript());
    // Roots and Shoots' first turn, as the live game calls it, is one turn
    // where every seat places a bead and rolls a nutrient: turn 1, not four.
    let list = roots_in(&dir, &["replay", "r.jsonl", "--list"], "");
    assert_eq!(list.code, 0, "{}", list.transcript());
    let headings: Vec<&str> = list
        .stdout
        .lines()
        .filter(|l| l.starts_with("turn "))
        .collect();
    assert_eq!(
        &headings[..3],
        [
            "turn 1: the first turn (every seat)",
            "turn 2 (A greedy)",
            "turn 3 (B greedy)"
        ],
        "{}",
        list.stdout
    );
    let first: Vec<&str> = list
        .stdout
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("turn "))
        .collect();
    assert!(
        first.iter().any(|l| l.contains("B (greedy): place")),
        "{first:?}"
    );
    assert!(
        first.iter().any(|l| l.contains("B (greedy): spawn")),
        "{first:?}"
    );
    // The live game's board says "first turn" up to then, "round 1" after.
    let until = |turn: &str| {
        let r = roots_in(&dir, &["replay", "r.jsonl", "--until", turn], "");
        assert_eq!(r.code, 0, "{}", r.transcript());
        r.stdout
    };
    assert!(until("0").contains("; first turn"));
    assert!(until("turn:2").contains("; round 1"));
    // The view's event list has the same headings.
    let view = roots_in(&dir, &["view", "r.jsonl", "--output", "r.html"], "");
    assert_eq!(view.code, 0, "{}", view.transcript());
    let html = std::fs::read_to_string(dir.join("r.html")).expect("the page");
    assert!(
        html.contains("<li class=\"turn\">turn 1: the first turn (every seat)</li>")
            && html.contains("<li class=\"turn\">turn 2 (A greedy)</li>"),
        "the view's headings differ from replay's"
    );

    // Sprout-R-Out numbers its turns itself ("(turn 2)"): the same numbers.
    let play = roots_in(
        &dir,
        &[
            "play",
            "sprout-r-out",
            "--players",
            "greedy,greedy",
            "--seed",
            "3",
            "--record",
            "s.jsonl",
        ],
        "",
    );
    assert_eq!(play.code, 0, "{}", play.transcript());
    for turn in [1, 2, 5, 10] {
        let r = roots_in(
            &dir,
            &[
                "replay",
                "s.jsonl",
                "--list",
                "--until",
                &format!("turn:{turn}"),
            ],
            "",
        );
        assert_eq!(r.code, 0, "{}", r.transcript());
        let last = r
            .stdout
            .lines()
            .rfind(|l| l.starts_with("turn "))
            .expect("a heading");
        assert!(last.starts_with(&format!("turn {turn} (")), "{last}");
        // After turn N-1, the game itself says turn N is next.
        if turn > 1 {
            let r = roots_in(
                &dir,
                &[
                    "replay",
                    "s.jsonl",
                    "--until",
                    &format!("turn:{}", turn - 1),
                ],
                "",
            );
            let next = r
                .stdout
                .lines()
                .find(|l| l.starts_with("next:"))
                .unwrap_or("");
            assert!(
                next.contains(&format!("(turn {turn})")),
                "before turn {turn}: {next}"
            );
        }
    }
}
