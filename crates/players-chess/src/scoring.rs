//! What the simple players share: score every legal move, keep the best, break ties
//! uniformly at random with the game's RNG (Murphy's Elo World, section 2.1: "Most other players fall
//! back on making random moves to break ties"), and the small board measures they score by.
//!
//! Nothing here allocates: the tied moves are kept in a shakmaty [`MoveList`] (an
//! `ArrayVec` on the stack) and positions are looked ahead by copying.

use eloworld_games::GameRng;
use eloworld_players_core::PlayerError;
use shakmaty::{Bitboard, CastlingSide, Chess as Position, Color, Move, MoveList, Square};
use std::cmp::Ordering;

/// Returns the moves of `moves` with the highest score, in their given order.
pub fn best_moves<S: Ord>(moves: &[Move], mut score: impl FnMut(Move) -> S) -> MoveList {
    let mut best: Option<S> = None;
    let mut tied = MoveList::new();
    for &m in moves {
        let s = score(m);
        let order = best.as_ref().map_or(Ordering::Greater, |b| s.cmp(b));
        match order {
            Ordering::Greater => {
                best = Some(s);
                tied.clear();
                tied.push(m);
            }
            Ordering::Equal => tied.push(m),
            Ordering::Less => {}
        }
    }
    tied
}

/// Returns a uniformly random one of the moves with the highest score.
///
/// # Errors
/// [`PlayerError::NoMove`] when `moves` is empty.
pub fn choose_best<S: Ord>(
    moves: &[Move],
    rng: &mut GameRng,
    score: impl FnMut(Move) -> S,
) -> Result<Move, PlayerError> {
    let tied = best_moves(moves, score);
    match tied.len() {
        0 => Err(PlayerError::NoMove),
        1 => Ok(tied[0]),
        _ => Ok(rng.pick(&tied)),
    }
}

/// Returns the position after `m`, which must be legal in `pos`.
#[inline]
#[must_use]
pub fn after(pos: &Position, m: Move) -> Position {
    let mut next = pos.clone();
    shakmaty::Position::play_unchecked(&mut next, m);
    next
}

/// Returns where a move goes from and to as a player sees it: castling goes from the
/// king's square to the king's destination (`e1g1`), not to the rook (shakmaty's encoding).
#[must_use]
pub fn from_to(m: Move) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            (king, Square::from_coords(side.king_to_file(), king.rank()))
        }
        other => (other.from().unwrap_or(other.to()), other.to()),
    }
}

/// Returns the squares a castling move leaves its king and rook on, `(king_to, rook_to)`.
#[must_use]
pub fn castle_destinations(king: Square, rook: Square) -> (Square, Square) {
    let side = CastlingSide::from_queen_side(rook < king);
    (
        Square::from_coords(side.king_to_file(), king.rank()),
        Square::from_coords(side.rook_to_file(), king.rank()),
    )
}

/// Returns the Manhattan distance between two squares (files apart plus ranks apart).
#[inline]
#[must_use]
pub const fn manhattan(a: Square, b: Square) -> u32 {
    a.file().distance(b.file()) + a.rank().distance(b.rank())
}

/// Returns the sum, over the squares of `pieces`, of the Chebyshev (king-move) distance to
/// `target`.
#[inline]
#[must_use]
pub fn chebyshev_sum(pieces: Bitboard, target: Square) -> u32 {
    pieces.into_iter().map(|sq| sq.distance(target)).sum()
}

/// Returns the squares of `color`'s own colour: light squares for White, dark for Black.
#[inline]
#[must_use]
pub const fn own_color_squares(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::LIGHT_SQUARES,
        Color::Black => Bitboard::DARK_SQUARES,
    }
}

/// Returns how far `sq` is into enemy territory for `color`: its rank counted from
/// `color`'s back rank (0 on the own back rank, 7 on the opponent's).
#[inline]
#[must_use]
pub const fn depth(sq: Square, color: Color) -> u32 {
    match color {
        Color::White => sq.rank().to_u32(),
        Color::Black => 7 - sq.rank().to_u32(),
    }
}

/// A non-negative fraction compared exactly (cross-multiplied), for averages such as
/// `no_i_insist`'s expected gift; `0/0` counts as zero.
#[derive(Clone, Copy, Debug)]
pub struct Ratio {
    /// The numerator.
    pub num: u32,
    /// The denominator.
    pub den: u32,
}

impl Ratio {
    fn key(self, other: Ratio) -> (u64, u64) {
        let (a_den, b_den) = (u64::from(self.den.max(1)), u64::from(other.den.max(1)));
        (u64::from(self.num) * b_den, u64::from(other.num) * a_den)
    }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Ratio) -> bool {
        let (a, b) = self.key(*other);
        a == b
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        let (a, b) = self.key(*other);
        a.cmp(&b)
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Helpers for the players' tests: set up a FEN, collect the moves a player picks.
    use eloworld_games::{Chess, DrawRules, Game, GameRng};
    use eloworld_players_core::Player;
    use std::collections::BTreeSet;

    /// Returns the game at `fen` (panics on a bad FEN: tests only).
    pub fn game(fen: &str) -> Chess {
        Chess::from_position(fen, DrawRules::Automatic).expect("test FEN")
    }

    /// Returns the UCI codes of the moves `player` picks at `fen` over `seeds` seeds.
    pub fn picks(player: &mut dyn Player<Chess>, fen: &str, seeds: u64) -> BTreeSet<String> {
        let g = game(fen);
        (0..seeds)
            .map(|seed| {
                let m = player.choose(&g, &mut GameRng::new(seed)).expect("a move");
                assert!(g.is_legal(m), "illegal move {m:?}");
                g.move_code(m)
            })
            .collect()
    }

    /// Returns the set of the given UCI codes.
    pub fn set(codes: &[&str]) -> BTreeSet<String> {
        codes.iter().map(|s| (*s).to_owned()).collect()
    }

    /// Returns the game at `fen` after playing `moves` (UCI or SAN, space-separated).
    pub fn game_after(fen: &str, moves: &str) -> Chess {
        let mut g = game(fen);
        for text in moves.split_whitespace() {
            let m = g.parse_move(text).expect("test move");
            g.play(m);
        }
        g
    }

    /// The standard starting position.
    pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position as _;

    #[test]
    fn ties_are_kept_in_order_and_lower_scores_dropped() {
        let pos = Position::default();
        let moves = pos.legal_moves();
        // Score pawn moves 1, others 0: the 16 pawn moves tie.
        let tied = best_moves(&moves, |m| u8::from(m.role() == shakmaty::Role::Pawn));
        assert_eq!(tied.len(), 16);
        assert!(tied.iter().all(|m| m.role() == shakmaty::Role::Pawn));
    }

    #[test]
    fn no_moves_is_an_error() {
        let r = choose_best(&[], &mut GameRng::new(1), |_| 0);
        assert!(matches!(r, Err(PlayerError::NoMove)));
    }

    #[test]
    fn ratios_compare_as_fractions() {
        assert_eq!(Ratio { num: 5, den: 3 }, Ratio { num: 10, den: 6 });
        assert!(Ratio { num: 5, den: 3 } > Ratio { num: 3, den: 2 });
        assert_eq!(Ratio { num: 0, den: 0 }, Ratio { num: 0, den: 7 });
    }

    #[test]
    fn castling_is_seen_from_king_to_king_destination() {
        let m = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(from_to(m), (Square::E1, Square::G1));
        assert_eq!(
            castle_destinations(Square::E8, Square::A8),
            (Square::C8, Square::D8)
        );
    }
}
