//! Minimax with alpha-beta pruning to a fixed depth (seed 000's `alphabeta` and
//! `alphabeta_better`), choosing at random among the moves of identical value: "I have the
//! Alpha-beta minimax algorithms choose moves randomly that they calculate to have
//! identical value" (seed 000).

use super::board::{winning_squares, Effect, Position};
use super::evaluation::Evaluation;
use crate::{Player, PlayerError};
use eloworld_games::{GameRng, Squava};

/// The score of a won position, less the plies it takes (so a quicker win scores more).
pub const WIN: i32 = 1_000_000;

/// What a root search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best value, for the side to move.
    pub score: i32,
    /// Every move of that value, in square order.
    pub best: Vec<u8>,
    /// Nodes visited (calls of the recursive search, leaves included).
    pub nodes: u64,
}

/// A negamax alpha-beta searcher: `depth` plies, then a static [`Evaluation`].
#[derive(Clone, Copy, Debug)]
pub struct AlphaBeta {
    /// Plies searched before the static evaluation.
    pub depth: u32,
    /// The static evaluation at the leaves.
    pub evaluation: Evaluation,
}

impl AlphaBeta {
    /// Creates a searcher.
    #[must_use]
    pub const fn new(depth: u32, evaluation: Evaluation) -> AlphaBeta {
        AlphaBeta { depth, evaluation }
    }

    /// Searches `pos` (not over, with at least one empty square) and returns every move
    /// of the best value. Moves are tried in square order; each root move after the first
    /// is searched with the window `(best - 1, ∞)`, so a move that ties the best gets its
    /// exact value and joins the list, while worse moves are cut off early.
    #[must_use]
    pub fn search(&self, pos: Position) -> SearchResult {
        let mut nodes = 0;
        let mut best_score = -WIN - 1;
        let mut best = Vec::with_capacity(25);
        let mut empty = pos.empty();
        while empty != 0 {
            let sq = empty.trailing_zeros();
            empty &= empty - 1;
            let score = match pos.effect(sq) {
                Effect::Win => WIN - 1,
                Effect::Loss => -(WIN - 1),
                Effect::Draw => 0,
                Effect::Continue => -self.negamax(
                    pos.after(sq),
                    self.depth.saturating_sub(1),
                    -WIN - 1,
                    -(best_score - 1),
                    1,
                    &mut nodes,
                ),
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(sq as u8);
            }
        }
        SearchResult {
            score: best_score,
            best,
            nodes,
        }
    }

    /// Returns the value of `pos` for its side to move, `ply` plies below the root, within
    /// `(alpha, beta)` (fail-hard).
    fn negamax(
        &self,
        pos: Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        nodes: &mut u64,
    ) -> i32 {
        *nodes += 1;
        // A square that makes four wins at once: nothing scores better.
        if winning_squares(pos.own, pos.opp) != 0 {
            return (WIN - ply - 1).min(beta).max(alpha);
        }
        if depth == 0 {
            return self.evaluation.score(pos).clamp(alpha, beta);
        }
        let mut empty = pos.empty();
        let mut any = false;
        while empty != 0 {
            let sq = empty.trailing_zeros();
            empty &= empty - 1;
            let score = match pos.effect(sq) {
                Effect::Win => WIN - ply - 1,
                Effect::Loss => -(WIN - ply - 1),
                Effect::Draw => 0,
                Effect::Continue => {
                    -self.negamax(pos.after(sq), depth - 1, -beta, -alpha, ply + 1, nodes)
                }
            };
            any = true;
            if score >= beta {
                return beta;
            }
            if score > alpha {
                alpha = score;
            }
        }
        debug_assert!(any, "negamax on a full board");
        alpha
    }
}

