//! A variant as a rules sheet: the whole game as it will be played, in
//! Markdown, written from the [`Rules`] values with the shared
//! [`Sheet`] writer. Rules that differ from the standard game are tagged
//! **(house rule)** and listed at the top; the statements the 2007 text
//! does not make, or makes otherwise, carry the mark of their reading
//! ([`READINGS`], the questions of `docs/games/roots-and-shoots.md`).
//!
//! Every sentence depends on the values it describes; a test checks that every
//! key of [`Rules`] is consulted, so a new key cannot be left out.

use std::collections::BTreeSet;

use crate::core::count;
use crate::core::keys::Change;

use super::rules::{
    ActionDie, BeadsOut, BudsTouch, FaceMapping, Finish, FirstSpawnOnBead, Growth, LostEnds,
    RemovedBeads, RollKind, Rules, SimpleGrowthPath, ValueRolled,
};

use super::RootsAndShoots;
use crate::games::sheet::{Reading, Sheet, list_words};

/// Where the sheet reads the rules text: the questions RS1-RS28 of
/// `docs/games/roots-and-shoots.md`.
pub(crate) const READINGS: &[Reading] = &[
    Reading {
        id: "RS1",
        text: "Number of Players: 2+",
        ours: "2 to 6 players.",
        why: "the text sets no upper bound; the first beads take the 8 points round the centre, so a variant may allow up to 8.",
        keys: &["players.min", "players.max"],
        literal: None,
    },
    Reading {
        id: "RS2",
        text: "Determine randomly the first player.",
        ours: "seat 1 plays first; whoever seats the players draws the seats.",
        why: "a game is then a function of its seats, seed and decisions, and the simulator can measure the first seat's advantage.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS3",
        text: "Enlarge or diminish the supply of beads to shorten or lengthen the game, (and/or nutrients).",
        ours: "each pile holds 60 beads, and the nutrient pile 40 markers.",
        why: "the text gives no sizes; these make random games last about 40 rounds, the advertised 20-40 minutes.",
        keys: &["beads.supply", "nutrients.supply"],
        literal: None,
    },
    Reading {
        id: "RS4",
        text: "Each player starts with 6 beads.",
        ours: "the first bead comes from the store of 6, so a player has 5 in hand after the first turn.",
        why: "the sentence comes right before the first placement.",
        keys: &["beads.store"],
        literal: None,
    },
    Reading {
        id: "RS5",
        text: "On the first turn only, if you roll a location where a bead exists in both combinations (XY or YX) then reroll both d20s.",
        ours: "a first-turn nutrient never lands on a bead: if one reading holds a bead, the roller takes the other.",
        why: "the reroll only makes sense if first-turn nutrients are not meant to destroy the beads just placed.",
        keys: &["setup.first_spawn_on_bead"],
        literal: None,
    },
    Reading {
        id: "RS6",
        text: "they may only create entirely new plants. ... the new beads can be placed in a long row or in a cluster next to each other.",
        ours: "the beads of a new plant roll need not touch each other.",
        why: "\"plants\" is plural, and a row or a cluster is allowed, not required.",
        keys: &["growth.new_plant_connected"],
        literal: None,
    },
    Reading {
        id: "RS7",
        text: "All new nubs must touch at least 2 other beads.",
        ours: "both of the two beads touched must be the player's own; beads placed earlier in the roll count.",
        why: "buds \"extend off of an existing branch\" of the player's own plant.",
        keys: &["growth.buds_touch"],
        literal: None,
    },
    Reading {
        id: "RS8",
        text: "Must be adjacent to the very end of an existing root (i.e. attached only at the end).",
        ours: "an end is a bead touching at most one bead of its colour (a lone bead is one); after the first bead, each continues from the bead placed just before.",
        why: "\"extend a root\" is one root.",
        keys: &["growth.simple_growth_path"],
        literal: None,
    },
    Reading {
        id: "RS9",
        text: "roll to resupply your store of beads. (You must take all available.)",
        ours: "there is no limit to the store.",
        why: "the text gives none.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS10",
        text: "If you are the first to arrive and have enough beads to distribute this turn (per your roll) then place a bead on top of the nutrient",
        ours: "a player next to a nutrient may place on it as the action allows; marking uses a bead of the roll and is a choice; the nutrient is whoever owns the bead on top.",
        why: "\"enough beads to distribute this turn\" counts the marking bead; nothing makes it compulsory.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS11",
        text: "Your turn ends after collecting from just 1 nutrient.",
        ours: "collecting is marking: after marking a nutrient the player places no more beads this roll, and phase 2 still follows.",
        why: "scoring happens in anyone's turn and cannot end one; phase 2 is the game's clock.",
        keys: &["turn.one_nutrient_per_turn"],
        literal: None,
    },
    Reading {
        id: "RS12",
        text: "It rains anytime somebody rolls a 1.",
        ours: "every roll counts: the growth die, the spawn d12, a nutrient's value and each d20; a value rolled during scoring brings no more rain.",
        why: "taken literally; chaining rains during scoring would loop.",
        keys: &["rain.rolls"],
        literal: None,
    },
    Reading {
        id: "RS13",
        text: "finder rolls once for each marker",
        ours: "each marker of a stack is scored on its own, with its own remainder.",
        why: "each marker has its own roll.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS14",
        text: "Remove each nutrient marker and the players bead which is on top of the nutrient marker",
        ours: "the bead on top leaves as a removed bead like any other: the lost-end rule follows, the oldest nutrient first.",
        why: "the text removes it from the board without saying more; the order matters when one marking bead lies on another's dangling end.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS15",
        text: "When a root meets another root of a different color which want to occupy the same node there is a struggle.",
        ours: "new buds and simple growth may start a struggle, on a point that would be a legal placement were it empty.",
        why: "those actions grow an existing root; a new plant has none.",
        keys: &["severing.actions"],
        literal: None,
    },
    Reading {
        id: "RS16",
        text: "Root strength is determined using the following formula: Highest number of non-branching beads tracing back to a branch.",
        ours: "a bead touching three or more of its colour is branching and has strength 0; any other bead counts itself plus the longer walk of non-branching beads along its root; the attacker uses its strongest bead next to the point.",
        why: "the walk reproduces the formula's words for a bead in the middle of a run.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS17",
        text: "If there is a tie then the not roots are broken. The root may continue in another legal direction.",
        ours: "a tie or a defender who is stronger changes nothing, and no bead is spent.",
        why: "the bead was never placed; the text does not say what a stronger defender does.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS18",
        text: "The player must continue growing elsewhere if legally possible.",
        ours: "a struggle is never compulsory: when only struggles are left, the player may pass.",
        why: "the text never forces a struggle; this is the only pass.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS19",
        text: "The attacking root can only sever one root per turn.",
        ours: "one struggle per turn, won or not.",
        why: "otherwise a tie could be retried forever.",
        keys: &["severing.per_turn"],
        literal: None,
    },
    Reading {
        id: "RS20",
        text: "If the attacking root win then the defending root must remove the designated bead from the board.",
        ours: "the winner's bead takes the point it won, as one bead of the roll.",
        why: "the struggle was over who occupies the point.",
        keys: &["severing.winner_occupies"],
        literal: None,
    },
    Reading {
        id: "RS21",
        text: "If one or both ends can't trace back to any branch then one of those ends is lost (not both).",
        ours: "a dangling end is cut back to the nearest bead touching two or more of its colour; a loop loses nothing; the owner chooses among several ends.",
        why: "this algorithm reproduces the text's Examples A to E, which have no pictures.",
        keys: &["removal.lost_ends"],
        literal: None,
    },
    Reading {
        id: "RS22",
        text: "remove the bead from the board",
        ours: "removed beads leave the game.",
        why: "the text says only this; returning them to the pile would lengthen games.",
        keys: &["beads.removed_go_to"],
        literal: None,
    },
    Reading {
        id: "RS23",
        text: "If the number rolled is higher than the number of nutrients on the board then a new spawn does occur.",
        ours: "each marker of a stack counts; a marked nutrient's point is a nutrient point, not a root.",
        why: "a stack is several nutrients, and a marked one is the \"already found\" case.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS24",
        text: "You must always start from the point marked 0,0.",
        ours: "a d20 face n is line n - 1, so faces 1 to 19 reach every line of a 19 x 19 board; a face naming no line is rolled again.",
        why: "both dice are then alike, and every line is reached.",
        keys: &["coordinates.faces"],
        literal: None,
    },
    Reading {
        id: "RS25",
        text: "before the nutrient supply runs out or anyone's supply of beads runs out",
        ours: "the game ends at the end of the turn in which that happens.",
        why: "a turn is never cut in half.",
        keys: &["end.finish"],
        literal: None,
    },
    Reading {
        id: "RS26",
        text: "But nutrients are scored only after it rains",
        ours: "nutrients left on the board at the end are not scored.",
        why: "only rain collects them.",
        keys: &["end.final_scoring"],
        literal: None,
    },
    Reading {
        id: "RS27",
        text: "Then the player with the highest nutrient point total wins.",
        ours: "equal highest scores share the win.",
        why: "the text does not say.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "RS28",
        text: "",
        ours: "a safety limit of 300 rounds ends every game; such games are reported apart.",
        why: "every game must end, and a stalled one must be seen.",
        keys: &["end.max_rounds"],
        literal: None,
    },
];

