//! Placing a new player on a ladder whose ratings stay fixed (Murphy's Elo World, SIGBOVIK
//! 2019, section 4: benchmarking "some new engine or algorithm").
//!
//! **Rating.** With the rungs' ratings R_j and the ladder's first-move advantage A held fixed,
//! the new player's rating r maximises the half-point Bradley–Terry likelihood of its games
//! (the model of [`eloworld_ratings::mle`]): a game as White against rung j scores S with expectation
//! p = 1/(1 + 10^(−(r − R_j + A)/400)), as Black with d = r − R_j − A. The log-likelihood is
//! concave in r and its derivative C·Σ(S − p) (C = ln 10/400) falls monotonically, so the
//! maximum is the root of Σ p(r) = Σ S, found by bisection. Its standard error is
//! 1/√(C²·Σ p(1 − p)) (observed information), the 95% interval ±1.96 σ. A player that won or
//! lost every game has no finite maximum: as in [`eloworld_ratings::mle`] (BayesElo's prior), two
//! virtual games split evenly are then added against every rung it met, and the result is
//! flagged.
//!
//! **Where to play next.** A game tells most about r where p(1 − p) is largest, i.e. against
//! rungs rated near the current estimate. [`next_rung`] takes the few most informative rungs
//! and plays the one with the fewest games so far, so the games spread over the neighbours
//! rather than resting on one opponent's style.
//!
//! **Scoville placement.** Among a family of dilutions (`BASE_rN`, N/65536 random moves) the
//! player falls between the two members whose ratings bracket its own, as Elo World reads
//! "blind_spycheck performs between stockfish1m_r63488 and _r61440, so it is approximately a
//! 93.75–96.875% diluted Stockfish" ([`scoville`]).
//!
//! # Quickstart
//! ```
//! use eloworld_ladder::placement::{place, RungGames};
//! use eloworld_ratings::Wdl;
//! // 10 games as White and 10 as Black against a rung at 1000, half the points each way.
//! let games = [RungGames { rating: 1000.0, as_white: Wdl::new(5, 0, 5), as_black: Wdl::new(5, 0, 5) }];
//! let p = place(&games, 0.0);
//! assert!((p.rating - 1000.0).abs() < 1e-6);
//! assert!(p.low < 1000.0 && p.high > 1000.0 && !p.flagged);
//! ```

use eloworld_ratings::convert::Z95;
use eloworld_ratings::interpolate::dilution;
use eloworld_ratings::Wdl;
use std::f64::consts::LN_10;

const C: f64 = LN_10 / 400.0;

/// The new player's games against one rung, with White and with Black, from its side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RungGames {
    /// The rung's fixed rating.
    pub rating: f64,
    /// The new player's games with White.
    pub as_white: Wdl,
    /// The new player's games with Black.
    pub as_black: Wdl,
}

impl RungGames {
    /// No games yet against rungs rated `ratings`, one entry a rung in that order.
    #[must_use]
    pub fn none_against(ratings: &[f64]) -> Vec<RungGames> {
        ratings
            .iter()
            .map(|&rating| RungGames {
                rating,
                ..RungGames::default()
            })
            .collect()
    }

    /// Returns the number of games.
    #[must_use]
    pub fn games(&self) -> u32 {
        u32::try_from(self.as_white.games() + self.as_black.games()).unwrap_or(u32::MAX)
    }

    /// Returns the new player's points.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.as_white.points() + self.as_black.points()
    }
}

/// A placed rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// The maximum-likelihood rating against the fixed rungs.
    pub rating: f64,
    /// Its standard error.
    pub error: f64,
    /// Low end of the 95% interval.
    pub low: f64,
    /// High end of the 95% interval.
    pub high: f64,
    /// Games counted.
    pub games: u32,
    /// True when every game was won or every game lost: the rating rests on the prior.
    pub flagged: bool,
}

impl Placed {
    /// Returns half the width of the 95% interval.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        0.5 * (self.high - self.low)
    }
}

