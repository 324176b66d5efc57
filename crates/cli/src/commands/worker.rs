//! `eloworld worker`: plays jobs of the tournaments in a shared store until none is left.
//! Start as many as you like, on as many machines as you like (Slurm job arrays,
//! Kubernetes Jobs, systemd): each claims small batches with a lease, and a worker that
//! dies costs only its games in flight, which others play again.

use crossbeam_channel::Receiver;
use eloworld_app::worker::{default_name, run_worker, WorkerSettings};
use eloworld_app::Progress;
use eloworld_tournament::{Event, WorkEnd};
use std::path::PathBuf;
use std::process::ExitCode;
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.lease >= 1.0, "--lease must be at least 1 second");
    let name = args.name.clone().unwrap_or_else(default_name);
    let session = crate::session::start(None)
        .threads(args.threads)
        .engines(args.engines.clone())
        .lease(Duration::from_secs_f64(args.lease))
        .progress(Some(Arc::new(WorkerLog {
            worker: name.clone(),
            quiet: args.quiet,
        })));
    #[cfg(feature = "postgres")]
    {
        // One line when the store's connection is lost and one when it is back.
        let (tx, rx) = std::sync::mpsc::channel::<String>();
        eloworld_tournament::store::tap_connection_notes(tx);
        let worker = name.clone();
        std::thread::spawn(move || {
            for note in rx {
                eprintln!("worker {worker}: {note}");
            }
        });
    }
    let end = run_worker(
        &session,
        &WorkerSettings {
            db: args.db.clone(),
            name: name.clone(),
            tournament: args.tournament.clone(),
            wait: args.wait,
        },
        &mut |location| eprintln!("worker {name} on {location}"),
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

/// The worker's log on standard error, as a session's progress.
struct WorkerLog {
    worker: String,
    quiet: bool,
}

impl Progress for WorkerLog {
    fn follow(&self, events: Receiver<Event>, tournament: String, _players: Vec<String>) {
        let label = format!("worker {}, tournament {tournament}", self.worker);
        log_events(&events, &label, self.quiet);
    }
}

/// Writes a progress line every ten seconds, and every rejected result at once.
fn log_events(rx: &Receiver<Event>, label: &str, quiet: bool) {
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
