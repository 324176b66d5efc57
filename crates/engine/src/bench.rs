//! The bench: a fixed list of positions searched to a fixed depth from a cleared engine with
//! the default parameters. The total node count is a signature of the engine's behaviour
//! (any change to evaluation, move ordering or pruning changes it); a test pins it.

use crate::search::Techniques;
use crate::{Engine, EvalParams, Limits, SearchParams};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::time::{Duration, Instant};

/// The bench positions (middlegames and endgames from Stockfish's bench list).
pub const BENCH_FENS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
];

/// The default bench depth (plies).
pub const BENCH_DEPTH: u32 = 7;

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes of every position, in [`BENCH_FENS`] order.
    pub nodes_per_position: Vec<u64>,
    /// All nodes: the signature.
    pub total_nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
    /// CPU time of the searching thread, where the system tells it (Linux): on a shared
    /// machine this, not the wall time, measures the engine.
    pub cpu: Option<Duration>,
}

impl BenchResult {
    /// Returns nodes per second.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.total_nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Returns nodes per second of CPU time, when known.
    #[must_use]
    pub fn nodes_per_cpu_second(&self) -> Option<f64> {
        self.cpu
            .map(|c| self.total_nodes as f64 / c.as_secs_f64().max(1e-9))
    }
}

/// Returns the CPU time the calling thread has run (Linux `/proc/thread-self/schedstat`).
#[must_use]
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Returns the bench positions.
///
/// # Panics
/// Never: the list is fixed and tested.
#[must_use]
pub fn bench_positions() -> Vec<Chess> {
    BENCH_FENS
        .iter()
        .map(|f| {
            f.parse::<Fen>()
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
                .expect("bench FENs are legal (tested)")
        })
        .collect()
}

/// The positions along a fixed line of up to `plies` moves from each bench position, each
/// taken before its move: a capture or promotion where there is one (toward tactics and
/// endings), else a move picked by the ply. The tests' walk through many kinds of position.
#[cfg(test)]
pub(crate) fn bench_lines(plies: usize) -> Vec<Chess> {
    use shakmaty::Position;
    let mut out = Vec::new();
    for start in bench_positions() {
        let mut pos = start;
        for step in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = moves
                .iter()
                .position(|m| m.is_capture() || m.is_promotion())
                .unwrap_or((step * 7 + 3) % moves.len());
            pos.play_unchecked(moves[pick]);
        }
    }
    out
}

/// The bench's table, in MiB, unless another is asked for: the size the node signature is
/// pinned at.
pub const BENCH_HASH_MB: usize = 2;

/// Searches every bench position to `depth` with the given parameters and techniques, from a
/// cleared engine with a table of `hash_mb` MiB ([`BENCH_HASH_MB`] for the signature; a
/// game's 16 MiB to time the loads of a table that no longer fits the caches).
#[must_use]
pub fn run_bench_with(
    eval: EvalParams,
    search: SearchParams,
    techniques: Techniques,
    depth: u32,
    hash_mb: usize,
) -> BenchResult {
    let mut engine = Engine::new(eval, search, hash_mb);
    engine.techniques = techniques;
    let positions = bench_positions();
    let start = Instant::now();
    let cpu_start = thread_cpu_time();
    let mut nodes_per_position = Vec::with_capacity(positions.len());
    for pos in &positions {
        engine.clear();
        let r = engine.search(pos, &[], &Limits::depth(depth), &mut |_| {});
        nodes_per_position.push(r.nodes);
    }
    let elapsed = start.elapsed();
    let cpu = cpu_start
        .zip(thread_cpu_time())
        .map(|(a, b)| b.saturating_sub(a));
    BenchResult {
        total_nodes: nodes_per_position.iter().sum(),
        nodes_per_position,
        elapsed,
        cpu,
    }
}

/// Searches every bench position to `depth` with the default parameters.
#[must_use]
pub fn run_bench(depth: u32) -> BenchResult {
    run_bench_with(
        EvalParams::default(),
        SearchParams::default(),
        Techniques::default(),
        depth,
        BENCH_HASH_MB,
    )
}
