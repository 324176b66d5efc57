//! Running a tournament: check its players, open its store, play the games not yet stored
//! (resuming a killed run), and hand back what was stored; or store its plan for workers.

use crate::error::{AppError, AppResult, Context};
use crate::game::AppGame;
use crate::session::Session;
use crate::with_game;
use eloworld_games::{DrawRules, GameKind};
use eloworld_players::SpecError;
use eloworld_tournament::{GameRow, Plan, ResultRow, RunSummary, TournamentConfig};
use std::path::{Path, PathBuf};

/// What a tournament run did, and every result its store holds for it.
#[derive(Debug)]
pub struct TournamentRun {
    /// The runner's summary of this run.
    pub summary: RunSummary,
    /// Every stored result of the tournament.
    pub rows: Vec<ResultRow>,
    /// Where they are stored.
    pub location: String,
}

impl TournamentRun {
    /// Games of the plan not stored yet (after an interruption).
    #[must_use]
    pub fn games_left(&self) -> u64 {
        self.summary
            .planned
            .saturating_sub(self.summary.done_before + self.summary.stored)
    }
}

/// Runs (or resumes) the tournament of `plan`: every player is resolved before the store
/// is touched, so a misspelt player stores nothing.
///
/// # Errors
/// A player that cannot be made, the store, or the run.
pub fn run_tournament(session: &Session, plan: &Plan) -> AppResult<TournamentRun> {
    with_game!(plan.game(), G => run_as::<G>(session, plan))
}

fn run_as<G: AppGame>(session: &Session, plan: &Plan) -> AppResult<TournamentRun> {
    let config = plan.config();
    let rules = G::rules_with(config.draw_rules, config.size, config.komi)?;
    let registry = session.registry::<G>()?;
    for p in plan.players() {
        registry.resolve_str(p)?;
    }
    let location = plan.config().db_path();
    let mut store = session.open_store(&location)?;
    let summary = session.play::<G>(plan, &registry, rules, &mut *store)?;
    let rows = store.results(Some(&plan.config().name))?;
    Ok(TournamentRun {
        summary,
        rows,
        location,
    })
}

/// A plan stored for workers to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlan {
    /// The store's location.
    pub location: String,
    /// Games already done.
    pub done: u64,
    /// Games in the plan.
    pub total: u64,
    /// Players this machine cannot run (its engine is not installed here), with why: only
    /// workers that have them will play their games.
    pub not_here: Vec<String>,
}

/// Stores the plan for workers (`eloworld worker`) to play on any number of machines,
/// playing none of it here. A misspelt player or a wrong parameter is an error before
/// anything is stored; a player that only cannot run on this machine is listed.
///
/// # Errors
/// A bad player spec, or the store.
pub fn store_plan(session: &Session, plan: &Plan) -> AppResult<StoredPlan> {
    let not_here = with_game!(plan.game(), G => players_not_here::<G>(session, plan))?;
    let location = plan.config().db_path();
    let mut store = session.open_store(&location)?;
    store
        .begin(plan)
        .with_context(|| format!("storing tournament {:?}", plan.config().name))?;
    let row = store
        .tournaments()?
        .into_iter()
        .find(|t| t.name == plan.config().name);
    let (done, total) = row.map_or((0, plan.jobs().len() as u64), |t| (t.done, t.total));
    Ok(StoredPlan {
        location: store.location(),
        done,
        total,
        not_here,
    })
}

fn players_not_here<G: AppGame>(session: &Session, plan: &Plan) -> AppResult<Vec<String>> {
    let registry = session.registry::<G>()?;
    let mut not_here = Vec::new();
    for p in plan.players() {
        match registry.resolve_str(p) {
            Ok(_) => {}
            Err(SpecError::Unavailable { player, reason }) => {
                not_here.push(format!("{player} cannot run on this machine ({reason})"));
            }
            Err(e) => {
                return Err(AppError::from(e))
                    .with_context(|| format!("tournament {:?}", plan.config().name))
            }
        }
    }
    Ok(not_here)
}

/// Plays (or resumes) the tournament of `plan` to its end and returns its games in plan
/// order, for use cases that read the games in their scheduled order (the Squava article's
/// incremental ratings).
///
/// # Errors
/// As [`run_tournament`]; also when the run was stopped or a game is missing.
pub fn play_to_end(session: &Session, plan: &Plan) -> AppResult<Vec<GameRow>> {
    let run = run_tournament(session, plan)?;
    crate::ensure!(
        !run.summary.interrupted,
        "interrupted: run the same command again to finish"
    );
    let store = session.open_store(&run.location)?;
    let mut rows = store.games(Some(&plan.config().name))?;
    // Jobs are stored in plan order, so the job id orders the games as scheduled.
    rows.sort_by_key(|r| r.job_id);
    crate::ensure!(
        rows.len() == plan.jobs().len(),
        "{}: {} of {} games stored",
        plan.config().name,
        rows.len(),
        plan.jobs().len()
    );
    Ok(rows)
}

