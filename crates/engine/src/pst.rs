//! Fitted terms beside the genes: a bonus for each piece by its square (piece-square
//! tables), for each knight, bishop, rook and queen by the squares it can go to (mobility
//! tables), and for the side to move (tempo), each with a middle-game and an endgame value
//! blended by the pieces left (Fruit's tapered evaluation). They are fitted to a stronger
//! engine's scores of quiet positions the way Texel tuning fits an evaluation to results: a
//! logistic fit of win probabilities (Texel's tuning method, Peter Österlund, 2014).
//!
//! The tables place pieces; they do not value them: each piece's table is held at a mean of
//! zero over its squares (and over its mobility counts) while it is fitted, so the genes'
//! material values (Fig. 3 of David, Koppel and Netanyahu) stay what the genetic algorithm
//! makes them. The shipped terms (`crates/engine/data/pst.txt`, [`FittedTerms::shipped`]) and
//! how they were fitted are in docs/evolution.md.

use shakmaty::{Board, Color};
use std::sync::LazyLock;

/// The phase's full count (knights and bishops 1, rooks 2, queens 4: both sides' start).
pub const PHASE_FULL: i32 = 24;

/// A segment of the terms: its name in the text form, its length, and whether it is held at
/// a mean of zero.
struct Segment {
    name: &'static str,
    len: usize,
    centred: bool,
}

/// The segments in index order: six piece-square tables (pawn … king, squares a1 = 0 … h8 =
/// 63 from the piece's own side), four mobility tables (knight … queen, by the number of
/// squares a piece can go to that hold no own piece and no enemy pawn attacks), the tempo.
const SEGMENTS: [Segment; 11] = [
    Segment {
        name: "pawn",
        len: 64,
        centred: true,
    },
    Segment {
        name: "knight",
        len: 64,
        centred: true,
    },
    Segment {
        name: "bishop",
        len: 64,
        centred: true,
    },
    Segment {
        name: "rook",
        len: 64,
        centred: true,
    },
    Segment {
        name: "queen",
        len: 64,
        centred: true,
    },
    Segment {
        name: "king",
        len: 64,
        centred: true,
    },
    Segment {
        name: "knight-mobility",
        len: 9,
        centred: true,
    },
    Segment {
        name: "bishop-mobility",
        len: 14,
        centred: true,
    },
    Segment {
        name: "rook-mobility",
        len: 15,
        centred: true,
    },
    Segment {
        name: "queen-mobility",
        len: 28,
        centred: true,
    },
    Segment {
        name: "tempo",
        len: 1,
        centred: false,
    },
];

/// Entries of one phase: the segments' lengths summed.
pub const ENTRIES: usize = 6 * 64 + 9 + 14 + 15 + 28 + 1;
/// The tempo's entry.
pub(crate) const TEMPO: usize = ENTRIES - 1;

/// Start of each segment in a phase's entries.
const SEGMENT_STARTS: [usize; SEGMENTS.len()] = {
    let mut starts = [0; SEGMENTS.len()];
    let mut i = 1;
    while i < SEGMENTS.len() {
        starts[i] = starts[i - 1] + SEGMENTS[i - 1].len;
        i += 1;
    }
    starts
};

/// Start of segment `segment` in a phase's entries.
fn segment_start(segment: usize) -> usize {
    SEGMENT_STARTS[segment]
}

/// The entry of a piece of role index `role` (pawn 0 … king 5) of `color` on `square`, as
/// [`for_each_feature`] numbers it (squares from the piece's own side).
#[inline(always)]
pub(crate) const fn square_entry(role: usize, color: Color, square: u32) -> usize {
    let flip = match color {
        Color::White => 0,
        Color::Black => 56,
    };
    role * 64 + (square ^ flip) as usize
}

/// The entry of a piece of role index `role` (knight 1 … queen 4) that can go to `squares`
/// squares (no own piece, no enemy pawn's attack), as [`for_each_feature`] numbers it.
#[inline(always)]
pub(crate) const fn mobility_entry(role: usize, squares: u32) -> usize {
    let segment = 5 + role;
    let last = SEGMENTS[segment].len - 1;
    let squares = squares as usize;
    SEGMENT_STARTS[segment] + if squares < last { squares } else { last }
}

