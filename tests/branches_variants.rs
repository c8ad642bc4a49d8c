//! The BTT variant files and the cross-key checks of `resolve`.

use std::path::Path;

use roots::games::branches::file::complete;
use roots::games::branches::{BUILTINS, Rules, VariantFile, builtin, resolve};

fn variants_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

#[test]
fn every_btt_file_is_a_branches_variant_with_the_schema_line() {
    let mut seen = 0;
    for entry in std::fs::read_dir(variants_dir()).expect("variants/") {
        let path = entry.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("btt") || !name.ends_with(".toml") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).expect("readable");
        assert_eq!(
            text.lines().next(),
            Some("#:schema ../schema/branches.schema.json"),
            "{name}: first line"
        );
        let file: VariantFile = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.game.as_deref(), Some("branches"), "{name}");
        let stem = name.trim_end_matches(".toml");
        assert_eq!(
            file.name.as_deref(),
            Some(stem),
            "{name}: name is the file name"
        );
        assert!(
            BUILTINS.iter().any(|(n, t)| *n == stem && *t == text),
            "{name} is a built-in, embedded as is"
        );
        if stem == "btt" {
            assert_eq!(file.extends, None);
            assert_eq!(complete(&file), Ok(Rules::standard()));
        } else {
            assert_eq!(file.extends.as_deref(), Some("btt.toml"), "{name}");
            let rules = builtin(stem).expect("resolves");
            assert_ne!(rules, Rules::standard());
            // Only changed keys: dropping any rule table changes the result.
            let std = toml::Table::try_from(Rules::standard()).unwrap();
            let table: toml::Table = toml::from_str(&text).unwrap();
            for (k, v) in &table {
                if let Some(t) = v.as_table() {
                    for (key, val) in t {
                        assert_ne!(
                            std[k.as_str()][key.as_str()],
                            *val,
                            "{name}: {k}.{key} repeats the standard value"
                        );
                    }
                }
            }
        }
    }
    assert_eq!(seen, 4, "btt, martian-go, arcade, literal-wiki");
}

#[test]
fn the_standard_file_sets_every_key() {
    let text = std::fs::read_to_string(variants_dir().join("btt.toml")).unwrap();
    let mut file: VariantFile = toml::from_str(&text).unwrap();
    file.coins.as_mut().unwrap().reset = None;
    let problems = complete(&file).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].path, "coins.reset");
}

#[test]
fn cross_key_problems_are_reported_together() {
    let file: VariantFile = toml::from_str(
        r#"
        game = "sprout-r-out"
        [players]
        min = 5
        max = 3
        [pyramids]
        small = 0
        medium = 0
        large = 0
        [board]
        shape = "arcade"
        [setup]
        markers = "centre_roots"
        "#,
    )
    .unwrap();
    let problems = resolve(&Rules::standard(), &file).unwrap_err();
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        ["game", "players.min", "pyramids", "setup.markers"],
        "{problems:?}"
    );
    for p in &problems {
        assert!(!p.message.is_empty());
    }
}

#[test]
fn unknown_keys_are_refused() {
    let err = toml::from_str::<VariantFile>("[board]\nsize = 9\n").unwrap_err();
    assert!(err.to_string().contains("unknown field"), "{err}");
}

#[test]
fn centre_roots_on_rectangles_needs_at_most_four_players() {
    let file: VariantFile = toml::from_str(
        "[board]\nshape = \"rectangle\"\n[setup]\nmarkers = \"centre_roots\"\n[players]\nmax = 4\n",
    )
    .unwrap();
    assert!(resolve(&Rules::standard(), &file).is_ok());
    let file: VariantFile =
        toml::from_str("[board]\nshape = \"rectangle\"\n[setup]\nmarkers = \"centre_roots\"\n")
            .unwrap();
    let problems = resolve(&Rules::standard(), &file).unwrap_err();
    assert_eq!(problems[0].path, "setup.markers");
}

#[test]
fn the_schema_describes_every_key() {
    let schema = serde_json::to_value(schemars::schema_for!(VariantFile)).unwrap();
    fn walk(v: &serde_json::Value, path: &str, missing: &mut Vec<String>) {
        if let Some(props) = v.get("properties").and_then(|p| p.as_object()) {
            for (k, p) in props {
                if p.get("description").is_none() {
                    missing.push(format!("{path}{k}"));
                }
            }
        }
        if let Some(defs) = v.get("$defs").and_then(|d| d.as_object()) {
            for (k, d) in defs {
                walk(d, &format!("{k}."), missing);
            }
        }
    }
    let mut missing = Vec::new();
    walk(&schema, "", &mut missing);
    assert!(
        missing.is_empty(),
        "keys without a description: {missing:?}"
    );
    let text = schema.to_string();
    assert!(text.contains("\"maximum\":15"), "ranges are in the schema");
}
