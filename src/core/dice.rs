//! Dice: which dice exist, and a seeded source of faces.
//!
//! The engine never rolls. A chance node names the die to roll; whoever drives
//! the game (a simulator, a referee typing physical dice, a record replayer)
//! supplies the face. [`SeededDice`] is the reproducible source used by
//! simulations: a ChaCha8 stream keyed by a `u64` seed and a stream number, with
//! faces derived from raw `u32` words by rejection sampling, so a seed means the
//! same sequence of faces in every future version of this crate.

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A polyhedral die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Die {
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
}

impl Die {
    /// Every die, smallest first.
    pub const ALL: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];

    /// Number of faces; faces are `1..=sides`.
    pub const fn sides(self) -> u8 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }

    /// The conventional name, `d4` .. `d20`.
    pub const fn name(self) -> &'static str {
        match self {
            Die::D4 => "d4",
            Die::D6 => "d6",
            Die::D8 => "d8",
            Die::D10 => "d10",
            Die::D12 => "d12",
            Die::D20 => "d20",
        }
    }

    /// Whether `face` can show on this die.
    pub const fn has_face(self, face: u8) -> bool {
        face >= 1 && face <= self.sides()
    }

    /// Parse `d4`, `D12`, ...
    pub fn parse(s: &str) -> Option<Die> {
        Die::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
    }
}

impl std::fmt::Display for Die {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A reproducible source of die faces: one ChaCha8 stream per game.
///
/// The key is the seed's eight little-endian bytes followed by zeros; the
/// stream number is the game's index within a run. A face is drawn from one
/// `u32` word by rejection sampling (words at or above the largest multiple of
/// the die's size are discarded), so the mapping from seed to faces depends
/// only on the ChaCha8 definition and this function, never on `rand`'s
/// distribution code.
#[derive(Debug)]
pub struct SeededDice {
    rng: ChaCha8Rng,
}

/// A copy that goes on exactly as the original would (the referee keeps a
/// game's stream at its start to put it back on an undo).
impl Clone for SeededDice {
    fn clone(&self) -> SeededDice {
        SeededDice {
            rng: ChaCha8Rng::deserialize_state(&self.rng.serialize_state()),
        }
    }
}

impl SeededDice {
    /// The stream for game `stream` of a run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> SeededDice {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        SeededDice { rng }
    }

    /// The generator itself, for samplers of other distributions (the
    /// report's bootstrap draws binomials from it).
    pub fn rng_mut(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// The dice of game `game` of a run seeded with `seed`: stream `16 * game`.
    pub fn for_game(seed: u64, game: u64) -> SeededDice {
        SeededDice::new(seed, game.wrapping_mul(16))
    }

    /// The private stream of the bot in seat `seat` (0..8) of game `game`:
    /// stream `16 * game + 1 + seat`. Bots draw from their own streams so that
    /// changing one seat's bot never changes the dice of the game.
    pub fn for_seat(seed: u64, game: u64, seat: u8) -> SeededDice {
        SeededDice::new(seed, game.wrapping_mul(16) + 1 + u64::from(seat))
    }

    /// Roll `die`.
    #[inline]
    pub fn roll(&mut self, die: Die) -> u8 {
        let n = u32::from(die.sides());
        loop {
            let w = self.rng.next_u32();
            if accepts(w, n) {
                // `w % n` without a division or a branch on the die.
                return fast_mod(w, FAST_MOD[die as usize], n) as u8 + 1;
            }
        }
    }

    /// Draw a card from a deck: face `k` (from 1) with probability
    /// `weights[k - 1] / total`, exactly. A number below the total is drawn
    /// from one `u32` word by the same rejection as [`SeededDice::roll`]
    /// (words at or above the largest multiple of the total are discarded,
    /// then the word modulo the total), and the face is the one whose run of
    /// the cumulative weights holds it. So the mapping from seed to cards is
    /// pinned like the dice's. The total must be from 1 to `u32::MAX`; with
    /// no weight at all, face 1 is returned without drawing.
    #[inline]
    pub fn draw(&mut self, weights: &[u32]) -> u8 {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let Ok(n) = u32::try_from(total) else {
            panic!("a deck of more than 2^32 - 1 cards");
        };
        if n == 0 {
            return 1;
        }
        let mut x = loop {
            let w = self.rng.next_u32();
            if accepts(w, n) {
                // `w % n`: for a deck of up to `DRAW_MOD.len() - 1` cards
                // (every shipped deck) without a division.
                break match DRAW_MOD.get(n as usize) {
                    Some(&m) if n >= 2 => fast_mod(w, m, n),
                    _ => w % n,
                };
            }
        };
        for (k, &w) in weights.iter().enumerate() {
            if x < w {
                return (k + 1) as u8;
            }
            x -= w;
        }
        weights.len() as u8
    }

    /// A uniform integer in `0..n` (`n > 0`), for bots and samplers (die
    /// faces come from [`SeededDice::roll`], whose mapping is pinned). Lemire's
    /// multiply-and-reject method: the high half of `word * n`, with a
    /// division only for the rare low half that could be biased.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.rng.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n; // 2^32 mod n
            while (m as u32) < threshold {
                m = u64::from(self.rng.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// One of `items`, uniformly (no draw for a single item): how every
    /// bot breaks a tie, so that a game stays a function of its seed and
    /// no listed order is favoured. `None` when there are none.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        match items.len() {
            0 => None,
            1 => Some(items[0]),
            n => Some(items[self.below(n as u32) as usize]),
        }
    }

    /// Put `items` in an order drawn uniformly (Fisher-Yates from the
    /// end): a stable sort after it orders equal keys by these dice.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A raw 32-bit word, for callers that need their own distributions.
    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }
}

