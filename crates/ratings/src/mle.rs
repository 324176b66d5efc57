//! Maximum-likelihood ratings on the Elo scale (Bradley–Terry / logistic), with error bars.
//!
//! **Model** (the ground of BayesElo and Ordo). For White i against Black j with d = R_i − R_j + A
//! (A, the first-move advantage, applies to games whose colours are known):
//! - *half points* (default): a game scores S ∈ {0, ½, 1} with expectation
//!   p = 1/(1 + 10^(−d/400)) and the log-likelihood is Σ S·ln p + (1 − S)·ln(1 − p) (Bradley and
//!   Terry 1952; Elo's logistic curve; a draw counts as half a win and half a loss, as in Ordo);
//! - *Davidson* (1970): with x = 10^(d/800) and a draw parameter ν,
//!   P(win) = x/(x + 1/x + ν), P(draw) = ν/(x + 1/x + ν), P(loss) = (1/x)/(x + 1/x + ν); at ν = 0
//!   it is the logistic curve above.
//!
//! The likelihood is concave in the ratings; Newton's method with step halving maximises it
//! over counts per ordered pair (never over single games), with one rating held fixed (the
//! anchor) and the rest free, together with A and ln ν when they are fitted.
//!
//! **Error bars**: the covariance is the inverse of the negated Hessian at the maximum
//! (observed information); ratings shown relative to the average have covariance P·C·P with
//! P = I − 11ᵀ/m. 95% intervals are ±1.96σ, or on request the 2.5th/97.5th percentiles of
//! ratings refitted to bootstrap samples (the games of each cell resampled with replacement),
//! computed in parallel. The likelihood of superiority of i over j is
//! Φ((R_i − R_j)/√(C_ii + C_jj − 2C_ij)).
//!
//! **Edge cases**: players in groups with no games between them cannot be compared; each group
//! is rated on its own (and reported as such). Inside a group the maximum exists only if every
//! player can be reached from every other through "scored against" links (Ford 1957); when not
//! (a perfect player, a player who never scored), every pair that met gets `prior_games`
//! virtual games split evenly (BayesElo's prior of virtual draws), which keeps every rating
//! finite, and the players in the unbeaten or never-scoring subgroups are flagged.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{mle::{Mle, MleConfig}, GameList, Score};
//! let mut games = GameList::new();
//! for s in [Score::Win, Score::Win, Score::Draw, Score::Loss] {
//!     games.add("a", "b", s, false, None);
//! }
//! let r = Mle::new(MleConfig::new()).rate(&games.counts())?;
//! // a scored 62.5%: the ratings are 400·log10(0.625/0.375) apart, centred on 1000.
//! let gap = 400.0 * (0.625f64 / 0.375).log10();
//! assert!((r.ratings[0] - r.ratings[1] - gap).abs() < 1e-6);
//! assert!((r.ratings[0] + r.ratings[1] - 2000.0).abs() < 1e-6);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{convert::normal_cdf, games::PairCounts, linalg, RatingError};
use rand::SeedableRng;
use rand_distr::{Binomial, Distribution};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use std::f64::consts::LN_10;

/// How a draw enters the likelihood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DrawModel {
    /// A draw is half a win and half a loss.
    #[default]
    HalfPoint,
    /// Davidson's model with a fitted draw parameter ν.
    Davidson,
}

/// The first-move advantage A.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum Advantage {
    /// Fitted when some games have known colours (0 otherwise).
    #[default]
    Fit,
    /// Held at this many Elo.
    Fixed(f64),
}

/// Settings of the maximum-likelihood fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MleConfig {
    /// How draws count.
    pub draw_model: DrawModel,
    /// The first-move advantage.
    pub advantage: Advantage,
    /// The average rating of a group without an anchor.
    pub average: f64,
    /// A player held at a rating (its error is then 0 and the others' are relative to it).
    pub anchor: Option<(usize, f64)>,
    /// Virtual games (half won, half lost) per pair that met, used only where the maximum
    /// does not exist.
    pub prior_games: f64,
    /// Bootstrap samples for percentile intervals (0: intervals from the covariance).
    pub bootstrap: u32,
    /// Seed of the bootstrap.
    pub seed: u64,
}

