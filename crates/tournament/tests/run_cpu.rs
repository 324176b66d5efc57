//! A run reports where its CPU went: the coordinator's and the workers' thread CPU time,
//! which `eloworld bench` divides by the bare game loop's to tell the runner's own cost
//! from a busy machine's.

use eloworld_games::{Chess, DrawRules, GameKind};
use eloworld_players::PlayableGame;
use eloworld_tournament::{open_store, run, thread_cpu, Plan, RunOptions, TournamentConfig};
use std::time::Duration;

#[cfg(unix)]
#[test]
fn a_run_reports_its_coordinator_and_workers_cpu_within_what_its_threads_could_use() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut config = TournamentConfig::new("cpu", GameKind::Chess, vec!["random_move".to_owned()]);
    config.self_play = true;
    config.games_per_pair = 40;
    config.seed = 3;
    let plan = Plan::new(&config).expect("plan");
    let db = dir.path().join("cpu.sqlite");
    let mut store = open_store(&db.to_string_lossy(), true).expect("store");
    let opts = RunOptions {
        threads: 2,
        ..RunOptions::default()
    };
    let summary = run::<Chess>(
        &plan,
        &Chess::builtin_players(),
        DrawRules::Automatic,
        &mut *store,
        &opts,
    )
    .expect("run");
    assert_eq!(summary.stored, 40);
    let cpu = summary.cpu.expect("a per-thread CPU clock on unix");
    // Forty random games of hundreds of plies each: the workers did measurable work.
    assert!(cpu.workers > Duration::ZERO, "{cpu:?}");
    assert!(cpu.coordinator > Duration::ZERO, "{cpu:?}");
    // No thread uses more CPU than the wall time it lived (a clock tick of slack).
    let slack = Duration::from_millis(10);
    assert!(
        cpu.workers <= summary.elapsed * 2 + slack,
        "two workers used {:?} in {:?}",
        cpu.workers,
        summary.elapsed
    );
    assert!(
        cpu.coordinator <= summary.elapsed + slack,
        "the coordinator used {:?} in {:?}",
        cpu.coordinator,
        summary.elapsed
    );
}

/// The clock counts this thread's work and nothing of a sleep.
#[cfg(unix)]
#[test]
fn the_thread_cpu_clock_counts_work_not_sleep() {
    let start = thread_cpu().expect("a per-thread CPU clock on unix");
    std::thread::sleep(Duration::from_millis(50));
    let slept = thread_cpu().expect("clock") - start;
    assert!(
        slept < Duration::from_millis(25),
        "a 50 ms sleep counted {slept:?}"
    );
    let start = thread_cpu().expect("clock");
    let spin = std::time::Instant::now();
    let mut x = 0u64;
    while spin.elapsed() < Duration::from_millis(30) {
        x = std::hint::black_box(x.wrapping_add(1));
    }
    let worked = thread_cpu().expect("clock") - start;
    assert!(worked > Duration::ZERO, "30 ms of spinning counted nothing");
}