/// Whether rejection sampling for `0..n` keeps the word `w`: whether
/// `w < n * floor(2^32 / n)`, so that every residue is equally likely. Every
/// word up to `2^32 - n - 1` is kept, so the exact limit (a 64-bit division)
/// is only worked out for the rare word near the top.
#[inline(always)]
fn accepts(w: u32, n: u32) -> bool {
    w <= u32::MAX - n || u64::from(w) < (1u64 << 32) / u64::from(n) * u64::from(n)
}

/// `ceil(2^64 / n)` (`u64::MAX / n + 1`) for the size `n` of each die, in the order of
/// [`Die::ALL`]: the multiplier of [`fast_mod`].
const FAST_MOD: [u64; 6] = {
    let mut m = [0u64; 6];
    let mut i = 0;
    while i < 6 {
        m[i] = u64::MAX / Die::ALL[i].sides() as u64 + 1;
        i += 1;
    }
    m
};

/// `ceil(2^64 / n)` (`u64::MAX / n + 1`) for each deck size `n` from 2 to 256 (0 and 1
/// unused): the multiplier of [`fast_mod`] for [`SeededDice::draw`], whose
/// size changes with every card drawn.
const DRAW_MOD: [u64; 257] = {
    let mut m = [0u64; 257];
    let mut n = 2;
    while n < 257 {
        m[n] = u64::MAX / n as u64 + 1;
        n += 1;
    }
    m
};

