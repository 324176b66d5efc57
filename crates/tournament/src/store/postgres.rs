//! The PostgreSQL store: one database shared by any number of workers on any number of
//! machines (DESIGN.md, "Store").
//!
//! Workers claim small batches of jobs with `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP
//! LOCKED)`, each claim carrying the worker's name, an attempt number and a lease expiry
//! measured on the server's clock. A finished game is written in one transaction that
//! checks the job is still claimed by the same worker and attempt, and the games table's
//! key is the job id, so a late or repeated report can never count twice. Any worker
//! returns expired leases to pending (the reaper).
//!
//! Lost connections (a server restart, a network blip) are retried with backoff for up to
//! [`PgStore::RETRY_FOR`]; the fenced writes make every retry safe.

use super::pg_tls::{SslMode, TlsSettings};
use super::redact;
use super::{decode_notes, encode_notes, parse_result, parse_termination};
use super::{
    ClaimedJob, Completion, FinishedGame, GameRow, JobInFlight, ResultEntry, ResultRow, Store,
    TournamentRow, TournamentStatus, WorkerSeen, WorkerStatus,
};
use crate::copies::GameIdentity;
use crate::{GameSetup, Plan, StoreError};
use eloworld_games::GameResult;
use postgres::{Client, Row};
use postgres_openssl::MakeTlsConnector;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The schema migrations, applied in order; `schema_migrations` records which ran.
const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        "
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'utc', 'YYYY-MM-DD HH24:MI:SS'),
    program_version TEXT NOT NULL
);
CREATE TABLE players (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    spec TEXT NOT NULL,
    UNIQUE (tournament_id, idx)
);
CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    key INTEGER NOT NULL,
    white INTEGER NOT NULL,
    black INTEGER NOT NULL,
    round INTEGER NOT NULL,
    opening TEXT,
    seed BIGINT NOT NULL,
    state SMALLINT NOT NULL DEFAULT 0,
    worker TEXT,
    attempt INTEGER NOT NULL DEFAULT 0,
    lease_until BIGINT,
    UNIQUE (tournament_id, key)
);
CREATE INDEX jobs_state ON jobs (tournament_id, state, id);
CREATE TABLE games (
    job_id BIGINT PRIMARY KEY REFERENCES jobs(id),
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,
    detail TEXT,
    wall_ms DOUBLE PRECISION NOT NULL,
    finished_ms BIGINT NOT NULL,
    seq BIGSERIAL,
    worker TEXT,
    attempt INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX games_seq ON games (seq);
CREATE INDEX games_tournament ON games (tournament_id);
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    last_seen_ms BIGINT NOT NULL,
    cannot_run TEXT NOT NULL DEFAULT ''
);
",
    ),
    // Per-move notes (score, depth, time, book) for PGN comments.
    (2, "ALTER TABLE games ADD COLUMN IF NOT EXISTS notes TEXT;"),
    // A game row costs the server what a whole random chess game costs its worker: its two
    // foreign keys were two trigger queries a row (each locking the row it checks), the
    // index of its tournament one more B-tree insert, and its moves (1.8 KB in a random chess
    // game) were compressed with pglz whenever a row passed 2 KB. Games are inserted only for
    // the jobs the same statement marks done (so their job and tournament exist), nothing
    // deletes jobs or tournaments, and readers find a tournament's games through its jobs;
    // rows up to a page now stay whole and uncompressed (`toast_tuple_target`).
    (
        3,
        "ALTER TABLE games DROP CONSTRAINT IF EXISTS games_job_id_fkey;
ALTER TABLE games DROP CONSTRAINT IF EXISTS games_tournament_id_fkey;
DROP INDEX IF EXISTS games_tournament;
ALTER TABLE games SET (toast_tuple_target = 8160);",
    ),
];

/// Milliseconds since the epoch on the server's clock (leases never depend on a worker's clock).
const NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/// Job states in the `jobs.state` column (as in the SQLite store).
const PENDING: i16 = 0;
const RUNNING: i16 = 1;
const DONE: i16 = 2;

/// A PostgreSQL database holding tournaments and their games.
pub struct PgStore {
    config: postgres::Config,
    /// `sslmode=allow`: the configuration with TLS, tried when the one without fails.
    with_tls: Option<postgres::Config>,
    tls: MakeTlsConnector,
    /// Since when the connection has been lost (noted once, and again when back).
    lost_since: std::sync::Mutex<Option<Instant>>,
    client: Mutex<Option<Client>>,
    display: String,
    lease: Duration,
    /// Set once a connection has worked: from then on, lost connections are retried.
    connected_once: AtomicBool,
}

