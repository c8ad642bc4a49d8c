//! The rules sheet of a Roots Growy Roots variant (`roots explain`), written
//! from the resolved [`Rules`] values; sentences that depend on a key
//! differing from `roots-growy-roots` are marked **(house rule)**.

use std::collections::BTreeSet;

use crate::core::keys::Change;

use super::RootsGrowyRoots;
use super::rules::{Artifact, BonusTies, Deck, EndTrigger, RootMeasure, Rules, Sticks};
use crate::core::count;
use crate::games::sheet::{Reading, Sheet, list_words};

/// Where the sheet reads the rules text: the questions R1-R23 of
/// `docs/games/roots-growy-roots.md`.
pub(crate) const READINGS: &[Reading] = &[
    Reading {
        id: "R1",
        text: "Main stage: Take the following composition of the remaining cards. 15x stone, 5x artifacts, 8x water, 10x Fertilizer, 52x Normal",
        ours: "the 2-player main deck is the designers' newest sheet: 54 earth, 10 fertilizer, 8 water, 20 stone and the 5 artifacts.",
        why: "the listed deck has 90 cards, but the 2-player board the text shows has 97 main cells, and only the newest sheet fills it.",
        keys: &["board_2.main_deck"],
        literal: None,
    },
    Reading {
        id: "R2",
        text: "Roots Growy Roots is a Versus board game for 2 to 4 players.",
        ours: "three players play on the 4-player board, the bottom-right start area dealt as main field, with the deck scaled to it.",
        why: "no 3-player board exists; this keeps the designers' artifact spots.",
        keys: &["board_3"],
        literal: None,
    },
    Reading {
        id: "R3",
        text: "",
        ours: "four players get the newest deck scaled to their main field; four artifacts lie face up, the fifth is hidden.",
        why: "no 4-player deck exists, and only five artifacts do.",
        keys: &["board_4.main_deck", "board_4.artifacts"],
        literal: None,
    },
    Reading {
        id: "R4",
        text: "The game ends immediately when the fifth artifact is revealed.",
        ours: "the game ends when the last face-down artifact is turned over; the ones laid face up count as revealed.",
        why: "in a 2-player game only three artifacts are face down, so counting turned cards could never reach a fifth.",
        keys: &["end.trigger"],
        literal: Some("rgr-all-claimed"),
    },
    Reading {
        id: "R5",
        text: "",
        ours: "the game also ends when every player in a row starts a turn unable to grow, and after a round limit.",
        why: "the text has no end for a game where nobody can reach an artifact.",
        keys: &["end.max_rounds"],
        literal: None,
    },
    Reading {
        id: "R6",
        text: "Artifact - Put the corresponding artifact card into your hand. This card is then treated as Dirt.",
        ours: "an artifact does not end the turn.",
        why: "the card's own rule (treated as Dirt) is more specific than the list of what ends a turn.",
        keys: &["turn.artifact_ends_turn"],
        literal: None,
    },
    Reading {
        id: "R7",
        text: "If a player voluntarily ends his turn, any unconsumed sticks at the end of the turn are not added to the next one.",
        ours: "a player may end the turn at any time, even before growing; the unspent sticks are lost.",
        why: "the text also says a player must extend while sticks are left, but its voluntary end is explicit.",
        keys: &["turn.voluntary_end"],
        literal: None,
    },
    Reading {
        id: "R8",
        text: "A turn ends when the player ... can no longer build from the current connecting piece",
        ours: "a turn blocked this way keeps its sticks, and so does a turn skipped because no connector can grow.",
        why: "only the voluntary end is said to lose sticks.",
        keys: &["turn.blocked_end"],
        literal: None,
    },
    Reading {
        id: "R9",
        text: "Stone - Your turn ends immediately. Keep all remaining sticks in your hand. Do not place your stick on that card.",
        ours: "no stick is spent on a stone, and all are kept.",
        why: "as written.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R10",
        text: "Double occupation of the same square is also not allowed.",
        ours: "a turned stone is an obstacle; a face-up water or artifact not yet reached may be grown onto.",
        why: "a stone stops a root; an unreached card is free.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R11",
        text: "To build a bridge, choose an unoccupied square that can be reached by your current connector, but which would require crossing a piece of wood. ... If there is no free space behind the root to be built over, this is not allowed.",
        ours: "a bridge jumps two cells in a straight line over a cell holding any player's connector, to a free cell.",
        why: "\"free space behind the root to be built over\" only makes sense for a cell behind a root.",
        keys: &["turn.bridges", "turn.bridge_cost"],
        literal: None,
    },
    Reading {
        id: "R12",
        text: "an unoccupied square that can be reached by your current connector",
        ours: "a bridge starts from the connector the turn may grow from.",
        why: "as the text's words.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R13",
        text: "Player has the most branches 1 point",
        ours: "a root's branches are its tips, the seed not counted.",
        why: "a root grown in one line then has one branch.",
        keys: &["scoring.most_branches"],
        literal: None,
    },
    Reading {
        id: "R14",
        text: "The longest continuous root 3 points.",
        ours: "the longest path between any two connectors of one root, in sticks, a bridge counting one.",
        why: "a continuous root is a line you can follow; it need not start at the seed.",
        keys: &["scoring.longest_root_measure"],
        literal: None,
    },
    Reading {
        id: "R15",
        text: "Per active water card 1 point",
        ours: "an active water is one holding the player's connector, the face-up start water included once reached.",
        why: "the water's own rule pays the player whose root holds it.",
        keys: &["scoring.water", "turn.water_income"],
        literal: None,
    },
    Reading {
        id: "R16",
        text: "",
        ours: "face-down cards are hidden from everyone; hands are public.",
        why: "nothing in the text hides a hand.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R17",
        text: "Then shuffle the remaining 23 cards well(very very well).",
        ours: "a face-down card is drawn from what is left of its deck when a root reaches it.",
        why: "it is the same chance as a shuffled deck dealt face down, and nobody can peek.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R18",
        text: "",
        ours: "every player scores alone; the four colours are not teams.",
        why: "the game is \"Versus\" and scores per player.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R19",
        text: "The player who can recite the root of 2 the furthest starts.",
        ours: "seat 1 begins, then the order of the start areas.",
        why: "at the table, seat the winner of the recital first.",
        keys: &["board_2.starts", "board_3.starts", "board_4.starts"],
        literal: None,
    },
    Reading {
        id: "R20",
        text: "The ability of the artifact can be found in the artifact text.",
        ours: "an artifact is worth its point and nothing more.",
        why: "the artifact cards' text is blank in every source; `rgr-artifacts` adds abilities of our own design.",
        keys: &["artifacts.abilities"],
        literal: None,
    },
    Reading {
        id: "R21",
        text: "",
        ours: "a bridge onto a stone places nothing, keeps the sticks and ends the turn.",
        why: "as for a stone reached by a grow.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "R22",
        text: "",
        ours: "a root may enter another player's start area and claim its water.",
        why: "no rule forbids it.",
        keys: &["turn.enter_start_areas"],
        literal: None,
    },
    Reading {
        id: "R23",
        text: "",
        ours: "a bonus several players tie for goes to each of them; equal totals share the win.",
        why: "the text does not say.",
        keys: &["scoring.bonus_ties"],
        literal: None,
    },
];

