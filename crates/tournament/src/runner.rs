use crate::store::{ClaimedJob, FinishedGame, Store};
use crate::{play_game, Event, Plan, RunError};
use crossbeam_channel::{unbounded, RecvTimeoutError, Sender};
use eloworld_games::{Game, GameResult, Outcome, Side, Termination};
use eloworld_players::{PlayableGame, PlayerFactory, Registry, Worker};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Whether the run stopped before the plan was done.
    pub interrupted: bool,
    /// Wall time.
    pub elapsed: Duration,
}

enum Msg {
    Finished(FinishedGame),
    Aborted(i64),
    Panicked(i64, String),
}

/// Plays every pending job of `plan` on `opts.threads` threads and stores each finished
/// game as it comes; returns when the plan is done or `opts.stop` is raised.
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
    let factories: Vec<Arc<dyn PlayerFactory<G>>> =
        plan.players.iter().map(|p| registry.resolve_str(p)).collect::<Result<_, _>>()?;
    for (index, o) in plan.openings.iter().enumerate() {
        G::from_position(o, rules).map_err(|source| RunError::Opening { index, source })?;
    }
    let tournament = store.begin(plan)?;
    let row = store.tournaments()?.into_iter().find(|t| t.id == tournament);
    let (planned, done_before) = row.map_or((plan.jobs.len() as u64, 0), |t| (t.total, t.done));
    let threads = opts.threads.max(1);
    let emit = |e: Event| {
        if let Some(tx) = &opts.events {
            let _ = tx.send(e);
        }
    };
    emit(Event::RunStarted { total: planned, done_before, pending: planned - done_before, threads });

    let (job_tx, job_rx) = unbounded::<ClaimedJob>();
    let (msg_tx, msg_rx) = unbounded::<Msg>();
    let stop = Arc::clone(&opts.stop);
    let mut in_flight: HashMap<i64, ClaimedJob> = HashMap::new();
    let mut batch: Vec<FinishedGame> = Vec::with_capacity(opts.checkpoint_games);
    let mut stored = 0u64;
    let mut failure: Option<RunError> = None;
    let mut exhausted = false;

    std::thread::scope(|scope| {
        for index in 0..threads {
            let job_rx = job_rx.clone();
            let msg_tx = msg_tx.clone();
            let factories = &factories;
            let stop = &*stop;
            let events = opts.events.clone();
            let max_plies = plan.config.max_plies;
            scope.spawn(move || {
                let mut worker = Worker::new(index);
                let mut moves: Vec<G::Move> = Vec::with_capacity(1024);
                let start = G::new(rules);
                while let Ok(job) = job_rx.recv() {
                    if stop.load(Ordering::Relaxed) {
                        let _ = msg_tx.send(Msg::Aborted(job.id));
                        continue;
                    }
                    if let Some(tx) = &events {
                        let _ = tx.send(Event::GameStarted { job: job.key, white: job.white, black: job.black });
                    }
                    let played = catch_unwind(AssertUnwindSafe(|| {
                        play_job(&job, factories, &mut worker, &start, rules, max_plies, stop, &mut moves)
                    }));
                    let msg = match played {
                        Ok(Some(g)) => {
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
                            Msg::Finished(g)
                        }
                        Ok(None) => Msg::Aborted(job.id),
                        Err(p) => {
                            let text = p
                                .downcast_ref::<String>()
                                .cloned()
                                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                                .unwrap_or_default();
                            Msg::Panicked(job.id, text)
                        }
                    };
                    if msg_tx.send(msg).is_err() {
                        break;
                    }
                }
            });
        }
        drop(msg_tx);
        let mut last_flush = Instant::now();
        let target = threads * 4;
        loop {
            if failure.is_none() && !stop.load(Ordering::Relaxed) && !exhausted && in_flight.len() < target {
                match store.claim(tournament, &opts.worker, target * 2 - in_flight.len()) {
                    Ok(jobs) => {
                        exhausted = jobs.is_empty();
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
            match msg_rx.recv_timeout(opts.checkpoint_interval) {
                Ok(Msg::Finished(g)) => {
                    in_flight.remove(&g.job_id);
                    batch.push(g);
                }
                Ok(Msg::Aborted(id)) => {
                    if let Some(j) = in_flight.remove(&id) {
                        if let Err(e) = store.release(&[j]) {
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
            if !batch.is_empty()
                && (batch.len() >= opts.checkpoint_games || last_flush.elapsed() >= opts.checkpoint_interval)
            {
                match store.complete(&batch) {
                    Ok(n) => {
                        stored += n as u64;
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
        stored += store.complete(&batch)? as u64;
        emit(Event::Checkpoint { stored });
    }
    let leftover: Vec<ClaimedJob> = in_flight.into_values().collect();
    if !leftover.is_empty() {
        store.release(&leftover)?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let interrupted = done_before + stored < planned;
    if interrupted {
        emit(Event::Interrupted { stored });
    }
    Ok(RunSummary { tournament, planned, done_before, stored, interrupted, elapsed: started.elapsed() })
}

#[allow(clippy::too_many_arguments)] // one call site; a struct would only rename these
fn play_job<G: Game>(
    job: &ClaimedJob,
    factories: &[Arc<dyn PlayerFactory<G>>],
    worker: &mut Worker,
    start: &G,
    rules: G::Rules,
    max_plies: u32,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
) -> Option<FinishedGame> {
    let t0 = Instant::now();
    let finished = |result, termination, plies, moves: String, detail| FinishedGame {
        job_id: job.id,
        attempt: job.attempt,
        result,
        termination,
        plies,
        moves,
        detail,
        wall_ms: t0.elapsed().as_secs_f64() * 1e3,
    };
    let mut game = match &job.opening {
        // Openings were checked before the run started.
        Some(text) => G::from_position(text, rules).ok()?,
        None => start.clone(),
    };
    let mut players = Vec::with_capacity(2);
    for (side, idx) in [(Side::First, job.white), (Side::Second, job.black)] {
        match factories[idx as usize].create(worker) {
            Ok(p) => players.push(p),
            Err(e) => {
                let outcome = Outcome::win(side.other(), Termination::EngineCrashed);
                return Some(finished(outcome.result, outcome.termination, 0, String::new(), Some(e.to_string())));
            }
        }
    }
    let mut black = players.pop()?;
    let mut white = players.pop()?;
    moves.clear();
    let played = play_game(&mut game, &mut *white, &mut *black, job.seed, max_plies, stop, moves)?;
    let mut text = String::with_capacity(moves.len() * 5);
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        // Move codes do not depend on the position.
        game.write_move_code(m, &mut text);
    }
    let result: GameResult = played.outcome.result;
    Some(finished(result, played.outcome.termination, played.plies, text, played.detail))
}
