//! Adaptive ladder scheduling: which games to play next so that every rung of a ladder is
//! precise soonest, rather than spreading games over pairs whose result is a foregone
//! conclusion (Murphy's Elo World plays every pair; most of those games are hopeless
//! mismatches that tell almost nothing).
//!
//! **Information.** In the Bradley–Terry model of [`eloworld_ratings::mle`] a game between i and j with
//! expected score p adds C²·p(1 − p)·(e_i − e_j)(e_i − e_j)ᵀ to the Fisher information of
//! the ratings (C = ln 10/400); the covariance of ratings shown relative to their average is
//! its pseudo-inverse, computed here as M = (F + 11ᵀ/n + δI)⁻¹ − 11ᵀ/n (δ a weak prior, a
//! fraction of one game, so that players not yet connected have a huge but finite variance).
//! Two more games (one with each colour) between i and j, with u = e_i − e_j and
//! a = 2C²p(1 − p), lower the variance of player k by a·(Mu)_k²/(1 + a·uᵀMu)
//! (Sherman–Morrison).
//!
//! **A batch** is chosen greedily: among each player's [`NEIGHBOURS`] nearest by current
//! rating, the pair whose two games lower most the summed variance of the players still
//! wider than the target is taken, M is updated, and so on until the batch is full (a pair
//! at most [`REPEATS`] times a batch, since the ratings it was chosen by are estimates). A
//! player's variance in this model is calibrated to the fitted one at the start of the
//! batch, and a player leaves the sum once its calibrated half-width meets the target.
//!
//! # Quickstart
//! ```
//! use eloworld_ladder::adaptive::{next_batch, status};
//! use eloworld_ratings::PairCounts;
//! let counts = PairCounts::new(6);
//! let now = status(&counts);
//! assert!(now.worst().is_infinite());
//! let batch = next_batch(&counts, &now, 50.0, 24);
//! assert_eq!(batch.len(), 24);
//! // Every pair is played with both colours.
//! assert!(batch.chunks(2).all(|g| g[0] == (g[1].1, g[1].0)));
//! ```

use eloworld_ratings::convert::Z95;
use eloworld_ratings::linalg;
use eloworld_ratings::mle::{Mle, MleConfig};
use eloworld_ratings::PairCounts;
use std::f64::consts::LN_10;

const C: f64 = LN_10 / 400.0;

/// How many of a player's nearest players by rating a batch may pair it with.
pub const NEIGHBOURS: usize = 16;

/// How many times (two games each) a batch may take one pair.
pub const REPEATS: u32 = 2;

/// The weak prior δ of the module's doc, as a fraction of one even game's information.
const PRIOR_GAMES: f64 = 1e-3;

/// Where a ladder's ratings stand: the maximum-likelihood fit of [`eloworld_ratings::mle`] (average 1000,
/// White's advantage fitted), read for scheduling.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// Each player's rating (its bound when it has no finite maximum; 1000 when it has no
    /// games linking it to the largest group).
    pub ratings: Vec<f64>,
    /// Each player's 95% half-width on the scale (infinite when its rating is a bound or it is
    /// not linked to the largest group).
    pub half_widths: Vec<f64>,
    /// Games counted.
    pub games: u64,
}

impl Status {
    /// Returns the widest 95% half-width (infinite without games).
    #[must_use]
    pub fn worst(&self) -> f64 {
        if self.half_widths.is_empty() {
            return f64::INFINITY;
        }
        self.half_widths.iter().copied().fold(0.0, f64::max)
    }

    /// True when every player's 95% half-width is at most `precision`.
    #[must_use]
    pub fn precise(&self, precision: f64) -> bool {
        self.worst() <= precision
    }
}

