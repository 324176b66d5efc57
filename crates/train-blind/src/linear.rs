//! The linear model: per square a multinomial logistic regression (linfa-logistic, L-BFGS
//! with an L2 penalty) predicting the piece on the square from the 64 occupancy bits, fitted
//! on the training positions where the square is occupied, and one binary logistic
//! regression for the side to move.

use crate::{TrainError, TrainResult};
use eloworld_players::blind::dataset::Sample;
use eloworld_players::blind::model::{class_of, CLASSES, INPUTS, NEVER, ROW};
use eloworld_players::blind::BlindModel;
use linfa::prelude::*;
use linfa_logistic::{LogisticRegression, MultiLogisticRegression};
use ndarray::{Array1, Array2, Axis};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// How to fit the regressions.
#[derive(Clone, Copy, Debug)]
pub struct Fitting {
    /// The L2 penalty.
    pub alpha: f64,
    /// L-BFGS iterations per regression.
    pub iterations: u64,
    /// Threads fitting squares in parallel.
    pub threads: usize,
}

/// The occupancy bits of samples, one row each.
fn masks(samples: &[&Sample]) -> Array2<f64> {
    let mut x = Array2::zeros((samples.len(), INPUTS));
    for (i, s) in samples.iter().enumerate() {
        for sq in s.board.occupied() {
            x[[i, usize::from(sq)]] = 1.0;
        }
    }
    x
}

/// Fits the classifier of one square; returns its 12 rows of 64 weights and an intercept.
fn fit_square(
    square: usize,
    x: &Array2<f64>,
    samples: &[&Sample],
    f: &Fitting,
) -> TrainResult<Vec<f32>> {
    let sq = shakmaty::Square::new(square as u32);
    let rows: Vec<usize> = (0..samples.len())
        .filter(|&i| samples[i].board.occupied().contains(sq))
        .collect();
    let targets: Array1<usize> = rows
        .iter()
        .map(|&i| samples[i].board.piece_at(sq).map_or(0, class_of))
        .collect();
    let mut weights = vec![0.0f32; CLASSES * ROW];
    for class in 0..CLASSES {
        weights[class * ROW + INPUTS] = NEVER;
    }
    let mut seen: Vec<usize> = targets.to_vec();
    seen.sort_unstable();
    seen.dedup();
    match seen.as_slice() {
        [] => return Ok(weights),
        [only] => {
            weights[only * ROW + INPUTS] = 0.0;
            return Ok(weights);
        }
        _ => {}
    }
    let records = x.select(Axis(0), &rows);
    let dataset = Dataset::new(records, targets);
    let fitted = MultiLogisticRegression::default()
        .alpha(f.alpha)
        .max_iterations(f.iterations)
        .fit(&dataset)
        .map_err(|source| TrainError::Fit {
            what: format!("square {sq}"),
            source,
        })?;
    for (k, &class) in fitted.classes().iter().enumerate() {
        for j in 0..INPUTS {
            weights[class * ROW + j] = fitted.params()[[j, k]] as f32;
        }
        weights[class * ROW + INPUTS] = fitted.intercept()[k] as f32;
    }
    Ok(weights)
}

/// Fits the side-to-move classifier: the logit of White to move.
fn fit_turn(x: &Array2<f64>, samples: &[&Sample], f: &Fitting) -> TrainResult<[f32; ROW]> {
    let targets: Array1<usize> = samples
        .iter()
        .map(|s| usize::from(s.turn == shakmaty::Color::White))
        .collect();
    let fitted = LogisticRegression::default()
        .alpha(f.alpha)
        .max_iterations(f.iterations)
        .fit(&Dataset::new(x.clone(), targets))
        .map_err(|source| TrainError::Fit {
            what: "the side to move".to_owned(),
            source,
        })?;
    // linfa labels the larger class (1, White) positive.
    let sign = if fitted.labels().pos.class == 1 {
        1.0
    } else {
        -1.0
    };
    let mut row = [0.0f32; ROW];
    for (w, &p) in row.iter_mut().zip(fitted.params().iter()) {
        *w = (sign * p) as f32;
    }
    row[INPUTS] = (sign * fitted.intercept()) as f32;
    Ok(row)
}

/// Fits the model on `train`; `fitted` hears the number of squares fitted so far after each.
///
/// # Errors
/// A regression that cannot be fitted.
pub fn fit(
    train: &[&Sample],
    f: &Fitting,
    fitted: impl Fn(usize) + Sync,
) -> TrainResult<BlindModel> {
    let x = masks(train);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; 64]);
    let failure: Mutex<Option<TrainError>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..f.threads.max(1) {
            scope.spawn(|| loop {
                let square = next.fetch_add(1, Ordering::Relaxed);
                if square >= 64 {
                    break;
                }
                match fit_square(square, &x, train, f) {
                    Ok(w) => {
                        if let Ok(mut r) = results.lock() {
                            r[square] = Some(w);
                        }
                        fitted(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    Err(e) => {
                        if let Ok(mut slot) = failure.lock() {
                            slot.get_or_insert(e);
                        }
                        next.store(64, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut squares = Vec::with_capacity(64 * CLASSES * ROW);
    for w in results.into_inner().unwrap_or_default() {
        squares.extend(w.ok_or_else(|| TrainError::Invalid("a square was not fitted".into()))?);
    }
    let turn = fit_turn(&x, train, f)?;
    let positions = u32::try_from(train.len()).unwrap_or(u32::MAX);
    Ok(BlindModel::new(positions, squares, turn)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_players::blind::KingRule;
    use shakmaty::{Board, Color};

    #[test]
    fn the_start_position_alone_is_learnt_square_by_square() {
        // One position: every occupied square has one class seen, fitted without L-BFGS.
        let sample = Sample {
            game: 0,
            board: Board::default(),
            turn: Color::White,
        };
        let squares = std::sync::atomic::AtomicUsize::new(0);
        let f = Fitting {
            alpha: 1e-3,
            iterations: 5,
            threads: 2,
        };
        let model = fit(&[&sample, &sample], &f, |n| {
            squares.fetch_max(n, Ordering::Relaxed);
        });
        // Both samples have White to move: a one-class side-to-move regression fails.
        assert!(matches!(model, Err(TrainError::Fit { .. })), "{model:?}");
        assert_eq!(squares.load(Ordering::Relaxed), 64);
        let black = Sample {
            turn: Color::Black,
            ..sample.clone()
        };
        let model = fit(&[&sample, &black], &f, |_| {}).unwrap();
        let p = model
            .unblind(Board::default().occupied(), KingRule::Free)
            .unwrap();
        assert_eq!(p.board, Board::default());
    }
}
