//! The runner's benchmarks (`eloworld bench`): games per second of the tournament runner
//! against a bare game loop in the same process, on one and on two threads, and a shared
//! store's claims and completions per second. They return typed figures; the front end
//! prints them.
//!
//! The runner's rate counts the playing phase (every game played and committed to a real
//! SQLite file), not the one-time storing of the plan. The bare loops and the runner are
//! measured alternately in one process, each runner measurement between two of the bare
//! loops it is compared with, and the medians of the rounds are reported, so that load from
//! other programs on the machine hits both sides alike.

use crate::error::{AppError, AppResult};
use eloworld_games::squava::{line_made, FULL};
use eloworld_games::{
    Chess, DrawRules, Game, GameKind, GameRng, Go, GoRules, MoveRecord, Side, Squava,
};
use eloworld_players::PlayableGame;
use eloworld_tournament::{open_store, Plan, RunCpu, RunOptions, TournamentConfig};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position};
use std::time::{Duration, Instant};

/// One round's figures, in games per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Round {
    /// The round, from 0.
    pub index: usize,
    /// The bare loop on one thread.
    pub bare: f64,
    /// The runner on one thread.
    pub one_thread: f64,
    /// The runner on two threads.
    pub two_threads: f64,
    /// Two bare loops at once.
    pub ceiling: f64,
}

/// What one game's measurement found.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFigures {
    /// Games per second of the bare loop on one thread (median of the rounds).
    pub bare_games_per_s: f64,
    /// Runner on one thread ÷ bare loop on one thread (median of the rounds' ratios).
    pub runner_1_thread_ratio: f64,
    /// Runner on two threads ÷ bare loop on one thread (median of the rounds' ratios).
    pub runner_2_threads_ratio: f64,
    /// Games per second of the runner on one thread (median).
    pub runner_1_thread_games_per_s: f64,
    /// Games per second of the runner on two threads (median).
    pub runner_2_threads_games_per_s: f64,
    /// Games per second the SQLite store itself can take (finished games of this game's
    /// mean length committed in the runner's batches, nothing played): the ceiling of any
    /// stored run.
    pub store_ceiling_games_per_s: f64,
    /// The machine's own ceiling for two threads: games per second of two bare loops run
    /// at once, each on its own thread over half the games (median of the rounds).
    pub ceiling_games_per_s: f64,
    /// The runner on two threads ÷ that ceiling (median of the rounds' ratios): the share
    /// of what two cores can do that the runner gets.
    pub runner_share_of_ceiling: f64,
    /// Where the runner's CPU went on two threads, per game, in the two bare loops' CPU
    /// per game (medians of the rounds; `None` without a per-thread CPU clock): its workers
    /// (the games and their hand-over, against the bare loop's 1.0) and its coordinator
    /// (claims and commits). Thread CPU clocks count no time spent waiting for a core, so
    /// these move less with other programs' load than the wall-clock figures.
    pub workers_cpu_per_game_ratio: Option<f64>,
    /// The coordinator's CPU per game, in the same unit.
    pub coordinator_cpu_per_game_ratio: Option<f64>,
    /// Mean plies per game.
    pub plies_per_game: f64,
    /// Games per measurement.
    pub games: u64,
    /// Measurement rounds.
    pub rounds: usize,
}

/// Games per measurement when not given: many more for the quick games.
#[must_use]
pub const fn default_games(kind: GameKind) -> u64 {
    match kind {
        GameKind::Chess => 2000,
        GameKind::Squava => 200_000,
        GameKind::Go => 20_000,
    }
}

/// Measures the runner against the bare loop of `kind` over `n` games, `rounds` rounds;
/// `measured` hears each round's figures as it ends.
///
/// # Errors
/// The runner and the bare loop played different games; the runner failed or stored fewer
/// games than planned; the scratch store cannot be written.
pub fn measure_game(
    kind: GameKind,
    n: u64,
    rounds: usize,
    measured: impl FnMut(&Round),
) -> AppResult<GameFigures> {
    let rounds = rounds.max(1);
    match kind {
        GameKind::Chess => measure::<Chess>(kind, n, rounds, bare_chess, measured),
        GameKind::Squava => measure::<Squava>(kind, n, rounds, bare_squava, measured),
        GameKind::Go => measure::<Go>(kind, n, rounds, bare_go, measured),
    }
}

