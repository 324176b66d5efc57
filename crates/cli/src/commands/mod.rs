//! One module per subcommand.

pub mod bench;
pub mod export;
pub mod play;
pub mod players;
pub mod results;
pub mod tournament;
