//! `roots compare` on matched games: the pairs are the unit of the
//! analysis (issue #49), identical rules are recognised and not played,
//! and parts of a sharded compare carry the pairs.

use crate::common;

use common::roots;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-paired-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn difference<'a>(report: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    report["differences"]
        .as_array()
        .expect("differences")
        .iter()
        .find(|d| d["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {report}"))
}

/// The case: 986 of 1,000 pairs are identical, so seat 1's share
/// is "the same within" its margin, from an interval far narrower than
/// the unpaired one (about ±6 points).
#[test]
fn more_beads_is_the_same_for_seat_1_from_the_pairs() {
    let run = roots(&[
        "compare",
        "standard",
        "more-beads",
        "-n",
        "1000",
        "--seed",
        "11",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["analysis"]["method"], "paired");
    assert_eq!(v["analysis"]["pairs"], 1000);
    assert_eq!(v["analysis"]["identical_pairs"], 986);
    let share = difference(&v, "first-player-advantage");
    assert_eq!(share["verdict"], "same", "{share}");
    let width = share["high"].as_f64().unwrap() - share["low"].as_f64().unwrap();
    assert!(width < 0.01, "{share}");
    // The design measures stay independent samples (a family of their own).
    let table = roots(&[
        "compare",
        "standard",
        "more-beads",
        "-n",
        "1000",
        "--seed",
        "11",
    ]);
    assert!(
        table.stdout.contains("986 of 1,000 pairs alike"),
        "{}",
        table.stdout
    );
}

/// The same rules under any name: not played, said at the top, exit 0,
/// and a field in JSON. A script is a rule: a variant that adds one is not
/// the same game.
#[test]
fn the_same_rules_are_recognised_and_not_played() {
    let dir = temp_dir("same");
    let copy = dir.join("copy.toml");
    std::fs::write(
        &copy,
        "extends = \"standard\"\nname = \"my-copy\"\ndescription = \"the standard rules, renamed\"\n",
    )
    .expect("write copy");
    let copy = copy.to_string_lossy().into_owned();
    for args in [
        vec!["compare", "standard", "standard"],
        vec![
            "compare",
            "standard",
            "standard",
            "--set",
            "nutrients.supply=40",
        ],
        vec!["compare", "standard", copy.as_str()],
    ] {
        let run = roots(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.transcript());
        assert!(
            run.stdout.contains("the same game: no rule differs"),
            "{args:?}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains("not decided"), "{}", run.stdout);
        assert!(!run.stderr.contains("seed"), "played: {}", run.stderr);
    }
    let json = roots(&["compare", "standard", "standard", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(json.json()["same_game"], true);
    // A house rule written as a script differs from its parent.
    let scripted = roots(&[
        "compare",
        "standard",
        "variants/reroll-ones.toml",
        "-n",
        "4",
        "--seed",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(scripted.code, 0, "{}", scripted.stderr);
    assert!(scripted.json().get("same_game").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--independent`: B plays its own seeds, so equal rules are played and
/// their games differ; the analysis is still of pairs (independent ones).
#[test]
fn independent_sides_play_the_same_rules_on_other_seeds() {
    let run = roots(&[
        "compare",
        "standard",
        "standard",
        "--independent",
        "-n",
        "40",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v = run.json();
    assert_eq!(v["analysis"]["independent_seeds"], true);
    assert_eq!(v["analysis"]["pairs"], 40);
    assert!(
        v["analysis"]["identical_pairs"].as_u64().unwrap() < 10,
        "{v}"
    );
    assert_ne!(v["a"]["seed"], v["b"]["seed"]);
}

/// A part of `compare --shard` carries the pairs; one without them (a part
/// of a version before paired analysis) is refused by name, not merged
/// into an unpaired report.
#[test]
fn a_compare_part_without_pairs_is_refused() {
    let dir = temp_dir("parts");
    let mut names = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let run = roots(&[
            "compare",
            "standard",
            "fewer-beads",
            "-n",
            "30",
            "--seed",
            "3",
            "--shard",
            &shard,
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut part: roots::sim::shard::Partial =
            serde_json::from_str(&run.stdout).expect("a part");
        assert_eq!(part.pairs.as_ref().map(|p| p.pairs), Some(15));
        if k == 2 {
            part.pairs = None;
        }
        let path = dir.join(format!("part-{k}.json"));
        std::fs::write(&path, part.to_text()).expect("write part");
        names.push(path.to_string_lossy().into_owned());
    }
    let merged = roots(&["merge", &names[0], &names[1]]);
    assert_eq!(merged.code, 1, "{}", merged.transcript());
    assert!(
        merged.stderr.contains("shard 2/2") && merged.stderr.contains("no paired sums"),
        "{}",
        merged.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
