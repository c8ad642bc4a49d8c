//! A variant as a rules sheet: the whole game as it will be played, in
//! Markdown, written from the [`Rules`] values. Rules that differ from the
//! standard game are tagged **(house rule)** and listed at the top.
//!
//! Every sentence depends on the values it describes; a test checks that every
//! key of [`Rules`] is consulted, so a new key cannot be left out.

use std::collections::{BTreeMap, BTreeSet};

use crate::core::count;
use crate::core::keys::{Change, leaves};

use super::rules::{
    ActionDie, BeadsOut, BudsTouch, FaceMapping, Finish, FirstSpawnOnBead, Growth, LostEnds,
    RemovedBeads, RollKind, Rules, SimpleGrowthPath, ValueRolled,
};

use crate::games::sheet::{TAG, list_words};

/// The rules sheet of `rules`, in Markdown; `changes` are its rules that
/// differ from the standard ones.
pub fn explain(rules: &Rules, changes: &[Change]) -> String {
    explain_with_keys(rules, changes).0
}

/// The sheet and the keys it consulted (for the completeness test).
fn explain_with_keys(rules: &Rules, changes: &[Change]) -> (String, BTreeSet<String>) {
    let standard = Rules::standard();
    let mut sheet = Sheet {
        r: rules,
        ours: leaves(rules).into_iter().collect(),
        standard: leaves(&standard).into_iter().collect(),
        used: BTreeSet::new(),
        out: String::new(),
    };
    sheet.write(changes);
    (sheet.out, sheet.used)
}

struct Sheet<'a> {
    r: &'a Rules,
    ours: BTreeMap<String, toml::Value>,
    standard: BTreeMap<String, toml::Value>,
    used: BTreeSet<String>,
    out: String,
}

fn die_name(d: ActionDie) -> String {
    d.die()
        .map_or_else(|| "off".to_owned(), |d| format!("d{}", d.sides()))
}

fn action_title(g: Growth) -> &'static str {
    match g {
        Growth::NewPlant => "New plant",
        Growth::Buds => "New buds",
        Growth::SimpleGrowth => "Simple growth",
        Growth::Sunbathe => "Sunbathe",
    }
}

