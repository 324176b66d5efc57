//! Random pairings: `games` games, game `i` between an ordered pair (distinct players, or
//! any with `self_play`) drawn uniformly from a SplitMix64 chain started at the tournament
//! seed, so any prefix of the schedule is an unbiased sample (Elo World's field, played as
//! far as time allows). A job's `round` counts the earlier games of its pair, so its seed is
//! the one the round robin would give that game. With openings, game `i` uses opening
//! `i mod len`.

use super::{job, JobSpec};
use eloworld_games::rng::{fnv1a, splitmix64};

/// The jobs of `games` random pairings of `players` with `seed`.
#[must_use]
pub fn jobs(
    players: &[String],
    games: u32,
    self_play: bool,
    openings: &[String],
    seed: u64,
) -> Vec<JobSpec> {
    let n = players.len() as u32;
    let pairs: Vec<(u32, u32)> = (0..n)
        .flat_map(|w| (0..n).map(move |b| (w, b)))
        .filter(|&(w, b)| w != b || self_play)
        .collect();
    let mut rounds = vec![0u32; pairs.len()];
    let mut state = splitmix64(seed ^ fnv1a("schedule = random"));
    let mut jobs = Vec::with_capacity(games as usize);
    for key in 0..games {
        state = splitmix64(state);
        // Lemire's multiply-shift: the bias for a few dozen pairs is below 2^-58.
        let p = ((u128::from(state) * pairs.len() as u128) >> 64) as usize;
        let (white, black) = pairs[p];
        let round = rounds[p];
        rounds[p] += 1;
        let opening = (!openings.is_empty()).then(|| key % openings.len() as u32);
        jobs.push(job(
            key,
            (white, black),
            round,
            opening,
            players,
            openings,
            seed,
        ));
    }
    jobs
}
