//! The search: iterative deepening negamax alpha-beta with principal-variation search,
//! quiescence, a transposition table, move ordering (hash move, MVV-LVA, killers, history),
//! and the selective methods of Table I of David, Koppel and Netanyahu's evolution paper.
//!
//! Depth is kept in fractional units, [`ONE_PLY`] = 4 per ply (the paper, section IV), so
//! extensions of 1–4 units extend by quarter plies. How each Table I parameter acts:
//!
//! - **Null move** (`NULL_MOVE_USE`, `_REDUCTION` R, `_USE_ADAPTIVITY`, `_ADAPTIVITY_DEPTH`):
//!   at a non-PV node not in check, with a piece other than pawns and king, whose static
//!   score is at least beta, with at least two plies left, the side to move passes and the
//!   opponent's reply is searched with the depth reduced by one ply plus R plies, null
//!   window; a score at or above beta prunes the node. With adaptivity, R is one ply less at
//!   depths up to the adaptivity depth (Heinz's adaptive null move).
//! - **Mate threat** (`MATE_THREAT_EXTENSION`): when that null-move search finds the side to
//!   move mated, every move of the node is extended.
//! - **Futility** (`FUTILITY_DEPTH`, three thresholds): at a non-PV node not in check with
//!   `d` ≤ `FUTILITY_DEPTH` plies left, once one move has been searched, a quiet move that
//!   gives no check and is not extended is skipped when static score + threshold(d) ≤ alpha
//!   (futility, extended futility and razoring margins of Heinz).
//! - **Multi-cut** (`MULTI_CUT_USE`, `_REDUCTION` R, `_DEPTH`, `_MOVE_NUM` M, `_CUT_NUM` C):
//!   at an expected cut node with at least `MULTI_CUT_DEPTH` plies left, the first M moves are
//!   searched with the depth reduced by one ply plus R plies; if C of them fail high the node
//!   returns beta (Björnsson and Marsland).
//! - **Extensions**, in units: a move giving check (`CHECK_EXTENSION`); the only legal reply
//!   to a check (`ONE_REPLY_EXTENSION`); a capture on the square of the previous move's
//!   capture (`RECAPTURE_EXTENSION`); a passed pawn moving to its 6th or 7th rank
//!   (`PASSED_PAWN_EXTENSION`). The sum is capped at one ply per move.
//!
//! Standard techniques the paper does not name run beside these as fixed code (not genes),
//! each kept because a match showed it gains (docs/evolution.md gives the figures) and each
//! switchable through [`Techniques`] to measure it again:
//!
//! - **Late move reductions**: a quiet move searched late at a node with at least three
//!   plies left, neither giving nor escaping check, not a killer and not extended, is first
//!   searched with the depth reduced by `0.75 + ln(depth)·ln(move number)/2.25` plies (one
//!   less at PV nodes; the formula of Stockfish 8 and Ethereal's family), and searched again
//!   at full depth if it beats alpha.
//! - **Aspiration windows**: from the fifth iteration the root is searched in a window of
//!   ±25 centipawns around the previous score, widened fourfold on each failure.
//! - **Static exchange evaluation** ([`crate::see`]): the quiescence search skips captures
//!   that lose material, and the main search tries losing captures after the quiet moves.
//! - **Reverse futility pruning**: at a non-PV node not in check within `FUTILITY_DEPTH`
//!   plies of the horizon, a static score at least the futility margin above beta fails high
//!   (the genes' margins, used the other way round).
//! - **Late move pruning**: at a non-PV node not in check with at most three plies left,
//!   quiet moves after the first 3 + 2·plies² are not searched.
//! - **Phase terms of the evaluation** ([`PhaseTerms`]): the king kept home in the middle
//!   game and centralised in the endgame, and passed pawns worth more by rank as the pieces
//!   come off, blended by the pieces left.
//! - **Extensions where they pay**: the recapture extension (`RECAPTURE_EXTENSION`) at PV
//!   nodes only, and the check extension (`CHECK_EXTENSION`) only for a check that loses
//!   nothing by static exchange: the genes, evolved for nodes to a tactical solution, extend
//!   every recapture and every check a full ply, which more than doubles the tree.
//! - **Quiet pruning**: at a non-PV node not in check within five plies of the horizon, once
//!   one move has been searched, a quiet move that gives no check and is not extended is
//!   skipped when the static score plus a pawn a ply left beyond the first cannot reach
//!   alpha, and within three plies when it loses more than 60 centipawns times the plies left
//!   squared by static exchange (the genes' own futility margins are 7–10 pawns).
//! - **The table in the quiescence search**: a quiescence node whose stored bound settles its
//!   window ends there, as a main-search node does.
//! - **The hash move kept**: a node where no move beats alpha stores the hash move it had, not
//!   the move with the highest fail-low bound.
//! - **Improving**: a node whose static score did not rise since the side to move's previous
//!   move (two plies up, four when that node was in check) searches half the late moves
//!   before late move pruning and reduces its late moves a ply more.
//!
//! Others are there to be measured, off by default (their matches did not show a gain), among
//! them **internal iterative reduction** (a PV or expected cut node with four plies or more
//! left and no hash move is searched a ply shallower), **cut-node reductions** (late move
//! reductions a ply deeper at expected cut nodes), **pawn threats** (pieces attacked by
//! enemy pawns count against their side), the **static null move** (reverse futility with
//! a fixed margin of 90 centipawns a ply up to six plies, where the genes' margins, evolved on
//! tactical positions, are 7–10 pawns), **wide reductions** (late move reductions two plies
//! from the horizon and for captures that lose by static exchange) and the **table's score**
//! standing in for the static score when its bound says the truth lies beyond it, and
//! **continuation history** (a quiet move ordered also by how it fared after the same
//! piece-to-square move one and two plies before).

use crate::evaluate::{is_passed_pawn, Evaluator, PhaseTerms};
pub use crate::score::{mate_in, MATE, MATE_BOUND};
use crate::see;
use crate::tt::{pack_move, pack_squares, Bound, TranspositionTable};
use crate::{EvalParams, Limits, SearchParams, ONE_PLY};
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, Color, EnPassantMode, Move, MoveList, Position, Role, Square};
use std::time::Instant;

/// The deepest iteration and the longest line searched.
pub const MAX_DEPTH: u32 = 100;
/// The longest line searched, quiescence included.
pub(crate) const MAX_PLY: usize = 128;
/// Above every score.
pub(crate) const INFINITY: i32 = MATE + 1;

/// What the search reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Why this report: a new best move at the root, or an iteration completed.
    pub event: InfoEvent,
    /// The iteration (plies).
    pub depth: u32,
    /// The score of the best move, from the side to move (centipawns or mate scores).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// The best move so far.
    pub best_move: Move,
    /// The principal variation (only for [`InfoEvent::Iteration`]).
    pub pv: Vec<Move>,
}

/// The kinds of [`SearchInfo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoEvent {
    /// The best move at the root changed.
    NewBest,
    /// An iteration completed.
    Iteration,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the position has no legal move.
    pub best_move: Option<Move>,
    /// Its score from the side to move (of the last completed iteration).
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Counters of what the selective methods did, for tests and tuning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Null-move searches that pruned their node.
    pub null_cutoffs: u64,
    /// Moves skipped by futility pruning.
    pub futility_prunes: u64,
    /// Nodes pruned by multi-cut.
    pub multi_cuts: u64,
    /// Moves searched with an extension.
    pub extended_moves: u64,
    /// Quiet moves skipped by late move pruning.
    pub late_move_prunes: u64,
    /// Moves searched first by a reduced null-window search (late move reductions).
    pub reduced_moves: u64,
    /// Nodes whose hash move, searched before the other moves were generated, cut off:
    /// nodes that never generated or ordered their moves.
    pub hash_move_cutoffs: u64,
}

