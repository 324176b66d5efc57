//! Adjudication: ending games early that the engines' own scores have decided, as
//! cutechess-cli and fastchess do (`-resign`, `-draw`, `-maxmoves`).
//!
//! - **Resign**: when the side to move has reported a score at least `score` centipawns below
//!   zero for `movecount` consecutive moves of its own — and, with `twosided` (the default
//!   here), its opponent has reported at least `score` above zero for as many moves — it loses.
//! - **Draw**: once `movenumber` full moves are played, when both sides have reported scores
//!   within `score` centipawns of zero for `movecount` consecutive moves each, the game is
//!   drawn. A mate score breaks a run.

use eloworld_games::{Outcome, Side, Termination};
use eloworld_players::engine::Score;
use serde::{Deserialize, Serialize};

/// The resign rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRule {
    /// Consecutive moves the scores must agree.
    pub move_count: u32,
    /// Centipawns past which a side is lost.
    pub score: i32,
    /// Whether the winner must agree (its score at least `score` above zero) as well.
    pub two_sided: bool,
}

/// The draw rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRule {
    /// The first full move at which a draw may be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each side with a level score.
    pub move_count: u32,
    /// Centipawns within which a score is level.
    pub score: i32,
}

/// The adjudication rules of a tournament (none by default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudication {
    /// The resign rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// The draw rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
}

impl Adjudication {
    /// Returns whether no rule is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.resign.is_none() && self.draw.is_none()
    }
}

/// Per-side runs of scores within one game.
#[derive(Clone, Copy, Debug, Default)]
struct Runs {
    losing: u32,
    winning: u32,
    level: u32,
}

/// Watches the scores of one game and says when a rule ends it.
#[derive(Clone, Debug)]
pub struct Referee<'a> {
    rules: &'a Adjudication,
    runs: [Runs; 2],
}

impl<'a> Referee<'a> {
    /// Starts watching a game under `rules`.
    #[must_use]
    pub fn new(rules: &'a Adjudication) -> Referee<'a> {
        Referee {
            rules,
            runs: [Runs::default(); 2],
        }
    }

    /// Records the score `mover` reported for the move it just made (from its own side;
    /// `None` when it reported none) and returns the outcome when a rule ends the game.
    /// `full_moves` is the number of full moves played so far.
    pub fn after_move(
        &mut self,
        mover: Side,
        score: Option<Score>,
        full_moves: u32,
    ) -> Option<Outcome> {
        let runs = &mut self.runs[mover.index()];
        let bump = |run: &mut u32, on: bool| *run = if on { *run + 1 } else { 0 };
        let centipawns = match score {
            Some(Score::Centipawns(cp)) => Some(cp),
            _ => None,
        };
        let mate = |sign: i32| matches!(score, Some(Score::Mate(n)) if n.signum() == sign);
        if let Some(rule) = self.rules.resign {
            bump(
                &mut runs.losing,
                centipawns.is_some_and(|cp| cp <= -rule.score) || mate(-1),
            );
            bump(
                &mut runs.winning,
                centipawns.is_some_and(|cp| cp >= rule.score) || mate(1),
            );
        }
        if let Some(rule) = self.rules.draw {
            bump(
                &mut runs.level,
                centipawns.is_some_and(|cp| cp.abs() <= rule.score),
            );
        }
        if let Some(rule) = self.rules.resign {
            for loser in [mover, mover.other()] {
                let lost = self.runs[loser.index()].losing >= rule.move_count;
                let agreed =
                    !rule.two_sided || self.runs[loser.other().index()].winning >= rule.move_count;
                if lost && agreed {
                    return Some(Outcome::win(loser.other(), Termination::ResignAdjudication));
                }
            }
        }
        if let Some(rule) = self.rules.draw {
            if full_moves >= rule.move_number
                && self.runs.iter().all(|r| r.level >= rule.move_count)
            {
                return Some(Outcome::draw(Termination::DrawAdjudication));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESIGN: Adjudication = Adjudication {
        resign: Some(ResignRule {
            move_count: 3,
            score: 600,
            two_sided: true,
        }),
        draw: None,
    };

    fn cp(v: i32) -> Option<Score> {
        Some(Score::Centipawns(v))
    }

    #[test]
    fn both_sides_must_agree_for_movecount_moves_to_resign() {
        let mut r = Referee::new(&RESIGN);
        // White sees itself winning, Black agrees it is lost: the third agreeing pair ends it.
        for n in 1..3 {
            assert_eq!(r.after_move(Side::First, cp(700), n), None);
            assert_eq!(r.after_move(Side::Second, cp(-650), n), None);
        }
        assert_eq!(r.after_move(Side::First, cp(800), 3), None);
        assert_eq!(
            r.after_move(Side::Second, cp(-900), 3),
            Some(Outcome::win(Side::First, Termination::ResignAdjudication))
        );
    }

    #[test]
    fn a_disagreeing_or_interrupted_run_does_not_resign() {
        let mut r = Referee::new(&RESIGN);
        for n in 1..10 {
            // White believes it wins; Black does not agree.
            assert_eq!(r.after_move(Side::First, cp(700), n), None);
            assert_eq!(r.after_move(Side::Second, cp(-100), n), None);
        }
        let one_sided = Adjudication {
            resign: Some(ResignRule {
                two_sided: false,
                ..RESIGN.resign.expect("set")
            }),
            draw: None,
        };
        let mut r = Referee::new(&one_sided);
        assert_eq!(r.after_move(Side::Second, cp(-700), 1), None);
        assert_eq!(r.after_move(Side::Second, cp(-700), 2), None);
        // A score back above the line restarts the run.
        assert_eq!(r.after_move(Side::Second, cp(-10), 3), None);
        assert_eq!(r.after_move(Side::Second, cp(-700), 4), None);
        assert_eq!(r.after_move(Side::Second, cp(-700), 5), None);
        assert_eq!(
            r.after_move(Side::Second, Some(Score::Mate(-3)), 6),
            Some(Outcome::win(Side::First, Termination::ResignAdjudication))
        );
    }

    #[test]
    fn level_scores_after_movenumber_draw() {
        let rules = Adjudication {
            resign: None,
            draw: Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 20,
            }),
        };
        let mut r = Referee::new(&rules);
        // Level from the start, but not before move 10.
        for n in 1..10 {
            assert_eq!(r.after_move(Side::First, cp(5), n), None);
            assert_eq!(r.after_move(Side::Second, cp(-15), n), None);
        }
        assert_eq!(
            r.after_move(Side::First, cp(0), 10),
            Some(Outcome::draw(Termination::DrawAdjudication))
        );
        let mut r = Referee::new(&rules);
        for n in 10..20 {
            // One side keeps seeing an edge: no draw.
            assert_eq!(r.after_move(Side::First, cp(30), n), None);
            assert_eq!(r.after_move(Side::Second, cp(0), n), None);
        }
    }
}