/// Fits the games and returns where every player stands.
#[must_use]
pub fn status(counts: &PairCounts) -> Status {
    let n = counts.n();
    let games = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| i < j)
        .map(|(i, j)| counts.games_between(i, j))
        .sum();
    let unknown = Status {
        ratings: vec![1000.0; n],
        half_widths: vec![f64::INFINITY; n],
        games,
    };
    let Ok(fit) = Mle::new(MleConfig::new()).rate(counts) else {
        return unknown;
    };
    let linked = |i: usize| fit.group[i] == 0 && fit.ratings[i].is_finite();
    let ratings = (0..n)
        .map(|i| if linked(i) { fit.ratings[i] } else { 1000.0 })
        .collect();
    let half_widths = (0..n)
        .map(|i| {
            if linked(i) && !fit.flagged[i] && fit.errors[i].is_finite() {
                Z95 * fit.errors[i]
            } else {
                f64::INFINITY
            }
        })
        .collect();
    Status {
        ratings,
        half_widths,
        games,
    }
}

/// Expected score for a rating difference (the logistic curve).
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// Information of one game between players rated `a` and `b`.
fn game_information(a: f64, b: f64) -> f64 {
    let p = expected(a - b);
    C * C * p * (1.0 - p)
}

/// Returns M = (F + 11ᵀ/n + δI)⁻¹ for the games counted, information at `ratings`.
fn design_inverse(counts: &PairCounts, ratings: &[f64]) -> Option<Vec<f64>> {
    let n = counts.n();
    let prior = PRIOR_GAMES * C * C * 0.25;
    let mut f = vec![1.0 / n as f64; n * n];
    for i in 0..n {
        f[i * n + i] += prior;
        for j in i + 1..n {
            let games = counts.games_between(i, j) as f64;
            if games == 0.0 {
                continue;
            }
            let w = games * game_information(ratings[i], ratings[j]);
            f[i * n + i] += w;
            f[j * n + j] += w;
            f[i * n + j] -= w;
            f[j * n + i] -= w;
        }
    }
    linalg::inverse_spd(&f, n)
}

