//! Win/draw/loss counts.

/// Wins, draws and losses of one side of a set of games (an ordered pair from White's
/// point of view, a player's total, a match): the one count every table here is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

    /// Adds one game with result `result`, counted for `side`.
    pub fn add_result(&mut self, result: crate::GameResult, side: crate::Side) {
        match result {
            crate::GameResult::Win(s) if s == side => self.wins += 1,
            crate::GameResult::Win(_) => self.losses += 1,
            crate::GameResult::Draw => self.draws += 1,
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
