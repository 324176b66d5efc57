//! The bitboard position the squava searchers work on: the stones of the side to move and
//! of its opponent, with the rules of seed 000 (four in a row wins, three in a row without
//! four loses, a full board is a draw) decided by [`eloworld_games::squava::line_made`].
//!
//! Everything here is `Copy` and allocation-free: the searchers and the random playouts
//! call it millions of times a second.

use eloworld_games::squava::{line_made, FULL, SQUARES};
use eloworld_games::{GameRng, Squava};

/// What a placement did, seen by the side that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The game goes on.
    Continue,
    /// Four in a row: the mover wins.
    Win,
    /// Three in a row without four: the mover loses.
    Loss,
    /// The board is full without a line: a draw.
    Draw,
}

/// A position from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stones of the side to move.
    pub own: u32,
    /// The stones of the other side.
    pub opp: u32,
}

impl Position {
    /// Returns the position of a game, seen by its side to move.
    #[must_use]
    pub fn of(game: &Squava) -> Position {
        let side = eloworld_games::Game::side_to_move(game);
        Position {
            own: game.stones(side),
            opp: game.stones(side.other()),
        }
    }

    /// Returns the empty squares.
    #[inline]
    #[must_use]
    pub const fn empty(self) -> u32 {
        !(self.own | self.opp) & FULL
    }

    /// Returns what placing on empty square `sq` does for the side to move.
    #[inline]
    #[must_use]
    pub fn effect(self, sq: u32) -> Effect {
        let own = self.own | (1 << sq);
        match line_made(own, sq as usize) {
            Some(true) => Effect::Win,
            Some(false) => Effect::Loss,
            None if own | self.opp == FULL => Effect::Draw,
            None => Effect::Continue,
        }
    }

    /// Returns the position after the side to move places on `sq`, seen by the opponent
    /// (who is then to move).
    #[inline]
    #[must_use]
    pub const fn after(self, sq: u32) -> Position {
        Position {
            own: self.opp,
            opp: self.own | (1 << sq),
        }
    }
}

/// The 28 four-in-a-row lines and the 48 three-in-a-row lines of the board.
pub struct Lines {
    /// Four-square lines.
    pub fours: [u32; 28],
    /// Three-square lines.
    pub threes: [u32; 48],
}

const fn line_masks<const LEN: i32, const N: usize>() -> [u32; N] {
    let directions = [(1i32, 0i32), (0, 1), (1, 1), (1, -1)];
    let mut out = [0u32; N];
    let mut n = 0;
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = directions[d];
        let mut row = 0;
        while row < 5 {
            let mut col = 0;
            while col < 5 {
                let (r1, c1) = (row + dr * (LEN - 1), col + dc * (LEN - 1));
                if r1 >= 0 && r1 < 5 && c1 >= 0 && c1 < 5 {
                    let mut mask = 0u32;
                    let mut k = 0;
                    while k < LEN {
                        mask |= 1 << ((row + dr * k) * 5 + col + dc * k);
                        k += 1;
                    }
                    out[n] = mask;
                    n += 1;
                }
                col += 1;
            }
            row += 1;
        }
        d += 1;
    }
    out
}

/// Every line of the board.
pub static LINES: Lines = Lines {
    fours: line_masks::<4, 28>(),
    threes: line_masks::<3, 48>(),
};

/// Returns the empty squares where `own` would make four in a row (whatever else the
/// stone makes: four wins even when it also makes three).
#[inline]
#[must_use]
pub fn winning_squares(own: u32, opp: u32) -> u32 {
    let empty = !(own | opp) & FULL;
    let mut out = 0;
    for &line in &LINES.fours {
        let gap = line & !own;
        if gap.count_ones() == 1 && gap & empty != 0 {
            out |= gap;
        }
    }
    out
}

/// Returns the empty squares where `own` would make three in a row without four: the
/// squares that side must never fill.
#[inline]
#[must_use]
pub fn losing_squares(own: u32, opp: u32) -> u32 {
    let empty = !(own | opp) & FULL;
    let mut out = 0;
    for &line in &LINES.threes {
        let gap = line & !own;
        if gap.count_ones() == 1 && gap & empty != 0 {
            out |= gap;
        }
    }
    out & !winning_squares(own, opp)
}

/// `2^64 mod n` for n = 0..=25: the rejection thresholds of Lemire's multiply-shift draw.
const THRESHOLDS: [u64; SQUARES + 1] = {
    let mut t = [0u64; SQUARES + 1];
    let mut n = 1;
    while n <= SQUARES {
        t[n] = (n as u64).wrapping_neg() % n as u64;
        n += 1;
    }
    t
};

