//! What a use case needs to know of each game, and dispatch from a game's kind to code
//! generic over the game.

use crate::error::AppResult;
use eloworld_games::{Chess, DrawRules, Go, GoRules, Komi, Squava};
use eloworld_players::{PlayableGame, PlayerFactory, Registry};
use std::path::Path;
use std::sync::Arc;

/// A game the use cases can run.
pub trait AppGame: PlayableGame {
    /// The rule variations a tournament's `draw_rules` setting picks.
    fn rules(draw_rules: DrawRules) -> Self::Rules;

    /// The rules a tournament's settings pick: `draw_rules` for chess, `size` and `komi`
    /// for Go (whose defaults are 9 and 7).
    ///
    /// # Errors
    /// A size or komi out of range.
    fn rules_with(
        draw_rules: DrawRules,
        _size: Option<u8>,
        _komi: Option<f64>,
    ) -> AppResult<Self::Rules> {
        Ok(Self::rules(draw_rules))
    }

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

impl AppGame for Go {
    fn rules(_draw_rules: DrawRules) -> GoRules {
        GoRules::default()
    }

    fn rules_with(
        _draw_rules: DrawRules,
        size: Option<u8>,
        komi: Option<f64>,
    ) -> AppResult<GoRules> {
        let komi = match komi {
            Some(k) => Komi::from_points(k)?,
            None => Komi::DEFAULT,
        };
        Ok(GoRules::new(
            size.unwrap_or(eloworld_games::go::DEFAULT_SIZE),
            komi,
        )?)
    }
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
            $crate::reexports::GameKind::Go => {
                type $g = $crate::reexports::Go;
                $body
            }
        }
    };
}
