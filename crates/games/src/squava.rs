//! Squava on bitboards: a 5×5 board, players alternate placing stones; four in a row
//! (row, column or diagonal) wins, three in a row without four loses, a move that makes
//! both wins, and a full board is a draw (the Squava article).
//!
//! Square `i` is bit `i` of a `u32`, with `i = 5·row + column`, `a1` = 0, `e1` = 4,
//! `a5` = 20. The text form of a position is the five rows from row 5 down to row 1,
//! separated by `/`, with `x` (first player), `o` (second) and `.` (empty), then a space
//! and the side to move: `...../...../..x../...../..... o`.

use crate::{Game, GameError, GameKind, Outcome, Side, Termination};

/// The number of squares.
pub const SQUARES: usize = 25;
/// A bitboard with every square set.
pub const FULL: u32 = (1 << SQUARES) - 1;

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Builds, for each square, the masks of every `len`-long line through it.
const fn lines_through<const LEN: usize, const MAX: usize>() -> [[u32; MAX]; SQUARES] {
    let mut out = [[0u32; MAX]; SQUARES];
    let mut counts = [0usize; SQUARES];
    let mut d = 0;
    while d < 4 {
        let (dc, dr) = DIRECTIONS[d];
        let mut r0 = 0i32;
        while r0 < 5 {
            let mut c0 = 0i32;
            while c0 < 5 {
                let (r1, c1) = (r0 + dr * (LEN as i32 - 1), c0 + dc * (LEN as i32 - 1));
                if r1 >= 0 && r1 < 5 && c1 >= 0 && c1 < 5 {
                    let mut mask = 0u32;
                    let mut k = 0;
                    while k < LEN {
                        mask |= 1 << ((r0 + dr * k as i32) * 5 + c0 + dc * k as i32);
                        k += 1;
                    }
                    let mut s = 0;
                    while s < SQUARES {
                        if mask & (1 << s) != 0 {
                            out[s][counts[s]] = mask;
                            counts[s] += 1;
                        }
                        s += 1;
                    }
                }
                c0 += 1;
            }
            r0 += 1;
        }
        d += 1;
    }
    out
}

/// For each square, the four-in-a-row masks through it (unused slots are 0).
static FOURS: [[u32; 8]; SQUARES] = lines_through::<4, 8>();
/// For each square, the three-in-a-row masks through it (unused slots are 0).
static THREES: [[u32; 12]; SQUARES] = lines_through::<3, 12>();

/// Returns what placing a stone on `sq` does for a side whose stones (including the new
/// one) are `own`: `Some(true)` for four in a row, `Some(false)` for three without four.
#[inline]
#[must_use]
pub fn line_made(own: u32, sq: usize) -> Option<bool> {
    for &m in &FOURS[sq] {
        if m != 0 && own & m == m {
            return Some(true);
        }
    }
    for &m in &THREES[sq] {
        if m != 0 && own & m == m {
            return Some(false);
        }
    }
    None
}

/// Returns the name of square `sq` (`a1` … `e5`).
#[must_use]
pub fn square_name(sq: u8) -> String {
    let mut name = String::with_capacity(2);
    write_square(sq, &mut name);
    name
}

/// Appends the name of square `sq` to `out`.
fn write_square(sq: u8, out: &mut String) {
    out.push(char::from(b'a' + sq % 5));
    out.push(char::from(b'1' + sq / 5));
}

/// Appends the code of a stored move's word (the cell's index) to `out`; `None` for a
/// word that is no cell.
pub(crate) fn write_word(word: u16, out: &mut String) -> Option<()> {
    let sq = u8::try_from(word).ok().filter(|&sq| sq < 25)?;
    write_square(sq, out);
    Some(())
}

/// Parses a square name (`c3`), case-insensitive.
#[must_use]
pub fn parse_square(text: &str) -> Option<u8> {
    let b = text.trim().as_bytes();
    if b.len() != 2 {
        return None;
    }
    let file = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let rank = b[1].checked_sub(b'1')?;
    (file < 5 && rank < 5).then(|| rank * 5 + file)
}

/// A squava game in progress. Two games are equal when their positions are.
#[derive(Clone, Debug)]
pub struct Squava {
    stones: [u32; 2],
    to_move: Side,
    moves: [u8; SQUARES],
    n_moves: u8,
    ply: u32,
    outcome: Option<Outcome>,
}

impl PartialEq for Squava {
    fn eq(&self, other: &Squava) -> bool {
        self.stones == other.stones
            && self.to_move == other.to_move
            && self.outcome == other.outcome
    }
}

