//! What a use case needs to know of each game, and dispatch from a game's kind to code
//! generic over the game.

use crate::error::AppResult;
use eloworld_games::{Chess, DrawRules, Squava};
use eloworld_players::{PlayableGame, PlayerFactory, Registry};
use std::path::Path;
use std::sync::Arc;

/// A game the use cases can run.
pub trait AppGame: PlayableGame {
    /// The rule variations a tournament's `draw_rules` setting picks.
    fn rules(draw_rules: DrawRules) -> Self::Rules;

    /// Returns the built-in players plus the engines defined in `engines` (a TOML file).
    ///
    /// # Errors
    /// The engines file cannot be read or defines a bad engine.
    fn registry_with(engines: Option<&Path>) -> AppResult<Registry<Self>> {
        let mut registry = Self::builtin_players();
        if let Some(path) = engines {
            eloworld_players::engine::add_definitions_file(&mut registry, path)?;
        }
        Ok(registry)
    }

    /// Resolves a stored tournament's players with the built-in players and `engines`:
    /// `None` for each player this machine cannot run (its jobs are left to other workers),
    /// with why in the second list.
    ///
    /// # Errors
    /// The engines file cannot be read.
    fn factories(
        players: &[String],
        engines: Option<&Path>,
    ) -> AppResult<(Factories<Self>, Vec<String>)> {
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
pub type Factories<G> = Vec<Option<Arc<dyn PlayerFactory<G>>>>;

impl AppGame for Chess {
    fn rules(draw_rules: DrawRules) -> DrawRules {
        draw_rules
    }
}

impl AppGame for Squava {
    fn rules(_draw_rules: DrawRules) {}
}

/// Calls `$body` with `$g` bound to the game type named by `$kind` (a `GameKind`).
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $g:ident => $body:expr) => {
        match $kind {
            $crate::reexports::GameKind::Chess => {
                type $g = $crate::reexports::Chess;
                $body
            }
            $crate::reexports::GameKind::Squava => {
                type $g = $crate::reexports::Squava;
                $body
            }
        }
    };
}
