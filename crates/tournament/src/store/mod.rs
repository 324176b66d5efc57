//! The results store: one schema, behind one trait, so the runner does not care whether
//! games go to an embedded SQLite file or to a shared server (DESIGN.md, "Store").
//!
//! Job states: `pending → running(worker, attempt) → done`. A finished game is written in
//! the same transaction that marks its job done, and only if the job is still claimed by
//! the same attempt, so a game can never be counted twice.

mod location;
#[cfg(feature = "postgres")]
mod pg_tls;
#[cfg(feature = "postgres")]
mod postgres;
mod sqlite;

pub use location::redact;
#[cfg(feature = "postgres")]
pub use postgres::{tap_connection_notes, PgStore};
pub use sqlite::SqliteStore;

use crate::copies::GameIdentity;
use crate::{GameSetup, MoveNote, Plan, StoreError};
use eloworld_games::GameKind;
use eloworld_games::{GameResult, MoveRecord, Termination};
use eloworld_players::engine::Score;
use std::collections::HashMap;
use std::time::Duration;

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// The store's id.
    pub id: i64,
    /// The tournament's name.
    pub name: String,
    /// The game.
    pub game: GameKind,
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
    /// The store's id of its tournament.
    pub tournament: i64,
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
    /// The job's tournament, as claimed: the game row's tournament, and part of the fence.
    pub tournament: i64,
    /// The attempt that played it.
    pub attempt: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// The moves, two bytes each: SQLite keeps these bytes, and they read as the moves'
    /// codes (UCI for chess), space-separated.
    pub moves: MoveRecord,
    /// More about the end (an engine's illegal move text, a crash message).
    pub detail: Option<String>,
    /// Wall time of the game in milliseconds.
    pub wall_ms: f64,
    /// What each mover reported of its move (score, depth, time, book), for PGN comments;
    /// empty when no player reported anything (built-in players).
    pub notes: Vec<MoveNote>,
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
    /// The day it finished, `YYYY.MM.DD` (PGN date form).
    pub date: String,
    /// What was played (start and moves), read with the row: two rows of one ordered pair
    /// with the same identity are copies ([`crate::copies`]).
    pub identity: GameIdentity,
}

/// A stored game in full.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The job id (the game's key).
    pub job_id: i64,
    /// The tournament's name.
    pub tournament: String,
    /// The game.
    pub game: GameKind,
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
    /// What each mover reported of its move, as [`FinishedGame::notes`].
    pub notes: Vec<MoveNote>,
    /// Its tournament's board size and komi (Go), read from the stored settings.
    pub setup: GameSetup,
}

/// Writes move notes in the stores' `notes` column: one token a move, `b` for a book move,
/// else `SCORE/DEPTH/NANOSECONDS` with `c32` (centipawns) or `m-3` (mate), `-` for none.
/// Returns `None` for no notes.
#[must_use]
pub fn encode_notes(notes: &[MoveNote]) -> Option<String> {
    use std::fmt::Write as _;
    if notes.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(notes.len() * 12);
    for (i, n) in notes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        if n.book {
            out.push('b');
            continue;
        }
        let _ = match n.score() {
            Some(Score::Centipawns(cp)) => write!(out, "c{cp}"),
            Some(Score::Mate(m)) => write!(out, "m{m}"),
            None => write!(out, "-"),
        };
        let _ = match n.depth() {
            Some(d) => write!(out, "/{d}"),
            None => write!(out, "/-"),
        };
        let _ = write!(out, "/{}", n.elapsed.as_nanos());
    }
    Some(out)
}

/// Reads what [`encode_notes`] wrote; a token it cannot read becomes an empty note (the
/// stores only hold what this build or an older one wrote).
#[must_use]
pub fn decode_notes(text: Option<&str>) -> Vec<MoveNote> {
    let Some(text) = text else {
        return Vec::new();
    };
    text.split_whitespace()
        .map(|token| {
            if token == "b" {
                return MoveNote {
                    book: true,
                    ..MoveNote::default()
                };
            }
            let mut parts = token.split('/');
            let score = parts.next().and_then(|s| {
                if let Some(cp) = s.strip_prefix('c') {
                    cp.parse().ok().map(Score::Centipawns)
                } else {
                    s.strip_prefix('m')
                        .and_then(|m| m.parse().ok())
                        .map(Score::Mate)
                }
            });
            let depth = parts.next().and_then(|d| d.parse().ok());
            let elapsed = parts
                .next()
                .and_then(|t| t.parse().ok())
                .map_or(Duration::ZERO, Duration::from_nanos);
            MoveNote::searched(score, depth, elapsed)
        })
        .collect()
}

/// A stored game's result with its place in the store's order: what a live reader (the
/// dashboard) needs to follow a run by reading only what is new.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultEntry {
    /// The store's order of finished games (increasing, unique; on PostgreSQL a value may
    /// become visible after a larger one, and some values are never used).
    pub seq: i64,
    /// The job id (the game's key).
    pub job_id: i64,
    /// The tournament's id.
    pub tournament_id: i64,
    /// White's index into the tournament's players.
    pub white: u32,
    /// Black's index.
    pub black: u32,
    /// The game's index within its pair.
    pub round: u32,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Plies played.
    pub plies: u32,
    /// Wall time of the game in milliseconds.
    pub wall_ms: f64,
    /// When it was stored, milliseconds since the Unix epoch.
    pub finished_ms: i64,
    /// The worker that played it, if known.
    pub worker: Option<String>,
    /// What was played (start and moves), as [`ResultRow::identity`].
    pub identity: GameIdentity,
}

