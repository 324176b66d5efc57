//! Phase 3 of David–Koppel–Netanyahu (section IV): evolve the 18 selective-search parameters of Table I
//! (70 Gray-coded bits) so that the engine finds test-suite solutions in the fewest nodes.
//!
//! An organism searches every position of the suite (ECM by default) from a cleared engine
//! with the evolved evaluation, up to `cap` nodes; its cost is the total of the nodes each
//! position needed until the right move was found and kept, `cap` for an unsolved position
//! ([`eloworld_engine::suite::solve`]). Lower is better; the GA maximises, so the fitness is
//! the nodes *saved*: `positions × cap − total`, which fitness-proportional selection can use
//! as it is (zero for an organism that solves nothing).
//!
//! Fitness is a pure function of the genome, so scores are cached: elites and repeated
//! organisms are not searched again.

use crate::{EvolveError, Fitness, Genome};
use eloworld_engine::suite::{solve, EpdPosition};
use eloworld_engine::{Coding, Engine, EvalParams, Limits, SearchParams};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;

/// The cost of one organism over the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteCost {
    /// Total nodes to solution (unsolved positions count the cap).
    pub total_nodes: u64,
    /// Positions solved.
    pub solved: usize,
}

/// The phase-3 fitness. Extras of the best organism: total nodes, positions solved.
#[derive(Debug)]
pub struct SearchFitness<'a> {
    positions: &'a [EpdPosition],
    eval: EvalParams,
    cap: u64,
    hash_mb: usize,
    cache: Mutex<HashMap<Genome, SuiteCost>>,
}

impl<'a> SearchFitness<'a> {
    /// Creates the fitness over `positions` with evaluation `eval`, `cap` nodes per position and
    /// a transposition table of `hash_mb` MiB per search.
    #[must_use]
    pub fn new(
        positions: &'a [EpdPosition],
        eval: EvalParams,
        cap: u64,
        hash_mb: usize,
    ) -> SearchFitness<'a> {
        SearchFitness {
            positions,
            eval,
            cap,
            hash_mb,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Returns the worst possible total: every position unsolved.
    #[must_use]
    pub fn worst_total(&self) -> u64 {
        self.cap * self.positions.len() as u64
    }

    /// Measures one parameter set over the suite (in parallel over positions).
    #[must_use]
    pub fn cost(&self, search: &SearchParams) -> SuiteCost {
        let results: Vec<(u64, bool)> = self
            .positions
            .par_iter()
            .map(|p| {
                let mut engine = Engine::new(self.eval, *search, self.hash_mb);
                let r = solve(&mut engine, p, &Limits::nodes(self.cap));
                (r.nodes_to_solution, r.solved)
            })
            .collect();
        SuiteCost {
            total_nodes: results.iter().map(|r| r.0).sum(),
            solved: results.iter().filter(|r| r.1).count(),
        }
    }

    fn cost_of(&self, genome: &[bool]) -> SuiteCost {
        if let Some(c) = self.cache.lock().ok().and_then(|m| m.get(genome).copied()) {
            return c;
        }
        let c = decode(genome).map_or(
            SuiteCost {
                total_nodes: self.worst_total(),
                solved: 0,
            },
            |p| self.cost(&p),
        );
        if let Ok(mut m) = self.cache.lock() {
            m.insert(genome.to_vec(), c);
        }
        c
    }
}

impl Fitness for SearchFitness<'_> {
    fn evaluate(&self, population: &[Genome]) -> Vec<f64> {
        let costs: Vec<SuiteCost> = population.par_iter().map(|g| self.cost_of(g)).collect();
        costs
            .iter()
            .map(|c| (self.worst_total() - c.total_nodes.min(self.worst_total())) as f64)
            .collect()
    }

    fn extras(&self, best: &[bool]) -> Vec<f64> {
        let c = self.cost_of(best);
        let out = vec![c.total_nodes as f64, c.solved as f64];
        out
    }
}

/// One phase-3 generation in the units a reader wants. [`SearchFitness`] scores an
/// organism by the nodes it saves against the cap (the GA maximises) and records the best
/// organism's total nodes and solved positions as the generation's extras; this is the one
/// place that reads them back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSummary {
    /// The generation's index.
    pub index: usize,
    /// The best organism's nodes to solution over the suite (capped per position).
    pub best_nodes: f64,
    /// The best organism's solved positions.
    pub best_solved: f64,
    /// The population's mean nodes to solution.
    pub mean_nodes: f64,
}

impl SearchSummary {
    /// Reads a generation scored by a [`SearchFitness`] whose worst total is `worst`.
    #[must_use]
    pub fn of(g: &crate::Generation, worst: u64) -> SearchSummary {
        let worst = worst as f64;
        SearchSummary {
            index: g.index,
            best_nodes: g.extras.first().copied().unwrap_or(worst),
            best_solved: g.extras.get(1).copied().unwrap_or(0.0),
            mean_nodes: worst - g.mean(),
        }
    }
}

/// Decodes an organism (70 Gray-coded bits, Table I) into search parameters.
///
/// # Errors
/// [`EvolveError::Engine`] on a wrong length.
pub fn decode(genome: &[bool]) -> Result<SearchParams, EvolveError> {
    Ok(SearchParams::decode(genome, Coding::Gray)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_engine::suite::parse_epd_line;

    fn mate_positions() -> Vec<EpdPosition> {
        [
            "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#;",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#;",
        ]
        .iter()
        .enumerate()
        .map(|(i, l)| {
            parse_epd_line(l, "t", i + 1)
                .expect("parses")
                .expect("a position")
        })
        .collect()
    }

    #[test]
    fn fitness_is_nodes_saved_and_cached() {
        let positions = mate_positions();
        let f = SearchFitness::new(&positions, EvalParams::default(), 20_000, 1);
        let genome = SearchParams::default().encode(Coding::Gray);
        let scores = f.evaluate(&[genome.clone(), genome.clone()]);
        let extras = f.extras(&genome);
        assert_eq!(extras[1], 2.0, "both mates found");
        let worst = f.worst_total() as f64;
        assert_eq!(scores[0], worst - extras[0]);
        assert_eq!(scores[0], scores[1]);
        assert!(scores[0] > 0.0);
        assert_eq!(f.cache.lock().expect("lock").len(), 1);
    }
}
