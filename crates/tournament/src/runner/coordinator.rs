//! The runner's coordinating thread: claims jobs for the workers, commits the games they
//! finish, renews the claims' leases, and hands back what was not played.

use super::claims::ClaimSizer;
use super::worker::Msg;
use super::{RunOptions, StoredTournament};
use crate::store::{ClaimedJob, FinishedGame, Store};
use crate::{Event, RunError};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use rustc_hash::FxHashMap;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The coordinator's state through a run.
pub(super) struct Coordinator<'a> {
    tournament: &'a StoredTournament,
    store: &'a mut dyn Store,
    opts: &'a RunOptions,
    /// The players whose jobs are claimed, when not all of them can run here; once a player
    /// cannot start, `runnable_now` replaces it.
    filter: Option<&'a [u32]>,
    /// The players that can run here and have not failed to start in this run.
    runnable_now: Vec<u32>,
    /// Players found unable to start in this run (indexes into the tournament's), with why.
    cannot_start: Vec<(u32, String)>,
    /// Jobs claimed and not yet finished, by id.
    in_flight: FxHashMap<i64, ClaimedJob>,
    /// Finished games not committed yet.
    batch: Vec<FinishedGame>,
    /// Games this run stored.
    stored: u64,
    /// Batches of finished games received from the workers.
    handoffs: u64,
    /// The first error: the run stops, and it is returned once the games finished before
    /// it are stored.
    failure: Option<RunError>,
    /// The last claim found nothing left.
    exhausted: bool,
    /// The store's lease on claims (`None` on a store of one machine).
    lease: Option<Duration>,
    last_renew: Instant,
    last_flush: Instant,
    claims: ClaimSizer,
}

/// What the coordinator leaves when a run ends without error.
pub(super) struct Coordinated {
    /// Games this run stored.
    pub stored: u64,
    /// Players found unable to start (indexes into the tournament's players), with why.
    pub cannot_start: Vec<(u32, String)>,
    /// Batches of finished games received from the workers.
    pub handoffs: u64,
}

impl<'a> Coordinator<'a> {
    /// A coordinator for `threads` workers playing the jobs of `tournament` whose players
    /// are all in `runnable` (when `filter` is given; every job otherwise).
    pub(super) fn new(
        tournament: &'a StoredTournament,
        store: &'a mut dyn Store,
        opts: &'a RunOptions,
        runnable: &'a [u32],
        filter: Option<&'a [u32]>,
        threads: usize,
    ) -> Self {
        let lease = store.lease();
        Coordinator {
            tournament,
            filter,
            runnable_now: runnable.to_vec(),
            cannot_start: Vec::new(),
            in_flight: FxHashMap::default(),
            batch: Vec::with_capacity(opts.checkpoint_games),
            stored: 0,
            handoffs: 0,
            failure: None,
            exhausted: false,
            lease,
            last_renew: Instant::now(),
            last_flush: Instant::now(),
            claims: ClaimSizer::new(threads, lease),
            store,
            opts,
        }
    }

    fn stopped(&self) -> bool {
        self.opts.stop.load(Ordering::Relaxed)
    }

    /// Records `e` as the run's failure (unless one came first) and stops the run.
    fn fail(&mut self, e: impl Into<RunError>) {
        self.failure.get_or_insert(e.into());
        self.opts.stop.store(true, Ordering::Relaxed);
    }

    /// Records `e` as the run's failure unless one came first; the run goes on.
    fn note_failure(&mut self, e: impl Into<RunError>) {
        self.failure.get_or_insert(e.into());
    }