/// The fixed techniques beside the paper's genes (see the module doc): on by default those a
/// match showed to gain; internal iterative reduction and cut-node reductions are there to be
/// measured again (their match did not settle: docs/evolution.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Late move reductions.
    pub late_move_reductions: bool,
    /// Aspiration windows at the root.
    pub aspiration_windows: bool,
    /// Static exchange evaluation in the quiescence search and move ordering.
    pub static_exchange: bool,
    /// Reverse futility pruning with the futility genes' margins.
    pub reverse_futility: bool,
    /// Late move pruning of quiet moves in the last three plies.
    pub late_move_pruning: bool,
    /// The king's placement by the game's phase ([`PhaseTerms::king_placement`]).
    pub king_placement: bool,
    /// Passed pawns' endgame bonus by rank ([`PhaseTerms::passed_pawn_ranks`]).
    pub passed_pawn_ranks: bool,
    /// Pieces attacked by enemy pawns ([`PhaseTerms::pawn_threats`]).
    pub pawn_threats: bool,
    /// Internal iterative reduction: a PV or expected cut node with four plies or more left
    /// and no hash move is searched a ply shallower.
    pub internal_iterative_reduction: bool,
    /// Late move reductions one ply deeper at expected cut nodes.
    pub cut_node_reductions: bool,
    /// Static null move: reverse futility with a fixed margin of [`STATIC_NULL_MARGIN`] a
    /// ply up to [`STATIC_NULL_DEPTH`] plies, where `reverse_futility` reads the genes'.
    pub static_null_move: bool,
    /// Several pieces attacking the king's surroundings at once ([`PhaseTerms::king_attack`]).
    pub king_attack: bool,
    /// The null move's reduction grows with the depth left, a ply more every
    /// [`NULL_DEPTH_STEP`] plies, beside the genes' fixed reduction (a reduction that also
    /// grew with the static score's lead over beta lost the mates of the tests).
    pub null_move_depth: bool,
    /// History with a malus and gravity: a quiet move's cutoff also counts against the quiet
    /// moves searched before it, and each update pulls the score toward its bound
    /// [`HISTORY_MAX`], so old lessons fade.
    pub history_malus: bool,
    /// The countermove heuristic: the quiet move that last refuted the opponent's previous
    /// move (by its squares) is tried right after the killers.
    pub countermoves: bool,
    /// Singular extensions: a hash move that a reduced search of every other move cannot
    /// come near (by [`SINGULAR_MARGIN`] a ply) is searched a ply deeper.
    pub singular_extensions: bool,
    /// Late move reductions by history: a ply less for a quiet move whose history score is
    /// above [`HISTORY_REDUCTION_STEP`], a ply more for one below its negative (with
    /// [`Techniques::history_malus`], which gives history its sign).
    pub history_reductions: bool,
    /// The fitted piece-square, mobility and tempo terms ([`PhaseTerms::piece_squares`]).
    pub piece_squares: bool,
    /// Quiescence checks: at the horizon's first quiescence node, after the captures, the
    /// quiet moves that give check directly and lose nothing by static exchange are searched
    /// too (the reply to such a check searches every evasion).
    pub quiescence_checks: bool,
    /// The recapture extension (`RECAPTURE_EXTENSION`) at PV nodes only, where an exchange
    /// decides the line's score; elsewhere a recapture is searched at its depth.
    pub pv_recaptures: bool,
    /// The check extension (`CHECK_EXTENSION`) only for a check that loses nothing by static
    /// exchange: a check that hangs its piece is answered by taking it, and extending it
    /// only searches the loss deeper.
    pub safe_check_extensions: bool,
    /// The quiescence search reads the transposition table: a stored bound that settles the
    /// node's window ends it, as in the main search (the 1-ply fitness never does).
    pub quiescence_hash: bool,
    /// A node where no move beats alpha keeps the hash move it had rather than storing the
    /// move with the highest fail-low bound, which says nothing of the move's worth.
    pub keep_hash_move: bool,
    /// Quiet moves pruned near the horizon by a futility margin of a pawn a ply left beyond
    /// the first ([`QUIET_FUTILITY_DEPTH`] plies at most), and those that lose material by
    /// static exchange beyond [`QUIET_SEE_MARGIN`] times the plies left squared: the
    /// genes' futility margins, evolved on tactical positions, are 7–10 pawns.
    pub quiet_pruning: bool,
    /// Whether the side to move's static score rose since its previous move (two plies up,
    /// four when that node was in check) decides how hard a node prunes: a node that is not
    /// improving searches half the late moves before late move pruning and reduces its late
    /// moves a ply more.
    pub improving: bool,
    /// Late move reductions two plies from the horizon too (three before), and for captures
    /// that lose material by static exchange as well as quiet moves.
    pub wide_reductions: bool,
    /// The static score of a node is corrected by its stored search score when that score's
    /// bound says the truth lies beyond it, before the pruning that reads it (reverse
    /// futility, the null move, futility, quiet pruning).
    pub table_eval: bool,
    /// A node's hash move is searched before its other moves are generated and ordered, so a
    /// node where it cuts off never generates them (when it does not, the others are ordered
    /// by the history its search left). Off in check, at the root, in a singular test and
    /// with multi-cut, where all moves come first. Off: 2,000 games of self-play at 50 ms a
    /// move measured +2.4 ± 11.3 Elo, no gain shown (docs/evolution.md).
    pub hash_move_first: bool,
    /// Continuation history: a quiet move is also ordered by how it fared after the same
    /// piece-to-square move one and two plies before (each table kept with the malus and
    /// gravity of [`Techniques::history_malus`]).
    pub continuation_history: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            late_move_reductions: true,
            aspiration_windows: true,
            static_exchange: true,
            reverse_futility: true,
            late_move_pruning: true,
            king_placement: true,
            passed_pawn_ranks: true,
            pawn_threats: false,
            internal_iterative_reduction: false,
            cut_node_reductions: false,
            static_null_move: false,
            king_attack: false,
            null_move_depth: false,
            history_malus: true,
            countermoves: false,
            singular_extensions: false,
            history_reductions: false,
            piece_squares: true,
            quiescence_checks: false,
            pv_recaptures: true,
            safe_check_extensions: true,
            quiescence_hash: true,
            keep_hash_move: true,
            quiet_pruning: true,
            improving: true,
            wide_reductions: false,
            table_eval: false,
            hash_move_first: false,
            continuation_history: false,
        }
    }
}

impl Techniques {
    /// Every technique off: the search as the paper describes it.
    #[must_use]
    pub const fn none() -> Techniques {
        Techniques {
            late_move_reductions: false,
            aspiration_windows: false,
            static_exchange: false,
            reverse_futility: false,
            late_move_pruning: false,
            king_placement: false,
            passed_pawn_ranks: false,
            pawn_threats: false,
            internal_iterative_reduction: false,
            cut_node_reductions: false,
            static_null_move: false,
            king_attack: false,
            null_move_depth: false,
            history_malus: false,
            countermoves: false,
            singular_extensions: false,
            history_reductions: false,
            piece_squares: false,
            quiescence_checks: false,
            pv_recaptures: false,
            safe_check_extensions: false,
            quiescence_hash: false,
            keep_hash_move: false,
            quiet_pruning: false,
            improving: false,
            wide_reductions: false,
            table_eval: false,
            hash_move_first: false,
            continuation_history: false,
        }
    }
}

/// A technique's switch in a [`Techniques`].
type Switch = fn(&mut Techniques) -> &mut bool;

/// Each technique: its short name in an `evol` spec's `techniques=` list, its UCI option in
/// `eloworld-engine`, and its switch.
const TECHNIQUE_NAMES: [(&str, &str, Switch); 29] = [
    ("lmr", "LateMoveReductions", |t| &mut t.late_move_reductions),
    ("asp", "AspirationWindows", |t| &mut t.aspiration_windows),
    ("see", "StaticExchange", |t| &mut t.static_exchange),
    ("rfp", "ReverseFutility", |t| &mut t.reverse_futility),
    ("lmp", "LateMovePruning", |t| &mut t.late_move_pruning),
    ("king", "KingPlacement", |t| &mut t.king_placement),
    ("passers", "PassedPawnRanks", |t| &mut t.passed_pawn_ranks),
    ("threats", "PawnThreats", |t| &mut t.pawn_threats),
    ("iir", "InternalIterativeReduction", |t| {
        &mut t.internal_iterative_reduction
    }),
    ("cutnode", "CutNodeReductions", |t| {
        &mut t.cut_node_reductions
    }),
    ("snmp", "StaticNullMove", |t| &mut t.static_null_move),
    ("kingattack", "KingAttack", |t| &mut t.king_attack),
    ("nulldepth", "NullMoveDepth", |t| &mut t.null_move_depth),
    ("malus", "HistoryMalus", |t| &mut t.history_malus),
    ("counter", "Countermoves", |t| &mut t.countermoves),
    ("singular", "SingularExtensions", |t| {
        &mut t.singular_extensions
    }),
    ("histlmr", "HistoryReductions", |t| {
        &mut t.history_reductions
    }),
    ("pst", "PieceSquareTables", |t| &mut t.piece_squares),
    ("qchecks", "QuiescenceChecks", |t| &mut t.quiescence_checks),
    ("pvrecap", "PvRecaptures", |t| &mut t.pv_recaptures),
    ("safechecks", "SafeCheckExtensions", |t| {
        &mut t.safe_check_extensions
    }),
    ("qhash", "QuiescenceHash", |t| &mut t.quiescence_hash),
    ("keepmove", "KeepHashMove", |t| &mut t.keep_hash_move),
    ("quietprune", "QuietPruning", |t| &mut t.quiet_pruning),
    ("improving", "Improving", |t| &mut t.improving),
    ("widelmr", "WideReductions", |t| &mut t.wide_reductions),
    ("tteval", "TableEval", |t| &mut t.table_eval),
    ("hashfirst", "HashMoveFirst", |t| &mut t.hash_move_first),
    ("conthist", "ContinuationHistory", |t| {
        &mut t.continuation_history
    }),
];

impl Techniques {
    /// Reads a technique set: `all`, `paper` (none), or short names joined by `+`
    /// (`lmr+asp+see+rfp+lmp`: the five of the first re-run). `None` for an unknown name.
    #[must_use]
    pub fn from_names(text: &str) -> Option<Techniques> {
        match text {
            "all" => return Some(Techniques::default()),
            "paper" => return Some(Techniques::none()),
            _ => {}
        }
        let mut t = Techniques::none();
        for name in text.split('+') {
            let (_, _, switch) = TECHNIQUE_NAMES.iter().find(|(n, _, _)| *n == name)?;
            *switch(&mut t) = true;
        }
        Some(t)
    }

    /// The set's names joined by `+` (`paper` for none), which [`Techniques::from_names`]
    /// reads back.
    #[must_use]
    pub fn names(&self) -> String {
        let mut copy = *self;
        let on: Vec<&str> = TECHNIQUE_NAMES
            .iter()
            .filter(|(_, _, switch)| *switch(&mut copy))
            .map(|(n, _, _)| *n)
            .collect();
        if on.is_empty() {
            "paper".to_owned()
        } else {
            on.join("+")
        }
    }

    /// Every short name [`Techniques::from_names`] knows, in order.
    pub fn known_names() -> impl Iterator<Item = &'static str> {
        TECHNIQUE_NAMES.iter().map(|(n, _, _)| *n)
    }

    /// Each technique's UCI option name with its value in this set.
    pub fn uci_options(&self) -> impl Iterator<Item = (&'static str, bool)> {
        let mut copy = *self;
        TECHNIQUE_NAMES
            .iter()
            .map(move |(_, option, switch)| (*option, *switch(&mut copy)))
    }

    /// The switch the UCI option `option` sets, if it names a technique.
    pub fn uci_switch(&mut self, option: &str) -> Option<&mut bool> {
        let (_, _, switch) = TECHNIQUE_NAMES.iter().find(|(_, o, _)| *o == option)?;
        Some(switch(self))
    }
}

