//! Phase 2: coevolve the best evaluation functions by playing each other
//! (David–Koppel–Netanyahu, section III.C). Each generation's round robin is a tournament
//! played by the runner into the games' store.

use super::{
    read_eval, run_ga, write_file, GaRun, GaSettings, GamesStore, PhaseEnd, PhaseEvent,
    PHASE_DRAW_RULES,
};
use eloworld_app::Session;
use eloworld_app::{AppResult, Context};
use eloworld_engine::search::Techniques;
use eloworld_engine::{Coding, EvalParams};
use eloworld_evolve::coevolve::{generation_games, read_book, MatchConfig};
use eloworld_evolve::Selection;
use eloworld_evolve::{Checkpointing, EvolveError, Fitness, GaConfig, Generation, Genome};
use eloworld_games::Chess;
use eloworld_players::PlayableGame;
use eloworld_tournament::Store;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;

/// Phase 2's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct CoevolveSettings {
    /// The GA.
    pub ga: GaSettings,
    /// The starting organisms: evaluation parameter files (empty: OUT/imitate-run*.params).
    pub from: Vec<PathBuf>,
    /// The opening book (EPD or one FEN per line).
    pub book: PathBuf,
    /// Games per pair of organisms per generation, each from another opening.
    pub games_per_pair: usize,
    /// Nodes per move of the basic alpha-beta search.
    pub nodes: u64,
    /// Plies after which a game is drawn.
    pub max_plies: u32,
    /// The standard techniques the organisms search with (`all`, `paper` or names joined
    /// by `+`).
    pub techniques: String,
    /// Where the games are stored.
    pub games: GamesStore,
}

/// The technique set as the checkpoint's settings name it, so that a run resumed with other
/// techniques is refused. Runs started before the settings named it searched with the five of
/// that time, so that set is named by its absence and their checkpoints resume.
fn techniques_setting(techniques: Techniques) -> String {
    let names = techniques.names();
    if names == FIRST_FIVE {
        String::new()
    } else {
        format!(" techniques={names}")
    }
}

/// The techniques of the runs before the settings named them (`evol`'s default then).
const FIRST_FIVE: &str = "lmr+asp+see+rfp+lmp";

