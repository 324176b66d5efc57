//! Schedules: which games a plan holds, each kind in a file of its own — the round robin
//! (every ordered pair, `games_per_pair` times), random pairings, the paired match of two
//! engines with openings (fastchess's and cutechess's `-games 2 -repeat`), the gauntlet
//! (seeded players against the field), the knockout's stages (a seeded bracket) and
//! coevolution's generations (David–Koppel–
//! Netanyahu). Every game's seed comes from [`eloworld_games::rng::game_seed`], so a job
//! can be replayed alone. The tournament crate turns a configuration into one of these
//! schedules (its `Plan`); nothing here plays a game.
#![deny(missing_docs)]

pub mod coevolution;
pub mod gauntlet;
pub mod knockout;
pub mod ladder;
pub mod paired;
pub mod random;
pub mod round_robin;

use eloworld_games::rng::{game_seed, splitmix64};

/// One game to play: who plays White (the first side) and Black, which round of the pair,
/// from which opening, with which seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobSpec {
    /// The job's key, its position in the plan (0-based).
    pub key: u32,
    /// White's index into `Plan::players`.
    pub white: u32,
    /// Black's index.
    pub black: u32,
    /// The game's index within its ordered pair.
    pub round: u32,
    /// The opening's index into `Plan::openings`, if the tournament has openings.
    pub opening: Option<u32>,
    /// The game's seed.
    pub seed: u64,
}

/// Job `key`: `white` against `black` (indices into `players`) in round `round`, from
/// `opening` (an index into `openings`), its seed derived from the tournament's `seed` and
/// all of these, as every schedule derives it. `white`, `black` and `opening` are indices
/// the caller took from `players` and `openings` (out of range is a bug, and panics).
pub fn job(
    key: u32,
    (white, black): (u32, u32),
    round: u32,
    opening: Option<u32>,
    players: &[String],
    openings: &[String],
    seed: u64,
) -> JobSpec {
    let text = opening.map_or("", |o| openings[o as usize].as_str());
    JobSpec {
        key,
        white,
        black,
        round,
        opening,
        seed: game_seed(
            seed,
            &players[white as usize],
            &players[black as usize],
            round,
            text,
        ),
    }
}

/// How a shuffle draws its indices from a SplitMix64 chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The chain starts at the seed itself; index `state mod (i + 1)`; seed 0 keeps the
    /// order (the tournament's openings, as they have always been drawn).
    Modulo,
    /// The chain starts at `splitmix64(seed ^ domain)`; Lemire's multiply-shift maps a draw
    /// onto the range without modulo bias (a match's openings).
    MultiplyShift {
        /// Mixed with the seed, so that one seed shuffles other lists differently.
        domain: u64,
    },
}

/// Shuffles `items` in place by Fisher–Yates, drawing from `seed` as `draw` says. The one
/// shuffle of every schedule.
pub fn shuffle<T>(items: &mut [T], seed: u64, draw: Draw) {
    let mut state = match draw {
        Draw::Modulo if seed == 0 => return,
        Draw::Modulo => seed,
        Draw::MultiplyShift { domain } => splitmix64(seed ^ domain),
    };
    for i in (1..items.len()).rev() {
        state = splitmix64(state);
        let range = i as u64 + 1;
        let j = match draw {
            Draw::Modulo => (state % range) as usize,
            Draw::MultiplyShift { .. } => ((u128::from(state) * u128::from(range)) >> 64) as usize,
        };
        items.swap(i, j);
    }
}

/// The domain word of a match's openings shuffle ("openings").
pub const MATCH_OPENINGS: Draw = Draw::MultiplyShift {
    domain: 0x6f70_656e_696e_6773,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_its_seed() {
        for draw in [Draw::Modulo, MATCH_OPENINGS] {
            let mut a: Vec<u32> = (0..50).collect();
            shuffle(&mut a, 7, draw);
            let mut sorted = a.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..50).collect::<Vec<_>>());
            assert_ne!(a, sorted, "{draw:?} moved something");
            let mut b: Vec<u32> = (0..50).collect();
            shuffle(&mut b, 7, draw);
            assert_eq!(a, b);
            let mut c: Vec<u32> = (0..50).collect();
            shuffle(&mut c, 8, draw);
            assert_ne!(a, c);
        }
        let mut kept: Vec<u32> = (0..10).collect();
        shuffle(&mut kept, 0, Draw::Modulo);
        assert_eq!(kept, (0..10).collect::<Vec<_>>(), "seed 0 keeps file order");
    }
}
