//! eloworld's use cases, callable from any front end (the `eloworld` command, the
//! dashboard): run a tournament, a placement; assemble a report. What every run shares —
//! the stop flag, threads, engines, a shared store's lease, where progress goes — is set up
//! once in a [`Session`]. Nothing here prints or exits: a use case returns what it found, and
//! the front end shows it. Engine matches, as fastchess and cutechess-cli users run them, are
//! the crate `eloworld-match`, built on this one; the evolution's phases (David, Koppel and
//! Netanyahu) are the crate `eloworld-evolution`, built on it too.

pub mod bench;
pub mod error;
pub mod export;
pub mod fates;
pub mod game;
pub mod independent;
pub mod ladder_compare;
pub mod ladder_schedule;
pub mod ladders;
pub mod placement;
pub mod play;
pub mod progress;
pub mod rate;
pub mod rating;
pub mod rating_tables;
pub mod report;
pub mod report_views;
pub mod session;
pub mod squava;
mod squava_tables;
pub mod standing;
pub mod stored;
pub mod suite;
pub mod synth;
pub mod tournament;
pub mod worker;

pub use error::{AppError, AppResult, Context};
pub use game::{AppGame, Factories};
pub use session::{Progress, Session};

/// What the crate's macros name, so front ends need not depend on the crates themselves.
#[doc(hidden)]
pub mod reexports {
    pub use eloworld_games::{Chess, GameKind, Go, Squava};
}
