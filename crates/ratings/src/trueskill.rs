//! TrueSkill (Herbrich, Minka and Graepel, "TrueSkill™: A Bayesian Skill Rating System", NIPS
//! 2006) for two players, through the `skillratings` crate's update rule.
//!
//! **Model.** Each player's skill is N(μ, σ²); a game's performance is the skill plus
//! N(0, β²) noise; the first player wins when its performance exceeds the other's by more than
//! the draw margin ε, draws within ±ε. After each game (in the order played, one game at a
//! time: TrueSkill has no rating periods) both beliefs are updated by moment matching: with
//! c² = 2β² + σ_1² + σ_2² + 2τ², t = (μ_winner − μ_loser)/c, μ_winner += (σ²+τ²)/c · v(t, ε/c),
//! σ² ← (σ²+τ²)(1 − (σ²+τ²)/c² · w(t, ε/c)) (the paper's equations for two players, v and w
//! the truncated-Gaussian corrections; the update is `skillratings::trueskill::trueskill`).
//! Defaults are the paper's: μ = 25, σ = 25/3, β = 25/6, τ = 25/300, draw probability 10%
//! (ε = Φ⁻¹((p + 1)/2)·√2·β).
//!
//! **Prediction** (the paper's section 2): P(first wins) = Φ((μ_1 − μ_2 − ε)/c),
//! P(second wins) = Φ((μ_2 − μ_1 − ε)/c), P(draw) the rest, c² = 2β² + σ_1² + σ_2².
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{trueskill::{TrueSkill, TrueSkillConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! let r = TrueSkill::new(TrueSkillConfig::new()).rate(&games);
//! assert!((r.means[0] - 29.396).abs() < 1e-3 && (r.means[1] - 20.604).abs() < 1e-3);
//! ```

use crate::{convert::normal_cdf, Games, Score};
use skillratings::{
    trueskill::{trueskill, TrueSkillConfig as CrateConfig, TrueSkillRating},
    Outcomes,
};

/// Settings of TrueSkill (the paper's defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrueSkillConfig {
    /// Prior mean μ₀ (25).
    pub mean: f64,
    /// Prior deviation σ₀ (25/3).
    pub deviation: f64,
    /// Performance noise β (25/6).
    pub beta: f64,
    /// Dynamics τ, added to σ² before each game (25/300).
    pub dynamics: f64,
    /// Probability of a draw between equal players, which sets the draw margin ε (0.1).
    pub draw_probability: f64,
}

impl TrueSkillConfig {
    /// Returns the paper's defaults.
    #[must_use]
    pub const fn new() -> TrueSkillConfig {
        TrueSkillConfig {
            mean: 25.0,
            deviation: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            dynamics: 25.0 / 300.0,
            draw_probability: 0.1,
        }
    }

    /// Returns the draw margin ε = Φ⁻¹((p + 1)/2)·√2·β for two players.
    #[must_use]
    pub fn draw_margin(&self) -> f64 {
        normal_quantile(f64::midpoint(self.draw_probability, 1.0))
            * std::f64::consts::SQRT_2
            * self.beta
    }
}

impl Default for TrueSkillConfig {
    fn default() -> TrueSkillConfig {
        TrueSkillConfig::new()
    }
}

/// Every player's belief after the last game.
#[derive(Clone, Debug, PartialEq)]
pub struct TrueSkillRatings {
    /// Mean skill μ.
    pub means: Vec<f64>,
    /// Deviation σ.
    pub deviations: Vec<f64>,
    /// The settings the games were rated with (the prediction needs β and ε).
    pub config: TrueSkillConfig,
}

impl TrueSkillRatings {
    /// Returns P(`i` wins), P(draw), P(`j` wins) for a game between them (the module's doc).
    #[must_use]
    pub fn probabilities(&self, i: usize, j: usize) -> [f64; 3] {
        let b = self.config.beta;
        let c = (2.0 * b * b + self.deviations[i].powi(2) + self.deviations[j].powi(2)).sqrt();
        let eps = self.config.draw_margin();
        let d = self.means[i] - self.means[j];
        let win = normal_cdf((d - eps) / c);
        let loss = normal_cdf((-d - eps) / c);
        [win, (1.0 - win - loss).max(0.0), loss]
    }
}

/// TrueSkill for games between two players.
#[derive(Clone, Copy, Debug, Default)]
pub struct TrueSkill {
    config: TrueSkillConfig,
}

impl TrueSkill {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: TrueSkillConfig) -> TrueSkill {
        TrueSkill { config }
    }

    /// Rates the games one by one in their order; games of a player against itself are
    /// skipped.
    #[must_use]
    pub fn rate(&self, games: &Games) -> TrueSkillRatings {
        let n = games.player_count();
        let start = TrueSkillRating {
            rating: self.config.mean,
            uncertainty: self.config.deviation,
        };
        let config = CrateConfig {
            draw_probability: self.config.draw_probability,
            beta: self.config.beta,
            dynamics_factor: self.config.dynamics,
        };
        let mut now = vec![start; n];
        for g in games.games() {
            let (a, b) = (g.first.index(), g.second.index());
            if a == b {
                continue;
            }
            let outcome = match g.score {
                Score::Win => Outcomes::WIN,
                Score::Draw => Outcomes::DRAW,
                Score::Loss => Outcomes::LOSS,
            };
            (now[a], now[b]) = trueskill(&now[a], &now[b], &outcome, &config);
        }
        TrueSkillRatings {
            means: now.iter().map(|r| r.rating).collect(),
            deviations: now.iter().map(|r| r.uncertainty).collect(),
            config: self.config,
        }
    }
}

/// Returns Φ⁻¹(p) for 0 < p < 1 by bisection on Φ (to 1e-12; ±∞ at the ends).
#[must_use]
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    while hi - lo > 1e-12 {
        let mid = f64::midpoint(lo, hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    f64::midpoint(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moserware's two-player examples ("Computing Your Skill", 2010, and its unit tests of
    /// the paper's defaults, draw probability 10%): a win takes both from 25/8.333 to
    /// 29.396/7.171 and 20.604/7.171; a draw leaves μ = 25 and σ = 6.458.
    #[test]
    fn moserwares_two_player_examples() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        let r = TrueSkill::new(TrueSkillConfig::new()).rate(&g);
        assert!((r.means[0] - 29.39583).abs() < 1e-4, "{:?}", r.means);
        assert!((r.means[1] - 20.60417).abs() < 1e-4);
        assert!(
            (r.deviations[0] - 7.171475).abs() < 1e-4,
            "{:?}",
            r.deviations
        );
        let mut d = Games::new();
        d.add("a", "b", Score::Draw, true, None);
        let r = TrueSkill::new(TrueSkillConfig::new()).rate(&d);
        assert!((r.means[0] - 25.0).abs() < 1e-9 && (r.means[1] - 25.0).abs() < 1e-9);
        assert!(
            (r.deviations[0] - 6.457520).abs() < 1e-4,
            "{:?}",
            r.deviations
        );
    }

    #[test]
    fn equal_players_draw_at_the_configured_rate_with_no_uncertainty() {
        let r = TrueSkillRatings {
            means: vec![25.0, 25.0],
            deviations: vec![0.0, 0.0],
            config: TrueSkillConfig::new(),
        };
        let [w, d, l] = r.probabilities(0, 1);
        assert!((d - 0.1).abs() < 1e-9, "{d}");
        assert!((w - l).abs() < 1e-12);
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-6);
    }
}
