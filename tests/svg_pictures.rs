//! The pictures of positions (`roots replay --until N --svg FILE`), one of
//! each game as SVG text, pinned by snapshots. Each was rendered to PNG and
//! looked at when accepted (rsvg-convert or headless Chromium).

use crate::common;

use common::roots;

/// The SVG of a seeded bot game of `variant` after `until` events.
fn picture(
    name: &str,
    variant: &str,
    players: &str,
    seed: &str,
    until: &str,
    set: &[&str],
) -> String {
    let dir = std::env::temp_dir().join(format!("roots-svg-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&record);
    let mut args = vec![
        "play",
        variant,
        "--players",
        players,
        "--seed",
        seed,
        "--record",
        record.to_str().unwrap(),
    ];
    for s in set {
        args.push("--set");
        args.push(s);
    }
    let r = roots(&args);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let file = dir.join("board.svg");
    let r = roots(&[
        "replay",
        record.to_str().unwrap(),
        "--until",
        until,
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.transcript());
    let svg = std::fs::read_to_string(&file).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    svg
}

#[test]
fn roots_and_shoots_board_with_beads_and_nutrient_stacks() {
    // Pre-rolled values: every stack shows its value.
    let svg = picture(
        "rs",
        "pre-rolled-values",
        "random,random,random",
        "5",
        "turn:40",
        &[],
    );
    assert!(svg.contains("nutrient pile"));
    // At a turn's start the last roll's beads are still outlined: the last
    // move (they were outlined only while their roll was played out).
    // (Three beads, and the ring of the key under the picture.)
    assert_eq!(svg.matches(r##"stroke="#e6a100""##).count(), 3 + 1);
    insta::assert_snapshot!(svg);
}

#[test]
fn roots_and_shoots_nutrients_marked_by_beads_show_a_rim_and_their_value() {
    let svg = picture("marked", "standard", "greedy,greedy", "1", "100", &[]);
    assert_eq!(svg.matches(r#"r="13.5""#).count(), 4, "four marked stacks");
    insta::assert_snapshot!(svg);
}

#[test]
fn branches_zone_board_with_pyramids_nulls_and_roots() {
    let svg = picture("btt", "btt", "random,random,random", "4", "30", &[]);
    assert!(svg.contains("stash"));
    insta::assert_snapshot!(svg);
}

#[test]
fn branches_rectangle_board() {
    let svg = picture("btt2", "btt", "random,random", "3", "turn:20", &[]);
    insta::assert_snapshot!(svg);
}

#[test]
fn sprout_r_out_cairo_pentagons_with_stones_and_territory() {
    let svg = picture(
        "cairo",
        "sprout-r-out",
        "random,random",
        "5",
        "40",
        &["board.shape=cairo-1"],
    );
    assert_eq!(
        svg.matches("<polygon").count(),
        48 + 1,
        "48 cells and the last move"
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn sprout_r_out_hexagons() {
    let svg = picture("hex", "sprout-r-out", "random,random", "3", "60", &[]);
    insta::assert_snapshot!(svg);
}

#[test]
fn roots_growy_roots_card_grid_with_sticks_bridges_and_the_last_move() {
    let svg = picture("rgr", "roots-growy-roots", "random,random", "3", "60", &[]);
    // Two bridges (D20-B20, G3-G5), each an arch of wood and a dashed
    // seat-coloured core.
    assert_eq!(svg.matches(r#"stroke-dasharray="5 4""#).count(), 2);
    assert_eq!(
        svg.matches("<path d=\"M ").count() - svg.matches(r##"fill="#2a6fb5""##).count(),
        4 + 1,
        "two arches of two paths each, and the key's bridge"
    );
    // The last grow (A's C1-B2) is outlined once, its stick drawn wide.
    assert_eq!(
        svg.matches(r##"stroke="#e6a100" stroke-width="3.5""##)
            .count(),
        1
    );
    assert_eq!(
        svg.matches(r##"stroke="#e6a100" stroke-width="13""##)
            .count(),
        1
    );
    // The face-up artifacts of the standard 2-player board.
    assert!(svg.contains(">skry</text>") && svg.contains(">jump</text>"));
    insta::assert_snapshot!(svg);
}

/// The artifact abilities (rgr-artifacts): a dried water card, the dry
/// outlined as the last move, used artifacts marked in the legend.
#[test]
fn roots_growy_roots_abilities_dried_water_and_used_artifacts() {
    // Seed 1 of greedy bots: event 130 is B's `dry E8`.
    let svg = picture(
        "rgr-abilities",
        "rgr-artifacts",
        "greedy,greedy",
        "1",
        "130",
        &[],
    );
    assert!(svg.contains(">dried</text>"), "the dried card");
    assert!(svg.contains("deny (used)") && svg.contains("dry (used)"));
    assert!(
        svg.contains("skry (ready), jump (ready), dry (used)"),
        "hands are listed with commas, each ready or used"
    );
    assert!(svg.contains("1 artifact face down"));
    assert!(
        svg.contains("rubble (a broken stone: earth)"),
        "the card key"
    );
    // The dry is the last move: its cell outlined, no stick drawn wide.
    assert_eq!(
        svg.matches(r##"stroke="#e6a100" stroke-width="3.5""##)
            .count(),
        1
    );
    assert_eq!(
        svg.matches(r##"stroke="#e6a100" stroke-width="13""##)
            .count(),
        0
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn until_takes_a_turn_and_list_numbers_the_events() {
    let dir = std::env::temp_dir().join(format!("roots-list-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.jsonl");
    let _ = std::fs::remove_file(&record);
    let r = roots(&[
        "play",
        "standard",
        "--players",
        "random,random",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0);
    let rec = record.to_str().unwrap();
    let list = roots(&["replay", rec, "--list", "--until", "turn:6"]);
    assert_eq!(list.code, 0, "{}", list.transcript());
    insta::assert_snapshot!(list.stdout);
    // turn:6 stops where event numbering says turn 6 ends.
    let by_turn = roots(&["replay", rec, "--until", "turn:6", "--format", "json"]);
    let last_event: u64 = list
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .next_back()
        .unwrap();
    assert_eq!(by_turn.json()["events"], last_event);
    let bad = roots(&["replay", rec, "--until", "turn:100000"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("turns"), "{}", bad.stderr);
    let bad = roots(&["replay", rec, "--until", "turn:x"]);
    assert_eq!(bad.code, 2);
    let _ = std::fs::remove_dir_all(&dir);
}
