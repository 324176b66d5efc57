//! Whole-History Rating (Rémi Coulom, "Whole-History Rating: A Bayesian Rating System for
//! Players of Time-Varying Strength", Computers and Games 2008), made for Go servers.
//!
//! **Model.** Each player has a rating r(t) (natural scale, γ = e^r) at every time step t in
//! which it played. A game at t between i and j is Bradley–Terry: P(i wins) = γ_i/(γ_i + γ_j);
//! a draw counts as half a win and half a loss. The ratings of one player follow a Wiener
//! process: r(t₂) − r(t₁) ~ N(0, w²·|t₂ − t₁|). Each player also has Coulom's prior of one
//! virtual win and one virtual loss against a virtual opponent rated 0 on its first step
//! (it keeps an unbeaten player's rating finite). WHR finds the maximum a posteriori of all
//! ratings at all times at once.
//!
//! **Fit** (Coulom's section 3): Newton's method on one player's whole time series at a time,
//! the others held, cycling over the players until no player's last rating, less its group's
//! mean, moves by more than 10⁻³ Elo in a cycle (at most [`WhrConfig::iterations`] cycles; a
//! shift common to a group over time changes no difference and settles last). After each cycle every group of players
//! linked by games is shifted as a whole by the Newton step of that one shift: the games do
//! not see a common shift and only the virtual games hold it, so player-by-player steps
//! would take it ever more slowly the more games there are. One player's Hessian is tridiagonal (the
//! Wiener prior links neighbouring steps only): with p the win probability of a game,
//! the gradient at a step is Σ(s − p) + (prior terms (r_{k±1} − r_k)/(w²Δt)), the diagonal
//! −Σp(1 − p) − 1/(w²Δt) − ..., the off-diagonal 1/(w²Δt); the step solves the tridiagonal
//! system in O(T). The variance of the last rating is the last diagonal entry of (−H)⁻¹, the
//! reciprocal of the last pivot of the same elimination (Coulom's section 3.4: each player's
//! uncertainty with the others held).
//!
//! **Time steps** are the rating periods of [`crate::glicko2::PeriodRule`]: with dated games,
//! t is the date (a year; consecutive periods are its distinct runs); otherwise t counts
//! periods of fixed size. w² is in Elo² per unit of t; the default, 14, is Coulom's value for
//! the KGS Go server per day. Ratings are shown on the Elo scale (400/ln 10 times r) with the
//! virtual opponent at 1000, the average of [`crate::mle`].
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{whr::{Whr, WhrConfig}, Games, Score};
//! let mut games = Games::new();
//! games.add("a", "b", Score::Win, true, None);
//! let r = Whr::new(WhrConfig::new()).rate(&games);
//! assert!(r.ratings[0] > 1000.0 && (r.ratings[0] - 1000.0 + r.ratings[1] - 1000.0).abs() < 1e-3);
//! ```

use crate::{glicko2::PeriodRule, Games};
use std::f64::consts::LN_10;

/// Elo per natural-scale unit.
const ELO_PER_NATURAL: f64 = 400.0 / LN_10;

/// Settings of WHR.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WhrConfig {
    /// w², the Wiener variance in Elo² per unit of time (14: Coulom's value for KGS per day).
    pub w2: f64,
    /// How games are grouped into time steps.
    pub periods: PeriodRule,
    /// The most cycles of Newton's steps over all players.
    pub iterations: u32,
    /// The Elo of the virtual opponent of the prior (the scale's centre).
    pub offset: f64,
}

impl WhrConfig {
    /// Returns w² = 14, [`PeriodRule::Auto`], 200 cycles, the virtual opponent at 1000.
    #[must_use]
    pub const fn new() -> WhrConfig {
        WhrConfig {
            w2: 14.0,
            periods: PeriodRule::Auto,
            iterations: 200,
            offset: 1000.0,
        }
    }
}

impl Default for WhrConfig {
    fn default() -> WhrConfig {
        WhrConfig::new()
    }
}

/// Every player's rating at its last time step.
#[derive(Clone, Debug, PartialEq)]
pub struct WhrRatings {
    /// Rating at the player's last step (NaN for a player without games).
    pub ratings: Vec<f64>,
    /// Its standard error (Elo).
    pub errors: Vec<f64>,
    /// Each player's (time, rating) at every step it played.
    pub history: Vec<Vec<(f64, f64)>>,
    /// Cycles of Newton's steps done.
    pub iterations: u32,
    /// False when the cycles stopped at [`WhrConfig::iterations`] before settling.
    pub converged: bool,
}

