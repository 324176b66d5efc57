//! Monte Carlo tree search (the Squava article's `mcts` and `mcts_uct`, as in
//! bediger4000/squava2 `players/mcts.go`).
//!
//! Each iteration walks down the tree from the root choosing children, expands a leaf that
//! has been visited once (all its children at once, in a random order drawn from the game
//! RNG, so unvisited children are tried in random order as the author's untried moves are),
//! scores one new node by a playout ([`heavy_playout`] by default, as the author's: each
//! side makes four if it can and otherwise avoids making three) or by its rule if the move
//! ended the game, and adds the score to every node on the path, each from the point of
//! view of the side that made the node's move. At the root a move that makes four is played
//! at once, and squares that make three are not searched while another square is left.
//!
//! The two players differ in how a child is chosen on the way down:
//! - **plain** (`mcts`): the child with the best mean score, with no exploration term (the
//!   author's `ratio`): a move whose first playouts lost is rarely looked at again, which
//!   the author gives as the reason plain MCTS plays worst.
//! - **UCT** (`mcts_uct`): the child maximising UCB1, `w/n + c·√(ln (N + 1) / n)` with the
//!   author's c = 1.414 and N + 1 (his `ucb1`; Kocsis and Szepesvári, "Bandit based
//!   Monte-Carlo planning", 2006; Auer, Cesa-Bianchi and Fischer, 2002).
//!
//! Both play the most visited root child ("select the move that had the most visits, not
//! the best score"). Ties go to the child met first in the random child order, so equal
//! moves are chosen at random with the game RNG. The tree lives in a `Vec` arena kept by
//! the player and cleared (not freed) before each move; the playouts allocate nothing.

use super::board::{
    heavy_playout, losing_squares, random_playout, winning_squares, Effect, Position,
};
use eloworld_games::squava::SQUARES;
use eloworld_games::{GameRng, Squava};
use eloworld_players_core::{Player, PlayerError};

/// How children are chosen on the way down the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// The best mean score, no exploration (`mcts`, the author's plain MCTS).
    Greedy,
    /// UCB1 with exploration constant `c` (`mcts_uct`).
    Uct {
        /// The exploration constant (√2 ≈ 1.41 in the UCB1 paper).
        c: f64,
    },
}

/// How a new node is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// The author's: make four if possible, else a random square that does not make three.
    Heavy,
    /// Uniformly random squares to the end.
    Random,
}

/// One node of the tree: a move and the statistics of the games through it.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child in the arena; 0 while not expanded (the root is 0).
    first_child: u32,
    /// Playouts through this node.
    visits: u32,
    /// The sum of their scores for the side that made `mv`.
    wins: f32,
    /// The move that leads here.
    mv: u8,
    /// The number of children.
    n_children: u8,
    /// What `mv` did for its mover.
    effect: Effect,
}

/// What one search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Iterations run (each ends in one random playout or one decided node).
    pub iterations: u32,
    /// Nodes in the tree at the end.
    pub nodes: usize,
}

/// A Monte Carlo tree search player.
#[derive(Clone, Debug)]
pub struct Mcts {
    /// Iterations per move.
    pub playouts: u32,
    /// How children are chosen.
    pub selection: Selection,
    /// How new nodes are scored.
    pub playout: Playout,
    arena: Vec<Node>,
}

impl Mcts {
    /// Creates a searcher running `playouts` iterations per move.
    #[must_use]
    pub fn new(playouts: u32, selection: Selection) -> Mcts {
        Mcts {
            playouts: playouts.max(1),
            selection,
            playout: Playout::Heavy,
            arena: Vec::new(),
        }
    }

    /// The same searcher scoring new nodes with `playout`.
    #[must_use]
    pub fn with_playout(mut self, playout: Playout) -> Mcts {
        self.playout = playout;
        self
    }

