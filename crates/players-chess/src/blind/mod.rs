//! The blind players of Murphy's Elo World (section 2.4) and "Color- and piece-blind
//! chess" (SIGBOVIK 2019): `blind_yolo`, `blind_kings` and `blind_spycheck` see only the
//! 64-bit mask of occupied squares, predict the whole position with a trained model
//! ([`model`]), and hand the predicted position to Stockfish with the paper's budget
//! (`stockfish1m`: 1,000,000 nodes a move; `nodes=N` for quick runs).
//!
//! [`dataset`] collects training positions from PGN games; `eloworld-train-blind` fits the
//! model and writes `data/blind/model.bin`, which is embedded in eloworld.

pub mod dataset;
pub mod model;
pub mod player;

pub use model::{Accuracy, BlindModel, Dense, KingRule, ModelFileError, ModelKind, Prediction};
pub use player::{playable, spy_check, BlindPlayer, Variant};

use eloworld_games::Chess;
use eloworld_players_core::engine::{add_definitions, builtin_definitions};
use eloworld_players_core::{
    Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SpecError, Worker,
};
use std::path::Path;
use std::sync::Arc;

/// The engine definition the blind players ask, as the paper's "equivalent of stockfish1m".
const ENGINE: &str = "stockfish1m";
/// The paper's node budget.
pub const DEFAULT_NODES: u64 = 1_000_000;
/// The `model` value that names the model embedded in eloworld.
pub const EMBEDDED: &str = "embedded";

struct BlindFactory {
    variant: Variant,
    model: Arc<BlindModel>,
    engine: Arc<dyn PlayerFactory<Chess>>,
}

impl PlayerFactory<Chess> for BlindFactory {
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<Chess>>, PlayerError> {
        Ok(Box::new(BlindPlayer::new(
            self.variant,
            Arc::clone(&self.model),
            self.engine.create(worker)?,
        )))
    }
}

/// Returns the model a spec names: `model=FILE`, or the embedded one.
fn model_for(spec: &PlayerSpec) -> Result<Arc<BlindModel>, SpecError> {
    match spec.params.get("model") {
        None | Some(EMBEDDED) => Ok(Arc::new(BlindModel::embedded().clone())),
        Some(path) => BlindModel::read(Path::new(path))
            .map(Arc::new)
            .map_err(|e| SpecError::Unavailable {
                player: spec.to_string(),
                reason: match e {
                    ModelFileError::Io { .. } => e.to_string(),
                    _ => format!("model file {path}: {e}"),
                },
            }),
    }
}

/// Adds `blind_yolo`, `blind_kings` and `blind_spycheck` to `r` (when Stockfish's
/// definition is built in).
pub fn register(r: &mut Registry<Chess>) {
    let Some(engine) = builtin_definitions().into_iter().find(|d| d.name == ENGINE) else {
        return;
    };
    for variant in Variant::ALL {
        let info = PlayerInfo::new(variant.name(), variant.description(), Flags::EXTERNAL)
            .param(
                "nodes",
                DEFAULT_NODES,
                "Stockfish's nodes per move on the predicted position (the paper: 1,000,000)",
            )
            .param(
                "model",
                EMBEDDED,
                "a model file written by `eloworld-train-blind`; `embedded` was trained on data/pgn",
            );
        let engine = engine.clone();
        r.add(
            info,
            Box::new(move |spec: &PlayerSpec| {
                let name = variant.name();
                spec.params.check_keys(name, &["nodes", "model"])?;
                let nodes: u64 = spec.params.parse_or(name, "nodes", DEFAULT_NODES)?;
                if nodes == 0 {
                    return Err(SpecError::BadParam {
                        player: name.to_owned(),
                        reason: "nodes must be at least 1".to_owned(),
                    });
                }
                let model = model_for(spec)?;
                let mut engines = Registry::new();
                add_definitions(&mut engines, [engine.clone()]);
                let engine = engines
                    .resolve_str(&format!("{}:nodes={nodes},fen_only=true", engine.name))
                    .map_err(|e| SpecError::Unavailable {
                        player: spec.to_string(),
                        reason: e.to_string(),
                    })?;
                Ok(Arc::new(BlindFactory {
                    variant,
                    model,
                    engine,
                }) as Arc<dyn PlayerFactory<Chess>>)
            }),
        );
    }
}

#[cfg(test)]
mod tests;
