//! What the command needs to know of each game, and dispatch from a game name to code
//! generic over the game.

use eloworld_games::{Chess, DrawRules, GameKind, Squava};
use eloworld_players::PlayableGame;

/// A game the command can run.
pub trait CliGame: PlayableGame {
    /// The rule variations a tournament's `draw_rules` setting picks.
    fn rules(draw_rules: DrawRules) -> Self::Rules;

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

    /// Resolves a stored tournament's players with the built-in players and `engines`:
    /// `None` for each player this machine cannot run (its jobs are left to other workers),
    /// with why in the second list.
    fn factories(
        players: &[String],
        engines: Option<&std::path::Path>,
    ) -> anyhow::Result<(Factories<Self>, Vec<String>)> {
        let registry = Self::registry_with(engines)?;
        let mut cannot = Vec::new();
        let mut out = Vec::new();
        for p in players {
            match registry.resolve_str(p) {
                Ok(f) => out.push(Some(f)),
                Err(e) => {
                    cannot.push(format!("{p}: {e}"));
                    out.push(None);
                }
            }
        }
        Ok((out, cannot))
    }
}

/// A factory per player of a tournament, `None` where this machine cannot run the player.
pub type Factories<G> = Vec<Option<std::sync::Arc<dyn eloworld_players::PlayerFactory<G>>>>;

impl CliGame for Chess {
    fn rules(draw_rules: DrawRules) -> DrawRules {
        draw_rules
    }
}

impl CliGame for Squava {
    fn rules(_draw_rules: DrawRules) {}
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
