//! Genetic evolution of chess players after David, Koppel and Netanyahu, "Genetic
//! algorithms for evolving computer chess programs".
//!
//! The GA framework ([`ga`], [`gray`], [`selection`], [`crossover`], [`mutation`],
//! [`checkpoint`]) works on bit strings and knows nothing of chess. The phases of David–Koppel–Netanyahu use
//! it with the parametric engine of `eloworld-engine`:
//! - [`imitate`]: evolve the 35 evaluation parameters to imitate grandmaster moves with a 1-ply
//!   search (section III.B);
//! - [`search_phase`]: evolve the 18 selective-search parameters to find test-suite solutions in
//!   the fewest nodes (section IV);
//! - [`coevolve`]: let the best evaluation functions play each other (section III.C).
//!
//! ```
//! use eloworld_evolve::{evolve, GaConfig, Individually, Selection};
//! // OneMax: maximise the number of ones in 16 bits.
//! let config = GaConfig { population: 20, generations: 30, genome_bits: 16, mutation_rate: 0.02,
//!                         selection: Selection::Tournament(2), ..GaConfig::new() };
//! let ones = Individually(|g: &[bool]| g.iter().filter(|&&b| b).count() as f64);
//! let run = evolve(&config, &ones, &[], None, None, &mut |_, _| {})?;
//! assert!(run.best().map_or(0.0, |b| b.1) >= 15.0);
//! # Ok::<_, eloworld_evolve::EvolveError>(())
//! ```
#![deny(missing_docs)]

pub mod checkpoint;
pub mod coevolve;
pub mod crossover;
mod error;
pub mod ga;
pub mod gray;
pub mod imitate;
pub mod mutation;
pub mod search_phase;
pub mod selection;

pub use checkpoint::Checkpoint;
pub use eloworld_engine as engine;
pub use error::EvolveError;
pub use ga::{
    evolve, Checkpointing, Evolution, Fitness, GaConfig, Generation, Genome, Individually,
};
pub use selection::Selection;

/// Sizes the global worker pool that evaluates populations (rayon) to `threads`; only the
/// first call in a process has an effect. Results never depend on the number of threads.
pub fn use_threads(threads: usize) {
    // An error means the pool was already built (by an earlier call): keep it.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build_global();
}