/// Finds a password for `config` in `PGPASSWORD` or the password file (`PGPASSFILE`, else
/// `~/.pgpass`), as libpq does: lines `host:port:database:user:password`, `*` matching any.
fn password_from_environment(config: &postgres::Config) -> Option<String> {
    if let Ok(p) = std::env::var("PGPASSWORD") {
        return Some(p);
    }
    let file = std::env::var_os("PGPASSFILE")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".pgpass")))?;
    let text = std::fs::read_to_string(file).ok()?;
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            postgres::config::Host::Tcp(s) => s.clone(),
            postgres::config::Host::Unix(p) => p.to_string_lossy().into_owned(),
        })
        .unwrap_or_else(|| "localhost".to_owned());
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user().unwrap_or_default().to_owned();
    let db = config.get_dbname().unwrap_or(&user).to_owned();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(5, ':').collect();
        if fields.len() == 5 {
            let ok = |pattern: &str, value: &str| pattern == "*" || pattern == value;
            if ok(fields[0], &host)
                && ok(fields[1], &port)
                && ok(fields[2], &db)
                && ok(fields[3], &user)
            {
                return Some(fields[4].to_owned());
            }
        }
    }
    None
}

/// Where notes on the connection go (`eloworld worker` prints them): one when it is lost,
/// one when it is back.
static CONNECTION_NOTES: std::sync::OnceLock<std::sync::mpsc::Sender<String>> =
    std::sync::OnceLock::new();

/// Sends a note to `sink` each time a PostgreSQL store loses its connection and each time it
/// has it back (a server restart, a network blip), so that a worker that waits says why. Only
/// the first call takes effect.
pub fn tap_connection_notes(sink: std::sync::mpsc::Sender<String>) {
    let _ = CONNECTION_NOTES.set(sink);
}

fn connection_note(text: String) {
    if let Some(sink) = CONNECTION_NOTES.get() {
        let _ = sink.send(text);
    }
}

fn retryable(e: &postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        // The server is starting, stopping or restarting; the connection was cut.
        Some(c) => {
            let c = c.code();
            c.starts_with("08")
                || c == "57P01"
                || c == "57P02"
                || c == "57P03"
                || c == "40001"
                || c == "40P01"
        }
        // No SQL state: an I/O or protocol error, i.e. the connection is gone.
        None => e.as_db_error().is_none(),
    }
}

impl PgStore {
    /// How long lost connections are retried before an operation fails.
    pub const RETRY_FOR: Duration = Duration::from_secs(300);
    /// The default lease of a claim.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);

    /// Connects to the database at `location` (`postgres://user@host/db`, or libpq's
    /// `key=value` form) and applies the schema migrations this build knows.
    ///
    /// # Errors
    /// [`StoreError::Backend`] naming the (password-free) location.
    pub fn open(location: &str) -> Result<PgStore, StoreError> {
        let display = redact(location);
        let (location, tls) = TlsSettings::take(location)
            .map_err(|e| StoreError::Backend(format!("{display}: {e}")))?;
        let mut config: postgres::Config = location.parse().map_err(|e| {
            StoreError::Backend(format!(
                "{display}: not a PostgreSQL connection string: {e}"
            ))
        })?;
        if config.get_password().is_none() {
            if let Some(p) = password_from_environment(&config) {
                config.password(p);
            }
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        config.ssl_mode(tls.mode.wire());
        let with_tls = (tls.mode == SslMode::Allow).then(|| {
            let mut c = config.clone();
            c.ssl_mode(postgres::config::SslMode::Require);
            c
        });
        let connector = tls
            .connector()
            .map_err(|e| StoreError::Backend(format!("{display}: TLS: {e}")))?;
        let mut store = PgStore {
            config,
            with_tls,
            tls: connector,
            lost_since: std::sync::Mutex::new(None),
            client: Mutex::new(None),
            display,
            lease: PgStore::DEFAULT_LEASE,
            connected_once: AtomicBool::new(false),
        };
        store.migrate()?;
        Ok(store)
    }

    fn err(&self, e: &postgres::Error) -> StoreError {
        StoreError::Backend(format!("{}: {}", self.display, error_text(e)))
    }

    /// Runs `f` on a live connection, reconnecting and retrying on connection loss once a
    /// first connection has worked (a wrong address fails at once).
    fn with_client<T>(
        &self,
        mut f: impl FnMut(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let mut wait = Duration::from_millis(100);
        let mut guard = self
            .client
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        loop {
            let patient = self.connected_once.load(Ordering::Relaxed)
                && started.elapsed() < PgStore::RETRY_FOR;
            if guard.is_none() {
                match self.connect() {
                    Ok(c) => {
                        self.connected_once.store(true, Ordering::Relaxed);
                        self.note_back();
                        *guard = Some(c);
                    }
                    Err(e) => {
                        if !patient || !retryable(&e) && e.as_db_error().is_some() {
                            return Err(self.err(&e));
                        }
                        std::thread::sleep(wait);
                        wait = (wait * 2).min(Duration::from_secs(2));
                        continue;
                    }
                }
            }
            let Some(client) = guard.as_mut() else {
                continue;
            };
            match f(client) {
                Ok(v) => return Ok(v),
                Err(e) if retryable(&e) && patient => {
                    self.note_lost(&e);
                    *guard = None;
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(2));
                }
                Err(e) => {
                    if retryable(&e) {
                        *guard = None;
                    }
                    return Err(self.err(&e));
                }
            }
        }
    }

    /// Connects as the settings ask: `sslmode=allow` first without TLS, then with it.
    fn connect(&self) -> Result<Client, postgres::Error> {
        match (self.config.connect(self.tls.clone()), &self.with_tls) {
            (Err(_), Some(with_tls)) => with_tls.connect(self.tls.clone()),
            (result, _) => result,
        }
    }

    /// Notes a lost connection, once until it is back.
    fn note_lost(&self, e: &postgres::Error) {
        let mut lost = self
            .lost_since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lost.is_none() {
            *lost = Some(Instant::now());
            connection_note(format!(
                "lost the connection to {} ({}); reconnecting for up to {} s",
                self.display,
                error_text(e),
                PgStore::RETRY_FOR.as_secs()
            ));
        }
    }

    /// Notes a connection back after a loss.
    fn note_back(&self) {
        let since = self
            .lost_since
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(since) = since {
            connection_note(format!(
                "connection to {} back after {:.1} s",
                self.display,
                since.elapsed().as_secs_f64()
            ));
        }
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let known = MIGRATIONS.last().map_or(0, |m| m.0);
        let found = self.with_client(|c| {
            let mut tx = c.transaction()?;
            // One migrator at a time, whatever the number of workers starting together.
            tx.execute("SELECT pg_advisory_xact_lock(7142016)", &[])?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, \
                 applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
            )?;
            let current: i32 = tx
                .query_one(
                    "SELECT coalesce(max(version), 0) FROM schema_migrations",
                    &[],
                )?
                .get(0);
            if current <= known {
                for (version, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
                    tx.batch_execute(sql)?;
                    tx.execute(
                        "INSERT INTO schema_migrations (version) VALUES ($1)",
                        &[version],
                    )?;
                }
            }
            tx.commit()?;
            Ok(current)
        })?;
        if found > known {
            return Err(StoreError::SchemaTooNew {
                path: self.display.clone(),
                found: found.into(),
                supported: known.into(),
            });
        }
        Ok(())
    }

