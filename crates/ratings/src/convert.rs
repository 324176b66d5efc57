//! Conversions between a winning rate and an Elo difference, and the statistics of a match.
//!
//! David–Koppel–Netanyahu, appendix B: for a rating difference RD the expected winning rate is
//! W = 1/(10^(−RD/400) + 1), and from a winning rate RD = −400·log10(1/W − 1).
//! A match of `W` wins, `D` draws and `L` losses scores (W + D/2)/N. Its 95% interval comes
//! from the normal approximation to the mean score per game (trinomial variance), mapped
//! through RD; the likelihood of superiority is LOS = Φ((W − L)/√(W + L)) (draws carry no
//! information on who is better). For colour-swapped game pairs the unit is the pair, whose
//! score is 0, ½, 1, 1½ or 2 (pentanomial counts), which removes the variance the colours add.

/// Returns the expected score of a player rated `difference` Elo above its opponent.
///
/// # Examples
/// ```
/// assert!((eloworld_ratings::convert::expected_score(0.0) - 0.5).abs() < 1e-12);
/// assert!((eloworld_ratings::convert::expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn expected_score(difference: f64) -> f64 {
    1.0 / (10f64.powf(-difference / 400.0) + 1.0)
}

/// Returns the Elo difference whose expected score is `score` (±∞ at 1 and 0).
///
/// # Examples
/// ```
/// let rd = eloworld_ratings::convert::elo_difference(0.605);
/// assert_eq!(format!("{rd:+.1}"), "+74.1");
/// ```
#[must_use]
pub fn elo_difference(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The standard normal distribution function Φ.
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Returns the likelihood of superiority of a mean score `score` (0–1 per game or pair)
/// measured with standard error `standard_error`: Φ((score − ½)/SE), the normal
/// approximation fishtest and fastchess print; without a spread (every unit scored alike,
/// or none), 1, 0 or ½ by which side of ½ the score is on. The one LOS of match statistics:
/// [`MatchStats`] and [`crate::sprt::PairStats`] both call it.
#[must_use]
pub fn los(score: f64, standard_error: f64) -> f64 {
    if standard_error > 0.0 && standard_error.is_finite() {
        normal_cdf((score - 0.5) / standard_error)
    } else if score > 0.5 {
        1.0
    } else if score < 0.5 {
        0.0
    } else {
        0.5
    }
}

/// Complementary error function (W. J. Cody's rational approximation via erfc of
/// Numerical Recipes `erfcc`, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// How the 95% interval of a [`MatchStats`] was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntervalKind {
    /// Two-sided, from the normal approximation (score ± 1.96·σ/√n).
    TwoSided,
    /// Every unit won: the Elo difference is unbounded above; `elo_low` is the exact
    /// one-sided 95% lower bound (Clopper–Pearson with no failure: p ≥ 0.05^(1/n)).
    LowerBoundOnly,
    /// Every unit lost: unbounded below; `elo_high` is the one-sided 95% upper bound
    /// (p ≤ 1 − 0.05^(1/n)).
    UpperBoundOnly,
    /// Every unit had the same result between 0 and 1 (all draws): no spread observed. The
    /// interval lets up to δ = 1 − 0.025^(1/n) of the units (the exact 95% bound on a rate
    /// never seen, the "rule of three") have gone either way.
    NoSpread,
}

/// What a match result says: score, Elo difference with a 95% interval, LOS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchStats {
    /// Games (or game pairs for pentanomial counts).
    pub games: u64,
    /// Points of the first player.
    pub points: f64,
    /// Points of the opponent.
    pub opponent_points: f64,
    /// The first player's score, 0..1.
    pub score: f64,
    /// The Elo difference for that score (David–Koppel–Netanyahu's RD).
    pub elo: f64,
    /// Lower end of the 95% interval of the Elo difference.
    pub elo_low: f64,
    /// Upper end of the 95% interval of the Elo difference.
    pub elo_high: f64,
    /// Likelihood of superiority: the probability that the first player is the stronger.
    pub los: f64,
    /// How the interval was found (one-sided at a perfect or null score).
    pub interval: IntervalKind,
}

