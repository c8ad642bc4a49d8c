//! The shipped Sprout-R-Out variant files, the cross-key checks, and the
//! schema's hover text.

use std::path::Path;

use roots::games::sprout_r_out::{BoardShape, Groups, Rules, VariantFile, resolve};

fn read(name: &str) -> (String, VariantFile) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("variant file");
    let file = toml::from_str(&text).expect("variant TOML");
    (text, file)
}

#[test]
fn the_standard_file_has_every_key_and_reads_as_the_standard_rules() {
    let (text, file) = read("sprout-r-out.toml");
    assert!(text.starts_with("#:schema ../schema/sprout-r-out.schema.json\n"));
    assert_eq!(file.game.as_deref(), Some("sprout-r-out"));
    let b = file.board.clone().expect("[board]");
    assert!(b.shape.is_some() && b.groups.is_some());
    let r = file.rules.clone().expect("[rules]");
    let json = serde_json::to_value(&r).expect("json");
    for (k, v) in json.as_object().expect("object") {
        assert!(!v.is_null(), "rules.{k} missing from the standard file");
    }
    assert_eq!(resolve(&Rules::standard(), &file), Ok(Rules::standard()));
}

#[test]
fn the_ludii_file_extends_the_standard_one() {
    let (text, file) = read("sprout-r-out-ludii.toml");
    assert!(text.starts_with("#:schema ../schema/sprout-r-out.schema.json\n"));
    assert_eq!(file.extends.as_deref(), Some("sprout-r-out.toml"));
    assert_eq!(resolve(&Rules::standard(), &file), Ok(Rules::ludii()));
}

#[test]
fn cross_key_problems_are_all_reported_with_their_paths() {
    let file: VariantFile = toml::from_str(
        "game = \"branches\"\n[board]\nshape = \"limping-3\"\ngroups = \"edge-or-vertex\"\n",
    )
    .expect("parses");
    let problems = resolve(&Rules::standard(), &file).expect_err("two problems");
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["game", "board.groups"]);
    let ok: VariantFile =
        toml::from_str("[board]\nshape = \"cairo-1\"\ngroups = \"edge-or-vertex\"\n")
            .expect("parses");
    let r = resolve(&Rules::standard(), &ok).expect("diagonal groups on Cairo");
    assert_eq!(
        (r.board, r.groups),
        (BoardShape::Cairo1, Groups::EdgeOrVertex)
    );
}

#[test]
fn unknown_keys_and_values_are_refused() {
    assert!(toml::from_str::<VariantFile>("[rules]\nrepetiton = \"superko\"\n").is_err());
    assert!(toml::from_str::<VariantFile>("[rules]\ntie = \"coin-toss\"\n").is_err());
    assert!(toml::from_str::<VariantFile>("[board]\nshape = \"hex-11\"\n").is_err());
}

#[test]
fn every_schema_key_has_hover_text() {
    let schema = serde_json::to_value(schemars::schema_for!(VariantFile)).expect("schema");
    let mut missing = Vec::new();
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
    walk(&schema, "", &mut missing);
    assert!(
        missing.is_empty(),
        "keys without a description: {missing:?}"
    );
}
