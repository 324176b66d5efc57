//! BayesElo's own model and fit (Rémi Coulom's `bayeselo`, 2005–2006; what CCRL and CGOS
//! publish), written from its description and checked against its output (docs/ratings.md).
//!
//! **Model.** With f(Δ) = 1/(1 + 10^(−Δ/400)), White i against Black j:
//! P(White wins) = f(R_i − R_j + eloAdvantage − eloDraw),
//! P(Black wins) = f(R_j − R_i − eloAdvantage − eloDraw), P(draw) the rest. On the gamma scale
//! (γ = 10^(R/400), θ_W = 10^(eloAdvantage/400), θ_D = 10^(eloDraw/400)):
//! P(White wins) = θ_Wγ_i/(θ_Wγ_i + θ_Dγ_j), P(Black wins) = γ_j/(θ_Dθ_Wγ_i + γ_j). Defaults are
//! BayesElo's: eloAdvantage 32.8, eloDraw 97.3 (both held unless asked to fit, as its
//! `mm` without flags).
//!
//! **Prior** (BayesElo's `prior`, default 2 virtual draws): for every pair that met, with
//! t_ij their games and T_i a player's games, 0.25·prior·t_ij·(1/T_i + 1/T_j) virtual draws are
//! added with i as White and as many with j as White (its `AddPrior`: each player spreads
//! prior/2 virtual draws per colour over its opponents in proportion to the games played).
//!
//! **Fit**: minorization–maximization (Hunter, "MM algorithms for generalized Bradley–Terry
//! models", Annals of Statistics 2004), as BayesElo's `mm`: γ_i ← A_i/B_i with A_i player i's
//! wins and draws (as White and as Black) and B_i = Σ_j [(w+d)_{i White}·θ_W/(θ_Wγ_i + θ_Dγ_j) +
//! (l+d)_{i White}·θ_Dθ_W/(θ_Dθ_Wγ_i + γ_j) + (w+d)_{j White}·θ_D/(θ_Wγ_j + θ_Dγ_i) +
//! (l+d)_{j White}/(θ_Dθ_Wγ_j + γ_i)], players updated in turn (from the last to the first,
//! with the newest gammas, all starting at 1) until no gamma moves by a relative
//! |γ' − γ|/(γ' + γ) of more than 10⁻⁵, at most 10,000 passes: BayesElo's own order and
//! stopping rule, so that the same games give its numbers. On a sparse field (a week of open
//! tournaments) MM is slow and that rule stops short of the maximum by a few Elo for weakly
//! linked players; [`BayesEloConfig::tolerance`] tightens it. θ_W and θ_D, when fitted, get
//! BayesElo's MM updates too.
//!
//! **Shown ratings**: R centred on 0, times BayesElo's scale 4x/(1 + x)² with
//! x = 10^(−eloDraw/400) (its `mm` sets that scale so that rating differences read as
//! expected scores near equal strength), plus an offset ([`BayesEloConfig::offset`], 1000
//! here; BayesElo's `offset`). The error of each rating is BayesElo's: the diagonal of the
//! Hessian of the log posterior, the others held (its `GetVariance`); the interval is
//! ±1.96 of it, scaled alike. Games with unknown colours are read as the first-named player's
//! White, as BayesElo reads every game.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{bayeselo::{BayesElo, BayesEloConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! games.add("b", "a", Score::Loss, true, None);
//! let r = BayesElo::new(BayesEloConfig::new()).rate(&games.counts());
//! assert!(r.ratings[0] > 1000.0 && r.ratings[1] < 1000.0);
//! ```

use crate::games::PairCounts;
use std::f64::consts::LN_10;

/// Settings of BayesElo (its defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BayesEloConfig {
    /// White's advantage in Elo (32.8), or its starting value when fitted.
    pub advantage: f64,
    /// The draw Elo (97.3), or its starting value when fitted.
    pub draw_elo: f64,
    /// Virtual draws of the prior (2).
    pub prior: f64,
    /// Fit the advantage (BayesElo's `mm 1 0`).
    pub fit_advantage: bool,
    /// Fit the draw Elo (BayesElo's `mm 0 1`).
    pub fit_draw: bool,
    /// The shown ratings' average (BayesElo's `offset`).
    pub offset: f64,
    /// The relative change of every gamma below which MM stops (BayesElo's 10⁻⁵).
    pub tolerance: f64,
}

impl BayesEloConfig {
    /// Returns BayesElo's defaults (its stopping rule too) with the average at 1000.
    #[must_use]
    pub const fn new() -> BayesEloConfig {
        BayesEloConfig {
            advantage: 32.8,
            draw_elo: 97.3,
            prior: 2.0,
            fit_advantage: false,
            fit_draw: false,
            offset: 1000.0,
            tolerance: 1e-5,
        }
    }
}

impl Default for BayesEloConfig {
    fn default() -> BayesEloConfig {
        BayesEloConfig::new()
    }
}