    /// Each tournament's [`GameSetup`] by name, for its game rows.
    fn setups(&self) -> Result<HashMap<String, GameSetup>, StoreError> {
        let rows = self.with_client(|c| c.query("SELECT name, config FROM tournaments", &[]))?;
        Ok(super::setups(
            rows.iter()
                .map(|r| (r.get::<_, String>(0), r.get::<_, String>(1))),
        ))
    }

    fn tournament_id(&self, name: Option<&str>) -> Result<Option<i64>, StoreError> {
        let Some(n) = name else { return Ok(None) };
        let n = n.to_owned();
        let id: Option<i64> = self.with_client(|c| {
            Ok(
                c.query_opt("SELECT id FROM tournaments WHERE name = $1", &[&n])?
                    .map(|r| r.get(0)),
            )
        })?;
        match id {
            Some(id) => Ok(Some(id)),
            None => Err(StoreError::NotFound(format!(
                "no tournament {n:?} in {}",
                self.display
            ))),
        }
    }
}

fn error_text(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{} ({})", db.message(), db.code().code()),
        None => {
            // The cause chain says what failed (refused, TLS certificate, timeout).
            let mut text = e.to_string();
            let mut cause = std::error::Error::source(e);
            while let Some(c) = cause {
                text.push_str(": ");
                text.push_str(&c.to_string());
                cause = c.source();
            }
            text
        }
    }
}

fn claimed(r: &Row, tournament: i64) -> ClaimedJob {
    ClaimedJob {
        id: r.get(0),
        tournament,
        key: r.get::<_, i32>(1) as u32,
        attempt: r.get::<_, i32>(2) as u32,
        white: r.get::<_, i32>(3) as u32,
        black: r.get::<_, i32>(4) as u32,
        round: r.get::<_, i32>(5) as u32,
        opening: r.get(6),
        seed: r.get::<_, i64>(7) as u64,
    }
}

impl Store for PgStore {
    fn location(&self) -> String {
        self.display.clone()
    }

