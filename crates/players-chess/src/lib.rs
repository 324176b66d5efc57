//! The built-in chess players: the simple strategies of Murphy's Elo World (section 2), the
//! fates players ([`fate`]), the blindfold players ([`blind`]) and the evolved engine
//! players ([`evol`]); the external engines come from `eloworld_players_core::engine`.
#![deny(missing_docs)]

mod alphabetical;
pub mod blind;
mod cccp;
mod equalizer;
pub mod evol;
pub mod fate;
mod first_move;
mod generation_order;
mod generous;
mod huddle;
mod min_oppt_moves;
mod no_i_insist;
mod opposite_color;
mod pacifist;
mod reverse_starting;
mod same_color;
pub mod scoring;
mod simple;
mod suicide_king;
mod swarm;
mod sym_180;
mod sym_mirror_x;
mod sym_mirror_y;
pub mod symmetry;

pub use alphabetical::Alphabetical;
pub use cccp::Cccp;
pub use equalizer::Equalizer;
pub use first_move::{FirstMove, Reading};
pub use generation_order::generation_key;
pub use generous::Generous;
pub use huddle::Huddle;
pub use min_oppt_moves::MinOpptMoves;
pub use no_i_insist::NoIInsist;
pub use opposite_color::OppositeColor;
pub use pacifist::Pacifist;
pub use reverse_starting::ReverseStarting;
pub use same_color::SameColor;
pub use simple::SIMPLE_PLAYERS;
pub use suicide_king::SuicideKing;
pub use swarm::Swarm;
pub use sym_180::Sym180;
pub use sym_mirror_x::SymMirrorX;
pub use sym_mirror_y::SymMirrorY;

use eloworld_games::Chess;
use eloworld_players_core::{Flags, Registry};

/// The registry of every built-in chess player, in the order the list of players shows
/// them: the simple players, the fates players, the engines, the blindfold players and the
/// evolved ones.
#[must_use]
pub fn builtin_players() -> Registry<Chess> {
    let mut r = Registry::new();
    register(&mut r);
    fate::register(&mut r);
    eloworld_players_core::engine::register(&mut r);
    blind::register(&mut r);
    evol::register(&mut r);
    r
}

/// Adds the random mover, `first_move` and the simple chess players to `r` (the fate,
/// engine, blind and evolved players are added by [`builtin_players`] after them).
pub fn register(r: &mut Registry<Chess>) {
    eloworld_players_core::register_random_move(r, "plays a uniformly random legal move");
    first_move::add_with_reading(
        r,
        "first_move",
        "plays the lexicographically first move by (src row, src col, dst row, dst col, promotion), rows from the opponent's back rank as the original program counts them",
        Flags::DETERMINISTIC,
        |reading| Box::new(FirstMove { reading }),
    );
    simple::register(r);
}
