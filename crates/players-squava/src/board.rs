//! The bitboard position the squava searchers work on: the stones of the side to move and
//! of its opponent, with the rules of the Squava article (four in a row wins, three in a row without
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

/// The board's four line directions as square-index steps: along a rank, along a file,
/// and the two diagonals.
const STEPS: [i32; 4] = [1, 5, 6, 4];
/// The same directions as (file, rank) steps.
const DELTAS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// `GAP_MASKS[LEN - 3][d][j]`: the squares `s` such that the line of `LEN` squares in
/// direction `d` holding `s` at position `j` lies on the board. Shifting a bitboard by
/// the other positions' offsets then reads exactly that line's squares at bit `s`.
const fn gap_masks<const LEN: i32>() -> [[u32; 4]; 4] {
    let mut out = [[0u32; 4]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = DELTAS[d];
        let mut sq = 0;
        while sq < 25 {
            let (f, r) = (sq % 5, sq / 5);
            let mut j = 0;
            while j < LEN {
                let (f0, r0) = (f - df * j, r - dr * j);
                let (f1, r1) = (f0 + df * (LEN - 1), r0 + dr * (LEN - 1));
                if f0 >= 0 && f0 < 5 && r0 >= 0 && r0 < 5 && f1 >= 0 && f1 < 5 && r1 >= 0 && r1 < 5
                {
                    out[d][j as usize] |= 1 << sq;
                }
                j += 1;
            }
            sq += 1;
        }
        d += 1;
    }
    out
}

const FOUR_GAPS: [[u32; 4]; 4] = gap_masks::<4>();
const THREE_GAPS: [[u32; 4]; 4] = gap_masks::<3>();

/// Returns `b` moved so that bit `s` of the result is bit `s + offset` of `b`.
#[inline(always)]
const fn read_at(b: u32, offset: i32) -> u32 {
    if offset >= 0 {
        b >> offset
    } else {
        b << -offset
    }
}

/// Returns every square `s` that is the `LEN`-th square of a line of `LEN` whose other
/// squares all hold `own`, whether empty or not (branch-free, by shifts).
#[inline(always)]
fn completions<const LEN: i32>(own: u32, masks: &[[u32; 4]; 4]) -> u32 {
    let mut out = 0;
    let mut d = 0;
    while d < 4 {
        let step = STEPS[d];
        let mut j = 0;
        while j < LEN {
            let mut all = masks[d][j as usize];
            let mut i = 0;
            while i < LEN {
                if i != j {
                    all &= read_at(own, (i - j) * step);
                }
                i += 1;
            }
            out |= all;
            j += 1;
        }
        d += 1;
    }
    out
}

/// Returns the empty squares where `own` would make four in a row (whatever else the
/// stone makes: four wins even when it also makes three).
#[inline]
#[must_use]
pub fn winning_squares(own: u32, opp: u32) -> u32 {
    completions::<4>(own, &FOUR_GAPS) & !(own | opp) & FULL
}

/// Returns the empty squares where `own` would make three in a row without four: the
/// squares that side must never fill.
#[inline]
#[must_use]
pub fn losing_squares(own: u32, opp: u32) -> u32 {
    let empty = !(own | opp) & FULL;
    completions::<3>(own, &THREE_GAPS) & empty & !winning_squares(own, opp)
}

/// Returns the `n`-th (from 0) set bit of `bits` as a one-bit mask.
#[inline]
fn nth_bit(mut bits: u32, n: usize) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

