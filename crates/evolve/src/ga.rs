//! The generational genetic algorithm of David–Koppel–Netanyahu (sections III.B, III.C, IV): a population of
//! bit strings, fitness computed for all organisms at once (in parallel), elitism, parent
//! selection, uniform crossover and per-bit mutation.
//!
//! **Randomness.** Every random choice comes from one seed: generation `g` draws from its own
//! [`GameRng`] (xoshiro256++) seeded with `splitmix64(seed ^ (g + 1) · φ)`, where φ is the
//! 64-bit golden-ratio constant. Generation 0 (the random initial population) and the breeding
//! of each later generation therefore depend only on the seed and the previous generation,
//! which is what lets a resumed run equal an uninterrupted one.
//!
//! **Generations.** Generation 0 is the initial population; breeding generation `g + 1` from
//! `g`: the `elitism` fittest organisms are copied unchanged (ties go to the lower index), then
//! pairs of parents are drawn by the [`Selection`] scheme, crossed with probability
//! `crossover_rate` and each child's bits flipped with probability `mutation_rate`, until the
//! population is full. `generations` counts every evaluated generation including generation 0.

use crate::{crossover, mutation, Checkpoint, EvolveError, Selection};
use eloworld_games::rng::splitmix64;
use eloworld_games::GameRng;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// A chromosome: a string of bits.
pub type Genome = Vec<bool>;

/// The settings of a GA run. `Default` is David–Koppel–Netanyahu's evaluation-function run.
#[derive(Clone, Debug, PartialEq)]
pub struct GaConfig {
    /// Organisms per generation.
    pub population: usize,
    /// Generations evaluated, the initial one included.
    pub generations: usize,
    /// Chance that a pair of parents is crossed (otherwise copied).
    pub crossover_rate: f64,
    /// Chance that each bit of a child flips.
    pub mutation_rate: f64,
    /// How parents are drawn.
    pub selection: Selection,
    /// Fittest organisms copied unchanged into the next generation.
    pub elitism: usize,
    /// Bits per genome.
    pub genome_bits: usize,
    /// The seed of every random choice.
    pub seed: u64,
}

impl GaConfig {
    /// Returns David–Koppel–Netanyahu's settings for the evaluation function (section III.B): population
    /// 100, crossover 0.75, mutation 0.005, 200 generations, fitness-proportional selection,
    /// elitism of one; 224-bit genomes.
    #[must_use]
    pub const fn new() -> GaConfig {
        GaConfig {
            population: 100,
            generations: 200,
            crossover_rate: 0.75,
            mutation_rate: 0.005,
            selection: Selection::Roulette,
            elitism: 1,
            genome_bits: 224,
            seed: 1,
        }
    }

    /// Describes the settings in one line (stored with a checkpointed run).
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "population={} generations={} crossover={} mutation={} selection={} elitism={} bits={} seed={}",
            self.population,
            self.generations,
            self.crossover_rate,
            self.mutation_rate,
            self.selection,
            self.elitism,
            self.genome_bits,
            self.seed
        )
    }

    fn rng(&self, generation: usize) -> GameRng {
        GameRng::new(splitmix64(
            self.seed ^ (generation as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        ))
    }
}

impl Default for GaConfig {
    fn default() -> GaConfig {
        GaConfig::new()
    }
}

/// How organisms are scored: higher is better.
pub trait Fitness: Sync {
    /// Scores every organism of a population (in order). Scores may depend on the whole
    /// population (coevolution); independent scores should be computed in parallel, e.g. with
    /// [`score_each`].
    fn evaluate(&self, population: &[Genome]) -> Vec<f64>;

    /// Scores generation `generation`'s organisms, or returns `Ok(None)` when stopped before
    /// the scores were complete (the generation is then neither saved nor shown). Fitnesses
    /// that play stored, resumable games (coevolution through the tournament runner)
    /// override this; the default calls [`Fitness::evaluate`].
    ///
    /// # Errors
    /// Whatever kept the generation from being scored (a store that failed).
    fn try_evaluate(
        &self,
        population: &[Genome],
        generation: usize,
    ) -> Result<Option<Vec<f64>>, EvolveError> {
        let _ = generation;
        Ok(Some(self.evaluate(population)))
    }

    /// Extra figures recorded with each generation about its best organism (e.g. the match
    /// rate on a held-out test set); none by default.
    fn extras(&self, _best: &[bool]) -> Vec<f64> {
        Vec::new()
    }
}