/// The unordered pairs a batch may choose from: each player with its [`NEIGHBOURS`] nearest
/// by rating (ties: the lower index).
fn candidate_pairs(ratings: &[f64]) -> Vec<(usize, usize)> {
    let n = ratings.len();
    let mut pairs = Vec::new();
    for i in 0..n {
        let mut others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        others.sort_by(|&a, &b| {
            (ratings[a] - ratings[i])
                .abs()
                .total_cmp(&(ratings[b] - ratings[i]).abs())
                .then(a.cmp(&b))
        });
        for &j in others.iter().take(NEIGHBOURS) {
            pairs.push((i.min(j), i.max(j)));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Returns the next `games` games as ordered (White, Black) pairs, two per chosen pair (one
/// with each colour), chosen as the module's doc says to bring every player's 95%
/// half-width to `precision` soonest. `now` is [`status`] of `counts`.
#[must_use]
pub fn next_batch(
    counts: &PairCounts,
    now: &Status,
    precision: f64,
    games: u32,
) -> Vec<(usize, usize)> {
    let n = counts.n();
    let picks = games / 2;
    if n < 2 || picks == 0 {
        return Vec::new();
    }
    let ratings = &now.ratings;
    let Some(mut m) = design_inverse(counts, ratings) else {
        return Vec::new();
    };
    let centre = 1.0 / n as f64;
    let target_variance = (precision / Z95).powi(2);
    // The fitted variance over this model's, per player, at the batch's start.
    let scale: Vec<f64> = (0..n)
        .map(|k| {
            let model = (m[k * n + k] - centre).max(f64::MIN_POSITIVE);
            (now.half_widths[k] / Z95).powi(2) / model
        })
        .collect();
    let wide = |m: &[f64], k: usize| scale[k] * (m[k * n + k] - centre) > target_variance;
    let pairs = candidate_pairs(ratings);
    let mut taken = vec![0u32; pairs.len()];
    let mut batch = Vec::with_capacity(2 * picks as usize);
    let mut column = vec![0.0; n];
    for _ in 0..picks {
        let mut focus: Vec<usize> = (0..n).filter(|&k| wide(&m, k)).collect();
        if focus.is_empty() {
            focus = (0..n).collect();
        }
        let mut best: Option<(f64, usize)> = None;
        for (index, &(i, j)) in pairs.iter().enumerate() {
            if taken[index] >= REPEATS {
                continue;
            }
            let a = 2.0 * game_information(ratings[i], ratings[j]);
            let q = m[i * n + i] + m[j * n + j] - 2.0 * m[i * n + j];
            let gain: f64 = focus
                .iter()
                .map(|&k| (m[k * n + i] - m[k * n + j]).powi(2))
                .sum::<f64>()
                * a
                / (1.0 + a * q);
            if best.is_none_or(|(g, _)| gain > g) {
                best = Some((gain, index));
            }
        }
        let Some((_, index)) = best else {
            break;
        };
        let (i, j) = pairs[index];
        taken[index] += 1;
        let a = 2.0 * game_information(ratings[i], ratings[j]);
        for (k, c) in column.iter_mut().enumerate() {
            *c = m[k * n + i] - m[k * n + j];
        }
        let q = column[i] - column[j];
        let f = a / (1.0 + a * q);
        for r in 0..n {
            for s in 0..n {
                m[r * n + s] -= f * column[r] * column[s];
            }
        }
        batch.push((i, j));
        batch.push((j, i));
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_ratings::{PlayerId, Score};

    fn add(counts: &mut PairCounts, white: usize, black: usize, score: Score, n: u32) {
        counts.add(
            PlayerId(white as u32),
            PlayerId(black as u32),
            score,
            true,
            n,
        );
    }

    #[test]
    fn the_model_variance_is_the_pseudo_inverse_of_the_information() {
        // Two players, 100 even games (50 with each colour): each rating's variance about
        // the average is a quarter of the difference's, 1/(100·C²/4).
        let mut counts = PairCounts::new(2);
        add(&mut counts, 0, 1, Score::Draw, 50);
        add(&mut counts, 1, 0, Score::Draw, 50);
        let m = design_inverse(&counts, &[1000.0, 1000.0]).unwrap_or_default();
        let difference = 1.0 / (100.0 * C * C * 0.25);
        let variance = m[0] - 0.5;
        assert!(
            (variance / (difference / 4.0) - 1.0).abs() < 1e-3,
            "{variance}"
        );
        // And the fitted interval agrees with it.
        let now = status(&counts);
        let fitted = (now.half_widths[0] / Z95).powi(2);
        assert!(
            (fitted / variance - 1.0).abs() < 0.01,
            "{fitted} {variance}"
        );
    }

    #[test]
    fn a_batch_pairs_near_neighbours_and_reaches_an_unlinked_player() {
        // Players 0..5 at 0, 200, …, 1000 Elo, the first five linked by many games between
        // neighbours, player 5 by none: the batch links it first, and never pairs players
        // 1000 Elo apart.
        let mut counts = PairCounts::new(6);
        for i in 0..4 {
            add(&mut counts, i, i + 1, Score::Loss, 30);
            add(&mut counts, i, i + 1, Score::Win, 10);
        }
        let now = status(&counts);
        assert!(now.half_widths[5].is_infinite() && now.half_widths[0].is_finite());
        let batch = next_batch(&counts, &now, 30.0, 20);
        assert_eq!(batch.len(), 20);
        assert!(batch[0].0 == 5 || batch[0].1 == 5, "{batch:?}");
        assert!(!batch.contains(&(0, 4)) && !batch.contains(&(4, 0)));
        let per_pair = |a: usize, b: usize| batch.iter().filter(|&&p| p == (a, b)).count();
        assert!((0..6).all(|a| (0..6).all(|b| per_pair(a, b) <= REPEATS as usize)));
    }
}
