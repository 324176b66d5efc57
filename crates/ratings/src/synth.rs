//! Games simulated from the rating model, for testing rating methods against known strengths.
//!
//! True strengths are drawn from N(0, spread²). Games are scheduled in rounds: each round
//! plays every ordered pair of different players once, in a shuffled order, until the number
//! of games is reached (so every (White, Black) cell gets the same count, ±1). Each game's
//! result follows Davidson's model (see [`crate::mle`]) with d = S_white − S_black + advantage:
//! x = 10^(d/800), P(win) = x/(x + 1/x + ν), P(draw) = ν/(x + 1/x + ν); with ν = 0 it is the
//! logistic model, P(win) = 1/(1 + 10^(−d/400)).
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::synth::{simulate, SynthConfig};
//! let s = simulate(&SynthConfig { players: 4, games: 120, ..SynthConfig::new() })?;
//! assert_eq!(s.games.games().len(), 120);
//! assert_eq!(s.strengths.len(), 4);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{GameRecord, Games, PlayerId, RatingError, Score};
use rand::{seq::SliceRandom, Rng, SeedableRng};
use rand_distr::{Distribution, Normal};
use rand_xoshiro::Xoshiro256PlusPlus;

/// What to simulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SynthConfig {
    /// Number of players.
    pub players: usize,
    /// Number of games.
    pub games: u64,
    /// Standard deviation of the true strengths, in Elo.
    pub spread: f64,
    /// Davidson's draw parameter ν (0: no draws).
    pub draw_nu: f64,
    /// White's advantage in Elo.
    pub advantage: f64,
    /// The seed: the same seed gives the same games.
    pub seed: u64,
}

impl SynthConfig {
    /// Returns 50 players, 1,000,000 games, strengths from N(0, 200²), no draws, no advantage.
    #[must_use]
    pub const fn new() -> SynthConfig {
        SynthConfig {
            players: 50,
            games: 1_000_000,
            spread: 200.0,
            draw_nu: 0.0,
            advantage: 0.0,
            seed: 1,
        }
    }
}

impl Default for SynthConfig {
    fn default() -> SynthConfig {
        SynthConfig::new()
    }
}

/// Simulated games and the strengths they were drawn from.
#[derive(Clone, Debug)]
pub struct Synthetic {
    /// The games (players named `p01`, `p02`, …), with colours.
    pub games: Games,
    /// True strength per player, in Elo.
    pub strengths: Vec<f64>,
}

/// Simulates games.
///
/// # Errors
/// [`RatingError::InvalidParameter`] for fewer than two players or a negative spread or ν.
pub fn simulate(config: &SynthConfig) -> Result<Synthetic, RatingError> {
    if config.players < 2 {
        return Err(RatingError::InvalidParameter {
            name: "players",
            reason: "at least 2".into(),
        });
    }
    let non_negative = |x: f64| x.is_finite() && x >= 0.0;
    if !non_negative(config.spread) || !non_negative(config.draw_nu) {
        return Err(RatingError::InvalidParameter {
            name: "spread/draw_nu",
            reason: "must be a number at least 0".into(),
        });
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let normal = Normal::new(0.0, config.spread).map_err(|e| RatingError::InvalidParameter {
        name: "spread",
        reason: e.to_string(),
    })?;
    let strengths: Vec<f64> = (0..config.players)
        .map(|_| normal.sample(&mut rng))
        .collect();
    let width = config.players.to_string().len().max(2);
    let mut games = Games::case_sensitive();
    for p in 0..config.players {
        games.player(&format!("p{:0width$}", p + 1));
    }
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for w in 0..config.players as u32 {
        for b in 0..config.players as u32 {
            if w != b {
                pairs.push((w, b));
            }
        }
    }
    let mut left = config.games;
    while left > 0 {
        pairs.shuffle(&mut rng);
        for &(w, b) in pairs
            .iter()
            .take(usize::try_from(left).unwrap_or(usize::MAX))
        {
            let d = strengths[w as usize] - strengths[b as usize] + config.advantage;
            let score = draw_result(d, config.draw_nu, &mut rng);
            games.push(GameRecord {
                first: PlayerId(w),
                second: PlayerId(b),
                score,
                coloured: true,
                period: None,
            });
            left -= 1;
        }
    }
    Ok(Synthetic { games, strengths })
}

/// Draws one game's result from Davidson's model (the module's doc) for White `d` Elo
/// stronger than Black, advantage included, with draw parameter `draw_nu`.
pub fn draw_result<R: Rng>(d: f64, draw_nu: f64, rng: &mut R) -> Score {
    let x = 10f64.powf(d / 800.0);
    let z = x + 1.0 / x + draw_nu;
    let u: f64 = rng.random::<f64>() * z;
    if u < x {
        Score::Win
    } else if u < x + draw_nu {
        Score::Draw
    } else {
        Score::Loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_balanced_and_results_follow_the_model() {
        let cfg = SynthConfig {
            players: 3,
            games: 6 * 2000 + 2,
            spread: 0.0,
            seed: 9,
            ..SynthConfig::new()
        };
        let s = simulate(&cfg).unwrap_or_else(|e| panic!("{e}"));
        let c = s.games.counts();
        let mut sizes: Vec<u32> = (0..3)
            .flat_map(|w| (0..3).filter(move |&b| b != w).map(move |b| (w, b)))
            .map(|(w, b)| c.coloured(w, b).iter().sum())
            .collect();
        sizes.sort_unstable();
        assert_eq!((sizes[0], sizes[5]), (2000, 2001));
        // Equal strengths, no draws: White wins about half.
        let wins: u32 = (0..3)
            .flat_map(|w| (0..3).map(move |b| (w, b)))
            .filter(|(w, b)| w != b)
            .map(|(w, b)| c.coloured(w, b)[2])
            .sum();
        assert!((f64::from(wins) / 12002.0 - 0.5).abs() < 0.02);
        assert_eq!(c.totals().iter().map(|t| t.draws).sum::<u64>(), 0);
    }

    #[test]
    fn same_seed_same_games() {
        let cfg = SynthConfig {
            players: 5,
            games: 100,
            ..SynthConfig::new()
        };
        let a = simulate(&cfg).unwrap_or_else(|e| panic!("{e}"));
        let b = simulate(&cfg).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.games.games(), b.games.games());
        assert_eq!(a.strengths, b.strengths);
    }
}
