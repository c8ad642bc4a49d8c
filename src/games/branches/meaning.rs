//! What a change of each Branches & Twigs & Thorns rule key means at the
//! table, in one line ([`crate::games::Game::meaning`], printed by
//! `roots diff` and at the top of the rules sheet).

use crate::games::sheet::switch_meaning;

use super::rules::{BoardShape, Markers, Mouth, OwnerPaidBy, Rules, WhenStuck};

fn more_or_fewer(a: u8, b: u8, more: String, fewer: String) -> String {
    if b > a { more } else { fewer }
}

/// Whether every board of `r` has one cell per pyramid and marker.
fn boards_fit(r: &Rules) -> bool {
    let per_player: usize = r
        .pyramids
        .stash()
        .iter()
        .map(|&n| usize::from(n))
        .sum::<usize>()
        + 1;
    (r.players.min..=r.players.max)
        .all(|n| super::Board::for_rules(r, n).cells() == usize::from(n) * per_player)
}

fn stash_change(size: &str, pips: u8, a: u8, b: u8, rules: &Rules) -> String {
    let plural = if pips == 1 { "" } else { "s" };
    let fit = if boards_fit(rules) {
        "the boards still hold one cell per piece"
    } else if b > a {
        "the board fills before the stashes empty"
    } else {
        "the stashes empty before the board is full"
    };
    more_or_fewer(
        a,
        b,
        format!(
            "each player has {b} {size} pyramids ({pips} pip{plural}), {} more: longer games, and {fit}",
            b - a.min(b)
        ),
        format!(
            "each player has {b} {size} pyramids ({pips} pip{plural}), {} fewer: shorter games, and {fit}",
            a - b.min(a)
        ),
    )
}

/// What changing `key` from its value in `a` to its value in `b` means.
pub fn meaning(key: &str, a: &Rules, b: &Rules) -> Option<String> {
    Some(match key {
        "board.shape" => match b.board.shape {
            BoardShape::Official => {
                "the official boards: 8x4 for two, the chessboard for four, rings of 4x4 zones for three, five and six".into()
            }
            BoardShape::Rectangle => {
                "every player count plays on a rectangle 8 wide with two ranks per player, as Abstract Play does".into()
            }
            BoardShape::Arcade => {
                "short games on small rectangles (2n x 5, 6 x 10 for six): the board no longer has one cell per piece unless the stashes shrink too".into()
            }
        },
        "board.five_player_mouth" => match b.board.five_player_mouth {
            Mouth::Closed => {
                "the five-player ring is closed: every zone has neighbours on both sides, so no seat is favoured".into()
            }
            Mouth::Open => {
                "the five-player ring is open between the first and fifth zones: those two zones have an outer edge there".into()
            }
        },
        "pyramids.small" => stash_change("small", 1, a.pyramids.small, b.pyramids.small, b),
        "pyramids.medium" => stash_change("medium", 2, a.pyramids.medium, b.pyramids.medium, b),
        "pyramids.large" => stash_change("large", 3, a.pyramids.large, b.pyramids.large, b),
        "setup.markers" => match b.setup.markers {
            Markers::Placed => {
                "players place nulls and roots before the first pyramid, choosing where the board has holes and where it starts growing".into()
            }
            Markers::CentreRoots => {
                "Martian Go's setup: no nulls and no setup moves, one root per player fixed on the centre cells".into()
            }
        },
        "setup.nulls_must_not_cut" => switch_meaning(
            b.setup.nulls_must_not_cut,
            "a null may not split the board into parts",
            "a null may split the board into parts, walling off cells nobody can ever point from",
        ),
        "scoring.owner_paid_by" => match b.scoring.owner_paid_by {
            OwnerPaidBy::Pot => {
                "pointing at an opponent costs the target's size, and the owner takes the pointer's size from the pot".into()
            }
            OwnerPaidBy::Mover => {
                "pointing at an opponent costs the target's size plus the pointer's size, paid to the owner: penalties hurt more".into()
            }
            OwnerPaidBy::Nobody => {
                "pointing at an opponent costs the target's size and the owner gains nothing: scores never rise, the game is one of avoiding penalties".into()
            }
        },
        "coins.start" => format!(
            "players start with {} coins: only the coins shown change, never the score or the winner",
            b.coins.start
        ),
        "coins.reset" => if b.coins.reset == 0 {
            "nobody takes coins when a payer runs out: coins may go below zero (scores and winners are unchanged)".to_owned()
        } else {
            format!(
                "when a payer runs out, everyone takes {} coins: only the coins shown change, never the score or the winner",
                b.coins.reset
            )
        },
        "play.when_stuck" => match b.play.when_stuck {
            WhenStuck::Pass => {
                "a player who cannot place is passed over; the game ends when nobody can place".into()
            }
            WhenStuck::End => {
                "the game ends as soon as the player to move cannot place".into()
            }
        },
        _ => return None,
    })
}
