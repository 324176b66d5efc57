//! The ladders shipped in `data/ladders/`, compiled in so that a ladder's name works from
//! any directory, and the lookup of a ladder argument (a file or a name). A ladder's game
//! and draw rules are read into types here, once.

use crate::error::{AppError, AppResult, Context};
use eloworld_games::{DrawRules, GameKind};
use eloworld_ratings::ladder::Ladder;
use std::path::Path;

/// (name, file text) of every shipped ladder.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "elo-world",
        include_str!("../../../data/ladders/elo-world.toml"),
    ),
    (
        "elo-world-in-process",
        include_str!("../../../data/ladders/elo-world-in-process.toml"),
    ),
    ("go-9x9", include_str!("../../../data/ladders/go-9x9.toml")),
];

/// Reads a ladder argument: an existing file, else a shipped ladder of that name.
///
/// # Errors
/// Neither a readable ladder file nor a shipped ladder's name.
pub fn load(arg: &str) -> AppResult<Ladder> {
    let path = Path::new(arg);
    if path.is_file() {
        return Ok(Ladder::read(path)?);
    }
    let Some((_, text)) = SHIPPED.iter().find(|(name, _)| *name == arg) else {
        let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
        crate::invalid!(
            "ladder {arg:?}: no such file, nor a shipped ladder (shipped: {})",
            names.join(", ")
        );
    };
    Ladder::from_toml(text).with_context(|| format!("shipped ladder {arg}"))
}

/// The rules a ladder's games were played under, as types.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderRules {
    /// The game.
    pub game: GameKind,
    /// The draw rules (chess).
    pub draw_rules: DrawRules,
    /// Go: the board size (none: 9).
    pub size: Option<u8>,
    /// Go: the komi (none: 7).
    pub komi: Option<f64>,
}

impl LadderRules {
    /// Reads the ladder's `game`, `draw_rules`, `size` and `komi`.
    ///
    /// # Errors
    /// An unknown game or draw rules, naming the ladder.
    pub fn of(ladder: &Ladder) -> AppResult<LadderRules> {
        let game: GameKind = ladder
            .game
            .parse()
            .with_context(|| format!("ladder {}", ladder.name))?;
        let draw_rules: DrawRules = ladder.draw_rules.parse().map_err(|e: String| {
            AppError::Invalid(format!("ladder {}: draw_rules: {e}", ladder.name))
        })?;
        Ok(LadderRules {
            game,
            draw_rules,
            size: ladder.size,
            komi: ladder.komi,
        })
    }
}