/// Scores each organism independently, in parallel (rayon), keeping the order.
pub fn score_each<F: Fn(&[bool]) -> f64 + Sync>(population: &[Genome], score: F) -> Vec<f64> {
    population.par_iter().map(|g| score(g)).collect()
}

/// A fitness given by a function of one genome.
#[derive(Clone, Copy, Debug)]
pub struct Individually<F>(pub F);

impl<F: Fn(&[bool]) -> f64 + Sync> Fitness for Individually<F> {
    fn evaluate(&self, population: &[Genome]) -> Vec<f64> {
        score_each(population, &self.0)
    }
}

/// One evaluated generation.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// 0 for the initial population.
    pub index: usize,
    /// The organisms.
    pub genomes: Vec<Genome>,
    /// Their fitness, in the same order.
    pub fitness: Vec<f64>,
    /// [`Fitness::extras`] of the best organism.
    pub extras: Vec<f64>,
}

impl Generation {
    /// Returns the index of the fittest organism (the lowest index among equals).
    #[must_use]
    pub fn best_index(&self) -> usize {
        ranked(&self.fitness).first().copied().unwrap_or(0)
    }

    /// Returns the fittest organism and its fitness.
    #[must_use]
    pub fn best(&self) -> (&[bool], f64) {
        let i = self.best_index();
        (&self.genomes[i], self.fitness[i])
    }

    /// Returns the mean fitness.
    #[must_use]
    pub fn mean(&self) -> f64 {
        let n = self.fitness.len().max(1) as f64;
        self.fitness.iter().sum::<f64>() / n
    }
}

/// Indices sorted by fitness, best first; ties keep index order.
#[must_use]
pub fn ranked(fitness: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order
}

/// Builds the initial population: the `seeded` genomes first (e.g. organisms from earlier
/// runs), then random ones until the population is full.
///
/// # Errors
/// [`EvolveError::Input`] when a seeded genome has the wrong length or there are too many.
pub fn initial_population(
    config: &GaConfig,
    seeded: &[Genome],
) -> Result<Vec<Genome>, EvolveError> {
    if seeded.len() > config.population {
        return Err(EvolveError::Input(format!(
            "{} starting organisms for a population of {}",
            seeded.len(),
            config.population
        )));
    }
    if let Some(bad) = seeded.iter().find(|g| g.len() != config.genome_bits) {
        return Err(EvolveError::Input(format!(
            "a starting organism has {} bits, expected {}",
            bad.len(),
            config.genome_bits
        )));
    }
    let mut rng = config.rng(0);
    let mut out = seeded.to_vec();
    while out.len() < config.population {
        out.push((0..config.genome_bits).map(|_| rng.unit() < 0.5).collect());
    }
    Ok(out)
}

/// Breeds the organisms of generation `previous.index + 1`.
#[must_use]
pub fn breed(config: &GaConfig, previous: &Generation) -> Vec<Genome> {
    let mut rng = config.rng(previous.index + 1);
    let n = config.population;
    let mut next: Vec<Genome> = ranked(&previous.fitness)
        .into_iter()
        .take(config.elitism.min(n))
        .map(|i| previous.genomes[i].clone())
        .collect();
    while next.len() < n {
        let a = config.selection.pick(&previous.fitness, &mut rng);
        let b = config.selection.pick(&previous.fitness, &mut rng);
        let (mut x, mut y) = crossover::uniform(
            &previous.genomes[a],
            &previous.genomes[b],
            config.crossover_rate,
            &mut rng,
        );
        mutation::flip_bits(&mut x, config.mutation_rate, &mut rng);
        mutation::flip_bits(&mut y, config.mutation_rate, &mut rng);
        next.push(x);
        if next.len() < n {
            next.push(y);
        }
    }
    next
}

/// Where a run keeps its checkpoint.
#[derive(Debug)]
pub struct Checkpointing<'a> {
    /// The database.
    pub store: &'a Checkpoint,
    /// The run's name in it.
    pub run: &'a str,
    /// Everything besides the GA settings that the result depends on (fitness settings, data
    /// files), so resuming with other settings is refused.
    pub settings: &'a str,
}

/// The result of [`evolve`].
#[derive(Clone, Debug)]
pub struct Evolution {
    /// Every generation, oldest first.
    pub history: Vec<Generation>,
    /// Generations loaded from the checkpoint rather than computed.
    pub resumed: usize,
    /// Whether all `generations` were evaluated (false when stopped).
    pub complete: bool,
}

