//! Records: every seeded bot game, recorded, replays to the same position.

use std::path::PathBuf;
use std::sync::Arc;

use proptest::prelude::*;
use roots::bots::{BotSpec, Player};
use roots::core::dice::SeededDice;
use roots::games::Registered as _;
use roots::games::roots_and_shoots::Rules;
use roots::games::roots_and_shoots::{RootsAndShoots, State};
use roots::record::{self, DiceMode, Header, PartialTail, RecordWriter};
use roots::referee::Referee;

fn tmp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("records-lib");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn play_recorded(seed: u64, seats: u8, path: &std::path::Path) -> Referee<RootsAndShoots> {
    let rules = Arc::new(Rules::standard());
    let header = Header {
        variant: RootsAndShoots::wrap(Arc::new(Rules::standard())),
        seed: Some(seed),
        seed_game: 0,
        dice: DiceMode::Auto,
        players: vec!["random".to_string(); usize::from(seats)],
        created: record::utc_now().0,
    };
    let mut game = Referee::<RootsAndShoots>::new(rules, seats).expect("setup");
    game.record_to(RecordWriter::create(path, &header).expect("create record"));
    let mut dice = SeededDice::for_game(seed, 0);
    let mut players: Vec<Box<dyn Player<State>>> = (0..seats)
        .map(|s| {
            roots::bots::build::<RootsAndShoots>(BotSpec::Random, SeededDice::for_seat(seed, 0, s))
                as Box<dyn Player<State>>
        })
        .collect();
    game.run(&mut dice, &mut players).expect("bots finish");
    game
}

#[test]
fn two_hundred_bot_games_replay_identically() {
    for seed in 0..200u64 {
        let seats = 2 + (seed % 4) as u8;
        let path = tmp(&format!("rt-{seed}.jsonl"));
        let played = play_recorded(seed, seats, &path);
        let raw = record::reader::read_path(&path, PartialTail::Refuse).expect("read back");
        assert_eq!(raw.events.len() as u64, played.events(), "seed {seed}");
        let replayed = Referee::<RootsAndShoots>::replay(&raw, None).expect("replays");
        assert_eq!(
            replayed.state().draw(),
            played.state().draw(),
            "seed {seed}"
        );
        assert_eq!(replayed.outcome(), played.outcome(), "seed {seed}");
        assert!(replayed.outcome().is_some());
        assert_eq!(
            replayed.state().end_reason(),
            played.state().end_reason(),
            "seed {seed}"
        );
        std::fs::remove_file(&path).ok();
    }
}

#[test]
fn a_cut_record_resumes_from_its_last_whole_event() {
    let path = tmp("cut.jsonl");
    let played = play_recorded(7, 2, &path);
    // Its writer holds the record's lock: a game still writing it.
    let events = played.events();
    drop(played);
    let bytes = std::fs::read(&path).expect("read");
    // Cut in the middle of a line near the end.
    let cut = bytes.len() - 5;
    std::fs::write(&path, &bytes[..cut]).expect("write");
    let err = record::reader::read_path(&path, PartialTail::Refuse).unwrap_err();
    assert!(err.to_string().contains("truncated last line"), "{err}");
    let raw = record::reader::read_path(&path, PartialTail::Drop).expect("lenient read");
    assert_eq!(raw.warnings.len(), 1);
    assert_eq!(raw.events.len() as u64, events - 1);
    // Reopening cuts the partial line off; the file is whole again.
    let w = RecordWriter::resume(&path, raw.whole_len).expect("reopen");
    drop(w);
    let again = record::reader::read_path(&path, PartialTail::Refuse).expect("whole again");
    assert_eq!(again.events.len(), raw.events.len());
}

#[test]
fn limits_are_refused_quickly() {
    let line = format!("{}\n", "x".repeat(record::MAX_LINE_BYTES + 1));
    let err = record::reader::parse(line.as_bytes(), PartialTail::Refuse).unwrap_err();
    assert_eq!(err.line, Some(1));
    assert!(err.message.contains("at most 1 MiB"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_reader_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = record::reader::parse(&bytes, PartialTail::Refuse);
        let _ = record::reader::parse(&bytes, PartialTail::Drop);
    }

    #[test]
    fn the_reader_and_replay_never_panic_on_lines(
        lines in proptest::collection::vec(
            prop_oneof![
                Just(r#"{"roll":5}"#.to_string()),
                Just(r#"{"roll":0}"#.to_string()),
                Just(r#"{"roll":300,"die":"d8"}"#.to_string()),
                Just(r#"{"act":"place 9,8","seat":0}"#.to_string()),
                Just(r#"{"act":"grow buds","seat":1}"#.to_string()),
                Just(r#"{"act":"place 99,99","seat":7}"#.to_string()),
                Just(r#"{"act":"lose 1,1","seat":300}"#.to_string()),
                "[ -~]{0,40}",
                Just("{}".to_string()),
                Just("null".to_string()),
            ],
            0..40,
        ),
        seats in 0usize..10,
        truncate in any::<bool>(),
    ) {
        let header = Header {
            variant: RootsAndShoots::wrap(Arc::new(Rules::standard())),
            seed: Some(1),
            seed_game: 0,
            dice: DiceMode::Auto,
            players: vec!["random".to_string(); seats],
            created: String::new(),
        };
        let mut text = header.to_line();
        text.push('\n');
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
        if truncate {
            text.pop();
        }
        if let Ok(raw) = record::reader::parse(text.as_bytes(), PartialTail::Drop) {
            let _ = Referee::<RootsAndShoots>::replay(&raw, None);
        }
    }
}