    fn begin(&mut self, plan: &Plan) -> Result<i64, StoreError> {
        let fingerprint = plan.fingerprint();
        let display = self.display.clone();
        let outcome = self.with_client(|c| {
            let mut tx = c.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock(7142017)", &[])?;
            let existing = tx.query_opt(
                "SELECT id, fingerprint, game FROM tournaments WHERE name = $1",
                &[&plan.config().name],
            )?;
            if let Some(row) = existing {
                let (id, fp, game): (i64, String, String) = (row.get(0), row.get(1), row.get(2));
                if fp == fingerprint {
                    return Ok(Ok((id, false)));
                }
                let stored: Vec<String> = tx
                    .query("SELECT spec FROM players WHERE tournament_id = $1 ORDER BY idx", &[&id])?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                let what = if game != plan.game().name() {
                    format!("game {game} there, {} here", plan.game())
                } else if stored != plan.players() {
                    format!("players [{}] there, [{}] here", stored.join(", "), plan.players().join(", "))
                } else {
                    "games per pair, seed, openings, draw rules or max_plies differ".to_owned()
                };
                return Ok(Err(what));
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO tournaments (name, game, config, fingerprint, program_version) \
                     VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    &[&plan.config().name, &plan.game().name(), &plan.config().to_toml(), &fingerprint, &env!("CARGO_PKG_VERSION")],
                )?
                .get(0);
            let idx: Vec<i32> = (0..plan.players().len() as i32).collect();
            tx.execute(
                "INSERT INTO players (tournament_id, idx, spec) SELECT $1, * FROM unnest($2::int[], $3::text[])",
                &[&id, &idx, &plan.players()],
            )?;
            for chunk in plan.jobs().chunks(50_000) {
                let key: Vec<i32> = chunk.iter().map(|j| j.key as i32).collect();
                let white: Vec<i32> = chunk.iter().map(|j| j.white as i32).collect();
                let black: Vec<i32> = chunk.iter().map(|j| j.black as i32).collect();
                let round: Vec<i32> = chunk.iter().map(|j| j.round as i32).collect();
                let opening: Vec<Option<String>> =
                    chunk.iter().map(|j| j.opening.map(|o| plan.openings()[o as usize].clone())).collect();
                let seed: Vec<i64> = chunk.iter().map(|j| j.seed as i64).collect();
                tx.execute(
                    "INSERT INTO jobs (tournament_id, key, white, black, round, opening, seed) \
                     SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::text[], $7::bigint[])",
                    &[&id, &key, &white, &black, &round, &opening, &seed],
                )?;
            }
            tx.commit()?;
            Ok(Ok((id, true)))
        })?;
        let (id, new) = outcome.map_err(|what| StoreError::PlanMismatch {
            path: display,
            name: plan.config().name.clone(),
            what,
        })?;
        if new {
            // The planner's statistics must know the new tournament's jobs: with none, it
            // took the tournament for one row, read its jobs by `(tournament_id, key)` and
            // sorted them all for every claim (150 ms a claim of a 200,000-job tournament
            // in a table of 12 million jobs, where autovacuum's threshold, a tenth of the
            // table, was far off), where `jobs_state` gives the first pending ones at once.
            self.with_client(|c| c.batch_execute("ANALYZE jobs"))?;
        }
        Ok(id)
    }

    fn claim(
        &mut self,
        tournament: i64,
        worker: &str,
        max: usize,
        runnable: Option<&[u32]>,
    ) -> Result<Vec<ClaimedJob>, StoreError> {
        let lease_ms = self.lease.as_millis() as i64;
        let allowed: Option<Vec<i32>> = runnable.map(|r| r.iter().map(|&i| i as i32).collect());
        let sql = format!(
            "UPDATE jobs SET state = {RUNNING}, worker = $1, attempt = attempt + 1, lease_until = {NOW_MS} + $2 \
             WHERE id IN (SELECT id FROM jobs WHERE tournament_id = $3 AND state = {PENDING} \
               AND ($5::int[] IS NULL OR (white = ANY($5) AND black = ANY($5))) \
               ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED) \
             RETURNING id, key, attempt, white, black, round, opening, seed"
        );
        let max = max as i64;
        let mut jobs: Vec<ClaimedJob> = self.with_client(|c| {
            Ok(c.query(
                sql.as_str(),
                &[&worker, &lease_ms, &tournament, &max, &allowed],
            )?
            .iter()
            .map(|r| claimed(r, tournament))
            .collect())
        })?;
        jobs.sort_by_key(|j| j.id);
        Ok(jobs)
    }