impl MleConfig {
    /// Returns the defaults: half points, fitted advantage, average 1000 (Elo World's start),
    /// no anchor, two virtual games of prior where needed, no bootstrap.
    #[must_use]
    pub const fn new() -> MleConfig {
        MleConfig {
            draw_model: DrawModel::HalfPoint,
            advantage: Advantage::Fit,
            average: 1000.0,
            anchor: None,
            prior_games: 2.0,
            bootstrap: 0,
            seed: 1,
        }
    }
}

impl Default for MleConfig {
    fn default() -> MleConfig {
        MleConfig::new()
    }
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct MleRatings {
    /// Rating per player (NaN for players without games).
    pub ratings: Vec<f64>,
    /// Standard error per player (from the covariance).
    pub errors: Vec<f64>,
    /// Lower end of the 95% interval (bootstrap percentile when bootstrapped).
    pub low: Vec<f64>,
    /// Upper end of the 95% interval.
    pub high: Vec<f64>,
    /// The group of each player: 0 is the largest group; ratings of different groups are not
    /// comparable. `usize::MAX` for players without games.
    pub group: Vec<usize>,
    /// Players whose rating rests on the prior (unbeaten or never-scoring subgroups).
    pub flagged: Vec<bool>,
    /// The fitted (or fixed) first-move advantage in Elo and its standard error (0 if fixed).
    pub advantage: (f64, f64),
    /// Davidson's ν, when that model is used and the games have draws.
    pub draw_nu: Option<f64>,
    /// Whether the intervals come from a bootstrap.
    pub bootstrapped: bool,
    groups: Vec<GroupFit>,
}

#[derive(Clone, Debug, PartialEq)]
struct GroupFit {
    members: Vec<usize>,
    /// Covariance of the members' ratings as shown (relative to the average or the anchor).
    covariance: Vec<f64>,
}

impl MleRatings {
    /// Returns the likelihood that `i` is stronger than `j` (NaN across groups).
    #[must_use]
    pub fn los(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return 0.5;
        }
        let Some(fit) = self
            .groups
            .iter()
            .find(|g| g.members.contains(&i) && g.members.contains(&j))
        else {
            return f64::NAN;
        };
        let m = fit.members.len();
        let a = fit.members.iter().position(|&x| x == i).unwrap_or(0);
        let b = fit.members.iter().position(|&x| x == j).unwrap_or(0);
        let c = &fit.covariance;
        let variance = c[a * m + a] + c[b * m + b] - 2.0 * c[a * m + b];
        let diff = self.ratings[i] - self.ratings[j];
        if variance <= 0.0 {
            return if diff > 0.0 {
                1.0
            } else if diff < 0.0 {
                0.0
            } else {
                0.5
            };
        }
        normal_cdf(diff / variance.sqrt())
    }

    /// Returns the number of groups rated separately.
    #[must_use]
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }
}

/// The maximum-likelihood rating.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mle {
    config: MleConfig,
}

/// A cell of the likelihood: first player, second player (local indices), whether the first
/// had the first move, and [losses, draws, wins] of the first (fractional for virtual games).
#[derive(Clone, Copy, Debug)]
struct Cell {
    first: usize,
    second: usize,
    coloured: bool,
    wdl: [f64; 3],
}

/// The parameters of one group's fit and how they are laid out.
struct Layout {
    m: usize,
    reference: usize,
    fit_advantage: bool,
    fixed_advantage: f64,
    davidson: bool,
}

impl Layout {
    fn len(&self) -> usize {
        self.m - 1 + usize::from(self.fit_advantage) + usize::from(self.davidson)
    }
    fn player(&self, k: usize) -> Option<usize> {
        match k.cmp(&self.reference) {
            std::cmp::Ordering::Less => Some(k),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(k - 1),
        }
    }
    fn advantage(&self) -> Option<usize> {
        self.fit_advantage.then_some(self.m - 1)
    }
    fn nu(&self) -> Option<usize> {
        self.davidson
            .then_some(self.m - 1 + usize::from(self.fit_advantage))
    }
    /// Returns the ratings (reference at 0) from the parameters.
    fn ratings(&self, theta: &[f64]) -> Vec<f64> {
        (0..self.m)
            .map(|k| self.player(k).map_or(0.0, |p| theta[p]))
            .collect()
    }
}

