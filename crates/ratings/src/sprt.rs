//! The generalised sequential probability ratio test (GSPRT) of engine testing, and the Elo
//! statistics of a match of colour-swapped game pairs, as fishtest and fastchess compute them.
//!
//! # The test
//! Wald's SPRT with error rates α and β stops when the log-likelihood ratio crosses
//! `ln(β/(1−α))` (accept H0) or `ln((1−β)/α)` (accept H1). Results come as *pentanomial* counts:
//! a game pair (each side plays each colour once on the same opening) scores 0, ½, 1, 1½ or 2
//! points for the first player, normalised to the outcomes a = 0, ¼, ½, ¾, 1. With p̂ the empirical
//! frequencies over N pairs (a zero count replaced by 10⁻³, as fishtest and fastchess do, so every
//! logarithm exists), the generalised LLR is
//!
//! `LLR = N · Σ p̂ᵢ · ln(p₁ᵢ / p₀ᵢ)`
//!
//! where p₀ and p₁ maximise the likelihood of the data among the distributions on the five
//! outcomes that satisfy H0 and H1 respectively (M. Van den Bergh, *Comparing the approximations
//! for the generalized log likelihood ratio of a multinomial distribution*, and fishtest's
//! `LLR_normalized`). Two ways to state a hypothesis:
//!
//! - **Normalised Elo** (the default of fishtest and fastchess): the hypothesis fixes
//!   `t = (μ − ½)/σ`, the expected pair score's distance from ½ in pair standard deviations;
//!   nElo = t · √2 · 400/ln 10 for pairs (a game's σ is √2 times a pair's for independent games).
//!   The constrained maximum is found by Van den Bergh's fixed-point iteration (*Comments on
//!   normalized Elo*, section 4.1), run to convergence: with φᵢ = aᵢ − ½ − ½·t·σ·(1 + ((aᵢ − μ)/σ)²) of the current
//!   estimate, solve Σ p̂ᵢ φᵢ/(1 + θφᵢ) = 0 for θ, set pᵢ = p̂ᵢ/(1 + θφᵢ), repeat.
//! - **Logistic Elo** (on request): the hypothesis fixes the expected score
//!   s = 1/(1 + 10^(−Elo/400)); the maximum is pᵢ = p̂ᵢ/(1 + θ(aᵢ − s)) with θ solving
//!   Σ p̂ᵢ (aᵢ − s)/(1 + θ(aᵢ − s)) = 0 (Van den Bergh, *Comparing the approximations*,
//!   proposition 1.1).
//!
//! The same formulas apply to the trinomial (win/draw/loss) counts of unpaired games with outcomes
//! 0, ½, 1 and nElo = t · 400/ln 10.
//!
//! # Match statistics
//! [`PairStats`] gives the score, the logistic Elo difference and the normalised Elo, each with
//! the half-width of its 95% interval from the normal approximation of the mean pair score, the
//! likelihood of superiority LOS = Φ((μ − ½)/√(σ²/N)), and the ratios fastchess prints.
//!
//! # Examples
//! ```
//! use eloworld_ratings::sprt::{Pentanomial, Sprt, SprtConfig, SprtDecision};
//! let sprt = Sprt::new(SprtConfig::new().with_elo(0.0, 2.0))?;
//! // fastchess's test "normalized pentanomial 1": LLR 2.25.
//! let pairs = Pentanomial::from_counts([365, 16618, 36229, 16974, 390]);
//! let llr = sprt.llr(&pairs);
//! assert_eq!(format!("{llr:.2}"), "2.25");
//! assert_eq!(sprt.decide(llr), SprtDecision::Continue);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::convert::{elo_difference, Z95};
use crate::RatingError;

/// The count that stands in for an empty outcome class, so that every logarithm exists
/// (fishtest and fastchess use the same 10⁻³).
const EMPTY_CLASS: f64 = 1e-3;

