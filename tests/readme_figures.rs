//! The README's stated facts checked against the program: the games table
//! (each game's title, author and year, and its built-in variants, as `roots
//! games --json` gives them) and the release binary's size range.

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

#[test]
fn a_release_binary_is_within_the_stated_size() {
    let text = readme();
    let (lo, hi) = stated_range(&text);
    assert!(
        text.contains(&format!(
            "between {} and {} MB, stripped",
            lo / 1_000_000,
            hi / 1_000_000
        )),
        "the README's two statements of the binary size must agree"
    );
    let release = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/roots");
    match std::fs::metadata(&release) {
        Ok(m) => assert!(
            (lo..=hi).contains(&m.len()),
            "target/release/roots is {} bytes; the README says {lo} to {hi}",
            m.len()
        ),
        Err(_) => eprintln!(
            "no release build at {}: only the range is checked",
            release.display()
        ),
    }
}