    /// Searches `pos` (not over) and returns the chosen square with what the search did.
    pub fn search(&mut self, pos: Position, rng: &mut GameRng) -> (u8, SearchStats) {
        // A square that makes four is played at once (the author's root check).
        let wins = winning_squares(pos.own, pos.opp);
        if wins != 0 {
            return (wins.trailing_zeros() as u8, SearchStats::default());
        }
        self.arena.clear();
        self.arena.push(Node {
            first_child: 0,
            visits: 0,
            wins: 0.0,
            mv: u8::MAX,
            n_children: 0,
            effect: Effect::Continue,
        });
        // At the root, squares that make three are left out while any other is left.
        let safe = pos.empty() & !losing_squares(pos.own, pos.opp);
        self.expand(0, pos, if safe != 0 { safe } else { pos.empty() }, rng);
        if self.arena[0].n_children == 1 {
            // One candidate: nothing to search.
            return (self.arena[1].mv, SearchStats::default());
        }
        let mut path = [0u32; SQUARES + 2];
        for _ in 0..self.playouts {
            let mut node = 0usize;
            let mut here = pos;
            let mut len = 1;
            // The score of the last node for the side that made its move.
            let score = loop {
                let n = self.arena[node];
                match n.effect {
                    Effect::Win => break 1.0,
                    Effect::Loss => break 0.0,
                    Effect::Draw => break 0.5,
                    Effect::Continue => {}
                }
                if n.first_child == 0 {
                    if n.visits == 0 {
                        // The side to move here is the other side: flip its playout score.
                        let score = match self.playout {
                            Playout::Heavy => heavy_playout(here, rng),
                            Playout::Random => random_playout(here, rng),
                        };
                        break 1.0 - score as f32;
                    }
                    self.expand(node, here, here.empty(), rng);
                }
                let child = self.select(node);
                here = here.after(u32::from(self.arena[child].mv));
                node = child;
                path[len] = child as u32;
                len += 1;
            };
            let mut value = score;
            for &i in path[..len].iter().rev() {
                let n = &mut self.arena[i as usize];
                n.visits += 1;
                n.wins += value;
                value = 1.0 - value;
            }
        }
        let root = self.arena[0];
        let children = &self.arena[root.first_child as usize..][..usize::from(root.n_children)];
        let mut best = &children[0];
        for c in &children[1..] {
            if c.visits > best.visits {
                best = c;
            }
        }
        (
            best.mv,
            SearchStats {
                iterations: self.playouts,
                nodes: self.arena.len(),
            },
        )
    }

    /// Adds the children of `node` (position `pos`, not over) for the squares `moves`, in
    /// an order shuffled by `rng`.
    fn expand(&mut self, node: usize, pos: Position, moves: u32, rng: &mut GameRng) {
        let mut squares = [0u8; SQUARES];
        let mut n = 0;
        let mut empty = moves;
        while empty != 0 {
            squares[n] = empty.trailing_zeros() as u8;
            n += 1;
            empty &= empty - 1;
        }
        for i in (1..n).rev() {
            squares.swap(i, rng.below(i + 1));
        }
        let first = self.arena.len();
        for &sq in &squares[..n] {
            let effect = pos.effect(u32::from(sq));
            self.arena.push(Node {
                first_child: 0,
                visits: 0,
                wins: 0.0,
                mv: sq,
                n_children: 0,
                effect,
            });
        }
        self.arena[node].first_child = first as u32;
        self.arena[node].n_children = n as u8;
    }

    /// Returns the arena index of the child of `node` to walk into.
    fn select(&self, node: usize) -> usize {
        let n = self.arena[node];
        let first = n.first_child as usize;
        let c = match self.selection {
            Selection::Greedy => 0.0,
            Selection::Uct { c } => c,
        };
        {
            {
                let log_parent = f64::from(n.visits + 1).ln();
                let mut best = first;
                let mut best_value = f64::NEG_INFINITY;
                for i in first..first + usize::from(n.n_children) {
                    let child = &self.arena[i];
                    if child.visits == 0 {
                        return i;
                    }
                    let visits = f64::from(child.visits);
                    let value = f64::from(child.wins) / visits + c * (log_parent / visits).sqrt();
                    if value > best_value {
                        best_value = value;
                        best = i;
                    }
                }
                best
            }
        }
    }
}

