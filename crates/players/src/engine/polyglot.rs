//! Polyglot opening books (`.bin`), as cutechess-cli reads them for `book=FILE bookdepth=N`.
//!
//! A book is a sorted array of 16-byte big-endian entries: the position's key (64 bits), a
//! move (16 bits), a weight (16 bits) and a learn field (32 bits, unused here). The key is the
//! Polyglot Zobrist hash, which shakmaty's `Zobrist64` computes (en passant counted when a
//! pawn stands ready to take, as Polyglot does). A move packs, from the low bits, the target
//! file and rank, the origin file and rank (3 bits each) and a promotion piece (1 knight …
//! 4 queen); castling is written as the king taking its own rook (e1h1).

use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, File, Move, Position, Rank, Role, Square};
use std::path::Path;
use thiserror::Error;

/// One book move with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The move, legal in the position it was looked up for.
    pub mv: Move,
    /// Its weight (how often or how well it was played).
    pub weight: u16,
}

/// A Polyglot book held in memory.
#[derive(Clone, Debug, Default)]
pub struct PolyglotBook {
    /// (key, move, weight), sorted by key as in the file.
    entries: Vec<(u64, u16, u16)>,
}

/// A book that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BookError {
    /// The file cannot be read.
    #[error("cannot read the book {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        reason: String,
    },
    /// The file is not a Polyglot book.
    #[error("{path} is not a Polyglot book: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// Returns the Polyglot key of a position.