/// A shared store's claims and completions per second, and the runner on it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoreFigures {
    /// Where the store is.
    pub location: String,
    /// With 1, 2, 4 and 8 workers, each claiming and completing one job at a time, then
    /// [`STORE_BATCH`] at a time.
    pub claims: Vec<ClaimFigures>,
    /// The runner's `random_move` chess games per second: on SQLite, then on the shared
    /// store with one and with two worker processes (the same threads in all).
    pub runner: Vec<RunnerFigures>,
}

/// Jobs claimed, and games completed, at a time in `bench --db`'s batched measurement.
pub const STORE_BATCH: usize = 64;

/// Claims and fenced completions with a number of workers at once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClaimFigures {
    /// Workers, each its own connection.
    pub workers: usize,
    /// Jobs each claim takes and each completion stores.
    pub batch: usize,
    /// Games claimed and completed per second, all workers together.
    pub per_s: f64,
    /// Mean milliseconds per claim.
    pub claim_ms: f64,
    /// Mean milliseconds per fenced completion.
    pub complete_ms: f64,
    /// Milliseconds a worker waited on the server per game (its claims' and completions'
    /// time over its games).
    pub server_ms_per_game: f64,
    /// Transactions committed per game: a claim and a completion are one each.
    pub commits_per_game: f64,
}

/// The runner on one store.
#[derive(Clone, Debug, PartialEq)]
pub struct RunnerFigures {
    /// `sqlite` or `postgres`.
    pub store: &'static str,
    /// Worker processes playing the tournament at once (each its own connection).
    pub processes: usize,
    /// Threads of each.
    pub threads: usize,
    /// Games per second, all together.
    pub games_per_s: f64,
}

