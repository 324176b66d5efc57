//! `eloworld worker`: plays jobs of the tournaments in a shared store until none is left.
//! Start as many as you like, on as many machines as you like (Slurm job arrays,
//! Kubernetes Jobs, systemd): each claims small batches with a lease, and a worker that
//! dies costs only its games in flight, which others play again.

use anyhow::Context;
use eloworld_app::{with_game, AppGame};
use eloworld_tournament::{
    drive, open_store, work, Event, Pass, RunOptions, Store, StoredTournament, TournamentRow,
    Until, WorkEnd, WorkSettings,
};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Play jobs from a shared database.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database: `postgres://user@host/db` (the password from PGPASSWORD or ~/.pgpass).
    #[arg(long)]
    db: String,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Only this tournament (default: every tournament with jobs left).
    #[arg(long)]
    tournament: Option<String>,
    /// Seconds a claim lasts without renewal; renewed every third of it.
    #[arg(long, default_value_t = 30.0)]
    lease: f64,
    /// This worker's name in the store (default: host name and process id).
    #[arg(long)]
    name: Option<String>,
    /// Engine definitions (TOML) for engine players.
    #[arg(long)]
    engines: Option<PathBuf>,
    /// Keep waiting for new tournaments when everything is done.
    #[arg(long)]
    wait: bool,
    /// Log only rejected results and errors.
    #[arg(long, short)]
    quiet: bool,
}

fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "worker".to_owned())
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut store = open_store(&args.db, false)?;
    anyhow::ensure!(args.lease >= 1.0, "--lease must be at least 1 second");
    store.set_lease(Duration::from_secs_f64(args.lease));
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| format!("{}-{}", host_name(), std::process::id()));
    let stop = crate::interrupt::stop_on_ctrl_c(None);
    eprintln!("worker {name} on {}", store.location());
    // The same loop as a local tournament's: play what can be claimed, wait for what other
    // workers hold, reap dead leases.
    let settings = WorkSettings {
        worker: &name,
        stop: &stop,
        wait_for_more: args.wait,
        poll: Duration::from_millis(500),
    };
    let wanted = |row: &TournamentRow| args.tournament.as_deref().is_none_or(|t| t == row.name);
    let (_, end) = work(
        &mut *store,
        &settings,
        &wanted,
        |t, store| with_game!(t.game, G => play_one::<G>(t, store, &args, &name, &stop)),
    )?;
    match end {
        WorkEnd::Done => {
            eprintln!("worker {name}: nothing left to play");
            Ok(ExitCode::SUCCESS)
        }
        WorkEnd::Interrupted => {
            eprintln!("worker {name}: stopped; jobs in flight go back to pending");
            Ok(ExitCode::from(130))
        }
        WorkEnd::Unrunnable { pending, players } => {
            eprintln!(
                "worker {name}: {pending} jobs left need players this machine cannot run: {players}"
            );
            Ok(ExitCode::from(3))
        }
    }
}

fn play_one<G: AppGame>(
    t: &StoredTournament,
    store: &mut dyn Store,
    args: &Args,
    name: &str,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Pass> {
    let rules = G::rules(t.draw_rules);
    let (factories, cannot) = G::factories(&t.players, args.engines.as_deref())?;
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut opts = RunOptions {
        stop: Arc::clone(stop),
        events: Some(tx),
        worker: name.to_owned(),
        cannot_run: cannot.join("; "),
        ..RunOptions::default()
    };
    if let Some(n) = args.threads {
        opts.threads = n.max(1);
    }
    store.heartbeat(name, &opts.cannot_run)?;
    let quiet = args.quiet;
    let label = format!("worker {name}, tournament {}", t.name);
    let logger = std::thread::spawn(move || log_events(&rx, &label, quiet));
    let summary = drive::<G>(t, &factories, rules, store, &opts, Until::NothingClaimable);
    drop(opts);
    let _ = logger.join();
    let summary =
        summary.with_context(|| format!("tournament {:?} in {}", t.name, store.location()))?;
    Ok(Pass {
        stored: summary.stored,
        cannot_run: cannot,
        interrupted: summary.interrupted,
    })
}

/// Writes a progress line every ten seconds, and every rejected result at once.
fn log_events(rx: &crossbeam_channel::Receiver<Event>, label: &str, quiet: bool) {
    let started = Instant::now();
    let mut last = Instant::now();
    let mut finished = 0u64;
    for e in rx {
        match e {
            Event::ResultRejected { job, attempt } => eprintln!(
                "{label}: rejected late result for job {job} (attempt {attempt}): its claim was lost, the game is not counted"
            ),
            Event::EngineRestarted { player, reason } if !quiet => eprintln!("{label}: restarted {player}: {reason}"),
            Event::GameFinished { .. } => {
                finished += 1;
                if !quiet && last.elapsed() >= Duration::from_secs(10) {
                    last = Instant::now();
                    let rate = finished as f64 / started.elapsed().as_secs_f64();
                    eprintln!("{label}: {finished} games played, {rate:.1} games/s");
                }
            }
            _ => {}
        }
    }
    if !quiet && finished > 0 {
        eprintln!(
            "{label}: {finished} games played in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
}
