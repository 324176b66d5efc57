//! The built-in squava players (seed 000).

use crate::{Flags, PlayerInfo, RandomMove, Registry};
use eloworld_games::Squava;

/// Adds every built-in squava player to `r`.
pub fn register(r: &mut Registry<Squava>) {
    r.add_simple(
        PlayerInfo::new("random_move", "places a stone on a uniformly random empty square", Flags::NONE),
        || Box::new(RandomMove),
    );
}
