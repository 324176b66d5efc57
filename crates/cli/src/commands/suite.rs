//! `eloworld suite`: runs an EPD test suite (`bm`/`am`) and reports the positions solved.
//! An evol-family player also reports, per position, the nodes searched until the right move
//! was found and kept (David–Koppel–Netanyahu, section IV: the search-evolution fitness,
//! capped at the node limit); an external engine (UCI or CECP, e.g. Debian's `toga2` or
//! `glaurung`, standing in for the paper's Crafty in its Table III) is asked for one move per
//! position within the same time, nodes or depth.

use anyhow::{bail, Context};
use eloworld_games::{Chess, DrawRules, Game, GameRng, Side};
use eloworld_players::chess::evol::engine::suite::{parse_epd, solve, EpdPosition, SolveResult};
use eloworld_players::chess::evol::engine::Limits;
use eloworld_players::chess::evol::evol_config;
use eloworld_players::{PlayerSpec, SpecError, Worker};
use shakmaty::san::San;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Run an EPD test suite and report solved positions and nodes to solution.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The EPD file (positions with `bm` and/or `am`; `id` names them).
    #[arg(long)]
    epd: String,
    /// The player: an evol-family spec (`evol`, `evol:eval=FILE,search=FILE`, `ab_depth<N>`,
    /// `ab_<N>k`) or an engine (`toga2`, `glaurung`, `stockfish`, one of --engines FILE).
    #[arg(long, default_value = "evol")]
    player: String,
    /// Milliseconds per position (David–Koppel–Netanyahu's Table III: 5,000).
    #[arg(long)]
    movetime: Option<u64>,
    /// Engine definitions (TOML) to add to the built-in engines.
    #[arg(long, value_name = "FILE")]
    engines: Option<std::path::PathBuf>,
    /// Nodes per position (David–Koppel–Netanyahu used 500,000); overrides the player's own budget.
    #[arg(long)]
    nodes: Option<u64>,
    /// Plies per position (default: the player's, or unlimited).
    #[arg(long)]
    depth: Option<u32>,
    /// Only the first K positions of the file.
    #[arg(long)]
    first: Option<usize>,
    /// Worker threads (positions are independent; results do not depend on the count).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one line per position.
    #[arg(long)]
    verbose: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text_bytes = std::fs::read(&args.epd).with_context(|| format!("reading {}", args.epd))?;
    let text = String::from_utf8_lossy(&text_bytes);
    let suite = parse_epd(&text, &args.epd);
    if let (Some(first), Some(last)) = (suite.nul_lines.first(), suite.nul_lines.last()) {
        eprintln!(
            "note: {}: NUL bytes removed from {} lines (lines {first} to {last})",
            args.epd,
            suite.nul_lines.len()
        );
    }
    for e in &suite.skipped {
        eprintln!("skipped: {e}");
    }
    let spec: PlayerSpec = args.player.parse()?;
    let positions: Vec<&EpdPosition> = suite
        .positions
        .iter()
        .take(args.first.unwrap_or(usize::MAX))
        .collect();
    if positions.is_empty() {
        bail!("{}: no usable position", args.epd);
    }
    let mut config = match evol_config(&spec) {
        Ok(config) => config,
        // Not of an evol family: an engine, or a name nothing here knows.
        Err(SpecError::Unknown { .. }) => return run_engine(&args, &spec, &positions),
        Err(e) => return Err(e.into()),
    };
    if config.one_ply.is_some() {
        bail!(
            "{}: the 1-ply player does not search; give evol, ab_depth<N> or ab_<N>k",
            args.player
        );
    }
    if args.nodes.is_some() || args.depth.is_some() || args.movetime.is_some() {
        config.limits = Limits {
            nodes: args.nodes,
            depth: args.depth,
            time: args.movetime.map(Duration::from_millis),
            ..Limits::infinite()
        };
    }
    if config.limits.nodes.is_none()
        && config.limits.depth.is_none()
        && config.limits.time.is_none()
    {
        bail!("give --movetime, --nodes or --depth (or a player with a budget)");
    }

    let start = Instant::now();
    let limits = &config.limits;
    let Totals {
        solved,
        to_solution: total_to_solution,
        nodes: total_nodes,
    } = solve_all(
        &positions,
        &args,
        |_| config.engine(),
        |engine, p| Ok(solve(engine, p, limits)),
    )?;
    let secs = start.elapsed().as_secs_f64();
    println!("suite       {}", args.epd);
    println!("player      {spec}");
    println!(
        "limit       {}",
        describe_limits(
            config.limits.time.map(|t| t.as_millis()),
            config.limits.nodes,
            config.limits.depth
        )
    );
    println!(
        "positions   {} (skipped lines: {})",
        positions.len(),
        suite.skipped.len()
    );
    println!("solved      {solved} / {}", positions.len());
    println!("nodes to solution (fitness, unsolved count the limit): {total_to_solution}");
    println!(
        "nodes searched {total_nodes} in {secs:.1} s ({:.0} nodes/s)",
        total_nodes as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}

