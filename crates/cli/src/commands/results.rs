use crate::standings::Standings;
use eloworld_app::report::COPY_PAIRS_SHOWN;
use eloworld_app::standing::{ending, match_tests};
use eloworld_tournament::{open_store, Copies, CopyRule};
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
    let store = open_store(&args.db, false)?;
    let tournaments = store.tournaments()?;
    let tests = match_tests(&*store, &tournaments)?;
    let order: Vec<String> = tournaments
        .iter()
        .filter(|t| args.tournament.as_deref().is_none_or(|n| n == t.name))
        .flat_map(|t| t.players.clone())
        .collect();
    for t in &tournaments {
        if args.tournament.as_deref().is_none_or(|n| n == t.name) {
            let state = ending(t.done, t.total, tests.get(&t.id))
                .map_or_else(String::new, |e| format!("; {e}"));
            println!(
                "tournament {} ({}): {} of {} games stored{state}",
                crate::rating_table::shortened(&t.name),
                t.game,
                t.done,
                t.total
            );
        }
    }
    let rows = store.results(args.tournament.as_deref())?;
    // The standings count every stored game; the ratings (`rate`) count a copy once.
    let copies = Copies::of(&rows);
    if let Some(note) = copies.note(CopyRule::CountOnce, COPY_PAIRS_SHOWN) {
        eprintln!("note: {note}; the standings below count every stored game");
    }
    let standings = Standings::from_rows(&order, &rows);
    println!();
    print!("{}", standings.pair_table());
    println!();
    print!("{}", standings.table());
    let (w, d, l) = crate::standings::colour_split(&rows);
    let n = (w + d + l).max(1) as f64;
    println!(
        "\nfirst side (White): {w} wins, {d} draws, {l} losses ({:.1}% score)",
        100.0 * (w as f64 + 0.5 * d as f64) / n
    );
    Ok(ExitCode::SUCCESS)
}