fn games_per_pair(n: u64) -> AppResult<u32> {
    u32::try_from(n).map_err(|_| AppError::Invalid(format!("{n} games: at most {}", u32::MAX)))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn measure<G: PlayableGame>(
    kind: GameKind,
    n: u64,
    rounds: usize,
    bare: fn(u64) -> u32,
    mut measured: impl FnMut(&Round),
) -> AppResult<GameFigures>
where
    G::Rules: Default,
{
    // The bare loop plays the very games the runner plays: the plan's seeds, the same
    // per-side streams, so the moves are identical and the ratio is the runner's overhead.
    let plan = bench_plan(kind, n)?;
    let (mut bare_rates, mut one_rates, mut two_rates) = (Vec::new(), Vec::new(), Vec::new());
    let (mut one_ratios, mut two_ratios) = (Vec::new(), Vec::new());
    let (mut ceilings, mut shares) = (Vec::new(), Vec::new());
    let (mut worker_cpus, mut coordinator_cpus) = (Vec::new(), Vec::new());
    let mut plies = 0u64;
    for round in 0..rounds {
        // Each runner measurement lies between two measurements of its reference and is
        // compared with both together: this machine's speed wanders within a second, and a
        // reference taken on one side only caught it faster or slower than the runner saw it.
        let (bare_rate, bare_plies, _, (one, one_plies, _)) =
            around(&plan, 1, bare, || runner_rate::<G>(&plan, 1))?;
        plies = bare_plies;
        crate::ensure!(
            one_plies == plies,
            "the runner played {one_plies} plies, the bare loop {plies}: not the same games"
        );
        let (ceiling, _, bare_cpu, (two, _, two_cpu)) =
            around(&plan, 2, bare, || runner_rate::<G>(&plan, 2))?;
        // CPU per game, in the bare loops' CPU per game: the bare loops' figure is over
        // the two runs around the runner's.
        if let (Some(bare_cpu), Some(cpu)) = (bare_cpu, two_cpu) {
            let per_game = |d: Duration, games: f64| d.as_secs_f64() / games;
            let bare = per_game(bare_cpu, 2.0 * n as f64);
            worker_cpus.push(per_game(cpu.workers, n as f64) / bare);
            coordinator_cpus.push(per_game(cpu.coordinator, n as f64) / bare);
        }
        measured(&Round {
            index: round,
            bare: bare_rate,
            one_thread: one,
            two_threads: two,
            ceiling,
        });
        ceilings.push(ceiling);
        shares.push(two / ceiling);
        bare_rates.push(bare_rate);
        one_rates.push(one);
        two_rates.push(two);
        one_ratios.push(one / bare_rate);
        two_ratios.push(two / bare_rate);
    }
    let plies_per_game = plies as f64 / n as f64;
    let ceiling = store_ceiling(kind, n, plies_per_game)?;
    let cpu_median = |v: Vec<f64>| (!v.is_empty()).then(|| median(v));
    let figures = GameFigures {
        bare_games_per_s: median(bare_rates),
        runner_1_thread_ratio: median(one_ratios),
        runner_2_threads_ratio: median(two_ratios),
        runner_1_thread_games_per_s: median(one_rates),
        runner_2_threads_games_per_s: median(two_rates),
        store_ceiling_games_per_s: ceiling,
        ceiling_games_per_s: median(ceilings),
        runner_share_of_ceiling: median(shares),
        workers_cpu_per_game_ratio: cpu_median(worker_cpus),
        coordinator_cpu_per_game_ratio: cpu_median(coordinator_cpus),
        plies_per_game,
        games: n,
        rounds,
    };
    Ok(figures)
}

/// Runs `measure` between two runs of `threads` bare loops at once; returns the bare loops'
/// games per second over both runs, the plies of one run, their CPU time over both runs
/// (where there is a per-thread CPU clock), and what `measure` gave.
fn around<T>(
    plan: &Plan,
    threads: usize,
    bare: fn(u64) -> u32,
    measure: impl FnOnce() -> AppResult<T>,
) -> AppResult<(f64, u64, Option<Duration>, T)> {
    let (before, plies, cpu_before) = bare_loops(plan, threads, bare);
    let measured = measure()?;
    let (after, _, cpu_after) = bare_loops(plan, threads, bare);
    let games = plan.jobs().len() as f64;
    let cpu = cpu_before.zip(cpu_after).map(|(a, b)| a + b);
    Ok((2.0 * games / (before + after), plies, cpu, measured))
}

/// Seconds taken by `threads` bare loops run at once, thread `t` playing every `threads`-th
/// game of the plan from the `t`-th (the most this machine's cores can play, with nothing
/// stored or coordinated), the plies played, and the loops' CPU time together (where there
/// is a per-thread CPU clock).
fn bare_loops(plan: &Plan, threads: usize, bare: fn(u64) -> u32) -> (f64, u64, Option<Duration>) {
    let seeds: Vec<u64> = plan.jobs().iter().map(|j| j.seed).collect();
    let t = Instant::now();
    let (plies, cpu) = std::thread::scope(|scope| {
        let loops: Vec<_> = (0..threads)
            .map(|first| {
                let seeds = &seeds;
                scope.spawn(move || {
                    let cpu_start = eloworld_tournament::thread_cpu();
                    let plies = seeds
                        .iter()
                        .skip(first)
                        .step_by(threads)
                        .map(|&seed| u64::from(bare(seed)))
                        .sum::<u64>();
                    let cpu = cpu_start
                        .zip(eloworld_tournament::thread_cpu())
                        .map(|(start, end)| end.saturating_sub(start));
                    (plies, cpu)
                })
            })
            .collect();
        loops
            .into_iter()
            .map(|l| l.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .fold((0u64, Some(Duration::ZERO)), |(plies, cpu), (p, c)| {
                (plies + p, cpu.zip(c).map(|(a, b)| a + b))
            })
    });
    (t.elapsed().as_secs_f64(), plies, cpu)
}

fn bench_plan(kind: GameKind, n: u64) -> AppResult<Plan> {
    let mut config = TournamentConfig::new("bench", kind, vec![bench_player(kind).to_owned()]);
    config.self_play = true;
    config.games_per_pair = games_per_pair(n)?;
    config.seed = 1;
    Ok(Plan::new(&config)?)
}

fn scratch_dir(label: &str) -> AppResult<std::path::PathBuf> {
    // Numbered, so that the runs of `--scale`'s ceiling, at once in one process, each have
    // their own file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("eloworld-bench-{}-{label}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Plays the plan through the runner into a fresh SQLite file; returns games/s over the
/// playing phase (every game played and committed), the plies stored, and where the run's
/// CPU went.
fn runner_rate<G: PlayableGame>(
    plan: &Plan,
    threads: usize,
) -> AppResult<(f64, u64, Option<RunCpu>)>
where
    G::Rules: Default,
{
    let (summary, plies) = scratch_run::<G>(plan, threads, None, true)?;
    let n = plan.jobs().len() as f64;
    Ok((n / summary.playing.as_secs_f64(), plies, summary.cpu))
}

/// Plays the plan through the runner on `threads` threads into a fresh SQLite file, its
/// plan stored first and the play started when every party to `start` has stored its own;
/// returns the run's summary and, when `count_plies`, the plies stored.
fn scratch_run<G: PlayableGame>(
    plan: &Plan,
    threads: usize,
    start: Option<&std::sync::Barrier>,
    count_plies: bool,
) -> AppResult<(eloworld_tournament::RunSummary, u64)>
where
    G::Rules: Default,
{
    // The plan is stored before the start, so that the runs started together all play at
    // once (the run finds its plan stored); the start is waited for whatever happened, so
    // that a failure here does not leave the others waiting.
    let prepared = (|| -> AppResult<_> {
        let dir = scratch_dir(&format!("{}-{threads}", plan.game()))?;
        let mut store = open_store(&dir.join("bench.sqlite").to_string_lossy(), true)?;
        store.begin(plan)?;
        Ok((dir, store))
    })();
    if let Some(start) = start {
        start.wait();
    }
    let (dir, mut store) = prepared?;
    // The runner as a user's run has it: its default commits.
    let opts = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let summary = eloworld_tournament::run::<G>(
        plan,
        &G::builtin_players(),
        G::Rules::default(),
        &mut *store,
        &opts,
    )?;
    let plies: u64 = if count_plies {
        store
            .results(None)?
            .iter()
            .map(|r| u64::from(r.plies))
            .sum()
    } else {
        0
    };
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    let n = plan.jobs().len() as u64;
    crate::ensure!(
        summary.stored == n,
        "runner stored {} of {n} games",
        summary.stored
    );
    Ok((summary, plies))
}

/// One row of `bench --scale`: one tournament on `threads` threads against `threads`
/// one-thread tournaments run at once over the same games in all (each its own SQLite
/// file): what the machine gives independent runs, the ceiling of one run on that many
/// threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleRow {
    /// Worker threads of the one tournament, and one-thread tournaments at once.
    pub threads: usize,
    /// Games per second of the one tournament (median of the rounds).
    pub games_per_s: f64,
    /// Games per second of the separate tournaments together (median of the rounds).
    pub ceiling_games_per_s: f64,
    /// The one tournament ÷ the separate ones (median of the rounds' ratios).
    pub share: f64,
    /// CPU microseconds a game of the one tournament's coordinator (claims, commits) and
    /// of its workers together (the games, handing them over), medians of the rounds;
    /// `None` where the system keeps no clock per thread. Where the time goes as threads
    /// are added.
    pub coordinator_us_per_game: Option<f64>,
    /// See `coordinator_us_per_game`.
    pub workers_us_per_game: Option<f64>,
    /// Games a hand-off of finished games from a worker to the coordinator carried
    /// (median of the rounds): each hand-off is a message and may be a wake-up.
    pub games_per_handoff: f64,
    /// Times the coordinator, and the workers together, slept waiting per 1,000 games
    /// (their voluntary context switches: each a sleep and a wake-up), medians of the
    /// rounds; `None` where the system does not count them per thread.
    pub coordinator_waits_per_1000_games: Option<f64>,
    /// See `coordinator_waits_per_1000_games`.
    pub workers_waits_per_1000_games: Option<f64>,
}

/// What `bench --scale` found for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleFigures {
    /// A row per thread count, from one thread up.
    pub rows: Vec<ScaleRow>,
    /// Games per second the SQLite store itself takes (as [`GameFigures`]'s).
    pub store_ceiling_games_per_s: f64,
    /// Games per measurement (each separate tournament plays its share of them).
    pub games: u64,
    /// Measurement rounds.
    pub rounds: usize,
}

/// The thread counts `bench --scale` measures: 1, 2, 4, … up to `most`, and `most`.
#[must_use]
pub fn scale_threads(most: usize) -> Vec<usize> {
    let most = most.max(1);
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |t| t.checked_mul(2))
        .take_while(|&t| t <= most)
        .collect();
    if counts.last() != Some(&most) {
        counts.push(most);
    }
    counts
}

