//! The rules sheet of a Branches & Twigs & Thorns variant (`roots explain`),
//! written from the resolved [`Rules`] values; sentences that depend on a key
//! differing from `btt` are marked **(house rule)**.

use std::collections::BTreeSet;

use crate::core::keys::Change;

use super::Branches;
use super::board::Board;
use super::rules::{BoardShape, Markers, Mouth, OwnerPaidBy, Rules, WhenStuck};
use crate::core::count;
use crate::games::sheet::{Reading, Sheet, list_words};

/// Where the sheet reads the rules text: the questions Q1-Q12 of
/// `docs/games/branches.md`.
pub(crate) const READINGS: &[Reading] = &[
    Reading {
        id: "Q1",
        text: "The size of the piece you just placed determines how many coins you must pay to your opponent.",
        ours: "the pointer pays the target's size to the pot, and the target's owner takes the pointer's size from the pot (the pointer does not pay it).",
        why: "the designer's own program, Abstract Play and the wiki's summary (\"get others to branch off of you, and pay you handsomely\") agree on it; only this sentence of the long text reads otherwise.",
        keys: &["scoring.owner_paid_by"],
        literal: Some("btt-literal-wiki"),
    },
    Reading {
        id: "Q2",
        text: "Three diamond-shaped wedges of Eeyore's chessboard wedges.",
        ours: "for 3, 5 and 6 players, rings of 4 x 4 zones joined at the centre, each zone's rank 1 to the next zone's first column.",
        why: "the text has no picture; this construction gives exactly the chessboard for four zones and the flattened cube for three.",
        keys: &["board.shape"],
        literal: None,
    },
    Reading {
        id: "Q3",
        text: "The overall board is shaped like a PacMan.",
        ours: "the five-player ring is closed, the fifth zone joined to the first.",
        why: "a closed ring makes no zone and no seat special.",
        keys: &["board.five_player_mouth"],
        literal: None,
    },
    Reading {
        id: "Q4",
        text: "",
        ours: "no null may split the board: all cells that are not nulls stay joined through neighbours.",
        why: "a walled-off cell could never be pointed from, and the board would never fill; Abstract Play checks the same.",
        keys: &["setup.nulls_must_not_cut"],
        literal: None,
    },
    Reading {
        id: "Q5",
        text: "From then on, players take turns placing their pyramids.",
        ours: "seat 1 places the first pyramid, the turn order simply continuing after the markers.",
        why: "no other reading is plausible.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "Q6",
        text: "players take turns placing their pyramids lying down on the squares of a chessboard until the board is full.",
        ours: "nobody may pass while they can place; a player who cannot is passed over, and the game ends when nobody can place (or every stash is empty).",
        why: "the text never lets a player pass; a player without a placement cannot happen in the standard game, only in house rules.",
        keys: &["play.when_stuck"],
        literal: None,
    },
    Reading {
        id: "Q7",
        text: "Whoever has the most coins wins.",
        ours: "equal top scores share the win.",
        why: "the text does not say; Abstract Play shares it the same way.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "Q8",
        text: "Small tokens to represent the root (must fit on a chessboard square).",
        ours: "a root is one square, a marker only.",
        why: "a token fits one square; Martian Go's larger roots are its own variant.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "Q9",
        text: "Cerulean observes that a 7 x 7 square board is also good for three players, with two nulls and two roots.",
        ours: "the 7 x 7 board is not offered.",
        why: "nobody says who places the fourth marker, and the zone board serves three players.",
        keys: &[],
        literal: None,
    },
    Reading {
        id: "Q10",
        text: "everyone, including the player who just ran out of coins, takes five more coins from the pot. This is fair because only relative scores matter.",
        ours: "the score is coins gained less coins paid; a reset, as often as needed, moves only the coins shown.",
        why: "a reset moves every player alike, so it never changes a score's order.",
        keys: &["coins.reset", "coins.start"],
        literal: None,
    },
    Reading {
        id: "Q11",
        text: "Players: 2 - 4",
        ours: "2 to 6 players.",
        why: "the same page gives the setups for five and six players.",
        keys: &["players.min", "players.max"],
        literal: None,
    },
    Reading {
        id: "Q12",
        text: "Each player receives one Stash of pyramids, five coins, and a token representing either a null or a root.",
        ours: "the first half of the players (rounded down) place nulls, the others roots.",
        why: "the text gives the split for two players only (one null, one root); halves keep it for every count.",
        keys: &["setup.markers"],
        literal: None,
    },
];

