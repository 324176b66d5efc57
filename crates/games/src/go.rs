//! Go on a padded flat board, under the Computer Go Server's rules: Tromp–Taylor area
//! scoring (a side's stones plus the empty regions that reach only its colour), positional
//! superko, suicide illegal, komi with its fractional half point, and the game over after
//! two passes in a row (or a resignation, or the move cap, scored as the board stands).
//!
//! Black moves first and is [`Side::First`]. A point of a board of size `n` is
//! `(row + 1)·(n + 2) + column + 1` (row 0 at the bottom); the border around the board
//! spares the bounds checks. Groups are circular lists of stones with pseudo-liberties
//! and the sum and sum of squares of their liberty points, so that a group in atari (one
//! distinct liberty: count · Σp² = (Σp)²) is found without a flood fill. Positions are
//! hashed with Zobrist keys; a move that repeats any earlier position is illegal.
//!
//! The text form of a position is its rows from the top down, separated by `/`, with `x`
//! (Black), `o` (White) and `.` (empty), then a space and the side to move (`b` or `w`):
//! `...../...../..x../...../..... w`. Moves are GTP vertices (`D4`, columns `A`–`Z`
//! without `I`, row 1 at the bottom), `pass` and `resign`.

use crate::rng::splitmix64;
use crate::{Game, GameError, GameKind, Outcome, Side, Termination};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The smallest board.
pub const MIN_SIZE: u8 = 2;
/// The largest board (GTP's column letters stop at `Z`, without `I`).
pub const MAX_SIZE: u8 = 25;
/// The board size when none is given (the Computer Go Server's small board).
pub const DEFAULT_SIZE: u8 = 9;

const MAX_WIDTH: usize = MAX_SIZE as usize + 2;
const MAX_POINTS: usize = MAX_WIDTH * MAX_WIDTH;
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
/// A stored pass's word (a placement's word, `row << 5 | column`, is below 1024).
const PASS_WORD: u16 = 0xfffe;
/// A stored resignation's word.
const RESIGN_WORD: u16 = 0xffff;

/// The stored word of a placement at `column`, `row` (0-based, row 0 at the bottom).
fn place_word(column: usize, row: usize) -> u16 {
    ((row as u16) << 5) | column as u16
}

/// Appends the GTP vertex of `column`, `row` (0-based, row 0 at the bottom; both below 25).
fn write_vertex(column: usize, row: usize, out: &mut String) {
    out.push(char::from(COLUMNS[column]));
    let number = row + 1;
    if number >= 10 {
        out.push(char::from(b'0' + (number / 10) as u8));
    }
    out.push(char::from(b'0' + (number % 10) as u8));
}

/// Reads a GTP vertex (`d4`, case-insensitive) into its column and 0-based row, on no
/// board in particular (the row may be past a board's edge).
fn vertex_coordinates(text: &str) -> Option<(usize, usize)> {
    let (&letter, digits) = text.trim().as_bytes().split_first()?;
    let column = COLUMNS
        .iter()
        .position(|&c| c == letter.to_ascii_uppercase())?;
    if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some((column, row.checked_sub(1)?))
}

/// Appends the code of a stored move's word to `out`; `None` for a word that is no move.
pub(crate) fn write_word(word: u16, out: &mut String) -> Option<()> {
    match word {
        PASS_WORD => out.push_str("pass"),
        RESIGN_WORD => out.push_str("resign"),
        _ => {
            let (column, row) = (usize::from(word & 31), usize::from(word >> 5));
            if column >= COLUMNS.len() || row >= COLUMNS.len() {
                return None;
            }
            write_vertex(column, row, out);
        }
    }
    Some(())
}

/// The stored word of a move's code (`D4`, `pass`, `resign`) on the largest board.
pub(crate) fn word_of_code(code: &str) -> Option<u16> {
    if code.eq_ignore_ascii_case("pass") {
        return Some(PASS_WORD);
    }
    if code.eq_ignore_ascii_case("resign") {
        return Some(RESIGN_WORD);
    }
    let (column, row) = vertex_coordinates(code)?;
    (row < COLUMNS.len()).then(|| place_word(column, row))
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// Zobrist keys: one per point and colour.
static ZOBRIST: [[u64; MAX_POINTS]; 2] = zobrist_keys();

const fn zobrist_keys() -> [[u64; MAX_POINTS]; 2] {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x5EED_0F60_u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_POINTS {
            state = splitmix64(state);
            keys[c][p] = state;
            p += 1;
        }
        c += 1;
    }
    keys
}

