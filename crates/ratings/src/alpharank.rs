//! α-Rank, single population (Omidshafiei, Papadimitriou, Piliouras, Tuyls, Rowland, Lespiau,
//! Czarnecki, Lanctot, Pérolat and Munos, "α-Rank: Multi-Agent Evaluation by Evolution",
//! Scientific Reports 2019).
//!
//! **Payoffs.** M_ij is i's mean score against j (wins plus half the draws over games, ½
//! between a player and itself and for pairs that never met: no evidence either way).
//!
//! **Chain.** Players are strategies of one population of m individuals. A single mutant τ
//! in a population of resident σ fixates with the Fermi-process probability
//! ρ_{σ,τ} = [1 + Σ_{l=1}^{m−1} Π_{k=1}^{l} e^{−α(f_τ(k) − f_σ(k))}]⁻¹, with k mutants
//! f_τ(k) = ((k − 1)M_ττ + (m − k)M_τσ)/(m − 1) and f_σ(k) = (k M_στ + (m − k − 1)M_σσ)/(m − 1)
//! (the paper's single-population fitness; ρ = 1/m when they tie). The chain moves from σ to
//! τ with probability ρ_{σ,τ}/(n − 1) and stays otherwise; the ranking is its stationary
//! distribution, the mass. α is the ranking intensity (the paper ranks at large α, where
//! the mass sits on the sink strongly-connected components of the response graph);
//! defaults here: α = 100, m = 50 (the paper's population size in its examples). Computed
//! over the largest group of players linked by games; players outside it have no mass.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{alpharank::{alpha_rank, AlphaRankConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! games.add("a", "b", Score::Win, true, None);
//! let r = alpha_rank(&games.counts(), AlphaRankConfig::new())?;
//! assert!(r[0].unwrap_or(0.0) > 0.999);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{games::PairCounts, linalg, RatingError};

/// Settings of α-Rank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaRankConfig {
    /// The ranking intensity α (100).
    pub alpha: f64,
    /// The population size m (50; at least 2).
    pub population: u32,
}

impl AlphaRankConfig {
    /// Returns α = 100, m = 50.
    #[must_use]
    pub const fn new() -> AlphaRankConfig {
        AlphaRankConfig {
            alpha: 100.0,
            population: 50,
        }
    }
}

impl Default for AlphaRankConfig {
    fn default() -> AlphaRankConfig {
        AlphaRankConfig::new()
    }
}

/// Returns the fixation probability ρ of a mutant with payoffs `m_tt`, `m_ts` (against
/// itself, against the resident) in a population of residents with `m_ss`, `m_st`.
#[must_use]
pub fn fixation(m_ss: f64, m_st: f64, m_ts: f64, m_tt: f64, alpha: f64, population: u32) -> f64 {
    let m = f64::from(population);
    // log of Π_{k=1}^{l}, for l = 1..m−1, then ρ = 1/(1 + Σ_l e^{s_l}) in log-sum-exp form.
    let mut s = 0.0;
    let mut logs = Vec::with_capacity(population as usize);
    for k in 1..population {
        let k = f64::from(k);
        let f_t = ((k - 1.0) * m_tt + (m - k) * m_ts) / (m - 1.0);
        let f_s = (k * m_st + (m - k - 1.0) * m_ss) / (m - 1.0);
        s += -alpha * (f_t - f_s);
        logs.push(s);
    }
    let top = logs.iter().fold(0.0f64, |a, &b| a.max(b));
    let sum = (-top).exp() + logs.iter().map(|l| (l - top).exp()).sum::<f64>();
    (-top).exp() / sum
}

