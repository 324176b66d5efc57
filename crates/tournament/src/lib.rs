//! Tournaments for eloworld: plans of game jobs, the parallel runner that plays them, the
//! store that keeps every finished game, PGN export, and progress events.
//!
//! Every game is a pure function of (game kind, white, black, opening, seed): a job carries
//! all of it, so a job replayed with its seed gives the same moves for in-process players.
#![deny(missing_docs)]

pub mod adjudication;
mod config;
pub mod copies;
mod error;
mod events;
pub mod openings;
pub mod pgn;
mod plan;
mod play;
mod rating_games;
mod runner;
pub mod sgf;
pub mod store;
pub mod tablebase;
mod work;

pub use config::{
    GameSetup, OpeningsFor, Schedule, SprtSettings, TournamentConfig, DEFAULT_MAX_PLIES,
    DEFAULT_RANDOM_OPENINGS,
};
pub use copies::{Copies, CopyRule, Distinct, GameIdentity, PairCopies};
pub use eloworld_schedule::JobSpec;
pub use error::{ConfigError, RunError, StoreError};
pub use events::Event;
pub use openings::random_openings;
pub use plan::{ladder_batch_name, Plan};
pub use play::{play_game, play_game_with, GameRules, MoveNote, PlayedGame};
pub use rating_games::{add_results, add_results_with, games_to_rate, score, RatedGame};
pub use runner::{
    drive, play_stored, run, thread_cpu, thread_waits, RunCpu, RunOptions, RunSummary, RunWaits,
    StoredTournament, Until,
};
pub use store::{
    open_store, ClaimedJob, Completion, FinishedGame, GameRow, JobInFlight, ResultEntry, ResultRow,
    Store, TournamentRow, TournamentStatus, WorkerSeen, WorkerStatus,
};
pub use work::{work, Pass, WorkEnd, WorkSettings};
