use thiserror::Error;

/// Errors from reading positions and moves.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The game name is not one eloworld knows.
    #[error("unknown game {0:?}, expected chess, squava or go")]
    UnknownGame(String),
    /// A game's rules are out of range (a Go board size or komi).
    #[error("bad rules: {0}")]
    BadRules(String),
    /// A position's text could not be read.
    #[error("bad position {text:?}: {reason}")]
    BadPosition {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A move's text could not be read.
    #[error("cannot read move {text:?}: {reason}")]
    BadMove {
        /// The text given.
        text: String,
        /// What was expected.
        reason: String,
    },
    /// The move is well formed but not legal in the position.
    #[error("illegal move {text:?} in position {position}")]
    IllegalMove {
        /// The text given.
        text: String,
        /// The position, in its text form.
        position: String,
    },
}
