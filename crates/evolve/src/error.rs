//! The errors of the evolution crate.

use std::path::PathBuf;

/// What can go wrong while evolving.
#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    /// The checkpoint database failed.
    #[error("checkpoint database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A run of that name exists in the checkpoint with other settings.
    #[error("run {run:?} in the checkpoint was started with other settings:\n  stored: {stored}\n  given:  {given}\n(use another --run name or checkpoint file, or the same settings to resume)")]
    SettingsMismatch {
        /// The run's name.
        run: String,
        /// The settings stored with the run.
        stored: String,
        /// The settings of this call.
        given: String,
    },
    /// A checkpoint row could not be read back.
    #[error("checkpoint run {run:?} generation {generation}: {reason}")]
    Corrupt {
        /// The run's name.
        run: String,
        /// The generation.
        generation: usize,
        /// What was wrong.
        reason: String,
    },
    /// A file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Bad input data or settings.
    #[error("{0}")]
    Input(String),
    /// A chess input file (PGN or EPD) that cannot be read, named with its line.
    #[error(transparent)]
    ChessInput(#[from] eloworld_games::chess::input::InputError),
    /// A generation's games could not be played or stored.
    #[error("playing a generation's games: {0}")]
    Games(#[from] eloworld_tournament::RunError),
    /// The engine rejected parameters.
    #[error(transparent)]
    Engine(#[from] eloworld_engine::EngineError),
}
