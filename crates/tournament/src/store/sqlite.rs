//! The embedded SQLite store: one file, WAL journal.

use super::{decode_notes, encode_notes, parse_result, parse_termination};
use super::{
    ClaimedJob, Completion, FinishedGame, GameRow, JobInFlight, ResultEntry, ResultRow, Store,
    TournamentRow, TournamentStatus, WorkerStatus,
};
use crate::copies::GameIdentity;
use crate::{GameSetup, Plan, StoreError};
use eloworld_games::{GameKind, GameResult, MoveRecord};
use eloworld_schedule::JobSpec;
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// The newest schema version this build writes and reads. Version 2: a job's row is no
/// longer written while it is played (claims are rows of `claims`, a job is done when its
/// game row exists), so a build of version 1 must not write such a file.
pub const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')),
    program_version TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    spec TEXT NOT NULL,
    UNIQUE (tournament_id, idx)
);
CREATE TABLE IF NOT EXISTS jobs (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    key INTEGER NOT NULL,
    white INTEGER NOT NULL,
    black INTEGER NOT NULL,
    round INTEGER NOT NULL,
    opening TEXT,
    seed INTEGER NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    worker TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    lease_until INTEGER,
    UNIQUE (tournament_id, key)
);
-- A job's row is written once, by `begin`: its `state` stays 0 in files of schema 2 (1 and 2
-- are running and done in files of schema 1). A job is done when its game row exists, and
-- running while a row of `claims` lists it and it has no game. The index is the claims' scan
-- in id order (in a file of schema 1 it leaves out the jobs done there).
DROP INDEX IF EXISTS jobs_state;
CREATE INDEX IF NOT EXISTS jobs_pending ON jobs (tournament_id, id) WHERE state = 0;
CREATE TABLE IF NOT EXISTS games (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id),
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,
    detail TEXT,
    wall_ms REAL NOT NULL,
    finished_ms INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    worker TEXT,
    attempt INTEGER NOT NULL DEFAULT 1,
    notes TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS games_seq ON games (seq);
-- Games are found by tournament through their jobs (`jobs (tournament_id, key)`): an index of
-- the games' tournament cost a B-tree write a game, and the readers filter by seq.
DROP INDEX IF EXISTS games_tournament;
";

/// The claims of a running tournament: one row a claim, its jobs a JSON array of ids. A
/// claim costs one row, where marking each job running and then done cost two row writes a
/// game; the row goes when the last of its jobs is stored or released.
const CLAIMS_TABLE: &str = "
CREATE TABLE IF NOT EXISTS claims (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    worker TEXT NOT NULL,
    jobs TEXT NOT NULL
);
";

/// Job states in the `jobs.state` column of a file of schema 1 (a file of schema 2 keeps
/// every job at 0).
const PENDING: i64 = 0;
const RUNNING: i64 = 1;
// The claim's SQL and the partial index `jobs_pending` spell the pending state as 0.
const _: () = assert!(PENDING == 0);

/// The page size of a file this store creates (see [`SqliteStore::open`]'s `init`).
const PAGE_SIZE: i64 = 16_384;

/// What this store has claimed. One process owns an SQLite file, so the claims that fence
/// completions are held here, in memory; the `claims` table shows them to readers (the
/// dashboard, `status`), and a run that dies leaves its rows for the next `begin` to clear.
/// The maps hash ids with rustc's Fx hash: SipHash's lookups, a few a game, were an eighth
/// of the coordinator's instructions a game of random Go.
#[derive(Default)]
struct Claims {
    /// Per tournament, where the next claim's scan starts.
    scans: FxHashMap<i64, Scan>,
    /// The jobs held, by id.
    jobs: FxHashMap<i64, Held>,
    /// The `claims` rows written, by id.
    rows: FxHashMap<i64, ClaimRow>,
    /// Tournaments this store created, whose jobs after the scan are untouched.
    fresh: FxHashMap<i64, Fresh>,
}

/// The jobs of a tournament this store created, kept from its plan while every job past
/// the claims' scan is known to be unclaimed, without a game and on its first attempt:
/// a claim then takes the next of them from here instead of reading each job's row back
/// (the read was 30% of the coordinator's instructions a game of random Go). Dropped at
/// the first claim that cannot be served so (a release moved the scan back, a filter of
/// runnable players); the rows are read from the file from then on, as for any
/// tournament this process did not create (one process owns an SQLite file, so no other
/// claims or stores its jobs).
struct Fresh {
    /// The id of the plan's first job: `begin` wrote them with consecutive ids.
    first_id: i64,
    jobs: Vec<JobSpec>,
    openings: Vec<String>,
    /// The index of the next job to claim.
    next: usize,
}

impl Fresh {
    /// The most jobs a tournament may have to be kept so (about 40 bytes a job).
    const MOST_JOBS: usize = 1 << 21;

    /// Whether the scan's position `after` is where this store's claims left it: past the
    /// jobs claimed from here, before the ones not.
    fn continues(&self, after: i64) -> bool {
        let last = self.first_id + self.next as i64 - 1;
        if self.next == 0 {
            after <= last
        } else {
            after == last
        }
    }

    /// Takes up to `max` next jobs as claimed jobs of `tournament`.
    fn take(&mut self, tournament: i64, max: usize) -> Vec<ClaimedJob> {
        let end = (self.next + max).min(self.jobs.len());
        let first = self.next;
        self.next = end;
        self.jobs[first..end]
            .iter()
            .zip(first..)
            .map(|(j, i)| ClaimedJob {
                id: self.first_id + i as i64,
                tournament,
                key: j.key,
                attempt: 1,
                white: j.white,
                black: j.black,
                round: j.round,
                opening: j.opening.map(|o| self.openings[o as usize].clone()),
                seed: j.seed,
            })
            .collect()
    }
}

impl Claims {
    /// The hold on `job` for this attempt in this tournament, if this store has it.
    fn held(&self, job: i64, attempt: u32, tournament: i64) -> Option<&Held> {
        self.jobs
            .get(&job)
            .filter(|h| h.attempt == attempt && h.tournament == tournament)
    }

    /// Stops holding a job (stored or released); its claim row goes with its last job.
    fn let_go(&mut self, job: i64) -> Option<Held> {
        let held = self.jobs.remove(&job)?;
        if let Some(row) = self.rows.get_mut(&held.row) {
            row.open = row.open.saturating_sub(1);
            if row.open == 0 {
                self.rows.remove(&held.row);
            }
        }
        Some(held)
    }
}

/// A tournament's claim scan: every job with an id up to `after` that has no game is held,
/// or was left out by `filter`, the runnable players the scan was made with.
struct Scan {
    after: i64,
    filter: Option<Vec<u32>>,
}

/// A held job: its tournament, the attempt its game must carry, and its `claims` row.
struct Held {
    tournament: i64,
    attempt: u32,
    row: i64,
}

/// A `claims` row: who claimed, and how many of its jobs are still held.
struct ClaimRow {
    tournament: i64,
    worker: String,
    open: usize,
}

/// What a batch's game INSERT has bound, of the values that repeat from game to game (see
/// `complete`); `None` and `false` are "not bound yet".
#[derive(Default)]
struct Bound {
    tournament: Option<i64>,
    result: Option<&'static str>,
    termination: Option<&'static str>,
    attempt: Option<u32>,
    /// Whether `detail` is bound as NULL.
    no_detail: bool,
    /// Whether `notes` is bound as NULL.
    no_notes: bool,
}

/// Binds `value` as parameter `index` of `statement` unless `last` says the statement holds
/// it already (from the game before), and remembers it.
fn bind_changed<T: PartialEq + Copy + rusqlite::ToSql>(
    statement: &mut rusqlite::Statement<'_>,
    index: usize,
    last: &mut Option<T>,
    value: T,
) -> rusqlite::Result<()> {
    if *last != Some(value) {
        statement.raw_bind_parameter(index, value)?;
        *last = Some(value);
    }
    Ok(())
}

/// An SQLite file holding tournaments and their games.
pub struct SqliteStore {
    conn: Connection,
    path: String,
    /// Whether the games table has the `notes` column (files written before it was added
    /// get it when opened for writing; a read-only old file is read without notes).
    has_notes: bool,
    /// Whether the file has the `claims` table (a read-only file of schema 1 has not).
    has_claims: bool,
    claims: Claims,
}

