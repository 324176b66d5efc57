//! The fate table: for each of the 32 piece identities and each of the 64 squares, how many
//! games the piece ended alive on that square and how many it died there.
//!
//! Murphy's Elo World, section 2.2: "These statistics give us, for each piece (e.g. the c2 pawn) and
//! square, how likely it is to end the game on that square, and how likely it is to be
//! alive or dead there when the game ends." A piece dies on the square where it is
//! captured; a king dies on its last square when its side loses (mated, resigned, lost on
//! time: any decisive result). Every other piece ends the game alive on its last square.
//!
//! # Smoothing
//!
//! Counts are smoothed by adding one pseudo-game to each of a piece's 128 (square, fate)
//! outcomes (Laplace's rule of succession, additive smoothing with α = 1): with `N` games,
//! `P(alive on s) = (alive + 1) / (N + 128)` and `P(died on s) = (died + 1) / (N + 128)`.
//! So every probability is positive and every survive/die ratio `(alive + 1) / (died + 1)`
//! is defined, as the paper's survivalist needs ("every piece ends alive or dead in every
//! square … at least 1000 times, so each ratio is defined": true of hundreds of millions of
//! games, not of the few thousand shipped here).
//!
//! # File format (version 1)
//!
//! All integers little-endian; 32 796 bytes in all.
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | magic `ELOFATES` |
//! | 8 | 4 | version, `u32` = 1 |
//! | 12 | 8 | games counted `N`, `u64` |
//! | 20 | 32 768 | 4 096 counts, `u64`: piece 0…31 ([`PieceId`] order: a1…h2, a7…h8), square 0…63 (a1, b1, …, h8), fate (alive, died) |
//! | 32 788 | 8 | FNV-1a 64 checksum of bytes 0…32 787 |
//!
//! Reading checks the magic, version, length and checksum, and that every piece ends each
//! game exactly once (its counts sum to `N`), so a corrupt or truncated file is refused.

use super::identity::{Identities, PieceId};
use shakmaty::{Color, Move, Role, Square};
use std::path::Path;
use thiserror::Error;

/// How a piece ended a game on its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fate {
    /// On the board at the end (for a king: its side did not lose).
    Alive,
    /// Captured there (for a king: its side lost with the king there).
    Died,
}

const SQUARES: usize = 64;
const CELLS: usize = PieceId::COUNT * SQUARES * 2;
const MAGIC: &[u8; 8] = b"ELOFATES";
/// The file format version this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8;
/// The size of a version-1 fates file in bytes.
pub const FILE_SIZE: usize = HEADER + CELLS * 8 + 8;
/// The pseudo-count added to each (square, fate) outcome of each piece.
pub const PSEUDO_COUNT: f64 = 1.0;

/// The default table, built from the games in `data/pgn/` (see `docs/fate-players.md`).
static DEFAULT_FILE: &[u8] = include_bytes!("../../../../data/fates.bin");

/// Why a fates file cannot be used.
#[derive(Debug, Error)]
pub enum FateFileError {
    /// The file cannot be read or written.
    #[error("cannot read or write {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file does not start with the magic bytes.
    #[error("not a fates file (it does not start with {:?})", std::str::from_utf8(MAGIC).unwrap_or_default())]
    BadMagic,
    /// The file is of a version this code does not read.
    #[error("fates file version {found}, this eloworld reads version {FORMAT_VERSION}")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The file is truncated or too long.
    #[error("fates file has {found} bytes, expected {FILE_SIZE} (truncated?)")]
    WrongLength {
        /// Its length.
        found: usize,
    },
    /// The checksum does not match the contents.
    #[error("fates file is corrupt: checksum {stored:016x} stored, {computed:016x} computed")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A piece's counts do not add up to the number of games.
    #[error("fates file is inconsistent: the {piece} ends {total} games, expected {games}")]
    Inconsistent {
        /// The piece.
        piece: PieceId,
        /// The sum of its counts.
        total: u64,
        /// The number of games.
        games: u64,
    },
}