    /// A batch of games is one statement and one commit, whatever its size: the games go to
    /// the server as arrays, each job is marked done where this worker's claim (its attempt,
    /// its tournament) still holds it, and the games of the jobs so marked are inserted.
    /// Sent one game at a time (two statements a game) this cost the runner 0.2 ms a game
    /// on a local server, five times the whole game of random chess. The jobs are marked
    /// from the keys' arrays alone: an `UPDATE … FROM` keeps a whole copy of each row it
    /// joins (to recheck it against a concurrent update), and joined to the games it copied
    /// and flattened every game's moves once more. The games' arrays are unnested in the
    /// select list, which streams them: `FROM unnest(…)` first copies every row into a
    /// tuple store, and a batch of 2,000 random chess games (3.5 MB of moves) spilled it to a
    /// temporary file.
    fn complete(&mut self, worker: &str, games: &[FinishedGame]) -> Result<Completion, StoreError> {
        if games.is_empty() {
            return Ok(Completion::default());
        }
        // A job sent twice in one batch is stored from its first game (as one at a time
        // did); both count as accepted below, being this claim's.
        let mut seen = std::collections::HashSet::with_capacity(games.len());
        let first: Vec<&FinishedGame> = games.iter().filter(|g| seen.insert(g.job_id)).collect();
        let job: Vec<i64> = first.iter().map(|g| g.job_id).collect();
        let tournament: Vec<i64> = first.iter().map(|g| g.tournament).collect();
        let attempt: Vec<i32> = first.iter().map(|g| g.attempt as i32).collect();
        let result: Vec<&str> = first.iter().map(|g| g.result.pgn()).collect();
        let termination: Vec<&str> = first.iter().map(|g| g.termination.code()).collect();
        let plies: Vec<i32> = first.iter().map(|g| g.plies as i32).collect();
        // The shared store keeps the moves as text, readable by any client.
        let moves: Vec<String> = first.iter().map(|g| g.moves.text()).collect();
        let detail: Vec<Option<&str>> = first.iter().map(|g| g.detail.as_deref()).collect();
        let wall_ms: Vec<f64> = first.iter().map(|g| g.wall_ms).collect();
        let notes: Vec<Option<String>> = first.iter().map(|g| encode_notes(&g.notes)).collect();
        let store = format!(
            "WITH g AS (SELECT unnest($2::bigint[]) AS job_id, unnest($3::bigint[]) AS tournament_id,                  unnest($4::int[]) AS attempt, unnest($5::text[]) AS result, unnest($6::text[]) AS termination,                  unnest($7::int[]) AS plies, unnest($8::text[]) AS moves, unnest($9::text[]) AS detail,                  unnest($10::float8[]) AS wall_ms, unnest($11::text[]) AS notes),              marked AS (UPDATE jobs SET state = {DONE}, lease_until = NULL                  FROM unnest($2::bigint[], $3::bigint[], $4::int[]) AS g(job_id, tournament_id, attempt)                  WHERE jobs.id = g.job_id AND jobs.state = {RUNNING} AND jobs.worker = $1                  AND jobs.attempt = g.attempt AND jobs.tournament_id = g.tournament_id RETURNING jobs.id),              stored AS (INSERT INTO games (job_id, tournament_id, result, termination, plies, moves, detail,                  wall_ms, finished_ms, worker, attempt, notes)                  SELECT g.job_id, g.tournament_id, g.result, g.termination, g.plies, g.moves, g.detail,                  g.wall_ms, {NOW_MS}, $1, g.attempt, g.notes FROM g JOIN marked ON marked.id = g.job_id                  ON CONFLICT (job_id) DO NOTHING)              SELECT id FROM marked"
        );
        self.with_client(|c| {
            let mut tx = c.transaction()?;
            let marked: std::collections::HashSet<i64> = tx
                .query(
                    store.as_str(),
                    &[
                        &worker,
                        &job,
                        &tournament,
                        &attempt,
                        &result,
                        &termination,
                        &plies,
                        &moves,
                        &detail,
                        &wall_ms,
                        &notes,
                    ],
                )?
                .iter()
                .map(|r| r.get(0))
                .collect();
            // A game is stored now if its job was marked by it (its job's first game in the
            // batch). The others were stored already by this very claim (a retry after a
            // lost reply, or the same job twice in the batch), or are refused.
            let mut counted = std::collections::HashSet::with_capacity(games.len());
            let fresh: Vec<bool> = games
                .iter()
                .map(|g| counted.insert(g.job_id) && marked.contains(&g.job_id))
                .collect();
            let unmarked: Vec<i64> = games
                .iter()
                .zip(&fresh)
                .filter(|(_, &f)| !f)
                .map(|(g, _)| g.job_id)
                .collect();
            let mine: std::collections::HashSet<(i64, i32)> = if unmarked.is_empty() {
                std::collections::HashSet::new()
            } else {
                tx.query(
                    "SELECT job_id, attempt FROM games WHERE job_id = ANY($1) AND worker = $2",
                    &[&unmarked, &worker],
                )?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect()
            };
            tx.commit()?;
            let mut done = Completion::default();
            for (g, fresh) in games.iter().zip(fresh) {
                if fresh || mine.contains(&(g.job_id, g.attempt as i32)) {
                    done.accepted += 1;
                } else {
                    done.rejected.push((g.job_id, g.attempt));
                }
            }
            Ok(done)
        })
    }

    fn release(&mut self, jobs: &[ClaimedJob]) -> Result<(), StoreError> {
        let ids: Vec<i64> = jobs.iter().map(|j| j.id).collect();
        let attempts: Vec<i32> = jobs.iter().map(|j| j.attempt as i32).collect();
        let sql = format!(
            "UPDATE jobs SET state = {PENDING}, worker = NULL, lease_until = NULL FROM unnest($1::bigint[], $2::int[]) AS r(id, attempt) \
             WHERE jobs.id = r.id AND jobs.attempt = r.attempt AND jobs.state = {RUNNING}"
        );
        self.with_client(|c| c.execute(sql.as_str(), &[&ids, &attempts]).map(|_| ()))
    }

