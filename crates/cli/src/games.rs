//! What the command needs to know of each game, and dispatch from a game name to code
//! generic over the game.

use anyhow::Context;
use eloworld_games::{Chess, DrawRules, GameKind, Squava};
use eloworld_players::PlayableGame;

/// A game the command can run.
pub trait CliGame: PlayableGame {
    /// Reads the rule variations from a tournament's `draw_rules` setting.
    fn rules(draw_rules: &str) -> anyhow::Result<Self::Rules>;

    /// Returns the built-in players plus the engines defined in `engines` (a TOML file).
    fn registry_with(
        engines: Option<&std::path::Path>,
    ) -> anyhow::Result<eloworld_players::Registry<Self>> {
        let mut registry = Self::builtin_players();
        if let Some(path) = engines {
            eloworld_players::engine::add_definitions_file(&mut registry, path)?;
        }
        Ok(registry)
    }
}

impl CliGame for Chess {
    fn rules(draw_rules: &str) -> anyhow::Result<DrawRules> {
        draw_rules
            .parse::<DrawRules>()
            .map_err(anyhow::Error::msg)
            .context("draw_rules")
    }
}

impl CliGame for Squava {
    fn rules(_draw_rules: &str) -> anyhow::Result<()> {
        Ok(())
    }
}

/// Calls `$body` with `$g` bound to the game type named by `$kind`.
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            eloworld_games::GameKind::Chess => {
                type $g = eloworld_games::Chess;
                $body
            }
            eloworld_games::GameKind::Squava => {
                type $g = eloworld_games::Squava;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// Parses a `--game` value.
pub fn parse_kind(s: &str) -> Result<GameKind, String> {
    s.parse::<GameKind>().map_err(|e| e.to_string())
}
