//! A coevolution generation's round robin (David–Koppel–Netanyahu, section III.C): every
//! pair of organisms plays `games_per_pair` games, each from another opening of the book,
//! colours alternating. The openings of pair `(a, b)` in generation `g` are drawn without
//! replacement by a SplitMix64 chain seeded with `(seed, g, a, b)` ([`pair_openings`]), so a
//! pair never plays the same opening twice in a generation. Organisms with the same genome
//! (the same spec) are one player of the plan.

use super::{job, JobSpec};
use eloworld_games::rng::splitmix64;

/// Returns `count` distinct book indices for the games of pair `(a, b)` in `generation`,
/// drawn without replacement (Lemire's multiply-shift for the range); `None` when the book
/// has fewer than `count` openings.
#[must_use]
pub fn pair_openings(
    seed: u64,
    generation: usize,
    a: usize,
    b: usize,
    count: usize,
    book_len: usize,
) -> Option<Vec<usize>> {
    if count > book_len {
        return None;
    }
    let mut h = splitmix64(seed ^ 0xC0E0_u64);
    for v in [generation, a, b] {
        h = splitmix64(h ^ v as u64);
    }
    let mut chosen: Vec<usize> = Vec::with_capacity(count);
    while chosen.len() < count {
        h = splitmix64(h);
        let i = ((u128::from(h) * book_len as u128) >> 64) as usize;
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    Some(chosen)
}

/// One generation's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generation {
    /// The plan's players: one per distinct organism spec.
    pub players: Vec<String>,
    /// The openings the games start from (FEN), each once.
    pub openings: Vec<String>,
    /// The jobs.
    pub jobs: Vec<JobSpec>,
    /// For each job (by key), the organisms playing White and Black.
    pub organisms: Vec<(usize, usize)>,
}

/// The round robin of generation `generation` between organisms `specs` (one spec each,
/// possibly repeated), openings drawn from `book` (FEN); `None` when the book has fewer
/// openings than `games_per_pair`.
#[must_use]
pub fn generation(
    specs: &[String],
    generation: usize,
    games_per_pair: usize,
    book: &[String],
    seed: u64,
) -> Option<Generation> {
    let mut players: Vec<String> = Vec::new();
    let index: Vec<u32> = specs
        .iter()
        .map(|s| {
            let i = players.iter().position(|p| p == s).unwrap_or_else(|| {
                players.push(s.clone());
                players.len() - 1
            });
            i as u32
        })
        .collect();
    let mut openings: Vec<String> = Vec::new();
    let mut jobs = Vec::new();
    let mut organisms = Vec::new();
    let n = specs.len();
    for a in 0..n {
        for b in a + 1..n {
            let chosen = pair_openings(seed, generation, a, b, games_per_pair, book.len())?;
            for (j, &book_index) in chosen.iter().enumerate() {
                // Colours alternate: `a` has White in even games.
                let (white, black) = if j % 2 == 0 { (a, b) } else { (b, a) };
                let fen = &book[book_index];
                let opening = match openings.iter().position(|o| o == fen) {
                    Some(i) => i,
                    None => {
                        openings.push(fen.clone());
                        openings.len() - 1
                    }
                };
                let key = jobs.len() as u32;
                // An organism's spec is its player's: the seed is the one its spec makes.
                let colours = (index[white], index[black]);
                jobs.push(job(
                    key,
                    colours,
                    key,
                    Some(opening as u32),
                    &players,
                    &openings,
                    seed,
                ));
                organisms.push((white, black));
            }
        }
    }
    Some(Generation {
        players,
        openings,
        jobs,
        organisms,
    })
}
