//! Building the fates table the fate players use (Murphy's Elo World, section 2.2): where
//! each piece of the starting position ends games, alive or dead, counted over PGN
//! collections (`eloworld fates`). Finished standard games are counted; the others are
//! skipped and reported.

use crate::error::{AppResult, Context};
use eloworld_games::chess::input::PgnReader;
use eloworld_players::fate::{count_fates, BuildReport};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A fates table built and written.
#[derive(Clone, Debug)]
pub struct FatesBuilt {
    /// What was read, counted and skipped.
    pub report: BuildReport,
    /// Games in the table written.
    pub games: u64,
    /// Threads that replayed the games.
    pub threads: usize,
    /// Seconds the counting took.
    pub seconds: f64,
}

/// Counts the fates over the games of `pgn` on `threads` threads (default: all cores) and
/// writes the table to `out`.
///
/// # Errors
/// A PGN file that cannot be read; a table that cannot be written.
pub fn build_fates_table(
    pgn: &[PathBuf],
    out: &Path,
    threads: Option<usize>,
) -> AppResult<FatesBuilt> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
        .max(1);
    let sources = pgn
        .iter()
        .map(|path| PgnReader::open(path))
        .collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let (table, report) = count_fates(sources, threads)?;
    let seconds = started.elapsed().as_secs_f64();
    table.write(out).context("writing the fates table")?;
    Ok(FatesBuilt {
        report,
        games: table.games(),
        threads,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_games_are_counted_and_the_rest_skipped() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let pgn = dir.path().join("g.pgn");
        std::fs::write(
            &pgn,
            "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
             [Result \"*\"]\n\n1. d4 *\n",
        )?;
        let out = dir.path().join("fates.bin");
        let built = build_fates_table(std::slice::from_ref(&pgn), &out, Some(0))?;
        assert_eq!(built.threads, 1, "at least one thread");
        assert_eq!(
            (built.report.games_read, built.report.games_counted),
            (2, 1)
        );
        assert_eq!(built.report.plies, 7);
        assert_eq!(built.games, 1);
        assert!(out.is_file());
        let missing = build_fates_table(&[dir.path().join("none.pgn")], &out, Some(1)).err();
        assert!(missing.is_some_and(|e| e.to_string().contains("none.pgn")));
        Ok(())
    }
}