/// A job claimed by a worker and not finished yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobInFlight {
    /// The job id.
    pub job_id: i64,
    /// White's index into the tournament's players.
    pub white: u32,
    /// Black's index.
    pub black: u32,
    /// The game's index within its pair.
    pub round: u32,
    /// The worker holding the claim.
    pub worker: Option<String>,
    /// The claim's attempt number (above 1: an earlier claim was lost).
    pub attempt: u32,
    /// Milliseconds left on the claim's lease (negative: expired), for shared stores.
    pub lease_left_ms: Option<i64>,
}

/// A worker's last report (shared stores).
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerSeen {
    /// The worker's name.
    pub name: String,
    /// Seconds since it last reported.
    pub seen_secs_ago: f64,
    /// Players it cannot run on its machine, with why.
    pub cannot_run: String,
}

/// What storing a batch of finished games did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// Games stored.
    pub accepted: usize,
    /// Games refused because their job's claim was lost (the lease expired and the job was
    /// handed to another worker): `(job id, attempt)`. They are never counted.
    pub rejected: Vec<(i64, u32)>,
}

/// Per-tournament job counts for `eloworld status`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentStatus {
    /// The tournament's name.
    pub name: String,
    /// Jobs done.
    pub done: u64,
    /// Jobs claimed by a worker whose lease is still valid.
    pub running: u64,
    /// Jobs claimed by a worker whose lease has expired (the worker is presumed dead).
    pub dead_leases: u64,
    /// Jobs waiting.
    pub pending: u64,
}

/// A worker as last reported to the store.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerStatus {
    /// The worker's name.
    pub name: String,
    /// Seconds since it last reported.
    pub seen_secs_ago: f64,
    /// Games it stored in the last minute.
    pub games_last_minute: u64,
    /// Games it stored in all.
    pub games_total: u64,
    /// Players it cannot run on its machine, with why.
    pub cannot_run: String,
}

/// Where games are kept. Implementations: [`SqliteStore`] (one process, one file) and, with
/// the `postgres` feature, `PgStore` (a shared server, any number of workers).
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
    /// Only jobs whose two players are in `runnable` (indices into the tournament's
    /// players) are claimed, when it is given.
    ///
    /// # Errors
    /// Backend errors.
    fn claim(
        &mut self,
        tournament: i64,
        worker: &str,
        max: usize,
        runnable: Option<&[u32]>,
    ) -> Result<Vec<ClaimedJob>, StoreError>;
    /// Stores finished games, each with its job marked done in the same transaction (on
    /// SQLite the game's row is the mark), and only if the job is still claimed by this
    /// worker with this attempt.
    ///
    /// # Errors
    /// Backend errors; nothing of the batch is stored then.
    fn complete(&mut self, worker: &str, games: &[FinishedGame]) -> Result<Completion, StoreError>;
    /// Returns how long a claim lasts without renewal, for stores shared by several
    /// processes (`None`: claims last as long as the process).
    fn lease(&self) -> Option<std::time::Duration> {
        None
    }
    /// Sets how long a claim lasts without renewal (shared stores only).
    fn set_lease(&mut self, _lease: std::time::Duration) {}
    /// Extends the leases of jobs this worker still plays.
    ///
    /// # Errors
    /// Backend errors.
    fn renew(&mut self, _worker: &str, _jobs: &[ClaimedJob]) -> Result<(), StoreError> {
        Ok(())
    }
    /// Returns jobs whose lease has expired to pending; returns how many.
    ///
    /// # Errors
    /// Backend errors.
    fn reap(&mut self) -> Result<u64, StoreError> {
        Ok(0)
    }
    /// Records that `worker` is alive, with the players it cannot run.
    ///
    /// # Errors
    /// Backend errors.
    fn heartbeat(&mut self, _worker: &str, _cannot_run: &str) -> Result<(), StoreError> {
        Ok(())
    }
    /// Returns job counts per tournament and what each worker did.
    ///
    /// # Errors
    /// Backend errors.
    fn status(&self) -> Result<(Vec<TournamentStatus>, Vec<WorkerStatus>), StoreError>;
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
    /// Returns tournament `id`, `None` when the store has none of that id. The default
    /// reads every tournament; a shared store reads this one alone: counting the jobs of
    /// every tournament took PostgreSQL half a second in a store of a million jobs, at the
    /// start of every run and at every look of a worker waiting for others.
    ///
    /// # Errors
    /// Backend errors.
    fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        Ok(self.tournaments()?.into_iter().find(|t| t.id == id))
    }
    /// Returns the job counts of tournament `id` alone, `None` when the store has none of
    /// that id (or it has no jobs). The default reads every tournament's, as
    /// [`Store::tournament`].
    ///
    /// # Errors
    /// Backend errors.
    fn tournament_status(&self, id: i64) -> Result<Option<TournamentStatus>, StoreError> {
        let Some(row) = self.tournament(id)? else {
            return Ok(None);
        };
        Ok(self.status()?.0.into_iter().find(|t| t.name == row.name))
    }
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
    /// Returns up to `limit` results with `seq` above `after`, of every tournament, in `seq`
    /// order: a live reader's incremental read.
    ///
    /// # Errors
    /// Backend errors.
    fn results_since(&self, after: i64, limit: usize) -> Result<Vec<ResultEntry>, StoreError>;
    /// Returns the results with these `seq` values that are stored (a live reader asks again
    /// for values it saw skipped, which a slower transaction may still fill).
    ///
    /// # Errors
    /// Backend errors.
    fn results_with_seq(&self, seqs: &[i64]) -> Result<Vec<ResultEntry>, StoreError>;
    /// Returns a tournament's jobs that are claimed and not finished.
    ///
    /// # Errors
    /// Backend errors.
    fn jobs_in_flight(&self, tournament: i64) -> Result<Vec<JobInFlight>, StoreError>;
    /// Returns one stored game in full, `None` when no game has this job id.
    ///
    /// # Errors
    /// Backend errors.
    fn game(&self, job_id: i64) -> Result<Option<GameRow>, StoreError>;
    /// Returns the workers that reported to a shared store (none for a one-process store).
    ///
    /// # Errors
    /// Backend errors.
    fn workers_seen(&self) -> Result<Vec<WorkerSeen>, StoreError> {
        Ok(Vec::new())
    }
    /// Returns each stored game's result by its job's key in the plan, for callers that
    /// keep the plan and so know who played each job (the evolution's generations, whose
    /// organisms may share a spec).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown tournament.
    fn results_by_key(&self, tournament: &str) -> Result<Vec<(u32, GameResult)>, StoreError>;
    /// Returns each job's (White, Black) as indices into the tournament's players, in key
    /// order: the pairs a stored plan plays, for schedules that resume a plan as stored
    /// rather than choosing it again (the ladder's batches).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown tournament.
    fn job_pairs(&self, tournament: &str) -> Result<Vec<(u32, u32)>, StoreError>;
}