impl Player<Squava> for AlphaBeta {
    fn choose(&mut self, game: &Squava, rng: &mut GameRng) -> Result<u8, PlayerError> {
        if eloworld_games::Game::legal_moves(game).is_empty() {
            return Err(PlayerError::NoMove);
        }
        let found = self.search(Position::of(game));
        Ok(rng.pick(&found.best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::squava::evaluation::Evaluation::{OpenLines, ThreatsAndSafeSquares};
    use eloworld_games::squava::{parse_square, square_name};
    use eloworld_games::Game;

    fn position(text: &str) -> Squava {
        Squava::from_position(text, ()).expect("position")
    }

    fn names(moves: &[u8]) -> Vec<String> {
        moves.iter().map(|&m| square_name(m)).collect()
    }

    /// Searches with pruning switched off by brute force, for comparison.
    fn minimax(s: &AlphaBeta, pos: Position, depth: u32, ply: i32) -> i32 {
        if winning_squares(pos.own, pos.opp) != 0 {
            return WIN - ply - 1;
        }
        if depth == 0 {
            return s.evaluation.score(pos);
        }
        let mut best = -WIN - 1;
        let mut empty = pos.empty();
        while empty != 0 {
            let sq = empty.trailing_zeros();
            empty &= empty - 1;
            let v = match pos.effect(sq) {
                Effect::Win => WIN - ply - 1,
                Effect::Loss => -(WIN - ply - 1),
                Effect::Draw => 0,
                Effect::Continue => -minimax(s, pos.after(sq), depth - 1, ply + 1),
            };
            best = best.max(v);
        }
        best
    }

    #[test]
    fn takes_an_immediate_four() {
        // x has a1 b1 d1; c1 wins.
        let g = position("o.o../...../....o/...../xx.x. x");
        let s = AlphaBeta::new(4, OpenLines);
        let r = s.search(Position::of(&g));
        assert_eq!(names(&r.best), ["c1"]);
        assert_eq!(r.score, WIN - 1);
    }

    #[test]
    fn finds_a_forced_win_by_a_double_threat() {
        // x: a1 b1 c2 a4; o: a2 e2 c5 e5. x plays d1, threatening c1 (a1 b1 c1 d1) and b3
        // (d1 c2 b3 a4); o can block only one. c1 and b3 themselves make three for x.
        let g = position("..o.o/x..../...../o.x.o/xx... x");
        for depth in [2, 4] {
            for evaluation in [OpenLines, ThreatsAndSafeSquares] {
                let r = AlphaBeta::new(depth, evaluation).search(Position::of(&g));
                assert_eq!(names(&r.best), ["d1"], "depth {depth} {evaluation:?}");
                assert_eq!(r.score, WIN - 3);
            }
        }
        // One ply short, the threat is beyond the horizon.
        let r = AlphaBeta::new(1, OpenLines).search(Position::of(&g));
        assert!(r.score < WIN - 3);
    }

    /// Plays `plies` random safe-ish moves from the start with `seed`.
    fn random_position(seed: u64, plies: u32) -> Option<Squava> {
        let mut rng = GameRng::new(seed);
        let mut g = Squava::new(());
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let mv = rng.pick(moves);
            g.play(mv);
        }
        g.outcome().is_none().then_some(g)
    }

    #[test]
    fn pruning_keeps_the_minimax_value_and_every_tied_move() {
        let mut checked = 0;
        for seed in 0..60 {
            let Some(g) = random_position(seed, 4 + (seed % 8) as u32) else {
                continue;
            };
            let pos = Position::of(&g);
            for evaluation in [OpenLines, ThreatsAndSafeSquares] {
                let s = AlphaBeta::new(3, evaluation);
                let r = s.search(pos);
                assert_eq!(r.score, minimax(&s, pos, 3, 0), "seed {seed}");
                let mut ties = Vec::new();
                let mut empty = pos.empty();
                while empty != 0 {
                    let sq = empty.trailing_zeros();
                    empty &= empty - 1;
                    let v = match pos.effect(sq) {
                        Effect::Win => WIN - 1,
                        Effect::Loss => -(WIN - 1),
                        Effect::Draw => 0,
                        Effect::Continue => -minimax(&s, pos.after(sq), 2, 1),
                    };
                    if v == r.score {
                        ties.push(sq as u8);
                    }
                }
                assert_eq!(r.best, ties, "seed {seed} {evaluation:?}");
                checked += 1;
            }
        }
        assert!(checked > 40, "{checked}");
    }

    #[test]
    fn never_makes_three_when_a_safe_square_is_left() {
        for seed in 0..80 {
            let Some(g) = random_position(seed, 6 + (seed % 10) as u32) else {
                continue;
            };
            let pos = Position::of(&g);
            let safe_exists = g
                .legal_moves()
                .iter()
                .any(|&m| pos.effect(u32::from(m)) != Effect::Loss);
            for evaluation in [OpenLines, ThreatsAndSafeSquares] {
                let mut p = AlphaBeta::new(4, evaluation);
                let mv = p.choose(&g, &mut GameRng::new(seed)).expect("move");
                if safe_exists {
                    assert_ne!(
                        pos.effect(u32::from(mv)),
                        Effect::Loss,
                        "seed {seed} {}",
                        g.position_text()
                    );
                }
            }
        }
    }

    #[test]
    fn ties_are_broken_by_the_game_rng() {
        // After x takes the centre, the board's symmetries map every reply to three or
        // seven others of the same value: the best replies come four or eight at a time.
        let mut g = Squava::new(());
        g.play(parse_square("c3").expect("square"));
        let mut p = AlphaBeta::new(2, OpenLines);
        let r = p.search(Position::of(&g));
        assert!(r.best.len() >= 4, "{:?}", names(&r.best));
        let picks: std::collections::HashSet<u8> = (0..40)
            .map(|seed| p.choose(&g, &mut GameRng::new(seed)).expect("move"))
            .collect();
        assert!(picks.len() > 1, "always {picks:?}");
        assert!(picks.iter().all(|m| r.best.contains(m)));
        // The same stream gives the same choice.
        let a = p.choose(&g, &mut GameRng::new(9)).expect("move");
        let b = p.choose(&g, &mut GameRng::new(9)).expect("move");
        assert_eq!(a, b);
    }
}