#[must_use]
pub fn polyglot_key(pos: &shakmaty::Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

impl PolyglotBook {
    /// Reads a book from bytes; `origin` names it in errors.
    ///
    /// # Errors
    /// [`BookError::Invalid`] when the length is not a multiple of 16 or the keys are not
    /// sorted.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<PolyglotBook, BookError> {
        let invalid = |reason: String| BookError::Invalid {
            path: origin.to_owned(),
            reason,
        };
        if !bytes.len().is_multiple_of(16) {
            return Err(invalid(format!(
                "{} bytes is not a whole number of 16-byte entries",
                bytes.len()
            )));
        }
        let mut entries = Vec::with_capacity(bytes.len() / 16);
        for (i, chunk) in bytes.chunks_exact(16).enumerate() {
            let mut key = [0u8; 8];
            key.copy_from_slice(&chunk[..8]);
            let key = u64::from_be_bytes(key);
            let mv = u16::from_be_bytes([chunk[8], chunk[9]]);
            let weight = u16::from_be_bytes([chunk[10], chunk[11]]);
            if entries.last().is_some_and(|&(k, _, _)| k > key) {
                return Err(invalid(format!("entry {i} is out of key order")));
            }
            entries.push((key, mv, weight));
        }
        Ok(PolyglotBook { entries })
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// [`BookError::Read`] when it cannot be read, or as [`PolyglotBook::from_bytes`].
    pub fn open(path: &Path) -> Result<PolyglotBook, BookError> {
        let bytes = std::fs::read(path).map_err(|e| BookError::Read {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        PolyglotBook::from_bytes(&bytes, &path.display().to_string())
    }

    /// Returns the number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Returns whether the book has no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Returns the book's legal moves for `pos` in file order (entries whose move is not
    /// legal there, as after a key collision, are skipped).
    #[must_use]
    pub fn moves(&self, pos: &shakmaty::Chess) -> Vec<BookEntry> {
        let key = polyglot_key(pos);
        let first = self.entries.partition_point(|&(k, _, _)| k < key);
        self.entries[first..]
            .iter()
            .take_while(|&&(k, _, _)| k == key)
            .filter_map(|&(_, code, weight)| decode(pos, code).map(|mv| BookEntry { mv, weight }))
            .collect()
    }

    /// Chooses a book move for `pos` with probability proportional to its weight, from a
    /// uniform `draw` in [0, 1); `None` when the position is not in the book (or all its
    /// moves weigh 0).
    #[must_use]
    pub fn choose(&self, pos: &shakmaty::Chess, draw: f64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|e| u64::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        let mut target = (draw.clamp(0.0, 1.0) * total as f64) as u64;
        for e in &moves {
            let w = u64::from(e.weight);
            if target < w {
                return Some(e.mv);
            }
            target -= w;
        }
        moves.last().map(|e| e.mv)
    }
}

/// Turns a Polyglot move code into the legal move it means in `pos`.
fn decode(pos: &shakmaty::Chess, code: u16) -> Option<Move> {
    let square = |file: u16, rank: u16| {
        Square::from_coords(File::new(u32::from(file)), Rank::new(u32::from(rank)))
    };
    let to = square(code & 7, (code >> 3) & 7);
    let from = square((code >> 6) & 7, (code >> 9) & 7);
    let promotion = match (code >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    // King takes own rook is castling; shakmaty reads that form as well as the standard one.
    let uci = UciMove::Normal {
        from,
        to,
        promotion,
    };
    let mv = uci.to_move(pos).ok()?;
    pos.is_legal(mv).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, mv: u16, weight: u16) -> Vec<u8> {
        let mut v = key.to_be_bytes().to_vec();
        v.extend(mv.to_be_bytes());
        v.extend(weight.to_be_bytes());
        v.extend([0u8; 4]);
        v
    }

    /// The code of a move from its files and ranks (0-based).
    fn code(from: (u16, u16), to: (u16, u16)) -> u16 {
        to.0 | (to.1 << 3) | (from.0 << 6) | (from.1 << 9)
    }

    #[test]
    fn the_start_key_is_polyglots() {
        // The key every Polyglot reader gives the initial position.
        assert_eq!(
            polyglot_key(&shakmaty::Chess::default()),
            0x463b_9618_1691_fc9c
        );
    }

    #[test]
    fn reads_and_chooses_by_weight() {
        let start = shakmaty::Chess::default();
        let key = polyglot_key(&start);
        let e2e4 = code((4, 1), (4, 3));
        let d2d4 = code((3, 1), (3, 3));
        let mut bytes = entry(key - 1, 0, 1);
        bytes.extend(entry(key, e2e4, 3));
        bytes.extend(entry(key, d2d4, 1));
        bytes.extend(entry(key + 1, 0, 1));
        let book = PolyglotBook::from_bytes(&bytes, "t.bin").expect("valid");
        let moves: Vec<String> = book
            .moves(&start)
            .iter()
            .map(|e| UciMove::from_move(e.mv, shakmaty::CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(moves, ["e2e4", "d2d4"]);
        let pick = |draw| {
            book.choose(&start, draw)
                .map(|m| UciMove::from_move(m, shakmaty::CastlingMode::Standard).to_string())
        };
        assert_eq!(pick(0.0).as_deref(), Some("e2e4"));
        assert_eq!(pick(0.74).as_deref(), Some("e2e4"));
        assert_eq!(pick(0.76).as_deref(), Some("d2d4"));
    }

    #[test]
    fn castling_is_written_king_takes_rook() {
        let pos = eloworld_games::chess::parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .expect("legal");
        let bytes = entry(polyglot_key(&pos), code((4, 0), (7, 0)), 1);
        let book = PolyglotBook::from_bytes(&bytes, "t.bin").expect("valid");
        let mv = book.moves(&pos)[0].mv;
        assert!(mv.is_castle(), "{mv:?}");
    }

    #[test]
    fn bad_files_are_named() {
        let e = PolyglotBook::from_bytes(&[0u8; 17], "x.bin").expect_err("length");
        assert!(e.to_string().contains("x.bin"), "{e}");
        let mut bytes = entry(5, 0, 1);
        bytes.extend(entry(4, 0, 1));
        let e = PolyglotBook::from_bytes(&bytes, "y.bin").expect_err("order");
        assert!(e.to_string().contains("order"), "{e}");
    }
}
