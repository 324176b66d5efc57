use super::scoring::{castle_destinations, choose_best};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Color, Move, Position, Square};
use std::cmp::Reverse;

/// Spreads its moves evenly over its pieces and the squares (Murphy's Elo World, `equalizer`: "prefer
/// to move a piece that has been moved the fewest times, and then prefer moving to a square
/// that has been visited the fewest times. Castling counts as moving both the king and
/// rook, and visiting both destination squares").
///
/// The player learns every move through [`Player::observe`] and keeps, for the piece on
/// each square, how often it has moved (the count travels with the piece, promotion
/// included, and dies with it), and for each side and square, how often a piece of that
/// side has arrived there (a square's visits are counted per side, since the player is
/// asked to equalise its own play). A castling move is judged by the more-moved of its
/// two pieces and the more-visited of its two destinations. Ties are broken at random.
#[derive(Clone, Debug)]
pub struct Equalizer {
    /// Times the piece now on each square has moved.
    moves_of_piece_on: [u16; 64],
    /// Arrivals of each side's pieces on each square.
    visits: [[u16; 64]; 2],
}

impl Default for Equalizer {
    fn default() -> Self {
        Equalizer {
            moves_of_piece_on: [0; 64],
            visits: [[0; 64]; 2],
        }
    }
}

impl Equalizer {
    /// Returns how often the piece on `sq` has moved.
    #[must_use]
    pub fn moves_of_piece_on(&self, sq: Square) -> u16 {
        self.moves_of_piece_on[sq.to_usize()]
    }

    /// Returns how often `color`'s pieces have arrived on `sq`.
    #[must_use]
    pub fn visits(&self, color: Color, sq: Square) -> u16 {
        self.visits[color as usize][sq.to_usize()]
    }

    /// Returns the move's key, smallest preferred: (times its piece moved, visits of its
    /// destination).
    fn key(&self, m: Move, color: Color) -> (u16, u16) {
        match m {
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castle_destinations(king, rook);
                (
                    self.moves_of_piece_on(king)
                        .max(self.moves_of_piece_on(rook)),
                    self.visits(color, king_to).max(self.visits(color, rook_to)),
                )
            }
            other => {
                let from = other.from().unwrap_or(other.to());
                (self.moves_of_piece_on(from), self.visits(color, other.to()))
            }
        }
    }

    /// Records that a piece of `color` that has now moved `moved` times arrived on `sq`.
    fn arrive(&mut self, color: Color, sq: Square, moved: u16) {
        self.moves_of_piece_on[sq.to_usize()] = moved;
        let v = &mut self.visits[color as usize][sq.to_usize()];
        *v = v.saturating_add(1);
    }

    /// Takes the piece off `from` and returns how often it has moved, this move included.
    fn lift(&mut self, from: Square) -> u16 {
        std::mem::take(&mut self.moves_of_piece_on[from.to_usize()]).saturating_add(1)
    }
}

impl Player<Chess> for Equalizer {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let color = game.position().turn();
        choose_best(game.legal_moves(), rng, |m| Reverse(self.key(m, color)))
    }

    fn observe(&mut self, before: &Chess, mv: Move) {
        let color = before.position().turn();
        match mv {
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castle_destinations(king, rook);
                let (k, r) = (self.lift(king), self.lift(rook));
                self.arrive(color, king_to, k);
                self.arrive(color, rook_to, r);
            }
            Move::EnPassant { from, to } => {
                self.moves_of_piece_on[Square::from_coords(to.file(), from.rank()).to_usize()] = 0;
                let moved = self.lift(from);
                self.arrive(color, to, moved);
            }
            other => {
                let moved = self.lift(other.from().unwrap_or(other.to()));
                self.arrive(color, other.to(), moved);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, set, START};
    use std::collections::BTreeSet;

    /// Plays `moves` from `fen` with an equalizer watching, then collects its picks.
    fn picks_after(fen: &str, moves: &str, seeds: u64) -> BTreeSet<String> {
        let mut g = game(fen);
        let mut eq = Equalizer::default();
        for text in moves.split_whitespace() {
            let m = g.parse_move(text).expect("fixture move");
            eq.observe(&g, m);
            g.play(m);
        }
        (0..seeds)
            .map(|seed| {
                let m = eq
                    .clone()
                    .choose(&g, &mut GameRng::new(seed))
                    .expect("move");
                g.move_code(m)
            })
            .collect()
    }

    #[test]
    fn leaves_the_knight_that_already_moved() {
        // After 1.Nf3 e5 every white move but the f3 knight's moves a piece that never
        // moved, to a square no white piece has visited (f3's visit is the knight's).
        let expected = set(&[
            "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "g2g3",
            "g2g4", "h2h3", "h2h4", "b1a3", "b1c3", "h1g1",
        ]);
        assert_eq!(picks_after(START, "g1f3 e7e5", 600), expected);
    }

    #[test]
    fn avoids_the_square_it_has_visited() {
        // The lone king went e1-e2-e1: e2 and e1 have one visit each, the others none.
        let picks = picks_after("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2 e8e7 e2e1 e7e8", 200);
        assert_eq!(picks, set(&["e1d1", "e1d2", "e1f1", "e1f2"]));
    }

    #[test]
    fn castling_moves_both_the_king_and_the_rook() {
        // After O-O the king (g1) and the h-rook (f1) have moved once each: only the a1
        // rook is fresh, and none of its squares has been visited.
        let picks = picks_after("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1 e8e7", 400);
        let expected = set(&[
            "a1b1", "a1c1", "a1d1", "a1e1", "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8",
        ]);
        assert_eq!(picks, expected);
    }

    #[test]
    fn the_count_travels_with_the_piece_and_dies_with_it() {
        let mut g = game(START);
        let mut eq = Equalizer::default();
        for text in "e2e4 d7d5 e4d5 d8d5".split_whitespace() {
            let m = g.parse_move(text).expect("fixture move");
            eq.observe(&g, m);
            g.play(m);
        }
        // The white pawn that moved twice was taken on d5 by the queen (one move).
        assert_eq!(eq.moves_of_piece_on(Square::D5), 1);
        assert_eq!(eq.moves_of_piece_on(Square::E4), 0);
        assert_eq!(eq.visits(Color::White, Square::D5), 1);
        assert_eq!(eq.visits(Color::Black, Square::D5), 2);
    }
}
