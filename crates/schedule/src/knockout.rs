//! The knockout (cutechess-cli's `-tournament knockout`): a seeded bracket, each encounter
//! a run of colour-swapped game pairs, the winner going on to the next round. With `n`
//! players the bracket has room for the next power of two, `2^k`; the seeds are placed as
//! in a tennis or chess-cup draw (seed 1 meets seed `2^k` in the first round, the two top
//! seeds can only meet in the final), and where a seed's first-round opponent would be a
//! seed above `n` it has a bye. So the top `2^k − n` seeds pass the first round without
//! playing, as in cutechess-cli.

use super::{job, JobSpec};

/// The seeds (0-based: seed 1 is 0) of a bracket of `size` places in draw order: places
/// `2i` and `2i + 1` meet in the first round, and the winners of neighbouring encounters
/// meet next. `size` is a power of two (a smaller number is taken as the next one).
#[must_use]
pub fn draw_order(size: usize) -> Vec<usize> {
    let size = size.max(1).next_power_of_two();
    let mut order = vec![0];
    while order.len() < size {
        // Each seed s of the smaller bracket meets, in the larger one, the seed whose
        // numbers add up to one more than the larger bracket's size.
        let places = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, places - 1 - s]).collect();
    }
    order
}

/// The first round of a knockout of `players` players: each encounter's higher seed first
/// and its opponent, `None` for a bye; in draw order.
#[must_use]
pub fn first_round(players: usize) -> Vec<(usize, Option<usize>)> {
    draw_order(players)
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            (a, (b < players).then_some(b))
        })
        .collect()
}

/// The games of one stage of a knockout: each encounter `(a, b)` (indices into `players`,
/// `a` the higher seed) plays `pairs` game pairs, `a` White in the first game of each pair
/// and Black in the second. Pair `k` takes round `first_round + k` (its seed) and opening
/// `first_round + k` (modulo the openings), so a tiebreak's pairs, numbered on from the
/// encounter's main games, are new games from new openings.
#[must_use]
pub fn jobs(
    players: &[String],
    encounters: &[(u32, u32)],
    pairs: u32,
    first_round: u32,
    openings: &[String],
    seed: u64,
) -> Vec<JobSpec> {
    let mut jobs = Vec::new();
    for &(a, b) in encounters {
        for k in 0..pairs {
            let round = first_round + k;
            let opening = (!openings.is_empty()).then(|| round % openings.len() as u32);
            for pair in [(a, b), (b, a)] {
                let key = jobs.len() as u32;
                jobs.push(job(key, pair, round, opening, players, openings, seed));
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draw_keeps_the_top_seeds_apart() {
        assert_eq!(draw_order(2), [0, 1]);
        assert_eq!(draw_order(4), [0, 3, 1, 2]);
        // Seeds 1–8: 1 v 8, 4 v 5, 2 v 7, 3 v 6; 1 and 2 meet only in the final.
        assert_eq!(draw_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
        assert_eq!(draw_order(5), draw_order(8));
    }

    #[test]
    fn the_top_seeds_have_the_byes() {
        // Five players in a bracket of eight: seeds 1, 2, 3 pass, 4 meets 5.
        assert_eq!(
            first_round(5),
            [(0, None), (3, Some(4)), (1, None), (2, None)]
        );
        assert_eq!(first_round(4), [(0, Some(3)), (1, Some(2))]);
        assert_eq!(first_round(3), [(0, None), (1, Some(2))]);
        assert_eq!(first_round(2), [(0, Some(1))]);
    }

    #[test]
    fn each_pair_swaps_colours_from_one_opening() {
        let players: Vec<String> = ["a", "b", "c", "d"].map(str::to_owned).to_vec();
        let openings: Vec<String> = ["o1", "o2", "o3"].map(str::to_owned).to_vec();
        let jobs = jobs(&players, &[(0, 3), (1, 2)], 2, 0, &openings, 7);
        assert_eq!(jobs.len(), 8);
        let colours: Vec<(u32, u32, Option<u32>)> =
            jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
        assert_eq!(
            colours[..4],
            [
                (0, 3, Some(0)),
                (3, 0, Some(0)),
                (0, 3, Some(1)),
                (3, 0, Some(1))
            ]
        );
        // A tiebreak's pair is numbered on: a new round, a new opening, a new seed.
        let tiebreak = super::jobs(&players, &[(0, 3)], 1, 2, &openings, 7);
        assert_eq!(tiebreak[0].opening, Some(2));
        assert!(jobs.iter().all(|j| j.seed != tiebreak[0].seed));
    }
}
