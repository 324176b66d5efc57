//! Which model predicts a field best: K-fold cross-validation over the games, scored by the log
//! loss and the Brier score of each game's win/draw/loss outcome (how the Kaggle "Elo versus
//! the Rest of the World" and FIDE/Deloitte rating competitions judged rating systems).
//!
//! **Folds.** The games, in the order played, are cut into K consecutive blocks of ⌊N/K⌋ or
//! ⌈N/K⌉ games (block b holds games ⌊bN/K⌋ .. ⌊(b+1)N/K⌋). Blocks 2..K are the test blocks in
//! turn; block 1 only trains (nothing precedes it), so every method is scored on the same
//! games. For a test block, the order-free methods (maximum likelihood, Elo World, Rollason,
//! BayesElo) are fitted to the games of every other block; the time-ordered methods (US
//! Chess, Glicko-2, TrueSkill, WHR) to the games before the block only, as they would be used
//! live. Each method's state after training predicts every game of the block.
//!
//! **Probabilities.** A method with its own draw model predicts with it: maximum likelihood
//! with Davidson's ν and the advantage fitted with the ratings (see [`crate::mle`]); BayesElo
//! with eloAdvantage and eloDraw fitted (its `mm 1 1`); TrueSkill with its draw margin set
//! from the training games' draw rate. The others give an Elo difference d per pair (Glicko-2:
//! the difference whose logistic is its expected score, deviations included), turned into
//! win/draw/loss by Davidson's model with a first-move advantage A and a draw parameter ν
//! fitted to the training games by maximum likelihood, the ratings held (x = 10^((d+A)/800),
//! P(win) = x/(x + 1/x + ν), P(draw) = ν/(x + 1/x + ν); A only where colours are known). A player
//! a method did not rate is predicted at d = 0 against everyone. Methods without pairwise
//! probabilities (p(Champion), Nash averaging, α-Rank) are not scored.
//!
//! **Scores**, averaged over the test games: log loss −ln P(outcome) (probabilities held above
//! 10⁻¹⁵, as Kaggle clips them; ln 3 ≈ 1.0986 for a uniform guess), and the Brier score
//! Σ_k (P_k − o_k)² over the three outcomes (0 is perfect, 2 the worst). Work is on counts
//! per (White, Black) cell of each block, so a million games cost a few passes over the list.
//!
//! # Quickstart
//! ```
//! use eloworld_ratings::{predict::cross_validate, synth::{simulate, SynthConfig}, Method, Options};
//! let s = simulate(&SynthConfig { players: 6, games: 3000, draw_nu: 1.0, ..SynthConfig::new() })?;
//! let cv = cross_validate(&s.games, &Options::default(), 5)?;
//! assert!(cv.scores.iter().all(|p| p.log_loss < 3f64.ln()));
//! assert!(cv.scores.windows(2).all(|w| w[0].log_loss <= w[1].log_loss));
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```

use crate::{
    bayeselo::{BayesElo, BayesEloConfig},
    glicko2::Glicko2,
    method::rate_counted,
    mle::{Advantage, DrawModel, Mle, MleConfig},
    trueskill::{TrueSkill, TrueSkillConfig},
    whr::Whr,
    Games, Method, Options, PairCounts, RatingError,
};
use rayon::prelude::*;

/// The methods scored, in the order they are computed.
pub const PREDICTORS: [Method; 8] = [
    Method::Mle,
    Method::Uscf,
    Method::EloWorld,
    Method::Rollason,
    Method::Glicko2,
    Method::TrueSkill,
    Method::Whr,
    Method::BayesElo,
];

/// The smallest probability scored (Kaggle's clip).
const CLIP: f64 = 1e-15;

/// One method's held-out scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// The method.
    pub method: Method,
    /// Mean log loss over the test games.
    pub log_loss: f64,
    /// Mean Brier score over the test games (three outcomes).
    pub brier: f64,
    /// How its win/draw/loss probabilities were made.
    pub draw_model: &'static str,
}

/// The cross-validation of every method that yields probabilities.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossValidation {
    /// Scores, lowest log loss first.
    pub scores: Vec<Prediction>,
    /// Methods that could not be scored, with the reason (a fold they cannot rate).
    pub skipped: Vec<(Method, String)>,
    /// Number of folds K.
    pub folds: usize,
    /// Games scored (every block but the first).
    pub test_games: u64,
}

/// One fold's summed log loss and Brier score of a method, and how it made its probabilities.
type FoldScore = Result<(f64, f64, &'static str), RatingError>;

/// Win/draw/loss probabilities of the first player for every ordered cell, colours known and
/// not: index `(coloured as usize) * n * n + first * n + second`.
struct Table {
    n: usize,
    p: Vec<[f64; 3]>,
}

impl Table {
    fn new(n: usize, f: impl Fn(usize, usize, bool) -> [f64; 3]) -> Table {
        let mut p = Vec::with_capacity(2 * n * n);
        for coloured in [false, true] {
            for i in 0..n {
                for j in 0..n {
                    p.push(f(i, j, coloured));
                }
            }
        }
        Table { n, p }
    }

    fn get(&self, i: usize, j: usize, coloured: bool) -> [f64; 3] {
        self.p[usize::from(coloured) * self.n * self.n + i * self.n + j]
    }
}

/// Log loss and Brier summed over a cell's games ([losses, draws, wins] of the first player)
/// under probabilities [win, draw, loss].
#[must_use]
pub fn cell_scores(p: [f64; 3], counts: [u32; 3]) -> (f64, f64) {
    let outcome = [counts[2], counts[1], counts[0]];
    let mut log_loss = 0.0;
    let mut brier = 0.0;
    for (k, &c) in outcome.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let c = f64::from(c);
        log_loss -= c * p[k].max(CLIP).ln();
        let b: f64 = (0..3)
            .map(|m| (p[m] - if m == k { 1.0 } else { 0.0 }).powi(2))
            .sum();
        brier += c * b;
    }
    (log_loss, brier)
}

/// Davidson's probabilities for a gap `d` (Elo, advantage included) and draw parameter ν.
fn davidson(d: f64, nu: f64) -> [f64; 3] {
    let x = 10f64.powf(d / 800.0);
    let z = x + 1.0 / x + nu;
    [x / z, nu / z, 1.0 / x / z]
}

/// Fits A and ν of Davidson's model to `counts` with the gaps `gap(i, j)` held, by golden
/// sections on A ∈ [−400, 400] and ln ν ∈ [−20, 5], three rounds each in turn (the
/// likelihood is concave in each).
fn fit_davidson(counts: &PairCounts, gap: &dyn Fn(usize, usize) -> f64) -> (f64, f64) {
    let n = counts.n();
    let mut cells: Vec<(f64, bool, [u32; 3])> = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            for (coloured, c) in [
                (true, counts.coloured(i, j)),
                (false, counts.uncoloured(i, j)),
            ] {
                if c.iter().any(|&x| x > 0) {
                    cells.push((gap(i, j), coloured, c));
                }
            }
        }
    }
    let has_colours = cells.iter().any(|c| c.1);
    let loss = |a: f64, ln_nu: f64| -> f64 {
        cells
            .iter()
            .map(|&(d, coloured, c)| {
                let d = if coloured { d + a } else { d };
                cell_scores(davidson(d, ln_nu.exp()), c).0
            })
            .sum()
    };
    let golden = |lo: f64, hi: f64, f: &dyn Fn(f64) -> f64| -> f64 {
        let r = 0.5 * (5f64.sqrt() - 1.0);
        let (mut a, mut b) = (lo, hi);
        for _ in 0..60 {
            let c = b - r * (b - a);
            let d = a + r * (b - a);
            if f(c) < f(d) {
                b = d;
            } else {
                a = c;
            }
        }
        0.5 * (a + b)
    };
    let (mut a, mut ln_nu) = (0.0, 0.0);
    for _ in 0..3 {
        ln_nu = golden(-20.0, 5.0, &|v| loss(a, v));
        if has_colours {
            a = golden(-400.0, 400.0, &|v| loss(v, ln_nu));
        }
    }
    (a, ln_nu.exp())
}

/// A method's probabilities, trained on `counts` (order-free) or on the first `before` games
/// (time-ordered).
fn train(
    method: Method,
    games: &Games,
    before: usize,
    counts: &PairCounts,
    options: &Options,
) -> Result<(Table, &'static str), RatingError> {
    let n = games.player_count();
    let earlier = || games.prefix(before);
    // An Elo gap per pair, turned into probabilities by Davidson's model fitted here.
    let calibrated = |gap: &dyn Fn(usize, usize) -> f64| {
        let safe = |i: usize, j: usize| {
            let d = gap(i, j);
            if d.is_finite() {
                d
            } else {
                0.0
            }
        };
        let (a, nu) = fit_davidson(counts, &safe);
        Table::new(n, |i, j, coloured| {
            davidson(safe(i, j) + if coloured { a } else { 0.0 }, nu)
        })
    };
    const FITTED: &str = "Davidson ν and advantage fitted on the training games";
    Ok(match method {
        Method::Mle => {
            let config = MleConfig {
                draw_model: DrawModel::Davidson,
                advantage: Advantage::Fit,
                anchor: None,
                bootstrap: 0,
                ..options.mle
            };
            let r = Mle::new(config).rate(counts)?;
            let nu = r.draw_nu.unwrap_or(0.0);
            let a = r.advantage.0;
            let gap = |i: usize, j: usize| {
                let d = r.ratings[i] - r.ratings[j];
                if d.is_finite() && r.group[i] == r.group[j] {
                    d
                } else {
                    0.0
                }
            };
            (
                Table::new(n, |i, j, coloured| {
                    davidson(gap(i, j) + if coloured { a } else { 0.0 }, nu)
                }),
                "its own Davidson ν and advantage",
            )
        }
        Method::Uscf => {
            let r = rate(&earlier(), options, method)?;
            (calibrated(&|i, j| r[i] - r[j]), FITTED)
        }
        Method::EloWorld | Method::Rollason => {
            let r = rate_counted(games, counts, &options.without_anchor(method))?.values;
            (calibrated(&|i, j| r[i] - r[j]), FITTED)
        }
        Method::Glicko2 => {
            let r = Glicko2::new(options.glicko2).rate(&earlier());
            (
                calibrated(&|i, j| crate::convert::elo_difference(r.expected_score(i, j))),
                FITTED,
            )
        }
        Method::Whr => {
            let r = Whr::new(options.whr).rate(&earlier()).ratings;
            (calibrated(&|i, j| r[i] - r[j]), FITTED)
        }
        Method::TrueSkill => {
            let totals = counts
                .totals()
                .into_iter()
                .fold(crate::Wdl::default(), |mut t, x| {
                    t += x;
                    t
                });
            let all = totals.games().max(1) as f64;
            let config = TrueSkillConfig {
                draw_probability: (totals.draws as f64 / all).clamp(1e-9, 0.999),
                ..options.trueskill
            };
            let r = TrueSkill::new(config).rate(&earlier());
            (
                Table::new(n, |i, j, _| r.probabilities(i, j)),
                "its own draw margin, from the training games' draw rate",
            )
        }
        Method::BayesElo => {
            let config = BayesEloConfig {
                fit_advantage: true,
                fit_draw: true,
                ..options.bayeselo
            };
            let r = BayesElo::new(config).rate(counts);
            (
                Table::new(n, |i, j, coloured| {
                    if r.elo[i].is_finite() && r.elo[j].is_finite() {
                        r.probabilities(i, j, coloured)
                    } else {
                        let mut even = r.clone();
                        even.elo = vec![0.0; 2];
                        even.probabilities(0, 1, coloured)
                    }
                }),
                "its own eloAdvantage and eloDraw, fitted (mm 1 1)",
            )
        }
        Method::Markov | Method::Nash | Method::AlphaRank => {
            return Err(RatingError::InvalidParameter {
                name: "method",
                reason: format!("{method} gives no win/draw/loss probabilities"),
            })
        }
    })
}

/// Rates the time-ordered `earlier` games by `method` and returns the values.
fn rate(earlier: &Games, options: &Options, method: Method) -> Result<Vec<f64>, RatingError> {
    Ok(crate::rate(earlier, &options.without_anchor(method))?.values)
}

/// Cross-validates every method of [`PREDICTORS`] over `folds` consecutive blocks of the
/// games (the module's doc), in parallel.
///
/// # Errors
/// [`RatingError::InvalidParameter`] for fewer than 2 folds or fewer games than folds;
/// [`RatingError::NoGames`] without games between two players.
pub fn cross_validate(
    games: &Games,
    options: &Options,
    folds: usize,
) -> Result<CrossValidation, RatingError> {
    let list = games.games();
    if folds < 2 {
        return Err(RatingError::InvalidParameter {
            name: "folds",
            reason: format!("at least 2, not {folds}"),
        });
    }
    if list.len() < folds {
        return Err(RatingError::InvalidParameter {
            name: "folds",
            reason: format!(
                "{folds} folds need at least {folds} games, not {}",
                list.len()
            ),
        });
    }
    if games.counts().groups().iter().all(|g| g.len() < 2) {
        return Err(RatingError::NoGames);
    }
    let n = games.player_count();
    let bound = |b: usize| b * list.len() / folds;
    let blocks: Vec<PairCounts> = (0..folds)
        .into_par_iter()
        .map(|b| PairCounts::from_games(n, &list[bound(b)..bound(b + 1)]))
        .collect();
    let jobs: Vec<(Method, usize)> = PREDICTORS
        .iter()
        .flat_map(|&m| (1..folds).map(move |b| (m, b)))
        .collect();
    let results: Vec<(Method, FoldScore)> = jobs
        .par_iter()
        .map(|&(method, b)| {
            let test = &blocks[b];
            let mut training = PairCounts::new(n);
            for (k, block) in blocks.iter().enumerate() {
                if k != b {
                    training.merge(block);
                }
            }
            let scored = train(method, games, bound(b), &training, options).map(|(table, how)| {
                let (mut ll, mut br) = (0.0, 0.0);
                for i in 0..n {
                    for j in 0..n {
                        if i == j {
                            continue;
                        }
                        for coloured in [true, false] {
                            let c = if coloured {
                                test.coloured(i, j)
                            } else {
                                test.uncoloured(i, j)
                            };
                            if c.iter().any(|&x| x > 0) {
                                let (l, s) = cell_scores(table.get(i, j, coloured), c);
                                ll += l;
                                br += s;
                            }
                        }
                    }
                }
                (ll, br, how)
            });
            (method, scored)
        })
        .collect();
    let test_games: u64 = blocks[1..]
        .iter()
        .map(|c| c.totals().iter().map(crate::Wdl::games).sum::<u64>() / 2)
        .sum();
    let mut scores = Vec::new();
    let mut skipped = Vec::new();
    for method in PREDICTORS {
        let mut total = (0.0, 0.0);
        let mut how = "";
        let mut failed = None;
        for (m, r) in results.iter().filter(|(m, _)| *m == method) {
            match r {
                Ok((l, b, h)) => {
                    total.0 += l;
                    total.1 += b;
                    how = h;
                }
                Err(e) => {
                    failed.get_or_insert_with(|| format!("{m}: {e}"));
                }
            }
        }
        match failed {
            Some(why) => skipped.push((method, why)),
            None => scores.push(Prediction {
                method,
                log_loss: total.0 / test_games.max(1) as f64,
                brier: total.1 / test_games.max(1) as f64,
                draw_model: how,
            }),
        }
    }
    scores.sort_by(|a, b| a.log_loss.total_cmp(&b.log_loss));
    Ok(CrossValidation {
        scores,
        skipped,
        folds,
        test_games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{simulate, SynthConfig};

    /// P = (½, ⅕, 3/10) for (win, draw, loss); one win and one draw: log loss
    /// −(ln ½ + ln ⅕), Brier (¼ + 0.04 + 0.09) + (¼ + 0.64 + 0.09).
    #[test]
    fn cell_scores_by_hand() {
        let (l, b) = cell_scores([0.5, 0.2, 0.3], [0, 1, 1]);
        assert!((l + 0.5f64.ln() + 0.2f64.ln()).abs() < 1e-12);
        assert!((b - (0.38 + 0.98)).abs() < 1e-12);
        let (l, _) = cell_scores([1.0, 0.0, 0.0], [1, 0, 0]);
        assert!((l - 1e15f64.ln()).abs() < 1e-9, "a certain miss is clipped");
    }

    /// Games drawn from Davidson's model with known strengths: the best log loss is close to
    /// the truth's own (the model's expected log loss on the test games), and every method
    /// beats a uniform guess.
    #[test]
    fn the_models_come_close_to_the_truth_on_a_transitive_field() {
        let config = SynthConfig {
            players: 8,
            games: 20_000,
            draw_nu: 0.8,
            advantage: 30.0,
            seed: 4,
            ..SynthConfig::new()
        };
        let s = simulate(&config).unwrap_or_else(|e| panic!("{e}"));
        let cv = cross_validate(&s.games, &Options::default(), 4).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cv.test_games, 15_000);
        assert_eq!(cv.scores.len() + cv.skipped.len(), PREDICTORS.len());
        let list = &s.games.games()[5_000..];
        let truth: f64 = list
            .iter()
            .map(|g| {
                let d = s.strengths[g.first.index()] - s.strengths[g.second.index()] + 30.0;
                let p = davidson(d, 0.8);
                let k = match g.score {
                    crate::Score::Win => 0,
                    crate::Score::Draw => 1,
                    crate::Score::Loss => 2,
                };
                -p[k].ln()
            })
            .sum::<f64>()
            / list.len() as f64;
        let best = &cv.scores[0];
        assert!(best.log_loss - truth < 0.01, "{best:?} vs truth {truth}");
        assert!(best.log_loss > truth - 0.02, "{best:?} vs truth {truth}");
        for p in &cv.scores {
            assert!(p.log_loss < 3f64.ln(), "{p:?}");
            assert!(p.brier < 2.0 / 3.0, "{p:?}");
        }
        let mle = cv.scores.iter().find(|p| p.method == Method::Mle);
        assert!(mle.is_some_and(|p| p.log_loss - truth < 0.01), "{mle:?}");
    }

    #[test]
    fn folds_are_checked() {
        let s = simulate(&SynthConfig {
            players: 3,
            games: 10,
            ..SynthConfig::new()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(cross_validate(&s.games, &Options::default(), 1).is_err());
        assert!(cross_validate(&s.games, &Options::default(), 11).is_err());
        assert!(cross_validate(&s.games, &Options::default(), 10).is_ok());
    }
}