const fn stone_of(side: Side) -> u8 {
    match side {
        Side::First => BLACK,
        Side::Second => WHITE,
    }
}

/// Komi: the points White receives, kept in half points so that `7.5` is exact.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Komi(i16);

impl Komi {
    /// The komi when none is given: 7, the Computer Go Server's 9×9 komi.
    pub const DEFAULT: Komi = Komi(14);

    /// Reads a komi in points; it must be a multiple of ½ within ±500.
    ///
    /// # Errors
    /// [`GameError::BadRules`] naming the value.
    pub fn from_points(points: f64) -> Result<Komi, GameError> {
        let half = points * 2.0;
        if !half.is_finite() || half.fract() != 0.0 || half.abs() > 1000.0 {
            return Err(GameError::BadRules(format!(
                "komi {points} is not a multiple of 0.5 between -500 and 500"
            )));
        }
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked within ±1000 above"
        )]
        Ok(Komi(half as i16))
    }

    /// Returns the komi in half points.
    #[must_use]
    pub const fn half_points(self) -> i16 {
        self.0
    }

    /// Returns the komi in points.
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}", self.points())
    }
}

/// The rules a Go game is played under: board size, komi, and the move cap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GoRules {
    /// Board size, 2 to 25.
    pub size: u8,
    /// Points White receives.
    pub komi: Komi,
    /// Moves (passes included) after which the game ends and is scored as it stands;
    /// `None` is 3·size², far beyond any game that settles.
    pub max_moves: Option<u32>,
}

impl Default for GoRules {
    fn default() -> GoRules {
        GoRules {
            size: DEFAULT_SIZE,
            komi: Komi::DEFAULT,
            max_moves: None,
        }
    }
}

impl GoRules {
    /// Creates rules for a board of `size` with `komi` and the default move cap.
    ///
    /// # Errors
    /// [`GameError::BadRules`] for a size outside 2–25.
    pub fn new(size: u8, komi: Komi) -> Result<GoRules, GameError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GameError::BadRules(format!(
                "board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
            )));
        }
        Ok(GoRules {
            size,
            komi,
            max_moves: None,
        })
    }

    /// Returns the move cap: `max_moves`, or 3·size².
    #[must_use]
    pub fn move_cap(&self) -> u32 {
        self.max_moves
            .unwrap_or(3 * u32::from(self.size) * u32::from(self.size))
    }

    /// The rule set's name, as SGF's `RU` and the docs state it.
    pub const NAME: &'static str = "Tromp-Taylor";
}

/// A point of the board, as its index on the padded board (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// Returns the padded-board index.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A Go move: a stone on a point, a pass, or a resignation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GoMove {
    /// Places a stone.
    Place(Point),
    /// Passes.
    Pass,
    /// Resigns: the other side wins.
    Resign,
}

/// The Tromp–Taylor count of a position: each side's stones plus the empty points of the
/// regions that reach only its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AreaScore {
    /// Black's area.
    pub black: u32,
    /// White's area (komi not included).
    pub white: u32,
    /// The komi.
    pub komi: Komi,
}

impl AreaScore {
    /// Returns Black's lead in half points, komi included (negative: White leads).
    #[must_use]
    pub fn black_lead_half_points(&self) -> i64 {
        2 * (i64::from(self.black) - i64::from(self.white)) - i64::from(self.komi.half_points())
    }

    /// Returns the result in SGF's and GTP's form: `B+3.5`, `W+0.5`, or `0` for a tie.
    #[must_use]
    pub fn result_text(&self) -> String {
        let lead = self.black_lead_half_points();
        let points = |half: i64| {
            #[expect(clippy::cast_precision_loss, reason = "a board's count is small")]
            let p = half as f64 / 2.0;
            format!("{p:.1}")
        };
        match lead.cmp(&0) {
            std::cmp::Ordering::Greater => format!("B+{}", points(lead)),
            std::cmp::Ordering::Less => format!("W+{}", points(-lead)),
            std::cmp::Ordering::Equal => "0".to_owned(),
        }
    }
}

