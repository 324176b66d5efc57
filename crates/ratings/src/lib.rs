//! Rating methods for eloworld: pure math over games or counts per pair of players. The crate
//! knows nothing of chess or squava.
//!
//! | module | method | source |
//! |---|---|---|
//! | [`uscf`] | incremental Elo in game order, K = 800/N | seed 000 (US Chess) |
//! | [`elo_world`] | balanced multi-pass Elo, median of 19 runs | seed 002, section 3 |
//! | [`rollason`] | iterative points sharing | seed 001 |
//! | [`markov`] | p(Champion), stationary trophy chain | seed 002, section 4 |
//! | [`mle`] | maximum likelihood with error bars | Bradley–Terry, Davidson; BayesElo, Ordo |
//! | [`convert`] | winning rate ↔ Elo difference, match statistics | seed 003, appendix B |
//! | [`consistency`] | predicted vs observed score per pair | seed 000 |
//! | [`sprt`] | GSPRT on game pairs, normalised and logistic Elo, LOS | Van den Bergh; fishtest, fastchess |
//! | [`interpolate`] | comparable interpolated player | seed 002, section 4 |
//! | [`synth`] | games simulated from known strengths | for testing the above |
//!
//! The input is a [`GameList`] (games in order, for [`uscf`]) or its [`PairCounts`] (everything
//! else).
//!
//! # Examples
//! ```
//! use eloworld_ratings::{mle::{Mle, MleConfig}, GameList, Score};
//! let mut games = GameList::new();
//! games.add("strong", "weak", Score::Win, true, None);
//! games.add("weak", "strong", Score::Draw, true, None);
//! let ratings = Mle::new(MleConfig::new()).rate(&games.counts())?;
//! assert!(ratings.ratings[0] > ratings.ratings[1]);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```
#![deny(missing_docs)]

pub mod consistency;
pub mod convert;
pub mod elo_world;
mod error;
mod games;
pub mod interpolate;
mod linalg;
pub mod markov;
pub mod mle;
pub mod rollason;
pub mod sprt;
pub mod synth;
pub mod uscf;

pub use error::RatingError;
pub use games::{GameList, GameRecord, PairCounts, PlayerId, Score, Wdl};
