//! Phase 2 of seed 003 (section III.C): single-population coevolution of the best evolved
//! evaluation functions. In each generation every organism plays every other `games_per_pair`
//! games, each from a different opening of a book, with the basic alpha-beta search (no
//! selective methods: [`SearchParams::plain`]) at a fixed node budget per move; an organism's
//! fitness is its points (win 1, draw ½). The GA then applies rank-based selection and
//! elitism (see [`crate::ga`]).
//!
//! Games are deterministic: the engine searches exact node budgets, and the opening of game
//! `j` of pair `(a, b)` in generation `g` is book entry `splitmix64(seed ^ g ^ a ^ b ^ j) mod
//! len` (mixed as in [`opening_index`]); colours alternate with `j`. A game ends by checkmate,
//! stalemate, insufficient material, threefold repetition, the fifty-move rule, or as a draw at
//! `max_plies`.

use crate::{EvolveError, Fitness, Genome};
use eloworld_engine::{Coding, Engine, EvalParams, Limits, SearchParams};
use eloworld_games::rng::splitmix64;
use rayon::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

/// How the coevolution games are played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games per pair of organisms per generation (the seed: 4).
    pub games_per_pair: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Plies after which a game is a draw.
    pub max_plies: u32,
    /// Starting positions.
    pub openings: Vec<Chess>,
    /// Mixed into the choice of openings.
    pub seed: u64,
    /// Transposition table per player, MiB.
    pub hash_mb: usize,
}

/// Reads an EPD (or FEN-per-line) opening book.
///
/// # Errors
/// [`EvolveError::Input`] naming the line of a bad position, or when the book is empty.
pub fn read_book(text: &str, source: &str) -> Result<Vec<Chess>, EvolveError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        let pos = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
            .ok_or_else(|| {
                EvolveError::Input(format!(
                    "{source} line {}: not a legal position: {line}",
                    i + 1
                ))
            })?;
        out.push(pos);
    }
    if out.is_empty() {
        return Err(EvolveError::Input(format!(
            "{source}: no opening positions"
        )));
    }
    Ok(out)
}

