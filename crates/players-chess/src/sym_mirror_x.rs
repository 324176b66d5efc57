use super::symmetry::{choose_symmetric, Flip};
use eloworld_games::{Chess, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::Move;

/// Maximises the board's symmetry under the horizontal flip (files reversed) (Murphy's Elo World, `sym_mirror_x`): plays a move that
/// minimises [`super::symmetry::penalty`] with [`Flip::MirrorX`], ties broken at random.
#[derive(Clone, Copy, Debug, Default)]
pub struct SymMirrorX;

impl Player<Chess> for SymMirrorX {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        choose_symmetric(game, rng, Flip::MirrorX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn faces_the_black_rook_across_the_middle() {
        // Kings a1/h1 face each other (0). Rook b3 faces empty g3 and rook f3 faces empty
        // c3 (20); Rc3 makes c3/f3 a rook pair of opposite colours and empties b3/g3: 0.
        let fen = "8/8/8/8/8/1R3r2/8/K6k w - - 0 1";
        assert_eq!(picks(&mut SymMirrorX, fen, 50), set(&["b3c3"]));
    }
}