impl Sheet<'_> {
    /// Consult `key`: the house-rule tag when it differs from the standard.
    fn k(&mut self, key: &str) -> &'static str {
        self.used.insert(key.to_owned());
        if self.ours.get(key) == self.standard.get(key) {
            ""
        } else {
            TAG
        }
    }

    /// The tag if any of `keys` differs.
    fn ks(&mut self, keys: &[&str]) -> &'static str {
        let tags: Vec<&str> = keys.iter().map(|k| self.k(k)).collect();
        if tags.iter().any(|t| !t.is_empty()) {
            TAG
        } else {
            ""
        }
    }

    fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn para(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push_str("\n\n");
    }

    fn write(&mut self, changes: &[Change]) {
        let r = self.r;
        self.line(&format!("# {}: the rules of Roots and Shoots", r.name));
        self.line("");
        if !r.description.is_empty() {
            self.para(&format!("*{}*", r.description.trim()));
        }
        self.para(
            "This sheet is written by `roots explain` from the variant's resolved rules: \
             it is the game exactly as `roots play` and `roots simulate` play it. \
             Rules that differ from the standard game are marked **(house rule)**.",
        );

        self.line("## Differences from the standard rules");
        self.line("");
        if changes.is_empty() {
            self.para("None: this is the standard game.");
        } else {
            for c in changes {
                self.line(&format!(
                    "- `{}`: {} → {}: {}.",
                    c.key, c.from, c.to, c.meaning
                ));
            }
            self.line("");
        }

        self.equipment();
        self.first_turn();
        self.growth();
        self.claiming();
        self.rain();
        self.severing();
        self.lost_ends();
        self.spawning();
        self.coordinates();
        self.end();
    }

    fn equipment(&mut self) {
        let r = self.r;
        self.line("## Equipment");
        self.line("");
        let size = r.board.size;
        let t = self.k("board.size");
        self.line(&format!(
            "- A square board of {size} x {size} points{t}, beads going on the points; lines are numbered 0 to {} from the corner marked 0,0, and the centre is point {},{}.",
            size - 1,
            size / 2,
            size / 2
        ));
        let t = self.ks(&["players.min", "players.max"]);
        let players = if r.players.min == r.players.max {
            format!("exactly {}", r.players.min)
        } else {
            format!("{} to {}", r.players.min, r.players.max)
        };
        self.line(&format!(
            "- {players} players{t}, each with beads of one colour, seated in turn order; seat 1 plays first."
        ));
        let ts = self.k("beads.store");
        let tp = self.k("beads.supply");
        self.line(&format!(
            "- Each player starts with {} in hand (the *store*){ts} and {} in a pile (the *supply*){tp}.",
            count(r.beads.store, "bead", "beads"),
            count(r.beads.supply, "bead", "beads"),
        ));
        let t = self.k("nutrients.supply");
        self.line(&format!(
            "- A pile of {}{t}.",
            count(r.nutrients.supply, "nutrient marker", "nutrient markers")
        ));
        let mut dice: Vec<String> = Growth::ALL
            .iter()
            .filter_map(|g| r.die_for(*g).map(|d| format!("a d{}", d.sides())))
            .collect();
        dice.push("a d12".into());
        dice.push("two d20".into());
        self.line(&format!("- Dice: {}.", list_words(&dice, "and")));
        self.line("");
        self.para(
            "Two points are *adjacent* when they touch along a line or diagonally (8 neighbours). No two beads share a point.",
        );
    }

    fn first_turn(&mut self) {
        let r = self.r;
        self.line("## Setup and the first turn");
        self.line("");
        self.para(
            "1. In seat order, each player puts one bead from their store on one of the 8 points round the centre.",
        );
        let t = self.k("setup.first_spawn_on_bead");
        let rule = match r.setup.first_spawn_on_bead {
            FirstSpawnOnBead::ChooseFree => format!(
                "A first-turn nutrient never lands on a bead{t}: if both readings of the dice hold a bead, both dice are rolled again; if one does, the roller must take the other."
            ),
            FirstSpawnOnBead::RemoveBead => format!(
                "If both readings of the dice hold a bead, both dice are rolled again; otherwise the roller may take a reading that holds a bead{t}, which removes the bead as a spawn does in later turns."
            ),
        };
        self.para(&format!(
            "2. Then, in seat order, each player rolls the two d20 and a nutrient lands where they point (see *Coordinates*). {rule}"
        ));
        self.para("After the first turn, play goes round the seats; each turn is phase 1 (growth), then phase 2 (spawning).");
    }

    fn growth(&mut self) {
        let r = self.r;
        self.line("## A turn");
        self.line("");
        self.line("### Phase 1: growth");
        self.line("");
        let on: Vec<String> = Growth::ALL
            .iter()
            .filter_map(|g| {
                r.die_for(*g)
                    .map(|d| format!("{} (d{})", action_title(*g).to_lowercase(), d.sides()))
            })
            .collect();
        self.para(&format!(
            "Choose one growth action, {}, and roll its die. Beads come from the store and are placed one at a time: a player must place as many as the roll says, unless the store runs out or no legal point is left, and may not stop early while a legal placement remains.",
            list_words(&on, "or")
        ));
        for g in Growth::ALL {
            self.action(g);
        }
        self.line("");
    }

    fn action(&mut self, g: Growth) {
        let r = self.r;
        let key = format!("growth.{}", g.key());
        let t = self.k(&key);
        let title = action_title(g);
        let die = match g {
            Growth::NewPlant => r.growth.new_plant,
            Growth::Buds => r.growth.buds,
            Growth::SimpleGrowth => r.growth.simple_growth,
            Growth::Sunbathe => r.growth.sunbathe,
        };
        let extra_key = match g {
            Growth::NewPlant => "growth.new_plant_connected",
            Growth::Buds => "growth.buds_touch",
            Growth::SimpleGrowth => "growth.simple_growth_path",
            Growth::Sunbathe => "beads.supply",
        };
        if die == ActionDie::Off {
            self.k(extra_key);
            let note = match g {
                Growth::Sunbathe => {
                    ": the store is never refilled from the supply, so a player's beads are the ones in hand at the start"
                }
                _ => "",
            };
            self.line(&format!("- {title} is not part of this variant{t}{note}."));
            return;
        }
        let d = die_name(die);
        let text = match g {
            Growth::NewPlant => {
                let tc = self.k("growth.new_plant_connected");
                let shape = if r.growth.new_plant_connected {
                    format!(
                        "Every bead after the first must touch one placed earlier in the same roll, so the roll makes a single plant{tc}."
                    )
                } else {
                    format!(
                        "The beads of one roll need not touch each other: they may start several plants, in a row or a cluster{tc}."
                    )
                };
                format!(
                    "**{title}** ({d}{t}). Roll the {d} to start new plants: no bead may touch a bead of your colour other than those placed in this same roll. {shape}"
                )
            }
            Growth::Buds => {
                let tb = self.k("growth.buds_touch");
                let touch = match r.growth.buds_touch {
                    BudsTouch::Own => {
                        format!("Each bead must touch at least two beads of your own colour{tb}.")
                    }
                    BudsTouch::Any => format!(
                        "Each bead must touch at least one bead of your colour and at least two beads in all, of any colour{tb}."
                    ),
                };
                format!(
                    "**{title}** ({d}{t}). Roll the {d} to bud off your branches. {touch} Beads placed earlier in the roll count, and buds may join two of your plants."
                )
            }
            Growth::SimpleGrowth => {
                let tp = self.k("growth.simple_growth_path");
                let path = match r.growth.simple_growth_path {
                    SimpleGrowthPath::OnePath => format!(
                        "After the first bead, each bead continues from the bead placed just before it: one roll extends one root{tp}."
                    ),
                    SimpleGrowthPath::AnyEnd => format!(
                        "Each bead may start from any end of any of your roots, so one roll may extend several roots{tp}."
                    ),
                };
                format!(
                    "**{title}** ({d}{t}). Roll the {d} to grow a root longer. Each bead must touch exactly one bead of your colour, and that bead must be the *end* of a root (a bead touching at most one bead of its colour). {path}"
                )
            }
            Growth::Sunbathe => {
                self.k("beads.supply");
                format!(
                    "**{title}** ({d}{t}). Roll the {d} and move that many beads from your supply to your store, or all that are left. There is no limit to the store."
                )
            }
        };
        self.line(&format!("- {text}"));
    }

    fn claiming(&mut self) {
        let r = self.r;
        self.line("### Claiming nutrients");
        self.line("");
        self.para(
            "A point with a nutrient (and no bead) is a legal point for a bead only for a player who already has a bead next to it, and only as the growth action allows. The bead on top *marks* the nutrient: its player was first to arrive. Marking uses a bead of the roll, and is a choice: the player may place elsewhere. A marked nutrient belongs to whoever owns the bead on top.",
        );
        let t = self.k("nutrients.value_rolled");
        let value = match r.nutrients.value_rolled {
            ValueRolled::OnClaim => format!(
                "A nutrient's value is a d12, rolled when it is marked (one roll for each marker of a stack), or just before it is scored if nobody marked it{t}."
            ),
            ValueRolled::OnSpawn => format!(
                "A nutrient's value is a d12, rolled as soon as the nutrient lands on the board, so everyone can see what it is worth before racing for it{t}."
            ),
        };
        self.para(&value);
        let t = self.k("turn.one_nutrient_per_turn");
        if r.turn.one_nutrient_per_turn {
            self.para(&format!(
                "After marking a nutrient, the player places no more beads this turn{t}; phase 2 still follows."
            ));
        } else {
            self.para(&format!(
                "A player may mark as many nutrients in one roll as the beads allow{t}."
            ));
        }
    }

    fn rain(&mut self) {
        let r = self.r;
        self.line("### Rain and scoring");
        self.line("");
        let t = self.k("rain.rolls");
        let tf = self.k("end.final_scoring");
        if r.rain.rolls.is_empty() {
            let then = if r.end.final_scoring {
                format!("nutrients are scored only once, by a last rain at the end of the game{tf}")
            } else {
                format!(
                    "and since nutrients left at the end are not scored either{tf}, nobody ever scores: every game is a draw"
                )
            };
            self.para(&format!("It never rains in this variant{t}: {then}."));
        } else {
            let kinds: Vec<String> = r
                .rain
                .rolls
                .iter()
                .map(|k| {
                    match k {
                        RollKind::Growth => "the growth die (sunbathe's too)",
                        RollKind::SpawnCheck => "the spawn d12 of phase 2",
                        RollKind::NutrientValue => "a d12 that gives a nutrient its value",
                        RollKind::Coordinate => "a d20 rolled for a nutrient's point",
                    }
                    .to_owned()
                })
                .collect();
            self.para(&format!(
                "It rains whenever someone rolls a 1 on {}{t}. A value rolled during scoring never brings more rain. The rain falls at once, before any more beads are placed, and then the turn goes on.",
                list_words(&kinds, "or")
            ));
            self.para(
                "When it rains, in the order the nutrients came onto the board, every nutrient marker with a bead next to it or on top of it is scored (the others stay): its value, rolled now if it has none yet, is split evenly among the distinct players with a bead next to it or on it. The remainder goes to the player whose bead is on top; with no marker it is lost. Each marker of a stack is scored on its own. The scored markers leave the board, and so does the bead on top, as a removed bead.",
            );
        }
    }

    fn severing(&mut self) {
        let r = self.r;
        self.line("### Severing (struggles)");
        self.line("");
        let ta = self.k("severing.actions");
        let tp = self.k("severing.per_turn");
        let tw = self.k("severing.winner_occupies");
        let actions: Vec<String> = r
            .severing
            .actions
            .iter()
            .filter(|g| r.die_for(**g).is_some())
            .map(|g| action_title(*g).to_lowercase())
            .collect();
        if r.severing.per_turn == 0 {
            self.para(&format!(
                "Severing is not part of this variant{tp}: a bead may never contest a point held by another colour."
            ));
            return;
        }
        if actions.is_empty() {
            self.para(&format!(
                "Severing is not part of this variant: no growth action in play may start a struggle{ta}."
            ));
            return;
        }
        self.para(&format!(
            "A player placing a bead with {}{ta} may instead contest a point held by another colour's bead, if the point would be a legal placement were it empty: a *struggle*. You can't sever your own line.",
            list_words(&actions, "or")
        ));
        self.para(
            "*Root strength*: a *branching* bead touches three or more beads of its colour and has strength 0. From any other bead, walk along its root in each direction, counting non-branching beads, stopping before a branching bead or at the root's end: its strength is itself plus the longer walk. The attacker's strength is that of its strongest bead next to the contested point.",
        );
        let win = if r.severing.winner_occupies {
            format!(
                "the defending bead is removed and the attacker's bead takes the point, as one bead of the roll{tw}"
            )
        } else {
            format!(
                "the defending bead is removed and the point is left empty; no bead is spent{tw}"
            )
        };
        self.para(&format!(
            "If the attacker is stronger, {win}. On a tie, or if the defender is stronger, nothing happens and no bead is spent. A struggle is never compulsory: when only struggles are left, the player may pass."
        ));
        self.para(&format!(
            "Each player may start at most {} per turn, won or not{tp}.",
            count(u32::from(r.severing.per_turn), "struggle", "struggles")
        ));
    }

    fn lost_ends(&mut self) {
        let r = self.r;
        self.line("### The lost-end rule");
        self.line("");
        let tb = self.k("beads.removed_go_to");
        let gone = match r.beads.removed_go_to {
            RemovedBeads::OutOfPlay => format!("Removed beads leave the game{tb}."),
            RemovedBeads::Supply => {
                format!("Removed beads go back to their owner's supply, to be sunbathed again{tb}.")
            }
        };
        let t = self.k("removal.lost_ends");
        let rule = match r.removal.lost_ends {
            LostEnds::OneEnd => format!(
                "When a bead leaves the board (severed, spawned on, or under a scored marker), one dangling end is lost with it{t}: the beads that no longer lead back to a split, cut back to the nearest bead that still touches two or more of its colour. A loop closed round the gap loses nothing. When several ends dangle, their owner chooses which one is lost."
            ),
            LostEnds::AllEnds => format!(
                "When a bead leaves the board (severed, spawned on, or under a scored marker), every dangling end is lost with it{t}: the beads that no longer lead back to a split, cut back to the nearest bead that still touches two or more of its colour. A loop closed round the gap loses nothing."
            ),
            LostEnds::None => format!(
                "When a bead leaves the board (severed, spawned on, or under a scored marker), only that bead goes{t}: the beads it leaves dangling stay on the board."
            ),
        };
        self.para(&format!("{rule} {gone}"));
    }

    fn spawning(&mut self) {
        let r = self.r;
        self.line("### Phase 2: spawning");
        self.line("");
        let tm = self.k("nutrients.max_on_board");
        self.para(&format!(
            "Roll the d12. If it is higher than the number of nutrient markers on the board (each marker of a stack counts), the board holds fewer than {}{tm}, and the pile is not empty, a nutrient spawns: roll the two d20 for its point (see *Coordinates*).",
            count(r.nutrients.max_on_board, "marker", "markers")
        ));
        let t = self.k("nutrients.value_rolled");
        let valued = match r.nutrients.value_rolled {
            ValueRolled::OnClaim => format!(
                "If a bead is on top (the stack was already found), the new marker's value is rolled at once{t}."
            ),
            ValueRolled::OnSpawn => {
                format!("Its value is rolled at once, as for every nutrient that lands{t}.")
            }
        };
        let new_value = match r.nutrients.value_rolled {
            ValueRolled::OnClaim => String::new(),
            ValueRolled::OnSpawn => format!(" and its value (a d12) is rolled at once{t}"),
        };
        self.line(&format!(
            "- On an empty point, a marker is placed{new_value}."
        ));
        self.line(&format!(
            "- On a point with nutrients, another marker is stacked. {valued}"
        ));
        self.line("- On a point with a bead, the bead is removed, even if it is the roller's own, and no nutrient is placed (the pile keeps it); the lost-end rule follows, the owner choosing.");
        self.line("");
    }

    fn coordinates(&mut self) {
        let r = self.r;
        self.line("### Coordinates");
        self.line("");
        let size = u32::from(r.board.size);
        let t = self.k("coordinates.faces");
        self.k("board.size");
        let (first, reach) = match r.coordinates.faces {
            FaceMapping::FaceMinusOne => (
                format!("A d20 face n is line n - 1, counted from the corner marked 0,0{t}."),
                (1..20u32).map(|f| f - 1).collect::<Vec<u32>>(),
            ),
            FaceMapping::FaceIsLine => (
                format!("A d20 face n is line n, counted from the corner marked 0,0{t}."),
                (1..20u32).collect::<Vec<u32>>(),
            ),
        };
        let mut parts = vec![first];
        let off: Vec<u32> = (1..20u32)
            .zip(reach.iter())
            .filter(|(_, line)| **line >= size)
            .map(|(f, _)| f)
            .collect();
        if let (Some(lo), Some(hi)) = (off.first(), off.last()) {
            parts.push(if lo == hi {
                format!("A {lo} names no line of this board and is rolled again.")
            } else {
                format!("Faces {lo} to {hi} name no line of this board and are rolled again.")
            });
        }
        let only20: Vec<String> = (0..size)
            .filter(|l| !reach.contains(l))
            .map(|l| l.to_string())
            .collect();
        if only20.is_empty() {
            let on: Vec<u32> = (1..20u32)
                .zip(reach.iter())
                .filter(|(_, line)| **line < size)
                .map(|(f, _)| f)
                .collect();
            let (lo, hi) = (
                on.first().copied().unwrap_or(1),
                on.last().copied().unwrap_or(19),
            );
            parts.push(format!(
                "Faces {lo} to {hi} between them reach every line; a 20 lets the roller choose any line."
            ));
        } else {
            let lines = if only20.len() > 3 {
                format!("lines {} to {}", only20[0], only20[only20.len() - 1])
            } else {
                format!(
                    "line{} {}",
                    if only20.len() == 1 { "" } else { "s" },
                    list_words(&only20, "and")
                )
            };
            parts.push(format!(
                "A 20 lets the roller choose any line, and is the only way to reach {lines}."
            ));
        }
        parts.push("The roller chooses which die is x and which is y.".into());
        self.para(&parts.join(" "));
    }

    fn end(&mut self) {
        let r = self.r;
        self.line("## End of the game");
        self.line("");
        let tb = self.k("end.beads_out");
        let out = match r.end.beads_out {
            BeadsOut::SupplyEmpty => format!("a player's supply of beads is empty{tb}"),
            BeadsOut::SupplyAndStoreEmpty => {
                format!("a player has no beads left, in the supply or in hand{tb}")
            }
        };
        self.k("nutrients.supply");
        self.line(&format!(
            "The game ends when the nutrient pile is empty or {out}."
        ));
        self.line("");
        let tf = self.k("end.finish");
        let when = match r.end.finish {
            Finish::EndOfTurn => {
                format!("Play stops at the end of the turn in which that happens{tf}.")
            }
            Finish::EndOfRound => {
                format!("The round is played out, so every player has had as many turns{tf}.")
            }
        };
        let ts = self.k("end.final_scoring");
        let last = if r.end.final_scoring {
            format!("Then a last rain scores the nutrients still on the board{ts}.")
        } else {
            format!("Nutrients still on the board are not scored{ts}.")
        };
        self.para(&format!(
            "{when} {last} The highest score wins; equal highest scores share the win."
        ));
        let tm = self.k("end.max_rounds");
        self.para(&format!(
            "A safety limit stops any game after {}{tm}; such games are reported apart.",
            count(r.end.max_rounds, "round", "rounds")
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sheet of `r`, with its differences from the standard rules.
    fn explain(r: &Rules) -> String {
        explain_with_keys(r).0
    }

    fn explain_with_keys(r: &Rules) -> (String, BTreeSet<String>) {
        let changes = crate::variant::diff::diff::<crate::games::roots_and_shoots::RootsAndShoots>(
            &Rules::standard(),
            r,
        );
        super::explain_with_keys(r, &changes)
    }

    #[test]
    fn every_key_of_rules_is_consulted() {
        let expected: BTreeSet<String> =
            crate::games::roots_and_shoots::meaning::tests::toml_leaf_keys()
                .into_iter()
                .collect();
        let (_, used) = explain_with_keys(&Rules::standard());
        assert_eq!(used, expected, "explain must describe every key of Rules");
        for key in &expected {
            let (_, used) = explain_with_keys(
                &crate::games::roots_and_shoots::meaning::tests::changed(key),
            );
            assert_eq!(&used, &expected, "with {key} changed");
        }
    }

    #[test]
    fn changed_keys_are_tagged_and_listed() {
        // The introduction names the tag once.
        let plain = explain(&Rules::standard()).matches(TAG).count();
        assert_eq!(plain, 1);
        for key in crate::games::roots_and_shoots::meaning::tests::toml_leaf_keys() {
            let text = explain(&crate::games::roots_and_shoots::meaning::tests::changed(
                &key,
            ));
            assert!(
                text.matches(TAG).count() > plain,
                "{key} changed but nothing is tagged"
            );
            assert!(text.contains(&format!("- `{key}`")), "{key} not listed");
        }
        let text = explain(&Rules::standard());
        assert!(text.contains("None: this is the standard game."));
    }

    #[test]
    fn sentences_follow_the_values() {
        let mut r = Rules::standard();
        r.growth.simple_growth = ActionDie::Off;
        r.growth.buds = ActionDie::D8;
        let text = explain(&r);
        assert!(text.contains("Simple growth is not part of this variant"));
        assert!(text.contains("Roll the d8 to bud off"));
    }
}
