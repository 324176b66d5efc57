//! Jeff Rollason's iterative points-sharing rating (1995), as given in pseudo code on Rollason's
//! page of computer Go rankings.
//!
//! Every player starts at 2000. One iteration: for every game, the winner's sum gains the two
//! players' ratings above 1500, (R1 − 1500) + (R2 − 1500); the loser gains nothing ("no credit
//! for losing"). Then every player's rating becomes SumRating/NumMatches + 1500. Iterations
//! repeat until no rating changes by more than a small threshold. The offset 1500 is not used in
//! the sharing itself (ratings are shared as R − 1500). The iteration keeps Σ N_i·(R_i − 1500)
//! constant, so the total of rating points stays fixed and it converges to the principal
//! eigenvector of the points matrix.
//!
//! **Draws** (the pseudo code has only 0 or 1 results): a draw gives each player half the shared
//! points, result ½, as the page's Points column (which has half points) counts it.
//!
//! The page prints each player with its rating, its points and a bar of asterisks; see
//! [`RollasonRatings::stars`].
//!
//! **Collapse.** When some players never lost a point to the rest (an unbeaten player among
//! weaker ones), nothing flows back to them, and the iteration's own fixed point gives them
//! every rating point of the field (1500 + 500·ΣN/N for one such player) while everyone else
//! falls to the offset. The algorithm is kept, but the iteration stops once such a player's
//! share reaches [`COLLAPSE_BOUND`] times the starting share (rating 1500 + 10 × 500 = 6500
//! with the page's settings); those players are marked [`RollasonRatings::at_bound`], the
//! field [`RollasonRatings::collapsed`], and their value is the bound or the collapsed fixed
//! point, not a rating.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{rollason::{Rollason, RollasonConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! let r = Rollason::new(RollasonConfig::new()).rate(&games.counts());
//! assert_eq!(r.ratings, vec![2500.0, 1500.0]);
//! ```

use crate::games::PairCounts;

/// How many times its starting share a collapsing player's share may reach before the
/// iteration stops (see the module's notes).
pub const COLLAPSE_BOUND: f64 = 10.0;

/// Settings of the iteration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollasonConfig {
    /// Every player's rating before the first iteration (2000 in the pseudo code).
    pub initial_rating: f64,
    /// The offset (1500).
    pub offset: f64,
    /// Iterate until every change is at most this.
    pub threshold: f64,
    /// Give up after this many iterations.
    pub max_iterations: u32,
}

impl RollasonConfig {
    /// Returns the pseudo code's settings, with a threshold of 10⁻⁶ rating points.
    #[must_use]
    pub const fn new() -> RollasonConfig {
        RollasonConfig {
            initial_rating: 2000.0,
            offset: 1500.0,
            threshold: 1e-6,
            max_iterations: 1_000_000,
        }
    }
}

impl Default for RollasonConfig {
    fn default() -> RollasonConfig {
        RollasonConfig::new()
    }
}

/// The ratings with each player's points.
#[derive(Clone, Debug, PartialEq)]
pub struct RollasonRatings {
    /// Rating per player (players without games keep the offset).
    pub ratings: Vec<f64>,
    /// Points per player (wins + draws/2).
    pub points: Vec<f64>,
    /// Iterations run.
    pub iterations: u32,
    /// False when `max_iterations` ran out (or the field collapsed) before the ratings settled.
    pub converged: bool,
    /// Players who never lost a point to the rest: they absorb every point (stopped at the
    /// collapse bound, or settled at the collapsed fixed point).
    pub at_bound: Vec<bool>,
    /// True when the field collapsed onto the players `at_bound`.
    pub collapsed: bool,
    offset: f64,
}

impl RollasonRatings {
    /// Shifts every rating, and the offset the bars start from, by `d` (an anchor).
    pub fn shift(&mut self, d: f64) {
        self.ratings.iter_mut().for_each(|r| *r += d);
        self.offset += d;
    }

    /// Returns the offset (1500 unless shifted): a bar's first star.
    #[must_use]
    pub const fn offset(&self) -> f64 {
        self.offset
    }

