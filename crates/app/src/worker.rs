//! A worker on many machines: claims jobs of the tournaments in a shared store, plays them
//! through the runner and stores the results, with the same loop as a local tournament's
//! (play what can be claimed, wait for what other workers hold, reap dead leases).

use crate::error::{AppResult, Context};
use crate::game::AppGame;
use crate::session::Session;
use crate::with_game;
use eloworld_tournament::{
    drive, work, Pass, Store, StoredTournament, TournamentRow, Until, WorkEnd, WorkSettings,
};
use std::time::Duration;

/// What a worker plays and how it names itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerSettings {
    /// The shared store.
    pub db: String,
    /// The worker's name in the store (claims, heartbeats, `eloworld status`).
    pub name: String,
    /// Only this tournament (default: all of the store's).
    pub tournament: Option<String>,
    /// Keep waiting for new tournaments once nothing is left.
    pub wait: bool,
}

/// Returns a worker's name when none is given: the host's name and the process id.
#[must_use]
pub fn default_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "worker".to_owned());
    format!("{host}-{}", std::process::id())
}

/// Plays jobs until none is left it can play (or the session is stopped); returns why it
/// ended. Players this machine cannot run are reported to the store (`status` lists them),
/// and their jobs are left to other workers. `opened` is told the store's location (with no
/// password) once it is open.
///
/// # Errors
/// The store cannot be opened or fails.
pub fn run_worker(
    session: &Session,
    s: &WorkerSettings,
    opened: &mut dyn FnMut(&str),
) -> AppResult<WorkEnd> {
    let mut store = session.open_existing_store(&s.db)?;
    opened(&store.location());
    let settings = WorkSettings {
        worker: &s.name,
        stop: session.stop_flag(),
        wait_for_more: s.wait,
        poll: Duration::from_millis(500),
        only: None,
    };
    let wanted = |row: &TournamentRow| s.tournament.as_deref().is_none_or(|t| t == row.name);
    let (_, end) = work::<crate::AppError>(
        &mut *store,
        &settings,
        &wanted,
        |t, store| with_game!(t.game, G => play_claimable::<G>(session, t, store, &s.name)),
    )?;
    Ok(end)
}

/// Plays what can be claimed of one tournament now.
fn play_claimable<G: AppGame>(
    session: &Session,
    t: &StoredTournament,
    store: &mut dyn Store,
    worker: &str,
) -> AppResult<Pass> {
    let rules = G::rules_with(t.draw_rules, t.size, t.komi)?;
    let (factories, cannot) = G::factories(&t.players, session.engines_file())?;
    let mut opts = session.run_options();
    opts.worker = worker.to_owned();
    opts.cannot_run = cannot.join("; ");
    store.heartbeat(worker, &opts.cannot_run)?;
    let location = store.location();
    // The options, and with them the events' sender, end with the closure, so the display
    // that follows them ends too.
    let summary = session.with_progress(&t.name, t.players.clone(), move |events| {
        let mut opts = opts;
        opts.events = events;
        drive::<G>(t, &factories, rules, store, &opts, Until::NothingClaimable)
    });
    let summary = summary.with_context(|| format!("tournament {:?} in {location}", t.name))?;
    // Players that could not start are reported like those this machine cannot run at all:
    // their jobs are left for another worker, never counted as losses.
    let mut cannot_run = cannot;
    cannot_run.extend(
        summary
            .cannot_start
            .iter()
            .map(|(p, why)| format!("{p}: cannot start: {why}")),
    );
    Ok(Pass {
        stored: summary.stored,
        cannot_run,
        interrupted: summary.interrupted,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_default_name_ends_with_the_process_id() {
        let name = super::default_name();
        let suffix = format!("-{}", std::process::id());
        assert!(name.ends_with(&suffix), "{name}");
        assert!(name.len() > suffix.len(), "a host part: {name}");
    }
}
