use crate::adjudication::Adjudication;
use crate::store::{ClaimedJob, FinishedGame, Store, TournamentRow};
use crate::tablebase::Tablebases;
use crate::work::{work, Pass, WorkEnd, WorkSettings};
use crate::{
    play_game_with, ConfigError, Event, GameRules, MoveNote, Plan, RunError, StoreError,
    TournamentConfig,
};
use crossbeam_channel::{unbounded, RecvTimeoutError, Sender, TryRecvError};
use eloworld_games::{Game, GameKind, GameResult, MoveRecord};
use eloworld_players::{PlayableGame, PlayerFactory, Registry, Worker};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to run a plan.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// This process's name in the store's claims.
    pub worker: String,
    /// Raised to stop: games in flight are abandoned (and replayed by the next run).
    pub stop: Arc<AtomicBool>,
    /// Where to send progress events.
    pub events: Option<Sender<Event>>,
    /// Commit after this many finished games…
    pub checkpoint_games: usize,
    /// …or after this long, whichever comes first.
    pub checkpoint_interval: Duration,
    /// Players this worker cannot run, with why (reported to a shared store).
    pub cannot_run: String,
    /// Send every finished game's moves and per-move notes as [`Event::GameRecorded`]
    /// (for a live PGN with clocks and scores).
    pub record_games: bool,
    /// Time each worker waits after a game before its next (cutechess-cli's `-wait`).
    pub pause_after_game: Duration,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            worker: format!("local-{}", std::process::id()),
            stop: Arc::new(AtomicBool::new(false)),
            events: None,
            checkpoint_games: 64,
            checkpoint_interval: Duration::from_millis(250),
            cannot_run: String::new(),
            record_games: false,
            pause_after_game: Duration::ZERO,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The tournament's id in the store.
    pub tournament: i64,
    /// Jobs in the plan.
    pub planned: u64,
    /// Games stored before this run.
    pub done_before: u64,
    /// Games this run stored.
    pub stored: u64,
    /// Whether the run was stopped (its remaining jobs are left pending).
    pub interrupted: bool,
    /// Wall time.
    pub elapsed: Duration,
    /// Wall time spent playing, after the plan was stored.
    pub playing: Duration,
    /// Players that could not start in this run (an engine that does not start), with why:
    /// their games were left unplayed, never counted as losses.
    pub cannot_start: Vec<(String, String)>,
    /// CPU time of the run's own threads while it played, where the system keeps a clock
    /// per thread (`None` elsewhere); from [`drive`], that of its first pass (the later
    /// ones, over jobs whose leases expired on a shared store, are not added).
    pub cpu: Option<RunCpu>,
}

/// Where a run's CPU went: what `eloworld bench` compares with the bare game loop's, to
/// tell the runner's own cost from a busy machine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunCpu {
    /// The coordinating thread: claims, commits, and the checks between them.
    pub coordinator: Duration,
    /// All worker threads together: the games, and handing them over.
    pub workers: Duration,
}

/// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), where there is such a
/// clock: the runner's figures and `eloworld bench`'s bare loops read the same clock.
#[must_use]
pub fn thread_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Some(Duration::new(
            u64::try_from(t.tv_sec).unwrap_or(0),
            u32::try_from(t.tv_nsec).unwrap_or(0),
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

enum Msg {
    /// Finished games, in the order played: a worker hands over short games in small
    /// batches ([`SHORT_GAME_MS`]), since waking the coordinator for each one cost about
    /// 5% of a random-move chess game.
    Finished(Vec<FinishedGame>),
    Aborted(i64),
    Panicked(i64, String),
    /// A player of the job could not be made (an engine that does not start): the job goes
    /// back to pending, and no game of that player is played in this run.
    CannotStart(i64, u32, String),
}

/// A game shorter than this (milliseconds of wall time) is handed to the coordinator with
/// others, in batches of at most [`BATCH_GAMES`] games or [`BATCH_WAIT`].
const SHORT_GAME_MS: f64 = 1.0;
/// Most short games a worker holds before handing them over (and never more than the jobs
/// queued).
const BATCH_GAMES: usize = 512;
/// Longest a worker holds a finished short game: a fifth of the default checkpoint
/// interval, so that the coordinator, which shares the cores with the workers, wakes a few
/// dozen times a second, not hundreds (with batches of 64 games or 20 ms it woke two to
/// three times as often and waited for a core five times as long).
const BATCH_WAIT: Duration = Duration::from_millis(50);

/// A tournament as the store holds it: everything a worker needs to play its jobs, with
/// no access to the files the plan was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredTournament {
    /// The store's id.
    pub id: i64,
    /// The name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// Player specs, in plan order.
    pub players: Vec<String>,
    /// The `max_plies` setting.
    pub max_plies: u32,
    /// The `draw_rules` setting.
    pub draw_rules: eloworld_games::DrawRules,
    /// Go: the `size` setting.
    pub size: Option<u8>,
    /// Go: the `komi` setting.
    pub komi: Option<f64>,
    /// The adjudication rules.
    pub adjudication: Adjudication,
    /// Directories of Syzygy tables for tablebase adjudication.
    pub tablebases: Vec<std::path::PathBuf>,
    /// The most pieces a position may have to be probed.
    pub tablebase_pieces: Option<usize>,
    /// Jobs in the plan.
    pub total: u64,
    /// Jobs done.
    pub done: u64,
}

impl StoredTournament {
    /// Reads the settings kept with a stored tournament.
    ///
    /// # Errors
    /// [`ConfigError`] when the stored settings do not parse.
    pub fn from_row(row: &TournamentRow) -> Result<StoredTournament, ConfigError> {
        let config = TournamentConfig::from_toml(&row.config)
            .map_err(|m| ConfigError::Invalid(format!("stored settings of {:?}: {m}", row.name)))?;
        Ok(StoredTournament {
            id: row.id,
            name: row.name.clone(),
            game: row.game,
            players: row.players.clone(),
            max_plies: config.max_plies,
            draw_rules: config.draw_rules,
            size: config.size,
            komi: config.komi,
            adjudication: config.adjudication,
            tablebases: config.tablebases,
            tablebase_pieces: config.tablebase_pieces,
            total: row.total,
            done: row.done,
        })
    }
}

/// Stores `plan` (or finds it stored) and plays every pending job on `opts.threads`
/// threads, storing each finished game as it comes; returns when the plan is done or
/// `opts.stop` is raised.
///
/// # Errors
/// [`RunError`] for a player that cannot be built, a bad opening, a store failure or a
/// panicking player; games finished before the error are stored.
pub fn run<G: PlayableGame>(
    plan: &Plan,
    registry: &Registry<G>,
    rules: G::Rules,
    store: &mut dyn Store,
    opts: &RunOptions,
) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let factories: Vec<Option<Arc<dyn PlayerFactory<G>>>> = plan
        .players()
        .iter()
        .map(|p| registry.resolve_str(p).map(Some))
        .collect::<Result<_, _>>()?;
    for (index, o) in plan.openings().iter().enumerate() {
        G::from_position(o, rules).map_err(|source| RunError::Opening { index, source })?;
    }
    let id = store.begin(plan)?;
    let row = store
        .tournaments()?
        .into_iter()
        .find(|t| t.id == id)
        .ok_or_else(|| {
            StoreError::NotFound(format!("tournament {:?} vanished", plan.config().name))
        })?;
    let tournament = StoredTournament::from_row(&row)?;
    let mut summary = drive(&tournament, &factories, rules, store, opts, Until::Done)?;
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// When [`drive`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// When every job of the tournament is stored: on a shared store, jobs claimed by other
    /// workers are waited for, and played here when their lease expires (their worker died).
    Done,
    /// When no job is left to claim here (a worker moving on to other tournaments).
    NothingClaimable,
}

