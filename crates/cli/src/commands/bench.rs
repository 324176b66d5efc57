//! `eloworld bench`: games per second of the tournament runner against a bare game loop in
//! the same process, on one and on two threads (the backbone issue's benchmark). The
//! measuring is `eloworld_app::bench`'s; this file prints its figures.

use crate::games::parse_kind;
use eloworld_app::bench::{
    bench_player, default_games, measure_game, measure_scale, scale_threads, store_bench,
    GameFigures, ScaleFigures, ScaleRow,
};
use eloworld_games::GameKind;
use std::process::ExitCode;

/// Measure the runner against a bare loop. The runner's rate counts the playing phase (every
/// game played and committed to a real SQLite file), not the one-time storing of the plan.
/// The bare loops and the runner are measured alternately in this one process, each runner
/// measurement between two of the bare loops it is compared with, `--rounds` times, and the
/// median of the rounds' ratios is reported, so that load from other programs on the
/// machine hits both sides alike.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game to measure (both when absent).
    #[arg(long, value_parser = parse_kind)]
    game: Option<GameKind>,
    /// Games per measurement (default: 2000 for chess, 200000 for squava).
    #[arg(long)]
    games: Option<u64>,
    /// Measurement rounds, each: bare loop, runner on 1 thread, bare loop; two bare loops
    /// at once, runner on 2 threads, two bare loops at once. The figures are the rounds'
    /// medians: on a shared 2-core machine one round's ratio moves by ±0.15.
    #[arg(long, default_value_t = 11)]
    rounds: usize,
    /// `text` (a line per measurement) or `json` (one object keyed by game, alone on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Measure a shared store instead: claims and fenced completions per second with 1, 2, 4
    /// and 8 workers, and the runner's games/s on it against SQLite (a postgres:// URL of
    /// a scratch database; the benchmark adds tournaments named `bench-…` to it).
    #[arg(long)]
    db: Option<String>,
    /// Seconds per store measurement.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Measure how the runner scales instead: one tournament on T threads against T
    /// one-thread tournaments of the same games in all run at once (the machine's ceiling),
    /// T = 1, 2, 4, … up to the cores, and the store's own ceiling.
    #[arg(long, conflicts_with = "db")]
    scale: bool,
    /// With `--scale`: the most threads measured (default: the machine's cores).
    #[arg(long, requires = "scale", value_parser = clap::value_parser!(u16).range(1..))]
    threads_max: Option<u16>,
}

/// Output formats of `bench`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text.
    Text,
    /// One JSON object keyed by game.
    Json,
}

