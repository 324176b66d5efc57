//! Incremental Elo in game order with K = 800/N, as in the Squava article (after Glickman and Doan,
//! *The US Chess Rating System*, 2024).
//!
//! Before a game between a player rated R0 and an opponent rated R1, the player expects
//! E = 1/(1 + 10^((R1 − R0)/400)) and its rating changes by K·(S − E), S = 1, ½ or 0, with
//! K = 800/N where N = the player's effective prior games (default 14) + the games it has
//! played including this one. Every player starts at 1300 (US Chess's rating "if no other
//! criteria applies"). Both players update from their pre-game ratings, so the two changes
//! differ when the players' N differ.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{uscf::{Uscf, UscfConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! let r = Uscf::new(UscfConfig::new()).rate(&games);
//! // K = 800/15 and E = ½: a gains 26.67, b loses as much.
//! assert!((r.ratings[0] - (1300.0 + 800.0 / 15.0 * 0.5)).abs() < 1e-9);
//! ```

use crate::games::Games;

/// Settings of the incremental rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UscfConfig {
    /// Every player's rating before its first game.
    pub initial_rating: f64,
    /// Effective games a new player is taken to have played already.
    pub prior_games: f64,
}

impl UscfConfig {
    /// Returns the Squava article's settings: 1300 from 14 effective games.
    #[must_use]
    pub const fn new() -> UscfConfig {
        UscfConfig {
            initial_rating: 1300.0,
            prior_games: 14.0,
        }
    }
}

impl Default for UscfConfig {
    fn default() -> UscfConfig {
        UscfConfig::new()
    }
}

/// The ratings after the last game, and each player's rating after every game it played.
#[derive(Clone, Debug, PartialEq)]
pub struct UscfRatings {
    /// Final rating per player.
    pub ratings: Vec<f64>,
    /// Games played per player.
    pub games: Vec<u64>,
    /// Per player: (index of the game in the list, rating after it), in order.
    pub history: Vec<Vec<(u32, f64)>>,
}

/// The incremental rating of the Squava article.
#[derive(Clone, Copy, Debug, Default)]
pub struct Uscf {
    config: UscfConfig,
}

impl Uscf {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: UscfConfig) -> Uscf {
        Uscf { config }
    }

    /// Rates the games in their order. Games of a player against itself are skipped.
    #[must_use]
    pub fn rate(&self, games: &Games) -> UscfRatings {
        let n = games.player_count();
        let mut ratings = vec![self.config.initial_rating; n];
        let mut played = vec![0u64; n];
        let mut history: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
        for (index, g) in games.games().iter().enumerate() {
            let (a, b) = (g.first.index(), g.second.index());
            if a == b {
                continue;
            }
            let (ra, rb) = (ratings[a], ratings[b]);
            played[a] += 1;
            played[b] += 1;
            let s = g.score.points();
            let ka = 800.0 / (self.config.prior_games + played[a] as f64);
            let kb = 800.0 / (self.config.prior_games + played[b] as f64);
            let ea = 1.0 / (1.0 + 10f64.powf((rb - ra) / 400.0));
            ratings[a] = ra + ka * (s - ea);
            ratings[b] = rb + kb * ((1.0 - s) - (1.0 - ea));
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            history[a].push((index, ratings[a]));
            history[b].push((index, ratings[b]));
        }
        UscfRatings {
            ratings,
            games: played,
            history,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    #[test]
    fn two_games_by_hand() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("c", "a", Score::Draw, true, None);
        let r = Uscf::new(UscfConfig::new()).rate(&g);
        // Game 1: a 1300 → 1300 + 800/15·½ = 1326.667; b → 1273.333.
        let a1 = 1300.0 + 800.0 / 15.0 * 0.5;
        assert!((r.ratings[1] - (1300.0 - 800.0 / 15.0 * 0.5)).abs() < 1e-9);
        // Game 2: c (1300, first game, K = 800/15) draws a (1326.667, second game, K = 800/16).
        let e_c = 1.0 / (1.0 + 10f64.powf((a1 - 1300.0) / 400.0));
        assert!((r.ratings[2] - (1300.0 + 800.0 / 15.0 * (0.5 - e_c))).abs() < 1e-9);
        assert!((r.ratings[0] - (a1 + 800.0 / 16.0 * (0.5 - (1.0 - e_c)))).abs() < 1e-9);
        assert_eq!(r.games, vec![2, 1, 1]);
        assert_eq!(r.history[0], vec![(0, a1), (1, r.ratings[0])]);
    }

    #[test]
    fn settings_change_start_and_k() {
        let mut g = Games::new();
        g.add("a", "b", Score::Loss, true, None);
        let r = Uscf::new(UscfConfig {
            initial_rating: 1000.0,
            prior_games: 0.0,
        })
        .rate(&g);
        assert_eq!(r.ratings, vec![600.0, 1400.0]);
    }
}
