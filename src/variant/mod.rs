//! Variants: the house rules of any game of the toolkit, as files and as
//! checked rules.
//!
//! The pipeline, for each file of an `extends` chain: read (at most
//! [`MAX_FILE_BYTES`], UTF-8) -> parse TOML with spans -> the chain's game
//! (the `game` key, Roots and Shoots when no file says) -> check against
//! that game's generated JSON schema ([`schema::schema`]). Then the chain is
//! merged child over parent, key by key, on top of the game's standard
//! variant, and the keys are checked together ([`crate::games::Game::check`]).
//! Every problem is a [`Diagnostic`] with its place in the file that caused
//! it.
//!
//! The merge works on the JSON form of each file, so another layer (a
//! `--set key.path=value` override, say) can later be put on top of the chain
//! before the checks run.

pub use crate::core::diagnostic;
pub mod diff;
pub mod explain;
pub(crate) mod load;
pub mod overrides;
pub mod resolve;
pub mod schema;
pub(crate) mod scripts;
pub mod smoke;
pub mod template;

pub use crate::core::diagnostic::{
    Checker, Code, Diagnostic, Diagnostics, Severity, Sources, Style, render,
};
pub use diff::{Change, diff};
pub use load::{MAX_DIAGNOSTICS, MAX_ENTRIES, MAX_FILE_BYTES};
pub use overrides::Override;
pub use resolve::{
    Loaded, MAX_CHAIN, STDIN_ARG, STDIN_DISPLAY, builtin_names, is_builtin_name, load, load_file,
    load_file_with, load_stdin_with, load_str, load_with, resolve_builtin,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roots_and_shoots::Rules;

    /// The Roots and Shoots rules of a loaded variant.
    fn rs(loaded: &Loaded) -> Rules {
        loaded
            .rules
            .roots_and_shoots()
            .expect("a Roots and Shoots variant")
            .clone()
    }

    fn manifest(path: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    #[test]
    fn standard_equals_the_standard_file_through_the_whole_pipeline() {
        let loaded = load_file(manifest("variants/standard.toml")).expect("standard.toml is valid");
        assert_eq!(rs(&loaded), Rules::standard());
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        let builtin = resolve_builtin("standard").expect("the built-in is valid");
        assert_eq!(rs(&builtin), Rules::standard());
        assert_eq!(builtin.chain, vec!["<built-in standard>".to_owned()]);
    }

    #[test]
    fn a_child_keeps_the_parent_keys_it_does_not_set() {
        let text = "extends = \"standard\"\n[beads]\nsupply = 90\n";
        let loaded = load_str("longer.toml", text, None).expect("valid");
        assert_eq!(rs(&loaded).beads.supply, 90);
        assert_eq!(rs(&loaded).beads.store, 6);
        assert_eq!(rs(&loaded).name, "longer");
        assert_eq!(
            loaded.chain,
            vec!["longer.toml".to_owned(), "<built-in standard>".to_owned()]
        );
    }

    #[test]
    fn a_grandchild_overrides_key_by_key() {
        let dir = std::env::temp_dir().join(format!("roots-chain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("parent.toml"),
            "[beads]\nstore = 8\nsupply = 80\n[players]\nmax = 4\n",
        )
        .expect("write");
        std::fs::write(
            dir.join("child.toml"),
            "extends = \"parent.toml\"\nname = \"kid\"\n[beads]\nsupply = 30\n",
        )
        .expect("write");
        let loaded = load_file(dir.join("child.toml"));
        std::fs::remove_dir_all(&dir).ok();
        let loaded = loaded.expect("valid chain");
        assert_eq!(rs(&loaded).name, "kid");
        assert_eq!(rs(&loaded).beads.supply, 30);
        assert_eq!(rs(&loaded).beads.store, 8);
        assert_eq!(rs(&loaded).players.max, 4);
        assert_eq!(rs(&loaded).players.min, 2);
        assert_eq!(loaded.chain.len(), 2);
    }

    #[test]
    fn an_empty_file_is_the_standard_game_named_after_the_file() {
        let loaded = load_str("plain.toml", "", None).expect("valid");
        let mut expected = Rules::standard();
        expected.name = "plain".into();
        expected.description = String::new();
        assert_eq!(rs(&loaded), expected);
    }

    #[test]
    fn errors_are_all_reported() {
        let text = "[board]\nsize = 18\n[beads]\nsuply = 3\nstore = -1\n";
        let err = load_str("bad.toml", text, None).expect_err("invalid");
        let keys: Vec<_> = err
            .items
            .iter()
            .map(|d| d.key_path.clone().unwrap_or_default())
            .collect();
        assert_eq!(keys, vec!["board.size", "beads.suply", "beads.store"]);
        assert!(err.items.iter().all(Diagnostic::is_error));
        assert_eq!(err.items[1].help.as_deref(), Some("did you mean `supply`?"));
    }

    #[test]
    fn files_over_the_size_limit_are_refused() {
        let text = "#".repeat(MAX_FILE_BYTES as usize + 1);
        let err = load_str("huge.toml", &text, None).expect_err("too large");
        assert_eq!(err.items[0].code, Code::TooLarge);
    }

    #[test]
    fn cross_field_conflicts_point_at_the_key() {
        let text = "[players]\nmin = 7\nmax = 3\n";
        let err = load_str("p.toml", text, None).expect_err("min > max");
        assert_eq!(err.items.len(), 1);
        assert_eq!(err.items[0].code, Code::Conflict);
        assert_eq!((err.items[0].line, err.items[0].col), (Some(2), Some(7)));
    }

    #[test]
    fn unknown_builtins_and_deep_chains_are_errors() {
        let err =
            load_str("x.toml", "extends = \"standart\"\n", None).expect_err("no such built-in");
        assert_eq!(err.items[0].code, Code::Extends);
        assert!(
            err.items[0]
                .help
                .as_deref()
                .unwrap_or("")
                .contains("\"standard\"")
        );

        let dir = std::env::temp_dir().join(format!("roots-deep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for i in 0..20 {
            std::fs::write(
                dir.join(format!("v{i}.toml")),
                format!("extends = \"v{}.toml\"\n", i + 1),
            )
            .expect("write");
        }
        std::fs::write(dir.join("v20.toml"), "").expect("write");
        let result = load_file(dir.join("v0.toml"));
        std::fs::remove_dir_all(&dir).ok();
        let err = result.expect_err("too deep");
        assert_eq!(err.items[0].code, Code::Extends);
        assert!(
            err.items[0].message.contains("longer than 16"),
            "{}",
            err.items[0].message
        );
    }
}
