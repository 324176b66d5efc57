use super::symmetry::{choose_symmetric, Flip};
use eloworld_games::{Chess, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::Move;

/// Maximises the board's symmetry under the vertical flip (ranks reversed), so it tends to copy the opponent's moves (Murphy's Elo World, `sym_mirror_y`): plays a move that
/// minimises [`super::symmetry::penalty`] with [`Flip::MirrorY`], ties broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct SymMirrorY;

impl Player<Chess> for SymMirrorY {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        choose_symmetric(game, rng, Flip::MirrorY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn copies_the_opponents_move() {
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(picks(&mut SymMirrorY, after_e4, 50), set(&["e7e5"]));
        let after_nc3 = "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq - 1 1";
        assert_eq!(picks(&mut SymMirrorY, after_nc3, 50), set(&["b8c6"]));
    }
}
