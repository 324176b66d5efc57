//! A worker thread of the runner: takes claimed jobs from the coordinator, plays them, and
//! hands the finished games back.

use super::{thread_cpu, thread_waits};
use crate::store::{ClaimedJob, FinishedGame};
use crate::{play_game_with, Event, GameRules, MoveNote};
use crossbeam_channel::{Receiver, Sender, TryRecvError};
use eloworld_games::{GameResult, MoveRecord};
use eloworld_players::{PlayableGame, PlayerFactory, Worker};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a worker tells the coordinator.
pub(super) enum Msg {
    /// Finished games, in the order played: a worker hands over short games in small
    /// batches ([`SHORT_GAME_MS`]), since waking the coordinator for each one cost about
    /// 5% of a random-move chess game.
    Finished(Vec<FinishedGame>),
    /// The job (its id) was not played (the run was stopped, or a player of it cannot
    /// start): it goes back to pending.
    Aborted(i64),
    /// A player panicked while playing the job (its id): the panic's text.
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

/// What every worker of a run shares: the tournament's players and rules, and the run's
/// flags.
pub(super) struct Shared<'a, G: PlayableGame> {
    /// A factory per player of the tournament (`None`: cannot run on this machine).
    pub factories: &'a [Option<Arc<dyn PlayerFactory<G>>>],
    /// The game's rules (board size, komi, draw rules).
    pub rules: G::Rules,
    /// The tournament's rules around the game (ply limit, adjudication, tablebases).
    pub game_rules: GameRules<'a>,
    /// Raised to stop the run.
    pub stop: &'a AtomicBool,
    /// Players found unable to start in this run, one flag a player: their jobs are handed
    /// back unplayed.
    pub unstartable: &'a [AtomicBool],
    /// Send every finished game's moves and notes as [`Event::GameRecorded`].
    pub record: bool,
    /// Time to wait after each game (cutechess-cli's `-wait`).
    pub pause: Duration,
    /// CPU time of all workers together, in nanoseconds, added as each worker ends.
    pub cpu_ns: &'a AtomicU64,
    /// The workers' sleeps waiting for jobs, all together (see [`super::RunWaits`]).
    pub waits: &'a AtomicU64,
}

impl<G: PlayableGame> Shared<'_, G> {
    /// Whether player `index` was found unable to start in this run.
    fn unstartable(&self, index: u32) -> bool {
        self.unstartable
            .get(index as usize)
            .is_some_and(|b| b.load(Ordering::Relaxed))
    }
}

/// A worker's channels: jobs in, messages and events out.
pub(super) struct Channels {
    /// Jobs the coordinator claimed.
    pub jobs: Receiver<ClaimedJob>,
    /// To the coordinator.
    pub to_coordinator: Sender<Msg>,
    /// Progress events, if anyone listens.
    pub events: Option<Sender<Event>>,
}

/// One worker thread: its channels, its table, and the finished games it has not handed
/// over yet.
pub(super) struct WorkerThread<'a, G: PlayableGame> {
    shared: &'a Shared<'a, G>,
    channels: Channels,
    table: Table<G>,
    /// Finished games not yet handed to the coordinator…
    unsent: Vec<FinishedGame>,
    /// …and when the first of them finished.
    unsent_since: Instant,
}

impl<'a, G: PlayableGame> WorkerThread<'a, G> {
    /// Worker number `index` of a run.
    pub(super) fn new(index: usize, shared: &'a Shared<'a, G>, channels: Channels) -> Self {
        WorkerThread {
            shared,
            channels,
            table: Table::new(index, shared.rules),
            unsent: Vec::new(),
            unsent_since: Instant::now(),
        }
    }

    /// Plays jobs until the coordinator closes the queue or stops listening, then adds the
    /// thread's CPU time to the run's.
    pub(super) fn run(mut self) {
        let cpu_start = thread_cpu();
        let waits_start = thread_waits();
        while let Some(job) = self.next_job() {
            if !self.take(&job) {
                break;
            }
        }
        self.flush();
        if let (Some(start), Some(end)) = (cpu_start, thread_cpu()) {
            let used = u64::try_from(end.saturating_sub(start).as_nanos()).unwrap_or(0);
            self.shared.cpu_ns.fetch_add(used, Ordering::Relaxed);
        }
        if let (Some(start), Some(end)) = (waits_start, thread_waits()) {
            self.shared
                .waits
                .fetch_add(end.saturating_sub(start), Ordering::Relaxed);
        }
    }

    /// The next job, or `None` when the queue is closed (or the held games cannot be
    /// handed over).
    ///
    /// A worker never waits for a job with finished games in hand: it hands them over
    /// first. Another worker can take the last queued job between the check after a game
    /// and this call; the held games, which the coordinator waits for before it ends, then
    /// waited with this worker (for ever before holding was bounded, then for the rest of
    /// the bound).
    fn next_job(&mut self) -> Option<ClaimedJob> {
        match self.channels.jobs.try_recv() {
            Ok(job) => Some(job),
            Err(TryRecvError::Empty) => {
                if !self.flush() {
                    return None;
                }
                self.channels.jobs.recv().ok()
            }
            Err(TryRecvError::Disconnected) => None,
        }
    }

    /// Hands the held games to the coordinator; `false` when it no longer listens.
    fn flush(&mut self) -> bool {
        self.unsent.is_empty()
            || self
                .channels
                .to_coordinator
                .send(Msg::Finished(std::mem::take(&mut self.unsent)))
                .is_ok()
    }

