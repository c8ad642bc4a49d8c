//! The rules sheet of a Roots Growy Roots variant (`roots explain`), written
//! from the resolved [`Rules`] values; sentences that depend on a key
//! differing from `roots-growy-roots` are marked **(house rule)**.

use std::collections::BTreeSet;

use crate::core::keys::Change;

use super::RootsGrowyRoots;
use super::rules::{Artifact, BonusTies, Deck, EndTrigger, RootMeasure, Rules, Sticks};
use crate::core::count;
use crate::games::sheet::{Sheet, list_words};

/// The rules sheet of `rules`, in Markdown; `changes` are its rules that
/// differ from the standard ones.
pub fn explain(rules: &Rules, changes: &[Change]) -> String {
    explain_with_keys(rules, changes).0
}

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

/// The sheet and the keys it consulted.
pub(crate) fn explain_with_keys(r: &Rules, changes: &[Change]) -> (String, BTreeSet<String>) {
    let mut s = Sheet::open::<RootsGrowyRoots>(r, &r.description, changes);

    s.heading(2, "Equipment");
    let t = s.ks(&["players.min", "players.max"]);
    let players = if r.players.min == r.players.max {
        format!("Exactly {}", r.players.min)
    } else {
        format!("{} to {}", r.players.min, r.players.max)
    };
    s.line(&format!(
        "- {players} players{t}, each growing one root from a seed, with sticks (the root's segments) and connectors (its joints)."
    ));
    s.line("- A board of cards: every cell holds one card, dealt face down unless said otherwise. A face-down card is unknown to everyone until a root reaches it; then it is drawn from what is left of that cell's deck, which is exactly a well-shuffled deck dealt face down. Cards: **earth**, **fertilizer** (a stick more at once), **water** (income and a point while your root holds it), **stone** (stops the root), and the five **artifacts**.");
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
        s.line(&format!(
            "- **{n} players**{t}: {} rows (A-{last_row}) by {} columns (1-{}). Start areas, in turn order: {}. Face up on the main field: {}. The rest of the main field is dealt face down from {}, with {}.",
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
    s.para("Each player's root starts as one connector on their seed. Seat 1 begins (at the table, whoever first recites the square root of 2), and turns go round in the order of the start areas.");

    s.heading(2, "A turn");
    let ti = s.k("turn.income");
    let tw = s.k("turn.water_income");
    s.para(&format!(
        "1. **Income.** Take {}{ti}, plus {} for each water card holding one of your connectors{tw} (a water reached this turn pays from the next), plus any sticks kept from your last turn.",
        count(r.turn.income, "stick", "sticks"),
        count(r.turn.water_income, "stick", "sticks"),
    ));
    let te = s.k("turn.enter_start_areas");
    let enter = if r.turn.enter_start_areas {
        format!("it may be in another player's start area{te}")
    } else {
        format!("it may not be in another player's start area{te}")
    };
    s.para(&format!(
        "2. **Grow** (type the cell: `D6`). Spend one stick from a connector to a neighbouring cell: at the start of the turn from any of your connectors, after that only from the newest one. The cell must hold no connector and no turned-over stone, the stick may not cross another stick (the two diagonals of one 2 x 2 block), and {enter}. A face-down card is drawn now."
    ));
    let tf = s.k("turn.fertilizer");
    let ta = s.k("turn.artifact_ends_turn");
    let artifact = if r.turn.artifact_ends_turn {
        format!(
            "as earth, the artifact goes to your hand, and your turn ends with your sticks kept{ta}"
        )
    } else {
        format!("as earth, and the artifact goes to your hand; the turn goes on{ta}")
    };
    s.line("   What the card does:");
    s.line("   - **earth**: the stick is laid and a connector placed; grow on from it.");
    s.line(&format!(
        "   - **fertilizer**: as earth, and take {} more at once{tf}.",
        count(r.turn.fertilizer, "stick", "sticks")
    ));
    s.line("   - **water**: as earth; it pays income from your next turn on.");
    s.line(&format!("   - **an artifact**: {artifact}."));
    s.line("   - **stone**: no stick is laid, the stone stays face up as an obstacle, and your turn ends at once with all your sticks kept.");
    s.line("");
    let tb = s.ks(&["turn.bridges", "turn.bridge_cost"]);
    if r.turn.bridges {
        s.para(&format!(
            "3. **Bridge** (`bridge D6`). For {}{tb}, from the connector you may grow from to the cell two steps away in a straight line (orthogonal or diagonal), when the cell in between holds any player's connector and the target is free. The target's card is drawn as for a grow; a stone there ends the turn with the sticks kept. A bridge passes above the board: it neither crosses nor is crossed.",
            count(r.turn.bridge_cost, "stick", "sticks")
        ));
    } else {
        s.para(&format!("3. There are no bridges in this variant{tb}."));
    }
    let tv = s.k("turn.voluntary_end");
    let tk = s.k("turn.blocked_end");
    let fate = |k: Sticks| match k {
        Sticks::Keep => "kept for your next turn",
        Sticks::Lose => "lost",
    };
    s.para(&format!(
        "4. **The turn ends** when you type `end` (at any time, even before growing: your sticks left are {}{tv}); when you have no sticks left; when you reach a stone; or when your newest connector can neither grow nor bridge anywhere (your sticks are {}{tk}). If at the start of your turn none of your connectors can grow, your turn is skipped and your sticks are {} the same way.",
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
        s.para(&format!(
            "An artifact is worth its point and has no other power{tab}."
        ));
    }

    s.heading(2, "The end");
    let tt = s.k("end.trigger");
    let trigger = match r.end.trigger {
        EndTrigger::LastHiddenArtifact => format!(
            "The game ends at once when the last face-down artifact is turned over (the artifacts laid face up count as turned already); the player who found it still takes it{tt}."
        ),
        EndTrigger::AllArtifactsClaimed => format!(
            "The game ends at once when all five artifacts are in players' hands, the ones laid face up included{tt}."
        ),
    };
    let tm = s.k("end.max_rounds");
    s.para(&format!(
        "{trigger} It also ends when every player in a row starts a turn unable to grow, and, as a safety net, after {}{tm}.",
        count(r.end.max_rounds, "round", "rounds")
    ));
    s.heading(2, "Scoring");
    let t1 = s.k("scoring.water");
    let t2 = s.k("scoring.artifact");
    let t3 = s.k("scoring.most_branches");
    let t4 = s.k("scoring.longest_root");
    let t5 = s.k("scoring.longest_root_measure");
    let t6 = s.k("scoring.bonus_ties");
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
        "When players tie for a bonus, {ties}. The highest total wins; equal totals share the win."
    ));
    s.consulted()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_consulted_tagged_and_listed() {
        crate::games::sheet::tests::every_key_consulted::<RootsGrowyRoots>(explain_with_keys);
    }
}
