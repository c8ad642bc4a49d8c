//! Every rules sheet marks where it reads its game's rules text (issue 51):
//! each game's list of readings is the list of questions of its page in
//! `docs/` (so a reading cannot be added to one without the other), every
//! reading is marked in the sheet of at least one shipped variant, every
//! mark has its note, and the marks come through the Markdown of the rules
//! panel (`roots view`).

use std::collections::BTreeSet;
use std::path::Path;

use roots::games::Game;
use roots::games::branches::Branches;
use roots::games::roots_and_shoots::RootsAndShoots;
use roots::games::roots_growy_roots::RootsGrowyRoots;
use roots::games::sprout_r_out::SproutROut;

/// The question numbers of a page's tables, in order: the first cell of a
/// table row when it is letters then digits (`| Q1 |`, `| RS12 |`).
fn questions(page: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(page))
        .unwrap_or_else(|e| panic!("{page}: {e}"));
    text.lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split_once(" |").map(|(first, _)| first.trim()))
        .filter(|id| {
            let letters = id.chars().take_while(char::is_ascii_uppercase).count();
            letters > 0 && letters < id.len() && id[letters..].chars().all(|c| c.is_ascii_digit())
        })
        .map(str::to_owned)
        .collect()
}

/// The marks of a sheet (`[Q1]`), notes excluded.
fn marks(sheet: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in sheet.lines().filter(|l| !l.starts_with("- **[")) {
        let mut rest = line;
        while let Some(at) = rest.find('[') {
            rest = &rest[at + 1..];
            if let Some(end) = rest.find(']') {
                let id = &rest[..end];
                if !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()) {
                    found.insert(id.to_owned());
                }
            }
        }
    }
    found
}

fn readings_are_the_documented_questions<G: Game>(page: &str) {
    let list: Vec<String> = G::readings().iter().map(|r| r.id.to_owned()).collect();
    assert!(!list.is_empty(), "{}: no readings", G::TITLE);
    assert_eq!(
        list,
        questions(page),
        "{}: the sheet's readings and the questions of {page} differ",
        G::TITLE
    );
    for r in G::readings() {
        assert!(
            !r.ours.trim().is_empty() && !r.why.trim().is_empty(),
            "{}",
            r.id
        );
    }
    let mut marked = BTreeSet::new();
    for (name, _) in G::builtins() {
        let loaded = roots::variant::resolve_builtin(name).expect("a built-in");
        let sheet = roots::variant::explain::rules_sheet(&loaded.rules);
        let here = marks(&sheet);
        for id in &here {
            assert!(list.contains(id), "{name}: the mark [{id}] is no reading");
            assert!(
                sheet.contains(&format!("- **[{id}]** ")),
                "{name}: the mark [{id}] has no note"
            );
        }
        let notes = sheet.matches("\n- **[").count();
        assert_eq!(notes, here.len(), "{name}: a note without its mark");
        marked.extend(here);
    }
    let all: BTreeSet<String> = list.into_iter().collect();
    assert_eq!(
        marked,
        all,
        "{}: readings no shipped variant's sheet marks",
        G::TITLE
    );
}

#[test]
fn roots_and_shoots_readings_are_the_documented_questions() {
    readings_are_the_documented_questions::<RootsAndShoots>("docs/games/roots-and-shoots.md");
}

#[test]
fn branches_readings_are_the_documented_questions() {
    readings_are_the_documented_questions::<Branches>("docs/games/branches.md");
}

#[test]
fn sprout_readings_are_the_documented_questions() {
    readings_are_the_documented_questions::<SproutROut>("docs/games/sprout-r-out.md");
}

#[test]
fn rgr_readings_are_the_documented_questions() {
    readings_are_the_documented_questions::<RootsGrowyRoots>("docs/games/roots-growy-roots.md");
}

/// The Branches sheet's pot payment contradicts the text's wording: it is
/// marked, and the note quotes the text, gives the reason and names the
/// variant that plays the text.
#[test]
fn the_branches_pot_payment_is_marked_with_its_reason() {
    let loaded = roots::variant::resolve_builtin("btt").expect("a built-in");
    let sheet = roots::variant::explain::rules_sheet(&loaded.rules);
    assert!(sheet.contains("takes the **pointer's** size from the pot [Q1]"));
    let note = sheet
        .lines()
        .find(|l| l.starts_with("- **[Q1]**"))
        .expect("the note of Q1");
    for words in [
        "you must pay to your opponent",
        "Abstract Play",
        "`scoring.owner_paid_by`",
        "`btt-literal-wiki` plays the text as written",
    ] {
        assert!(note.contains(words), "{words} not in {note}");
    }
    // The stray last sentence is gone: the sheet's last section is the notes.
    assert!(!sheet.contains("Pyramids in play"));
}

/// A changed key's note says the variant changes it.
#[test]
fn a_note_says_when_the_variant_changes_its_key() {
    let loaded = roots::variant::resolve_builtin("fewer-beads").expect("a built-in");
    let sheet = roots::variant::explain::rules_sheet(&loaded.rules);
    let note = sheet
        .lines()
        .find(|l| l.starts_with("- **[RS3]**"))
        .expect("the note of RS3");
    assert!(note.contains("changed in this variant"), "{note}");
    let standard = roots::variant::resolve_builtin("standard").expect("a built-in");
    let sheet = roots::variant::explain::rules_sheet(&standard.rules);
    assert!(!sheet.contains("changed in this variant"));
    // Where a variant plays the text as written, the statement is the
    // text's and carries no mark.
    let literal = roots::variant::resolve_builtin("btt-literal-wiki").expect("a built-in");
    let sheet = roots::variant::explain::rules_sheet(&literal.rules);
    assert!(!sheet.contains("[Q1]"));
}

/// The rules panel of `roots view` renders the sheet's Markdown: the marks
/// and the notes come through.
#[test]
fn the_rules_panel_shows_the_marks_and_notes() {
    let loaded = roots::variant::resolve_builtin("standard").expect("a built-in");
    let html = roots::view::markdown(&roots::variant::explain::rules_sheet(&loaded.rules));
    assert!(html.contains("<h3>Readings of the rules text</h3>"));
    assert!(html.contains("<li><strong>[RS24]</strong> The text:"));
    assert!(html.contains("counted from the corner marked 0,0 [RS24]."));
}