/// The limits as one line: `5000 ms, 20000 nodes, 8 plies`.
fn describe_limits(ms: Option<u128>, nodes: Option<u64>, depth: Option<u32>) -> String {
    let parts: Vec<String> = [
        ms.map(|t| format!("{t} ms")),
        nodes.map(|n| format!("{n} nodes")),
        depth.map(|d| format!("{d} plies")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        "the engine's own budget".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The suite played by an external engine: one move asked per position, from a new game
/// (`ucinewgame`), within `--movetime`, `--nodes` or `--depth` (each replaces the engine's
/// own budget). An engine that cannot start, crashes or answers no move stops the run with
/// the position named: a fault is never counted as a wrong answer.
fn run_engine(
    args: &Args,
    spec: &PlayerSpec,
    positions: &[&EpdPosition],
) -> anyhow::Result<ExitCode> {
    let mut registry = <Chess as eloworld_players::PlayableGame>::builtin_players();
    if let Some(path) = &args.engines {
        eloworld_players::engine::add_definitions_file(&mut registry, path)?;
    }
    let mut spec = spec.clone();
    let budget: Vec<(String, String)> = [
        args.movetime.map(|t| ("movetime", t.to_string())),
        args.nodes.map(|n| ("nodes", n.to_string())),
        args.depth.map(|d| ("depth", d.to_string())),
    ]
    .into_iter()
    .flatten()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    anyhow::ensure!(
        budget.len() <= 1,
        "an engine takes one budget: give one of --movetime, --nodes, --depth"
    );
    if !budget.is_empty() {
        let kept = spec
            .params
            .iter()
            .filter(|(k, _)| !matches!(*k, "movetime" | "nodes" | "depth"))
            .map(|(k, v)| (k.to_owned(), v.to_owned()));
        spec.params = eloworld_players::Params::new(kept.chain(budget));
    }
    let factory = registry.resolve(&spec).with_context(|| {
        format!(
            "{}: not an evol-family player (evol, ab_depth<N>, ab_<N>k) nor an engine this eloworld knows",
            args.player
        )
    })?;
    let start = Instant::now();
    // An engine's answer: its move, and the nodes and depth it reported (no nodes to
    // solution: an engine reports only where it ended). Each position is a new game.
    let ask = |(worker, rng): &mut (Worker, GameRng), p: &EpdPosition| {
        let mut player = factory.create(worker)?;
        anyhow::ensure!(
            player.reports_searches(),
            "not an evol-family player (evol, ab_depth<N>, ab_<N>k) nor an engine: the suite \
             needs a player that searches"
        );
        let game = Chess::from_shakmaty(p.position.clone(), DrawRules::Claimed);
        let mv = player.choose(&game, rng)?;
        anyhow::ensure!(
            game.is_legal(mv),
            "answered {}, not a legal move",
            game.move_code(mv)
        );
        let report = player.last_report().unwrap_or_default();
        let nodes = report.nodes.unwrap_or(0);
        Ok(SolveResult {
            solved: p.is_solution(mv),
            nodes_to_solution: nodes,
            best_move: Some(mv),
            nodes,
            depth: report.depth.unwrap_or(0),
        })
    };
    let start_worker = |index| (Worker::new(index), GameRng::for_side(1, Side::First));
    let Totals {
        solved,
        nodes: total_nodes,
        ..
    } = solve_all(positions, args, start_worker, ask).with_context(|| spec.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    println!("suite       {}", args.epd);
    println!("player      {spec}");
    println!(
        "limit       {}",
        describe_limits(args.movetime.map(u128::from), args.nodes, args.depth)
    );
    println!("positions   {}", positions.len());
    println!("solved      {solved} / {}", positions.len());
    println!("nodes searched {total_nodes} (as the engine reported) in {secs:.1} s");
    Ok(ExitCode::SUCCESS)
}

/// The suite's answer as SAN: the best moves, then `not` each move to avoid.
fn expected_moves(p: &EpdPosition) -> Vec<String> {
    p.best_moves
        .iter()
        .map(|&m| San::from_move(&p.position, m).to_string())
        .chain(
            p.avoid_moves
                .iter()
                .map(|&m| format!("not {}", San::from_move(&p.position, m))),
        )
        .collect()
}

/// What a suite's results add up to.
struct Totals {
    solved: usize,
    /// Nodes to solution (an engine's: all its nodes), unsolved positions at the cap.
    to_solution: u64,
    nodes: u64,
}

/// Solves the positions on `--threads` threads, each with its own solver from `start`
/// (an engine, or an engine process with its game state), and adds up the results; prints
/// progress, or with `--verbose` a line per position. The first failure stops the run and
/// names its position.
fn solve_all<S>(
    positions: &[&EpdPosition],
    args: &Args,
    start: impl Fn(usize) -> S + Sync,
    solve_one: impl Fn(&mut S, &EpdPosition) -> anyhow::Result<SolveResult> + Sync,
) -> anyhow::Result<Totals> {
    let results: Mutex<Vec<Option<SolveResult>>> = Mutex::new(vec![None; positions.len()]);
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    std::thread::scope(|scope| {
        for index in 0..args.threads.max(1) {
            let (start, solve_one) = (&start, &solve_one);
            let (results, failure, next, done) = (&results, &failure, &next, &done);
            scope.spawn(move || {
                let mut solver = start(index);
                while failure.lock().is_ok_and(|f| f.is_none()) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = positions.get(i) else { break };
                    match solve_one(&mut solver, p) {
                        Ok(r) => {
                            if let Ok(mut all) = results.lock() {
                                all[i] = Some(r);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(
                                    e.context(format!("position {} (line {})", p.id, p.line)),
                                );
                            }
                            break;
                        }
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if !args.verbose && n.is_multiple_of(10) {
                        eprint!("\r{n}/{} positions", positions.len());
                    }
                }
            });
        }
    });
    if let Some(e) = failure
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker thread panicked"))?
    {
        return Err(e);
    }
    let verbose = args.verbose;
    if !verbose {
        eprintln!("\r{}/{} positions", positions.len(), positions.len());
    }
    let results = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker thread panicked"))?;
    let mut t = Totals {
        solved: 0,
        to_solution: 0,
        nodes: 0,
    };
    if verbose {
        println!(
            "{:<12} {:>6} {:>8} {:>10} {:>6}  expected",
            "id", "solved", "move", "nodes", "depth"
        );
    }
    for (p, r) in positions.iter().zip(&results) {
        let Some(r) = r else {
            bail!("position {} was not searched", p.id)
        };
        t.solved += usize::from(r.solved);
        t.to_solution += r.nodes_to_solution;
        t.nodes += r.nodes;
        if verbose {
            let played = r.best_move.map_or("-".to_owned(), |m| {
                San::from_move(&p.position, m).to_string()
            });
            println!(
                "{:<12} {:>6} {:>8} {:>10} {:>6}  {}",
                p.id,
                if r.solved { "yes" } else { "no" },
                played,
                r.nodes_to_solution,
                r.depth,
                expected_moves(p).join(" ")
            );
        }
    }
    Ok(t)
}
