use crate::Side;
use std::fmt;
use std::str::FromStr;

/// How a game ended for the score table: a win for one side, or a draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The given side won.
    Win(Side),
    /// Neither side won.
    Draw,
}

impl GameResult {
    /// Returns the PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::Win(Side::First) => "1-0",
            GameResult::Win(Side::Second) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Returns the first side's score: 1, ½ or 0.
    #[must_use]
    pub fn first_score(self) -> f64 {
        match self {
            GameResult::Win(Side::First) => 1.0,
            GameResult::Win(Side::Second) => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    /// Returns the win of the other side, or a draw unchanged (for a colour-swapped view).
    #[must_use]
    pub const fn flipped(self) -> GameResult {
        match self {
            GameResult::Win(s) => GameResult::Win(s.other()),
            GameResult::Draw => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

impl FromStr for GameResult {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "1-0" => Ok(GameResult::Win(Side::First)),
            "0-1" => Ok(GameResult::Win(Side::Second)),
            "1/2-1/2" | "½-½" | "=" => Ok(GameResult::Draw),
            other => Err(format!("result {other:?}, expected 1-0, 0-1 or 1/2-1/2")),
        }
    }
}

macro_rules! terminations {
    ($( $(#[$doc:meta])* $variant:ident => $code:literal, )*) => {
        /// Why a game ended: by a rule of the game, or by the runner's adjudication.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Termination {
            $( $(#[$doc])* $variant, )*
        }

        impl Termination {
            /// Every termination.
            pub const ALL: &'static [Termination] = &[$(Termination::$variant,)*];

            /// Returns the kebab-case code kept in the store and the PGN `Termination` tag.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self { $(Termination::$variant => $code,)* }
            }
        }

        impl FromStr for Termination {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($code => Ok(Termination::$variant),)*
                    other => Err(format!("unknown termination {other:?}")),
                }
            }
        }
    };
}

terminations! {
    /// Chess: the side to move is in check and has no legal move.
    Checkmate => "checkmate",
    /// Chess: the side to move is not in check and has no legal move.
    Stalemate => "stalemate",
    /// Chess, claimed draw rules: the same position occurred three times.
    ThreefoldRepetition => "threefold-repetition",
    /// Chess, automatic draw rules: the same position occurred five times.
    FivefoldRepetition => "fivefold-repetition",
    /// Chess, claimed draw rules: fifty moves by each side without capture or pawn move.
    FiftyMoveRule => "fifty-move-rule",
    /// Chess, automatic draw rules: seventy-five moves by each side without capture or pawn move.
    SeventyFiveMoveRule => "seventy-five-move-rule",
    /// Chess: neither side has material left to mate.
    InsufficientMaterial => "insufficient-material",
    /// Squava: the mover made four in a row.
    FourInARow => "four-in-a-row",
    /// Squava: the mover made three in a row without four.
    ThreeInARow => "three-in-a-row",
    /// Squava: the board is full with no line made.
    BoardFull => "board-full",
    /// Go: both sides passed in a row; the board is scored by area (Tromp–Taylor).
    TwoPasses => "two-passes",
    /// Go: the game reached its move cap and was scored by area as it stood.
    MoveLimit => "move-limit",
    /// Runner: the game reached the tournament's `max_plies` and is adjudicated a draw.
    MaxPlies => "max-plies",
    /// Runner: an external engine died during the game; it loses.
    EngineCrashed => "engine-crashed",
    /// Runner: an external engine gave no move within its time limit; it loses.
    EngineTimeout => "engine-timeout",
    /// Runner: a player answered with an illegal or unreadable move; it loses.
    IllegalMove => "illegal-move",
    /// Runner: a player on a clock used more time than it had (beyond the margin); it loses.
    TimeForfeit => "time-forfeit",
    /// Runner: both engines agreed that one side is lost for enough moves (`-resign`).
    ResignAdjudication => "resign-adjudication",
    /// Runner: both engines saw a level game for enough moves (`-draw`).
    DrawAdjudication => "draw-adjudication",
    /// Runner: an endgame tablebase knows the result of the position (`-tb`).
    TablebaseAdjudication => "tablebase-adjudication",
    /// A player resigned: a Go program's GTP `resign`, a CECP engine's `resign` or a claim
    /// of a result it loses (`0-1` from White); it loses, as cutechess-cli scores it.
    Resignation => "resignation",
    /// Runner: an engine claimed a result the game does not have (a CECP `1/2-1/2` or a win
    /// in a game still going); it forfeits, as cutechess-cli scores it.
    InvalidClaim => "invalid-claim",
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The end of a game: who won and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// Creates a win for `side`.
    #[must_use]
    pub const fn win(side: Side, termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::Win(side),
            termination,
        }
    }

    /// Creates a draw.
    #[must_use]
    pub const fn draw(termination: Termination) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            termination,
        }
    }
}
