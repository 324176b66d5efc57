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

/// Export stored chess games as PGN, or Go games as SGF.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The database.
    #[arg(long)]
    db: String,
    /// The PGN file to write (`-` for standard output): the chess games.
    #[arg(long, required_unless_present = "sgf", conflicts_with = "sgf")]
    pgn: Option<PathBuf>,
    /// The SGF file to write (`-` for standard output): the Go games, one game tree each
    /// (an SGF collection).
    #[arg(long)]
    sgf: Option<PathBuf>,
    /// Only this tournament.
    #[arg(long)]
    tournament: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(sgf) = &args.sgf {
        return export_sgf(&args, sgf);
    }
    let Some(pgn) = &args.pgn else {
        anyhow::bail!("export needs --pgn FILE or --sgf FILE");
    };
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
    let mut out = output(pgn)?;
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
            .with_context(|| format!("writing {}", pgn.display()))?;
        n += 1;
    }
    out.flush()
        .with_context(|| format!("writing {}", pgn.display()))?;
    let skipped = games.len() - n;
    eprintln!(
        "{n} games written to {}{}",
        pgn.display(),
        if skipped > 0 {
            format!(" ({skipped} non-chess games skipped)")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}

fn output(path: &std::path::Path) -> anyhow::Result<Box<dyn Write>> {
    Ok(if path.as_os_str() == "-" {
        Box::new(crate::closed_pipe::stdout())
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        ))
    })
}

/// Writes the stored Go games as one SGF collection, each on its tournament's board size
/// and komi.
fn export_sgf(args: &Args, path: &std::path::Path) -> anyhow::Result<ExitCode> {
    let store = open_store(&args.db, false)?;
    let games = store.games(args.tournament.as_deref())?;
    let mut out = output(path)?;
    let mut n = 0;
    for g in games
        .iter()
        .filter(|g| g.game == eloworld_games::GameKind::Go)
    {
        let text = eloworld_app::report::go_sgf(g)
            .with_context(|| format!("game {} of {:?}", g.job_id, g.tournament))?;
        out.write_all(text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        n += 1;
    }
    out.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    eprintln!(
        "{n} Go games written to {} ({} other games skipped)",
        path.display(),
        games.len() - n
    );
    Ok(ExitCode::SUCCESS)
}
