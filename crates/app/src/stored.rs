//! What a store holds, as `results` and `status` show it: each tournament's games stored
//! and how it ended, the standings, the first side's score, and the jobs and workers of a
//! shared store.

use crate::error::AppResult;
use crate::report::COPY_PAIRS_SHOWN;
use crate::standing::{colour_split, ending, match_tests, Ending, Standings};
use eloworld_games::GameKind;
use eloworld_ratings::Wdl;
use eloworld_tournament::{open_store, Copies, CopyRule, TournamentStatus, WorkerStatus};
use std::collections::BTreeSet;
use std::fmt;

/// One tournament's line of `results`.
#[derive(Clone, Debug)]
pub struct TournamentLine {
    /// The tournament's name.
    pub name: String,
    /// Its game.
    pub game: GameKind,
    /// Games stored.
    pub done: u64,
    /// Games planned.
    pub total: u64,
    /// How it ended, if it has.
    pub ending: Option<Ending>,
}

/// The stored results of one tournament or all, as `results` shows them.
#[derive(Clone, Debug)]
pub struct StoredResults {
    /// The tournaments shown.
    pub tournaments: Vec<TournamentLine>,
    /// Names the copies of earlier games the results hold (the standings count every
    /// stored game; the ratings count a copy once).
    pub copies_note: Option<String>,
    /// W/D/L per player (in the tournaments' order) and per ordered pair.
    pub standings: Standings,
    /// The score of the side that moves first.
    pub first_side: Wdl,
    /// The first side's colour when every tournament shown is of one game that has one:
    /// White in chess, Black in Go (Squava's sides have no colour).
    pub first_colour: Option<&'static str>,
}

/// Reads the results stored in `db`, of one tournament or all.
///
/// # Errors
/// The store cannot be opened or read.
pub fn results(db: &str, tournament: Option<&str>) -> AppResult<StoredResults> {
    let store = open_store(db, false)?;
    let all = store.tournaments()?;
    let tests = match_tests(&*store, &all)?;
    let shown: Vec<_> = all
        .iter()
        .filter(|t| tournament.is_none_or(|n| n == t.name))
        .collect();
    let order: Vec<String> = shown.iter().flat_map(|t| t.players.clone()).collect();
    let tournaments = shown
        .iter()
        .map(|t| TournamentLine {
            name: t.name.clone(),
            game: t.game,
            done: t.done,
            total: t.total,
            ending: ending(t.done, t.total, tests.get(&t.id)),
        })
        .collect();
    let rows = store.results(tournament)?;
    let kinds: BTreeSet<GameKind> = shown.iter().map(|t| t.game).collect();
    Ok(StoredResults {
        tournaments,
        copies_note: Copies::of(&rows).note(CopyRule::CountOnce, COPY_PAIRS_SHOWN),
        standings: Standings::from_rows(&order, &rows),
        first_side: colour_split(&rows),
        first_colour: match kinds.iter().collect::<Vec<_>>().as_slice() {
            [GameKind::Chess] => Some("White"),
            [GameKind::Go] => Some("Black"),
            _ => None,
        },
    })
}

/// Where a tournament of a shared store stands.
#[derive(Clone, Debug)]
pub enum State {
    /// Finished, and why.
    Ended(Ending),
    /// A worker holds some of its jobs.
    Running,
    /// No game stored yet.
    NotStarted,
    /// Games stored, none being played now.
    InPlay,
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Ended(e) => e.fmt(f),
            State::Running => f.write_str("running"),
            State::NotStarted => f.write_str("not started"),
            State::InPlay => f.write_str("in play"),
        }
    }
}

/// The jobs and workers of a store, as `status` shows them.
#[derive(Clone, Debug)]
pub struct StoreStatus {
    /// The store's location.
    pub location: String,
    /// Each tournament's jobs, their total and its state.
    pub tournaments: Vec<(TournamentStatus, u64, State)>,
    /// Every worker that reported.
    pub workers: Vec<WorkerStatus>,
}

/// Reads the jobs and workers of the store `db`.
///
/// # Errors
/// The store cannot be opened or read.
pub fn status(db: &str) -> AppResult<StoreStatus> {
    let store = open_store(db, false)?;
    let (tournaments, workers) = store.status()?;
    let rows = store.tournaments()?;
    let tests = match_tests(&*store, &rows)?;
    let tournaments = tournaments
        .into_iter()
        .map(|t| {
            let total = t.done + t.running + t.dead_leases + t.pending;
            let test = rows
                .iter()
                .find(|r| r.name == t.name)
                .and_then(|r| tests.get(&r.id));
            let state = match ending(t.done, total, test) {
                Some(e) => State::Ended(e),
                None if t.running > 0 => State::Running,
                None if t.done == 0 => State::NotStarted,
                None => State::InPlay,
            };
            (t, total, state)
        })
        .collect();
    Ok(StoreStatus {
        location: store.location(),
        tournaments,
        workers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::tests::{chess_and_squava, play};

    #[test]
    fn results_name_each_tournament_and_the_first_sides_colour() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("r.sqlite").display().to_string();
        chess_and_squava(&db);
        let all = results(&db, None).expect("results");
        let names: Vec<(&str, u64, u64)> = all
            .tournaments
            .iter()
            .map(|t| (t.name.as_str(), t.done, t.total))
            .collect();
        assert_eq!(names, [("c", 2, 2), ("s", 2, 2)]);
        assert!(
            all.tournaments.iter().all(|t| t.ending.is_some()),
            "all played"
        );
        assert_eq!(all.first_colour, None, "chess and squava: no one colour");
        assert_eq!(all.first_side.games(), 4);
        assert_eq!(all.copies_note, None);
        let chess = results(&db, Some("c")).expect("results");
        assert_eq!(chess.tournaments.len(), 1);
        assert_eq!(chess.first_colour, Some("White"));
        assert_eq!(chess.standings.players, ["random_move", "first_move"]);
        assert_eq!(chess.standings.totals["first_move"].games(), 2);
    }

    #[test]
    fn status_totals_each_tournaments_jobs_and_names_its_state() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = dir.path().join("t.sqlite").display().to_string();
        play(&db, "c", GameKind::Chess, ["random_move", "first_move"]);
        let s = status(&db).expect("status");
        assert_eq!(s.tournaments.len(), 1);
        let (t, total, state) = &s.tournaments[0];
        assert_eq!((t.name.as_str(), t.done, *total), ("c", 2, 2));
        assert_eq!(state.to_string(), "finished: all 2 games played");
        assert_eq!(State::NotStarted.to_string(), "not started");
        assert_eq!(State::InPlay.to_string(), "in play");
        assert!(s.location.contains("t.sqlite"), "{}", s.location);
    }
}