impl Eq for Squava {}

impl Squava {
    fn from_parts(stones: [u32; 2], to_move: Side, outcome: Option<Outcome>) -> Squava {
        let mut g = Squava {
            stones,
            to_move,
            moves: [0; SQUARES],
            n_moves: 0,
            ply: 0,
            outcome,
        };
        g.refresh_moves();
        g
    }

    fn refresh_moves(&mut self) {
        self.n_moves = 0;
        if self.outcome.is_some() {
            return;
        }
        let mut empty = !(self.stones[0] | self.stones[1]) & FULL;
        while empty != 0 {
            self.moves[usize::from(self.n_moves)] = empty.trailing_zeros() as u8;
            self.n_moves += 1;
            empty &= empty - 1;
        }
    }

    /// Returns the stones of `side` as a bitboard.
    #[must_use]
    pub fn stones(&self, side: Side) -> u32 {
        self.stones[side.index()]
    }

    /// Returns the empty squares as a bitboard.
    #[must_use]
    pub fn empty(&self) -> u32 {
        !(self.stones[0] | self.stones[1]) & FULL
    }
}

impl Game for Squava {
    type Move = u8;
    type Rules = ();
    const KIND: GameKind = GameKind::Squava;

    fn new((): ()) -> Squava {
        Squava::from_parts([0, 0], Side::First, None)
    }