impl SqliteStore {
    /// Opens (and with `create`, creates) the database at `path`.
    ///
    /// # Errors
    /// [`StoreError::Missing`], [`StoreError::NotADatabase`], [`StoreError::ReadOnly`],
    /// [`StoreError::SchemaTooNew`].
    pub fn open(path: &str, create: bool) -> Result<SqliteStore, StoreError> {
        if !create && !Path::new(path).exists() {
            return Err(StoreError::Missing {
                path: path.to_owned(),
            });
        }
        let flags = if create {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE
        } else {
            OpenFlags::SQLITE_OPEN_READ_WRITE
        };
        let conn = match Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        {
            Ok(c) => c,
            Err(e) if !create && code(&e) == Some(ErrorCode::CannotOpen) => {
                // A read-only file can still be read.
                Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
                    .map_err(|e| classify(path, e))?
            }
            Err(e) => return Err(classify(path, e)),
        };
        let mut store = SqliteStore {
            conn,
            path: path.to_owned(),
            has_notes: false,
            has_claims: false,
            claims: Claims::default(),
        };
        store.init(create)?;
        store.has_notes = store.add_notes_column()?;
        store.has_claims = store.add_claims_table()?;
        Ok(store)
    }

    fn init(&self, create: bool) -> Result<(), StoreError> {
        let p = &self.path;
        self.conn
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| classify(p, e))?;
        // Reading the schema first tells a non-database file, and another application's
        // database, apart before anything is written.
        let tables: Vec<String> = {
            let mut stmt = self
                .conn
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .map_err(|e| classify(p, e))?;
            let rows = stmt
                .query_map([], |r| r.get::<_, String>(0))
                .map_err(|e| classify(p, e))?;
            rows.collect::<Result<_, _>>().map_err(|e| classify(p, e))?
        };
        let has_meta = tables.iter().any(|t| t == "meta");
        let version: Option<i64> = if has_meta {
            self.conn
                .query_row(
                    "SELECT value FROM meta WHERE key = 'schema_version'",
                    [],
                    |r| r.get::<_, String>(0),
                )
                .optional()
                .map_err(|e| classify(p, e))?
                .and_then(|s| s.parse().ok())
                // A file of the first builds, before the version was written.
                .or_else(|| tables.iter().any(|t| t == "tournaments").then_some(0))
        } else {
            None
        };
        let Some(v) = version else {
            // Not an eloworld file: a new or empty one gets the schema, any other is refused
            // unchanged (a `meta` table without eloworld's schema version is another's).
            let objects: i64 = self
                .conn
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
                .map_err(|e| classify(p, e))?;
            if objects > 0 {
                let mut named = tables
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ");
                if tables.len() > 5 {
                    named.push_str(", …");
                }
                if named.is_empty() {
                    named.push_str("none; other schema objects");
                }
                return Err(StoreError::ForeignDatabase {
                    path: p.clone(),
                    tables: named,
                });
            }
            if !create {
                return Err(StoreError::EmptyFile { path: p.clone() });
            }
            return self.create_schema();
        };
        if v > SCHEMA_VERSION {
            return Err(StoreError::SchemaTooNew {
                path: p.clone(),
                found: v,
                supported: SCHEMA_VERSION,
            });
        }
        if create {
            self.conn
                .pragma_update(None, "journal_mode", "WAL")
                .map_err(|e| classify(p, e))?;
            self.settings()?;
            // An eloworld file of an older build gets what it lacks, in one transaction.
            self.conn
                .execute_batch(&format!("BEGIN IMMEDIATE; {SCHEMA} COMMIT;"))
                .map_err(|e| {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    classify(p, e)
                })?;
        }
        Ok(())
    }

    /// The connection's settings for writing. Foreign keys are checked in `begin`, where
    /// rows get their parents; a game is fenced by its job's update instead (see
    /// `complete`).
    fn settings(&self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;")
            .map_err(|e| classify(&self.path, e))
    }

    /// Gives a new (or empty) file eloworld's schema in one transaction, so that a failure
    /// leaves no part of it behind.
    fn create_schema(&self) -> Result<(), StoreError> {
        let p = &self.path;
        // Set before the first table (and before WAL, which fixes it). A stored game is a
        // row of about a kilobyte appended at the end of two B-trees: 16 KB pages write a
        // quarter of the WAL frames a commit wrote with SQLite's 4 KB default, and
        // `eloworld bench` measured the coordinator's CPU a game down 15% (the store alone:
        // 310,000 → 350,000 random chess games a second).
        self.conn
            .pragma_update(None, "page_size", PAGE_SIZE)
            .map_err(|e| classify(p, e))?;
        self.conn
            .pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| classify(p, e))?;
        self.settings()?;
        let batch = format!(
            "BEGIN IMMEDIATE; {SCHEMA} {CLAIMS_TABLE} \
             INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}'); \
             COMMIT;"
        );
        self.conn.execute_batch(&batch).map_err(|e| {
            let _ = self.conn.execute_batch("ROLLBACK");
            classify(p, e)
        })
    }

    /// Adds the per-move `notes` column to a file made before it existed (a column that
    /// may be null: older builds keep reading and writing the file); returns whether the
    /// column is there.
    fn add_notes_column(&self) -> Result<bool, StoreError> {
        let has = |conn: &Connection| -> Result<bool, rusqlite::Error> {
            conn.query_row(
                "SELECT count(*) FROM pragma_table_info('games') WHERE name = 'notes'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
        };
        let games_table = self.has_table("games")?;
        if !games_table || has(&self.conn).map_err(|e| self.sql(e))? {
            return Ok(games_table);
        }
        // Read-only files stay as they are.
        let _ = self
            .conn
            .execute_batch("ALTER TABLE games ADD COLUMN notes TEXT");
        has(&self.conn).map_err(|e| self.sql(e))
    }

    /// Whether the file has the table `name`.
    fn has_table(&self, name: &str) -> Result<bool, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [name],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.sql(e))
    }

    /// Gives a file of schema 1 the `claims` table and marks it schema 2, so that a build of
    /// schema 1 no longer writes it; returns whether the table is there (a read-only file of
    /// schema 1 is read as it is).
    fn add_claims_table(&self) -> Result<bool, StoreError> {
        if self.has_table("claims")? {
            return Ok(true);
        }
        let upgrade = format!(
            "BEGIN IMMEDIATE; {CLAIMS_TABLE} \
             INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}'); \
             COMMIT;"
        );
        match self.conn.execute_batch(&upgrade) {
            Ok(()) => Ok(true),
            Err(e) if code(&e) == Some(ErrorCode::ReadOnly) => Ok(false),
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(self.sql(e))
            }
        }
    }

    /// The jobs claimed and not stored, as rows of (tournament_id, job_id, worker, and what
    /// to add to the job's `attempt` to get the claim's): the `claims` rows, and the jobs a
    /// build of schema 1 marked running.
    fn in_flight_sql(&self) -> &'static str {
        if self.has_claims {
            "SELECT c.tournament_id, e.value AS job_id, c.worker, 1 AS extra \
             FROM claims c, json_each(c.jobs) e \
             UNION ALL SELECT tournament_id, id, worker, 0 FROM jobs WHERE state = 1"
        } else {
            "SELECT tournament_id, id AS job_id, worker, 0 AS extra FROM jobs WHERE state = 1"
        }
    }

    fn sql(&self, e: rusqlite::Error) -> StoreError {
        classify(&self.path, e)
    }

    fn tournament_id(&self, name: Option<&str>) -> Result<Option<i64>, StoreError> {
        match name {
            None => Ok(None),
            Some(n) => self
                .conn
                .query_row("SELECT id FROM tournaments WHERE name = ?1", [n], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(|e| self.sql(e))?
                .map(Some)
                .ok_or_else(|| {
                    let known = self
                        .tournaments()
                        .map(|t| t.into_iter().map(|t| t.name).collect::<Vec<_>>());
                    StoreError::NotFound(format!(
                        "no tournament {n:?} in {}; it holds: {}",
                        self.path,
                        known.map(|k| k.join(", ")).unwrap_or_default()
                    ))
                }),
        }
    }
}

/// Numbers as a JSON array, which SQLite's `json_each` reads: lists of ids and players are
/// passed to a statement as one text. Written into one string (a string a number, then
/// joined, took 480 instructions an id of a claim's list).
fn json_array<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    use std::fmt::Write;
    let mut out = String::from("[");
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // Writing to a `String` cannot fail.
        let _ = write!(out, "{item}");
    }
    out.push(']');
    out
}

fn code(e: &rusqlite::Error) -> Option<ErrorCode> {
    match e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    }
}

fn classify(path: &str, e: rusqlite::Error) -> StoreError {
    match code(&e) {
        Some(ErrorCode::NotADatabase) => StoreError::NotADatabase {
            path: path.to_owned(),
        },
        Some(ErrorCode::ReadOnly) => StoreError::ReadOnly {
            path: path.to_owned(),
        },
        Some(ErrorCode::DiskFull) => StoreError::DiskFull {
            path: path.to_owned(),
        },
        Some(ErrorCode::CannotOpen) if Path::new(path).exists() => StoreError::ReadOnly {
            path: path.to_owned(),
        },
        _ => StoreError::Sql {
            path: path.to_owned(),
            source: e,
        },
    }
}

