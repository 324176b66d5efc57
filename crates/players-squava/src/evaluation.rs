//! Static evaluations of a squava position for the alpha-beta players, scoring what the
//! Squava article's author's evaluations score (bediger4000/squava2, `players/alphabeta.go`,
//! `deltaValue` and `deltaValue2`). Scores are from the side to move's point of view, in the
//! author's points; a decided position is left to the search, which scores it beyond any
//! static value.
//!
//! The author's program adds these terms up only for the squares of the last two moves of
//! each searched line (the running value is not carried down the tree), and its positional
//! bias table is never switched on (`SetScores` is not called), so it adds nothing. Here
//! the same terms are counted over the whole board: the same features, every occurrence.

use super::board::{winning_squares, Position, FOUR_DIAGONALS, LINES, SHORT_DIAGONALS};

/// Which static evaluation an alpha-beta player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// [`open_threes`]: `alphabeta` (the author's "AlphaBeta").
    OpenThrees,
    /// [`open_threes_avoiding_traps`]: `alphabeta_better` (the author's "A/B+Avoid").
    AvoidTraps,
}

impl Evaluation {
    /// Scores `pos` for its side to move.
    #[inline]
    #[must_use]
    pub fn score(self, pos: Position) -> i32 {
        match self {
            Evaluation::OpenThrees => open_threes(pos),
            Evaluation::AvoidTraps => open_threes_avoiding_traps(pos),
        }
    }
}

/// The author's points for a four-line holding three stones of one side and an empty
/// fourth square (a threat to make four).
pub const THREAT_POINTS: i32 = 30;
/// The author's penalty for each trap a side has built (see [`traps`]).
pub const TRAP_POINTS: i32 = 100;

/// Counts the four-lines holding three of `own`'s stones and an empty fourth square.
#[inline]
#[must_use]
pub fn threats(own: u32, opp: u32) -> i32 {
    if winning_squares(own, opp) == 0 {
        return 0;
    }
    let empty = !(own | opp);
    LINES
        .fours
        .iter()
        .filter(|&&line| {
            let gap = line & !own;
            gap & empty == gap && gap.count_ones() == 1
        })
        .count() as i32
}

/// Counts the traps `own` has built: a diagonal of exactly three squares holding two of its
/// stones and an empty third (that square can only make three: the author's `no2`), and a
/// diagonal of exactly four squares whose two middle squares are its stones and whose ends
/// are empty (each end then makes three: the author's `noMiddle2`).
#[inline]
#[must_use]
pub fn traps(own: u32, opp: u32) -> i32 {
    let empty = !(own | opp);
    let mut n = 0;
    for line in SHORT_DIAGONALS {
        let gap = line & !own;
        if gap.count_ones() == 1 && gap & empty != 0 {
            n += 1;
        }
    }
    for line in FOUR_DIAGONALS {
        let gap = line & !own;
        // The two squares of the line that are not its ends are the middle pair.
        if gap.count_ones() == 2 && gap & empty == gap && is_ends(line, gap) {
            n += 1;
        }
    }
    n
}

/// Whether `pair` is the two end squares of the diagonal `line` (the lowest and the
/// highest square of the line).
#[inline]
fn is_ends(line: u32, pair: u32) -> bool {
    let low = line & line.wrapping_neg();
    let high = 1 << (31 - line.leading_zeros());
    pair == low | high
}

/// The author's `alphabeta` evaluation: [`THREAT_POINTS`] for each of the side to move's
/// threats (four-lines with three of its stones and an empty fourth), minus the same for
/// the opponent's.
#[inline]
#[must_use]
pub fn open_threes(pos: Position) -> i32 {
    THREAT_POINTS * (threats(pos.own, pos.opp) - threats(pos.opp, pos.own))
}

