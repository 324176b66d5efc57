//! Tablebase adjudication (`-tb PATH`): a chess game that reaches a position with few enough
//! pieces ends with the result the Syzygy tables give it (read through the shakmaty-syzygy
//! crate). A win the fifty-move rule would spoil (a "cursed" win) is a draw, as it would be
//! over the board.

use eloworld_games::{Outcome, Side, Termination};
use shakmaty::Position;
use shakmaty_syzygy::{Tablebase, Wdl};
use std::path::Path;

/// Syzygy tables opened from one or more directories.
pub struct Tablebases {
    tables: Tablebase<shakmaty::Chess>,
    max_pieces: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tablebases(up to {} pieces)", self.max_pieces)
    }
}

impl Tablebases {
    /// Opens the tables in `dirs`; positions with more than `max_pieces` pieces (or more than
    /// the largest table holds) are not probed.
    ///
    /// # Errors
    /// A message naming the directory when it cannot be read or holds no table.
    pub fn open(dirs: &[&Path], max_pieces: Option<usize>) -> Result<Tablebases, String> {
        let mut tables = Tablebase::new();
        let mut found = 0;
        for dir in dirs {
            found += tables
                .add_directory(dir)
                .map_err(|e| format!("Syzygy tables in {}: {e}", dir.display()))?;
        }
        if found == 0 {
            return Err(format!(
                "no Syzygy tables (*.rtbw) in {}",
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let largest = tables.max_pieces();
        Ok(Tablebases {
            tables,
            max_pieces: max_pieces.map_or(largest, |m| m.min(largest)),
        })
    }

    /// Returns the outcome the tables give `pos`, when it has few enough pieces and the
    /// tables hold it; `None` otherwise.
    #[must_use]
    pub fn adjudicate(&self, pos: &shakmaty::Chess) -> Option<Outcome> {
        if pos.board().occupied().count() > self.max_pieces || pos.castles().any() {
            return None;
        }
        let wdl = self.tables.probe_wdl_after_zeroing(pos).ok()?;
        let mover = Side::from(pos.turn());
        Some(match wdl {
            Wdl::Win => Outcome::win(mover, Termination::TablebaseAdjudication),
            Wdl::Loss => Outcome::win(mover.other(), Termination::TablebaseAdjudication),
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => {
                Outcome::draw(Termination::TablebaseAdjudication)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> Tablebases {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy");
        Tablebases::open(&[&dir], None).expect("tables in data/syzygy")
    }

    fn judge(fen: &str) -> Option<Outcome> {
        tables().adjudicate(&eloworld_games::chess::parse_fen(fen).expect("FEN"))
    }

    #[test]
    fn known_endings_get_their_results() {
        // King and queen against king: White to move wins.
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
            Some(Outcome::win(
                Side::First,
                Termination::TablebaseAdjudication
            ))
        );
        // The same with Black to move: Black loses.
        assert_eq!(
            judge("8/8/8/4k3/8/8/8/3QK3 b - - 0 1"),
            Some(Outcome::win(
                Side::First,
                Termination::TablebaseAdjudication
            ))
        );
        // King and rook against king and rook: a draw.
        assert_eq!(
            judge("8/8/3rk3/8/8/3RK3/8/8 w - - 0 1"),
            Some(Outcome::draw(Termination::TablebaseAdjudication))
        );
        // Too many pieces for 3- and 4-piece tables: not probed.
        assert_eq!(judge("8/8/3rk3/8/8/3RK3/8/7N w - - 0 1"), None);
    }

    #[test]
    fn a_directory_without_tables_is_named() {
        let dir = tempfile::tempdir().expect("tmp");
        let e = Tablebases::open(&[dir.path()], None).expect_err("empty");
        assert!(e.contains(&dir.path().display().to_string()), "{e}");
    }
}
