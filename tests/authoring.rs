//! Authoring variants without reading Rust: `roots explain`, `roots diff`,
//! `roots new`, `--set`, shell completions and the manual page.

use crate::common;

use common::{relative, roots};

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("roots-{tag}-{}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn explain_every_shipped_variant() {
    let mut seen = 0;
    insta::glob!("../variants", "*.toml", |path| {
        seen += 1;
        let file = relative(path);
        let run = roots(&["explain", &file]);
        assert_eq!(run.code, 0, "{file}:\n{}", run.transcript());
        assert!(run.stderr.is_empty(), "{file}:\n{}", run.stderr);
        insta::assert_snapshot!(run.stdout);
    });
    assert!(seen >= 7);
}

#[test]
fn diff_each_house_rule_against_standard() {
    let mut seen = 0;
    insta::glob!("../variants", "*.toml", |path| {
        let file = relative(path);
        // Each game's house rules against that game's standard variant.
        let game = roots::variant::load_file(&file)
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .rules
            .game();
        let base = game.builtins()[0].0;
        if file.ends_with(&format!("/{base}.toml")) {
            return;
        }
        seen += 1;
        let run = roots(&["diff", base, &file]);
        // 1: the variants differ (as diff(1)).
        assert_eq!(run.code, 1, "{file}:\n{}", run.transcript());
        assert!(run.stdout.contains(" → "), "{file}:\n{}", run.stdout);
        insta::assert_snapshot!(run.transcript());
    });
    assert!(seen >= 6);
}

