//! The model the blind players see the board with: from the 64-bit mask of occupied
//! squares alone, a per-square classifier predicts which of the twelve pieces stands on each
//! occupied square, and a second classifier predicts the side to move (Murphy's "Color- and
//! piece-blind chess", SIGBOVIK 2019, which trained a neural network for the same task).
//!
//! Each occupied square has its own multinomial logistic regression over the 64 occupancy
//! bits (`eloworld train-blind` fits them with linfa); the side to move is one binary
//! logistic regression over the same bits. Empty squares are known to be empty.
//!
//! File format (`data/blind/model.bin`, little-endian):
//!
//! | offset | bytes | what |
//! |---|---|---|
//! | 0 | 8 | magic `EWBLIND\0` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | training positions |
//! | 16 | 64·12·65·4 | per square (a1 … h8), per piece (white P N B R Q K, then black), 64 weights then the intercept, f32 |
//! | … | 65·4 | side-to-move weights then intercept (logit of White to move), f32 |
//! | end − 8 | 8 | FNV-1a 64 checksum of everything before |

use crate::fate::table::fnv1a64;
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};
use std::path::Path;
use thiserror::Error;

/// The twelve pieces a square can hold, in the file's order.
pub const CLASSES: usize = 12;
/// The classifier's inputs: one per square.
pub const INPUTS: usize = 64;
/// Weights per classifier row: the inputs and the intercept.
pub const ROW: usize = INPUTS + 1;

const MAGIC: &[u8; 8] = b"EWBLIND\0";
const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 16;
const SQUARE_FLOATS: usize = 64 * CLASSES * ROW;
const FILE_SIZE: usize = HEADER + (SQUARE_FLOATS + ROW) * 4 + 8;

/// The intercept given to a piece never seen on a square in training (a pawn on the first
/// rank): it is then never predicted there.
pub const NEVER: f32 = -1.0e4;

static DEFAULT_FILE: &[u8] = include_bytes!("../../../../data/blind/model.bin");

/// A model file could not be used.
#[derive(Debug, Error)]
pub enum ModelFileError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// The file does not start with the model's magic bytes.
    #[error("not a blind-player model (bad magic bytes)")]
    BadMagic,
    /// The format version is not one this build reads.
    #[error("unsupported model format version {found}")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The file has the wrong length.
    #[error("model file has {found} bytes, expected {FILE_SIZE}")]
    WrongLength {
        /// The length found.
        found: usize,
    },
    /// The checksum does not match the contents.
    #[error("model file is corrupt: checksum {stored:016x} stored, {computed:016x} computed")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A weight is not a finite number.
    #[error("model file has a weight that is not a finite number")]
    NotFinite,
}

/// Returns the class of a piece: white P N B R Q K are 0…5, black 6…11.
#[must_use]
pub fn class_of(piece: Piece) -> usize {
    let role = piece.role as usize - 1;
    match piece.color {
        Color::White => role,
        Color::Black => 6 + role,
    }
}

/// Returns the piece of a class (see [`class_of`]).
#[must_use]
pub fn piece_of(class: usize) -> Piece {
    const ROLES: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    Piece {
        color: if class < 6 {
            Color::White
        } else {
            Color::Black
        },
        role: ROLES[class % 6],
    }
}

/// How many kings a prediction may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingRule {
    /// Each square takes its most likely piece, kings or not (`blind_yolo`).
    Free,
    /// Exactly one king per side: the two squares where a king costs the least likelihood
    /// hold them, every other square its most likely other piece (`blind_kings`).
    OnePerSide,
}

/// A predicted position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The pieces.
    pub board: Board,
    /// The predicted side to move.
    pub turn: Color,
}

/// The per-square classifiers and the side-to-move classifier.
#[derive(Clone, Debug, PartialEq)]
pub struct BlindModel {
    positions: u32,
    /// `[square][class][ROW]`.
    squares: Vec<f32>,
    turn: [f32; ROW],
}

impl BlindModel {
    /// Creates a model from its weights: for each square a1…h8, for each class, 64
    /// weights then the intercept; and the side-to-move row. `positions` records how many
    /// positions it was trained on.
    ///
    /// # Errors
    /// [`ModelFileError::WrongLength`] when `squares` is not 64·12·65 long,
    /// [`ModelFileError::NotFinite`] for a NaN or infinite weight.
    pub fn new(
        positions: u32,
        squares: Vec<f32>,
        turn: [f32; ROW],
    ) -> Result<BlindModel, ModelFileError> {
        if squares.len() != SQUARE_FLOATS {
            return Err(ModelFileError::WrongLength {
                found: squares.len(),
            });
        }
        if !squares.iter().chain(turn.iter()).all(|w| w.is_finite()) {
            return Err(ModelFileError::NotFinite);
        }
        Ok(BlindModel {
            positions,
            squares,
            turn,
        })
    }