    fn lease(&self) -> Option<Duration> {
        Some(self.lease)
    }

    fn set_lease(&mut self, lease: Duration) {
        self.lease = lease;
    }

    fn renew(&mut self, worker: &str, jobs: &[ClaimedJob]) -> Result<(), StoreError> {
        if jobs.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = jobs.iter().map(|j| j.id).collect();
        let lease_ms = self.lease.as_millis() as i64;
        let sql = format!(
            "UPDATE jobs SET lease_until = {NOW_MS} + $3 WHERE id = ANY($1) AND worker = $2 AND state = {RUNNING}"
        );
        self.with_client(|c| {
            c.execute(sql.as_str(), &[&ids, &worker, &lease_ms])
                .map(|_| ())
        })
    }

    /// The jobs are looked up tournament by tournament through `jobs_state`, whose first
    /// column is the tournament: asked for the state alone, the planner read every job of
    /// the store, 0.4–0.5 s in a store of 1–5 million jobs, at every look of a worker
    /// waiting for the jobs others hold (5 ms this way).
    fn reap(&mut self) -> Result<u64, StoreError> {
        let sql = format!(
            "UPDATE jobs SET state = {PENDING}, worker = NULL, lease_until = NULL \
             WHERE tournament_id IN (SELECT id FROM tournaments) \
             AND state = {RUNNING} AND lease_until < {NOW_MS}"
        );
        self.with_client(|c| c.execute(sql.as_str(), &[]))
    }

    fn heartbeat(&mut self, worker: &str, cannot_run: &str) -> Result<(), StoreError> {
        let sql = format!(
            "INSERT INTO workers (name, last_seen_ms, cannot_run) VALUES ($1, {NOW_MS}, $2) \
             ON CONFLICT (name) DO UPDATE SET last_seen_ms = EXCLUDED.last_seen_ms, cannot_run = EXCLUDED.cannot_run"
        );
        self.with_client(|c| c.execute(sql.as_str(), &[&worker, &cannot_run]).map(|_| ()))
    }

    fn status(&self) -> Result<(Vec<TournamentStatus>, Vec<WorkerStatus>), StoreError> {
        let tsql = status_sql("");
        let wsql = format!(
            "WITH g AS (SELECT worker, count(*) FILTER (WHERE finished_ms >= {NOW_MS} - 60000) AS recent, count(*) AS total \
               FROM games GROUP BY worker) \
             SELECT coalesce(w.name, g.worker, '?'), coalesce(({NOW_MS} - w.last_seen_ms) / 1000.0, -1)::float8, \
               coalesce(g.recent, 0), coalesce(g.total, 0), coalesce(w.cannot_run, '') \
             FROM workers w FULL JOIN g ON g.worker = w.name ORDER BY 1"
        );
        self.with_client(|c| {
            let ts = c
                .query(tsql.as_str(), &[])?
                .iter()
                .map(tournament_status)
                .collect();
            let ws = c
                .query(wsql.as_str(), &[])?
                .iter()
                .map(|r| WorkerStatus {
                    name: r.get(0),
                    seen_secs_ago: r.get(1),
                    games_last_minute: r.get::<_, i64>(2) as u64,
                    games_total: r.get::<_, i64>(3) as u64,
                    cannot_run: r.get(4),
                })
                .collect();
            Ok((ts, ws))
        })
    }

