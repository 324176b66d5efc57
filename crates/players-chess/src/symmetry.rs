//! The asymmetry penalty of the `sym_*` players (Murphy's Elo World: "zero penalty for opposing e.g.
//! a knight with a knight, but a small penalty when the pieces are not the same type, and
//! a larger penalty when they are not opposite colors").
//!
//! Every square is paired with its image under the flip (no square is its own image on an
//! 8×8 board) and each pair costs, the weights being our choice:
//!
//! | the two squares hold                          | penalty |
//! |-----------------------------------------------|---------|
//! | nothing, or the same kind of piece in opposite colours | 0 |
//! | pieces of opposite colours but different kinds | [`WRONG_KIND`] = 1 (the paper's "small") |
//! | two pieces of the same colour                 | [`SAME_COLOR`] = 5 (the paper's "larger") |
//! | a piece facing an empty square                | [`FACING_EMPTY`] = 10 |
//!
//! A piece facing nothing is the least symmetric pair of all, so it costs the most; a
//! piece facing a same-coloured one at least keeps the occupancy symmetric. The rule is
//! the same for all three flips, as Elo World describes `sym_mirror_x` and `sym_180` "as
//! sym_mirror_y": the partner should be of the opposite colour even under the horizontal
//! flip, where that makes little chess sense.

use shakmaty::{Board, Square};

/// The penalty for a pair of pieces of opposite colours but different kinds.
pub const WRONG_KIND: u32 = 1;
/// The penalty for a pair of pieces of the same colour.
pub const SAME_COLOR: u32 = 5;
/// The penalty for a piece whose image square is empty.
pub const FACING_EMPTY: u32 = 10;

/// A symmetry of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// Ranks reversed (a1 ↔ a8): `sym_mirror_y`.
    MirrorY,
    /// Files reversed (a1 ↔ h1): `sym_mirror_x`.
    MirrorX,
    /// Rotation by 180° (a1 ↔ h8): `sym_180`.
    Rotate180,
}

impl Flip {
    /// Returns the image of `sq`.
    #[must_use]
    pub const fn image(self, sq: Square) -> Square {
        match self {
            Flip::MirrorY => sq.flip_vertical(),
            Flip::MirrorX => sq.flip_horizontal(),
            Flip::Rotate180 => sq.rotate_180(),
        }
    }
}

/// Returns the asymmetry penalty of `board` under `flip`, each pair of squares counted once.
#[must_use]
pub fn penalty(board: &Board, flip: Flip) -> u32 {
    let mut total = 0;
    for (sq, piece) in board {
        let image = flip.image(sq);
        total += match board.piece_at(image) {
            None => FACING_EMPTY,
            // The pair is met twice, from each end: count it from the lower square.
            Some(_) if image < sq => 0,
            Some(other) if other.color == piece.color => SAME_COLOR,
            Some(other) if other.role != piece.role => WRONG_KIND,
            Some(_) => 0,
        };
    }
    total
}

/// Chooses a move minimising the penalty after it, ties broken at random.
pub(crate) fn choose_symmetric(
    game: &eloworld_games::Chess,
    rng: &mut eloworld_games::GameRng,
    flip: Flip,
) -> Result<shakmaty::Move, eloworld_players_core::PlayerError> {
    use eloworld_games::Game as _;
    use shakmaty::Position as _;
    let pos = game.position();
    super::scoring::choose_best(game.legal_moves(), rng, |m| {
        std::cmp::Reverse(penalty(super::scoring::after(pos, m).board(), flip))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_position_under_each_flip() {
        let board = Board::new();
        assert_eq!(penalty(&board, Flip::MirrorY), 0);
        // d1 Q faces e8 k and e1 K faces d8 q: two pairs of the wrong kind.
        assert_eq!(penalty(&board, Flip::Rotate180), 2 * WRONG_KIND);
        // All 16 pairs (a1-h1, …, a8-h8 on four ranks) are same-coloured.
        assert_eq!(penalty(&board, Flip::MirrorX), 16 * SAME_COLOR);
    }

    #[test]
    fn a_lone_piece_faces_an_empty_square() {
        let board: Board = "8/8/8/8/8/8/8/K7".parse().expect("board");
        assert_eq!(penalty(&board, Flip::MirrorY), FACING_EMPTY);
    }
}