/// One player's rating at one time step, and its games there.
#[derive(Clone, Debug)]
struct Step {
    time: f64,
    r: f64,
    /// Range into the entries: (opponent's step, points scored).
    first: usize,
    end: usize,
}

/// Whole-History Rating.
#[derive(Clone, Copy, Debug, Default)]
pub struct Whr {
    config: WhrConfig,
}

impl Whr {
    /// Creates the method with its settings.
    #[must_use]
    pub const fn new(config: WhrConfig) -> Whr {
        Whr { config }
    }

    /// Fits the ratings of every player at every step (the module's doc). Games of a player
    /// against itself are skipped.
    #[must_use]
    pub fn rate(&self, games: &Games) -> WhrRatings {
        let n = games.player_count();
        let list = games.games();
        let periods = self.config.periods.split(list, n);
        let times = step_times(list, &periods);
        // (player, period, opponent, points), sorted by player then period.
        let mut entries: Vec<(u32, u32, u32, f32)> = Vec::with_capacity(2 * list.len());
        for (k, range) in periods.iter().enumerate() {
            let k = u32::try_from(k).unwrap_or(u32::MAX);
            for g in &list[range.clone()] {
                if g.first == g.second {
                    continue;
                }
                let s = g.score.points() as f32;
                entries.push((g.first.0, k, g.second.0, s));
                entries.push((g.second.0, k, g.first.0, 1.0 - s));
            }
        }
        entries.sort_unstable_by_key(|e| (e.0, e.1));
        // Steps per player (contiguous).
        let mut steps: Vec<Step> = Vec::new();
        let mut step_period: Vec<u32> = Vec::new();
        let mut player_of_step: Vec<usize> = Vec::new();
        for (e, &(p, k, _, _)) in entries.iter().enumerate() {
            let p = p as usize;
            let new = match steps.last() {
                Some(_) => player_of_step.last() != Some(&p) || step_period.last() != Some(&k),
                None => true,
            };
            if new {
                steps.push(Step {
                    time: times[k as usize],
                    r: 0.0,
                    first: e,
                    end: e,
                });
                step_period.push(k);
                player_of_step.push(p);
            }
            if let Some(last) = steps.last_mut() {
                last.end = e + 1;
            }
        }
        // Each player's steps: first_step[p] .. the next player's first step.
        let mut bounds: Vec<(usize, usize)> = vec![(0, 0); n];
        {
            let mut s = 0;
            while s < steps.len() {
                let p = player_of_step[s];
                let start = s;
                while s < steps.len() && player_of_step[s] == p {
                    s += 1;
                }
                bounds[p] = (start, s);
            }
        }
        // Opponent's step for every entry (binary search on the opponent's periods).
        let opponent_step: Vec<usize> = entries
            .iter()
            .map(|&(_, k, o, _)| {
                let (a, b) = bounds[o as usize];
                a + step_period[a..b].partition_point(|&q| q < k)
            })
            .collect();
        let points: Vec<f64> = entries.iter().map(|e| f64::from(e.3)).collect();
        let w2 = self.config.w2 / (ELO_PER_NATURAL * ELO_PER_NATURAL);
        let mut iterations = 0;
        let mut converged = false;
        let mut scratch = Tridiagonal::default();
        let group = groups(n, &entries);
        let mut before = centred_last(&steps, &bounds, &group);
        while iterations < self.config.iterations {
            iterations += 1;
            for &(a, b) in &bounds {
                if a == b {
                    continue;
                }
                scratch.fill(&steps, a, b, &opponent_step, &points, w2);
                let mut delta = scratch.newton_step();
                // A full Newton step can overshoot on the logistic's flat tails: steps are
                // capped at 2 natural units (350 Elo), which leaves the fixed point as is.
                let big = delta.iter().fold(0.0f64, |m, d| m.max(d.abs()));
                if big > 2.0 {
                    delta.iter_mut().for_each(|d| *d *= 2.0 / big);
                }
                for (s, d) in steps[a..b].iter_mut().zip(&delta) {
                    s.r -= d;
                }
            }
            shift_groups(&mut steps, &bounds, &group);
            let now = centred_last(&steps, &bounds, &group);
            let largest = now
                .iter()
                .zip(&before)
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
            before = now;
            if largest * ELO_PER_NATURAL < 1e-3 {
                converged = true;
                break;
            }
        }
        let mut ratings = vec![f64::NAN; n];
        let mut errors = vec![f64::NAN; n];
        let mut history = vec![Vec::new(); n];
        for (p, &(a, b)) in bounds.iter().enumerate() {
            if a == b {
                continue;
            }
            scratch.fill(&steps, a, b, &opponent_step, &points, w2);
            ratings[p] = self.config.offset + steps[b - 1].r * ELO_PER_NATURAL;
            errors[p] = scratch.last_variance().sqrt() * ELO_PER_NATURAL;
            history[p] = steps[a..b]
                .iter()
                .map(|s| (s.time, self.config.offset + s.r * ELO_PER_NATURAL))
                .collect();
        }
        WhrRatings {
            ratings,
            errors,
            history,
            iterations,
            converged,
        }
    }
}

