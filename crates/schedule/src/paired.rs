//! The paired match of two players, as fastchess and cutechess-cli play it: games with
//! colours alternating, the first player White first. In pairs (`-games 2 -repeat`), each
//! two games in a row start from one opening with colours swapped, and the two games share
//! a round, which keys the pair (pentanomial counting); otherwise each game takes the next
//! opening. Used by `eloworld match` and by the evolution's report matches.

use super::{job, shuffle, JobSpec, MATCH_OPENINGS};

/// A paired match's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairedMatch {
    /// Games in all.
    pub games: u32,
    /// True: two games from each opening with colours swapped; false: an opening a game.
    pub paired: bool,
    /// The seed of every game.
    pub seed: u64,
    /// Who is White in which game.
    pub colours: Colours,
}

/// Who is White in a paired match's games (cutechess-cli's `-noswap` and `-reverse`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Colours {
    /// Colours alternate game by game (else the same side is White in every game).
    pub swap: bool,
    /// The second player is White first (else the first player is).
    pub reverse: bool,
}

impl Colours {
    /// Colours alternating, the first player White first.
    pub const ALTERNATE: Colours = Colours {
        swap: true,
        reverse: false,
    };

    /// `(white, black)` of game `i`.
    #[must_use]
    pub fn of_game(self, i: u32) -> (u32, u32) {
        let swapped = (self.swap && i % 2 == 1) != self.reverse;
        if swapped {
            (1, 0)
        } else {
            (0, 1)
        }
    }
}

impl PairedMatch {
    /// Openings the match reaches: one per pair (or per game), at least one.
    #[must_use]
    pub fn openings_needed(&self) -> usize {
        self.slot(self.games.saturating_sub(1)) as usize + 1
    }

    /// The opening slot of game `i`.
    fn slot(&self, i: u32) -> u32 {
        if self.paired {
            i / 2
        } else {
            i
        }
    }

    /// The jobs of the match between `players[0]` and `players[1]`; with openings, game `i`
    /// starts from its slot's opening (cycling when the book is shorter than the match).
    #[must_use]
    pub fn jobs(&self, players: &[String], openings: &[String]) -> Vec<JobSpec> {
        (0..self.games)
            .map(|i| {
                let opening = (!openings.is_empty()).then(|| self.slot(i) % openings.len() as u32);
                let colours = self.colours.of_game(i);
                // Each player's games as White are numbered in order; the two games of a
                // pair share that number.
                job(i, colours, i / 2, opening, players, openings, self.seed)
            })
            .collect()
    }
}

/// Orders a book as a match plays it — shuffled by `seed` when asked, from the `start`-th
/// opening (1-based) on — and keeps the first `reached`: only those are read further.
pub fn pick_openings<T>(
    list: &mut Vec<T>,
    shuffled: bool,
    start: usize,
    seed: u64,
    reached: usize,
) {
    if shuffled {
        shuffle(list, seed, MATCH_OPENINGS);
    }
    let skip = (start.max(1) - 1).min(list.len().saturating_sub(1));
    list.rotate_left(skip);
    list.truncate(reached);
}

/// The first player's points and the games played, from the stored results (by job key) of
/// a paired match: the first player is White in the even games.
#[must_use]
pub fn first_player_points(results: &[(u32, eloworld_games::GameResult)]) -> (f64, usize) {
    use eloworld_games::{GameResult, Side};
    let points = results
        .iter()
        .map(|&(key, result)| {
            let first_side = if key % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            match result {
                GameResult::Win(s) if s == first_side => 1.0,
                GameResult::Win(_) => 0.0,
                GameResult::Draw => 0.5,
            }
        })
        .sum();
    (points, results.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["a".to_owned(), "b".to_owned()]
    }

    #[test]
    fn pairs_share_an_opening_and_a_round_with_colours_swapped() {
        let m = PairedMatch {
            games: 6,
            paired: true,
            seed: 3,
            colours: Colours::ALTERNATE,
        };
        assert_eq!(m.openings_needed(), 3);
        let openings = vec!["x".to_owned(), "y".to_owned()];
        let jobs = m.jobs(&names(), &openings);
        let shape: Vec<(u32, u32, u32, Option<u32>)> = jobs
            .iter()
            .map(|j| (j.white, j.black, j.round, j.opening))
            .collect();
        assert_eq!(
            shape,
            [
                (0, 1, 0, Some(0)),
                (1, 0, 0, Some(0)),
                (0, 1, 1, Some(1)),
                (1, 0, 1, Some(1)),
                (0, 1, 2, Some(0)),
                (1, 0, 2, Some(0)),
            ]
        );
        assert_ne!(jobs[0].seed, jobs[1].seed, "the colours make the seed");
        let single = PairedMatch { paired: false, ..m };
        assert_eq!(single.openings_needed(), 6);
        let openings: Vec<u32> = single
            .jobs(&names(), &openings)
            .iter()
            .filter_map(|j| j.opening)
            .collect();
        assert_eq!(openings, [0, 1, 0, 1, 0, 1], "a new opening each game");
    }

    #[test]
    fn a_book_is_picked_from_its_start_and_cut_where_the_match_ends() {
        let mut list: Vec<u32> = (0..10).collect();
        pick_openings(&mut list, false, 3, 1, 4);
        assert_eq!(list, [2, 3, 4, 5]);
        let mut shuffled: Vec<u32> = (0..10).collect();
        pick_openings(&mut shuffled, true, 1, 1, 10);
        assert_ne!(shuffled, (0..10).collect::<Vec<_>>());
    }
}