const C: f64 = LN_10 / 400.0;

/// Standard deviation of the weak Gaussian prior on a fitted first-move advantage, in Elo:
/// it keeps the advantage finite when the colours alone would let it diverge (one game, a
/// pair that always met with the same colours) and moves a fitted advantage by about
/// (σ_A/400)² of itself (0.6% at σ_A = 30 Elo).
const ADVANTAGE_PRIOR_SD: f64 = 400.0;

/// Standard deviation of the weak Gaussian prior on ln ν (Davidson), for the same reason
/// (all games drawn).
const LN_NU_PRIOR_SD: f64 = 5.0;

/// Log-likelihood, gradient and Hessian of the cells at `theta`.
fn evaluate(
    layout: &Layout,
    cells: &[Cell],
    theta: &[f64],
    want_derivatives: bool,
) -> (f64, Vec<f64>, Vec<f64>) {
    let q = layout.len();
    let ratings = layout.ratings(theta);
    let advantage = layout
        .advantage()
        .map_or(layout.fixed_advantage, |a| theta[a]);
    let eta = layout.nu().map(|e| theta[e]);
    let mut ll = 0.0;
    let mut grad = if want_derivatives {
        vec![0.0; q]
    } else {
        Vec::new()
    };
    let mut hess = if want_derivatives {
        vec![0.0; q * q]
    } else {
        Vec::new()
    };
    for cell in cells {
        let d = ratings[cell.first] - ratings[cell.second]
            + if cell.coloured { advantage } else { 0.0 };
        let [l, dr, w] = cell.wdl;
        let n = l + dr + w;
        // (dℓ/dd, d²ℓ/dd², dℓ/dη, d²ℓ/dη², d²ℓ/dd dη)
        let (gd, hdd, ge, hee, hde) = match eta {
            None => {
                let x = C * d;
                let s = w + 0.5 * dr;
                // ln p = −ln(1 + e^(−x)), ln(1 − p) = −ln(1 + e^x), computed stably.
                let ln_p = -softplus(-x);
                let ln_q = -softplus(x);
                ll += s * ln_p + (n - s) * ln_q;
                let p = 1.0 / (1.0 + (-x).exp());
                (C * (s - n * p), -C * C * n * p * (1.0 - p), 0.0, 0.0, 0.0)
            }
            Some(eta) => {
                let u = 0.5 * C * d;
                let nu = eta.exp();
                let (a, b) = (u.exp(), (-u).exp());
                let z = a + b + nu;
                ll += (w - l) * u + dr * eta - n * z.ln();
                let gu = (w - l) - n * (a - b) / z;
                let huu = -n * ((a + b) * z - (a - b) * (a - b)) / (z * z);
                let ge = dr - n * nu / z;
                let hee = -n * nu * (z - nu) / (z * z);
                let hue = n * (a - b) * nu / (z * z);
                (0.5 * C * gu, 0.25 * C * C * huu, ge, hee, 0.5 * C * hue)
            }
        };
        if !want_derivatives {
            continue;
        }
        let mut support = [(usize::MAX, 0.0); 3];
        let mut k = 0;
        if let Some(p) = layout.player(cell.first) {
            support[k] = (p, 1.0);
            k += 1;
        }
        if let Some(p) = layout.player(cell.second) {
            support[k] = (p, -1.0);
            k += 1;
        }
        if let (Some(a), true) = (layout.advantage(), cell.coloured) {
            support[k] = (a, 1.0);
            k += 1;
        }
        for &(a, va) in &support[..k] {
            grad[a] += gd * va;
            for &(b, vb) in &support[..k] {
                hess[a * q + b] += hdd * va * vb;
            }
        }
        if let Some(e) = layout.nu() {
            grad[e] += ge;
            hess[e * q + e] += hee;
            for &(a, va) in &support[..k] {
                hess[a * q + e] += hde * va;
                hess[e * q + a] += hde * va;
            }
        }
    }
    if let Some(a) = layout.advantage() {
        let v = 1.0 / (ADVANTAGE_PRIOR_SD * ADVANTAGE_PRIOR_SD);
        ll -= 0.5 * theta[a] * theta[a] * v;
        if want_derivatives {
            grad[a] -= theta[a] * v;
            hess[a * q + a] -= v;
        }
    }
    if let Some(e) = layout.nu() {
        let v = 1.0 / (LN_NU_PRIOR_SD * LN_NU_PRIOR_SD);
        ll -= 0.5 * theta[e] * theta[e] * v;
        if want_derivatives {
            grad[e] -= theta[e] * v;
            hess[e * q + e] -= v;
        }
    }
    (ll, grad, hess)
}

