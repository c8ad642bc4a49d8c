//! `undo` at the prompt is fair and useful: a card or roll the program drew
//! is never drawn again; against a bot, the bot's reply goes back with the
//! person's move; a liberal reading that changes the typed words is said
//! before it is played. Also: a seat count that does not fit the variant,
//! and the legal list, counted and whole.

use crate::common;

use common::{roots_in, tmp_dir};

#[test]
fn a_card_the_program_drew_is_never_drawn_again() {
    let dir = tmp_dir("fair-undo", "rgr-card");
    // D2 is a face-down card next to seat 1's seed (D1): growing there draws it.
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
        "d2\nundo\nundo\nquit\n",
    );
    let out = run.stdout;
    assert!(out.contains("cannot undo:"), "{out}");
    assert!(out.contains("drew"), "{out}");
    assert!(
        !out.contains("undone:"),
        "a drawn card was taken back:\n{out}"
    );
    let record = std::fs::read_to_string(dir.join("g.jsonl")).expect("the record");
    assert!(!record.contains("\"undo\""), "{record}");
    // The refusal explains itself: whose move turned which card, why it
    // stands, why the person's move stands with it, and what undo can do.
    assert!(
        out.contains(
            "cannot undo: the reply `E21` of B (greedy) turned over a card the program drew: earth; a card once seen stays seen"
        ),
        "{out}"
    );
    assert!(
        out.contains("A person's move goes back only together with the bots' replies to it, so the move before it stands too"),
        "{out}"
    );
    assert!(
        out.contains("Undo takes back moves that turned over no card and rolled no die"),
        "{out}"
    );
}

#[test]
fn a_persons_own_card_is_said_to_stand_as_their_move() {
    let dir = tmp_dir("fair-undo", "rgr-own-card");
    // Two people: seat 1's grow to D2 turns a card; no bot replied.
    let run = roots_in(
        &dir,
        &[
            "play",
            "roots-growy-roots",
            "--players",
            "human,human",
            "--seed",
            "6",
            "--record",
            "g.jsonl",
        ],
        "d2\nundo\nquit\n",
    );
    let out = run.stdout;
    assert!(
        out.contains("cannot undo: the move `D2` of A turned over a card the program drew: earth"),
        "{out}"
    );
    assert!(!out.contains("replies"), "{out}");
}

#[test]
fn undo_takes_back_the_bots_reply_with_the_move() {
    let dir = tmp_dir("fair-undo", "btt-bot");
    // Seat 1 places the null; the bot answers with the root; one undo takes
    // back both, and seat 1 is asked for the null again.
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "human,greedy",
            "--seed",
            "1",
            "--record",
            "g.jsonl",
        ],
        "a1\nundo\nquit\n",
    );
    let out = run.stdout;
    assert_eq!(out.matches("undone:").count(), 2, "{out}");
    assert!(!out.contains("cannot undo"), "{out}");
    let record = std::fs::read_to_string(dir.join("g.jsonl")).expect("the record");
    assert_eq!(record.matches("\"undo\"").count(), 2, "{record}");
}

#[test]
fn only_bots_moved_so_nothing_of_a_person_is_taken_back() {
    let dir = tmp_dir("fair-undo", "btt-bot-first");
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "greedy,human",
            "--seed",
            "1",
            "--record",
            "g.jsonl",
        ],
        "undo\nquit\n",
    );
    assert!(
        run.stdout
            .contains("cannot undo: only bots have moved so far"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_liberal_reading_is_said_before_it_is_played() {
    let dir = tmp_dir("fair-undo", "btt-read-as");
    let run = roots_in(
        &dir,
        &[
            "play",
            "btt",
            "--players",
            "human,human",
            "--record",
            "g.jsonl",
        ],
        // Seat 1's null on a1, seat 2's root on b1, then a large pyramid on
        // c1 pointing west at the root, typed in words.
        "a1\nb1\nc1 3 west\nquit\n",
    );
    let out = run.stdout;
    assert!(out.contains("read as: c1 3 W"), "{out}");
    // `a1` at the null is read as `null a1`, and said so.
    assert!(out.contains("read as: null a1"), "{out}");
}

#[test]
fn the_legal_list_is_counted_and_whole_and_the_sprout_board_names_every_cell() {
    let dir = tmp_dir("fair-undo", "legal");
    let run = roots_in(
        &dir,
        &[
            "play",
            "sprout-r-out",
            "--players",
            "human,human",
            "--record",
            "g.jsonl",
        ],
        "legal\nquit\n",
    );
    let out = run.stdout;
    // The first placement of the game: every one of the 75 cells.
    let line = out
        .lines()
        .find(|l| l.starts_with("legal ("))
        .unwrap_or_else(|| panic!("no legal list:\n{out}"));
    assert!(line.starts_with("legal (75): "), "{line}");
    let cells: Vec<&str> = line["legal (75): ".len()..].split(", ").collect();
    assert_eq!(cells.len(), 75, "{line}");
    assert!(!line.contains("more"), "{line}");
    // The board drawn before the first move names each of them, empty.
    let board = &out[..out.find("legal (").expect("the list")];
    for cell in cells {
        assert!(
            board.contains(&format!("{cell}.")),
            "{cell} is not named on the board:\n{board}"
        );
    }
}

#[test]
fn a_wrong_seat_count_says_how_many_and_shows_a_line() {
    let dir = tmp_dir("fair-undo", "seats");
    let run = roots_in(&dir, &["play", "rgr-4p", "--players", "human,greedy"], "");
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr
            .contains("is for 4 players, and --players names 2 seats")
            && run.stderr.contains("--players human,greedy,greedy,greedy"),
        "{}",
        run.stderr
    );
}
