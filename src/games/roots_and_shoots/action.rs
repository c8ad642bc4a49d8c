//! The decisions a Roots and Shoots player makes.

use crate::core::dice::Die;
use crate::core::geometry::{Grid, Point};
use crate::core::protocol::GameState;
use crate::games::roots_and_shoots::State;
use crate::games::roots_and_shoots::rules::Growth;

/// A decision. Every choice the rules give a player is one of these; the
/// engine never makes a choice for a player (it only skips a decision that has
/// exactly one possible answer, such as the x/y order of two equal dice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Phase 1: choose the growth action, and so the die to roll.
    Grow(Growth),
    /// Put a bead on a point: a first-turn bead, a growth bead, a bead that
    /// marks a nutrient, or a bead that contests a point held by another colour.
    Place(Point),
    /// Stop placing: legal only when every remaining placement would start a
    /// struggle (struggles are never compulsory).
    Pass,
    /// Choose where a rolled nutrient lands: the x/y order of the two d20s and
    /// the line chosen for a 20 in one choice.
    Spawn(Point),
    /// Choose which dangling end to lose after a bead was removed, by naming
    /// the bead of that end next to the removed one.
    Lose(Point),
}

impl Action {
    /// The text form used at the terminal and in records: `grow buds`,
    /// `place 3,4`, `pass`, `spawn 3,4`, `lose 3,4`.
    pub fn to_text(self, grid: &Grid) -> String {
        match self {
            Action::Grow(g) => format!("grow {g}"),
            Action::Place(p) => format!("place {}", grid.name(p)),
            Action::Pass => "pass".to_string(),
            Action::Spawn(p) => format!("spawn {}", grid.name(p)),
            Action::Lose(p) => format!("lose {}", grid.name(p)),
        }
    }

    /// Parse the text form (case and extra spaces ignored).
    pub fn parse(grid: &Grid, text: &str) -> Result<Action, String> {
        let text = text.trim();
        let (verb, rest) = match text.split_once(char::is_whitespace) {
            Some((v, r)) => (v, r.trim()),
            None => (text, ""),
        };
        let point = |what: &str| {
            grid.parse(rest).ok_or_else(|| {
                format!(
                    "`{what}` takes a point `x,y` with x and y from 0 to {}, not `{rest}`",
                    grid.size() - 1
                )
            })
        };
        match verb.to_ascii_lowercase().as_str() {
            "grow" => Growth::parse(rest).map(Action::Grow).ok_or_else(|| {
                format!("`grow` takes new_plant, buds, simple_growth or sunbathe, not `{rest}`")
            }),
            "place" => point("place").map(Action::Place),
            "spawn" => point("spawn").map(Action::Spawn),
            "lose" => point("lose").map(Action::Lose),
            "pass" if rest.is_empty() => Ok(Action::Pass),
            "pass" => Err("`pass` takes nothing after it".to_string()),
            "" => Err("empty action".to_string()),
            other => Err(format!(
                "unknown action `{other}`: expected grow, place, pass, spawn or lose"
            )),
        }
    }
}

/// Text typed by a player to an action: the text form ([`Action::parse`]),
/// or a shorthand (`3,4` for the point the node asks for, `grow 8` or `d8`
/// for the growth action that rolls the d8). Pure: the referee at the
/// terminal and the fuzzer call the same function.
pub fn interpret(state: &State, line: &str) -> Result<Action, String> {
    let grid = state.grid();
    let full = Action::parse(grid, line);
    if full.is_ok() {
        return full;
    }
    let lower = line.trim().to_ascii_lowercase();
    // `grow 8`, `grow d8`, `d8`: the growth action whose die this is.
    let die_text = lower
        .strip_prefix("grow")
        .map(str::trim)
        .unwrap_or(lower.as_str());
    let die = Die::parse(die_text).or_else(|| {
        lower
            .starts_with("grow")
            .then(|| Die::parse(&format!("d{die_text}")))
            .flatten()
    });
    if let Some(die) = die {
        return Growth::ALL
            .into_iter()
            .find(|g| state.rules().die_for(*g) == Some(die))
            .map(Action::Grow)
            .ok_or_else(|| format!("no growth action of this variant rolls the {die}"));
    }
    // `3,4`: place, spawn or lose, as the node needs.
    if let Some(p) = grid.parse(&lower) {
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        return Ok(match legal.first() {
            Some(Action::Spawn(_)) => Action::Spawn(p),
            Some(Action::Lose(_)) => Action::Lose(p),
            _ => Action::Place(p),
        });
    }
    if lower.contains(',') && !lower.contains(' ') {
        return Err(format!(
            "`{line}` is not a point of the board: x and y go from 0 to {}",
            grid.size() - 1
        ));
    }
    if lower.parse::<u32>().is_ok() {
        return Err(format!(
            "`{line}` is a number, but this is a decision, not a roll"
        ));
    }
    full
}

/// A growth action as a person reads it, with its die: `grow new plant
/// (d4)` (the record writes `grow new_plant`).
pub fn grow_words(state: &State, growth: Growth) -> String {
    format!(
        "grow {} ({})",
        growth.words(),
        state.rules().die_for(growth).map(Die::name).unwrap_or("?")
    )
}

/// The legal choices, compactly, counted as in every game
/// (`legal (8): place at (8): ...`; [`crate::games::counted_list`]).
pub fn legal_text(state: &State) -> String {
    let g = state.grid();
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let points = |f: fn(&Action) -> Option<crate::core::geometry::Point>| -> Vec<String> {
        legal.iter().filter_map(f).map(|p| g.name(p)).collect()
    };
    let mut parts = Vec::new();
    let grows: Vec<String> = legal
        .iter()
        .filter_map(|a| match a {
            // In words (`grow new plant (d4)`), which the prompt reads as
            // well as the record's `grow new_plant`.
            Action::Grow(gr) => Some(grow_words(state, *gr)),
            _ => None,
        })
        .collect();
    if !grows.is_empty() {
        parts.push(grows.join(", "));
    }
    for (verb, pts) in [
        (
            "place at",
            points(|a| match a {
                Action::Place(p) => Some(*p),
                _ => None,
            }),
        ),
        (
            "spawn at",
            points(|a| match a {
                Action::Spawn(p) => Some(*p),
                _ => None,
            }),
        ),
        (
            "lose the end at",
            points(|a| match a {
                Action::Lose(p) => Some(*p),
                _ => None,
            }),
        ),
    ] {
        if !pts.is_empty() {
            parts.push(format!("{verb} ({}): {}", pts.len(), pts.join(" ")));
        }
    }
    if legal.contains(&Action::Pass) {
        parts.push("pass".to_string());
    }
    crate::games::counted_list(legal.len(), &parts, "; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_is_small() {
        assert!(std::mem::size_of::<Action>() <= 4);
    }

    #[test]
    fn text_round_trip() {
        let g = Grid::new(19);
        for a in [
            Action::Grow(Growth::SimpleGrowth),
            Action::Place(g.point(3, 4).unwrap()),
            Action::Pass,
            Action::Spawn(g.point(18, 0).unwrap()),
            Action::Lose(g.point(0, 18).unwrap()),
        ] {
            assert_eq!(Action::parse(&g, &a.to_text(&g)), Ok(a));
        }
        assert!(Action::parse(&g, "place 19,0").is_err());
        assert!(Action::parse(&g, "jump 1,1").is_err());
        assert_eq!(
            Action::parse(&g, "  GROW   new-plant "),
            Ok(Action::Grow(Growth::NewPlant))
        );
    }
}
