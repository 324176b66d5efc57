//! The input of every method: a list of games between named players, in the order played, and
//! the counts per ordered pair that most methods work on.

use std::collections::HashMap;

/// Index of a player in a [`Games`] (its position in [`Games::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u32);

impl PlayerId {
    /// Returns the index as `usize`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The result of one game for the first-named player (White when colours are known).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The first player lost.
    Loss = 0,
    /// A draw.
    Draw = 1,
    /// The first player won.
    Win = 2,
}

impl Score {
    /// Returns the first player's points: 0, ½ or 1.
    #[must_use]
    pub fn points(self) -> f64 {
        f64::from(self as u8) * 0.5
    }

    /// Returns the result seen from the other player.
    #[must_use]
    pub const fn reversed(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }

    /// Reads the first player's points (1, ½ or 0, as from a result `1-0`, `1/2-1/2`, `0-1`).
    #[must_use]
    pub fn from_points(points: f64) -> Option<Score> {
        if points == 1.0 {
            Some(Score::Win)
        } else if points == 0.5 {
            Some(Score::Draw)
        } else if points == 0.0 {
            Some(Score::Loss)
        } else {
            None
        }
    }
}

/// One game: who played it, the first player's result, whether the first player is known to
/// have had the first move (White), and the period (year) it belongs to, if known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The first-named player (White when `coloured`).
    pub first: PlayerId,
    /// The second-named player (Black when `coloured`).
    pub second: PlayerId,
    /// The first player's result.
    pub score: Score,
    /// True when `first` had the first move.
    pub coloured: bool,
    /// The period (year) of the game, if known.
    pub period: Option<i32>,
}

/// How names that differ only in case are matched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NameCase {
    /// `Fungo` and `FunGo` are one player (the first spelling is kept).
    #[default]
    Fold,
    /// Names are matched exactly (stored player specs are identities).
    Exact,
}

/// The former name of [`Games`].
pub type GameList = Games;

/// The most characters of a player's name shown in notes and aligned tables.
pub const SHOWN_NAME_CHARS: usize = 60;

/// Returns `name` cut to [`SHOWN_NAME_CHARS`] characters, ending in `…` when cut: for notes and
/// aligned text only; data (CSV, JSON, the store) keeps names whole.
///
/// ```
/// use eloworld_ratings::shown_name;
/// assert_eq!(shown_name("stockfish"), "stockfish");
/// assert_eq!(shown_name(&"n".repeat(70_000)).chars().count(), 60);
/// ```
pub fn shown_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.char_indices().nth(SHOWN_NAME_CHARS) {
        None => std::borrow::Cow::Borrowed(name),
        Some(_) => {
            let mut out: String = name.chars().take(SHOWN_NAME_CHARS - 1).collect();
            out.push('…');
            std::borrow::Cow::Owned(out)
        }
    }
}

/// Games in the order they were played, with the players' names.
///
/// Names are matched without regard to case by default (`Fungo` and `FunGo` in the Rollason's computer-Go ratings
/// tables are one program): the first spelling seen is kept and the others are listed by
/// [`Games::merged_spellings`]. [`Games::case_sensitive`] keeps them apart.
///
/// # Examples
/// ```
/// use eloworld_ratings::{Games, Score};
/// let mut games = Games::new();
/// games.add("Alice", "bob", Score::Win, true, None);
/// games.add("Bob", "alice", Score::Draw, true, None);
/// assert_eq!(games.names(), ["Alice", "bob"]);
/// assert_eq!(games.merged_spellings(), [("bob".to_owned(), "Bob".to_owned()), ("Alice".to_owned(), "alice".to_owned())]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Games {
    names: Vec<String>,
    exact: HashMap<String, PlayerId>,
    folded: HashMap<String, PlayerId>,
    case_sensitive: bool,
    merged: Vec<(String, String)>,
    games: Vec<GameRecord>,
}

impl Games {
    /// Creates an empty list that matches names without regard to case.
    #[must_use]
    pub fn new() -> Games {
        Games::default()
    }

    /// Creates an empty list that keeps names differing only in case apart.
    #[must_use]
    pub fn case_sensitive() -> Games {
        Games {
            case_sensitive: true,
            ..Games::default()
        }
    }

    /// Creates an empty list that matches names as `case` says.
    #[must_use]
    pub fn with_names(case: NameCase) -> Games {
        match case {
            NameCase::Fold => Games::new(),
            NameCase::Exact => Games::case_sensitive(),
        }
    }

    /// Returns the number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Returns true when there are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Returns the id of a player, adding the name if it is new.
    pub fn player(&mut self, name: &str) -> PlayerId {
        if let Some(&id) = self.exact.get(name) {
            return id;
        }
        let id = if self.case_sensitive {
            None
        } else {
            self.folded.get(&name.to_lowercase()).copied()
        };
        let id = match id {
            Some(id) => {
                self.merged
                    .push((self.names[id.index()].clone(), name.to_owned()));
                id
            }
            None => {
                let id = PlayerId(u32::try_from(self.names.len()).unwrap_or(u32::MAX));
                self.names.push(name.to_owned());
                if !self.case_sensitive {
                    self.folded.insert(name.to_lowercase(), id);
                }
                id
            }
        };
        self.exact.insert(name.to_owned(), id);
        id
    }