/// Returns each player's last rating less its group's mean last rating: what predictions and
/// the table use (a shift common to a group over time changes no difference between its
/// players, and only the prior holds it, so it settles last and is not waited for).
fn centred_last(steps: &[Step], bounds: &[(usize, usize)], group: &[usize]) -> Vec<f64> {
    let n = bounds.len();
    let mut sum = vec![0.0; n];
    let mut count = vec![0.0; n];
    for (p, &(a, b)) in bounds.iter().enumerate() {
        if a < b {
            sum[group[p]] += steps[b - 1].r;
            count[group[p]] += 1.0;
        }
    }
    bounds
        .iter()
        .enumerate()
        .map(|(p, &(a, b))| {
            if a < b {
                steps[b - 1].r - sum[group[p]] / count[group[p]]
            } else {
                0.0
            }
        })
        .collect()
}

/// Returns each player's group (players linked by games share one): union–find over the
/// entries (player, period, opponent, points).
fn groups(n: usize, entries: &[(u32, u32, u32, f32)]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for &(p, _, o, _) in entries {
        let (a, b) = (root(&mut parent, p as usize), root(&mut parent, o as usize));
        if a != b {
            parent[a] = b;
        }
    }
    (0..n).map(|p| root(&mut parent, p)).collect()
}

/// Shifts every group's ratings by the Newton step of one common shift δ (only the virtual
/// games at each player's first step depend on it: gradient Σ(1 − 2σ(r_first + δ)), curvature
/// Σ 2σ(1 − σ)).
fn shift_groups(steps: &mut [Step], bounds: &[(usize, usize)], group: &[usize]) {
    let n = bounds.len();
    let mut g = vec![0.0; n];
    let mut h = vec![0.0; n];
    for (p, &(a, b)) in bounds.iter().enumerate() {
        if a < b {
            let s = 1.0 / (1.0 + (-steps[a].r).exp());
            g[group[p]] += 1.0 - 2.0 * s;
            h[group[p]] += 2.0 * s * (1.0 - s);
        }
    }
    for (p, &(a, b)) in bounds.iter().enumerate() {
        let k = group[p];
        if a < b && h[k] > 0.0 {
            let delta = (g[k] / h[k]).clamp(-2.0, 2.0);
            steps[a..b].iter_mut().for_each(|s| s.r += delta);
        }
    }
}

/// The time of each period: its date where every period is dated and the dates rise,
/// else its index.
fn step_times(list: &[crate::GameRecord], periods: &[std::ops::Range<usize>]) -> Vec<f64> {
    let dates: Option<Vec<i32>> = periods.iter().map(|r| list[r.start].period).collect();
    match dates {
        Some(d) if d.windows(2).all(|w| w[0] < w[1]) => d.iter().map(|&y| f64::from(y)).collect(),
        _ => (0..periods.len()).map(|k| k as f64).collect(),
    }
}

/// The gradient and the negated Hessian (tridiagonal: `diag`, `off`) of one player's log
/// posterior over its steps.
#[derive(Debug, Default)]
struct Tridiagonal {
    gradient: Vec<f64>,
    diag: Vec<f64>,
    off: Vec<f64>,
}

impl Tridiagonal {
    fn fill(
        &mut self,
        steps: &[Step],
        a: usize,
        b: usize,
        opponent_step: &[usize],
        points: &[f64],
        w2: f64,
    ) {
        let t = b - a;
        self.gradient.clear();
        self.diag.clear();
        self.off.clear();
        for (k, s) in steps[a..b].iter().enumerate() {
            let (mut g, mut h) = (0.0, 0.0);
            for e in s.first..s.end {
                let p = 1.0 / (1.0 + (steps[opponent_step[e]].r - s.r).exp());
                g += points[e] - p;
                h += p * (1.0 - p);
            }
            if k == 0 {
                // One virtual win and one virtual loss against a player rated 0.
                let p = 1.0 / (1.0 + (-s.r).exp());
                g += 1.0 - 2.0 * p;
                h += 2.0 * p * (1.0 - p);
            }
            self.gradient.push(g);
            self.diag.push(h);
        }
        for k in 0..t.saturating_sub(1) {
            let dt = (steps[a + k + 1].time - steps[a + k].time).abs().max(1e-9);
            let v = w2 * dt;
            let (r0, r1) = (steps[a + k].r, steps[a + k + 1].r);
            let pull = (r1 - r0) / v;
            self.gradient[k] += pull;
            self.gradient[k + 1] -= pull;
            self.diag[k] += 1.0 / v;
            self.diag[k + 1] += 1.0 / v;
            self.off.push(-1.0 / v);
        }
    }

