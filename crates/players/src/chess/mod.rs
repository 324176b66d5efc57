//! The built-in chess players (seed 002, section 2).

mod first_move;

pub use first_move::FirstMove;

use crate::{Flags, PlayerInfo, RandomMove, Registry};
use eloworld_games::Chess;

/// Adds every built-in chess player to `r`.
pub fn register(r: &mut Registry<Chess>) {
    r.add_simple(
        PlayerInfo::new("random_move", "plays a uniformly random legal move", Flags::NONE),
        || Box::new(RandomMove),
    );
    r.add_simple(
        PlayerInfo::new(
            "first_move",
            "plays the lexicographically first move by (src row, src col, dst row, dst col, promotion)",
            Flags::DETERMINISTIC,
        ),
        || Box::new(FirstMove),
    );
}
