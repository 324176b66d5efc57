//! The Squava article's experiment end to end: rating runs of random pairings rated by
//! incremental Elo in game order (K = 800/N, 1300 from 14 effective games), then a round
//! robin whose observed score ratios are compared with the ratings' predictions.

use crate::error::AppResult;
use crate::session::Session;
use crate::tournament::play_to_end;
use eloworld_games::GameKind;
use eloworld_ratings::{rate, Games, Method, Options, Wdl};
use eloworld_tournament::{GameRow, Plan, TournamentConfig};
use std::path::PathBuf;

/// The experiment's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquavaSettings {
    /// The rating runs' tournament file (random pairings).
    pub elo: PathBuf,
    /// The round robin's tournament file.
    pub round_robin: PathBuf,
    /// Rating runs; run k is named NAME-runK and uses the file's seed + k − 1.
    pub runs: u64,
    /// Games in each rating run (default: the file's).
    pub games: Option<u32>,
    /// Round-robin games per ordered pair (default: the file's).
    pub games_per_pair: Option<u32>,
    /// Play only the rating runs.
    pub skip_round_robin: bool,
    /// Worker threads (default: the files' setting, else all cores).
    pub threads: Option<usize>,
}

/// What the experiment found.
#[derive(Clone, Debug)]
pub struct SquavaExperiment {
    /// The rating runs' players, in the file's order.
    pub players: Vec<String>,
    /// Games in each rating run.
    pub games_per_run: u32,
    /// Each run's final ratings, in `players`' order.
    pub runs: Vec<Vec<f64>>,
    /// The round robin, unless skipped.
    pub round_robin: Option<RoundRobin>,
    /// The first player's (White's) games over every game played.
    pub first_player: Wdl,
}

/// The round robin and the ratings it is compared with.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    /// Its players.
    pub players: Vec<String>,
    /// Its games, in plan order.
    pub rows: Vec<GameRow>,
    /// The last rating run's ratings of its players.
    pub ratings: Vec<f64>,
}

/// Runs (or resumes) the experiment.
///
/// # Errors
/// A bad setting or tournament file, a run stopped before its end, or the store.
pub fn run_experiment(session: &Session, s: &SquavaSettings) -> AppResult<SquavaExperiment> {
    crate::ensure!(s.runs >= 1, "--runs must be at least 1");
    crate::ensure!(s.games != Some(0), "--games must be at least 1");
    crate::ensure!(
        s.games_per_pair != Some(0),
        "--games-per-pair must be at least 1"
    );
    let mut base = TournamentConfig::from_file(&s.elo)?;
    if let Some(n) = s.games {
        // Another length is another tournament: it must not resume the file's games.
        base.games = Some(n);
        base.name = format!("{}-{n}", base.name);
    }
    let mut runs = Vec::new();
    let mut first_player = Wdl::default();
    for k in 1..=s.runs {
        let mut config = base.clone();
        config.db = Some(base.db_path());
        config.name = format!("{}-run{k}", base.name);
        config.seed = base.seed.wrapping_add(k - 1);
        if s.threads.is_some() {
            config.threads = s.threads;
        }
        let (plan, rows) = play(session, &config)?;
        add_first_player(&mut first_player, &rows);
        runs.push(rate_in_game_order(plan.players(), &rows)?);
    }
    let players = Plan::new(&base)?.players().to_vec();
    let games_per_run = base.games.unwrap_or(0);
    if s.skip_round_robin {
        return Ok(SquavaExperiment {
            players,
            games_per_run,
            runs,
            round_robin: None,
            first_player,
        });
    }
    let mut config = TournamentConfig::from_file(&s.round_robin)?;
    if let Some(n) = s.games_per_pair {
        config.games_per_pair = n;
        config.name = format!("{}-{n}", config.name);
    }
    if s.threads.is_some() {
        config.threads = s.threads;
    }
    let (plan, rows) = play(session, &config)?;
    add_first_player(&mut first_player, &rows);
    let last = runs.last().map(Vec::as_slice).unwrap_or_default();
    let ratings = ratings_for(plan.players(), &players, last)?;
    Ok(SquavaExperiment {
        players,
        games_per_run,
        runs,
        round_robin: Some(RoundRobin {
            players: plan.players().to_vec(),
            rows,
            ratings,
        }),
        first_player,
    })
}

/// Plays (or resumes) a squava tournament to its end: its plan and its games in plan order.
fn play(session: &Session, config: &TournamentConfig) -> AppResult<(Plan, Vec<GameRow>)> {
    let plan = Plan::new(config)?;
    crate::ensure!(
        plan.game() == GameKind::Squava,
        "{}: the experiment is a squava tournament",
        config.name
    );
    let session = session.clone().threads(config.threads);
    let rows = play_to_end(&session, &plan)?;
    Ok((plan, rows))
}

fn add_first_player(tally: &mut Wdl, rows: &[GameRow]) {
    for r in rows {
        tally.add(r.result.first_score());
    }
}

/// Rates the games in their scheduled order; the ratings follow `players`' order.
fn rate_in_game_order(players: &[String], rows: &[GameRow]) -> AppResult<Vec<f64>> {
    let mut games = Games::case_sensitive();
    for p in players {
        games.player(p);
    }
    eloworld_tournament::add_results(&mut games, rows);
    Ok(rate(&games, &Options::new(Method::Uscf))?.values)
}

/// Picks the ratings of `wanted` players out of a run over `rated` players.
fn ratings_for(wanted: &[String], rated: &[String], ratings: &[f64]) -> AppResult<Vec<f64>> {
    wanted
        .iter()
        .map(|w| {
            let Some(r) = rated
                .iter()
                .position(|r| r == w)
                .and_then(|i| ratings.get(i).copied())
            else {
                crate::invalid!("player {w} of the round robin has no rating from the rating runs");
            };
            Ok(r)
        })
        .collect()
}
