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

#[test]
fn completions_know_every_bot() {
    let run = roots(&["completions", "bash"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.contains("greedy-v1"),
        "no greedy-v1 in the completions"
    );
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
        "d2\nd7\nquit\n",
    );
    assert!(
        run.stdout.contains("(your connectors: D1, D2)"),
        "{}",
        run.stdout
    );
}