    /// Plays `job` (or hands it back unplayed) and tells the coordinator; `false` when it
    /// no longer listens.
    fn take(&mut self, job: &ClaimedJob) -> bool {
        let shared = self.shared;
        if shared.stop.load(Ordering::Relaxed)
            || shared.unstartable(job.white)
            || shared.unstartable(job.black)
        {
            return self.flush() && self.tell(Msg::Aborted(job.id));
        }
        if let Some(tx) = &self.channels.events {
            let _ = tx.send(Event::GameStarted {
                job: job.key,
                white: job.white,
                black: job.black,
            });
        }
        let played = catch_unwind(AssertUnwindSafe(|| self.table.play(job, shared)));
        let msg = match played {
            Ok(Played::CannotStart(player, reason)) => {
                if let Some(b) = shared.unstartable.get(player as usize) {
                    b.store(true, Ordering::Relaxed);
                }
                Msg::CannotStart(job.id, player, reason)
            }
            Ok(Played::Game(g)) => return self.finished(job, g),
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
        self.flush() && self.tell(msg)
    }

    /// Sends `msg` to the coordinator; `false` when it no longer listens.
    fn tell(&self, msg: Msg) -> bool {
        self.channels.to_coordinator.send(msg).is_ok()
    }

    /// Reports game `g` of `job` and holds it for the coordinator, or hands it over with
    /// the ones held; `false` when the coordinator no longer listens.
    fn finished(&mut self, job: &ClaimedJob, mut g: FinishedGame) -> bool {
        let notes = &self.table.notes;
        // Kept when a player reported something (engines), not for built-in players whose
        // notes would hold only times.
        if notes
            .iter()
            .any(|n| n.book || n.score().is_some() || n.depth().is_some())
        {
            g.notes.clone_from(notes);
        }
        if let Some(tx) = &self.channels.events {
            if self.shared.record {
                let _ = tx.send(Event::GameRecorded {
                    job: job.key,
                    moves: g.moves.text(),
                    notes: notes.clone(),
                    detail: g.detail.clone(),
                });
            }
            let _ = tx.send(Event::GameFinished {
                job: job.key,
                white: job.white,
                black: job.black,
                result: g.result,
                termination: g.termination,
                plies: g.plies,
            });
        }
        if !self.shared.pause.is_zero() {
            std::thread::sleep(self.shared.pause);
        }
        // A short game waits for company while more jobs are queued, up to a batch or
        // `BATCH_WAIT`; any other is handed over now. A worker holds no more games than
        // there are jobs queued: as a run drains, its batches shrink, and its last games
        // reach the coordinator in small batches, not at once when the queue is empty (then
        // the last commit ran alone, a core idle: 2–7% of a two-thread `bench` run, 1% with
        // this bound).
        let short = g.wall_ms < SHORT_GAME_MS;
        if self.unsent.is_empty() {
            self.unsent_since = Instant::now();
        }
        self.unsent.push(g);
        if short
            && self.unsent.len() < BATCH_GAMES.min(self.channels.jobs.len())
            && self.unsent_since.elapsed() < BATCH_WAIT
        {
            return true;
        }
        self.flush()
    }
}

/// Where a worker plays: its slot for the players it makes, one game reset before each job
/// (its buffers are kept), and the moves and notes of the game being played.
struct Table<G: PlayableGame> {
    seat: Worker,
    start: G,
    game: G,
    moves: Vec<G::Move>,
    notes: Vec<MoveNote>,
}

impl<G: PlayableGame> Table<G> {
    fn new(index: usize, rules: G::Rules) -> Self {
        let start = G::new(rules);
        Table {
            seat: Worker::new(index),
            game: start.clone(),
            start,
            moves: Vec::with_capacity(1024),
            notes: Vec::new(),
        }
    }

    /// Plays `job`: its opening (or the start), its two players made by their factories.
    fn play(&mut self, job: &ClaimedJob, shared: &Shared<'_, G>) -> Played {
        let t0 = Instant::now();
        self.notes.clear();
        match &job.opening {
            // Openings were checked before the run started.
            Some(text) => match G::from_position(text, shared.rules) {
                Ok(g) => self.game = g,
                Err(_) => return Played::Aborted,
            },
            None => self.game.clone_from(&self.start),
        }
        let mut players = Vec::with_capacity(2);
        for idx in [job.white, job.black] {
            let created = match &shared.factories[idx as usize] {
                Some(f) => f.create(&mut self.seat),
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
        let keep_notes = (shared.record) || white.reports_searches() || black.reports_searches();
        self.moves.clear();
        let Some(played) = play_game_with(
            &mut self.game,
            &mut *white,
            &mut *black,
            job.seed,
            &shared.game_rules,
            shared.stop,
            &mut self.moves,
            keep_notes.then_some(&mut self.notes),
        ) else {
            return Played::Aborted;
        };
        // Words, like codes, do not depend on the position: the final one writes them all.
        let moves = MoveRecord::of(&self.game, &self.moves);
        let result: GameResult = played.outcome.result;
        Played::Game(FinishedGame {
            job_id: job.id,
            tournament: job.tournament,
            attempt: job.attempt,
            result,
            termination: played.outcome.termination,
            plies: played.plies,
            moves,
            detail: played.detail,
            wall_ms: t0.elapsed().as_secs_f64() * 1e3,
            notes: Vec::new(),
        })
    }
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
