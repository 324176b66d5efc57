//! Minimax with alpha-beta pruning (the Squava article's `alphabeta` and
//! `alphabeta_better`, bediger4000/squava2 `players/alphabeta.go`), choosing at random among
//! the moves of identical value: "I have the Alpha-beta minimax algorithms choose moves
//! randomly that they calculate to have identical value" (the Squava article).
//!
//! By default the search depth follows the author's schedule by the stones on the board
//! ([`SCHEDULE`]: 8 plies for the first four moves, 10 up to move 11, 12 after). To reach
//! 12 plies quickly the search does what strong game programs do: iterative deepening, a
//! transposition table keyed by Zobrist hashes (Zobrist, "A new hashing method with
//! application for game playing", 1970), the table's move and the history heuristic
//! (Schaeffer, 1989) to order moves, and the rules' forced replies: a square that makes
//! three is never searched (it loses at once), and when the opponent threatens four only
//! the block is searched (every other move loses on the next move, scored exactly).

use super::board::{losing_squares, winning_squares, Effect, Position};
use super::evaluation::Evaluation;
use eloworld_games::squava::SQUARES;
use eloworld_games::{GameRng, Squava};
use eloworld_players_core::{Player, PlayerError};

/// The score of a won position, less the plies it takes (so a quicker win scores more).
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are decided (a win or a loss within the board's 25 plies).
const DECIDED: i32 = WIN - 1_000;
/// Below any score.
const INFINITY: i32 = WIN + 1;

/// The author's depth schedule: from this many stones on the board, search this many plies
/// (`setDepth` in `players/alphabeta.go`: "for the first 4 moves, I limit the look ahead to
/// 8 further moves. Between 5 and 10 moves into the game … 10, and after 10 moves … 12").
pub const SCHEDULE: [(u32, u32); 3] = [(0, 8), (4, 10), (11, 12)];

/// How deep the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// The same number of plies on every move.
    Fixed(u32),
    /// [`SCHEDULE`], by the stones on the board.
    Schedule,
}

impl Depth {
    /// Returns the plies to search with `stones` stones on the board.
    #[must_use]
    pub fn plies(self, stones: u32) -> u32 {
        match self {
            Depth::Fixed(d) => d,
            Depth::Schedule => SCHEDULE
                .iter()
                .rev()
                .find(|&&(from, _)| stones >= from)
                .map_or(SCHEDULE[0].1, |&(_, d)| d),
        }
    }
}

/// What a root search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best value, for the side to move.
    pub score: i32,
    /// Every move of that value, in square order.
    pub best: Vec<u8>,
    /// Nodes visited (calls of the recursive search, leaves included), all iterations.
    pub nodes: u64,
    /// Nodes visited by each iteration of the deepening, depth 1 first: the ratio of the
    /// last two is the effective branching factor.
    pub iteration_nodes: Vec<u64>,
}

impl SearchResult {
    /// The effective branching factor: the last iteration's nodes over the one before.
    #[must_use]
    pub fn branching_factor(&self) -> Option<f64> {
        match self.iteration_nodes[..] {
            [.., a, b] if a > 0 => Some(b as f64 / a as f64),
            _ => None,
        }
    }
}

/// Zobrist keys: one random 64-bit key per (side, square), side 0 being the first player.
const ZOBRIST: [[u64; SQUARES]; 2] = {
    let mut keys = [[0u64; SQUARES]; 2];
    // SplitMix64 from a fixed seed: any well-mixed constants do.
    let mut state: u64 = 0x5eed_5a0a_7a00_0001;
    let mut i = 0;
    while i < 2 * SQUARES {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i / SQUARES][i % SQUARES] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// Returns the Zobrist key of `stones[side]` for both sides.
fn zobrist(stones: [u32; 2]) -> u64 {
    let mut key = 0;
    for (side, &bits) in stones.iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            key ^= ZOBRIST[side][b.trailing_zeros() as usize];
            b &= b - 1;
        }
    }
    key
}

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least the score (a cut-off).
    Lower,
    /// The value is at most the score (no move raised alpha).
    Upper,
}