    fn tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = tournaments_sql("");
        let rows = self.with_client(|c| c.query(sql.as_str(), &[]))?;
        rows.iter().map(tournament_row).collect()
    }

    /// One tournament's row: its jobs counted alone, not every tournament's.
    fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        let sql = tournaments_sql("WHERE t.id = $1");
        let row = self.with_client(|c| c.query_opt(sql.as_str(), &[&id]))?;
        row.as_ref().map(tournament_row).transpose()
    }

    /// One tournament's job counts, read alone.
    fn tournament_status(&self, id: i64) -> Result<Option<TournamentStatus>, StoreError> {
        let sql = status_sql("WHERE t.id = $1");
        let row = self.with_client(|c| c.query_opt(sql.as_str(), &[&id]))?;
        Ok(row.as_ref().map(tournament_status))
    }

    fn results(&self, tournament: Option<&str>) -> Result<Vec<ResultRow>, StoreError> {
        let id = self.tournament_id(tournament)?;
        let sql = "SELECT t.name, pw.spec, pb.spec, g.result, g.termination, g.plies, \
             to_char(to_timestamp(g.finished_ms / 1000.0) AT TIME ZONE 'utc', 'YYYY.MM.DD'), t.game, j.opening, g.moves FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id \
             JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
             JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black \
             WHERE $1::bigint IS NULL OR j.tournament_id = $1 ORDER BY g.seq";
        self.with_client(|c| {
            Ok(c.query(sql, &[&id])?
                .iter()
                .map(|r| ResultRow {
                    tournament: r.get(0),
                    white: r.get(1),
                    black: r.get(2),
                    result: parse_result(r.get(3)),
                    termination: parse_termination(r.get(4)),
                    plies: r.get::<_, i32>(5) as u32,
                    date: r.get(6),
                    identity: identity(r, 7, 8, 9),
                })
                .collect())
        })
    }

    fn games(&self, tournament: Option<&str>) -> Result<Vec<GameRow>, StoreError> {
        let id = self.tournament_id(tournament)?;
        let sql =
            format!("{GAME_ROW} WHERE $1::bigint IS NULL OR j.tournament_id = $1 ORDER BY g.seq");
        let setups = self.setups()?;
        let rows = self.with_client(|c| c.query(sql.as_str(), &[&id]))?;
        rows.iter().map(|r| game_row(r, &setups)).collect()
    }

    fn results_since(&self, after: i64, limit: usize) -> Result<Vec<ResultEntry>, StoreError> {
        let sql = format!("{RESULT_ENTRY} WHERE g.seq > $1 ORDER BY g.seq LIMIT $2");
        let limit = limit as i64;
        self.with_client(|c| {
            Ok(c.query(sql.as_str(), &[&after, &limit])?
                .iter()
                .map(result_entry)
                .collect())
        })
    }

    fn results_with_seq(&self, seqs: &[i64]) -> Result<Vec<ResultEntry>, StoreError> {
        if seqs.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!("{RESULT_ENTRY} WHERE g.seq = ANY($1) ORDER BY g.seq");
        self.with_client(|c| {
            Ok(c.query(sql.as_str(), &[&seqs])?
                .iter()
                .map(result_entry)
                .collect())
        })
    }

    fn jobs_in_flight(&self, tournament: i64) -> Result<Vec<JobInFlight>, StoreError> {
        let sql = format!(
            "SELECT id, white, black, round, worker, attempt, lease_until - {NOW_MS} FROM jobs \
             WHERE tournament_id = $1 AND state = {RUNNING} ORDER BY id"
        );
        self.with_client(|c| {
            Ok(c.query(sql.as_str(), &[&tournament])?
                .iter()
                .map(|r| JobInFlight {
                    job_id: r.get(0),
                    white: r.get::<_, i32>(1) as u32,
                    black: r.get::<_, i32>(2) as u32,
                    round: r.get::<_, i32>(3) as u32,
                    worker: r.get(4),
                    attempt: r.get::<_, i32>(5) as u32,
                    lease_left_ms: r.get(6),
                })
                .collect())
        })
    }

    fn game(&self, job_id: i64) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("{GAME_ROW} WHERE g.job_id = $1");
        let setups = self.setups()?;
        let row = self.with_client(|c| c.query_opt(sql.as_str(), &[&job_id]))?;
        row.as_ref().map(|r| game_row(r, &setups)).transpose()
    }

    fn workers_seen(&self) -> Result<Vec<WorkerSeen>, StoreError> {
        let sql = format!(
            "SELECT name, (({NOW_MS} - last_seen_ms) / 1000.0)::float8, cannot_run FROM workers ORDER BY name"
        );
        self.with_client(|c| {
            Ok(c.query(sql.as_str(), &[])?
                .iter()
                .map(|r| WorkerSeen {
                    name: r.get(0),
                    seen_secs_ago: r.get(1),
                    cannot_run: r.get(2),
                })
                .collect())
        })
    }

    fn results_by_key(&self, tournament: &str) -> Result<Vec<(u32, GameResult)>, StoreError> {
        let id = self.tournament_id(Some(tournament))?;
        let sql = "SELECT j.key, g.result FROM games g JOIN jobs j ON j.id = g.job_id \
             WHERE j.tournament_id = $1 ORDER BY j.key";
        self.with_client(|c| {
            Ok(c.query(sql, &[&id])?
                .iter()
                .map(|r| (r.get::<_, i32>(0) as u32, parse_result(r.get(1))))
                .collect())
        })
    }

    fn job_pairs(&self, tournament: &str) -> Result<Vec<(u32, u32)>, StoreError> {
        let id = self.tournament_id(Some(tournament))?;
        let sql = "SELECT white, black FROM jobs WHERE tournament_id = $1 ORDER BY key";
        self.with_client(|c| {
            Ok(c.query(sql, &[&id])?
                .iter()
                .map(|r| (r.get::<_, i32>(0) as u32, r.get::<_, i32>(1) as u32))
                .collect())
        })
    }
}

/// The columns of a [`GameRow`] and the joins they need, read by `game_row`.
const GAME_ROW: &str = "SELECT g.job_id, t.name, t.game, pw.spec, pb.spec, j.round, g.result, g.termination, g.plies, \
     g.moves, j.opening, j.seed, g.wall_ms, g.detail, \
     to_char(to_timestamp(g.finished_ms / 1000.0) AT TIME ZONE 'utc', 'YYYY.MM.DD'), g.notes \
     FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id \
     JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
     JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black";