/// The fitted terms' middle-game and endgame values, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FittedTerms {
    /// Middle-game value of each entry (segments in [`SEGMENTS`]' order).
    pub middle: Vec<i32>,
    /// Endgame value, likewise.
    pub end: Vec<i32>,
}

static SHIPPED: LazyLock<FittedTerms> = LazyLock::new(|| {
    FittedTerms::parse(include_str!("../data/pst.txt")).unwrap_or_else(|_| FittedTerms::zero())
});

/// Returns the phase of a board: 0 (bare kings and pawns) to [`PHASE_FULL`] (every piece).
#[must_use]
pub fn middle_game_weight(board: &Board) -> i32 {
    let pieces = board.knights().count()
        + board.bishops().count()
        + 2 * board.rooks().count()
        + 4 * board.queens().count();
    i32::try_from(pieces).unwrap_or(PHASE_FULL).min(PHASE_FULL)
}

/// Calls `each` with every entry a position holds and its sign (+1 White's, −1 Black's): each
/// piece's square ([`square_entry`]), each knight's to queen's mobility count
/// ([`mobility_entry`]: the squares it can go to that hold no own piece and no enemy pawn's
/// attack), and the side to move's tempo. The evaluation's own pass over the pieces gives
/// them, so the fit reads what the search scores.
pub fn for_each_feature(board: &Board, turn: Color, each: impl FnMut(usize, i32)) {
    crate::evaluate::for_each_fitted_entry(board, turn, each);
}

impl FittedTerms {
    /// Terms of zeros: no bonus anywhere.
    #[must_use]
    pub fn zero() -> FittedTerms {
        FittedTerms {
            middle: vec![0; ENTRIES],
            end: vec![0; ENTRIES],
        }
    }

    /// The shipped terms (`crates/engine/data/pst.txt`); a test checks that file parses, so
    /// the zero terms this falls back on are never what ships.
    #[must_use]
    pub fn shipped() -> &'static FittedTerms {
        &SHIPPED
    }

    /// Reads terms written by [`FittedTerms::to_text`]: for each phase (`middle`, `end`) and
    /// segment (`pawn` … `king`, `knight-mobility` … `queen-mobility`, `tempo`) a line of the
    /// two words and the segment's numbers (squares from a1, counts from 0); `#` comments.
    ///
    /// # Errors
    /// A message naming the line for a missing, repeated or malformed row.
    pub fn parse(text: &str) -> Result<FittedTerms, String> {
        let mut terms = FittedTerms::zero();
        let mut seen = [[false; SEGMENTS.len()]; 2];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(phase), Some(name)) = (words.next(), words.next()) else {
                return Err(format!(
                    "line {}: expected `middle|end NAME` and numbers",
                    n + 1
                ));
            };
            let phase_index = match phase {
                "middle" => 0,
                "end" => 1,
                other => return Err(format!("line {}: unknown phase {other:?}", n + 1)),
            };
            let segment = SEGMENTS
                .iter()
                .position(|s| s.name == name)
                .ok_or_else(|| format!("line {}: unknown term {name:?}", n + 1))?;
            let values: Vec<i32> = words
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("line {}: {e}", n + 1))?;
            let len = SEGMENTS[segment].len;
            if values.len() != len {
                return Err(format!(
                    "line {}: {} numbers, expected {len}",
                    n + 1,
                    values.len()
                ));
            }
            if seen[phase_index][segment] {
                return Err(format!("line {}: {phase} {name} given twice", n + 1));
            }
            seen[phase_index][segment] = true;
            let start = segment_start(segment);
            let target = if phase_index == 0 {
                &mut terms.middle
            } else {
                &mut terms.end
            };
            target[start..start + len].copy_from_slice(&values);
        }
        if seen.iter().flatten().all(|s| *s) {
            Ok(terms)
        } else {
            Err(format!(
                "expected {} rows: middle and end for each of {}",
                2 * SEGMENTS.len(),
                SEGMENTS.map(|s| s.name).join(", ")
            ))
        }
    }

    /// The terms as [`mean_squared_error`] takes them: middle-game entries, then endgame ones.
    #[must_use]
    pub fn weights(&self) -> Vec<f64> {
        self.middle
            .iter()
            .chain(&self.end)
            .map(|v| f64::from(*v))
            .collect()
    }

    /// Writes the terms as [`FittedTerms::parse`] reads them.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (phase, values) in [("middle", &self.middle), ("end", &self.end)] {
            for (i, segment) in SEGMENTS.iter().enumerate() {
                let start = segment_start(i);
                out.push_str(&format!("{phase} {}", segment.name));
                for v in &values[start..start + segment.len] {
                    out.push_str(&format!(" {v}"));
                }
                out.push('\n');
            }
        }
        out
    }

    /// Returns the terms' score of `board` with `turn` to move from White's point of view, in
    /// centipawns, with `middle` (0–[`PHASE_FULL`]) the board's [`middle_game_weight`].
    #[must_use]
    pub fn score_white(&self, board: &Board, turn: Color, middle: i32) -> i32 {
        // Each phase's entries summed first and blended once: the same integer as blending
        // each entry (the sums are linear), for two multiplications a position, not two an entry.
        let (mut middle_sum, mut end_sum) = (0, 0);
        // Both tables cut to one length, so that one bound check covers both reads.
        let n = self.middle.len().min(self.end.len());
        let (middle_values, end_values) = (&self.middle[..n], &self.end[..n]);
        for_each_feature(board, turn, |i, sign| {
            debug_assert!(i < n, "a feature beyond the tables ({i} of {n})");
            if i < n {
                middle_sum += sign * middle_values[i];
                end_sum += sign * end_values[i];
            }
        });
        (middle_sum * middle + end_sum * (PHASE_FULL - middle)) / PHASE_FULL
    }
}