/// Elo per unit of `t` in the normalised-Elo scale of a single game: 400/ln 10 · 2 = 800/ln 10.
fn nelo_per_t() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// How a hypothesis of the SPRT states the Elo difference. Stored and read by its name
/// (`normalized`, `logistic`), the words fishtest and fastchess use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SprtModel {
    /// Normalised Elo (fishtest, fastchess's default): the score's distance from ½ in standard
    /// deviations, independent of the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the expected score 1/(1 + 10^(−Elo/400)).
    Logistic,
}

impl FromStr for SprtModel {
    type Err = RatingError;

    fn from_str(text: &str) -> Result<SprtModel, RatingError> {
        match text {
            "normalized" | "normalised" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            other => Err(RatingError::InvalidParameter {
                name: "model",
                reason: format!("{other:?} is not an SPRT model (normalized or logistic)"),
            }),
        }
    }
}

impl TryFrom<String> for SprtModel {
    type Error = RatingError;

    fn try_from(text: String) -> Result<SprtModel, RatingError> {
        text.parse()
    }
}

impl From<SprtModel> for String {
    fn from(model: SprtModel) -> String {
        model.to_string()
    }
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        })
    }
}

/// The hypotheses and error rates of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (greater than `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// How `elo0` and `elo1` are meant.
    pub model: SprtModel,
}

impl Default for SprtConfig {
    fn default() -> SprtConfig {
        SprtConfig::new()
    }
}

impl SprtConfig {
    /// Returns fishtest's usual test: normalised Elo [0, 5], α = β = 0.05.
    #[must_use]
    pub const fn new() -> SprtConfig {
        SprtConfig {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Normalized,
        }
    }

    /// Returns the configuration with the hypotheses `elo0` and `elo1`.
    #[must_use]
    pub const fn with_elo(mut self, elo0: f64, elo1: f64) -> SprtConfig {
        self.elo0 = elo0;
        self.elo1 = elo1;
        self
    }

    /// Returns the configuration with the given model.
    #[must_use]
    pub const fn with_model(mut self, model: SprtModel) -> SprtConfig {
        self.model = model;
        self
    }
}

/// What the test says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound crossed: play on.
    Continue,
    /// The lower bound was crossed: H0 (no better than `elo0`) accepted.
    AcceptH0,
    /// The upper bound was crossed: H1 (at least `elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "continue",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// Results of colour-swapped game pairs, from the first player's side, keeping the two kinds of
/// 1–1 pair apart (a win and a loss, or two draws) as fastchess reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs lost twice (0 points).
    pub ll: u64,
    /// Pairs with a loss and a draw (½).
    pub ld: u64,
    /// Pairs with a win and a loss (1).
    pub wl: u64,
    /// Pairs with two draws (1).
    pub dd: u64,
    /// Pairs with a win and a draw (1½).
    pub wd: u64,
    /// Pairs won twice (2).
    pub ww: u64,
}

impl Pentanomial {
    /// Returns the counts `[0, ½, 1, 1½, 2 points]` as fastchess prints them (`Ptnml(0-2)`); the
    /// 1-point pairs are all counted as two draws.
    #[must_use]
    pub const fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll: counts[0],
            ld: counts[1],
            wl: 0,
            dd: counts[2],
            wd: counts[3],
            ww: counts[4],
        }
    }

    /// Adds a pair given the first player's points in each of its games (0, ½ or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let decisive = |p: f64| p != 0.5;
        match ((first + second) * 2.0).round() as i64 {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 if decisive(first) && decisive(second) => self.wl += 1,
            2 => self.dd += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Returns the counts by pair score `[0, ½, 1, 1½, 2]`.
    #[must_use]
    pub const fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    /// Returns the number of pairs.
    #[must_use]
    pub const fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }
}

impl fmt::Display for Pentanomial {
    /// Writes `[ll, ld, wl+dd, wd, ww]`, the `Ptnml(0-2)` list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts();
        write!(f, "[{a}, {b}, {c}, {d}, {e}]")
    }
}

/// A configured SPRT: hypotheses, model and the two stopping bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
    lower: f64,
    upper: f64,
}

