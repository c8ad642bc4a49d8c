//! The committed schemas match the types, one per game, and their defaults
//! are each game's standard rules.

use std::path::Path;

use roots::games::{Game, GameId};
use roots::variant::schema::{schema, schema_json};
use serde_json::Value;

fn stale(file: &str) -> String {
    format!(
        "schema/{file} is stale: run `UPDATE_SCHEMA=1 cargo test --test schema` \
         (or `cargo run -- schema --game GAME > schema/{file}`)"
    )
}

#[test]
fn committed_schema_is_up_to_date() {
    for &game in GameId::ALL {
        let file = game.schema_file();
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(&file);
        let fresh = schema_json(game);
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(&path, &fresh).expect("write the schema");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(committed == fresh, "{}", stale(&file));
    }
}

/// Check the defaults of every key of the table `values` against the schema
/// node `node` (a table whose definition is a `$ref`); nested tables too.
fn check_table(schema: &Value, node: &Value, values: &Value, at: &str, checked: &mut usize) {
    let Some(values) = values.as_object() else {
        return;
    };
    let def = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => schema
            .pointer(r.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{r} resolves")),
        None => node,
    };
    for (key, value) in values {
        let prop = &def["properties"][key];
        assert!(!prop.is_null(), "{at}{key} is in the schema");
        if value.is_object() {
            check_table(schema, prop, value, &format!("{at}{key}."), checked);
            continue;
        }
        assert_eq!(&prop["default"], value, "default of {at}{key}");
        assert!(
            prop["description"].as_str().is_some_and(|d| d.len() > 20),
            "{at}{key} needs a description"
        );
        *checked += 1;
    }
    // And the schema has no key the rules lack.
    let keys = def["properties"].as_object().map(|p| p.len()).unwrap_or(0);
    assert_eq!(keys, values.len(), "[{at}] keys");
}

fn defaults_are_standard<G: Game>() -> usize {
    let game = GameId::parse(G::ID).expect("a registered game");
    let schema = schema(game);
    let standard = serde_json::to_value(G::standard()).expect("serializable");
    let mut checked = 0;
    for (table, values) in standard.as_object().expect("an object") {
        if values.is_object() {
            check_table(
                &schema,
                &schema["properties"][table],
                values,
                &format!("{table}."),
                &mut checked,
            );
        }
    }
    checked
}

#[test]
fn schema_defaults_are_the_standard_values() {
    for &game in GameId::ALL {
        let checked = roots::with_game_id!(game, G => defaults_are_standard::<G>());
        assert!(checked >= 5, "{game}: only {checked} keys checked");
        if game == GameId::RootsAndShoots {
            assert!(checked >= 25, "only {checked} keys checked");
        }
    }
}

/// Whether a JSON null, or a `"type": "null"`, appears anywhere (the word
/// "null" may: it is one of Branches & Twigs & Thorns' pieces).
fn has_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(items) => items.iter().any(has_null),
        Value::Object(m) => {
            m.get("type").is_some_and(|t| {
                t == "null" || t.as_array().is_some_and(|a| a.iter().any(|x| x == "null"))
            }) || m.values().any(has_null)
        }
        _ => false,
    }
}

#[test]
fn schema_has_identity_and_no_nulls() {
    for &game in GameId::ALL {
        let schema = schema(game);
        assert!(schema["$id"].is_string());
        assert!(schema["title"].is_string());
        assert!(schema["description"].is_string());
        assert!(!has_null(&schema), "TOML has no null");
        // The game key is there, and names this game only.
        assert_eq!(schema["properties"]["game"]["const"], game.key());
    }
}
