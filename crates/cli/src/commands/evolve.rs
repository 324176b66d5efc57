//! `eloworld evolve`: the genetic evolution of David, Koppel and Netanyahu,
//! phase by phase. Every phase checkpoints each finished generation in a SQLite file
//! (`OUT/evolve.sqlite` by default): run the same command again to resume a killed run, with
//! the same result as an uninterrupted one.

use anyhow::{bail, Context};
use eloworld_app::AppGame;
use eloworld_evolve::coevolve::generation_games;
use eloworld_evolve::imitate::{self, DatasetConfig, ImitationFitness};
use eloworld_evolve::{evolve, Checkpoint, Checkpointing, GaConfig, Generation, Selection};
use eloworld_evolve::{EvolveError, Fitness};
use eloworld_games::{Chess, DrawRules, GameResult};
use eloworld_players::PlayableGame;
use eloworld_report::{line_plot, ImageFormat, Labels, Series};
use eloworld_tournament::{open_store, Plan, RunOptions, Store};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Evolve chess players with a genetic algorithm (David–Koppel–Netanyahu): imitate, search, coevolve, report.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    phase: Phase,
}

#[derive(clap::Subcommand, Debug)]
enum Phase {
    /// Phase 1: evolve the 35 evaluation parameters to play grandmasters' moves with a 1-ply search.
    Imitate(ImitateArgs),
    /// Phase 3: evolve the 18 selective-search parameters (Table I) to solve a test suite in the fewest nodes.
    Search(SearchArgs),
    /// Phase 2: coevolve the best evaluation functions (imitate's output files) by playing each other.
    Coevolve(CoevolveArgs),
    /// Phase 4: EVOL* against EVOL0 and the defaults: match W% and Elo difference, suite solve counts.
    Report(ReportArgs),
    /// Score one evaluation (default Fig. 3's) on phase 1's positions: match % on train and test.
    ScoreImitation(super::evolve_score::Args),
}

/// The GA settings every phase takes.
#[derive(clap::Args, Debug, Clone)]
struct GaArgs {
    /// Organisms per generation.
    #[arg(long)]
    population: Option<usize>,
    /// Generations, the initial random one included.
    #[arg(long)]
    generations: Option<usize>,
    /// Chance that two parents are crossed (uniform crossover).
    #[arg(long)]
    crossover: Option<f64>,
    /// Chance that each bit of a child flips.
    #[arg(long)]
    mutation: Option<f64>,
    /// Parent selection: roulette (fitness-proportional), rank, or tournament<K>.
    #[arg(long)]
    selection: Option<Selection>,
    /// Fittest organisms copied unchanged into the next generation.
    #[arg(long, default_value_t = 1)]
    elitism: usize,
    /// The seed of every random choice (run k of --runs uses seed + k - 1).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory (parameter files, CSV histories, plots, the checkpoint).
    #[arg(long, default_value = "evolve")]
    out: PathBuf,
    /// Checkpoint file (default OUT/evolve.sqlite).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
}

impl GaArgs {
    fn config(&self, defaults: GaConfig) -> anyhow::Result<GaConfig> {
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
        if !(0.0..=1.0).contains(&c.crossover_rate) || !(0.0..=1.0).contains(&c.mutation_rate) {
            bail!("--crossover and --mutation are probabilities (0 to 1)");
        }
        if c.population < 2 || c.generations < 1 {
            bail!("--population must be at least 2 and --generations at least 1");
        }
        Ok(c)
    }

