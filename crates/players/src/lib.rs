//! The core of eloworld's players: the [`Player`] trait, player specs, the registry that
//! builds players by name, dilution, the human player, and the external programs' protocols
//! (UCI and CECP for chess, GTP for Go, in [`engine`]). The built-in players of each game
//! are in their own crates (`eloworld-players-chess`, `-squava`, `-go`), and
//! `eloworld-players` gathers them by game.
//!
//! A player is built fresh for every game by a [`PlayerFactory`], so no state spans games
//! (Elo World's rule, Murphy's Elo World section 2). It is asked for a move with [`Player::choose`] and
//! told of every move played, by either side, with [`Player::observe`]; keeping the two
//! apart lets a mixer such as [`Diluted`] keep two independent states.
#![deny(missing_docs)]

mod dilution;
pub mod engine;
mod error;
pub mod human;
mod registry;
mod spec;

pub use dilution::Diluted;
pub use error::{Claim, PlayerError, SpecError};
pub use human::Human;
pub use registry::{
    Determinism, FactoryFn, Flags, ParamInfo, PlayerFactory, PlayerInfo, Registry, SimpleFactory,
    Worker,
};
pub use spec::{Params, PlayerSpec};

use eloworld_games::{Game, GameRng};
use std::sync::Arc;

/// One side of one game.
pub trait Player<G: Game>: Send {
    /// Chooses a move for the current position, which is not over and has legal moves.
    ///
    /// In-process players always answer; external engines may fail, and the runner turns
    /// the error into the game's termination (`engine-crashed`, `engine-timeout`,
    /// `illegal-move`).
    ///
    /// # Errors
    /// [`PlayerError`] when the player cannot give a move.
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, PlayerError>;

    /// Observes a move that was played from `before`, by either side.
    fn observe(&mut self, _before: &G, _mv: G::Move) {}

    /// Whether [`Player::observe`] does anything: a player that keeps no state of the game
    /// (the random mover) spares the game loop two calls a ply.
    fn observes_moves(&self) -> bool {
        true
    }

    /// Returns the time control this player plays on and the grace past its flag (external
    /// engines given `tc=`); the runner then keeps its clock and tells it both clocks.
    fn time_control(&self) -> Option<(engine::TimeControl, std::time::Duration)> {
        None
    }

    /// Tells a player on a clock both clocks, before it is asked to choose.
    fn set_clocks(&mut self, _clocks: &engine::ClockReading) {}

    /// Whether every move this player returns is legal as the game stands (taken from
    /// `game.legal_moves()`, or checked by the game's own rule as it was chosen), so the
    /// game loop need not check it again (a debug build still checks).
    fn picks_from_legal_moves(&self) -> bool {
        false
    }

    /// Whether this player is `random_move` itself: its every move is
    /// `rng.pick(game.legal_moves())` and it keeps, observes and reports nothing. A game
    /// between two such players may then be played by [`Game::play_random`], the same moves
    /// drawn from the same streams without a call to the players a ply.
    fn is_random_move(&self) -> bool {
        false
    }

    /// Whether the player may report searches (scores, depths, book moves) worth keeping as
    /// per-move notes; a player that never does spares the game loop timing every move.
    fn reports_searches(&self) -> bool {
        true
    }

    /// Returns what the player reported of its last search: score (from the mover's side)
    /// and depth, for adjudication and PGN comments.
    fn last_report(&self) -> Option<engine::SearchInfo> {
        None
    }

    /// Returns whether the last move came from an opening book rather than a search (the
    /// PGN then says `{book}`, as cutechess writes it).
    fn last_move_from_book(&self) -> bool {
        false
    }

    /// Takes the engine's `info` lines of its last search, when its definition keeps them
    /// (PGN `pv` and `match_line` comments); none for other players.
    fn take_search_lines(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// Registers `random_move` for a game, with its `delay_ms` parameter (default 0).
pub fn register_random_move<G: Game>(r: &mut Registry<G>, description: &str) {
    let info = PlayerInfo::new("random_move", description, Flags::NONE).param(
        "delay_ms",
        0,
        "milliseconds to wait before each move (imitates a slow engine; for testing runners)",
    );
    r.add(
        info,
        Box::new(|spec: &PlayerSpec| {
            spec.params.check_keys("random_move", &["delay_ms"])?;
            let ms: u64 = spec.params.parse_or("random_move", "delay_ms", 0)?;
            Ok(if ms == 0 {
                Arc::new(SimpleFactory(|| Box::new(RandomMove) as Box<dyn Player<G>>))
                    as Arc<dyn PlayerFactory<G>>
            } else {
                let delay = std::time::Duration::from_millis(ms);
                Arc::new(SimpleFactory(move || {
                    Box::new(DelayedRandomMove { delay }) as Box<dyn Player<G>>
                }))
            })
        }),
    );
}

/// Plays a uniformly random legal move (Murphy's Elo World: `random_move`, the canonical strategy).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMove;

impl<G: Game> Player<G> for RandomMove {
    #[inline]
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, PlayerError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::NoMove);
        }
        Ok(rng.pick(moves))
    }

    fn observes_moves(&self) -> bool {
        false
    }

    fn picks_from_legal_moves(&self) -> bool {
        true
    }

    fn is_random_move(&self) -> bool {
        true
    }

    fn reports_searches(&self) -> bool {
        false
    }
}

/// [`RandomMove`] that waits before each move, to imitate a slow engine when testing
/// runners and workers (`random_move:delay_ms=50`). The wait changes no choice.
#[derive(Clone, Copy, Debug)]
pub struct DelayedRandomMove {
    delay: std::time::Duration,
}

impl<G: Game> Player<G> for DelayedRandomMove {
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, PlayerError> {
        std::thread::sleep(self.delay);
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::NoMove);
        }
        Ok(rng.pick(moves))
    }
}