/// Measures how the runner scales for `kind`: for each thread count of
/// [`scale_threads`]`(threads_max)`, one tournament of `n` games on that many threads,
/// between two measurements of as many one-thread tournaments of `n` ÷ threads games each
/// run at once, `rounds` times; `measured` hears each row of each round.
///
/// # Errors
/// A run failed or stored fewer games than planned; a scratch store cannot be written.
pub fn measure_scale(
    kind: GameKind,
    n: u64,
    rounds: usize,
    threads_max: usize,
    measured: impl FnMut(usize, &ScaleRow),
) -> AppResult<ScaleFigures> {
    match kind {
        GameKind::Chess => scale::<Chess>(kind, n, rounds, threads_max, measured),
        GameKind::Squava => scale::<Squava>(kind, n, rounds, threads_max, measured),
        GameKind::Go => scale::<Go>(kind, n, rounds, threads_max, measured),
    }
}

fn scale<G: PlayableGame>(
    kind: GameKind,
    n: u64,
    rounds: usize,
    threads_max: usize,
    mut measured: impl FnMut(usize, &ScaleRow),
) -> AppResult<ScaleFigures>
where
    G::Rules: Default,
{
    let rounds = rounds.max(1);
    let plan = bench_plan(kind, n)?;
    let mut rows = Vec::new();
    let mut plies = 0;
    for threads in scale_threads(threads_max) {
        // Each separate tournament plays its share of the games (at least one).
        let part = bench_plan(kind, (n / threads as u64).max(1))?;
        let parts = part.jobs().len() as f64 * threads as f64;
        let mut measured_rows = Vec::with_capacity(rounds);
        for round in 0..rounds {
            let before = separate_runs::<G>(&part, threads)?;
            let (one, stored_plies) = scratch_run::<G>(&plan, threads, None, plies == 0)?;
            if plies == 0 {
                plies = stored_plies;
            }
            let after = separate_runs::<G>(&part, threads)?;
            let games = plan.jobs().len() as f64;
            let rate = games / one.playing.as_secs_f64();
            // Both measurements around the run together, as `around` takes them.
            let ceiling = 2.0 * parts / (before + after);
            let us_per_game = |d: Duration| d.as_secs_f64() * 1e6 / games;
            let per_1000 = |n: u64| n as f64 * 1000.0 / games;
            let row = ScaleRow {
                threads,
                games_per_s: rate,
                ceiling_games_per_s: ceiling,
                share: rate / ceiling,
                coordinator_us_per_game: one.cpu.map(|c| us_per_game(c.coordinator)),
                workers_us_per_game: one.cpu.map(|c| us_per_game(c.workers)),
                games_per_handoff: games / one.handoffs.max(1) as f64,
                coordinator_waits_per_1000_games: one.waits.map(|w| per_1000(w.coordinator)),
                workers_waits_per_1000_games: one.waits.map(|w| per_1000(w.workers)),
            };
            measured(round, &row);
            measured_rows.push(row);
        }
        // Each figure the median of the rounds'; an optional one of the rounds that have it.
        let of = |f: fn(&ScaleRow) -> f64| median(measured_rows.iter().map(f).collect());
        let of_some = |f: fn(&ScaleRow) -> Option<f64>| {
            let v: Vec<f64> = measured_rows.iter().filter_map(f).collect();
            (!v.is_empty()).then(|| median(v))
        };
        rows.push(ScaleRow {
            threads,
            games_per_s: of(|r| r.games_per_s),
            ceiling_games_per_s: of(|r| r.ceiling_games_per_s),
            share: of(|r| r.share),
            coordinator_us_per_game: of_some(|r| r.coordinator_us_per_game),
            workers_us_per_game: of_some(|r| r.workers_us_per_game),
            games_per_handoff: of(|r| r.games_per_handoff),
            coordinator_waits_per_1000_games: of_some(|r| r.coordinator_waits_per_1000_games),
            workers_waits_per_1000_games: of_some(|r| r.workers_waits_per_1000_games),
        });
    }
    let store_ceiling_games_per_s = store_ceiling(kind, n, plies as f64 / n.max(1) as f64)?;
    Ok(ScaleFigures {
        rows,
        store_ceiling_games_per_s,
        games: n,
        rounds,
    })
}

