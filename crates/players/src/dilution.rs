use crate::{Player, PlayerError};
use eloworld_games::{Game, GameRng};

/// Dilutes a player with random moves (Murphy's Elo World, section 2.5: `stockfish1m_r32768` is half
/// Stockfish, half random): before each move, draw a 16-bit number; below the threshold,
/// play a uniformly random legal move, otherwise the inner player's move. The inner player
/// observes every move, so stateful players stay consistent.
pub struct Diluted<G: Game> {
    inner: Box<dyn Player<G>>,
    threshold: u16,
}

impl<G: Game> Diluted<G> {
    /// Wraps `inner`, playing randomly with probability `threshold / 65536`.
    #[must_use]
    pub fn new(inner: Box<dyn Player<G>>, threshold: u16) -> Diluted<G> {
        Diluted { inner, threshold }
    }
}

impl<G: Game> Player<G> for Diluted<G> {
    fn choose(&mut self, game: &G, rng: &mut GameRng) -> Result<G::Move, PlayerError> {
        if rng.next_u16() < self.threshold {
            let moves = game.legal_moves();
            if moves.is_empty() {
                return Err(PlayerError::NoMove);
            }
            Ok(rng.pick(moves))
        } else {
            self.inner.choose(game, rng)
        }
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.inner.observe(before, mv);
    }
}
