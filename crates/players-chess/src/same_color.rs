use super::scoring::{after, choose_best, own_color_squares};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Color, Move, Position};

/// Puts its pieces on squares of its own colour (Murphy's Elo World, `same_color`).
///
/// As White it counts its pieces on light squares *after* each move, as Black its pieces on
/// dark squares, and plays a move that maximises the count; ties are broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct SameColor;

/// Returns how many of `color`'s pieces stand on squares of `square_color` after `m`.
pub(crate) fn pieces_on_color_after(
    pos: &shakmaty::Chess,
    m: Move,
    color: Color,
    square_color: Color,
) -> u32 {
    let next = after(pos, m);
    (next.board().by_color(color) & own_color_squares(square_color)).count() as u32
}

impl Player<Chess> for SameColor {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let me = pos.turn();
        choose_best(game.legal_moves(), rng, |m| {
            pieces_on_color_after(pos, m, me, me)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn white_moves_one_piece_onto_a_light_square_and_picks_each_such_move() {
        // Rook a1 and king e1 both stand on dark squares: every move that lands on a light
        // square raises the count from 0 to 1, and those are the only best moves.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let expected = set(&[
            "a1b1", "a1d1", "a1a2", "a1a4", "a1a6", "a1a8", "e1d1", "e1e2", "e1f1",
        ]);
        assert_eq!(picks(&mut SameColor, fen, 300), expected);
    }

    #[test]
    fn black_wants_dark_squares() {
        // Rook a8 and king e8 stand on light squares; Black's own colour is dark.
        let fen = "r3k3/8/8/8/8/8/8/4K3 b - - 0 1";
        let expected = set(&[
            "a8b8", "a8d8", "a8a7", "a8a5", "a8a3", "a8a1", "e8d8", "e8e7", "e8f8",
        ]);
        assert_eq!(picks(&mut SameColor, fen, 300), expected);
    }
}
