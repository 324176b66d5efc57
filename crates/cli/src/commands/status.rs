use crate::rating_table::shortened;
use crate::standings::column_width;
use eloworld_app::stored::{status, StoreStatus};
use std::process::ExitCode;

/// Show the state of every tournament in a database, and its workers.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database (SQLite path or postgres:// URL).
    #[arg(long)]
    db: String,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let StoreStatus {
        location,
        tournaments,
        workers,
    } = status(&args.db)?;
    println!("{location}");
    let names: Vec<String> = tournaments
        .iter()
        .map(|(t, ..)| shortened(&t.name))
        .collect();
    let w = column_width(&names, "tournament");
    println!(
        "{:<w$}  {:>9} {:>9} {:>11} {:>9} {:>9}  state",
        "tournament", "done", "running", "dead-lease", "pending", "total"
    );
    for ((t, total, state), name) in tournaments.iter().zip(&names) {
        println!(
            "{:<w$}  {:>9} {:>9} {:>11} {:>9} {:>9}  {state}",
            name, t.done, t.running, t.dead_leases, t.pending, total
        );
    }
    if !workers.is_empty() {
        println!();
        let names: Vec<String> = workers.iter().map(|x| shortened(&x.name)).collect();
        let w = column_width(&names, "worker");
        println!(
            "{:<w$}  {:>12} {:>12} {:>9}  cannot run",
            "worker", "last seen", "games/min", "games"
        );
        for (x, name) in workers.iter().zip(&names) {
            let seen = if x.seen_secs_ago < 0.0 {
                "?".to_owned()
            } else {
                format!("{:.0} s ago", x.seen_secs_ago)
            };
            println!(
                "{:<w$}  {:>12} {:>12} {:>9}  {}",
                name, seen, x.games_last_minute, x.games_total, x.cannot_run
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