    /// Returns x with (−H)·x = −g (the Thomas algorithm), so that Newton's r_new = r − x.
    fn newton_step(&self) -> Vec<f64> {
        let t = self.diag.len();
        let mut c = vec![0.0; t];
        let mut d = vec![0.0; t];
        let mut pivot = self.diag[0];
        c[0] = if t > 1 { self.off[0] / pivot } else { 0.0 };
        d[0] = -self.gradient[0] / pivot;
        for k in 1..t {
            pivot = self.diag[k] - self.off[k - 1] * c[k - 1];
            if k + 1 < t {
                c[k] = self.off[k] / pivot;
            }
            d[k] = (-self.gradient[k] - self.off[k - 1] * d[k - 1]) / pivot;
        }
        for k in (0..t.saturating_sub(1)).rev() {
            d[k] -= c[k] * d[k + 1];
        }
        d
    }

    /// Returns ((−H)⁻¹)_TT, the reciprocal of the elimination's last pivot.
    fn last_variance(&self) -> f64 {
        let mut pivot = self.diag[0];
        for k in 1..self.diag.len() {
            pivot = self.diag[k] - self.off[k - 1] * self.off[k - 1] / pivot;
        }
        1.0 / pivot
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    /// One period, two players, a wins 2 of 3: each has the virtual win and loss against 0,
    /// so the posterior's maximum solves (by symmetry r_b = −r_a = −x)
    /// 2 − 3σ(2x) + 1 − 2σ(x) = 0, i.e. 3σ(2x) + 2σ(x) = 3, found here by bisection.
    #[test]
    fn a_single_period_matches_the_hand_solved_posterior() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Win, true, None);
        g.add("a", "b", Score::Win, true, None);
        let r = Whr::new(WhrConfig::new()).rate(&g);
        let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
        let (mut lo, mut hi) = (0.0, 5.0);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if 3.0 * sig(2.0 * mid) + 2.0 * sig(mid) < 3.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let x = lo * ELO_PER_NATURAL;
        assert!(r.converged);
        assert!(
            (r.ratings[0] - 1000.0 - x).abs() < 1e-3,
            "{:?} vs {x}",
            r.ratings
        );
        assert!((r.ratings[1] - 1000.0 + x).abs() < 1e-3);
        assert!(r.errors[0] > 0.0 && r.errors[0].is_finite());
    }

    /// Thousands of games among a few players: the common shift only the virtual games hold
    /// settles too (player-by-player steps alone stopped at 200 cycles here).
    #[test]
    fn a_long_history_settles() {
        let s = crate::synth::simulate(&crate::synth::SynthConfig {
            players: 3,
            games: 6000,
            seed: 2,
            ..crate::synth::SynthConfig::new()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let r = Whr::new(WhrConfig::new()).rate(&s.games);
        assert!(r.converged, "{} cycles", r.iterations);
        assert!(r.iterations < 100, "{} cycles", r.iterations);
    }

    /// With w² = 0 in effect (tiny), the ratings barely move between periods; with a large w²
    /// the player who improved late is rated at its later strength.
    #[test]
    fn the_wiener_variance_lets_a_rating_follow_the_results() {
        let mut g = Games::new();
        for year in [2000, 2001] {
            for _ in 0..20 {
                let s = if year == 2000 {
                    Score::Loss
                } else {
                    Score::Win
                };
                g.add("a", "b", s, true, Some(year));
                g.add("a", "c", Score::Draw, true, Some(year));
            }
        }
        let stiff = Whr::new(WhrConfig {
            w2: 1e-6,
            ..WhrConfig::new()
        })
        .rate(&g);
        let loose = Whr::new(WhrConfig {
            w2: 1e5,
            ..WhrConfig::new()
        })
        .rate(&g);
        let moved = |r: &WhrRatings| r.history[0][1].1 - r.history[0][0].1;
        assert_eq!(stiff.history[0].len(), 2);
        assert!(moved(&stiff).abs() < 1.0, "{}", moved(&stiff));
        assert!(moved(&loose) > 200.0, "{}", moved(&loose));
    }
}
