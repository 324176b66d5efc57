use super::same_color::pieces_on_color_after;
use super::scoring::choose_best;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};

/// Puts its pieces on squares of the opponent's colour (Murphy's Elo World, `opposite_color`: "same
/// idea, opposite parity"): as White it maximises its pieces on dark squares after the
/// move, as Black on light squares; ties are broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct OppositeColor;

impl Player<Chess> for OppositeColor {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let me = pos.turn();
        choose_best(game.legal_moves(), rng, |m| {
            pieces_on_color_after(pos, m, me, me.other())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn white_keeps_both_pieces_on_dark_squares() {
        // Rook a1 and king e1 are on dark squares; only moves to dark squares keep 2.
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
        let expected = set(&["a1c1", "a1a3", "a1a5", "a1a7", "e1d2", "e1f2"]);
        assert_eq!(picks(&mut OppositeColor, fen, 300), expected);
    }
}