    /// Returns the id of a known player (matched as [`Games::player`] matches), if any.
    #[must_use]
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        self.exact.get(name).copied().or_else(|| {
            if self.case_sensitive {
                None
            } else {
                self.folded.get(&name.to_lowercase()).copied()
            }
        })
    }

    /// Appends a game between two named players; `score` is the first player's result.
    pub fn add(
        &mut self,
        first: &str,
        second: &str,
        score: Score,
        coloured: bool,
        period: Option<i32>,
    ) {
        let first = self.player(first);
        let second = self.player(second);
        self.games.push(GameRecord {
            first,
            second,
            score,
            coloured,
            period,
        });
    }

    /// Appends a game between known players.
    pub fn push(&mut self, game: GameRecord) {
        self.games.push(game);
    }

    /// Returns the players' names; a [`PlayerId`] indexes it.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Returns the games in order.
    #[must_use]
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// Returns (kept spelling, merged spelling) for every name merged with another one that
    /// differs only in case.
    #[must_use]
    pub fn merged_spellings(&self) -> &[(String, String)] {
        &self.merged
    }

    /// Returns the number of players.
    #[must_use]
    pub fn player_count(&self) -> usize {
        self.names.len()
    }

    /// Returns the distinct periods of the games, sorted (`None`, games without a date, first).
    #[must_use]
    pub fn periods(&self) -> Vec<Option<i32>> {
        let mut p: Vec<Option<i32>> = self.games.iter().map(|g| g.period).collect();
        p.sort_unstable();
        p.dedup();
        p
    }

    /// Returns the games of one period, with only the players who played in it.
    #[must_use]
    pub fn period(&self, period: Option<i32>) -> Games {
        let mut out = Games {
            case_sensitive: self.case_sensitive,
            ..Games::default()
        };
        for g in self.games.iter().filter(|g| g.period == period) {
            let first = out.player(&self.names[g.first.index()]);
            let second = out.player(&self.names[g.second.index()]);
            out.games.push(GameRecord {
                first,
                second,
                ..*g
            });
        }
        out
    }

    /// Returns the first `len` games, with every player (those without a game among them
    /// too, so that player ids stay the same).
    #[must_use]
    pub fn prefix(&self, len: usize) -> Games {
        let mut out = self.clone();
        out.games.truncate(len);
        out
    }

    /// Counts the games per ordered pair.
    #[must_use]
    pub fn counts(&self) -> PairCounts {
        PairCounts::from_games(self.names.len(), &self.games)
    }
}

/// A table cell's games counted by [`Score`] of the row player, `[losses, draws, wins]`:
/// the compact form the count tables keep per ordered pair (read it as a
/// [`crate::Wdl`] with [`crate::Wdl::from_score_counts`]).
pub type ScoreCounts = [u32; 3];

/// Game counts per ordered pair of players: the input of the count-based methods.
///
/// Games with known colours are kept per (White, Black) cell; games whose colours are unknown
/// are kept apart per (first, second) cell. Games of a player against itself are not counted
/// (they tell nothing about strength) but their number is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairCounts {
    n: usize,
    coloured: Vec<ScoreCounts>,
    uncoloured: Vec<ScoreCounts>,
    self_play: u64,
}

impl PairCounts {
    /// Creates empty counts for `n` players.
    #[must_use]
    pub fn new(n: usize) -> PairCounts {
        PairCounts {
            n,
            coloured: vec![[0; 3]; n * n],
            uncoloured: vec![[0; 3]; n * n],
            self_play: 0,
        }
    }

    /// Counts games among `n` players.
    #[must_use]
    pub fn from_games(n: usize, games: &[GameRecord]) -> PairCounts {
        let mut c = PairCounts::new(n);
        for g in games {
            c.add(g.first, g.second, g.score, g.coloured, 1);
        }
        c
    }

    /// Adds `count` games with the same result.
    pub fn add(
        &mut self,
        first: PlayerId,
        second: PlayerId,
        score: Score,
        coloured: bool,
        count: u32,
    ) {
        if first == second {
            self.self_play += u64::from(count);
            return;
        }
        let cell = first.index() * self.n + second.index();
        let table = if coloured {
            &mut self.coloured
        } else {
            &mut self.uncoloured
        };
        table[cell][score as usize] += count;
    }

    /// Returns the number of players.
    #[must_use]
    pub const fn n(&self) -> usize {
        self.n
    }

    /// Adds the counts of `other` (the same players).
    pub fn merge(&mut self, other: &PairCounts) {
        for (a, b) in self.coloured.iter_mut().zip(&other.coloured) {
            (0..3).for_each(|k| a[k] += b[k]);
        }
        for (a, b) in self.uncoloured.iter_mut().zip(&other.uncoloured) {
            (0..3).for_each(|k| a[k] += b[k]);
        }
        self.self_play += other.self_play;
    }

