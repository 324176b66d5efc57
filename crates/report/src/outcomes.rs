//! Win/draw/loss counts per ordered pair: the table every picture here starts from.

use crate::ReportError;
pub use eloworld_ratings::Wdl;
use std::collections::HashMap;

/// Counts per ordered pair (White, Black) of a set of players.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutcomeTable {
    players: Vec<String>,
    index: HashMap<String, usize>,
    /// Row-major: `cells[white * n + black]`.
    cells: Vec<Wdl>,
}

impl OutcomeTable {
    /// Makes an empty table of these players (duplicates are kept once).
    #[must_use]
    pub fn new(players: &[String]) -> OutcomeTable {
        let mut t = OutcomeTable::default();
        for p in players {
            t.player_index(p);
        }
        t
    }

    /// Makes a table from games `(white, black, white's score)`; players named by the games
    /// and not in `players` are appended in the order they appear.
    #[must_use]
    pub fn from_games<'a>(
        players: &[String],
        games: impl IntoIterator<Item = (&'a str, &'a str, f64)>,
    ) -> OutcomeTable {
        let mut t = OutcomeTable::new(players);
        for (white, black, score) in games {
            t.add_named(white, black, score);
        }
        t
    }

    /// Returns the index of `name`, adding the player when new.
    pub fn player_index(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let n = self.players.len();
        let mut cells = vec![Wdl::default(); (n + 1) * (n + 1)];
        for w in 0..n {
            cells[w * (n + 1)..w * (n + 1) + n].copy_from_slice(&self.cells[w * n..(w + 1) * n]);
        }
        self.cells = cells;
        self.players.push(name.to_owned());
        self.index.insert(name.to_owned(), n);
        n
    }

    /// Adds one game by player names.
    pub fn add_named(&mut self, white: &str, black: &str, white_score: f64) {
        let w = self.player_index(white);
        let b = self.player_index(black);
        let n = self.players.len();
        self.cells[w * n + b].add(white_score);
    }

    /// Adds counts to the cell of an ordered pair of player indices.
    ///
    /// # Errors
    /// [`ReportError::Inconsistent`] when an index is out of range.
    pub fn add_counts(
        &mut self,
        white: usize,
        black: usize,
        counts: Wdl,
    ) -> Result<(), ReportError> {
        let n = self.players.len();
        if white >= n || black >= n {
            return Err(ReportError::Inconsistent(format!(
                "pair ({white}, {black}) in a table of {n} players"
            )));
        }
        self.cells[white * n + black] += counts;
        Ok(())
    }

    /// Returns the players, in table order.
    #[must_use]
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Returns the number of players.
    #[must_use]
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Says whether the table has no players.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// Returns the counts of White `white` against Black `black` (indices).
    ///
    /// # Panics
    /// When an index is out of range.
    #[must_use]
    pub fn cell(&self, white: usize, black: usize) -> Wdl {
        self.cells[white * self.players.len() + black]
    }

    /// Returns player `i`'s results with both colours, from its own side.
    #[must_use]
    pub fn totals(&self, i: usize) -> Wdl {
        let mut t = Wdl::default();
        for j in 0..self.players.len() {
            t += self.cell(i, j);
            t += self.cell(j, i).swapped();
        }
        t
    }

    /// Returns player `i`'s results against player `j` with both colours, from `i`'s side.
    #[must_use]
    pub fn head_to_head(&self, i: usize, j: usize) -> Wdl {
        let mut t = self.cell(i, j);
        if i != j {
            t += self.cell(j, i).swapped();
        }
        t
    }

    /// Returns the number of games in the table.
    #[must_use]
    pub fn total_games(&self) -> u64 {
        self.cells.iter().map(Wdl::games).sum()
    }

    /// Returns each player's score fraction (points over games; ½ for a player with none).
    #[must_use]
    pub fn score_fractions(&self) -> Vec<f64> {
        (0..self.len())
            .map(|i| {
                let t = self.totals(i);
                if t.games() == 0 {
                    0.5
                } else {
                    t.points() / t.games() as f64
                }
            })
            .collect()
    }

    /// Returns the player order from weakest to strongest by `keys` (one per player, higher is
    /// stronger; ties broken by name).
    ///
    /// # Errors
    /// [`ReportError::Inconsistent`] when `keys` has the wrong length.
    pub fn weakest_first(&self, keys: &[f64]) -> Result<Vec<usize>, ReportError> {
        if keys.len() != self.len() {
            return Err(ReportError::Inconsistent(format!(
                "{} sort keys for {} players",
                keys.len(),
                self.len()
            )));
        }
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| {
            keys[a]
                .total_cmp(&keys[b])
                .then_with(|| self.players[a].cmp(&self.players[b]))
        });
        Ok(order)
    }

    /// Returns the table with its players in `order` (a permutation of indices).
    ///
    /// # Errors
    /// [`ReportError::Inconsistent`] when `order` is not a permutation of the players.
    pub fn reordered(&self, order: &[usize]) -> Result<OutcomeTable, ReportError> {
        let n = self.len();
        let mut seen = vec![false; n];
        for &i in order {
            if i >= n || std::mem::replace(&mut seen[i], true) {
                return Err(ReportError::Inconsistent(format!(
                    "order {order:?} is not a permutation of {n} players"
                )));
            }
        }
        if order.len() != n {
            return Err(ReportError::Inconsistent(format!(
                "order has {} players, the table {n}",
                order.len()
            )));
        }
        let players: Vec<String> = order.iter().map(|&i| self.players[i].clone()).collect();
        let mut t = OutcomeTable::new(&players);
        for (a, &i) in order.iter().enumerate() {
            for (b, &j) in order.iter().enumerate() {
                t.cells[a * n + b] = self.cell(i, j);
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn games_fill_ordered_cells_and_totals_see_both_colours() {
        let t = OutcomeTable::from_games(
            &names(&["a", "b"]),
            [
                ("a", "b", 1.0),
                ("a", "b", 0.5),
                ("b", "a", 1.0),
                ("c", "a", 0.0),
            ],
        );
        assert_eq!(t.players(), names(&["a", "b", "c"]).as_slice());
        assert_eq!(t.cell(0, 1), Wdl::new(1, 1, 0));
        assert_eq!(t.cell(1, 0), Wdl::new(1, 0, 0));
        assert_eq!(t.cell(2, 0), Wdl::new(0, 0, 1));
        // a: win + draw as White vs b, loss as Black vs b, win as Black vs c.
        assert_eq!(t.totals(0), Wdl::new(2, 1, 1));
        assert_eq!(t.head_to_head(0, 1), Wdl::new(1, 1, 1));
        assert_eq!(t.total_games(), 4);
        assert_eq!(t.score_fractions(), vec![2.5 / 4.0, 1.5 / 3.0, 0.0]);
    }

    #[test]
    fn reordering_moves_cells_with_their_players() {
        let t = OutcomeTable::from_games(&[], [("a", "b", 1.0), ("b", "c", 0.0), ("c", "a", 0.5)]);
        let order = t.weakest_first(&[3.0, 1.0, 2.0]).expect("keys");
        assert_eq!(order, vec![1, 2, 0]);
        let r = t.reordered(&order).expect("permutation");
        assert_eq!(r.players(), names(&["b", "c", "a"]).as_slice());
        assert_eq!(r.cell(2, 0), Wdl::new(1, 0, 0)); // a vs b
        assert_eq!(r.cell(0, 1), Wdl::new(0, 0, 1)); // b vs c
        assert_eq!(r.cell(1, 2), Wdl::new(0, 1, 0)); // c vs a
        assert!(t.reordered(&[0, 0, 1]).is_err());
        assert!(t.reordered(&[0, 1]).is_err());
        assert!(t.weakest_first(&[1.0]).is_err());
    }
}
