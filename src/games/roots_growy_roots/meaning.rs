//! What a change of each Roots Growy Roots rule key means at the table, in
//! one line ([`crate::games::Game::meaning`], printed by `roots diff` and at
//! the top of the rules sheet).

use crate::games::sheet::switch_meaning;

use super::rules::{BonusTies, Deck, EndTrigger, RootMeasure, Rules, Sticks};

fn more(a: u32, b: u32) -> bool {
    b > a
}

fn card(deck: &Deck, kind: &str) -> Option<u32> {
    Some(u32::from(match kind {
        "earth" => deck.earth,
        "fertilizer" => deck.fertilizer,
        "water" => deck.water,
        "stone" => deck.stone,
        _ => return None,
    }))
}

fn card_effect(kind: &str, more: bool) -> &'static str {
    match (kind, more) {
        ("earth", true) => "more open ground: roots grow further per turn",
        ("earth", false) => "less open ground: roots meet stones and water sooner",
        ("fertilizer", true) => "more cards that give a stick at once: longer turns",
        ("fertilizer", false) => "fewer cards that give a stick at once: shorter turns",
        ("water", true) => "more water to claim: more income and more points for water",
        ("water", false) => "less water to claim: less income and fewer points for water",
        ("stone", true) => "more stones: turns end sooner and roots are walled in more",
        (_, _) => "fewer stones: turns run longer and roots spread more freely",
    }
}

/// What changing `key` from its value in `a` to its value in `b` means.
pub fn meaning(key: &str, a: &Rules, b: &Rules) -> Option<String> {
    let n = |x: u8| u32::from(x);
    let sticks = |k: Sticks| match k {
        Sticks::Keep => "kept for the next turn",
        Sticks::Lose => "lost",
    };
    if let Some(kind) = key.strip_prefix("start_deck.") {
        let (x, y) = (card(&a.start_deck, kind)?, card(&b.start_deck, kind)?);
        return Some(format!(
            "{y} {kind} cards in each start area instead of {x}: {}",
            card_effect(kind, more(x, y))
        ));
    }
    if let Some(rest) = key.strip_prefix("board_") {
        let (seats, field) = rest.split_once('.')?;
        let seats: u8 = seats.parse().ok()?;
        let (ba, bb) = (a.board(seats), b.board(seats));
        return Some(match field {
            "rows" | "columns" => format!(
                "the {seats}-player board is {} rows by {} columns instead of {} by {}: the main deck must change to fill it",
                bb.rows, bb.columns, ba.rows, ba.columns
            ),
            _ => {
                let kind = field.strip_prefix("main_deck.")?;
                let (x, y) = (card(&ba.main_deck, kind)?, card(&bb.main_deck, kind)?);
                format!(
                    "{y} {kind} cards in the {seats}-player main deck instead of {x}: {}",
                    card_effect(kind, more(x, y))
                )
            }
        });
    }
    Some(match key {
        "turn.income" => format!(
            "every turn starts with {} sticks instead of {}: {}",
            b.turn.income,
            a.turn.income,
            if b.turn.income > a.turn.income {
                "longer turns, roots grow faster"
            } else {
                "shorter turns, roots grow slower"
            }
        ),
        "turn.water_income" => format!(
            "each water a root holds pays {} sticks a turn instead of {}: water is {} worth racing for",
            b.turn.water_income,
            a.turn.water_income,
            if b.turn.water_income > a.turn.water_income {
                "more"
            } else {
                "less"
            }
        ),
        "turn.fertilizer" => format!(
            "a fertilizer gives {} sticks at once instead of {}",
            b.turn.fertilizer, a.turn.fertilizer
        ),
        "turn.bridges" => switch_meaning(
            b.turn.bridges,
            "roots may bridge over a connector to the cell behind it",
            "no bridges: a root blocked by another root must go round it",
        ),
        "turn.bridge_cost" => format!(
            "a bridge costs {} sticks instead of {}: bridges are {}",
            b.turn.bridge_cost,
            a.turn.bridge_cost,
            if n(b.turn.bridge_cost) > n(a.turn.bridge_cost) {
                "rarer"
            } else {
                "cheaper and more common"
            }
        ),
        "turn.voluntary_end" => format!(
            "a player who ends the turn by choice has the sticks left {}: {}",
            sticks(b.turn.voluntary_end),
            match b.turn.voluntary_end {
                Sticks::Keep => "saving sticks for a long turn later pays",
                Sticks::Lose => "unspent sticks are wasted, so players grow while they can",
            }
        ),
        "turn.blocked_end" => format!(
            "a player whose root is blocked has the sticks left {}",
            sticks(b.turn.blocked_end)
        ),
        "turn.artifact_ends_turn" => switch_meaning(
            b.turn.artifact_ends_turn,
            "reaching an artifact ends the turn (sticks kept)",
            "reaching an artifact counts as earth: the turn goes on",
        ),
        "turn.enter_start_areas" => switch_meaning(
            b.turn.enter_start_areas,
            "roots may grow into other players' start areas and take their water",
            "roots may not grow into other players' start areas: each start area is safe",
        ),
        "end.trigger" => match b.end.trigger {
            EndTrigger::LastHiddenArtifact => {
                "the game ends when the last face-down artifact is turned over".into()
            }
            EndTrigger::AllArtifactsClaimed => {
                "the game ends only when all five artifacts are in hands, the face-up ones too: longer games".into()
            }
        },
        "end.max_rounds" => format!(
            "a game is stopped after {} at most (a safety net ordinary games do not reach)",
            crate::core::count(b.end.max_rounds, "round", "rounds")
        ),
        "scoring.water" => format!(
            "each water a root holds is worth {} points at the end instead of {}",
            b.scoring.water, a.scoring.water
        ),
        "scoring.artifact" => format!(
            "each artifact in hand is worth {} points instead of {}",
            b.scoring.artifact, a.scoring.artifact
        ),
        "scoring.most_branches" => format!(
            "the most branches is worth {} points instead of {}",
            b.scoring.most_branches, a.scoring.most_branches
        ),
        "scoring.longest_root" => format!(
            "the longest root is worth {} points instead of {}",
            b.scoring.longest_root, a.scoring.longest_root
        ),
        "scoring.longest_root_measure" => match b.scoring.longest_root_measure {
            RootMeasure::AnyPath => {
                "the longest root is the longest path between any two connectors of a root".into()
            }
            RootMeasure::FromSeed => "the longest root is measured from the seed out".into(),
        },
        "scoring.bonus_ties" => match b.scoring.bonus_ties {
            BonusTies::AllTied => "a bonus several players tie for goes to each of them".into(),
            BonusTies::Nobody => "a bonus several players tie for goes to nobody".into(),
        },
        "artifacts.abilities" => switch_meaning(
            b.artifacts.abilities,
            "each artifact gets a one-use ability of this toolkit's design (skry, jump, deny, destroy, dry), on top of its point",
            "an artifact is worth its point and nothing more",
        ),
        _ => return None,
    })
}
