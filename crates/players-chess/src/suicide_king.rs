use super::scoring::{after, choose_best};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Color, Move, Position};
use std::cmp::Reverse;

/// Walks its king towards the opponent's (Murphy's Elo World, `suicide_king`: "take a random move
/// that minimizes the distance between the two kings"), by Chebyshev distance.
#[derive(Clone, Copy, Debug, Default)]
pub struct SuicideKing;

impl Player<Chess> for SuicideKing {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        choose_best(game.legal_moves(), rng, |m| {
            let next = after(pos, m);
            let board = next.board();
            let distance = match (board.king_of(Color::White), board.king_of(Color::Black)) {
                (Some(w), Some(b)) => w.distance(b),
                _ => 0,
            };
            Reverse(distance)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn the_king_steps_towards_the_other_and_the_rook_stays() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        assert_eq!(
            picks(&mut SuicideKing, fen, 200),
            set(&["e1d2", "e1e2", "e1f2"])
        );
    }
}