/// The static null move's margin a ply left, centipawns.
const STATIC_NULL_MARGIN: i32 = 90;
/// The static null move's deepest node, plies left.
const STATIC_NULL_DEPTH: i32 = 6;
/// With [`Techniques::null_move_depth`]: plies left for each extra ply of null-move reduction.
const NULL_DEPTH_STEP: i32 = 4;
/// With [`Techniques::singular_extensions`]: the shallowest node tested, plies left.
const SINGULAR_DEPTH: i32 = 8;
/// With [`Techniques::singular_extensions`]: how far below the hash move's score, in
/// centipawns a ply left, every other move must stay.
const SINGULAR_MARGIN: i32 = 3;
/// With [`Techniques::history_malus`]: the bound of a history score, either sign.
const HISTORY_MAX: i32 = 1 << 14;
/// With [`Techniques::history_reductions`]: the history score, either sign, past which a
/// quiet move is reduced a ply less or more (a 64th of [`HISTORY_MAX`]: cutoffs add plies²).
const HISTORY_REDUCTION_STEP: i32 = HISTORY_MAX / 64;

/// With [`Techniques::quiet_pruning`]: the deepest node whose quiet moves futility prunes,
/// plies left.
const QUIET_FUTILITY_DEPTH: i32 = 5;
/// With [`Techniques::quiet_pruning`]: the deepest node whose losing quiet moves are pruned,
/// plies left.
const QUIET_SEE_DEPTH: i32 = 3;
/// With [`Techniques::quiet_pruning`]: a quiet move is pruned when it loses more than this
/// times the plies left squared by static exchange, centipawns.
const QUIET_SEE_MARGIN: i32 = 60;

/// The aspiration window's first half-width, centipawns.
const ASPIRATION_WINDOW: i32 = 25;
/// The first iteration searched with an aspiration window.
const ASPIRATION_DEPTH: u32 = 5;

/// Returns the late-move reduction in whole plies for `plies_left` and the move's number
/// (from 1), before the PV adjustment: `0.75 + ln(plies)·ln(number)/2.25`.
fn late_move_reduction(plies_left: i32, move_number: usize) -> i32 {
    if plies_left < 1 || move_number < 2 {
        return 0;
    }
    let r = 0.75 + f64::from(plies_left).ln() * (move_number as f64).ln() / 2.25;
    r as i32
}

/// Returns how many moves a node with `plies_left` (1–3) searches before late move pruning
/// skips its remaining quiet moves: 3 + 2·plies² (5, 11, 21), half that at a node that is not
/// improving ([`Techniques::improving`]).
const fn late_move_count(plies_left: i32, improving: bool) -> usize {
    let count = (3 + 2 * plies_left * plies_left) as usize;
    if improving {
        count
    } else {
        count / 2
    }
}

/// A parametric engine: evaluation and search parameters, and the tables kept across
/// searches (transposition table, history, killers). One engine searches one game.
#[derive(Clone, Debug)]
pub struct Engine {
    /// The evaluation parameters (the paper's Fig. 3).
    pub eval: EvalParams,
    /// The search parameters (the paper's Table I).
    pub search: SearchParams,
    /// The fixed techniques beside the genes.
    pub techniques: Techniques,
    tt: TranspositionTable,
    evaluator: Evaluator,
    history: Box<[[[i32; 64]; 64]; 2]>,
    killers: Box<[[Option<Move>; 2]; MAX_PLY]>,
    /// The refutation of each move by its from and to squares, packed (0: none).
    countermoves: Box<[[u16; 64]; 64]>,
    /// Continuation history ([`Techniques::continuation_history`]): a row per earlier move's
    /// piece and destination ([`piece_to`]), a column per quiet move's, and a last row of
    /// zeros for no earlier move ([`NO_PIECE_TO`]).
    continuation: Box<[i16]>,
    /// Whether a search wrote to `continuation` since it was last cleared (with the technique
    /// off nothing does, and [`Engine::clear`] leaves its 1.2 MB alone).
    continuation_written: bool,
    stats: SearchStats,
}

impl Engine {
    /// Creates an engine with a transposition table of `tt_megabytes` MiB.
    #[must_use]
    pub fn new(eval: EvalParams, search: SearchParams, tt_megabytes: usize) -> Engine {
        Engine::with_table(eval, search, TranspositionTable::new(tt_megabytes))
    }

    /// Creates an engine around a given transposition table.
    #[must_use]
    pub fn with_table(eval: EvalParams, search: SearchParams, tt: TranspositionTable) -> Engine {
        Engine {
            eval,
            search,
            techniques: Techniques::default(),
            tt,
            evaluator: Evaluator::new(eval),
            history: Box::new([[[0; 64]; 64]; 2]),
            killers: Box::new([[None; 2]; MAX_PLY]),
            countermoves: Box::new([[0; 64]; 64]),
            continuation: vec![0; (NO_PIECE_TO + 1) * NO_PIECE_TO].into_boxed_slice(),
            continuation_written: false,
            stats: SearchStats::default(),
        }
    }

    /// Forgets everything learnt (a new game or a new test position): the transposition
    /// table, history, killers and statistics.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.evaluator = Evaluator::new(self.eval);
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                row.fill(0);
            }
        }
        self.killers.fill([None; 2]);
        for row in self.countermoves.iter_mut() {
            row.fill(0);
        }
        if self.continuation_written {
            self.continuation.fill(0);
            self.continuation_written = false;
        }
        self.stats = SearchStats::default();
    }

    /// Returns what the selective methods did since the last [`Engine::clear`].
    #[must_use]
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Searches `pos` within `limits`.
    ///
    /// `game_keys` are the Zobrist keys (shakmaty's `Zobrist64`, legal en passant) of the
    /// game's earlier positions, oldest first, for repetition detection; the root position
    /// itself need not be included. `report` is called on every new best move at the root
    /// and after every completed iteration.
    pub fn search(
        &mut self,
        pos: &Chess,
        game_keys: &[u64],
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.evaluator.set_params(self.eval);
        self.evaluator.set_phase_terms(PhaseTerms {
            king_placement: self.techniques.king_placement,
            passed_pawn_ranks: self.techniques.passed_pawn_ranks,
            pawn_threats: self.techniques.pawn_threats,
            king_attack: self.techniques.king_attack,
            piece_squares: self.techniques.piece_squares,
        });
        let see_in_quiescence = self.techniques.static_exchange;
        let hash_in_quiescence = self.techniques.quiescence_hash;
        let mut s = Searcher::new(self, limits, report);
        s.see_in_quiescence = see_in_quiescence;
        s.hash_in_quiescence = hash_in_quiescence;
        s.keys.reserve(game_keys.len() + MAX_PLY + 1);
        s.keys.extend_from_slice(game_keys);
        s.run(pos)
    }

    /// Picks a move by a 1-ply search (David, Koppel and Netanyahu, section III.B: the grandmaster-imitation
    /// fitness): every legal move is played and the resulting position scored by the static
    /// evaluation, or by quiescence when `quiescence` is set. Ties go to the first move in
    /// shakmaty's move order. Returns the move, its score and the evaluations made.
    pub fn best_move_1ply(&mut self, pos: &Chess, quiescence: bool) -> Option<(Move, i32, u64)> {
        self.evaluator.set_params(self.eval);
        self.evaluator.set_phase_terms(PhaseTerms::default());
        let limits = Limits::infinite();
        let mut sink = |_: &SearchInfo| {};
        let mut s = Searcher::new(self, &limits, &mut sink);
        let mut best: Option<(Move, i32)> = None;
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = if child.is_checkmate() {
                MATE - 1
            } else if quiescence {
                // Only whether a move beats the best so far matters: search with that bound.
                let bound = best.map_or(-INFINITY, |(_, b)| b);
                -s.quiesce(&child, key_of(&child), -INFINITY, -bound, 1, false)
            } else {
                s.nodes += 1;
                -s.engine.evaluator.evaluate(&child)
            };
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((m, score));
            }
        }
        best.map(|(m, score)| (m, score, s.nodes))
    }
}

/// The state of one search.
struct Searcher<'a> {
    engine: &'a mut Engine,
    limits: &'a Limits,
    start: Instant,
    nodes: u64,
    stopped: bool,
    /// Keys of the game's positions then of the current line, for repetitions.
    keys: Vec<u64>,
    root_best: Option<Move>,
    root_score: i32,
    depth: u32,
    report: &'a mut dyn FnMut(&SearchInfo),
    /// Move-ordering scores per ply (kept to avoid clearing an array at every node).
    order: Vec<[i32; 256]>,
    /// Whether the quiescence search skips captures that lose by static exchange
    /// ([`Techniques::static_exchange`]; never in the 1-ply search of the imitation fitness,
    /// which the paper defines on its plain quiescence).
    see_in_quiescence: bool,
    /// Whether the quiescence search reads the transposition table
    /// ([`Techniques::quiescence_hash`]; never in the 1-ply search of the imitation fitness).
    hash_in_quiescence: bool,
    /// The move that led to each ply (`None` at the root and after a null move), for the
    /// countermove heuristic and the continuation history.
    line: Vec<Option<LineMove>>,
    /// The move a singular-extension test leaves out at each ply, packed (0: none).
    excluded: Vec<u16>,
    /// Each ply's static score on the current line ([`NO_EVAL`] in check), for
    /// [`Techniques::improving`].
    evals: Vec<i32>,
}

impl<'a> Searcher<'a> {
    /// A searcher with nothing searched yet, an empty line at every ply and the quiescence
    /// search plain (no static exchange, no table: what [`Engine::search`] turns on).
    fn new(
        engine: &'a mut Engine,
        limits: &'a Limits,
        report: &'a mut dyn FnMut(&SearchInfo),
    ) -> Searcher<'a> {
        Searcher {
            engine,
            limits,
            start: Instant::now(),
            nodes: 0,
            stopped: false,
            keys: Vec::new(),
            root_best: None,
            root_score: -INFINITY,
            depth: 0,
            report,
            order: vec![[0; 256]; MAX_PLY + 1],
            see_in_quiescence: false,
            hash_in_quiescence: false,
            line: vec![None; MAX_PLY + 2],
            excluded: vec![0; MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 1],
        }
    }
}

/// A move as the line and the history tables know it: its from and to squares (the
/// countermove's and the history's index) and its piece's row and column in the continuation
/// history ([`piece_to`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct LineMove {
    squares: (u8, u8),
    piece_to: u16,
}

