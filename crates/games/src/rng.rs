//! Seeds and random streams.
//!
//! A game's seed is derived from the tournament seed and the job with a fixed hash
//! (FNV-1a over the text fields, SplitMix64 to mix the numbers), documented here so that
//! other tools can recompute it. Each side of a game then draws from its own stream,
//! `GameRng::for_side(game_seed, side)`, so diluting or changing one player never changes
//! the other player's random choices.

use crate::Side;
use rand::RngCore;
use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Mixes a 64-bit value: one step of SplitMix64 (Steele, Lea and Flood, 2014).
#[must_use]
pub const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes text with 64-bit FNV-1a: stable across platforms and releases.
#[must_use]
pub fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Derives a game's seed: `splitmix64` chained over the tournament seed, the two specs'
/// FNV-1a hashes, the game index within its pair and the opening's hash.
#[must_use]
pub fn game_seed(tournament_seed: u64, white: &str, black: &str, index: u32, opening: &str) -> u64 {
    let mut h = splitmix64(tournament_seed);
    for v in [fnv1a(white), fnv1a(black), u64::from(index), fnv1a(opening)] {
        h = splitmix64(h ^ v);
    }
    h
}

/// The random stream of one side of one game (xoshiro256++).
#[derive(Clone, Debug)]
pub struct GameRng(Xoshiro256PlusPlus);

impl GameRng {
    /// Creates a stream from a seed.
    #[must_use]
    pub fn new(seed: u64) -> GameRng {
        GameRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// Creates the stream of `side` in the game with `game_seed`.
    #[must_use]
    pub fn for_side(game_seed: u64, side: Side) -> GameRng {
        GameRng::new(splitmix64(
            game_seed ^ (side.index() as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F),
        ))
    }

    /// Returns a uniform integer in `0..n` (Lemire's multiply-shift; `n` must be > 0).
    ///
    /// # Panics
    /// Panics if `n == 0`.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "GameRng::below(0)");
        let n = n as u64;
        // Rejection keeps the draw exactly uniform.
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.0.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as usize;
            }
        }
    }

    /// Returns a uniform 16-bit number (used by dilution: below `r` means a random move).
    #[inline]
    pub fn next_u16(&mut self) -> u16 {
        (self.0.next_u32() >> 16) as u16
    }

    /// Returns a uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Picks a uniformly random element of a non-empty slice.
    ///
    /// # Panics
    /// Panics if `items` is empty.
    #[inline]
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

impl RngCore for GameRng {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.fill_bytes(dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_draw_different_streams() {
        let mut a = GameRng::for_side(7, Side::First);
        let mut b = GameRng::for_side(7, Side::Second);
        assert_ne!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = GameRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn game_seed_depends_on_every_field() {
        let base = game_seed(1, "a", "b", 0, "");
        assert_ne!(base, game_seed(2, "a", "b", 0, ""));
        assert_ne!(base, game_seed(1, "b", "a", 0, ""));
        assert_ne!(base, game_seed(1, "a", "b", 1, ""));
        assert_ne!(base, game_seed(1, "a", "b", 0, "x"));
        assert_eq!(base, game_seed(1, "a", "b", 0, ""));
    }

    #[test]
    fn fnv1a_matches_published_vector() {
        // FNV-1a 64 of "a" from the reference test vectors.
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
