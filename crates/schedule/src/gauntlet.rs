//! The gauntlet (cutechess-cli's `-tournament gauntlet`): the first `seeds` players (the
//! engines under test) each meet every other player `games_per_pair` times with each colour;
//! seeded players do not meet each other, nor do the others. With openings, round `k` of
//! every pairing uses the same opening, so each opening is played with both colours.

use super::{job, JobSpec};

/// The jobs of a gauntlet of `seeds` seeded players against the rest of `players`.
#[must_use]
pub fn jobs(
    players: &[String],
    seeds: usize,
    games_per_pair: u32,
    openings: &[String],
    seed: u64,
) -> Vec<JobSpec> {
    let n = players.len() as u32;
    let seeds = (seeds as u32).min(n);
    let mut jobs = Vec::new();
    for round in 0..games_per_pair {
        let opening = (!openings.is_empty()).then(|| round % openings.len() as u32);
        for s in 0..seeds {
            for o in seeds..n {
                for pair in [(s, o), (o, s)] {
                    let key = jobs.len() as u32;
                    jobs.push(job(key, pair, round, opening, players, openings, seed));
                }
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_seeded_players_pairings_are_played_with_both_colours() {
        let players: Vec<String> = ["t", "a", "b", "c"].map(str::to_owned).to_vec();
        let jobs = jobs(&players, 1, 2, &[], 5);
        assert_eq!(jobs.len(), 3 * 2 * 2);
        assert!(
            jobs.iter().all(|j| (j.white == 0) != (j.black == 0)),
            "t in every game"
        );
        for o in 1..4 {
            let as_white = jobs.iter().filter(|j| j.white == 0 && j.black == o).count();
            let as_black = jobs.iter().filter(|j| j.white == o && j.black == 0).count();
            assert_eq!((as_white, as_black), (2, 2));
        }
        let two = super::jobs(&players, 2, 1, &[], 5);
        assert_eq!(two.len(), 2 * 2 * 2);
        assert!(
            !two.iter().any(|j| j.white < 2 && j.black < 2),
            "seeds do not meet"
        );
    }
}