/// Plays a stored tournament on this machine: the one loop behind `eloworld tournament`,
/// `eloworld worker` and the evolution's generations. Plays what it can claim
/// ([`play_stored`]); with [`Until::Done`] on a shared store it then waits for the jobs other
/// workers hold, reaping expired leases and playing those jobs too, until the tournament is
/// complete or `opts.stop` is raised.
///
/// # Errors
/// As [`run`].
pub fn drive<G: PlayableGame>(
    tournament: &StoredTournament,
    factories: &[Option<Arc<dyn PlayerFactory<G>>>],
    rules: G::Rules,
    store: &mut dyn Store,
    opts: &RunOptions,
    until: Until,
) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let mut summary = play_stored(tournament, factories, rules, store, opts)?;
    // Every job stored, by this pass or before it: nothing is left to wait for, and the
    // store is not asked (on SQLite that count read every job of the tournament, a
    // fraction of a millisecond per thousand jobs with both cores idle).
    let complete = summary.done_before + summary.stored >= summary.planned;
    if until == Until::Done && !summary.interrupted && !complete {
        // What other workers hold is waited for (and played here if their lease expires)
        // by the same loop `eloworld worker` runs.
        let settings = WorkSettings {
            worker: &opts.worker,
            stop: &opts.stop,
            wait_for_more: false,
            poll: Duration::from_millis(500),
        };
        let id = tournament.id;
        let (more, end) = work(store, &settings, &|row| row.id == id, |current, store| {
            let more = play_stored(current, factories, rules, store, opts)?;
            Ok::<_, RunError>(Pass {
                stored: more.stored,
                cannot_run: Vec::new(),
                interrupted: more.interrupted,
            })
        })?;
        summary.stored += more;
        summary.interrupted = end == WorkEnd::Interrupted;
    }
    summary.elapsed = started.elapsed();
    summary.playing = summary.elapsed;
    Ok(summary)
}

