//! The static evaluation: material plus the positional terms of Fig. 3 of David, Koppel
//! and Netanyahu's evolution paper.
//!
//! The paper names its 35 parameters but does not define the terms; each is implemented here
//! as its name says, in the way the classical engines of the time (Crafty, Falcon) do. The
//! exact rule of each term is the doc line of its field in [`EvalParams`]. All terms are
//! computed for each side from its own point of view (ranks are relative: a side's 1st rank is
//! its back rank) and the score is White's total minus Black's, so mirroring a position and
//! swapping colours negates it.
//!
//! Centipawns: `PAWN_VALUE` = 100.
//!
//! Beside the 35 genes, [`PhaseTerms`] are fixed terms weighted by the game's phase (the
//! king's placement, passed pawns by rank, the fitted terms of [`crate::pst`]), which the
//! search's techniques switch on; the free functions here and phase 1's fitness never use
//! them.

use crate::pst::{
    middle_game_weight, mobility_entry, square_entry, FittedTerms, PHASE_FULL, TEMPO,
};
use crate::EvalParams;
use shakmaty::attacks;
use shakmaty::{Board, Color, Position, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const CENTRE_FILES: u64 = FILE_A << 2 | FILE_A << 3 | FILE_A << 4 | FILE_A << 5;

const FILE_H: u64 = FILE_A << 7;

/// The squares `color`'s pawns on `pawns` attack, by bitboard shifts.
pub(crate) const fn pawn_attack_set(color: Color, pawns: u64) -> u64 {
    match color {
        Color::White => ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9),
        Color::Black => ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7),
    }
}

const fn file_mask(file: u32) -> u64 {
    FILE_A << file
}

const fn adjacent_files(file: u32) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Squares strictly ahead of `rank` (relative to `white`), as a rank mask.
const fn ranks_ahead(white: bool, rank: u32) -> u64 {
    if white {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    }
}

/// Squares on `rank` or behind it (relative to `white`), as a rank mask.
const fn ranks_behind_or_level(white: bool, rank: u32) -> u64 {
    !ranks_ahead(white, rank)
}

/// Per colour (0 = White) and square: masks precomputed once.
struct Tables {
    /// Squares ahead on the same and adjacent files (a passed pawn has no enemy pawn there).
    passed_span: [[u64; 64]; 2],
    /// Squares ahead on the adjacent files (enemy pawns there can still attack the square).
    attack_span: [[u64; 64]; 2],
    /// Squares on the adjacent files, on the same rank or behind.
    support_span: [[u64; 64]; 2],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        passed_span: [[0; 64]; 2],
        attack_span: [[0; 64]; 2],
        support_span: [[0; 64]; 2],
    };
    let mut c = 0;
    while c < 2 {
        let white = c == 0;
        let mut sq = 0;
        while sq < 64 {
            let file = sq as u32 % 8;
            let rank = sq as u32 / 8;
            let ahead = ranks_ahead(white, rank);
            t.passed_span[c][sq] = ahead & (file_mask(file) | adjacent_files(file));
            t.attack_span[c][sq] = ahead & adjacent_files(file);
            t.support_span[c][sq] = ranks_behind_or_level(white, rank) & adjacent_files(file);
            sq += 1;
        }
        c += 1;
    }
    t
}

static TABLES: Tables = build_tables();

/// Centrality of a square: 0 on the rim, 1, 2, 3 on d4, e4, d5, e5.
const fn centrality(sq: u32) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    3 - if df > dr { df } else { dr }
}

/// Centrality of a file: 0 on a and h .. 3 on d and e.
const fn file_centrality(file: u32) -> i32 {
    let f = file as i32;
    if f < 4 {
        f
    } else {
        7 - f
    }
}

#[inline]
fn sq(i: u32) -> Square {
    Square::new(i)
}

#[inline]
fn relative_rank(color: Color, s: u32) -> u32 {
    match color {
        Color::White => s / 8,
        Color::Black => 7 - s / 8,
    }
}

#[inline]
fn bits(mut b: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros();
            b &= b - 1;
            Some(i)
        }
    })
}

#[inline]
fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

/// The 35 terms of the evaluation, in [`EvalParams::DEFS`] order: each term of a position is
/// a count (of pawns, squares, files …) times one parameter, so the evaluation is linear in
/// the parameters. [`features`] returns the counts; [`evaluate`] their dot product with the
/// parameters. Both are computed by the same code, through a [`Terms`] sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
#[expect(
    missing_docs,
    reason = "each is the parameter of the same name (see EvalParams)"
)]
pub enum Term {
    PawnValue,
    KnightValue,
    BishopValue,
    RookValue,
    QueenValue,
    PawnAdvanceA,
    PawnAdvanceB,
    PassedPawnMult,
    DoubledPawnPenalty,
    IsolatedPawnPenalty,
    BackwardPawnPenalty,
    WeakSquarePenalty,
    PassedPawnEnemyKingDist,
    KnightSqMult,
    KnightOutpostMult,
    BishopMobility,
    BishopPair,
    RookAttackKingFile,
    RookAttackKingAdjFile,
    RookAttackKingAdjFileAbgh,
    Rook7thRank,
    RookConnected,
    RookMobility,
    RookBehindPassedPawn,
    RookOpenFile,
    RookSemiOpenFile,
    RookAtckWeakPawnOpenColumn,
    RookColumnMult,
    QueenMobility,
    KingNoFriendlyPawn,
    KingNoFriendlyPawnAdj,
    KingFriendlyPawnAdvanced1,
    KingNoEnemyPawn,
    KingNoEnemyPawnAdj,
    KingPressureMult,
}

/// The number of evaluation terms (and parameters, Fig. 3).
pub const TERMS: usize = EvalParams::COUNT;

/// The feature vector of a position: the count of each [`Term`], White's minus Black's.
pub type Features = [i32; TERMS];

/// Where the terms of an evaluation go.
trait Terms {
    /// Whether [`Terms::add_fitted`] listens: the fitted terms' entries are looked for in
    /// the same pass over the pieces only then.
    const FITTED: bool = false;
    /// Adds `count` times the parameter of `term`.
    fn add(&mut self, term: Term, count: i32);
    /// Adds the fitted terms' entry `index` ([`crate::pst::for_each_feature`]'s numbering)
    /// with `sign` (+1 for the side whose terms these are).
    #[inline(always)]
    fn add_fitted(&mut self, _index: usize, _sign: i32) {}
}

/// Applies the parameters: the evaluation itself.
struct Score<'a> {
    weights: &'a [i32; TERMS],
    total: i32,
}

impl Terms for Score<'_> {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.total += count * self.weights[term as usize];
    }
}

/// The evaluation with the fitted terms summed in the same pass over the pieces: the genes'
/// total, and the fitted entries' middle-game and endgame sums, blended once at the end as
/// [`FittedTerms::score_white`] blends them (the same integers: sums are linear).
struct FittedScore<'a> {
    score: Score<'a>,
    /// Each entry's middle-game and endgame values in one word ([`pack_phases`]).
    packed: &'a [i64],
    /// The packed entries' sum: both phases' sums at once.
    sum: i64,
}

/// An entry's middle-game value in the high 32 bits and its endgame value (signed) in the
/// low: a sum of such words holds both phases' sums, read back by [`unpack_phases`] while
/// the endgame sum stays within an `i32`.
const fn pack_phases(middle: i32, end: i32) -> i64 {
    ((middle as i64) << 32) + end as i64
}

/// The middle-game and endgame sums held in a sum of [`pack_phases`] words.
#[expect(
    clippy::cast_possible_truncation,
    reason = "the low 32 bits are the endgame sum, by construction"
)]
const fn unpack_phases(sum: i64) -> (i32, i32) {
    let end = sum as i32;
    (((sum - end as i64) >> 32) as i32, end)
}