/// A tournament's settings given beside its file (or, with a name and players, instead of
/// one): each setting given replaces the file's.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// The tournament's name.
    pub name: Option<String>,
    /// The game.
    pub game: Option<GameKind>,
    /// Player specs, each item a comma-separated list (`stockfish:nodes=1000,hash=16` stays
    /// one player).
    pub players: Option<Vec<String>>,
    /// Games per ordered pair.
    pub games_per_pair: Option<u32>,
    /// The tournament seed.
    pub seed: Option<u64>,
    /// Worker threads.
    pub threads: Option<usize>,
    /// An openings file.
    pub openings: Option<PathBuf>,
    /// At most this many openings.
    pub openings_limit: Option<usize>,
    /// A draw is adjudicated after this many plies.
    pub max_plies: Option<u32>,
    /// Chess draw rules.
    pub draw_rules: Option<DrawRules>,
    /// The database.
    pub db: Option<String>,
    /// A `ladder` schedule's target half-width in Elo.
    pub precision: Option<f64>,
    /// A `ladder` schedule's game budget, or a `random` schedule's games.
    pub max_games: Option<u32>,
}

/// Returns the settings of the tournament `file` (TOML), or of a chess tournament named
/// by the overrides when there is no file, with the overrides applied.
///
/// # Errors
/// A file that cannot be read or parsed, or neither a file nor a name.
pub fn config_from(file: Option<&Path>, o: Overrides) -> AppResult<TournamentConfig> {
    let mut c = match file {
        Some(path) => TournamentConfig::from_file(path)?,
        None => {
            let Some(name) = &o.name else {
                crate::invalid!("give a tournament FILE, or --name and --players");
            };
            TournamentConfig::new(name, GameKind::Chess, Vec::new())
        }
    };
    if let Some(v) = o.name {
        c.name = v;
    }
    if let Some(v) = o.players {
        c.players = v
            .iter()
            .flat_map(|list| eloworld_players::PlayerSpec::split_list(list))
            .collect();
    }
    c.game = o.game.unwrap_or(c.game);
    c.games_per_pair = o.games_per_pair.unwrap_or(c.games_per_pair);
    c.seed = o.seed.unwrap_or(c.seed);
    c.threads = o.threads.or(c.threads);
    c.openings = o.openings.or(c.openings);
    c.openings_limit = o.openings_limit.or(c.openings_limit);
    c.max_plies = o.max_plies.unwrap_or(c.max_plies);
    c.draw_rules = o.draw_rules.unwrap_or(c.draw_rules);
    c.db = o.db.or(c.db);
    c.precision = o.precision.or(c.precision);
    c.games = o.max_games.or(c.games);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_replace_the_files_settings_and_keep_the_rest() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("t.toml");
        std::fs::write(
            &file,
            "name = \"t\"\ngame = \"squava\"\nplayers = [\"random_move\", \"mcts\"]\ngames_per_pair = 4\nseed = 9\n",
        )
        .expect("write");
        let c = config_from(
            Some(&file),
            Overrides {
                players: Some(vec!["a,b:x=1,y=2".to_owned(), "c".to_owned()]),
                seed: Some(3),
                max_games: Some(12),
                ..Overrides::default()
            },
        )
        .expect("config");
        assert_eq!((c.name.as_str(), c.game), ("t", GameKind::Squava));
        assert_eq!(c.players, ["a", "b:x=1,y=2", "c"]);
        assert_eq!((c.games_per_pair, c.seed, c.games), (4, 3, Some(12)));
    }

    #[test]
    fn without_a_file_a_name_makes_a_chess_tournament() {
        let e = config_from(None, Overrides::default()).expect_err("no name");
        assert_eq!(
            e.to_string(),
            "give a tournament FILE, or --name and --players"
        );
        let c = config_from(
            None,
            Overrides {
                name: Some("n".to_owned()),
                draw_rules: Some(DrawRules::Claimed),
                ..Overrides::default()
            },
        )
        .expect("config");
        assert_eq!((c.name.as_str(), c.game), ("n", GameKind::Chess));
        assert_eq!(c.draw_rules, DrawRules::Claimed);
    }
}
