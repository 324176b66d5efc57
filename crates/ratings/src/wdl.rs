//! The one count vocabulary every crate uses: wins, draws and losses ([`Wdl`]), and a
//! match counted in game pairs as well ([`PairedScore`]: W/D/L, the pentanomial counts of
//! finished pairs, and the pairs still open).

/// Wins, draws and losses of one side of a set of games (an ordered pair from White's
/// point of view, a player's total, a match): the one count every table here is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Makes a count.
    #[must_use]
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Returns the number of games.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Returns the points: a win is 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Adds one game with the score `score` (1, ½ or 0; above ¾ counts as a win, below ¼
    /// as a loss).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Adds one game scored `score` for this side.
    pub fn add_score(&mut self, score: crate::Score) {
        match score {
            crate::Score::Win => self.wins += 1,
            crate::Score::Draw => self.draws += 1,
            crate::Score::Loss => self.losses += 1,
        }
    }

    /// The counts of a table cell indexed by [`crate::Score`] (`[losses, draws, wins]`).
    #[must_use]
    pub fn from_score_counts(cell: crate::ScoreCounts) -> Wdl {
        Wdl {
            wins: u64::from(cell[2]),
            draws: u64::from(cell[1]),
            losses: u64::from(cell[0]),
        }
    }

    /// Returns the score in percent (wins and half the draws over games; 0 without games).
    #[must_use]
    pub fn score_pct(&self) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let games = self.games() as f64;
        100.0 * self.points() / games
    }

    /// Returns the same games seen from the other side.
    #[must_use]
    pub const fn swapped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// A match's score from its first player's side, counted in games and in game pairs (two
/// games from one opening with colours swapped, as fishtest and fastchess count them): the
/// W/D/L of every game, the pentanomial counts of the finished pairs, and the first game's
/// points of each pair still open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairedScore {
    /// Every game, from the first player's side.
    pub wdl: Wdl,
    /// Finished pairs.
    pub pairs: crate::sprt::Pentanomial,
    /// The games of the finished pairs: what fastchess reports while a pair is open (its
    /// `Games:` line is always twice the pairs, which fishtest's worker checks).
    pub paired_wdl: Wdl,
    /// The first player's points in the first finished game of each open pair, by pair.
    open: std::collections::HashMap<u32, f64>,
}

impl PairedScore {
    /// Counts a game the first player scored `first_points` in; `pair` keys its game pair
    /// when the match is played in pairs. Returns true when the game closed its pair.
    pub fn add(&mut self, first_points: f64, pair: Option<u32>) -> bool {
        self.wdl.add(first_points);
        let Some(pair) = pair else {
            return false;
        };
        match self.open.remove(&pair) {
            Some(earlier) => {
                self.pairs.add_pair(earlier, first_points);
                self.paired_wdl.add(earlier);
                self.paired_wdl.add(first_points);
                true
            }
            None => {
                self.open.insert(pair, first_points);
                false
            }
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// Pairs with one game counted so far.
    #[must_use]
    pub fn open_pairs(&self) -> usize {
        self.open.len()
    }

    /// The log-likelihood ratio of `sprt` on this score: on the pentanomial pairs when the
    /// match is played in pairs, else on the games' W/D/L.
    #[must_use]
    pub fn llr(&self, sprt: &crate::sprt::Sprt, paired: bool) -> f64 {
        if paired {
            sprt.llr(&self.pairs)
        } else {
            sprt.llr_trinomial(self.wdl.wins, self.wdl.draws, self.wdl.losses)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_reads_the_same_from_either_side() {
        let mut w = Wdl::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            w.add(s);
        }
        assert_eq!(w, Wdl::new(2, 1, 1));
        assert_eq!(w.points(), 2.5);
        assert_eq!(w.swapped(), Wdl::new(1, 1, 2));
        assert_eq!(w.swapped().points(), 1.5);
        assert_eq!(Wdl::from_score_counts([1, 1, 2]), w);
        let mut by_score = Wdl::default();
        by_score.add_score(crate::Score::Loss);
        assert_eq!(by_score, Wdl::new(0, 0, 1));
    }

    #[test]
    fn pairs_close_in_any_order_and_count_as_pentanomial() {
        let mut s = PairedScore::default();
        // Pair 0: win then draw (1.5 of 2); pair 1: loss, loss (0); pair 2: one game only.
        assert!(!s.add(1.0, Some(0)));
        assert!(!s.add(0.0, Some(1)));
        assert!(!s.add(0.5, Some(2)));
        assert!(s.add(0.5, Some(0)));
        assert!(s.add(0.0, Some(1)));
        assert_eq!(s.wdl, Wdl::new(1, 2, 2));
        assert_eq!(s.open_pairs(), 1);
        assert_eq!(s.pairs.pairs(), 2);
        assert_eq!(s.pairs.counts(), [1, 0, 0, 1, 0], "0 and 1.5 points");
        let mut single = PairedScore::default();
        assert!(!single.add(1.0, None));
        assert_eq!((single.games(), single.pairs.pairs()), (1, 0));
    }
}
