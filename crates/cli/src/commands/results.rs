use crate::standings::{Standings, StandingsText};
use eloworld_app::report::COPY_PAIRS_SHOWN;
use eloworld_app::standing::{ending, match_tests};
use eloworld_games::GameKind;
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
    let split = eloworld_app::standing::colour_split(&rows);
    // The side that moves first: White in chess, Black in Go (Squava's sides have no colour).
    let shown = tournaments
        .iter()
        .filter(|t| args.tournament.as_deref().is_none_or(|n| n == t.name));
    let kinds: std::collections::BTreeSet<GameKind> = shown.map(|t| t.game).collect();
    let first = match kinds.iter().collect::<Vec<_>>().as_slice() {
        [GameKind::Chess] => " (White)",
        [GameKind::Go] => " (Black)",
        _ => "",
    };
    println!(
        "\nfirst side{first}: {} wins, {} draws, {} losses ({:.1}% score)",
        split.wins,
        split.draws,
        split.losses,
        split.score_pct()
    );
    Ok(ExitCode::SUCCESS)
}
