//! The one conversion of stored results into the games the ratings crate rates. A stored
//! game that repeats an earlier game of its ordered pair (a copy, [`crate::copies`]) is
//! counted once unless the caller keeps copies.

use crate::copies::{CopyRule, Distinct, GameIdentity};
use crate::store::{GameRow, ResultRow};
use eloworld_games::{GameResult, Side};
use eloworld_ratings::{year, Games, Score};

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
    /// What was played (start and moves): equal for two games of a pair that are copies.
    fn identity(&self) -> GameIdentity;
}

/// Implements [`RatedGame`]'s fields for a stored row with `white`, `black`, `result` and
/// `date`; `$identity` reads the row's identity.
macro_rules! rated_game {
    ($row:ty, $identity:expr) => {
        impl RatedGame for $row {
            fn identity(&self) -> GameIdentity {
                $identity(self)
            }
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

rated_game!(ResultRow, |r: &ResultRow| r.identity);
rated_game!(GameRow, |g: &GameRow| GameIdentity::of_codes(
    g.game,
    g.opening.as_deref(),
    &g.moves
));

/// Appends stored games to `games` in the order given (colours known, dated by the year they
/// finished), each repeat of an earlier game of its ordered pair among `rows` counted once
/// ([`add_results_with`] keeps what it saw across calls, or keeps copies). Players already
/// in `games` keep their ids, so a caller can fix the order.
///
/// # Examples
/// ```
/// use eloworld_ratings::Games;
/// let mut games = Games::case_sensitive();
/// eloworld_tournament::add_results(&mut games, &Vec::<eloworld_tournament::ResultRow>::new());
/// assert!(games.is_empty());
/// ```
pub fn add_results<G: RatedGame>(games: &mut Games, rows: &[G]) {
    add_results_with(games, rows, &mut Distinct::new(CopyRule::CountOnce));
}

/// Appends the games of `rows` that `distinct` admits (see [`add_results`]); `distinct`
/// remembers them, so games read batch by batch are judged against every earlier batch.
pub fn add_results_with<G: RatedGame>(games: &mut Games, rows: &[G], distinct: &mut Distinct) {
    for r in rows {
        if !distinct.admit(r.white(), r.black(), r.identity()) {
            continue;
        }
        games.add(
            r.white(),
            r.black(),
            score(r.result()),
            true,
            year(r.date()),
        );
    }
}

/// Returns stored games as the ratings crate takes them, copies counted once; specs are
/// identities, so names are matched exactly.
#[must_use]
pub fn games_to_rate<G: RatedGame>(rows: &[G]) -> Games {
    let mut games = Games::case_sensitive();
    add_results(&mut games, rows);
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copies::{Copies, PairCopies};
    use eloworld_games::Termination;

    fn row(white: &str, black: &str, result: GameResult, date: &str) -> ResultRow {
        played(white, black, result, date, "e2e4 e7e5")
    }

    /// A stored chess game from the standard start with these moves.
    fn played(white: &str, black: &str, result: GameResult, date: &str, moves: &str) -> ResultRow {
        ResultRow {
            tournament: "t".to_owned(),
            white: white.to_owned(),
            black: black.to_owned(),
            result,
            termination: Termination::Checkmate,
            plies: 10,
            date: date.to_owned(),
            identity: GameIdentity::of_codes(eloworld_games::GameKind::Chess, None, moves),
        }
    }

    #[test]
    fn every_result_is_converted_and_dated() {
        let rows = [
            row("a", "B", GameResult::Win(Side::First), "2024.01.02"),
            row("B", "a", GameResult::Win(Side::Second), "????.??.??"),
            row("a", "b", GameResult::Draw, ""),
        ];
        // The same moves by other ordered pairs are no copies.
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

    /// A–B: three copies of one win of A's and a distinct draw; B–A replays the win's moves.
    fn with_copies() -> Vec<ResultRow> {
        let win = "f2f3 e7e5 g2g4 d8h4";
        vec![
            played("A", "B", GameResult::Win(Side::Second), "2024.01.01", win),
            played("A", "B", GameResult::Win(Side::Second), "2024.01.01", win),
            played("A", "B", GameResult::Draw, "2024.01.01", "e2e4 e7e5"),
            played("A", "B", GameResult::Win(Side::Second), "2024.01.01", win),
            played("B", "A", GameResult::Win(Side::Second), "2024.01.01", win),
        ]
    }

    #[test]
    fn a_copy_is_counted_once_and_kept_on_request() {
        let rows = with_copies();
        let once = games_to_rate(&rows);
        assert_eq!(
            once.games()
                .iter()
                .map(|g| (once.names()[g.first.index()].as_str(), g.score))
                .collect::<Vec<_>>(),
            [("A", Score::Loss), ("A", Score::Draw), ("B", Score::Loss)]
        );
        let mut each = Games::case_sensitive();
        add_results_with(&mut each, &rows, &mut Distinct::new(CopyRule::CountEach));
        assert_eq!(each.games().len(), 5);
        // Batch by batch, a copy of an earlier batch's game is still a copy.
        let mut batches = Games::case_sensitive();
        let mut seen = Distinct::new(CopyRule::CountOnce);
        add_results_with(&mut batches, &rows[..2], &mut seen);
        add_results_with(&mut batches, &rows[2..], &mut seen);
        assert_eq!(batches.games().len(), 3);
    }

    #[test]
    fn copies_are_counted_by_pair() {
        let copies = Copies::of(&with_copies());
        assert_eq!(
            copies,
            Copies {
                games: 5,
                distinct: 3,
                pairs: vec![PairCopies {
                    white: "A".to_owned(),
                    black: "B".to_owned(),
                    games: 4,
                    distinct: 2
                }],
            }
        );
        assert_eq!(copies.copies(), 2);
        assert_eq!(
            copies.note(CopyRule::CountOnce, 3).as_deref(),
            Some("the games hold 2 copies of earlier games (5 games, 3 distinct per ordered pair, start and moves); the ratings count each once: A–B 4 games, 2 distinct")
        );
        assert_eq!(
            Copies::of(&with_copies()[2..3]).note(CopyRule::CountOnce, 3),
            None
        );
    }

    #[test]
    fn an_identity_is_its_start_and_its_moves_in_any_stored_form() {
        let chess = eloworld_games::GameKind::Chess;
        let record = eloworld_games::MoveRecord::from_text(chess, "e2e4 e7e5").expect("moves");
        assert_eq!(
            GameIdentity::of(None, record.as_bytes()),
            GameIdentity::of_codes(chess, None, "e2e4  e7e5")
        );
        assert_ne!(
            GameIdentity::of(None, record.as_bytes()),
            GameIdentity::of(Some("8/8/8/8/8/8/8/K1k5 w - - 0 1"), record.as_bytes())
        );
        assert_ne!(
            GameIdentity::of_codes(chess, None, "e2e4"),
            GameIdentity::of_codes(chess, None, "e2e4 e7e5")
        );
        // Games without stored moves are never copies of one another.
        let forfeit = |result| ResultRow {
            identity: GameIdentity::of_codes(chess, None, ""),
            ..row("A", "B", result, "")
        };
        let rows = [forfeit(GameResult::Draw), forfeit(GameResult::Draw)];
        assert_eq!(games_to_rate(&rows).games().len(), 2);
        assert_eq!(Copies::of(&rows).copies(), 0);
    }
}
