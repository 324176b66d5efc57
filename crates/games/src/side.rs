use std::fmt;

/// One of the two sides of a game: the first to move (White in chess) or the second.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that moves first (White in chess, `x` in squava).
    First,
    /// The side that moves second (Black in chess, `o` in squava).
    Second,
}

impl Side {
    /// White in chess.
    pub const WHITE: Side = Side::First;
    /// Black in chess.
    pub const BLACK: Side = Side::Second;

    /// Returns the other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// Returns 0 for the first side and 1 for the second, for indexing pairs.
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}

impl From<shakmaty::Color> for Side {
    fn from(c: shakmaty::Color) -> Side {
        match c {
            shakmaty::Color::White => Side::First,
            shakmaty::Color::Black => Side::Second,
        }
    }
}

impl From<Side> for shakmaty::Color {
    fn from(s: Side) -> shakmaty::Color {
        match s {
            Side::First => shakmaty::Color::White,
            Side::Second => shakmaty::Color::Black,
        }
    }
}
