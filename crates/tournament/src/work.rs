//! The one loop that plays a store's tournaments until nothing is left: `eloworld tournament`
//! (its own tournament) and `eloworld worker` (every tournament of a shared store) both run
//! it, so waiting for other workers, reaping dead leases, heartbeats and stopping behave alike.

use crate::store::{Store, TournamentRow};
use crate::{ConfigError, StoreError, StoredTournament};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What playing one tournament once (as far as its jobs could be claimed) did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Games stored.
    pub stored: u64,
    /// Players of the tournament this machine cannot run, with why.
    pub cannot_run: Vec<String>,
    /// Whether the pass was stopped.
    pub interrupted: bool,
}

/// Why [`work`] returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkEnd {
    /// Every job of the selected tournaments is stored.
    Done,
    /// The stop flag was raised; jobs in flight went back to pending.
    Interrupted,
    /// Jobs are left that need players this machine cannot run, and no other worker holds any.
    Unrunnable {
        /// Jobs left.
        pending: u64,
        /// The players that cannot run here, with why.
        players: String,
    },
}

/// How [`work`] goes about it.
#[derive(Clone, Copy, Debug)]
pub struct WorkSettings<'a> {
    /// This process's name in the store's claims and heartbeats.
    pub worker: &'a str,
    /// Raised to stop.
    pub stop: &'a AtomicBool,
    /// Keep waiting for new tournaments when every selected one is done (`worker --wait`).
    pub wait_for_more: bool,
    /// Pause between looks at the store while other workers hold the jobs left.
    pub poll: Duration,
    /// Only this tournament (by id), of those `select` keeps: the store is asked about it
    /// alone, not about every tournament it holds (a run waiting for the jobs other
    /// workers hold of its own tournament).
    pub only: Option<i64>,
}

/// Plays the selected tournaments of `store` with `play` until every job is stored (or, with
/// `wait_for_more`, until stopped). Each round plays what can be claimed of every selected
/// tournament not yet done; when nothing could be claimed but other workers hold jobs, it
/// reaps expired leases (a dead worker's jobs go back to pending), sends a heartbeat and
/// looks again after `poll`. A store without leases (a local SQLite file) has no other
/// workers: one round is all there is.
///
/// Returns the games stored and why it ended.
///
/// # Errors
/// The store's errors, a stored tournament's unreadable settings, and `play`'s errors.
pub fn work<E>(
    store: &mut dyn Store,
    settings: &WorkSettings<'_>,
    select: &dyn Fn(&TournamentRow) -> bool,
    mut play: impl FnMut(&StoredTournament, &mut dyn Store) -> Result<Pass, E>,
) -> Result<(u64, WorkEnd), E>
where
    E: From<StoreError> + From<ConfigError>,
{
    let mut stored = 0u64;
    loop {
        if settings.stop.load(Ordering::Relaxed) {
            return Ok((stored, WorkEnd::Interrupted));
        }
        let mut played = 0u64;
        let mut unrunnable: Vec<String> = Vec::new();
        let rows = match settings.only {
            Some(id) => store.tournament(id)?.into_iter().collect(),
            None => store.tournaments()?,
        };
        for row in rows {
            if !select(&row) || row.done >= row.total {
                continue;
            }
            let tournament = StoredTournament::from_row(&row)?;
            let pass = play(&tournament, store)?;
            played += pass.stored;
            for c in pass.cannot_run {
                if !unrunnable.contains(&c) {
                    unrunnable.push(c);
                }
            }
            if pass.interrupted || settings.stop.load(Ordering::Relaxed) {
                return Ok((stored + played, WorkEnd::Interrupted));
            }
        }
        stored += played;
        if store.lease().is_none() && !settings.wait_for_more {
            return Ok((stored, WorkEnd::Done));
        }
        let counts = match settings.only {
            Some(id) => match store.tournament(id)? {
                Some(row) if select(&row) => store.tournament_status(id)?.into_iter().collect(),
                _ => Vec::new(),
            },
            None => {
                let (tournaments, _) = store.status()?;
                let rows = store.tournaments()?;
                let selected = |name: &str| rows.iter().any(|r| r.name == name && select(r));
                tournaments
                    .into_iter()
                    .filter(|t| selected(&t.name))
                    .collect::<Vec<_>>()
            }
        };
        let (mut pending, mut running) = (0u64, 0u64);
        for t in &counts {
            pending += t.pending + t.dead_leases;
            running += t.running;
        }
        if pending == 0 && running == 0 && !settings.wait_for_more {
            return Ok((stored, WorkEnd::Done));
        }
        if played == 0 {
            if pending > 0 && running == 0 && !unrunnable.is_empty() && !settings.wait_for_more {
                return Ok((
                    stored,
                    WorkEnd::Unrunnable {
                        pending,
                        players: unrunnable.join("; "),
                    },
                ));
            }
            // Others hold the remaining jobs: wait for them to finish or for their leases
            // to expire.
            store.reap()?;
            store.heartbeat(settings.worker, &unrunnable.join("; "))?;
            std::thread::sleep(settings.poll);
        }
    }
}