/// Counts of piece fates over a collection of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FateTable {
    games: u64,
    counts: Box<[u64; CELLS]>,
}

impl Default for FateTable {
    fn default() -> Self {
        FateTable::new()
    }
}

const fn cell(piece: PieceId, square: Square, fate: Fate) -> usize {
    (piece.index() * SQUARES + square as usize) * 2
        + match fate {
            Fate::Alive => 0,
            Fate::Died => 1,
        }
}

impl FateTable {
    /// Creates a table of no games.
    #[must_use]
    pub fn new() -> FateTable {
        FateTable {
            games: 0,
            counts: Box::new([0; CELLS]),
        }
    }

    /// Returns the table shipped with eloworld (built from `data/pgn/`).
    ///
    /// # Panics
    /// Never in a built crate: a test checks that the embedded file reads.
    #[must_use]
    pub fn embedded() -> &'static FateTable {
        static TABLE: std::sync::OnceLock<FateTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            FateTable::from_bytes(DEFAULT_FILE).expect("the embedded fates.bin is valid")
        })
    }

    /// Returns the number of games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Returns how many games `piece` ended on `square` with `fate`.
    #[must_use]
    pub fn count(&self, piece: PieceId, square: Square, fate: Fate) -> u64 {
        self.counts[cell(piece, square, fate)]
    }

    /// Counts one finished game, given each piece's final square and fate.
    pub fn add_game(&mut self, fates: &[(Square, Fate); PieceId::COUNT]) {
        for (piece, &(square, fate)) in PieceId::all().zip(fates) {
            self.counts[cell(piece, square, fate)] += 1;
        }
        self.games += 1;
    }

    /// Adds the counts of another table.
    pub fn merge(&mut self, other: &FateTable) {
        for (a, b) in self.counts.iter_mut().zip(other.counts.iter()) {
            *a += b;
        }
        self.games += other.games;
    }

    /// Returns the smoothed probability that `piece` ends a game on `square` with `fate`:
    /// `(count + 1) / (N + 128)` (see the module documentation).
    #[must_use]
    pub fn probability(&self, piece: PieceId, square: Square, fate: Fate) -> f64 {
        let outcomes = (SQUARES * 2) as f64;
        (self.count(piece, square, fate) as f64 + PSEUDO_COUNT)
            / (self.games as f64 + PSEUDO_COUNT * outcomes)
    }

    /// Returns the smoothed probability that `piece` ends a game on `square`, alive or dead.
    #[must_use]
    pub fn probability_to_end_on(&self, piece: PieceId, square: Square) -> f64 {
        self.probability(piece, square, Fate::Alive) + self.probability(piece, square, Fate::Died)
    }

    /// Returns the smoothed ratio of the survival and death probabilities on a square,
    /// `(alive + 1) / (died + 1)`.
    #[must_use]
    pub fn survival_ratio(&self, piece: PieceId, square: Square) -> f64 {
        self.probability(piece, square, Fate::Alive) / self.probability(piece, square, Fate::Died)
    }

    /// Encodes the table in the file format of the module documentation.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.games.to_le_bytes());
        for c in self.counts.iter() {
            out.extend_from_slice(&c.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes a table from the file format, checking everything it can.
    ///
    /// # Errors
    /// [`FateFileError`] saying what is wrong: magic, version, length, checksum, or counts
    /// that do not add up.
    pub fn from_bytes(bytes: &[u8]) -> Result<FateTable, FateFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FateFileError::BadMagic);
        }
        let u32_at = |at: usize| {
            bytes
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_le_bytes)
        };
        let u64_at = |at: usize| {
            bytes
                .get(at..at + 8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_le_bytes)
        };
        let version = u32_at(8).ok_or(FateFileError::WrongLength { found: bytes.len() })?;
        if version != FORMAT_VERSION {
            return Err(FateFileError::UnsupportedVersion { found: version });
        }
        if bytes.len() != FILE_SIZE {
            return Err(FateFileError::WrongLength { found: bytes.len() });
        }
        let body = FILE_SIZE - 8;
        let stored = u64_at(body).ok_or(FateFileError::WrongLength { found: bytes.len() })?;
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(FateFileError::Checksum { stored, computed });
        }
        let mut table = FateTable::new();
        table.games = u64_at(12).ok_or(FateFileError::WrongLength { found: bytes.len() })?;
        for (i, c) in table.counts.iter_mut().enumerate() {
            *c = u64_at(HEADER + 8 * i).ok_or(FateFileError::WrongLength { found: bytes.len() })?;
        }
        for piece in PieceId::all() {
            let start = cell(piece, Square::A1, Fate::Alive);
            let total: u64 = table.counts[start..start + SQUARES * 2].iter().sum();
            if total != table.games {
                return Err(FateFileError::Inconsistent {
                    piece,
                    total,
                    games: table.games,
                });
            }
        }
        Ok(table)
    }

    /// Reads a table from a file.
    ///
    /// # Errors
    /// [`FateFileError::Io`] naming the file, or what [`FateTable::from_bytes`] finds.
    pub fn read(path: &Path) -> Result<FateTable, FateFileError> {
        let bytes = std::fs::read(path).map_err(|source| FateFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        FateTable::from_bytes(&bytes)
    }

    /// Writes the table to a file.
    ///
    /// # Errors
    /// [`FateFileError::Io`] naming the file.
    pub fn write(&self, path: &Path) -> Result<(), FateFileError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| FateFileError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}