/// The figures as JSON, keyed as the fields are named.
fn to_json(figures: &GameFigures) -> serde_json::Value {
    let f = figures;
    {
        serde_json::json!({
            "bare_games_per_s": f.bare_games_per_s,
            "runner_1_thread_ratio": f.runner_1_thread_ratio,
            "runner_2_threads_ratio": f.runner_2_threads_ratio,
            "runner_1_thread_games_per_s": f.runner_1_thread_games_per_s,
            "runner_2_threads_games_per_s": f.runner_2_threads_games_per_s,
            "store_ceiling_games_per_s": f.store_ceiling_games_per_s,
            "ceiling_games_per_s": f.ceiling_games_per_s,
            "runner_share_of_ceiling": f.runner_share_of_ceiling,
            "workers_cpu_per_game_ratio": f.workers_cpu_per_game_ratio,
            "coordinator_cpu_per_game_ratio": f.coordinator_cpu_per_game_ratio,
            "plies_per_game": f.plies_per_game,
            "games": f.games,
            "rounds": f.rounds,
        })
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(db) = &args.db {
        print_store_bench(db, args.seconds, args.games.unwrap_or(2000))?;
        return Ok(ExitCode::SUCCESS);
    }
    let kinds = args
        .game
        .map_or_else(|| GameKind::ALL.to_vec(), |k| vec![k]);
    let rounds = args.rounds.max(1);
    let text = args.format == Format::Text;
    if args.scale {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = args.threads_max.map_or(cores, usize::from);
        return print_scale(&kinds, args.games, rounds, most, text);
    }
    let mut all = serde_json::Map::new();
    for kind in kinds {
        let n = args.games.unwrap_or(default_games(kind));
        if text {
            let p = bench_player(kind);
            println!("{kind}: {p} vs {p}, {n} games per measurement, {rounds} rounds alternated");
        } else {
            eprintln!("bench: {kind}, {n} games per measurement, {rounds} rounds");
        }
        let figures = measure_game(kind, n, rounds, |r| {
            if text {
                println!(
                    "  round {}: bare loop {:>10.0} games/s  runner 1 thread {:>10.0} ({:.2}x)  2 threads {:>10.0} ({:.2}x); two bare loops at once {:>10.0} (runner's share {:.2})",
                    r.index + 1,
                    r.bare,
                    r.one_thread,
                    r.one_thread / r.bare,
                    r.two_threads,
                    r.two_threads / r.bare,
                    r.ceiling,
                    r.two_threads / r.ceiling
                );
            }
        })?;
        if text {
            print_medians(&figures);
        }
        all.insert(kind.name().to_owned(), to_json(&figures));
    }
    if !text {
        println!("{}", serde_json::Value::Object(all));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_medians(figures: &GameFigures) {
    println!(
        "  median: bare loop {:.0} games/s ({:.1} plies/game); runner 1 thread {:.2}x (goal >= 0.9), 2 threads {:.2}x",
        figures.bare_games_per_s, figures.plies_per_game, figures.runner_1_thread_ratio, figures.runner_2_threads_ratio
    );
    println!(
        "  the machine's ceiling on 2 threads (two bare loops at once): {:.0} games/s; the runner's share {:.2} (goal >= 0.9)",
        figures.ceiling_games_per_s, figures.runner_share_of_ceiling
    );
    if let (Some(w), Some(c)) = (
        figures.workers_cpu_per_game_ratio,
        figures.coordinator_cpu_per_game_ratio,
    ) {
        println!(
            "  where the runner's CPU went on 2 threads, per game, in bare loops' CPU per game: workers {w:.3}, coordinator {c:.3} (claims, commits)"
        );
    }
    println!(
        "  the store alone takes {:.0} games/s of this length: no stored run goes faster",
        figures.store_ceiling_games_per_s
    );
}

/// Claims and fenced completions per second against a shared store, with 1, 2, 4 and 8
/// workers, one job at a time and in batches, then the runner's `random_move` chess games/s
/// on that store against SQLite.
fn print_store_bench(db: &str, seconds: f64, games: u64) -> anyhow::Result<()> {
    let f = store_bench(db, seconds, games)?;
    println!("store: {}", f.location);
    for c in &f.claims {
        println!(
            "  {} worker(s), {:>3} job(s) a claim: {:>8.0} games claimed and completed/s  (claim {:.2} ms, fenced complete {:.2} ms; {:.3} ms of server time and {:.3} commits a game)",
            c.workers, c.batch, c.per_s, c.claim_ms, c.complete_ms, c.server_ms_per_game, c.commits_per_game
        );
    }
    for r in &f.runner {
        println!(
            "  runner on {:<8}, {} process(es) of {} thread(s): {:>8.0} random_move chess games/s ({games} games)",
            r.store, r.processes, r.threads, r.games_per_s
        );
    }
    if let Some(sqlite) = f.runner.first().map(|r| r.games_per_s) {
        for r in f.runner.iter().skip(1) {
            println!(
                "  {} process(es) on {}: {:.2} of SQLite, {:+.3} ms a game",
                r.processes,
                r.store,
                r.games_per_s / sqlite,
                1e3 * (1.0 / r.games_per_s - 1.0 / sqlite)
            );
        }
    }
    Ok(())
}
/// `bench --scale`: per game, a line per thread count (text) or its rows under `scale`
/// (JSON).
fn print_scale(
    kinds: &[GameKind],
    games: Option<u64>,
    rounds: usize,
    most: usize,
    text: bool,
) -> anyhow::Result<ExitCode> {
    let mut all = serde_json::Map::new();
    for &kind in kinds {
        let n = games.unwrap_or(default_games(kind));
        let threads = scale_threads(most);
        let p = bench_player(kind);
        let head = format!(
            "{kind}: {p} vs {p}, {n} games per measurement, threads {threads:?}, {rounds} rounds"
        );
        if text {
            println!("{head}");
        } else {
            eprintln!("bench --scale: {head}");
        }
        let figures = measure_scale(kind, n, rounds, most, |round, r| {
            if text {
                println!(
                    "  round {}, {:>2} threads: one tournament {:>10.0} games/s; {} one-thread tournaments at once {:>10.0} (share {:.2}){}",
                    round + 1,
                    r.threads,
                    r.games_per_s,
                    r.threads,
                    r.ceiling_games_per_s,
                    r.share,
                    cpu_text(r)
                );
            }
        })?;
        if text {
            print_scale_medians(&figures);
        }
        all.insert(kind.name().to_owned(), scale_json(&figures));
    }
    if !text {
        println!("{}", serde_json::Value::Object(all));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_scale_medians(figures: &ScaleFigures) {
    println!("  medians:");
    for r in &figures.rows {
        println!(
            "  {:>2} threads: one tournament {:>10.0} games/s; the ceiling {:>10.0}; share {:.2}{}",
            r.threads,
            r.games_per_s,
            r.ceiling_games_per_s,
            r.share,
            cpu_text(r)
        );
    }
    println!(
        "  the store alone takes {:.0} games/s of this length: no stored run goes faster",
        figures.store_ceiling_games_per_s
    );
}

/// Where a `--scale` row's CPU went, per game, and what a hand-off carried.
fn cpu_text(r: &ScaleRow) -> String {
    let cpu = match (r.coordinator_us_per_game, r.workers_us_per_game) {
        (Some(c), Some(w)) => format!("; CPU a game: coordinator {c:.2} us, workers {w:.2} us"),
        _ => String::new(),
    };
    let waits = match (
        r.coordinator_waits_per_1000_games,
        r.workers_waits_per_1000_games,
    ) {
        (Some(c), Some(w)) => {
            format!("; sleeps a 1,000 games: coordinator {c:.1}, workers {w:.1}")
        }
        _ => String::new(),
    };
    format!("{cpu}; {:.0} games a hand-off{waits}", r.games_per_handoff)
}

/// A game's `--scale` figures as JSON: its rows under `scale`.
fn scale_json(figures: &ScaleFigures) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = figures
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "threads": r.threads,
                "games_per_s": r.games_per_s,
                "ceiling_games_per_s": r.ceiling_games_per_s,
                "share": r.share,
                "coordinator_us_per_game": r.coordinator_us_per_game,
                "workers_us_per_game": r.workers_us_per_game,
                "games_per_handoff": r.games_per_handoff,
                "coordinator_waits_per_1000_games": r.coordinator_waits_per_1000_games,
                "workers_waits_per_1000_games": r.workers_waits_per_1000_games,
            })
        })
        .collect();
    serde_json::json!({
        "scale": rows,
        "store_ceiling_games_per_s": figures.store_ceiling_games_per_s,
        "games": figures.games,
        "rounds": figures.rounds,
    })
}