/// ln(1 + e^x) without overflow.
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x + (-x).exp()
    } else {
        x.exp().ln_1p()
    }
}

/// Maximises the likelihood from `theta`; returns the parameters and the negated Hessian.
fn maximise(
    layout: &Layout,
    cells: &[Cell],
    mut theta: Vec<f64>,
) -> Result<(Vec<f64>, Vec<f64>), RatingError> {
    let q = layout.len();
    let (mut ll, mut grad, mut hess) = evaluate(layout, cells, &theta, true);
    for _ in 0..200 {
        let information: Vec<f64> = hess.iter().map(|h| -h).collect();
        let step = linalg::cholesky(&information, q)
            .map(|l| linalg::cholesky_solve(&l, q, &grad))
            .ok_or(RatingError::Singular("maximum likelihood"))?;
        let mut scale = 1.0;
        let mut accepted = false;
        for _ in 0..60 {
            let candidate: Vec<f64> = theta
                .iter()
                .zip(&step)
                .map(|(t, s)| t + scale * s)
                .collect();
            let (cand_ll, _, _) = evaluate(layout, cells, &candidate, false);
            if cand_ll.is_finite() && cand_ll >= ll - 1e-12 * ll.abs().max(1.0) {
                theta = candidate;
                accepted = true;
                break;
            }
            scale *= 0.5;
        }
        let largest = step.iter().fold(0.0f64, |m, s| m.max((s * scale).abs()));
        (ll, grad, hess) = evaluate(layout, cells, &theta, true);
        if !accepted || largest < 1e-7 {
            break;
        }
    }
    Ok((theta, hess.iter().map(|h| -h).collect()))
}

