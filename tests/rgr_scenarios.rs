//! Rules tests as data: every `tests/scenarios/roots-growy-roots/*.scn`
//! plays a game from its start on a small board, with the cards turned over
//! given by name, and states the position after.
//!
//! ```text
//! # Title and why the rule reads this way (comment lines start with #)
//! variant:                   # TOML keys over the standard rules (optional)
//!   [turn]
//!   bridge_cost = 2
//! players 2                  # seats (default 2)
//! do:
//!   D6                       # a decision in its text form (the seat to move)
//!   card stone               # the card turned over at a draw
//!   legal D6 E5 end          # the legal decisions now, in any order
//!   refuse D4: a stone       # refused; the reason must contain the text
//!   refuse card dry: no dry  # a card refused at the draw
//!   sticks 2                 # sticks in the mover's hand
//!   kept 1 0                 # sticks kept by each seat
//!   scores 1 3               # each seat's score
//!   over blocked             # the game is over, for this reason
//! after:
//!   <the board as `draw` prints it>
//! ```
//!
//! Unless a file sets its own, the board is the small one of
//! `SMALL_BOARD` below: 4 rows by 8 columns, seat 1's 2x2 start area in the
//! top left (seed A1, water B2), seat 2's in the bottom right (seed D8,
//! water C7), one face-up artifact (skry at A8) and four hidden ones.
//!
//! `UPDATE_SCENARIOS=1` rewrites the `after:` sections from the engine (read
//! every changed board by eye before committing).

use std::path::Path;
use std::sync::Arc;

use roots::core::protocol::{GameState, Next};
use roots::games::Game;
use roots::games::Registered as _;
use roots::games::roots_growy_roots::RootsGrowyRoots as G;
use roots::games::roots_growy_roots::text::end_reason;

const SMALL_BOARD: &str = r#"
[players]
min = 2
max = 2

[start_deck]
earth = 2
fertilizer = 0
water = 1
stone = 0

[board_2]
rows = 4
columns = 8
starts = [
    { area = "A1:B2", seed = "A1", water = "B2" },
    { area = "C7:D8", seed = "D8", water = "C7" },
]
artifacts = [{ cell = "A8", artifact = "skry" }]
main_deck = { earth = 12, fertilizer = 2, water = 2, stone = 3 }
"#;

fn load(extra: &str) -> Result<Arc<roots::games::roots_growy_roots::Rules>, String> {
    let text = format!(
        "game = \"roots-growy-roots\"\nextends = \"roots-growy-roots\"\nname = \"scenario\"\n{SMALL_BOARD}\n"
    );
    // The file's own keys replace the small board's, table by table.
    let mut base: toml::Table = toml::from_str(&text).map_err(|e| e.to_string())?;
    let over: toml::Table = toml::from_str(extra).map_err(|e| format!("variant: {e}"))?;
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(t)) => b.extend(t),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
    let text = toml::to_string(&base).map_err(|e| e.to_string())?;
    let loaded = roots::variant::load_str("scenario.toml", &text, None).map_err(|d| {
        format!(
            "{:?}",
            d.items.iter().map(|i| &i.message).collect::<Vec<_>>()
        )
    })?;
    G::unwrap(&loaded.rules)
        .cloned()
        .ok_or_else(|| "not a Roots Growy Roots variant".into())
}