impl FittedScore<'_> {
    /// The fitted terms' score, White's point of view, blended by `middle` (0–[`PHASE_FULL`]).
    fn fitted_white(&self, middle: i32) -> i32 {
        let (middle_sum, end_sum) = unpack_phases(self.sum);
        (middle_sum * middle + end_sum * (PHASE_FULL - middle)) / PHASE_FULL
    }
}

impl Terms for FittedScore<'_> {
    const FITTED: bool = true;

    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.score.add(term, count);
    }

    #[inline(always)]
    fn add_fitted(&mut self, index: usize, sign: i32) {
        debug_assert!(
            index < self.packed.len(),
            "a fitted entry beyond the tables"
        );
        if let Some(&entry) = self.packed.get(index) {
            self.sum += i64::from(sign) * entry;
        }
    }
}

/// Counts each term: the feature vector.
struct Counts(Features);

impl Terms for Counts {
    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.0[term as usize] += count;
    }
}

/// Black's terms count against White.
struct Negated<'a, T: Terms>(&'a mut T);

impl<T: Terms> Terms for Negated<'_, T> {
    const FITTED: bool = T::FITTED;

    #[inline(always)]
    fn add(&mut self, term: Term, count: i32) {
        self.0.add(term, -count);
    }

    #[inline(always)]
    fn add_fitted(&mut self, index: usize, sign: i32) {
        self.0.add_fitted(index, -sign);
    }
}

