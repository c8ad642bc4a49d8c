//! The checks across keys of a Roots and Shoots variant: what the schema
//! cannot say about one key alone.

use crate::core::diagnostic::Checker;
use crate::core::diagnostic::Diagnostic;

use super::rules::{ActionDie, BeadsOut, Growth, Rules};

/// Every conflict (error) and every surprise (warning) of `r`.
pub fn check(r: &Rules, c: &Checker<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();

    if r.players.min > r.players.max {
        let key = c.pick(&["players.min", "players.max"]);
        out.push(
            c.error(
                key,
                format!(
                    "`players.min` ({}) is larger than `players.max` ({})",
                    r.players.min, r.players.max
                ),
            )
            .help("the fewest players cannot be more than the most players"),
        );
    }

    // Growth dice: each die names one action, and some action must place beads.
    for (j, later) in Growth::ALL.iter().enumerate() {
        let Some(die) = r.die_for(*later) else {
            continue;
        };
        if let Some(earlier) = Growth::ALL[..j]
            .iter()
            .find(|g| r.die_for(**g) == Some(die))
        {
            let (ke, kl) = (
                format!("growth.{}", earlier.key()),
                format!("growth.{}", later.key()),
            );
            let key = c.pick(&[&kl, &ke]);
            let other = if key == kl { &ke } else { &kl };
            let die_name = format!("{die:?}").to_lowercase();
            out.push(
                c.error(key, format!("`{key}` rolls the {die_name}, but `{other}` rolls it too"))
                    .help("each die may belong to one action only, so that the die chosen says which action it is; give one of them another die, or \"off\""),
            );
        }
    }
    let growth_keys: Vec<String> = Growth::ALL
        .iter()
        .map(|g| format!("growth.{}", g.key()))
        .collect();
    let growth_refs: Vec<&str> = growth_keys.iter().map(String::as_str).collect();
    if Growth::ALL.iter().all(|g| r.die_for(*g).is_none()) {
        out.push(
            c.error(c.pick(&growth_refs), "every growth action is \"off\": nobody could do anything on their turn".into())
                .help("give at least one action that places beads a die (new_plant, buds or simple_growth)"),
        );
    } else if !Growth::ALL
        .iter()
        .any(|g| g.places() && r.die_for(*g).is_some())
    {
        out.push(
            c.error(
                c.pick(&growth_refs[..3]),
                "no growth action that places beads is on: nobody could ever grow".into(),
            )
            .help("give new_plant, buds or simple_growth a die"),
        );
    }

    if r.beads.supply > 0 && r.beads.store > r.beads.supply {
        let key = c.pick(&["beads.store", "beads.supply"]);
        out.push(
            c.error(key, format!("`beads.store` ({}) is larger than `beads.supply` ({})", r.beads.store, r.beads.supply))
                .help("the store is the few beads in hand, the supply the big pile: were the two numbers swapped?"),
        );
    }
    if r.beads.supply == 0 && r.end.beads_out == BeadsOut::SupplyEmpty {
        let key = c.pick(&["beads.supply", "end.beads_out"]);
        out.push(
            c.error(key, "`beads.supply` is 0 and the game ends when a supply is empty (`end.beads_out` = \"supply_empty\"), so it would end on the first turn".into())
                .help("give each player a supply, or set end.beads_out = \"supply_and_store_empty\""),
        );
    }

    let points = u32::from(r.board.size) * u32::from(r.board.size);
    if r.nutrients.max_on_board > points {
        let key = c.pick(&["nutrients.max_on_board", "board.size"]);
        out.push(c.error(
            key,
            format!(
                "`nutrients.max_on_board` ({}) is more than the {points} points of a {}x{} board",
                r.nutrients.max_on_board, r.board.size, r.board.size
            ),
        ));
    }

    if let Some(i) = r
        .severing
        .actions
        .iter()
        .position(|g| *g == Growth::Sunbathe)
    {
        let d = c
            .error(
                "severing.actions",
                "`severing.actions` lists \"sunbathe\", which places no beads and so cannot sever"
                    .into(),
            )
            .help("remove \"sunbathe\" from the list");
        out.push(c.at_item(d, "severing.actions", &format!("severing.actions[{i}]")));
    }

    // Warnings: playable, but probably not what was meant.
    if (1..10).contains(&r.beads.supply) {
        out.push(c.warning(
            "beads.supply",
            format!(
                "a supply of {} beads ends the game after a few turns",
                r.beads.supply
            ),
        ));
    }
    if r.nutrients.supply < 3 {
        out.push(c.warning(
            "nutrients.supply",
            format!(
                "a pile of {} nutrients ends the game almost at once",
                r.nutrients.supply
            ),
        ));
    }
    if r.growth.sunbathe == ActionDie::Off
        && Growth::ALL
            .iter()
            .any(|g| g.places() && r.die_for(*g).is_some())
    {
        out.push(c.warning("growth.sunbathe", "sunbathe is \"off\": stores are never refilled and the bead supplies never run out, so only the nutrients (or end.max_rounds) end the game".into()));
    }
    if r.rain.rolls.is_empty() && !r.end.final_scoring {
        out.push(c.warning("rain.rolls", "`rain.rolls` is empty and `end.final_scoring` is false: it never rains, so no nutrient is ever scored".into()));
    }
    if r.end.max_rounds < 20 {
        out.push(c.warning(
            "end.max_rounds",
            format!(
                "games stop after {}, before most of them could end on their own",
                crate::core::count(r.end.max_rounds, "round", "rounds")
            ),
        ));
    }
    if r.nutrients.max_on_board > 12 && r.nutrients.max_on_board <= points {
        out.push(c.warning("nutrients.max_on_board", format!("a nutrient spawns only when a d12 beats the number on the board, so there are never more than 12, not {}", r.nutrients.max_on_board)));
    }
    let grows = Growth::ALL
        .iter()
        .any(|g| g.places() && r.die_for(*g).is_some());
    for action in &r.severing.actions {
        if grows && action.places() && r.die_for(*action).is_none() {
            out.push(c.warning(
                "severing.actions",
                format!("`severing.actions` lists \"{action}\", but that action is \"off\""),
            ));
        }
    }
    out
}