/// One position of a fit: what the evaluation without the terms says, what the stronger
/// engine says (both White's point of view, centipawns) and the entries the position holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The evaluation without the terms.
    pub base: f64,
    /// The stronger engine's score.
    pub target: f64,
    /// The board's [`middle_game_weight`].
    pub middle: i32,
    /// Each entry the position holds (see [`for_each_feature`]) and its sign (+1 White).
    pub features: Vec<(u16, i8)>,
}

impl Sample {
    /// Builds the sample of `board` with `turn` to move, the evaluation's `base` and the
    /// `target` score.
    #[must_use]
    pub fn new(board: &Board, turn: Color, base: i32, target: i32) -> Sample {
        let mut features = Vec::with_capacity(40);
        for_each_feature(board, turn, |i, sign| {
            if let (Ok(i), Ok(sign)) = (u16::try_from(i), i8::try_from(sign)) {
                features.push((i, sign));
            }
        });
        Sample {
            base: f64::from(base),
            target: f64::from(target),
            middle: middle_game_weight(board),
            features,
        }
    }
}

/// How [`fit`] runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Full passes over the samples (Adam steps).
    pub epochs: usize,
    /// Adam's step size, in centipawns.
    pub step: f64,
    /// L2 pull of every entry toward zero.
    pub l2: f64,
    /// Each table re-centred to a mean of zero (the default): the tables place pieces and
    /// leave their values to the genes. Off, a table's mean moves its piece's value too.
    pub centred: bool,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 1500,
            step: 1.0,
            l2: 1e-7,
            centred: true,
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The scale of the evaluation's centipawns against the target's (fitted first, without
    /// the terms): the evaluation's win probability is σ(scale · k · score).
    pub scale: f64,
    /// Mean squared error of the win probabilities without the terms.
    pub error_before: f64,
    /// With the fitted terms.
    pub error_after: f64,
}