/// Seconds `threads` one-thread tournaments of `plan`, each in its own SQLite file, take
/// when started together: until the last of them has played its games.
fn separate_runs<G: PlayableGame>(plan: &Plan, threads: usize) -> AppResult<f64>
where
    G::Rules: Default,
{
    let start = std::sync::Barrier::new(threads);
    let runs: Vec<AppResult<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let start = &start;
                scope.spawn(move || {
                    scratch_run::<G>(plan, 1, Some(start), false)
                        .map(|(s, _)| s.playing.as_secs_f64())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    runs.into_iter()
        .try_fold(0.0f64, |longest, r| Ok(longest.max(r?)))
}

/// Joins scoped benchmark workers in order; a worker that panicked is an error, not a crash.
fn join_workers<T>(
    handles: Vec<std::thread::ScopedJoinHandle<'_, AppResult<T>>>,
) -> Vec<AppResult<T>> {
    handles
        .into_iter()
        .map(|h| {
            h.join()
                .unwrap_or_else(|_| Err(AppError::Invalid("worker panicked".to_owned())))
        })
        .collect()
}

/// Games per second the SQLite store takes with nothing played: jobs claimed and completed
/// in the runner's batch size with made-up games of `plies` plies each.
fn store_ceiling(kind: GameKind, n: u64, plies: f64) -> AppResult<f64> {
    use eloworld_tournament::FinishedGame;
    let plan = bench_plan(kind, n)?;
    let dir = scratch_dir(&format!("{kind}-ceiling"))?;
    let db = dir.join("bench.sqlite");
    let mut store = open_store(&db.to_string_lossy(), true)?;
    let id = store.begin(&plan)?;
    let code = match kind {
        GameKind::Chess => "e2e4",
        GameKind::Squava => "c3",
        GameKind::Go => "D4",
    };
    let moves = MoveRecord::from_text(kind, &vec![code; plies.round() as usize].join(" "))?;
    let t = Instant::now();
    let mut stored = 0u64;
    loop {
        let jobs = store.claim(id, "bench", 256, None)?;
        if jobs.is_empty() {
            break;
        }
        let games: Vec<FinishedGame> = jobs
            .iter()
            .map(|j| bench_game(j, plies.round() as u32, &moves))
            .collect();
        stored += store.complete("bench", &games)?.accepted as u64;
    }
    let rate = stored as f64 / t.elapsed().as_secs_f64();
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(rate)
}

/// A random chess game on bare shakmaty with the same end checks as [`Chess`] under the
/// automatic draw rules; returns its plies.
fn bare_chess(seed: u64) -> u32 {
    let mut rngs = [
        GameRng::for_side(seed, Side::First),
        GameRng::for_side(seed, Side::Second),
    ];
    let mut pos = shakmaty::Chess::default();
    let mut hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
    let mut history: Vec<u64> = Vec::with_capacity(256);
    history.push(hash.0);
    let mut plies = 0;
    let _ = DrawRules::Automatic;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty()
            || pos.is_insufficient_material()
            || pos.halfmoves() >= 150
            || plies >= 2000
        {
            return plies;
        }
        if history.len() > 8
            && (0..history.len())
                .rev()
                .step_by(2)
                .filter(|&i| history[i] == hash.0)
                .count()
                >= 5
        {
            return plies;
        }
        let side = usize::from(pos.turn().is_black());
        let m = moves[rngs[side].below(moves.len())];
        if pos.is_irreversible(m) {
            history.clear();
            pos.play_unchecked(m);
            hash = pos.zobrist_hash(EnPassantMode::Legal);
        } else {
            let next = pos.update_zobrist_hash(hash, m, EnPassantMode::Legal);
            pos.play_unchecked(m);
            hash = next.unwrap_or_else(|| pos.zobrist_hash(EnPassantMode::Legal));
        }
        history.push(hash.0);
        plies += 1;
    }
}

/// The player the benchmark's games are between: the uniform random mover, or for Go the
/// light playout (`random`: no filling of its own eyes, so that games end).
#[must_use]
pub fn bench_player(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Go => "random",
        GameKind::Chess | GameKind::Squava => "random_move",
    }
}