impl Sprt {
    /// Checks the configuration and computes Wald's bounds ln(β/(1−α)) and ln((1−β)/α).
    ///
    /// # Errors
    /// [`RatingError::InvalidParameter`] when `elo0 ≥ elo1`, α or β is outside (0, 1), or
    /// α + β ≥ 1.
    pub fn new(config: SprtConfig) -> Result<Sprt, RatingError> {
        let invalid = |name, reason: String| Err(RatingError::InvalidParameter { name, reason });
        // Written so that a NaN fails too.
        if config.elo0.partial_cmp(&config.elo1) != Some(std::cmp::Ordering::Less) {
            return invalid(
                "elo1",
                format!(
                    "elo0 ({}) must be below elo1 ({})",
                    config.elo0, config.elo1
                ),
            );
        }
        for (name, value) in [("alpha", config.alpha), ("beta", config.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return invalid(name, format!("{value} is not between 0 and 1"));
            }
        }
        if config.alpha + config.beta >= 1.0 {
            return invalid("beta", "alpha + beta must be below 1".to_owned());
        }
        Ok(Sprt {
            config,
            lower: (config.beta / (1.0 - config.alpha)).ln(),
            upper: ((1.0 - config.beta) / config.alpha).ln(),
        })
    }

    /// Returns the configuration.
    #[must_use]
    pub const fn config(&self) -> SprtConfig {
        self.config
    }

    /// Returns the lower bound ln(β/(1−α)): at or below it H0 is accepted.
    #[must_use]
    pub const fn lower_bound(&self) -> f64 {
        self.lower
    }

    /// Returns the upper bound ln((1−β)/α): at or above it H1 is accepted.
    #[must_use]
    pub const fn upper_bound(&self) -> f64 {
        self.upper
    }

    /// Returns the generalised log-likelihood ratio of H1 against H0 for game pairs.
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        const OUTCOMES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
        self.llr_of(&OUTCOMES, &pairs.counts(), std::f64::consts::SQRT_2)
    }

    /// Returns the generalised log-likelihood ratio for unpaired games: `wins`, `draws`,
    /// `losses` of the first player.
    #[must_use]
    pub fn llr_trinomial(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        if wins + draws + losses == 0 {
            return 0.0;
        }
        const OUTCOMES: [f64; 3] = [0.0, 0.5, 1.0];
        self.llr_of(&OUTCOMES, &[losses, draws, wins], 1.0)
    }

    /// Returns the decision for a log-likelihood ratio.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper {
            SprtDecision::AcceptH1
        } else if llr <= self.lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// Returns how far the LLR has gone towards the bound on its side, in percent (fastchess
    /// prints it after the LLR).
    #[must_use]
    pub fn progress_percent(&self, llr: f64) -> f64 {
        if llr >= 0.0 {
            100.0 * llr / self.upper
        } else {
            100.0 * llr / self.lower
        }
    }

    /// The LLR for counts over `outcomes`; `t_scale` converts a game's normalised Elo into the
    /// unit's (√2 for pairs).
    fn llr_of<const N: usize>(&self, outcomes: &[f64; N], counts: &[u64; N], t_scale: f64) -> f64 {
        let regularised: [f64; N] = std::array::from_fn(|i| {
            if counts[i] == 0 {
                EMPTY_CLASS
            } else {
                counts[i] as f64
            }
        });
        let total: f64 = regularised.iter().sum();
        let observed: [f64; N] = std::array::from_fn(|i| regularised[i] / total);
        let (p0, p1) = match self.config.model {
            SprtModel::Normalized => {
                let t = |elo: f64| t_scale * elo / nelo_per_t();
                (
                    normalized_mle(outcomes, &observed, t(self.config.elo0)),
                    normalized_mle(outcomes, &observed, t(self.config.elo1)),
                )
            }
            SprtModel::Logistic => {
                let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
                (
                    mean_mle(outcomes, &observed, score(self.config.elo0)),
                    mean_mle(outcomes, &observed, score(self.config.elo1)),
                )
            }
        };
        total
            * (0..N)
                .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }
}

/// Returns the distribution closest in likelihood to `observed` whose mean is `mean`
/// (Van den Bergh, *Comparing the approximations*, proposition 1.1).
fn mean_mle<const N: usize>(outcomes: &[f64; N], observed: &[f64; N], mean: f64) -> [f64; N] {
    let deviation: [f64; N] = std::array::from_fn(|i| outcomes[i] - mean);
    tilt(observed, &deviation)
}

