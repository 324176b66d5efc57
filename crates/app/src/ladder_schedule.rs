//! Playing a tournament with `schedule = "ladder"`: batch after batch, the pairs whose next
//! games make every player's rating precise soonest (`eloworld_ladder::adaptive`), until
//! every 95% half-width is within `precision` or the `games` budget is spent.
//!
//! Each batch is a tournament of its own in the store (`NAME/batch-0001`, …), so a batch is
//! stored, resumed after a kill and played by workers like any tournament. Batch k is
//! chosen from the games of batches 1…k−1; once stored, a batch is resumed with the pairs
//! it was stored with, never chosen again.

use crate::error::{AppResult, Context};
use crate::independent::determinism;
use crate::session::Session;
use crate::tournament::{run_tournament, store_plan};
use crate::with_game;
use eloworld_ladder::adaptive::{next_batch, status, Status};
use eloworld_ratings::{PairCounts, PlayerId};
use eloworld_tournament::{
    ladder_batch_name, score, CopyRule, Distinct, Plan, ResultRow, TournamentConfig,
};

/// The precision a ladder schedule aims at when the file gives none (Elo, 95% half-width).
pub const DEFAULT_PRECISION: f64 = 50.0;

/// What a ladder schedule did.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderRun {
    /// Batches stored (finished or not).
    pub batches: u32,
    /// Games stored in all batches.
    pub games: u64,
    /// Games this run stored.
    pub stored: u64,
    /// Where the ratings stand after the last batch.
    pub status: Status,
    /// The precision aimed at.
    pub precision: f64,
    /// The game budget.
    pub budget: u64,
    /// The store.
    pub location: String,
    /// True when the run was stopped: run it again to go on.
    pub interrupted: bool,
    /// A warning when players that play by a fixed rule meet without openings: their games
    /// after the first from the initial position are copies (see [`crate::independent`]).
    pub warning: Option<String>,
    /// With [`Mode::StoreNextBatch`]: the batch stored for workers (none when the schedule
    /// is done), and the players this machine cannot run.
    pub stored_batch: Option<(String, Vec<String>)>,
}

/// Whether the schedule is played here or its next batch stored for workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Play batch after batch here (on a shared store, with whatever workers join in).
    Play,
    /// Store the next batch and return, playing nothing (`--plan-only`): workers play it,
    /// and the same command then stores the one after.
    StoreNextBatch,
}

impl LadderRun {
    /// True when every player is within the precision.
    #[must_use]
    pub fn precise(&self) -> bool {
        self.status.precise(self.precision)
    }

    /// Returns each of `players` (the schedule's, in its order) with its rating and 95%
    /// half-width, lowest rating first.
    #[must_use]
    pub fn by_rating<'a>(&self, players: &'a [String]) -> Vec<(&'a str, f64, f64)> {
        let ratings = &self.status.ratings;
        let mut order: Vec<usize> = (0..players.len().min(ratings.len())).collect();
        order.sort_by(|&a, &b| ratings[a].total_cmp(&ratings[b]));
        order
            .into_iter()
            .map(|i| (players[i].as_str(), ratings[i], self.status.half_widths[i]))
            .collect()
    }
}

/// Adds a batch's results to the counts (players by their index in `players`): `played`
/// counts every game, `counts` (what the fit rates) only those `distinct` admits, so a copy
/// of an earlier game of the pair is counted once (docs/ratings.md, "Copies").
fn count(
    counts: &mut PairCounts,
    played: &mut [u32],
    distinct: &mut Distinct,
    players: &[String],
    rows: &[ResultRow],
) {
    let n = players.len();
    let index = |spec: &str| players.iter().position(|p| p == spec);
    for r in rows {
        if let (Some(w), Some(b)) = (index(&r.white), index(&r.black)) {
            played[w * n + b] += 1;
            if distinct.admit(&r.white, &r.black, r.identity) {
                counts.add(
                    PlayerId(w as u32),
                    PlayerId(b as u32),
                    score(r.result),
                    true,
                    1,
                );
            }
        }
    }
}