/// A hasher that passes a Zobrist key through: the keys are already uniform.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type PositionSet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// A Go game in progress.
#[derive(Clone, Debug)]
pub struct Go {
    rules: GoRules,
    width: usize,
    color: Vec<u8>,
    /// The head (representative stone) of each stone's group.
    head: Vec<u16>,
    /// The next stone of each stone's group (a circular list).
    next: Vec<u16>,
    /// At a group's head: its pseudo-liberties (one per stone–empty-point edge) …
    libs: Vec<u16>,
    /// … the sum of their points …
    lib_sum: Vec<u32>,
    /// … the sum of their squares …
    lib_squares: Vec<u64>,
    /// … its stones …
    stones: Vec<u16>,
    /// … and the Zobrist key of its stones.
    group_key: Vec<u64>,
    /// The empty points, and where each is in that list.
    empties: Vec<Point>,
    empty_at: Vec<u16>,
    key: u64,
    seen: PositionSet,
    to_move: Side,
    ply: u32,
    passes: u8,
    outcome: Option<Outcome>,
    legal: OnceLock<Vec<GoMove>>,
}

impl PartialEq for Go {
    fn eq(&self, other: &Go) -> bool {
        self.rules == other.rules
            && self.color == other.color
            && self.to_move == other.to_move
            && self.outcome == other.outcome
    }
}

impl Go {
    fn empty_board(rules: GoRules) -> Result<Go, GameError> {
        let rules = GoRules::new(rules.size, rules.komi).map(|r| GoRules {
            max_moves: rules.max_moves,
            ..r
        })?;
        let n = usize::from(rules.size);
        let width = n + 2;
        let points = width * width;
        let mut color = vec![BORDER; points];
        let mut empties = Vec::with_capacity(n * n);
        let mut empty_at = vec![0u16; points];
        for row in 0..n {
            for col in 0..n {
                let p = (row + 1) * width + col + 1;
                color[p] = EMPTY;
                empty_at[p] = empties.len() as u16;
                empties.push(Point(p as u16));
            }
        }
        // Room for a game's positions from the start: growing the set by doubling rehashed it
        // six times in a random 9×9 game, a twentieth of the game's time.
        let mut seen = PositionSet::with_capacity_and_hasher(2 * n * n, Default::default());
        seen.insert(0);
        Ok(Go {
            rules,
            width,
            color,
            head: vec![0; points],
            next: vec![0; points],
            libs: vec![0; points],
            lib_sum: vec![0; points],
            lib_squares: vec![0; points],
            stones: vec![0; points],
            group_key: vec![0; points],
            empties,
            empty_at,
            key: 0,
            seen,
            to_move: Side::First,
            ply: 0,
            passes: 0,
            outcome: None,
            legal: OnceLock::new(),
        })
    }

    /// Creates the empty board under `rules`.
    ///
    /// # Errors
    /// [`GameError::BadRules`] for a size outside 2–25.
    pub fn try_new(rules: GoRules) -> Result<Go, GameError> {
        Go::empty_board(rules)
    }

    /// Returns the rules.
    #[must_use]
    pub fn rules(&self) -> GoRules {
        self.rules
    }

