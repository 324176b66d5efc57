//! Selection schemes: who breeds. Each works on a fitness vector where higher is better.
//!
//! - **Roulette** (fitness-proportional, David–Koppel–Netanyahu sections III.B and IV): organism `i` is
//!   drawn with probability `f_i / Σ f` (negative fitnesses count as 0; all zero = uniform).
//! - **Rank** (David–Koppel–Netanyahu section III.C, coevolution): linear ranking; the worst organism has
//!   rank 1, the best rank `n`, and `i` is drawn with probability `rank_i / (n(n+1)/2)`; tied
//!   fitnesses share the mean of their ranks.
//! - **Tournament** of size `k`: `k` organisms drawn uniformly with replacement, the fittest
//!   (the lowest index among equals) wins.

use eloworld_games::GameRng;

/// How parents are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Fitness-proportional (roulette wheel).
    Roulette,
    /// Linear rank-based.
    Rank,
    /// Tournament of the given size (at least 1).
    Tournament(usize),
}

impl Selection {
    /// Returns each organism's chance of being drawn once, when it has a closed form
    /// (roulette and rank); `None` for a tournament.
    #[must_use]
    pub fn probabilities(&self, fitness: &[f64]) -> Option<Vec<f64>> {
        let n = fitness.len();
        match *self {
            Selection::Roulette => {
                let weights: Vec<f64> = fitness
                    .iter()
                    .map(|&f| if f > 0.0 { f } else { 0.0 })
                    .collect();
                Some(normalise(weights, n))
            }
            Selection::Rank => Some(normalise(ranks(fitness), n)),
            Selection::Tournament(_) => None,
        }
    }

    /// Draws one organism's index. `fitness` must not be empty.
    ///
    /// # Panics
    /// Panics if `fitness` is empty.
    pub fn pick(&self, fitness: &[f64], rng: &mut GameRng) -> usize {
        assert!(!fitness.is_empty(), "selection from an empty population");
        match *self {
            Selection::Tournament(size) => {
                let mut best = rng.below(fitness.len());
                for _ in 1..size.max(1) {
                    let other = rng.below(fitness.len());
                    if fitness[other] > fitness[best]
                        || (fitness[other] == fitness[best] && other < best)
                    {
                        best = other;
                    }
                }
                best
            }
            _ => {
                let p = self.probabilities(fitness).unwrap_or_default();
                spin(&p, rng.unit())
            }
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selection::Roulette => f.write_str("roulette"),
            Selection::Rank => f.write_str("rank"),
            Selection::Tournament(k) => write!(f, "tournament{k}"),
        }
    }
}

impl std::str::FromStr for Selection {
    type Err = String;
    fn from_str(s: &str) -> Result<Selection, String> {
        match s {
            "roulette" => Ok(Selection::Roulette),
            "rank" => Ok(Selection::Rank),
            _ => s
                .strip_prefix("tournament")
                .and_then(|k| {
                    if k.is_empty() {
                        Some(2)
                    } else {
                        k.parse().ok()
                    }
                })
                .filter(|&k| k >= 1)
                .map(Selection::Tournament)
                .ok_or_else(|| {
                    format!("unknown selection {s:?}: expected roulette, rank or tournament<K>")
                }),
        }
    }
}

/// Linear ranks (1 = worst), ties sharing their mean rank.
fn ranks(fitness: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[a].total_cmp(&fitness[b]));
    let mut out = vec![0.0; fitness.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && fitness[order[j + 1]] == fitness[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = mean;
        }
        i = j + 1;
    }
    out
}

fn normalise(weights: Vec<f64>, n: usize) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights.into_iter().map(|w| w / total).collect()
    } else {
        let uniform = 1.0 / n as f64;
        vec![uniform; n]
    }
}

/// Returns the index whose cumulative probability interval holds `u` in `[0, 1)`.
fn spin(p: &[f64], u: f64) -> usize {
    let mut acc = 0.0;
    for (i, &x) in p.iter().enumerate() {
        acc += x;
        if u < acc {
            return i;
        }
    }
    // Rounding left `u` past the last interval: the last organism with a chance.
    p.iter().rposition(|&x| x > 0.0).unwrap_or(p.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FITNESS: [f64; 4] = [1.0, 2.0, 3.0, 4.0];
    const DRAWS: usize = 200_000;

    fn frequencies(s: Selection, fitness: &[f64]) -> Vec<f64> {
        let mut rng = GameRng::new(7);
        let mut counts = vec![0usize; fitness.len()];
        for _ in 0..DRAWS {
            counts[s.pick(fitness, &mut rng)] += 1;
        }
        counts
            .into_iter()
            .map(|c| c as f64 / DRAWS as f64)
            .collect()
    }

    fn close(observed: &[f64], expected: &[f64]) {
        for (o, e) in observed.iter().zip(expected) {
            assert!(
                (o - e).abs() < 0.005,
                "observed {observed:?}, expected {expected:?}"
            );
        }
    }

    #[test]
    fn roulette_draws_in_proportion_to_fitness() {
        let expected = [0.1, 0.2, 0.3, 0.4];
        close(
            &Selection::Roulette
                .probabilities(&FITNESS)
                .expect("closed form"),
            &expected,
        );
        close(&frequencies(Selection::Roulette, &FITNESS), &expected);
        // Negative fitness counts as zero.
        close(
            &frequencies(Selection::Roulette, &[-5.0, 1.0, 3.0]),
            &[0.0, 0.25, 0.75],
        );
    }

    #[test]
    fn rank_draws_in_proportion_to_rank_whatever_the_fitness_scale() {
        // Ranks 1..4 of 10: the same for fitness 1,2,3,4 and for 1,10,1000,1e9.
        let expected = [0.1, 0.2, 0.3, 0.4];
        close(&frequencies(Selection::Rank, &FITNESS), &expected);
        close(
            &frequencies(Selection::Rank, &[1e9, 1.0, 1000.0, 10.0]),
            &[0.4, 0.1, 0.3, 0.2],
        );
        // Two tied at the bottom share ranks 1 and 2: 1.5 each, out of 6.
        close(
            &Selection::Rank
                .probabilities(&[5.0, 5.0, 9.0])
                .expect("closed form"),
            &[0.25, 0.25, 0.5],
        );
    }

    #[test]
    fn tournament_of_two_matches_its_closed_form() {
        // With replacement, the k-th worst of n wins a size-2 tournament with probability
        // (k² - (k-1)²) / n² = (2k - 1) / 16 for n = 4.
        close(
            &frequencies(Selection::Tournament(2), &FITNESS),
            &[1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0],
        );
        // Size 1 is uniform.
        close(&frequencies(Selection::Tournament(1), &FITNESS), &[0.25; 4]);
    }

    #[test]
    fn names_parse() {
        assert_eq!("roulette".parse::<Selection>(), Ok(Selection::Roulette));
        assert_eq!(
            "tournament3".parse::<Selection>(),
            Ok(Selection::Tournament(3))
        );
        assert!("best".parse::<Selection>().is_err());
        assert_eq!(Selection::Tournament(3).to_string(), "tournament3");
    }
}