impl Mle {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: MleConfig) -> Mle {
        Mle { config }
    }

    /// Fits the ratings.
    ///
    /// # Errors
    /// [`RatingError::NoGames`] without games between different players;
    /// [`RatingError::Singular`] if the information matrix cannot be inverted.
    pub fn rate(&self, counts: &PairCounts) -> Result<MleRatings, RatingError> {
        let n = counts.n();
        let cfg = &self.config;
        if let Some((a, _)) = cfg.anchor {
            if a >= n {
                return Err(RatingError::UnknownPlayer(format!("#{a}")));
            }
        }
        let mut out = MleRatings {
            ratings: vec![f64::NAN; n],
            errors: vec![f64::NAN; n],
            low: vec![f64::NAN; n],
            high: vec![f64::NAN; n],
            group: vec![usize::MAX; n],
            flagged: vec![false; n],
            advantage: (0.0, 0.0),
            draw_nu: None,
            bootstrapped: cfg.bootstrap > 0,
            groups: Vec::new(),
        };
        let groups: Vec<Vec<usize>> = counts
            .groups()
            .into_iter()
            .filter(|g| g.len() >= 2)
            .collect();
        if groups.is_empty() {
            return Err(RatingError::NoGames);
        }
        for (gi, members) in groups.into_iter().enumerate() {
            let fit = self.rate_group(counts, &members, gi == 0)?;
            for (k, &p) in members.iter().enumerate() {
                out.ratings[p] = fit.ratings[k];
                out.errors[p] = fit.covariance[k * members.len() + k].max(0.0).sqrt();
                out.low[p] = fit.low[k];
                out.high[p] = fit.high[k];
                out.group[p] = gi;
                out.flagged[p] = fit.flagged[k];
            }
            if gi == 0 {
                out.advantage = fit.advantage;
                out.draw_nu = fit.draw_nu;
            }
            out.groups.push(GroupFit {
                members,
                covariance: fit.covariance,
            });
        }
        Ok(out)
    }

    fn rate_group(
        &self,
        counts: &PairCounts,
        members: &[usize],
        main: bool,
    ) -> Result<FitOutput, RatingError> {
        let cfg = &self.config;
        let m = members.len();
        let mut cells = Vec::new();
        let mut draws = 0.0;
        let mut any_coloured = false;
        // scored[a][b]: a scored (won or drew) against b.
        let mut scored = vec![false; m * m];
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                if a == b {
                    continue;
                }
                for (coloured, wdl) in [
                    (true, counts.coloured(i, j)),
                    (false, counts.uncoloured(i, j)),
                ] {
                    if wdl.iter().all(|&x| x == 0) {
                        continue;
                    }
                    any_coloured |= coloured;
                    draws += f64::from(wdl[1]);
                    scored[a * m + b] |= wdl[1] + wdl[2] > 0;
                    scored[b * m + a] |= wdl[1] + wdl[0] > 0;
                    let wdl = wdl.map(f64::from);
                    cells.push(Cell {
                        first: a,
                        second: b,
                        coloured,
                        wdl,
                    });
                }
            }
        }
        let flagged = unreachable_subgroups(&scored, m);
        let needs_prior = flagged.iter().any(|&f| f);
        let real_cells = cells.len();
        if needs_prior {
            for a in 0..m {
                for b in a + 1..m {
                    if counts.games_between(members[a], members[b]) > 0 {
                        let half = 0.5 * cfg.prior_games;
                        cells.push(Cell {
                            first: a,
                            second: b,
                            coloured: false,
                            wdl: [half, 0.0, half],
                        });
                    }
                }
            }
        }
        let anchor = cfg
            .anchor
            .and_then(|(p, elo)| members.iter().position(|&x| x == p).map(|k| (k, elo)));
        let (fit_advantage, fixed_advantage) = match cfg.advantage {
            Advantage::Fit => (any_coloured, 0.0),
            Advantage::Fixed(a) => (false, a),
        };
        let layout = Layout {
            m,
            reference: anchor.map_or(m - 1, |(k, _)| k),
            fit_advantage,
            fixed_advantage,
            davidson: cfg.draw_model == DrawModel::Davidson && draws > 0.0,
        };
        let mut start = vec![0.0; layout.len()];
        if let Some(e) = layout.nu() {
            let total: f64 = cells[..real_cells]
                .iter()
                .map(|c| c.wdl.iter().sum::<f64>())
                .sum();
            start[e] = (2.0 * draws / (total - draws).max(1.0)).max(1e-6).ln();
        }
        let (theta, information) = maximise(&layout, &cells, start)?;
        let covariance_full = linalg::inverse_spd(&information, layout.len())
            .ok_or(RatingError::Singular("covariance"))?;
        let shown = |theta: &[f64]| -> Vec<f64> {
            let r = layout.ratings(theta);
            match anchor {
                Some((k, elo)) => r.iter().map(|x| x - r[k] + elo).collect(),
                None => {
                    let mean = r.iter().sum::<f64>() / m as f64;
                    r.iter().map(|x| x - mean + cfg.average).collect()
                }
            }
        };
        let ratings = shown(&theta);
        // Covariance of the players' ratings: reference padded with zeros, then centred.
        let q = layout.len();
        let mut cov = vec![0.0; m * m];
        for a in 0..m {
            for b in 0..m {
                if let (Some(pa), Some(pb)) = (layout.player(a), layout.player(b)) {
                    cov[a * m + b] = covariance_full[pa * q + pb];
                }
            }
        }
        if anchor.is_none() {
            let row: Vec<f64> = (0..m)
                .map(|a| cov[a * m..(a + 1) * m].iter().sum::<f64>() / m as f64)
                .collect();
            let grand = row.iter().sum::<f64>() / m as f64;
            for a in 0..m {
                for b in 0..m {
                    cov[a * m + b] += grand - row[a] - row[b];
                }
            }
        }
        let advantage = match layout.advantage() {
            Some(a) => (theta[a], covariance_full[a * q + a].max(0.0).sqrt()),
            None => (fixed_advantage, 0.0),
        };
        let draw_nu = layout.nu().map(|e| theta[e].exp());
        let (low, high) = if cfg.bootstrap > 0 {
            let samples: Vec<Vec<f64>> = (0..cfg.bootstrap)
                .into_par_iter()
                .map(|b| {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                        cfg.seed ^ (u64::from(b) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let mut resampled = cells.clone();
                    for cell in &mut resampled[..real_cells] {
                        cell.wdl = resample(&mut rng, cell.wdl);
                    }
                    maximise(&layout, &resampled, theta.clone()).map(|(t, _)| shown(&t))
                })
                .filter_map(Result::ok)
                .collect();
            let mut low = vec![0.0; m];
            let mut high = vec![0.0; m];
            let mut column = Vec::with_capacity(samples.len());
            for k in 0..m {
                column.clear();
                column.extend(samples.iter().map(|s| s[k]));
                column.sort_by(f64::total_cmp);
                low[k] = quantile(&column, 0.025);
                high[k] = quantile(&column, 0.975);
            }
            (low, high)
        } else {
            let z = crate::convert::Z95;
            (
                (0..m)
                    .map(|k| ratings[k] - z * cov[k * m + k].max(0.0).sqrt())
                    .collect(),
                (0..m)
                    .map(|k| ratings[k] + z * cov[k * m + k].max(0.0).sqrt())
                    .collect(),
            )
        };
        let _ = main;
        Ok(FitOutput {
            ratings,
            covariance: cov,
            low,
            high,
            flagged,
            advantage,
            draw_nu,
        })
    }
}

