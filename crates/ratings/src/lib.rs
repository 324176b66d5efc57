//! Rating methods for eloworld: pure math over games or counts per pair of players. The crate
//! knows nothing of chess or squava.
//!
//! | module | method | source |
//! |---|---|---|
//! | [`uscf`] | incremental Elo in game order, K = 800/N | the Squava article (US Chess) |
//! | [`elo_world`] | balanced multi-pass Elo, median of 19 runs | Murphy's Elo World, section 3 |
//! | [`rollason`] | iterative points sharing | Rollason's computer-Go ratings |
//! | [`markov`] | p(Champion), stationary trophy chain | Murphy's Elo World, section 4 |
//! | [`mle`] | maximum likelihood with error bars | Bradley–Terry, Davidson; BayesElo, Ordo |
//! | [`convert`] | winning rate ↔ Elo difference, match statistics | David–Koppel–Netanyahu, appendix B |
//! | [`consistency`] | predicted vs observed score per pair | the Squava article |
//! | [`sprt`] | GSPRT on game pairs, normalised and logistic Elo, LOS | Van den Bergh; fishtest, fastchess |
//! | [`interpolate`] | comparable interpolated player | Murphy's Elo World, section 4 |
//! | [`glicko2`] | Glicko-2 over rating periods | Glickman (via `skillratings`) |
//! | [`trueskill`] | TrueSkill, game by game | Herbrich, Minka, Graepel 2006 (via `skillratings`) |
//! | [`whr`] | Whole-History Rating | Coulom 2008 |
//! | [`bayeselo`] | BayesElo's model and MM fit | Coulom's bayeselo; Hunter 2004 |
//! | [`nash`] | Nash averaging | Balduzzi et al. 2018 |
//! | [`alpharank`] | α-Rank, single population | Omidshafiei et al. 2019 |
//! | [`predict`] | K-fold held-out log loss and Brier score per method | Kaggle/FIDE rating competitions |
//! | [`synth`] | games simulated from known strengths | for testing the above |
//!
//! Every caller rates through one entry point, [`rate`] (or [`rate_all`] for the side-by-side
//! table), with one [`Method`] type and one [`Options`] bundle; the input is [`Games`] (games
//! in order, with players' names), read from text sources by the `eloworld-ratings-io` crate or converted from stored
//! results by the tournament crate. Fixed scales built on these methods (ladders, placing a
//! new player on one, choosing a ladder's next games) are the `eloworld-ladder` crate's job.
//!
//! # Examples
//! ```
//! use eloworld_ratings::{rate, Games, Method, Options, Score};
//! let mut games = Games::new();
//! games.add("strong", "weak", Score::Win, true, None);
//! games.add("weak", "strong", Score::Draw, true, None);
//! let ratings = rate(&games, &Options::new(Method::Mle))?;
//! assert!(ratings.values[0] > ratings.values[1]);
//! # Ok::<_, eloworld_ratings::RatingError>(())
//! ```
#![deny(missing_docs)]

pub mod alpharank;
pub mod bayeselo;
pub mod consistency;
pub mod convert;
pub mod elo_world;
mod error;
mod games;
pub mod glicko2;
pub mod interpolate;
pub mod linalg;
pub mod markov;
mod method;
pub mod mle;
pub mod nash;
pub mod predict;
pub mod rollason;
pub mod sprt;
pub mod synth;
pub mod trueskill;
pub mod uscf;
mod wdl;
pub mod whr;

pub use error::RatingError;
pub use games::{
    shown_name, year, GameList, GameRecord, Games, NameCase, PairCounts, PlayerId, Score,
    ScoreCounts, SHOWN_NAME_CHARS,
};
pub use method::{fit_mle, rate, rate_all, Anchor, Detail, Flag, Method, Options, Ratings};
pub use wdl::{PairedScore, Wdl};
