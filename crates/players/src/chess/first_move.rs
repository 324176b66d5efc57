use crate::{Player, PlayerError};
use eloworld_games::{Chess, Game, GameRng};
use shakmaty::{Color, Move, Position, Role, Square};

/// Makes the lexicographically first legal move (seed 002, `first_move`).
///
/// Moves are ordered by ⟨src_row, src_col, dst_row, dst_col, promote_to⟩, where rank 1 is
/// row 0 for White and rows are reversed for Black so the strategy is symmetric. Castling
/// goes from the king's square to the king's destination (`e1g1`); no promotion sorts
/// before N < B < R < Q.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstMove;

/// Returns the sort key of a move for `first_move` from `color`'s point of view.
#[must_use]
pub fn first_move_key(m: Move, color: Color) -> (u32, u32, u32, u32, u8) {
    let (from, to) = match m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            (king, Square::from_coords(side.king_to_file(), king.rank()))
        }
        other => (other.from().unwrap_or(other.to()), other.to()),
    };
    let row = |sq: Square| match color {
        Color::White => u32::from(sq.rank()),
        Color::Black => 7 - u32::from(sq.rank()),
    };
    let promo = match m.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    (
        row(from),
        u32::from(from.file()),
        row(to),
        u32::from(to.file()),
        promo,
    )
}

impl Player<Chess> for FirstMove {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let color = game.position().turn();
        game.legal_moves()
            .iter()
            .copied()
            .min_by_key(|&m| first_move_key(m, color))
            .ok_or(PlayerError::NoMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::DrawRules;

    fn choose(fen: &str) -> String {
        let g = Chess::from_position(fen, DrawRules::Automatic).expect("fen");
        let m = FirstMove.choose(&g, &mut GameRng::new(0)).expect("move");
        g.move_code(m)
    }

    #[test]
    fn white_opens_with_the_a1_corner_knight_hop() {
        // From the start, the first source square with a move is b1 (a1 rook is blocked):
        // b1 to a3 (row 2, col 0) sorts before b1 to c3.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(choose(start), "b1a3");
    }

    #[test]
    fn black_reverses_rows() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(choose(start), "b8a6");
    }

    #[test]
    fn promotion_to_knight_comes_first() {
        // The a7 pawn (row 6) sorts before the king on h8 (row 7); of its four
        // promotions the knight is first.
        assert_eq!(choose("7K/P7/8/8/8/8/8/k7 w - - 0 1"), "a7a8n");
    }
}
