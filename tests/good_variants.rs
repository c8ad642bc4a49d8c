//! The variant files shipped in `variants/`, `roots show`, and warnings.

use crate::common;

use common::{relative, roots};

#[test]
fn every_shipped_variant_is_valid_without_warnings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("variants/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| relative(&p))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    for file in &files {
        let run = roots(&["validate", "--format", "plain", file]);
        assert_eq!(run.code, 0, "{file}:\n{}", run.transcript());
        assert!(!run.stdout.contains("warning"), "{file}:\n{}", run.stdout);
        let text = std::fs::read_to_string(file).expect("readable");
        let game = roots::variant::load_file(file)
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .rules
            .game();
        // Its game's schema, and its game's standard variant as the parent.
        let schema = format!("#:schema ../schema/{}\n", game.schema_file());
        assert!(
            text.starts_with(&schema),
            "{file} must start with the #:schema line of its game: {schema}"
        );
        let standard = game.builtins()[0].0;
        if !file.ends_with(&format!("/{standard}.toml")) {
            assert!(
                text.contains(&format!("extends = \"{standard}.toml\"")),
                "{file} must extend {standard}.toml"
            );
        }
    }
}

#[test]
fn show_prints_the_standard_rules() {
    let run = roots(&["show"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    insta::assert_snapshot!(run.transcript());
    // What `show` prints is itself a valid, complete variant file.
    let body: String = run
        .stdout
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let loaded = roots::variant::load_str("shown.toml", &body, None)
        .expect("show output is a valid variant");
    assert_eq!(
        loaded.rules.roots_and_shoots(),
        Some(&roots::games::roots_and_shoots::Rules::standard())
    );
}

#[test]
fn show_merges_a_house_rule_over_its_parent() {
    let run = roots(&["show", "variants/fewer-beads.toml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("variants/fewer-beads.toml -> variants/standard.toml"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("[beads]\nstore = 6\nsupply = 35\n"),
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn show_of_an_invalid_variant_prints_diagnostics_and_fails() {
    let run = roots(&[
        "show",
        "--format",
        "plain",
        "tests/variants/bad/store-over-supply.toml",
    ]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr
            .contains("error: `beads.store` (50) is larger than `beads.supply` (20)"),
        "{}",
        run.stderr
    );
    let run = roots(&["show", "no-such-variant"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stderr.contains("no built-in variant"), "{}", run.stderr);
}

#[test]
fn warnings_are_shown_but_the_file_is_valid() {
    let run = roots(&[
        "validate",
        "--format",
        "plain",
        "tests/variants/warn/short-game.toml",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert_eq!(
        run.stdout.matches(": warning: ").count(),
        // 3 from the checks, and one from the smoke simulation for each of
        // the 5 player counts: every game ends by the 10-round limit.
        8,
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(run.transcript());
}

#[test]
fn warnings_in_json() {
    let run = roots(&[
        "validate",
        "--format",
        "json",
        "tests/variants/warn/short-game.toml",
    ]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!(run.stdout);
}