impl Store for SqliteStore {
    fn location(&self) -> String {
        self.path.clone()
    }

    fn begin(&mut self, plan: &Plan) -> Result<i64, StoreError> {
        // Foreign keys are checked while a tournament, its players and its jobs are written;
        // the pragma takes effect only outside a transaction, and recompiles the statements.
        let path = self.path.clone();
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON")
            .map_err(|e| classify(&path, e))?;
        let id = self.begin_checked(plan);
        let off = self
            .conn
            .execute_batch("PRAGMA foreign_keys = OFF")
            .map_err(|e| classify(&path, e));
        let id = id?;
        off?;
        Ok(id)
    }

    fn claim(
        &mut self,
        tournament: i64,
        worker: &str,
        max: usize,
        runnable: Option<&[u32]>,
    ) -> Result<Vec<ClaimedJob>, StoreError> {
        let path = self.path.clone();
        if max == 0 {
            return Ok(Vec::new());
        }
        // Player lists are short: the filter is spelled out as a JSON array SQLite can read.
        let allowed = runnable.map(json_array);
        // A scan made with other runnable players starts again from the first job.
        let mut after = match self.claims.scans.get(&tournament) {
            Some(scan) if scan.filter.as_deref() == runnable => scan.after,
            _ => 0,
        };
        // A tournament this store created is claimed from its plan while nothing has
        // moved the scan back; from the file otherwise (and from then on).
        let fresh = match self.claims.fresh.get_mut(&tournament) {
            Some(f) if runnable.is_none() && f.continues(after) => Some(f.take(tournament, max)),
            Some(_) => {
                self.claims.fresh.remove(&tournament);
                None
            }
            None => None,
        };
        let held = &self.claims.jobs;
        // The write lock is taken first, so that no other writer stores a game of a job
        // between the read and the claim's row.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let from_plan = fresh.is_some();
        let mut jobs: Vec<ClaimedJob> = fresh.unwrap_or_default();
        if let Some(last) = jobs.last() {
            after = last.id;
        }
        if !from_plan {
            // `state = 0` is written out: the planner uses the partial index `jobs_pending`
            // only for a literal that matches its condition.
            let mut read = tx
                .prepare_cached(
                    "SELECT id, key, attempt, white, black, round, opening, seed FROM jobs j \
                     WHERE tournament_id = ?1 AND state = 0 AND id > ?2 \
                     AND NOT EXISTS (SELECT 1 FROM games g WHERE g.job_id = j.id) \
                     AND (?4 IS NULL OR (white IN (SELECT value FROM json_each(?4)) \
                     AND black IN (SELECT value FROM json_each(?4)))) \
                     ORDER BY id LIMIT ?3",
                )
                .map_err(|e| classify(&path, e))?;
            // Jobs this store still holds come back only after a release moved the scan
            // back; they are skipped, and the read goes on past them.
            loop {
                let want = max - jobs.len();
                let rows = read
                    .query_map(params![tournament, after, want as i64, allowed], |r| {
                        Ok(ClaimedJob {
                            id: r.get(0)?,
                            tournament,
                            key: r.get(1)?,
                            attempt: r.get::<_, u32>(2)? + 1,
                            white: r.get(3)?,
                            black: r.get(4)?,
                            round: r.get(5)?,
                            opening: r.get(6)?,
                            seed: r.get::<_, i64>(7)? as u64,
                        })
                    })
                    .map_err(|e| classify(&path, e))?;
                let mut read_n = 0;
                for job in rows {
                    let job = job.map_err(|e| classify(&path, e))?;
                    read_n += 1;
                    after = job.id;
                    if !held.contains_key(&job.id) {
                        jobs.push(job);
                    }
                }
                if read_n < want || jobs.len() == max {
                    break;
                }
            }
        }
        let row = if jobs.is_empty() {
            None
        } else {
            let ids = json_array(jobs.iter().map(|j| j.id));
            tx.prepare_cached(
                "INSERT INTO claims (tournament_id, worker, jobs) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut st| st.execute(params![tournament, worker, ids]))
            .map_err(|e| classify(&path, e))?;
            Some(tx.last_insert_rowid())
        };
        tx.commit().map_err(|e| classify(&path, e))?;
        self.claims.scans.insert(
            tournament,
            Scan {
                after,
                filter: runnable.map(<[u32]>::to_vec),
            },
        );
        if let Some(row) = row {
            self.claims.rows.insert(
                row,
                ClaimRow {
                    tournament,
                    worker: worker.to_owned(),
                    open: jobs.len(),
                },
            );
            for j in &jobs {
                self.claims.jobs.insert(
                    j.id,
                    Held {
                        tournament,
                        attempt: j.attempt,
                        row,
                    },
                );
            }
        }
        Ok(jobs)
    }

    fn complete(&mut self, worker: &str, games: &[FinishedGame]) -> Result<Completion, StoreError> {
        let path = self.path.clone();
        let claims = &self.claims;
        // A game is stored only for a job this store holds for `worker`, with the same
        // attempt, in the game's own tournament: that proves its job exists there, so the
        // game row needs no foreign-key check (they are off outside `begin`).
        let held = |g: &FinishedGame| {
            claims
                .held(g.job_id, g.attempt, g.tournament)
                .and_then(|h| claims.rows.get(&h.row))
                .is_some_and(|r| r.worker == worker)
        };
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let mut done = Completion::default();
        // Jobs no longer held once this commits: stored here, or by another writer (a game
        // sent twice is refused the second time by the job's key).
        let mut finished: Vec<i64> = Vec::with_capacity(games.len());
        {
            let mut seq: i64 = tx
                .query_row("SELECT coalesce(max(seq), 0) FROM games", [], |r| r.get(0))
                .map_err(|e| classify(&path, e))?;
            // One-row INSERT … VALUES: no statement journal. A game of the job already
            // stored (a second process on the file) is refused by the job's key.
            let mut ins = tx
                .prepare_cached(
                    "INSERT INTO games (job_id, tournament_id, result, termination, plies, moves, detail, wall_ms, finished_ms, seq, attempt, worker, notes) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) \
                     ON CONFLICT (job_id) DO NOTHING",
                )
                .map_err(|e| classify(&path, e))?;
            let now_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            let sql = |e| classify(&path, e);
            // SQLite keeps a statement's bindings across its resets: the batch's constants
            // are bound once, and of a game's values only those that differ from the last
            // game's (a bound text is copied into SQLite's memory, the binding of all 13
            // values was a fifth of the coordinator's instructions a game of random Go).
            ins.raw_bind_parameter(9, now_ms).map_err(sql)?;
            ins.raw_bind_parameter(12, worker).map_err(sql)?;
            let mut last = Bound::default();
            for g in games {
                if !held(g) {
                    done.rejected.push((g.job_id, g.attempt));
                    continue;
                }
                ins.raw_bind_parameter(1, g.job_id).map_err(sql)?;
                bind_changed(&mut ins, 2, &mut last.tournament, g.tournament).map_err(sql)?;
                bind_changed(&mut ins, 3, &mut last.result, g.result.pgn()).map_err(sql)?;
                bind_changed(&mut ins, 4, &mut last.termination, g.termination.code())
                    .map_err(sql)?;
                ins.raw_bind_parameter(5, g.plies).map_err(sql)?;
                ins.raw_bind_parameter(6, g.moves.as_bytes()).map_err(sql)?;
                // Absent detail and notes are bound as NULL once, present ones every game.
                if g.detail.is_some() || !last.no_detail {
                    ins.raw_bind_parameter(7, g.detail.as_deref())
                        .map_err(sql)?;
                    last.no_detail = g.detail.is_none();
                }
                ins.raw_bind_parameter(8, g.wall_ms).map_err(sql)?;
                ins.raw_bind_parameter(10, seq + 1).map_err(sql)?;
                bind_changed(&mut ins, 11, &mut last.attempt, g.attempt).map_err(sql)?;
                if !g.notes.is_empty() || !last.no_notes {
                    ins.raw_bind_parameter(13, encode_notes(&g.notes))
                        .map_err(sql)?;
                    last.no_notes = g.notes.is_empty();
                }
                let stored = ins.raw_execute().map_err(sql)?;
                finished.push(g.job_id);
                if stored == 0 {
                    done.rejected.push((g.job_id, g.attempt));
                } else {
                    seq += 1;
                    done.accepted += 1;
                }
            }
            // A claim's row goes with its last job.
            finished.sort_unstable();
            finished.dedup();
            let mut emptied: FxHashMap<i64, usize> = FxHashMap::default();
            for id in &finished {
                if let Some(h) = claims.jobs.get(id) {
                    *emptied.entry(h.row).or_default() += 1;
                }
            }
            let mut delete = tx
                .prepare_cached("DELETE FROM claims WHERE id = ?1")
                .map_err(|e| classify(&path, e))?;
            for (row, n) in emptied {
                if claims.rows.get(&row).is_some_and(|r| r.open == n) {
                    delete.execute([row]).map_err(|e| classify(&path, e))?;
                }
            }
        }
        tx.commit().map_err(|e| classify(&path, e))?;
        for id in finished {
            self.claims.let_go(id);
        }
        Ok(done)
    }

    fn release(&mut self, jobs: &[ClaimedJob]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let claims = &self.claims;
        let mut released: Vec<i64> = jobs
            .iter()
            .filter(|j| claims.held(j.id, j.attempt, j.tournament).is_some())
            .map(|j| j.id)
            .collect();
        released.sort_unstable();
        released.dedup();
        if released.is_empty() {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        {
            // A claim that ends without a game counts as an attempt, as a dead run's does.
            let mut count = tx
                .prepare_cached("UPDATE jobs SET attempt = attempt + 1 WHERE id = ?1")
                .map_err(|e| classify(&path, e))?;
            for id in &released {
                count.execute([id]).map_err(|e| classify(&path, e))?;
            }
            // Each claim row touched keeps the jobs still held, or goes: one pass over the
            // held jobs sorts those not released into their touched rows.
            let mut rows: BTreeMap<i64, Vec<i64>> = released
                .iter()
                .filter_map(|id| claims.jobs.get(id))
                .map(|h| (h.row, Vec::new()))
                .collect();
            for (id, h) in &claims.jobs {
                if let Some(kept) = rows.get_mut(&h.row) {
                    if released.binary_search(id).is_err() {
                        kept.push(*id);
                    }
                }
            }
            for (row, mut kept) in rows {
                kept.sort_unstable();
                if kept.is_empty() {
                    tx.execute("DELETE FROM claims WHERE id = ?1", [row])
                } else {
                    tx.execute(
                        "UPDATE claims SET jobs = ?2 WHERE id = ?1",
                        params![row, json_array(kept)],
                    )
                }
                .map_err(|e| classify(&path, e))?;
            }
        }
        tx.commit().map_err(|e| classify(&path, e))?;
        for id in released {
            if let Some(h) = self.claims.let_go(id) {
                // The next claim's scan goes back to the first job let go.
                if let Some(scan) = self.claims.scans.get_mut(&h.tournament) {
                    scan.after = scan.after.min(id - 1);
                }
            }
        }
        Ok(())
    }

    fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT t.id, t.name, t.game, t.config, t.fingerprint, t.created, t.program_version, \
                 (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id), \
                 (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id \
                  AND EXISTS (SELECT 1 FROM games g WHERE g.job_id = j.id)) \
                 FROM tournaments t ORDER BY t.id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([], |r| {
                let name: String = r.get(1)?;
                Ok(TournamentRow {
                    id: r.get(0)?,
                    game: game_kind(r, 2, &name)?,
                    name,
                    config: r.get(3)?,
                    fingerprint: r.get(4)?,
                    created: r.get(5)?,
                    program_version: r.get(6)?,
                    players: Vec::new(),
                    total: r.get::<_, i64>(7)? as u64,
                    done: r.get::<_, i64>(8)? as u64,
                })
            })
            .map_err(|e| self.sql(e))?;
        let mut out: Vec<TournamentRow> =
            rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        let mut st = self
            .conn
            .prepare("SELECT spec FROM players WHERE tournament_id = ?1 ORDER BY idx")
            .map_err(|e| self.sql(e))?;
        for t in &mut out {
            let rows = st
                .query_map([t.id], |r| r.get(0))
                .map_err(|e| self.sql(e))?;
            t.players = rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        }
        Ok(out)
    }

    fn status(&self) -> Result<(Vec<TournamentStatus>, Vec<WorkerStatus>), StoreError> {
        // Done: the job has a game. Running: claimed, without a game. Each is counted per
        // tournament on its own: joined to every job, the claimed jobs were scanned once a
        // job (a minute for 600,000 jobs).
        let mut st = self
            .conn
            .prepare(&format!(
                "SELECT t.name, d.done, coalesce(r.running, 0), d.total FROM tournaments t \
                 JOIN (SELECT j.tournament_id AS tid, count(g.job_id) AS done, count(*) AS total \
                       FROM jobs j LEFT JOIN games g ON g.job_id = j.id GROUP BY j.tournament_id) d \
                   ON d.tid = t.id \
                 LEFT JOIN (SELECT f.tournament_id AS tid, count(*) AS running FROM ({}) f \
                            WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.job_id = f.job_id) \
                            GROUP BY f.tournament_id) r \
                   ON r.tid = t.id \
                 ORDER BY t.id",
                self.in_flight_sql()
            ))
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([], |r| {
                let done = r.get::<_, i64>(1)? as u64;
                let running = r.get::<_, i64>(2)? as u64;
                let total = r.get::<_, i64>(3)? as u64;
                Ok(TournamentStatus {
                    name: r.get(0)?,
                    done,
                    running,
                    dead_leases: 0,
                    pending: total.saturating_sub(done + running),
                })
            })
            .map_err(|e| self.sql(e))?;
        let tournaments = rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        let mut st = self
            .conn
            .prepare(
                "SELECT coalesce(worker, '?'), (strftime('%s','now') * 1000 - max(finished_ms)) / 1000.0, \
                 sum(finished_ms >= strftime('%s','now') * 1000 - 60000), count(*) FROM games GROUP BY worker ORDER BY worker",
            )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([], |r| {
                Ok(WorkerStatus {
                    name: r.get(0)?,
                    seen_secs_ago: r.get(1)?,
                    games_last_minute: r.get::<_, i64>(2)? as u64,
                    games_total: r.get::<_, i64>(3)? as u64,
                    cannot_run: String::new(),
                })
            })
            .map_err(|e| self.sql(e))?;
        let workers = rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        Ok((tournaments, workers))
    }

    fn results(&self, tournament: Option<&str>) -> Result<Vec<ResultRow>, StoreError> {
        let id = self.tournament_id(tournament)?;
        let mut st = self
            .conn
            .prepare(
                "SELECT t.name, pw.spec, pb.spec, g.result, g.termination, g.plies, \
                 strftime('%Y.%m.%d', g.finished_ms / 1000, 'unixepoch'), t.game, j.opening, g.moves FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id \
                 JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
                 JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black \
                 WHERE ?1 IS NULL OR g.tournament_id = ?1 ORDER BY g.seq",
           )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([id], |r| {
                Ok(ResultRow {
                    tournament: r.get(0)?,
                    white: r.get(1)?,
                    black: r.get(2)?,
                    result: parse_result(&r.get::<_, String>(3)?),
                    termination: parse_termination(&r.get::<_, String>(4)?),
                    plies: r.get(5)?,
                    date: r
                        .get::<_, Option<String>>(6)?
                        .unwrap_or_else(|| "????.??.??".to_owned()),
                    identity: identity(r, 7, 8, 9)?,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn games(&self, tournament: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        let id = self.tournament_id(tournament)?;
        let mut st = self
            .conn
            .prepare(&format!(
                "{} WHERE ?1 IS NULL OR g.tournament_id = ?1 ORDER BY g.seq",
                self.game_select()
            ))
            .map_err(|e| self.sql(e))?;
        let setups = self.setups()?;
        let rows = st
            .query_map([id], |r| game_row(r, &setups))
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn results_since(&self, after: i64, limit: usize) -> Result<Vec<ResultEntry>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "{RESULT_ENTRY} WHERE g.seq > ?1 ORDER BY g.seq LIMIT ?2"
            ))
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map(params![after, limit as i64], result_entry)
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn results_with_seq(&self, seqs: &[i64]) -> Result<Vec<ResultEntry>, StoreError> {
        if seqs.is_empty() {
            return Ok(Vec::new());
        }
        let list = json_array(seqs);
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "{RESULT_ENTRY} WHERE g.seq IN (SELECT value FROM json_each(?1)) ORDER BY g.seq"
            ))
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([list], result_entry)
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn jobs_in_flight(&self, tournament: i64) -> Result<Vec<JobInFlight>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached(&format!(
                "SELECT j.id, j.white, j.black, j.round, f.worker, j.attempt + f.extra \
                 FROM ({}) f JOIN jobs j ON j.id = f.job_id \
                 WHERE f.tournament_id = ?1 \
                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.job_id = j.id) ORDER BY j.id",
                self.in_flight_sql()
            ))
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map(params![tournament], |r| {
                Ok(JobInFlight {
                    job_id: r.get(0)?,
                    white: r.get(1)?,
                    black: r.get(2)?,
                    round: r.get(3)?,
                    worker: r.get(4)?,
                    attempt: r.get(5)?,
                    lease_left_ms: None,
                })
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn game(&self, job_id: i64) -> Result<Option<GameRow>, StoreError> {
        let setups = self.setups()?;
        self.conn
            .query_row(
                &format!("{} WHERE g.job_id = ?1", self.game_select()),
                [job_id],
                |r| game_row(r, &setups),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    fn results_by_key(&self, tournament: &str) -> Result<Vec<(u32, GameResult)>, StoreError> {
        let id = self.tournament_id(Some(tournament))?;
        let mut st = self
            .conn
            .prepare(
                "SELECT j.key, g.result FROM games g JOIN jobs j ON j.id = g.job_id \
                 WHERE j.tournament_id = ?1 ORDER BY j.key",
            )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([id], |r| {
                Ok((r.get::<_, u32>(0)?, parse_result(&r.get::<_, String>(1)?)))
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn job_pairs(&self, tournament: &str) -> Result<Vec<(u32, u32)>, StoreError> {
        let id = self.tournament_id(Some(tournament))?;
        let mut st = self
            .conn
            .prepare("SELECT white, black FROM jobs WHERE tournament_id = ?1 ORDER BY key")
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([id], |r| Ok((r.get::<_, u32>(0)?, r.get::<_, u32>(1)?)))
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }
}

impl SqliteStore {
    /// [`Store::begin`]'s transaction, run with foreign keys checked.
    fn begin_checked(&mut self, plan: &Plan) -> Result<i64, StoreError> {
        let fingerprint = plan.fingerprint();
        let path = self.path.clone();
        let mut fresh = None;
        let tx = self.conn.transaction().map_err(|e| classify(&path, e))?;
        let existing: Option<(i64, String, String)> = tx
            .query_row(
                "SELECT id, fingerprint, game FROM tournaments WHERE name = ?1",
                [&plan.config().name],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| classify(&path, e))?;
        let id = match existing {
            Some((id, fp, game)) => {
                if fp != fingerprint {
                    let stored: Vec<String> = {
                        let mut st = tx
                            .prepare(
                                "SELECT spec FROM players WHERE tournament_id = ?1 ORDER BY idx",
                            )
                            .map_err(|e| classify(&path, e))?;
                        let rows = st
                            .query_map([id], |r| r.get(0))
                            .map_err(|e| classify(&path, e))?;
                        rows.collect::<Result<_, _>>()
                            .map_err(|e| classify(&path, e))?
                    };
                    let what = if game != plan.game().name() {
                        format!("game {game} there, {} here", plan.game())
                    } else if stored != plan.players() {
                        format!(
                            "players [{}] there, [{}] here",
                            stored.join(", "),
                            plan.players().join(", ")
                        )
                    } else {
                        "games per pair, seed, openings, draw rules or max_plies differ".to_owned()
                    };
                    return Err(StoreError::PlanMismatch {
                        path,
                        name: plan.config().name.clone(),
                        what,
                    });
                }
                // A single process owns an SQLite file: anything left running died with it
                // (the claims of a run of schema 1 marked their jobs running). Unless this
                // store holds claims of the tournament, their rows go, and each job of
                // them without a game counts the claim as an attempt.
                tx.execute(
                    "UPDATE jobs SET state = ?1, worker = NULL WHERE tournament_id = ?2 AND state = ?3",
                    params![PENDING, id, RUNNING],
                )
                .map_err(|e| classify(&path, e))?;
                // A tournament this store created has no claims but its own (it holds
                // none here): its jobs past the scan stay as they were, and it is still
                // claimed from its plan.
                let holding = self.claims.rows.values().any(|r| r.tournament == id);
                if self.has_claims && !holding {
                    tx.execute(
                        "UPDATE jobs SET attempt = attempt + 1 WHERE id IN \
                         (SELECT e.value FROM claims c, json_each(c.jobs) e WHERE c.tournament_id = ?1) \
                         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.job_id = jobs.id)",
                        [id],
                    )
                    .map_err(|e| classify(&path, e))?;
                    tx.execute("DELETE FROM claims WHERE tournament_id = ?1", [id])
                        .map_err(|e| classify(&path, e))?;
                }
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO tournaments (name, game, config, fingerprint, program_version) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        plan.config().name,
                        plan.game().name(),
                        plan.config().to_toml(),
                        fingerprint,
                        env!("CARGO_PKG_VERSION")
                    ],
                )
                .map_err(|e| classify(&path, e))?;
                let id = tx.last_insert_rowid();
                {
                    let mut ins = tx
                        .prepare(
                            "INSERT INTO players (tournament_id, idx, spec) VALUES (?1, ?2, ?3)",
                        )
                        .map_err(|e| classify(&path, e))?;
                    for (i, p) in plan.players().iter().enumerate() {
                        ins.execute(params![id, i as i64, p])
                            .map_err(|e| classify(&path, e))?;
                    }
                    let mut ins = tx
                        .prepare(
                            "INSERT INTO jobs (tournament_id, key, white, black, round, opening, seed) \
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        )
                        .map_err(|e| classify(&path, e))?;
                    // The jobs' ids follow one another (a new tournament's jobs are written
                    // together); kept from the plan for the claims if they do.
                    let mut first_id = None;
                    let mut consecutive = plan.jobs().len() <= Fresh::MOST_JOBS;
                    for (i, j) in plan.jobs().iter().enumerate() {
                        let opening = j.opening.map(|o| plan.openings()[o as usize].as_str());
                        ins.execute(params![
                            id,
                            j.key,
                            j.white,
                            j.black,
                            j.round,
                            opening,
                            j.seed as i64
                        ])
                        .map_err(|e| classify(&path, e))?;
                        let job_id = tx.last_insert_rowid();
                        let first = *first_id.get_or_insert(job_id);
                        consecutive &= job_id == first + i as i64;
                    }
                    if let (Some(first_id), true) = (first_id, consecutive) {
                        fresh = Some(Fresh {
                            first_id,
                            jobs: plan.jobs().to_vec(),
                            openings: plan.openings().to_vec(),
                            next: 0,
                        });
                    }
                }
                id
            }
        };
        tx.commit().map_err(|e| classify(&path, e))?;
        if let Some(f) = fresh {
            self.claims.fresh.insert(id, f);
        }
        Ok(id)
    }

    /// Each tournament's [`GameSetup`] by name, for its game rows.
    fn setups(&self) -> Result<HashMap<String, GameSetup>, StoreError> {
        let mut st = self
            .conn
            .prepare_cached("SELECT name, config FROM tournaments")
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(|e| self.sql(e))?;
        let pairs: Vec<(String, String)> =
            rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        Ok(super::setups(pairs))
    }

    /// The columns of a [`GameRow`] and the joins they need, read by `game_row` (a file
    /// without the notes column reads none).
    fn game_select(&self) -> String {
        let notes = if self.has_notes { "g.notes" } else { "NULL" };
        format!(
            "SELECT g.job_id, t.name, t.game, pw.spec, pb.spec, j.round, g.result, g.termination, g.plies, \
             g.moves, j.opening, j.seed, g.wall_ms, g.detail, strftime('%Y.%m.%d', g.finished_ms / 1000, 'unixepoch'), {notes} \
             FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id \
             JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
             JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black"
        )
    }
}

/// Reads column `i`, a stored game's name, into its kind (an unknown game is a conversion
/// error that names the tournament and the game).
fn game_kind(r: &rusqlite::Row<'_>, i: usize, tournament: &str) -> rusqlite::Result<GameKind> {
    let text: String = r.get(i)?;
    super::stored_game(tournament, &text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// Reads column `i`, a game's moves, as their codes: the two-byte words this store writes
/// ([`MoveRecord`]), or the text that files written before them hold.
fn moves_text(
    r: &rusqlite::Row<'_>,
    i: usize,
    game: GameKind,
    job_id: i64,
) -> rusqlite::Result<String> {
    use rusqlite::types::{Type, ValueRef};
    match r.get_ref(i)? {
        ValueRef::Text(text) => Ok(String::from_utf8_lossy(text).into_owned()),
        ValueRef::Blob(bytes) => MoveRecord::text_of(game, bytes).map_err(|e| {
            let why = format!("the stored moves of game {job_id}: {e}");
            rusqlite::Error::FromSqlConversionFailure(i, Type::Blob, why.into())
        }),
        other => Err(rusqlite::Error::InvalidColumnType(
            i,
            "moves".to_owned(),
            other.data_type(),
        )),
    }
}

fn game_row(
    r: &rusqlite::Row<'_>,
    setups: &HashMap<String, GameSetup>,
) -> rusqlite::Result<GameRow> {
    let tournament: String = r.get(1)?;
    let job_id: i64 = r.get(0)?;
    let game = game_kind(r, 2, &tournament)?;
    Ok(GameRow {
        setup: setups.get(&tournament).copied().unwrap_or_default(),
        job_id,
        moves: moves_text(r, 9, game, job_id)?,
        game,
        tournament,
        white: r.get(3)?,
        black: r.get(4)?,
        round: r.get(5)?,
        result: parse_result(&r.get::<_, String>(6)?),
        termination: parse_termination(&r.get::<_, String>(7)?),
        plies: r.get(8)?,
        opening: r.get(10)?,
        seed: r.get::<_, i64>(11)? as u64,
        wall_ms: r.get(12)?,
        detail: r.get(13)?,
        date: r
            .get::<_, Option<String>>(14)?
            .unwrap_or_else(|| "????.??.??".to_owned()),
        notes: decode_notes(r.get::<_, Option<String>>(15)?.as_deref()),
    })
}

/// The columns of a [`ResultEntry`], read by `result_entry`.
const RESULT_ENTRY: &str = "SELECT g.seq, g.job_id, g.tournament_id, j.white, j.black, g.result, \
     g.termination, g.plies, g.wall_ms, g.finished_ms, g.worker, j.round, t.game, j.opening, g.moves \
     FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id";

/// Reads a game's identity from columns `game` (its game's name), `opening` and `moves`
/// without copying them: the move words as stored, or the text that files written before
/// them hold, read into words (a text that does not read is hashed as it is).
fn identity(
    r: &rusqlite::Row<'_>,
    game: usize,
    opening: usize,
    moves: usize,
) -> rusqlite::Result<GameIdentity> {
    use rusqlite::types::ValueRef;
    let opening = match r.get_ref(opening)? {
        ValueRef::Text(t) => Some(std::str::from_utf8(t).unwrap_or_default()),
        _ => None,
    };
    Ok(match r.get_ref(moves)? {
        ValueRef::Blob(words) => GameIdentity::of(opening, words),
        ValueRef::Text(text) => {
            let text = String::from_utf8_lossy(text);
            match r.get_ref(game)?.as_str().ok().and_then(|g| g.parse().ok()) {
                Some(kind) => GameIdentity::of_codes(kind, opening, &text),
                None => GameIdentity::of_text(opening, &text),
            }
        }
        _ => GameIdentity::of_text(opening, ""),
    })
}

fn result_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<ResultEntry> {
    Ok(ResultEntry {
        seq: r.get(0)?,
        job_id: r.get(1)?,
        tournament_id: r.get(2)?,
        white: r.get(3)?,
        black: r.get(4)?,
        result: parse_result(&r.get::<_, String>(5)?),
        termination: parse_termination(&r.get::<_, String>(6)?),
        plies: r.get(7)?,
        wall_ms: r.get(8)?,
        finished_ms: r.get(9)?,
        worker: r.get(10)?,
        round: r.get(11)?,
        identity: identity(r, 12, 13, 14)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FinishedGame, TournamentConfig};
    use eloworld_games::Termination;

    fn plan(name: &str) -> Plan {
        let mut config = TournamentConfig::new(name, GameKind::Chess, vec!["random_move".into()]);
        config.self_play = true;
        config.games_per_pair = 3;
        Plan::new(&config).expect("plan")
    }

    /// A new store in `dir`.
    fn fresh(dir: &tempfile::TempDir, file: &str) -> SqliteStore {
        let path = dir.path().join(file);
        SqliteStore::open(&path.to_string_lossy(), true).expect("open")
    }

    fn finished(job: &ClaimedJob) -> FinishedGame {
        FinishedGame {
            job_id: job.id,
            tournament: job.tournament,
            attempt: job.attempt,
            result: GameResult::Draw,
            termination: Termination::MaxPlies,
            plies: 2,
            moves: MoveRecord::from_text(GameKind::Chess, "e2e4 e7e5").expect("UCI"),
            detail: None,
            wall_ms: 1.0,
            notes: Vec::new(),
        }
    }

    /// A batch binds a value only when it differs from the game before's: each stored row
    /// still holds its own game's result, termination, attempt, detail and notes, as they
    /// change, repeat, and come and go (absent, present, absent again), within a batch and
    /// from one batch to the next.
    #[test]
    fn each_game_of_a_batch_keeps_its_own_values() {
        let dir = tempfile::tempdir().expect("tmp");
        let mut store = fresh(&dir, "values.sqlite");
        let id = store.begin(&plan_of("values", 6)).expect("begin");
        let jobs = store.claim(id, "w", 6, None).expect("claim");
        assert_eq!(jobs.len(), 6);
        let noted = vec![crate::MoveNote::searched(
            Some(eloworld_players::engine::Score::Centipawns(31)),
            Some(7),
            std::time::Duration::from_millis(5),
        )];
        let varied = |i: usize| {
            let mut g = finished(&jobs[i]);
            match i % 3 {
                1 => {
                    g.result = GameResult::Win(eloworld_games::Side::First);
                    g.termination = Termination::Checkmate;
                    g.detail = Some(format!("detail {i}"));
                    g.notes.clone_from(&noted);
                }
                2 => g.result = GameResult::Win(eloworld_games::Side::Second),
                _ => {}
            }
            g
        };
        let games: Vec<FinishedGame> = (0..6).map(varied).collect();
        assert_eq!(store.complete("w", &games[..4]).expect("first").accepted, 4);
        assert_eq!(
            store.complete("w", &games[4..]).expect("second").accepted,
            2
        );
        let mut st = store
            .conn
            .prepare(
                "SELECT job_id, result, termination, detail, notes IS NOT NULL, attempt \
                 FROM games ORDER BY job_id",
            )
            .expect("sql");
        let stored: Vec<(i64, String, String, Option<String>, bool, u32)> = st
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows");
        let expected: Vec<(i64, String, String, Option<String>, bool, u32)> = games
            .iter()
            .map(|g| {
                (
                    g.job_id,
                    g.result.pgn().to_owned(),
                    g.termination.code().to_owned(),
                    g.detail.clone(),
                    !g.notes.is_empty(),
                    g.attempt,
                )
            })
            .collect();
        assert_eq!(stored, expected);
        assert_eq!(
            count(&store, "SELECT count(DISTINCT result) FROM games"),
            3,
            "three results"
        );
    }

    #[test]
    fn a_game_is_stored_only_for_its_claim_in_its_own_tournament() {
        let dir = tempfile::tempdir().expect("tmp");
        let mut store = fresh(&dir, "fence.sqlite");
        let first = store.begin(&plan("first")).expect("begin");
        let second = store.begin(&plan("second")).expect("begin");
        let jobs = store.claim(first, "w", 3, None).expect("claim");
        assert_eq!(jobs.len(), 3);
        assert!(jobs.iter().all(|j| j.tournament == first));
        let good = finished(&jobs[0]);
        let stale = FinishedGame {
            attempt: jobs[1].attempt + 1,
            ..finished(&jobs[1])
        };
        let elsewhere = FinishedGame {
            tournament: second,
            ..finished(&jobs[2])
        };
        let done = store
            .complete("w", &[good, stale, elsewhere])
            .expect("complete");
        assert_eq!(done.accepted, 1);
        assert_eq!(
            done.rejected,
            vec![
                (jobs[1].id, jobs[1].attempt + 1),
                (jobs[2].id, jobs[2].attempt)
            ]
        );
        let rows = store.results(None).expect("results");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].tournament, "first");
        // Every stored row has its parents, though games are written without SQLite's checks.
        let orphans: i64 = store
            .conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .expect("check");
        assert_eq!(orphans, 0);
    }

    #[test]
    fn a_rows_identity_is_its_start_and_moves_in_either_stored_form() {
        let dir = tempfile::tempdir().expect("tmp");
        let mut store = fresh(&dir, "identity.sqlite");
        let id = store.begin(&plan("copies")).expect("begin");
        let jobs = store.claim(id, "w", 3, None).expect("claim");
        let games: Vec<FinishedGame> = jobs.iter().map(finished).collect();
        assert_eq!(store.complete("w", &games).expect("complete").accepted, 3);
        let identities = |store: &SqliteStore| {
            let rows = store.results(None).expect("results");
            let live = store.results_since(0, 10).expect("since");
            assert_eq!(
                rows.iter().map(|r| r.identity).collect::<Vec<_>>(),
                live.iter().map(|r| r.identity).collect::<Vec<_>>()
            );
            rows.iter().map(|r| r.identity).collect::<Vec<_>>()
        };
        let same = identities(&store);
        assert!(same.iter().all(|&i| i == same[0]), "one game, three times");
        // The same moves kept as text (a file written before the records) are the same game;
        // other moves, or the same moves from another start, are another.
        let set = |sql: &str, job: i64| {
            store.conn.execute(sql, [job]).expect(sql);
        };
        set(
            "UPDATE games SET moves = 'e2e4 e7e5' WHERE job_id = ?1",
            jobs[0].id,
        );
        set(
            "UPDATE games SET moves = 'd2d4 d7d5' WHERE job_id = ?1",
            jobs[1].id,
        );
        set(
            "UPDATE jobs SET opening = '8/8/8/8/8/8/8/K1k5 w - - 0 1' WHERE id = ?1",
            jobs[2].id,
        );
        let changed = identities(&store);
        assert_eq!(changed[0], same[0]);
        assert_ne!(changed[1], same[0]);
        assert_ne!(changed[2], same[0]);
        assert_ne!(changed[1], changed[2]);
    }

    #[test]
    fn moves_are_stored_two_bytes_a_move_and_old_text_still_reads() {
        let dir = tempfile::tempdir().expect("tmp");
        let mut store = fresh(&dir, "moves.sqlite");
        let id = store.begin(&plan("moves")).expect("begin");
        let jobs = store.claim(id, "w", 3, None).expect("claim");
        let games: Vec<FinishedGame> = jobs.iter().map(finished).collect();
        assert_eq!(store.complete("w", &games).expect("complete").accepted, 3);
        let (kind, bytes): (String, i64) = store
            .conn
            .query_row(
                "SELECT typeof(moves), length(moves) FROM games WHERE job_id = ?1",
                [jobs[0].id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("row");
        assert_eq!(
            (kind.as_str(), bytes),
            ("blob", 4),
            "two moves, two bytes each"
        );
        // A file written before the records holds text, and reads as it did.
        store
            .conn
            .execute(
                "UPDATE games SET moves = 'd2d4 d7d5' WHERE job_id = ?1",
                [jobs[1].id],
            )
            .expect("old row");
        let rows = store.games(None).expect("games");
        let moves_of = |job: i64| {
            rows.iter()
                .find(|g| g.job_id == job)
                .map(|g| g.moves.clone())
                .expect("stored")
        };
        assert_eq!(moves_of(jobs[0].id), "e2e4 e7e5");
        assert_eq!(moves_of(jobs[1].id), "d2d4 d7d5");
        // A damaged record is an error that names the game, not made-up moves.
        store
            .conn
            .execute(
                "UPDATE games SET moves = x'010203' WHERE job_id = ?1",
                [jobs[2].id],
            )
            .expect("damage");
        let err = store.games(None).expect_err("odd bytes").to_string();
        assert!(
            err.contains(&format!("game {}", jobs[2].id)) && err.contains("3 bytes"),
            "{err}"
        );
    }

    /// A store on `{name}.sqlite` in `dir` with the tournament `name` of `n` jobs begun in
    /// it, and the tournament's id.
    fn begun(dir: &tempfile::TempDir, name: &str, n: u32) -> (SqliteStore, i64) {
        let mut store = fresh(dir, &format!("{name}.sqlite"));
        let id = store.begin(&plan_of(name, n)).expect("begin");
        (store, id)
    }

    /// A plan of `n` jobs.
    fn plan_of(name: &str, n: u32) -> Plan {
        let mut config = TournamentConfig::new(name, GameKind::Chess, vec!["random_move".into()]);
        config.self_play = true;
        config.games_per_pair = n;
        Plan::new(&config).expect("plan")
    }

    fn count(store: &SqliteStore, sql: &str) -> i64 {
        store.conn.query_row(sql, [], |r| r.get(0)).expect(sql)
    }

    /// (done, running, pending) of the only tournament, as `status` reads them.
    fn counts(store: &SqliteStore) -> (u64, u64, u64) {
        let (t, _) = store.status().expect("status");
        (t[0].done, t[0].running, t[0].pending)
    }

    fn in_flight(store: &SqliteStore, id: i64) -> Vec<(i64, Option<String>, u32)> {
        store
            .jobs_in_flight(id)
            .expect("in flight")
            .into_iter()
            .map(|j| (j.job_id, j.worker, j.attempt))
            .collect()
    }

    #[test]
    fn a_claim_is_one_row_that_readers_see_in_flight_until_its_games_are_stored() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut store, id) = begun(&dir, "claims", 6);
        let jobs = store.claim(id, "w", 4, None).expect("claim");
        assert_eq!(jobs.len(), 4);
        assert!(jobs.iter().all(|j| j.attempt == 1));
        // No job row is written by the claim: one row of `claims` lists the four.
        assert_eq!(
            count(
                &store,
                "SELECT count(*) FROM jobs WHERE state != 0 OR attempt != 0 OR worker IS NOT NULL"
            ),
            0
        );
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 1);
        // Another connection (the dashboard's, `status`'s) sees them claimed.
        let path = dir.path().join("claims.sqlite");
        let reader = SqliteStore::open(&path.to_string_lossy(), false).expect("reader");
        assert_eq!(counts(&reader), (0, 4, 2));
        let ids: Vec<i64> = jobs.iter().map(|j| j.id).collect();
        assert_eq!(
            in_flight(&reader, id),
            ids.iter()
                .map(|&j| (j, Some("w".to_owned()), 1))
                .collect::<Vec<_>>()
        );
        let games: Vec<FinishedGame> = jobs.iter().map(finished).collect();
        assert_eq!(
            store.complete("w", &games[..3]).expect("complete").accepted,
            3
        );
        assert_eq!(counts(&reader), (3, 1, 2));
        assert_eq!(
            in_flight(&reader, id),
            vec![(ids[3], Some("w".to_owned()), 1)]
        );
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 1);
        // The claim's row goes with its last game.
        assert_eq!(
            store.complete("w", &games[3..]).expect("complete").accepted,
            1
        );
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 0);
        assert_eq!(counts(&reader), (4, 0, 2));
        // A stored game is not claimed again, here or by a store opened afresh.
        let rest = store.claim(id, "w", 10, None).expect("claim");
        assert_eq!(rest.len(), 2);
        assert!(rest.iter().all(|j| !ids.contains(&j.id)));
        let games: Vec<FinishedGame> = rest.iter().map(finished).collect();
        assert_eq!(store.complete("w", &games).expect("complete").accepted, 2);
        drop(store);
        let (mut again, id) = begun(&dir, "claims", 6);
        assert!(again.claim(id, "w", 10, None).expect("claim").is_empty());
        assert_eq!(again.tournaments().expect("rows")[0].done, 6);
    }

    #[test]
    fn a_new_tournament_is_claimed_from_its_plan_until_a_release_moves_the_scan_back() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut store, id) = begun(&dir, "fresh", 8);
        let rows = |store: &SqliteStore| -> Vec<(i64, u32, u32, u32, u32, u64)> {
            let mut st = store
                .conn
                .prepare("SELECT id, key, white, black, round, seed FROM jobs ORDER BY id")
                .expect("prepare");
            st.query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get::<_, i64>(5)? as u64,
                ))
            })
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("rows")
        };
        let as_row = |j: &ClaimedJob| (j.id, j.key, j.white, j.black, j.round, j.seed);
        let written = rows(&store);
        assert_eq!(written.len(), 8);
        // The run's own `begin` again (as `run` does after the plan was stored) keeps it.
        assert_eq!(store.begin(&plan_of("fresh", 8)).expect("begin"), id);
        // The file's rows are changed behind the store's back: a claim that read them back
        // would see the new seeds; claims from the plan give the jobs as `begin` wrote them.
        store
            .conn
            .execute("UPDATE jobs SET seed = seed + 1", [])
            .expect("update");
        let a = store.claim(id, "w", 3, None).expect("claim");
        let b = store.claim(id, "w", 2, None).expect("claim");
        assert_eq!(a.iter().map(as_row).collect::<Vec<_>>(), written[..3]);
        assert_eq!(b.iter().map(as_row).collect::<Vec<_>>(), written[3..5]);
        assert!(a
            .iter()
            .chain(&b)
            .all(|j| j.attempt == 1 && j.tournament == id));
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 2);
        // A release moves the scan back: from then on the rows are read from the file, the
        // released job first, as a second attempt, and no job still held.
        store.release(&a[1..2]).expect("release");
        let c = store.claim(id, "w", 10, None).expect("claim");
        let reread = rows(&store);
        assert_eq!(
            c.iter().map(as_row).collect::<Vec<_>>(),
            [&reread[1..2], &reread[5..]].concat()
        );
        assert_eq!(
            c.iter().map(|j| j.attempt).collect::<Vec<_>>(),
            vec![2, 1, 1, 1]
        );
        // Every job is stored once, whichever way it was claimed.
        let mut games: Vec<FinishedGame> = a.iter().chain(&b).chain(&c).map(finished).collect();
        games.remove(1); // a[1]'s first attempt was released
        assert_eq!(store.complete("w", &games).expect("complete").accepted, 8);
        assert!(store.claim(id, "w", 10, None).expect("claim").is_empty());
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 0);
    }

