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

/// Seats that had to pass, in words: `a seat could not place and is
/// passed`, `2 seats could not place and are passed` (`did` what stopped
/// them; `is` the verb for one seat and for several).
pub fn seats_passed(n: impl Into<u64>, did: &str, is: (&str, &str)) -> String {
    let n = n.into();
    if n == 1 {
        format!("a seat {did} and {} passed", is.0)
    } else {
        format!("{n} seats {did} and {} passed", is.1)
    }
}

/// The closest of `candidates` to `word`, if it is close enough to be a typo.
pub fn did_you_mean<'a, S: AsRef<str>>(word: &str, candidates: &'a [S]) -> Option<&'a str> {
    // No key or word is this long: a typo of one would not be either (and
    // the edit distance costs the product of the lengths).
    if word.len() > 64 {
        return None;
    }
    let word = word.to_ascii_lowercase();
    let scored: Vec<(usize, &str)> = candidates
        .iter()
        .map(|c| (strsim::levenshtein(&word, c.as_ref()), c.as_ref()))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .collect();
    let best = scored.iter().map(|(d, _)| *d).min()?;
    // Two equally close words (`d7`: `d6` or `d8`?) make a guess, not a hint.
    let mut closest = scored.iter().filter(|(d, _)| *d == best);
    let first = closest.next()?;
    closest.next().is_none().then_some(first.1)
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