impl Player<Squava> for Mcts {
    fn choose(&mut self, game: &Squava, rng: &mut GameRng) -> Result<u8, PlayerError> {
        if eloworld_games::Game::legal_moves(game).is_empty() {
            return Err(PlayerError::NoMove);
        }
        Ok(self.search(Position::of(game), rng).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_games::squava::square_name;
    use eloworld_games::Game;

    fn position(text: &str) -> Squava {
        Squava::from_position(text, ()).expect("position")
    }

    const BOTH: [Selection; 2] = [Selection::Greedy, Selection::Uct { c: 1.414 }];

    #[test]
    fn takes_an_immediate_four() {
        // x has a1 b1 d1 (c1 makes four) and many other squares to go astray on.
        let g = position("o.o../...../....o/...../xx.x. x");
        for selection in BOTH {
            for seed in 0..5 {
                let mut p = Mcts::new(3000, selection);
                let mv = p.choose(&g, &mut GameRng::new(seed)).expect("move");
                assert_eq!(square_name(mv), "c1", "{selection:?} seed {seed}");
            }
        }
    }

    #[test]
    fn uct_blocks_a_threat_it_can_block_safely() {
        // o threatens c1 (a1 b1 d1); x must block there or lose at once.
        let g = position("x.x../...../x..../...../oo.o. x");
        // With the author's c.
        let mut p = Mcts::new(
            20_000,
            Selection::Uct {
                c: super::super::DEFAULT_C,
            },
        );
        for seed in 0..4 {
            let mv = p.choose(&g, &mut GameRng::new(seed)).expect("move");
            assert_eq!(square_name(mv), "c1", "seed {seed}");
        }
    }

    #[test]
    fn same_seed_same_move_and_the_tree_is_reused() {
        let g = Squava::new(());
        for selection in BOTH {
            let mut p = Mcts::new(2000, selection);
            let a = p.choose(&g, &mut GameRng::new(5)).expect("move");
            let capacity = p.arena.capacity();
            let b = p.choose(&g, &mut GameRng::new(5)).expect("move");
            assert_eq!(a, b);
            assert_eq!(
                p.arena.capacity(),
                capacity,
                "the arena is cleared, not reallocated"
            );
            let picks: std::collections::HashSet<u8> = (0..12)
                .map(|s| p.choose(&g, &mut GameRng::new(s)).expect("move"))
                .collect();
            assert!(picks.len() > 1, "{selection:?} always plays {picks:?}");
        }
    }

    #[test]
    fn the_root_plays_four_at_once_and_never_three_while_a_safe_square_is_left() {
        // x to move can make four at c1: no search at all.
        let g = position("o.o../...../....o/...../xx.x. x");
        let mut p = Mcts::new(1000, Selection::Greedy);
        let (mv, stats) = p.search(Position::of(&g), &mut GameRng::new(1));
        assert_eq!(square_name(mv), "c1");
        assert_eq!(stats.iterations, 0);
        // x: a1 b1 (c1 and a2... make three); the root leaves out every square making three.
        let g = position("...../...../..o../o..../xx... x");
        let pos = Position::of(&g);
        let threes = losing_squares(pos.own, pos.opp);
        assert_ne!(threes, 0);
        for selection in BOTH {
            let mut p = Mcts::new(500, selection);
            p.search(pos, &mut GameRng::new(2));
            let root = p.arena[0];
            let children = &p.arena[root.first_child as usize..][..usize::from(root.n_children)];
            assert_eq!(children.len() as u32, (pos.empty() & !threes).count_ones());
            assert!(children.iter().all(|c| threes & (1 << c.mv) == 0));
        }
    }

    #[test]
    fn plain_mcts_is_greedy_and_both_play_the_most_visited_move() {
        let g = Squava::from_position("...xo/.o.../..x../.x.../o.... x", ()).expect("pos");
        for selection in BOTH {
            let mut p = Mcts::new(3000, selection);
            let (mv, _) = p.search(Position::of(&g), &mut GameRng::new(4));
            let root = p.arena[0];
            let children = &p.arena[root.first_child as usize..][..usize::from(root.n_children)];
            let most = children.iter().map(|c| c.visits).max().expect("children");
            let chosen = children.iter().find(|c| c.mv == mv).expect("chosen child");
            assert_eq!(chosen.visits, most, "{selection:?}");
            if selection == Selection::Greedy {
                // Without exploration the visits pile up on few children.
                assert!(most > 3000 / 4, "greedy spread its visits: {most}");
            }
        }
    }

    #[test]
    fn visits_add_up() {
        let g = Squava::new(());
        let mut p = Mcts::new(1000, Selection::Uct { c: 1.414 });
        let (_, stats) = p.search(Position::of(&g), &mut GameRng::new(2));
        assert_eq!(stats.iterations, 1000);
        let root = p.arena[0];
        assert_eq!(root.visits, 1000);
        let children = &p.arena[root.first_child as usize..][..usize::from(root.n_children)];
        assert_eq!(children.len(), 25);
        assert_eq!(children.iter().map(|c| c.visits).sum::<u32>(), 1000);
    }
}
