//! What a change of each Roots and Shoots rule key means at the table, in
//! one line ([`crate::games::Game::meaning`], printed by `roots diff`).

use crate::games::sheet::switch_meaning;

use super::rules::{ActionDie, Growth, LostEnds, RollKind, Rules};

fn more_or_fewer(a: u32, b: u32, more: &str, fewer: &str) -> String {
    if b > a { more } else { fewer }.to_owned()
}

fn action_name(g: Growth) -> &'static str {
    match g {
        Growth::NewPlant => "new plant",
        Growth::Buds => "new buds",
        Growth::SimpleGrowth => "simple growth",
        Growth::Sunbathe => "sunbathe",
    }
}

fn die_sides(d: ActionDie) -> u32 {
    d.die().map_or(0, |d| u32::from(d.sides()))
}

/// What changing `key` from its value in `a` to its value in `b` means.
pub fn meaning(key: &str, a: &Rules, b: &Rules) -> Option<String> {
    Some(match key {
        "board.size" => more_or_fewer(
            u32::from(a.board.size),
            u32::from(b.board.size),
            "a bigger board: more room to grow, plants meet later and nutrients are spread wider",
            "a smaller board: plants meet sooner, with more struggles over the same points",
        ),
        "setup.first_spawn_on_bead" => match b.setup.first_spawn_on_bead {
            super::rules::FirstSpawnOnBead::ChooseFree => {
                "a first-turn nutrient never lands on a bead".into()
            }
            super::rules::FirstSpawnOnBead::RemoveBead => {
                "a first-turn nutrient may land on a bead just placed and remove it".into()
            }
        },
        "beads.store" => more_or_fewer(
            a.beads.store,
            b.beads.store,
            "players start with more beads in hand: a faster start before the first sunbathe",
            "players start with fewer beads in hand: they must sunbathe sooner",
        ),
        "beads.supply" => more_or_fewer(
            a.beads.supply,
            b.beads.supply,
            "players start with more beads in their pile: longer games",
            "players start with fewer beads in their pile: shorter games",
        ),
        "beads.removed_go_to" => match b.beads.removed_go_to {
            super::rules::RemovedBeads::Supply => {
                "removed beads go back to their owner's pile: losses hurt less and games run longer"
                    .into()
            }
            super::rules::RemovedBeads::OutOfPlay => {
                "removed beads leave the game: every loss is for good".into()
            }
        },
        "nutrients.supply" => more_or_fewer(
            a.nutrients.supply,
            b.nutrients.supply,
            "more nutrients in the pile: longer games with more to score",
            "fewer nutrients in the pile: shorter games",
        ),
        "nutrients.max_on_board" => more_or_fewer(
            a.nutrients.max_on_board,
            b.nutrients.max_on_board,
            "more nutrients may lie on the board at once",
            "fewer nutrients may lie on the board at once: spawning stops sooner",
        ),
        "nutrients.value_rolled" => match b.nutrients.value_rolled {
            super::rules::ValueRolled::OnSpawn => {
                "a nutrient's value is rolled as it appears: everyone sees what it is worth before racing for it".into()
            }
            super::rules::ValueRolled::OnClaim => {
                "a nutrient's value stays unknown until it is claimed or scored".into()
            }
        },
        "growth.new_plant" | "growth.buds" | "growth.simple_growth" | "growth.sunbathe" => {
            let action = Growth::ALL
                .into_iter()
                .find(|g| key.ends_with(g.key()))?;
            let (from, to) = (die_sides(die_of(a, action)), die_sides(die_of(b, action)));
            let name = action_name(action);
            let unit = if action == Growth::Sunbathe {
                "beads taken from the pile"
            } else {
                "beads placed"
            };
            match (from, to) {
                (_, 0) => format!("{name} is not part of the game"),
                (0, n) => format!("{name} is part of the game again, rolling the d{n}"),
                (f, t) if t > f => format!("{name} rolls a bigger die: more {unit} per turn"),
                _ => format!("{name} rolls a smaller die: fewer {unit} per turn"),
            }
        }
        "growth.new_plant_connected" => switch_meaning(
            b.growth.new_plant_connected,
            "the beads of one new-plant roll must form a single plant",
            "the beads of one new-plant roll may start several plants",
        ),
        "growth.buds_touch" => match b.growth.buds_touch {
            super::rules::BudsTouch::Any => {
                "other colours' beads count toward the two a bud must touch: buds grow easily beside rivals".into()
            }
            super::rules::BudsTouch::Own => {
                "a bud must touch two beads of its own colour".into()
            }
        },
        "growth.simple_growth_path" => match b.growth.simple_growth_path {
            super::rules::SimpleGrowthPath::AnyEnd => {
                "each simple-growth bead may extend any root end: several roots grow in one roll"
                    .into()
            }
            super::rules::SimpleGrowthPath::OnePath => {
                "one simple-growth roll extends a single path".into()
            }
        },
        "turn.one_nutrient_per_turn" => switch_meaning(
            b.turn.one_nutrient_per_turn,
            "placing stops for the turn after marking a nutrient: no sweeping up a cluster in one roll",
            "a player may mark several nutrients in one roll",
        ),
        "rain.rolls" => {
            let name = |k: &RollKind| match k {
                RollKind::Growth => "the growth die",
                RollKind::SpawnCheck => "the spawn d12",
                RollKind::NutrientValue => "a nutrient's value d12",
                RollKind::Coordinate => "a coordinate d20",
            };
            let added: Vec<&str> = b
                .rain
                .rolls
                .iter()
                .filter(|k| !a.rain.rolls.contains(k))
                .map(name)
                .collect();
            let removed: Vec<&str> = a
                .rain
                .rolls
                .iter()
                .filter(|k| !b.rain.rolls.contains(k))
                .map(name)
                .collect();
            if b.rain.rolls.is_empty() {
                "it never rains: nutrients are not scored during play".into()
            } else {
                let mut parts = Vec::new();
                if !added.is_empty() {
                    parts.push(format!("a 1 on {} now brings rain", either(&added)));
                }
                if !removed.is_empty() {
                    parts.push(format!("a 1 on {} no longer brings rain", either(&removed)));
                }
                if parts.is_empty() {
                    "the same rolls bring rain, listed in another order".into()
                } else {
                    let often = if b.rain.rolls.len() > a.rain.rolls.len() {
                        ": rain and scoring come more often"
                    } else if b.rain.rolls.len() < a.rain.rolls.len() {
                        ": rain and scoring come less often"
                    } else {
                        ""
                    };
                    format!("{}{often}", parts.join("; "))
                }
            }
        }
        "coordinates.faces" => match b.coordinates.faces {
            super::rules::FaceMapping::FaceIsLine => {
                "a d20 face n is line n: line 0 is reached only through a 20".into()
            }
            super::rules::FaceMapping::FaceMinusOne => {
                "a d20 face n is line n-1: every line is equally likely".into()
            }
        },
        "severing.actions" => {
            if b.severing.actions.is_empty() {
                "no growth action may sever: roots never struggle".into()
            } else {
                let names: Vec<&str> = b.severing.actions.iter().map(|g| action_name(*g)).collect();
                format!("only {} may start a struggle", names.join(" and "))
            }
        }
        "severing.per_turn" => match b.severing.per_turn {
            0 => "severing is off: roots never struggle".into(),
            n if n > a.severing.per_turn => {
                format!("up to {n} struggles a turn: more aggressive play")
            }
            n => format!("at most {n} struggle{} a turn", if n == 1 { "" } else { "s" }),
        },
        "severing.winner_occupies" => switch_meaning(
            b.severing.winner_occupies,
            "the winner of a struggle grows onto the point it won",
            "the winner of a struggle only cuts: the point is left empty",
        ),
        "removal.lost_ends" => match b.removal.lost_ends {
            LostEnds::OneEnd => "after a removal, one dangling end is lost (its owner chooses)",
            LostEnds::AllEnds => "after a removal, every dangling end is lost: cuts hurt more",
            LostEnds::None => "after a removal, only the bead itself goes: cuts hurt less",
        }
        .into(),
        "end.beads_out" => match b.end.beads_out {
            super::rules::BeadsOut::SupplyEmpty => "the game ends when a player's pile is empty",
            super::rules::BeadsOut::SupplyAndStoreEmpty => {
                "the game ends only when a player's pile and hand are both empty: slightly longer games"
            }
        }
        .into(),
        "end.finish" => match b.end.finish {
            super::rules::Finish::EndOfTurn => "the game stops at the end of the turn it ended in",
            super::rules::Finish::EndOfRound => {
                "the round is played out when the game ends: everyone has as many turns"
            }
        }
        .into(),
        "end.final_scoring" => switch_meaning(
            b.end.final_scoring,
            "a last rain scores the nutrients left on the board at the end",
            "nutrients left on the board at the end are not scored",
        ),
        "end.max_rounds" => format!(
            "the safety limit stops a game after {}{}",
            crate::core::count(b.end.max_rounds, "round", "rounds"),
            if b.end.max_rounds < a.end.max_rounds {
                ": long games are cut short"
            } else {
                ""
            }
        ),
        _ => return None,
    })
}

