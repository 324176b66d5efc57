//! Training the blind players' model (Murphy's Elo World, section 2.4; "Color- and
//! piece-blind chess", SIGBOVIK 2019) on the positions of PGN games, and measuring how well
//! it predicts held-out games' positions next to the paper's network.
//!
//! Two models: [`mlp`], a small neural network trained with candle; [`linear`], per square a
//! multinomial logistic regression (linfa-logistic, L-BFGS with an L2 penalty) predicting the
//! piece on the square from the 64 occupancy bits, and one binary logistic regression for
//! the side to move. Both are exported into an `eloworld_players::blind::BlindModel`, whose
//! plain-Rust forward pass the players run: this crate (and its ML stack) is needed only to
//! train, so it is a program of its own (`eloworld-train-blind`, this crate's binary) and the
//! `eloworld` command carries none of it.

pub mod linear;
pub mod mlp;

use eloworld_games::chess::input::{self, InputError, PgnReader};
use eloworld_players::blind::dataset::{collect, Collected, Sample};
use eloworld_players::blind::model::ModelFileError;
use eloworld_players::blind::{Accuracy, BlindModel, KingRule};
use std::path::{Path, PathBuf};

/// Murphy's network on 50,000 held-out lichess positions ("Color- and piece-blind chess"):
/// (king rule, piece mistakes per position, positions predicted exactly in percent), without
/// and with the rule of one king per side.
pub const PAPER: [(&str, f64, f64); 2] =
    [("free", 3.22, 19.17), ("one king per side", 3.26, 19.28)];

/// What training can fail with.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A setting or input that does not fit.
    #[error("{0}")]
    Invalid(String),
    /// A PGN file or directory that cannot be read.
    #[error(transparent)]
    Pgn(#[from] InputError),
    /// The network's tensors (candle).
    #[error("the network: {0}")]
    Network(#[from] candle_core::Error),
    /// A logistic regression that could not be fitted.
    #[error("fitting {what}: {source}")]
    Fit {
        /// What was being fitted (a square, the side to move).
        what: String,
        /// linfa's error.
        #[source]
        source: linfa_logistic::error::Error,
    },
    /// A model that cannot be made, read or written.
    #[error(transparent)]
    Model(#[from] ModelFileError),
    /// A directory that cannot be created.
    #[error("creating {path}: {source}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}

/// Training's result.
pub type TrainResult<T> = Result<T, TrainError>;

/// Returns the PGN files `paths` name: files as they are, directories' `*.pgn` sorted.
///
/// # Errors
/// A directory that cannot be read, or no PGN file at all.
pub fn pgn_files(paths: &[PathBuf]) -> TrainResult<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            files.extend(input::pgn_files(path)?);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        return Err(TrainError::Invalid(format!(
            "no PGN file in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(files)
}

/// Reads every `stride`-th position of the standard games in `files`, numbering the games
/// across files.
///
/// # Errors
/// A file that cannot be read, naming it and the line.
pub fn read_samples(files: &[PathBuf], stride: usize) -> TrainResult<(Vec<Sample>, Collected)> {
    let mut collected = Collected::default();
    let mut samples = Vec::new();
    for path in files {
        collect(PgnReader::open(path)?, stride, &mut collected, &mut samples)?;
    }
    Ok((samples, collected))
}

/// Measures `model` on the held-out positions, without and with the rule of one king per
/// side (the order of [`PAPER`]).
#[must_use]
pub fn evaluate(model: &BlindModel, test: &[&Sample]) -> [Accuracy; 2] {
    let mut out = [Accuracy::default(); 2];
    for (acc, rule) in out.iter_mut().zip([KingRule::Free, KingRule::OnePerSide]) {
        for s in test {
            let p = model.unblind(s.board.occupied(), rule);
            acc.add(&s.board, s.turn, p.as_ref());
        }
    }
    out
}

/// Writes `model` to `path`, creating its directory.
///
/// # Errors
/// The directory or the file cannot be written.
pub fn write(model: &BlindModel, path: &Path) -> TrainResult<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| TrainError::Io {
            path: dir.to_owned(),
            source,
        })?;
    }
    Ok(model.write(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_pgn_files_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let e = pgn_files(&[dir.path().to_owned()]).unwrap_err().to_string();
        assert!(e.starts_with("no PGN file in "), "{e}");
        assert!(e.contains(&dir.path().display().to_string()), "{e}");
    }

    #[test]
    fn a_model_is_written_into_a_new_directory_and_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new").join("m.bin");
        let model = mlp::Net::new(&[8], 1).unwrap().export().unwrap();
        write(&model, &path).unwrap();
        assert_eq!(BlindModel::read(&path).unwrap(), model);
    }
}
