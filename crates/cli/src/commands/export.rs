use anyhow::Context;
use eloworld_app::export::load;
use eloworld_games::GameKind;
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
    let (path, kind) = match (&args.sgf, &args.pgn) {
        (Some(sgf), _) => (sgf, GameKind::Go),
        (None, Some(pgn)) => (pgn, GameKind::Chess),
        (None, None) => anyhow::bail!("export needs --pgn FILE or --sgf FILE"),
    };
    let export = load(&args.db, args.tournament.as_deref(), kind)?;
    let mut out = output(path)?;
    for text in export.texts() {
        out.write_all(text?.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    out.flush()
        .with_context(|| format!("writing {}", path.display()))?;
    let (n, skipped) = (export.len(), export.skipped);
    if kind == GameKind::Go {
        eprintln!(
            "{n} Go games written to {} ({skipped} other games skipped)",
            path.display()
        );
    } else {
        eprintln!(
            "{n} games written to {}{}",
            path.display(),
            if skipped > 0 {
                format!(" ({skipped} non-chess games skipped)")
            } else {
                String::new()
            }
        );
    }
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
