//! Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012; lichess rates with it), through
//! the `skillratings` crate's update rule, and the rating periods it and WHR share.
//!
//! **Model.** Each player has a rating r, a rating deviation RD and a volatility σ. On
//! Glickman's internal scale μ = (r − 1500)/173.7178 and φ = RD/173.7178, with
//! g(φ) = 1/√(1 + 3φ²/π²) and E(μ, μ_j, φ_j) = 1/(1 + exp(−g(φ_j)(μ − μ_j))), a player's rating
//! period updates, from all its games of the period against opponents' ratings at the
//! period's start: v = [Σ g(φ_j)² E(1 − E)]⁻¹, Δ = v Σ g(φ_j)(s_j − E), a new σ' by the
//! Illinois iteration on Glickman's f(x) (step 5), φ* = √(φ² + σ'²),
//! φ' = 1/√(1/φ*² + 1/v), μ' = μ + φ'² Σ g(φ_j)(s_j − E). A player without games in a period
//! only widens: φ' = √(φ² + σ²). Start: 1500, RD 350, σ 0.06; τ = 0.5 (Glickman: 0.3–1.2).
//! The update is `skillratings::glicko2::glicko2_rating_period` (not written again here).
//!
//! **Rating periods** ([`PeriodRule`]): Glicko-2 treats the games of one period as played at
//! once. A period is either one date (a game's `period`, the year the sources give: a run
//! of consecutive games with the same period is one rating period) or a fixed number of
//! consecutive games. Glickman advises "a moderate to large number of games, say an average of
//! at least 10–15 games per player in a rating period"; [`PeriodRule::Auto`] therefore takes
//! one period per date when every game is dated and else blocks of 5 × (number of players)
//! games, in which each player plays 10 games on average.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{glicko2::{Glicko2, Glicko2Config}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! games.add("b", "a", Score::Loss, true, None);
//! let r = Glicko2::new(Glicko2Config::new()).rate(&games);
//! assert!(r.ratings[0] > 1500.0 && r.ratings[1] < 1500.0);
//! assert!(r.deviations[0] < 350.0);
//! ```

use crate::{GameRecord, Games};
use skillratings::{
    glicko2::{glicko2_rating_period, Glicko2Config as CrateConfig, Glicko2Rating},
    Outcomes,
};
use std::ops::Range;

/// How games are grouped into rating periods (Glicko-2's periods, WHR's time steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PeriodRule {
    /// One period per date when every game has one, else [`PeriodRule::Games`] of
    /// 5 × (number of players): 10 games per player and period on average, Glickman's advice.
    #[default]
    Auto,
    /// One period per run of consecutive games with the same date (`period`, a year).
    Dated,
    /// A fixed number of consecutive games per period (at least 1).
    Games(usize),
}

impl PeriodRule {
    /// Splits `games` (in the order played) into rating periods: consecutive index ranges.
    #[must_use]
    pub fn split(self, games: &[GameRecord], players: usize) -> Vec<Range<usize>> {
        let rule = match self {
            PeriodRule::Auto if !games.is_empty() && games.iter().all(|g| g.period.is_some()) => {
                PeriodRule::Dated
            }
            PeriodRule::Auto => PeriodRule::Games(5 * players.max(1)),
            other => other,
        };
        let mut out = Vec::new();
        match rule {
            PeriodRule::Games(size) => {
                let size = size.max(1);
                let mut start = 0;
                while start < games.len() {
                    let end = (start + size).min(games.len());
                    out.push(start..end);
                    start = end;
                }
            }
            _ => {
                let mut start = 0;
                for i in 1..=games.len() {
                    if i == games.len() || games[i].period != games[start].period {
                        out.push(start..i);
                        start = i;
                    }
                }
            }
        }
        out
    }
}

/// Settings of Glicko-2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2Config {
    /// τ, how much the volatility may change (Glickman: 0.3 to 1.2; 0.5 here, as the crate).
    pub tau: f64,
    /// How games are grouped into rating periods.
    pub periods: PeriodRule,
}

impl Glicko2Config {
    /// Returns τ = 0.5 and [`PeriodRule::Auto`].
    #[must_use]
    pub const fn new() -> Glicko2Config {
        Glicko2Config {
            tau: 0.5,
            periods: PeriodRule::Auto,
        }
    }
}

impl Default for Glicko2Config {
    fn default() -> Glicko2Config {
        Glicko2Config::new()
    }
}

/// Every player's Glicko-2 rating after the last period.
#[derive(Clone, Debug, PartialEq)]
pub struct Glicko2Ratings {
    /// Rating r (1500 before any game).
    pub ratings: Vec<f64>,
    /// Rating deviation RD (350 before any game).
    pub deviations: Vec<f64>,
    /// Volatility σ.
    pub volatilities: Vec<f64>,
    /// Number of rating periods the games made.
    pub periods: usize,
}