impl LineMove {
    /// `m`, played by `turn`.
    #[inline]
    fn of(turn: Color, m: Move) -> LineMove {
        LineMove {
            squares: squares(m),
            piece_to: piece_to(turn, m.role(), m.to()) as u16,
        }
    }
}

/// An `evals` entry of a node in check, which has no static score.
const NO_EVAL: i32 = i32::MIN;

/// Returns the legal move of `pos` that `packed` ([`pack_move`]) names, if there is one (a
/// table entry may come from another position with the same key's slot and tag).
fn legal_packed_move(pos: &Chess, packed: u16) -> Option<Move> {
    let from = Square::new(u32::from(packed & 63));
    let to = Square::new(u32::from(packed >> 6 & 63));
    let tag = packed >> 12;
    let board = pos.board();
    let m = if tag == 15 {
        Move::Castle {
            king: from,
            rook: to,
        }
    } else {
        let piece = board.piece_at(from).filter(|p| p.color == pos.turn())?;
        let capture = board.role_at(to);
        if piece.role == Role::Pawn && capture.is_none() && from.file() != to.file() {
            if tag != 0 {
                return None;
            }
            Move::EnPassant { from, to }
        } else {
            Move::Normal {
                role: piece.role,
                from,
                capture,
                to,
                promotion: if tag == 0 {
                    None
                } else {
                    Some(Role::try_from(tag).ok()?)
                },
            }
        }
    };
    pos.is_legal(m).then_some(m)
}

/// Returns the key of a position.
fn key_of(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Returns the key of `pos` (whose key is `key`) after a null move: the side to move
/// changed and the en passant square, when a capture could take it, gone (what `swap_turn`
/// makes of the position), without hashing the board again.
#[inline]
fn null_move_key(pos: &Chess, key: u64) -> u64 {
    let mut k = Zobrist64(key);
    k ^= Zobrist64::zobrist_for_white_turn();
    if let Some(square) = pos.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(square.file());
    }
    k.0
}

/// Returns the key of `pos` (whose key is `key`) after `m` when it can be read from the move
/// alone (shakmaty's incremental update: not for king moves, double steps, moves that change
/// castling rights, or from a position with an en passant square).
#[inline]
fn incremental_key(pos: &Chess, key: u64, m: Move) -> Option<u64> {
    pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
        .map(|k| k.0)
}

/// Returns the key after playing `m` (incremental when shakmaty can).
#[inline]
fn key_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    incremental_key(pos, key, m).unwrap_or_else(|| key_of(child))
}

fn role_value(r: Role) -> i32 {
    match r {
        Role::Pawn => 1,
        Role::Knight => 3,
        Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 10,
    }
}

pub(crate) fn material_value(r: Role, p: &EvalParams) -> i32 {
    match r {
        Role::Pawn => p.pawn_value,
        Role::Knight => p.knight_value,
        Role::Bishop => p.bishop_value,
        Role::Rook => p.rook_value,
        Role::Queen => p.queen_value,
        Role::King => 0,
    }
}

/// Returns whether the side to move has a piece other than pawns and king.
fn has_pieces(pos: &Chess) -> bool {
    let b = pos.board();
    (b.by_color(pos.turn()) & !b.pawns() & !b.kings()).any()
}