/// Returns the 64-bit FNV-1a hash of `bytes` (Fowler–Noll–Vo, offset basis
/// 0xcbf29ce484222325, prime 0x100000001b3): the file checksum.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Follows the pieces of one game from the starting position and tells how each ended.
#[derive(Clone, Debug, Default)]
pub struct GameFates {
    ids: Identities,
    died_on: [Option<Square>; PieceId::COUNT],
}

impl GameFates {
    /// Starts following a game from the standard starting position.
    #[must_use]
    pub fn start() -> GameFates {
        GameFates {
            ids: Identities::start(),
            died_on: [None; PieceId::COUNT],
        }
    }

    /// Returns the identities as they stand.
    #[must_use]
    pub fn identities(&self) -> &Identities {
        &self.ids
    }

    /// Plays a legal move, noting where a captured piece died.
    pub fn play(&mut self, mv: Move) {
        if let Some((piece, square)) = self.ids.play(mv) {
            self.died_on[piece.index()] = Some(square);
        }
    }

    /// Returns each piece's final square and fate, given the side that lost (`None` for a
    /// draw): the loser's king dies on its square.
    ///
    /// Every piece has a square, as the game started from the standard position.
    #[must_use]
    pub fn finish(&self, loser: Option<Color>) -> [(Square, Fate); PieceId::COUNT] {
        let mut out = [(Square::A1, Fate::Alive); PieceId::COUNT];
        for piece in PieceId::all() {
            out[piece.index()] = match (self.died_on[piece.index()], self.ids.square_of(piece)) {
                (Some(square), _) => (square, Fate::Died),
                (None, Some(square)) => {
                    let king_lost =
                        piece.start_role() == Role::King && loser == Some(piece.color());
                    (square, if king_lost { Fate::Died } else { Fate::Alive })
                }
                // Unreachable from the starting position: a piece leaves the board only by
                // capture. Counted where it started, alive, to keep the sums whole.
                (None, None) => (piece.start_square(), Fate::Alive),
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(name: &str) -> PieceId {
        PieceId::starting_on(name.parse().expect("square")).expect("starting square")
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    fn sample() -> FateTable {
        let mut t = FateTable::new();
        let mut g = GameFates::start();
        let e2e4 = Move::Normal {
            role: Role::Pawn,
            from: sq("e2"),
            capture: None,
            to: sq("e4"),
            promotion: None,
        };
        g.play(e2e4);
        t.add_game(&g.finish(Some(Color::Black)));
        t.add_game(&GameFates::start().finish(None));
        t
    }

    #[test]
    fn counts_and_smoothed_probabilities() {
        let t = sample();
        assert_eq!(t.games(), 2);
        assert_eq!(t.count(id("e2"), sq("e4"), Fate::Alive), 1);
        assert_eq!(t.count(id("e2"), sq("e2"), Fate::Alive), 1);
        assert_eq!(t.count(id("e8"), sq("e8"), Fate::Died), 1);
        assert_eq!(t.count(id("e8"), sq("e8"), Fate::Alive), 1);
        // (1 + 1) / (2 + 128)
        assert!((t.probability(id("e2"), sq("e4"), Fate::Alive) - 2.0 / 130.0).abs() < 1e-12);
        assert!((t.probability(id("e2"), sq("e4"), Fate::Died) - 1.0 / 130.0).abs() < 1e-12);
        assert!((t.probability_to_end_on(id("e2"), sq("e4")) - 3.0 / 130.0).abs() < 1e-12);
        assert!((t.survival_ratio(id("e2"), sq("e4")) - 2.0).abs() < 1e-12);
        assert!((t.survival_ratio(id("a1"), sq("h5")) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bytes_round_trip() {
        let t = sample();
        let bytes = t.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(FateTable::from_bytes(&bytes).expect("reads"), t);
    }

    #[test]
    fn corrupt_files_are_refused_with_the_reason() {
        let bytes = sample().to_bytes();
        let mut flipped = bytes.clone();
        flipped[HEADER + 100] ^= 1;
        assert!(matches!(
            FateTable::from_bytes(&flipped),
            Err(FateFileError::Checksum { .. })
        ));
        assert!(matches!(
            FateTable::from_bytes(&bytes[..bytes.len() - 1]),
            Err(FateFileError::WrongLength { found }) if found == FILE_SIZE - 1
        ));
        assert!(matches!(
            FateTable::from_bytes(b"[Event \"x\"]"),
            Err(FateFileError::BadMagic)
        ));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(
            FateTable::from_bytes(&v2),
            Err(FateFileError::UnsupportedVersion { found: 2 })
        ));
        // A file whose checksum is right but whose counts do not add up.
        let mut bad = FateTable::new();
        bad.games = 1;
        let err = FateTable::from_bytes(&bad.to_bytes()).expect_err("inconsistent");
        assert_eq!(
            err.to_string(),
            "fates file is inconsistent: the a1 rook ends 0 games, expected 1"
        );
    }

    #[test]
    fn a_missing_file_names_the_path() {
        let err = FateTable::read(Path::new("/nonexistent/fates.bin")).expect_err("missing");
        assert!(
            err.to_string()
                .starts_with("cannot read or write /nonexistent/fates.bin: "),
            "{err}"
        );
    }

    #[test]
    fn the_embedded_table_is_the_data_pgn_collection() {
        let t = FateTable::embedded();
        // data/pgn: Carlsen.pgn 1,782 games + twic0920.pgn 2,245, all finished.
        assert_eq!(t.games(), 4027);
        // A king dies once per lost game: White lost 437 + 655 games (0-1 results), Black
        // 623 + 895 (`grep -c` of the Result tags).
        let deaths = |king: &str| {
            Square::ALL
                .iter()
                .map(|&s| t.count(id(king), s, Fate::Died))
                .sum::<u64>()
        };
        assert_eq!(deaths("e1"), 437 + 655);
        assert_eq!(deaths("e8"), 623 + 895);
        // Grandmasters castle short more than long.
        assert!(
            t.count(id("e1"), sq("g1"), Fate::Alive) > t.count(id("e1"), sq("c1"), Fate::Alive)
        );
    }
}