    #[test]
    fn released_and_abandoned_claims_come_back_as_new_attempts() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut store, id) = begun(&dir, "again", 6);
        let jobs = store.claim(id, "w", 3, None).expect("claim");
        store.release(&jobs[1..2]).expect("release");
        assert_eq!(
            in_flight(&store, id)
                .into_iter()
                .map(|j| j.0)
                .collect::<Vec<_>>(),
            vec![jobs[0].id, jobs[2].id]
        );
        assert_eq!(counts(&store), (0, 2, 4));
        // The released job is the next one claimed, as its second attempt.
        let next = store.claim(id, "w", 1, None).expect("claim");
        assert_eq!((next[0].id, next[0].attempt), (jobs[1].id, 2));
        // A game of the released attempt is refused; the new attempt's is stored with it.
        let stale = store
            .complete("w", &[finished(&jobs[1])])
            .expect("complete");
        assert_eq!(stale.rejected, vec![(jobs[1].id, 1)]);
        assert_eq!(
            store
                .complete("w", &[finished(&next[0])])
                .expect("complete")
                .accepted,
            1
        );
        assert_eq!(
            count(
                &store,
                &format!("SELECT attempt FROM games WHERE job_id = {}", jobs[1].id)
            ),
            2
        );
        // A run that dies holding claims leaves their rows; the next `begin` clears them and
        // counts each as an attempt.
        drop(store);
        let mut store = fresh(&dir, "again.sqlite");
        assert_eq!(counts(&store), (1, 2, 3));
        let id = store.begin(&plan_of("again", 6)).expect("begin");
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 0);
        assert_eq!(counts(&store), (1, 0, 5));
        let all = store.claim(id, "w", 10, None).expect("claim");
        let attempt_of = |job: i64| all.iter().find(|j| j.id == job).map(|j| j.attempt);
        assert_eq!(attempt_of(jobs[0].id), Some(2));
        assert_eq!(attempt_of(jobs[2].id), Some(2));
        assert_eq!(all.len(), 5);
        assert_eq!(all.iter().filter(|j| j.attempt == 1).count(), 3);
    }

    #[test]
    fn id_lists_are_json_arrays_sqlite_reads() {
        assert_eq!(json_array(Vec::<i64>::new()), "[]");
        assert_eq!(json_array([7]), "[7]");
        assert_eq!(json_array([1_i64, 20, 300]), "[1,20,300]");
        let dir = tempfile::tempdir().expect("tmp");
        let store = fresh(&dir, "json.sqlite");
        let sum: i64 = store
            .conn
            .query_row(
                "SELECT sum(value) FROM json_each(?1)",
                [json_array([1_i64, 20, 300])],
                |r| r.get(0),
            )
            .expect("json_each");
        assert_eq!(sum, 321);
    }

    #[test]
    fn a_new_file_has_16_kb_pages_and_a_file_of_4_kb_pages_keeps_and_uses_them() {
        let dir = tempfile::tempdir().expect("tmp");
        let store = fresh(&dir, "new.sqlite");
        assert_eq!(count(&store, "PRAGMA page_size"), PAGE_SIZE);
        drop(store);
        // A file made with SQLite's default pages, as builds before this one made them.
        let old = dir.path().join("old.sqlite");
        {
            let conn = Connection::open(&old).expect("old file");
            conn.execute_batch("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;")
                .expect("4 KB pages");
            conn.execute_batch(SCHEMA).expect("schema");
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?1)",
                [SCHEMA_VERSION.to_string()],
            )
            .expect("version");
        }
        let mut store = SqliteStore::open(&old.to_string_lossy(), true).expect("open");
        assert_eq!(count(&store, "PRAGMA page_size"), 4096);
        let id = store.begin(&plan_of("old", 3)).expect("begin");
        let jobs = store.claim(id, "w", 3, None).expect("claim");
        let games: Vec<FinishedGame> = jobs.iter().map(finished).collect();
        assert_eq!(store.complete("w", &games).expect("stored").accepted, 3);
        assert_eq!(counts(&store), (3, 0, 0));
    }

    #[test]
    fn a_file_of_schema_1_is_read_as_it_was_and_upgraded_when_written() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("old.sqlite");
        let (done, running) = {
            let (mut store, id) = begun(&dir, "old", 5);
            let jobs = store.claim(id, "w", 2, None).expect("claim");
            assert_eq!(
                store
                    .complete("w", &[finished(&jobs[0])])
                    .expect("done")
                    .accepted,
                1
            );
            // As a build of schema 1 left it: its job states, no claims table.
            store
                .conn
                .execute_batch(&format!(
                    "DROP TABLE claims; UPDATE meta SET value = '1' WHERE key = 'schema_version'; \
                     UPDATE jobs SET state = 2, attempt = 1 WHERE id = {}; \
                     UPDATE jobs SET state = 1, attempt = 1, worker = 'old' WHERE id = {};",
                    jobs[0].id, jobs[1].id
                ))
                .expect("schema 1");
            (jobs[0].id, jobs[1].id)
        };
        let mut store = SqliteStore::open(&path.to_string_lossy(), false).expect("open");
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 0);
        assert_eq!(
            count(
                &store,
                "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'schema_version'"
            ),
            SCHEMA_VERSION
        );
        // Its running job is read as running, by the worker that claimed it.
        assert_eq!(counts(&store), (1, 1, 3));
        let id = store.tournaments().expect("rows")[0].id;
        assert_eq!(
            in_flight(&store, id),
            vec![(running, Some("old".to_owned()), 1)]
        );
        // Resumed, its running job is pending again, on its next attempt, and its done job
        // is not played again.
        let id = store.begin(&plan_of("old", 5)).expect("begin");
        let jobs = store.claim(id, "w", 10, None).expect("claim");
        assert_eq!(jobs.len(), 4);
        assert!(jobs.iter().all(|j| j.id != done));
        assert_eq!(
            jobs.iter().find(|j| j.id == running).map(|j| j.attempt),
            Some(2)
        );
    }

    #[test]
    fn a_game_another_writer_stored_is_refused_not_stored_twice() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut first, id) = begun(&dir, "two", 2);
        let mine = first.claim(id, "a", 1, None).expect("claim");
        let (mut second, _) = begun(&dir, "two", 2);
        let theirs = second.claim(id, "b", 1, None).expect("claim");
        assert_eq!(theirs[0].id, mine[0].id);
        assert_eq!(
            second
                .complete("b", &[finished(&theirs[0])])
                .expect("b")
                .accepted,
            1
        );
        let late = first.complete("a", &[finished(&mine[0])]).expect("a");
        assert_eq!((late.accepted, late.rejected), (0, vec![(mine[0].id, 1)]));
        assert_eq!(count(&first, "SELECT count(*) FROM games"), 1);
    }

    #[test]
    fn a_game_sent_twice_in_one_batch_is_stored_once_and_its_claim_stays() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut store, id) = begun(&dir, "twice", 3);
        let jobs = store.claim(id, "w", 2, None).expect("claim");
        let game = finished(&jobs[0]);
        let done = store
            .complete("w", &[game.clone(), game])
            .expect("complete");
        assert_eq!((done.accepted, done.rejected), (1, vec![(jobs[0].id, 1)]));
        assert_eq!(count(&store, "SELECT count(*) FROM games"), 1);
        // The claim's other job is still held and shown in flight.
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 1);
        assert_eq!(
            in_flight(&store, id),
            vec![(jobs[1].id, Some("w".to_owned()), 1)]
        );
        assert_eq!(
            store
                .complete("w", &[finished(&jobs[1])])
                .expect("done")
                .accepted,
            1
        );
        assert_eq!(count(&store, "SELECT count(*) FROM claims"), 0);
    }
}