    fn from_position(text: &str, (): ()) -> Result<Squava, GameError> {
        let bad = |reason: &str| GameError::BadPosition {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let mut parts = text.split_whitespace();
        let board = parts.next().ok_or_else(|| bad("empty"))?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 5 || rows.iter().any(|r| r.chars().count() != 5) {
            return Err(bad("expected five rows of five squares separated by '/'"));
        }
        let mut stones = [0u32; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = 4 - i;
            for (file, c) in row.chars().enumerate() {
                let bit = 1u32 << (rank * 5 + file);
                match c {
                    'x' | 'X' => stones[0] |= bit,
                    'o' | 'O' => stones[1] |= bit,
                    '.' => {}
                    _ => return Err(bad("squares are 'x', 'o' or '.'")),
                }
            }
        }
        let (nx, no) = (stones[0].count_ones(), stones[1].count_ones());
        let to_move = match parts.next() {
            Some("x") => Side::First,
            Some("o") => Side::Second,
            None if nx == no => Side::First,
            None if nx == no + 1 => Side::Second,
            _ => return Err(bad("side to move is 'x' or 'o'")),
        };
        // A position with a line already made is over; score it for the side that made it.
        let mut outcome = None;
        for side in [Side::First, Side::Second] {
            let own = stones[side.index()];
            for sq in 0..SQUARES {
                if own & (1 << sq) != 0 {
                    match line_made(own, sq) {
                        Some(true) => outcome = Some(Outcome::win(side, Termination::FourInARow)),
                        Some(false) if outcome.is_none() => {
                            outcome = Some(Outcome::win(side.other(), Termination::ThreeInARow));
                        }
                        _ => {}
                    }
                }
            }
        }
        if outcome.is_none() && (stones[0] | stones[1]) == FULL {
            outcome = Some(Outcome::draw(Termination::BoardFull));
        }
        Ok(Squava::from_parts(stones, to_move, outcome))
    }

    #[inline]
    fn legal_moves(&self) -> &[u8] {
        &self.moves[..usize::from(self.n_moves)]
    }

    #[inline]
    fn play(&mut self, mv: u8) {
        let me = self.to_move;
        let own = self.stones[me.index()] | (1 << mv);
        self.stones[me.index()] = own;
        self.to_move = me.other();
        self.ply += 1;
        self.outcome = match line_made(own, usize::from(mv)) {
            Some(true) => Some(Outcome::win(me, Termination::FourInARow)),
            Some(false) => Some(Outcome::win(me.other(), Termination::ThreeInARow)),
            None if (own | self.stones[me.other().index()]) == FULL => {
                Some(Outcome::draw(Termination::BoardFull))
            }
            None => None,
        };
        if self.outcome.is_some() {
            self.n_moves = 0;
        } else if let Some(i) = self.legal_moves().iter().position(|&m| m == mv) {
            // Keep the move list sorted: shift the tail down over the taken square.
            let n = usize::from(self.n_moves);
            self.moves.copy_within(i + 1..n, i);
            self.n_moves -= 1;
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn move_text(&self, mv: u8) -> String {
        square_name(mv)
    }

    fn move_code(&self, mv: u8) -> String {
        square_name(mv)
    }

    fn move_word(&self, mv: u8) -> u16 {
        u16::from(mv)
    }

    fn write_move_code(&self, mv: u8, out: &mut String) {
        write_square(mv, out);
    }

    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        let sq = parse_square(text).ok_or_else(|| GameError::BadMove {
            text: text.to_owned(),
            reason: "expected a square a1..e5, such as c3".to_owned(),
        })?;
        if self.is_legal(sq) {
            Ok(sq)
        } else {
            Err(GameError::IllegalMove {
                text: text.to_owned(),
                position: self.position_text(),
            })
        }
    }

    fn position_text(&self) -> String {
        let mut s = String::with_capacity(32);
        for rank in (0..5).rev() {
            for file in 0..5 {
                let bit = 1u32 << (rank * 5 + file);
                s.push(if self.stones[0] & bit != 0 {
                    'x'
                } else if self.stones[1] & bit != 0 {
                    'o'
                } else {
                    '.'
                });
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.to_move == Side::First {
            " x"
        } else {
            " o"
        });
        s
    }

    fn board_text(&self) -> String {
        let mut s = String::new();
        let text = self.position_text();
        for (i, row) in text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .enumerate()
        {
            s.push_str(&format!("{} ", 5 - i));
            for c in row.chars() {
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("   a b c d e\n");
        s.push_str(if self.to_move == Side::First {
            "x to move\n"
        } else {
            "o to move\n"
        });
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &str) -> Squava {
        let mut g = Squava::new(());
        for m in moves.split_whitespace() {
            let mv = g.parse_move(m).expect(m);
            g.play(mv);
        }
        g
    }

    #[test]
    fn line_tables_have_the_expected_sizes() {
        let fours: usize = FOURS
            .iter()
            .map(|l| l.iter().filter(|&&m| m != 0).count())
            .sum();
        let threes: usize = THREES
            .iter()
            .map(|l| l.iter().filter(|&&m| m != 0).count())
            .sum();
        // 28 four-lines and 48 three-lines, each counted once per square on it.
        assert_eq!(fours, 28 * 4);
        assert_eq!(threes, 48 * 3);
    }

    #[test]
    fn four_in_a_row_wins() {
        // x: a1 b1 d1 then c1 fills the gap (o plays apart without making three).
        let g = play("a1 a5 b1 c5 d1 e3 c1");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, Termination::FourInARow))
        );
        assert!(g.legal_moves().is_empty());
    }

    #[test]
    fn three_in_a_row_loses() {
        let g = play("a1 a5 b1 c5 c1");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::Second, Termination::ThreeInARow))
        );
    }

    #[test]
    fn a_move_that_makes_four_and_three_wins() {
        // x has a1 b1 d1 and b2 c3; playing c1 makes a1-d1 (four) and c1-c3? no: make
        // c1 complete row a1-d1 and column c1 c2 c3 with c2 c3 already x.
        let g = Squava::from_position("...../...../..x../..x../xx.x. x", ()).expect("pos");
        let mut g = g;
        g.play(parse_square("c1").expect("sq"));
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, Termination::FourInARow))
        );
    }

    #[test]
    fn diagonal_three_loses_for_the_second_player() {
        let g = play("a5 a1 e5 b2 e4 c3");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, Termination::ThreeInARow))
        );
    }

    #[test]
    fn full_board_without_lines_is_a_draw() {
        // A full board with no three in a row for either side, one square left for x.
        let text = "xxoox/ooxxo/xxoox/ooxxo/xxoo. x";
        let mut g = Squava::from_position(text, ()).expect("pos");
        assert_eq!(g.outcome(), None);
        g.play(parse_square("e1").expect("sq"));
        assert_eq!(g.outcome(), Some(Outcome::draw(Termination::BoardFull)));
    }

    #[test]
    fn position_text_round_trips() {
        let g = play("c3 a1 e5");
        let t = g.position_text();
        assert_eq!(t, "....x/...../..x../...../o.... o");
        assert_eq!(Squava::from_position(&t, ()).expect("pos"), g);
    }

    #[test]
    fn occupied_and_malformed_squares_are_rejected() {
        let g = play("c3");
        assert!(matches!(
            g.parse_move("c3"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(g.parse_move("f1"), Err(GameError::BadMove { .. })));
        assert!(matches!(g.parse_move("c"), Err(GameError::BadMove { .. })));
    }

    #[test]
    fn far_off_square_names_are_refused_not_overflowed() {
        // Regression: the square used to be computed before the range check.
        for text in ["zz", "z9", "~~", "a~"] {
            assert_eq!(parse_square(text), None, "{text}");
        }
    }
}
