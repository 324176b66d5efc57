//! The engine's errors.

use thiserror::Error;

/// What can go wrong when building an engine from parameters or reading a test suite.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// A chromosome of the wrong length.
    #[error("chromosome has {got} bits, expected {expected}")]
    ChromosomeLength {
        /// The length the parameter set needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A list of values of the wrong length.
    #[error("{got} parameter values, expected {expected}")]
    ParamCount {
        /// The number the parameter set needs.
        expected: usize,
        /// The number given.
        got: usize,
    },
    /// A parameter name no set knows.
    #[error("unknown parameter {0:?}")]
    UnknownParam(String),
    /// A bad line in a parameter file.
    #[error("{file} line {line}: {reason}")]
    ParamText {
        /// The file (or other source) read.
        file: String,
        /// The line, 1-based.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A bad line in an EPD test suite.
    #[error("{file} line {line}: {reason}")]
    Epd {
        /// The file read.
        file: String,
        /// The line, 1-based.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}