/// Returns a uniform integer in `0..n` for `1 ≤ n ≤ 25`: exactly [`GameRng::below`]
/// (the same draws, the same answers) with its modulo read from a table, which saves a
/// 64-bit division per placement in the playouts.
#[inline]
fn below_25(rng: &mut GameRng, n: usize) -> usize {
    let threshold = THRESHOLDS[n];
    loop {
        let m = u128::from(rand::RngCore::next_u64(rng)) * n as u128;
        if (m as u64) >= threshold {
            return (m >> 64) as usize;
        }
    }
}

/// Plays uniformly random moves from `pos` to the end and returns the score of the side
/// to move at `pos`: 1 for a win, 0.5 for a draw, 0 for a loss. Allocates nothing: the
/// empty squares sit in a fixed array and each move swaps the chosen one out.
///
/// A playout is at most 25 placements; each is one [`line_made`] test.
#[inline]
pub fn random_playout(pos: Position, rng: &mut GameRng) -> f64 {
    let mut squares = [0u8; SQUARES];
    let mut n = 0;
    let mut empty = pos.empty();
    while empty != 0 {
        squares[n] = empty.trailing_zeros() as u8;
        n += 1;
        empty &= empty - 1;
    }
    let mut stones = [pos.own, pos.opp];
    let mut mover = 0;
    while n > 0 {
        let i = below_25(rng, n);
        let sq = u32::from(squares[i]);
        n -= 1;
        squares[i] = squares[n];
        let own = stones[mover] | (1 << sq);
        stones[mover] = own;
        match line_made(own, sq as usize) {
            Some(true) => return if mover == 0 { 1.0 } else { 0.0 },
            Some(false) => return if mover == 0 { 0.0 } else { 1.0 },
            None => mover ^= 1,
        }
    }
    0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::squava::parse_square;
    use eloworld_games::Game;

    fn sq(name: &str) -> u32 {
        u32::from(parse_square(name).expect("square"))
    }

    fn bits(names: &str) -> u32 {
        names.split_whitespace().map(|n| 1 << sq(n)).sum()
    }

    #[test]
    fn the_board_has_28_fours_and_48_threes() {
        assert!(LINES.fours.iter().all(|m| m.count_ones() == 4));
        assert!(LINES.threes.iter().all(|m| m.count_ones() == 3));
        let mut f = LINES.fours.to_vec();
        f.sort_unstable();
        f.dedup();
        assert_eq!(f.len(), 28);
        let mut t = LINES.threes.to_vec();
        t.sort_unstable();
        t.dedup();
        assert_eq!(t.len(), 48);
    }

    #[test]
    fn effects_follow_the_rules() {
        let p = Position {
            own: bits("a1 b1 d1"),
            opp: bits("a5 c5"),
        };
        assert_eq!(p.effect(sq("c1")), Effect::Win);
        let p = Position {
            own: bits("a1 b1"),
            opp: bits("a5"),
        };
        assert_eq!(p.effect(sq("c1")), Effect::Loss);
        assert_eq!(p.effect(sq("d1")), Effect::Continue);
        assert_eq!(
            p.after(sq("d1")),
            Position {
                own: bits("a5"),
                opp: bits("a1 b1 d1")
            }
        );
    }

    #[test]
    fn winning_and_losing_squares_are_found() {
        let own = bits("a1 b1 d1 a3");
        assert_eq!(winning_squares(own, 0), bits("c1"));
        // c1 makes four (a win), so it is not a losing square; a2 makes three on column a.
        assert_eq!(losing_squares(own, 0), bits("a2"));
        // A filled gap is no square at all.
        assert_eq!(winning_squares(own, bits("c1")), 0);
    }

    #[test]
    fn the_table_draw_is_the_game_rng_draw() {
        let (mut a, mut b) = (GameRng::new(7), GameRng::new(7));
        for i in 0..10_000 {
            let n = 1 + i % 25;
            assert_eq!(below_25(&mut a, n), b.below(n));
        }
    }

    #[test]
    fn playouts_score_the_side_to_move() {
        let mut rng = GameRng::new(3);
        let pos = Position::of(&Squava::new(()));
        let mut total = 0.0;
        for _ in 0..2000 {
            let s = random_playout(pos, &mut rng);
            assert!(s == 0.0 || s == 0.5 || s == 1.0);
            total += s;
        }
        // Random squava is close to even; neither side is crushed.
        assert!((600.0..1400.0).contains(&total), "{total}");
        // One square left, which makes no line: every playout is a draw.
        let g = Squava::from_position("xxoox/ooxxo/xxoox/ooxxo/xxoo. x", ()).expect("pos");
        assert_eq!(random_playout(Position::of(&g), &mut rng), 0.5);
    }
}
