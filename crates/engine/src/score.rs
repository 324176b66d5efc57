//! Scores: centipawns, and mates counted in plies from the root or from a node. The search
//! and the transposition table both use these, so they live apart from either.

/// The score of being mated now; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1000;

/// Converts a score counted from the root to the form stored in the table (mates counted
/// from the node `ply` plies below the root).
#[must_use]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a stored score back to one counted from the root.
#[must_use]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// Returns the number of moves to mate for a mate score (positive: the side to move mates).
#[must_use]
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table_and_count_moves() {
        // Mate in 3 plies found 5 plies below the root: stored as mate in 3 from the node.
        let from_root = MATE - 8;
        assert_eq!(score_to_tt(from_root, 5), MATE - 3);
        assert_eq!(score_from_tt(MATE - 3, 5), from_root);
        assert_eq!(score_to_tt(-from_root, 5), -(MATE - 3));
        assert_eq!(score_to_tt(123, 5), 123);
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in(250), None);
    }
}