/// Returns each player's α-Rank mass; `None` outside the largest group.
///
/// # Errors
/// [`RatingError::InvalidParameter`] for α not a number at least 0 or m below 2;
/// [`RatingError::NoGames`] without games; [`RatingError::Singular`] when the chain has no
/// single stationary distribution.
pub fn alpha_rank(
    counts: &PairCounts,
    config: AlphaRankConfig,
) -> Result<Vec<Option<f64>>, RatingError> {
    if !(config.alpha.is_finite() && config.alpha >= 0.0) {
        return Err(RatingError::InvalidParameter {
            name: "alpha",
            reason: format!("must be a number at least 0, not {}", config.alpha),
        });
    }
    if config.population < 2 {
        return Err(RatingError::InvalidParameter {
            name: "population",
            reason: "at least 2".into(),
        });
    }
    let groups = counts.groups();
    let members = groups
        .first()
        .filter(|g| g.len() >= 2)
        .ok_or(RatingError::NoGames)?;
    let n = members.len();
    let payoff = |i: usize, j: usize| -> f64 {
        let [l, d, w] = counts.pair(i, j);
        let games = f64::from(l + d + w);
        if i == j || games == 0.0 {
            0.5
        } else {
            (f64::from(w) + 0.5 * f64::from(d)) / games
        }
    };
    let mut t = vec![0.0; n * n];
    let eta = 1.0 / (n - 1) as f64;
    for (a, &s) in members.iter().enumerate() {
        let mut stay = 1.0;
        for (b, &m) in members.iter().enumerate() {
            if a != b {
                let rho = fixation(
                    payoff(s, s),
                    payoff(s, m),
                    payoff(m, s),
                    payoff(m, m),
                    config.alpha,
                    config.population,
                );
                t[a * n + b] = eta * rho;
                stay -= eta * rho;
            }
        }
        t[a * n + a] = stay;
    }
    let pi = linalg::stationary(&t, n).ok_or(RatingError::Singular("α-Rank"))?;
    let mut out = vec![None; counts.n()];
    for (a, &i) in members.iter().enumerate() {
        out[i] = Some(pi[a].max(0.0));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    /// Neutral drift: a mutant that ties fixates with probability 1/m; at α = 0 too.
    #[test]
    fn fixation_matches_the_moran_process_by_hand() {
        assert!((fixation(0.5, 0.5, 0.5, 0.5, 100.0, 50) - 1.0 / 50.0).abs() < 1e-12);
        assert!((fixation(0.5, 0.2, 0.8, 0.5, 0.0, 10) - 0.1).abs() < 1e-12);
        // Constant-sum payoffs: f_τ − f_σ = m(s − ½)/(m − 1) at every k, so
        // ρ = (1 − e^{−αΔ})/(1 − e^{−mαΔ}) with Δ = 2·(0.6 − 0.5)/1 for m = 2.
        let delta: f64 = 2.0 * 0.1;
        let want = (1.0 - (-delta).exp()) / (1.0 - (-2.0 * delta).exp());
        assert!((fixation(0.5, 0.4, 0.6, 0.5, 1.0, 2) - want).abs() < 1e-12);
    }

    /// Rock–paper–scissors plus a player everyone beats: the mass is ⅓ on each of the cycle.
    #[test]
    fn the_mass_goes_to_the_cycle_or_the_dominant_player() {
        let mut g = Games::new();
        for (a, b) in [
            ("r", "s"),
            ("s", "p"),
            ("p", "r"),
            ("r", "x"),
            ("p", "x"),
            ("s", "x"),
        ] {
            for _ in 0..3 {
                g.add(a, b, Score::Win, true, None);
            }
        }
        let r = alpha_rank(&g.counts(), AlphaRankConfig::new()).unwrap_or_else(|e| panic!("{e}"));
        for m in &r[..3] {
            assert!((m.unwrap_or(0.0) - 1.0 / 3.0).abs() < 1e-9, "{r:?}");
        }
        assert!(r[3].unwrap_or(1.0) < 1e-9);
        let mut t = Games::new();
        for (a, b) in [("a", "b"), ("b", "c"), ("a", "c")] {
            t.add(a, b, Score::Win, true, None);
            t.add(a, b, Score::Draw, true, None);
        }
        let r = alpha_rank(&t.counts(), AlphaRankConfig::new()).unwrap_or_else(|e| panic!("{e}"));
        assert!(r[0].unwrap_or(0.0) > 1.0 - 1e-9, "{r:?}");
        let bad = AlphaRankConfig {
            population: 1,
            ..AlphaRankConfig::new()
        };
        assert!(alpha_rank(&t.counts(), bad).is_err());
    }
}
