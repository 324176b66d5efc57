//! The one conversion of stored results into the games the ratings crate rates.

use crate::store::{GameRow, ResultRow};
use eloworld_games::{GameResult, Side};
use eloworld_ratings::{io::year, Games, Score};

/// Returns White's score of a stored result.
#[must_use]
pub const fn score(result: GameResult) -> Score {
    match result {
        GameResult::Win(Side::First) => Score::Win,
        GameResult::Win(Side::Second) => Score::Loss,
        GameResult::Draw => Score::Draw,
    }
}

/// A stored game as rating sees it: White's and Black's specs, the result, the finish date.
pub trait RatedGame {
    /// White's spec.
    fn white(&self) -> &str;
    /// Black's spec.
    fn black(&self) -> &str;
    /// The result.
    fn result(&self) -> GameResult;
    /// The day it finished (`YYYY.MM.DD`), empty if unknown.
    fn date(&self) -> &str;
}

/// Implements [`RatedGame`] for a stored row with `white`, `black`, `result` and `date`.
macro_rules! rated_game {
    ($row:ty) => {
        impl RatedGame for $row {
            fn white(&self) -> &str {
                &self.white
            }
            fn black(&self) -> &str {
                &self.black
            }
            fn result(&self) -> GameResult {
                self.result
            }
            fn date(&self) -> &str {
                &self.date
            }
        }
    };
}

rated_game!(ResultRow);
rated_game!(GameRow);

/// Appends stored games to `games` in the order given (colours known, dated by the year they
/// finished). Players already in `games` keep their ids, so a caller can fix the order.
///
/// # Examples
/// ```
/// use eloworld_ratings::Games;
/// let mut games = Games::case_sensitive();
/// eloworld_tournament::add_results(&mut games, &Vec::<eloworld_tournament::ResultRow>::new());
/// assert!(games.is_empty());
/// ```
pub fn add_results<G: RatedGame>(games: &mut Games, rows: &[G]) {
    for r in rows {
        games.add(
            r.white(),
            r.black(),
            score(r.result()),
            true,
            year(r.date()),
        );
    }
}

/// Returns stored games as the ratings crate takes them; specs are identities, so names are
/// matched exactly.
#[must_use]
pub fn games_to_rate<G: RatedGame>(rows: &[G]) -> Games {
    let mut games = Games::case_sensitive();
    add_results(&mut games, rows);
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::Termination;

    fn row(white: &str, black: &str, result: GameResult, date: &str) -> ResultRow {
        ResultRow {
            tournament: "t".to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            result,
            termination: Termination::Checkmate,
            plies: 10,
            date: date.to_owned(),
        }
    }

    #[test]
    fn every_result_is_converted_and_dated() {
        let rows = [
            row("a", "B", GameResult::Win(Side::First), "2024.01.02"),
            row("B", "a", GameResult::Win(Side::Second), "????.??.??"),
            row("a", "b", GameResult::Draw, ""),
        ];
        let games = games_to_rate(&rows);
        assert_eq!(games.names(), ["a", "B", "b"]);
        let g = games.games();
        assert_eq!(
            g.iter().map(|g| g.score).collect::<Vec<_>>(),
            [Score::Win, Score::Loss, Score::Draw]
        );
        assert_eq!(g[0].period, Some(2024));
        assert_eq!(g[1].period, None);
        assert!(g.iter().all(|g| g.coloured));
    }
}
