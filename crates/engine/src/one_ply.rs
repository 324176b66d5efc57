//! The 1-ply search of David, Koppel and Netanyahu's grandmaster-imitation fitness (section
//! III.B), for many parameter sets on one position.
//!
//! [`Engine::best_move_1ply`](crate::Engine::best_move_1ply) plays every legal move and scores
//! the resulting position by quiescence (or by the static evaluation). A genetic algorithm
//! asks that of a hundred organisms on the same position, and most of the work does not
//! depend on the parameters: the legal moves, the positions the quiescence search reaches, and
//! each position's evaluation *features* (the evaluation is a dot product of features and
//! parameters, [`crate::evaluate::features`]). An [`OnePlyTree`] keeps that work: it is built
//! once per position, grows the quiescence tree lazily as searches first reach its nodes, and
//! runs the engine's quiescence algorithm (stand pat, delta pruning, the same move order,
//! alpha-beta) for each parameter set over the shared nodes, where a node costs one dot
//! product. The answer is exactly the engine's (a test compares them on grandmaster positions
//! with random parameters). The arena is reused from position to position: no allocation per
//! node once it has grown.

use crate::evaluate::{dot, features, Features, TERMS};
use crate::score::MATE;
use crate::search::{passes_delta, quiescence_moves, quiescence_order, INFINITY, MAX_PLY};
use crate::EvalParams;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

/// How a 1-ply search scores the position after each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnePlyScoring {
    /// By the static evaluation.
    Static,
    /// By the quiescence search (captures and promotions until the position is quiet).
    #[default]
    Quiescence,
}

/// The parameters as the shared search reads them: the evaluation weights in
/// [`EvalParams::DEFS`] order and the material values by role (for delta pruning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    terms: [i32; TERMS],
    /// Indexed by `Role as usize` (pawn = 1 … king = 6; the king is worth 0).
    material: [i32; 7],
    pawn: i32,
}

impl Weights {
    /// Reads the weights of a parameter set.
    #[must_use]
    pub fn new(p: &EvalParams) -> Weights {
        let mut material = [0; 7];
        for role in Role::ALL {
            material[role as usize] = crate::search::material_value(role, p);
        }
        Weights {
            terms: p.to_array(),
            material,
            pawn: p.pawn_value,
        }
    }

    #[inline]
    fn delta_gain(&self, edge: &Edge) -> i32 {
        let capture = self.material[usize::from(edge.capture)];
        if edge.promotion == 0 {
            capture
        } else {
            capture + self.material[usize::from(edge.promotion)] - self.pawn
        }
    }
}

const NO_NODE: u32 = u32::MAX;

/// A position the quiescence search reached.
#[derive(Clone, Debug)]
struct Node {
    pos: Chess,
    /// Evaluation features from the side to move's point of view.
    features: Features,
    in_check: bool,
    /// In check with no legal move.
    mated: bool,
    /// Whether the moves are in [`OnePlyTree::edges`] yet.
    expanded: bool,
    first_edge: u32,
    edges: u32,
}

/// A move of the quiescence search, in search order.
#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: Move,
    /// The node it leads to, once a search went there.
    child: u32,
    /// The captured role (`Role as u8`, 0 for none), for delta pruning.
    capture: u8,
    /// The promotion role (0 for none).
    promotion: u8,
}

/// The shared 1-ply search of one position (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct OnePlyTree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// The legal moves of the root, in shakmaty's order, and the node each leads to.
    root: Vec<(Move, u32)>,
    /// Scratch for sorting a node's moves.
    scratch: Vec<(i32, Move)>,
}

impl OnePlyTree {
    /// Creates an empty tree.
    #[must_use]
    pub fn new() -> OnePlyTree {
        OnePlyTree::default()
    }

