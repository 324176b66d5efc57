//! The embedded SQLite store: one file, WAL journal.

use super::{decode_notes, encode_notes, parse_result, parse_termination};
use super::{
    ClaimedJob, Completion, FinishedGame, GameRow, JobInFlight, ResultEntry, ResultRow, Store,
    TournamentRow, TournamentStatus, WorkerStatus,
};
use crate::{GameSetup, Plan, StoreError};
use eloworld_games::{GameKind, GameResult, MoveRecord};
use rusqlite::{params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use std::collections::HashMap;
use std::path::Path;

/// The newest schema version this build writes and reads.
pub const SCHEMA_VERSION: i64 = 1;

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
-- Only pending jobs are indexed by state: a claim takes them from this index, and marking a
-- running job done then touches no index (an index of every state cost two B-tree writes a game).
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

/// Job states in the `jobs.state` column.
const PENDING: i64 = 0;
const RUNNING: i64 = 1;
const DONE: i64 = 2;
// The claim's SQL and the partial index `jobs_pending` spell the pending state as 0.
const _: () = assert!(PENDING == 0);

/// An SQLite file holding tournaments and their games.
pub struct SqliteStore {
    conn: Connection,
    path: String,
    /// Whether the games table has the `notes` column (files written before it was added
    /// get it when opened for writing; a read-only old file is read without notes).
    has_notes: bool,
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
        };
        store.init(create)?;
        store.has_notes = store.add_notes_column()?;
        Ok(store)
    }

    fn init(&self, create: bool) -> Result<(), StoreError> {
        let p = &self.path;
        self.conn
            .busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| classify(p, e))?;
        // Reading the schema first tells a non-database file apart before anything is written.
        let has_meta: bool = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name = 'meta'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| classify(p, e))?
            > 0;
        if has_meta {
            let v: Option<String> = self
                .conn
                .query_row(
                    "SELECT value FROM meta WHERE key = 'schema_version'",
                    [],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| classify(p, e))?;
            let v: i64 = v.and_then(|s| s.parse().ok()).unwrap_or(0);
            if v > SCHEMA_VERSION {
                return Err(StoreError::SchemaTooNew {
                    path: p.clone(),
                    found: v,
                    supported: SCHEMA_VERSION,
                });
            }
        }
        if create {
            self.conn
                .pragma_update(None, "journal_mode", "WAL")
                .map_err(|e| classify(p, e))?;
            // Foreign keys are checked in `begin`, where rows get their parents; a game is
            // fenced by its job's update instead (see `complete`).
            self.conn
                .execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;")
                .map_err(|e| classify(p, e))?;
            self.conn
                .execute_batch(SCHEMA)
                .map_err(|e| classify(p, e))?;
            self.conn
                .execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?1)",
                    [SCHEMA_VERSION.to_string()],
                )
                .map_err(|e| classify(p, e))?;
        } else if !has_meta {
            return Err(StoreError::NotADatabase { path: p.clone() });
        }
        Ok(())
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
        let games_table: i64 = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        if games_table == 0 || has(&self.conn).map_err(|e| self.sql(e))? {
            return Ok(games_table > 0);
        }
        // Read-only files stay as they are.
        let _ = self
            .conn
            .execute_batch("ALTER TABLE games ADD COLUMN notes TEXT");
        has(&self.conn).map_err(|e| self.sql(e))
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
        // Player lists are short: the filter is spelled out as a JSON array SQLite can read.
        let allowed = runnable.map(|r| {
            format!(
                "[{}]",
                r.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
            )
        });
        // The write lock is taken first, so that the rows read are the rows marked.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| classify(&path, e))?;
        let jobs = {
            // Read, then mark the same ids in one range update: an UPDATE … RETURNING costs
            // SQLite a temporary table per claim, more than the read. `state = 0` (PENDING)
            // is written out: the planner uses the partial index `jobs_pending` only for a
            // literal that matches its condition.
            let filter = "(?3 IS NULL OR (white IN (SELECT value FROM json_each(?3)) \
                          AND black IN (SELECT value FROM json_each(?3))))";
            let mut read = tx
                .prepare_cached(&format!(
                    "SELECT id, key, attempt, white, black, round, opening, seed FROM jobs \
                     WHERE tournament_id = ?1 AND state = 0 AND {filter} ORDER BY id LIMIT ?2"
                ))
                .map_err(|e| classify(&path, e))?;
            let rows = read
                .query_map(params![tournament, max as i64, allowed], |r| {
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
            let jobs: Vec<ClaimedJob> = rows
                .collect::<Result<_, _>>()
                .map_err(|e| classify(&path, e))?;
            if let (Some(first), Some(last)) = (jobs.first(), jobs.last()) {
                let mut mark = tx
                    .prepare_cached(&format!(
                        "UPDATE jobs SET state = ?4, worker = ?5, attempt = attempt + 1 \
                         WHERE tournament_id = ?1 AND state = 0 AND id BETWEEN ?2 AND ?6 AND {filter}"
                    ))
                    .map_err(|e| classify(&path, e))?;
                let marked = mark
                    .execute(params![
                        tournament, first.id, allowed, RUNNING, worker, last.id
                    ])
                    .map_err(|e| classify(&path, e))?;
                if marked != jobs.len() {
                    return Err(StoreError::Backend(format!(
                        "{path}: claimed {} jobs but marked {marked} as running",
                        jobs.len()
                    )));
                }
            }
            jobs
        };
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(jobs)
    }

    fn complete(&mut self, worker: &str, games: &[FinishedGame]) -> Result<Completion, StoreError> {
        let path = self.path.clone();
        let tx = self.conn.transaction().map_err(|e| classify(&path, e))?;
        let mut done = Completion::default();
        {
            let mut seq: i64 = tx
                .query_row("SELECT coalesce(max(seq), 0) FROM games", [], |r| r.get(0))
                .map_err(|e| classify(&path, e))?;
            // No RETURNING: SQLite answers it through a temporary table each time, which
            // cost more than the update. The fenced update proves that the job exists, in
            // the game's tournament, so the game row needs no foreign-key check (they are
            // off outside `begin`), and a one-row INSERT … VALUES no statement journal.
            let mut mark = tx
                .prepare_cached(
                    "UPDATE jobs SET state = ?1 \
                     WHERE id = ?2 AND state = ?3 AND attempt = ?4 AND worker = ?5 AND tournament_id = ?6",
                )
                .map_err(|e| classify(&path, e))?;
            let mut ins = tx
                .prepare_cached(
                    "INSERT INTO games (job_id, tournament_id, result, termination, plies, moves, detail, wall_ms, finished_ms, seq, attempt, worker, notes) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                )
                .map_err(|e| classify(&path, e))?;
            let now_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            for g in games {
                let marked = mark
                    .execute(params![
                        DONE,
                        g.job_id,
                        RUNNING,
                        g.attempt,
                        worker,
                        g.tournament
                    ])
                    .map_err(|e| classify(&path, e))?;
                if marked == 0 {
                    done.rejected.push((g.job_id, g.attempt));
                    continue;
                }
                seq += 1;
                ins.execute(params![
                    g.job_id,
                    g.tournament,
                    g.result.pgn(),
                    g.termination.code(),
                    g.plies,
                    g.moves.as_bytes(),
                    g.detail,
                    g.wall_ms,
                    now_ms,
                    seq,
                    g.attempt,
                    worker,
                    encode_notes(&g.notes)
                ])
                .map_err(|e| classify(&path, e))?;
                done.accepted += 1;
            }
        }
        tx.commit().map_err(|e| classify(&path, e))?;
        Ok(done)
    }

    fn release(&mut self, jobs: &[ClaimedJob]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let tx = self.conn.transaction().map_err(|e| classify(&path, e))?;
        {
            let mut st = tx
                .prepare_cached("UPDATE jobs SET state = ?1, worker = NULL WHERE id = ?2 AND state = ?3 AND attempt = ?4")
                .map_err(|e| classify(&path, e))?;
            for j in jobs {
                st.execute(params![PENDING, j.id, RUNNING, j.attempt])
                    .map_err(|e| classify(&path, e))?;
            }
        }
        tx.commit().map_err(|e| classify(&path, e))
    }

    fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let mut st = self
            .conn
            .prepare(
                "SELECT t.id, t.name, t.game, t.config, t.fingerprint, t.created, t.program_version, \
                 (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id), \
                 (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id AND j.state = 2) \
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
        let mut st = self
            .conn
            .prepare(
                "SELECT t.name, sum(j.state = 2), sum(j.state = 1), sum(j.state = 0) \
                 FROM tournaments t JOIN jobs j ON j.tournament_id = t.id GROUP BY t.id ORDER BY t.id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map([], |r| {
                Ok(TournamentStatus {
                    name: r.get(0)?,
                    done: r.get::<_, i64>(1)? as u64,
                    running: r.get::<_, i64>(2)? as u64,
                    dead_leases: 0,
                    pending: r.get::<_, i64>(3)? as u64,
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
                 strftime('%Y.%m.%d', g.finished_ms / 1000, 'unixepoch') FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id \
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
        let list = format!(
            "[{}]",
            seqs.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
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
            .prepare_cached(
                "SELECT id, white, black, round, worker, attempt FROM jobs \
                 WHERE tournament_id = ?1 AND state = ?2 ORDER BY id",
            )
            .map_err(|e| self.sql(e))?;
        let rows = st
            .query_map(params![tournament, RUNNING], |r| {
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
                // A single process owns an SQLite file: anything left running died with it.
                tx.execute(
                    "UPDATE jobs SET state = ?1, worker = NULL WHERE tournament_id = ?2 AND state = ?3",
                    params![PENDING, id, RUNNING],
                )
                .map_err(|e| classify(&path, e))?;
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
                    for j in plan.jobs() {
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
                    }
                }
                id
            }
        };
        tx.commit().map_err(|e| classify(&path, e))?;
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
     g.termination, g.plies, g.wall_ms, g.finished_ms, g.worker, j.round FROM games g JOIN jobs j ON j.id = g.job_id";

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
}