    /// Returns the counts of games with known colours, White `white` against Black `black`.
    #[must_use]
    pub fn coloured(&self, white: usize, black: usize) -> ScoreCounts {
        self.coloured[white * self.n + black]
    }

    /// Returns the counts of games with unknown colours, listed as `first` against `second`.
    #[must_use]
    pub fn uncoloured(&self, first: usize, second: usize) -> ScoreCounts {
        self.uncoloured[first * self.n + second]
    }

    /// Returns true when some game has unknown colours.
    #[must_use]
    pub fn has_uncoloured(&self) -> bool {
        self.uncoloured.iter().any(|c| c.iter().any(|&x| x > 0))
    }

    /// Returns `i`'s [losses, draws, wins] against `j` over every game between them, whatever
    /// the colours.
    #[must_use]
    pub fn pair(&self, i: usize, j: usize) -> ScoreCounts {
        let n = self.n;
        let a = self.coloured[i * n + j];
        let b = self.coloured[j * n + i];
        let c = self.uncoloured[i * n + j];
        let d = self.uncoloured[j * n + i];
        [
            a[0] + b[2] + c[0] + d[2],
            a[1] + b[1] + c[1] + d[1],
            a[2] + b[0] + c[2] + d[0],
        ]
    }

    /// Returns the number of games between `i` and `j`.
    #[must_use]
    pub fn games_between(&self, i: usize, j: usize) -> u64 {
        self.pair(i, j).iter().map(|&x| u64::from(x)).sum()
    }

    /// Returns each player's wins, draws and losses over all games (self-play left out).
    #[must_use]
    pub fn totals(&self) -> Vec<crate::Wdl> {
        (0..self.n)
            .map(|i| {
                let mut total = crate::Wdl::default();
                for j in (0..self.n).filter(|&j| j != i) {
                    total += crate::Wdl::from_score_counts(self.pair(i, j));
                }
                total
            })
            .collect()
    }

    /// Returns the number of games a player played against itself (left out of every method).
    #[must_use]
    pub const fn self_play(&self) -> u64 {
        self.self_play
    }

    /// Returns the groups of players linked by games (connected components), largest first;
    /// players without games form groups of one.
    #[must_use]
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.n;
        let mut group = vec![usize::MAX; n];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for start in 0..n {
            if group[start] != usize::MAX {
                continue;
            }
            let g = groups.len();
            let mut members = vec![start];
            group[start] = g;
            let mut k = 0;
            while k < members.len() {
                let i = members[k];
                k += 1;
                for (j, slot) in group.iter_mut().enumerate() {
                    if *slot == usize::MAX && self.games_between(i, j) > 0 {
                        *slot = g;
                        members.push(j);
                    }
                }
            }
            members.sort_unstable();
            groups.push(members);
        }
        groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        groups
    }
}

/// Returns the year of a date such as `1999.05.12` or `2001-03-04` (None for `????.??.??`):
/// the rating period of a game read from a PGN Date header or a store.
#[must_use]
pub fn year(date: &str) -> Option<i32> {
    let digits = date.get(..4)?;
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_fold_colours_and_skip_self_play() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("b", "a", Score::Win, true, None);
        g.add("a", "b", Score::Draw, false, None);
        g.add("a", "a", Score::Win, true, None);
        let c = g.counts();
        assert_eq!(c.pair(0, 1), [1, 1, 1]);
        assert_eq!(c.pair(1, 0), [1, 1, 1]);
        assert_eq!(c.coloured(1, 0), [0, 0, 1]);
        assert_eq!(c.self_play(), 1);
        assert!(c.has_uncoloured());
    }

    #[test]
    fn a_name_spelled_twice_with_different_case_is_one_player() {
        let mut g = Games::new();
        g.add("Fungo", "Aya", Score::Win, true, None);
        g.add("FunGo", "aya", Score::Loss, true, None);
        assert_eq!(g.player_count(), 2);
        assert_eq!(g.merged_spellings().len(), 2);
        let mut s = Games::case_sensitive();
        s.add("Fungo", "Aya", Score::Win, true, None);
        s.add("FunGo", "aya", Score::Loss, true, None);
        assert_eq!(s.player_count(), 4);
    }

    #[test]
    fn groups_find_disconnected_pairs() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, None);
        g.add("c", "d", Score::Win, true, None);
        g.add("e", "c", Score::Draw, true, None);
        assert_eq!(g.counts().groups(), vec![vec![2, 3, 4], vec![0, 1]]);
    }

    #[test]
    fn period_keeps_only_its_games_and_players() {
        let mut g = Games::new();
        g.add("a", "b", Score::Win, true, Some(1999));
        g.add("c", "b", Score::Win, true, Some(2000));
        assert_eq!(g.periods(), vec![Some(1999), Some(2000)]);
        let p = g.period(Some(2000));
        assert_eq!(p.names(), ["c", "b"]);
        assert_eq!(p.games().len(), 1);
    }
}