/// The fitted terms' sign for the side to move's tempo: +1 White's, −1 Black's.
const fn tempo_sign(turn: Color) -> i32 {
    match turn {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Calls `each` with every entry of the fitted terms a position holds and its sign (+1
/// White's, −1 Black's), from the pass over the pieces that evaluates it, so the fit and the
/// evaluation read the same entries: [`crate::pst::for_each_feature`].
pub(crate) fn for_each_fitted_entry(board: &Board, turn: Color, each: impl FnMut(usize, i32)) {
    /// A sink that hands on the fitted entries and drops the genes' terms.
    struct Entries<F>(F);
    impl<F: FnMut(usize, i32)> Terms for Entries<F> {
        const FITTED: bool = true;
        #[inline(always)]
        fn add(&mut self, _term: Term, _count: i32) {}
        #[inline(always)]
        fn add_fitted(&mut self, index: usize, sign: i32) {
            (self.0)(index, sign);
        }
    }
    let mut sink = Entries(each);
    sides_white(board, &PawnEntry::compute(board, &[0; TERMS]), &mut sink);
    sink.add_fitted(TEMPO, tempo_sign(turn));
}

/// Returns the feature vector of a board (White's point of view): the evaluation with every
/// parameter at 1 for its own term, so that [`evaluate_white`] is its dot product with
/// [`EvalParams::to_array`].
#[must_use]
pub fn features(board: &Board) -> Features {
    let mut counts = Counts([0; TERMS]);
    let white = pawn_info(board, Color::White, &mut counts);
    let black = pawn_info(board, Color::Black, &mut Negated(&mut counts));
    side_terms(board, Color::White, &white, &black, &mut counts);
    side_terms(
        board,
        Color::Black,
        &black,
        &white,
        &mut Negated(&mut counts),
    );
    counts.0
}

/// Returns the dot product of a feature vector and parameters in [`EvalParams::DEFS`] order.
#[must_use]
#[inline]
pub fn dot(features: &Features, weights: &[i32; TERMS]) -> i32 {
    features.iter().zip(weights).map(|(&f, &w)| f * w).sum()
}

/// The pawn facts of one side that the other terms reuse.
#[derive(Clone, Copy, Default)]
struct PawnInfo {
    /// Own passed pawns.
    passed: u64,
    /// Own isolated or backward pawns.
    weak: u64,
}

/// Returns whether a pawn of `color` on `square` would be passed (no enemy pawn ahead on its
/// file or the adjacent files).
#[must_use]
#[inline]
pub fn is_passed_pawn(board: &Board, color: Color, square: Square) -> bool {
    let enemy = (board.pawns() & board.by_color(!color)).0;
    enemy & TABLES.passed_span[color as usize ^ 1][square as usize] == 0
}

/// Evaluates `pos` from the side to move's point of view, in centipawns.
#[must_use]
#[inline]
pub fn evaluate(pos: &shakmaty::Chess, p: &EvalParams) -> i32 {
    let white = evaluate_white(pos.board(), p);
    match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Evaluates a board from White's point of view, in centipawns.
#[must_use]
pub fn evaluate_white(board: &Board, p: &EvalParams) -> i32 {
    let weights = p.to_array();
    let pawns = PawnEntry::compute(board, &weights);
    pieces_white(board, &weights, &pawns)
}

fn pieces_white(board: &Board, weights: &[i32; TERMS], pawns: &PawnEntry) -> i32 {
    let mut score = Score { weights, total: 0 };
    sides_white(board, pawns, &mut score);
    score.total + pawns.score
}

/// Adds both sides' material and piece terms to `out`, White's point of view.
#[inline(always)]
fn sides_white<T: Terms>(board: &Board, pawns: &PawnEntry, out: &mut T) {
    side_terms(board, Color::White, &pawns.white, &pawns.black, out);
    side_terms(
        board,
        Color::Black,
        &pawns.black,
        &pawns.white,
        &mut Negated(out),
    );
}

/// The pawn-structure part of an evaluation, which depends only on the pawns and kings.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white_pawns: u64,
    black_pawns: u64,
    kings: u64,
    /// White's pawn-structure score minus Black's.
    score: i32,
    white: PawnInfo,
    black: PawnInfo,
    /// The phase terms that depend only on the pawns and kings, White's minus Black's, each
    /// still to be weighted by its phase ([`phase_terms_white`]): the kings' placement in
    /// the middle game and in the endgame, and the passed pawns' endgame bonus by rank.
    king_home: i32,
    king_centre: i32,
    passed_ranks: i32,
}

impl PawnEntry {
    fn compute(board: &Board, weights: &[i32; TERMS]) -> PawnEntry {
        let mut score = Score { weights, total: 0 };
        let white = pawn_info(board, Color::White, &mut score);
        let black = pawn_info(board, Color::Black, &mut Negated(&mut score));
        let (white_pawns, black_pawns, kings) = pawn_key(board);
        PawnEntry {
            white_pawns,
            black_pawns,
            kings,
            score: score.total,
            white,
            black,
            king_home: 0,
            king_centre: 0,
            passed_ranks: 0,
        }
    }

    /// [`PawnEntry::compute`] with the phase terms of the pawns and kings too (the
    /// evaluator's cache; the free functions, which have no phase terms, skip them).
    fn compute_with_phase_terms(board: &Board, weights: &[i32; TERMS]) -> PawnEntry {
        let mut entry = PawnEntry::compute(board, weights);
        for (color, info, sign) in [
            (Color::White, entry.white, 1),
            (Color::Black, entry.black, -1),
        ] {
            if let Some(k) = board.king_of(color).map(Square::to_u32) {
                entry.king_home += sign
                    * (KING_HOME_RANK[relative_rank(color, k) as usize]
                        + KING_HOME_FILE[(k % 8) as usize]);
                entry.king_centre += sign * KING_CENTRE_STEP * centrality(k);
            }
            for s in bits(info.passed) {
                entry.passed_ranks += sign * PASSED_RANK_ENDGAME[relative_rank(color, s) as usize];
            }
        }
        entry
    }
}

fn pawn_key(board: &Board) -> (u64, u64, u64) {
    let pawns = board.pawns();
    let white_king = u64::from((board.kings() & board.white()).0.trailing_zeros());
    let black_king = u64::from((board.kings() & board.black()).0.trailing_zeros());
    (
        (pawns & board.white()).0,
        (pawns & board.black()).0,
        white_king | black_king << 8,
    )
}

/// Fixed terms beside the 35 genes, weighted by the game's phase (a standard technique of
/// engines of Crafty's and Fruit's time that the paper's Fig. 3 does not name, so not a gene):
/// each is off in [`evaluate`] and in phase 1's 1-ply fitness, and on in the searches that
/// [`crate::search::Techniques`] switches it on for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTerms {
    /// The king kept home and to the side while the opponent has pieces, and brought to the
    /// centre as they come off.
    pub king_placement: bool,
    /// Passed pawns worth more the further they have run, as the pieces come off.
    pub passed_pawn_ranks: bool,
    /// A side's pieces (not pawns) attacked by an enemy pawn count against it, all game long:
    /// a threat the quiescence search, which tries captures of the side to move only, does
    /// not see for the side that has just moved.
    pub pawn_threats: bool,
    /// A king whose surrounding squares several enemy pieces attack at once, against its
    /// side, in the middle game: the attacks' weight grows with the number of attackers
    /// (Fruit's king attack), where `KING_PRESSURE_MULT` counts each attack alone.
    pub king_attack: bool,
    /// The fitted terms ([`crate::pst`]): each piece's bonus by its square and by its
    /// mobility, and the side to move's tempo, tapered by the pieces left.
    pub piece_squares: bool,
}

/// A king's middle-game placement by relative rank: the back rank is home.
const KING_HOME_RANK: [i32; 8] = [0, -25, -50, -70, -80, -80, -80, -80];
/// A king's middle-game placement by file: castled wings over the centre files.
const KING_HOME_FILE: [i32; 8] = [10, 20, 5, -15, -15, -5, 20, 10];
/// A king's endgame bonus a step of [`centrality`] (0 on the rim to 3 in the centre).
const KING_CENTRE_STEP: i32 = 15;
/// A piece (knight to queen) attacked by an enemy pawn, against its side.
const PAWN_THREAT: i32 = 60;
/// A king attack's weight per attacked square next to the king, by attacker: knight,
/// bishop, rook, queen.
const KING_ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
/// A king attack's share by the number of pieces attacking (of 64): one piece alone is no
/// attack; each more adds less.
const KING_ATTACKERS_SHARE: [i32; 8] = [0, 0, 32, 48, 56, 60, 62, 63];
/// A king attack's centipawns per unit of weight, when every attacker counts in full.
const KING_ATTACK_UNIT: i32 = 8;
/// A passed pawn's endgame bonus by relative rank, beside `PASSED_PAWN_MULT`'s linear one.
const PASSED_RANK_ENDGAME: [i32; 8] = [0, 0, 10, 20, 40, 70, 110, 0];

/// Returns the phase terms of a board from White's point of view, in centipawns: each term's
/// middle-game and endgame values blended by `middle`, the board's [`middle_game_weight`]
/// (Fruit's tapered evaluation).
fn phase_terms_white(board: &Board, entry: &PawnEntry, terms: PhaseTerms, middle: i32) -> i32 {
    let end = PHASE_FULL - middle;
    // The terms of the pawns and kings come from their cache entry, weighted here (the sums
    // are linear, so the same integers as each side's terms weighted one by one).
    let mut total = 0;
    if terms.king_placement {
        total += entry.king_home * middle + entry.king_centre * end;
    }
    if terms.passed_pawn_ranks {
        total += entry.passed_ranks * end;
    }
    if terms.pawn_threats || terms.king_attack {
        for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let mut side = 0;
            if terms.pawn_threats {
                let attacked = pawn_attack_set(!color, (board.pawns() & board.by_color(!color)).0);
                let pieces = (board.by_color(color).0) & !board.pawns().0 & !board.kings().0;
                side -= PAWN_THREAT * count(attacked & pieces) * PHASE_FULL;
            }
            if terms.king_attack {
                side -= king_attack(board, color) * middle;
            }
            total += sign * side;
        }
    }
    total / PHASE_FULL
}

/// Returns the middle-game weight of the attack on `color`'s king, in centipawns: the
/// enemy's knights, bishops, rooks and queens that attack a square next to the king, each
/// square counted by its attacker's [`KING_ATTACK_WEIGHT`], scaled by
/// [`KING_ATTACKERS_SHARE`] of the number of attackers; none while the enemy has no queen.
fn king_attack(board: &Board, color: Color) -> i32 {
    let enemy = board.by_color(!color);
    if (board.queens() & enemy).is_empty() {
        return 0;
    }
    let Some(king) = board.king_of(color) else {
        return 0;
    };
    let zone = attacks::king_attacks(king).0;
    let occupied = board.occupied();
    let mut weight = 0;
    let mut attackers = 0usize;
    for s in enemy & !board.pawns() & !board.kings() {
        let (reach, w) = match board.role_at(s) {
            Some(shakmaty::Role::Knight) => (attacks::knight_attacks(s), KING_ATTACK_WEIGHT[0]),
            Some(shakmaty::Role::Bishop) => {
                (attacks::bishop_attacks(s, occupied), KING_ATTACK_WEIGHT[1])
            }
            Some(shakmaty::Role::Rook) => {
                (attacks::rook_attacks(s, occupied), KING_ATTACK_WEIGHT[2])
            }
            Some(shakmaty::Role::Queen) => {
                (attacks::queen_attacks(s, occupied), KING_ATTACK_WEIGHT[3])
            }
            _ => continue,
        };
        let hits = count(reach.0 & zone);
        if hits > 0 {
            attackers += 1;
            weight += w * hits;
        }
    }
    KING_ATTACK_UNIT * weight * KING_ATTACKERS_SHARE[attackers.min(7)] / 64
}

/// A cache of pawn-structure evaluations (a "pawn hash"): the same pawns and kings recur
/// across most of a search's nodes; and of whole scores by position key
/// ([`Evaluator::evaluate_keyed`]). Tied to one parameter set and one set of phase terms;
/// [`Evaluator::evaluate`] gives the same scores as [`evaluate`].
#[derive(Clone)]
pub struct Evaluator {
    params: EvalParams,
    weights: [i32; TERMS],
    phase_terms: PhaseTerms,
    entries: Vec<PawnEntry>,
    /// Whole evaluations by the position's Zobrist key (side to move included): the search
    /// meets the same position again in each iteration, in re-searches and through
    /// transpositions, and a score read back costs a load where a new one walks every piece.
    scores: Vec<(u64, i32)>,
    /// The shipped fitted terms ([`FittedTerms::shipped`]), each entry's two phases packed
    /// into one word ([`pack_phases`]).
    fitted: Box<[i64]>,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("params", &self.params)
            .field("phase_terms", &self.phase_terms)
            .field("entries", &self.entries.len())
            .finish()
    }
}

const PAWN_CACHE_ENTRIES: usize = 1 << 14;
/// Entries of the evaluation cache (16 bytes each: 1 MiB).
const SCORE_CACHE_ENTRIES: usize = 1 << 16;

impl Evaluator {
    /// Creates an evaluator for `params` with an empty cache.
    #[must_use]
    pub fn new(params: EvalParams) -> Evaluator {
        Evaluator {
            params,
            weights: params.to_array(),
            phase_terms: PhaseTerms::default(),
            entries: vec![
                PawnEntry {
                    kings: u64::MAX,
                    ..PawnEntry::default()
                };
                PAWN_CACHE_ENTRIES
            ],
            scores: vec![(0, 0); SCORE_CACHE_ENTRIES],
            fitted: {
                let terms = FittedTerms::shipped();
                terms
                    .middle
                    .iter()
                    .zip(&terms.end)
                    .map(|(&m, &e)| pack_phases(m, e))
                    .collect()
            },
        }
    }

