//! The check of an engine's mating lines that fastchess runs under `-check-mate-pvs`
//! (`Match::verifyPvLines`): a mate score's principal variation must be legal, stop where
//! the game would, be exactly as long as the mate it announces, and end in checkmate.
//! fishtest's worker (`worker/games.py`) stops a test on these warnings, by their words.

use eloworld_games::{Chess, Game};
use shakmaty::Position as _;
use std::sync::mpsc::Sender;
use std::sync::OnceLock;

/// What is wrong with a mating line, one of fastchess's `PvWarning`s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PvFault {
    /// A move of the line is not legal where it stands.
    IllegalMove(String),
    /// The line goes on (with this move) after a threefold repetition.
    AfterThreefoldRepetition(String),
    /// The line goes on after fifty moves without capture or pawn move.
    AfterFiftyMoveRule(String),
    /// The line goes on after checkmate.
    AfterCheckmate(String),
    /// The line goes on after stalemate.
    AfterStalemate(String),
    /// The line is shorter than the announced mate.
    IncompleteMatingPv,
    /// The line is longer than the announced mate.
    TooLongMatingPv,
    /// The line has the announced length but does not end in checkmate.
    NotEndingInCheckmate,
}

impl PvFault {
    /// The warning's first line as fastchess prints it for `engine`
    /// (`Warning; Incomplete mating PV - from NAME`).
    #[must_use]
    pub fn warning(&self, engine: &str) -> String {
        match self {
            PvFault::IllegalMove(mv) => {
                format!("Warning; Illegal PV move - move {mv} from {engine}")
            }
            PvFault::AfterThreefoldRepetition(mv) => format!(
                "Warning; PV continues after threefold repetition - move {mv} from {engine}"
            ),
            PvFault::AfterFiftyMoveRule(mv) => {
                format!("Warning; PV continues after fifty-move rule - move {mv} from {engine}")
            }
            PvFault::AfterCheckmate(mv) => {
                format!("Warning; PV continues after checkmate - move {mv} from {engine}")
            }
            PvFault::AfterStalemate(mv) => {
                format!("Warning; PV continues after stalemate - move {mv} from {engine}")
            }
            PvFault::IncompleteMatingPv => format!("Warning; Incomplete mating PV - from {engine}"),
            PvFault::TooLongMatingPv => format!("Warning; Too long mating PV - from {engine}"),
            PvFault::NotEndingInCheckmate => {
                format!("Warning; Mating PV does not end with checkmate - from {engine}")
            }
        }
    }
}

/// A fault found in one search, with what fastchess prints after the warning: the `info`
/// line, the game's start and its moves so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvWarning {
    /// The engine's name.
    pub engine: String,
    /// What is wrong.
    pub fault: PvFault,
    /// The `info` line as the engine printed it.
    pub info_line: String,
    /// The game's start position (`None`: the standard one).
    pub start_fen: Option<String>,
    /// The moves played before the search, in UCI notation.
    pub moves: String,
}

/// Where faults found by the mate-PV check go (`eloworld match -check-mate-pvs`).
static WARNINGS: OnceLock<Sender<PvWarning>> = OnceLock::new();

/// Sends every fault the mate-PV check finds from now on to `sink`; the caller shows them.
/// Only the first call takes effect.
pub fn tap_warnings(sink: Sender<PvWarning>) {
    let _ = WARNINGS.set(sink);
}

/// Hands `warning` to the sink, if one is tapped.
pub(crate) fn report(warning: PvWarning) {
    if let Some(sink) = WARNINGS.get() {
        let _ = sink.send(warning);
    }
}