#[test]
fn diff_of_two_games_is_refused() {
    let run = roots(&["diff", "standard", "btt"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(
        run.stderr.contains("two variants of one game"),
        "{}",
        run.stderr
    );
}

#[test]
fn diff_of_equal_variants_says_so() {
    let run = roots(&["diff", "standard", "variants/standard.toml"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains("no differences"), "{}", run.stdout);
}

#[test]
fn diff_with_set_and_bad_variant() {
    let run = roots(&[
        "diff",
        "standard",
        "standard",
        "--set",
        "growth.simple_growth=off",
        "--set",
        "rain.rolls=[growth]",
    ]);
    assert_eq!(run.code, 1, "they differ: {}", run.transcript());
    insta::assert_snapshot!(run.transcript());
    // An invalid variant is trouble, 2 (1 says "they differ").
    let run = roots(&["diff", "standard", "tests/variants/bad/negative.toml"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let run = roots(&["diff", "standard", "no-such-file.toml"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
}

#[test]
fn explain_marks_set_rules_as_house_rules() {
    let run = roots(&[
        "explain",
        "--set",
        "growth.simple_growth=off",
        "--set",
        "severing.per_turn=0",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    for part in [
        "Simple growth is not part of this variant **(house rule)**",
        "Severing is not part of this variant **(house rule)**",
        "- `growth.simple_growth`: \"d8\" → \"off\"",
    ] {
        assert!(run.stdout.contains(part), "no `{part}` in:\n{}", run.stdout);
    }
}

#[test]
fn new_writes_a_starter_that_validates() {
    let dir = temp_dir("new");
    let d = dir.to_str().expect("utf-8");
    let run = roots(&["new", "mine", "--dir", d]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains("roots validate"), "{}", run.stdout);
    assert!(run.stdout.contains("roots explain"), "{}", run.stdout);
    assert!(run.stdout.contains("roots diff standard"), "{}", run.stdout);
    let file = dir.join("mine.toml");
    let text = std::fs::read_to_string(&file).expect("written");
    assert!(text.starts_with("#:schema "), "{text}");
    assert!(
        text.contains("roots schema > variant.schema.json"),
        "{text}"
    );
    assert!(text.contains("extends = \"standard\""));
    assert!(text.contains("# supply = 60"));
    let f = file.to_str().expect("utf-8");
    let run = roots(&["validate", "--format", "plain", f]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(!run.stdout.contains("warning"), "{}", run.stdout);
    let run = roots(&["diff", "standard", f]);
    assert!(run.stdout.contains("no differences"), "{}", run.stdout);

    // Refuses to overwrite, unless forced.
    let run = roots(&["new", "mine", "--dir", d]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stderr.contains("already exists"), "{}", run.stderr);
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    let run = roots(&["new", "mine.toml", "--dir", d, "--force"]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    // Extending a file: the path is relative to the new file, the values
    // shown are the parent's.
    let parent = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/fewer-beads.toml");
    let run = roots(&[
        "new",
        "quick",
        "--dir",
        d,
        "--extends",
        parent.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    let quick = dir.join("quick.toml");
    let text = std::fs::read_to_string(&quick).expect("written");
    assert!(text.contains("fewer-beads.toml\"\n"), "{text}");
    assert!(text.contains("# supply = 35"), "{text}");
    let run = roots(&["validate", quick.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{}", run.transcript());

    // Bad names and a bad parent.
    let run = roots(&["new", "a/b", "--dir", d]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let run = roots(&["new", "x", "--dir", d, "--extends", "nowhere.toml"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    let run = roots(&["new", "x", "--dir", d, "--extends", "standart"]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(!dir.join("x.toml").exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn new_inside_the_repository_points_at_the_schema_file() {
    // A directory two levels down (not variants/ itself: other tests read
    // every file there).
    let rel = format!("target/roots-new-{}", std::process::id());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&rel);
    std::fs::create_dir_all(&dir).expect("dir");
    let run = roots(&["new", "house", "--dir", &rel]);
    let text = std::fs::read_to_string(dir.join("house.toml")).unwrap_or_default();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        text.starts_with("#:schema ../../schema/variant.schema.json\n"),
        "{text}"
    );
}

#[test]
fn set_changes_a_rule_without_a_file() {
    let run = roots(&[
        "show",
        "--set",
        "beads.supply=35",
        "--set",
        "nutrients.value_rolled=on_spawn",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains("supply = 35"), "{}", run.stdout);
    assert!(run.stdout.contains("value_rolled = \"on_spawn\""));
    assert!(
        run.stdout
            .contains("resolved from: --set beads.supply=35 -> --set nutrients.value_rolled=on_spawn -> <built-in standard>")
    );

    let run = roots(&[
        "validate",
        "variants/fewer-beads.toml",
        "--set",
        "rain.rolls=[]",
        "--set",
        "end.final_scoring=true",
    ]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout
            .contains("ok: variants/fewer-beads.toml with --set")
    );
}

#[test]
fn set_errors_name_the_option() {
    let cases: &[(&str, &[&str])] = &[
        ("bad-type", &["show", "--set", "beads.supply=abc"]),
        ("out-of-range", &["show", "--set", "beads.supply=5000"]),
        ("unknown-key", &["show", "--set", "beads.suply=30"]),
        ("unknown-table", &["show", "--set", "bead.supply=30"]),
        (
            "bad-word",
            &["show", "--set", "nutrients.value_rolled=on_spwn"],
        ),
        ("missing-equals", &["show", "--set", "beads.supply"]),
        ("table-name", &["show", "--set", "beads=30"]),
        ("extends", &["show", "--set", "extends=standard"]),
        (
            "cross-key",
            &[
                "validate",
                "--format",
                "plain",
                "variants/fewer-beads.toml",
                "--set",
                "beads.store=50",
            ],
        ),
        (
            "play",
            &[
                "play",
                "--players",
                "random,random",
                "--set",
                "players.max=1",
            ],
        ),
    ];
    for (name, args) in cases {
        let run = roots(args);
        assert_ne!(run.code, 0, "{name}: {}", run.transcript());
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(all.contains("--set"), "{name}: {}", run.transcript());
        insta::assert_snapshot!(format!("set_error_{name}"), run.transcript());
    }
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let run = roots(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.transcript());
        for sub in ["validate", "explain", "diff", "new"] {
            assert!(run.stdout.contains(sub), "{shell} completes no {sub}");
        }
    }
    let run = roots(&["completions", "tcsh"]);
    assert_eq!(run.code, 2);
    let run = roots(&["man"]);
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(
        run.stdout.starts_with(".ie") || run.stdout.contains(".TH"),
        "{}",
        &run.stdout[..200.min(run.stdout.len())]
    );
    for sub in ["validate", "explain", "diff", "new", "completions"] {
        assert!(run.stdout.contains(sub), "man page lacks {sub}");
    }
}
