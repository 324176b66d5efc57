//! Phase 1's measure on its own: how often one evaluation's 1-ply search plays the
//! grandmaster's move on the training and the test positions (David–Koppel–Netanyahu,
//! section III.B; Fig. 3's parameters match 26.7% of the test moves there, the evolved
//! organism 32.4% of training and 30.4% of test).

use super::{read_eval, GmPositions};
use eloworld_app::AppResult;
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

impl ScoreSettings {
    /// Returns what is scored, and how: `Fig. 3's parameters, 1-ply search with quiescence`.
    #[must_use]
    pub fn describe(&self) -> String {
        let what = self.eval.as_ref().map_or_else(
            || "Fig. 3's parameters".to_owned(),
            |p| p.display().to_string(),
        );
        let how = match self.scoring {
            OnePlyScoring::Quiescence => "1-ply search with quiescence",
            OnePlyScoring::Static => "1-ply search, static evaluation",
        };
        format!("{what}, {how}")
    }
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
        crate::pct(self.matched as f64, self.positions)
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
    eloworld_app::ensure!(s.positions >= 1, "--positions must be at least 1");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_say_which_evaluation_is_scored_and_how() {
        let mut s = ScoreSettings {
            eval: None,
            positions: 10,
            source: GmPositions {
                pgn_dir: PathBuf::from("data/pgn"),
                min_elo: 2600,
                per_game: 16,
            },
            scoring: OnePlyScoring::Quiescence,
        };
        assert_eq!(
            s.describe(),
            "Fig. 3's parameters, 1-ply search with quiescence"
        );
        s.eval = Some(PathBuf::from("evolve/imitate-run1.params"));
        s.scoring = OnePlyScoring::Static;
        assert_eq!(
            s.describe(),
            "evolve/imitate-run1.params, 1-ply search, static evaluation"
        );
    }
}
