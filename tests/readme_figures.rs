//! The README's stated facts checked against the program: the games table
//! (each game's title, author and year, and its built-in variants, as `roots
//! games --json` gives them) and the release binary's stated size range (measured by
//! `scripts/binary-size.sh`).

use crate::common;

use std::path::Path;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable")
}

#[test]
fn the_games_table_agrees_with_roots_games() {
    let text = readme();
    let games = common::roots(&["games", "--json"]).json();
    let games = games.as_array().expect("a list of games");
    assert_eq!(games.len(), 4);
    for g in games {
        let title = g["title"].as_str().expect("title");
        let by = g["by"].as_str().expect("by");
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| **{title}**")))
            .unwrap_or_else(|| panic!("no row for {title} in the README's games table"));
        assert!(
            row.starts_with(&format!("| **{title}** ({by}) |")),
            "the README says {row:?}, the program says \"{title} ({by})\""
        );
        let variants: Vec<&str> = g["variants"]
            .as_array()
            .expect("variants")
            .iter()
            .map(|v| v.as_str().expect("a name"))
            .collect();
        let cell = row.split(" | ").nth(2).expect("a variants column");
        let listed: Vec<&str> = cell.split(", ").map(|v| v.trim_matches('`')).collect();
        assert_eq!(listed, variants, "{title}: the README's built-in variants");
    }
}

/// `between A and B MB` in the README, as bytes.
fn stated_range(text: &str) -> (u64, u64) {
    let at = text
        .find("binary (between ")
        .expect("the README states the binary's size as a range");
    let words: Vec<&str> = text[at..].split_whitespace().take(6).collect();
    // ["binary", "(between", "12", "and", "18", "MB:"]
    let lo: u64 = words[2].parse().expect("a whole number of MB");
    let hi: u64 = words[4].parse().expect("a whole number of MB");
    assert!(words[5].starts_with("MB"), "{words:?}");
    assert!(lo < hi);
    (lo * 1_000_000, hi * 1_000_000)
}

/// The size is measured, not tested: `cargo test` builds no release
/// binary, so a test of one would check a stale build or none (it used to
/// pass silently without one). `scripts/binary-size.sh` builds it and
/// checks the range; this test holds the README to naming that script and
/// to stating one range.
#[test]
fn the_binary_size_is_a_range_measured_by_the_script() {
    let text = readme();
    let (lo, hi) = stated_range(&text);
    // Prose is rewrapped freely: compare the words, not the line breaks.
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!(
            "between {} and {} MB, stripped",
            lo / 1_000_000,
            hi / 1_000_000
        )),
        "the README's two statements of the binary size must agree"
    );
    assert!(
        text.contains("`scripts/binary-size.sh`"),
        "the README says how the size is measured"
    );
    let script = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/binary-size.sh"),
    )
    .expect("scripts/binary-size.sh is readable");
    // The script reads the same words this test does.
    assert!(script.contains("binary (between [0-9]* and [0-9]* MB"));
    assert!(script.contains("cargo build --release"));
}
