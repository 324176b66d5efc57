//! Running an EPD test suite (`bm`/`am`; `eloworld suite`): the positions solved, and for
//! an evol-family player the nodes searched until the right move was found and kept
//! (David–Koppel–Netanyahu, section IV: the search-evolution fitness, capped at the node
//! limit). An external engine (UCI or CECP, e.g. Debian's `toga2` or `glaurung`, standing in
//! for the paper's Crafty in its Table III) is asked for one move per position within the
//! same time, nodes or depth. Positions are independent: they are solved in parallel on a
//! rayon pool, and the results do not depend on the number of threads.

use crate::error::{AppError, AppResult, Context};
use eloworld_games::{Chess, DrawRules, Game, GameRng, Side};
use eloworld_players::chess::evol::engine::suite::{
    parse_epd, solve, EpdPosition, EpdSuite, SolveResult,
};
use eloworld_players::chess::evol::engine::Limits;
use eloworld_players::chess::evol::evol_config;
use eloworld_players::{PlayerSpec, Registry, SpecError, Worker};
use rayon::prelude::*;
use shakmaty::san::San;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How a suite is searched.
#[derive(Clone, Debug)]
pub struct SuiteRequest<'a> {
    /// The suite's name in messages (its file).
    pub source: &'a str,
    /// The player's spec as given.
    pub player: &'a str,
    /// Milliseconds per position.
    pub movetime: Option<u64>,
    /// Nodes per position.
    pub nodes: Option<u64>,
    /// Plies per position.
    pub depth: Option<u32>,
    /// Engine definitions to add to the built-in engines.
    pub engines: Option<&'a Path>,
    /// Worker threads.
    pub threads: usize,
}

/// The limit a suite ran under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteLimit {
    /// Milliseconds per position.
    pub ms: Option<u128>,
    /// Nodes per position.
    pub nodes: Option<u64>,
    /// Plies per position.
    pub depth: Option<u32>,
}

impl fmt::Display for SuiteLimit {
    /// Writes the limits as one line (`5000 ms, 20000 nodes, 8 plies`), or that the engine
    /// kept its own budget.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = [
            self.ms.map(|t| format!("{t} ms")),
            self.nodes.map(|n| format!("{n} nodes")),
            self.depth.map(|d| format!("{d} plies")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            f.write_str("the engine's own budget")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// Who searched the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// The parametric engine (an evol-family player): nodes to solution are its own.
    Evol,
    /// An external engine: its nodes as it reported them, no nodes to solution.
    Engine,
}

/// A suite's results.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// The player (an engine's with the budget given in place of its own).
    pub spec: PlayerSpec,
    /// Who searched.
    pub solver: Solver,
    /// The limit per position.
    pub limit: SuiteLimit,
    /// One result per position, in the positions' order.
    pub results: Vec<SolveResult>,
    /// Positions solved.
    pub solved: usize,
    /// Nodes to solution (an engine's: all its nodes), unsolved positions at the cap.
    pub to_solution: u64,
    /// All nodes searched.
    pub nodes: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// One position's result as a reader sees it: moves in SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine<'a> {
    /// The position's `id`.
    pub id: &'a str,
    /// Whether it was solved.
    pub solved: bool,
    /// The move played, in SAN (`-` when none was).
    pub played: String,
    /// Nodes to solution.
    pub nodes_to_solution: u64,
    /// Depth reached.
    pub depth: u32,
    /// The suite's answer: the best moves, then `not` each move to avoid.
    pub expected: Vec<String>,
}

impl SuiteReport {
    /// Returns one line per position, `positions` being the ones the suite was run on.
    #[must_use]
    pub fn lines<'a>(&self, positions: &[&'a EpdPosition]) -> Vec<PositionLine<'a>> {
        positions
            .iter()
            .zip(&self.results)
            .map(|(p, r)| PositionLine {
                id: &p.id,
                solved: r.solved,
                played: r.best_move.map_or("-".to_owned(), |m| {
                    San::from_move(&p.position, m).to_string()
                }),
                nodes_to_solution: r.nodes_to_solution,
                depth: r.depth,
                expected: expected_moves(p),
            })
            .collect()
    }

    /// Returns the nodes searched per second of wall-clock time.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The suite's answer as SAN: the best moves, then `not` each move to avoid.
fn expected_moves(p: &EpdPosition) -> Vec<String> {
    p.best_moves
        .iter()
        .map(|&m| San::from_move(&p.position, m).to_string())
        .chain(
            p.avoid_moves
                .iter()
                .map(|&m| format!("not {}", San::from_move(&p.position, m))),
        )
        .collect()
}

/// Reads an EPD suite file (bytes that are not UTF-8 replaced); its bad lines are skipped
/// and listed in the result, never fatal.
///
/// # Errors
/// A file that cannot be read.
pub fn read_suite(path: &Path) -> AppResult<EpdSuite> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(parse_epd(
        &String::from_utf8_lossy(&bytes),
        &path.display().to_string(),
    ))
}

