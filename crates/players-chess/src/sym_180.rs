use super::symmetry::{choose_symmetric, Flip};
use eloworld_games::{Chess, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::Move;

/// Maximises the board's symmetry under the rotation by 180° (Murphy's Elo World, `sym_180`): plays a move that
/// minimises [`super::symmetry::penalty`] with [`Flip::Rotate180`], ties broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sym180;

impl Player<Chess> for Sym180 {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        choose_symmetric(game, rng, Flip::Rotate180)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn answers_e4_with_the_rotated_d5() {
        // e4 rotates onto d5; the d/e king-queen mismatch stays whatever Black does.
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(picks(&mut Sym180, after_e4, 50), set(&["d7d5"]));
    }
}
