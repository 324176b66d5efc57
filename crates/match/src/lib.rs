//! A match between two engines, as fastchess and cutechess-cli run one: its schedule (game
//! pairs from one opening with colours swapped), the running score with its pentanomial
//! pairs, an SPRT that stops the match once decided, the games rebuilt as PGN while they
//! finish, and every game in the store (a killed match resumes, and the games stored
//! before count towards the test).
//!
//! One job a file: [`options`] (the fastchess / cutechess-cli command line read into
//! settings), [`settings`] (what the match is asked to play), [`plan`] (the schedule
//! and openings it becomes), [`fingerprint`] (an engine's line in the plan's fingerprint),
//! [`tally`] (the running score and its headline), [`run`] (playing it, watching the games)
//! [`knockout`] (a bracket played stage by stage) and [`pgn`] (the PGN file written as
//! they finish).

mod fingerprint;
mod knockout;
pub mod options;
mod pgn;
mod plan;
mod run;
mod settings;
mod tally;

pub use eloworld_schedule::paired::Colours;
pub use knockout::{
    knockout_base, stage_name, Bracket, Decision, Encounter, StoredStage, TIEBREAK_PAIRS,
};
pub use run::{run_match, MatchEvent, MatchRun};
pub use settings::{MatchOpenings, MatchSettings, Pairing};
pub use tally::{EloFigure, Headline, LlrLine, MatchTally, ScoreUnit};