/// The author's `alphabeta_better` evaluation ("a somewhat better static evaluation
/// function"): [`open_threes`], less [`TRAP_POINTS`] for each trap the side to move has
/// built, plus the same for each of the opponent's.
#[inline]
#[must_use]
pub fn open_threes_avoiding_traps(pos: Position) -> i32 {
    open_threes(pos) + TRAP_POINTS * (traps(pos.opp, pos.own) - traps(pos.own, pos.opp))
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

    fn pos(own: &str, opp: &str) -> Position {
        Position {
            own: bits(own),
            opp: bits(opp),
        }
    }

    #[test]
    fn the_short_diagonals_are_the_ones_next_to_the_corners() {
        // Hand-listed: c1 b2 a3, c1 d2 e3, a3 b4 c5, e3 d4 c5.
        let mut short: Vec<u32> = SHORT_DIAGONALS.to_vec();
        short.sort_unstable();
        let mut want = vec![
            bits("c1 b2 a3"),
            bits("c1 d2 e3"),
            bits("a3 b4 c5"),
            bits("e3 d4 c5"),
        ];
        want.sort_unstable();
        assert_eq!(short, want);
        let mut four: Vec<u32> = FOUR_DIAGONALS.to_vec();
        four.sort_unstable();
        let mut want = vec![
            bits("b1 c2 d3 e4"),
            bits("a2 b3 c4 d5"),
            bits("d1 c2 b3 a4"),
            bits("e2 d3 c4 b5"),
        ];
        want.sort_unstable();
        assert_eq!(four, want);
    }

    #[test]
    fn open_threes_counts_threats_of_four_thirty_points_each() {
        // Empty board, nothing.
        assert_eq!(open_threes(pos("", "")), 0);
        // a1 b1 d1: row a1-d1 has three and the gap c1 empty. b1-e1 holds b1 d1 only.
        assert_eq!(open_threes(pos("a1 b1 d1", "")), 30);
        // The same, blocked at c1: no threat.
        assert_eq!(open_threes(pos("a1 b1 d1", "c1")), 0);
        // Two lines through one gap count twice: a2 b2 _ d2 (rank 2) and c1 _ c3 c4
        // (file c), both completed at c2: the author loops over lines, not squares.
        assert_eq!(open_threes(pos("a2 b2 d2 c1 c3 c4", "")), 60);
        // The opponent's threats count against the side to move.
        assert_eq!(open_threes(pos("e5", "a1 b1 d1")), -30);
        // Two stones in a line are no threat (unlike an open-lines count).
        assert_eq!(open_threes(pos("a1 b1", "")), 0);
    }

    #[test]
    fn the_better_evaluation_charges_a_hundred_per_trap() {
        // c1 b2 on the short diagonal c1 b2 a3 with a3 empty: one trap for the mover.
        assert_eq!(open_threes_avoiding_traps(pos("c1 b2", "")), -100);
        // The opponent's trap counts for the side to move.
        assert_eq!(open_threes_avoiding_traps(pos("", "c1 b2")), 100);
        // a3 filled by the opponent: no trap.
        assert_eq!(open_threes_avoiding_traps(pos("c1 b2", "a3")), 0);
        // c2 d3 are the middle of b1 c2 d3 e4 with both ends empty: a trap; with b1
        // taken by the opponent it is not.
        assert_eq!(open_threes_avoiding_traps(pos("c2 d3", "")), -100);
        assert_eq!(open_threes_avoiding_traps(pos("c2 d3", "b1")), 0);
        // b1 c2 (an end and a middle) is no trap; the plain evaluation ignores traps.
        assert_eq!(open_threes_avoiding_traps(pos("b1 c2", "")), 0);
        assert_eq!(open_threes(pos("c1 b2", "")), 0);
        // Threats and traps add up: a1 b1 d1 threatens c1 (+30); d3 c4 are the middle of
        // e2 d3 c4 b5 (−100).
        assert_eq!(
            open_threes_avoiding_traps(pos("a1 b1 d1 d3 c4", "")),
            30 - 100
        );
    }
}
