//! The genetic evolution of David, Koppel and Netanyahu, phase by phase: imitate
//! grandmasters (phase 1), coevolve (phase 2), evolve the search (phase 3), and the report
//! of matches and suite counts. Every phase checkpoints each finished generation
//! (`OUT/evolve.sqlite` by default), so the same call after a kill resumes with the same
//! result as an uninterrupted run; the phases that play games play them through the
//! tournament runner into a games' store.
//!
//! A phase tells its front end what it does through [`PhaseEvent`]s and returns whether it
//! finished or was stopped.

mod coevolve;
mod event_lines;
mod imitate;
mod report;
mod score;
mod search;

pub use coevolve::{coevolve, CoevolveSettings};
pub use imitate::{imitate, ImitateSettings};
pub use report::{report, ReportSettings};
pub use score::{score_imitation, ImitationScore, ScoreSettings, SetScore};
pub use search::{search, SearchSettings, SEARCH_DEFAULT_CAP, SEARCH_DEFAULT_POSITIONS};

use eloworld_app::Session;
use eloworld_app::{AppResult, Context};
use eloworld_evolve::imitate::{DatasetConfig, ImitationSummary};
use eloworld_evolve::search_phase::SearchSummary;
use eloworld_evolve::{
    evolve, Checkpoint, Checkpointing, Evolution, GaConfig, Generation, Selection,
};
use eloworld_games::{Chess, DrawRules, GameResult};
use eloworld_players::PlayableGame;
use eloworld_tournament::{Plan, Store};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The GA settings every phase takes; `None` keeps the phase's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GaSettings {
    /// Organisms per generation.
    pub population: Option<usize>,
    /// Generations, the initial random one included.
    pub generations: Option<usize>,
    /// Chance that two parents are crossed (uniform crossover).
    pub crossover: Option<f64>,
    /// Chance that each bit of a child flips.
    pub mutation: Option<f64>,
    /// Parent selection.
    pub selection: Option<Selection>,
    /// Fittest organisms copied unchanged into the next generation.
    pub elitism: usize,
    /// The seed of every random choice (run k of several uses seed + k - 1).
    pub seed: u64,
    /// Output directory (parameter files, CSV histories, plots, the checkpoint).
    pub out: PathBuf,
    /// Checkpoint file (default OUT/evolve.sqlite).
    pub checkpoint: Option<PathBuf>,
}

impl GaSettings {
    /// The GA's configuration: these settings over the phase's `defaults`.
    ///
    /// # Errors
    /// Rates outside 0..1, fewer than 2 organisms or no generation.
    pub fn config(&self, defaults: GaConfig) -> AppResult<GaConfig> {
        let c = GaConfig {
            population: self.population.unwrap_or(defaults.population),
            generations: self.generations.unwrap_or(defaults.generations),
            crossover_rate: self.crossover.unwrap_or(defaults.crossover_rate),
            mutation_rate: self.mutation.unwrap_or(defaults.mutation_rate),
            selection: self.selection.unwrap_or(defaults.selection),
            elitism: self.elitism,
            genome_bits: defaults.genome_bits,
            seed: self.seed,
        };
        eloworld_app::ensure!(
            (0.0..=1.0).contains(&c.crossover_rate) && (0.0..=1.0).contains(&c.mutation_rate),
            "--crossover and --mutation are probabilities (0 to 1)"
        );
        eloworld_app::ensure!(
            c.population >= 2 && c.generations >= 1,
            "--population must be at least 2 and --generations at least 1"
        );
        Ok(c)
    }

    /// Creates the output directory and opens the checkpoint; the GA's threads follow the
    /// session's.
    fn prepare(&self, session: &Session) -> AppResult<Checkpoint> {
        if let Some(t) = session.thread_count() {
            eloworld_evolve::use_threads(t);
        }
        std::fs::create_dir_all(&self.out)
            .with_context(|| format!("creating {}", self.out.display()))?;
        let path = self
            .checkpoint
            .clone()
            .unwrap_or_else(|| self.out.join("evolve.sqlite"));
        Checkpoint::open(&path).with_context(|| format!("opening checkpoint {}", path.display()))
    }
}

/// Where phase 1's grandmaster positions come from.
#[derive(Clone, Debug, PartialEq)]
pub struct GmPositions {
    /// Directory of grandmaster games (every *.pgn in it).
    pub pgn_dir: PathBuf,
    /// Least Elo of both players.
    pub min_elo: u32,
    /// Positions drawn from each game.
    pub per_game: usize,
}

impl GmPositions {
    /// The dataset settings with at most `train` and `test` positions.
    #[must_use]
    pub fn dataset(&self, train: usize, test: usize) -> DatasetConfig {
        DatasetConfig {
            min_elo: self.min_elo,
            per_game: self.per_game,
            max_train: train,
            max_test: test,
            ..DatasetConfig::new()
        }
    }
}

/// Where the phases that play games keep them: each generation (and each match) is a
/// tournament in this store, resumed from what is stored after a kill, and playable by
/// workers on other machines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesStore {
    /// An SQLite file or a postgres:// URL (default OUT/games.sqlite).
    pub db: Option<String>,
}

impl GamesStore {
    fn open(&self, session: &Session, out: &Path) -> AppResult<Box<dyn Store>> {
        let location = self
            .db
            .clone()
            .unwrap_or_else(|| out.join("games.sqlite").to_string_lossy().into_owned());
        session
            .open_store(&location)
            .with_context(|| format!("opening the games' store {location}"))
    }
}

