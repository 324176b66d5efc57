//! The ladders shipped in `data/ladders/`, compiled into the binary so that `--ladder NAME`
//! works from any directory, and the lookup of a `--ladder` argument (a file or a name).

use anyhow::Context;
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
];

/// Reads `--ladder ARG`: an existing file, else a shipped ladder of that name.
pub fn load(arg: &str) -> anyhow::Result<Ladder> {
    let path = Path::new(arg);
    if path.is_file() {
        return Ok(Ladder::read(path)?);
    }
    let (_, text) = SHIPPED
        .iter()
        .find(|(name, _)| *name == arg)
        .with_context(|| {
            let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
            format!(
                "ladder {arg:?}: no such file, nor a shipped ladder (shipped: {})",
                names.join(", ")
            )
        })?;
    Ladder::from_toml(text).with_context(|| format!("shipped ladder {arg}"))
}
