//! eloworld's players by game: [`PlayableGame`] gives each game its registry of built-in
//! players, and this crate gathers the players' crates under one name.
//!
//! The [`Player`] trait, specs, the registry, dilution, the human player and the external
//! programs' protocols are in `eloworld-players-core` (re-exported here whole); the players
//! of each game are in `eloworld-players-chess` ([`chess`], with [`fate`] and [`blind`]),
//! `eloworld-players-squava` ([`squava`]) and `eloworld-players-go` ([`go`]).
//!
//! [`PlayableGame`] lives here, not in the core, because of Rust's orphan rule: its impls
//! for the games' types (`eloworld-games`) must sit in the crate of the trait or of the
//! type, and only a crate that depends on every game's players can name each game's
//! registry. The core stays free of any game's players, each game's crate free of the
//! others, and this crate holds nothing but that one mapping from a game to its players
//! (and to the external programs it can play, [`engine::add_definitions_file`]).
#![deny(missing_docs)]

pub use eloworld_players_chess as chess;
pub use eloworld_players_chess::{blind, fate};
pub use eloworld_players_core::*;
pub use eloworld_players_go as go;
pub use eloworld_players_squava as squava;

use eloworld_games::{Chess, Game, Go, Squava};
use engine::{EngineDef, EngineFileError, Protocol};
use std::path::Path;

/// External engines as players: the core's [`eloworld_players_core::engine`], with the
/// reading of an engine definitions file into the registry of the game it is for.
pub mod engine {
    pub use eloworld_players_core::engine::*;

    use crate::PlayableGame;
    use eloworld_players_core::Registry;
    use std::path::Path;

    /// Reads an engine definitions file (`--engines FILE`) into a game's registry: UCI and
    /// CECP engines into chess's, GTP programs into Go's.
    ///
    /// # Errors
    /// [`EngineFileError`] when the file is bad, or its engines do not play the registry's
    /// game.
    pub fn add_definitions_file<G: PlayableGame>(
        r: &mut Registry<G>,
        path: &Path,
    ) -> Result<usize, EngineFileError> {
        let defs = read_definitions(path)?;
        let n = defs.len();
        G::add_engines(r, defs, path)?;
        Ok(n)
    }
}

/// The games that have a registry of built-in players.
pub trait PlayableGame: Game {
    /// Returns the registry of the built-in players of this game.
    fn builtin_players() -> Registry<Self>;

    /// Adds the engines of a definitions file (read from `path`) to this game's registry,
    /// replacing entries of the same name.
    ///
    /// # Errors
    /// [`EngineFileError::Invalid`] when the game has no external players (the default) or
    /// an engine speaks another game's protocol.
    fn add_engines(
        _registry: &mut Registry<Self>,
        _defs: Vec<EngineDef>,
        path: &Path,
    ) -> Result<(), EngineFileError> {
        Err(EngineFileError::Invalid {
            path: path.display().to_string(),
            reason: format!(
                "engines play chess; this is a {} tournament",
                Self::KIND.name()
            ),
        })
    }
}

impl PlayableGame for Chess {
    fn builtin_players() -> Registry<Self> {
        chess::builtin_players()
    }

    fn add_engines(
        registry: &mut Registry<Self>,
        defs: Vec<EngineDef>,
        path: &Path,
    ) -> Result<(), EngineFileError> {
        if let Some(go) = defs.iter().find(|d| d.protocol == Protocol::Gtp) {
            return Err(EngineFileError::Invalid {
                path: path.display().to_string(),
                reason: format!(
                    "engine {} speaks GTP, a Go protocol; use it with --game go",
                    go.name
                ),
            });
        }
        engine::add_definitions(registry, defs);
        Ok(())
    }
}

impl PlayableGame for Squava {
    fn builtin_players() -> Registry<Self> {
        squava::builtin_players()
    }
}

impl PlayableGame for Go {
    fn builtin_players() -> Registry<Self> {
        go::builtin_players()
    }

    fn add_engines(
        registry: &mut Registry<Self>,
        defs: Vec<EngineDef>,
        path: &Path,
    ) -> Result<(), EngineFileError> {
        engine::gtp::add_definitions(registry, defs, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../players/tests/fixtures")
            .join(name)
    }

    #[test]
    fn engine_files_are_for_chess_only() {
        let mut squava = Squava::builtin_players();
        let err = engine::add_definitions_file(&mut squava, &fixture("faulty_engines.toml"))
            .expect_err("not chess");
        assert!(err.to_string().contains("squava"), "{err}");
    }

    #[test]
    fn a_chess_engine_file_adds_its_engines_to_chess() {
        let mut r = Chess::builtin_players();
        assert!(r.resolve_str("crasher").is_err());
        let n = engine::add_definitions_file(&mut r, &fixture("faulty_engines.toml"))
            .expect("chess engines");
        assert!(n > 0);
        assert!(r.resolve_str("crasher").is_ok());
    }
}
