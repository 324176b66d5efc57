//! `eloworld fates`: count where each piece of the starting position ends games, alive or
//! dead, over PGN collections, and write the fates table the fate players use (Murphy's Elo World,
//! section 2.2). The counting and writing are `eloworld_app::fates`'s; this prints what was read.

use eloworld_app::fates::{build_fates_table, FatesBuilt};
use std::path::PathBuf;
use std::process::ExitCode;

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
    let FatesBuilt {
        report,
        games,
        threads,
        seconds,
    } = build_fates_table(&args.pgn, &args.out, args.threads)?;
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
    println!("wrote {} ({games} games)", args.out.display());
    if report.games_counted == 0 {
        eprintln!("warning: no game was counted; every fate is the smoothing's uniform guess");
    }
    Ok(ExitCode::SUCCESS)
}
