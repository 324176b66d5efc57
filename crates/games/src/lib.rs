//! Games for eloworld: the [`Game`] trait that the players and the tournament runner
//! speak, chess on [shakmaty](https://docs.rs/shakmaty), squava on bitboards, and Go under
//! Tromp–Taylor rules.
//!
//! A game knows its rules and nothing of players or tournaments. Every random choice in
//! eloworld comes from a [`GameRng`] seeded per game and per side (see [`rng`]), so any
//! game can be replayed exactly from its seed.
#![deny(missing_docs)]

pub mod chess;
mod error;
pub mod go;
mod outcome;
pub mod record;
pub mod rng;
mod side;
pub mod squava;

pub use chess::{Chess, DrawRules};
pub use error::GameError;
pub use go::{Go, GoMove, GoRules, Komi};
pub use outcome::{GameResult, Outcome, Termination};
pub use record::MoveRecord;
pub use rng::GameRng;
pub use side::Side;
pub use squava::Squava;

use std::fmt::Debug;
use std::hash::Hash;

/// The games eloworld knows, by the name used in tournament files and the store.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Standard chess.
    Chess,
    /// Squava: 5×5, four in a row wins, three in a row loses.
    Squava,
    /// Go: any board from 2×2 to 25×25, Tromp–Taylor area scoring, positional superko.
    Go,
}

impl GameKind {
    /// Every game kind, in display order.
    pub const ALL: [GameKind; 3] = [GameKind::Chess, GameKind::Squava, GameKind::Go];

    /// Returns the lower-case name (`chess`, `squava`, `go`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Chess => "chess",
            GameKind::Squava => "squava",
            GameKind::Go => "go",
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = GameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "chess" => Ok(GameKind::Chess),
            "squava" => Ok(GameKind::Squava),
            "go" => Ok(GameKind::Go),
            _ => Err(GameError::UnknownGame(s.to_owned())),
        }
    }
}

/// A two-player, perfect-information, turn-based game.
///
/// The state caches its legal moves and its outcome, so that asking for them in the hot
/// loop of a game costs nothing beyond what [`Game::play`] already computed.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move; cheap to copy and compare.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// Rule variations a tournament may choose (chess: which draw rules apply).
    type Rules: Copy + Default + Debug + Send + Sync + 'static;
    /// Which game this is.
    const KIND: GameKind;

    /// Creates the standard starting position under `rules`.
    fn new(rules: Self::Rules) -> Self;
    /// Creates a position from its text form (FEN for chess, see [`Squava`] for squava).
    ///
    /// # Errors
    /// [`GameError::BadPosition`] naming what is wrong with the text.
    fn from_position(text: &str, rules: Self::Rules) -> Result<Self, GameError>;
    /// Returns the legal moves of the current position (empty once the game is over by
    /// having no moves; may be non-empty when the game ended by another rule).
    fn legal_moves(&self) -> &[Self::Move];
    /// Plays a legal move.
    ///
    /// # Panics
    /// May panic or corrupt the state if `mv` is not in [`Game::legal_moves`]; callers that
    /// take moves from untrusted players check first (see [`Game::is_legal`]).
    fn play(&mut self, mv: Self::Move);
    /// Returns whether `mv` is one of the legal moves.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }
    /// Plays uniformly random legal moves from here (Murphy's Elo World `random_move` for
    /// both sides), each side drawing [`GameRng::pick`] over [`Game::legal_moves`] from its
    /// own stream `rngs[side]`, and appends them to `moves`, while the game is not over and
    /// `more(plies played so far)` holds; returns the plies played.
    ///
    /// The same moves, in the same state, as that loop of `pick` and [`Game::play`] (the
    /// default body); a game overrides it where a loop of its own is cheaper (chess keeps
    /// each new move list where it was generated instead of copying it into the game, and
    /// its position in locals).
    fn play_random(
        &mut self,
        rngs: &mut [GameRng; 2],
        moves: &mut Vec<Self::Move>,
        mut more: impl FnMut(u32) -> bool,
    ) -> u32
    where
        Self: Sized,
    {
        let mut plies = 0;
        while self.outcome().is_none() && !self.legal_moves().is_empty() && more(plies) {
            let mv = rngs[self.side_to_move().index()].pick(self.legal_moves());
            self.play(mv);
            moves.push(mv);
            plies += 1;
        }
        plies
    }
    /// Returns the side to move.
    fn side_to_move(&self) -> Side;
    /// Returns the outcome if the game has ended by its rules.
    fn outcome(&self) -> Option<Outcome>;
    /// Returns the number of plies played since this state was created from a position.
    fn ply(&self) -> u32;
    /// Returns the human notation of a legal move (SAN for chess, `c3` for squava).
    fn move_text(&self, mv: Self::Move) -> String;
    /// Returns the compact, position-independent notation of a move (UCI for chess,
    /// the square for squava, the vertex for Go): the form the store's records read as.
    fn move_code(&self, mv: Self::Move) -> String;
    /// Returns the move's two-byte word, position-independent like its code: the form
    /// the store keeps ([`MoveRecord`]), read back as [`Game::move_code`].
    fn move_word(&self, mv: Self::Move) -> u16;
    /// Appends [`Game::move_code`] to `out` (the runner's allocation-free form).
    fn write_move_code(&self, mv: Self::Move, out: &mut String) {
        out.push_str(&self.move_code(mv));
    }
    /// Parses a move in either notation and checks that it is legal here.
    ///
    /// # Errors
    /// [`GameError::BadMove`] or [`GameError::IllegalMove`].
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;
    /// Returns the text form of the position, accepted by [`Game::from_position`].
    fn position_text(&self) -> String;
    /// Draws the position as plain text for a terminal.
    fn board_text(&self) -> String;
}
