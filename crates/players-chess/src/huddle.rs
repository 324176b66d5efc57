use super::scoring::{after, chebyshev_sum, choose_best};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};
use std::cmp::Reverse;

/// Gathers its pieces around its own king (Murphy's Elo World, `huddle`).
///
/// After each move it sums the Chebyshev distance (king moves) from each of its pieces to
/// its own king and plays a move that minimises the sum; ties are broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Huddle;

impl Player<Chess> for Huddle {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let me = pos.turn();
        choose_best(game.legal_moves(), rng, |m| {
            let next = after(pos, m);
            let board = next.board();
            Reverse(
                board
                    .king_of(me)
                    .map_or(0, |king| chebyshev_sum(board.by_color(me), king)),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn the_rook_steps_next_but_one_to_the_king() {
        // Rook a3 is 4 from the e1 king; along the third rank c3..g3 are 2 from it, the
        // best any move reaches (a king move only moves away from or along the rook).
        let fen = "4k3/8/8/8/8/R7/8/4K3 w - - 0 1";
        let expected = set(&["a3c3", "a3d3", "a3e3", "a3f3", "a3g3"]);
        assert_eq!(picks(&mut Huddle, fen, 300), expected);
    }
}
