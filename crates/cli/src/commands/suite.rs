//! `eloworld suite`: runs an EPD test suite (`bm`/`am`) and reports the positions solved
//! and, for an evol-family player, the nodes to solution (David–Koppel–Netanyahu, section
//! IV). Reading the file and searching are `eloworld_app::suite`'s; this file prints.

use eloworld_app::suite::{read_suite, run_suite, Solver, SuiteRequest};
use eloworld_players::chess::evol::engine::suite::EpdPosition;
use std::path::Path;
use std::process::ExitCode;

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
    let suite = read_suite(Path::new(&args.epd))?;
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
    let positions: Vec<&EpdPosition> = suite
        .positions
        .iter()
        .take(args.first.unwrap_or(usize::MAX))
        .collect();
    let request = SuiteRequest {
        source: &args.epd,
        player: &args.player,
        movetime: args.movetime,
        nodes: args.nodes,
        depth: args.depth,
        engines: args.engines.as_deref(),
        threads: args.threads,
    };
    let total = positions.len();
    let r = run_suite(&positions, &request, |n| {
        if !args.verbose && n.is_multiple_of(10) {
            eprint!("\r{n}/{total} positions");
        }
    })?;
    if args.verbose {
        println!(
            "{:<12} {:>6} {:>8} {:>10} {:>6}  expected",
            "id", "solved", "move", "nodes", "depth"
        );
        for l in r.lines(&positions) {
            println!(
                "{:<12} {:>6} {:>8} {:>10} {:>6}  {}",
                l.id,
                if l.solved { "yes" } else { "no" },
                l.played,
                l.nodes_to_solution,
                l.depth,
                l.expected.join(" ")
            );
        }
    } else {
        eprintln!("\r{total}/{total} positions");
    }
    let secs = r.elapsed.as_secs_f64();
    println!("suite       {}", args.epd);
    println!("player      {}", r.spec);
    println!("limit       {}", r.limit);
    match r.solver {
        Solver::Evol => {
            println!(
                "positions   {total} (skipped lines: {})",
                suite.skipped.len()
            );
            println!("solved      {} / {total}", r.solved);
            println!(
                "nodes to solution (fitness, unsolved count the limit): {}",
                r.to_solution
            );
            println!(
                "nodes searched {} in {secs:.1} s ({:.0} nodes/s)",
                r.nodes,
                r.nodes_per_second()
            );
        }
        Solver::Engine => {
            println!("positions   {total}");
            println!("solved      {} / {total}", r.solved);
            println!(
                "nodes searched {} (as the engine reported) in {secs:.1} s",
                r.nodes
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
