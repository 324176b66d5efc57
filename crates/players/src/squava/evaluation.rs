//! Static evaluations of a squava position for the alpha-beta players (seed 000: "two of my
//! algorithmic players use alpha-beta minimax … I haven't found the best static evaluation
//! function"). Scores are from the side to move's point of view, in points; a decided
//! position is left to the search, which scores it beyond any static value.

use super::board::{losing_squares, winning_squares, Position, LINES};

/// The score the better evaluation gives a position it sees as won (the side to move has a
/// square that makes four, or the opponent cannot be stopped): below the search's
/// [`WIN`](super::alphabeta::WIN) scores, above anything else static.
pub const NEAR_WIN: i32 = 50_000;

/// Which static evaluation an alpha-beta player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// [`open_lines`]: `alphabeta`.
    OpenLines,
    /// [`threats_and_safe_squares`]: `alphabeta_better`.
    ThreatsAndSafeSquares,
}

impl Evaluation {
    /// Scores `pos` for its side to move.
    #[inline]
    #[must_use]
    pub fn score(self, pos: Position) -> i32 {
        match self {
            Evaluation::OpenLines => open_lines(pos),
            Evaluation::ThreatsAndSafeSquares => threats_and_safe_squares(pos),
        }
    }
}

/// Points for an open four-line (no enemy stone) holding 0, 1, 2 or 3 own stones.
const LINE_POINTS: [i32; 4] = [0, 1, 4, 16];

/// Scores the four-in-a-row lines each side can still complete, `Σ LINE_POINTS[k]` over the
/// lines holding `k` of its stones and none of the other side's, minus the same for the
/// opponent. It ignores the three-in-a-row rule, which is what makes it the weaker one.
#[inline]
#[must_use]
pub fn open_lines(pos: Position) -> i32 {
    let mut score = 0;
    for &line in &LINES.fours {
        let (mine, theirs) = (pos.own & line, pos.opp & line);
        if theirs == 0 {
            score += LINE_POINTS[mine.count_ones() as usize];
        } else if mine == 0 {
            score -= LINE_POINTS[theirs.count_ones() as usize];
        }
    }
    score
}

/// Points per safe empty square (one a side can fill without making three).
const SAFE_SQUARE_POINTS: i32 = 6;

/// Scores threats and the squares each side may still fill:
/// - the side to move has a square that makes four: [`NEAR_WIN`];
/// - the opponent has two such squares (only one can be blocked), or one that the side to
///   move can only block by making three: `-NEAR_WIN`;
/// - otherwise [`open_lines`] plus [`SAFE_SQUARE_POINTS`] per empty square the side to move
///   can fill without making three, minus the same for the opponent: late in a game the
///   side that runs out of safe squares first is forced to make three and lose.
#[inline]
#[must_use]
pub fn threats_and_safe_squares(pos: Position) -> i32 {
    if winning_squares(pos.own, pos.opp) != 0 {
        return NEAR_WIN;
    }
    let their_wins = winning_squares(pos.opp, pos.own);
    let my_losing = losing_squares(pos.own, pos.opp);
    if their_wins.count_ones() >= 2 || (their_wins != 0 && their_wins & !my_losing == 0) {
        return -NEAR_WIN;
    }
    let empty = pos.empty();
    let my_safe = (empty & !my_losing).count_ones() as i32;
    let their_safe = (empty & !losing_squares(pos.opp, pos.own)).count_ones() as i32;
    open_lines(pos) + SAFE_SQUARE_POINTS * (my_safe - their_safe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::squava::parse_square;

    fn bits(names: &str) -> u32 {
        names
            .split_whitespace()
            .map(|n| 1 << parse_square(n).expect("square"))
            .sum()
    }

    #[test]
    fn open_lines_counts_lines_by_stones() {
        // One stone in the corner a1 lies on 3 four-lines (row, column, diagonal).
        assert_eq!(
            open_lines(Position {
                own: bits("a1"),
                opp: 0
            }),
            3
        );
        assert_eq!(
            open_lines(Position {
                own: 0,
                opp: bits("a1")
            }),
            -3
        );
        // a1 and b1: row a1-d1 holds two (4 points), the other lines through them one each.
        // a1 lies on 3 lines, b1 on 4 (row a1-d1, row b1-e1, column, diagonal b1-e4).
        // Lines: a1-d1 (2 stones: 4), b1-e1 (1), col a (1), diag a1-d4 (1), col b (1), diag b1-e4 (1).
        assert_eq!(
            open_lines(Position {
                own: bits("a1 b1"),
                opp: 0
            }),
            4 + 5
        );
        // A line shared by both sides counts for neither: a1-d1 is dead, leaving a1 two
        // lines (column, diagonal) and b1 three (b1-e1, column, diagonal b1-e4).
        assert_eq!(
            open_lines(Position {
                own: bits("a1"),
                opp: bits("b1")
            }),
            2 - 3
        );
    }

    #[test]
    fn better_sees_threats_and_forced_threes() {
        // The side to move can make four at c1.
        let p = Position {
            own: bits("a1 b1 d1"),
            opp: bits("a5 b5 e3"),
        };
        assert_eq!(threats_and_safe_squares(p), NEAR_WIN);
        // The opponent threatens c1, and blocking there makes three (c1 c2 c3) for us.
        let p = Position {
            own: bits("c2 c3 e5"),
            opp: bits("a1 b1 d1"),
        };
        assert_eq!(threats_and_safe_squares(p), -NEAR_WIN);
        // The same threat with a safe block is not lost.
        let p = Position {
            own: bits("c3 e5 a3"),
            opp: bits("a1 b1 d1"),
        };
        assert!(threats_and_safe_squares(p) > -NEAR_WIN);
    }

    #[test]
    fn safe_squares_count_for_the_side_that_has_more() {
        // Same open lines by symmetry, but our two stones a1 c1 make b1 a losing square.
        let quiet = Position {
            own: bits("a1 e5"),
            opp: bits("e1 a5"),
        };
        let cramped = Position {
            own: bits("a1 c1"),
            opp: bits("a5 c5"),
        };
        let s_quiet = threats_and_safe_squares(quiet);
        let s_cramped = threats_and_safe_squares(cramped);
        assert_eq!(s_quiet, 0);
        // Both sides lose one safe square in the mirrored position: still level.
        assert_eq!(s_cramped, 0);
        let lopsided = Position {
            own: bits("a1 c1"),
            opp: bits("a5 e3"),
        };
        assert!(threats_and_safe_squares(lopsided) < open_lines(lopsided));
    }
}