/// The fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct BayesEloRatings {
    /// The shown rating per player (scaled, offset; NaN without games).
    pub ratings: Vec<f64>,
    /// The shown rating's standard error (BayesElo's Hessian diagonal, scaled alike).
    pub errors: Vec<f64>,
    /// The model's own rating per player (centred on 0, unscaled): what probabilities use.
    pub elo: Vec<f64>,
    /// White's advantage in Elo (fitted or held).
    pub advantage: f64,
    /// The draw Elo (fitted or held).
    pub draw_elo: f64,
    /// BayesElo's scale 4x/(1 + x)², x = 10^(−eloDraw/400).
    pub scale: f64,
    /// MM passes done.
    pub iterations: u32,
    /// False when the passes stopped at 10,000 before settling.
    pub converged: bool,
}

impl BayesEloRatings {
    /// Returns P(White wins), P(draw), P(Black wins) for White `i` and Black `j`; `coloured`
    /// false leaves out the advantage (colours unknown).
    #[must_use]
    pub fn probabilities(&self, i: usize, j: usize, coloured: bool) -> [f64; 3] {
        let adv = if coloured { self.advantage } else { 0.0 };
        let f = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let d = self.elo[i] - self.elo[j];
        let win = f(d + adv - self.draw_elo);
        let loss = f(-d - adv - self.draw_elo);
        [win, (1.0 - win - loss).max(0.0), loss]
    }
}

/// Counts of one ordered (White, Black) cell, prior included: wins, draws, losses of White.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    w: f64,
    d: f64,
    l: f64,
}

/// BayesElo's rating.
#[derive(Clone, Copy, Debug, Default)]
pub struct BayesElo {
    config: BayesEloConfig,
}

/// The most MM passes (BayesElo's bound).
const PASSES: u32 = 10_000;