/// Returns p̂ᵢ/(1 + θφᵢ) with θ the root of Σ p̂ᵢ φᵢ/(1 + θφᵢ) = 0 on the interval where every
/// denominator is positive. The sum falls monotonically in θ, so bisection finds the root.
fn tilt<const N: usize>(observed: &[f64; N], phi: &[f64; N]) -> [f64; N] {
    let lowest = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let equation = |theta: f64| -> f64 {
        (0..N)
            .map(|i| observed[i] * phi[i] / (1.0 + theta * phi[i]))
            .sum()
    };
    // The admissible θ lie strictly between −1/max φ and −1/min φ (max φ > 0 > min φ whenever
    // the constraint is reachable); the equation runs from +∞ to −∞ across them.
    let (mut low, mut high) = (-1.0 / highest, -1.0 / lowest);
    if !(low.is_finite() && high.is_finite() && low < high) {
        return *observed;
    }
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if equation(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = 0.5 * (low + high);
    std::array::from_fn(|i| observed[i] / (1.0 + theta * phi[i]))
}

/// Returns the distribution closest in likelihood to `observed` with (μ − ½)/σ = `t`
/// (Van den Bergh, *Comments on normalized Elo*, section 4.1), starting from the uniform one.
fn normalized_mle<const N: usize>(outcomes: &[f64; N], observed: &[f64; N], t: f64) -> [f64; N] {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..100 {
        let (mu, variance) = mean_and_variance(outcomes, &p);
        let sigma = variance.sqrt();
        let phi: [f64; N] = std::array::from_fn(|i| {
            let z = (outcomes[i] - mu) / sigma;
            outcomes[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z)
        });
        let next = tilt(observed, &phi);
        let change = (0..N).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

/// Returns the mean and variance of `outcomes` under the distribution `p`.
fn mean_and_variance(outcomes: &[f64], p: &[f64]) -> (f64, f64) {
    let mean: f64 = outcomes.iter().zip(p).map(|(a, q)| a * q).sum();
    let variance = outcomes
        .iter()
        .zip(p)
        .map(|(a, q)| q * (a - mean).powi(2))
        .sum();
    (mean, variance)
}

/// The statistics of a match of game pairs as fastchess reports them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairStats {
    /// Pairs played.
    pub pairs: u64,
    /// The first player's mean score per game, 0..1.
    pub score: f64,
    /// The logistic Elo difference of that score.
    pub elo: f64,
    /// Half the width of the 95% interval of the logistic Elo (fastchess's `+/-`).
    pub elo_error: f64,
    /// The normalised Elo: (μ − ½)/√(2σ²) · 800/ln 10 with σ² the pair-score variance.
    pub nelo: f64,
    /// Half the width of the 95% interval of the normalised Elo.
    pub nelo_error: f64,
    /// Likelihood of superiority Φ((μ − ½)/√(σ²/N)), 0..1.
    pub los: f64,
    /// Pairs scoring 1–1, in percent of all pairs.
    pub draw_ratio_percent: f64,
    /// Pairs won (1½ or 2) over pairs lost (0 or ½).
    pub pairs_ratio: f64,
    /// Pairs of a win and a loss over pairs of two draws.
    pub wl_dd_ratio: f64,
}

impl PairStats {
    /// Computes the statistics of `pairs`.
    ///
    /// # Examples
    /// ```
    /// use eloworld_ratings::sprt::{PairStats, Pentanomial};
    /// // fastchess's test "EloPentanomial 1": nElo 57.94 ± 28.28, Elo 55.58 ± 27.65.
    /// let pairs = Pentanomial { ll: 34, ld: 54, wl: 31, dd: 32, wd: 64, ww: 75 };
    /// let s = PairStats::new(&pairs);
    /// assert_eq!(format!("{:.2} {:.2} {:.2} {:.2}", s.nelo, s.nelo_error, s.elo, s.elo_error),
    ///            "57.94 28.28 55.58 27.65");
    /// ```
    #[must_use]
    pub fn new(pairs: &Pentanomial) -> PairStats {
        const OUTCOMES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
        let n = pairs.pairs();
        let nf = n as f64;
        let counts = pairs.counts();
        let frequency: [f64; 5] =
            std::array::from_fn(|i| if n == 0 { 0.0 } else { counts[i] as f64 / nf });
        let (score, variance) = if n == 0 {
            (0.5, 0.0)
        } else {
            mean_and_variance(&OUTCOMES, &frequency)
        };
        let standard_error = (variance / nf).sqrt();
        let low = score - Z95 * standard_error;
        let high = score + Z95 * standard_error;
        let nelo_of = |s: f64| (s - 0.5) / (2.0 * variance).sqrt() * nelo_per_t();
        let los = crate::convert::los(score, standard_error);
        let ratio = |a: u64, b: u64| a as f64 / b as f64;
        PairStats {
            pairs: n,
            score,
            elo: elo_difference(score),
            elo_error: (elo_difference(high) - elo_difference(low)) / 2.0,
            nelo: nelo_of(score),
            nelo_error: (nelo_of(high) - nelo_of(low)) / 2.0,
            los,
            draw_ratio_percent: 100.0 * ratio(pairs.wl + pairs.dd, n),
            pairs_ratio: ratio(pairs.ww + pairs.wd, pairs.ld + pairs.ll),
            wl_dd_ratio: ratio(pairs.wl, pairs.dd),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(SprtConfig::new().with_elo(elo0, elo1).with_model(model)).expect("valid")
    }

    /// Rounds to the two decimals fastchess prints.
    fn two(x: f64) -> String {
        format!("{x:.2}")
    }

    /// fastchess's published SPRT expectations (app/tests/sprt_test.cpp), counts in its order
    /// LL, LD, WL, DD, WD, WW and wins, losses, draws.
    #[test]
    fn llr_matches_fastchess_expectations() {
        let penta = |ll, ld, wl, dd, wd, ww| Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        };
        let normalized = SprtModel::Normalized;
        let logistic = SprtModel::Logistic;
        let cases = [
            (
                penta(365, 16618, 36029, 200, 16974, 390),
                0.0,
                2.0,
                normalized,
                "2.25",
            ),
            (
                penta(127, 4883, 10311, 401, 5150, 104),
                -1.75,
                0.25,
                normalized,
                "3.01",
            ),
            (penta(0, 0, 0, 0, 0, 5550), 0.0, 5.0, normalized, "111.82"),
            (
                penta(223, 9863, 20279, 1000, 10037, 246),
                0.5,
                2.5,
                logistic,
                "-3.07",
            ),
            (
                penta(871, 26175, 55003, 980, 26678, 821),
                0.0,
                2.0,
                logistic,
                "-4.98",
            ),
        ];
        // fastchess checks to 1% and stops its iteration early; ours runs to convergence, so
        // the extreme case (5550 pairs won twice) differs in the second decimal.
        let close = |llr: f64, expected: &str| {
            let e: f64 = expected.parse().expect("number");
            (llr - e).abs() <= 0.005 + 2e-4 * e.abs()
        };
        for (pairs, elo0, elo1, model, expected) in cases {
            let llr = sprt(elo0, elo1, model).llr(&pairs);
            assert!(close(llr, expected), "{pairs}: {llr} against {expected}");
        }
        let trinomial = [
            ((36433, 36027, 68692), 0.0, 2.0, normalized, "0.92"),
            ((10871, 10650, 20431), -1.75, 0.25, normalized, "2.30"),
            ((4250, 0, 0), 0.0, 10.0, normalized, "120.56"),
            ((21404, 21184, 40708), 0.5, 2.5, logistic, "-1.57"),
            ((57433, 57030, 106593), 0.0, 2.0, logistic, "-2.59"),
        ];
        for ((wins, losses, draws), elo0, elo1, model, expected) in trinomial {
            let llr = sprt(elo0, elo1, model).llr_trinomial(wins, draws, losses);
            assert!(
                close(llr, expected),
                "{wins} {losses} {draws}: {llr} against {expected}"
            );
        }
    }

    /// A hand computation: for a symmetric result the two hypotheses at ±δ are equally likely,
    /// so the LLR of [0, δ'] is positive when the observed score is above ½ and zero at [−δ, δ].
    #[test]
    fn symmetric_results_give_zero_llr_for_symmetric_hypotheses() {
        let pairs = Pentanomial::from_counts([10, 40, 100, 40, 10]);
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            assert!(sprt(-5.0, 5.0, model).llr(&pairs).abs() < 1e-9);
        }
    }

    /// For the logistic model with outcomes {0, 1} the constrained maximum is the Bernoulli
    /// distribution with the hypothesised mean, so the LLR has a closed form.
    #[test]
    fn logistic_llr_of_decisive_pairs_has_closed_form() {
        let pairs = Pentanomial::from_counts([30, 0, 0, 0, 70]);
        let test = sprt(0.0, 100.0, SprtModel::Logistic);
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.25));
        let s0: f64 = 0.5;
        // Empty classes weigh 10⁻³ each, which moves the result in the fourth decimal only.
        let by_hand = 70.0 * (s1 / s0).ln() + 30.0 * ((1.0 - s1) / (1.0 - s0)).ln();
        assert!(
            (test.llr(&pairs) - by_hand).abs() < 1e-2,
            "{}",
            test.llr(&pairs)
        );
    }

    #[test]
    fn bounds_and_decisions() {
        let test = sprt(0.0, 5.0, SprtModel::Normalized);
        // ln(0.05/0.95) = −2.944, ln(0.95/0.05) = 2.944.
        assert_eq!(two(test.lower_bound()), "-2.94");
        assert_eq!(two(test.upper_bound()), "2.94");
        assert_eq!(test.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(test.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(test.decide(0.1), SprtDecision::Continue);
        assert!((test.progress_percent(test.upper_bound() / 2.0) - 50.0).abs() < 1e-9);
        assert_eq!(test.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn invalid_configurations_are_named() {
        let bad = [
            SprtConfig::new().with_elo(5.0, 0.0),
            SprtConfig {
                alpha: 0.0,
                ..SprtConfig::new()
            },
            SprtConfig {
                alpha: 0.6,
                beta: 0.5,
                ..SprtConfig::new()
            },
        ];
        for config in bad {
            assert!(matches!(
                Sprt::new(config),
                Err(RatingError::InvalidParameter { .. })
            ));
        }
        assert!("bayesian".parse::<SprtModel>().is_err());
        assert_eq!("logistic".parse::<SprtModel>(), Ok(SprtModel::Logistic));
    }

    /// fastchess's published Elo expectations (app/tests/elo_test.cpp).
    #[test]
    fn pair_stats_match_fastchess_expectations() {
        let cases = [
            (
                [332, 433, 457, 41, 333, 334],
                "-9.17 10.96 -8.64 10.33 5.05",
            ),
            (
                [7895, 8757, 5485, 200, 568, 9999],
                "-19.01 2.65 -21.04 2.95 0.00",
            ),
        ];
        for ([ll, ld, wl, dd, wd, ww], expected) in cases {
            let s = PairStats::new(&Pentanomial {
                ll,
                ld,
                wl,
                dd,
                wd,
                ww,
            });
            let shown = format!(
                "{:.2} {:.2} {:.2} {:.2} {:.2}",
                s.nelo,
                s.nelo_error,
                s.elo,
                s.elo_error,
                100.0 * s.los
            );
            assert_eq!(shown, expected);
        }
    }

    #[test]
    fn pairs_are_classified_by_their_two_games() {
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.0, 0.0);
        pairs.add_pair(0.5, 0.5);
        pairs.add_pair(1.0, 0.5);
        pairs.add_pair(0.0, 0.0);
        pairs.add_pair(0.0, 0.5);
        pairs.add_pair(1.0, 1.0);
        assert_eq!(
            pairs,
            Pentanomial {
                ll: 1,
                ld: 1,
                wl: 1,
                dd: 1,
                wd: 1,
                ww: 1
            }
        );
        assert_eq!(pairs.to_string(), "[1, 1, 2, 1, 1]");
    }
}
