//! The committed schema matches the types, and its defaults are the standard rules.

use std::path::Path;

const STALE: &str = "schema/variant.schema.json is stale: run `UPDATE_SCHEMA=1 cargo test --test schema` \
                     (or `cargo run -- schema > schema/variant.schema.json`)";

#[test]
fn committed_schema_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/variant.schema.json");
    let fresh = roots::variant::schema::schema_json();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &fresh).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "{STALE}");
}

#[test]
fn schema_defaults_are_the_standard_values() {
    let schema = roots::variant::schema::schema();
    let standard = serde_json::to_value(roots::variant::Rules::standard()).expect("serializable");
    let tables = standard.as_object().expect("an object");
    let mut checked = 0;
    for (table, values) in tables {
        let Some(values) = values.as_object() else {
            continue;
        };
        let def_ref = schema["properties"][table]["$ref"]
            .as_str()
            .unwrap_or_else(|| panic!("[{table}] is in the schema"));
        let def = schema
            .pointer(def_ref.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{def_ref} resolves"));
        for (key, value) in values {
            let prop = &def["properties"][key];
            assert_eq!(&prop["default"], value, "default of {table}.{key}");
            assert!(
                prop["description"].as_str().is_some_and(|d| d.len() > 20),
                "{table}.{key} needs a description"
            );
            checked += 1;
        }
        // And the schema has no key the rules lack.
        let keys = def["properties"].as_object().map(|p| p.len()).unwrap_or(0);
        assert_eq!(keys, values.len(), "[{table}] keys");
    }
    assert!(checked >= 25, "only {checked} keys checked");
}

#[test]
fn schema_has_identity_and_no_nulls() {
    let schema = roots::variant::schema::schema();
    assert!(schema["$id"].is_string());
    assert!(schema["title"].is_string());
    assert!(schema["description"].is_string());
    assert!(
        !roots::variant::schema::schema_json().contains("null"),
        "TOML has no null"
    );
}
