//! Test suites in EPD: reading `bm` (best move) and `am` (avoid move) positions, and solving
//! them the way David, Koppel and Netanyahu's search evolution scores an organism (section IV, after Björnsson
//! and Marsland): the nodes searched until the right move was found and kept, capped at the
//! node limit when it is not found.

use crate::{Engine, EngineError, InfoEvent, Limits};
use eloworld_games::chess::input::{self, Epd};
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

/// One test position.
#[derive(Clone, Debug)]
pub struct EpdPosition {
    /// The line of the file, 1-based.
    pub line: usize,
    /// The `id` operand, or `line N` when there is none.
    pub id: String,
    /// The position.
    pub position: Chess,
    /// The FEN as read (four or six fields).
    pub fen: String,
    /// The moves of `bm`: playing any of them solves the position.
    pub best_moves: Vec<Move>,
    /// The moves of `am`: playing any of them fails the position.
    pub avoid_moves: Vec<Move>,
}

impl EpdPosition {
    /// Returns whether `m` solves the position: one of the best moves if any are given, and
    /// none of the moves to avoid.
    #[must_use]
    pub fn is_solution(&self, m: Move) -> bool {
        (self.best_moves.is_empty() || self.best_moves.contains(&m))
            && !self.avoid_moves.contains(&m)
    }
}

/// A test suite as read, with the lines it could not use.
#[derive(Clone, Debug, Default)]
pub struct EpdSuite {
    /// The usable positions, in file order.
    pub positions: Vec<EpdPosition>,
    /// The lines skipped, each error naming the file, the line and why.
    pub skipped: Vec<EngineError>,
    /// Lines that were used after removing NUL bytes (some published files pad lines with NULs).
    pub nul_lines: Vec<usize>,
}

/// Reads an EPD suite; bad lines are skipped and reported, never fatal.
#[must_use]
pub fn parse_epd(text: &str, source: &str) -> EpdSuite {
    let mut suite = EpdSuite::default();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let cleaned;
        let line = if raw.contains('\0') {
            cleaned = raw.replace('\0', "");
            if !cleaned.trim().is_empty() {
                suite.nul_lines.push(line_no);
            }
            cleaned.as_str()
        } else {
            raw
        };
        match parse_epd_line(line, source, line_no) {
            Ok(Some(p)) => suite.positions.push(p),
            Ok(None) => {}
            Err(e) => suite.skipped.push(e),
        }
    }
    suite
}

/// Reads one EPD line: `None` for a blank line or a `#` comment.
///
/// # Errors
/// [`EngineError::Epd`] naming `source`, the line and what is wrong (a bad FEN, an illegal
/// or unreadable move, no `bm` or `am`).
pub fn parse_epd_line(
    line: &str,
    source: &str,
    line_no: usize,
) -> Result<Option<EpdPosition>, EngineError> {
    let bad = |reason: String| EngineError::Epd {
        file: source.to_owned(),
        line: line_no,
        reason,
    };
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let Epd {
        position,
        fen,
        operations: rest,
    } = input::parse_epd(text).map_err(bad)?;
    let mut id = format!("line {line_no}");
    let mut best_moves = Vec::new();
    let mut avoid_moves = Vec::new();
    for op in rest.split(';') {
        let op = op.trim();
        let (code, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        match code {
            "id" => id = operands.trim().trim_matches('"').to_owned(),
            "bm" | "am" => {
                let target = if code == "bm" {
                    &mut best_moves
                } else {
                    &mut avoid_moves
                };
                for word in join_check_marks(operands) {
                    let m = parse_move(&position, &word).ok_or_else(|| {
                        bad(format!(
                            "{code} move {word:?} is not a legal, unambiguous move in {fen:?}"
                        ))
                    })?;
                    target.push(m);
                }
            }
            _ => {}
        }
    }
    if best_moves.is_empty() && avoid_moves.is_empty() {
        return Err(bad("no bm or am operation".to_owned()));
    }
    Ok(Some(EpdPosition {
        line: line_no,
        id,
        position,
        fen,
        best_moves,
        avoid_moves,
    }))
}

/// Splits operands into words, gluing a lone `+` or `#` to the move before (`Qd1 +`).
fn join_check_marks(operands: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for w in operands.split_whitespace() {
        match (w, words.last_mut()) {
            ("+" | "#" | "++", Some(prev)) => prev.push_str(w),
            _ => words.push(w.to_owned()),
        }
    }
    words
}

/// Reads a move in SAN (check marks optional) or UCI.
fn parse_move(pos: &Chess, word: &str) -> Option<Move> {
    let plain = word.trim_end_matches(['+', '#', '!', '?']);
    if let Ok(san) = plain.parse::<San>() {
        if let Ok(m) = san.to_move(pos) {
            return Some(m);
        }
    }
    plain
        .parse::<UciMove>()
        .ok()
        .and_then(|u| u.to_move(pos).ok())
}

/// The outcome of one test position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Whether the search's final move solves the position.
    pub solved: bool,
    /// Nodes searched when the final (right) move was found and then kept to the end; the
    /// node limit when the position was not solved (the paper, section IV).
    pub nodes_to_solution: u64,
    /// The move the search ends with.
    pub best_move: Option<Move>,
    /// All nodes searched.
    pub nodes: u64,
    /// The last completed iteration.
    pub depth: u32,
}