    /// Returns the model shipped with eloworld (`data/blind/model.bin`).
    ///
    /// # Panics
    /// Never in a built crate: a test checks that the embedded file reads.
    #[must_use]
    pub fn embedded() -> &'static BlindModel {
        static MODEL: std::sync::OnceLock<BlindModel> = std::sync::OnceLock::new();
        MODEL.get_or_init(|| {
            BlindModel::from_bytes(DEFAULT_FILE).expect("the embedded model.bin is valid")
        })
    }

    /// Returns how many positions the model was trained on.
    #[must_use]
    pub fn positions(&self) -> u32 {
        self.positions
    }

    /// Returns the log-probability of each class on each occupied square of `mask`
    /// (`[square][class]`; rows of empty squares are left at 0).
    #[must_use]
    pub fn log_probabilities(&self, mask: Bitboard) -> [[f32; CLASSES]; 64] {
        let mut out = [[0.0f32; CLASSES]; 64];
        for square in mask {
            let s = usize::from(square);
            let row = &mut out[s];
            for (class, logit) in row.iter_mut().enumerate() {
                let w = &self.squares[(s * CLASSES + class) * ROW..][..ROW];
                *logit = w[INPUTS] + mask.into_iter().map(|j| w[usize::from(j)]).sum::<f32>();
            }
            let top = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let log_sum = top + row.iter().map(|l| (l - top).exp()).sum::<f32>().ln();
            for l in row.iter_mut() {
                *l -= log_sum;
            }
        }
        out
    }

    /// Returns the predicted probability that White is to move.
    #[must_use]
    pub fn white_to_move(&self, mask: Bitboard) -> f32 {
        let logit = self.turn[INPUTS]
            + mask
                .into_iter()
                .map(|j| self.turn[usize::from(j)])
                .sum::<f32>();
        1.0 / (1.0 + (-logit).exp())
    }

    /// Predicts the position behind `mask` under `rule`. Returns `None` when the rule cannot
    /// be met (fewer than two occupied squares for two kings).
    #[must_use]
    pub fn unblind(&self, mask: Bitboard, rule: KingRule) -> Option<Prediction> {
        let scores = self.log_probabilities(mask);
        let best_among = |s: Square, allowed: &dyn Fn(usize) -> bool| {
            (0..CLASSES)
                .filter(|&c| allowed(c))
                .max_by(|&a, &b| scores[usize::from(s)][a].total_cmp(&scores[usize::from(s)][b]))
                .unwrap_or(0)
        };
        let is_king = |c: usize| c % 6 == 5;
        let mut board = Board::empty();
        match rule {
            KingRule::Free => {
                for s in mask {
                    board.set_piece_at(s, piece_of(best_among(s, &|_| true)));
                }
            }
            KingRule::OnePerSide => {
                // Every square first takes its best non-king piece; a king then replaces it
                // where that loses the least log-likelihood, the two kings on two squares.
                let other: Vec<(Square, usize)> = mask
                    .into_iter()
                    .map(|s| (s, best_among(s, &|c| !is_king(c))))
                    .collect();
                let cost = |s: Square, class: usize, king: usize| {
                    let row = &scores[usize::from(s)];
                    row[class] - row[king]
                };
                let white_king = class_of(Piece {
                    color: Color::White,
                    role: Role::King,
                });
                let black_king = white_king + 6;
                let mut best: Option<(f32, Square, Square)> = None;
                for &(a, ca) in &other {
                    for &(b, cb) in &other {
                        if a == b {
                            continue;
                        }
                        let total = cost(a, ca, white_king) + cost(b, cb, black_king);
                        if best.is_none_or(|(t, _, _)| total < t) {
                            best = Some((total, a, b));
                        }
                    }
                }
                let (_, wk, bk) = best?;
                for &(s, c) in &other {
                    let class = if s == wk {
                        white_king
                    } else if s == bk {
                        black_king
                    } else {
                        c
                    };
                    board.set_piece_at(s, piece_of(class));
                }
            }
        }
        let turn = if self.white_to_move(mask) >= 0.5 {
            Color::White
        } else {
            Color::Black
        };
        Some(Prediction { board, turn })
    }

    /// Encodes the model in the file format of the module documentation.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.positions.to_le_bytes());
        for w in self.squares.iter().chain(self.turn.iter()) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes a model from the file format, checking magic, version, length, checksum and
    /// that every weight is finite.
    ///
    /// # Errors
    /// [`ModelFileError`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<BlindModel, ModelFileError> {
        if bytes.len() < HEADER || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelFileError::BadMagic);
        }
        let word = |at: usize| {
            let b: [u8; 4] = bytes[at..at + 4].try_into().unwrap_or_default();
            b
        };
        let version = u32::from_le_bytes(word(8));
        if version != FORMAT_VERSION {
            return Err(ModelFileError::UnsupportedVersion { found: version });
        }
        if bytes.len() != FILE_SIZE {
            return Err(ModelFileError::WrongLength { found: bytes.len() });
        }
        let body = FILE_SIZE - 8;
        let stored = u64::from_le_bytes(bytes[body..].try_into().unwrap_or_default());
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(ModelFileError::Checksum { stored, computed });
        }
        let positions = u32::from_le_bytes(word(12));
        let floats: Vec<f32> = bytes[HEADER..body]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let (squares, turn) = floats.split_at(SQUARE_FLOATS);
        let turn: [f32; ROW] = turn
            .try_into()
            .map_err(|_| ModelFileError::WrongLength { found: bytes.len() })?;
        BlindModel::new(positions, squares.to_vec(), turn)
    }

    /// Reads a model from a file.
    ///
    /// # Errors
    /// [`ModelFileError::Io`] naming the file, or what [`BlindModel::from_bytes`] finds.
    pub fn read(path: &Path) -> Result<BlindModel, ModelFileError> {
        let bytes = std::fs::read(path).map_err(|source| ModelFileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        BlindModel::from_bytes(&bytes)
    }

    /// Writes the model to a file.
    ///
    /// # Errors
    /// [`ModelFileError::Io`] naming the file.
    pub fn write(&self, path: &Path) -> Result<(), ModelFileError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| ModelFileError::Io {
            path: path.display().to_string(),
            source,
        })
    }
}

