use anyhow::Context;
use eloworld_tournament::{
    open_store,
    pgn::{game_to_pgn_annotated, PgnTags},
    TournamentConfig,
};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Export stored chess games as PGN.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database.
    #[arg(long)]
    db: String,
    /// The PGN file to write (`-` for standard output).
    #[arg(long)]
    pgn: PathBuf,
    /// Only this tournament.
    #[arg(long)]
    tournament: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = open_store(&args.db, false)?;
    let games = store.games(args.tournament.as_deref())?;
    // The `TimeControl` tag of each tournament played on a clock, and which are Chess960.
    let time_controls: HashMap<String, (Option<String>, bool)> = store
        .tournaments()?
        .into_iter()
        .filter_map(|t| {
            let config = TournamentConfig::from_toml(&t.config).ok()?;
            Some((t.name, (config.time_control, config.chess960)))
        })
        .collect();
    let mut out: Box<dyn Write> = if args.pgn.as_os_str() == "-" {
        Box::new(crate::closed_pipe::stdout())
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::File::create(&args.pgn)
                .with_context(|| format!("creating {}", args.pgn.display()))?,
        ))
    };
    let mut n = 0;
    for g in games
        .iter()
        .filter(|g| g.game == eloworld_games::GameKind::Chess)
    {
        let tags =
            time_controls
                .get(&g.tournament)
                .map_or_else(PgnTags::default, |(tc, chess960)| PgnTags {
                    time_control: tc.as_deref(),
                    chess960: *chess960,
                    ..PgnTags::default()
                });
        let text =
            game_to_pgn_annotated(g, &args.db, &tags, &g.notes).map_err(anyhow::Error::msg)?;
        out.write_all(text.as_bytes())
            .with_context(|| format!("writing {}", args.pgn.display()))?;
        n += 1;
    }
    out.flush()
        .with_context(|| format!("writing {}", args.pgn.display()))?;
    let skipped = games.len() - n;
    eprintln!(
        "{n} games written to {}{}",
        args.pgn.display(),
        if skipped > 0 {
            format!(" ({skipped} non-chess games skipped)")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}