    /// Returns the board size.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.rules.size
    }

    /// Returns the point at `column`, `row` (0-based, row 0 at the bottom), if on the board.
    #[must_use]
    pub fn point(&self, column: usize, row: usize) -> Option<Point> {
        let n = usize::from(self.rules.size);
        (column < n && row < n).then(|| Point(((row + 1) * self.width + column + 1) as u16))
    }

    /// Returns the column and row (0-based, row 0 at the bottom) of a point.
    #[must_use]
    pub fn coordinates(&self, p: Point) -> (usize, usize) {
        let i = p.index();
        (i % self.width - 1, i / self.width - 1)
    }

    /// Returns the GTP vertex of a point (`D4`).
    #[must_use]
    pub fn vertex(&self, p: Point) -> String {
        let mut vertex = String::with_capacity(3);
        let (c, r) = self.coordinates(p);
        write_vertex(c, r, &mut vertex);
        vertex
    }

    /// Reads a GTP vertex (`d4`, case-insensitive).
    #[must_use]
    pub fn parse_vertex(&self, text: &str) -> Option<Point> {
        let (column, row) = vertex_coordinates(text)?;
        self.point(column, row)
    }

    /// Returns which side has a stone on `p`, if any.
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<Side> {
        match self.color.get(p.index()) {
            Some(&BLACK) => Some(Side::First),
            Some(&WHITE) => Some(Side::Second),
            _ => None,
        }
    }

    /// Returns the empty points (in no particular order).
    #[must_use]
    pub fn empty_points(&self) -> &[Point] {
        &self.empties
    }

    /// Returns how many passes in a row ended the last moves (0, 1, or 2 once over).
    #[must_use]
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes
    }

    #[inline]
    fn neighbours(&self, p: usize) -> [usize; 4] {
        [p - 1, p + 1, p - self.width, p + self.width]
    }

    #[inline]
    fn in_atari(&self, h: usize) -> bool {
        let libs = u64::from(self.libs[h]);
        let sum = u64::from(self.lib_sum[h]);
        libs > 0 && libs * self.lib_squares[h] == sum * sum
    }

    /// Returns whether `p` is a single-point eye of `side`: every neighbour is its stone,
    /// and at most one diagonal is the opponent's (none on the edge) — the eye a light
    /// Monte-Carlo playout does not fill.
    #[must_use]
    pub fn is_eye(&self, p: Point, side: Side) -> bool {
        let p = p.index();
        let own = stone_of(side);
        if self.color[p] != EMPTY {
            return false;
        }
        if self
            .neighbours(p)
            .iter()
            .any(|&q| self.color[q] != own && self.color[q] != BORDER)
        {
            return false;
        }
        let w = self.width;
        let mut enemy = 0;
        let mut edge = false;
        for q in [p - w - 1, p - w + 1, p + w - 1, p + w + 1] {
            match self.color[q] {
                BORDER => edge = true,
                c if c == 3 - own => enemy += 1,
                _ => {}
            }
        }
        enemy + usize::from(edge) < 2
    }

    /// Checks a stone of colour `c` on the empty point `p`: `None` if it is suicide or
    /// repeats a position, else the position's key after it.
    #[inline]
    fn check_place(&self, p: usize, c: u8) -> Option<u64> {
        let mut safe = false;
        let mut key = self.key ^ ZOBRIST[usize::from(c - 1)][p];
        let mut taken = [0usize; 4];
        let mut n_taken = 0;
        for q in self.neighbours(p) {
            match self.color[q] {
                EMPTY => safe = true,
                BORDER => {}
                x if x == c => {
                    if !self.in_atari(usize::from(self.head[q])) {
                        safe = true;
                    }
                }
                _ => {
                    let g = usize::from(self.head[q]);
                    if self.in_atari(g) && !taken[..n_taken].contains(&g) {
                        taken[n_taken] = g;
                        n_taken += 1;
                        key ^= self.group_key[g];
                        safe = true;
                    }
                }
            }
        }
        (safe && !self.seen.contains(&key)).then_some(key)
    }

    /// Returns whether the side to move may place a stone on `p`.
    #[inline]
    #[must_use]
    pub fn can_place(&self, p: Point) -> bool {
        self.outcome.is_none()
            && self.color.get(p.index()) == Some(&EMPTY)
            && self
                .check_place(p.index(), stone_of(self.to_move))
                .is_some()
    }

    /// Returns how many stones a stone of the side to move on `p` would capture.
    #[must_use]
    pub fn captures_by(&self, p: Point) -> u32 {
        let c = stone_of(self.to_move);
        let mut taken = [0usize; 4];
        let mut n = 0;
        let mut total = 0;
        for q in self.neighbours(p.index()) {
            if self.color[q] == 3 - c {
                let g = usize::from(self.head[q]);
                if self.in_atari(g) && !taken[..n].contains(&g) {
                    taken[n] = g;
                    n += 1;
                    total += u32::from(self.stones[g]);
                }
            }
        }
        total
    }

    /// Returns how many stones of `side` are in groups with exactly one liberty.
    #[must_use]
    pub fn stones_in_atari(&self, side: Side) -> u32 {
        let c = stone_of(side);
        (0..self.color.len())
            .filter(|&p| self.color[p] == c && usize::from(self.head[p]) == p && self.in_atari(p))
            .map(|p| u32::from(self.stones[p]))
            .sum()
    }

    /// Returns the liberties (distinct empty neighbours) of each group of `side`.
    #[must_use]
    pub fn group_liberties(&self, side: Side) -> Vec<u32> {
        let c = stone_of(side);
        let mut mark = vec![usize::MAX; self.color.len()];
        let mut out = Vec::new();
        for h in 0..self.color.len() {
            if self.color[h] != c || usize::from(self.head[h]) != h {
                continue;
            }
            let mut count = 0;
            let mut s = h;
            loop {
                for q in self.neighbours(s) {
                    if self.color[q] == EMPTY && mark[q] != h {
                        mark[q] = h;
                        count += 1;
                    }
                }
                s = usize::from(self.next[s]);
                if s == h {
                    break;
                }
            }
            out.push(count);
        }
        out
    }

    #[inline]
    fn add_liberty(&mut self, h: usize, lib: usize) {
        self.libs[h] += 1;
        self.lib_sum[h] += lib as u32;
        self.lib_squares[h] += (lib * lib) as u64;
    }

    #[inline]
    fn remove_liberty(&mut self, h: usize, lib: usize) {
        self.libs[h] -= 1;
        self.lib_sum[h] -= lib as u32;
        self.lib_squares[h] -= (lib * lib) as u64;
    }

    fn take_empty(&mut self, p: usize) {
        let i = usize::from(self.empty_at[p]);
        let last = self.empties.len() - 1;
        self.empties.swap(i, last);
        let moved = self.empties[i].index();
        self.empty_at[moved] = i as u16;
        self.empties.pop();
    }

    fn give_empty(&mut self, p: usize) {
        self.empty_at[p] = self.empties.len() as u16;
        self.empties.push(Point(p as u16));
    }

    /// Joins the groups with heads `a` and `b`; the larger keeps its head.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.stones[a] >= self.stones[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = usize::from(self.next[s]);
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        self.libs[big] += self.libs[small];
        self.lib_sum[big] += self.lib_sum[small];
        self.lib_squares[big] += self.lib_squares[small];
        self.stones[big] += self.stones[small];
        self.group_key[big] ^= self.group_key[small];
    }

    fn remove_group(&mut self, h: usize) {
        let mut s = h;
        loop {
            let c = self.color[s];
            self.key ^= ZOBRIST[usize::from(c - 1)][s];
            self.color[s] = EMPTY;
            self.give_empty(s);
            s = usize::from(self.next[s]);
            if s == h {
                break;
            }
        }
        loop {
            for q in self.neighbours(s) {
                if self.color[q] == BLACK || self.color[q] == WHITE {
                    self.add_liberty(usize::from(self.head[q]), s);
                }
            }
            s = usize::from(self.next[s]);
            if s == h {
                break;
            }
        }
    }

    /// Places a stone of colour `c` on `p`, which [`Go::check_place`] accepted.
    fn place(&mut self, p: usize, c: u8) {
        self.take_empty(p);
        let z = ZOBRIST[usize::from(c - 1)][p];
        self.color[p] = c;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.stones[p] = 1;
        self.libs[p] = 0;
        self.lib_sum[p] = 0;
        self.lib_squares[p] = 0;
        self.group_key[p] = z;
        self.key ^= z;
        let around = self.neighbours(p);
        for q in around {
            match self.color[q] {
                EMPTY => self.add_liberty(p, q),
                BORDER => {}
                _ => self.remove_liberty(usize::from(self.head[q]), p),
            }
        }
        for q in around {
            if self.color[q] == c {
                let (a, b) = (usize::from(self.head[p]), usize::from(self.head[q]));
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        for q in around {
            if self.color[q] == 3 - c && self.libs[usize::from(self.head[q])] == 0 {
                self.remove_group(usize::from(self.head[q]));
            }
        }
    }

    /// Returns the Tromp–Taylor count of the board as it stands.
    #[must_use]
    pub fn area(&self) -> AreaScore {
        let mut area = [0u32; 2];
        let mut seen = vec![false; self.color.len()];
        let mut stack = Vec::new();
        for p in 0..self.color.len() {
            match self.color[p] {
                BLACK => area[0] += 1,
                WHITE => area[1] += 1,
                EMPTY if !seen[p] => {
                    let mut size = 0;
                    let mut reaches = [false; 2];
                    seen[p] = true;
                    stack.push(p);
                    while let Some(s) = stack.pop() {
                        size += 1;
                        for q in self.neighbours(s) {
                            match self.color[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    stack.push(q);
                                }
                                BLACK => reaches[0] = true,
                                WHITE => reaches[1] = true,
                                _ => {}
                            }
                        }
                    }
                    match reaches {
                        [true, false] => area[0] += size,
                        [false, true] => area[1] += size,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        AreaScore {
            black: area[0],
            white: area[1],
            komi: self.rules.komi,
        }
    }

    fn scored(&self, termination: Termination) -> Outcome {
        let lead = self.area().black_lead_half_points();
        match lead.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::win(Side::First, termination),
            std::cmp::Ordering::Less => Outcome::win(Side::Second, termination),
            std::cmp::Ordering::Equal => Outcome::draw(termination),
        }
    }

    /// Returns the result in SGF's form: `B+3.5`, `W+R`, `0`, or `Void` for a game that
    /// is not over or ended by a player's fault rather than a rule.
    #[must_use]
    pub fn result_text(&self) -> String {
        match self.outcome {
            Some(o) if o.termination == Termination::Resignation => match o.result {
                crate::GameResult::Win(Side::First) => "B+R".to_owned(),
                _ => "W+R".to_owned(),
            },
            Some(_) => self.area().result_text(),
            None => "Void".to_owned(),
        }
    }

    fn compute_legal(&self) -> Vec<GoMove> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let c = stone_of(self.to_move);
        let mut moves: Vec<GoMove> = (0..self.color.len())
            .filter(|&p| self.color[p] == EMPTY && self.check_place(p, c).is_some())
            .map(|p| GoMove::Place(Point(p as u16)))
            .collect();
        moves.push(GoMove::Pass);
        moves
    }

    fn finish_move(&mut self) {
        self.ply += 1;
        self.to_move = self.to_move.other();
        self.legal = OnceLock::new();
        if self.outcome.is_none() && self.ply >= self.rules.move_cap() {
            self.outcome = Some(self.scored(Termination::MoveLimit));
        }
    }
}

impl Game for Go {
    type Move = GoMove;
    type Rules = GoRules;
    const KIND: GameKind = GameKind::Go;

    /// Creates the empty board; a size outside 2–25 is clamped to the default (callers
    /// that read a size check it with [`GoRules::new`] first).
    fn new(rules: GoRules) -> Go {
        Go::empty_board(rules)
            .or_else(|_| Go::empty_board(GoRules::default()))
            .unwrap_or_else(|_| unreachable!("the default rules are valid"))
    }

    fn from_position(text: &str, rules: GoRules) -> Result<Go, GameError> {
        let bad = |reason: String| GameError::BadPosition {
            text: text.to_owned(),
            reason,
        };
        let mut parts = text.split_whitespace();
        let board = parts.next().ok_or_else(|| bad("empty".to_owned()))?;
        let rows: Vec<&str> = board.split('/').collect();
        let n = rows.len();
        if rows.iter().any(|r| r.chars().count() != n) {
            return Err(bad(format!(
                "expected {n} rows of {n} points separated by '/'"
            )));
        }
        if n != usize::from(rules.size) {
            return Err(bad(format!(
                "a {n}×{n} board where the rules say {}×{}",
                rules.size, rules.size
            )));
        }
        let mut g = Go::empty_board(rules)?;
        for (i, row) in rows.iter().enumerate() {
            for (col, ch) in row.chars().enumerate() {
                let c = match ch {
                    'x' | 'X' => BLACK,
                    'o' | 'O' => WHITE,
                    '.' => continue,
                    _ => return Err(bad("points are 'x', 'o' or '.'".to_owned())),
                };
                g.place((n - i) * g.width + col + 1, c);
            }
        }
        let placed = g
            .color
            .iter()
            .filter(|&&c| c == BLACK || c == WHITE)
            .count();
        let written = board
            .chars()
            .filter(|c| matches!(c, 'x' | 'X' | 'o' | 'O'))
            .count();
        let breathless = (0..g.color.len()).any(|p| {
            (g.color[p] == BLACK || g.color[p] == WHITE)
                && usize::from(g.head[p]) == p
                && g.libs[p] == 0
        });
        if placed != written || breathless {
            return Err(bad("a group has no liberty".to_owned()));
        }
        g.to_move = match parts.next() {
            Some("b" | "B") | None => Side::First,
            Some("w" | "W") => Side::Second,
            Some(other) => return Err(bad(format!("side to move {other:?} is 'b' or 'w'"))),
        };
        g.seen.clear();
        g.seen.insert(g.key);
        Ok(g)
    }

    fn legal_moves(&self) -> &[GoMove] {
        self.legal.get_or_init(|| self.compute_legal())
    }

    #[inline]
    fn play(&mut self, mv: GoMove) {
        match mv {
            GoMove::Place(p) => {
                self.place(p.index(), stone_of(self.to_move));
                self.seen.insert(self.key);
                self.passes = 0;
            }
            GoMove::Pass => {
                self.passes += 1;
                if self.passes >= 2 {
                    self.outcome = Some(self.scored(Termination::TwoPasses));
                }
            }
            GoMove::Resign => {
                self.outcome = Some(Outcome::win(self.to_move.other(), Termination::Resignation));
            }
        }
        self.finish_move();
    }

    #[inline]
    fn is_legal(&self, mv: GoMove) -> bool {
        match mv {
            GoMove::Place(p) => self.can_place(p),
            GoMove::Pass | GoMove::Resign => self.outcome.is_none(),
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

    fn move_text(&self, mv: GoMove) -> String {
        self.move_code(mv)
    }

    fn move_code(&self, mv: GoMove) -> String {
        match mv {
            GoMove::Place(p) => self.vertex(p),
            GoMove::Pass => "pass".to_owned(),
            GoMove::Resign => "resign".to_owned(),
        }
    }

    fn move_word(&self, mv: GoMove) -> u16 {
        match mv {
            GoMove::Place(p) => {
                let (c, r) = self.coordinates(p);
                place_word(c, r)
            }
            GoMove::Pass => PASS_WORD,
            GoMove::Resign => RESIGN_WORD,
        }
    }

    fn write_move_code(&self, mv: GoMove, out: &mut String) {
        match mv {
            GoMove::Place(p) => {
                let (c, r) = self.coordinates(p);
                write_vertex(c, r, out);
            }
            GoMove::Pass => out.push_str("pass"),
            GoMove::Resign => out.push_str("resign"),
        }
    }

    fn parse_move(&self, text: &str) -> Result<GoMove, GameError> {
        let t = text.trim();
        let mv = if t.eq_ignore_ascii_case("pass") {
            GoMove::Pass
        } else if t.eq_ignore_ascii_case("resign") {
            GoMove::Resign
        } else {
            let last = char::from(COLUMNS[usize::from(self.rules.size) - 1]);
            GoMove::Place(self.parse_vertex(t).ok_or_else(|| GameError::BadMove {
                text: text.to_owned(),
                reason: format!(
                    "expected a vertex A1..{last}{} (no I), pass or resign",
                    self.rules.size
                ),
            })?)
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(GameError::IllegalMove {
                text: text.to_owned(),
                position: self.position_text(),
            })
        }
    }

    fn position_text(&self) -> String {
        let n = usize::from(self.rules.size);
        let mut s = String::with_capacity(n * (n + 1) + 2);
        for row in (0..n).rev() {
            for col in 0..n {
                s.push(match self.color[(row + 1) * self.width + col + 1] {
                    BLACK => 'x',
                    WHITE => 'o',
                    _ => '.',
                });
            }
            if row > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.to_move == Side::First {
            " b"
        } else {
            " w"
        });
        s
    }

    fn board_text(&self) -> String {
        let n = usize::from(self.rules.size);
        let mut s = String::new();
        let text = self.position_text();
        for (i, row) in text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .enumerate()
        {
            s.push_str(&format!("{:>2} ", n - i));
            for c in row.chars() {
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("   ");
        for &c in &COLUMNS[..n] {
            s.push(' ');
            s.push(char::from(c));
        }
        s.push('\n');
        s.push_str(if self.to_move == Side::First {
            "Black (x) to move\n"
        } else {
            "White (o) to move\n"
        });
        s
    }
}

#[cfg(test)]
mod tests;
