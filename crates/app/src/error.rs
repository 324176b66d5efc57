//! What a use case can fail with: the error of the crate below that failed, or a
//! setting that does not fit, each with the context it failed in.

use std::fmt::Display;

/// A use case's error. Its `Display` is one line; the chain of sources says where.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A setting or input that does not fit (a front end reports it as a usage error).
    #[error("{0}")]
    Invalid(String),
    /// A tournament's settings.
    #[error(transparent)]
    Config(#[from] eloworld_tournament::ConfigError),
    /// Playing games.
    #[error(transparent)]
    Run(#[from] eloworld_tournament::RunError),
    /// The results store.
    #[error(transparent)]
    Store(#[from] eloworld_tournament::StoreError),
    /// A player spec or player.
    #[error(transparent)]
    Spec(#[from] eloworld_players::SpecError),
    /// A player's move or start.
    #[error(transparent)]
    Player(#[from] eloworld_players::PlayerError),
    /// A player's own files (engine definitions).
    #[error(transparent)]
    EngineFile(#[from] eloworld_players::engine::EngineFileError),
    /// A game's rules or records.
    #[error(transparent)]
    Game(#[from] eloworld_games::GameError),
    /// A rating method.
    #[error(transparent)]
    Rating(#[from] eloworld_ratings::RatingError),
    /// A file of games to rate (PGN, CSV) or of true strengths.
    #[error(transparent)]
    Read(#[from] eloworld_ratings_io::ReadError),
    /// A ladder file.
    #[error(transparent)]
    Ladder(#[from] eloworld_ladder::ladder::LadderError),
    /// The genetic algorithm.
    #[error(transparent)]
    Evolve(#[from] eloworld_evolve::EvolveError),
    /// The parametric engine's parameter files.
    #[error(transparent)]
    Engine(#[from] eloworld_engine::EngineError),
    /// A picture or report.
    #[error(transparent)]
    Report(#[from] eloworld_report::ReportError),
    /// A file of chess games (PGN) that cannot be read.
    #[error(transparent)]
    Input(#[from] eloworld_games::chess::input::InputError),
    /// A fates table that cannot be read or written.
    #[error(transparent)]
    FateFile(#[from] eloworld_players::fate::FateFileError),
    /// Reading or writing a file.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Players that could not start (an engine that does not start): their games were left
    /// unplayed, never counted as losses; the games that could be played are stored.
    #[error("{}", cannot_start_text(.players, *.stored))]
    CannotStart {
        /// (player, why) for each.
        players: Vec<(String, String)>,
        /// Games stored in the run before it stopped.
        stored: u64,
    },
    /// Any of these, in a context that says what was being done.
    #[error("{context}")]
    Context {
        /// What was being done.
        context: String,
        /// Why it failed.
        #[source]
        source: Box<AppError>,
    },
}

/// A use case's result.
pub type AppResult<T> = Result<T, AppError>;

/// Adds what was being done to an error, as `anyhow::Context` does, keeping the error typed.
pub trait Context<T> {
    /// Wraps the error with `context`.
    ///
    /// # Errors
    /// The error, wrapped.
    fn context<C: Display>(self, context: C) -> AppResult<T>;
    /// Wraps the error with the context `f` makes (only when there is an error).
    ///
    /// # Errors
    /// The error, wrapped.
    fn with_context<C: Display, F: FnOnce() -> C>(self, f: F) -> AppResult<T>;
}

impl<T, E: Into<AppError>> Context<T> for Result<T, E> {
    fn context<C: Display>(self, context: C) -> AppResult<T> {
        self.map_err(|e| AppError::Context {
            context: context.to_string(),
            source: Box::new(e.into()),
        })
    }

    fn with_context<C: Display, F: FnOnce() -> C>(self, f: F) -> AppResult<T> {
        self.map_err(|e| AppError::Context {
            context: f().to_string(),
            source: Box::new(e.into()),
        })
    }
}

/// Returns early with [`AppError::Invalid`] built like `format!`.
#[macro_export]
macro_rules! invalid {
    ($($arg:tt)*) => {
        return Err($crate::AppError::Invalid(format!($($arg)*)))
    };
}

/// Returns early with [`AppError::Invalid`] unless the condition holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($arg:tt)*) => {
        if !$cond {
            $crate::invalid!($($arg)*);
        }
    };
}

fn cannot_start_text(players: &[(String, String)], stored: u64) -> String {
    let each: Vec<String> = players
        .iter()
        .map(|(p, why)| format!("{} cannot start: {why}", eloworld_ratings::shown_name(p)))
        .collect();
    format!(
        "{}; its games were left unplayed, not counted as losses ({stored} other games stored this run); fix it and run the same command again",
        each.join("; ")
    )
}
