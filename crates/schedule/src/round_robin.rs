//! The round robin: every ordered pair of distinct players (and each player against itself
//! with `self_play`) `games_per_pair` times. With openings, round `k` of every pair uses the
//! same opening, so each opening is played once with each colour by every pair.

use super::{job, JobSpec};

/// The jobs of a round robin of `players` with `seed`, in schedule order (round by round).
#[must_use]
pub fn jobs(
    players: &[String],
    games_per_pair: u32,
    self_play: bool,
    openings: &[String],
    seed: u64,
) -> Vec<JobSpec> {
    let mut jobs = Vec::new();
    let n = players.len() as u32;
    for round in 0..games_per_pair {
        let opening = (!openings.is_empty()).then(|| round % openings.len() as u32);
        for white in 0..n {
            for black in 0..n {
                if white == black && !self_play {
                    continue;
                }
                let key = jobs.len() as u32;
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
        }
    }
    jobs
}