/// When a placement stops: its 95% interval is within `precision` (and it has played
/// `minimum` games, two batches by default, so one lucky batch does not end it), or the
/// next batch would pass `max_games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoppingRule {
    /// Stop when the 95% interval's half-width is at most this (Elo).
    pub precision: f64,
    /// Never play more games than this.
    pub max_games: u32,
    /// Games in one batch (both colours).
    pub per_batch: u32,
    /// Games played before precision alone may stop it.
    pub minimum: u32,
}

impl StoppingRule {
    /// The rule for batches of `per_batch` games: at least two batches before precision may
    /// stop the placement (fewer if `max_games` allows fewer).
    #[must_use]
    pub fn new(precision: f64, max_games: u32, per_batch: u32) -> StoppingRule {
        StoppingRule {
            precision,
            max_games,
            per_batch,
            minimum: (2 * per_batch).min(max_games),
        }
    }

    /// True when the placement should stop at `placed`.
    #[must_use]
    pub fn done(&self, placed: &Placed) -> bool {
        let precise = !placed.flagged && placed.half_width() <= self.precision;
        (precise && placed.games >= self.minimum) || placed.games + self.per_batch > self.max_games
    }
}

/// Expected score for a rating difference.
fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// Returns the maximum-likelihood rating of a player against rungs held fixed, with White's
/// advantage `advantage` (see the module's doc for the model and the prior).
///
/// Without games, returns the mean of the rungs' ratings with an infinite interval.
#[must_use]
pub fn place(games: &[RungGames], advantage: f64) -> Placed {
    // (opponent's rating − our colour's advantage, games, points), virtual games included.
    let mut cells: Vec<(f64, f64, f64)> = Vec::with_capacity(games.len() * 2);
    let mut total = 0u32;
    let mut points = 0.0;
    for g in games {
        for (wdl, a) in [(g.as_white, advantage), (g.as_black, -advantage)] {
            let n = u32::try_from(wdl.games()).unwrap_or(u32::MAX);
            if n > 0 {
                let s = wdl.points();
                cells.push((g.rating - a, f64::from(n), s));
                total += n;
                points += s;
            }
        }
    }
    if total == 0 {
        let mean = games.iter().map(|g| g.rating).sum::<f64>() / games.len().max(1) as f64;
        return Placed {
            rating: mean,
            error: f64::INFINITY,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            games: 0,
            flagged: true,
        };
    }
    let flagged = points <= 0.0 || points >= f64::from(total);
    if flagged {
        for g in games.iter().filter(|g| g.games() > 0) {
            cells.push((g.rating, 2.0, 1.0));
        }
    }
    let excess = |r: f64| -> f64 { cells.iter().map(|&(o, n, s)| s - n * expected(r - o)).sum() };
    let lowest = cells.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
    let highest = cells.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    let (mut lo, mut hi) = (lowest - 4000.0, highest + 4000.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-9 {
            break;
        }
    }
    let rating = 0.5 * (lo + hi);
    let information: f64 = cells
        .iter()
        .map(|&(o, n, _)| {
            let p = expected(rating - o);
            C * C * n * p * (1.0 - p)
        })
        .sum();
    let error = if information > 0.0 {
        1.0 / information.sqrt()
    } else {
        f64::INFINITY
    };
    Placed {
        rating,
        error,
        low: rating - Z95 * error,
        high: rating + Z95 * error,
        games: total,
        flagged,
    }
}

/// A placed rating's interval with the rungs' own uncertainty added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Combined {
    /// The standard error: the placement's games and the rungs' ratings together.
    pub error: f64,
    /// Low end of the 95% interval.
    pub low: f64,
    /// High end of the 95% interval.
    pub high: f64,
}

