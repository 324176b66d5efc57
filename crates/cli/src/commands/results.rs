use crate::standings::StandingsText;
use eloworld_app::stored::results;
use std::process::ExitCode;

/// Show stored results.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database.
    #[arg(long)]
    db: String,
    /// Only this tournament (default: every tournament in the database).
    #[arg(long)]
    tournament: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let stored = results(&args.db, args.tournament.as_deref())?;
    for t in &stored.tournaments {
        let state = t
            .ending
            .as_ref()
            .map_or_else(String::new, |e| format!("; {e}"));
        println!(
            "tournament {} ({}): {} of {} games stored{state}",
            crate::rating_table::shortened(&t.name),
            t.game,
            t.done,
            t.total
        );
    }
    // The standings count every stored game; the ratings (`rate`) count a copy once.
    if let Some(note) = &stored.copies_note {
        eprintln!("note: {note}; the standings below count every stored game");
    }
    println!();
    print!("{}", stored.standings.pair_table());
    println!();
    print!("{}", stored.standings.table());
    let split = &stored.first_side;
    // The side that moves first: White in chess, Black in Go (Squava's sides have no colour).
    let first = stored
        .first_colour
        .map_or_else(String::new, |c| format!(" ({c})"));
    println!(
        "\nfirst side{first}: {} wins, {} draws, {} losses ({:.1}% score)",
        split.wins,
        split.draws,
        split.losses,
        split.score_pct()
    );
    Ok(ExitCode::SUCCESS)
}
