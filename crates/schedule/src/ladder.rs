//! One batch of the adaptive ladder schedule: the ordered pairs chosen by
//! `eloworld_ladder::adaptive` for this batch, in that order. A job's `round` counts the
//! games its ordered pair played in earlier batches and earlier in this one, so every game of
//! a pair is seeded as the round robin would seed it; with openings, a pair's game uses
//! opening `round mod len`.

use super::{job, JobSpec};

/// The jobs of one batch: `pairs` (White, Black) as indices into `players`, `played[w·n + b]`
/// the games White `w` played against Black `b` before this batch.
#[must_use]
pub fn jobs(
    players: &[String],
    pairs: &[(u32, u32)],
    played: &[u32],
    openings: &[String],
    seed: u64,
) -> Vec<JobSpec> {
    let n = players.len();
    let mut rounds = played.to_vec();
    rounds.resize(n * n, 0);
    pairs
        .iter()
        .enumerate()
        .map(|(key, &(white, black))| {
            let cell = white as usize * n + black as usize;
            let round = rounds[cell];
            rounds[cell] += 1;
            let opening = (!openings.is_empty()).then(|| round % openings.len() as u32);
            job(
                key as u32,
                (white, black),
                round,
                opening,
                players,
                openings,
                seed,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pairs_rounds_continue_from_earlier_batches() {
        let players: Vec<String> = ["a", "b", "c"].iter().map(|s| (*s).to_owned()).collect();
        let mut played = vec![0u32; 9];
        played[1] = 3; // a (White) against b: three games before
        let jobs = jobs(&players, &[(0, 1), (1, 0), (0, 1)], &played, &[], 7);
        let rounds: Vec<u32> = jobs.iter().map(|j| j.round).collect();
        assert_eq!(rounds, vec![3, 0, 4]);
        assert_eq!(
            jobs.iter().map(|j| j.key).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        // The seed of a's fourth game against b is the round robin's.
        let rr = crate::round_robin::jobs(&players, 5, false, &[], 7);
        let fourth = rr.iter().find(|j| (j.white, j.black, j.round) == (0, 1, 3));
        assert_eq!(fourth.map(|j| j.seed), Some(jobs[0].seed));
    }
}
