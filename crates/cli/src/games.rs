//! Reading a game's name on the command line.

use eloworld_games::GameKind;

/// Parses a `--game` value.
pub fn parse_kind(s: &str) -> Result<GameKind, String> {
    s.parse::<GameKind>().map_err(|e| e.to_string())
}
