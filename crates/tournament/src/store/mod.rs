//! The results store: one schema, behind one trait, so the runner does not care whether
//! games go to an embedded SQLite file or to a shared server (DESIGN.md, "Store").
//!
//! Job states: `pending → running(worker, attempt) → done`. A finished game is written in
//! the same transaction that marks its job done, and only if the job is still claimed by
//! the same attempt, so a game can never be counted twice.

mod sqlite;

pub use sqlite::SqliteStore;

use crate::{Plan, StoreError};
use eloworld_games::{GameResult, Termination};

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// The store's id.
    pub id: i64,
    /// The tournament's name.
    pub name: String,
    /// The game (`chess`, `squava`).
    pub game: String,
    /// The settings, as TOML.
    pub config: String,
    /// The plan's fingerprint.
    pub fingerprint: String,
    /// When it was created (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub created: String,
    /// The eloworld version that created it.
    pub program_version: String,
    /// Player specs, in plan order.
    pub players: Vec<String>,
    /// Jobs in the plan.
    pub total: u64,
    /// Jobs done.
    pub done: u64,
}

/// A job claimed by a worker, with everything needed to play it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimedJob {
    /// The store's job id.
    pub id: i64,
    /// The job's key in the plan.
    pub key: u32,
    /// The claim's attempt number (fences the result).
    pub attempt: u32,
    /// White's index into the tournament's players.
    pub white: u32,
    /// Black's index.
    pub black: u32,
    /// The game's index within its pair.
    pub round: u32,
    /// The opening position, if any.
    pub opening: Option<String>,
    /// The game's seed.
    pub seed: u64,
}

/// A finished game to store.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    /// The job it finishes.
    pub job_id: i64,
    /// The attempt that played it.
    pub attempt: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// The moves in compact notation (UCI for chess), space-separated.
    pub moves: String,
    /// More about the end (an engine's illegal move text, a crash message).
    pub detail: Option<String>,
    /// Wall time of the game in milliseconds.
    pub wall_ms: f64,
}

/// A stored game's result, for ratings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRow {
    /// The tournament's name.
    pub tournament: String,
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
}

/// A stored game in full.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The job id (the game's key).
    pub job_id: i64,
    /// The tournament's name.
    pub tournament: String,
    /// The game.
    pub game: String,
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// The game's index within its pair.
    pub round: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// Moves in compact notation.
    pub moves: String,
    /// The opening position, if not the standard start.
    pub opening: Option<String>,
    /// The game's seed.
    pub seed: u64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// More about the end.
    pub detail: Option<String>,
    /// The day it finished, `YYYY.MM.DD` (PGN date form).
    pub date: String,
}

/// Where games are kept. Implementations: [`SqliteStore`] (PostgreSQL to follow).
pub trait Store: Send {
    /// Returns where this store is, safe to print (no password).
    fn location(&self) -> String;
    /// Creates the tournament of `plan` with its players and pending jobs, or finds it and
    /// checks that its plan is the same; returns its id. Jobs left running by a dead
    /// single-process run become pending again.
    ///
    /// # Errors
    /// [`StoreError::PlanMismatch`] when a tournament of that name has another plan.
    fn begin(&mut self, plan: &Plan) -> Result<i64, StoreError>;
    /// Claims up to `max` pending jobs of a tournament for `worker`.
    ///
    /// # Errors
    /// Backend errors.
    fn claim(&mut self, tournament: i64, worker: &str, max: usize) -> Result<Vec<ClaimedJob>, StoreError>;
    /// Stores finished games, each with its job marked done in the same transaction;
    /// returns how many were accepted (a game whose claim was lost is rejected).
    ///
    /// # Errors
    /// Backend errors; nothing of the batch is stored then.
    fn complete(&mut self, games: &[FinishedGame]) -> Result<usize, StoreError>;
    /// Returns claimed but unfinished jobs to pending.
    ///
    /// # Errors
    /// Backend errors.
    fn release(&mut self, jobs: &[ClaimedJob]) -> Result<(), StoreError>;
    /// Returns the tournaments in the store, oldest first.
    ///
    /// # Errors
    /// Backend errors.
    fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError>;
    /// Returns the results of stored games in the order they finished, of one tournament
    /// or of all.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown tournament.
    fn results(&self, tournament: Option<&str>) -> Result<Vec<ResultRow>, StoreError>;
    /// Returns stored games in full, in the order they finished.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown tournament.
    fn games(&self, tournament: Option<&str>) -> Result<Vec<GameRow>, StoreError>;
}

/// Opens the store a `--db` value names, creating an SQLite file when `create` is set.
///
/// # Errors
/// [`StoreError`] naming the location.
pub fn open_store(location: &str, create: bool) -> Result<Box<dyn Store>, StoreError> {
    if location.starts_with("postgres://") || location.starts_with("postgresql://") {
        return Err(StoreError::Backend(
            "PostgreSQL stores are not supported by this build of eloworld".to_owned(),
        ));
    }
    Ok(Box::new(SqliteStore::open(location, create)?))
}
