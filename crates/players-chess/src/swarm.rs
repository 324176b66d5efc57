use super::scoring::{after, chebyshev_sum, choose_best};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};
use std::cmp::Reverse;

/// Swarms the opponent's king (Murphy's Elo World, `swarm`: "like huddle, but instead move pieces
/// such that they are close to opponent's king").
///
/// After each move it sums the Chebyshev distance from each of its pieces, its own king
/// included, to the opponent's king and plays a move that minimises the sum; ties are
/// broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Swarm;

impl Player<Chess> for Swarm {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let me = pos.turn();
        choose_best(game.legal_moves(), rng, |m| {
            let next = after(pos, m);
            let board = next.board();
            Reverse(
                board
                    .king_of(me.other())
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
    fn every_move_that_gains_a_step_towards_the_black_king() {
        // Rook a3 is 5 from e8 and gets to 4 anywhere up the a-file; the king gets from 7
        // to 6 on the second rank. Nothing gains two steps.
        let fen = "4k3/8/8/8/8/R7/8/4K3 w - - 0 1";
        let expected = set(&[
            "a3a4", "a3a5", "a3a6", "a3a7", "a3a8", "e1d2", "e1e2", "e1f2",
        ]);
        assert_eq!(picks(&mut Swarm, fen, 300), expected);
    }
}