/// Searches `positions` with the player `req` names; `done` hears the number of positions
/// finished after each.
///
/// # Errors
/// A bad player spec; no position; a player that is neither of the evol family nor a known
/// engine, or does not search; no budget; an engine given several budgets; a position a player fails on (naming it).
pub fn run_suite(
    positions: &[&EpdPosition],
    req: &SuiteRequest<'_>,
    done: impl Fn(usize) + Sync,
) -> AppResult<SuiteReport> {
    // The spec is read first: a bad spec is the error to show.
    let spec: PlayerSpec = req.player.parse()?;
    crate::ensure!(!positions.is_empty(), "{}: no usable position", req.source);
    let mut config = match evol_config(&spec) {
        Ok(config) => config,
        // Not of an evol family: an engine, or a name nothing here knows.
        Err(SpecError::Unknown { .. }) => return run_engine(positions, req, &spec, done),
        Err(e) => return Err(e.into()),
    };
    crate::ensure!(
        config.one_ply.is_none(),
        "{}: the 1-ply player does not search; give evol, ab_depth<N> or ab_<N>k",
        req.player
    );
    if req.nodes.is_some() || req.depth.is_some() || req.movetime.is_some() {
        config.limits = Limits {
            nodes: req.nodes,
            depth: req.depth,
            time: req.movetime.map(Duration::from_millis),
            ..Limits::infinite()
        };
    }
    let limits = &config.limits;
    crate::ensure!(
        limits.nodes.is_some() || limits.depth.is_some() || limits.time.is_some(),
        "give --movetime, --nodes or --depth (or a player with a budget)"
    );
    let start = Instant::now();
    let results = solve_all(
        positions,
        req.threads,
        &done,
        |_| config.engine(),
        |engine, p| Ok(solve(engine, p, limits)),
    )?;
    Ok(report(
        spec,
        Solver::Evol,
        SuiteLimit {
            ms: limits.time.map(|t| t.as_millis()),
            nodes: limits.nodes,
            depth: limits.depth,
        },
        results,
        start.elapsed(),
    ))
}