    /// Returns the parameters.
    #[must_use]
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Replaces the parameters (and forgets the cache) when they differ.
    pub fn set_params(&mut self, params: EvalParams) {
        if params != self.params {
            let phase_terms = self.phase_terms;
            *self = Evaluator::new(params);
            self.phase_terms = phase_terms;
        }
    }

    /// Sets the fixed phase terms added beside the genes (none by default, as [`evaluate`]).
    pub fn set_phase_terms(&mut self, terms: PhaseTerms) {
        if terms != self.phase_terms {
            self.phase_terms = terms;
            self.scores.fill((0, 0));
        }
    }

    /// Asks memory for `key`'s slot of the score cache ahead of [`Evaluator::evaluate_keyed`],
    /// without waiting for it (the search's prefetch of a child's table entry).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(slot) = self.scores.get(key as usize & (SCORE_CACHE_ENTRIES - 1)) {
            mem_prefetch::prefetch_read_data::<(u64, i32), 3>(slot);
        }
    }

    /// Evaluates `pos`, whose Zobrist key is `key`, as [`Evaluator::evaluate`], reading the
    /// score back when this position was the last one evaluated in its slot.
    #[inline]
    pub fn evaluate_keyed(&mut self, pos: &shakmaty::Chess, key: u64) -> i32 {
        let slot = key as usize & (SCORE_CACHE_ENTRIES - 1);
        let (cached_key, score) = self.scores[slot];
        if cached_key == key && key != 0 {
            return score;
        }
        let score = self.evaluate(pos);
        self.scores[slot] = (key, score);
        score
    }

    /// Evaluates `pos` from the side to move's point of view, as [`evaluate`].
    #[inline]
    pub fn evaluate(&mut self, pos: &shakmaty::Chess) -> i32 {
        let board = pos.board();
        let (w, b, k) = pawn_key(board);
        let h = (w ^ b.rotate_left(17) ^ k.rotate_left(41)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (h >> 50) as usize & (PAWN_CACHE_ENTRIES - 1);
        let e = &self.entries[slot];
        let entry = if e.white_pawns == w && e.black_pawns == b && e.kings == k {
            *e
        } else {
            let fresh = PawnEntry::compute_with_phase_terms(board, &self.weights);
            self.entries[slot] = fresh;
            fresh
        };
        let middle = middle_game_weight(board);
        let mut white = if self.phase_terms.piece_squares {
            // The genes' terms and the fitted ones in one pass over the pieces: the same
            // score as `pieces_white` plus `FittedTerms::score_white`.
            let mut sink = FittedScore {
                score: Score {
                    weights: &self.weights,
                    total: 0,
                },
                packed: &self.fitted,
                sum: 0,
            };
            sides_white(board, &entry, &mut sink);
            sink.add_fitted(TEMPO, tempo_sign(pos.turn()));
            sink.score.total + entry.score + sink.fitted_white(middle)
        } else {
            pieces_white(board, &self.weights, &entry)
        };
        if self.phase_terms != PhaseTerms::default() {
            white += phase_terms_white(board, &entry, self.phase_terms, middle);
        }
        match pos.turn() {
            Color::White => white,
            Color::Black => -white,
        }
    }
}

/// Adds the pawn-structure terms of `us` and returns its pawn facts.
fn pawn_info<T: Terms>(board: &Board, us: Color, out: &mut T) -> PawnInfo {
    let them = !us;
    let ci = us as usize ^ 1; // shakmaty: Black = 0, White = 1; tables: White = 0
    let own = (board.pawns() & board.by_color(us)).0;
    let enemy = (board.pawns() & board.by_color(them)).0;
    let enemy_king = board.king_of(them).map(Square::to_u32);
    let mut info = PawnInfo::default();
    for file in 0..8 {
        let n = count(own & file_mask(file));
        if n > 1 {
            out.add(Term::DoubledPawnPenalty, -(n - 1));
        }
    }
    let mut attack_span_all = 0u64;
    for s in bits(own) {
        let file = s % 8;
        let rr = relative_rank(us, s) as i32;
        let advance = rr - 1;
        let advance_term = if CENTRE_FILES >> s & 1 == 1 {
            Term::PawnAdvanceA
        } else {
            Term::PawnAdvanceB
        };
        out.add(advance_term, advance);
        attack_span_all |= TABLES.attack_span[ci][s as usize];
        let isolated = own & adjacent_files(file) == 0;
        if isolated {
            out.add(Term::IsolatedPawnPenalty, -1);
            info.weak |= 1 << s;
        } else if own & TABLES.support_span[ci][s as usize] == 0 {
            let stop = if us == Color::White {
                s + 8
            } else {
                s.wrapping_sub(8)
            };
            if stop < 64 && (attacks::pawn_attacks(us, sq(stop)).0 & enemy) != 0 {
                out.add(Term::BackwardPawnPenalty, -1);
                info.weak |= 1 << s;
            }
        }
        if enemy & TABLES.passed_span[ci][s as usize] == 0 {
            info.passed |= 1 << s;
            out.add(Term::PassedPawnMult, rr);
            if let Some(k) = enemy_king {
                let promotion = if us == Color::White { 56 + file } else { file };
                out.add(
                    Term::PassedPawnEnemyKingDist,
                    sq(promotion).distance(sq(k)) as i32,
                );
            }
        }
    }
    // Holes: squares of the side's 3rd and 4th ranks that no own pawn can attack any more.
    let home_ranks = if us == Color::White {
        0xFFFF_0000u64
    } else {
        0xFFFF_0000_0000u64
    };
    out.add(
        Term::WeakSquarePenalty,
        -count(home_ranks & !attack_span_all),
    );
    info
}