/// Plays one game from `start` between two engine settings, each searching `nodes` nodes a
/// move, and returns White's score: 1, ½ or 0 (a draw at `max_plies`).
#[must_use]
pub fn play_game(
    white: (&EvalParams, &SearchParams),
    black: (&EvalParams, &SearchParams),
    start: &Chess,
    nodes: u64,
    max_plies: u32,
    hash_mb: usize,
) -> f64 {
    let mut engines = [
        Engine::new(*white.0, *white.1, hash_mb),
        Engine::new(*black.0, *black.1, hash_mb),
    ];
    let mut pos = start.clone();
    let mut keys: Vec<u64> = Vec::with_capacity(max_plies as usize + 1);
    let limits = Limits::nodes(nodes);
    for _ in 0..max_plies {
        if let Some(outcome) = pos.outcome().known() {
            return match outcome.winner() {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        if keys.iter().filter(|&&k| k == key).count() >= 2 || pos.halfmoves() >= 100 {
            return 0.5;
        }
        let side = usize::from(pos.turn() == Color::Black);
        let best = engines[side]
            .search(&pos, &keys, &limits, &mut |_| {})
            .best_move;
        keys.push(key);
        match best {
            Some(mv) => pos.play_unchecked(mv),
            None => return 0.5,
        }
    }
    0.5
}

/// Plays a match of two games per opening, colours swapped, in parallel; returns the first
/// player's score in each game, in opening order (first player White, then Black).
#[must_use]
pub fn play_match(
    first: (&EvalParams, &SearchParams),
    second: (&EvalParams, &SearchParams),
    openings: &[Chess],
    nodes: u64,
    max_plies: u32,
) -> Vec<f64> {
    (0..openings.len() * 2)
        .into_par_iter()
        .map(|j| {
            let start = &openings[j / 2];
            if j % 2 == 0 {
                play_game(first, second, start, nodes, max_plies, 4)
            } else {
                1.0 - play_game(second, first, start, nodes, max_plies, 4)
            }
        })
        .collect()
}

/// Returns the book index of game `j` between organisms `a < b` in generation `generation`.
#[must_use]
pub fn opening_index(
    seed: u64,
    generation: usize,
    a: usize,
    b: usize,
    j: usize,
    book_len: usize,
) -> usize {
    let mut h = splitmix64(seed ^ 0xC0E0_u64);
    for v in [generation, a, b, j] {
        h = splitmix64(h ^ v as u64);
    }
    (h % book_len.max(1) as u64) as usize
}

/// The coevolution fitness: points scored in a round robin of the population.
#[derive(Debug)]
pub struct CoevolutionFitness {
    /// How games are played.
    pub matches: MatchConfig,
}

impl Fitness for CoevolutionFitness {
    /// Plays the round robin in parallel and returns each organism's points. The openings of
    /// a generation are chosen from a fingerprint (FNV-1a) of its genomes, so the same
    /// population always plays the same games, and a resumed run the same as an uninterrupted
    /// one; successive generations differ and so draw other openings.
    fn evaluate(&self, population: &[Genome]) -> Vec<f64> {
        let params: Vec<EvalParams> = population
            .iter()
            .map(|g| EvalParams::decode(g, Coding::Gray).unwrap_or_default())
            .collect();
        let fingerprint = population
            .iter()
            .flat_map(|g| g.iter())
            .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        let n = population.len();
        let mut jobs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for j in 0..self.matches.games_per_pair {
                    jobs.push((a, b, j));
                }
            }
        }
        let book = &self.matches.openings;
        let results: Vec<(usize, usize, f64)> = jobs
            .par_iter()
            .map(|&(a, b, j)| {
                let start =
                    &book[opening_index(self.matches.seed ^ fingerprint, 0, a, b, j, book.len())];
                // Colours alternate: `a` has White in even games.
                let (white, black) = if j % 2 == 0 { (a, b) } else { (b, a) };
                let plain = SearchParams::plain();
                let m = &self.matches;
                let score = play_game(
                    (&params[white], &plain),
                    (&params[black], &plain),
                    start,
                    m.nodes,
                    m.max_plies,
                    m.hash_mb,
                );
                (white, black, score)
            })
            .collect();
        let mut points = vec![0.0; n];
        for (white, black, score) in results {
            points[white] += score;
            points[black] += 1.0 - score;
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> MatchConfig {
        MatchConfig {
            games_per_pair: 2,
            nodes: 300,
            max_plies: 300,
            openings: read_book(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n",
                "t",
            )
            .expect("book"),
            seed: 1,
            hash_mb: 1,
        }
    }

    #[test]
    fn points_add_up_and_a_queenless_organism_loses() {
        let strong = EvalParams::default();
        let mut weak = EvalParams::default();
        // Values every piece at nothing: it gives material away.
        for name in ["KNIGHT_VALUE", "BISHOP_VALUE", "ROOK_VALUE", "QUEEN_VALUE"] {
            weak.set(name, 0).expect("known");
        }
        let population = vec![
            strong.encode(Coding::Gray),
            weak.encode(Coding::Gray),
            strong.encode(Coding::Gray),
        ];
        let f = CoevolutionFitness { matches: config() };
        let points = f.evaluate(&population);
        // 3 pairs × 2 games = 6 points in all.
        assert!(
            (points.iter().sum::<f64>() - 6.0).abs() < 1e-9,
            "{points:?}"
        );
        assert!(points[1] < points[0] && points[1] < points[2], "{points:?}");
        assert_eq!(f.evaluate(&population), points, "deterministic");
    }

    #[test]
    fn bad_book_lines_are_named() {
        let e = read_book("8/8/8/8 w - -\n", "b.epd").expect_err("bad");
        assert!(e.to_string().starts_with("b.epd line 1"), "{e}");
    }
}