/// One transposition-table slot (16 bytes).
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: u8,
    /// The search that wrote it: entries of earlier searches are misses, so each move's
    /// search depends only on its position (games replay exactly).
    generation: u8,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    score: 0,
    depth: 0,
    bound: Bound::Upper,
    best: NO_MOVE,
    generation: 0,
};
const NO_MOVE: u8 = u8::MAX;
/// 2^20 slots, 16 MiB per player, allocated at its first search.
const TABLE_BITS: u32 = 20;

/// Moves a decided score from "plies from the root" to "plies from this node" for storing.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > DECIDED {
        score + ply
    } else if score < -DECIDED {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: i32) -> i32 {
    if score > DECIDED {
        score - ply
    } else if score < -DECIDED {
        score + ply
    } else {
        score
    }
}

/// An alpha-beta searcher: iterative deepening to its [`Depth`], then a static
/// [`Evaluation`].
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    /// How deep to search.
    pub depth: Depth,
    /// The static evaluation at the leaves.
    pub evaluation: Evaluation,
    table: Vec<Entry>,
    generation: u8,
    history: [[u32; SQUARES]; 2],
    nodes: u64,
}

impl AlphaBeta {
    /// Creates a searcher (its table is allocated at the first search).
    #[must_use]
    pub fn new(depth: Depth, evaluation: Evaluation) -> AlphaBeta {
        AlphaBeta {
            depth,
            evaluation,
            table: Vec::new(),
            generation: 0,
            history: [[0; SQUARES]; 2],
            nodes: 0,
        }
    }

    /// Searches `pos` (not over, with at least one empty square) to the depth its stones
    /// call for, and returns every move of the best value.
    pub fn search(&mut self, pos: Position) -> SearchResult {
        let stones = (pos.own | pos.opp).count_ones();
        let depth = self.depth.plies(stones).max(1);
        self.search_to(pos, depth)
    }