impl BayesElo {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: BayesEloConfig) -> BayesElo {
        BayesElo { config }
    }

    /// Fits the model to the counts (the module's doc).
    #[must_use]
    pub fn rate(&self, counts: &PairCounts) -> BayesEloRatings {
        let n = counts.n();
        let mut cells = vec![Cell::default(); n * n];
        let mut pair_games = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let c = counts.coloured(i, j);
                let u = counts.uncoloured(i, j);
                let cell = &mut cells[i * n + j];
                cell.l = f64::from(c[0] + u[0]);
                cell.d = f64::from(c[1] + u[1]);
                cell.w = f64::from(c[2] + u[2]);
                if i != j {
                    pair_games[i * n + j] = counts.games_between(i, j) as f64;
                }
            }
        }
        let totals: Vec<f64> = (0..n)
            .map(|i| pair_games[i * n..(i + 1) * n].iter().sum())
            .collect();
        for i in 0..n {
            for j in 0..n {
                let t = pair_games[i * n + j];
                if t > 0.0 {
                    cells[i * n + j].d +=
                        0.25 * self.config.prior * t * (1.0 / totals[i] + 1.0 / totals[j]);
                }
            }
        }
        let opponents: Vec<Vec<usize>> = (0..n)
            .map(|i| (0..n).filter(|&j| pair_games[i * n + j] > 0.0).collect())
            .collect();
        let mut gamma = vec![1.0; n];
        let mut theta_w = 10f64.powf(self.config.advantage / 400.0);
        let mut theta_d = 10f64.powf(self.config.draw_elo / 400.0);
        let mut iterations = 0;
        let mut converged = false;
        while iterations < PASSES {
            iterations += 1;
            let mut diff: f64 = 0.0;
            for i in (0..n).rev() {
                if opponents[i].is_empty() {
                    continue;
                }
                let (mut a, mut b) = (0.0, 0.0);
                for &j in &opponents[i] {
                    let mine = cells[i * n + j];
                    let theirs = cells[j * n + i];
                    let (gi, gj) = (gamma[i], gamma[j]);
                    a += mine.w + mine.d + theirs.l + theirs.d;
                    b += (mine.d + mine.w) * theta_w / (theta_w * gi + theta_d * gj)
                        + (mine.d + mine.l) * theta_d * theta_w / (theta_d * theta_w * gi + gj)
                        + (theirs.d + theirs.w) * theta_d / (theta_w * gj + theta_d * gi)
                        + (theirs.d + theirs.l) / (theta_d * theta_w * gj + gi);
                }
                let next = a / b;
                diff = diff.max((next - gamma[i]).abs() / (next + gamma[i]));
                gamma[i] = next;
            }
            if self.config.fit_advantage {
                let (mut num, mut den) = (0.0, 0.0);
                for i in 0..n {
                    for &j in &opponents[i] {
                        let c = cells[i * n + j];
                        let (gi, gj) = (gamma[i], gamma[j]);
                        num += c.w + c.d;
                        den += (c.d + c.w) * gi / (theta_w * gi + theta_d * gj)
                            + (c.d + c.l) * theta_d * gi / (theta_d * theta_w * gi + gj);
                    }
                }
                let next = num / den;
                diff = diff.max((next - theta_w).abs());
                theta_w = next;
            }
            if self.config.fit_draw {
                let (mut num, mut den) = (0.0, 0.0);
                for i in 0..n {
                    for &j in &opponents[i] {
                        let c = cells[i * n + j];
                        let (gi, gj) = (gamma[i], gamma[j]);
                        num += c.d;
                        den += (c.d + c.w) * gj / (theta_w * gi + theta_d * gj)
                            + (c.d + c.l) * theta_w * gi / (theta_d * theta_w * gi + gj);
                    }
                }
                let c = num / den;
                let next = c + (c * c + 1.0).sqrt();
                diff = diff.max((next - theta_d).abs());
                theta_d = next;
            }
            if diff < self.config.tolerance {
                converged = true;
                break;
            }
        }
        let rated: Vec<usize> = (0..n).filter(|&i| !opponents[i].is_empty()).collect();
        let mut elo = vec![f64::NAN; n];
        for &i in &rated {
            elo[i] = 400.0 * gamma[i].log10();
        }
        let mean = rated.iter().map(|&i| elo[i]).sum::<f64>() / rated.len().max(1) as f64;
        rated.iter().for_each(|&i| elo[i] -= mean);
        let draw_elo = 400.0 * theta_d.log10();
        let x = 10f64.powf(-draw_elo / 400.0);
        let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
        // BayesElo's GetVariance: −1/(Σ_j h_ij · (ln10/400)²) with the Hessian terms h.
        let xx = (LN_10 / 400.0).powi(2);
        let mut errors = vec![f64::NAN; n];
        for &i in &rated {
            let mut diag = 0.0;
            for &j in &opponents[i] {
                let mine = cells[i * n + j];
                let theirs = cells[j * n + i];
                let (gi, gj) = (gamma[i], gamma[j]);
                let sq = |d: f64| d * d;
                let h = (mine.w + mine.d) / sq(theta_w * gi + theta_d * gj)
                    + (mine.l + mine.d) / sq(theta_d * theta_w * gi + gj)
                    + (theirs.w + theirs.d) / sq(theta_w * gj + theta_d * gi)
                    + (theirs.l + theirs.d) / sq(theta_d * theta_w * gj + gi);
                diag -= h * gi * gj * theta_d * theta_w;
            }
            errors[i] = scale * (-1.0 / (diag * xx)).sqrt();
        }
        BayesEloRatings {
            ratings: elo.iter().map(|e| self.config.offset + scale * e).collect(),
            errors,
            elo,
            advantage: 400.0 * theta_w.log10(),
            draw_elo,
            scale,
            iterations,
            converged,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    /// Two players, one game, White wins. The prior puts 0.25·2·1·(1 + 1) = 1 virtual draw in
    /// each colour cell. With a = R_a − R_b, the posterior's maximum solves
    /// ∂/∂a [ln f(a + 32.8 − 97.3) + ln P_draw(a) + ln P_draw(−a)] = 0 (the draw with a as White
    /// and with b as White), found here by bisection on the derivative taken numerically.
    #[test]
    fn one_game_with_the_prior_matches_the_hand_posterior() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        let tight = BayesEloConfig {
            tolerance: 1e-12,
            ..BayesEloConfig::new()
        };
        let r = BayesElo::new(tight).rate(&g.counts());
        let f = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let (adv, de) = (32.8, 97.3);
        let draw = |a: f64| 1.0 - f(a + adv - de) - f(-a - adv - de);
        let log_post = |a: f64| (f(a + adv - de)).ln() + draw(a).ln() + draw(-a).ln();
        let slope = |a: f64| (log_post(a + 1e-6) - log_post(a - 1e-6)) / 2e-6;
        let (mut lo, mut hi) = (0.0, 400.0);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if slope(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assert!(r.converged);
        let gap = r.elo[0] - r.elo[1];
        assert!((gap - lo).abs() < 1e-3, "{gap} vs {lo}");
        let x = 10f64.powf(-de / 400.0);
        assert!((r.scale - 4.0 * x / ((1.0 + x) * (1.0 + x))).abs() < 1e-12);
        assert!((r.ratings[0] - 1000.0 - r.scale * gap / 2.0).abs() < 1e-6);
        let [w, d, l] = r.probabilities(0, 1, true);
        assert!((w + d + l - 1.0).abs() < 1e-12 && w > l);
    }

    /// Fitting the draw Elo on a field of only draws drives it up; on decisive games down.
    #[test]
    fn the_draw_elo_fit_follows_the_draw_rate() {
        let mut drawn = Games::new();
        let mut decisive = Games::new();
        for _ in 0..50 {
            drawn.add("a", "b", Score::Draw, true, None);
            drawn.add("b", "a", Score::Draw, true, None);
            decisive.add("a", "b", Score::Win, true, None);
            decisive.add("b", "a", Score::Win, true, None);
        }
        let config = BayesEloConfig {
            fit_draw: true,
            ..BayesEloConfig::new()
        };
        let a = BayesElo::new(config).rate(&drawn.counts());
        let b = BayesElo::new(config).rate(&decisive.counts());
        assert!(a.draw_elo > 300.0, "{}", a.draw_elo);
        assert!(b.draw_elo < 50.0, "{}", b.draw_elo);
    }
}