/// A random 9×9 Go game (komi 7, Tromp–Taylor) between two light playouts, on the
/// game's own board: what a Monte-Carlo program's playout loop does.
fn bare_go(seed: u64) -> u32 {
    let mut rngs = [
        GameRng::for_side(seed, Side::First),
        GameRng::for_side(seed, Side::Second),
    ];
    let mut players = [
        eloworld_players::go::RandomGo::default(),
        eloworld_players::go::RandomGo::default(),
    ];
    let mut game = Go::new(GoRules::default());
    while game.outcome().is_none() {
        let side = game.side_to_move().index();
        let mv = players[side].pick(&game, &mut rngs[side]);
        game.play(mv);
    }
    game.ply()
}

/// A random squava game on bare bitboards; returns its plies.
fn bare_squava(seed: u64) -> u32 {
    let mut rngs = [
        GameRng::for_side(seed, Side::First),
        GameRng::for_side(seed, Side::Second),
    ];
    let mut stones = [0u32; 2];
    let mut plies = 0;
    loop {
        let side = (plies % 2) as usize;
        let empty = !(stones[0] | stones[1]) & FULL;
        let k = rngs[side].below(empty.count_ones() as usize);
        let mut e = empty;
        for _ in 0..k {
            e &= e - 1;
        }
        let sq = e.trailing_zeros() as usize;
        stones[side] |= 1 << sq;
        plies += 1;
        if line_made(stones[side], sq).is_some() || (stones[0] | stones[1]) == FULL {
            return plies;
        }
    }
}