/// Checks one `info` line searched from `game`: `None` when it has no mate score (or only
/// a bound, or no line) or its line is sound. As fastchess: the line is played out move by
/// move, each of which must be legal and come before the game is over (checkmate,
/// stalemate, threefold repetition, fifty moves); then a mate in `n` for the side to move
/// must take `2n − 1` plies, a mate against it `2|n|`, and end in checkmate.
#[must_use]
pub fn check_mate_pv(game: &Chess, info_line: &str) -> Option<PvFault> {
    let mut words = info_line.split_ascii_whitespace();
    let (mut mate, mut bound, mut pv) = (None, false, None);
    while let Some(w) = words.next() {
        match w {
            "score" if words.next() == Some("mate") => {
                mate = words.next().and_then(|v| v.parse::<i64>().ok());
            }
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                pv = Some(words);
                break;
            }
            "string" => return None,
            _ => {}
        }
    }
    let (Some(mate), false, Some(pv)) = (mate, bound, pv) else {
        return None;
    };
    let mut board = game.clone();
    let mut plies = 0u64;
    for text in pv {
        if board.legal_moves().is_empty() {
            return Some(if board.position().is_check() {
                PvFault::AfterCheckmate(text.to_owned())
            } else {
                PvFault::AfterStalemate(text.to_owned())
            });
        }
        if board.repetitions() >= 3 {
            return Some(PvFault::AfterThreefoldRepetition(text.to_owned()));
        }
        if board.position().halfmoves() >= 100 {
            return Some(PvFault::AfterFiftyMoveRule(text.to_owned()));
        }
        match board.parse_move(text) {
            Ok(mv) if board.is_legal(mv) => board.play(mv),
            _ => return Some(PvFault::IllegalMove(text.to_owned())),
        }
        plies += 1;
    }
    let needed = if mate > 0 {
        mate.unsigned_abs() * 2 - 1
    } else {
        mate.unsigned_abs() * 2
    };
    if plies < needed {
        Some(PvFault::IncompleteMatingPv)
    } else if plies > needed {
        Some(PvFault::TooLongMatingPv)
    } else if !board.legal_moves().is_empty() || !board.position().is_check() {
        Some(PvFault::NotEndingInCheckmate)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::DrawRules;

    fn game(fen: &str) -> Chess {
        Chess::from_position(fen, DrawRules::Claimed).expect("a position")
    }

    /// White mates in one, a back-rank mate: 1. Re8#.
    const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1";

    #[test]
    fn a_complete_mating_line_passes() {
        let g = game(MATE_IN_ONE);
        let line = "info depth 5 seldepth 2 multipv 1 score mate 1 nodes 90 pv e1e8";
        assert_eq!(check_mate_pv(&g, line), None);
        // Mated in one: the loser's move, then the mate.
        let g = game("4r1k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1");
        assert_eq!(check_mate_pv(&g, "info score mate -1 pv a2a3 e8e1"), None);
    }

    #[test]
    fn short_long_and_wrong_mating_lines_are_named() {
        let g = game(MATE_IN_ONE);
        // Stockfish often cuts a mating line short.
        assert_eq!(
            check_mate_pv(&g, "info depth 9 score mate 2 nodes 500 pv e1e8"),
            Some(PvFault::IncompleteMatingPv)
        );
        assert_eq!(
            check_mate_pv(&g, "info depth 1 score mate 1 pv f2f3 h7h6"),
            Some(PvFault::TooLongMatingPv)
        );
        assert_eq!(
            check_mate_pv(&g, "info depth 1 score mate 1 pv f2f3"),
            Some(PvFault::NotEndingInCheckmate)
        );
        assert_eq!(
            check_mate_pv(&g, "info depth 1 score mate 3 pv e1e9 a1a2"),
            Some(PvFault::IllegalMove("e1e9".to_owned()))
        );
        assert_eq!(
            check_mate_pv(&g, "info score mate 1 pv e1e8 g8h8"),
            Some(PvFault::AfterCheckmate("g8h8".to_owned()))
        );
    }

    #[test]
    fn stockfish_cuts_a_mate_in_three_short() {
        // Debian's Stockfish 15.1, `go nodes 5000` from this position: its first line.
        let g = game("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
        let line = "info depth 1 seldepth 1 multipv 1 score mate 3 nodes 125 nps 125000 \
                    hashfull 0 tbhits 0 time 1 pv f6a6 f7f6";
        assert_eq!(check_mate_pv(&g, line), Some(PvFault::IncompleteMatingPv));
        let later = "info depth 5 seldepth 5 multipv 1 score mate 3 nodes 354 nps 354000 \
                     hashfull 0 tbhits 0 time 1 pv f6a6 f7f6 e5f6 g8g7 a6a8";
        assert_eq!(check_mate_pv(&g, later), None);
    }

    #[test]
    fn bounds_centipawns_and_lines_without_pv_are_not_checked() {
        let g = game(MATE_IN_ONE);
        assert_eq!(
            check_mate_pv(&g, "info depth 9 score mate 2 lowerbound pv e1e8"),
            None
        );
        assert_eq!(check_mate_pv(&g, "info depth 9 score cp 900 pv e1e8"), None);
        assert_eq!(check_mate_pv(&g, "info depth 9 score mate 2 nodes 5"), None);
        assert_eq!(check_mate_pv(&g, "info string score mate 2 pv e1e8"), None);
    }

    #[test]
    fn warnings_read_as_fishtest_matches_them() {
        assert_eq!(
            PvFault::IncompleteMatingPv.warning("New-1234"),
            "Warning; Incomplete mating PV - from New-1234"
        );
        assert_eq!(
            PvFault::IllegalMove("e1e9".to_owned()).warning("Base"),
            "Warning; Illegal PV move - move e1e9 from Base"
        );
    }
}
