//! Errors of the rating methods.

/// What can go wrong when rating. Messages show players' names cut to
/// [`crate::SHOWN_NAME_CHARS`] characters; the fields keep them whole.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RatingError {
    /// The input holds no game between two different players.
    #[error("no games between two different players to rate")]
    NoGames,
    /// A named player does not occur in the games.
    #[error("unknown player {:?} (not in the games)", crate::shown_name(.0))]
    UnknownPlayer(String),
    /// A method's name is not one of the methods.
    #[error("unknown rating method {given:?}: expected one of {valid}")]
    UnknownMethod {
        /// The name given.
        given: String,
        /// The valid names.
        valid: String,
    },
    /// A parameter is outside its range.
    #[error("invalid parameter {name}: {reason}")]
    InvalidParameter {
        /// The parameter.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A method needs a game in every ordered cell and some cell is empty.
    #[error(
        "cell {} vs {} has no games: {method} needs at least one game in every cell",
        crate::shown_name(.white),
        crate::shown_name(.black)
    )]
    EmptyCell {
        /// The method.
        method: &'static str,
        /// The first player of the cell.
        white: String,
        /// The second player of the cell.
        black: String,
    },
    /// A linear system (Hessian, Markov chain) could not be solved.
    #[error("{0}: the system is singular")]
    Singular(&'static str),
}
