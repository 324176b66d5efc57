//! Nash averaging (Balduzzi, Tuyls, Pérolat and Graepel, "Re-evaluating Evaluation",
//! NeurIPS 2018): each player's payoff against the maximum-entropy Nash equilibrium of the
//! field played as a symmetric zero-sum game.
//!
//! **Payoffs.** The antisymmetric matrix of log-odds margins A_ij = ln((P_ij + ½)/(G_ij − P_ij + ½)),
//! with P_ij the points i scored against j in G_ij games (the paper's logit of the empirical
//! win rate, with one virtual draw so that a clean sweep stays finite); A_ij = 0 for a pair
//! that never met (no evidence either way). A = −Aᵀ.
//!
//! **Equilibrium.** A mixture p over players is a Nash equilibrium of the symmetric zero-sum
//! game when no player scores above 0 against it, (Ap)_i ≤ 0; Nash averaging picks the one of
//! maximum entropy, which is invariant to copies of a player (the paper's section 4). It is
//! found here as the limit of the logit (quantal-response) equilibrium p = softmax(Ap/τ) as
//! τ → 0 (McKelvey and Palfrey 1995): the entropy-regularised game has exactly one
//! equilibrium at every τ > 0, which is symmetric in identical players, so it splits mass
//! evenly among copies as the maximum-entropy equilibrium does; for a field without exact ties
//! the equilibrium is unique and the limit is it. The homotopy solves y = A·softmax(y)/τ by
//! Newton's method from τ = 10·max|A| down to 10⁻⁷·max|A| in steps of 0.8; then the support
//! (mass above 10⁻⁶) is solved exactly, A_SS p_S = 0 with Σp_S = 1, and kept when it is an
//! equilibrium (p ≥ 0, (Ap)_i ≤ 10⁻⁹ for every i).
//!
//! **Rating.** Player i's Nash-averaged skill is (Ap)_i, its log-odds margin against the
//! equilibrium mixture, shown on the Elo scale (× 400/ln 10): 0 for every player in the
//! support, below 0 for the rest. The mixture p is the mass.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{nash::nash_average, Games, Score};
//! let mut games = Games::new();
//! for (a, b) in [("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")] {
//!     games.add(a, b, Score::Win, true, None);
//! }
//! let r = nash_average(&games.counts())?;
//! assert!(r.mass.iter().all(|&m| (m - 1.0 / 3.0).abs() < 1e-9));
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{games::PairCounts, linalg, RatingError};
use std::f64::consts::LN_10;

/// The equilibrium and each player's payoff against it.
#[derive(Clone, Debug, PartialEq)]
pub struct NashRatings {
    /// The equilibrium mixture (sums to 1).
    pub mass: Vec<f64>,
    /// Each player's margin against the mixture on the Elo scale (0 in the support).
    pub skill: Vec<f64>,
}

/// Returns the antisymmetric log-odds payoff matrix of the module's doc (row-major, side n).
#[must_use]
pub fn log_odds_payoffs(counts: &PairCounts) -> Vec<f64> {
    let n = counts.n();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let [l, d, w] = counts.pair(i, j);
            let games = f64::from(l + d + w);
            if i != j && games > 0.0 {
                let points = f64::from(w) + 0.5 * f64::from(d);
                a[i * n + j] = ((points + 0.5) / (games - points + 0.5)).ln();
            }
        }
    }
    a
}

/// Computes the Nash average of the field (the module's doc).
///
/// # Errors
/// [`RatingError::NoGames`] without games between two players; [`RatingError::Singular`] when
/// Newton's method meets a singular system.
pub fn nash_average(counts: &PairCounts) -> Result<NashRatings, RatingError> {
    let n = counts.n();
    if counts.groups().iter().all(|g| g.len() < 2) {
        return Err(RatingError::NoGames);
    }
    let a = log_odds_payoffs(counts);
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut p = vec![1.0 / n as f64; n];
    if scale > 0.0 {
        let mut y = vec![0.0; n];
        let mut tau = 10.0 * scale;
        while tau > 1e-7 * scale {
            tau *= 0.8;
            y = logit_equilibrium(&a, n, tau, y).ok_or(RatingError::Singular("Nash averaging"))?;
        }
        p = softmax(&y);
        if let Some(exact) = exact_support(&a, n, &p) {
            p = exact;
        }
    }
    let skill = (0..n)
        .map(|i| {
            let v: f64 = (0..n).map(|j| a[i * n + j] * p[j]).sum::<f64>() * 400.0 / LN_10;
            // Round-off leaves ±1e-13 where the margin is 0 (a player in the support).
            if v.abs() < 1e-9 {
                0.0
            } else {
                v
            }
        })
        .collect();
    Ok(NashRatings { mass: p, skill })
}

fn softmax(y: &[f64]) -> Vec<f64> {
    let top = y.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let e: Vec<f64> = y.iter().map(|v| (v - top).exp()).collect();
    let z: f64 = e.iter().sum();
    e.iter().map(|v| v / z).collect()
}

