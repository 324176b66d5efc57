//! Fate-based chess players (Murphy's Elo World, section 2.2): statistics of where each piece of the
//! starting position ends games, alive or dead, and the six players that move by them.
//!
//! [`identity`] follows the 32 pieces through a game; [`table`] holds the counts and their
//! file format; [`pgn`] counts them over PGN collections; [`players`] plays by them.

pub mod identity;
pub mod pgn;
pub mod players;
pub mod table;

pub use identity::{Identities, PieceId};
pub use pgn::{count_fates, BuildReport, SkipReason};
pub use players::{FatePlayer, FateRule, FateScores};
pub use table::{Fate, FateFileError, FateTable, GameFates};

use eloworld_games::Chess;
use eloworld_players_core::{
    Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SpecError, Worker,
};
use std::path::Path;
use std::sync::Arc;

/// Builds fate players of one rule, all sharing one table's scores.
struct FateFactory {
    scores: Arc<FateScores>,
    as_published: bool,
}

impl PlayerFactory<Chess> for FateFactory {
    fn create(&self, _worker: &mut Worker) -> Result<Box<dyn Player<Chess>>, PlayerError> {
        let scores = Arc::clone(&self.scores);
        Ok(Box::new(if self.as_published {
            FatePlayer::as_published(scores)
        } else {
            FatePlayer::new(scores)
        }))
    }
}

/// The parameter that selects the original program's sampling (`safe:as_published=true`).
pub const AS_PUBLISHED: &str = "as_published";

/// The `fates` value that names the table embedded in eloworld.
pub const EMBEDDED: &str = "embedded";

/// Returns the table a spec names: `fates=FILE`, or the embedded one (no `fates`, or
/// `fates=embedded`).
///
/// # Errors
/// [`SpecError::Unavailable`] naming the file and what is wrong with it.
pub fn table_for(spec: &PlayerSpec) -> Result<FateTable, SpecError> {
    match spec.params.get("fates") {
        None | Some(EMBEDDED) => Ok(FateTable::embedded().clone()),
        Some(path) => FateTable::read(Path::new(path)).map_err(|e| SpecError::Unavailable {
            player: spec.to_string(),
            reason: match e {
                FateFileError::Io { .. } => e.to_string(),
                _ => format!("fates file {path}: {e}"),
            },
        }),
    }
}

/// Adds `safe`, `popular`, `dangerous`, `rare`, `survivalist` and `fatalist` to `r`.
pub fn register(r: &mut Registry<Chess>) {
    for rule in FateRule::ALL {
        let mut info = PlayerInfo::new(rule.name(), rule.description(), Flags::STATEFUL).param(
            "fates",
            EMBEDDED,
            "a table file written by `eloworld fates`; `embedded` was built from data/pgn",
        );
        if rule.normalised() {
            info = info.param(
                AS_PUBLISHED,
                false,
                "true: choose as the original program did (the first move, in its generation order, without the lowest score), which the paper's table measured",
            );
        }
        r.add(
            info,
            Box::new(move |spec: &PlayerSpec| {
                let keys: &[&str] = if rule.normalised() {
                    &["fates", AS_PUBLISHED]
                } else {
                    &["fates"]
                };
                spec.params.check_keys(rule.name(), keys)?;
                let as_published = spec.params.parse_or(rule.name(), AS_PUBLISHED, false)?;
                let table = table_for(spec)?;
                Ok(Arc::new(FateFactory {
                    scores: Arc::new(FateScores::new(rule, &table)),
                    as_published,
                }) as Arc<dyn PlayerFactory<Chess>>)
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry<Chess> {
        let mut r = Registry::new();
        register(&mut r);
        r
    }

    #[test]
    fn every_rule_resolves_with_the_embedded_table_and_plays() {
        let r = registry();
        for rule in FateRule::ALL {
            let Ok(factory) = r.resolve_str(rule.name()) else {
                panic!("{} does not resolve", rule.name())
            };
            let mut p = factory.create(&mut Worker::new(0)).expect("create");
            let game = <Chess as eloworld_games::Game>::new(eloworld_games::DrawRules::Automatic);
            let mut rng = eloworld_games::GameRng::new(1);
            assert!(p.choose(&game, &mut rng).is_ok());
        }
    }

    #[test]
    fn a_missing_or_corrupt_fates_file_fails_at_resolve() {
        let r = registry();
        let Err(err) = r.resolve_str("safe:fates=/nonexistent/f.bin") else {
            panic!("resolved")
        };
        assert!(matches!(err, SpecError::Unavailable { .. }));
        assert!(err.to_string().contains("/nonexistent/f.bin"), "{err}");

        let dir = std::env::temp_dir().join(format!("eloworld-fates-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("corrupt.bin");
        let mut bytes = FateTable::embedded().to_bytes();
        bytes[1000] ^= 0x40;
        std::fs::write(&path, &bytes).expect("write");
        let spec = format!("fatalist:fates={}", path.display());
        let Err(err) = r.resolve_str(&spec) else {
            panic!("resolved")
        };
        assert!(err.to_string().contains("checksum"), "{err}");

        let good = dir.join("good.bin");
        FateTable::embedded().write(&good).expect("write");
        assert!(r
            .resolve_str(&format!("fatalist:fates={}", good.display()))
            .is_ok());
        assert!(r.resolve_str("rare:fates=embedded").is_ok());
        let Err(err) = r.resolve_str("safe:depth=3") else {
            panic!("resolved")
        };
        assert!(matches!(err, SpecError::BadParam { .. }), "{err}");
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
