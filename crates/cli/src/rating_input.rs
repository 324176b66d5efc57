//! Where the games to rate come from: a tournament database, a PGN file or a CSV file. The
//! readers are `eloworld_ratings::io`'s and the store's one conversion
//! (`eloworld_tournament::add_results_with`); this file only opens and names the source.

use anyhow::{bail, Context};
use eloworld_ratings::{io, Games, NameCase};
use eloworld_tournament::{add_results_with, Copies, CopyRule, Distinct};
use std::path::Path;

/// A source of games to rate.
pub enum Source<'a> {
    /// Stored results, of one tournament or all.
    Db {
        /// The database.
        db: &'a str,
        /// Only this tournament.
        tournament: Option<&'a str>,
    },
    /// A PGN file (headers only).
    Pgn(&'a Path),
    /// A CSV file.
    Csv(&'a Path),
}

impl<'a> Source<'a> {
    /// Picks the source among the options given (PGN, then CSV, then the database).
    pub fn from_args(
        db: Option<&'a str>,
        tournament: Option<&'a str>,
        pgn: Option<&'a Path>,
        csv: Option<&'a Path>,
    ) -> anyhow::Result<Source<'a>> {
        Ok(match (pgn, csv, db) {
            (Some(p), _, _) => Source::Pgn(p),
            (None, Some(c), _) => Source::Csv(c),
            (None, None, Some(db)) => Source::Db { db, tournament },
            (None, None, None) => bail!("give --db, --pgn or --csv"),
        })
    }

    /// Reads the games, the number of unfinished games skipped, and, from a database, the
    /// copies it holds (a copy counts once under [`CopyRule::CountOnce`]; PGN and CSV input
    /// is taken game by game as it is).
    ///
    /// A source without a game to rate is an error naming it and what it holds.
    pub fn load(
        &self,
        case_sensitive: bool,
        copy_rule: CopyRule,
    ) -> anyhow::Result<(Games, u64, Option<Copies>)> {
        let mut copies = None;
        let names = if case_sensitive {
            NameCase::Exact
        } else {
            NameCase::Fold
        };
        let open = |path: &Path| {
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))
        };
        let read = match self {
            Source::Pgn(path) => {
                io::read_pgn(open(path)?, names).with_context(|| path.display().to_string())?
            }
            Source::Csv(path) => {
                io::read_csv(open(path)?, names).with_context(|| path.display().to_string())?
            }
            Source::Db { db, tournament } => {
                let store = eloworld_tournament::open_store(db, false)
                    .with_context(|| format!("opening {db}"))?;
                if let Some(t) = tournament {
                    if !store.tournaments()?.iter().any(|x| x.name == *t) {
                        bail!("{db} has no tournament {t:?}");
                    }
                }
                let rows = store.results(*tournament)?;
                if rows.is_empty() {
                    bail!(
                        "{db}: no games to rate: no stored results{}",
                        tournament
                            .map(|t| format!(" in tournament {t:?}"))
                            .unwrap_or_default()
                    );
                }
                let mut games = Games::with_names(names);
                add_results_with(&mut games, &rows, &mut Distinct::new(copy_rule));
                copies = Some(Copies::of(&rows));
                io::ReadGames {
                    games,
                    unfinished: 0,
                }
            }
        };
        Ok((read.games, read.unfinished, copies))
    }
}

/// Reads `name,strength` lines (a header line is allowed) of true strengths, e.g. the file
/// `eloworld synth` writes beside its games.
pub fn read_truth(path: &Path) -> anyhow::Result<Vec<(String, f64)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    io::parse_strengths(&text).with_context(|| path.display().to_string())
}
