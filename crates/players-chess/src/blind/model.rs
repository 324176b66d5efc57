//! The model the blind players see the board with: from the 64-bit mask of occupied
//! squares alone, it predicts which of the twelve pieces stands on each occupied square and
//! which side is to move (Murphy's "Color- and piece-blind chess", SIGBOVIK 2019, which
//! trained a neural network for the same task). Empty squares are known to be empty.
//!
//! Two kinds of model read the same 64 occupancy bits:
//! - [`ModelKind::Linear`]: per square, a multinomial logistic regression (fitted with
//!   linfa), and one binary logistic regression for the side to move;
//! - [`ModelKind::Mlp`]: a small neural network (dense layers with ReLU between them,
//!   trained with candle by `eloworld-train-blind --model mlp`) whose last layer gives 64·12
//!   piece logits and the logit of White to move; its forward pass here is plain Rust.
//!
//! File format (`data/blind/model.bin`, little-endian), version 2:
//!
//! | offset | bytes | what |
//! |---|---|---|
//! | 0 | 8 | magic `EWBLIND\0` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | training positions |
//! | 16 | 4 | kind: 1 linear, 2 neural network |
//! | 20 | … | linear: the weights of version 1 below; network: layer count L, then L + 1 layer widths (u32), then per layer its weights input-major (`[input][output]`) and its biases, f32 |
//! | end − 8 | 8 | FNV-1a 64 checksum of everything before |
//!
//! Version 1 (still read) holds a linear model and no kind word: after the positions come,
//! per square (a1 … h8), per piece (white P N B R Q K, then black), 64 weights then the
//! intercept, and then the side-to-move weights and intercept (logit of White to move), f32.

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
/// The network's outputs: 12 piece logits per square (a1 … h8), then White to move.
pub const OUTPUTS: usize = 64 * CLASSES + 1;
/// The widest layer and the most layers a network file may declare.
pub const MAX_WIDTH: usize = 4096;
/// See [`MAX_WIDTH`].
pub const MAX_LAYERS: usize = 8;

const MAGIC: &[u8; 8] = b"EWBLIND\0";
const FORMAT_VERSION: u32 = 2;
const HEADER_V1: usize = 16;
const HEADER: usize = 20;
const SQUARE_FLOATS: usize = 64 * CLASSES * ROW;
const LINEAR_FLOATS: usize = SQUARE_FLOATS + ROW;
const KIND_LINEAR: u32 = 1;
const KIND_MLP: u32 = 2;

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
    /// The kind word names no model this build knows.
    #[error("unknown model kind {found} (1 linear, 2 neural network)")]
    UnknownKind {
        /// The kind in the file.
        found: u32,
    },
    /// The file or the weights have the wrong length.
    #[error("model has {found} bytes or weights, expected {expected}")]
    WrongLength {
        /// The length found.
        found: usize,
        /// The length the header or the kind implies.
        expected: usize,
    },
    /// The network's layer widths do not fit the task.
    #[error("bad network shape: {0}")]
    BadShape(String),
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

/// Which kind of model a [`BlindModel`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelKind {
    /// Logistic regressions over the occupancy bits.
    Linear,
    /// A small neural network.
    Mlp,
}