/// Runs phase 2, writing `OUT/coevolve.params` and `.csv`.
///
/// # Errors
/// Fewer than two organisms, a bad book or setting, the stores, or writing the files.
pub fn coevolve(
    session: &Session,
    s: &CoevolveSettings,
    on: &mut dyn FnMut(PhaseEvent),
) -> AppResult<PhaseEnd> {
    let checkpoints = s.ga.prepare(session)?;
    let mut files = s.from.clone();
    if files.is_empty() {
        let dir = std::fs::read_dir(&s.ga.out)
            .with_context(|| format!("reading {}", s.ga.out.display()))?;
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
    eloworld_app::ensure!(
        files.len() >= 2,
        "coevolution needs at least 2 organisms: give --from FILE… or run `eloworld evolve imitate --runs 10 --out {}` first",
        s.ga.out.display()
    );
    let mut genomes = Vec::new();
    for f in &files {
        genomes.push(read_eval(Some(f))?.encode(Coding::Gray));
    }
    let book_text = std::fs::read_to_string(&s.book)
        .with_context(|| format!("reading {}", s.book.display()))?;
    let openings = read_book(&book_text, &s.book.display().to_string())?;
    let defaults = GaConfig {
        population: files.len(),
        generations: 50,
        selection: Selection::Rank,
        genome_bits: EvalParams::CHROMOSOME_BITS,
        ..GaConfig::new()
    };
    let config = s.ga.config(defaults)?;
    let Some(techniques) = Techniques::from_names(&s.techniques) else {
        eloworld_app::invalid!(
            "--techniques {:?}: all, paper or names joined by + from {}",
            s.techniques,
            Techniques::known_names().collect::<Vec<_>>().join(", ")
        )
    };
    let matches = MatchConfig {
        games_per_pair: s.games_per_pair,
        nodes: s.nodes,
        max_plies: s.max_plies,
        openings,
        seed: config.seed,
        hash_mb: 1,
        techniques,
    };
    let n = config.population;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    on(PhaseEvent::Note(format!(
        "{} starting organisms ({}), population {n}; each generation every pair plays {} games from {} ({} openings), plain alpha-beta at {} nodes per move: {} games",
        files.len(),
        names.join(", "),
        s.games_per_pair,
        s.book.display(),
        matches.openings.len(),
        s.nodes,
        n * (n - 1) / 2 * s.games_per_pair
    )));
    on(PhaseEvent::Note(format!("GA: {}", config.describe())));
    let settings = format!(
        "coevolve from={} book={} games_per_pair={} nodes={} max_plies={}{}",
        names.join(";"),
        s.book.display(),
        s.games_per_pair,
        s.nodes,
        s.max_plies,
        techniques_setting(techniques)
    );
    let name = format!("coevolve-s{}", config.seed);
    let games_store = s.games.open(session, &s.ga.out)?;
    on(PhaseEvent::Note(format!(
        "games stored in {} (each generation a tournament {name}-gN; `eloworld worker --db …` can help play them)",
        games_store.location()
    )));
    let fitness = StoredCoevolution {
        matches,
        run: name.clone(),
        store: Mutex::new(games_store),
        session: session.clone(),
    };
    let checkpoint = Checkpointing {
        store: &checkpoints,
        run: &name,
        settings: &settings,
    };
    let event = |g: &Generation, loaded: bool, secs: f64| {
        (!loaded).then(|| PhaseEvent::Coevolution {
            index: g.index,
            standings: eloworld_evolve::ga::ranked(&g.fitness)
                .iter()
                .map(|&i| (i, g.fitness[i]))
                .collect(),
            last: config.generations - 1,
            secs,
        })
    };
    let Some(run) = run_ga(
        session,
        &GaRun {
            config: &config,
            fitness: &fitness,
            seeds: &genomes,
            checkpoint,
            prefix: "",
        },
        on,
        &event,
    )?
    else {
        return Ok(PhaseEnd::Stopped);
    };
    let Some(last_gen) = run.history.last() else {
        eloworld_app::invalid!("no generation")
    };
    let (best, points) = last_gen.best();
    let params = EvalParams::decode(best, Coding::Gray)?;
    let stem = s.ga.out.join("coevolve");
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
    on(PhaseEvent::Note(format!(
        "best of best: {points} points in the last generation; wrote {}.params and .csv (per-generation standings)",
        stem.display()
    )));
    Ok(PhaseEnd::Done)
}

/// The coevolution's fitness: each generation's round robin is a plan played by the
/// tournament runner into the games' store.
struct StoredCoevolution {
    matches: MatchConfig,
    run: String,
    store: Mutex<Box<dyn Store>>,
    session: Session,
}

impl Fitness for StoredCoevolution {
    fn evaluate(&self, population: &[Genome]) -> Vec<f64> {
        // `evolve` calls `try_evaluate`; this is only for callers that cannot stop.
        self.try_evaluate(population, 0)
            .ok()
            .flatten()
            .unwrap_or_else(|| vec![0.0; population.len()])
    }

    fn try_evaluate(
        &self,
        population: &[Genome],
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
            PHASE_DRAW_RULES,
            &mut **store,
            &self.session.run_options(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_name_the_techniques_except_the_first_runs_five() {
        let five = Techniques::from_names(FIRST_FIVE).expect("five names");
        assert_eq!(
            techniques_setting(five),
            "",
            "the first runs' checkpoints resume"
        );
        assert_eq!(
            techniques_setting(Techniques::default()),
            format!(" techniques={}", Techniques::default().names())
        );
        assert_eq!(techniques_setting(Techniques::none()), " techniques=paper");
        assert_ne!(
            techniques_setting(Techniques::default()),
            techniques_setting(five),
            "a run resumed with other techniques is refused"
        );
    }
}