/// Solves y = A·softmax(y)/τ by damped Newton from `y`.
fn logit_equilibrium(a: &[f64], n: usize, tau: f64, mut y: Vec<f64>) -> Option<Vec<f64>> {
    let residual = |y: &[f64]| -> Vec<f64> {
        let p = softmax(y);
        (0..n)
            .map(|i| y[i] - (0..n).map(|j| a[i * n + j] * p[j]).sum::<f64>() / tau)
            .collect()
    };
    let norm = |r: &[f64]| r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut r = residual(&y);
    for _ in 0..100 {
        if norm(&r) < 1e-10 {
            break;
        }
        let p = softmax(&y);
        // J = I − A·(diag p − p pᵀ)/τ.
        let mut jac = vec![0.0; n * n];
        for i in 0..n {
            let ap: f64 = (0..n).map(|k| a[i * n + k] * p[k]).sum();
            for j in 0..n {
                let d = (a[i * n + j] * p[j] - ap * p[j]) / tau;
                jac[i * n + j] = if i == j { 1.0 } else { 0.0 } - d;
            }
        }
        let step = linalg::solve(jac, r.clone())?;
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = y.iter().zip(&step).map(|(v, s)| v - t * s).collect();
            let rt = residual(&trial);
            if norm(&rt) < norm(&r) || t < 1e-6 {
                y = trial;
                r = rt;
                break;
            }
            t *= 0.5;
        }
    }
    Some(y)
}

/// Solves the support of `p` exactly; `None` unless the result is an equilibrium.
fn exact_support(a: &[f64], n: usize, p: &[f64]) -> Option<Vec<f64>> {
    let support: Vec<usize> = (0..n).filter(|&i| p[i] > 1e-6).collect();
    let s = support.len();
    let mut m = vec![0.0; s * s];
    for (r, &i) in support.iter().enumerate() {
        for (c, &j) in support.iter().enumerate() {
            m[r * s + c] = if r + 1 == s { 1.0 } else { a[i * n + j] };
        }
    }
    let mut rhs = vec![0.0; s];
    rhs[s - 1] = 1.0;
    let x = linalg::solve(m, rhs)?;
    let mut out = vec![0.0; n];
    for (&i, &v) in support.iter().zip(&x) {
        if v < 0.0 {
            return None;
        }
        out[i] = v;
    }
    let ok = (0..n).all(|i| (0..n).map(|j| a[i * n + j] * out[j]).sum::<f64>() <= 1e-9);
    ok.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    fn games(results: &[(&str, &str, u32)]) -> Games {
        let mut g = Games::new();
        for &(a, b, k) in results {
            for _ in 0..k {
                g.add(a, b, Score::Win, true, None);
            }
        }
        g
    }

    /// Rock–paper–scissors with an extra player beaten by everyone: the equilibrium is ⅓ on
    /// each of the cycle, nothing on the loser, whose skill is its margin against that mix.
    #[test]
    fn the_mass_goes_to_the_cycle() {
        let mut g = games(&[("r", "s", 3), ("s", "p", 3), ("p", "r", 3)]);
        for x in ["r", "p", "s"] {
            for _ in 0..3 {
                g.add(x, "loser", Score::Win, true, None);
            }
        }
        let r = nash_average(&g.counts()).unwrap_or_else(|e| panic!("{e}"));
        for i in 0..3 {
            assert!((r.mass[i] - 1.0 / 3.0).abs() < 1e-9, "{:?}", r.mass);
            assert!(r.skill[i].abs() < 1e-6);
        }
        assert!(r.mass[3].abs() < 1e-9);
        // A_loser,x = ln(0.5/3.5) against each: margin ln(1/7), times 400/ln 10.
        let expect = (0.5f64 / 3.5).ln() * 400.0 / LN_10;
        assert!(
            (r.skill[3] - expect).abs() < 1e-6,
            "{} vs {expect}",
            r.skill[3]
        );
    }

    /// A transitive field: everything on the best player.
    #[test]
    fn a_transitive_field_puts_the_mass_on_the_best() {
        let g = games(&[("a", "b", 2), ("b", "c", 2), ("a", "c", 2), ("b", "a", 1)]);
        let r = nash_average(&g.counts()).unwrap_or_else(|e| panic!("{e}"));
        assert!((r.mass[0] - 1.0).abs() < 1e-9, "{:?}", r.mass);
        assert!(r.skill[0].abs() < 1e-9 && r.skill[1] < 0.0 && r.skill[2] < r.skill[1]);
    }

    /// Adding a copy of rock splits rock's mass between the copies (the invariance the
    /// maximum-entropy equilibrium gives).
    #[test]
    fn a_copy_shares_its_originals_mass() {
        let mut g = games(&[("r", "s", 3), ("s", "p", 3), ("p", "r", 3)]);
        for _ in 0..3 {
            g.add("r2", "s", Score::Win, true, None);
            g.add("p", "r2", Score::Win, true, None);
            g.add("r2", "r", Score::Draw, true, None);
        }
        let r = nash_average(&g.counts()).unwrap_or_else(|e| panic!("{e}"));
        assert!((r.mass[0] - 1.0 / 6.0).abs() < 1e-4, "{:?}", r.mass);
        assert!((r.mass[3] - 1.0 / 6.0).abs() < 1e-4, "{:?}", r.mass);
        assert!((r.mass[1] - 1.0 / 3.0).abs() < 1e-4, "{:?}", r.mass);
    }
}
