use super::scoring::{after, choose_best};
use eloworld_games::chess::piece_value;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};

/// Offers its pieces (Murphy's Elo World, `generous`).
///
/// After each move it looks at every legal reply of the opponent and sums the value of
/// what each capture would take (P 1, N 3, B 3, R 5, Q 9; a piece capturable several ways
/// counts several times), then plays a move that maximises the sum; ties are broken at
/// random.
#[derive(Clone, Copy, Debug, Default)]
pub struct Generous;

/// Returns the summed value of every capture among `moves`.
pub(crate) fn offered(moves: &[Move]) -> u32 {
    moves
        .iter()
        .filter_map(|m| m.capture())
        .map(|r| piece_value(r).unsigned_abs())
        .sum()
}

impl Player<Chess> for Generous {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        choose_best(game.legal_moves(), rng, |m| {
            offered(&after(pos, m).legal_moves())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{picks, set};

    #[test]
    fn offers_the_queen_where_a_pawn_can_take_it() {
        // The d5 pawn attacks c4 and e4, both on the queen's diagonals: 9 either way.
        let fen = "4k3/8/8/3p4/8/3Q4/8/4K3 w - - 0 1";
        assert_eq!(picks(&mut Generous, fen, 200), set(&["d3c4", "d3e4"]));
    }

    #[test]
    fn a_piece_takeable_two_ways_counts_twice() {
        // Now b5 and d5 both attack c4 (18), while e4 is still offered once (9).
        let fen = "4k3/8/8/1p1p4/8/3Q4/8/4K3 w - - 0 1";
        assert_eq!(picks(&mut Generous, fen, 100), set(&["d3c4"]));
    }
}
