//! The starter variant file `roots new` writes: every table, every key
//! commented out with its inherited value, its meaning and its allowed
//! values, all taken from the schema (so the template cannot drift from it).

use super::diff::leaves;
use super::schema::{self, PathSeg, meaning};
use crate::games::AnyRules;

/// What the new file starts from.
#[derive(Clone, Debug)]
pub struct Starter<'a> {
    /// The variant's name (`name = ...`).
    pub name: &'a str,
    /// The value of `extends`: `standard` or a path relative to the new file.
    pub extends: &'a str,
    /// The resolved rules of that parent: the values shown in the comments
    /// (and the game of the new file).
    pub parent: &'a AnyRules,
    /// The first line's schema reference (`../schema/variant.schema.json`),
    /// or `None` when no schema file was found: the file then says how to get one.
    pub schema: Option<&'a str>,
}

const WIDTH: usize = 88;

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// `text` as `# ` comment lines of at most [`WIDTH`] characters.
fn comment(text: &str, out: &mut String) {
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > WIDTH && line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    if line.len() > 1 {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The text of a starter variant file.
pub fn starter(s: &Starter<'_>) -> String {
    let game = s.parent.game();
    let mut out = String::new();
    match s.schema {
        Some(path) => out.push_str(&format!("#:schema {path}\n")),
        None => {
            let file = game.schema_file();
            out.push_str(&format!("#:schema ./{file}\n"));
            out.push_str(&format!(
                "# For completion and checks in your editor, write the schema next to this file:\n\
                 #   {} > {file}\n",
                game.schema_command()
            ));
        }
    }
    let from = if s.extends == "standard" {
        "the standard rules".to_owned()
    } else {
        format!("\"{}\"", s.extends)
    };
    comment(
        &format!(
            "A {} variant: house rules on top of {from}. Every rule below is commented \
             out and shows the value it has there; to change one, remove the `#` in front of it and \
             edit the value. Keys left commented keep that value.",
            game.title()
        ),
        &mut out,
    );
    comment(
        &format!(
            "Check it with `roots validate {0}.toml`, read it as a rules sheet with `roots explain \
             {0}.toml`, and see what it changes with `roots diff {1} {0}.toml`.",
            s.name,
            if s.extends == "standard" {
                "standard"
            } else {
                s.extends
            }
        ),
        &mut out,
    );
    out.push('\n');
    // The game is named in every file, the default's too: a reader (and
    // an editor's schema) need not follow `extends` to know it.
    out.push_str(&format!("game = {}\n", toml_string(game.key())));
    out.push_str(&format!("extends = {}\n", toml_string(s.extends)));
    out.push_str(&format!("name = {}\n", toml_string(s.name)));
    out.push_str("description = \"What this variant changes, and why.\"\n");

    let root = schema::node_at(game, &[]);
    let shown = if s.extends == "standard" {
        "standard".to_owned()
    } else {
        format!("in {}", s.extends)
    };
    let mut table = String::new();
    let values = crate::with_game!(s.parent, G, r => leaves::<<G as crate::games::Game>::Rules>(r));
    for (key, value) in values {
        let Some((t, k)) = key.rsplit_once('.') else {
            continue;
        };
        if t != table {
            table = t.to_owned();
            out.push('\n');
            let path: Vec<PathSeg> = t.split('.').map(|p| PathSeg::Key(p.to_owned())).collect();
            if let Some(node) = schema::node_at(game, &path).filter(|_| root.is_some()) {
                comment(&meaning(node), &mut out);
            }
            out.push_str(&format!("[{t}]\n"));
        }
        let mut path: Vec<PathSeg> = t.split('.').map(|p| PathSeg::Key(p.to_owned())).collect();
        path.push(PathSeg::Key(k.to_owned()));
        let node = schema::node_at(game, &path);
        if let Some(node) = node {
            let text = meaning(node);
            if !text.is_empty() {
                comment(&text, &mut out);
            }
            comment(
                &format!("Allowed: {}.", schema::describe(game, node)),
                &mut out,
            );
        }
        out.push_str(&format!("# {k} = {value}    # {shown}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Registered;
    use crate::games::roots_and_shoots::{RootsAndShoots, Rules};

    #[test]
    fn the_starter_is_a_valid_variant_equal_to_its_parent() {
        let text = starter(&Starter {
            name: "mine",
            extends: "standard",
            parent: &RootsAndShoots::wrap(std::sync::Arc::new(Rules::standard())),
            schema: None,
        });
        let loaded = super::super::load_str("mine.toml", &text, None).expect("valid");
        let mut expected = Rules::standard();
        expected.name = "mine".into();
        expected.description = "What this variant changes, and why.".into();
        assert_eq!(
            loaded.rules,
            RootsAndShoots::wrap(std::sync::Arc::new(expected.clone()))
        );
        assert!(loaded.warnings.is_empty());
        // Every key is offered, commented out.
        for key in super::super::diff::keys(&Rules::standard()) {
            let k = key.split_once('.').map(|(_, k)| k).unwrap_or(&key);
            assert!(text.contains(&format!("\n# {k} = ")), "{key} missing");
        }
        // Uncommenting every key gives the parent's values again.
        let uncommented: String = text
            .lines()
            .map(|l| match l.strip_prefix("# ") {
                Some(rest) if rest.contains(" = ") && rest.contains("    # ") => {
                    rest.split("    # ").next().unwrap_or("").to_owned()
                }
                _ => l.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        let loaded = super::super::load_str("mine.toml", &uncommented, None).expect("valid");
        assert_eq!(
            loaded.rules,
            RootsAndShoots::wrap(std::sync::Arc::new(expected.clone()))
        );
    }
}