impl Glicko2Ratings {
    /// Returns the expected score of `i` against `j`: E with the combined deviation
    /// √(φ_i² + φ_j²), as Glickman's expected-score formula (`skillratings::glicko2::expected_score`).
    #[must_use]
    pub fn expected_score(&self, i: usize, j: usize) -> f64 {
        skillratings::glicko2::expected_score(&self.rating(i), &self.rating(j)).0
    }

    fn rating(&self, i: usize) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.ratings[i],
            deviation: self.deviations[i],
            volatility: self.volatilities[i],
        }
    }
}

/// Glicko-2 over rating periods.
#[derive(Clone, Copy, Debug, Default)]
pub struct Glicko2 {
    config: Glicko2Config,
}

impl Glicko2 {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: Glicko2Config) -> Glicko2 {
        Glicko2 { config }
    }

    /// Rates the games period by period (the module's doc). Games of a player against itself
    /// are skipped.
    #[must_use]
    pub fn rate(&self, games: &Games) -> Glicko2Ratings {
        let n = games.player_count();
        let list = games.games();
        let config = CrateConfig {
            tau: self.config.tau,
            ..CrateConfig::new()
        };
        let mut now = vec![Glicko2Rating::new(); n];
        let mut seen = vec![false; n];
        let mut results: Vec<Vec<(Glicko2Rating, Outcomes)>> = vec![Vec::new(); n];
        let periods = self.config.periods.split(list, n);
        for period in &periods {
            for g in &list[period.clone()] {
                let (a, b) = (g.first.index(), g.second.index());
                if a == b {
                    continue;
                }
                let (sa, sb) = match g.score {
                    crate::Score::Win => (Outcomes::WIN, Outcomes::LOSS),
                    crate::Score::Draw => (Outcomes::DRAW, Outcomes::DRAW),
                    crate::Score::Loss => (Outcomes::LOSS, Outcomes::WIN),
                };
                results[a].push((now[b], sa));
                results[b].push((now[a], sb));
                seen[a] = true;
                seen[b] = true;
            }
            // A player not yet seen keeps its starting values (it has no rating to widen).
            let next: Vec<Glicko2Rating> = (0..n)
                .map(|p| {
                    if seen[p] {
                        glicko2_rating_period(&now[p], &results[p], &config)
                    } else {
                        now[p]
                    }
                })
                .collect();
            now = next;
            results.iter_mut().for_each(Vec::clear);
        }
        Glicko2Ratings {
            ratings: now.iter().map(|r| r.rating).collect(),
            deviations: now.iter().map(|r| r.deviation).collect(),
            volatilities: now.iter().map(|r| r.volatility).collect(),
            periods: periods.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    /// Glickman's worked example ("Example of the Glicko-2 system", 2012): a player at
    /// 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300 in one period and ends at
    /// 1464.06, RD 151.52, volatility 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let mut g = Games::case_sensitive();
        g.add("me", "a", Score::Win, true, None);
        g.add("me", "b", Score::Loss, true, None);
        g.add("me", "c", Score::Loss, true, None);
        let me = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = CrateConfig {
            tau: 0.5,
            ..CrateConfig::new()
        };
        let r = glicko2_rating_period(&me, &results, &config);
        assert!((r.rating - 1464.06).abs() < 0.01, "{}", r.rating);
        assert!((r.deviation - 151.52).abs() < 0.01, "{}", r.deviation);
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{}", r.volatility);
        // Through the module: all four start at 1500/350, one period of three games.
        let ours = Glicko2::new(Glicko2Config::new()).rate(&g);
        assert_eq!(ours.periods, 1);
        assert!(ours.ratings[0] < 1500.0, "one win, two losses");
        assert!(ours.ratings[1] < 1500.0 && ours.ratings[2] > 1500.0);
    }

    #[test]
    fn periods_follow_dates_or_fixed_blocks() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, Some(2000));
        g.add("a", "b", Score::Win, true, Some(2000));
        g.add("a", "b", Score::Win, true, Some(2001));
        assert_eq!(PeriodRule::Auto.split(g.games(), 2), vec![0..2, 2..3]);
        assert_eq!(PeriodRule::Games(2).split(g.games(), 2), vec![0..2, 2..3]);
        g.add("a", "b", Score::Win, true, None);
        assert_eq!(PeriodRule::Auto.split(g.games(), 2), vec![0..4]);
        assert_eq!(PeriodRule::Games(0).split(g.games(), 2).len(), 4);
    }

    #[test]
    fn a_quiet_period_widens_the_deviation() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("c", "d", Score::Win, true, None);
        let one = Glicko2::new(Glicko2Config {
            periods: PeriodRule::Games(1),
            ..Glicko2Config::new()
        })
        .rate(&g);
        let both = Glicko2::new(Glicko2Config {
            periods: PeriodRule::Games(2),
            ..Glicko2Config::new()
        })
        .rate(&g);
        assert_eq!(one.periods, 2);
        assert!(one.deviations[0] > both.deviations[0]);
        assert!((one.ratings[0] - both.ratings[0]).abs() < 1e-9);
    }
}
