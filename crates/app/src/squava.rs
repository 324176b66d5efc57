//! The Squava article's experiment end to end: rating runs of random pairings rated by
//! incremental Elo in game order (K = 800/N, 1300 from 14 effective games), then a round
//! robin whose observed score ratios are compared with the ratings' predictions.

use crate::error::AppResult;
use crate::session::Session;
use crate::tournament::play_to_end;
use eloworld_games::GameKind;
use eloworld_ratings::consistency::{consistency, Consistency};
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

/// The round robin against the ratings, as the Squava article checks it: every pair's W/D/L,
/// the players by games won, and the consistency table (observed R_P/Q against 10^(D/400))
/// with each observed ratio's 95% interval and the article's own R_P/Q.
#[derive(Clone, Debug)]
pub struct RoundRobinCheck {
    /// Every unordered pair (p < q, indices into the round robin's players) with P's W/D/L
    /// against Q.
    pub pairs: Vec<(usize, usize, Wdl)>,
    /// The players by games won, most first (ties in the players' order), with their wins.
    pub by_wins: Vec<(usize, u64)>,
    /// Observed against predicted score ratios, per pair.
    pub consistency: Consistency,
    /// For each of `consistency`'s pairs, in its order: the observed ratio's 95% interval and
    /// the article's R_P/Q for that pair where it measured one.
    pub ratios: Vec<RatioCheck>,
}

/// One pair's observed R_P/Q beside what bounds it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioCheck {
    /// The 95% interval of R_P/Q (`ratio_interval`); the upper end is infinite for a pair P
    /// never lost.
    pub interval: (f64, f64),
    /// The article's R_P/Q (its 800-game pairs), if it measured the pair.
    pub article: Option<f64>,
}

impl RoundRobin {
    /// Tallies the round robin and checks it against the ratings.
    #[must_use]
    pub fn check(&self) -> RoundRobinCheck {
        let mut games = Games::case_sensitive();
        for p in &self.players {
            games.player(p);
        }
        eloworld_tournament::add_results(&mut games, &self.rows);
        let counts = games.counts();
        let n = self.players.len();
        let mut pairs = Vec::new();
        let mut wins = vec![0u64; n];
        for p in 0..n {
            for q in p + 1..n {
                let [l, d, w] = counts.pair(p, q);
                wins[p] += u64::from(w);
                wins[q] += u64::from(l);
                pairs.push((p, q, Wdl::new(w.into(), d.into(), l.into())));
            }
        }
        let mut by_wins: Vec<(usize, u64)> = wins.into_iter().enumerate().collect();
        by_wins.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        let consistency = consistency(&counts, &self.ratings);
        let ratios = consistency
            .pairs
            .iter()
            .map(|r| RatioCheck {
                interval: ratio_interval(r.score / r.games as f64, r.games as f64),
                article: article_ratio(&self.players[r.p], &self.players[r.q]),
            })
            .collect();
        RoundRobinCheck {
            pairs,
            by_wins,
            consistency,
            ratios,
        }
    }
}

/// The article's R_P/Q (P wins / Q wins of its 800-game pairs), by our player names.
const ARTICLE_RATIOS: [(&str, &str, f64); 6] = [
    ("alphabeta", "alphabeta_better", 0.62),
    ("alphabeta", "mcts", 4.37),
    ("alphabeta", "mcts_uct", 0.65),
    ("alphabeta_better", "mcts", 5.45),
    ("alphabeta_better", "mcts_uct", 0.72),
    ("mcts", "mcts_uct", 0.14),
];

/// Returns the article's R_P/Q for `p` against `q`, if it measured that pair.
fn article_ratio(p: &str, q: &str) -> Option<f64> {
    ARTICLE_RATIOS.iter().find_map(|&(a, b, r)| {
        if (a, b) == (p, q) {
            Some(r)
        } else if (a, b) == (q, p) {
            Some(1.0 / r)
        } else {
            None
        }
    })
}

/// The 95% Wilson score interval (Wilson, JASA 1927) of a score fraction `s` over `n`
/// games, carried to R = s / (1 − s), which grows with s.
fn ratio_interval(s: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.959_964;
    if n <= 0.0 {
        return (0.0, f64::INFINITY);
    }
    let z2 = Z * Z;
    let centre = (s + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    let ratio = |p: f64| {
        if p >= 1.0 {
            f64::INFINITY
        } else {
            p / (1.0 - p)
        }
    };
    let low = if s <= 0.0 {
        0.0
    } else {
        ratio((centre - half).max(0.0))
    };
    // A pair that never lost has no upper end (rounding would give a huge finite one).
    let high = if s >= 1.0 {
        f64::INFINITY
    } else {
        ratio((centre + half).min(1.0))
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_intervals_follow_wilson() {
        // 651 of 800 (the article's alphabeta vs mcts): s = 0.81375, R = 4.37. Wilson by
        // hand: centre 0.81225, half-width 0.02695, so s in 0.78530..0.83920 and R in
        // 3.6576..5.2191.
        let (low, high) = ratio_interval(651.0 / 800.0, 800.0);
        assert!((low - 3.6576).abs() < 0.001, "{low}");
        assert!((high - 5.2191).abs() < 0.001, "{high}");
        // A pair that never lost has no upper end.
        assert_eq!(ratio_interval(1.0, 10.0).1, f64::INFINITY);
        assert_eq!(article_ratio("mcts", "alphabeta"), Some(1.0 / 4.37));
        assert_eq!(article_ratio("mcts", "random_move"), None);
    }
}
