//! Phase 1's measure on its own: how often one evaluation's 1-ply search plays the
//! grandmaster's move on the training and the test positions (David–Koppel–Netanyahu,
//! section III.B; Fig. 3's parameters match 26.7% of the test moves there, the evolved
//! organism 32.4% of training and 30.4% of test).

use super::{read_eval, GmPositions};
use crate::error::AppResult;
use eloworld_engine::one_ply::{OnePlyScoring, Weights};
use eloworld_evolve::imitate::{self, LoadedDataset, PositionSet};
use std::path::PathBuf;

/// What to score.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreSettings {
    /// The evaluation parameters (default Fig. 3's).
    pub eval: Option<PathBuf>,
    /// Most positions in each of the training and test sets.
    pub positions: usize,
    /// The grandmaster games.
    pub source: GmPositions,
    /// How each move is scored: quiescence (phase 1's search) or the static evaluation.
    pub scoring: OnePlyScoring,
}

/// One set's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetScore {
    /// `train` or `test`.
    pub name: &'static str,
    /// Grandmaster moves matched.
    pub matched: usize,
    /// Positions in the set.
    pub positions: usize,
}

impl SetScore {
    /// Matched moves in percent.
    #[must_use]
    pub fn percent(&self) -> f64 {
        super::pct(self.matched as f64, self.positions)
    }
}

/// The scores on both sets, and what was read.
#[derive(Clone, Debug)]
pub struct ImitationScore {
    /// The positions and how they were read.
    pub loaded: LoadedDataset,
    /// Training, then test.
    pub scores: [SetScore; 2],
}

/// Scores one evaluation on phase 1's positions.
///
/// # Errors
/// No positions asked for, a bad parameter file, or the games cannot be read.
pub fn score_imitation(s: &ScoreSettings) -> AppResult<ImitationScore> {
    crate::ensure!(s.positions >= 1, "--positions must be at least 1");
    let params = read_eval(s.eval.as_deref())?;
    let config = s.source.dataset(s.positions, s.positions);
    let loaded = imitate::load_dataset(&s.source.pgn_dir, &config)?;
    let weights = [Weights::new(&params)];
    let score = |name, set: &PositionSet| SetScore {
        name,
        matched: set.matches_each(&weights, s.scoring)[0],
        positions: set.len(),
    };
    let scores = [
        score("train", &loaded.data.train),
        score("test", &loaded.data.test),
    ];
    Ok(ImitationScore { loaded, scores })
}
