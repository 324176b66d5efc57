use eloworld_games::{Game, GameRng, Outcome, Side, Termination};
use eloworld_players::{Player, PlayerError};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a game went: its outcome, its length, and what more the store should know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The result and why.
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// More about the end (an engine's illegal move, a crash message).
    pub detail: Option<String>,
}

/// Plays one game from `game` to its end and returns how it went, or `None` if `stop` was
/// raised first. Moves are appended to `moves`; each side draws from its own stream of
/// `seed`, and both players observe every move. Nothing here allocates per move once
/// `moves` has capacity.
pub fn play_game<G: Game>(
    game: &mut G,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    seed: u64,
    max_plies: u32,
    stop: &AtomicBool,
    moves: &mut Vec<G::Move>,
) -> Option<PlayedGame> {
    let mut rngs = [GameRng::for_side(seed, Side::First), GameRng::for_side(seed, Side::Second)];
    let start_ply = game.ply();
    loop {
        let plies = game.ply() - start_ply;
        if let Some(outcome) = game.outcome() {
            return Some(PlayedGame { outcome, plies, detail: None });
        }
        if plies >= max_plies {
            return Some(PlayedGame { outcome: Outcome::draw(Termination::MaxPlies), plies, detail: None });
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = game.side_to_move();
        let player: &mut dyn Player<G> = if side == Side::First { &mut *white } else { &mut *black };
        let forfeit = |termination, detail: String| {
            Some(PlayedGame { outcome: Outcome::win(side.other(), termination), plies, detail: Some(detail) })
        };
        match player.choose(game, &mut rngs[side.index()]) {
            Ok(mv) if game.is_legal(mv) => {
                white.observe(game, mv);
                black.observe(game, mv);
                game.play(mv);
                moves.push(mv);
            }
            Ok(mv) => return forfeit(Termination::IllegalMove, format!("{mv:?}")),
            Err(PlayerError::IllegalMove { text, .. }) => return forfeit(Termination::IllegalMove, text),
            Err(PlayerError::Timeout { engine, millis }) => {
                return forfeit(Termination::EngineTimeout, format!("{engine}: no move within {millis} ms"))
            }
            Err(e) => return forfeit(Termination::EngineCrashed, e.to_string()),
        }
    }
}
