use thiserror::Error;

/// Why a player could not give a move.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PlayerError {
    /// The position has no legal move; the runner never asks then.
    #[error("no legal move to choose from")]
    NoMove,
    /// An external engine's process died or closed its pipes.
    #[error("engine {engine} crashed: {detail}")]
    Crashed {
        /// The engine's name.
        engine: String,
        /// What was seen (exit status, last output).
        detail: String,
    },
    /// An external engine gave no move in time.
    #[error("engine {engine} gave no move within {millis} ms")]
    Timeout {
        /// The engine's name.
        engine: String,
        /// The limit that passed.
        millis: u64,
    },
    /// The player answered with a move that is not legal or cannot be read.
    #[error("{player} played an illegal or unreadable move {text:?}")]
    IllegalMove {
        /// The player's name.
        player: String,
        /// The move text as given.
        text: String,
    },
    /// An engine answered with a result claim instead of a move (CECP `1-0`, `0-1`,
    /// `1/2-1/2`, `resign`).
    #[error("{player} claimed {text:?}")]
    ResultClaim {
        /// The player's name.
        player: String,
        /// The claim as given.
        text: String,
        /// What it claims.
        claim: Claim,
    },
    /// The player could not be set up (engine missing, bad file).
    #[error("{0}")]
    Setup(String),
}

/// A result an engine claims instead of moving, from the claimer's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Its own loss: `resign`, or the opponent's win.
    Loss,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Its own win.
    Win,
}

/// Errors in naming a player.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SpecError {
    /// The spec text does not follow `name[:key=value,…][_rN]`.
    #[error("bad player spec {spec:?}: {reason}")]
    Syntax {
        /// The spec as given.
        spec: String,
        /// What was expected.
        reason: String,
    },
    /// No player of that name for this game.
    #[error("unknown {game} player {name:?}{}", suggestions_text(.suggestions))]
    Unknown {
        /// The game.
        game: String,
        /// The name as given.
        name: String,
        /// Known names closest to it.
        suggestions: Vec<String>,
    },
    /// The player does not take that parameter, or its value is wrong.
    #[error("player {player}: {reason}")]
    BadParam {
        /// The player's name.
        player: String,
        /// What is wrong.
        reason: String,
    },
    /// The player exists but cannot run here (a missing engine binary, a missing file).
    #[error("player {player} cannot run: {reason}")]
    Unavailable {
        /// The player's spec.
        player: String,
        /// Why, and what to install.
        reason: String,
    },
}

fn suggestions_text(s: &[String]) -> String {
    if s.is_empty() {
        String::new()
    } else {
        format!("; closest known: {}", s.join(", "))
    }
}