fn artifact_name(a: Artifact) -> &'static str {
    match a {
        Artifact::Skry => "the Skrying Runes (`skry`)",
        Artifact::Jump => "the Flight of Hermes (`jump`)",
        Artifact::Deny => "Medusa's head (`deny`)",
        Artifact::Destroy => "Thor's hammer (`destroy`)",
        Artifact::Dry => "the was-sceptre (`dry`)",
    }
}

fn deck_words(d: &Deck) -> String {
    format!(
        "{} earth, {} fertilizer, {} water and {} stone",
        d.earth, d.fertilizer, d.water, d.stone
    )
}

fn points(n: u8) -> String {
    count(n, "point", "points")
}

/// The rules sheet of `r` in Markdown (`changes` are its rules that
/// differ from the standard ones), and the keys it consulted.
pub(crate) fn explain_with_keys(r: &Rules, changes: &[Change]) -> (String, BTreeSet<String>) {
    let mut s = Sheet::open::<RootsGrowyRoots>(r, &r.description, changes);

    s.heading(2, "Equipment");
    let players = s.players(&r.players, None);
    let r18 = s.mark("R18");
    s.line(&format!(
        "- {players}, each growing one root from a seed, with sticks (the root's segments) and connectors (its joints); every player scores alone{r18}."
    ));
    let r16 = s.mark("R16");
    let r17 = s.mark("R17");
    s.line(&format!("- A board of cards: every cell holds one card, dealt face down unless said otherwise. A face-down card is unknown to everyone until a root reaches it{r16}; then it is drawn from what is left of that cell's deck, which is exactly a well-shuffled deck dealt face down{r17}. Cards: **earth**, **fertilizer** (a stick more at once), **water** (income and a point while your root holds it), **stone** (stops the root), and the five **artifacts**."));
    let t = s.table("start_deck");
    s.line(&format!(
        "- Each player's start area is a 5 x 5 square around their seed, dealt from that player's own start deck: {}{t}, one of the water laid face up.",
        deck_words(&r.start_deck)
    ));
    s.line(&format!(
        "- The artifacts, each once: {}. The ones a board does not lay face up are shuffled into its main deck.",
        list_words(
            &Artifact::ALL
                .iter()
                .map(|a| artifact_name(*a).to_owned())
                .collect::<Vec<_>>(),
            "and"
        )
    ));
    s.line("");
    s.para("Cells are named by row letter (A at the top) and column number (1 on the left): `D6`. Each cell has eight neighbours: along the rows, columns and diagonals.");

    s.heading(2, "Setup");
    for n in 2..=4u8 {
        let key = format!("board_{n}");
        let t = s.table(&key);
        if !(r.players.min..=r.players.max).contains(&n) {
            continue;
        }
        let b = r.board(n);
        let last_row = char::from(b'A' + b.rows.saturating_sub(1));
        let starts: Vec<String> = b
            .starts
            .iter()
            .enumerate()
            .map(|(i, st)| {
                format!(
                    "seat {}: area {}, seed {}, water {}",
                    i + 1,
                    st.area,
                    st.seed,
                    st.water
                )
            })
            .collect();
        let face_up: Vec<String> = b
            .artifacts
            .iter()
            .map(|f| format!("{} on {}", f.artifact.key(), f.cell))
            .collect();
        let hidden = Artifact::ALL.len() - b.artifacts.len();
        let mark = match n {
            2 => s.mark("R1"),
            3 => s.mark("R2"),
            _ => s.mark("R3"),
        };
        s.line(&format!(
            "- **{n} players**{mark}{t}: {} rows (A-{last_row}) by {} columns (1-{}). Start areas, in turn order: {}. Face up on the main field: {}. The rest of the main field is dealt face down from {}, with {}.",
            b.rows,
            b.columns,
            b.columns,
            starts.join("; "),
            if face_up.is_empty() {
                "nothing".to_owned()
            } else {
                list_words(&face_up, "and")
            },
            deck_words(&b.main_deck),
            count(hidden as u32, "hidden artifact", "hidden artifacts"),
        ));
    }
    s.line("");
    let r19 = s.mark("R19");
    s.para(&format!("Each player's root starts as one connector on their seed. Seat 1 begins (at the table, whoever first recites the square root of 2), and turns go round in the order of the start areas{r19}."));

    s.heading(2, "A turn");
    let ti = s.k("turn.income");
    let tw = s.k("turn.water_income");
    let tw = format!("{}{tw}", s.mark("R15"));
    s.para(&format!(
        "1. **Income.** Take {}{ti}, plus {} for each water card holding one of your connectors{tw} (a water reached this turn pays from the next), plus any sticks kept from your last turn.",
        count(r.turn.income, "stick", "sticks"),
        count(r.turn.water_income, "stick", "sticks"),
    ));
    let te = s.k("turn.enter_start_areas");
    let te = format!("{}{te}", s.mark("R22"));
    let r10 = s.mark("R10");
    let enter = if r.turn.enter_start_areas {
        format!("it may be in another player's start area{te}")
    } else {
        format!("it may not be in another player's start area{te}")
    };
    s.para(&format!(
        "2. **Grow** (type the cell: `D6`). Spend one stick from a connector to a neighbouring cell: at the start of the turn from any of your connectors, after that only from the newest one. The cell must hold no connector and no turned-over stone{r10}, the stick may not cross another stick (the two diagonals of one 2 x 2 block), and {enter}. A face-down card is drawn now."
    ));
    let tf = s.k("turn.fertilizer");
    let ta = s.k("turn.artifact_ends_turn");
    let ta = format!("{}{ta}", s.mark("R6"));
    let r9 = s.mark("R9");
    let artifact = if r.turn.artifact_ends_turn {
        "as earth, the artifact goes to your hand, and your turn ends with your sticks kept"
    } else {
        "as earth, and the artifact goes to your hand; the turn goes on"
    };
    s.line("   What the card does:");
    s.line("   - **earth**: the stick is laid and a connector placed; grow on from it.");
    s.line(&format!(
        "   - **fertilizer**: as earth, and take {} more at once{tf}.",
        count(r.turn.fertilizer, "stick", "sticks")
    ));
    s.line("   - **water**: as earth; it pays income from your next turn on.");
    s.line(&format!("   - **an artifact**: {artifact}{ta}."));
    s.line(&format!("   - **stone**: no stick is laid, the stone stays face up as an obstacle, and your turn ends at once with all your sticks kept{r9}."));
    s.line("");
    let tb = s.ks(&["turn.bridges", "turn.bridge_cost"]);
    if r.turn.bridges {
        let r11 = s.mark("R11");
        let r12 = s.mark("R12");
        let r21 = s.mark("R21");
        s.para(&format!(
            "3. **Bridge** (`bridge D6`). For {}{tb}, from the connector you may grow from{r12} to the cell two steps away in a straight line (orthogonal or diagonal), when the cell in between holds any player's connector and the target is free{r11}. The target's card is drawn as for a grow; a stone there ends the turn with the sticks kept{r21}. A bridge passes above the board: it neither crosses nor is crossed.",
            count(r.turn.bridge_cost, "stick", "sticks")
        ));
    } else {
        s.para(&format!("3. There are no bridges in this variant{tb}."));
    }
    let tv = s.k("turn.voluntary_end");
    let tv = format!("{}{tv}", s.mark("R7"));
    let tk = s.k("turn.blocked_end");
    let tk = format!("{}{tk}", s.mark("R8"));
    let fate = |k: Sticks| match k {
        Sticks::Keep => "kept for your next turn",
        Sticks::Lose => "lost",
    };
    s.para(&format!(
        "4. **The turn ends** when you type `end` (at any time, even before growing: your sticks left are {}{tv}); when you have no sticks left; when you reach a stone; or when your newest connector can neither grow nor bridge anywhere (your sticks are {}{tk}). If at the start of your turn none of your connectors can grow, your turn is skipped and your sticks are {} the same way{tk}.",
        fate(r.turn.voluntary_end),
        fate(r.turn.blocked_end),
        fate(r.turn.blocked_end),
    ));
    let tab = s.k("artifacts.abilities");
    if r.artifacts.abilities {
        s.heading(3, "Artifact abilities");
        s.para(&format!(
            "Each artifact in your hand has one ability, used once in the game, on your own turn, free except `jump`, and keeping its point{tab} (a house rule of this toolkit: the designers' cards have no text):"
        ));
        s.line("- `skry D6`: D6 (face down) and every face-down card around it are turned over for everyone to see.");
        s.line("- `jump D6`: one stick to the cell two steps away in a straight line, over anything; the card is drawn as for a grow.");
        s.line(
            "- `deny 2`: seat 2's next turn is skipped (not yours, not a seat already skipped).",
        );
        s.line("- `destroy D6`: a turned stone next to one of your connectors becomes rubble, grown onto as earth.");
        s.line("- `dry D6`: a water card that does not hold your connector pays and scores nothing any more.");
        s.line("");
    } else {
        let r20 = s.mark("R20");
        s.para(&format!(
            "An artifact is worth its point and has no power: the designers' cards have no text{r20}{tab}."
        ));
    }

    s.heading(2, "The end");
    let tt = s.k("end.trigger");
    let tt = format!("{}{tt}", s.mark("R4"));
    let trigger = match r.end.trigger {
        EndTrigger::LastHiddenArtifact => {
            "the last face-down artifact is turned over (the artifacts laid face up count as turned already); the player who found it still takes it"
        }
        EndTrigger::AllArtifactsClaimed => {
            "all five artifacts are in players' hands, the ones laid face up included"
        }
    };
    let tm = s.k("end.max_rounds");
    let r5 = s.mark("R5");
    s.para(&format!(
        "The game ends at once when {trigger}{tt}. It also ends when every player in a row starts a turn unable to grow, and, as a safety net, after {}{r5}{tm}.",
        count(r.end.max_rounds, "round", "rounds")
    ));
    s.heading(2, "Scoring");
    let t1 = s.k("scoring.water");
    let t1 = format!("{}{t1}", s.mark("R15"));
    let t2 = s.k("scoring.artifact");
    let t3 = s.k("scoring.most_branches");
    let t3 = format!("{}{t3}", s.mark("R13"));
    let t4 = s.k("scoring.longest_root");
    let t5 = s.k("scoring.longest_root_measure");
    let t5 = format!("{}{t5}", s.mark("R14"));
    let t6 = s.k("scoring.bonus_ties");
    let t6 = format!("{}{t6}", s.mark("R23"));
    let measure = match r.scoring.longest_root_measure {
        RootMeasure::AnyPath => format!(
            "the longest path between any two connectors of the root, in sticks, a bridge counting as one{t5}"
        ),
        RootMeasure::FromSeed => {
            format!("the longest path from the seed out, in sticks, a bridge counting as one{t5}")
        }
    };
    s.line(&format!(
        "- {} for each water card holding one of your connectors{t1}.",
        points(r.scoring.water)
    ));
    s.line(&format!(
        "- {} for each artifact in your hand{t2}.",
        points(r.scoring.artifact)
    ));
    s.line(&format!(
        "- {} for the most branches (tips of the root, the seed not counted){t3}.",
        points(r.scoring.most_branches)
    ));
    s.line(&format!(
        "- {} for the longest root: {measure}{t4}.",
        points(r.scoring.longest_root)
    ));
    s.line("");
    let ties = match r.scoring.bonus_ties {
        BonusTies::AllTied => format!("every tied player gets the whole bonus{t6}"),
        BonusTies::Nobody => format!("nobody gets it{t6}"),
    };
    s.para(&format!(
        "When players tie for a bonus, {ties}. The highest total wins; equal totals share the win{t6}."
    ));
    s.consulted()
}

crate::sheet_tests!(RootsGrowyRoots);