    /// Claims jobs for the workers and commits what they finish until every claimed job is
    /// back and nothing more can be claimed (or the run stops), then closes the queue.
    pub(super) fn coordinate(&mut self, jobs: Sender<ClaimedJob>, messages: &Receiver<Msg>) {
        self.last_flush = Instant::now();
        loop {
            // Refill below a low-water mark only, so that claims come in batches, not one
            // commit per finished game.
            let claimed = self.claim(&jobs);
            if self.in_flight.is_empty() && (self.exhausted || self.stopped()) {
                break;
            }
            // Still below the low-water mark after a claim: claim again at once.
            let wait = if claimed && self.claims.wanted(self.in_flight.len()).is_some() {
                Duration::ZERO
            } else {
                self.opts.checkpoint_interval
            };
            match messages.recv_timeout(wait) {
                Ok(msg) => self.receive(msg),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            self.renew_if_due();
            if self.commit_due() {
                if let Err(e) = self.commit() {
                    self.fail(e);
                }
                self.last_flush = Instant::now();
            }
        }
        drop(jobs);
    }

    /// Whether the finished games held are to be committed now: `checkpoint_games` of them,
    /// or any after `checkpoint_interval`. On a shared store a commit is a round trip and a
    /// flush of the server's log, so one comes at most every fifth of the interval however
    /// short the games, its size then set by their length (as fishtest's workers report in
    /// batches sized to theirs): random chess on two threads committed 64 games every 3 ms
    /// on PostgreSQL, and the server's log flushes set the run's pace.
    fn commit_due(&self) -> bool {
        let since = self.last_flush.elapsed();
        let gap = if self.lease.is_some() {
            self.opts.checkpoint_interval / 5
        } else {
            Duration::ZERO
        };
        !self.batch.is_empty()
            && ((self.batch.len() >= self.opts.checkpoint_games && since >= gap)
                || since >= self.opts.checkpoint_interval)
    }

    /// Claims more jobs when the workers hold too few and the run is open, and queues them;
    /// whether any were claimed.
    fn claim(&mut self, jobs: &Sender<ClaimedJob>) -> bool {
        let open = self.failure.is_none() && !self.stopped() && !self.exhausted;
        let Some(wanted) = open
            .then(|| self.claims.wanted(self.in_flight.len()))
            .flatten()
        else {
            return false;
        };
        let filter = if self.cannot_start.is_empty() {
            self.filter
        } else {
            Some(self.runnable_now.as_slice())
        };
        match self
            .store
            .claim(self.tournament.id, &self.opts.worker, wanted, filter)
        {
            Ok(claimed) => {
                self.exhausted = claimed.is_empty();
                self.claims.claimed(claimed.len());
                let any = !claimed.is_empty();
                for j in claimed {
                    self.in_flight.insert(j.id, j.clone());
                    let _ = jobs.send(j);
                }
                any
            }
            Err(e) => {
                self.fail(e);
                false
            }
        }
    }

    /// Handles a worker's message.
    fn receive(&mut self, msg: Msg) {
        match msg {
            Msg::Finished(games) => {
                self.handoffs += 1;
                for g in games {
                    self.in_flight.remove(&g.job_id);
                    self.claims.finished(g.wall_ms);
                    self.batch.push(g);
                }
            }
            Msg::Aborted(id) => self.release(id),
            Msg::CannotStart(id, player, reason) => {
                self.release(id);
                self.cannot_start(player, reason);
            }
            Msg::Panicked(id, text) => {
                if let Some(j) = self.in_flight.remove(&id) {
                    let _ = self.store.release(&[j]);
                }
                self.fail(RunError::WorkerPanicked(text));
            }
        }
    }

    /// Hands job `id` back to pending.
    fn release(&mut self, id: i64) {
        if let Some(j) = self.in_flight.remove(&id) {
            if let Err(e) = self.store.release(&[j]) {
                self.note_failure(e);
            }
        }
    }

    /// Player `player` could not start: no more of its jobs are claimed in this run, and
    /// the store hears why (with what this worker cannot run anyway).
    fn cannot_start(&mut self, player: u32, reason: String) {
        if self.cannot_start.iter().any(|(p, _)| *p == player) {
            return;
        }
        self.runnable_now.retain(|&p| p != player);
        self.opts.emit(Event::PlayerCannotStart {
            player,
            reason: reason.clone(),
        });
        self.cannot_start.push((player, reason));
        let mut why = self.opts.cannot_run.clone();
        for (p, r) in &self.cannot_start {
            if !why.is_empty() {
                why.push_str("; ");
            }
            why.push_str(&format!("{}: {r}", self.tournament.players[*p as usize]));
        }
        if let Err(e) = self.store.heartbeat(&self.opts.worker, &why) {
            self.note_failure(e);
        }
    }

    /// On a shared store, every third of the lease: renews the claims held, returns expired
    /// ones to pending, and tells the store this worker is alive.
    fn renew_if_due(&mut self) {
        let Some(lease) = self.lease else {
            return;
        };
        if self.last_renew.elapsed() < lease / 3 {
            return;
        }
        self.last_renew = Instant::now();
        let held: Vec<ClaimedJob> = self.in_flight.values().cloned().collect();
        let renewed = self
            .store
            .renew(&self.opts.worker, &held)
            .and_then(|()| self.store.reap())
            .and_then(|_| {
                self.store
                    .heartbeat(&self.opts.worker, &self.opts.cannot_run)
            });
        if let Err(e) = renewed {
            self.fail(e);
        }
    }

    /// Commits the finished games held (the batch is emptied whatever happens).
    fn commit(&mut self) -> Result<(), RunError> {
        let done = self.store.complete(&self.opts.worker, &self.batch);
        self.batch.clear();
        let done = done?;
        self.stored += done.accepted as u64;
        for (job, attempt) in done.rejected {
            self.opts.emit(Event::ResultRejected { job, attempt });
        }
        self.opts.emit(Event::Checkpoint {
            stored: self.stored,
        });
        Ok(())
    }

    /// After the workers are gone: commits the last games, hands back the jobs still held,
    /// and returns the run's first failure if there was one.
    ///
    /// # Errors
    /// The run's first failure, or a store failure now.
    pub(super) fn finish(mut self) -> Result<Coordinated, RunError> {
        if !self.batch.is_empty() {
            self.commit()?;
        }
        let leftover: Vec<ClaimedJob> = std::mem::take(&mut self.in_flight).into_values().collect();
        if !leftover.is_empty() {
            self.store.release(&leftover)?;
        }
        if let Some(e) = self.failure {
            return Err(e);
        }
        Ok(Coordinated {
            stored: self.stored,
            cannot_start: self.cannot_start,
            handoffs: self.handoffs,
        })
    }
}