    /// Returns the length of a player's asterisk bar: one star for the offset and one more per
    /// 1/36 of the top rating's height above the offset, so the leader gets 37 (the page's
    /// combined table gives its leader 37; the page does not say how it scales, and its bars
    /// fit 36–41 stars for its leaders).
    #[must_use]
    pub fn stars(&self, player: usize) -> usize {
        let top = self.ratings.iter().copied().fold(self.offset, f64::max) - self.offset;
        if top <= 0.0 {
            return 1;
        }
        let above = (self.ratings[player] - self.offset).max(0.0);
        1 + (36.0 * above / top + 1e-9).floor() as usize
    }
}

/// The iterative rating of Rollason's computer-Go ratings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rollason {
    config: RollasonConfig,
}

impl Rollason {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: RollasonConfig) -> Rollason {
        Rollason { config }
    }

    /// Rates the players from their game counts.
    #[must_use]
    pub fn rate(&self, counts: &PairCounts) -> RollasonRatings {
        let n = counts.n();
        let offset = self.config.offset;
        // (i, j, points of i, points of j) for every pair that met.
        let mut pairs: Vec<(usize, usize, f64, f64)> = Vec::new();
        let mut matches = vec![0f64; n];
        let mut points = vec![0f64; n];
        for i in 0..n {
            for j in i + 1..n {
                let [l, d, w] = counts.pair(i, j);
                let games = f64::from(l + d + w);
                if games > 0.0 {
                    let pi = f64::from(w) + 0.5 * f64::from(d);
                    pairs.push((i, j, pi, games - pi));
                    matches[i] += games;
                    matches[j] += games;
                    points[i] += pi;
                    points[j] += games - pi;
                }
            }
        }
        let mut shared: Vec<f64> = (0..n)
            .map(|i| {
                if matches[i] > 0.0 {
                    self.config.initial_rating - offset
                } else {
                    0.0
                }
            })
            .collect();
        // took[i·n + j]: i took points from j. Players nobody outside their part took points
        // from (sources of the condensation) absorb everything when the parts are several.
        let mut took = vec![false; n * n];
        for &(i, j, pi, pj) in &pairs {
            took[i * n + j] |= pi > 0.0;
            took[j * n + i] |= pj > 0.0;
        }
        let (component, count) = crate::mle::components(&took, n);
        let mut absorbing = vec![false; n];
        if count > 1 {
            let mut entered = vec![false; count];
            for i in 0..n {
                for j in 0..n {
                    if took[i * n + j] && component[i] != component[j] {
                        entered[component[j]] = true;
                    }
                }
            }
            let played: Vec<bool> = matches.iter().map(|&m| m > 0.0).collect();
            let sizes = (0..n).filter(|&i| played[i]).count();
            for i in 0..n {
                absorbing[i] = played[i] && !entered[component[i]];
            }
            // One part holding every player who played is no collapse.
            if absorbing.iter().filter(|&&a| a).count() == sizes {
                absorbing = vec![false; n];
            }
        }
        let bound = COLLAPSE_BOUND * (self.config.initial_rating - offset).abs().max(1.0);
        let collapsed = absorbing.iter().any(|&a| a);
        let mut sums = vec![0f64; n];
        let mut iterations = 0;
        let mut converged = false;
        while iterations < self.config.max_iterations {
            iterations += 1;
            sums.iter_mut().for_each(|s| *s = 0.0);
            for &(i, j, pi, pj) in &pairs {
                let both = shared[i] + shared[j];
                sums[i] += pi * both;
                sums[j] += pj * both;
            }
            let mut largest_change = 0f64;
            for i in 0..n {
                if matches[i] > 0.0 {
                    let next = sums[i] / matches[i];
                    largest_change = largest_change.max((next - shared[i]).abs());
                    shared[i] = next;
                }
            }
            if largest_change <= self.config.threshold {
                converged = true;
                break;
            }
            if (0..n).any(|i| absorbing[i] && shared[i] >= bound) {
                break;
            }
        }
        RollasonRatings {
            ratings: shared.iter().map(|x| x + offset).collect(),
            points,
            iterations,
            converged,
            at_bound: absorbing,
            collapsed,
            offset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    fn rate(games: &[(&str, &str, Score)]) -> RollasonRatings {
        let mut g = Games::new();
        for &(a, b, s) in games {
            g.add(a, b, s, true, None);
        }
        Rollason::new(RollasonConfig::new()).rate(&g.counts())
    }

    #[test]
    fn a_chain_of_wins_by_hand() {
        // A beats B, B beats C. Shared ratings start at 500: A takes A+B each round while B
        // halves (it beat C, who holds 0): A → 1000 + 500 + 250 + … = 2000, B → 0, C = 0.
        let r = rate(&[("A", "B", Score::Win), ("B", "C", Score::Win)]);
        assert!(r.converged);
        // A never lost a point: the field collapses onto it (its fixed point, 2000 shared).
        assert!(r.collapsed);
        assert_eq!(r.at_bound, vec![true, false, false]);
        assert!((r.ratings[0] - 3500.0).abs() < 1e-4, "{:?}", r.ratings);
        assert!((r.ratings[1] - 1500.0).abs() < 1e-4);
        assert!((r.ratings[2] - 1500.0).abs() < 1e-4);
        assert_eq!(r.points, vec![1.0, 1.0, 0.0]);
        assert_eq!((r.stars(0), r.stars(1)), (37, 1));
    }

    #[test]
    fn an_unbeaten_player_stops_the_iteration_at_the_bound() {
        // top beats a once; a..e beat one another both ways. Conservation of Σ N·share puts
        // top at 500·ΣN/N_top = 500·42 in the limit; the bound stops it at 10 × 500.
        let field = ["a", "b", "c", "d", "e"];
        let mut games = vec![("top", "a", Score::Win)];
        for (k, p) in field.iter().enumerate() {
            for q in &field[k + 1..] {
                games.push((*p, *q, Score::Win));
                games.push((*q, *p, Score::Win));
            }
        }
        let r = rate(&games);
        assert!(r.collapsed && !r.converged);
        assert_eq!(r.at_bound, vec![true, false, false, false, false, false]);
        // It stops on the first iteration that reaches 10 × 500 above the offset.
        assert!(
            r.ratings[0] >= 6500.0 && r.ratings[0] < 6500.0 * 1.5,
            "{:?}",
            r.ratings
        );
        assert!(
            r.ratings[1..].iter().all(|&x| x < 2000.0),
            "{:?}",
            r.ratings
        );
        // The ring alone does not collapse: everyone keeps the starting 2000.
        let ring = rate(&games[1..]);
        assert!(!ring.collapsed && ring.converged);
        assert!(ring.ratings.iter().all(|&x| (x - 2000.0).abs() < 1e-6));
    }

    #[test]
    fn an_anchor_moves_the_bars_with_the_ratings() {
        let mut r = rate(&[("A", "B", Score::Win), ("B", "C", Score::Win)]);
        let before: Vec<usize> = (0..3).map(|p| r.stars(p)).collect();
        r.shift(-700.0);
        assert_eq!((0..3).map(|p| r.stars(p)).collect::<Vec<_>>(), before);
        assert_eq!(r.offset(), 800.0);
    }

    #[test]
    fn a_draw_shares_half_the_points() {
        let r = rate(&[("A", "B", Score::Draw)]);
        assert_eq!(r.ratings, vec![2000.0, 2000.0]);
        assert_eq!(r.points, vec![0.5, 0.5]);
    }

    #[test]
    fn rating_points_are_conserved() {
        // Σ N_i (R_i − 1500) stays at its start, 500 · Σ N_i.
        let r = rate(&[
            ("A", "B", Score::Win),
            ("B", "C", Score::Win),
            ("C", "A", Score::Win),
            ("A", "C", Score::Draw),
            ("B", "A", Score::Loss),
        ]);
        let n = [4.0, 3.0, 3.0];
        let total: f64 = r.ratings.iter().zip(n).map(|(x, n)| n * (x - 1500.0)).sum();
        assert!((total - 500.0 * 10.0).abs() < 1e-6);
        assert!(r.ratings[0] > r.ratings[1]);
    }
}
