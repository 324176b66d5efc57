//! What every use case that plays games shares, set up once by a front end: the flag that
//! stops a run (Ctrl-C raises it), the threads, the engine definitions, a shared store's
//! lease, and where progress goes.

use crate::error::{AppError, AppResult, Context};
use crate::game::AppGame;
use crossbeam_channel::{Receiver, Sender};
use eloworld_players::Registry;
use eloworld_tournament::{open_store, Event, Plan, RunOptions, RunSummary, Store};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A run in which a player could not start is an error (its games were left unplayed);
/// otherwise its summary.
///
/// # Errors
/// [`AppError::CannotStart`].
pub fn cannot_start(summary: RunSummary) -> AppResult<RunSummary> {
    if summary.cannot_start.is_empty() {
        Ok(summary)
    } else {
        Err(AppError::CannotStart {
            players: summary.cannot_start,
            stored: summary.stored,
        })
    }
}

/// Where a run's events go while it plays: a front end's live display.
pub trait Progress: Send + Sync {
    /// Follows one run's events (of tournament `tournament`, whose players are `players`)
    /// until the channel closes; called on a thread of its own.
    fn follow(&self, events: Receiver<Event>, tournament: String, players: Vec<String>);
}

/// How use cases run their games. Cheap to clone; clones share the stop flag.
#[derive(Clone)]
pub struct Session {
    stop: Arc<AtomicBool>,
    threads: Option<usize>,
    engines: Option<PathBuf>,
    lease: Duration,
    progress: Option<Arc<dyn Progress>>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("stopped", &self.stopped())
            .field("threads", &self.threads)
            .field("engines", &self.engines)
            .field("lease", &self.lease)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new(Arc::new(AtomicBool::new(false)))
    }
}

/// A shared store's claim lasts this long without renewal unless told otherwise.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);

impl Session {
    /// A session stopped by `stop` (raise it to stop the run cleanly: games in flight are
    /// abandoned and played again by the next run), on all cores, with no progress shown.
    #[must_use]
    pub fn new(stop: Arc<AtomicBool>) -> Session {
        Session {
            stop,
            threads: None,
            engines: None,
            lease: DEFAULT_LEASE,
            progress: None,
        }
    }

    /// Plays on `threads` worker threads (`None`: all cores).
    #[must_use]
    pub fn threads(mut self, threads: Option<usize>) -> Session {
        self.threads = threads.map(|t| t.max(1));
        self
    }

    /// Adds the engines defined in this file (TOML) to every game's built-in players.
    #[must_use]
    pub fn engines(mut self, engines: Option<PathBuf>) -> Session {
        self.engines = engines;
        self
    }

    /// A claim on a shared (PostgreSQL) store lasts this long without renewal (at least 1 s).
    #[must_use]
    pub fn lease(mut self, lease: Duration) -> Session {
        self.lease = lease.max(Duration::from_secs(1));
        self
    }

    /// Sends every run's events to `progress`.
    #[must_use]
    pub fn progress(mut self, progress: Option<Arc<dyn Progress>>) -> Session {
        self.progress = progress;
        self
    }

    /// True once the stop flag is raised.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The stop flag.
    #[must_use]
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// The threads asked for (`None`: all cores).
    #[must_use]
    pub fn thread_count(&self) -> Option<usize> {
        self.threads
    }

    /// The engine definitions file, if any.
    #[must_use]
    pub fn engines_file(&self) -> Option<&Path> {
        self.engines.as_deref()
    }

    /// The runner's options: this session's stop flag and threads, no events.
    #[must_use]
    pub fn run_options(&self) -> RunOptions {
        let mut opts = RunOptions {
            stop: Arc::clone(&self.stop),
            ..RunOptions::default()
        };
        if let Some(t) = self.threads {
            opts.threads = t;
        }
        opts
    }

    /// Opens the existing store at `location` (never creating one) with this session's lease.
    ///
    /// # Errors
    /// No store there, or it cannot be opened.
    pub fn open_existing_store(&self, location: &str) -> AppResult<Box<dyn Store>> {
        let mut store = open_store(location, false)?;
        store.set_lease(self.lease);
        Ok(store)
    }

    /// Opens (creating if need be) the store at `location` with this session's lease.
    ///
    /// # Errors
    /// The store cannot be opened.
    pub fn open_store(&self, location: &str) -> AppResult<Box<dyn Store>> {
        let mut store =
            open_store(location, true).with_context(|| format!("opening the store {location}"))?;
        store.set_lease(self.lease);
        Ok(store)
    }

    /// The built-in players of `G` plus this session's engines.
    ///
    /// # Errors
    /// The engines file cannot be read or defines a bad engine.
    pub fn registry<G: AppGame>(&self) -> AppResult<Registry<G>> {
        G::registry_with(self.engines.as_deref())
    }

