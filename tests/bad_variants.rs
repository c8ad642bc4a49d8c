//! Every file in `tests/variants/bad/` holds one mistake (or, for
//! `many-errors.toml`, several): `roots validate` must reject it with exit 1
//! and explain it. The explanation of each is snapshot-tested.

use crate::common;

use common::{relative, roots};

#[test]
fn each_bad_file_is_rejected_with_a_clear_diagnostic() {
    let mut seen = 0;
    insta::glob!("variants/bad/*.toml", |path| {
        seen += 1;
        let file = relative(path);
        let run = roots(&["validate", "--format", "plain", &file]);
        assert_eq!(run.code, 1, "{file} must be invalid:\n{}", run.transcript());
        assert!(
            run.stdout.contains(": error: "),
            "{file} must report an error:\n{}",
            run.stdout
        );
        insta::assert_snapshot!(run.transcript());
    });
    assert!(seen >= 25, "the corpus has only {seen} files");
}

#[test]
fn many_errors_in_one_file_are_all_reported() {
    let run = roots(&[
        "validate",
        "--format",
        "plain",
        "tests/variants/bad/many-errors.toml",
    ]);
    let errors = run.stdout.matches(": error: ").count();
    assert_eq!(errors, 6, "{}", run.stdout);
    for key in [
        "name",
        "board.size",
        "beads.store",
        "suply",
        "growth.buds",
        "end.max_rounds",
    ] {
        assert!(
            run.stdout.contains(&format!("`{key}`")),
            "no error about {key}:\n{}",
            run.stdout
        );
    }
}

#[test]
fn json_format_lists_every_diagnostic() {
    let run = roots(&[
        "validate",
        "--format",
        "json",
        "tests/variants/bad/many-errors.toml",
    ]);
    assert_eq!(run.code, 1);
    let parsed = run.json();
    assert_eq!(parsed.as_array().map(Vec::len), Some(6));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn snippet_format_points_a_caret_at_the_fault() {
    let run = roots(&[
        "validate",
        "--format",
        "snippet",
        "--color",
        "never",
        "tests/variants/bad/misspelt-key.toml",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        !run.stdout.contains('\u{1b}'),
        "no colour codes with --color never"
    );
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn a_missing_file_is_exit_2_and_a_bad_one_among_good_is_exit_1() {
    let run = roots(&["validate", "tests/variants/bad/does-not-exist.toml"]);
    assert_eq!(run.code, 2, "{}", run.transcript());
    assert!(run.stdout.contains("no such file"), "{}", run.stdout);

    let run = roots(&[
        "validate",
        "variants/standard.toml",
        "tests/variants/bad/negative.toml",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stdout.contains("ok: variants/standard.toml"));

    let run = roots(&["validate"]);
    assert_eq!(run.code, 2, "no file is a usage error");
}

#[test]
fn a_file_over_one_mebibyte_is_refused_quickly() {
    let dir = std::env::temp_dir().join(format!("roots-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("huge.toml");
    let line = "# padding padding padding padding padding padding padding padding\n";
    std::fs::write(&file, line.repeat(2 * 1024 * 1024 / line.len())).expect("write");
    let started = std::time::Instant::now();
    let run = roots(&[
        "validate",
        "--format",
        "plain",
        file.to_str().expect("utf-8 path"),
    ]);
    let elapsed = started.elapsed();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert!(run.stdout.contains("larger than 1 MiB"), "{}", run.stdout);
    assert!(elapsed < common::HANG, "took {elapsed:?}");
}

/// A broken `extends` is reported together with the file's own mistakes,
/// and the count says so (it used to be reported alone, as "1 error",
/// until the others were fixed).
#[test]
fn a_missing_parent_and_local_errors_are_reported_at_once() {
    let run = roots(&[
        "validate",
        "--format",
        "plain",
        "tests/variants/bad/extends-missing-with-local-errors.toml",
    ]);
    assert_eq!(run.code, 1, "{}", run.transcript());
    assert_eq!(run.stdout.matches(": error: ").count(), 3, "{}", run.stdout);
    for what in ["`extends`", "suply", "`board.size`"] {
        assert!(
            run.stdout.contains(what),
            "no error about {what}:\n{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("(3 errors)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("extends = \"standard\""),
        "the hint names the built-in:\n{}",
        run.stdout
    );

    // The missing parent's name says the game of a file without `game`.
    let run = roots(&[
        "validate",
        "--format",
        "plain",
        "tests/variants/bad/extends-missing-btt-with-local-error.toml",
    ]);
    assert_eq!(run.stdout.matches(": error: ").count(), 2, "{}", run.stdout);
    assert!(
        run.stdout.contains("did you mean `small`"),
        "{}",
        run.stdout
    );
}