fn report(
    spec: PlayerSpec,
    solver: Solver,
    limit: SuiteLimit,
    results: Vec<SolveResult>,
    elapsed: Duration,
) -> SuiteReport {
    SuiteReport {
        solved: results.iter().filter(|r| r.solved).count(),
        to_solution: results.iter().map(|r| r.nodes_to_solution).sum(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        spec,
        solver,
        limit,
        results,
        elapsed,
    }
}

/// The suite played by an external engine: one move asked per position, from a new game
/// (`ucinewgame`), within the movetime, nodes or depth given (each replaces the engine's
/// own budget). An engine that cannot start, crashes or answers no move stops the run with
/// the position named: a fault is never counted as a wrong answer.
fn run_engine(
    positions: &[&EpdPosition],
    req: &SuiteRequest<'_>,
    spec: &PlayerSpec,
    done: impl Fn(usize) + Sync,
) -> AppResult<SuiteReport> {
    let mut registry: Registry<Chess> =
        <Chess as eloworld_players::PlayableGame>::builtin_players();
    if let Some(path) = req.engines {
        eloworld_players::engine::add_definitions_file(&mut registry, path)?;
    }
    let mut spec = spec.clone();
    let budget: Vec<(String, String)> = [
        req.movetime.map(|t| ("movetime", t.to_string())),
        req.nodes.map(|n| ("nodes", n.to_string())),
        req.depth.map(|d| ("depth", d.to_string())),
    ]
    .into_iter()
    .flatten()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    crate::ensure!(
        budget.len() <= 1,
        "an engine takes one budget: give one of --movetime, --nodes, --depth"
    );
    if !budget.is_empty() {
        let kept = spec
            .params
            .iter()
            .filter(|(k, _)| !matches!(*k, "movetime" | "nodes" | "depth"))
            .map(|(k, v)| (k.to_owned(), v.to_owned()));
        spec.params = eloworld_players::Params::new(kept.chain(budget));
    }
    let factory = registry.resolve(&spec).with_context(|| {
        format!(
            "{}: not an evol-family player (evol, ab_depth<N>, ab_<N>k) nor an engine this eloworld knows",
            req.player
        )
    })?;
    let start = Instant::now();
    // An engine's answer: its move, and the nodes and depth it reported (no nodes to
    // solution: an engine reports only where it ended). Each position is a new game.
    let ask = |(worker, rng): &mut (Worker, GameRng), p: &EpdPosition| {
        let mut player = factory.create(worker)?;
        crate::ensure!(
            player.reports_searches(),
            "not an evol-family player (evol, ab_depth<N>, ab_<N>k) nor an engine: the suite \
             needs a player that searches"
        );
        let game = Chess::from_shakmaty(p.position.clone(), DrawRules::Claimed);
        let mv = player.choose(&game, rng)?;
        crate::ensure!(
            game.is_legal(mv),
            "answered {}, not a legal move",
            game.move_code(mv)
        );
        let report = player.last_report().unwrap_or_default();
        let nodes = report.nodes.unwrap_or(0);
        Ok(SolveResult {
            solved: p.is_solution(mv),
            nodes_to_solution: nodes,
            best_move: Some(mv),
            nodes,
            depth: report.depth.unwrap_or(0),
        })
    };
    let start_worker = |index| (Worker::new(index), GameRng::for_side(1, Side::First));
    let results = solve_all(positions, req.threads, &done, start_worker, ask)
        .with_context(|| spec.to_string())?;
    Ok(report(
        spec,
        Solver::Engine,
        SuiteLimit {
            ms: req.movetime.map(u128::from),
            nodes: req.nodes,
            depth: req.depth,
        },
        results,
        start.elapsed(),
    ))
}

/// Solves the positions on a rayon pool of `threads` threads, each thread with its own
/// solver from `start` (an engine, or an engine process's worker and game state); returns
/// the results in the positions' order. A failure stops the run and names its position.
fn solve_all<S>(
    positions: &[&EpdPosition],
    threads: usize,
    done: &(impl Fn(usize) + Sync),
    start: impl Fn(usize) -> S + Sync,
    solve_one: impl Fn(&mut S, &EpdPosition) -> AppResult<SolveResult> + Sync,
) -> AppResult<Vec<SolveResult>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| AppError::Invalid(format!("starting {threads} threads: {e}")))?;
    let finished = AtomicUsize::new(0);
    pool.install(|| {
        positions
            .par_iter()
            .map_init(
                || start(rayon::current_thread_index().unwrap_or(0)),
                |solver, p| {
                    let r = solve_one(solver, p)
                        .with_context(|| format!("position {} (line {})", p.id, p.line))?;
                    done(finished.fetch_add(1, Ordering::Relaxed) + 1);
                    Ok(r)
                },
            )
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(player: &'a str) -> SuiteRequest<'a> {
        SuiteRequest {
            source: "t.epd",
            player,
            movetime: None,
            nodes: None,
            depth: Some(2),
            engines: None,
            threads: 1,
        }
    }

    #[test]
    fn limits_read_as_one_line() {
        let all = SuiteLimit {
            ms: Some(5000),
            nodes: Some(20_000),
            depth: Some(8),
        };
        assert_eq!(all.to_string(), "5000 ms, 20000 nodes, 8 plies");
        let nodes = SuiteLimit {
            nodes: Some(500_000),
            ..SuiteLimit::default()
        };
        assert_eq!(nodes.to_string(), "500000 nodes");
        assert_eq!(SuiteLimit::default().to_string(), "the engine's own budget");
    }

    #[test]
    fn a_suite_file_keeps_its_good_lines_and_lists_the_rest() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("s.epd");
        std::fs::write(
            &path,
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate\";\n\
             not a position\n\
             \x00\x006k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Kf1; id \"padded\";\n",
        )?;
        let suite = read_suite(&path)?;
        let ids: Vec<&str> = suite.positions.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["mate", "padded"]);
        assert_eq!(suite.skipped.len(), 1);
        assert_eq!(suite.nul_lines, [3]);
        let missing = read_suite(&dir.path().join("none.epd")).err();
        assert!(
            missing.is_some_and(|e| e.to_string().starts_with("reading ")),
            "an unreadable file says what was being read"
        );
        Ok(())
    }

    #[test]
    fn an_empty_suite_is_an_error_after_the_spec_is_read() {
        let err = run_suite(&[], &request("evol"), |_| {}).err();
        assert_eq!(
            err.map(|e| e.to_string()).as_deref(),
            Some("t.epd: no usable position")
        );
        let err = run_suite(&[], &request(""), |_| {}).err();
        assert!(
            err.is_some_and(|e| e.to_string().contains("empty player name")),
            "a bad spec is the error shown"
        );
    }

    #[test]
    fn each_position_reads_in_san_with_its_answer() -> AppResult<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("s.epd");
        std::fs::write(
            &path,
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; am Kf1; id \"mate\";\n",
        )?;
        let suite = read_suite(&path)?;
        let positions: Vec<&EpdPosition> = suite.positions.iter().collect();
        let report = run_suite(&positions, &request("ab_depth2"), |_| {})?;
        assert_eq!((report.solver, report.solved), (Solver::Evol, 1));
        let lines = report.lines(&positions);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].id, "mate");
        assert!(lines[0].solved);
        assert_eq!(lines[0].played, "Ra8");
        assert_eq!(lines[0].expected, ["Ra8", "not Kf1"]);
        Ok(())
    }
}