struct FitOutput {
    ratings: Vec<f64>,
    covariance: Vec<f64>,
    low: Vec<f64>,
    high: Vec<f64>,
    flagged: Vec<bool>,
    advantage: (f64, f64),
    draw_nu: Option<f64>,
}

/// Resamples a cell's games with replacement: multinomial over [losses, draws, wins].
fn resample(rng: &mut Xoshiro256PlusPlus, wdl: [f64; 3]) -> [f64; 3] {
    let n = wdl.iter().sum::<f64>();
    if n <= 0.0 {
        return wdl;
    }
    let total = n.round() as u64;
    let losses = Binomial::new(total, (wdl[0] / n).clamp(0.0, 1.0)).map_or(0, |b| b.sample(rng));
    let rest = total - losses;
    let p_draw = if wdl[1] + wdl[2] > 0.0 {
        wdl[1] / (wdl[1] + wdl[2])
    } else {
        0.0
    };
    let draws = Binomial::new(rest, p_draw.clamp(0.0, 1.0)).map_or(0, |b| b.sample(rng));
    [losses as f64, draws as f64, (rest - draws) as f64]
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let position = q * (sorted.len() - 1) as f64;
    let low = position.floor() as usize;
    let high = position.ceil() as usize;
    sorted[low] + (position - low as f64) * (sorted[high] - sorted[low])
}

