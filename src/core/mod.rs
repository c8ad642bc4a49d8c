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
}
