//! `eloworld suite`: runs an EPD test suite (`bm`/`am`) with an evol-family player and
//! reports the positions solved and, per position, the nodes searched until the right move
//! was found and kept (David–Koppel–Netanyahu, section IV: the search-evolution fitness, capped at the node
//! limit).

use anyhow::{bail, Context};
use eloworld_players::chess::evol::engine::suite::{parse_epd, solve, EpdPosition, SolveResult};
use eloworld_players::chess::evol::engine::Limits;
use eloworld_players::chess::evol::evol_config;
use eloworld_players::PlayerSpec;
use shakmaty::san::San;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Run an EPD test suite and report solved positions and nodes to solution.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The EPD file (positions with `bm` and/or `am`; `id` names them).
    #[arg(long)]
    epd: String,
    /// The player: an evol-family spec (`evol`, `evol:eval=FILE,search=FILE`, `ab_depth<N>`, `ab_<N>k`).
    #[arg(long, default_value = "evol")]
    player: String,
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
    let mut config = evol_config(&spec).with_context(|| {
        format!(
            "{}: the suite runner needs an evol-family player (evol, ab_depth<N>, ab_<N>k)",
            args.player
        )
    })?;
    if config.one_ply.is_some() {
        bail!(
            "{}: the 1-ply player does not search; give evol, ab_depth<N> or ab_<N>k",
            args.player
        );
    }
    if args.nodes.is_some() || args.depth.is_some() {
        config.limits = Limits {
            nodes: args.nodes,
            depth: args.depth,
            ..Limits::infinite()
        };
    }
    if config.limits.nodes.is_none() && config.limits.depth.is_none() {
        bail!("give --nodes or --depth (or a player with a budget)");
    }
    let positions: Vec<&EpdPosition> = suite
        .positions
        .iter()
        .take(args.first.unwrap_or(usize::MAX))
        .collect();
    if positions.is_empty() {
        bail!("{}: no usable position", args.epd);
    }

    let start = Instant::now();
    let results: Mutex<Vec<Option<SolveResult>>> = Mutex::new(vec![None; positions.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            scope.spawn(|| {
                let mut engine = config.engine();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = positions.get(i) else { break };
                    let r = solve(&mut engine, p, &config.limits);
                    if let Ok(mut all) = results.lock() {
                        all[i] = Some(r);
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if !args.verbose && n.is_multiple_of(10) {
                        eprint!("\r{n}/{} positions", positions.len());
                    }
                }
            });
        }
    });
    if !args.verbose {
        eprintln!("\r{}/{} positions", positions.len(), positions.len());
    }
    let results = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker thread panicked"))?;

    let mut solved = 0usize;
    let mut total_to_solution = 0u64;
    let mut total_nodes = 0u64;
    if args.verbose {
        println!(
            "{:<12} {:>6} {:>8} {:>10} {:>6}  expected",
            "id", "solved", "move", "nodes", "depth"
        );
    }
    for (p, r) in positions.iter().zip(&results) {
        let Some(r) = r else {
            bail!("position {} was not searched", p.id)
        };
        solved += usize::from(r.solved);
        total_to_solution += r.nodes_to_solution;
        total_nodes += r.nodes;
        if args.verbose {
            let played = r.best_move.map_or("-".to_owned(), |m| {
                San::from_move(&p.position, m).to_string()
            });
            let expected: Vec<String> = p
                .best_moves
                .iter()
                .map(|&m| San::from_move(&p.position, m).to_string())
                .chain(
                    p.avoid_moves
                        .iter()
                        .map(|&m| format!("not {}", San::from_move(&p.position, m))),
                )
                .collect();
            println!(
                "{:<12} {:>6} {:>8} {:>10} {:>6}  {}",
                p.id,
                if r.solved { "yes" } else { "no" },
                played,
                r.nodes_to_solution,
                r.depth,
                expected.join(" ")
            );
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!("suite       {}", args.epd);
    println!("player      {spec}");
    println!(
        "limit       {}",
        match (config.limits.nodes, config.limits.depth) {
            (Some(n), Some(d)) => format!("{n} nodes, {d} plies"),
            (Some(n), None) => format!("{n} nodes"),
            (None, Some(d)) => format!("{d} plies"),
            (None, None) => "none".to_owned(),
        }
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