/// Claims and fenced completions per second against a shared store, with 1, 2, 4 and 8
/// workers (each its own connection), claiming and completing one job at a time, then
/// [`STORE_BATCH`] at a time; then the runner's `random_move` chess games/s on a temporary
/// SQLite file (two threads), and on the shared store with one process of two threads and
/// with two of one thread each.
///
/// # Errors
/// The store cannot be opened or refuses a fresh claim; a worker thread panics.
pub fn store_bench(db: &str, seconds: f64, games: u64) -> AppResult<StoreFigures> {
    let stamp = std::process::id();
    let mut figures = StoreFigures {
        location: open_store(db, false)?.location(),
        claims: Vec::new(),
        runner: Vec::new(),
    };
    for batch in [1, STORE_BATCH] {
        for workers in [1usize, 2, 4, 8] {
            let name = format!("bench-claims-{stamp}-{workers}-{batch}");
            figures
                .claims
                .push(claims_at_once(db, &name, workers, batch, seconds)?);
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = cores.clamp(1, 2);
    let dir = scratch_dir("store")?;
    let sqlite = dir.join("bench.sqlite").to_string_lossy().into_owned();
    for (label, location, processes) in [
        ("sqlite", sqlite.as_str(), 1),
        ("postgres", db, 1),
        ("postgres", db, threads),
    ] {
        let mut config = TournamentConfig::new(
            &format!("bench-games-{stamp}-{label}-{processes}"),
            GameKind::Chess,
            vec!["random_move".to_owned()],
        );
        config.self_play = true;
        config.games_per_pair = games_per_pair(games)?;
        config.seed = 1;
        let plan = Plan::new(&config)?;
        open_store(location, true)?.begin(&plan)?;
        let each = (threads / processes).max(1);
        let runs: Vec<AppResult<(u64, Duration)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..processes)
                .map(|p| {
                    let plan = &plan;
                    scope.spawn(move || -> AppResult<(u64, Duration)> {
                        let mut store = open_store(location, true)?;
                        let opts = RunOptions {
                            threads: each,
                            worker: format!("bench-{label}-{processes}-{p}"),
                            ..RunOptions::default()
                        };
                        let t = Instant::now();
                        let summary = eloworld_tournament::run::<Chess>(
                            plan,
                            &Chess::builtin_players(),
                            DrawRules::Automatic,
                            &mut *store,
                            &opts,
                        )?;
                        Ok((summary.stored, t.elapsed()))
                    })
                })
                .collect();
            join_workers(handles)
        });
        let (mut stored, mut longest) = (0u64, Duration::ZERO);
        for r in runs {
            let (n, t) = r?;
            stored += n;
            longest = longest.max(t);
        }
        crate::ensure!(
            stored == plan.jobs().len() as u64,
            "{label}: the runner stored {stored} of {} games",
            plan.jobs().len()
        );
        figures.runner.push(RunnerFigures {
            store: label,
            processes,
            threads: each,
            games_per_s: stored as f64 / longest.as_secs_f64(),
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(figures)
}

/// The game a store benchmark reports for a claimed job: a draw at the move limit after
/// `plies` plies (`moves`), so that only the store's work is measured.
fn bench_game(
    job: &eloworld_tournament::ClaimedJob,
    plies: u32,
    moves: &MoveRecord,
) -> eloworld_tournament::FinishedGame {
    eloworld_tournament::FinishedGame {
        job_id: job.id,
        tournament: job.tournament,
        attempt: job.attempt,
        result: eloworld_games::GameResult::Draw,
        termination: eloworld_games::Termination::MaxPlies,
        plies,
        moves: moves.clone(),
        detail: None,
        wall_ms: 0.0,
        notes: Vec::new(),
    }
}

/// `workers` connections at once claiming `batch` jobs of a fresh tournament and
/// completing them, for `seconds`.
fn claims_at_once(
    db: &str,
    name: &str,
    workers: usize,
    batch: usize,
    seconds: f64,
) -> AppResult<ClaimFigures> {
    use eloworld_tournament::FinishedGame;
    let no_moves = MoveRecord::with_capacity(GameKind::Chess, 0);
    let mut config = TournamentConfig::new(name, GameKind::Chess, vec!["random_move".to_owned()]);
    config.self_play = true;
    config.games_per_pair = 200_000;
    let plan = Plan::new(&config)?;
    let id = open_store(db, false)?.begin(&plan)?;
    // The clock starts when every worker has its connection (connecting took longer than
    // the measurement on a busy machine).
    let start = std::sync::Barrier::new(workers);
    let counts: Vec<AppResult<(u64, u64, f64, f64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (start, no_moves) = (&start, &no_moves);
                s.spawn(move || -> AppResult<(u64, u64, f64, f64)> {
                    let store = open_store(db, false);
                    start.wait();
                    let mut store = store?;
                    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
                    let name = format!("bench-{w}");
                    let (mut games, mut calls, mut claim_s, mut complete_s) =
                        (0u64, 0u64, 0.0, 0.0);
                    while Instant::now() < deadline {
                        let t = Instant::now();
                        let jobs = store.claim(id, &name, batch, None)?;
                        claim_s += t.elapsed().as_secs_f64();
                        if jobs.is_empty() {
                            break;
                        }
                        let done: Vec<FinishedGame> = jobs
                            .iter()
                            .map(|job| bench_game(job, 0, no_moves))
                            .collect();
                        let t = Instant::now();
                        let stored = store.complete(&name, &done)?;
                        complete_s += t.elapsed().as_secs_f64();
                        crate::ensure!(stored.accepted == done.len(), "a fresh claim was refused");
                        games += done.len() as u64;
                        calls += 1;
                    }
                    Ok((games, calls, claim_s, complete_s))
                })
            })
            .collect();
        join_workers(handles)
    });
    let (mut games, mut calls, mut claim_s, mut complete_s) = (0u64, 0u64, 0.0, 0.0);
    for c in counts {
        let (g, n, a, b) = c?;
        games += g;
        calls += n;
        claim_s += a;
        complete_s += b;
    }
    let (games_f, calls_f) = (games.max(1) as f64, calls.max(1) as f64);
    Ok(ClaimFigures {
        workers,
        batch,
        per_s: games as f64 / seconds,
        claim_ms: 1e3 * claim_s / calls_f,
        complete_ms: 1e3 * complete_s / calls_f,
        server_ms_per_game: 1e3 * (claim_s + complete_s) / games_f,
        commits_per_game: 2.0 * calls_f / games_f,
    })
}