impl MatchStats {
    /// Computes the statistics of `wins` wins, `draws` draws and `losses` losses.
    ///
    /// # Examples
    /// ```
    /// let m = eloworld_ratings::convert::MatchStats::from_wdl(150, 63, 87);
    /// assert_eq!(m.points, 181.5);
    /// assert_eq!(format!("{:.1}% {:+.1}", 100.0 * m.score, m.elo), "60.5% +74.1");
    /// ```
    #[must_use]
    pub fn from_wdl(wins: u64, draws: u64, losses: u64) -> MatchStats {
        let n = wins + draws + losses;
        let counts = [(losses, 0.0), (draws, 0.5), (wins, 1.0)];
        let mut m = MatchStats::from_distribution(n, &counts);
        let decisive = (wins + losses) as f64;
        m.los = if decisive > 0.0 {
            normal_cdf((wins as f64 - losses as f64) / decisive.sqrt())
        } else {
            0.5
        };
        m
    }

    /// Computes the statistics of colour-swapped game pairs from pentanomial counts:
    /// `pairs[k]` is the number of pairs in which the first player scored k/2 points
    /// (k = 0..=4).
    ///
    /// # Examples
    /// ```
    /// let m = eloworld_ratings::convert::MatchStats::from_pentanomial([0, 10, 80, 10, 0]);
    /// assert_eq!(m.score, 0.5);
    /// // Pair variance 20·(¼)²/100 = 1/80: the interval is ±1.96·√(1/8000)·695 Elo ≈ ±15.2.
    /// assert!((m.elo_high - m.elo_low - 30.5).abs() < 0.5);
    /// ```
    #[must_use]
    pub fn from_pentanomial(pairs: [u64; 5]) -> MatchStats {
        let n = pairs.iter().sum();
        let counts: Vec<(u64, f64)> = pairs
            .iter()
            .enumerate()
            .map(|(k, &c)| (c, k as f64 / 4.0))
            .collect();
        let mut m = MatchStats::from_distribution(n, &counts);
        m.points *= 2.0;
        m.opponent_points *= 2.0;
        m
    }

