//! Fixed rating scales for eloworld (Murphy's Elo World, section 4): a ladder of rungs whose
//! ratings stay put, a new player placed on it, and the games a ladder should play next. Pure
//! math over games, built on the rating methods of `eloworld-ratings`; the crate knows nothing
//! of chess or squava beyond the name of the game a ladder was measured on.
//!
//! | module | job | source |
//! |---|---|---|
//! | [`ladder`] | a fixed scale in a file: rungs, ratings, the games they rest on | Murphy's Elo World, section 4 |
//! | [`placement`] | a new player rated against fixed rungs; its Scoville placement | Murphy's Elo World, section 4 |
//! | [`adaptive`] | the next games of a ladder: the pairs that tell most about its rungs | Fisher information of Bradley–Terry |
#![deny(missing_docs)]

pub mod adaptive;
pub mod ladder;
pub mod placement;
