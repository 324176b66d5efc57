//! The built-in Go players: the light Monte-Carlo playout move (`random`), `first_legal`,
//! and greedy rules in the spirit of Murphy's Elo World (one simple preference, ties broken
//! at random); the GTP programs (GNU Go, Pachi, any `protocol = "gtp"` definition) are in
//! `eloworld_players_core::engine::gtp` (re-exported here as [`gtp`]).
//!
//! Every in-process player keeps to one rule of thumb Monte-Carlo Go programs share: it never
//! fills one of its own single-point eyes ([`Go::is_eye`]), and it passes when no other move
//! is left, so that games between them end with every group settled.
#![deny(missing_docs)]

pub use eloworld_players_core::engine::gtp;

use eloworld_games::go::Point;
use eloworld_games::{Game, GameRng, Go, GoMove, Side};
use eloworld_players_core::{Flags, Player, PlayerError, PlayerInfo, Registry};

/// Returns the placements the side to move may consider: legal, and not into its own eye.
fn candidates(game: &Go) -> Vec<Point> {
    let me = game.side_to_move();
    let mut points: Vec<Point> = game
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| !game.is_eye(p, me) && game.can_place(p))
        .collect();
    points.sort_unstable();
    points
}

/// Plays a uniformly random legal move that does not fill one of its own single-point
/// eyes, and passes when none is left: the light playout of Monte-Carlo Go.
#[derive(Clone, Debug, Default)]
pub struct RandomGo {
    pool: Vec<Point>,
}

impl RandomGo {
    /// Picks the move without allocating: draws empty points without replacement until one
    /// is acceptable, which is uniform over the acceptable points.
    #[inline]
    pub fn pick(&mut self, game: &Go, rng: &mut GameRng) -> GoMove {
        let me = game.side_to_move();
        self.pool.clear();
        self.pool.extend_from_slice(game.empty_points());
        // The list's order follows the game's moves, so a seed still means one game.
        let mut left = self.pool.len();
        while left > 0 {
            let i = rng.below(left);
            let p = self.pool[i];
            if !game.is_eye(p, me) && game.can_place(p) {
                return GoMove::Place(p);
            }
            left -= 1;
            self.pool.swap(i, left);
        }
        GoMove::Pass
    }
}

impl Player<Go> for RandomGo {
    #[inline]
    fn choose(&mut self, game: &Go, rng: &mut GameRng) -> Result<GoMove, PlayerError> {
        Ok(self.pick(game, rng))
    }

    fn reports_searches(&self) -> bool {
        false
    }

    /// Every point it plays passed [`Go::can_place`] as it was chosen, and a pass is legal.
    fn picks_from_legal_moves(&self) -> bool {
        true
    }
}

/// Plays the first acceptable point in vertex order (A1, B1, … along the bottom row, then
/// up), passing when none is left.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegal;

impl Player<Go> for FirstLegal {
    fn choose(&mut self, game: &Go, _rng: &mut GameRng) -> Result<GoMove, PlayerError> {
        Ok(candidates(game)
            .first()
            .map_or(GoMove::Pass, |&p| GoMove::Place(p)))
    }

    fn reports_searches(&self) -> bool {
        false
    }

    /// Every point it plays passed [`Go::can_place`] as it was chosen, and a pass is legal.
    fn picks_from_legal_moves(&self) -> bool {
        true
    }
}

/// What a greedy player maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greed {
    /// Stones captured by the move.
    Captures,
    /// Opponent stones left in atari after the move.
    Atari,
    /// The fewest liberties of any of its own groups after the move, then their total.
    Liberties,
}

impl Greed {
    /// Scores the move `p` for the side to move (higher is better).
    fn score(self, game: &Go, p: Point) -> (i64, i64) {
        let me: Side = game.side_to_move();
        match self {
            Greed::Captures => (i64::from(game.captures_by(p)), 0),
            Greed::Atari => {
                let mut after = game.clone();
                after.play(GoMove::Place(p));
                (i64::from(after.stones_in_atari(me.other())), 0)
            }
            Greed::Liberties => {
                let mut after = game.clone();
                after.play(GoMove::Place(p));
                let libs = after.group_liberties(me);
                let fewest = libs.iter().copied().min().unwrap_or(0);
                let total: u32 = libs.iter().sum();
                (i64::from(fewest), i64::from(total))
            }
        }
    }
}

/// Plays the acceptable move that scores best by its [`Greed`], at random among the best;
/// passes when no move is acceptable.
#[derive(Clone, Copy, Debug)]
pub struct Greedy(pub Greed);

impl Player<Go> for Greedy {
    fn choose(&mut self, game: &Go, rng: &mut GameRng) -> Result<GoMove, PlayerError> {
        let mut best: Vec<Point> = Vec::new();
        let mut best_score = (i64::MIN, i64::MIN);
        for p in candidates(game) {
            let s = self.0.score(game, p);
            if s > best_score {
                best_score = s;
                best.clear();
            }
            if s == best_score {
                best.push(p);
            }
        }
        Ok(if best.is_empty() {
            GoMove::Pass
        } else {
            GoMove::Place(rng.pick(&best))
        })
    }

    fn reports_searches(&self) -> bool {
        false
    }

    /// Every point it plays passed [`Go::can_place`] as it was chosen, and a pass is legal.
    fn picks_from_legal_moves(&self) -> bool {
        true
    }
}

/// The registry of every built-in Go player: the in-process ones and the GTP programs.
#[must_use]
pub fn builtin_players() -> Registry<Go> {
    let mut r = Registry::new();
    register(&mut r);
    r
}

/// Adds every built-in Go player to `r` (the GTP programs after the in-process players).
pub fn register(r: &mut Registry<Go>) {
    r.add_simple(
        PlayerInfo::new(
            "random",
            "a uniformly random legal move that does not fill its own single-point eye; passes when none is left (the light Monte-Carlo playout)",
            Flags::NONE,
        ),
        || Box::new(RandomGo::default()) as Box<dyn Player<Go>>,
    );
    eloworld_players_core::register_random_move(
        r,
        "a uniformly random legal move, passes and eye-filling moves included",
    );
    r.add_simple(
        PlayerInfo::new(
            "first_legal",
            "the first legal point in vertex order (A1, B1, …, then up) that is not its own eye; passes when none is left",
            Flags::DETERMINISTIC,
        ),
        || Box::new(FirstLegal) as Box<dyn Player<Go>>,
    );
    for (name, greed, description) in [
        (
            "greedy_capture",
            Greed::Captures,
            "captures the most stones; random among equals",
        ),
        (
            "greedy_atari",
            Greed::Atari,
            "leaves the most opponent stones in atari; random among equals",
        ),
        (
            "greedy_liberties",
            Greed::Liberties,
            "keeps its own groups' liberties highest (the fewest of any group, then the total); random among equals",
        ),
    ] {
        r.add_simple(PlayerInfo::new(name, description, Flags::NONE), move || {
            Box::new(Greedy(greed)) as Box<dyn Player<Go>>
        });
    }
    gtp::register(r);
}

#[cfg(test)]
mod tests;
