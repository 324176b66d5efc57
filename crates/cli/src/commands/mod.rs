//! One module per subcommand.

pub mod bench;
pub mod evolve;
pub mod evolve_score;
pub mod export;
pub mod fates;
pub mod ladder;
pub mod ladder_compare;
pub mod match_cmd;
pub mod match_stats;
mod match_words;
pub mod place;
pub mod play;
pub mod players;
pub mod rate;
pub mod report;
pub mod results;
pub mod serve;
pub mod squava_experiment;
pub mod status;
pub mod suite;
pub mod synth;
pub mod tournament;
pub mod worker;