    /// Searches `pos` to `depth` plies by iterative deepening. Each iteration searches the
    /// root moves best first (by the previous iteration); every move after the first gets
    /// the window `(best - 1, ∞)`, so a move that ties the best gets its exact value and
    /// joins the list, while worse moves are cut off early.
    pub fn search_to(&mut self, pos: Position, depth: u32) -> SearchResult {
        if self.table.is_empty() {
            self.table = vec![EMPTY_ENTRY; 1 << TABLE_BITS];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(EMPTY_ENTRY);
            self.generation = 1;
        }
        self.history = [[0; SQUARES]; 2];
        self.nodes = 0;
        let stones = (pos.own | pos.opp).count_ones();
        // Side 0 (the first player) is to move when the stone count is even.
        let side = (stones % 2) as usize;
        let key = zobrist(if side == 0 {
            [pos.own, pos.opp]
        } else {
            [pos.opp, pos.own]
        });
        // Root moves with their last score, best first.
        let mut moves: Vec<(u8, i32)> = Vec::with_capacity(SQUARES);
        let mut empty = pos.empty();
        while empty != 0 {
            moves.push((empty.trailing_zeros() as u8, 0));
            empty &= empty - 1;
        }
        let mut iteration_nodes = Vec::new();
        let mut best_score = -INFINITY;
        let mut best = Vec::new();
        for d in 1..=depth {
            let before = self.nodes;
            best_score = -INFINITY;
            best.clear();
            for (sq, last) in &mut moves {
                let s = u32::from(*sq);
                let score = match pos.effect(s) {
                    Effect::Win => WIN - 1,
                    Effect::Loss => -(WIN - 1),
                    Effect::Draw => 0,
                    Effect::Continue => -self.negamax(
                        pos.after(s),
                        side ^ 1,
                        key ^ ZOBRIST[side][*sq as usize],
                        d - 1,
                        -INFINITY,
                        -(best_score - 1).max(-INFINITY),
                        1,
                    ),
                };
                *last = score;
                if score > best_score {
                    best_score = score;
                    best.clear();
                }
                if score == best_score {
                    best.push(*sq);
                }
            }
            iteration_nodes.push(self.nodes - before);
            // A decided best value is final: deeper iterations find no quicker win, and
            // when every move loses by force, none is saved by looking further.
            if best_score.abs() > DECIDED {
                break;
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        }
        best.sort_unstable();
        SearchResult {
            score: best_score,
            best,
            nodes: self.nodes,
            iteration_nodes,
        }
    }

    /// Returns the value of `pos` for its side to move (`side`, Zobrist key `key`), `ply`
    /// plies below the root, `depth` plies from the horizon, within `(alpha, beta)`
    /// (fail-hard).
    #[expect(
        clippy::too_many_arguments,
        reason = "the search state threaded through the recursion; a struct would only rename it"
    )]
    fn negamax(
        &mut self,
        pos: Position,
        side: usize,
        key: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        self.nodes += 1;
        // A square that makes four wins at once: nothing scores better.
        if winning_squares(pos.own, pos.opp) != 0 {
            return (WIN - ply - 1).clamp(alpha, beta);
        }
        if depth == 0 {
            return self.evaluation.score(pos).clamp(alpha, beta);
        }
        let slot = (key & ((1 << TABLE_BITS) - 1)) as usize;
        let entry = self.table[slot];
        let mut table_move = NO_MOVE;
        if entry.key == key && entry.generation == self.generation {
            table_move = entry.best;
            if u32::from(entry.depth) >= depth {
                let v = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return v.clamp(alpha, beta),
                    Bound::Lower if v >= beta => return beta,
                    Bound::Upper if v <= alpha => return alpha,
                    _ => {}
                }
            }
        }
        let empty = pos.empty();
        let threes = losing_squares(pos.own, pos.opp);
        let threats = winning_squares(pos.opp, pos.own);
        // The squares worth searching, and the exact value of the others.
        let (searched, others) = if threats == 0 {
            (empty & !threes, empty & threes)
        } else if threats.count_ones() == 1 {
            (threats & !threes, empty & !(threats & !threes))
        } else {
            (0, empty)
        };
        let unsearched = if others == 0 {
            -INFINITY
        } else if others & !threes != 0 {
            // Leaves the opponent's four on the board: lost on the next move.
            -(WIN - ply - 2)
        } else {
            // Makes three: lost at once.
            -(WIN - ply - 1)
        };
        let original_alpha = alpha;
        if unsearched >= beta {
            return beta;
        }
        alpha = alpha.max(unsearched);
        // Order: the table's move, then by history.
        let mut order = [0u8; SQUARES];
        let mut n = 0;
        let mut rest = searched;
        if table_move != NO_MOVE && searched & (1 << table_move) != 0 {
            order[0] = table_move;
            n = 1;
            rest &= !(1 << table_move);
        }
        let first_sorted = n;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            // Insertion by history, highest first.
            let h = self.history[side][sq as usize];
            let mut i = n;
            while i > first_sorted && self.history[side][order[i - 1] as usize] < h {
                order[i] = order[i - 1];
                i -= 1;
            }
            order[i] = sq;
            n += 1;
        }
        let mut best_move = NO_MOVE;
        for &sq in &order[..n] {
            let s = u32::from(sq);
            let score = match pos.effect(s) {
                Effect::Win => WIN - ply - 1,
                Effect::Loss => -(WIN - ply - 1),
                Effect::Draw => 0,
                Effect::Continue => -self.negamax(
                    pos.after(s),
                    side ^ 1,
                    key ^ ZOBRIST[side][sq as usize],
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                ),
            };
            if score >= beta {
                self.history[side][sq as usize] += depth * depth;
                self.store(slot, key, beta, depth, Bound::Lower, sq, ply);
                return beta;
            }
            if score > alpha {
                alpha = score;
                best_move = sq;
            }
        }
        let bound = if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.store(slot, key, alpha, depth, bound, best_move, ply);
        alpha
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one table entry's fields; a struct would only rename them"
    )]
    fn store(
        &mut self,
        slot: usize,
        key: u64,
        score: i32,
        depth: u32,
        bound: Bound,
        best: u8,
        ply: i32,
    ) {
        self.table[slot] = Entry {
            key,
            score: to_table(score, ply),
            depth: depth as u8,
            bound,
            best,
            generation: self.generation,
        };
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
    use crate::evaluation::Evaluation::{AvoidTraps, OpenThrees};
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
    fn the_depth_follows_the_authors_schedule_by_stones() {
        // setDepth: moveCounter < 4 → 8, > 3 → 10, > 10 → 12.
        let want = [8, 8, 8, 8, 10, 10, 10, 10, 10, 10, 10, 12, 12, 12, 12];
        for (stones, &plies) in want.iter().enumerate() {
            assert_eq!(
                Depth::Schedule.plies(stones as u32),
                plies,
                "{stones} stones"
            );
        }
        assert_eq!(Depth::Schedule.plies(24), 12);
        assert_eq!(Depth::Fixed(5).plies(0), 5);
        // The player deepens to 8 plies on the empty board (nothing is decided that soon).
        let mut s = AlphaBeta::new(Depth::Schedule, AvoidTraps);
        let r = s.search(Position::of(&Squava::new(())));
        assert_eq!(r.iteration_nodes.len(), 8);
        assert_eq!(r.nodes, r.iteration_nodes.iter().sum::<u64>());
        assert!(r.branching_factor().is_some_and(|b| b > 1.0));
    }

    #[test]
    fn twelve_plies_after_eleven_stones_stays_small() {
        // A position of 11 stones from a seeded random game: the author's 12 plies. The
        // table, the ordering and the forced replies keep it to a few hundred thousand nodes
        // (plain alpha-beta in square order needs tens of millions).
        let mut checked = 0;
        for seed in 0..40 {
            let Some(g) = random_position(seed, 11) else {
                continue;
            };
            let mut s = AlphaBeta::new(Depth::Schedule, AvoidTraps);
            let r = s.search(Position::of(&g));
            assert!(r.nodes < 3_000_000, "seed {seed}: {} nodes", r.nodes);
            checked += 1;
            if checked == 3 {
                break;
            }
        }
        assert_eq!(checked, 3);
    }

    #[test]
    fn deep_searches_keep_the_minimax_value() {
        // Later positions (10 to 13 stones) at depth 5: transpositions, the table's bounds
        // and the forced replies are all exercised, and the value must stay exact.
        let mut checked = 0;
        for seed in 100..400 {
            if checked >= 24 {
                break;
            }
            let Some(g) = random_position(seed, 10 + (seed % 4) as u32) else {
                continue;
            };
            let pos = Position::of(&g);
            for evaluation in [OpenThrees, AvoidTraps] {
                let mut s = AlphaBeta::new(Depth::Fixed(5), evaluation);
                let r = s.search(pos);
                // A decided value ends the deepening early; it is the same forced result.
                assert_eq!(
                    r.score,
                    minimax(&s, pos, 5, 0),
                    "seed {seed} {evaluation:?}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 24, "{checked}");
    }

    #[test]
    fn takes_an_immediate_four() {
        // x has a1 b1 d1; c1 wins.
        let g = position("o.o../...../....o/...../xx.x. x");
        let mut s = AlphaBeta::new(Depth::Fixed(4), OpenThrees);
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
            for evaluation in [OpenThrees, AvoidTraps] {
                let r = AlphaBeta::new(Depth::Fixed(depth), evaluation).search(Position::of(&g));
                assert_eq!(names(&r.best), ["d1"], "depth {depth} {evaluation:?}");
                assert_eq!(r.score, WIN - 3);
            }
        }
        // One ply short, the threat is beyond the horizon.
        let r = AlphaBeta::new(Depth::Fixed(1), OpenThrees).search(Position::of(&g));
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
            for evaluation in [OpenThrees, AvoidTraps] {
                let mut s = AlphaBeta::new(Depth::Fixed(3), evaluation);
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
            for evaluation in [OpenThrees, AvoidTraps] {
                let mut p = AlphaBeta::new(Depth::Fixed(4), evaluation);
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
        let mut p = AlphaBeta::new(Depth::Fixed(2), OpenThrees);
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