/// The rules sheet of `r` in Markdown (`changes` are its rules that
/// differ from the standard ones), and the keys it consulted.
pub(crate) fn explain_with_keys(r: &Rules, changes: &[Change]) -> (String, BTreeSet<String>) {
    let mut s = Sheet::open::<Branches>(r, &r.description, changes);
    let seats: Vec<u8> = (r.players.min..=r.players.max).collect();

    s.heading(2, "Equipment");
    let players = s.players(&r.players, Some("Q11"));
    let q5 = s.mark("Q5");
    s.line(&format!(
        "- {players}, seated in turn order; seat 1 plays first{q5}. Each has pyramids of one colour; seats are shown as A, B, C ... on the board."
    ));
    let t = s.ks(&["pyramids.small", "pyramids.medium", "pyramids.large"]);
    let stash = r.pyramids.stash();
    let total: u32 = stash.iter().map(|&n| u32::from(n)).sum();
    s.line(&format!(
        "- Each player's stash: {} (1 pip), {} (2 pips) and {} (3 pips){t}: {} in all.",
        count(stash[0], "small pyramid", "small pyramids"),
        count(stash[1], "medium pyramid", "medium pyramids"),
        count(stash[2], "large pyramid", "large pyramids"),
        count(total, "pyramid", "pyramids"),
    ));
    let ts = s.k("coins.start");
    let q10 = s.mark("Q10");
    s.line(&format!(
        "- Coins: {} each{ts}, and a pot. Coins only show the score: the score (coins gained less coins paid, from 0) is what counts{q10}.",
        r.coins.start
    ));
    let shape = r.board.shape;
    let tb = s.k("board.shape");
    let tm = s.k("board.five_player_mouth");
    s.line(&format!("- The board{tb}, by number of players:"));
    for &n in &seats {
        let board = Board::for_rules(r, n);
        let how = match (shape, n) {
            (BoardShape::Official, 2) => " (half a chessboard)".to_owned(),
            (BoardShape::Official, 4) => " (a chessboard)".to_owned(),
            (BoardShape::Official, 3 | 6) => s.mark("Q2"),
            (BoardShape::Official, 5) => format!("{}{tm}", s.mark("Q3")),
            (BoardShape::Official, _) => String::new(),
            (BoardShape::Rectangle, _) => " (8 wide, 2 ranks per player)".to_owned(),
            (BoardShape::Arcade, _) => " (a short-game rectangle)".to_owned(),
        };
        s.line(&format!(
            "  - {n} players: {}{how}, {} cells.",
            board.describe(),
            board.cells()
        ));
    }
    if shape == BoardShape::Official && seats.contains(&3) {
        let q9 = s.mark("Q9");
        s.line(&format!(
            "  - (The 7 x 7 board some play three players on is not offered{q9}.)"
        ));
    }
    s.line("");
    s.para(
        "Cells are named by column letter (a on the left) and rank number (1 at the bottom), as `c2`. Each cell has at most four neighbours: N (towards the higher ranks), E, S and W; diagonals never count.",
    );
    if shape == BoardShape::Official && seats.iter().any(|n| matches!(n, 3 | 5 | 6)) {
        let mouth = if r.board.five_player_mouth == Mouth::Closed {
            "every zone is joined to the next, the last to the first"
        } else {
            "every zone is joined to the next, but the fifth is not joined to the first (an open mouth)"
        };
        s.para(&format!(
            "On the zone boards, zone 1 is columns a-d, zone 2 e-h, and so on; each zone's rank 1 is joined, cell by cell from the centre outwards, to the next zone's column of its first letter: going S from b1 arrives on e2, going W from e2 comes back to b1. The zones' corners a1, e1, i1 ... meet at the centre. With five players, {mouth}{tm}."
        ));
    }

    s.heading(2, "Setup");
    let tk = s.k("setup.markers");
    let tc = s.k("setup.nulls_must_not_cut");
    match r.setup.markers {
        Markers::Placed => {
            let q4 = s.mark("Q4");
            let cut = if r.setup.nulls_must_not_cut {
                format!(
                    "A null may not split the board: after it is placed, all cells that are not nulls must still be joined through neighbours{q4}{tc}."
                )
            } else {
                format!("A null may go on any empty cell, even one that splits the board{tc}.")
            };
            let counts: Vec<String> = seats
                .iter()
                .map(|&n| {
                    format!(
                        "{n} players: {} and {}",
                        count(n / 2, "null", "nulls"),
                        count(n - n / 2, "root", "roots")
                    )
                })
                .collect();
            let q12 = s.mark("Q12");
            let q8 = s.mark("Q8");
            s.para(&format!(
                "1. In turn order, the first half of the players (rounded down) each place a **null** on an empty cell (a hole: nothing may ever point at it), then the others each place a **root** on an empty cell{q12}{tk} ({}). A root is a marker on one cell{q8}. {cut} Type `null b1` or `root c1`, or just the cell.",
                list_words(&counts, "and")
            ));
            s.para(&format!(
                "2. Seat 1 then places the first pyramid, and turns go round in seat order{q5}."
            ));
        }
        Markers::CentreRoots => {
            let cells: Vec<String> = seats
                .iter()
                .map(|&n| {
                    let b = Board::for_rules(r, n);
                    let names: Vec<String> = b.centre_roots().iter().map(|&c| b.name(c)).collect();
                    format!("{n} players: {}", names.join(" "))
                })
                .collect();
            s.para(&format!(
                "There are no nulls and no setup moves: one root per player lies on the centre cells before play{tk} ({}). Seat 1 places the first pyramid.",
                cells.join("; ")
            ));
        }
    }

    s.heading(2, "A turn");
    let q6 = s.mark("Q6");
    s.para(&format!(
        "Place one pyramid of any size left in your stash, lying on an empty cell and **pointing at a neighbour** that holds a root or a pyramid of any colour. It may never point at a null, an empty cell or off the board. Type cell, size, direction: `c2 2 W` puts a medium pyramid on c2 pointing west, at b2 (sizes 1 to 3 or small, medium, large; directions N, E, S, W). Every turn is one placement, and nobody may pass while they can place{q6}.",
    ));
    s.heading(2, "Scoring");
    let tp = s.k("scoring.owner_paid_by");
    let penalty = match r.scoring.owner_paid_by {
        OwnerPaidBy::Pot => {
            let q1 = s.mark("Q1");
            format!(
                "you pay the **target's** size in coins to the pot, and the target's owner takes the **pointer's** size from the pot{q1}{tp}. Example: a small pyramid pointed at another player's medium: you pay 2, they gain 1"
            )
        }
        OwnerPaidBy::Mover => format!(
            "you pay the **target's** size to the pot and the **pointer's** size to the target's owner{tp}. Example: a small pyramid pointed at another player's medium: you pay 3, they gain 1"
        ),
        OwnerPaidBy::Nobody => format!(
            "you pay the **target's** size in coins to the pot and the owner gains nothing{tp}. Example: a small pyramid pointed at another player's medium: you pay 2"
        ),
    };
    s.para(&format!(
        "Pointing at a root or at your own pyramid is free. Pointing at another player's pyramid is a **penalty**: {penalty}. Nobody else is affected."
    ));
    let tr = s.k("coins.reset");
    if r.coins.reset > 0 {
        s.para(&format!(
            "When a player must pay more coins than they hold, everyone, the payer included, takes {} from the pot, as often as needed{q10}{tr}. This moves every player alike, so it never changes who leads.",
            count(r.coins.reset, "coin", "coins")
        ));
    } else {
        s.para(&format!(
            "Nobody takes coins when a payer runs out: coins may go below zero{tr}."
        ));
    }

    s.heading(2, "The end");
    let tw = s.k("play.when_stuck");
    // One cell per pyramid and marker on every board: full and empty at once.
    let exact = seats
        .iter()
        .all(|&n| Board::for_rules(r, n).cells() == usize::from(n) * (total as usize + 1));
    let fills = if exact {
        "Each board has exactly one cell per pyramid and marker, so both happen at once"
    } else {
        "Boards and stashes do not match here, so either may come first"
    };
    let stuck = match r.play.when_stuck {
        WhenStuck::Pass => format!(
            "A player who has pyramids but no cell to point from is passed over; the game ends when nobody can place{q6}{tw}."
        ),
        WhenStuck::End => format!(
            "If the player to move has pyramids but no cell to point from, the game ends at once{tw}."
        ),
    };
    let q7 = s.mark("Q7");
    s.para(&format!(
        "The game ends when the board is full or every stash is empty. {fills}. {stuck} The highest score (the most coins) wins; equal top scores share the win{q7}.",
    ));
    s.consulted()
}

crate::sheet_tests!(Branches);