/// What a phase tells its front end as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum PhaseEvent {
    /// What the phase read, how it is set up, or what it wrote: a line for the reader.
    Note(String),
    /// An input passed over (a suite line that does not parse): a line for standard error.
    Skipped(String),
    /// A phase-1 generation computed or loaded from the checkpoint.
    Imitation {
        /// The run: run K has seed K.
        run: u64,
        /// The run's name in the checkpoint.
        name: String,
        /// The generation.
        summary: ImitationSummary,
        /// Training and test positions.
        positions: (usize, usize),
        /// The run's last generation index.
        last: usize,
        /// True when loaded from the checkpoint rather than computed.
        loaded: bool,
        /// Seconds the generation took.
        secs: f64,
    },
    /// A phase-3 generation computed or loaded.
    Search {
        /// The generation.
        summary: SearchSummary,
        /// Suite positions searched.
        positions: usize,
        /// The run's last generation index.
        last: usize,
        /// True when loaded from the checkpoint.
        loaded: bool,
        /// Seconds the generation took.
        secs: f64,
    },
    /// A coevolution generation computed: each organism's points, best first.
    Coevolution {
        /// The generation's index.
        index: usize,
        /// (organism, points), best first.
        standings: Vec<(usize, f64)>,
        /// The run's last generation index.
        last: usize,
        /// Seconds the generation took.
        secs: f64,
    },
    /// A match of the report phase, from the first player's side.
    Match {
        /// Who met whom.
        label: String,
        /// The first player's points.
        points: f64,
        /// Games played.
        games: usize,
    },
    /// A run's generations are done (or it was stopped).
    RunEnd {
        /// Which run, for phases with several ("run 2: "), else empty.
        prefix: String,
        /// Generations computed (not loaded from the checkpoint).
        computed: usize,
        /// Seconds they took.
        secs: f64,
        /// The generation it stopped at, when stopped before the end.
        stopped_at: Option<usize>,
    },
}

/// How a phase ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseEnd {
    /// Every generation (every match) is done.
    Done,
    /// Stopped; the same call resumes.
    Stopped,
}

/// One run of the GA: its settings, its fitness, the organisms it starts from (none:
/// random), its checkpoint, and the words that name it in messages ("run 2: ").
struct GaRun<'a> {
    config: &'a GaConfig,
    fitness: &'a dyn eloworld_evolve::Fitness,
    seeds: &'a [eloworld_evolve::Genome],
    checkpoint: Checkpointing<'a>,
    prefix: &'a str,
}

/// Runs the GA with the session's stop flag, telling `on` each generation (as `event` makes
/// it from the generation, whether it was loaded from the checkpoint, and the seconds it
/// took) and how the run ended. Returns the run, or `None` when it was stopped before the end.
fn run_ga(
    session: &Session,
    r: &GaRun<'_>,
    on: &mut dyn FnMut(PhaseEvent),
    event: &dyn Fn(&Generation, bool, f64) -> Option<PhaseEvent>,
) -> AppResult<Option<Evolution>> {
    let GaRun {
        config,
        fitness,
        seeds,
        checkpoint,
        prefix,
    } = r;
    let started = Instant::now();
    let mut last = Instant::now();
    let mut show = |g: &Generation, loaded: bool| {
        if let Some(e) = event(g, loaded, last.elapsed().as_secs_f64()) {
            on(e);
        }
        last = Instant::now();
    };
    let run = evolve(
        config,
        *fitness,
        seeds,
        Some(checkpoint),
        Some(session.stop_flag()),
        &mut show,
    )?;
    on(PhaseEvent::RunEnd {
        prefix: (*prefix).to_owned(),
        computed: run.history.len() - run.resumed,
        secs: started.elapsed().as_secs_f64(),
        stopped_at: (!run.complete).then(|| run.history.len().saturating_sub(1)),
    });
    Ok(run.complete.then_some(run))
}

fn write_file(path: &Path, bytes: &[u8]) -> AppResult<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// `n` of `of` in percent.
#[must_use]
pub fn pct(n: f64, of: usize) -> f64 {
    let of = of.max(1) as f64;
    100.0 * n / of
}

fn points(history: &[Generation], y: impl Fn(&Generation) -> f64) -> Vec<(f64, f64)> {
    history.iter().map(|g| (g.index as f64, y(g))).collect()
}

/// Reads evaluation parameters from a file (`None`: Fig. 3's).
///
/// # Errors
/// The file cannot be read or is not a parameter file.
pub fn read_eval(path: Option<&Path>) -> AppResult<eloworld_engine::EvalParams> {
    use eloworld_engine::EvalParams;
    match path {
        None => Ok(EvalParams::default()),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            Ok(EvalParams::from_text(&text, &p.display().to_string())?)
        }
    }
}

/// Plays `plan` through the runner into `store` (only the games not stored yet) and
/// returns its results by job key, or `None` when stopped.
fn play_plan(
    session: &Session,
    plan: &Plan,
    store: &mut dyn Store,
) -> AppResult<Option<Vec<(u32, GameResult)>>> {
    let rules = <Chess as eloworld_app::AppGame>::rules(plan.config().draw_rules);
    let summary = session
        .play::<Chess>(plan, &Chess::builtin_players(), rules, store)
        .with_context(|| format!("playing {:?} in {}", plan.config().name, store.location()))?;
    if summary.interrupted {
        return Ok(None);
    }
    Ok(Some(store.results_by_key(&plan.config().name)?))
}

/// The draw rules of the games the phases play (mate, stalemate, insufficient material,
/// threefold repetition, the fifty-move rule, and a ply limit).
const PHASE_DRAW_RULES: DrawRules = DrawRules::Claimed;
