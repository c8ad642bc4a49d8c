//! The engine core: what any board game here needs, whatever its
//! rules. Nothing in this module knows about any one game.

pub mod diagnostic;
pub mod dice;
pub mod draw;
pub mod geometry;
pub mod graph;
pub mod io;
pub mod keys;
pub mod player;
pub mod protocol;
pub mod svg;

/// A count in words with its noun: `1 card`, `0 cards`, `2 cards` (never
/// "1 cards").
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A count of players in words: `2 players`, `2 to 4 players` (never
/// "2 to 2 players").
pub fn players_phrase(min: u8, max: u8) -> String {
    if min == max {
        format!("{min} player{}", if min == 1 { "" } else { "s" })
    } else {
        format!("{min} to {max} players")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_single_player_count_is_not_a_range() {
        assert_eq!(super::players_phrase(2, 2), "2 players");
        assert_eq!(super::players_phrase(2, 4), "2 to 4 players");
    }

    #[test]
    fn one_card_is_singular() {
        assert_eq!(super::count(1u32, "card", "cards"), "1 card");
        assert_eq!(super::count(0u32, "card", "cards"), "0 cards");
        assert_eq!(super::count(2u32, "card", "cards"), "2 cards");
    }
}