/// Adds the material and piece terms of `us` (pawn structure apart).
#[inline]
fn side_terms<T: Terms>(
    board: &Board,
    us: Color,
    own_info: &PawnInfo,
    enemy_info: &PawnInfo,
    out: &mut T,
) {
    let them = !us;
    let ci = us as usize ^ 1;
    let occupied = board.occupied();
    let own_all = board.by_color(us).0;
    let own_pawns = (board.pawns() & board.by_color(us)).0;
    let enemy_pawns = (board.pawns() & board.by_color(them)).0;
    let enemy_king = board.king_of(them).map(Square::to_u32);
    let king_zone = enemy_king.map_or(0, |k| attacks::king_attacks(sq(k)).0 | 1 << k);
    let mut pressure = 0;
    // The fitted terms' mobility counts the squares that hold no own piece and no enemy
    // pawn's attack (crate::pst::for_each_feature, whose entries this pass adds with the
    // genes' terms when the sink takes them, each piece's attacks computed once).
    let fitted_area = if T::FITTED {
        !own_all & !pawn_attack_set(them, enemy_pawns)
    } else {
        0
    };

    out.add(Term::PawnValue, count(own_pawns));
    if T::FITTED {
        for s in bits(own_pawns) {
            out.add_fitted(square_entry(0, us, s), 1);
        }
    }

    let knights = (board.knights() & board.by_color(us)).0;
    out.add(Term::KnightValue, count(knights));
    for s in bits(knights) {
        if T::FITTED {
            out.add_fitted(square_entry(1, us, s), 1);
            let reach = attacks::knight_attacks(sq(s)).0 & fitted_area;
            out.add_fitted(mobility_entry(1, reach.count_ones()), 1);
        }
        let c = centrality(s);
        out.add(Term::KnightSqMult, c);
        let rr = relative_rank(us, s);
        if (3..=5).contains(&rr)
            && attacks::pawn_attacks(them, sq(s)).0 & own_pawns != 0
            && enemy_pawns & TABLES.attack_span[ci][s as usize] == 0
        {
            out.add(Term::KnightOutpostMult, 1 + c);
        }
        pressure += count(attacks::knight_attacks(sq(s)).0 & king_zone);
    }

    let bishops = (board.bishops() & board.by_color(us)).0;
    out.add(Term::BishopValue, count(bishops));
    if bishops.count_ones() >= 2 {
        out.add(Term::BishopPair, 1);
    }
    for s in bits(bishops) {
        let a = attacks::bishop_attacks(sq(s), occupied).0;
        if T::FITTED {
            out.add_fitted(square_entry(2, us, s), 1);
            out.add_fitted(mobility_entry(2, (a & fitted_area).count_ones()), 1);
        }
        out.add(Term::BishopMobility, count(a & !own_all));
        pressure += count(a & king_zone);
    }

    let rooks = (board.rooks() & board.by_color(us)).0;
    out.add(Term::RookValue, count(rooks));
    let mut connections = 0;
    for s in bits(rooks) {
        let file = s % 8;
        let a = attacks::rook_attacks(sq(s), occupied).0;
        if T::FITTED {
            out.add_fitted(square_entry(3, us, s), 1);
            out.add_fitted(mobility_entry(3, (a & fitted_area).count_ones()), 1);
        }
        out.add(Term::RookMobility, count(a & !own_all));
        pressure += count(a & king_zone);
        connections += count(a & rooks);
        out.add(Term::RookColumnMult, file_centrality(file));
        if relative_rank(us, s) == 6 {
            out.add(Term::Rook7thRank, 1);
        }
        let fm = file_mask(file);
        if own_pawns & fm == 0 {
            if enemy_pawns & fm == 0 {
                out.add(Term::RookOpenFile, 1);
            } else {
                out.add(Term::RookSemiOpenFile, 1);
                if enemy_info.weak & fm != 0 {
                    out.add(Term::RookAtckWeakPawnOpenColumn, 1);
                }
            }
        }
        if let Some(k) = enemy_king {
            let kf = k % 8;
            if kf == file {
                out.add(Term::RookAttackKingFile, 1);
            } else if kf.abs_diff(file) == 1 {
                let term = if matches!(kf, 0 | 1 | 6 | 7) {
                    Term::RookAttackKingAdjFileAbgh
                } else {
                    Term::RookAttackKingAdjFile
                };
                out.add(term, 1);
            }
        }
        let ahead = TABLES.passed_span[ci][s as usize] & fm;
        for pawn in bits(own_info.passed & ahead) {
            if attacks::between(sq(s), sq(pawn)).0 & occupied.0 == 0 {
                out.add(Term::RookBehindPassedPawn, 1);
            }
        }
    }
    out.add(Term::RookConnected, connections / 2);

    let queens = (board.queens() & board.by_color(us)).0;
    out.add(Term::QueenValue, count(queens));
    for s in bits(queens) {
        let a = attacks::queen_attacks(sq(s), occupied).0;
        if T::FITTED {
            out.add_fitted(square_entry(4, us, s), 1);
            out.add_fitted(mobility_entry(4, (a & fitted_area).count_ones()), 1);
        }
        out.add(Term::QueenMobility, count(a & !own_all));
        pressure += count(a & king_zone);
    }
    // Pressure on the enemy king counts for us (the paper: KING_PRESSURE_MULT).
    out.add(Term::KingPressureMult, pressure);
    if T::FITTED {
        for s in bits((board.kings() & board.by_color(us)).0) {
            out.add_fitted(square_entry(5, us, s), 1);
        }
    }

    if (board.queens() & board.by_color(them)).any() {
        if let Some(k) = board.king_of(us).map(Square::to_u32) {
            king_shelter(us, k, own_pawns, enemy_pawns, out);
        }
    }
}