impl Searcher<'_> {
    /// Returns whether a limit was reached (and remembers it).
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    self.stopped = true;
                }
            }
            if self.limits.stop_requested() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Returns [`incremental_key`] of `pos` after `m` and asks memory for that child's table
    /// entry and cached score before the position is copied and the move played, so that the
    /// copy, the move and the child's first steps hide the loads its probes would wait for
    /// (Stockfish's prefetch in `do_move`). `None`: the child's key is [`key_of`] the child.
    #[inline(always)]
    fn prefetch_child(&self, pos: &Chess, key: u64, m: Move) -> Option<u64> {
        let child_key = incremental_key(pos, key, m)?;
        self.engine.tt.prefetch(child_key);
        self.engine.evaluator.prefetch(child_key);
        Some(child_key)
    }

    fn run(&mut self, pos: &Chess) -> SearchResult {
        let root_moves = pos.legal_moves();
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            result.score = if pos.is_check() { -MATE } else { 0 };
            return result;
        }
        let root_key = key_of(pos);
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        result.best_move = Some(root_moves[0]);
        for depth in 1..=max_depth {
            self.depth = depth;
            let score = self.root_search(pos, root_key, depth, result.score);
            if self.stopped {
                // A move that beat the previous best within the unfinished iteration is kept.
                if let Some(m) = self.root_best {
                    result.best_move = Some(m);
                }
                break;
            }
            result.score = score;
            result.depth = depth;
            result.best_move = self.root_best;
            result.pv = self.principal_variation(pos, root_key);
            if let Some(best) = self.root_best {
                (self.report)(&SearchInfo {
                    event: InfoEvent::Iteration,
                    depth,
                    score,
                    nodes: self.nodes,
                    best_move: best,
                    pv: result.pv.clone(),
                });
            }
            if score.abs() >= MATE_BOUND
                && mate_in(score).is_some_and(|n| (2 * n.unsigned_abs()) < depth)
            {
                break; // a mate found with depth to spare will not change
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// Searches one iteration at the root, in an aspiration window around `previous` (the
    /// last iteration's score) when [`Techniques::aspiration_windows`] is on.
    fn root_search(&mut self, pos: &Chess, root_key: u64, depth: u32, previous: i32) -> i32 {
        let full = |s: &mut Self, alpha: i32, beta: i32| {
            s.root_score = -INFINITY;
            s.negamax(
                pos,
                root_key,
                depth as i32 * ONE_PLY,
                alpha,
                beta,
                0,
                true,
                false,
                None,
            )
        };
        if !self.engine.techniques.aspiration_windows
            || depth < ASPIRATION_DEPTH
            || previous.abs() >= MATE_BOUND
        {
            return full(self, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_WINDOW;
        let mut alpha = previous - delta;
        let mut beta = previous + delta;
        loop {
            let score = full(self, alpha, beta);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 4;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Follows hash moves from the root.
    fn principal_variation(&self, pos: &Chess, key: u64) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut p = pos.clone();
        let mut k = key;
        if let Some(m) = self.root_best {
            pv.push(m);
            let mut child = p.clone();
            child.play_unchecked(m);
            k = key_after(&p, k, m, &child);
            p = child;
        }
        while pv.len() < 32 {
            let Some(hit) = self.engine.tt.probe(k, 0) else {
                break;
            };
            let Some(m) = legal_packed_move(&p, hit.packed_move) else {
                break;
            };
            pv.push(m);
            let mut child = p.clone();
            child.play_unchecked(m);
            k = key_after(&p, k, m, &child);
            p = child;
        }
        pv
    }

    fn is_repetition(&self, key: u64, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let back = (halfmoves as usize).min(n);
        // Same side to move: two, four, … plies back.
        let mut i = 2;
        while i <= back {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Orders moves: hash move, winning and equal captures and promotions by MVV-LVA,
    /// killers, the countermove (with [`Techniques::countermoves`]), quiet moves by history,
    /// then (with [`Techniques::static_exchange`]) the captures that lose material by static
    /// exchange.
    fn move_scores(&mut self, pos: &Chess, moves: &MoveList, hash_move: u16, ply: usize) {
        let countermove = self.countermove(ply);
        let [row1, row2] = self.continuation_rows(ply);
        let scores = &mut self.order[ply];
        let turn = pos.turn();
        let side = usize::from(turn == Color::White);
        let table = &self.engine.continuation;
        let (before1, before2) = (
            &table[row1 * NO_PIECE_TO..][..NO_PIECE_TO],
            &table[row2 * NO_PIECE_TO..][..NO_PIECE_TO],
        );
        let killers = self.engine.killers[ply.min(MAX_PLY - 1)];
        let killer_keys = killers.map(|k| k.map_or(u32::MAX, move_key));
        let use_see = self.engine.techniques.static_exchange;
        let history = &self.engine.history[side];
        // A quiet move's score by its packed word, its key, its squares and its piece's column
        // in the continuation history: the hash move, the killers, the countermove, then its
        // history and continuation history.
        let quiet = |packed: u16, key: u32, from: usize, to: usize, column: usize| {
            if hash_move != 0 && packed == hash_move {
                HASH_MOVE
            } else if key == killer_keys[0] {
                KILLER
            } else if key == killer_keys[1] {
                KILLER - 1
            } else if countermove != 0 && packed == countermove {
                COUNTERMOVE
            } else {
                (history[from][to] + i32::from(before1[column]) + i32::from(before2[column]))
                    .clamp(LOSING_CAPTURE + 256, HISTORY_CAP)
            }
        };
        for (i, &m) in moves.iter().enumerate() {
            // Most moves are quiet piece moves, read with one look at the move.
            let score = if let Some((role, from, to)) = quiet_piece_move(m) {
                quiet(
                    pack_squares(from, to, 0),
                    quiet_move_key(role, from, to),
                    from as usize,
                    to as usize,
                    piece_to(turn, role, to),
                )
            } else if hash_move != 0 && pack_move(m) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = m.capture() {
                if use_see && m.promotion().is_none() && see::loses_material(pos, m) {
                    LOSING_CAPTURE + mvv_lva(m, victim)
                } else {
                    GOOD_CAPTURE + mvv_lva(m, victim)
                }
            } else if let Some(promo) = m.promotion() {
                PROMOTION + role_value(promo)
            } else {
                // Castling, the one quiet move that is not a piece's plain move.
                let (from, to) = squares(m);
                quiet(
                    pack_move(m),
                    move_key(m),
                    usize::from(from),
                    usize::from(to),
                    piece_to(turn, m.role(), m.to()),
                )
            };
            scores[i] = order_key(score, i);
        }
    }

    /// The continuation history's rows for a node at `ply`: those of the moves one and two
    /// plies before it ([`NO_PIECE_TO`], the row of zeros, for none or the technique off).
    fn continuation_rows(&self, ply: usize) -> [usize; 2] {
        if !self.engine.techniques.continuation_history {
            return [NO_PIECE_TO; 2];
        }
        let row = |p: Option<usize>| {
            p.and_then(|p| *self.line.get(p)?)
                .map_or(NO_PIECE_TO, |l| usize::from(l.piece_to))
        };
        [row(Some(ply)), row(ply.checked_sub(1))]
    }

    /// The countermove to the move that led to `ply`, packed (0: none, or the technique off).
    fn countermove(&self, ply: usize) -> u16 {
        if !self.engine.techniques.countermoves {
            return 0;
        }
        self.line[ply].map_or(0, |earlier| {
            let (from, to) = earlier.squares;
            self.engine.countermoves[usize::from(from)][usize::from(to)]
        })
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "the classical negamax signature; a struct would hide it"
    )]
    fn negamax(
        &mut self,
        pos: &Chess,
        key: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
        capture_square: Option<Square>,
    ) -> i32 {
        if depth < ONE_PLY || ply >= MAX_PLY - 1 {
            let checks = self.engine.techniques.quiescence_checks;
            return self.quiesce(pos, key, alpha, beta, ply, checks);
        }
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let root = ply == 0;
        if !root {
            if pos.halfmoves() >= 100
                || self.is_repetition(key, pos.halfmoves())
                || pos.is_insufficient_material()
            {
                return 0;
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer the root.
            let ply_i = ply as i32;
            let alpha2 = alpha.max(-MATE + ply_i);
            let beta2 = beta.min(MATE - ply_i - 1);
            if alpha2 >= beta2 {
                return alpha2;
            }
        }
        let ply_i = ply as i32;
        let tt_hit = self.engine.tt.probe(key, ply_i);
        let mut hash_move = tt_hit.map_or(0, |h| h.packed_move);
        // A singular-extension test searches this node without its hash move.
        let excluded = if root { 0 } else { self.excluded[ply] };
        // Cutoffs that end a node early (hash, futility, null move) are for nodes off the
        // principal variation, and never for a singular-extension test of this node.
        let may_cut = !is_pv && excluded == 0;
        if root {
            hash_move = self.root_best.map_or(hash_move, pack_move);
        } else if let Some(h) = tt_hit {
            if may_cut && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }

        let in_check = pos.is_check();
        // Internal iterative reduction: with no hash move to try first, a node that matters
        // is searched a ply shallower (its order is poor; the next iteration has the move).
        let mut depth = depth;
        if self.engine.techniques.internal_iterative_reduction
            && !root
            && excluded == 0
            && hash_move == 0
            && (is_pv || cut_node)
            && depth >= 4 * ONE_PLY
        {
            depth -= ONE_PLY;
        }
        let sp = self.engine.search;
        let plies_left = depth / ONE_PLY;
        let techniques = self.engine.techniques;
        let raw_eval = if in_check || (is_pv && !techniques.improving) {
            0
        } else {
            self.engine.evaluator.evaluate_keyed(pos, key)
        };
        let mut improving = true;
        if techniques.improving {
            self.evals[ply] = if in_check { NO_EVAL } else { raw_eval };
            let earlier = |back: usize| {
                ply.checked_sub(back)
                    .map(|p| self.evals[p])
                    .filter(|&e| e != NO_EVAL)
            };
            improving = !in_check
                && earlier(2)
                    .or_else(|| earlier(4))
                    .is_none_or(|before| raw_eval > before);
        }
        // The static score corrected by the table's bound (with `table_eval`).
        let static_eval = match tt_hit {
            Some(h)
                if techniques.table_eval
                    && !in_check
                    && excluded == 0
                    && h.score.abs() < MATE_BOUND
                    && match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.score > raw_eval,
                        Bound::Upper => h.score < raw_eval,
                    } =>
            {
                h.score
            }
            _ => raw_eval,
        };

        // Reverse futility: a node whose static score beats beta by the futility margin of
        // its depth fails high at once (Heinz's margins, the genes, read the other way).
        if self.engine.techniques.reverse_futility
            && may_cut
            && !in_check
            && plies_left <= sp.futility_depth
            && beta.abs() < MATE_BOUND
            && static_eval - sp.futility_margin(plies_left) >= beta
        {
            return static_eval;
        }

        // Static null move: the same with a fixed margin a ply, deeper.
        if self.engine.techniques.static_null_move
            && may_cut
            && !in_check
            && plies_left <= STATIC_NULL_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - STATIC_NULL_MARGIN * plies_left >= beta
        {
            return static_eval;
        }

        // Null move (Table I: use, reduction, adaptivity, adaptivity depth) and mate threats.
        let mut mate_threat = false;
        if sp.null_move_use == 1
            && may_cut
            && !in_check
            && depth >= 2 * ONE_PLY
            && static_eval >= beta
            && has_pieces(pos)
        {
            let mut r = sp.null_move_reduction;
            if sp.null_move_use_adaptivity == 1 && plies_left <= sp.null_move_adaptivity_depth {
                r = (r - 1).max(0);
            }
            if self.engine.techniques.null_move_depth {
                r += plies_left / NULL_DEPTH_STEP;
            }
            if let Ok(passed) = pos.clone().swap_turn() {
                self.line[ply + 1] = None;
                let null_key = null_move_key(pos, key);
                debug_assert_eq!(null_key, key_of(&passed), "the null move's key");
                self.keys.push(key);
                let score = -self.negamax(
                    &passed,
                    null_key,
                    depth - ONE_PLY - r * ONE_PLY,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                    None,
                );
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    self.engine.stats.null_cutoffs += 1;
                    return if score >= MATE_BOUND { beta } else { score };
                }
                if score <= -MATE_BOUND {
                    mate_threat = true;
                }
            }
        }

        // Singular extensions: every other move searched shallower, below the hash move's
        // score by a margin; if none reaches it, the hash move alone holds the node.
        let mut singular = false;
        if self.engine.techniques.singular_extensions
            && !root
            && excluded == 0
            && hash_move != 0
            && plies_left >= SINGULAR_DEPTH
        {
            if let Some(h) = tt_hit.filter(|h| {
                h.bound != Bound::Upper
                    && h.depth >= depth - 3 * ONE_PLY
                    && h.score.abs() < MATE_BOUND
            }) {
                let singular_beta = h.score - SINGULAR_MARGIN * plies_left;
                self.excluded[ply] = hash_move;
                let score = self.negamax(
                    pos,
                    key,
                    (depth - ONE_PLY) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                    cut_node,
                    capture_square,
                );
                self.excluded[ply] = 0;
                if self.stopped {
                    return 0;
                }
                singular = score < singular_beta;
            }
        }

        // The hash move first, before the other moves are generated and ordered: at a node
        // where it cuts off they never are (`hash_move_first`). In check (every reply counts
        // for the one-reply extension), at the root, in a singular test and with multi-cut,
        // all come first.
        let mut first = None;
        if techniques.hash_move_first
            && !root
            && !in_check
            && excluded == 0
            && hash_move != 0
            && sp.multi_cut_use != 1
        {
            first = legal_packed_move(pos, hash_move);
        }
        let mut generated = first.is_none();
        let mut moves = MoveList::new();
        if generated {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return if in_check { -MATE + ply_i } else { 0 };
            }
            self.move_scores(pos, &moves, hash_move, ply);
        }
        let side = usize::from(pos.turn() == Color::White);

        // Multi-cut (Table I: use, reduction, depth, move num, cut num).
        if sp.multi_cut_use == 1
            && excluded == 0
            && cut_node
            && !is_pv
            && !in_check
            && plies_left >= sp.multi_cut_depth
            && sp.multi_cut_cut_num > 0
        {
            let reduced = depth - ONE_PLY - sp.multi_cut_reduction * ONE_PLY;
            let mut cuts = 0;
            let saved = self.order[ply];
            let tried = (sp.multi_cut_move_num as usize).min(moves.len());
            self.keys.push(key);
            for _ in 0..tried {
                let i = pick_best(&mut self.order[ply], moves.len());
                let m = moves[i];
                let child_key = self.prefetch_child(pos, key, m);
                let mut child = pos.clone();
                child.play_unchecked(m);
                let child_key = child_key.unwrap_or_else(|| key_of(&child));
                self.line[ply + 1] = Some(LineMove::of(pos.turn(), m));
                let score = -self.negamax(
                    &child,
                    child_key,
                    reduced,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    false,
                    None,
                );
                if self.stopped {
                    self.keys.pop();
                    return 0;
                }
                if score >= beta {
                    cuts += 1;
                    if cuts >= sp.multi_cut_cut_num {
                        self.keys.pop();
                        self.engine.stats.multi_cuts += 1;
                        return beta;
                    }
                }
            }
            self.keys.pop();
            self.order[ply] = saved;
        }

        let futility = sp.futility_depth > 0
            && !is_pv
            && !in_check
            && plies_left <= sp.futility_depth
            && static_eval + sp.futility_margin(plies_left) <= alpha;

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move: Option<Move> = None;
        // The quiet moves searched here (from and to squares), for the history malus.
        let mut quiets_tried = [LineMove::default(); 64];
        let mut quiet_count = 0;
        self.keys.push(key);
        // Moves taken from the generated list, and moves taken in all.
        let (mut picked, mut taken) = (0, 0);
        loop {
            let m = if let Some(m) = first.take() {
                m
            } else {
                if !generated {
                    // The hash move did not cut: the rest, in order, the hash move (first in
                    // the order) left out.
                    generated = true;
                    moves = pos.legal_moves();
                    self.move_scores(pos, &moves, hash_move, ply);
                    let searched_first = pick_best(&mut self.order[ply], moves.len());
                    debug_assert_eq!(pack_move(moves[searched_first]), hash_move);
                    picked = 1;
                }
                if picked >= moves.len() {
                    break;
                }
                picked += 1;
                moves[pick_best(&mut self.order[ply], moves.len())]
            };
            // How many moves came before this one.
            let searched = taken;
            taken += 1;
            if excluded != 0 && pack_move(m) == excluded {
                continue;
            }
            let child_key = self.prefetch_child(pos, key, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();
            let quiet = !m.is_capture() && !m.is_promotion();

            let mut ext = 0;
            if singular && pack_move(m) == hash_move {
                ext += ONE_PLY;
            }
            if gives_check
                && !(self.engine.techniques.safe_check_extensions
                    && sp.check_extension > 0
                    && see::loses_material(pos, m))
            {
                ext += sp.check_extension;
            }
            if in_check && moves.len() == 1 {
                ext += sp.one_reply_extension;
            }
            if m.is_capture()
                && capture_square == Some(m.to())
                && (is_pv || !self.engine.techniques.pv_recaptures)
            {
                ext += sp.recapture_extension;
            }
            if m.role() == Role::Pawn && sp.passed_pawn_extension > 0 {
                let to = m.to();
                let rel = if pos.turn() == Color::White {
                    u32::from(to.rank())
                } else {
                    7 - u32::from(to.rank())
                };
                if rel >= 5 && is_passed_pawn(pos.board(), pos.turn(), to) {
                    ext += sp.passed_pawn_extension;
                }
            }
            if mate_threat {
                ext += sp.mate_threat_extension;
            }
            let ext = ext.min(ONE_PLY);
            if ext > 0 {
                self.engine.stats.extended_moves += 1;
            }

            if self.engine.techniques.late_move_pruning
                && !is_pv
                && !in_check
                && plies_left <= 3
                && best_move.is_some()
                && quiet
                && !gives_check
                && ext == 0
                && searched >= late_move_count(plies_left, improving)
            {
                self.engine.stats.late_move_prunes += 1;
                continue;
            }
            if futility && searched > 0 && quiet && !gives_check && ext == 0 {
                self.engine.stats.futility_prunes += 1;
                continue;
            }
            // Quiet pruning: near the horizon, a quiet move that cannot lift the static score
            // to alpha within a pawn a ply, or that loses material by static exchange.
            if self.engine.techniques.quiet_pruning
                && !is_pv
                && !in_check
                && best_move.is_some()
                && quiet
                && !gives_check
                && ext == 0
                && best_score > -MATE_BOUND
            {
                let pawn = self.engine.eval.pawn_value;
                if plies_left <= QUIET_FUTILITY_DEPTH
                    && static_eval + pawn * (plies_left + 1) <= alpha
                {
                    self.engine.stats.futility_prunes += 1;
                    continue;
                }
                if plies_left <= QUIET_SEE_DEPTH
                    && see::see(pos, m) < -QUIET_SEE_MARGIN * plies_left * plies_left
                {
                    continue;
                }
            }

            let line_move = LineMove::of(pos.turn(), m);
            let move_squares = line_move.squares;
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = line_move;
                quiet_count += 1;
            }
            let child_key = child_key.unwrap_or_else(|| key_of(&child));
            self.line[ply + 1] = Some(line_move);
            let new_depth = depth - ONE_PLY + ext;
            let recapture_square = if m.is_capture() { Some(m.to()) } else { None };
            // Late move reductions: a reduced null-window search first; a move that beats
            // alpha there is searched as usual below.
            let mut reduced_fails_low = false;
            let wide = techniques.wide_reductions;
            if techniques.late_move_reductions
                && best_move.is_some()
                && plies_left >= 3 - i32::from(wide)
                && (quiet
                    || (wide
                        && m.is_capture()
                        && m.promotion().is_none()
                        && see::loses_material(pos, m)))
                && !in_check
                && !gives_check
                && ext == 0
                && !self.engine.killers[ply].contains(&Some(m))
            {
                let mut r = late_move_reduction(plies_left, searched + 1) - i32::from(is_pv)
                    + i32::from(cut_node && techniques.cut_node_reductions)
                    + i32::from(!improving);
                if techniques.history_reductions {
                    let (from, to) = move_squares;
                    let h = self.engine.history[side][usize::from(from)][usize::from(to)];
                    r -= i32::from(h > HISTORY_REDUCTION_STEP)
                        - i32::from(h < -HISTORY_REDUCTION_STEP);
                }
                if r > 0 {
                    self.engine.stats.reduced_moves += 1;
                    let reduced = (new_depth - r * ONE_PLY).max(ONE_PLY);
                    let s = -self.negamax(
                        &child,
                        child_key,
                        reduced,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        true,
                        recapture_square,
                    );
                    if self.stopped {
                        self.keys.pop();
                        return 0;
                    }
                    if s <= alpha {
                        reduced_fails_low = true;
                        if s > best_score {
                            best_score = s;
                        }
                    }
                }
            }
            if reduced_fails_low {
                continue;
            }
            let score = if best_move.is_none() {
                -self.negamax(
                    &child,
                    child_key,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    is_pv,
                    !is_pv && !cut_node,
                    recapture_square,
                )
            } else {
                let s = -self.negamax(
                    &child,
                    child_key,
                    new_depth,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                    recapture_square,
                );
                if s > alpha && s < beta && is_pv && !self.stopped {
                    -self.negamax(
                        &child,
                        child_key,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        false,
                        recapture_square,
                    )
                } else {
                    s
                }
            };
            if self.stopped {
                self.keys.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if root && score > alpha && score > self.root_score {
                    self.root_score = score;
                    if self.root_best != Some(m) {
                        self.root_best = Some(m);
                        (self.report)(&SearchInfo {
                            event: InfoEvent::NewBest,
                            depth: self.depth,
                            score,
                            nodes: self.nodes,
                            best_move: m,
                            pv: Vec::new(),
                        });
                    }
                }
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if !generated {
                            self.engine.stats.hash_move_cutoffs += 1;
                        }
                        if quiet {
                            let k = &mut self.engine.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            if self.engine.techniques.countermoves {
                                if let Some(earlier) = self.line[ply] {
                                    let (f, t) = earlier.squares;
                                    self.engine.countermoves[usize::from(f)][usize::from(t)] =
                                        pack_move(m);
                                }
                            }
                            let (from, to) =
                                (usize::from(move_squares.0), usize::from(move_squares.1));
                            let bonus = plies_left * plies_left;
                            // The quiet moves searched before the one that cut off.
                            let before_cut = || {
                                quiets_tried[..quiet_count]
                                    .iter()
                                    .filter(|tried| tried.squares != move_squares)
                            };
                            if self.engine.techniques.history_malus {
                                let table = &mut self.engine.history[side];
                                history_gravity(&mut table[from][to], bonus);
                                for &LineMove {
                                    squares: (f, t), ..
                                } in before_cut()
                                {
                                    history_gravity(&mut table[f as usize][t as usize], -bonus);
                                }
                            } else {
                                let h = &mut self.engine.history[side][from][to];
                                *h = (*h + bonus).min(HISTORY_CAP);
                            }
                            if self.engine.techniques.continuation_history {
                                let rows = self.continuation_rows(ply);
                                self.engine.continuation_written = true;
                                let table = &mut self.engine.continuation;
                                for row in rows.into_iter().filter(|&r| r != NO_PIECE_TO) {
                                    let row = &mut table[row * NO_PIECE_TO..][..NO_PIECE_TO];
                                    continuation_gravity(
                                        &mut row[usize::from(line_move.piece_to)],
                                        bonus,
                                    );
                                    for tried in before_cut() {
                                        continuation_gravity(
                                            &mut row[usize::from(tried.piece_to)],
                                            -bonus,
                                        );
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        if best_move.is_none() {
            // Every move was pruned by futility: the node fails low at its static bound.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded == 0 {
            let packed = if bound == Bound::Upper && self.engine.techniques.keep_hash_move {
                hash_move
            } else {
                best_move.map_or(0, pack_move)
            };
            self.engine
                .tt
                .store(key, packed, best_score, depth, bound, ply_i);
        }
        best_score
    }

    /// Searches captures and promotions until the position is quiet (all moves when in check),
    /// and with `checks` the quiet checks of [`Techniques::quiescence_checks`] after them.
    fn quiesce(
        &mut self,
        pos: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        let ply_i = ply as i32;
        if self.hash_in_quiescence {
            if let Some(h) = self.engine.tt.probe(key, ply_i) {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }
        let in_check = pos.is_check();
        let mut best;
        // Filled in place: a move list returned by value is a kilobyte copied at each node.
        let mut moves = MoveList::new();
        if in_check {
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply_i;
            }
            best = -INFINITY;
        } else {
            let stand_pat = self.engine.evaluator.evaluate_keyed(pos, key);
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            add_quiescence_moves(pos, &mut moves);
            let p = &self.engine.eval;
            moves.retain(|m| passes_delta(stand_pat, delta_gain(m, p), alpha));
        }
        let use_see = self.see_in_quiescence;
        let slot = ply.min(MAX_PLY);
        for (i, m) in moves.iter().enumerate() {
            self.order[slot][i] = order_key(quiescence_order(m), i);
        }
        // The captures in order, then (with `checks`, once no capture has cut) the quiet checks
        // that lose nothing by static exchange.
        let mut quiet: Option<MoveList> = None;
        let (mut taken, mut next_check) = (0, 0);
        loop {
            let m = if taken < moves.len() {
                taken += 1;
                let m = moves[pick_best(&mut self.order[slot], moves.len())];
                // Static exchange only for the captures reached (a cutoff ends the rest).
                if use_see && !in_check && see::loses_material(pos, m) {
                    continue;
                }
                m
            } else if checks && !in_check {
                let list = quiet.get_or_insert_with(|| quiet_checks(pos));
                let Some(&m) = list.get(next_check) else {
                    break;
                };
                next_check += 1;
                if see::loses_material(pos, m) {
                    continue;
                }
                m
            } else {
                break;
            };
            let child_key = self.prefetch_child(pos, key, m);
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = child_key.unwrap_or_else(|| key_of(&child));
            let score = -self.quiesce(&child, child_key, -beta, -alpha, ply + 1, false);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The moves the quiescence search tries in a position not in check: the captures (see
/// `movegen`) and the quiet promotions to a queen.
pub(crate) fn quiescence_moves(pos: &Chess) -> MoveList {
    let mut tactical = MoveList::new();
    add_quiescence_moves(pos, &mut tactical);
    tactical
}

/// Adds [`quiescence_moves`] to `tactical`.
fn add_quiescence_moves(pos: &Chess, tactical: &mut MoveList) {
    crate::movegen::captures(pos, tactical);
    let seventh = if pos.turn() == Color::White {
        0x00FF_0000_0000_0000u64
    } else {
        0xFF00
    };
    if (pos.board().pawns() & pos.board().by_color(pos.turn())).0 & seventh != 0 {
        for m in pos.promotion_moves() {
            if !m.is_capture() && m.promotion() == Some(Role::Queen) {
                tactical.push(m);
            }
        }
    }
}

/// The legal quiet moves of `pos` (no capture, no promotion, no castling) that give check
/// directly: a piece moved to a square from which it attacks the enemy king (discovered
/// checks are not looked for).
pub(crate) fn quiet_checks(pos: &Chess) -> MoveList {
    let mut out = MoveList::new();
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return out;
    };
    // A piece of ours attacks the king from the squares that the same piece of theirs would
    // attack from the king's square.
    let occupied = board.occupied();
    let checking = |role: Role| shakmaty::attacks::attacks(king, role.of(!us), occupied);
    for m in pos.legal_moves() {
        if matches!(
            m,
            Move::Normal {
                capture: None,
                promotion: None,
                ..
            }
        ) && checking(m.role()).contains(m.to())
        {
            out.push(m);
        }
    }
    out
}

/// The material a capture or promotion wins, for delta pruning.
#[inline]
pub(crate) fn delta_gain(m: &Move, p: &EvalParams) -> i32 {
    m.capture().map_or(0, |r| material_value(r, p))
        + m.promotion()
            .map_or(0, |r| material_value(r, p) - p.pawn_value)
}

/// Delta pruning: a capture that cannot lift the static score near alpha is skipped.
#[inline]
pub(crate) const fn passes_delta(stand_pat: i32, gain: i32, alpha: i32) -> bool {
    stand_pat + gain + 200 > alpha
}

/// The quiescence search's move order: most valuable victim, then least valuable attacker,
/// promotions first among equals; the highest first, ties in generation order.
#[inline]
pub(crate) fn quiescence_order(m: &Move) -> i32 {
    m.capture().map_or(0, role_value) * 16 - role_value(m.role())
        + m.promotion().map_or(0, role_value) * 8
}

/// A move as one number, a different one for each move (the killers' comparison): a quiet
/// piece move's is [`quiet_move_key`].
#[inline]
fn move_key(m: Move) -> u32 {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            quiet_move_key(role, from, to)
                | capture.map_or(0, |r| r as u32) << 15
                | promotion.map_or(0, |r| r as u32) << 18
        }
        Move::EnPassant { from, to } => 1 << 24 | from as u32 | (to as u32) << 6,
        Move::Castle { king, rook } => 2 << 24 | king as u32 | (rook as u32) << 6,
        Move::Put { role, to } => 3 << 24 | role as u32 | (to as u32) << 6,
    }
}

/// The role and squares of a quiet piece move: a normal move with no capture and no
/// promotion (castling, en passant and the rest are `None`).
#[inline(always)]
const fn quiet_piece_move(m: Move) -> Option<(Role, Square, Square)> {
    match m {
        Move::Normal {
            role,
            from,
            capture: None,
            to,
            promotion: None,
        } => Some((role, from, to)),
        _ => None,
    }
}

/// [`move_key`] of a normal move with no capture and no promotion.
#[inline(always)]
const fn quiet_move_key(role: Role, from: Square, to: Square) -> u32 {
    role as u32 | (from as u32) << 3 | (to as u32) << 9
}

/// A move's from and to squares (a drop's from is a1: there are none in chess).
#[inline]
fn squares(m: Move) -> (u8, u8) {
    (m.from().map_or(0, |s| s as u8), m.to() as u8)
}

/// Moves a history score by `bonus` and pulls it toward zero in proportion to its size, so
/// it stays within ±[`HISTORY_MAX`] and recent cutoffs weigh more than old ones.
#[inline]
fn history_gravity(score: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *score += bonus - *score * bonus.abs() / HISTORY_MAX;
}

/// [`history_gravity`] on a continuation history's entry, which stays within ±[`HISTORY_MAX`]
/// (an `i16`).
#[inline]
fn continuation_gravity(entry: &mut i16, bonus: i32) {
    let mut score = i32::from(*entry);
    history_gravity(&mut score, bonus);
    *entry = score as i16;
}

/// The continuation history's row or column of a piece of `colour` and `role` arriving on
/// `to`: `(colour·6 + role − 1)·64 + to`, below [`NO_PIECE_TO`].
#[inline]
fn piece_to(colour: Color, role: Role, to: Square) -> usize {
    let colour = usize::from(colour == Color::Black);
    (colour * 6 + role as usize - 1) * 64 + to as usize
}

/// The continuation history's row count less one: its last row, all zeros, stands for no
/// earlier move.
const NO_PIECE_TO: usize = 12 * 64;
// A continuation history's entry fits an `i16`.
const _: () = assert!(HISTORY_MAX <= i16::MAX as i32);

/// A move's place in an order: its score above its index, so that the largest key is the
/// highest score and, among equal scores, the earliest move (`order_key(s, i)` keeps every
/// score's order for scores within ±2²³, which the order's bands stay inside).
#[inline]
const fn order_key(score: i32, index: usize) -> i32 {
    (score << 8) | (255 - (index & 255)) as i32
}

/// Returns the index of the highest score among the first `n` keys (the earliest of equals)
/// and marks it taken.
#[inline]
fn pick_best(keys: &mut [i32; 256], n: usize) -> usize {
    // One pass for the largest key, which the compiler vectorises: the index is in the key
    // (picking was about a twentieth of the engine's time with a pass for the score and
    // another for its place).
    let keys = &mut keys[..n];
    let best_key = keys.iter().copied().max().unwrap_or(i32::MIN);
    let best = 255 - (best_key & 255) as usize;
    if let Some(k) = keys.get_mut(best) {
        *k = i32::MIN;
    }
    best
}

/// The most a quiet move's history reaches: [`HISTORY_MAX`] with the history malus, `1 << 20`
/// without it (the cutoffs' bonuses only add up, to that cap).
const HISTORY_CAP: i32 = 1 << 20;
/// The order's score of the hash move, above every other.
const HASH_MOVE: i32 = HISTORY_CAP + 1024;
/// The base of a capture's score while it is not known to lose material (above promotions,
/// killers and quiet moves; most valuable victim, then least valuable attacker adds 0–169).
const GOOD_CAPTURE: i32 = HISTORY_CAP + 256;
/// The base of a quiet promotion's score (its piece's worth adds 1–9).
const PROMOTION: i32 = HISTORY_CAP + 16;
/// The first killer's score (the second's one less).
const KILLER: i32 = HISTORY_CAP + 3;
/// The countermove's score, above every history.
const COUNTERMOVE: i32 = HISTORY_CAP + 1;
/// The base of a capture's score once it is known to lose material by static exchange (below
/// every quiet move's history, which the malus keeps above −[`HISTORY_MAX`]).
const LOSING_CAPTURE: i32 = -2 * HISTORY_CAP;
// Every score of the order fits an `order_key` (within ±2²³).
const _: () = assert!(HASH_MOVE < 1 << 23 && LOSING_CAPTURE > -(1 << 23));

/// Most valuable victim, then least valuable attacker (a capturing promotion adds its piece).
#[inline]
fn mvv_lva(m: Move, victim: Role) -> i32 {
    role_value(victim) * 16 - role_value(m.role()) + m.promotion().map_or(0, role_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position of a FEN the test knows to be legal.
    fn test_position(fen: &str) -> Chess {
        use shakmaty::fen::Fen;
        use shakmaty::CastlingMode;
        fen.parse::<Fen>()
            .expect("a FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn a_childs_key_read_from_the_move_is_the_key_of_the_child() {
        // Along the bench positions' lines (castling, en passant, promotions and king moves
        // among them), every legal move's key taken before it is played, where shakmaty can,
        // is the played child's own; where it cannot, the search hashes the child.
        let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
        let limits = Limits::infinite();
        let mut sink = |_: &SearchInfo| {};
        let s = Searcher::new(&mut engine, &limits, &mut sink);
        let (mut read, mut hashed) = (0, 0);
        for pos in crate::bench::bench_lines(40) {
            let key = key_of(&pos);
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                match s.prefetch_child(&pos, key, m) {
                    Some(k) => {
                        assert_eq!(k, key_of(&child), "{m:?} from {:?}", pos.board());
                        read += 1;
                    }
                    None => hashed += 1,
                }
            }
        }
        assert!(read > hashed, "{read} keys read, {hashed} hashed");
    }

    #[test]
    fn the_null_moves_key_is_the_key_of_the_position_with_the_turn_passed() {
        // En passant that a pawn can take (f6 after f7f5 beside e5), a double step no pawn can
        // take (the key then has no en passant file), castling rights, both sides to move.
        for fen in [
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 10",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1",
        ] {
            let pos = test_position(fen);
            let passed = pos.clone().swap_turn().expect("not in check");
            assert_eq!(null_move_key(&pos, key_of(&pos)), key_of(&passed), "{fen}");
        }
    }

    #[test]
    fn each_move_has_a_key_of_its_own_and_a_quiet_moves_key_is_read_from_its_parts() {
        // Every legal move of positions with castling, en passant, promotions and captures,
        // and moves of one position compared with another's (as killers are).
        let mut seen: std::collections::HashMap<u32, Move> = std::collections::HashMap::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 10",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1n2k3/P1P5/8/8/8/8/6pp/4K1N1 w - - 0 1",
            "1n2k3/P1P5/8/8/8/8/6pp/4K1N1 b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ] {
            for m in test_position(fen).legal_moves() {
                let key = move_key(m);
                if let Some(&other) = seen.get(&key) {
                    assert_eq!(other, m, "two moves with the key {key}");
                }
                seen.insert(key, m);
                if let Some((role, from, to)) = quiet_piece_move(m) {
                    assert_eq!(quiet_move_key(role, from, to), key, "{m:?}");
                }
            }
        }
        assert!(seen.len() > 150, "{}", seen.len());
    }

    #[test]
    fn a_packed_move_is_read_back_as_the_legal_move_it_names_and_nothing_else() {
        // Castling both ways, en passant, promotions with and without capture, a pinned piece,
        // a side in check.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 10",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1n2k3/P1P5/8/8/8/8/6pp/4K1N1 w - - 0 1",
            "1n2k3/P1P5/8/8/8/8/6pp/4K1N1 b - - 0 1",
            "4k3/8/8/8/4r3/8/4B3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        ];
        for fen in fens {
            let pos = test_position(fen);
            let legal = pos.legal_moves();
            for &m in &legal {
                assert_eq!(legal_packed_move(&pos, pack_move(m)), Some(m), "{fen}: {m}");
            }
            // Every from, to and tag: a move read back is legal and packs the same way.
            let mut read = 0;
            for packed in 0..=u16::MAX {
                if let Some(m) = legal_packed_move(&pos, packed) {
                    assert!(legal.contains(&m), "{fen}: {m} is not legal");
                    assert_eq!(pack_move(m), packed, "{fen}: {m}");
                    read += 1;
                }
            }
            assert_eq!(read, legal.len(), "{fen}");
        }
    }

    #[test]
    fn quiet_checks_are_the_quiet_moves_whose_piece_attacks_the_king() {
        // Knight, bishop, rook, queen and pawn checks; a discovered check (the bishop on b2
        // behind the knight on d4), a capture that checks and a promotion that checks.
        let fens = [
            "4k3/8/8/8/3N4/8/1B3PPP/R2QK2R w KQ - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
            "3k4/1P2p3/8/2N5/8/8/8/4K2R w K - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 10",
        ];
        let mut found = 0;
        for fen in fens {
            let pos = test_position(fen);
            let listed: Vec<Move> = quiet_checks(&pos).into_iter().collect();
            let them = !pos.turn();
            for m in pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let quiet = matches!(
                    m,
                    Move::Normal {
                        capture: None,
                        promotion: None,
                        ..
                    }
                );
                // A direct check: the moved piece itself attacks the king.
                let direct = child.board().king_of(them).is_some_and(|k| {
                    child
                        .board()
                        .attacks_to(k, pos.turn(), child.board().occupied())
                        .contains(m.to())
                });
                assert_eq!(
                    listed.contains(&m),
                    quiet && direct,
                    "{fen}: {m:?} (quiet {quiet}, checks directly {direct})"
                );
            }
            found += listed.len();
        }
        assert!(found >= 5, "{found} quiet checks in all");
    }

    #[test]
    fn pick_best_takes_the_highest_score_first_and_the_earliest_of_equals() {
        let mut keys = [0; 256];
        for (i, s) in [5, 9, -3, 9, 7, 5].into_iter().enumerate() {
            keys[i] = order_key(s, i);
        }
        // Beyond `n` nothing counts, however high.
        keys[6] = order_key(100, 6);
        let order: Vec<usize> = (0..6).map(|_| pick_best(&mut keys, 6)).collect();
        assert_eq!(order, [1, 3, 4, 0, 5, 2]);
        // The bands' ends keep their order and their scores.
        let mut keys = [0; 256];
        keys[0] = order_key(LOSING_CAPTURE + 169, 0);
        keys[1] = order_key(-HISTORY_MAX, 1);
        keys[2] = order_key(HASH_MOVE, 2);
        keys[3] = order_key(GOOD_CAPTURE + 169, 3);
        keys[4] = order_key(HISTORY_CAP, 4);
        keys[5] = order_key(COUNTERMOVE, 5);
        keys[6] = order_key(PROMOTION + 9, 6);
        keys[7] = order_key(KILLER, 7);
        // Each pick with the score its key held.
        let order: Vec<(usize, i32)> = (0..8)
            .map(|_| {
                let before = keys;
                let i = pick_best(&mut keys, 8);
                (i, before[i] >> 8)
            })
            .collect();
        assert_eq!(
            order,
            [
                (2, HASH_MOVE),
                (3, GOOD_CAPTURE + 169),
                (6, PROMOTION + 9),
                (7, KILLER),
                (5, COUNTERMOVE),
                (4, HISTORY_CAP),
                (1, -HISTORY_MAX),
                (0, LOSING_CAPTURE + 169),
            ]
        );
    }

    /// Orders the moves of `pos`, a node at ply 2 whose two earlier moves' rows are `rows`
    /// (one ply before, two plies before), and returns the move picked first.
    fn first_ordered(engine: &mut Engine, pos: &Chess, rows: [usize; 2]) -> Move {
        let limits = Limits::infinite();
        let mut sink = |_: &SearchInfo| {};
        let mut s = Searcher::new(engine, &limits, &mut sink);
        let ply = 2;
        // Only the rows are read (the countermoves are off).
        let earlier = |row: usize| LineMove {
            squares: (0, 0),
            piece_to: row as u16,
        };
        s.line[ply] = Some(earlier(rows[0]));
        s.line[ply - 1] = Some(earlier(rows[1]));
        let moves = pos.legal_moves();
        s.move_scores(pos, &moves, 0, ply);
        moves[pick_best(&mut s.order[ply], moves.len())]
    }

    #[test]
    fn continuation_history_orders_a_quiet_move_by_the_moves_one_and_two_plies_before() {
        // After 1. e4 e5 2. Nf3: Black to move, every history empty.
        let pos = test_position("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
        let knight_f3 = piece_to(Color::White, Role::Knight, Square::F3);
        let pawn_e5 = piece_to(Color::Black, Role::Pawn, Square::E5);
        let nc6 = piece_to(Color::Black, Role::Knight, Square::C6);
        let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
        engine.techniques.continuation_history = true;
        let plain = first_ordered(&mut engine, &pos, [knight_f3, pawn_e5]);
        assert_ne!(plain.to(), Square::C6, "with empty tables Nc6 is not first");
        // Nc6 fared well after Nf3 (one ply before): it comes first.
        engine.continuation[knight_f3 * NO_PIECE_TO + nc6] = 300;
        let first = first_ordered(&mut engine, &pos, [knight_f3, pawn_e5]);
        assert_eq!((first.role(), first.to()), (Role::Knight, Square::C6));
        // Not after another move: the entry is read from the row of the move played.
        let other = piece_to(Color::White, Role::Knight, Square::C3);
        assert_eq!(first_ordered(&mut engine, &pos, [other, pawn_e5]), plain);
        // Two plies before counts as well: after Black's own e5.
        engine.continuation.fill(0);
        engine.continuation[pawn_e5 * NO_PIECE_TO + nc6] = 300;
        let first = first_ordered(&mut engine, &pos, [other, pawn_e5]);
        assert_eq!((first.role(), first.to()), (Role::Knight, Square::C6));
        // A quiet move's score is its history plus its entries: Nc6's 300 stays ahead of the
        // other move's history of 200, not of 400.
        let side = usize::from(Color::Black == Color::White);
        let (f, t) = squares(plain);
        engine.history[side][usize::from(f)][usize::from(t)] = 200;
        let first = first_ordered(&mut engine, &pos, [other, pawn_e5]);
        assert_eq!(first.to(), Square::C6);
        engine.history[side][usize::from(f)][usize::from(t)] = 400;
        assert_eq!(first_ordered(&mut engine, &pos, [other, pawn_e5]), plain);
        // With the technique off the tables are not read.
        engine.history[side][usize::from(f)][usize::from(t)] = 0;
        engine.techniques.continuation_history = false;
        assert_eq!(first_ordered(&mut engine, &pos, [other, pawn_e5]), plain);
    }

    #[test]
    fn continuation_history_rewards_the_cutoff_and_punishes_the_quiet_moves_tried_before() {
        let pos =
            test_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
        let searched = |engine: &mut Engine| {
            engine.clear();
            engine.search(&pos, &[], &Limits::depth(6), &mut |_| {});
            let positive = engine.continuation.iter().filter(|&&e| e > 0).count();
            let negative = engine.continuation.iter().filter(|&&e| e < 0).count();
            let none_row = &engine.continuation[NO_PIECE_TO * NO_PIECE_TO..];
            (positive, negative, none_row.iter().all(|&e| e == 0))
        };
        assert_eq!(searched(&mut engine), (0, 0, true), "off: never written");
        engine.techniques.continuation_history = true;
        let (positive, negative, none_row_zero) = searched(&mut engine);
        assert!(
            positive > 0 && negative > 0,
            "{positive} rewarded, {negative} punished"
        );
        assert!(none_row_zero, "the row of no earlier move stays zeros");
        // Within the bounds of history, either sign.
        assert!(engine
            .continuation
            .iter()
            .all(|&e| (-HISTORY_MAX..=HISTORY_MAX).contains(&i32::from(e))));
        // A new game starts from empty tables.
        engine.clear();
        assert!(engine.continuation.iter().all(|&e| e == 0));
    }

    #[test]
    fn history_gravity_moves_toward_its_bound_and_fades_old_scores() {
        let mut h = 0;
        history_gravity(&mut h, 100);
        assert_eq!(h, 100, "from zero the bonus in full");
        // At half the bound a bonus counts half: 8192 + 100 − 8192·100/16384 = 8242.
        let mut half = HISTORY_MAX / 2;
        history_gravity(&mut half, 100);
        assert_eq!(half, 8242);
        // A malus on a good score takes more off than a bonus of the same size adds.
        let mut good = HISTORY_MAX / 2;
        history_gravity(&mut good, -100);
        assert_eq!(good, 8192 - 100 - 50);
        // However many cutoffs, the score stays within its bound, either sign.
        let (mut up, mut down) = (0, 0);
        for _ in 0..10_000 {
            history_gravity(&mut up, 400);
            history_gravity(&mut down, -400);
        }
        assert!((0..=HISTORY_MAX).contains(&up), "{up}");
        assert!((-HISTORY_MAX..=0).contains(&down), "{down}");
        assert!(up > HISTORY_MAX * 9 / 10, "{up}: it nears the bound");
    }
}
