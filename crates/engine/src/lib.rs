//! A parametric alpha-beta chess engine after David, Koppel and Netanyahu's evolution paper
//! ("Genetic algorithms for evolving computer chess programs"): an evaluation function of the
//! 35 parameters of Fig. 3 ([`EvalParams`]) and a selective search of the 18 parameters of
//! Table I ([`SearchParams`]), both encodable as bit strings for a genetic algorithm.
//!
//! The engine knows nothing of UCI or of eloworld's players: it searches shakmaty positions
//! ([`Engine::search`]) within [`Limits`] and reports through a callback. The binary
//! `eloworld-engine` speaks UCI around it; `eloworld_players` adapts it as the `evol` players.
//!
//! ```
//! use eloworld_engine::{Engine, EvalParams, Limits, SearchParams};
//! let mut engine = Engine::new(EvalParams::default(), SearchParams::default(), 1);
//! let pos = shakmaty::Chess::default();
//! let result = engine.search(&pos, &[], &Limits::depth(3), &mut |_| {});
//! assert!(result.best_move.is_some());
//! assert!(result.nodes > 0);
//! ```
#![deny(missing_docs)]

pub mod bench;
mod chromosome;
mod error;
pub mod eval_params;
pub mod evaluate;
mod limits;
mod movegen;
pub mod one_ply;
pub mod pst;
pub mod score;
pub mod search;
pub mod search_params;
pub mod see;
pub mod suite;
pub mod tt;

pub use chromosome::{chromosome_len, Coding, ParamDef};
pub use error::EngineError;
pub use eval_params::EvalParams;
pub use evaluate::evaluate;
pub use limits::Limits;
pub use search::{Engine, InfoEvent, SearchInfo, SearchResult, SearchStats, MATE, MAX_DEPTH};
pub use search_params::{SearchParams, ONE_PLY};