/// The query of tournaments' rows, with their jobs counted, for those `filter` keeps (a
/// `WHERE` over `t`, or nothing for all).
fn tournaments_sql(filter: &str) -> String {
    format!(
        "SELECT t.id, t.name, t.game, t.config, t.fingerprint, t.created, t.program_version, \
         (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id), \
         (SELECT count(*) FROM jobs j WHERE j.tournament_id = t.id AND j.state = {DONE}), \
         ARRAY(SELECT spec FROM players p WHERE p.tournament_id = t.id ORDER BY p.idx) \
         FROM tournaments t {filter} ORDER BY t.id"
    )
}

/// A row of [`tournaments_sql`].
fn tournament_row(r: &Row) -> Result<TournamentRow, StoreError> {
    let name: String = r.get(1);
    Ok(TournamentRow {
        id: r.get(0),
        game: super::stored_game(&name, r.get(2))?,
        name,
        config: r.get(3),
        fingerprint: r.get(4),
        created: r.get(5),
        program_version: r.get(6),
        total: r.get::<_, i64>(7) as u64,
        done: r.get::<_, i64>(8) as u64,
        players: r.get(9),
    })
}

/// The query of tournaments' job counts by state, for those `filter` keeps (a `WHERE` over
/// `t`, or nothing for all).
fn status_sql(filter: &str) -> String {
    format!(
        "SELECT t.name, count(*) FILTER (WHERE j.state = {DONE}), \
         count(*) FILTER (WHERE j.state = {RUNNING} AND j.lease_until >= {NOW_MS}), \
         count(*) FILTER (WHERE j.state = {RUNNING} AND j.lease_until < {NOW_MS}), \
         count(*) FILTER (WHERE j.state = {PENDING}) \
         FROM tournaments t JOIN jobs j ON j.tournament_id = t.id {filter} GROUP BY t.id ORDER BY t.id"
    )
}

/// A row of [`status_sql`].
fn tournament_status(r: &Row) -> TournamentStatus {
    TournamentStatus {
        name: r.get(0),
        done: r.get::<_, i64>(1) as u64,
        running: r.get::<_, i64>(2) as u64,
        dead_leases: r.get::<_, i64>(3) as u64,
        pending: r.get::<_, i64>(4) as u64,
    }
}

fn game_row(r: &Row, setups: &HashMap<String, GameSetup>) -> Result<GameRow, StoreError> {
    let tournament: String = r.get(1);
    Ok(GameRow {
        setup: setups.get(&tournament).copied().unwrap_or_default(),
        job_id: r.get(0),
        game: super::stored_game(&tournament, r.get(2))?,
        tournament,
        white: r.get(3),
        black: r.get(4),
        round: r.get::<_, i32>(5) as u32,
        result: parse_result(r.get(6)),
        termination: parse_termination(r.get(7)),
        plies: r.get::<_, i32>(8) as u32,
        moves: r.get(9),
        opening: r.get(10),
        seed: r.get::<_, i64>(11) as u64,
        wall_ms: r.get(12),
        detail: r.get(13),
        date: r.get(14),
        notes: decode_notes(r.get::<_, Option<String>>(15).as_deref()),
    })
}

/// The columns of a [`ResultEntry`], read by `result_entry`.
const RESULT_ENTRY: &str = "SELECT g.seq, g.job_id, g.tournament_id, j.white, j.black, g.result, \
     g.termination, g.plies, g.wall_ms, g.finished_ms, g.worker, j.round, t.game, j.opening, g.moves \
     FROM games g JOIN jobs j ON j.id = g.job_id JOIN tournaments t ON t.id = g.tournament_id";

/// Reads a game's identity from its game's name, its opening and its moves' text (this
/// store keeps moves as text), in columns `game`, `opening` and `moves`.
fn identity(r: &Row, game: usize, opening: usize, moves: usize) -> GameIdentity {
    let opening: Option<&str> = r.get(opening);
    let text: &str = r.get(moves);
    match r.get::<_, &str>(game).parse() {
        Ok(kind) => GameIdentity::of_codes(kind, opening, text),
        Err(_) => GameIdentity::of_text(opening, text),
    }
}

fn result_entry(r: &Row) -> ResultEntry {
    ResultEntry {
        seq: r.get(0),
        job_id: r.get(1),
        tournament_id: r.get(2),
        white: r.get::<_, i32>(3) as u32,
        black: r.get::<_, i32>(4) as u32,
        result: parse_result(r.get(5)),
        termination: parse_termination(r.get(6)),
        plies: r.get::<_, i32>(7) as u32,
        wall_ms: r.get(8),
        finished_ms: r.get(9),
        worker: r.get(10),
        round: r.get::<_, i32>(11) as u32,
        identity: identity(r, 12, 13, 14),
    }
}
