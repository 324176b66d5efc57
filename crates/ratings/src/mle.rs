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
//! player can be reached from every other through "scored against" links (Ford 1957). When
//! not (an unbeaten player, a player who never scored, or such a subgroup), only those
//! players are unbounded: the largest strongly connected part is fitted as usual, and every
//! other part is placed, as Ordo places perfect winners and losers, at the rating it would
//! have if one of its games had been a draw — a documented lower bound (above) or upper
//! bound (below), flagged in [`MleRatings::unbounded`]. The rest are rated with the
//! unbounded players held at their bounds, their games included. A bootstrap resample
//! without a finite maximum is treated the same way and counted.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{mle::{Mle, MleConfig}, Games, Score};
//! let mut games = Games::new();
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
    /// Bootstrap samples for percentile intervals (0: intervals from the covariance).
    pub bootstrap: u32,
    /// Seed of the bootstrap.
    pub seed: u64,
    /// Newton's steps allowed per fit before [`MleRatings::converged`] says it did not settle
    /// (200; the fit usually settles in under 20).
    pub newton_steps: u32,
}

impl MleConfig {
    /// Returns the defaults: half points, fitted advantage, average 1000 (Elo World's start),
    /// no anchor, no bootstrap.
    #[must_use]
    pub const fn new() -> MleConfig {
        MleConfig {
            draw_model: DrawModel::HalfPoint,
            advantage: Advantage::Fit,
            average: 1000.0,
            anchor: None,
            bootstrap: 0,
            seed: 1,
            newton_steps: NEWTON_STEPS,
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
    /// Players without a finite maximum (their rating is a bound; see [`Unbounded`]).
    pub flagged: Vec<bool>,
    /// Which way each flagged player's rating is unbounded.
    pub unbounded: Vec<Option<Unbounded>>,
    /// The largest group's first-move advantage in Elo and its standard error (0 if fixed).
    pub advantage: (f64, f64),
    /// Every group's first-move advantage and its standard error, by group.
    pub group_advantages: Vec<(f64, f64)>,
    /// Davidson's ν, when that model is used and the games have draws.
    pub draw_nu: Option<f64>,
    /// Whether the intervals come from a bootstrap.
    pub bootstrapped: bool,
    /// Bootstrap resamples in which some player rated finitely from the games had no finite
    /// maximum (it was then placed at its bound, so no resample is dropped).
    pub undefined_resamples: u32,
    /// False when Newton's iterations (or the alternation with the bounds) did not settle.
    pub converged: bool,
    groups: Vec<GroupFit>,
}

#[derive(Clone, Debug, PartialEq)]
struct GroupFit {
    members: Vec<usize>,
    /// Covariance of the members' ratings as shown (relative to the average or the anchor).
    covariance: Vec<f64>,
}

impl MleRatings {
    /// Returns the likelihood that `i` is stronger than `j` (NaN across groups); 1 or 0 when
    /// one of them is unbounded in a direction the other is not.
    #[must_use]
    pub fn los(&self, i: usize, j: usize) -> f64 {
        if i == j {
            return 0.5;
        }
        if self.group[i] != self.group[j] {
            return f64::NAN;
        }
        match (self.unbounded[i], self.unbounded[j]) {
            (None, None) => {}
            (a, b) if a == b => return f64::NAN,
            (Some(Unbounded::Above), _) | (_, Some(Unbounded::Below)) => return 1.0,
            (Some(Unbounded::Below), _) | (_, Some(Unbounded::Above)) => return 0.0,
        }
        let variance = self.covariance(i, i) + self.covariance(j, j) - 2.0 * self.covariance(i, j);
        if variance.is_nan() {
            return f64::NAN;
        }
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

    /// Returns the covariance of the ratings of `i` and `j` as shown (relative to the average
    /// or the anchor; Elo²), from the inverse of the observed information; NaN across groups
    /// or for a player whose rating is a bound (it has no finite maximum).
    #[must_use]
    pub fn covariance(&self, i: usize, j: usize) -> f64 {
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
        fit.covariance[a * m + b]
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

/// The parameters of one group's fit and how they are laid out. Players `m..` of the cells
/// are held at the ratings in `fixed` (players without a finite maximum, at their bounds).
struct Layout {
    m: usize,
    reference: usize,
    fit_advantage: bool,
    fixed_advantage: f64,
    davidson: bool,
    /// ln ν held fixed (Davidson's model once ν is estimated), when not fitted.
    fixed_eta: Option<f64>,
    fixed: Vec<f64>,
}

impl Layout {
    fn len(&self) -> usize {
        self.m - 1 + usize::from(self.fit_advantage) + usize::from(self.davidson)
    }
    fn player(&self, k: usize) -> Option<usize> {
        if k >= self.m {
            return None;
        }
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
    /// Returns the ratings (reference at 0) from the parameters, then the held players'.
    fn ratings(&self, theta: &[f64]) -> Vec<f64> {
        (0..self.m)
            .map(|k| self.player(k).map_or(0.0, |p| theta[p]))
            .chain(self.fixed.iter().copied())
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
    let eta = layout.nu().map(|e| theta[e]).or(layout.fixed_eta);
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

/// Newton's steps allowed per fit by default.
pub const NEWTON_STEPS: u32 = 200;

/// Maximises the likelihood from `theta`; returns the parameters, the negated Hessian and
/// whether Newton's steps settled (the largest step below 10⁻⁷ Elo within `steps` steps).
fn maximise(
    layout: &Layout,
    cells: &[Cell],
    mut theta: Vec<f64>,
    steps: u32,
) -> Result<(Vec<f64>, Vec<f64>, bool), RatingError> {
    let q = layout.len();
    if q == 0 {
        return Ok((theta, Vec::new(), true));
    }
    let (mut ll, mut grad, mut hess) = evaluate(layout, cells, &theta, true);
    let mut converged = false;
    for _ in 0..steps {
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
        if largest < 1e-7 {
            converged = true;
            break;
        }
        if !accepted {
            // No step along Newton's direction raises the likelihood: it is at its maximum
            // to the precision of the arithmetic when the gradient is negligible.
            converged = grad.iter().all(|g| g.abs() < 1e-6);
            break;
        }
    }
    Ok((theta, hess.iter().map(|h| -h).collect(), converged))
}

/// Where a player without a finite maximum lies: its likelihood keeps growing as its rating
/// (with its whole subgroup's) rises or falls against the group's core.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unbounded {
    /// Never conceded a point to the core's side: the rating shown is a lower bound.
    Above,
    /// Never scored against the core's side: the rating shown is an upper bound.
    Below,
}

/// The strongly connected components of the "scored against" relation among a group's
/// players (Ford 1957), and which of them is the core that [`Mle::solve`] fits.
struct Components {
    /// Each player's component.
    component: Vec<usize>,
    /// How many components there are.
    count: usize,
    /// The core's component.
    core: usize,
    /// Each component's side of the core (above or below it).
    sides: Vec<Unbounded>,
}

impl Components {
    /// The components of the `m` players of `cells`; the core is the anchor's component if
    /// it has more than one player, else the largest.
    fn of(m: usize, cells: &[Cell], anchor: Option<usize>) -> Components {
        let mut scored = vec![false; m * m];
        for c in cells {
            let [l, d, w] = c.wdl;
            if d + w > 0.0 {
                scored[c.first * m + c.second] = true;
            }
            if d + l > 0.0 {
                scored[c.second * m + c.first] = true;
            }
        }
        let (component, count) = components(&scored, m);
        let mut size = vec![0usize; count];
        for &c in &component {
            size[c] += 1;
        }
        // The core: the anchor's component if it has more than one player, else the largest;
        // among equals one that both took and conceded points (in the middle of the field),
        // then the first in player order.
        let mut took = vec![false; count];
        let mut conceded = vec![false; count];
        for a in 0..m {
            for b in 0..m {
                if scored[a * m + b] && component[a] != component[b] {
                    took[component[a]] = true;
                    conceded[component[b]] = true;
                }
            }
        }
        let core_component = anchor
            .map(|k| component[k])
            .filter(|&c| size[c] > 1 || count == 1)
            .unwrap_or_else(|| {
                let key = |p: usize| {
                    let c = component[p];
                    (size[c], took[c] && conceded[c], std::cmp::Reverse(p))
                };
                (0..m).max_by_key(|&p| key(p)).map_or(0, |p| component[p])
            });
        let sides = component_sides(&scored, &component, count, core_component);
        Components {
            component,
            count,
            core: core_component,
            sides,
        }
    }
}

/// The components held at their bounds, from [`Mle::held_components`].
struct Held {
    /// Each player's rating relative to the others of its component (mean 0).
    relative: Vec<f64>,
    /// The members of each held component.
    members: Vec<Vec<usize>>,
    /// Whether every component's fit converged.
    converged: bool,
}

/// The group's players rated: values on the fit's internal scale (the core's reference at 0).
struct Solution {
    values: Vec<f64>,
    side: Vec<Option<Unbounded>>,
    core: Vec<usize>,
    layout: Layout,
    information: Vec<f64>,
    advantage: (f64, f64),
    draw_nu: Option<f64>,
    converged: bool,
}

/// Expected points of a player `d` Elo above its opponent (Davidson's when `nu` is given).
fn expected_points(d: f64, nu: Option<f64>) -> f64 {
    match nu {
        None => 1.0 / (1.0 + (-C * d).exp()),
        Some(nu) => {
            let u = 0.5 * C * d;
            let (a, b) = (u.exp(), (-u).exp());
            (a + 0.5 * nu) / (a + b + nu)
        }
    }
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
            unbounded: vec![None; n],
            advantage: (0.0, 0.0),
            group_advantages: Vec::new(),
            draw_nu: None,
            bootstrapped: cfg.bootstrap > 0,
            undefined_resamples: 0,
            converged: true,
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
            let fit = self.rate_group(counts, &members)?;
            for (k, &p) in members.iter().enumerate() {
                out.ratings[p] = fit.ratings[k];
                out.errors[p] = fit.errors[k];
                out.low[p] = fit.low[k];
                out.high[p] = fit.high[k];
                out.group[p] = gi;
                out.flagged[p] = fit.side[k].is_some();
                out.unbounded[p] = fit.side[k];
            }
            if gi == 0 {
                out.advantage = fit.advantage;
                out.draw_nu = fit.draw_nu;
            }
            out.group_advantages.push(fit.advantage);
            out.undefined_resamples += fit.undefined_resamples;
            out.converged &= fit.converged;
            out.groups.push(GroupFit {
                members: fit.core.iter().map(|&k| members[k]).collect(),
                covariance: fit.covariance,
            });
        }
        Ok(out)
    }

    /// Collects a group's cells: every ordered pair and colour class with games.
    fn cells(counts: &PairCounts, members: &[usize]) -> Vec<Cell> {
        let mut cells = Vec::new();
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                if a == b {
                    continue;
                }
                for (coloured, wdl) in [
                    (true, counts.coloured(i, j)),
                    (false, counts.uncoloured(i, j)),
                ] {
                    if wdl.iter().any(|&x| x > 0) {
                        cells.push(Cell {
                            first: a,
                            second: b,
                            coloured,
                            wdl: wdl.map(f64::from),
                        });
                    }
                }
            }
        }
        cells
    }

    /// Rates the `m` players of a group from its cells.
    ///
    /// The players are split into the strongly connected components of the "scored against"
    /// relation (Ford 1957: the maximum is finite exactly when there is one). The largest
    /// component is the core and is fitted by maximum likelihood; every other component
    /// never conceded (or never took) a point against the core's side, so its rating has no
    /// finite maximum. Such a component is placed, as Ordo places perfect winners and losers,
    /// at the rating it would have if one of its games had been a draw: its expected score
    /// against everyone outside it equals its actual score − ½ (above) or + ½ (below), its
    /// members keeping their ratings relative to one another. The core is fitted with those
    /// players held at their bounds (their games count), and the two alternate until nothing
    /// moves.
    fn solve(
        &self,
        m: usize,
        cells: &[Cell],
        anchor: Option<usize>,
    ) -> Result<Solution, RatingError> {
        let cfg = &self.config;
        let parts = Components::of(m, cells, anchor);
        let (component, core_component, sides) = (&parts.component, parts.core, &parts.sides);
        let core: Vec<usize> = (0..m).filter(|&p| component[p] == core_component).collect();
        let peeled: Vec<usize> = (0..m).filter(|&p| component[p] != core_component).collect();
        let m_core = core.len();
        let mut slot = vec![usize::MAX; m];
        for (k, &p) in core.iter().chain(&peeled).enumerate() {
            slot[p] = k;
        }
        // Cells of the core's fit: core against core, and core against held players.
        let mut core_cells = Vec::new();
        let mut inside = 0;
        let mut draws = 0.0;
        let mut any_coloured = false;
        for c in cells {
            let (a, b) = (slot[c.first], slot[c.second]);
            if a >= m_core && b >= m_core {
                continue;
            }
            let cell = Cell {
                first: a,
                second: b,
                ..*c
            };
            if a < m_core && b < m_core {
                // The first-move advantage and the draw rate are estimated from the core's
                // own games: games against unbounded players would push them without end.
                any_coloured |= c.coloured;
                draws += c.wdl[1];
                core_cells.insert(inside, cell);
                inside += 1;
            } else {
                core_cells.push(cell);
            }
        }
        let (fit_advantage, fixed_advantage) = match cfg.advantage {
            Advantage::Fit => (any_coloured, 0.0),
            Advantage::Fixed(a) => (false, a),
        };
        let mut layout = Layout {
            m: m_core,
            reference: anchor
                .filter(|&k| component[k] == core_component)
                .map_or(m_core - 1, |k| slot[k]),
            fit_advantage,
            fixed_advantage,
            davidson: cfg.draw_model == DrawModel::Davidson && draws > 0.0,
            fixed_eta: None,
            fixed: Vec::new(),
        };
        let mut theta = vec![0.0; layout.len()];
        if let Some(e) = layout.nu() {
            let total: f64 = core_cells[..inside]
                .iter()
                .map(|c| c.wdl.iter().sum::<f64>())
                .sum();
            theta[e] = (2.0 * draws / (total - draws).max(1.0)).max(1e-6).ln();
        }
        // First the core alone.
        let (t, mut information, mut converged) =
            maximise(&layout, &core_cells[..inside], theta, cfg.newton_steps)?;
        theta = t;
        let q = layout.len();
        let advantage_fit = match layout.advantage() {
            Some(a) => (
                theta[a],
                linalg::inverse_spd(&information, q).ok_or(RatingError::Singular("covariance"))?
                    [a * q + a]
                    .max(0.0)
                    .sqrt(),
            ),
            None => (layout.fixed_advantage, 0.0),
        };
        let eta = layout.nu().map(|e| theta[e]);
        let mut values = vec![f64::NAN; m];
        let mut side = vec![None; m];
        for (k, &p) in core.iter().enumerate() {
            values[p] = layout.ratings(&theta)[k];
        }
        if !peeled.is_empty() {
            // From here on the advantage and ν stay at the core's estimates.
            layout = Layout {
                fit_advantage: false,
                fixed_advantage: advantage_fit.0,
                davidson: false,
                fixed_eta: eta,
                ..layout
            };
            theta.truncate(layout.len());
            let advantage = |layout: &Layout, _: &[f64]| layout.fixed_advantage;
            let nu = |layout: &Layout, _: &[f64]| layout.fixed_eta.map(f64::exp);
            let Held {
                relative,
                members: held,
                converged: held_converged,
            } = self.held_components(cells, &parts, &layout, &mut side)?;
            converged &= held_converged;
            // Place the held components next to the players already placed, nearest first.
            let mut placed: Vec<bool> = (0..m).map(|p| component[p] == core_component).collect();
            let mut left: Vec<usize> = (0..held.len()).collect();
            while !left.is_empty() {
                let before = left.len();
                left.retain(|&h| {
                    let members = &held[h];
                    let offset = place(
                        members,
                        &relative,
                        &values,
                        cells,
                        &|p| placed[p],
                        sides[component[members[0]]],
                        advantage(&layout, &theta),
                        nu(&layout, &theta),
                    );
                    match offset {
                        Some(offset) => {
                            for &p in members {
                                values[p] = relative[p] + offset;
                                placed[p] = true;
                            }
                            false
                        }
                        None => true,
                    }
                });
                if left.len() == before {
                    return Err(RatingError::Singular("maximum likelihood (placing bounds)"));
                }
            }
            // Alternate: the core with the held players at their bounds, then the bounds.
            let mut settled = false;
            for _ in 0..500 {
                layout.fixed = peeled.iter().map(|&p| values[p]).collect();
                let (t, info, c) = maximise(&layout, &core_cells, theta, cfg.newton_steps)?;
                theta = t;
                information = info;
                converged &= c;
                let mut change = 0.0f64;
                let core_values = layout.ratings(&theta);
                for (k, &p) in core.iter().enumerate() {
                    change = change.max((core_values[k] - values[p]).abs());
                    values[p] = core_values[k];
                }
                for members in &held {
                    let in_component = |p: usize| component[p] == component[members[0]];
                    let offset = place(
                        members,
                        &relative,
                        &values,
                        cells,
                        &|p| !in_component(p),
                        sides[component[members[0]]],
                        advantage(&layout, &theta),
                        nu(&layout, &theta),
                    )
                    .unwrap_or(0.0);
                    for &p in members {
                        let v = relative[p] + offset;
                        change = change.max((v - values[p]).abs());
                        values[p] = v;
                    }
                }
                if change < 1e-7 {
                    settled = true;
                    break;
                }
            }
            converged &= settled;
        }
        Ok(Solution {
            values,
            side,
            core,
            layout,
            information,
            advantage: advantage_fit,
            draw_nu: eta.map(f64::exp),
            converged,
        })
    }

    /// Each held component's ratings relative to one another (it is strongly connected, so
    /// its own maximum is finite), with the advantage and ν of `layout` held; the held
    /// components' members, each marked in `side`; and whether every fit converged.
    fn held_components(
        &self,
        cells: &[Cell],
        parts: &Components,
        layout: &Layout,
        side: &mut [Option<Unbounded>],
    ) -> Result<Held, RatingError> {
        let cfg = &self.config;
        let m = parts.component.len();
        let mut relative = vec![0.0; m];
        let mut converged = true;
        let mut held: Vec<Vec<usize>> = Vec::new();
        for c in (0..parts.count).filter(|&c| c != parts.core) {
            let members: Vec<usize> = (0..m).filter(|&p| parts.component[p] == c).collect();
            for &p in &members {
                side[p] = Some(parts.sides[c]);
            }
            if members.len() > 1 {
                let mut local = vec![usize::MAX; m];
                for (k, &p) in members.iter().enumerate() {
                    local[p] = k;
                }
                let own: Vec<Cell> = cells
                    .iter()
                    .filter(|c| local[c.first] != usize::MAX && local[c.second] != usize::MAX)
                    .map(|c| Cell {
                        first: local[c.first],
                        second: local[c.second],
                        ..*c
                    })
                    .collect();
                let own_layout = Layout {
                    m: members.len(),
                    reference: members.len() - 1,
                    fit_advantage: false,
                    fixed_advantage: layout.fixed_advantage,
                    davidson: false,
                    fixed_eta: layout.fixed_eta,
                    fixed: Vec::new(),
                };
                let (t, _, c) = maximise(
                    &own_layout,
                    &own,
                    vec![0.0; own_layout.len()],
                    cfg.newton_steps,
                )?;
                converged &= c;
                let r = own_layout.ratings(&t);
                let mean = r.iter().sum::<f64>() / r.len() as f64;
                for (k, &p) in members.iter().enumerate() {
                    relative[p] = r[k] - mean;
                }
            }
            held.push(members);
        }
        Ok(Held {
            relative,
            members: held,
            converged,
        })
    }

    fn rate_group(&self, counts: &PairCounts, members: &[usize]) -> Result<FitOutput, RatingError> {
        let cfg = &self.config;
        let m = members.len();
        let cells = Mle::cells(counts, members);
        let anchor = cfg
            .anchor
            .and_then(|(p, elo)| members.iter().position(|&x| x == p).map(|k| (k, elo)));
        let solution = self.solve(m, &cells, anchor.map(|(k, _)| k))?;
        let shown = |s: &Solution| -> Vec<f64> {
            let shift = match anchor {
                Some((k, elo)) => elo - s.values[k],
                None => {
                    let mean =
                        s.core.iter().map(|&p| s.values[p]).sum::<f64>() / s.core.len() as f64;
                    cfg.average - mean
                }
            };
            s.values.iter().map(|v| v + shift).collect()
        };
        let ratings = shown(&solution);
        let layout = &solution.layout;
        let q = layout.len();
        let covariance_full = if q == 0 {
            Vec::new()
        } else {
            linalg::inverse_spd(&solution.information, q)
                .ok_or(RatingError::Singular("covariance"))?
        };
        // Covariance of the core's ratings: reference padded with zeros, then centred unless
        // the anchor is the reference.
        let m_core = layout.m;
        let mut cov = vec![0.0; m_core * m_core];
        for a in 0..m_core {
            for b in 0..m_core {
                if let (Some(pa), Some(pb)) = (layout.player(a), layout.player(b)) {
                    cov[a * m_core + b] = covariance_full[pa * q + pb];
                }
            }
        }
        let anchored_in_core = anchor.is_some_and(|(k, _)| solution.core.contains(&k));
        if !anchored_in_core {
            let row: Vec<f64> = (0..m_core)
                .map(|a| cov[a * m_core..(a + 1) * m_core].iter().sum::<f64>() / m_core as f64)
                .collect();
            let grand = row.iter().sum::<f64>() / m_core as f64;
            for a in 0..m_core {
                for b in 0..m_core {
                    cov[a * m_core + b] += grand - row[a] - row[b];
                }
            }
        }
        let mut errors = vec![f64::NAN; m];
        for (k, &p) in solution.core.iter().enumerate() {
            errors[p] = cov[k * m_core + k].max(0.0).sqrt();
        }
        let advantage = solution.advantage;
        let draw_nu = solution.draw_nu;
        let mut undefined_resamples = 0;
        let (mut low, mut high) = if cfg.bootstrap > 0 {
            let samples: Vec<(Vec<f64>, bool)> = (0..cfg.bootstrap)
                .into_par_iter()
                .map(|b| {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                        cfg.seed ^ (u64::from(b) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    let mut resampled = cells.clone();
                    for cell in &mut resampled {
                        cell.wdl = resample(&mut rng, cell.wdl);
                    }
                    self.solve(m, &resampled, anchor.map(|(k, _)| k)).map(|s| {
                        let undefined = s
                            .side
                            .iter()
                            .zip(&solution.side)
                            .any(|(now, then)| now.is_some() && then.is_none());
                        (shown(&s), undefined)
                    })
                })
                .filter_map(Result::ok)
                .collect();
            undefined_resamples = samples.iter().filter(|(_, u)| *u).count() as u32;
            let mut low = vec![0.0; m];
            let mut high = vec![0.0; m];
            let mut column = Vec::with_capacity(samples.len());
            for k in 0..m {
                column.clear();
                column.extend(samples.iter().map(|(s, _)| s[k]));
                column.sort_by(f64::total_cmp);
                low[k] = quantile(&column, 0.025);
                high[k] = quantile(&column, 0.975);
            }
            (low, high)
        } else {
            let z = crate::convert::Z95;
            (
                (0..m).map(|k| ratings[k] - z * errors[k]).collect(),
                (0..m).map(|k| ratings[k] + z * errors[k]).collect(),
            )
        };
        for k in 0..m {
            match solution.side[k] {
                Some(Unbounded::Above) => {
                    low[k] = if cfg.bootstrap > 0 {
                        low[k].min(ratings[k])
                    } else {
                        ratings[k]
                    };
                    high[k] = f64::INFINITY;
                }
                Some(Unbounded::Below) => {
                    low[k] = f64::NEG_INFINITY;
                    high[k] = if cfg.bootstrap > 0 {
                        high[k].max(ratings[k])
                    } else {
                        ratings[k]
                    };
                }
                None => {}
            }
        }
        Ok(FitOutput {
            ratings,
            errors,
            covariance: cov,
            core: solution.core,
            low,
            high,
            side: solution.side,
            advantage,
            draw_nu,
            undefined_resamples,
            converged: solution.converged,
        })
    }
}

/// Returns the offset that puts a held component at its bound: its members' expected score
/// against the players `counted` outside it equals their score − ½ (above the core) or + ½
/// (below). `None` when it has no game against such players.
#[expect(
    clippy::too_many_arguments,
    reason = "the pieces of one equation, each named"
)]
fn place(
    members: &[usize],
    relative: &[f64],
    values: &[f64],
    cells: &[Cell],
    counted: &dyn Fn(usize) -> bool,
    side: Unbounded,
    advantage: f64,
    nu: Option<f64>,
) -> Option<f64> {
    // (member, opponent, member is first, colour known, games, member's points)
    let mut terms = Vec::new();
    for c in cells {
        let (first_in, second_in) = (members.contains(&c.first), members.contains(&c.second));
        let [l, d, w] = c.wdl;
        let n = l + d + w;
        if first_in && !second_in && counted(c.second) {
            terms.push((c.first, c.second, true, c.coloured, n, w + 0.5 * d));
        } else if second_in && !first_in && counted(c.first) {
            terms.push((c.second, c.first, false, c.coloured, n, l + 0.5 * d));
        }
    }
    let games: f64 = terms.iter().map(|t| t.4).sum();
    if games <= 0.0 {
        return None;
    }
    let points: f64 = terms.iter().map(|t| t.5).sum();
    let half = 0.5f64.min(0.5 * games);
    let target = match side {
        Unbounded::Above => points - 0.5,
        Unbounded::Below => points + 0.5,
    }
    .clamp(half, games - half);
    let expected = |offset: f64| -> f64 {
        terms
            .iter()
            .map(|&(a, b, first, coloured, n, _)| {
                let colour = if coloured { advantage } else { 0.0 };
                let mine = relative[a] + offset;
                if first {
                    n * expected_points(mine - values[b] + colour, nu)
                } else {
                    n * (1.0 - expected_points(values[b] - mine + colour, nu))
                }
            })
            .sum::<f64>()
            - target
    };
    let (mut lo, mut hi) = (-1000.0, 1000.0);
    while expected(lo) > 0.0 && lo > -1e7 {
        lo *= 2.0;
    }
    while expected(hi) < 0.0 && hi < 1e7 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if expected(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-10 {
            break;
        }
    }
    Some(0.5 * (lo + hi))
}

struct FitOutput {
    ratings: Vec<f64>,
    errors: Vec<f64>,
    covariance: Vec<f64>,
    core: Vec<usize>,
    low: Vec<f64>,
    high: Vec<f64>,
    side: Vec<Option<Unbounded>>,
    advantage: (f64, f64),
    draw_nu: Option<f64>,
    undefined_resamples: u32,
    converged: bool,
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

/// Returns the strongly connected component of every player of the "scored against" graph
/// (`scored[a·m + b]`: a won or drew against b) and the number of components (Kosaraju).
pub(crate) fn components(scored: &[bool], m: usize) -> (Vec<usize>, usize) {
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
    (component, count)
}

/// Returns, per component, whether it lies above or below the core: above when it reaches
/// the core through "scored against" links between components (it took every point from
/// the side it reaches), below when the core reaches it; a component the core neither
/// reaches nor is reached by is above when nobody outside it scored against it, else below.
fn component_sides(
    scored: &[bool],
    component: &[usize],
    count: usize,
    core: usize,
) -> Vec<Unbounded> {
    let m = component.len();
    let mut edge = vec![false; count * count];
    for a in 0..m {
        for b in 0..m {
            if scored[a * m + b] && component[a] != component[b] {
                edge[component[a] * count + component[b]] = true;
            }
        }
    }
    let reach = |from: usize, forward: bool| -> Vec<bool> {
        let mut seen = vec![false; count];
        seen[from] = true;
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            for y in 0..count {
                let linked = if forward {
                    edge[x * count + y]
                } else {
                    edge[y * count + x]
                };
                if linked && !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        seen
    };
    let below = reach(core, true);
    let above = reach(core, false);
    (0..count)
        .map(|c| {
            if above[c] && c != core {
                Unbounded::Above
            } else if below[c] && c != core {
                Unbounded::Below
            } else if (0..count).all(|x| !edge[x * count + c]) {
                Unbounded::Above
            } else {
                Unbounded::Below
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Games, Score};

    fn list(games: &[(&str, &str, Score)]) -> Games {
        let mut g = Games::new();
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
        // The loser is held at the rating it would have had with a draw: level with the
        // winner, an upper bound.
        let g = list(&[("a", "b", Score::Win)]);
        let r = Mle::new(MleConfig::new())
            .rate(&g.counts())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.unbounded, vec![None, Some(Unbounded::Below)]);
        assert!((r.ratings[0] - 1000.0).abs() < 1e-6, "{:?}", r.ratings);
        assert!((r.ratings[1] - 1000.0).abs() < 1e-6, "{:?}", r.ratings);
        assert_eq!(r.low[1], f64::NEG_INFINITY);
        assert!(r.converged);
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
        let mut g = Games::new();
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
        let mut g = Games::new();
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
                cycle_margin: 0.0,
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