    fn prepare(&self) -> anyhow::Result<Checkpoint> {
        if let Some(t) = self.threads {
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

/// Where the grandmaster positions come from, for `evolve imitate` and `evolve score-imitation`.
#[derive(clap::Args, Debug)]
pub(crate) struct GmPositions {
    /// Directory of grandmaster games (every *.pgn in it).
    #[arg(long, default_value = "data/pgn")]
    pub(crate) pgn_dir: PathBuf,
    /// Least Elo of both players.
    #[arg(long, default_value_t = 2600)]
    pub(crate) min_elo: u32,
    /// Positions drawn from each game (the paper took 1 from each of 10,000 games; we have ~630 decisive ones).
    #[arg(long, default_value_t = 16)]
    pub(crate) per_game: usize,
}

#[derive(clap::Args, Debug)]
struct ImitateArgs {
    #[command(flatten)]
    ga: GaArgs,
    #[command(flatten)]
    source: GmPositions,
    /// Most training positions.
    #[arg(long, default_value_t = 5000)]
    train: usize,
    /// Most test positions.
    #[arg(long, default_value_t = 5000)]
    test: usize,
    /// Independent runs with seeds seed, seed+1, … (the paper ran 10 for coevolution).
    #[arg(long, default_value_t = 1)]
    runs: usize,
}

#[derive(clap::Args, Debug)]
struct SearchArgs {
    #[command(flatten)]
    ga: GaArgs,
    /// The test suite (EPD with `bm`/`am`).
    #[arg(long, default_value = "data/epd/ECM.epd")]
    epd: PathBuf,
    /// Use only the first K positions of the suite (default 150; --paper: all).
    #[arg(long)]
    positions: Option<usize>,
    /// Node cap per position (default 50,000; --paper: 500,000).
    #[arg(long)]
    cap: Option<u64>,
    /// The evaluation parameters (a file written by `evolve imitate`/`coevolve`; default Fig. 3).
    #[arg(long)]
    eval: Option<PathBuf>,
    /// Transposition table per search, MiB.
    #[arg(long, default_value_t = 1)]
    hash_mb: usize,
    /// The paper's settings: every position, 500,000 nodes each (days on this machine).
    #[arg(long)]
    paper: bool,
}

#[derive(clap::Args, Debug)]
struct CoevolveArgs {
    #[command(flatten)]
    ga: GaArgs,
    /// The starting organisms: evaluation parameter files (default: OUT/imitate-run*.params).
    #[arg(long, num_args = 1..)]
    from: Vec<PathBuf>,
    /// The opening book (EPD or one FEN per line).
    #[arg(long, default_value = "data/books/2moves_v1.first2000.epd")]
    book: PathBuf,
    /// Games per pair of organisms per generation, each from another opening.
    #[arg(long, default_value_t = 4)]
    games_per_pair: usize,
    /// Nodes per move of the basic alpha-beta search (the paper: 5 seconds per game side).
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    #[command(flatten)]
    games: GamesStore,
}

/// Where the phases that play games keep them: each generation (and each match) is a
/// tournament in this store, played by the tournament runner, resumed from what is stored
/// after a kill, and playable by `eloworld worker --db …` on other machines.
#[derive(clap::Args, Debug, Clone)]
struct GamesStore {
    /// The games' store: an SQLite file or a postgres:// URL (default OUT/games.sqlite).
    #[arg(long)]
    db: Option<String>,
    /// Seconds a claim lasts without renewal on a shared (PostgreSQL) store.
    #[arg(long, default_value_t = 30.0)]
    lease: f64,
}

impl GamesStore {
    fn open(&self, out: &Path) -> anyhow::Result<Box<dyn Store>> {
        let location = self
            .db
            .clone()
            .unwrap_or_else(|| out.join("games.sqlite").to_string_lossy().into_owned());
        let mut store = open_store(&location, true)
            .with_context(|| format!("opening the games' store {location}"))?;
        store.set_lease(std::time::Duration::from_secs_f64(self.lease.max(1.0)));
        Ok(store)
    }
}

fn run_options(threads: Option<usize>, stop: &Arc<AtomicBool>) -> RunOptions {
    let mut opts = RunOptions {
        stop: Arc::clone(stop),
        ..RunOptions::default()
    };
    if let Some(t) = threads {
        opts.threads = t.max(1);
    }
    opts
}

/// Plays `plan` through the tournament runner into `store` (only the games not stored yet)
/// and returns its results by job key, or `None` when stopped.
fn play_plan(
    plan: &Plan,
    store: &mut dyn Store,
    opts: &RunOptions,
) -> anyhow::Result<Option<Vec<(u32, GameResult)>>> {
    let rules = <Chess as AppGame>::rules(plan.config.draw_rules);
    let summary =
        eloworld_tournament::run::<Chess>(plan, &Chess::builtin_players(), rules, store, opts)
            .with_context(|| format!("playing {:?} in {}", plan.config.name, store.location()))?;
    if summary.interrupted {
        return Ok(None);
    }
    Ok(Some(store.results_by_key(&plan.config.name)?))
}

/// The coevolution's fitness: each generation's round robin is a plan played by the
/// tournament runner into the games' store.
struct StoredCoevolution {
    matches: eloworld_evolve::coevolve::MatchConfig,
    run: String,
    store: Mutex<Box<dyn Store>>,
    opts: RunOptions,
}

impl Fitness for StoredCoevolution {
    fn evaluate(&self, population: &[eloworld_evolve::Genome]) -> Vec<f64> {
        // `evolve` calls `try_evaluate`; this is only for callers that cannot stop.
        self.try_evaluate(population, 0)
            .ok()
            .flatten()
            .unwrap_or_else(|| vec![0.0; population.len()])
    }

    fn try_evaluate(
        &self,
        population: &[eloworld_evolve::Genome],
        generation: usize,
    ) -> Result<Option<Vec<f64>>, EvolveError> {
        let name = format!("{}-g{generation}", self.run);
        let games = generation_games(population, generation, &self.matches, &name)?;
        let mut store = self
            .store
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let summary = eloworld_tournament::run::<Chess>(
            &games.plan,
            &Chess::builtin_players(),
            DrawRules::Claimed,
            &mut **store,
            &self.opts,
        )?;
        if summary.interrupted {
            return Ok(None);
        }
        let results = store
            .results_by_key(&name)
            .map_err(eloworld_tournament::RunError::from)?;
        games.points(&results).map(Some)
    }
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// The directory the phases wrote to.
    #[arg(long, default_value = "evolve")]
    out: PathBuf,
    /// EVOL*'s evaluation (default OUT/coevolve.params).
    #[arg(long)]
    star_eval: Option<PathBuf>,
    /// EVOL0's evaluation (default OUT/imitate-run1.params).
    #[arg(long)]
    zero_eval: Option<PathBuf>,
    /// The evolved search parameters both use (default OUT/search.params).
    #[arg(long)]
    search: Option<PathBuf>,
    /// Games per match (pairs of games from one opening, colours swapped).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// The opening book.
    #[arg(long, default_value = "data/books/2moves_v1.first2000.epd")]
    book: PathBuf,
    /// The test suite for solve counts.
    #[arg(long, default_value = "data/epd/ECM.epd")]
    epd: PathBuf,
    /// Suite positions used (first K).
    #[arg(long, default_value_t = 150)]
    positions: usize,
    /// Nodes per suite position.
    #[arg(long, default_value_t = 50_000)]
    cap: u64,
    /// Reference players EVOL* also meets (any player spec; engines missing here are skipped).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "stockfish0,fairymax_d3,phalanx_d3,gnuchess_d2"
    )]
    reference: Vec<String>,
    /// Games against each reference player (pairs from one opening, colours swapped).
    #[arg(long, default_value_t = 10)]
    reference_games: usize,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    games_store: GamesStore,
}

/// Defaults of `evolve search` that finish in about half an hour on 2 cores.
const SEARCH_DEFAULT_POSITIONS: usize = 150;
const SEARCH_DEFAULT_CAP: u64 = 50_000;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let stop = crate::interrupt::stop_on_ctrl_c(Some(
        "\nstopping after the generation in progress (Ctrl-C again to kill)…",
    ));
    match args.phase {
        Phase::Imitate(a) => imitate_cmd(&a, &stop),
        Phase::Search(a) => search_cmd(&a, &stop),
        Phase::Coevolve(a) => coevolve_cmd(&a, &stop),
        Phase::Report(a) => report_cmd(&a, &stop),
        Phase::ScoreImitation(a) => super::evolve_score::run(&a),
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

fn pct(n: f64, of: usize) -> f64 {
    #[allow(clippy::cast_precision_loss)] // position counts stay far below 2^52
    let of = of.max(1) as f64;
    100.0 * n / of
}

fn imitate_cmd(a: &ImitateArgs, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    let store = a.ga.prepare()?;
    let files = imitate::pgn_files(&a.source.pgn_dir)?;
    if files.is_empty() {
        bail!("no .pgn files in {}", a.source.pgn_dir.display());
    }
    let t0 = Instant::now();
    let (games, report) = imitate::read_strong_games(&files, a.source.min_elo)?;
    println!(
        "read {} games from {} file(s) in {}: {} with both players rated >= {}, {} of them decisive",
        report.games,
        files.len(),
        a.source.pgn_dir.display(),
        report.strong,
        a.source.min_elo,
        report.decisive
    );
    let data_config = DatasetConfig {
        min_elo: a.source.min_elo,
        per_game: a.source.per_game,
        max_train: a.train,
        max_test: a.test,
        ..DatasetConfig::new()
    };
    let (data, bad) = imitate::build_dataset(&games, &data_config)?;
    println!(
        "positions where the eventual winner is to move: {} training (from {} games), {} test (from {} other games); \
         up to {} per game, since the paper's 10,000 games are not available ({} games skipped: a move did not replay) [{:.1} s]",
        data.train.len(),
        data.train_games,
        data.test.len(),
        data.test_games,
        a.source.per_game,
        bad,
        t0.elapsed().as_secs_f64()
    );
    let defaults = imitate::decode(
        &eloworld_evolve::engine::EvalParams::default()
            .encode(eloworld_evolve::engine::Coding::Gray),
    )?;
    println!(
        "for reference, Fig. 3's parameters match {:.1}% of training and {:.1}% of test moves",
        pct(data.train.matches(&defaults) as f64, data.train.len()),
        pct(data.test.matches(&defaults) as f64, data.test.len())
    );
    let base = a.ga.config(GaConfig::new())?;
    println!("GA: {}", base.describe());
    let fitness = ImitationFitness::new(&data);
    let settings = format!(
        "imitate {} pgn={}",
        data_config.describe(),
        a.source.pgn_dir.display()
    );
    for k in 1..=a.runs {
        let config = GaConfig {
            seed: base.seed + k as u64 - 1,
            ..base.clone()
        };
        let name = format!("imitate-s{}", config.seed);
        let checkpoint = Checkpointing {
            store: &store,
            run: &name,
            settings: &settings,
        };
        let started = Instant::now();
        let mut last = Instant::now();
        let (ntrain, ntest) = (data.train.len(), data.test.len());
        let mut show = |g: &Generation, loaded: bool| {
            let (train, test) = (
                g.extras.first().copied().unwrap_or(0.0),
                g.extras.get(1).copied().unwrap_or(0.0),
            );
            let mean = mean_matches(g);
            if loaded {
                if g.index + 1 == config.generations || g.index.is_multiple_of(50) {
                    println!(
                        "run {k} ({name}) generation {:>3}: from the checkpoint, best {:.1}% train",
                        g.index,
                        pct(train, ntrain)
                    );
                }
                return;
            }
            println!(
                "run {k} generation {:>3}/{}: best {:.0} matches = {:.1}% train, {:.1}% test; population mean {:.1}% [{:.2} s]",
                g.index,
                config.generations - 1,
                train,
                pct(train, ntrain),
                pct(test, ntest),
                pct(mean, ntrain),
                last.elapsed().as_secs_f64()
            );
            last = Instant::now();
        };
        let run = evolve(
            &config,
            &fitness,
            &[],
            Some(&checkpoint),
            Some(stop),
            &mut show,
        )?;
        if !report_run(&run, &format!("run {k}: "), started) {
            return Ok(ExitCode::from(130));
        }
        let Some((best, _)) = run.best() else {
            bail!("no generation")
        };
        let params = imitate::decode(best)?;
        let stem = a.ga.out.join(format!("imitate-run{k}"));
        let last_gen = run.history.last().map_or(0, |g| g.index);
        let (train, test) = (data.train.matches(&params), data.test.matches(&params));
        let mut text = format!(
            "# eloworld evolve imitate, run {k} ({name}), best organism of generation {last_gen}\n\
             # matches {train}/{ntrain} training ({:.1}%), {test}/{ntest} test ({:.1}%)\n\
             # {}\n# {settings}\n",
            pct(train as f64, ntrain),
            pct(test as f64, ntest),
            config.describe()
        );
        text.push_str(&params.to_text());
        write_file(&stem.with_extension("params"), text.as_bytes())?;
        write_file(
            &stem.with_extension("csv"),
            history_csv(&run.history, ntrain, ntest).as_bytes(),
        )?;
        let series = vec![
            Series {
                name: "best organism".to_owned(),
                points: points(&run.history, |g| g.extras.first().copied().unwrap_or(0.0)),
            },
            Series {
                name: "population average".to_owned(),
                points: points(&run.history, mean_matches),
            },
        ];
        let labels = Labels {
            title: format!("Positions solved (of {ntrain}) per generation, run {k}"),
            x: "generation".to_owned(),
            y: "positions solved".to_owned(),
        };
        write_file(
            &stem.with_extension("png"),
            &line_plot(&series, &labels, ImageFormat::Png)?,
        )?;
        println!(
            "run {k}: best organism matches {:.1}% training, {:.1}% test (David–Koppel–Netanyahu: 32.4% / 30.4%); wrote {}.params, .csv, .png",
            pct(train as f64, ntrain),
            pct(test as f64, ntest),
            stem.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The mean number of matches in a generation (fitness is matches squared).
fn mean_matches(g: &Generation) -> f64 {
    #[allow(clippy::cast_precision_loss)] // populations are small
    let n = g.fitness.len().max(1) as f64;
    g.fitness.iter().map(|f| f.sqrt()).sum::<f64>() / n
}

fn points(history: &[Generation], y: impl Fn(&Generation) -> f64) -> Vec<(f64, f64)> {
    #[allow(clippy::cast_precision_loss)] // generation numbers are small
    history.iter().map(|g| (g.index as f64, y(g))).collect()
}

fn history_csv(history: &[Generation], ntrain: usize, ntest: usize) -> String {
    let mut out = String::from("generation,best_train_matches,best_train_pct,best_test_matches,best_test_pct,mean_train_matches,mean_train_pct\n");
    for g in history {
        let (train, test) = (
            g.extras.first().copied().unwrap_or(0.0),
            g.extras.get(1).copied().unwrap_or(0.0),
        );
        let mean = mean_matches(g);
        let _ = writeln!(
            out,
            "{},{train},{:.2},{test},{:.2},{mean:.1},{:.2}",
            g.index,
            pct(train, ntrain),
            pct(test, ntest),
            pct(mean, ntrain)
        );
    }
    out
}

fn read_eval(path: Option<&Path>) -> anyhow::Result<eloworld_evolve::engine::EvalParams> {
    use eloworld_evolve::engine::EvalParams;
    match path {
        None => Ok(EvalParams::default()),
        Some(p) => {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            Ok(EvalParams::from_text(&text, &p.display().to_string())?)
        }
    }
}

fn search_cmd(a: &SearchArgs, stop: &AtomicBool) -> anyhow::Result<ExitCode> {
    use eloworld_evolve::engine::suite::parse_epd;
    use eloworld_evolve::engine::SearchParams;
    use eloworld_evolve::search_phase::{self, SearchFitness};
    let store = a.ga.prepare()?;
    let bytes = std::fs::read(&a.epd).with_context(|| format!("reading {}", a.epd.display()))?;
    let suite = parse_epd(
        &String::from_utf8_lossy(&bytes),
        &a.epd.display().to_string(),
    );
    for e in &suite.skipped {
        eprintln!("skipped: {e}");
    }
    let (default_positions, default_cap) = if a.paper {
        (usize::MAX, 500_000)
    } else {
        (SEARCH_DEFAULT_POSITIONS, SEARCH_DEFAULT_CAP)
    };
    let take = a
        .positions
        .unwrap_or(default_positions)
        .min(suite.positions.len());
    let cap = a.cap.unwrap_or(default_cap);
    if take == 0 || cap == 0 {
        bail!(
            "no positions to search (--positions and --cap must be positive; {} has {})",
            a.epd.display(),
            suite.positions.len()
        );
    }
    let positions = &suite.positions[..take];
    let eval = read_eval(a.eval.as_deref())?;
    let eval_name = a
        .eval
        .as_ref()
        .map_or_else(|| "Fig. 3 defaults".to_owned(), |p| p.display().to_string());
    let defaults = GaConfig {
        population: 10,
        generations: 50,
        mutation_rate: 0.05,
        genome_bits: SearchParams::CHROMOSOME_BITS,
        ..GaConfig::new()
    };
    let config = a.ga.config(defaults)?;
    println!(
        "suite: first {take} of {} positions of {}, at most {cap} nodes each (David–Koppel–Netanyahu: all 879 ECM positions, 500,000 nodes: --paper); evaluation: {eval_name}",
        suite.positions.len(),
        a.epd.display()
    );
    println!("GA: {}", config.describe());
    let fitness = SearchFitness::new(positions, eval, cap, a.hash_mb);
    let worst = fitness.worst_total();
    let t = Instant::now();
    let table2 = fitness.cost(&SearchParams::default());
    let plain = fitness.cost(&SearchParams::plain());
    println!(
        "for reference: Table II's values need {} nodes ({} solved), plain alpha-beta {} nodes ({} solved) [{:.1} s]",
        table2.total_nodes,
        table2.solved,
        plain.total_nodes,
        plain.solved,
        t.elapsed().as_secs_f64()
    );
    let settings = format!(
        "search epd={} positions={take} cap={cap} hash={} eval={eval_name} {:x}",
        a.epd.display(),
        a.hash_mb,
        eloworld_evolve::engine::EvalParams::values(&eval)
            .iter()
            .fold(0u64, |h, &v| h.wrapping_mul(31).wrapping_add(v as u64))
    );
    let name = format!("search-s{}", config.seed);
    let checkpoint = Checkpointing {
        store: &store,
        run: &name,
        settings: &settings,
    };
    let started = Instant::now();
    let mut last = Instant::now();
    #[allow(clippy::cast_precision_loss)] // node totals stay far below 2^52
    let worst_f = worst as f64;
    let mut show = |g: &Generation, loaded: bool| {
        let total = g.extras.first().copied().unwrap_or(worst_f);
        let solved = g.extras.get(1).copied().unwrap_or(0.0);
        if loaded {
            if g.index + 1 == config.generations || g.index.is_multiple_of(10) {
                println!(
                    "generation {:>3}: from the checkpoint, best {total:.0} nodes",
                    g.index
                );
            }
            return;
        }
        println!(
            "generation {:>3}/{}: best {total:.0} nodes ({solved:.0}/{take} solved), population mean {:.0} nodes [{:.1} s]",
            g.index,
            config.generations - 1,
            worst_f - g.mean(),
            last.elapsed().as_secs_f64()
        );
        last = Instant::now();
    };
    let run = evolve(
        &config,
        &fitness,
        &[],
        Some(&checkpoint),
        Some(stop),
        &mut show,
    )?;
    if !report_run(&run, "", started) {
        return Ok(ExitCode::from(130));
    }
    let Some((best, _)) = run.best() else {
        bail!("no generation")
    };
    let params = search_phase::decode(best)?;
    let cost = fitness.cost(&params);
    let stem = a.ga.out.join("search");
    let mut text = format!(
        "# eloworld evolve search ({name}): best organism, {} nodes, {}/{take} solved\n# {}\n# {settings}\n",
        cost.total_nodes,
        cost.solved,
        config.describe()
    );
    text.push_str(&params.to_text());
    write_file(&stem.with_extension("params"), text.as_bytes())?;
    let mut csv = String::from("generation,best_total_nodes,best_solved,mean_total_nodes\n");
    for g in &run.history {
        let _ = writeln!(
            csv,
            "{},{},{},{:.0}",
            g.index,
            g.extras.first().copied().unwrap_or(worst_f),
            g.extras.get(1).copied().unwrap_or(0.0),
            worst_f - g.mean()
        );
    }
    write_file(&stem.with_extension("csv"), csv.as_bytes())?;
    let series = vec![
        Series {
            name: "best organism".to_owned(),
            points: points(&run.history, |g| {
                g.extras.first().copied().unwrap_or(worst_f) / 1e6
            }),
        },
        Series {
            name: "population average".to_owned(),
            points: points(&run.history, |g| (worst_f - g.mean()) / 1e6),
        },
    ];
    let labels = Labels {
        title: format!("Total node count for {take} positions per generation"),
        x: "generation".to_owned(),
        y: "nodes (millions)".to_owned(),
    };
    write_file(
        &stem.with_extension("png"),
        &line_plot(&series, &labels, ImageFormat::Png)?,
    )?;
    println!(
        "best organism: {} nodes, {}/{take} solved (Table II: {} nodes, {} solved); wrote {}.params, .csv, .png",
        cost.total_nodes,
        cost.solved,
        table2.total_nodes,
        table2.solved,
        stem.display()
    );
    println!(
        "use it: eloworld play --white 'evol:eval=EVAL.params,search={}' …",
        stem.with_extension("params").display()
    );
    Ok(ExitCode::SUCCESS)
}

fn coevolve_cmd(a: &CoevolveArgs, stop: &Arc<AtomicBool>) -> anyhow::Result<ExitCode> {
    use eloworld_evolve::coevolve::{read_book, MatchConfig};
    use eloworld_evolve::engine::{Coding, EvalParams};
    let store = a.ga.prepare()?;
    let mut files = a.from.clone();
    if files.is_empty() {
        let dir = std::fs::read_dir(&a.ga.out)
            .with_context(|| format!("reading {}", a.ga.out.display()))?;
        files = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                name.starts_with("imitate-run") && name.ends_with(".params")
            })
            .collect();
        files.sort();
    }
    if files.len() < 2 {
        bail!(
            "coevolution needs at least 2 organisms: give --from FILE… or run `eloworld evolve imitate --runs 10 --out {}` first",
            a.ga.out.display()
        );
    }
    let mut genomes = Vec::new();
    for f in &files {
        let p = read_eval(Some(f))?;
        genomes.push(p.encode(Coding::Gray));
    }
    let book_text = std::fs::read_to_string(&a.book)
        .with_context(|| format!("reading {}", a.book.display()))?;
    let openings = read_book(&book_text, &a.book.display().to_string())?;
    let defaults = GaConfig {
        population: files.len(),
        generations: 50,
        selection: Selection::Rank,
        genome_bits: EvalParams::CHROMOSOME_BITS,
        ..GaConfig::new()
    };
    let config = a.ga.config(defaults)?;
    let matches = MatchConfig {
        games_per_pair: a.games_per_pair,
        nodes: a.nodes,
        max_plies: a.max_plies,
        openings,
        seed: config.seed,
        hash_mb: 1,
    };
    let n = config.population;
    println!(
        "{} starting organisms ({}), population {n}; each generation every pair plays {} games from {} ({} openings), plain alpha-beta at {} nodes per move: {} games",
        files.len(),
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", "),
        a.games_per_pair,
        a.book.display(),
        matches.openings.len(),
        a.nodes,
        n * (n - 1) / 2 * a.games_per_pair
    );
    println!("GA: {}", config.describe());
    let settings = format!(
        "coevolve from={} book={} games_per_pair={} nodes={} max_plies={}",
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(";"),
        a.book.display(),
        a.games_per_pair,
        a.nodes,
        a.max_plies
    );
    let name = format!("coevolve-s{}", config.seed);
    let games_store = a.games.open(&a.ga.out)?;
    println!(
        "games stored in {} (each generation a tournament {name}-gN; `eloworld worker --db …` can help play them)",
        games_store.location()
    );
    let fitness = StoredCoevolution {
        matches,
        run: name.clone(),
        store: Mutex::new(games_store),
        opts: run_options(a.ga.threads, stop),
    };
    let checkpoint = Checkpointing {
        store: &store,
        run: &name,
        settings: &settings,
    };
    let started = Instant::now();
    let mut last = Instant::now();
    let mut show = |g: &Generation, loaded: bool| {
        if loaded {
            return;
        }
        let standings: Vec<String> = eloworld_evolve::ga::ranked(&g.fitness)
            .iter()
            .map(|&i| format!("#{i} {}", g.fitness[i]))
            .collect();
        println!(
            "generation {:>2}/{}: standings {} [{:.1} s]",
            g.index,
            config.generations - 1,
            standings.join(", "),
            last.elapsed().as_secs_f64()
        );
        last = Instant::now();
    };
    let run = evolve(
        &config,
        &fitness,
        &genomes,
        Some(&checkpoint),
        Some(stop.as_ref()),
        &mut show,
    )?;
    if !report_run(&run, "", started) {
        return Ok(ExitCode::from(130));
    }
    let Some(last_gen) = run.history.last() else {
        bail!("no generation")
    };
    let (best, points) = last_gen.best();
    let params = EvalParams::decode(best, Coding::Gray)?;
    let stem = a.ga.out.join("coevolve");
    let mut text = format!(
        "# eloworld evolve coevolve ({name}): best of best (EVOL* evaluation), {points} points in generation {}\n# {}\n# {settings}\n",
        last_gen.index,
        config.describe()
    );
    text.push_str(&params.to_text());
    write_file(&stem.with_extension("params"), text.as_bytes())?;
    let mut csv = String::from("generation,organism,points\n");
    for g in &run.history {
        for (i, p) in g.fitness.iter().enumerate() {
            let _ = writeln!(csv, "{},{i},{p}", g.index);
        }
    }
    write_file(&stem.with_extension("csv"), csv.as_bytes())?;
    println!("best of best: {points} points in the last generation; wrote {}.params and .csv (per-generation standings)", stem.display());
    Ok(ExitCode::SUCCESS)
}

fn report_cmd(a: &ReportArgs, stop: &Arc<AtomicBool>) -> anyhow::Result<ExitCode> {
    use eloworld_evolve::coevolve::read_book;
    use eloworld_evolve::engine::suite::parse_epd;
    use eloworld_evolve::engine::{EvalParams, SearchParams};
    use eloworld_evolve::search_phase::SearchFitness;
    let pick = |given: &Option<PathBuf>, name: &str| -> anyhow::Result<PathBuf> {
        let p = given.clone().unwrap_or_else(|| a.out.join(name));
        if !p.exists() {
            bail!(
                "{} not found: run the earlier phases (or give the file)",
                p.display()
            );
        }
        Ok(p)
    };
    let star_path = pick(&a.star_eval, "coevolve.params")?;
    let zero_path = pick(&a.zero_eval, "imitate-run1.params")?;
    let search_path = pick(&a.search, "search.params")?;
    let search_text = std::fs::read_to_string(&search_path)
        .with_context(|| format!("reading {}", search_path.display()))?;
    let search = SearchParams::from_text(&search_text, &search_path.display().to_string())?;
    let players: [(&str, EvalParams, SearchParams); 3] = [
        ("EVOL*", read_eval(Some(&star_path))?, search),
        ("EVOL0", read_eval(Some(&zero_path))?, search),
        (
            "DEFAULTS (Fig. 3 + Table II)",
            EvalParams::default(),
            SearchParams::default(),
        ),
    ];
    let spec_of = |eval: Option<&Path>| match eval {
        Some(e) => format!(
            "evol:eval={},nodes={},search={}",
            e.display(),
            a.nodes,
            search_path.display()
        ),
        None => format!("evol:nodes={}", a.nodes),
    };
    let specs = [
        spec_of(Some(&star_path)),
        spec_of(Some(&zero_path)),
        spec_of(None),
    ];
    // The matches' names in the store carry a fingerprint of the parameter files, so that
    // a report after a new coevolution plays new games rather than resuming old ones.
    let contents: String = [&star_path, &zero_path, &search_path]
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect();
    let files_key = eloworld_games::rng::fnv1a(&contents);
    println!(
        "EVOL* = {} + {}; EVOL0 = {} + the same search",
        star_path.display(),
        search_path.display(),
        zero_path.display()
    );
    let book_text = std::fs::read_to_string(&a.book)
        .with_context(|| format!("reading {}", a.book.display()))?;
    let book = read_book(&book_text, &a.book.display().to_string())?;
    let mut store = a.games_store.open(&a.out)?;
    let opts = run_options(a.threads, stop);
    println!("\nMatches: {} games each, {} nodes per move, openings from {} (each opening played with colours swapped), games stored in {}", a.games, a.nodes, a.book.display(), store.location());
    println!("{:<40} {:>14} {:>7} {:>8}", "Match", "Result", "W%", "RD");
    for opponent in [1, 2] {
        let label = format!("{} - {}", players[0].0, players[opponent].0);
        let name = format!("evolve-report-{opponent}-{files_key:016x}-{}", a.games);
        let Some(points) = play_match(
            &name,
            &specs[0],
            &specs[opponent],
            &book,
            a.games,
            7,
            opponent,
            &mut *store,
            &opts,
        )?
        else {
            return Ok(ExitCode::from(130));
        };
        print_match(&label, points);
    }
    let bytes = std::fs::read(&a.epd).with_context(|| format!("reading {}", a.epd.display()))?;
    let suite = parse_epd(
        &String::from_utf8_lossy(&bytes),
        &a.epd.display().to_string(),
    );
    let take = a.positions.min(suite.positions.len());
    println!(
        "\nSuite: first {take} positions of {}, {} nodes each",
        a.epd.display(),
        a.cap
    );
    for (name, eval, search) in &players {
        let cost = SearchFitness::new(&suite.positions[..take], *eval, a.cap, 1).cost(search);
        println!(
            "{name:<40} {:>4}/{take} solved, {} nodes to solution in all",
            cost.solved, cost.total_nodes
        );
    }
    if a.reference.is_empty() || a.reference_games == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    // EVOL* against reference players, pairs of games from one opening with colours swapped
    // (Tables IV–VI in form).
    let registry = Chess::builtin_players();
    println!(
        "\nAgainst reference players: {} games each, EVOL* = {}",
        a.reference_games, specs[0]
    );
    for other in &a.reference {
        let label = format!("EVOL* - {other}");
        if let Err(e) = registry.resolve_str(other) {
            println!("{label:<40} skipped: {e}");
            continue;
        }
        let name = format!(
            "evolve-report-{other}-{files_key:016x}-{}",
            a.reference_games
        );
        let Some(points) = play_match(
            &name,
            &specs[0],
            other,
            &book,
            a.reference_games,
            eloworld_games::rng::fnv1a(other),
            0,
            &mut *store,
            &opts,
        )?
        else {
            return Ok(ExitCode::from(130));
        };
        print_match(&label, points);
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays a match of `games` games (pairs from one opening, colours swapped, openings drawn
/// without repeats from `book` by `seed` and `slot`) through the runner; returns the first
/// player's points and the games, or `None` when stopped.
#[allow(clippy::too_many_arguments)] // reason: two call sites; a struct would only rename these
fn play_match(
    name: &str,
    first: &str,
    second: &str,
    book: &[shakmaty::Chess],
    games: usize,
    seed: u64,
    slot: usize,
    store: &mut dyn Store,
    opts: &RunOptions,
) -> anyhow::Result<Option<(f64, usize)>> {
    use eloworld_evolve::coevolve::{fen_of, first_player_points, match_plan, pair_openings};
    let pairs = games.div_ceil(2).min(book.len());
    let openings: Vec<String> = pair_openings(seed, 0, 0, slot, pairs, book.len())?
        .into_iter()
        .map(|i| fen_of(&book[i]))
        .collect();
    let plan = match_plan(name, first, second, &openings, games.min(2 * pairs), 300)?;
    Ok(play_plan(&plan, store, opts)?.map(|results| first_player_points(&results)))
}

fn print_match(label: &str, (points, games): (f64, usize)) {
    #[allow(clippy::cast_precision_loss)] // reason: game counts are far below 2^52
    let n = games.max(1) as f64;
    let rate = points / n;
    let rd = eloworld_ratings::convert::elo_difference(rate.clamp(1e-6, 1.0 - 1e-6));
    println!(
        "{label:<40} {:>14} {:>6.1}% {:>+8.1}",
        format!("{points:.1} - {:.1}", n - points),
        100.0 * rate,
        rd
    );
}

/// Prints how many generations a run computed (those not loaded from the checkpoint) and
/// how fast; returns false, after saying how to resume, when the run was stopped early.
fn report_run(run: &eloworld_evolve::Evolution, prefix: &str, started: Instant) -> bool {
    let computed = run.history.len() - run.resumed;
    if computed > 0 {
        let elapsed = started.elapsed().as_secs_f64();
        #[allow(clippy::cast_precision_loss)] // generation counts are small
        let rate = computed as f64 / elapsed * 60.0;
        println!(
            "{prefix}{computed} generations computed in {elapsed:.1} s = {rate:.1} generations/min"
        );
    }
    if !run.complete {
        println!(
            "stopped at generation {}; run the same command to resume",
            run.history.len().saturating_sub(1)
        );
    }
    run.complete
}
