use std::path::PathBuf;
use thiserror::Error;

/// Errors in a tournament's settings.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The TOML is malformed or has wrong fields; the message names line and column.
    #[error("{path}: {message}")]
    Toml {
        /// The file.
        path: PathBuf,
        /// The parser's message, with line, column and what was expected.
        message: String,
    },
    /// A setting has a value that cannot work.
    #[error("{0}")]
    Invalid(String),
    /// An openings file could not be read.
    #[error("{path}:{line}: {message}")]
    Openings {
        /// The file.
        path: PathBuf,
        /// The 1-based line (or game start line).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A player spec is wrong.
    #[error(transparent)]
    Spec(#[from] eloworld_players::SpecError),
}

/// Errors from the results store.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The file exists but is not an SQLite database.
    #[error("{path} is not an eloworld database (not SQLite); choose another --db path")]
    NotADatabase {
        /// The file.
        path: String,
    },
    /// The file is another application's SQLite database: eloworld leaves it unchanged.
    #[error(
        "{path} is another application's SQLite database (tables: {tables}), not an eloworld \
         one; it was left unchanged: choose another --db path"
    )]
    ForeignDatabase {
        /// The file.
        path: String,
        /// Its tables, comma-separated (the first few).
        tables: String,
    },
    /// The file is empty: no tournament has been stored in it yet.
    #[error("{path} is an empty file: no games are stored in it yet")]
    EmptyFile {
        /// The file.
        path: String,
    },
    /// The database cannot be written.
    #[error("{path} is read-only: cannot store games there; make it writable or choose another --db path")]
    ReadOnly {
        /// The file.
        path: String,
    },
    /// The database file does not exist (readers never create one).
    #[error("no database at {path}")]
    Missing {
        /// The file.
        path: String,
    },
    /// The database holds a tournament of this name with another plan.
    #[error(
        "{path} already holds tournament {name:?} with a different plan ({what}); to resume it, run \
         the original settings again; to start a new tournament, give another --db or another name"
    )]
    PlanMismatch {
        /// The file.
        path: String,
        /// The tournament's name.
        name: String,
        /// What differs.
        what: String,
    },
    /// The database was written by a newer eloworld.
    #[error("{path} has schema version {found}, newer than this eloworld's {supported}; upgrade eloworld")]
    SchemaTooNew {
        /// The file.
        path: String,
        /// The version found.
        found: i64,
        /// The newest version this build knows.
        supported: i64,
    },
    /// The disk is full; what was stored before is intact.
    #[error("{path}: disk full; games stored before this point are intact, free space and run again to resume")]
    DiskFull {
        /// The file.
        path: String,
    },
    /// No tournament matches.
    #[error("{0}")]
    NotFound(String),
    /// Any other database error.
    #[error("{path}: {source}")]
    Sql {
        /// The file or connection.
        path: String,
        /// The cause.
        source: rusqlite::Error,
    },
    /// A backend error that is not SQLite's.
    #[error("{0}")]
    Backend(String),
    /// A tournament of a game this eloworld does not know (stored by a newer one).
    #[error("tournament {tournament:?} is a game of {game:?}, which this eloworld does not know; upgrade eloworld")]
    UnknownGame {
        /// The tournament.
        tournament: String,
        /// The stored game name.
        game: String,
    },
}

/// Errors that stop a tournament run.
#[derive(Debug, Error)]
pub enum RunError {
    /// A setting is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A player could not be built.
    #[error(transparent)]
    Spec(#[from] eloworld_players::SpecError),
    /// An opening position is not valid for the game.
    #[error("opening {index}: {source}")]
    Opening {
        /// The opening's index in the plan.
        index: usize,
        /// The cause.
        source: eloworld_games::GameError,
    },
    /// A worker thread panicked.
    #[error("a worker thread panicked: {0}")]
    WorkerPanicked(String),
}
