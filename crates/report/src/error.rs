use thiserror::Error;

/// What can go wrong while drawing a report.
#[derive(Debug, Error)]
pub enum ReportError {
    /// The input has nothing to draw.
    #[error("nothing to draw: {0}")]
    Empty(String),
    /// Inputs disagree with each other (lengths, player indices).
    #[error("inconsistent input: {0}")]
    Inconsistent(String),
    /// The drawing library failed.
    #[error("drawing failed: {0}")]
    Draw(String),
    /// Encoding the PNG failed.
    #[error("encoding PNG failed: {0}")]
    Png(String),
}

impl ReportError {
    /// Wraps any drawing-library error.
    pub(crate) fn draw(e: impl std::fmt::Display) -> ReportError {
        ReportError::Draw(e.to_string())
    }
}