/// Plays the Squava article's "heavy" playout from `pos` and returns the score of the side
/// to move at `pos` (1 win, 0.5 draw, 0 loss): each side in turn makes four if it can,
/// otherwise places on a uniformly random square that does not make three, and loses
/// when every empty square would (bediger4000/squava2, `players/mcts.go`: "players make
/// winning moves if they can and avoid losing moves if they can"). Allocates nothing.
#[inline]
pub fn heavy_playout(pos: Position, rng: &mut GameRng) -> f64 {
    let mut stones = [pos.own, pos.opp];
    let mut mover = 0;
    loop {
        let (own, opp) = (stones[mover], stones[mover ^ 1]);
        let empty = !(own | opp) & FULL;
        if empty == 0 {
            return 0.5;
        }
        if winning_squares(own, opp) != 0 {
            return if mover == 0 { 1.0 } else { 0.0 };
        }
        let safe = empty & !(completions::<3>(own, &THREE_GAPS));
        if safe == 0 {
            return if mover == 0 { 0.0 } else { 1.0 };
        }
        let pick = below_25(rng, safe.count_ones() as usize);
        stones[mover] = own | nth_bit(safe, pick);
        mover ^= 1;
    }
}

/// The four three-square lines that lie on diagonals of exactly three squares (next to the
/// corners): three there loses and four is impossible, so two stones and a gap only cost.
pub const SHORT_DIAGONALS: [u32; 4] = short_lines::<3>();
/// The four four-square lines that lie on diagonals of exactly four squares: holding both
/// middle squares makes each empty end a square that makes three.
pub const FOUR_DIAGONALS: [u32; 4] = short_lines::<4>();

/// The `LEN`-square lines on diagonals of exactly `LEN` squares.
const fn short_lines<const LEN: i32>() -> [u32; 4] {
    let mut out = [0u32; 4];
    let mut n = 0;
    // Diagonals (1, 1) start on the first rank or file; anti-diagonals (-1, 1) on the
    // first rank or the last file. A diagonal of LEN squares starts LEN - 1 from a corner.
    let starts = [
        (5 - LEN, 0, 1),
        (0, 5 - LEN, 1),
        (LEN - 1, 0, -1),
        (4, 5 - LEN, -1),
    ];
    while n < 4 {
        let (f, r, df) = starts[n];
        let mut mask = 0u32;
        let mut k = 0;
        while k < LEN {
            mask |= 1 << ((r + k) * 5 + f + df * k);
            k += 1;
        }
        out[n] = mask;
        n += 1;
    }
    out
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
    fn shifted_line_tests_agree_with_the_line_lists() {
        // The shift-based squares against a plain loop over the 28 and 48 lines, on
        // random stone sets.
        let mut rng = GameRng::new(8);
        for _ in 0..3000 {
            let (mut own, mut opp) = (0u32, 0u32);
            for sq in 0..25 {
                match rng.below(3) {
                    0 => own |= 1 << sq,
                    1 => opp |= 1 << sq,
                    _ => {}
                }
            }
            let empty = !(own | opp) & FULL;
            let mut wins = 0;
            for &line in &LINES.fours {
                let gap = line & !own;
                if gap.count_ones() == 1 && gap & empty != 0 {
                    wins |= gap;
                }
            }
            let mut threes = 0;
            for &line in &LINES.threes {
                let gap = line & !own;
                if gap.count_ones() == 1 && gap & empty != 0 {
                    threes |= gap;
                }
            }
            assert_eq!(winning_squares(own, opp), wins);
            assert_eq!(losing_squares(own, opp), threes & !wins);
        }
    }

    #[test]
    fn heavy_playouts_take_four_and_avoid_three() {
        let mut rng = GameRng::new(5);
        // The side to move has a four at c1: it always wins, whatever else is on the board.
        let p = Position {
            own: bits("a1 b1 d1"),
            opp: bits("a5 c5 e3"),
        };
        for _ in 0..200 {
            assert_eq!(heavy_playout(p, &mut rng), 1.0);
        }
        // A 2×2 block leaves the side to move many squares that make three (c1 c2 c3 a3
        // b3): a random playout often fills one and loses at once, a heavy one never does.
        let p = Position {
            own: bits("a1 b1 a2 b2"),
            opp: bits("e5 c4 e3 a5"),
        };
        let heavy: f64 = (0..400).map(|_| heavy_playout(p, &mut rng)).sum();
        let random: f64 = (0..400).map(|_| random_playout(p, &mut rng)).sum();
        assert!(heavy > random + 40.0, "heavy {heavy} random {random}");
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