fn run(path: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut section = "";
    let mut players = 2u8;
    let (mut variant, mut steps, mut after) = (String::new(), Vec::new(), Vec::new());
    let mut after_start = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if section != "variant" && section != "after" && (t.starts_with('#') || t.is_empty()) {
            continue;
        }
        match t {
            "variant:" | "do:" | "after:" => {
                section = t.trim_end_matches(':');
                if section == "after" {
                    after_start = Some(i + 1);
                }
                continue;
            }
            _ => {}
        }
        match section {
            "variant" => {
                variant.push_str(t);
                variant.push('\n');
            }
            "do" => steps.push((i + 1, t.to_owned())),
            "after" => after.push(line.strip_prefix("  ").unwrap_or(line).to_owned()),
            _ => {
                if let Some(n) = t.strip_prefix("players ") {
                    players = n
                        .trim()
                        .parse()
                        .map_err(|_| format!("line {}: players", i + 1))?;
                } else {
                    return Err(format!("line {}: unexpected `{t}`", i + 1));
                }
            }
        }
    }
    let rules = load(&variant)?;
    let mut state = G::new_state(rules, players)?;
    G::check_invariants(&state)?;
    for (line, step) in &steps {
        let at = |m: String| format!("line {line} (`{step}`): {m}");
        let words: Vec<&str> = step.split_whitespace().collect();
        match words.first().copied().unwrap_or("") {
            "card" => {
                let name = words[1..].join(" ");
                if state.next() != Next::Draw {
                    return Err(at(format!("no draw is due: {}", G::describe_node(&state))));
                }
                let face = G::parse_draw(&state, &name).map_err(at)?;
                state.roll(face).map_err(|e| at(e.to_string()))?;
            }
            "legal" => {
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                let mut got: Vec<String> =
                    legal.iter().map(|a| G::format_action(&state, *a)).collect();
                // `legal D6 E5 bridge C3 end`: words, with `bridge X` (and
                // `jump X`, `skry X`, `deny N` ...) as one.
                let mut want = join_bridges(&words[1..]);
                got.sort();
                want.sort();
                if got != want {
                    return Err(at(format!("legal: got {got:?}")));
                }
            }
            "refuse" => {
                let (what, reason) = step["refuse".len()..]
                    .split_once(':')
                    .ok_or_else(|| at("refuse WHAT: REASON".into()))?;
                let (what, reason) = (what.trim(), reason.trim());
                let before = G::draw(&state);
                let result = if let Some(card) = what.strip_prefix("card ") {
                    G::parse_draw(&state, card)
                        .and_then(|f| state.roll(f).map_err(|e| e.to_string()))
                } else {
                    G::parse_action(&state, what)
                        .and_then(|a| state.play(a).map_err(|e| e.to_string()))
                };
                match result {
                    Ok(()) => return Err(at("was accepted".into())),
                    Err(e) if e.contains(reason) => {}
                    Err(e) => return Err(at(format!("refused with `{e}`"))),
                }
                if G::draw(&state) != before {
                    return Err(at("a refused move changed the position".into()));
                }
            }
            "sticks" => {
                let n: u32 = words[1].parse().map_err(|_| at("a number".into()))?;
                if state.sticks() != n {
                    return Err(at(format!("the mover holds {} sticks", state.sticks())));
                }
            }
            "kept" => {
                let got: Vec<String> = (0..players).map(|s| state.kept(s).to_string()).collect();
                if got != words[1..] {
                    return Err(at(format!("kept: {got:?}")));
                }
            }
            "scores" => {
                let got: Vec<String> = G::scores(&state).iter().map(i32::to_string).collect();
                if got != words[1..] {
                    return Err(at(format!("scores: {got:?}")));
                }
            }
            "over" => {
                if state.next() != Next::Over {
                    return Err(at(format!("not over: {}", G::describe_node(&state))));
                }
                let key = G::END_REASONS[end_reason(&state)].key;
                if key != words[1] {
                    return Err(at(format!("over by {key}")));
                }
            }
            "turn" => {
                let s: u8 = words[1].parse().map_err(|_| at("a seat".into()))?;
                if state.next() != Next::Decide(s - 1) {
                    return Err(at(G::describe_node(&state)));
                }
            }
            _ => {
                let a = G::parse_action(&state, step).map_err(at)?;
                state.play(a).map_err(|e| at(e.to_string()))?;
            }
        }
        G::check_invariants(&state).map_err(|e| format!("line {line}: invariant: {e}"))?;
    }
    let mut drawn = G::draw(&state);
    drawn.push_str(&G::describe_node(&state));
    drawn.push('\n');
    let want: String = after
        .iter()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    let got: String = drawn
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    if got.trim() == want.trim() {
        return Ok(None);
    }
    if std::env::var_os("UPDATE_SCENARIOS").is_some() {
        let start = after_start.unwrap_or(text.lines().count());
        let mut out: Vec<String> = text.lines().take(start).map(str::to_owned).collect();
        if after_start.is_none() {
            out.push("after:".into());
        }
        out.extend(got.lines().map(|l| format!("  {l}").trim_end().to_owned()));
        std::fs::write(path, out.join("\n") + "\n").map_err(|e| e.to_string())?;
        return Ok(Some("updated".into()));
    }
    Err(format!("the position after differs:\n{got}"))
}

fn join_bridges(words: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if matches!(
            words[i],
            "bridge" | "jump" | "skry" | "deny" | "destroy" | "dry"
        ) && i + 1 < words.len()
        {
            out.push(format!("{} {}", words[i], words[i + 1]));
            i += 2;
        } else {
            out.push(words[i].to_owned());
            i += 1;
        }
    }
    out
}

#[test]
fn scenarios() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/roots-growy-roots");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the scenario directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "scn"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "only {} scenarios", files.len());
    let mut failures = Vec::new();
    for f in &files {
        match run(f) {
            Ok(None) => {}
            Ok(Some(note)) => eprintln!("{}: {note}", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