/// Reads a stored result; both backends only ever store the three PGN forms.
fn parse_result(s: &str) -> eloworld_games::GameResult {
    s.parse().unwrap_or(eloworld_games::GameResult::Draw)
}

/// Reads a stored game name into its kind.
///
/// # Errors
/// [`StoreError::UnknownGame`] for a game this eloworld does not know.
pub(crate) fn stored_game(tournament: &str, game: &str) -> Result<GameKind, StoreError> {
    game.parse().map_err(|_| StoreError::UnknownGame {
        tournament: tournament.to_owned(),
        game: game.to_owned(),
    })
}

/// Each stored tournament's [`GameSetup`] by name, from its stored settings (a game row
/// takes its tournament's).
fn setups<I: IntoIterator<Item = (String, String)>>(
    name_and_settings: I,
) -> HashMap<String, GameSetup> {
    name_and_settings
        .into_iter()
        .map(|(name, settings)| {
            let setup = GameSetup::from_stored_settings(&settings);
            (name, setup)
        })
        .collect()
}

/// Reads a stored termination code; both backends only ever store known codes.
fn parse_termination(s: &str) -> eloworld_games::Termination {
    s.parse().unwrap_or(eloworld_games::Termination::MaxPlies)
}

/// Opens the store a `--db` value names, creating an SQLite file when `create` is set.
///
/// # Errors
/// [`StoreError`] naming the location.
pub fn open_store(location: &str, create: bool) -> Result<Box<dyn Store>, StoreError> {
    if is_postgres(location) {
        #[cfg(feature = "postgres")]
        return Ok(Box::new(PgStore::open(location)?));
        #[cfg(not(feature = "postgres"))]
        return Err(StoreError::Backend(format!(
            "{}: this eloworld was built without the postgres feature",
            redact(location)
        )));
    }
    Ok(Box::new(SqliteStore::open(location, create)?))
}

/// Returns whether a `--db` value names a PostgreSQL database rather than an SQLite file.
#[must_use]
pub fn is_postgres(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_notes_survive_the_store_text() {
        let note = |score, depth, nanos, book| MoveNote {
            book,
            ..MoveNote::searched(score, depth, Duration::from_nanos(nanos))
        };
        let notes = vec![
            note(None, None, 0, true),
            note(Some(Score::Centipawns(-32)), Some(12), 153_456_789, false),
            note(Some(Score::Mate(-3)), None, 7, false),
            note(None, Some(4), 1_000_000_000, false),
        ];
        let text = encode_notes(&notes).expect("notes");
        assert_eq!(text, "b c-32/12/153456789 m-3/-/7 -/4/1000000000");
        assert_eq!(decode_notes(Some(&text)), notes);
        assert_eq!(encode_notes(&[]), None);
        assert!(decode_notes(None).is_empty());
    }
}