/// Plays the pending jobs of a stored tournament whose two players have a factory here
/// (`None` marks a player this machine cannot run: its jobs are left to other workers).
///
/// Games are committed in batches (every `checkpoint_games` or `checkpoint_interval`);
/// with a shared store the claims' leases are renewed every third of the lease and
/// expired leases are returned to pending.
///
/// # Errors
/// As [`run`].
pub fn play_stored<G: PlayableGame>(
    tournament: &StoredTournament,
    factories: &[Option<Arc<dyn PlayerFactory<G>>>],
    rules: G::Rules,
    store: &mut dyn Store,
    opts: &RunOptions,
) -> Result<RunSummary, RunError> {
    let started = Instant::now();
    let coordinator_cpu = thread_cpu();
    let workers_cpu_ns = AtomicU64::new(0);
    let (planned, done_before) = (tournament.total, tournament.done);
    let threads = opts.threads.max(1);
    let runnable: Vec<u32> = (0..factories.len() as u32)
        .filter(|&i| factories[i as usize].is_some())
        .collect();
    let filter = (runnable.len() < factories.len()).then_some(runnable.as_slice());
    let emit = |e: Event| {
        if let Some(tx) = &opts.events {
            let _ = tx.send(e);
        }
    };
    emit(Event::RunStarted {
        total: planned,
        done_before,
        pending: planned - done_before,
        threads,
    });

    let tablebases = if tournament.tablebases.is_empty() {
        None
    } else {
        let dirs: Vec<&std::path::Path> =
            tournament.tablebases.iter().map(|d| d.as_path()).collect();
        Some(Tablebases::open(&dirs, tournament.tablebase_pieces).map_err(ConfigError::Invalid)?)
    };
    let (job_tx, job_rx) = unbounded::<ClaimedJob>();
    let (msg_tx, msg_rx) = unbounded::<Msg>();
    // Players found unable to start in this run: their jobs are handed back unplayed.
    let unstartable: Vec<AtomicBool> = factories.iter().map(|_| AtomicBool::new(false)).collect();
    let mut cannot_start: Vec<(u32, String)> = Vec::new();
    let mut runnable_now = runnable.clone();
    let stop = Arc::clone(&opts.stop);
    let mut in_flight: HashMap<i64, ClaimedJob> = HashMap::new();
    let mut batch: Vec<FinishedGame> = Vec::with_capacity(opts.checkpoint_games);
    let mut stored = 0u64;
    let mut failure: Option<RunError> = None;
    let mut exhausted = false;
    let lease = store.lease();
    let mut last_renew = Instant::now();
    let max_plies = tournament.max_plies;
    let mut claims = ClaimSizer::new(threads, lease);
    std::thread::scope(|scope| {
        for index in 0..threads {
            let job_rx = job_rx.clone();
            let msg_tx = msg_tx.clone();
            let stop = &*stop;
            let events = opts.events.clone();
            let tablebases = tablebases.as_ref();
            let unstartable = &unstartable;
            let workers_cpu_ns = &workers_cpu_ns;
            scope.spawn(move || {
                let cpu_start = thread_cpu();
                let mut worker = Worker::new(index);
                let mut moves: Vec<G::Move> = Vec::with_capacity(1024);
                let mut notes: Vec<MoveNote> = Vec::new();
                let record = opts.record_games && events.is_some();
                let pause = opts.pause_after_game;
                let game_rules = GameRules {
                    max_plies,
                    adjudication: (!tournament.adjudication.is_empty())
                        .then_some(&tournament.adjudication),
                    tablebases,
                };
                let start = G::new(rules);
                // One game a worker, reset before each job: its buffers are kept.
                let mut game = start.clone();
                // Finished games not yet handed to the coordinator, and when the first of
                // them finished.
                let mut unsent: Vec<FinishedGame> = Vec::new();
                let mut unsent_since = Instant::now();
                let flush = |unsent: &mut Vec<FinishedGame>| {
                    unsent.is_empty() || msg_tx.send(Msg::Finished(std::mem::take(unsent))).is_ok()
                };
                loop {
                    // A worker never waits for a job with finished games in hand: it hands
                    // them over first. Another worker can take the last queued job between
                    // the check after a game and this call; the held games, which the
                    // coordinator waits for before it ends, then waited with this worker
                    // (for ever before holding was bounded, then for the rest of the bound).
                    let job = match job_rx.try_recv() {
                        Ok(job) => job,
                        Err(TryRecvError::Empty) => {
                            if !flush(&mut unsent) {
                                break;
                            }
                            match job_rx.recv() {
                                Ok(job) => job,
                                Err(_) => break,
                            }
                        }
                        Err(TryRecvError::Disconnected) => break,
                    };
                    let blocked = |i: u32| {
                        unstartable
                            .get(i as usize)
                            .is_some_and(|b| b.load(Ordering::Relaxed))
                    };
                    if stop.load(Ordering::Relaxed) || blocked(job.white) || blocked(job.black) {
                        if !flush(&mut unsent) {
                            break;
                        }
                        let _ = msg_tx.send(Msg::Aborted(job.id));
                        continue;
                    }
                    if let Some(tx) = &events {
                        let _ = tx.send(Event::GameStarted {
                            job: job.key,
                            white: job.white,
                            black: job.black,
                        });
                    }
                    let played = catch_unwind(AssertUnwindSafe(|| {
                        notes.clear();
                        play_job(
                            &job,
                            factories,
                            &mut worker,
                            &mut game,
                            &start,
                            rules,
                            &game_rules,
                            stop,
                            &mut moves,
                            &mut notes,
                            record,
                        )
                    }));
                    let msg = match played {
                        Ok(Played::CannotStart(player, reason)) => {
                            if let Some(b) = unstartable.get(player as usize) {
                                b.store(true, Ordering::Relaxed);
                            }
                            Msg::CannotStart(job.id, player, reason)
                        }
                        Ok(Played::Game(mut g)) => {
                            // Kept when a player reported something (engines), not for
                            // built-in players whose notes would hold only times.
                            if notes
                                .iter()
                                .any(|n| n.book || n.score().is_some() || n.depth().is_some())
                            {
                                g.notes.clone_from(&notes);
                            }
                            if let (true, Some(tx)) = (record, &events) {
                                let _ = tx.send(Event::GameRecorded {
                                    job: job.key,
                                    moves: g.moves.text(),
                                    notes: notes.clone(),
                                    detail: g.detail.clone(),
                                });
                            }
                            if let Some(tx) = &events {
                                let _ = tx.send(Event::GameFinished {
                                    job: job.key,
                                    white: job.white,
                                    black: job.black,
                                    result: g.result,
                                    termination: g.termination,
                                    plies: g.plies,
                                });
                            }
                            if !pause.is_zero() {
                                std::thread::sleep(pause);
                            }
                            // A short game waits for company while more jobs are queued, up to
                            // a batch or `BATCH_WAIT`; any other is handed over now. A worker
                            // holds no more games than there are jobs queued: as a run drains,
                            // its batches shrink, and its last games reach the coordinator in
                            // small batches, not at once when the queue is empty (then the
                            // last commit ran alone, a core idle: 2–7% of a two-thread
                            // `bench` run, 1% with this bound).
                            let short = g.wall_ms < SHORT_GAME_MS;
                            if unsent.is_empty() {
                                unsent_since = Instant::now();
                            }
                            unsent.push(g);
                            if short
                                && unsent.len() < BATCH_GAMES.min(job_rx.len())
                                && unsent_since.elapsed() < BATCH_WAIT
                            {
                                continue;
                            }
                            if !flush(&mut unsent) {
                                break;
                            }
                            continue;
                        }
                        Ok(Played::Aborted) => Msg::Aborted(job.id),
                        Err(p) => {
                            let text = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                                .unwrap_or_default();
                            Msg::Panicked(job.id, text)
                        }
                    };
                    if !flush(&mut unsent) || msg_tx.send(msg).is_err() {
                        break;
                    }
                }
                flush(&mut unsent);
                if let (Some(start), Some(end)) = (cpu_start, thread_cpu()) {
                    let used = u64::try_from(end.saturating_sub(start).as_nanos()).unwrap_or(0);
                    workers_cpu_ns.fetch_add(used, Ordering::Relaxed);
                }
            });
        }
        drop(msg_tx);
        let mut last_flush = Instant::now();
        loop {
            // Refill below a low-water mark only, so that claims come in batches, not one
            // commit per finished game.
            let mut claimed = false;
            let open = failure.is_none() && !stop.load(Ordering::Relaxed) && !exhausted;
            let wanted = if open {
                claims.wanted(in_flight.len())
            } else {
                None
            };
            if let Some(wanted) = wanted {
                let filter = if cannot_start.is_empty() {
                    filter
                } else {
                    Some(runnable_now.as_slice())
                };
                match store.claim(tournament.id, &opts.worker, wanted, filter) {
                    Ok(jobs) => {
                        exhausted = jobs.is_empty();
                        claims.claimed(jobs.len());
                        claimed = !jobs.is_empty();
                        for j in jobs {
                            in_flight.insert(j.id, j.clone());
                            let _ = job_tx.send(j);
                        }
                    }
                    Err(e) => {
                        failure = Some(e.into());
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            if in_flight.is_empty() && (exhausted || stop.load(Ordering::Relaxed)) {
                break;
            }
            // Still below the low-water mark after a claim: claim again at once.
            let wait = if claimed && claims.wanted(in_flight.len()).is_some() {
                Duration::ZERO
            } else {
                opts.checkpoint_interval
            };
            match msg_rx.recv_timeout(wait) {
                Ok(Msg::Finished(games)) => {
                    for g in games {
                        in_flight.remove(&g.job_id);
                        claims.finished(g.wall_ms);
                        batch.push(g);
                    }
                }
                Ok(Msg::Aborted(id)) => {
                    if let Some(j) = in_flight.remove(&id) {
                        if let Err(e) = store.release(&[j]) {
                            failure.get_or_insert(e.into());
                        }
                    }
                }
                Ok(Msg::CannotStart(id, player, reason)) => {
                    if let Some(j) = in_flight.remove(&id) {
                        if let Err(e) = store.release(&[j]) {
                            failure.get_or_insert(e.into());
                        }
                    }
                    if !cannot_start.iter().any(|(p, _)| *p == player) {
                        runnable_now.retain(|&p| p != player);
                        emit(Event::PlayerCannotStart {
                            player,
                            reason: reason.clone(),
                        });
                        cannot_start.push((player, reason));
                        let names: Vec<String> = cannot_start
                            .iter()
                            .map(|(p, r)| format!("{}: {r}", tournament.players[*p as usize]))
                            .collect();
                        let mut why = opts.cannot_run.clone();
                        for n in names {
                            if !why.is_empty() {
                                why.push_str("; ");
                            }
                            why.push_str(&n);
                        }
                        if let Err(e) = store.heartbeat(&opts.worker, &why) {
                            failure.get_or_insert(e.into());
                        }
                    }
                }
                Ok(Msg::Panicked(id, text)) => {
                    if let Some(j) = in_flight.remove(&id) {
                        let _ = store.release(&[j]);
                    }
                    failure.get_or_insert(RunError::WorkerPanicked(text));
                    stop.store(true, Ordering::Relaxed);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if let Some(lease) = lease {
                if last_renew.elapsed() >= lease / 3 {
                    last_renew = Instant::now();
                    let held: Vec<ClaimedJob> = in_flight.values().cloned().collect();
                    let renewed = store
                        .renew(&opts.worker, &held)
                        .and_then(|()| store.reap())
                        .and_then(|_| store.heartbeat(&opts.worker, &opts.cannot_run));
                    if let Err(e) = renewed {
                        failure.get_or_insert(e.into());
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            if !batch.is_empty()
                && (batch.len() >= opts.checkpoint_games
                    || last_flush.elapsed() >= opts.checkpoint_interval)
            {
                match store.complete(&opts.worker, &batch) {
                    Ok(done) => {
                        stored += done.accepted as u64;
                        for (job, attempt) in done.rejected {
                            emit(Event::ResultRejected { job, attempt });
                        }
                        emit(Event::Checkpoint { stored });
                    }
                    Err(e) => {
                        failure.get_or_insert(e.into());
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                batch.clear();
                last_flush = Instant::now();
            }
        }
        drop(job_tx);
    });
    if !batch.is_empty() {
        let done = store.complete(&opts.worker, &batch)?;
        stored += done.accepted as u64;
        for (job, attempt) in done.rejected {
            emit(Event::ResultRejected { job, attempt });
        }
        emit(Event::Checkpoint { stored });
    }
    let leftover: Vec<ClaimedJob> = in_flight.into_values().collect();
    if !leftover.is_empty() {
        store.release(&leftover)?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let interrupted = stop.load(Ordering::Relaxed);
    if interrupted {
        emit(Event::Interrupted { stored });
    }
    let elapsed = started.elapsed();
    let cpu = coordinator_cpu
        .zip(thread_cpu())
        .map(|(start, end)| RunCpu {
            coordinator: end.saturating_sub(start),
            workers: Duration::from_nanos(workers_cpu_ns.into_inner()),
        });
    Ok(RunSummary {
        tournament: tournament.id,
        planned,
        done_before,
        stored,
        interrupted,
        elapsed,
        playing: elapsed,
        cannot_start: cannot_start
            .into_iter()
            .map(|(p, r)| (tournament.players[p as usize].clone(), r))
            .collect(),
        cpu,
    })
}

/// How many jobs the coordinator claims, and when.
///
/// Claims cover about a second of play (a tenth of the lease on a shared store, so that a
/// dead worker strands little work), and at least two games a thread, so that the workers
/// never wait while a checkpoint is being committed; the games' length is learnt as the run
/// goes, starting slow. A claim is made below half that target, and is at most four times
/// the one before: claiming thousands of jobs takes SQLite milliseconds, which workers with
/// nothing queued spent waiting at the start of every run (`eloworld bench` measured 3–7 ms
/// a worker in runs of 2,000 games).
#[derive(Debug)]
struct ClaimSizer {
    threads: usize,
    /// Milliseconds of play a full claim covers, for all threads together.
    horizon_ms: f64,
    /// On a shared store the mean starts slow, so that the first claims leave work for the
    /// other workers.
    shared: bool,
    mean_game_ms: f64,
    games_seen: f64,
    last_claim: usize,
}

impl ClaimSizer {
    /// The largest claim, whatever the games' length.
    const MOST: usize = 4096;

    fn new(threads: usize, lease: Option<Duration>) -> ClaimSizer {
        ClaimSizer {
            threads,
            horizon_ms: lease.map_or(1000.0, |l| l.as_secs_f64() * 100.0),
            shared: lease.is_some(),
            mean_game_ms: 1000.0,
            games_seen: 0.0,
            last_claim: 0,
        }
    }

    /// The jobs the claims aim to hold.
    fn target(&self) -> usize {
        let games = self.threads as f64 * self.horizon_ms / self.mean_game_ms.max(0.001);
        (games as usize).clamp(self.threads * 2, Self::MOST)
    }

    /// How many jobs to claim while holding `in_flight`, or `None` when enough are held.
    fn wanted(&self, in_flight: usize) -> Option<usize> {
        let target = self.target();
        (in_flight < target.div_ceil(2)).then(|| {
            let growth = (self.last_claim * 4).max(self.threads * 2);
            (target * 2 - in_flight).min(growth)
        })
    }

    /// A claim gave `jobs` jobs.
    fn claimed(&mut self, jobs: usize) {
        self.last_claim = jobs;
    }

    /// A game took `wall_ms`. Alone on its store, the plain mean of the first games, then a
    /// moving average: the claims reach their size after the first game, not after dozens.
    fn finished(&mut self, wall_ms: f64) {
        let weight = if self.shared {
            0.1
        } else {
            1.0 / (self.games_seen + 1.0).min(10.0)
        };
        self.mean_game_ms += weight * (wall_ms - self.mean_game_ms);
        self.games_seen += 1.0;
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "one call site; a struct would only rename these"
)]
fn play_job<G: Game>(
    job: &ClaimedJob,
    factories: &[Option<Arc<dyn PlayerFactory<G>>>],
    worker: &mut Worker,
    game: &mut G,
    start: &G,
    rules: G::Rules,
    game_rules: &GameRules<'_>,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
    notes: &mut Vec<MoveNote>,
    record: bool,
) -> Played {
    let t0 = Instant::now();
    let finished = |result, termination, plies, moves: MoveRecord, detail| FinishedGame {
        job_id: job.id,
        tournament: job.tournament,
        attempt: job.attempt,
        result,
        termination,
        plies,
        moves,
        detail,
        wall_ms: t0.elapsed().as_secs_f64() * 1e3,
        notes: Vec::new(),
    };
    match &job.opening {
        // Openings were checked before the run started.
        Some(text) => match G::from_position(text, rules) {
            Ok(g) => *game = g,
            Err(_) => return Played::Aborted,
        },
        None => game.clone_from(start),
    }
    let mut players = Vec::with_capacity(2);
    for idx in [job.white, job.black] {
        let created = match &factories[idx as usize] {
            Some(f) => f.create(worker),
            None => Err(eloworld_players::PlayerError::Setup(format!(
                "player {idx} cannot run here"
            ))),
        };
        match created {
            Ok(p) => players.push(p),
            // A player that cannot start is a configuration error, not a lost game.
            Err(e) => return Played::CannotStart(idx, e.to_string()),
        }
    }
    let (Some(mut black), Some(mut white)) = (players.pop(), players.pop()) else {
        return Played::Aborted;
    };
    // Notes need every move timed: only for a live record or a player that reports.
    let keep_notes = record || white.reports_searches() || black.reports_searches();
    moves.clear();
    let Some(played) = play_game_with(
        game,
        &mut *white,
        &mut *black,
        job.seed,
        game_rules,
        stop,
        moves,
        keep_notes.then_some(notes),
    ) else {
        return Played::Aborted;
    };
    // Words, like codes, do not depend on the position: the final one writes them all.
    let record = MoveRecord::of(game, moves);
    let result: GameResult = played.outcome.result;
    Played::Game(finished(
        result,
        played.outcome.termination,
        played.plies,
        record,
        played.detail,
    ))
}

/// What became of a job a worker took.
enum Played {
    /// The game was played.
    Game(FinishedGame),
    /// Stopped before the end (the run was stopped): the job goes back to pending.
    Aborted,
    /// Player `.0` (an index into the tournament's players) could not be made: why.
    CannotStart(u32, String),
}

#[cfg(test)]
mod tests {
    use super::ClaimSizer;
    use std::time::Duration;

    /// Claims the sizer asks for, each given in full and none of its games finished yet,
    /// until it holds enough.
    fn claims_until_full(sizer: &mut ClaimSizer, mut in_flight: usize) -> Vec<usize> {
        let mut claims = Vec::new();
        while let Some(n) = sizer.wanted(in_flight) {
            sizer.claimed(n);
            in_flight += n;
            claims.push(n);
        }
        claims
    }

    #[test]
    fn claims_grow_fourfold_from_two_a_thread_up_to_their_target() {
        let mut sizer = ClaimSizer::new(2, None);
        // Nothing known of the games yet: two a thread.
        assert_eq!(claims_until_full(&mut sizer, 0), vec![4]);
        for _ in 0..4 {
            sizer.finished(0.1);
        }
        // 0.1 ms games want the largest target (4,096 held, claimed below 2,048), reached
        // by claims four times the one before, not by one claim of 8,192.
        assert_eq!(sizer.target(), ClaimSizer::MOST);
        assert_eq!(
            claims_until_full(&mut sizer, 0),
            vec![16, 64, 256, 1024, 4096]
        );
        // Refilled below half the target: at most twice the target held, four times the last.
        assert_eq!(sizer.wanted(2047), Some(8192 - 2047));
        assert_eq!(sizer.wanted(2048), None);
    }

    #[test]
    fn slow_games_are_claimed_two_a_thread() {
        let mut sizer = ClaimSizer::new(3, None);
        assert_eq!(claims_until_full(&mut sizer, 0), vec![6]);
        sizer.finished(5000.0);
        assert_eq!(sizer.target(), 6);
        assert_eq!(sizer.wanted(3), None);
        assert_eq!(sizer.wanted(2), Some(10));
    }

    #[test]
    fn on_a_shared_store_the_mean_starts_slow() {
        let mut local = ClaimSizer::new(1, None);
        let mut shared = ClaimSizer::new(1, Some(Duration::from_secs(10)));
        local.finished(1.0);
        shared.finished(1.0);
        // Alone: the first game is the mean. Shared: a tenth of the way from 1,000 ms.
        assert_eq!(local.target(), 1000);
        assert!((shared.mean_game_ms - 900.1).abs() < 1e-9);
        assert_eq!(shared.target(), 2);
    }
}
