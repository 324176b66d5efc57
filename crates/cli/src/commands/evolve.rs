//! `eloworld evolve`: the genetic evolution of David, Koppel and Netanyahu, phase by phase
//! (`eloworld_evolution`); this reads the settings and prints what each phase tells.

use super::evolve_score::GmPositions;
use eloworld_app::Session;
use eloworld_evolution::{
    self as evolve, CoevolveSettings, GaSettings, GamesStore as GamesStoreSettings,
    ImitateSettings, PhaseEnd, PhaseEvent, ReportSettings, SearchSettings,
};
use eloworld_evolve::Selection;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// The seed of every random choice (imitate: run K has seed K, so --seed 8 --runs 3 makes runs 8-10).
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
    /// The standard techniques the organisms search with beside the genes: all, paper (none)
    /// or short names joined by + (lmr+asp+see+rfp+lmp: the engine of the runs before
    /// the evaluation's phase terms, which the shipped 100,000-node checkpoint was played with).
    #[arg(long, default_value = "all")]
    techniques: String,
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

impl GaArgs {
    fn settings(&self) -> GaSettings {
        GaSettings {
            population: self.population,
            generations: self.generations,
            crossover: self.crossover,
            mutation: self.mutation,
            selection: self.selection,
            elitism: self.elitism,
            seed: self.seed,
            out: self.out.clone(),
            checkpoint: self.checkpoint.clone(),
        }
    }
}

impl GamesStore {
    fn settings(&self) -> GamesStoreSettings {
        GamesStoreSettings {
            db: self.db.clone(),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let session = crate::session::start(Some(
        "\nstopping after the generation in progress (Ctrl-C again to kill)…",
    ));
    let end = match args.phase {
        Phase::Imitate(a) => evolve::imitate(
            &with_threads(&session, a.ga.threads, None),
            &ImitateSettings {
                ga: a.ga.settings(),
                source: a.source.settings(),
                train: a.train,
                test: a.test,
                runs: a.runs,
            },
            &mut show,
        )?,
        Phase::Search(a) => evolve::search(
            &with_threads(&session, a.ga.threads, None),
            &SearchSettings {
                ga: a.ga.settings(),
                epd: a.epd,
                positions: a.positions,
                cap: a.cap,
                eval: a.eval,
                hash_mb: a.hash_mb,
                paper: a.paper,
            },
            &mut show,
        )?,
        Phase::Coevolve(a) => evolve::coevolve(
            &with_threads(&session, a.ga.threads, Some(a.games.lease)),
            &CoevolveSettings {
                ga: a.ga.settings(),
                from: a.from,
                book: a.book,
                games_per_pair: a.games_per_pair,
                nodes: a.nodes,
                max_plies: a.max_plies,
                techniques: a.techniques,
                games: a.games.settings(),
            },
            &mut show,
        )?,
        Phase::Report(a) => evolve::report(
            &with_threads(&session, a.threads, Some(a.games_store.lease)),
            &ReportSettings {
                out: a.out,
                star_eval: a.star_eval,
                zero_eval: a.zero_eval,
                search: a.search,
                games: a.games,
                nodes: a.nodes,
                book: a.book,
                epd: a.epd,
                positions: a.positions,
                cap: a.cap,
                reference: a.reference,
                reference_games: a.reference_games,
                games_store: a.games_store.settings(),
            },
            &mut show,
        )?,
        Phase::ScoreImitation(a) => return super::evolve_score::run(&a),
    };
    Ok(match end {
        PhaseEnd::Done => ExitCode::SUCCESS,
        PhaseEnd::Stopped => ExitCode::from(130),
    })
}

fn with_threads(session: &Session, threads: Option<usize>, lease: Option<f64>) -> Session {
    let session = session.clone().threads(threads);
    match lease {
        Some(secs) => session.lease(std::time::Duration::from_secs_f64(secs.max(1.0))),
        None => session,
    }
}

/// Prints what a phase tells (`PhaseEvent::lines`) on standard output, skipped input on
/// standard error.
fn show(event: PhaseEvent) {
    if let PhaseEvent::Skipped(what) = &event {
        eprintln!("skipped: {what}");
    }
    for line in event.lines() {
        println!("{line}");
    }
}