impl Evolution {
    /// Returns the last generation's best organism and fitness (with elitism of at least one,
    /// the best of the whole run).
    #[must_use]
    pub fn best(&self) -> Option<(&[bool], f64)> {
        self.history.last().map(Generation::best)
    }
}

/// Runs (or resumes) the GA.
///
/// `on_generation` is called for every generation, loaded or computed, with `true` when it
/// came from the checkpoint. When `stop` becomes true the run returns after the generation in
/// progress is saved, with `complete == false`.
///
/// # Errors
/// Checkpoint errors; [`EvolveError::Input`] for bad starting organisms.
pub fn evolve(
    config: &GaConfig,
    fitness: &dyn Fitness,
    seeded: &[Genome],
    checkpoint: Option<&Checkpointing<'_>>,
    stop: Option<&AtomicBool>,
    on_generation: &mut dyn FnMut(&Generation, bool),
) -> Result<Evolution, EvolveError> {
    if config.population == 0 || config.generations == 0 {
        return Err(EvolveError::Input(
            "population and generations must be at least 1".to_owned(),
        ));
    }
    let mut history = Vec::new();
    if let Some(c) = checkpoint {
        c.store
            .start_run(c.run, &format!("{} | {}", config.describe(), c.settings))?;
        history = c.store.load(c.run)?;
        history.truncate(config.generations);
        for g in &history {
            on_generation(g, true);
        }
    }
    let resumed = history.len();
    while history.len() < config.generations {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Ok(Evolution {
                history,
                resumed,
                complete: false,
            });
        }
        let genomes = match history.last() {
            None => initial_population(config, seeded)?,
            Some(previous) => breed(config, previous),
        };
        let Some(scores) = fitness.try_evaluate(&genomes, history.len())? else {
            return Ok(Evolution {
                history,
                resumed,
                complete: false,
            });
        };
        let mut g = Generation {
            index: history.len(),
            genomes,
            fitness: scores,
            extras: Vec::new(),
        };
        g.extras = fitness.extras(g.best().0);
        if let Some(c) = checkpoint {
            c.store.save(c.run, &g)?;
        }
        on_generation(&g, false);
        history.push(g);
    }
    Ok(Evolution {
        history,
        resumed,
        complete: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_papers_phase_one_settings() {
        // David, Koppel and Netanyahu, section III.B: population 100, crossover 0.75,
        // mutation 0.005, 200 generations, roulette selection, one elite, 224 bits (35 genes).
        assert_eq!(
            GaConfig::new().describe(),
            "population=100 generations=200 crossover=0.75 mutation=0.005 selection=roulette elitism=1 bits=224 seed=1"
        );
    }

    /// Fitness of a 20-bit genome: 1 + the number of ones, squared (OneMax); optimum 441.
    fn one_max() -> Individually<impl Fn(&[bool]) -> f64 + Sync> {
        Individually(|g: &[bool]| {
            let ones = g.iter().filter(|&&b| b).count() as f64;
            (1.0 + ones).powi(2)
        })
    }

    fn small(seed: u64) -> GaConfig {
        GaConfig {
            population: 30,
            generations: 40,
            mutation_rate: 0.02,
            genome_bits: 20,
            seed,
            ..GaConfig::new()
        }
    }

    #[test]
    fn finds_the_maximum_of_a_gray_coded_function() {
        // f(x) = -(x - 700)² over x in 0..1024, x Gray-coded in 10 bits: optimum at 700.
        let fitness = Individually(|g: &[bool]| {
            let x = crate::gray::read_gray(g) as f64;
            1e6 - (x - 700.0).powi(2)
        });
        let config = GaConfig {
            population: 40,
            generations: 60,
            mutation_rate: 0.05,
            genome_bits: 10,
            selection: Selection::Tournament(3),
            seed: 11,
            ..GaConfig::new()
        };
        let run = evolve(&config, &fitness, &[], None, None, &mut |_, _| {}).expect("runs");
        let (best, _) = run.best().expect("generations");
        let x = crate::gray::read_gray(best);
        assert!((695..=705).contains(&x), "best x = {x}");
    }

    #[test]
    fn one_max_is_solved_and_elitism_never_loses_the_best() {
        for selection in [
            Selection::Roulette,
            Selection::Rank,
            Selection::Tournament(2),
        ] {
            let config = GaConfig {
                selection,
                ..small(5)
            };
            let run = evolve(&config, &one_max(), &[], None, None, &mut |_, _| {}).expect("runs");
            let bests: Vec<f64> = run.history.iter().map(|g| g.best().1).collect();
            assert!(
                bests.windows(2).all(|w| w[1] >= w[0]),
                "{selection}: best fell: {bests:?}"
            );
            assert!(
                bests[bests.len() - 1] >= 400.0,
                "{selection}: reached {}",
                bests[bests.len() - 1]
            );
            assert!(run.history[0].mean() < run.history[39].mean());
        }
    }

    #[test]
    fn the_elite_is_copied_unchanged_to_the_front() {
        let config = GaConfig {
            elitism: 2,
            ..small(9)
        };
        let fitness = one_max();
        let genomes = initial_population(&config, &[]).expect("population");
        let scores = fitness.evaluate(&genomes);
        let g = Generation {
            index: 0,
            genomes,
            fitness: scores,
            extras: Vec::new(),
        };
        let order = ranked(&g.fitness);
        let next = breed(&config, &g);
        assert_eq!(next.len(), 30);
        assert_eq!(next[0], g.genomes[order[0]]);
        assert_eq!(next[1], g.genomes[order[1]]);
        // Without elitism and with a high mutation rate the best is usually lost.
        let wild = GaConfig {
            elitism: 0,
            mutation_rate: 0.3,
            ..config
        };
        assert_ne!(breed(&wild, &g)[0], g.genomes[order[0]]);
    }

    #[test]
    fn the_same_seed_gives_the_same_run_and_another_seed_another() {
        let a = evolve(&small(1), &one_max(), &[], None, None, &mut |_, _| {}).expect("runs");
        let b = evolve(&small(1), &one_max(), &[], None, None, &mut |_, _| {}).expect("runs");
        let c = evolve(&small(2), &one_max(), &[], None, None, &mut |_, _| {}).expect("runs");
        assert_eq!(a.history, b.history);
        assert_ne!(a.history[0].genomes, c.history[0].genomes);
    }

    #[test]
    fn a_stopped_run_resumes_to_the_uninterrupted_result() {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = small(3);
        let fitness = one_max();
        let whole_db = Checkpoint::open(&dir.path().join("whole.sqlite")).expect("db");
        let whole = Checkpointing {
            store: &whole_db,
            run: "r",
            settings: "one-max",
        };
        let uninterrupted =
            evolve(&config, &fitness, &[], Some(&whole), None, &mut |_, _| {}).expect("runs");

        let path = dir.path().join("killed.sqlite");
        {
            // "Kill" after generation 12 is saved: the process state is dropped entirely.
            let db = Checkpoint::open(&path).expect("db");
            let c = Checkpointing {
                store: &db,
                run: "r",
                settings: "one-max",
            };
            let stop = AtomicBool::new(false);
            let partial = evolve(
                &config,
                &fitness,
                &[],
                Some(&c),
                Some(&stop),
                &mut |g, _| {
                    if g.index == 12 {
                        stop.store(true, Ordering::Relaxed);
                    }
                },
            )
            .expect("runs");
            assert!(!partial.complete);
            assert_eq!(partial.history.len(), 13);
        }
        let db = Checkpoint::open(&path).expect("db");
        let c = Checkpointing {
            store: &db,
            run: "r",
            settings: "one-max",
        };
        let mut loaded = 0;
        let resumed = evolve(
            &config,
            &fitness,
            &[],
            Some(&c),
            None,
            &mut |_, from_store| {
                loaded += usize::from(from_store);
            },
        )
        .expect("resumes");
        assert_eq!((resumed.resumed, loaded), (13, 13));
        assert!(resumed.complete);
        assert_eq!(resumed.history, uninterrupted.history);

        // Other settings under the same run name are refused.
        let other = GaConfig {
            mutation_rate: 0.5,
            ..config
        };
        let e =
            evolve(&other, &fitness, &[], Some(&c), None, &mut |_, _| {}).expect_err("mismatch");
        assert!(e.to_string().contains("other settings"), "{e}");
    }

    #[test]
    fn seeded_organisms_start_the_population() {
        let config = small(4);
        let seeded = vec![vec![true; 20], vec![false; 20]];
        let p = initial_population(&config, &seeded).expect("population");
        assert_eq!(&p[..2], &seeded[..]);
        assert_eq!(p.len(), 30);
        assert!(initial_population(&config, &[vec![true; 3]]).is_err());
    }
}