/// Adds the king-shelter penalties of a king of `us` on `k`.
fn king_shelter<T: Terms>(us: Color, k: u32, own_pawns: u64, enemy_pawns: u64, out: &mut T) {
    let kf = k % 8;
    let ahead = ranks_ahead(us == Color::White, k / 8);
    let king_rr = relative_rank(us, k);
    let lo = kf.saturating_sub(1);
    let hi = (kf + 1).min(7);
    for file in lo..=hi {
        let fm = file_mask(file);
        let adjacent = file != kf;
        let shield = own_pawns & fm & ahead;
        if shield == 0 {
            let term = if adjacent {
                Term::KingNoFriendlyPawnAdj
            } else {
                Term::KingNoFriendlyPawn
            };
            out.add(term, -1);
        } else {
            let nearest = if us == Color::White {
                shield.trailing_zeros()
            } else {
                63 - shield.leading_zeros()
            };
            if relative_rank(us, nearest) >= king_rr + 2 {
                out.add(Term::KingFriendlyPawnAdvanced1, -1);
            }
        }
        if enemy_pawns & fm == 0 {
            let term = if adjacent {
                Term::KingNoEnemyPawnAdj
            } else {
                Term::KingNoEnemyPawn
            };
            out.add(term, -1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> shakmaty::Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// Mirrors a FEN: flips ranks, swaps colours and the side to move.
    fn mirror(fen: &str) -> String {
        let mut parts = fen.split(' ');
        let board = parts.next().expect("board");
        let turn = parts.next().unwrap_or("w");
        let swapped: String = board
            .split('/')
            .rev()
            .collect::<Vec<_>>()
            .join("/")
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let turn = if turn == "w" { "b" } else { "w" };
        format!("{swapped} {turn} - - 0 1")
    }

    fn white_eval(fen: &str, p: &EvalParams) -> i32 {
        evaluate_white(pos(fen).board(), p)
    }

    /// Asserts that raising parameter `name` by 10 changes White's score by `10 * times`,
    /// and that the mirrored position scores the exact negation under both settings.
    fn term(fen: &str, name: &str, times: i32) {
        let base = EvalParams::default();
        let mut more = base;
        let v = more.get(name).expect("known parameter");
        more.set(name, v + 10).expect("known parameter");
        let delta = white_eval(fen, &more) - white_eval(fen, &base);
        assert_eq!(delta, 10 * times, "{name} on {fen}");
        let m = mirror(fen);
        assert_eq!(
            white_eval(&m, &base),
            -white_eval(fen, &base),
            "mirror of {fen}"
        );
        assert_eq!(
            white_eval(&m, &more),
            -white_eval(fen, &more),
            "mirror of {fen} with {name}"
        );
        // From the side to move: a position and its mirror score the same.
        assert_eq!(evaluate(&pos(&m), &more), evaluate(&pos(fen), &more));
    }

    /// White's score with the phase terms `terms` minus its score without them.
    fn phase_gain(fen: &str, terms: PhaseTerms) -> i32 {
        let p = EvalParams::default();
        let position = pos(fen);
        let mut with = Evaluator::new(p);
        with.set_phase_terms(terms);
        let white = |score: i32| match position.turn() {
            Color::White => score,
            Color::Black => -score,
        };
        white(with.evaluate(&position)) - white(evaluate(&position, &p))
    }

    const KING: PhaseTerms = PhaseTerms {
        king_placement: true,
        passed_pawn_ranks: false,
        pawn_threats: false,
        king_attack: false,
        piece_squares: false,
    };
    const PASSERS: PhaseTerms = PhaseTerms {
        king_placement: false,
        passed_pawn_ranks: true,
        pawn_threats: false,
        king_attack: false,
        piece_squares: false,
    };
    const THREATS: PhaseTerms = PhaseTerms {
        king_placement: false,
        passed_pawn_ranks: false,
        pawn_threats: true,
        king_attack: false,
        piece_squares: false,
    };
    const KING_ATTACK: PhaseTerms = PhaseTerms {
        king_placement: false,
        passed_pawn_ranks: false,
        pawn_threats: false,
        king_attack: true,
        piece_squares: false,
    };

    #[test]
    fn several_pieces_at_the_king_weigh_more_than_each_alone() {
        // White's queen on h5 hits f7 and h7 (5 each), its knight on g5 the same two squares
        // (2 each): weight 14, two attackers (32 of 64), 8 cp a unit: 56 against Black, by
        // the middle-game share (a queen, a knight and four rooks: 13 of 24).
        let two = "rr4k1/5ppp/8/6NQ/8/8/8/RR4K1 w - - 0 1";
        assert_eq!(phase_gain(two, KING_ATTACK), 56 * 13 / 24);
        assert_eq!(phase_gain(&mirror(two), KING_ATTACK), -(56 * 13 / 24));
        // The queen alone is no attack.
        let one = "rr4k1/5ppp/8/7Q/8/8/8/RR4K1 w - - 0 1";
        assert_eq!(phase_gain(one, KING_ATTACK), 0);
        // Without a queen no attack counts, whatever bears on the king.
        let no_queen = "rr4k1/5ppp/8/6NR/8/8/8/RR4K1 w - - 0 1";
        assert_eq!(phase_gain(no_queen, KING_ATTACK), 0);
    }

    #[test]
    fn pieces_attacked_by_pawns_count_against_their_side() {
        // The black pawn on e5 forks White's knight on d4 and bishop on f4: −120 for White,
        // whoever moves; the white pawn on b2 attacks nothing on a3/c3.
        let fork = "4k3/8/8/4p3/3N1B2/8/1P6/4K3 w - - 0 1";
        assert_eq!(phase_gain(fork, THREATS), -120);
        assert_eq!(phase_gain(&mirror(fork), THREATS), 120);
        // A king or a pawn attacked by a pawn is no piece threatened.
        assert_eq!(phase_gain("8/8/8/4p3/3K1P2/8/8/7k w - - 0 1", THREATS), 0);
    }

    #[test]
    fn the_king_stays_home_in_the_middle_game_and_centralises_in_the_endgame() {
        // All pieces on: White's king on e2 (2nd rank −25, e-file −15), Black's castled on g8
        // (+20): White −40 − 20 = −60, by the full middle-game weight.
        let middle = "rnbqrbkn/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w - - 0 1";
        assert_eq!(phase_gain(middle, KING), -60);
        // Pawns and kings alone: the endgame weight; e4 has centrality 3 (+45), h1 0.
        let end = "7k/pp6/8/8/4K3/8/PP6/8 w - - 0 1";
        assert_eq!(phase_gain(end, KING), 45);
        // 14 of 24 (a queen, a rook and a bishop each): the white king on d2 (−25 − 15) and
        // the black one on e8 (−15) by 14/24, and their centralities (1 and 0) by 10/24.
        let half = "r1bqk3/pppppppp/8/8/8/8/PPPKPPPP/R1BQ4 w - - 0 1";
        assert_eq!(phase_gain(half, KING), ((-40 + 15) * 14 + 15 * 10) / 24);
        for fen in [middle, end, half] {
            assert_eq!(
                phase_gain(&mirror(fen), KING),
                -phase_gain(fen, KING),
                "mirror of {fen}"
            );
        }
    }

    #[test]
    fn the_piece_square_tables_add_each_pieces_square_by_the_phase() {
        let tables = FittedTerms::shipped();
        let terms = PhaseTerms {
            piece_squares: true,
            ..PhaseTerms::default()
        };
        for fen in [
            "rnbqrbkn/pppppppp/8/8/8/8/PPPPKPPP/RNBQ1BNR w - - 0 1",
            "r1bqk3/pppppppp/8/8/8/8/PPPKPPPP/R1BQ4 b - - 0 1",
            "7k/pp6/8/8/4K3/8/PP6/8 w - - 0 1",
        ] {
            let position = pos(fen);
            let board = position.board();
            let weight = middle_game_weight(board);
            let expected = tables.score_white(board, position.turn(), weight);
            assert_eq!(phase_gain(fen, terms), expected, "{fen}");
            assert_eq!(
                phase_gain(&mirror(fen), terms),
                -phase_gain(fen, terms),
                "mirror of {fen}"
            );
        }
        // The start position is symmetric: only the side to move's tempo is left, in full
        // middle-game weight, for White and against Black.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let tempo = tables.score_white(pos(start).board(), Color::White, 24);
        assert!(tempo > 0, "the fitted tempo is {tempo}");
        assert_eq!(phase_gain(start, terms), tempo);
        let black_to_move = start.replace(" w ", " b ");
        assert_eq!(phase_gain(&black_to_move, terms), -tempo);
    }

    /// The phase terms as each side's sum, weighted term by term (the evaluator takes the
    /// pawns' and kings' terms from its cache instead): the reference for the test below.
    fn phase_terms_side_by_side(board: &Board, terms: PhaseTerms, middle: i32) -> i32 {
        let end = PHASE_FULL - middle;
        let mut total = 0;
        for (color, sign) in [(Color::White, 1), (Color::Black, -1)] {
            let own_pawns = (board.pawns() & board.by_color(color)).0;
            let enemy_pawns = (board.pawns() & board.by_color(!color)).0;
            let mut side = 0;
            if terms.king_placement {
                if let Some(k) = board.king_of(color).map(Square::to_u32) {
                    let home = KING_HOME_RANK[relative_rank(color, k) as usize]
                        + KING_HOME_FILE[(k % 8) as usize];
                    side += home * middle + KING_CENTRE_STEP * centrality(k) * end;
                }
            }
            if terms.passed_pawn_ranks {
                for s in bits(own_pawns) {
                    if is_passed_pawn(board, color, sq(s)) {
                        side += PASSED_RANK_ENDGAME[relative_rank(color, s) as usize] * end;
                    }
                }
            }
            if terms.pawn_threats {
                let attacked = pawn_attack_set(!color, enemy_pawns);
                let pieces = board.by_color(color).0 & !board.pawns().0 & !board.kings().0;
                side -= PAWN_THREAT * count(attacked & pieces) * PHASE_FULL;
            }
            if terms.king_attack {
                side -= king_attack(board, color) * middle;
            }
            total += sign * side;
        }
        total / PHASE_FULL
    }

    #[test]
    fn the_one_pass_evaluation_is_the_sum_of_its_parts_computed_apart() {
        // Positions along lines from the bench positions (captures first, to reach endings and
        // promotions), under EVOL*-like and default parameters, with every set of phase terms:
        // the evaluator's one pass over the pieces (genes and fitted terms together, both
        // phases in one word, the pawns' and kings' phase terms cached) gives the integers of
        // the parts computed one by one: the genes' evaluation, each phase term side by side,
        // the fitted terms' own scorer (whose entries the pst tests check piece by piece).
        let mut evol = EvalParams::default();
        for (name, value) in [
            ("KNIGHT_VALUE", 687),
            ("BISHOP_VALUE", 749),
            ("QUEEN_VALUE", 2044),
        ] {
            evol.set(name, value).expect("known parameter");
        }
        let mut checked = 0;
        for params in [EvalParams::default(), evol] {
            let mut evaluators: Vec<(PhaseTerms, Evaluator)> = (0..32u32)
                .map(|bits| {
                    let terms = PhaseTerms {
                        king_placement: bits & 1 != 0,
                        passed_pawn_ranks: bits & 2 != 0,
                        pawn_threats: bits & 4 != 0,
                        king_attack: bits & 8 != 0,
                        piece_squares: bits & 16 != 0,
                    };
                    let mut evaluator = Evaluator::new(params);
                    evaluator.set_phase_terms(terms);
                    (terms, evaluator)
                })
                .collect();
            for position in crate::bench::bench_lines(80) {
                let board = position.board();
                let middle = middle_game_weight(board);
                for (terms, evaluator) in &mut evaluators {
                    let mut expected = evaluate_white(board, &params)
                        + phase_terms_side_by_side(board, *terms, middle);
                    if terms.piece_squares {
                        expected +=
                            FittedTerms::shipped().score_white(board, position.turn(), middle);
                    }
                    let got = match position.turn() {
                        Color::White => evaluator.evaluate(&position),
                        Color::Black => -evaluator.evaluate(&position),
                    };
                    assert_eq!(
                        got,
                        expected,
                        "{terms:?} on {}",
                        Fen::from_position(&position, shakmaty::EnPassantMode::Legal)
                    );
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 2 * 32 * 12 * 80, "every position of every line");
    }

    #[test]
    fn both_phases_sums_are_read_back_from_one_word() {
        let entries = [(51, -25), (-19, 16), (-8, -12), (25, 0), (0, -51)];
        let (mut sum, mut middle, mut end) = (0i64, 0, 0);
        for (sign, (m, e)) in [1, -1, 1, 1, -1].into_iter().zip(entries) {
            sum += i64::from(sign) * pack_phases(m, e);
            middle += sign * m;
            end += sign * e;
        }
        assert_eq!(unpack_phases(sum), (middle, end));
        assert_eq!(unpack_phases(pack_phases(-3, -4)), (-3, -4));
        assert_eq!(
            unpack_phases(pack_phases(7, -1) - pack_phases(7, 2)),
            (0, -3)
        );
    }

    #[test]
    fn passed_pawns_gain_by_rank_as_the_pieces_come_off() {
        // A white passer on b6 (relative rank 6: 70), kings alone: the full endgame weight.
        assert_eq!(phase_gain("7k/8/1P6/8/8/8/8/K7 w - - 0 1", PASSERS), 70);
        // A black passer on its 7th rank (b2: 110) counts against White.
        assert_eq!(phase_gain("7k/8/8/8/8/8/1p6/K7 w - - 0 1", PASSERS), -110);
        // The same passer with both queens and a rook each on (12 of 24): half of it.
        assert_eq!(
            phase_gain("q2r3k/8/1P6/8/8/8/8/KR1Q4 w - - 0 1", PASSERS),
            35
        );
        // A blocked pawn facing an enemy pawn is not passed: nothing.
        assert_eq!(phase_gain("7k/8/1p6/1P6/8/8/8/K7 w - - 0 1", PASSERS), 0);
        // Off, the evaluator is the genes' evaluation exactly.
        assert_eq!(
            phase_gain("7k/8/1P6/8/8/8/8/K7 w - - 0 1", PhaseTerms::default()),
            0
        );
    }

    #[test]
    fn the_score_cache_reads_back_each_positions_own_score_and_forgets_old_terms() {
        use shakmaty::zobrist::Zobrist64;
        use shakmaty::{EnPassantMode, Position};
        let key = |pos: &shakmaty::Chess| pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let p = EvalParams::default();
        let all = PhaseTerms {
            king_placement: true,
            passed_pawn_ranks: true,
            pawn_threats: true,
            king_attack: true,
            piece_squares: true,
        };
        let mut cached = Evaluator::new(p);
        cached.set_phase_terms(all);
        let mut fresh = Evaluator::new(p);
        fresh.set_phase_terms(all);
        let mut seen = Vec::new();
        for start in crate::bench::bench_positions() {
            let mut pos = start;
            for step in 0..30usize {
                let score = fresh.evaluate(&pos);
                assert_eq!(cached.evaluate_keyed(&pos, key(&pos)), score);
                assert_eq!(cached.evaluate_keyed(&pos, key(&pos)), score, "a cache hit");
                seen.push((pos.clone(), score));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(step * 7 + 3) % moves.len()]);
            }
        }
        // Read back after all the others: each position still gets its own score.
        for (pos, score) in &seen {
            assert_eq!(cached.evaluate_keyed(pos, key(pos)), *score);
        }
        // The same position with other terms: the cache must not answer with the old score.
        let pos = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10");
        let with_all = cached.evaluate_keyed(&pos, key(&pos));
        cached.set_phase_terms(PhaseTerms::default());
        let without = cached.evaluate_keyed(&pos, key(&pos));
        assert_eq!(without, evaluate(&pos, &p), "new terms forget the cache");
        assert_ne!(with_all, without, "the terms move this position's score");
    }

    #[test]
    fn the_pawn_cache_gives_the_uncached_scores() {
        let p = EvalParams::default();
        let mut cached = Evaluator::new(p);
        let mut checked = 0;
        for start in crate::bench::bench_positions() {
            let mut pos = start;
            for step in 0..40usize {
                assert_eq!(cached.evaluate(&pos), evaluate(&pos, &p));
                assert_eq!(cached.evaluate(&pos), evaluate(&pos, &p), "a cache hit");
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(step * 5 + 1) % moves.len()]);
            }
        }
        assert!(checked > 200);
        let mut other = p;
        other.passed_pawn_mult = 40;
        cached.set_params(other);
        let pos = pos("4k3/7p/3P4/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            cached.evaluate(&pos),
            evaluate(&pos, &other),
            "new parameters forget the cache"
        );
    }

    const ALL_TERMS: [Term; TERMS] = [
        Term::PawnValue,
        Term::KnightValue,
        Term::BishopValue,
        Term::RookValue,
        Term::QueenValue,
        Term::PawnAdvanceA,
        Term::PawnAdvanceB,
        Term::PassedPawnMult,
        Term::DoubledPawnPenalty,
        Term::IsolatedPawnPenalty,
        Term::BackwardPawnPenalty,
        Term::WeakSquarePenalty,
        Term::PassedPawnEnemyKingDist,
        Term::KnightSqMult,
        Term::KnightOutpostMult,
        Term::BishopMobility,
        Term::BishopPair,
        Term::RookAttackKingFile,
        Term::RookAttackKingAdjFile,
        Term::RookAttackKingAdjFileAbgh,
        Term::Rook7thRank,
        Term::RookConnected,
        Term::RookMobility,
        Term::RookBehindPassedPawn,
        Term::RookOpenFile,
        Term::RookSemiOpenFile,
        Term::RookAtckWeakPawnOpenColumn,
        Term::RookColumnMult,
        Term::QueenMobility,
        Term::KingNoFriendlyPawn,
        Term::KingNoFriendlyPawnAdj,
        Term::KingFriendlyPawnAdvanced1,
        Term::KingNoEnemyPawn,
        Term::KingNoEnemyPawnAdj,
        Term::KingPressureMult,
    ];

    #[test]
    fn each_term_is_the_parameter_of_its_name_and_index() {
        for (i, term) in ALL_TERMS.iter().enumerate() {
            assert_eq!(*term as usize, i);
            let name = format!("{term:?}").to_ascii_uppercase();
            assert_eq!(EvalParams::DEFS[i].name.replace('_', ""), name);
        }
    }

    #[test]
    fn the_evaluation_is_the_features_dot_the_parameters() {
        let params: Vec<EvalParams> = (0..8).map(EvalParams::random).collect();
        let mut checked = 0;
        for start in crate::bench::bench_positions() {
            let mut pos = start;
            for step in 0..40usize {
                let x = features(pos.board());
                for p in std::iter::once(EvalParams::default()).chain(params.iter().copied()) {
                    assert_eq!(dot(&x, &p.to_array()), evaluate_white(pos.board(), &p));
                }
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(step * 7 + 2) % moves.len()]);
            }
        }
        assert!(checked > 200);
        // A hand-counted vector: a lone white knight on b1 (centrality 0) against a bare king.
        let x = features(pos("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1").board());
        let mut expected = [0; TERMS];
        expected[Term::KnightValue as usize] = 1;
        assert_eq!(x, expected);
    }

    #[test]
    fn start_position_is_level() {
        assert_eq!(
            evaluate(&shakmaty::Chess::default(), &EvalParams::default()),
            0
        );
    }

    #[test]
    fn material_terms() {
        term("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "KNIGHT_VALUE", 1);
        term("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "BISHOP_VALUE", 2);
        term("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "ROOK_VALUE", 1);
        term("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "QUEEN_VALUE", 1);
    }

    #[test]
    fn pawn_advance_centre_and_wing() {
        // e4 (2 ranks advanced, centre); h3 (1 rank, wing); black pawn a7 (0).
        term("4k3/p7/8/8/4P3/7P/8/4K3 w - - 0 1", "PAWN_ADVANCE_A", 2);
        term("4k3/p7/8/8/4P3/7P/8/4K3 w - - 0 1", "PAWN_ADVANCE_B", 1);
    }

    #[test]
    fn passed_pawns() {
        // White d6 passed (rank index 5); black h7 passed (index 1): 5 - 1.
        term("4k3/7p/3P4/8/8/8/8/4K3 w - - 0 1", "PASSED_PAWN_MULT", 4);
        // d8 promotion square to black king e8: 1; h1 to white king a1: 7. 1 - 7.
        term(
            "4k3/7p/3P4/8/8/8/8/K7 w - - 0 1",
            "PASSED_PAWN_ENEMY_KING_DIST",
            -6,
        );
    }

    #[test]
    fn doubled_isolated_backward() {
        // White c2 c3 doubled (and isolated both); black pawns a7 b7 normal.
        term(
            "4k3/pp6/8/8/8/2P5/2P5/4K3 w - - 0 1",
            "DOUBLED_PAWN_PENALTY",
            -1,
        );
        term(
            "4k3/pp6/8/8/8/2P5/2P5/4K3 w - - 0 1",
            "ISOLATED_PAWN_PENALTY",
            -2,
        );
        // White d3 is backward: its only neighbour (e4) is ahead and black's c5 attacks d4.
        term(
            "4k3/8/8/2p5/4P3/3P4/8/4K3 w - - 0 1",
            "BACKWARD_PAWN_PENALTY",
            -1,
        );
    }

    #[test]
    fn weak_squares() {
        // White's only pawn, e4, can attack d5-d8 and f5-f8 but no square of ranks 3-4: 16 holes.
        // Black's pawns a7-h7 can still attack every square of ranks 6 and 5: no hole.
        term(
            "4k3/pppppppp/8/8/4P3/8/8/4K3 w - - 0 1",
            "WEAK_SQUARE_PENALTY",
            -16,
        );
    }

    #[test]
    fn knight_centralisation_and_outpost() {
        // Knight e5 (centrality 3), guarded by d4, no black pawn on d/f files ahead.
        let fen = "4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1";
        term(fen, "KNIGHT_SQ_MULT", 3);
        term(fen, "KNIGHT_OUTPOST_MULT", 4);
        // A black pawn on f7 can chase it: no outpost.
        term(
            "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1",
            "KNIGHT_OUTPOST_MULT",
            0,
        );
    }

    #[test]
    fn bishop_mobility_and_pair() {
        // Bishop a1 on an empty long diagonal, king h1 out of the way: b2..h8 = 7 squares.
        term("k7/8/8/8/8/8/8/B6K w - - 0 1", "BISHOP_MOBILITY", 7);
        term("k7/8/8/8/8/8/8/BB5K w - - 0 1", "BISHOP_PAIR", 1);
    }

    #[test]
    fn rook_files_and_king_files() {
        // Rook e1 on the black king's file, open file.
        let fen = "4k3/8/8/8/8/8/8/K3R3 b - - 0 1";
        term(fen, "ROOK_ATTACK_KING_FILE", 1);
        term(fen, "ROOK_OPEN_FILE", 1);
        term(fen, "ROOK_COLUMN_MULT", 3);
        // Rook f1 next to a king on e8 (centre) and rook h1 next to a king on g8 (wing).
        term(
            "4k3/8/8/8/8/8/8/K4R2 w - - 0 1",
            "ROOK_ATTACK_KING_ADJ_FILE",
            1,
        );
        term(
            "6k1/8/8/8/8/8/8/K6R w - - 0 1",
            "ROOK_ATTACK_KING_ADJ_FILE_ABGH",
            1,
        );
        // Rook d1 on a file with an isolated black d-pawn: semi-open, weak pawn.
        let fen = "k7/8/3p4/8/8/8/8/3R3K w - - 0 1";
        term(fen, "ROOK_SEMI_OPEN_FILE", 1);
        term(fen, "ROOK_ATCK_WEAK_PAWN_OPEN_COLUMN", 1);
    }

    #[test]
    fn rook_mobility_seventh_connected_behind_passer() {
        // Rook a1 with White's king on h1: a2-a8 (7) and b1-g1 (6).
        term("7k/8/8/8/8/8/8/R6K w - - 0 1", "ROOK_MOBILITY", 13);
        term("7k/R7/8/8/8/8/8/7K w - - 0 1", "ROOK_7TH_RANK", 1);
        term("7k/8/8/8/8/8/8/R2R3K w - - 0 1", "ROOK_CONNECTED", 1);
        term(
            "7k/8/8/8/P7/8/8/R6K w - - 0 1",
            "ROOK_BEHIND_PASSED_PAWN",
            1,
        );
    }

    #[test]
    fn queen_mobility() {
        // Queen a1: a2-a8 (7), b1-g1 (6; h1 is White's king), b2-h8 (7; the enemy king counts).
        term("7k/8/8/8/8/8/8/Q6K b - - 0 1", "QUEEN_MOBILITY", 20);
    }

    #[test]
    fn king_shelter_terms() {
        // Black queen on the board. White king g1, pawns f2 g3 (advanced one), no h pawn.
        // Black pawns on f7 g7 only (no enemy pawn on the h-file).
        let fen = "q3k3/5pp1/8/8/8/6P1/5P2/6K1 w - - 0 1";
        term(fen, "KING_NO_FRIENDLY_PAWN", 0);
        term(fen, "KING_NO_FRIENDLY_PAWN_ADJ", -1);
        term(fen, "KING_FRIENDLY_PAWN_ADVANCED1", -1);
        term(fen, "KING_NO_ENEMY_PAWN", 0);
        term(fen, "KING_NO_ENEMY_PAWN_ADJ", -1);
        // Without a black queen the shelter is not scored.
        term(
            "4k3/5pp1/8/8/8/6P1/5P2/6K1 w - - 0 1",
            "KING_NO_FRIENDLY_PAWN_ADJ",
            0,
        );
    }

    #[test]
    fn king_pressure() {
        // The zone of a black king on g8 is f8 g8 h8 f7 g7 h7; a rook on g1 attacks g7 and g8.
        term("6k1/8/8/8/8/8/8/K5R1 b - - 0 1", "KING_PRESSURE_MULT", 2);
    }
}
