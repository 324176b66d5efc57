//! `eloworld fates`: count where each piece of the starting position ends games, alive or
//! dead, over PGN collections, and write the fates table the fate players use (Murphy's Elo World,
//! section 2.2).

use anyhow::Context;
use eloworld_games::chess::input::PgnReader;
use eloworld_players::fate::count_fates;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Build a fates table from PGN collections.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// PGN files to read (finished standard games are counted; others are skipped and reported).
    #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
    pgn: Vec<PathBuf>,
    /// The fates table to write (give it to a player as `safe:fates=FILE`).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Worker threads replaying games (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .max(1);
    let mut sources = Vec::with_capacity(args.pgn.len());
    for path in &args.pgn {
        sources.push(PgnReader::open(path)?);
    }
    let started = Instant::now();
    let (table, report) = count_fates(sources, threads)?;
    let seconds = started.elapsed().as_secs_f64();
    table.write(&args.out).context("writing the fates table")?;

    println!(
        "read {} games from {} file(s) in {seconds:.2} s on {threads} thread(s): {:.0} games/s, {:.0} moves/s",
        report.games_read,
        args.pgn.len(),
        report.games_read as f64 / seconds,
        report.plies as f64 / seconds,
    );
    println!(
        "counted {} games ({} moves)",
        report.games_counted, report.plies
    );
    println!("skipped {} games", report.games_skipped());
    for (reason, n) in &report.skipped {
        println!("  {n:>8}  {reason}");
    }
    for example in &report.examples {
        println!("  e.g. {example}");
    }
    println!("wrote {} ({} games)", args.out.display(), table.games());
    if report.games_counted == 0 {
        eprintln!("warning: no game was counted; every fate is the smoothing's uniform guess");
    }
    Ok(ExitCode::SUCCESS)
}