/// `a`, `a or b`, `a, b or c`.
fn either(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn die_of(r: &Rules, g: Growth) -> ActionDie {
    match g {
        Growth::NewPlant => r.growth.new_plant,
        Growth::Buds => r.growth.buds,
        Growth::SimpleGrowth => r.growth.simple_growth,
        Growth::Sunbathe => r.growth.sunbathe,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::roots_and_shoots::RootsAndShoots;
    use crate::variant::diff::{diff, keys};
    use serde_json::Value;

    fn diff_rs(a: &Rules, b: &Rules) -> Vec<crate::variant::diff::Change> {
        diff::<RootsAndShoots>(a, b)
    }

    /// The leaf keys of `Rules`, straight from its TOML form.
    pub(crate) fn toml_leaf_keys() -> Vec<String> {
        let table = toml::Table::try_from(Rules::standard()).expect("rules are a table");
        let mut keys = Vec::new();
        for (name, value) in &table {
            if let toml::Value::Table(t) = value {
                keys.extend(t.keys().map(|k| format!("{name}.{k}")));
            }
        }
        keys.sort();
        keys
    }

    /// The standard rules with `key` changed to another value of its type
    /// (not necessarily a valid variant: `diff` does not validate).
    pub(crate) fn changed(key: &str) -> Rules {
        let mut json = serde_json::to_value(Rules::standard()).expect("json");
        let (table, k) = key.split_once('.').expect("dotted");
        let slot = json
            .get_mut(table)
            .and_then(|t| t.get_mut(k))
            .expect("key exists");
        let words = crate::variant::schema::node_at(
            crate::games::GameId::RootsAndShoots,
            &[
                crate::variant::schema::PathSeg::Key(table.into()),
                crate::variant::schema::PathSeg::Key(k.into()),
            ],
        )
        .map(crate::variant::schema::allowed_words)
        .unwrap_or_default();
        *slot = match slot.clone() {
            Value::Bool(b) => Value::Bool(!b),
            Value::Number(n) => Value::from(n.as_u64().unwrap_or(0) + 1),
            Value::String(s) => Value::String(
                words
                    .into_iter()
                    .find(|w| *w != s)
                    .expect("another allowed word"),
            ),
            Value::Array(items) if !items.is_empty() => Value::Array(Vec::new()),
            other => panic!("no other value for {key}: {other}"),
        };
        serde_json::from_value(json).expect("still a Rules")
    }

    #[test]
    fn every_key_of_rules_is_compared_and_explained() {
        let mut ours = keys(&Rules::standard());
        ours.sort();
        assert_eq!(ours, toml_leaf_keys(), "leaves() must see every key");
        for key in toml_leaf_keys() {
            let changes = diff_rs(&Rules::standard(), &changed(&key));
            assert_eq!(changes.len(), 1, "{key}: {changes:?}");
            assert_eq!(changes[0].key, key);
            // Through the game: the common keys' meanings are shared.
            let meaning = <RootsAndShoots as crate::games::Game>::meaning;
            assert!(
                meaning(&key, &Rules::standard(), &changed(&key)).is_some(),
                "no meaning for {key}: add it to meaning::meaning"
            );
        }
    }

    #[test]
    fn equal_rules_have_no_differences() {
        assert!(diff_rs(&Rules::standard(), &Rules::standard()).is_empty());
    }

    #[test]
    fn a_change_reads_as_key_from_to_and_meaning() {
        let mut b = Rules::standard();
        b.beads.supply = 35;
        let changes = diff_rs(&Rules::standard(), &b);
        assert_eq!(
            changes[0].to_string(),
            "beads.supply: 60 → 35: players start with fewer beads in their pile: shorter games"
        );
    }
}