/// `w % n` for `n >= 2`, given `m = ceil(2^64 / n)`: exact for every
/// 32-bit `w` (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019).
#[inline(always)]
fn fast_mod(w: u32, m: u64, n: u32) -> u32 {
    let low = m.wrapping_mul(u64::from(w));
    ((u128::from(low) * u128::from(n)) >> 64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pick draws only between two or more items, uniformly; a shuffle
    /// keeps the items and reaches every order of three.
    #[test]
    fn pick_and_shuffle_are_uniform_and_keep_the_items() {
        let mut dice = SeededDice::new(7, 0);
        let mut twin = dice.clone();
        assert_eq!(dice.pick::<u8>(&[]), None);
        assert_eq!(dice.pick(&[4u8]), Some(4));
        // Neither drew: the dice are where they were.
        assert_eq!(dice.next_u32(), twin.next_u32());
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[usize::from(dice.pick(&[0u8, 1, 2]).expect("three"))] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
        let mut orders = std::collections::HashSet::new();
        for _ in 0..600 {
            let mut v = [1u8, 2, 3];
            dice.shuffle(&mut v);
            let mut sorted = v;
            sorted.sort();
            assert_eq!(sorted, [1, 2, 3]);
            orders.insert(v);
        }
        assert_eq!(orders.len(), 6);
    }

    /// The division-free remainder is exact for every die, on every word near
    /// the edges and on a few million words in between.
    #[test]
    fn fast_mod_is_exact() {
        for die in Die::ALL {
            let n = u32::from(die.sides());
            let m = FAST_MOD[die as usize];
            let check = |w: u32| assert_eq!(fast_mod(w, m, n), w % n, "{w} % {n}");
            (0..100_000).for_each(check);
            (u32::MAX - 100_000..=u32::MAX).for_each(check);
            (0..u32::MAX).step_by(1021).for_each(check);
        }
    }

    /// The deck sizes' division-free remainder is exact, on every word near
    /// the edges and on words spread over the rest.
    #[test]
    fn draw_mod_is_exact() {
        for n in 2..DRAW_MOD.len() as u32 {
            let m = DRAW_MOD[n as usize];
            let check = |w: u32| assert_eq!(fast_mod(w, m, n), w % n, "{w} % {n}");
            (0..2_000).for_each(check);
            (u32::MAX - 2_000..=u32::MAX).for_each(check);
            (0..u32::MAX).step_by(65_521).for_each(check);
        }
    }

    /// The shortcut in `accepts` keeps exactly the words the definition keeps.
    #[test]
    fn acceptance_matches_the_definition() {
        let definition = |w: u32, n: u32| u64::from(w) < (1u64 << 32) / u64::from(n) * u64::from(n);
        let mut sizes: Vec<u32> = (1..=1000).collect();
        sizes.extend([4096, 65_536, 1 << 31, (1 << 31) + 1, u32::MAX - 1, u32::MAX]);
        for n in sizes {
            let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
            let edges = [0, 1, n - 1, n, u32::MAX - n, u32::MAX - n + 1, u32::MAX];
            let around_limit = [limit.saturating_sub(1), limit, limit + 1]
                .into_iter()
                .filter_map(|w| u32::try_from(w).ok());
            for w in edges.into_iter().chain(around_limit) {
                assert_eq!(accepts(w, n), definition(w, n), "w = {w}, n = {n}");
            }
        }
    }

    #[test]
    fn faces_are_in_range_and_all_appear() {
        let mut dice = SeededDice::new(7, 0);
        for die in Die::ALL {
            let mut seen = vec![false; die.sides() as usize + 1];
            for _ in 0..2000 {
                let f = dice.roll(die);
                assert!(die.has_face(f), "{die} showed {f}");
                seen[f as usize] = true;
            }
            assert!(seen[1..].iter().all(|&s| s), "{die} missed a face");
        }
    }

    #[test]
    fn a_seed_means_the_same_faces_forever() {
        // Pinned: if this changes, every recorded seed means a different game.
        let mut dice = SeededDice::new(42, 3);
        let faces: Vec<u8> = (0..12).map(|_| dice.roll(Die::D20)).collect();
        insta::assert_debug_snapshot!(faces);
    }

    /// A roll is the word modulo the die's size, plus one, after rejecting
    /// the words at or above the largest multiple of the size.
    #[test]
    fn rolls_follow_their_definition() {
        for die in Die::ALL {
            let (mut a, mut b) = (SeededDice::new(9, 4), SeededDice::new(9, 4));
            let n = u32::from(die.sides());
            let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
            for _ in 0..10_000 {
                let w = loop {
                    let w = b.next_u32();
                    if u64::from(w) < limit {
                        break w;
                    }
                };
                assert_eq!(u32::from(a.roll(die)), w % n + 1);
            }
        }
    }

    /// `below` stays in range and hits every value about equally often.
    #[test]
    fn below_is_in_range_and_even() {
        let mut dice = SeededDice::new(5, 2);
        for n in [1u32, 2, 3, 7, 8, 361, 1000] {
            let mut counts = vec![0u32; n as usize];
            let draws = 200 * n;
            for _ in 0..draws {
                let v = dice.below(n);
                assert!(v < n, "{v} from below({n})");
                counts[v as usize] += 1;
            }
            let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
            assert!(
                *lo > 120 && *hi < 290,
                "below({n}): counts from {lo} to {hi}"
            );
        }
        // Sizes near the top of the range, where rejection matters.
        for n in [u32::MAX, (1 << 31) + 1] {
            for _ in 0..1000 {
                assert!(dice.below(n) < n);
            }
        }
    }

    /// A draw is the accepted word modulo the deck's size, walked along the
    /// cumulative weights; a kind with no card left never comes up.
    #[test]
    fn draws_follow_their_definition() {
        let weights = [54u32, 10, 0, 20, 8, 1, 1, 0, 1];
        let n: u32 = weights.iter().sum();
        let limit = (1u64 << 32) / u64::from(n) * u64::from(n);
        let (mut a, mut b) = (SeededDice::new(11, 2), SeededDice::new(11, 2));
        let mut counts = [0u32; 9];
        for _ in 0..20_000 {
            let w = loop {
                let w = b.next_u32();
                if u64::from(w) < limit {
                    break w;
                }
            };
            let mut x = w % n;
            let expected = weights
                .iter()
                .position(|&k| {
                    if x < k {
                        true
                    } else {
                        x -= k;
                        false
                    }
                })
                .unwrap()
                + 1;
            let face = a.draw(&weights);
            assert_eq!(usize::from(face), expected);
            counts[usize::from(face) - 1] += 1;
        }
        assert_eq!(counts[2], 0);
        assert_eq!(counts[7], 0);
        // 54/95 of 20,000 is 11,368.
        assert!((11_000..11_750).contains(&counts[0]), "{counts:?}");
    }

    #[test]
    fn a_seed_means_the_same_cards_forever() {
        // Pinned: if this changes, every recorded seed of a card game
        // means a different game.
        let mut dice = SeededDice::new(42, 3);
        let faces: Vec<u8> = (0..16).map(|_| dice.draw(&[14, 3, 1, 5])).collect();
        insta::assert_debug_snapshot!(faces);
    }

    #[test]
    fn streams_differ() {
        let a: Vec<u8> = {
            let mut d = SeededDice::new(1, 0);
            (0..16).map(|_| d.roll(Die::D20)).collect()
        };
        let b: Vec<u8> = {
            let mut d = SeededDice::new(1, 1);
            (0..16).map(|_| d.roll(Die::D20)).collect()
        };
        assert_ne!(a, b);
    }
}