/// Plays (or resumes) the ladder schedule of `config` (see the module's doc).
///
/// # Errors
/// A config that is not a ladder schedule or has no budget, a player that cannot be made,
/// the store, or a batch's run.
pub fn play_ladder(
    session: &Session,
    config: &TournamentConfig,
    mode: Mode,
) -> AppResult<LadderRun> {
    crate::ensure!(
        config.schedule == eloworld_tournament::Schedule::Ladder,
        "tournament {:?} is not a ladder schedule",
        config.name
    );
    let budget = u64::from(config.games.filter(|&g| g > 0).ok_or_else(|| {
        crate::AppError::Invalid(format!(
            "tournament {:?}: schedule = \"ladder\" needs games = N, its game budget",
            config.name
        ))
    })?);
    let precision = config.precision.unwrap_or(DEFAULT_PRECISION);
    crate::ensure!(
        precision.is_finite() && precision > 0.0,
        "tournament {:?}: precision must be a positive number of Elo, not {precision}",
        config.name
    );
    let first = Plan::new(config)?;
    let players = first.players().to_vec();
    let fixed = with_game!(config.game, G => determinism(&session.registry::<G>()?, &players))?;
    let fixed_players: Vec<&str> = players
        .iter()
        .zip(&fixed)
        .filter(|(_, d)| d.mostly_fixed())
        .map(|(p, _)| p.as_str())
        .collect();
    let warning = (config.openings.is_none()
        && config.random_openings.is_none()
        && fixed_players.len() >= 2)
        .then(|| {
            format!(
                "{} players play by a fixed rule ({}) and meet from the initial position: their games after the first are copies. Give the ladder openings (`openings = \"FILE\"` or `random_openings = PLIES`, with `openings_for = \"fixed-pairs\"`)",
                fixed_players.len(),
                fixed_players.join(", ")
            )
        });
    let n = players.len();
    let batch_games = config.batch.unwrap_or(4 * n as u32).max(2);
    let location = config.db_path();
    let mut counts = PairCounts::new(n);
    let mut played = vec![0u32; n * n];
    let mut distinct = Distinct::new(CopyRule::CountOnce);
    let mut games = 0u64;
    let mut stored = 0u64;
    let mut batch = 0u32;
    let end = |batches, games, stored, status, interrupted, stored_batch| LadderRun {
        batches,
        games,
        stored,
        status,
        precision,
        budget,
        location: location.clone(),
        interrupted,
        warning: warning.clone(),
        stored_batch,
    };
    loop {
        let now = status(&counts);
        let stored_rows = session.open_store(&location)?.tournaments()?;
        let next_name = ladder_batch_name(&config.name, batch + 1);
        let begun = stored_rows.iter().find(|t| t.name == next_name);
        if begun.is_none() && (now.precise(precision) || games + 2 > budget) {
            return Ok(end(batch, games, stored, now, false, None));
        }
        batch += 1;
        if let Some(done) = begun.filter(|t| t.total > 0 && t.done == t.total) {
            // A finished batch is read back as stored, whatever chose it.
            let rows = session.open_store(&location)?.results(Some(&done.name))?;
            games += rows.len() as u64;
            count(&mut counts, &mut played, &mut distinct, &players, &rows);
            continue;
        }
        let pairs: Vec<(u32, u32)> = if let Some(begun) = begun {
            // A batch begun and not finished is resumed as stored: choosing it again could
            // pick other pairs once an earlier batch's games were replayed or repaired.
            session.open_store(&location)?.job_pairs(&begun.name)?
        } else {
            let size = u32::try_from((budget - games).min(u64::from(batch_games))).unwrap_or(2);
            let chosen = next_batch(&counts, &now, precision, size);
            crate::ensure!(
                !chosen.is_empty(),
                "tournament {:?}: no pair left to play in batch {batch}",
                config.name
            );
            chosen.iter().map(|&(w, b)| (w as u32, b as u32)).collect()
        };
        let plan =
            Plan::ladder_batch(config, batch, &pairs, &played)?.with_openings_policy(&fixed)?;
        if mode == Mode::StoreNextBatch {
            let stored_plan = store_plan(session, &plan)?;
            let name = plan.config().name.clone();
            let games = games + stored_plan.done;
            return Ok(end(
                batch,
                games,
                stored,
                now,
                false,
                Some((name, stored_plan.not_here)),
            ));
        }
        let run = run_tournament(session, &plan)
            .with_context(|| format!("batch {batch} of ladder schedule {:?}", config.name))?;
        stored += run.summary.stored;
        if run.summary.interrupted || run.games_left() > 0 {
            let mut partial = counts.clone();
            count(
                &mut partial,
                &mut played,
                &mut distinct,
                &players,
                &run.rows,
            );
            let games = games + run.rows.len() as u64;
            return Ok(end(batch, games, stored, status(&partial), true, None));
        }
        games += run.rows.len() as u64;
        count(&mut counts, &mut played, &mut distinct, &players, &run.rows);
    }
}

#[cfg(test)]
mod copy_tests {
    use super::*;
    use eloworld_games::{GameKind, GameResult, Side, Termination};
    use eloworld_tournament::GameIdentity;

    fn row(white: &str, black: &str, moves: &str) -> ResultRow {
        ResultRow {
            tournament: "t".to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            result: GameResult::Win(Side::First),
            termination: Termination::Checkmate,
            plies: 2,
            date: String::new(),
            identity: GameIdentity::of_codes(GameKind::Chess, None, moves),
        }
    }

    #[test]
    fn the_fit_counts_a_copy_once_and_the_schedule_counts_every_game() {
        let players = ["a".to_owned(), "b".to_owned()];
        let mut counts = PairCounts::new(2);
        let mut played = vec![0u32; 4];
        let mut distinct = Distinct::new(CopyRule::CountOnce);
        // Two batches: a copy in the first, and a copy of the first batch's game in the second.
        let first = [row("a", "b", "e2e4 e7e5"), row("a", "b", "e2e4 e7e5")];
        let second = [
            row("a", "b", "e2e4 e7e5"),
            row("a", "b", "d2d4 d7d5"),
            row("b", "a", "e2e4 e7e5"),
        ];
        count(&mut counts, &mut played, &mut distinct, &players, &first);
        count(&mut counts, &mut played, &mut distinct, &players, &second);
        assert_eq!(played, [0, 4, 1, 0], "every game played, by ordered pair");
        assert_eq!(
            counts.coloured(0, 1).iter().sum::<u32>(),
            2,
            "a–b: two distinct games"
        );
        assert_eq!(counts.coloured(1, 0).iter().sum::<u32>(), 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_listed_lowest_rating_first() {
        let run = LadderRun {
            batches: 1,
            games: 6,
            stored: 6,
            status: Status {
                ratings: vec![1100.0, 900.0, 1000.0],
                half_widths: vec![40.0, 60.0, 50.0],
                games: 6,
            },
            precision: 50.0,
            budget: 100,
            location: "l.sqlite".into(),
            interrupted: false,
            warning: None,
            stored_batch: None,
        };
        let players = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        assert_eq!(
            run.by_rating(&players),
            [("b", 900.0, 60.0), ("c", 1000.0, 50.0), ("a", 1100.0, 40.0)]
        );
        assert!(!run.precise(), "b's ±60 is wider than ±50");
    }
}
