//! `eloworld squava-experiment`: the Squava article's experiment (bediger4000) end to end. Three rating runs of random pairings,
//! each rated with US Chess's incremental Elo (1300 from 14 effective games) in game order,
//! side by side; then a round robin, its P-wins / Q-wins table, and the consistency table
//! (R_P/Q next to 10^(D/400)) computed with the last run's ratings. The experiment and its
//! tables are `eloworld_app::squava`'s; this reads the options and prints them.

use eloworld_app::squava::{run_experiment, SquavaSettings};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the Squava article's experiment (rating runs, round robin) and print its tables.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The rating runs' tournament file (random pairings).
    #[arg(long, default_value = "tournaments/squava-elo.toml")]
    elo: PathBuf,
    /// The round robin's tournament file.
    #[arg(long, default_value = "tournaments/squava-round-robin.toml")]
    round_robin: PathBuf,
    /// Rating runs; run k is named NAME-runK and uses the file's seed + k − 1.
    #[arg(long, default_value_t = 3)]
    runs: u64,
    /// Games in each rating run (default: the file's, the article's 400).
    #[arg(long, value_name = "N")]
    games: Option<u32>,
    /// Round-robin games per ordered pair, so 2N per pair (default: the file's, the
    /// article's 400). A shorter experiment: `--games 100 --games-per-pair 20`.
    #[arg(long, value_name = "N")]
    games_per_pair: Option<u32>,
    /// Play only the rating runs.
    #[arg(long)]
    skip_round_robin: bool,
    /// Worker threads (default: the files' setting, else all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Show no progress.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let session = crate::session::with_display(crate::session::start(None), args.quiet);
    let e = run_experiment(
        &session,
        &SquavaSettings {
            elo: args.elo.clone(),
            round_robin: args.round_robin.clone(),
            runs: args.runs,
            games: args.games,
            games_per_pair: args.games_per_pair,
            skip_round_robin: args.skip_round_robin,
            threads: args.threads,
        },
    )?;
    println!(
        "\nUS Chess incremental ratings (1300 from 14 effective games), {} games a run",
        e.games_per_run
    );
    print!("{}", e.ratings_table());
    if let Some(rr) = &e.round_robin {
        print!("{}", rr.tables(args.runs));
    }
    println!("\n{}", e.first_player_line());
    Ok(ExitCode::SUCCESS)
}
