use super::scoring::{after, choose_best};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};
use std::cmp::Reverse;

/// Leaves the opponent as few legal replies as it can (Murphy's Elo World, `min_oppt_moves`: "take a
/// move that minimizes the number of resulting legal moves for the opponent, breaking ties
/// randomly").
///
/// Checkmate and stalemate both leave zero replies, so, as Elo World points out, it does
/// not tell them apart.
#[derive(Clone, Copy, Debug, Default)]
pub struct MinOpptMoves;

impl Player<Chess> for MinOpptMoves {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        choose_best(game.legal_moves(), rng, |m| {
            Reverse(after(pos, m).legal_moves().len())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn mates_on_the_back_rank() {
        assert_eq!(
            picks(&mut MinOpptMoves, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 50),
            set(&["a1a8"])
        );
    }

    #[test]
    fn cannot_tell_mate_from_stalemate() {
        // Kh8 against Kf7 and Qb1 (which covers h7): Qh1 mates; Qc2, Qd3, Qe4, Qf5 and Qg6
        // keep h7 covered without checking, and so does Kf8 (still covering g8 and g7):
        // stalemates. All leave Black no move.
        let expected = set(&["b1h1", "b1c2", "b1d3", "b1e4", "b1f5", "b1g6", "f7f8"]);
        assert_eq!(
            picks(&mut MinOpptMoves, "7k/5K2/8/8/8/8/8/1Q6 w - - 0 1", 300),
            expected
        );
    }
}
