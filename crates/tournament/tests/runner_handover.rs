//! The runner's hand-over of short games: a worker holds finished short games while jobs are
//! queued, and must hand them over even when another worker takes the last queued job.

use eloworld_games::{GameKind, Squava};
use eloworld_players::PlayableGame;
use eloworld_tournament::{open_store, run, Plan, RunOptions, TournamentConfig};
use std::sync::mpsc;
use std::time::Duration;

/// Many tiny two-thread tournaments of microsecond games: each must end with every game
/// stored. Before the fix a worker could wait for a job forever with games in hand (the
/// other worker had taken the last one), and the run never ended: measured here, one run in
/// 80 to 300 hung, so a thousand runs catch it almost always (they take a few seconds).
#[test]
fn a_worker_holding_short_games_hands_them_over_when_the_queue_runs_dry() {
    let dir = tempfile::tempdir().expect("tmp");
    let (done_tx, done_rx) = mpsc::channel();
    let path = dir.path().to_path_buf();
    // Runs on its own thread: a hang fails the test instead of stalling the suite.
    std::thread::spawn(move || {
        for run_no in 0..1000u32 {
            let games = 3 + run_no % 4;
            let mut config = TournamentConfig::new(
                &format!("t{run_no}"),
                GameKind::Squava,
                vec!["random_move".to_owned()],
            );
            config.self_play = true;
            config.games_per_pair = games;
            config.seed = u64::from(run_no);
            let plan = Plan::new(&config).expect("plan");
            let db = path.join(format!("r{run_no}.sqlite"));
            let mut store = open_store(&db.to_string_lossy(), true).expect("store");
            let opts = RunOptions {
                threads: 2,
                ..RunOptions::default()
            };
            let summary = run::<Squava>(&plan, &Squava::builtin_players(), (), &mut *store, &opts)
                .expect("run");
            assert_eq!(summary.stored, u64::from(games), "run {run_no}");
        }
        let _ = done_tx.send(());
    });
    assert!(
        done_rx.recv_timeout(Duration::from_secs(120)).is_ok(),
        "a run never ended: a worker kept finished games while waiting for a job"
    );
}

/// A store-bound run (squava's microsecond games, so that the coordinator's claims and
/// commits, not the games, set the pace) on two threads stores every game exactly once: one
/// game per job key, each with the result the same game has on one thread (the games are
/// fixed by their seeds, whichever worker plays them).
#[test]
fn a_store_bound_run_on_two_threads_stores_every_game_exactly_once() {
    let dir = tempfile::tempdir().expect("tmp");
    let games = 20_000u32;
    let mut by_threads = Vec::new();
    for threads in [1, 2] {
        let mut config =
            TournamentConfig::new("bound", GameKind::Squava, vec!["random_move".to_owned()]);
        config.self_play = true;
        config.games_per_pair = games;
        config.seed = 5;
        let plan = Plan::new(&config).expect("plan");
        let db = dir.path().join(format!("t{threads}.sqlite"));
        let mut store = open_store(&db.to_string_lossy(), true).expect("store");
        let opts = RunOptions {
            threads,
            ..RunOptions::default()
        };
        let summary =
            run::<Squava>(&plan, &Squava::builtin_players(), (), &mut *store, &opts).expect("run");
        assert_eq!(summary.stored, u64::from(games), "{threads} thread(s)");
        let mut results = store.results_by_key("bound").expect("results");
        results.sort_by_key(|&(key, _)| key);
        let keys: Vec<u32> = results.iter().map(|&(key, _)| key).collect();
        assert_eq!(
            keys,
            (0..games).collect::<Vec<u32>>(),
            "{threads} thread(s): one game per job, no job twice or missing"
        );
        by_threads.push(results);
    }
    assert!(
        by_threads[0] == by_threads[1],
        "the two-thread run's games differ from the one-thread run's"
    );
}