/// How well a model predicts positions (Murphy's measures: piece mistakes per position and
/// positions predicted exactly), counted over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accuracy {
    /// Positions seen.
    pub positions: u64,
    /// Squares predicted wrongly (empty squares are always right).
    pub piece_mistakes: u64,
    /// Occupied squares seen.
    pub occupied: u64,
    /// Positions whose every square was predicted right.
    pub exact_boards: u64,
    /// Positions whose side to move was predicted right.
    pub turns_right: u64,
}

impl Accuracy {
    /// Counts one position.
    pub fn add(&mut self, actual: &Board, actual_turn: Color, predicted: Option<&Prediction>) {
        self.positions += 1;
        self.occupied += u64::from(actual.occupied().count() as u32);
        let Some(p) = predicted else {
            self.piece_mistakes += u64::from(actual.occupied().count() as u32);
            return;
        };
        let mistakes = actual
            .occupied()
            .into_iter()
            .filter(|&s| actual.piece_at(s) != p.board.piece_at(s))
            .count();
        self.piece_mistakes += mistakes as u64;
        self.exact_boards += u64::from(mistakes == 0);
        self.turns_right += u64::from(p.turn == actual_turn);
    }

    /// Returns the share of all squares predicted right (Murphy: 1 − mistakes / 64).
    #[must_use]
    pub fn square_accuracy(&self) -> f64 {
        1.0 - self.piece_mistakes as f64 / (64.0 * self.positions.max(1) as f64)
    }

    /// Returns the share of occupied squares predicted right.
    #[must_use]
    pub fn occupied_accuracy(&self) -> f64 {
        1.0 - self.piece_mistakes as f64 / self.occupied.max(1) as f64
    }

    /// Returns the piece mistakes per position.
    #[must_use]
    pub fn mistakes_per_position(&self) -> f64 {
        self.piece_mistakes as f64 / self.positions.max(1) as f64
    }

    /// Returns the share of positions predicted exactly.
    #[must_use]
    pub fn exact_share(&self) -> f64 {
        self.exact_boards as f64 / self.positions.max(1) as f64
    }

    /// Returns the share of positions whose side to move was predicted right.
    #[must_use]
    pub fn turn_share(&self) -> f64 {
        self.turns_right as f64 / self.positions.max(1) as f64
    }
}