/// The rules sheet of `r` in Markdown (`changes` are its rules that
/// differ from the standard ones), and the keys it consulted.
pub(crate) fn explain_with_keys(rules: &Rules, changes: &[Change]) -> (String, BTreeSet<String>) {
    let mut w = Writer {
        r: rules,
        s: Sheet::open::<RootsAndShoots>(rules, &rules.description, changes),
    };
    w.write();
    w.s.consulted()
}

/// The rules and the sheet being written from them.
struct Writer<'a> {
    r: &'a Rules,
    s: Sheet,
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

impl Writer<'_> {
    fn write(&mut self) {
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
        self.s.line("## Equipment");
        self.s.line("");
        let size = r.board.size;
        let t = self.s.k("board.size");
        self.s.line(&format!(
            "- A square board of {size} x {size} points{t}, beads going on the points; lines are numbered 0 to {} from the corner marked 0,0, and the centre is point {},{}.",
            size - 1,
            size / 2,
            size / 2
        ));
        let players = self.s.players(&r.players, Some("RS1"));
        let rs2 = self.s.mark("RS2");
        self.s.line(&format!(
            "- {players}, each with beads of one colour, seated in turn order; seat 1 plays first{rs2}."
        ));
        let ts = self.s.k("beads.store");
        let tp = self.s.k("beads.supply");
        let rs3 = self.s.mark("RS3");
        self.s.line(&format!(
            "- Each player starts with {} in hand (the *store*){ts} and {} in a pile (the *supply*){rs3}{tp}.",
            count(r.beads.store, "bead", "beads"),
            count(r.beads.supply, "bead", "beads"),
        ));
        let t = self.s.k("nutrients.supply");
        self.s.line(&format!(
            "- A pile of {}{rs3}{t}.",
            count(r.nutrients.supply, "nutrient marker", "nutrient markers")
        ));
        let mut dice: Vec<String> = Growth::ALL
            .iter()
            .filter_map(|g| r.die_for(*g).map(|d| format!("a d{}", d.sides())))
            .collect();
        dice.push("a d12".into());
        dice.push("two d20".into());
        self.s
            .line(&format!("- Dice: {}.", list_words(&dice, "and")));
        self.s.line("");
        self.s.para(
            "Two points are *adjacent* when they touch along a line or diagonally (8 neighbours). No two beads share a point.",
        );
    }

    fn first_turn(&mut self) {
        let r = self.r;
        self.s.line("## Setup and the first turn");
        self.s.line("");
        let rs4 = self.s.mark("RS4");
        self.s.para(&format!(
            "1. In seat order, each player puts one bead from their store on one of the 8 points round the centre{rs4}."
        ));
        let t = self.s.k("setup.first_spawn_on_bead");
        let t = format!("{}{t}", self.s.mark("RS5"));
        let rule = match r.setup.first_spawn_on_bead {
            FirstSpawnOnBead::ChooseFree => format!(
                "A first-turn nutrient never lands on a bead{t}: if both readings of the dice hold a bead, both dice are rolled again; if one does, the roller must take the other."
            ),
            FirstSpawnOnBead::RemoveBead => format!(
                "If both readings of the dice hold a bead, both dice are rolled again; otherwise the roller may take a reading that holds a bead{t}, which removes the bead as a spawn does in later turns."
            ),
        };
        self.s.para(&format!(
            "2. Then, in seat order, each player rolls the two d20 and a nutrient lands where they point (see *Coordinates*). {rule}"
        ));
        self.s.para("After the first turn, play goes round the seats; each turn is phase 1 (growth), then phase 2 (spawning).");
    }

    fn growth(&mut self) {
        let r = self.r;
        self.s.line("## A turn");
        self.s.line("");
        self.s.line("### Phase 1: growth");
        self.s.line("");
        let on: Vec<String> = Growth::ALL
            .iter()
            .filter_map(|g| {
                r.die_for(*g)
                    .map(|d| format!("{} (d{})", action_title(*g).to_lowercase(), d.sides()))
            })
            .collect();
        self.s.para(&format!(
            "Choose one growth action, {}, and roll its die. Beads come from the store and are placed one at a time: a player must place as many as the roll says, unless the store runs out or no legal point is left, and may not stop early while a legal placement remains.",
            list_words(&on, "or")
        ));
        for g in Growth::ALL {
            self.action(g);
        }
        self.s.line("");
    }

    fn action(&mut self, g: Growth) {
        let r = self.r;
        let key = format!("growth.{}", g.key());
        let t = self.s.k(&key);
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
            self.s.k(extra_key);
            let note = match g {
                Growth::Sunbathe => {
                    ": the store is never refilled from the supply, so a player's beads are the ones in hand at the start"
                }
                _ => "",
            };
            self.s
                .line(&format!("- {title} is not part of this variant{t}{note}."));
            return;
        }
        let d = die_name(die);
        let text = match g {
            Growth::NewPlant => {
                let tc = self.s.k("growth.new_plant_connected");
                let tc = format!("{}{tc}", self.s.mark("RS6"));
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
                let tb = self.s.k("growth.buds_touch");
                let tb = format!("{}{tb}", self.s.mark("RS7"));
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
                let tp = self.s.k("growth.simple_growth_path");
                let tp = format!("{}{tp}", self.s.mark("RS8"));
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
                self.s.k("beads.supply");
                let rs9 = self.s.mark("RS9");
                format!(
                    "**{title}** ({d}{t}). Roll the {d} and move that many beads from your supply to your store, or all that are left. There is no limit to the store{rs9}."
                )
            }
        };
        self.s.line(&format!("- {text}"));
    }

    fn claiming(&mut self) {
        let r = self.r;
        self.s.line("### Claiming nutrients");
        self.s.line("");
        let rs10 = self.s.mark("RS10");
        self.s.para(&format!(
            "A point with a nutrient (and no bead) is a legal point for a bead only for a player who already has a bead next to it, and only as the growth action allows. The bead on top *marks* the nutrient: its player was first to arrive. Marking uses a bead of the roll, and is a choice: the player may place elsewhere. A marked nutrient belongs to whoever owns the bead on top{rs10}."
        ));
        let t = self.s.k("nutrients.value_rolled");
        let value = match r.nutrients.value_rolled {
            ValueRolled::OnClaim => format!(
                "A nutrient's value is a d12, rolled when it is marked (one roll for each marker of a stack), or just before it is scored if nobody marked it{t}."
            ),
            ValueRolled::OnSpawn => format!(
                "A nutrient's value is a d12, rolled as soon as the nutrient lands on the board, so everyone can see what it is worth before racing for it{t}."
            ),
        };
        self.s.para(&value);
        let t = self.s.k("turn.one_nutrient_per_turn");
        if r.turn.one_nutrient_per_turn {
            let rs11 = self.s.mark("RS11");
            self.s.para(&format!(
                "After marking a nutrient, the player places no more beads this turn{t}; phase 2 still follows{rs11}."
            ));
        } else {
            self.s.para(&format!(
                "A player may mark as many nutrients in one roll as the beads allow{t}."
            ));
        }
    }

    fn rain(&mut self) {
        let r = self.r;
        self.s.line("### Rain and scoring");
        self.s.line("");
        let t = self.s.k("rain.rolls");
        let t = format!("{}{t}", self.s.mark("RS12"));
        let tf = self.s.k("end.final_scoring");
        if r.rain.rolls.is_empty() {
            let then = if r.end.final_scoring {
                format!("nutrients are scored only once, by a last rain at the end of the game{tf}")
            } else {
                format!(
                    "and since nutrients left at the end are not scored either{tf}, nobody ever scores: every game is a draw"
                )
            };
            self.s
                .para(&format!("It never rains in this variant{t}: {then}."));
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
            self.s.para(&format!(
                "It rains whenever someone rolls a 1 on {}{t}. A value rolled during scoring never brings more rain. The rain falls at once, before any more beads are placed, and then the turn goes on.",
                list_words(&kinds, "or")
            ));
            let rs13 = self.s.mark("RS13");
            let rs14 = self.s.mark("RS14");
            self.s.para(&format!(
                "When it rains, in the order the nutrients came onto the board, every nutrient marker with a bead next to it or on top of it is scored (the others stay): its value, rolled now if it has none yet, is split evenly among the distinct players with a bead next to it or on it. The remainder goes to the player whose bead is on top; with no marker it is lost. Each marker of a stack is scored on its own{rs13}. The scored markers leave the board, and so does the bead on top, as a removed bead{rs14}."
            ));
        }
    }

    fn severing(&mut self) {
        let r = self.r;
        self.s.line("### Severing (struggles)");
        self.s.line("");
        let ta = self.s.k("severing.actions");
        let tp = self.s.k("severing.per_turn");
        let tw = self.s.k("severing.winner_occupies");

        let actions: Vec<String> = r
            .severing
            .actions
            .iter()
            .filter(|g| r.die_for(**g).is_some())
            .map(|g| action_title(*g).to_lowercase())
            .collect();
        if r.severing.per_turn == 0 {
            self.s.para(&format!(
                "Severing is not part of this variant{tp}: a bead may never contest a point held by another colour."
            ));
            return;
        }
        if actions.is_empty() {
            self.s.para(&format!(
                "Severing is not part of this variant: no growth action in play may start a struggle{ta}."
            ));
            return;
        }
        let rs15 = self.s.mark("RS15");
        self.s.para(&format!(
            "A player placing a bead with {}{rs15}{ta} may instead contest a point held by another colour's bead, if the point would be a legal placement were it empty: a *struggle*. You can't sever your own line.",
            list_words(&actions, "or")
        ));
        let rs16 = self.s.mark("RS16");
        self.s.para(&format!(
            "*Root strength*: a *branching* bead touches three or more beads of its colour and has strength 0. From any other bead, walk along its root in each direction, counting non-branching beads, stopping before a branching bead or at the root's end: its strength is itself plus the longer walk. The attacker's strength is that of its strongest bead next to the contested point{rs16}."
        ));
        let rs17 = self.s.mark("RS17");
        let rs18 = self.s.mark("RS18");
        let tw = format!("{}{tw}", self.s.mark("RS20"));
        let win = if r.severing.winner_occupies {
            format!(
                "the defending bead is removed and the attacker's bead takes the point, as one bead of the roll{tw}"
            )
        } else {
            format!(
                "the defending bead is removed and the point is left empty; no bead is spent{tw}"
            )
        };
        self.s.para(&format!(
            "If the attacker is stronger, {win}. On a tie, or if the defender is stronger, nothing happens and no bead is spent{rs17}. A struggle is never compulsory: when only struggles are left, the player may pass{rs18}."
        ));
        let tp = format!("{}{tp}", self.s.mark("RS19"));
        self.s.para(&format!(
            "Each player may start at most {} per turn, won or not{tp}.",
            count(u32::from(r.severing.per_turn), "struggle", "struggles")
        ));
    }

    fn lost_ends(&mut self) {
        let r = self.r;
        self.s.line("### The lost-end rule");
        self.s.line("");
        let tb = self.s.k("beads.removed_go_to");
        let tb = format!("{}{tb}", self.s.mark("RS22"));
        let gone = match r.beads.removed_go_to {
            RemovedBeads::OutOfPlay => format!("Removed beads leave the game{tb}."),
            RemovedBeads::Supply => {
                format!("Removed beads go back to their owner's supply, to be sunbathed again{tb}.")
            }
        };
        let t = self.s.k("removal.lost_ends");
        let t = format!("{}{t}", self.s.mark("RS21"));
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
        self.s.para(&format!("{rule} {gone}"));
    }

    fn spawning(&mut self) {
        let r = self.r;
        self.s.line("### Phase 2: spawning");
        self.s.line("");
        let tm = self.s.k("nutrients.max_on_board");
        let rs23 = self.s.mark("RS23");
        self.s.para(&format!(
            "Roll the d12. If it is higher than the number of nutrient markers on the board (each marker of a stack counts{rs23}), the board holds fewer than {}{tm}, and the pile is not empty, a nutrient spawns: roll the two d20 for its point (see *Coordinates*).",
            count(r.nutrients.max_on_board, "marker", "markers")
        ));
        let t = self.s.k("nutrients.value_rolled");
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
        self.s.line(&format!(
            "- On an empty point, a marker is placed{new_value}."
        ));
        self.s.line(&format!(
            "- On a point with nutrients (marked or not{rs23}), another marker is stacked. {valued}"
        ));
        self.s.line("- On a point with a bead, the bead is removed, even if it is the roller's own, and no nutrient is placed (the pile keeps it); the lost-end rule follows, the owner choosing.");
        self.s.line("");
    }

    fn coordinates(&mut self) {
        let r = self.r;
        self.s.line("### Coordinates");
        self.s.line("");
        let size = u32::from(r.board.size);
        let t = self.s.k("coordinates.faces");
        let t = format!("{}{t}", self.s.mark("RS24"));
        self.s.k("board.size");
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
        self.s.para(&parts.join(" "));
    }

    fn end(&mut self) {
        let r = self.r;
        self.s.line("## End of the game");
        self.s.line("");
        let tb = self.s.k("end.beads_out");
        let out = match r.end.beads_out {
            BeadsOut::SupplyEmpty => format!("a player's supply of beads is empty{tb}"),
            BeadsOut::SupplyAndStoreEmpty => {
                format!("a player has no beads left, in the supply or in hand{tb}")
            }
        };
        self.s.k("nutrients.supply");
        self.s.line(&format!(
            "The game ends when the nutrient pile is empty or {out}."
        ));
        self.s.line("");
        let tf = self.s.k("end.finish");
        let tf = format!("{}{tf}", self.s.mark("RS25"));
        let when = match r.end.finish {
            Finish::EndOfTurn => {
                format!("Play stops at the end of the turn in which that happens{tf}.")
            }
            Finish::EndOfRound => {
                format!("The round is played out, so every player has had as many turns{tf}.")
            }
        };
        let ts = self.s.k("end.final_scoring");
        let ts = format!("{}{ts}", self.s.mark("RS26"));
        let rs27 = self.s.mark("RS27");
        let last = if r.end.final_scoring {
            format!("Then a last rain scores the nutrients still on the board{ts}.")
        } else {
            format!("Nutrients still on the board are not scored{ts}.")
        };
        self.s.para(&format!(
            "{when} {last} The highest score wins; equal highest scores share the win{rs27}."
        ));
        let tm = self.s.k("end.max_rounds");
        let tm = format!("{}{tm}", self.s.mark("RS28"));
        self.s.para(&format!(
            "A safety limit stops any game after {}{tm}; such games are reported apart.",
            count(r.end.max_rounds, "round", "rounds")
        ));
    }
}

crate::sheet_tests!(RootsAndShoots);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_follow_the_values() {
        let mut r = Rules::standard();
        r.growth.simple_growth = ActionDie::Off;
        r.growth.buds = ActionDie::D8;
        let changes = crate::variant::diff::diff::<RootsAndShoots>(&Rules::standard(), &r);
        let text = explain_with_keys(&r, &changes).0;
        assert!(text.contains("Simple growth is not part of this variant"));
        assert!(text.contains("Roll the d8 to bud off"));
    }
}