/// The logistic slope of a centipawn score: σ(K · cp) is the win probability (a pawn's lead
/// ≈ 64%), as in Texel's tuning.
const K: f64 = std::f64::consts::LN_10 / 400.0;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the win probabilities of `samples` with the terms `w` (middle-game
/// entries, then endgame ones) and the evaluation's `scale`.
#[must_use]
pub fn mean_squared_error(samples: &[Sample], scale: f64, w: &[f64]) -> f64 {
    let mut sum = 0.0;
    for s in samples {
        let (score, _) = score_of(s, w);
        let p = sigmoid(scale * K * (s.base + score));
        let q = sigmoid(K * s.target);
        sum += (p - q) * (p - q);
    }
    sum / samples.len().max(1) as f64
}

/// The terms' score of a sample and its middle-game share (0–1).
fn score_of(s: &Sample, w: &[f64]) -> (f64, f64) {
    let m = f64::from(s.middle) / f64::from(PHASE_FULL);
    let mut score = 0.0;
    for &(i, sign) in &s.features {
        let i = usize::from(i);
        score += f64::from(sign) * (w[i] * m + w[ENTRIES + i] * (1.0 - m));
    }
    (score, m)
}

/// Entries a segment's mean is taken over: pawns never stand on the first or last rank.
fn centred_entries(segment: usize) -> std::ops::Range<usize> {
    let start = segment_start(segment);
    if segment == 0 {
        start + 8..start + 56
    } else {
        start..start + SEGMENTS[segment].len
    }
}

/// The evaluation's scale against the target's that fits `samples` best without the terms
/// (a golden-section search between 0.2 and 3).
#[must_use]
pub fn fit_scale(samples: &[Sample]) -> f64 {
    let zero = vec![0.0; 2 * ENTRIES];
    let (mut lo, mut hi) = (0.2f64, 3.0f64);
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - golden * (hi - lo);
        let b = lo + golden * (hi - lo);
        if mean_squared_error(samples, a, &zero) < mean_squared_error(samples, b, &zero) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the terms to `samples`: first the evaluation's scale against the target's, then the
/// terms by Adam on the mean squared error of the win probabilities, each centred table
/// re-centred to a mean of zero after every step.
#[must_use]
pub fn fit(samples: &[Sample], options: FitOptions) -> (FittedTerms, FitReport) {
    let scale = fit_scale(samples);
    let n = 2 * ENTRIES;
    let error_before = mean_squared_error(samples, scale, &vec![0.0; n]);
    let mut w = vec![0.0; n];
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-12);
    let count = samples.len().max(1) as f64;
    for epoch in 1..=options.epochs {
        let mut grad = vec![0.0; n];
        for s in samples {
            let (score, m) = score_of(s, &w);
            let p = sigmoid(scale * K * (s.base + score));
            let q = sigmoid(K * s.target);
            let g = 2.0 * (p - q) * p * (1.0 - p) * scale * K / count;
            for &(i, sign) in &s.features {
                let i = usize::from(i);
                grad[i] += g * f64::from(sign) * m;
                grad[ENTRIES + i] += g * f64::from(sign) * (1.0 - m);
            }
        }
        let t = i32::try_from(epoch).unwrap_or(i32::MAX);
        for i in 0..n {
            let g = grad[i] + 2.0 * options.l2 * w[i];
            m1[i] = beta1 * m1[i] + (1.0 - beta1) * g;
            m2[i] = beta2 * m2[i] + (1.0 - beta2) * g * g;
            let m_hat = m1[i] / (1.0 - beta1.powi(t));
            let v_hat = m2[i] / (1.0 - beta2.powi(t));
            w[i] -= options.step * m_hat / (v_hat.sqrt() + eps);
        }
        for phase in [0, ENTRIES] {
            // Pawns never stand on the first or last rank.
            for sq in (0..8).chain(56..64) {
                w[phase + sq] = 0.0;
            }
            if !options.centred {
                continue;
            }
            for segment in (0..SEGMENTS.len()).filter(|&i| SEGMENTS[i].centred) {
                let entries = centred_entries(segment);
                let len = entries.len() as f64;
                let mean = entries.clone().map(|i| w[phase + i]).sum::<f64>() / len;
                for i in entries {
                    w[phase + i] -= mean;
                }
            }
        }
    }
    let error_after = mean_squared_error(samples, scale, &w);
    let round = |v: &[f64]| v.iter().map(|x| x.round() as i32).collect::<Vec<i32>>();
    (
        FittedTerms {
            middle: round(&w[..ENTRIES]),
            end: round(&w[ENTRIES..]),
        },
        FitReport {
            scale,
            error_before,
            error_after,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOBILITY_START: usize = 6 * 64;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Role, Square};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("bad test FEN {fen}"));
        pos.board().clone()
    }

    /// Terms with a knight worth 40 in the centre and −40 on the rim in both phases, 0
    /// elsewhere, and a king worth 10 on g1 in the middle game.
    fn planted() -> FittedTerms {
        let mut t = FittedTerms::zero();
        for sq in 0..64usize {
            let (file, rank) = (sq % 8, sq / 8);
            let value = if (2..=5).contains(&file) && (2..=5).contains(&rank) {
                40
            } else if file == 0 || file == 7 || rank == 0 || rank == 7 {
                -40
            } else {
                0
            };
            t.middle[64 + sq] = value;
            t.end[64 + sq] = value;
        }
        t.middle[5 * 64 + 6] = 10;
        t
    }

    #[test]
    fn tables_read_back_what_they_write_and_name_a_bad_line() {
        let t = planted();
        assert_eq!(FittedTerms::parse(&t.to_text()), Ok(t.clone()));
        let short = t.to_text().replacen(" -40\n", "\n", 1);
        let error = FittedTerms::parse(&short).err().unwrap_or_default();
        assert!(error.contains("63 numbers, expected 64"), "{error}");
        let missing: String = t
            .to_text()
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(FittedTerms::parse(&missing).is_err());
        let twice = format!(
            "{}{}",
            t.to_text(),
            t.to_text().lines().next().unwrap_or("")
        );
        let error = FittedTerms::parse(&twice).err().unwrap_or_default();
        assert!(
            error.contains("line 23: middle pawn given twice"),
            "{error}"
        );
    }

    #[test]
    fn the_shipped_tables_parse_and_hold_a_mean_of_zero() {
        let shipped = FittedTerms::parse(include_str!("../data/pst.txt"));
        assert_eq!(shipped.as_ref(), Ok(FittedTerms::shipped()));
        let t = FittedTerms::shipped();
        assert!(*t != FittedTerms::zero(), "the shipped terms are all zero");
        for values in [&t.middle, &t.end] {
            for segment in (0..SEGMENTS.len()).filter(|&i| SEGMENTS[i].centred) {
                let entries = centred_entries(segment);
                let len = i32::try_from(entries.len()).unwrap_or(0);
                let sum: i32 = entries.map(|i| values[i]).sum();
                // Rounding moves the sum by at most half a centipawn an entry.
                assert!(
                    2 * sum.abs() <= len,
                    "{}: sum {sum}",
                    SEGMENTS[segment].name
                );
            }
            assert!(values[..8].iter().chain(&values[56..64]).all(|v| *v == 0));
        }
    }

    #[test]
    fn a_piece_scores_its_square_blended_by_the_phase_and_black_mirrors_white() {
        let t = planted();
        // White: king g1 (10 in the middle game), knight d4 (40); Black: king a8, knight h5
        // (rim: -40). Full middle game would give 10 + 40 + 40; this board has two knights
        // (weight 2 of 24).
        let b = board("k7/8/8/7n/3N4/8/8/6K1 w - - 0 1");
        assert_eq!(middle_game_weight(&b), 2);
        assert_eq!(t.score_white(&b, Color::White, 2), (90 * 2 + 80 * 22) / 24);
        assert_eq!(t.score_white(&b, Color::Black, 24), 90);
        // The same board with colours swapped and ranks mirrored scores the negation.
        let mirrored = board("6k1/8/8/3n4/7N/8/8/K7 w - - 0 1");
        assert_eq!(
            t.score_white(&mirrored, Color::White, 2),
            -t.score_white(&b, Color::White, 2)
        );
        // The tempo counts for the side to move.
        let mut tempo = FittedTerms::zero();
        tempo.middle[TEMPO] = 12;
        tempo.end[TEMPO] = 6;
        assert_eq!(
            tempo.score_white(&b, Color::White, 2),
            (12 * 2 + 6 * 22) / 24
        );
        assert_eq!(
            tempo.score_white(&b, Color::Black, 2),
            -(12 * 2 + 6 * 22) / 24
        );
        // Mobility: the knight on d4 reaches 8 squares, the one on h5 4 (g7 is Black's
        // pawn-free board, f6, f4, g3): each count's entry, by side.
        let mut mobility = FittedTerms::zero();
        mobility.end[MOBILITY_START + 8] = 20;
        mobility.end[MOBILITY_START + 4] = 5;
        assert_eq!(mobility.score_white(&b, Color::White, 0), 20 - 5);
        // A black pawn on e6 takes f5 from the d4 knight's squares (a square an enemy pawn
        // attacks does not count), not e6 itself (an enemy piece to take): 7 squares.
        mobility.end[MOBILITY_START + 7] = 9;
        let pawn_on_e6 = board("k7/8/4p3/7n/3N4/8/8/6K1 w - - 0 1");
        assert_eq!(mobility.score_white(&pawn_on_e6, Color::White, 0), 9 - 5);
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(middle_game_weight(&start), PHASE_FULL);
    }

    /// Each entry a position holds, piece by piece, written out directly: the reference
    /// for the evaluation's own pass, which [`for_each_feature`] reads.
    fn entries_piece_by_piece(board: &Board, turn: Color) -> Vec<(usize, i32)> {
        use shakmaty::attacks;
        let mut out = Vec::new();
        let occupied = board.occupied();
        for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let own = board.by_color(color);
            let enemy_pawns = board.pawns() & board.by_color(!color);
            let mut pawn_attacked = 0u64;
            for pawn in enemy_pawns {
                pawn_attacked |= attacks::pawn_attacks(!color, pawn).0;
            }
            let area = !own.0 & !pawn_attacked;
            for (r, role) in Role::ALL.into_iter().enumerate() {
                for square in board.by_role(role) & own {
                    out.push((square_entry(r, color, square.to_u32()), sign));
                    if (1..=4).contains(&r) {
                        let reach = attacks::attacks(square, role.of(color), occupied);
                        out.push((mobility_entry(r, (reach.0 & area).count_ones()), sign));
                    }
                }
            }
        }
        out.push((TEMPO, if turn == Color::White { 1 } else { -1 }));
        out.sort_unstable();
        out
    }

    #[test]
    fn the_features_are_each_pieces_square_and_reach_and_the_tempo() {
        for pos in crate::bench::bench_lines(80) {
            let mut got = Vec::new();
            for_each_feature(pos.board(), pos.turn(), |i, sign| got.push((i, sign)));
            got.sort_unstable();
            assert_eq!(
                got,
                entries_piece_by_piece(pos.board(), pos.turn()),
                "{}",
                Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            );
        }
    }

    #[test]
    fn a_fit_finds_planted_tables_from_scores_that_hold_them() {
        // Boards with kings and a knight or two on squares that vary; the target is what the
        // planted tables add to a base evaluation of a few hundred centipawns.
        let t = planted();
        let mut samples = Vec::new();
        let mut state = 7u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for _ in 0..3000 {
            let (wn, bn, material) = (next(64), next(64), next(400));
            if wn == bn || [6, 56].contains(&wn) || [6, 56].contains(&bn) {
                continue;
            }
            let mut b = Board::empty();
            let place = |b: &mut Board, sq: u64, color: Color, role: Role| {
                let sq = Square::new(u32::try_from(sq).unwrap_or(0));
                b.set_piece_at(sq, shakmaty::Piece { color, role });
            };
            place(&mut b, 6, Color::White, Role::King);
            place(&mut b, 56, Color::Black, Role::King);
            place(&mut b, wn, Color::White, Role::Knight);
            place(&mut b, bn, Color::Black, Role::Knight);
            let base = i32::try_from(material).unwrap_or(0) - 200;
            let target = base + t.score_white(&b, Color::White, middle_game_weight(&b));
            samples.push(Sample::new(&b, Color::White, base, target));
        }
        let options = FitOptions {
            epochs: 400,
            step: 2.0,
            l2: 0.0,
            centred: true,
        };
        let (fitted, report) = fit(&samples, options);
        assert!(
            report.error_after < report.error_before / 10.0,
            "{report:?}"
        );
        // The planted knight gains 80 from a1 to d4; square and mobility tables together
        // (a knight's mobility grows toward the centre) should say about as much.
        let knight_on = |square: u32| {
            let mut b = Board::empty();
            b.set_piece_at(
                Square::new(6),
                shakmaty::Piece {
                    color: Color::White,
                    role: Role::King,
                },
            );
            b.set_piece_at(
                Square::new(56),
                shakmaty::Piece {
                    color: Color::Black,
                    role: Role::King,
                },
            );
            b.set_piece_at(
                Square::new(square),
                shakmaty::Piece {
                    color: Color::White,
                    role: Role::Knight,
                },
            );
            fitted.score_white(&b, Color::White, middle_game_weight(&b))
        };
        let gain = knight_on(27) - knight_on(0);
        assert!((65..=95).contains(&gain), "a1 to d4: {gain}");
    }
}
