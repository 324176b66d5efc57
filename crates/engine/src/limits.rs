//! What bounds a search: depth, nodes, time, and an external stop flag, in one struct
//! (Stockfish's `LimitsType`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The limits of one search; the search stops at the first one reached.
///
/// A node limit is exact: the search visits at most `nodes` nodes (every call of the main
/// search and of the quiescence search counts one), so a search limited by nodes or depth
/// alone is deterministic.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Longest time.
    pub time: Option<Duration>,
    /// Set from outside (a UCI `stop`) to end the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit but the largest depth ([`crate::MAX_DEPTH`]) and a stop flag.
    #[must_use]
    pub const fn infinite() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: None,
            stop: None,
        }
    }

    /// Searches `plies` iterations deep.
    #[must_use]
    pub const fn depth(plies: u32) -> Limits {
        Limits {
            depth: Some(plies),
            nodes: None,
            time: None,
            stop: None,
        }
    }

    /// Searches at most `nodes` nodes.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: None,
            nodes: Some(nodes),
            time: None,
            stop: None,
        }
    }

    /// Searches for at most `time`.
    #[must_use]
    pub const fn time(time: Duration) -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: Some(time),
            stop: None,
        }
    }

    /// Returns whether the stop flag was raised.
    #[must_use]
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