/// Returns, per player, whether it lies in a subgroup that never scored against the rest or
/// that the rest never scored against (a source or sink of the condensation of the "scored
/// against" graph); all false when the graph is strongly connected.
fn unreachable_subgroups(scored: &[bool], m: usize) -> Vec<bool> {
    // Kosaraju: finishing order on the graph, then components on the transpose.
    let mut order = Vec::with_capacity(m);
    let mut seen = vec![false; m];
    for s in 0..m {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![(s, 0usize)];
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(w) = (*next..m).find(|&w| scored[v * m + w] && !seen[w]) {
                *next = w + 1;
                seen[w] = true;
                stack.push((w, 0));
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    let mut component = vec![usize::MAX; m];
    let mut count = 0;
    for &s in order.iter().rev() {
        if component[s] != usize::MAX {
            continue;
        }
        component[s] = count;
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for w in 0..m {
                if scored[w * m + v] && component[w] == usize::MAX {
                    component[w] = count;
                    stack.push(w);
                }
            }
        }
        count += 1;
    }
    if count <= 1 {
        return vec![false; m];
    }
    let mut has_in = vec![false; count];
    let mut has_out = vec![false; count];
    for v in 0..m {
        for w in 0..m {
            if scored[v * m + w] && component[v] != component[w] {
                has_out[component[v]] = true;
                has_in[component[w]] = true;
            }
        }
    }
    (0..m)
        .map(|v| !has_in[component[v]] || !has_out[component[v]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameList, Score};

    fn list(games: &[(&str, &str, Score)]) -> GameList {
        let mut g = GameList::new();
        for &(a, b, s) in games {
            g.add(a, b, s, true, None);
        }
        g
    }

    fn fixed_zero() -> MleConfig {
        MleConfig {
            advantage: Advantage::Fixed(0.0),
            ..MleConfig::new()
        }
    }

    #[test]
    fn two_players_by_hand() {
        // 3 wins, 1 draw, 0 losses of 4: score 7/8, difference 400·log10(7).
        let g = list(&[
            ("a", "b", Score::Win),
            ("b", "a", Score::Loss),
            ("a", "b", Score::Win),
            ("b", "a", Score::Draw),
        ]);
        let r = Mle::new(fixed_zero())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        let gap = 400.0 * 7f64.log10();
        assert!(
            (r.ratings[0] - r.ratings[1] - gap).abs() < 1e-6,
            "{:?}",
            r.ratings
        );
        // Fisher information of the gap: n·c²·p(1 − p) = 4·c²·7/64; each player's error
        // relative to the average is half the gap's.
        let se_gap = 1.0 / (4.0 * C * C * 7.0 / 64.0).sqrt();
        assert!((r.errors[0] - se_gap / 2.0).abs() < 1e-6);
        assert!(!r.flagged[0]);
        assert!(r.los(0, 1) > 0.5);
    }

    #[test]
    fn three_players_satisfy_the_likelihood_equations() {
        // At the maximum every player's expected score equals its actual score.
        let g = list(&[
            ("a", "b", Score::Win),
            ("a", "b", Score::Loss),
            ("a", "b", Score::Win),
            ("b", "c", Score::Win),
            ("b", "c", Score::Draw),
            ("c", "a", Score::Win),
            ("a", "c", Score::Win),
            ("a", "c", Score::Win),
        ]);
        let r = Mle::new(fixed_zero())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        let counts = g.counts();
        for i in 0..3 {
            let (mut expected, mut actual) = (0.0, 0.0);
            for j in 0..3 {
                if i != j {
                    let [l, d, w] = counts.pair(i, j);
                    let n = f64::from(l + d + w);
                    expected += n * crate::convert::expected_score(r.ratings[i] - r.ratings[j]);
                    actual += f64::from(w) + 0.5 * f64::from(d);
                }
            }
            assert!(
                (expected - actual).abs() < 1e-6,
                "player {i}: {expected} vs {actual}"
            );
        }
    }

    #[test]
    fn a_perfect_player_gets_a_finite_flagged_rating() {
        let g = list(&[
            ("top", "a", Score::Win),
            ("b", "top", Score::Loss),
            ("a", "b", Score::Win),
            ("b", "a", Score::Win),
        ]);
        let r = Mle::new(MleConfig::new())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.ratings.iter().all(|x| x.is_finite()));
        assert!(r.flagged[0]);
        assert!(r.ratings[0] > r.ratings[1] + 100.0);
    }

    #[test]
    fn one_game_only() {
        let g = list(&[("a", "b", Score::Win)]);
        let r = Mle::new(MleConfig::new())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.flagged[0] && r.flagged[1]);
        assert!(r.ratings[0] > r.ratings[1]);
        assert!(r.errors.iter().all(|e| e.is_finite()));
    }

    #[test]
    fn disconnected_pairs_are_rated_as_separate_groups() {
        let g = list(&[
            ("a", "b", Score::Win),
            ("b", "a", Score::Draw),
            ("c", "d", Score::Loss),
            ("d", "c", Score::Draw),
            ("e", "c", Score::Draw),
        ]);
        let r = Mle::new(MleConfig::new())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.group, vec![1, 1, 0, 0, 0]);
        assert_eq!(r.group_count(), 2);
        assert!(r.los(0, 2).is_nan());
    }

    #[test]
    fn anchor_fixes_a_player_and_its_error_is_zero() {
        let g = list(&[
            ("a", "b", Score::Win),
            ("b", "a", Score::Draw),
            ("a", "b", Score::Loss),
        ]);
        let cfg = MleConfig {
            anchor: Some((1, 2000.0)),
            ..fixed_zero()
        };
        let r = Mle::new(cfg)
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.ratings[1], 2000.0);
        assert_eq!(r.errors[1], 0.0);
    }

    #[test]
    fn davidson_fits_draws_and_white_advantage() {
        // White scores more than Black between equal players, with many draws.
        let mut g = GameList::new();
        for _ in 0..40 {
            g.add("a", "b", Score::Win, true, None);
            g.add("b", "a", Score::Win, true, None);
            g.add("a", "b", Score::Draw, true, None);
            g.add("b", "a", Score::Draw, true, None);
        }
        for _ in 0..20 {
            g.add("a", "b", Score::Loss, true, None);
            g.add("b", "a", Score::Loss, true, None);
        }
        let cfg = MleConfig {
            draw_model: DrawModel::Davidson,
            ..MleConfig::new()
        };
        let r = Mle::new(cfg)
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!((r.ratings[0] - r.ratings[1]).abs() < 1e-6);
        // Per colour: 40 wins, 40 draws, 20 losses. Davidson's maximum: x² = 40/20 ⇒
        // A = 800·log10(√2) = 120.4 Elo; ν = D/√(W·L) = 40/√800 (the weak priors on A and
        // ln ν move these by less than 1 Elo and 0.01 with 200 games).
        assert!(
            (r.advantage.0 - 400.0 * 2f64.log10()).abs() < 1.0,
            "{:?}",
            r.advantage
        );
        assert!((r.draw_nu.unwrap_or(0.0) - 40.0 / 800f64.sqrt()).abs() < 0.01);
    }

    #[test]
    fn bootstrap_intervals_surround_the_rating() {
        let mut g = GameList::new();
        for i in 0..60 {
            let s = [Score::Win, Score::Draw, Score::Loss, Score::Win][i % 4];
            for (p, q) in [("a", "b"), ("b", "c"), ("a", "c")] {
                if i % 2 == 0 {
                    g.add(p, q, s, true, None);
                } else {
                    g.add(q, p, s.reversed(), true, None);
                }
            }
        }
        let cfg = MleConfig {
            bootstrap: 50,
            ..MleConfig::new()
        };
        let r = Mle::new(cfg)
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(r.bootstrapped);
        for k in 0..3 {
            assert!(
                r.low[k] < r.ratings[k] && r.ratings[k] < r.high[k],
                "{k}: {:?}",
                (r.low[k], r.high[k])
            );
            // The bootstrap width is close to the covariance width (±1.96σ).
            let width = r.high[k] - r.low[k];
            assert!((width / (2.0 * 1.96 * r.errors[k]) - 1.0).abs() < 0.4);
        }
    }

    /// Games simulated from the logistic model with known strengths: the fit recovers them
    /// within its own error bars (10 players, 450 games per pair: σ ≈ 6 Elo per player).
    #[test]
    fn recovers_simulated_strengths() {
        use crate::synth::{simulate, SynthConfig};
        for (seed, draw_nu, model) in [
            (7, 0.0, DrawModel::HalfPoint),
            (8, 1.0, DrawModel::Davidson),
        ] {
            let cfg = SynthConfig {
                players: 10,
                games: 40_500,
                spread: 200.0,
                draw_nu,
                advantage: 30.0,
                seed,
            };
            let s = simulate(&cfg).unwrap_or_else(|e| panic!("{e}"));
            let config = MleConfig {
                draw_model: model,
                ..MleConfig::new()
            };
            let r = Mle::new(config)
                .rate(&s.games.counts())
                .unwrap_or_else(|e| panic!("{e}"));
            let mean_truth = s.strengths.iter().sum::<f64>() / 10.0;
            let mut squared = 0.0;
            let mut inside = 0;
            for k in 0..10 {
                let error = r.ratings[k] - 1000.0 - (s.strengths[k] - mean_truth);
                squared += error * error;
                inside += usize::from(error.abs() <= 1.96 * r.errors[k]);
                assert!(r.errors[k] > 3.0 && r.errors[k] < 12.0, "{}", r.errors[k]);
            }
            let rms = (squared / 10.0).sqrt();
            assert!(rms < 10.0, "rms {rms}");
            assert!(inside >= 8, "only {inside} of 10 inside their 95% interval");
            assert!(
                (r.advantage.0 - 30.0).abs() < 3.0 * r.advantage.1 + 1.0,
                "{:?}",
                r.advantage
            );
        }
    }
}