    /// Plays the games of `plan` not yet in `store`, showing progress if the session has a
    /// display; on a shared store this also waits for jobs other workers hold.
    ///
    /// # Errors
    /// A player cannot be made, or the store fails.
    pub fn play<G: AppGame>(
        &self,
        plan: &Plan,
        registry: &Registry<G>,
        rules: G::Rules,
        store: &mut dyn Store,
    ) -> AppResult<RunSummary> {
        self.with_progress(&plan.config().name, plan.players().to_vec(), |events| {
            self.play_with_events(plan, registry, rules, store, events)
        })
    }

    /// Runs `f` with a sender of events that the session's display follows (on a thread of
    /// its own, until `f` returns and drops the sender), or with none when it has no display.
    pub fn with_progress<R>(
        &self,
        tournament: &str,
        players: Vec<String>,
        f: impl FnOnce(Option<Sender<Event>>) -> R,
    ) -> R {
        match &self.progress {
            None => f(None),
            Some(progress) => {
                let (tx, rx) = crossbeam_channel::unbounded();
                let progress = Arc::clone(progress);
                let tournament = tournament.to_owned();
                let shower = std::thread::spawn(move || progress.follow(rx, tournament, players));
                let out = f(Some(tx));
                // The sender is gone with `f`, so the display ends.
                let _ = shower.join();
                out
            }
        }
    }

    /// Plays as [`Session::play`] does, sending the run's events to `events`.
    ///
    /// # Errors
    /// A player cannot be made, or the store fails.
    pub fn play_with_events<G: AppGame>(
        &self,
        plan: &Plan,
        registry: &Registry<G>,
        rules: G::Rules,
        store: &mut dyn Store,
        events: Option<Sender<Event>>,
    ) -> AppResult<RunSummary> {
        let mut opts = self.run_options();
        opts.events = events;
        let location = store.location();
        let summary = eloworld_tournament::run::<G>(plan, registry, rules, store, &opts)
            .with_context(|| format!("tournament {:?} in {location}", plan.config().name))?;
        cannot_start(summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::{GameKind, Squava};
    use eloworld_tournament::TournamentConfig;
    use std::sync::Mutex;

    /// Counts the events of every run it follows.
    #[derive(Default)]
    struct Counter(Mutex<Vec<(usize, Vec<String>)>>);

    impl Progress for Counter {
        fn follow(&self, events: Receiver<Event>, _tournament: String, players: Vec<String>) {
            let n = events
                .iter()
                .filter(|e| matches!(e, Event::GameFinished { .. }))
                .count();
            self.0.lock().expect("lock").push((n, players));
        }
    }

    fn plan(dir: &Path) -> Plan {
        let mut c = TournamentConfig::new(
            "s",
            GameKind::Squava,
            vec!["random_move".to_owned(), "mcts:playouts=20".to_owned()],
        );
        c.games_per_pair = 2;
        c.db = Some(dir.join("s.sqlite").display().to_string());
        Plan::new(&c).expect("plan")
    }

    #[test]
    fn a_session_plays_with_its_threads_and_shows_every_game_to_its_progress() {
        let dir = tempfile::tempdir().expect("tempdir");
        let plan = plan(dir.path());
        let counter = Arc::new(Counter::default());
        let session = Session::default()
            .threads(Some(0))
            .progress(Some(counter.clone() as Arc<dyn Progress>));
        assert_eq!(session.thread_count(), Some(1), "at least one thread");
        assert_eq!(session.run_options().threads, 1);
        let mut store = session.open_store(&plan.config().db_path()).expect("store");
        let registry = session.registry::<Squava>().expect("registry");
        let summary = session
            .play::<Squava>(&plan, &registry, (), &mut *store)
            .expect("plays");
        assert_eq!(summary.stored, 4);
        let seen = counter.0.lock().expect("lock").clone();
        assert_eq!(seen, vec![(4, plan.players().to_vec())]);
    }

    #[test]
    fn a_raised_stop_flag_plays_nothing_and_the_next_run_resumes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let plan = plan(dir.path());
        let session = Session::default();
        session.stop_flag().store(true, Ordering::SeqCst);
        assert!(session.stopped());
        let mut store = session.open_store(&plan.config().db_path()).expect("store");
        let registry = session.registry::<Squava>().expect("registry");
        let summary = session
            .play::<Squava>(&plan, &registry, (), &mut *store)
            .expect("runs");
        assert!(summary.interrupted);
        assert_eq!(summary.stored, 0);
        let again = Session::default()
            .play::<Squava>(&plan, &registry, (), &mut *store)
            .expect("resumes");
        assert_eq!((again.done_before, again.stored), (0, 4));
    }
}