/// Returns the interval of a placed rating on the scale, counting the uncertainty of the
/// rungs it was measured against as well as its own games (the delta method): the rating
/// solves Σ_j n_j(S_j − p_j(r − R_j)) = 0, so a shift δR_j of rung j moves it by
/// g_j·δR_j with g_j = w_j/Σw, w_j = Σ n·p(1 − p) over rung j's games (both colours); the
/// variance is the placement's own σ² plus gᵀΣg, Σ the rungs' covariance (`covariance`,
/// row-major, rows in the order of `games`).
#[must_use]
pub fn combined(
    games: &[RungGames],
    placed: &Placed,
    advantage: f64,
    covariance: &[f64],
) -> Combined {
    let k = games.len();
    let weights: Vec<f64> = games
        .iter()
        .map(|g| {
            [(g.as_white, advantage), (g.as_black, -advantage)]
                .iter()
                .map(|&(wdl, a)| {
                    let p = expected(placed.rating - g.rating + a);
                    wdl.games() as f64 * p * (1.0 - p)
                })
                .sum::<f64>()
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut scale_variance = 0.0;
    if total > 0.0 && covariance.len() == k * k {
        for a in 0..k {
            for b in 0..k {
                scale_variance += weights[a] * weights[b] * covariance[a * k + b];
            }
        }
        scale_variance /= total * total;
    }
    let error = (placed.error.powi(2) + scale_variance.max(0.0)).sqrt();
    Combined {
        error,
        low: placed.rating - Z95 * error,
        high: placed.rating + Z95 * error,
    }
}

/// How many of the most informative rungs [`next_rung`] spreads the games over: with 5
/// rather than 3, 9 of 10 players of the shipped in-process ladder placed again land within
/// the combined 95% interval of their round-robin rating (8 of 10 with 3), because a player's
/// score against its few nearest rungs depends on their styles as well as on its strength.
pub const NEIGHBOURS: usize = 5;

/// Returns the rung to play next: of the [`NEIGHBOURS`] rungs whose expected score against
/// `estimate` is closest to 50% (the most Fisher information p(1 − p)), the one with the
/// fewest games so far (ties: the closer one). `ratings[i]` is rung i's rating, `played[i]`
/// its games so far; rungs with `usable[i]` false are never chosen. None if no rung is usable.
#[must_use]
pub fn next_rung(ratings: &[f64], played: &[u32], usable: &[bool], estimate: f64) -> Option<usize> {
    let mut order: Vec<usize> = (0..ratings.len()).filter(|&i| usable[i]).collect();
    order.sort_by(|&a, &b| {
        (ratings[a] - estimate)
            .abs()
            .total_cmp(&(ratings[b] - estimate).abs())
            .then(a.cmp(&b))
    });
    order.truncate(NEIGHBOURS);
    order.iter().copied().min_by_key(|&i| played[i])
}

/// Returns the rating placement starts from: the median of the usable rungs ("start near
/// the middle").
#[must_use]
pub fn start_estimate(ratings: &[f64], usable: &[bool]) -> f64 {
    let mut r: Vec<f64> = (0..ratings.len())
        .filter(|&i| usable[i])
        .map(|i| ratings[i])
        .collect();
    r.sort_by(f64::total_cmp);
    if r.is_empty() {
        return f64::NAN;
    }
    r[r.len() / 2]
}

/// Where a rating falls in one family of dilutions.
#[derive(Clone, Debug, PartialEq)]
pub struct Scoville {
    /// The family's undiluted player (`stockfish1m`).
    pub base: String,
    /// The strongest member rated at or below the rating: (name, rating, dilution N).
    pub below: Option<(String, f64, u32)>,
    /// The weakest member rated above it: (name, rating, dilution N).
    pub above: Option<(String, f64, u32)>,
}

impl Scoville {
    /// Describes the placement: "between stockfish1m_r61440 and stockfish1m_r63488:
    /// 93.75–96.9% diluted", or "above/below every … dilution".
    #[must_use]
    pub fn describe(&self) -> String {
        let percent = |n: u32| {
            let p = f64::from(n) * 100.0 / 65536.0;
            let text = format!("{p:.2}");
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        };
        match (&self.below, &self.above) {
            (Some(b), Some(a)) => {
                let (lo, hi) = if a.2 <= b.2 { (a.2, b.2) } else { (b.2, a.2) };
                format!(
                    "between {} and {}: {}–{}% diluted {}",
                    b.0,
                    a.0,
                    percent(lo),
                    percent(hi),
                    self.base
                )
            }
            (Some(b), None) => format!(
                "above every {} dilution (strongest: {}, {}% diluted)",
                self.base,
                b.0,
                percent(b.2)
            ),
            (None, Some(a)) => format!(
                "below every {} dilution (weakest: {}, {}% diluted)",
                self.base,
                a.0,
                percent(a.2)
            ),
            (None, None) => format!("no rated {} dilution", self.base),
        }
    }
}

/// Returns the dilution families among `names`: every base with at least two members
/// (`BASE` and/or `BASE_rN`), sorted by base.
#[must_use]
pub fn families(names: &[&str]) -> Vec<String> {
    let mut bases: Vec<String> = names
        .iter()
        .filter_map(|n| n.rfind("_r").map(|i| n[..i].to_owned()))
        .filter(|b| !b.is_empty())
        .collect();
    bases.sort();
    bases.dedup();
    bases.retain(|b| names.iter().filter(|n| dilution(b, n).is_some()).count() >= 2);
    bases
}

/// Places `rating` among every dilution family of the rungs (`names[i]` rated `ratings[i]`).
#[must_use]
pub fn scoville(names: &[&str], ratings: &[f64], rating: f64) -> Vec<Scoville> {
    families(names)
        .into_iter()
        .map(|base| {
            let mut members: Vec<(String, f64, u32)> = names
                .iter()
                .zip(ratings)
                .filter(|(_, r)| r.is_finite())
                .filter_map(|(n, &r)| dilution(&base, n).map(|d| ((*n).to_owned(), r, d)))
                .collect();
            members.sort_by(|a, b| a.1.total_cmp(&b.1));
            let below = members.iter().rev().find(|m| m.1 <= rating).cloned();
            let above = members.iter().find(|m| m.1 > rating).cloned();
            Scoville { base, below, above }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_placement_stops_when_precise_after_two_batches_or_before_passing_the_budget() {
        let rule = StoppingRule::new(40.0, 100, 4);
        assert_eq!(rule.minimum, 8);
        let placed = |games, half: f64, flagged| Placed {
            rating: 1000.0,
            error: half / 1.96,
            low: 1000.0 - half,
            high: 1000.0 + half,
            games,
            flagged,
        };
        assert!(
            !rule.done(&placed(4, 30.0, false)),
            "precise, but one batch only"
        );
        assert!(
            rule.done(&placed(8, 30.0, false)),
            "precise after two batches"
        );
        assert!(!rule.done(&placed(8, 50.0, false)), "not precise yet");
        assert!(
            !rule.done(&placed(40, 30.0, true)),
            "an all-won record rests on a prior"
        );
        assert!(
            !rule.done(&placed(96, 50.0, false)),
            "one more batch fits in 100"
        );
        assert!(
            rule.done(&placed(97, 50.0, false)),
            "the next batch would pass 100"
        );
        assert_eq!(
            StoppingRule::new(40.0, 6, 4).minimum,
            6,
            "never more than the budget"
        );
    }

    use super::*;
    use crate::ladder::Ladder;
    use eloworld_ratings::synth::{simulate, SynthConfig};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn one_rung_by_hand() {
        // 7.5 of 10 against one rung at 1200, no advantage: 1200 + 400·log10(3).
        let g = [RungGames {
            rating: 1200.0,
            as_white: Wdl::new(3, 1, 1),
            as_black: Wdl::new(4, 0, 1),
        }];
        let p = place(&g, 0.0);
        let expect = 1200.0 + 400.0 * 3f64.log10();
        assert!((p.rating - expect).abs() < 1e-6, "{}", p.rating);
        // Information 10·C²·p(1 − p) with p = 3/4.
        let se = 1.0 / (10.0 * C * C * 0.75 * 0.25).sqrt();
        assert!((p.error - se).abs() < 1e-6);
        assert!((p.half_width() - Z95 * se).abs() < 1e-6);
        assert!(!p.flagged);
    }

    #[test]
    fn the_combined_interval_adds_the_rungs_covariance() {
        // One rung: the placed rating moves one for one with it, so the variances add.
        let g = [RungGames {
            rating: 1200.0,
            as_white: Wdl::new(3, 1, 1),
            as_black: Wdl::new(4, 0, 1),
        }];
        let p = place(&g, 0.0);
        let c = combined(&g, &p, 0.0, &[30.0 * 30.0]);
        assert!((c.error - (p.error.powi(2) + 900.0).sqrt()).abs() < 1e-9);
        assert!((c.high - c.low - 2.0 * Z95 * c.error).abs() < 1e-9);
        // Two rungs with equal weight (even scores against both at equal distance): the
        // scale's part is a quarter of the summed covariance, so perfectly anticorrelated
        // rungs add nothing.
        let g = [
            RungGames {
                rating: 900.0,
                as_white: Wdl::new(5, 0, 5),
                as_black: Wdl::new(5, 0, 5),
            },
            RungGames {
                rating: 1100.0,
                as_white: Wdl::new(5, 0, 5),
                as_black: Wdl::new(5, 0, 5),
            },
        ];
        let p = place(&g, 0.0);
        assert!((p.rating - 1000.0).abs() < 1e-6);
        let independent = combined(&g, &p, 0.0, &[400.0, 0.0, 0.0, 400.0]);
        assert!((independent.error.powi(2) - p.error.powi(2) - 200.0).abs() < 1e-6);
        let opposite = combined(&g, &p, 0.0, &[400.0, -400.0, -400.0, 400.0]);
        assert!((opposite.error - p.error).abs() < 1e-9);
    }

    #[test]
    fn the_advantage_is_taken_from_the_ladder() {
        // Half the points, all of them as White: against a 100 Elo White advantage that is
        // weaker than the rung.
        let g = [RungGames {
            rating: 1000.0,
            as_white: Wdl::new(5, 0, 0),
            as_black: Wdl::new(0, 0, 5),
        }];
        assert!((place(&g, 0.0).rating - 1000.0).abs() < 1e-6);
        let p = place(&g, 100.0);
        assert!(p.rating < 1000.0 + 1e-6, "{}", p.rating);
        // Symmetric: White wins and Black losses balance at the rung's rating exactly.
        assert!((p.rating - 1000.0).abs() < 1e-6);
        let g = [RungGames {
            rating: 1000.0,
            as_white: Wdl::new(5, 5, 0),
            as_black: Wdl::new(0, 5, 5),
        }];
        assert!(place(&g, 100.0).rating < 1000.0);
    }

    #[test]
    fn a_perfect_score_is_finite_and_flagged() {
        let g = [RungGames {
            rating: 1500.0,
            as_white: Wdl::new(4, 0, 0),
            as_black: Wdl::new(4, 0, 0),
        }];
        let p = place(&g, 0.0);
        assert!(p.flagged && p.rating.is_finite() && p.rating > 1500.0);
        assert!(place(&[], 0.0).high.is_infinite());
    }

    #[test]
    fn next_rung_spreads_over_the_nearest() {
        let ratings = [100.0, 400.0, 500.0, 560.0, 900.0];
        let usable = [true, true, true, false, true];
        let mut played = [0u32; 5];
        let mut chosen = Vec::new();
        for _ in 0..5 {
            let r = next_rung(&ratings, &played, &usable, 520.0).unwrap_or(99);
            played[r] += 2;
            chosen.push(r);
        }
        // Nearest usable to 520: 500, 400, 900, then 100 (560 is not usable); then again.
        assert_eq!(chosen, vec![2, 1, 4, 0, 2]);
        assert_eq!(start_estimate(&ratings, &usable), 500.0);
        assert_eq!(next_rung(&ratings, &played, &[false; 5], 0.0), None);
    }

    /// Plays the adaptive placement against a synthetic ladder whose strengths are known:
    /// games drawn from the logistic model, the new player's strength known too.
    #[test]
    fn placement_on_a_synthetic_ladder_finds_the_true_strength() {
        let s = simulate(&SynthConfig {
            players: 12,
            games: 12 * 11 * 30,
            spread: 300.0,
            draw_nu: 0.0,
            advantage: 40.0,
            seed: 11,
            cycle_margin: 0.0,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let ladder = Ladder::from_games("synth", crate::ladder::LadderGame::Chess, &s.games)
            .unwrap_or_else(|e| panic!("{e}"));
        // True strength on the ladder's scale: the strengths shifted by the ladder's mean.
        let mean = s.strengths.iter().sum::<f64>() / 12.0;
        let on_scale = |true_strength: f64| true_strength - mean + 1000.0;
        let names = s.games.names().to_vec();
        let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
        let truths: Vec<f64> = ladder
            .rungs
            .iter()
            .map(|r| s.strengths[names.iter().position(|n| *n == r.player).unwrap_or(0)])
            .collect();
        let mut inside = 0;
        let trials = 20;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for t in 0..trials {
            let strength = (f64::from(t) - 10.0) * 40.0; // −400 … +360 around the mean
            let usable = vec![true; ratings.len()];
            let mut games = vec![RungGames::default(); ratings.len()];
            for (g, r) in games.iter_mut().zip(&ratings) {
                g.rating = *r;
            }
            let mut played = vec![0u32; ratings.len()];
            let mut estimate = start_estimate(&ratings, &usable);
            let mut placed = place(&games, ladder.advantage);
            while placed.games < 400 && (placed.flagged || placed.half_width() > 40.0) {
                let Some(k) = next_rung(&ratings, &played, &usable, estimate) else {
                    break;
                };
                for white in [true, false] {
                    let d = strength - truths[k] + if white { 40.0 } else { -40.0 };
                    let win = rng.random::<f64>() < expected(d);
                    let wdl = if white {
                        &mut games[k].as_white
                    } else {
                        &mut games[k].as_black
                    };
                    wdl.add(if win { 1.0 } else { 0.0 });
                }
                played[k] += 2;
                placed = place(&games, ladder.advantage);
                estimate = placed.rating;
            }
            assert!(placed.games <= 400);
            let truth = on_scale(strength);
            // The ladder's own error (about 15 Elo per rung here) adds to the placement's.
            let sigma = (placed.error.powi(2) + 15f64.powi(2)).sqrt();
            if (placed.rating - truth).abs() <= Z95 * sigma {
                inside += 1;
            }
        }
        assert!(inside >= 18, "only {inside} of {trials} inside");
    }

    #[test]
    fn scoville_names_the_bracketing_dilutions() {
        // Elo World's table: _r63488 482.44, _r61440 521.45, blind_spycheck 546.91.
        let names = [
            "stockfish1m_r63488",
            "stockfish1m_r61440",
            "stockfish1m_r57344",
            "stockfish1m",
            "random_move",
            "swarm",
        ];
        let ratings = [482.44, 521.45, 600.54, 2644.0, 439.21, 534.03];
        assert_eq!(families(&names), vec!["stockfish1m".to_owned()]);
        let s = scoville(&names, &ratings, 546.91);
        assert_eq!(s.len(), 1);
        assert_eq!(
            s[0].describe(),
            "between stockfish1m_r61440 and stockfish1m_r57344: 87.5–93.75% diluted stockfish1m"
        );
        let s = scoville(&names, &ratings, 500.0);
        assert_eq!(
            s[0].describe(),
            "between stockfish1m_r63488 and stockfish1m_r61440: 93.75–96.88% diluted stockfish1m"
        );
        assert!(scoville(&names, &ratings, 100.0)[0]
            .describe()
            .starts_with("below every"));
    }
}