    /// Forgets the previous position (keeping the memory) and prepares `pos`: its legal moves
    /// and the position after each.
    pub fn reset(&mut self, pos: &Chess) {
        self.nodes.clear();
        self.edges.clear();
        self.root.clear();
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let node = self.add_node(child);
            self.root.push((m, node));
        }
    }

    /// Returns the root's legal moves, in shakmaty's order (the indices [`Self::best`] returns).
    pub fn root_moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.root.iter().map(|&(m, _)| m)
    }

    /// Returns the number of positions reached so far (the root's children included).
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Picks a move as [`Engine::best_move_1ply`](crate::Engine::best_move_1ply) with these
    /// parameters does: a mating move scores as mate, every other by `scoring` from the mover's
    /// point of view; the first best move in shakmaty's order wins. Returns the move's index
    /// among [`Self::root_moves`] and its score; `None` without legal moves.
    pub fn best(&mut self, weights: &Weights, scoring: OnePlyScoring) -> Option<(usize, i32)> {
        let mut best: Option<(usize, i32)> = None;
        for i in 0..self.root.len() {
            let node = self.root[i].1;
            let n = &self.nodes[node as usize];
            let score = if n.mated {
                MATE - 1
            } else if scoring == OnePlyScoring::Quiescence {
                // Only whether a move beats the best so far matters: search with that bound.
                let bound = best.map_or(-INFINITY, |(_, b)| b);
                -self.quiesce(node, -INFINITY, -bound, 1, weights)
            } else {
                -dot(&n.features, &weights.terms)
            };
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        best
    }

    /// Adds a node for `pos`; a position in check gets its moves at once (to know if it is
    /// mate).
    fn add_node(&mut self, pos: Chess) -> u32 {
        let mut x = features(pos.board());
        if pos.turn() == Color::Black {
            for v in &mut x {
                *v = -*v;
            }
        }
        let in_check = pos.is_check();
        let index = u32::try_from(self.nodes.len()).unwrap_or(NO_NODE - 1);
        self.nodes.push(Node {
            pos,
            features: x,
            in_check,
            mated: false,
            expanded: false,
            first_edge: 0,
            edges: 0,
        });
        if in_check {
            self.expand(index);
            let n = &mut self.nodes[index as usize];
            n.mated = n.edges == 0;
        }
        index
    }

    /// Generates a node's moves as the engine's quiescence does, in its search order.
    fn expand(&mut self, index: u32) {
        let n = &self.nodes[index as usize];
        let moves: MoveList = if n.in_check {
            n.pos.legal_moves()
        } else {
            quiescence_moves(&n.pos)
        };
        // The engine picks the highest order score first, the earliest among equals: a
        // stable sort by descending score.
        self.scratch.clear();
        self.scratch
            .extend(moves.iter().map(|m| (quiescence_order(m), *m)));
        self.scratch
            .sort_by_key(|&(order, _)| std::cmp::Reverse(order));
        let first = u32::try_from(self.edges.len()).unwrap_or(u32::MAX);
        for &(_, mv) in &self.scratch {
            self.edges.push(Edge {
                mv,
                child: NO_NODE,
                capture: mv.capture().map_or(0, |r| r as u8),
                promotion: mv.promotion().map_or(0, |r| r as u8),
            });
        }
        let n = &mut self.nodes[index as usize];
        n.first_edge = first;
        n.edges = u32::try_from(moves.len()).unwrap_or(0);
        n.expanded = true;
    }

    /// Returns the node an edge leads to, adding it on the first visit.
    fn child(&mut self, parent: u32, edge: usize) -> u32 {
        let e = self.edges[edge];
        if e.child != NO_NODE {
            return e.child;
        }
        let mut pos = self.nodes[parent as usize].pos.clone();
        pos.play_unchecked(e.mv);
        let child = self.add_node(pos);
        self.edges[edge].child = child;
        child
    }

    /// The engine's quiescence search (`Searcher::quiesce`) over the shared nodes.
    fn quiesce(&mut self, index: u32, mut alpha: i32, beta: i32, ply: usize, w: &Weights) -> i32 {
        let n = &self.nodes[index as usize];
        let in_check = n.in_check;
        let mut best;
        let mut stand_pat = 0;
        if in_check {
            if n.mated {
                return -MATE + ply as i32;
            }
            best = -INFINITY;
        } else {
            stand_pat = dot(&n.features, &w.terms);
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            if !n.expanded {
                self.expand(index);
            }
        }
        let n = &self.nodes[index as usize];
        let first = n.first_edge as usize;
        let end = first + n.edges as usize;
        // Delta pruning compares with alpha as it stood before the first move.
        let delta_alpha = alpha;
        for edge in first..end {
            if !in_check && !passes_delta(stand_pat, w.delta_gain(&self.edges[edge]), delta_alpha) {
                continue;
            }
            let child = self.child(index, edge);
            let score = -self.quiesce(child, -beta, -alpha, ply + 1, w);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Engine, SearchParams};
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// Positions along lines from the bench positions, tactical ones included (the walk
    /// prefers captures every third move).
    fn positions() -> Vec<Chess> {
        let mut out = Vec::new();
        for start in crate::bench::bench_positions() {
            let mut p = start;
            for step in 0..30usize {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                out.push(p.clone());
                let capture = moves.iter().position(|m| m.is_capture());
                let pick = match capture {
                    Some(i) if step % 3 == 0 => i,
                    _ => (step * 7 + 3) % moves.len(),
                };
                p.play_unchecked(moves[pick]);
            }
        }
        out
    }

    #[test]
    fn the_shared_search_picks_the_engines_move_and_score() {
        let mut params = vec![EvalParams::default()];
        params.extend((11..23).map(EvalParams::random));
        let mut engines: Vec<Engine> = params
            .iter()
            .map(|p| Engine::new(*p, SearchParams::default(), 1))
            .collect();
        let weights: Vec<Weights> = params.iter().map(Weights::new).collect();
        let mut tree = OnePlyTree::new();
        let mut checked = 0;
        let mut grown = 0;
        // Mate in one (Re8#) and a position with promotions.
        let mut all = positions();
        all.push(pos("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1"));
        all.push(pos("1r2k3/2P3P1/8/8/8/8/8/4K3 w - - 0 1"));
        for p in &all {
            tree.reset(p);
            let roots = tree.nodes();
            for (engine, w) in engines.iter_mut().zip(&weights) {
                for scoring in [OnePlyScoring::Quiescence, OnePlyScoring::Static] {
                    let quiescence = scoring == OnePlyScoring::Quiescence;
                    let (expected, score, _) = engine.best_move_1ply(p, quiescence).expect("move");
                    let (i, got_score) = tree.best(w, scoring).expect("move");
                    let got = tree.root_moves().nth(i).expect("index");
                    assert_eq!((got, got_score), (expected, score), "{p:?} {scoring:?}");
                    checked += 1;
                }
            }
            grown += tree.nodes() - roots;
        }
        assert!(checked > 3000, "{checked}");
        assert!(
            grown > 1000,
            "the quiescence trees grew by {grown} nodes only"
        );
        let mut t = OnePlyTree::new();
        t.reset(&pos("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1"));
        let (i, score) = t.best(&weights[0], OnePlyScoring::Static).expect("move");
        let mate = t.root_moves().nth(i).expect("index");
        assert_eq!(mate.to(), shakmaty::Square::E8);
        assert_eq!(score, MATE - 1);
    }

    #[test]
    fn no_legal_move_has_no_answer() {
        let mut tree = OnePlyTree::new();
        tree.reset(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
        assert_eq!(tree.root_moves().len(), 0);
        let w = Weights::new(&EvalParams::default());
        assert_eq!(tree.best(&w, OnePlyScoring::Quiescence), None);
    }
}
