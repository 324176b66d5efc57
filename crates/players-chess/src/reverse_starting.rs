use super::scoring::{after, choose_best, manhattan};
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Board, Color, File, Move, Position, Rank, Role, Square};
use std::cmp::Reverse;

/// Thinks the board is upside down and walks its pieces to the opponent's starting squares
/// (Murphy's Elo World, `reverse_starting`).
///
/// After each move it sums, over its pieces, the distance from each piece to where a piece
/// of that kind starts on the opponent's side, and plays a move that minimises the sum;
/// ties are broken at random. For White the targets are the squares Black starts on (and
/// the other way round). Elo World fixes three metrics; the other three are our choice:
///
/// | piece  | target (as White)      | distance                                               |
/// |--------|------------------------|--------------------------------------------------------|
/// | king   | e8                     | Chebyshev (seed)                                       |
/// | rook   | nearer of a8, h8       | Manhattan (seed)                                       |
/// | knight | nearer of b8, g8       | fewest knight moves on the 8×8 board, by BFS (seed)    |
/// | queen  | d8                     | Chebyshev: one queen step per king step                |
/// | bishop | c8 or f8, whichever is of the bishop's square colour | Chebyshev (diagonal steps; the other one is unreachable) |
/// | pawn   | the opponent's pawn rank (7th) | ranks still to go: a pawn cannot choose its file |
///
/// Each piece aims at its nearest target on its own, so two rooks may aim at one corner.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReverseStarting;

/// Fewest knight moves between two squares on the 8×8 board, `KNIGHT_DISTANCE[from][to]`
/// (a1 to b2 is 4, not the 2 of an unbounded board).
pub(crate) const KNIGHT_DISTANCE: [[u8; 64]; 64] = knight_distances();

const fn knight_distances() -> [[u8; 64]; 64] {
    const JUMPS: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut table = [[u8::MAX; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut queue = [0usize; 64];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        table[from][from] = 0;
        while head < tail {
            let sq = queue[head];
            head += 1;
            let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut j = 0;
            while j < 8 {
                let (f, r) = (file + JUMPS[j].0, rank + JUMPS[j].1);
                if f >= 0 && f < 8 && r >= 0 && r < 8 {
                    let next = (r * 8 + f) as usize;
                    if table[from][next] == u8::MAX {
                        table[from][next] = table[from][sq] + 1;
                        queue[tail] = next;
                        tail += 1;
                    }
                }
                j += 1;
            }
        }
        from += 1;
    }
    table
}

/// Returns the distance of `color`'s pieces on `board` from the opponent's starting squares.
pub(crate) fn distance_from_reversed_start(board: &Board, color: Color) -> u32 {
    let back = color.other().backrank();
    let pawn_rank = match color {
        Color::White => Rank::Seventh,
        Color::Black => Rank::Second,
    };
    let at = |file: File| Square::from_coords(file, back);
    let mut total = 0;
    for sq in board.by_color(color) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        total += match role {
            Role::King => sq.distance(at(File::E)),
            Role::Queen => sq.distance(at(File::D)),
            Role::Rook => manhattan(sq, at(File::A)).min(manhattan(sq, at(File::H))),
            Role::Knight => {
                let d = |t: Square| u32::from(KNIGHT_DISTANCE[sq.to_usize()][t.to_usize()]);
                d(at(File::B)).min(d(at(File::G)))
            }
            Role::Bishop => {
                let c = at(File::C);
                let target = if c.is_light() == sq.is_light() {
                    c
                } else {
                    at(File::F)
                };
                sq.distance(target)
            }
            Role::Pawn => sq.rank().distance(pawn_rank),
        };
    }
    total
}

impl Player<Chess> for ReverseStarting {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let me = pos.turn();
        choose_best(game.legal_moves(), rng, |m| {
            Reverse(distance_from_reversed_start(after(pos, m).board(), me))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, picks, set, START};

    #[test]
    fn knight_distances_are_true_to_the_board_edges() {
        let d = |a: Square, b: Square| KNIGHT_DISTANCE[a.to_usize()][b.to_usize()];
        assert_eq!(d(Square::A1, Square::B2), 4);
        assert_eq!(d(Square::A1, Square::H8), 6);
        assert_eq!(d(Square::B1, Square::C3), 1);
        assert_eq!(d(Square::B1, Square::G8), 4);
        assert_eq!(d(Square::B1, Square::B8), 5);
        assert!(KNIGHT_DISTANCE.iter().flatten().all(|&x| x <= 6));
    }

    #[test]
    fn the_starting_position_is_far_from_its_reverse() {
        // White: 8 pawns 5 ranks each, rooks 7, knights 4 (b1 to g8 or g1 to b8... each
        // nearest: b1 to b8 is 5, to g8 is 4), bishops 7, queen 7, king 7.
        let g = game(START);
        let white = distance_from_reversed_start(g.position().board(), Color::White);
        assert_eq!(white, 8 * 5 + 2 * 7 + 2 * 4 + 2 * 7 + 7 + 7);
        let black = distance_from_reversed_start(g.position().board(), Color::Black);
        assert_eq!(black, white, "the metric is the same for both colours");
    }

    #[test]
    fn knight_and_king_moves_that_gain_one_step() {
        // Knight b1: 4 to g8, 3 from c3 or d2; king e1: 7 to e8, 6 from the second rank.
        let fen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
        let expected = set(&["b1c3", "b1d2", "e1d2", "e1e2", "e1f2"]);
        assert_eq!(picks(&mut ReverseStarting, fen, 300), expected);
    }

    #[test]
    fn a_black_pawn_pushes_two_towards_the_second_rank() {
        let fen = "4k3/p7/8/8/8/8/8/4K3 b - - 0 1";
        assert_eq!(picks(&mut ReverseStarting, fen, 50), set(&["a7a5"]));
    }

    #[test]
    fn a_rook_goes_the_manhattan_way_to_the_nearer_corner() {
        // Rook c1: to a8 is 2 + 7 = 9, to h8 5 + 7 = 12. Rc8 leaves 2 (and checks);
        // nothing else gains as much as 7 in one move.
        let fen = "4k3/8/8/8/8/8/8/2R1K3 w - - 0 1";
        assert_eq!(picks(&mut ReverseStarting, fen, 50), set(&["c1c8"]));
    }
}