    /// Computes the statistics from the number of units scoring each fraction (0..1).
    fn from_distribution(n: u64, counts: &[(u64, f64)]) -> MatchStats {
        let nf = n as f64;
        let total: f64 = counts.iter().map(|&(c, s)| c as f64 * s).sum();
        let score = if n > 0 { total / nf } else { 0.5 };
        let variance = if n > 0 {
            counts
                .iter()
                .map(|&(c, s)| c as f64 * (s - score).powi(2))
                .sum::<f64>()
                / nf
        } else {
            0.0
        };
        let se = if n > 0 {
            (variance / nf).sqrt()
        } else {
            f64::INFINITY
        };
        let (low, high, interval) = if n == 0 || variance > 0.0 {
            (
                (score - Z95 * se).clamp(0.0, 1.0),
                (score + Z95 * se).clamp(0.0, 1.0),
                IntervalKind::TwoSided,
            )
        } else if score >= 1.0 {
            (0.05f64.powf(1.0 / nf), 1.0, IntervalKind::LowerBoundOnly)
        } else if score <= 0.0 {
            (
                0.0,
                1.0 - 0.05f64.powf(1.0 / nf),
                IntervalKind::UpperBoundOnly,
            )
        } else {
            let spread = 1.0 - 0.025f64.powf(1.0 / nf);
            (
                score - spread * score,
                score + spread * (1.0 - score),
                IntervalKind::NoSpread,
            )
        };
        let los = los(score, se);
        MatchStats {
            games: n,
            points: total,
            opponent_points: nf - total,
            score,
            // + 0.0 turns −0 (all draws) into 0.
            elo: elo_difference(score) + 0.0,
            elo_low: elo_difference(low) + 0.0,
            elo_high: elo_difference(high) + 0.0,
            los,
            interval,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// David–Koppel–Netanyahu, tables IV–VI: match result, W% and RD as printed.
    #[test]
    fn seed_003_match_tables() {
        let table = [
            (180.0, 120.0, "60.0%", "+70.4"),
            (181.5, 118.5, "60.5%", "+74.1"),
            (133.5, 166.5, "44.5%", "-38.4"),
            (162.0, 138.0, "54.0%", "+27.9"),
            (180.5, 119.5, "60.2%", "+71.6"),
            (61.5, 38.5, "61.5%", "+81.4"),
            (41.0, 59.0, "41.0%", "-63.2"),
            (51.5, 48.5, "51.5%", "+10.4"),
            (58.5, 41.5, "58.5%", "+59.6"),
        ];
        for (p, q, w, rd) in table {
            let score = p / (p + q);
            assert_eq!(format!("{:.1}%", 100.0 * score), w, "{p}-{q}");
            assert_eq!(format!("{:+.1}", elo_difference(score)), rd, "{p}-{q}");
        }
    }

    #[test]
    fn expected_score_and_difference_are_inverse() {
        for d in [-800.0, -74.1, 0.0, 12.5, 400.0] {
            assert!((elo_difference(expected_score(d)) - d).abs() < 1e-9);
        }
        // Hand computation: +200 Elo expects 1/(10^-0.5 + 1) = 0.7597.
        assert!((expected_score(200.0) - 0.759_746_926_647_958).abs() < 1e-12);
    }

    #[test]
    fn match_interval_and_los_by_hand() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, se = 0.04, interval 0.7 ± 0.0784.
        let m = MatchStats::from_wdl(60, 20, 20);
        assert!((m.score - 0.7).abs() < 1e-12);
        assert!((m.elo_low - elo_difference(0.7 - Z95 * 0.04)).abs() < 1e-9);
        assert!((m.elo_high - elo_difference(0.7 + Z95 * 0.04)).abs() < 1e-9);
        // LOS = Φ(40/√80) = Φ(4.472) ≈ 0.999996.
        assert!((m.los - 0.999_996_1).abs() < 1e-6);
        assert!((normal_cdf(1.0) - 0.841_344_746).abs() < 1e-7);
        assert!((normal_cdf(-1.959_964) - 0.025).abs() < 1e-7);
    }

    #[test]
    fn perfect_null_and_drawn_matches_have_one_sided_or_exact_bounds() {
        // 10 of 10 won: p ≥ 0.05^(1/10) = 0.741134, 400·log10(p/(1 − p)) = +182.73.
        let m = MatchStats::from_wdl(10, 0, 0);
        assert_eq!(m.interval, IntervalKind::LowerBoundOnly);
        assert!((m.elo_low - 182.729_096).abs() < 1e-5, "{}", m.elo_low);
        assert_eq!(m.elo_high, f64::INFINITY);
        let m = MatchStats::from_wdl(0, 0, 10);
        assert_eq!(m.interval, IntervalKind::UpperBoundOnly);
        assert!((m.elo_high + 182.729_096).abs() < 1e-5, "{}", m.elo_high);
        assert_eq!(m.elo_low, f64::NEG_INFINITY);
        // 10 draws: δ = 1 − 0.025^(1/10) = 0.308497; score 0.5 ± δ/2 → ±110.79 Elo.
        let m = MatchStats::from_wdl(0, 10, 0);
        assert_eq!(m.interval, IntervalKind::NoSpread);
        assert!(m.elo.to_bits() == 0, "{}", m.elo);
        assert!((m.elo_high - 110.791_506).abs() < 1e-5, "{}", m.elo_high);
        assert!((m.elo_low + 110.791_506).abs() < 1e-5, "{}", m.elo_low);
    }

    #[test]
    fn pentanomial_pairs_by_hand() {
        // 10 pairs 2-0, 10 pairs 1-1: score 0.75, pair variance (10·1/16 + 10·1/16)/20 = 1/16.
        let m = MatchStats::from_pentanomial([0, 0, 10, 0, 10]);
        assert_eq!(m.points, 30.0);
        assert!((m.score - 0.75).abs() < 1e-12);
        let se = (1.0f64 / 16.0 / 20.0).sqrt();
        assert!((m.elo_low - elo_difference(0.75 - Z95 * se)).abs() < 1e-9);
    }
}
