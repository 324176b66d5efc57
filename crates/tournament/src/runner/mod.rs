//! The parallel runner: plays a stored tournament's jobs on worker threads
//! ([`worker`]), while one coordinating thread ([`coordinator`]) claims the jobs, sized by
//! [`claims`], and commits the finished games to the store.

mod claims;
mod coordinator;
mod worker;

use crate::adjudication::Adjudication;
use crate::store::{Store, TournamentRow};
use crate::tablebase::Tablebases;
use crate::work::{work, Pass, WorkEnd, WorkSettings};
use crate::{ConfigError, Event, GameRules, Plan, RunError, StoreError, TournamentConfig};
use coordinator::Coordinator;
use crossbeam_channel::{unbounded, Sender};
use eloworld_games::GameKind;
use eloworld_players::{PlayableGame, PlayerFactory, Registry};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use worker::{Channels, Shared, WorkerThread};

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
    ///
    /// 1,024 by default: every commit writes the pages it touched whole (the games' last
    /// leaves, the `seq` index's, the claims'), so on short games a commit of 64 cost the
    /// coordinator a fifth more CPU a game than one of 1,024 (`eloworld bench`, chess:
    /// 0.065–0.082 against 0.055–0.057 of a bare game), while the interval below still
    /// bounds what a killed run replays by time.
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

impl RunOptions {
    /// Sends `event` to whoever listens.
    fn emit(&self, event: Event) {
        if let Some(tx) = &self.events {
            let _ = tx.send(event);
        }
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            worker: format!("local-{}", std::process::id()),
            stop: Arc::new(AtomicBool::new(false)),
            events: None,
            checkpoint_games: 1024,
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
    /// Batches of finished games the workers handed the coordinator (each a message and,
    /// when the coordinator slept, a wake-up): `eloworld bench --scale` shows how many
    /// games a hand-off carries as threads are added. From [`drive`], its first pass.
    pub handoffs: u64,
    /// How often the run's threads slept waiting, where the system counts it per thread
    /// (`None` elsewhere); from [`drive`], its first pass.
    pub waits: Option<RunWaits>,
}

/// How many times a run's threads gave up their core to wait (their voluntary context
/// switches, each a sleep and a wake-up): the hand-offs' cost that CPU time alone does
/// not show, measured by `eloworld bench --scale` as threads are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunWaits {
    /// The coordinating thread: waiting for finished games or for the next look.
    pub coordinator: u64,
    /// All worker threads together: waiting for jobs.
    pub workers: u64,
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

/// How many times the calling thread has slept waiting (its voluntary context switches,
/// from Linux's `/proc/thread-self/status`); `None` where the system does not say.
#[must_use]
pub fn thread_waits() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/thread-self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|v| v.trim().parse().ok())
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
    let row = store.tournament(id)?.ok_or_else(|| {
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
            // Claims on a shared store cover a tenth of a second of play: the jobs other
            // workers hold end about as soon, and are looked for as often.
            poll: Duration::from_millis(100),
            only: Some(tournament.id),
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
    let coordinator_waits = thread_waits();
    let workers_cpu_ns = AtomicU64::new(0);
    let workers_waits = AtomicU64::new(0);
    let (planned, done_before) = (tournament.total, tournament.done);
    let threads = opts.threads.max(1);
    let runnable: Vec<u32> = (0..factories.len() as u32)
        .filter(|&i| factories[i as usize].is_some())
        .collect();
    let filter = (runnable.len() < factories.len()).then_some(runnable.as_slice());
    opts.emit(Event::RunStarted {
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
    let unstartable: Vec<AtomicBool> = factories.iter().map(|_| AtomicBool::new(false)).collect();
    let shared = Shared {
        factories,
        rules,
        game_rules: GameRules {
            max_plies: tournament.max_plies,
            adjudication: (!tournament.adjudication.is_empty()).then_some(&tournament.adjudication),
            tablebases: tablebases.as_ref(),
        },
        stop: &opts.stop,
        unstartable: &unstartable,
        record: opts.record_games && opts.events.is_some(),
        pause: opts.pause_after_game,
        cpu_ns: &workers_cpu_ns,
        waits: &workers_waits,
    };
    let (job_tx, job_rx) = unbounded();
    let (msg_tx, msg_rx) = unbounded();
    let mut coordinator = Coordinator::new(tournament, store, opts, &runnable, filter, threads);
    let shared = &shared;
    std::thread::scope(|scope| {
        for index in 0..threads {
            let channels = Channels {
                jobs: job_rx.clone(),
                to_coordinator: msg_tx.clone(),
                events: opts.events.clone(),
            };
            scope.spawn(move || WorkerThread::new(index, shared, channels).run());
        }
        drop(msg_tx);
        coordinator.coordinate(job_tx, &msg_rx);
    });
    let done = coordinator.finish()?;
    let interrupted = opts.stop.load(Ordering::Relaxed);
    if interrupted {
        opts.emit(Event::Interrupted {
            stored: done.stored,
        });
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
        stored: done.stored,
        interrupted,
        elapsed,
        playing: elapsed,
        cannot_start: done
            .cannot_start
            .into_iter()
            .map(|(p, r)| (tournament.players[p as usize].clone(), r))
            .collect(),
        cpu,
        handoffs: done.handoffs,
        waits: coordinator_waits
            .zip(thread_waits())
            .map(|(start, end)| RunWaits {
                coordinator: end.saturating_sub(start),
                workers: workers_waits.into_inner(),
            }),
    })
}