/// Searches one test position from a cleared engine within `limits`.
///
/// `limits.nodes` (when given) is also the cap reported for unsolved positions; otherwise the
/// nodes actually searched are.
pub fn solve(engine: &mut Engine, p: &EpdPosition, limits: &Limits) -> SolveResult {
    engine.clear();
    let mut found_at: Option<u64> = None;
    let mut report = |info: &crate::SearchInfo| {
        if info.event == InfoEvent::NewBest {
            if p.is_solution(info.best_move) {
                found_at.get_or_insert(info.nodes);
            } else {
                found_at = None;
            }
        }
    };
    let result = engine.search(&p.position, &[], limits, &mut report);
    let solved = result.best_move.is_some_and(|m| p.is_solution(m));
    let cap = limits.nodes.unwrap_or(result.nodes);
    SolveResult {
        solved,
        nodes_to_solution: if solved {
            found_at.unwrap_or(result.nodes).min(cap)
        } else {
            cap
        },
        best_move: result.best_move,
        nodes: result.nodes,
        depth: result.depth,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EvalParams, SearchParams};

    const KAUFMAN_LIKE: &str =
        "rn1qkb1r/pp2pppp/5n2/3p1b2/3P4/2N1P3/PP3PPP/R1BQKBNR w KQkq - 0 1 ; bm Qb3\0\n\
        r1bqrnk1/pp2bp1p/2p2np1/3p2B1/3P4/2NBPN2/PPQ2PPP/1R3RK1 w - -1 12 ; bm b4\n\
        rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/P1N5/1PQ1PPPP/R1B1KBNR b KQ - 1 5 ; bm Bcx3 + \n\
        \n\
        1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - ; bm Qd1 + ; id BK.01 \n\
        r1bqk2r/ppp2ppp/2n5/4P3/2Bp2n1/5N1P/PP1N1PP1/R2Q1RK1 b kq - 1 10 ; bm Nh6; am Ncxe5\n\
        8/8/8/8/8/8/8/8 w - - bm e4\n";

    #[test]
    fn bad_lines_are_skipped_with_file_line_and_reason() {
        let suite = parse_epd(KAUFMAN_LIKE, "k.epd");
        let ids: Vec<&str> = suite.positions.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["line 1", "BK.01", "line 6"], "{:?}", suite.skipped);
        assert_eq!(suite.nul_lines, [1]);
        let reasons: Vec<String> = suite.skipped.iter().map(ToString::to_string).collect();
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert!(
            reasons[0].starts_with("k.epd line 2: bad FEN"),
            "{}",
            reasons[0]
        );
        assert!(
            reasons[1].starts_with("k.epd line 3: bm move \"Bcx3+\" is not a legal"),
            "{}",
            reasons[1]
        );
        assert!(
            reasons[2].starts_with("k.epd line 7: illegal position"),
            "{}",
            reasons[2]
        );
        let p = &suite.positions[2];
        assert_eq!(p.best_moves.len(), 1);
        assert_eq!(p.avoid_moves.len(), 1);
        assert!(!p.is_solution(p.avoid_moves[0]));
        assert!(p.is_solution(p.best_moves[0]));
    }

    #[test]
    fn a_mate_in_one_is_solved_within_a_few_nodes() {
        // Back-rank mate: Re8#.
        let p = parse_epd_line(
            "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"mate\";",
            "t",
            1,
        )
        .expect("parses")
        .expect("a position");
        let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
        let r = solve(&mut engine, &p, &Limits::nodes(10_000));
        assert!(r.solved);
        assert!(r.nodes_to_solution < 200, "{r:?}");
        assert!(r.nodes <= 10_000);
    }

    #[test]
    fn unsolved_positions_cost_the_node_limit() {
        // Avoid the only sensible move: the engine plays it anyway.
        let p = parse_epd_line("6k1/5ppp/8/8/8/8/8/4R1K1 w - - am Re8#;", "t", 1)
            .expect("parses")
            .expect("position");
        let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
        let r = solve(&mut engine, &p, &Limits::nodes(5_000));
        assert!(!r.solved);
        assert_eq!(r.nodes_to_solution, 5_000);
    }
}