/// One dense layer of a network: `output = bias + Σ input[i] · weights[i][·]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    inputs: usize,
    outputs: usize,
    /// `[input][output]`.
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// Creates a layer from its weights, input-major (`inputs` rows of `bias.len()`).
    ///
    /// # Errors
    /// [`ModelFileError::WrongLength`] when `weights` is not `inputs · bias.len()` long,
    /// [`ModelFileError::NotFinite`] for a NaN or infinite weight.
    pub fn new(inputs: usize, weights: Vec<f32>, bias: Vec<f32>) -> Result<Dense, ModelFileError> {
        let outputs = bias.len();
        if weights.len() != inputs * outputs {
            return Err(ModelFileError::WrongLength {
                found: weights.len(),
                expected: inputs * outputs,
            });
        }
        if !weights.iter().chain(bias.iter()).all(|w| w.is_finite()) {
            return Err(ModelFileError::NotFinite);
        }
        Ok(Dense {
            inputs,
            outputs,
            weights,
            bias,
        })
    }

    /// Returns the layer's input and output widths.
    #[must_use]
    pub fn shape(&self) -> (usize, usize) {
        (self.inputs, self.outputs)
    }

    /// Returns `bias + input · weights`, skipping zero inputs.
    fn apply(&self, input: &[f32]) -> Vec<f32> {
        let mut out = self.bias.clone();
        for (i, &x) in input.iter().enumerate() {
            if x != 0.0 {
                let row = &self.weights[i * self.outputs..][..self.outputs];
                for (o, w) in out.iter_mut().zip(row) {
                    *o += x * w;
                }
            }
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Weights {
    /// `[square][class][ROW]` and the side-to-move row.
    Linear {
        squares: Vec<f32>,
        turn: Box<[f32; ROW]>,
    },
    /// Layers, ReLU between them.
    Mlp(Vec<Dense>),
}

/// The blind players' model: a linear one or a neural network (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub struct BlindModel {
    positions: u32,
    weights: Weights,
}

impl BlindModel {
    /// Creates a linear model from its weights: for each square a1…h8, for each class, 64
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
                expected: SQUARE_FLOATS,
            });
        }
        if !squares.iter().chain(turn.iter()).all(|w| w.is_finite()) {
            return Err(ModelFileError::NotFinite);
        }
        Ok(BlindModel {
            positions,
            weights: Weights::Linear {
                squares,
                turn: Box::new(turn),
            },
        })
    }

    /// Creates a neural network from its layers: the first reads the 64 occupancy bits, the
    /// last gives the [`OUTPUTS`] logits, ReLU between them.
    ///
    /// # Errors
    /// [`ModelFileError::BadShape`] when the widths do not chain from 64 to [`OUTPUTS`] or
    /// exceed [`MAX_WIDTH`] or [`MAX_LAYERS`].
    pub fn mlp(positions: u32, layers: Vec<Dense>) -> Result<BlindModel, ModelFileError> {
        let widths: Vec<usize> = layers
            .first()
            .map(|l| l.inputs)
            .into_iter()
            .chain(layers.iter().map(|l| l.outputs))
            .collect();
        check_widths(&widths)?;
        if layers.windows(2).any(|w| w[0].outputs != w[1].inputs) {
            return Err(ModelFileError::BadShape(
                "a layer's inputs differ from the previous layer's outputs".to_owned(),
            ));
        }
        Ok(BlindModel {
            positions,
            weights: Weights::Mlp(layers),
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

    /// Returns which kind of model this is.
    #[must_use]
    pub fn kind(&self) -> ModelKind {
        match self.weights {
            Weights::Linear { .. } => ModelKind::Linear,
            Weights::Mlp(_) => ModelKind::Mlp,
        }
    }

    /// Returns the network's raw outputs for `mask` ([`OUTPUTS`] logits: per square the 12
    /// pieces, then White to move), or `None` for a linear model.
    #[must_use]
    pub fn network_outputs(&self, mask: Bitboard) -> Option<Vec<f32>> {
        let Weights::Mlp(layers) = &self.weights else {
            return None;
        };
        let mut x: Vec<f32> = (0..INPUTS)
            .map(|s| f32::from(u8::from(mask.contains(Square::new(s as u32)))))
            .collect();
        let last = layers.len().saturating_sub(1);
        for (i, layer) in layers.iter().enumerate() {
            x = layer.apply(&x);
            if i < last {
                for v in &mut x {
                    *v = v.max(0.0);
                }
            }
        }
        Some(x)
    }

    /// Returns the per-square piece logits of occupied squares (others 0) and the logit of
    /// White to move.
    fn logits(&self, mask: Bitboard) -> ([[f32; CLASSES]; 64], f32) {
        let mut out = [[0.0f32; CLASSES]; 64];
        match &self.weights {
            Weights::Linear { squares, turn } => {
                for square in mask {
                    let s = usize::from(square);
                    for (class, logit) in out[s].iter_mut().enumerate() {
                        let w = &squares[(s * CLASSES + class) * ROW..][..ROW];
                        *logit =
                            w[INPUTS] + mask.into_iter().map(|j| w[usize::from(j)]).sum::<f32>();
                    }
                }
                let t = turn[INPUTS] + mask.into_iter().map(|j| turn[usize::from(j)]).sum::<f32>();
                (out, t)
            }
            Weights::Mlp(_) => {
                let y = self.network_outputs(mask).unwrap_or_default();
                for square in mask {
                    let s = usize::from(square);
                    if let Some(row) = y.get(s * CLASSES..(s + 1) * CLASSES) {
                        out[s].copy_from_slice(row);
                    }
                }
                (out, y.get(OUTPUTS - 1).copied().unwrap_or(0.0))
            }
        }
    }

    /// Returns the log-probabilities of each square's pieces and the probability that White
    /// is to move.
    fn scores(&self, mask: Bitboard) -> ([[f32; CLASSES]; 64], f32) {
        let (mut out, turn) = self.logits(mask);
        for square in mask {
            let row = &mut out[usize::from(square)];
            let top = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let log_sum = top + row.iter().map(|l| (l - top).exp()).sum::<f32>().ln();
            for l in row.iter_mut() {
                *l -= log_sum;
            }
        }
        (out, 1.0 / (1.0 + (-turn).exp()))
    }

    /// Returns the log-probability of each class on each occupied square of `mask`
    /// (`[square][class]`; rows of empty squares are left at 0).
    #[must_use]
    pub fn log_probabilities(&self, mask: Bitboard) -> [[f32; CLASSES]; 64] {
        self.scores(mask).0
    }

    /// Returns the predicted probability that White is to move.
    #[must_use]
    pub fn white_to_move(&self, mask: Bitboard) -> f32 {
        self.scores(mask).1
    }

    /// Predicts the position behind `mask` under `rule`. Returns `None` when the rule cannot
    /// be met (fewer than two occupied squares for two kings).
    #[must_use]
    pub fn unblind(&self, mask: Bitboard, rule: KingRule) -> Option<Prediction> {
        let (scores, white) = self.scores(mask);
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
        let turn = if white >= 0.5 {
            Color::White
        } else {
            Color::Black
        };
        Some(Prediction { board, turn })
    }

    /// Encodes the model in the file format of the module documentation (version 2).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.positions.to_le_bytes());
        let floats = |out: &mut Vec<u8>, ws: &[f32]| {
            for w in ws {
                out.extend_from_slice(&w.to_le_bytes());
            }
        };
        match &self.weights {
            Weights::Linear { squares, turn } => {
                out.extend_from_slice(&KIND_LINEAR.to_le_bytes());
                floats(&mut out, squares);
                floats(&mut out, &turn[..]);
            }
            Weights::Mlp(layers) => {
                out.extend_from_slice(&KIND_MLP.to_le_bytes());
                let count = u32::try_from(layers.len()).unwrap_or(u32::MAX);
                out.extend_from_slice(&count.to_le_bytes());
                let widths = layers
                    .first()
                    .map(|l| l.inputs)
                    .into_iter()
                    .chain(layers.iter().map(|l| l.outputs));
                for w in widths {
                    let w = u32::try_from(w).unwrap_or(u32::MAX);
                    out.extend_from_slice(&w.to_le_bytes());
                }
                for l in layers {
                    floats(&mut out, &l.weights);
                    floats(&mut out, &l.bias);
                }
            }
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes a model from the file format (version 1 or 2), checking magic, version,
    /// kind, shape, length, checksum and that every weight is finite.
    ///
    /// # Errors
    /// [`ModelFileError`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<BlindModel, ModelFileError> {
        if bytes.len() < HEADER_V1 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelFileError::BadMagic);
        }
        let word = |at: usize| -> u32 {
            bytes
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_le_bytes)
        };
        let version = word(8);
        let positions = word(12);
        let (kind, body_start, widths) = match version {
            1 => (KIND_LINEAR, HEADER_V1, Vec::new()),
            2 => {
                if bytes.len() < HEADER {
                    return Err(ModelFileError::WrongLength {
                        found: bytes.len(),
                        expected: HEADER,
                    });
                }
                match word(16) {
                    KIND_LINEAR => (KIND_LINEAR, HEADER, Vec::new()),
                    KIND_MLP => {
                        let count = word(HEADER) as usize;
                        if count == 0 || count > MAX_LAYERS {
                            return Err(ModelFileError::BadShape(format!(
                                "{count} layers (1 to {MAX_LAYERS})"
                            )));
                        }
                        let widths: Vec<usize> = (0..=count)
                            .map(|i| word(HEADER + 4 + 4 * i) as usize)
                            .collect();
                        check_widths(&widths)?;
                        (KIND_MLP, HEADER + 4 + 4 * (count + 1), widths)
                    }
                    found => return Err(ModelFileError::UnknownKind { found }),
                }
            }
            found => return Err(ModelFileError::UnsupportedVersion { found }),
        };
        let float_count = if kind == KIND_LINEAR {
            LINEAR_FLOATS
        } else {
            widths.windows(2).map(|w| (w[0] + 1) * w[1]).sum()
        };
        let expected = body_start + 4 * float_count + 8;
        if bytes.len() != expected {
            return Err(ModelFileError::WrongLength {
                found: bytes.len(),
                expected,
            });
        }
        let body = expected - 8;
        let stored = u64::from_le_bytes(bytes[body..].try_into().unwrap_or_default());
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(ModelFileError::Checksum { stored, computed });
        }
        let floats: Vec<f32> = bytes[body_start..body]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        if kind == KIND_LINEAR {
            let (squares, turn) = floats.split_at(SQUARE_FLOATS);
            let turn: [f32; ROW] = turn.try_into().map_err(|_| ModelFileError::WrongLength {
                found: turn.len(),
                expected: ROW,
            })?;
            return BlindModel::new(positions, squares.to_vec(), turn);
        }
        let mut layers = Vec::with_capacity(widths.len() - 1);
        let mut rest = floats.as_slice();
        for w in widths.windows(2) {
            let (weights, tail) = rest.split_at(w[0] * w[1]);
            let (bias, tail) = tail.split_at(w[1]);
            layers.push(Dense::new(w[0], weights.to_vec(), bias.to_vec())?);
            rest = tail;
        }
        BlindModel::mlp(positions, layers)
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

/// Checks a network's layer widths: 64 in, [`OUTPUTS`] out, at most [`MAX_LAYERS`] layers
/// of at most [`MAX_WIDTH`] units.
fn check_widths(widths: &[usize]) -> Result<(), ModelFileError> {
    let bad = |reason: String| Err(ModelFileError::BadShape(reason));
    match widths {
        [] | [_] => bad("no layer".to_owned()),
        _ if widths.len() > MAX_LAYERS + 1 => bad(format!(
            "{} layers (at most {MAX_LAYERS})",
            widths.len() - 1
        )),
        [first, ..] if *first != INPUTS => bad(format!("{first} inputs, expected {INPUTS}")),
        [.., last] if *last != OUTPUTS => bad(format!("{last} outputs, expected {OUTPUTS}")),
        _ if widths.iter().any(|&w| w == 0 || w > MAX_WIDTH) => bad(format!(
            "a layer width outside 1 to {MAX_WIDTH}: {widths:?}"
        )),
        _ => Ok(()),
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
