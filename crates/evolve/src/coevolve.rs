//! Phase 2 of David, Koppel and Netanyahu's evolution (section III.C): single-population
//! coevolution of the best evolved evaluation functions. In each generation every organism
//! plays every other `games_per_pair` games, each from a different opening of a book, with
//! the basic alpha-beta search (no selective methods: `search=plain`) at a fixed node budget
//! per move; an organism's fitness is its points (win 1, draw ½). The GA then applies
//! rank-based selection and elitism (see [`crate::ga`]).
//!
//! A generation's games are a tournament [`Plan`] ([`generation_games`]) that the tournament
//! runner plays like any other: the same game loop, draw rules (threefold repetition, the
//! fifty-move rule: `claimed`) and adjudication (a draw at `max_plies`), stored, resumable,
//! and playable by `eloworld worker` on other machines, since each organism is an `evol`
//! spec that carries its genome (`evol:genome=HEX,…`). [`GenerationGames::points`] turns the
//! stored results back into fitness.
//!
//! Games are deterministic: the engine searches exact node budgets. The openings of pair
//! `(a, b)` in generation `g` are drawn without replacement from the book by a SplitMix64
//! chain seeded with `(seed, g, a, b)` ([`pair_openings`]), so a pair never plays the same
//! opening twice in a generation; colours alternate with the game's index.

use crate::{EvolveError, Genome};
use eloworld_engine::{Coding, EvalParams};
use eloworld_games::rng::{game_seed, splitmix64};
use eloworld_games::{DrawRules, GameKind, GameResult, Side};
use eloworld_players::chess::evol::genome_hex;
use eloworld_tournament::{JobSpec, Plan, TournamentConfig};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, FromSetup, Position, PositionError};

/// How the coevolution games are played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games per pair of organisms per generation (the paper: 4), each from another opening.
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
    let positions = eloworld_games::chess::input::epd_positions(source, text)
        .map_err(|e| EvolveError::Input(e.to_string()))?;
    positions
        .into_iter()
        .map(|(line, pos)| {
            // Every game starts at move 1 with a fresh fifty-move count, whatever clocks the
            // book's lines carry.
            let mode = pos.castles().mode();
            let mut setup = pos.to_setup(EnPassantMode::Legal);
            setup.halfmoves = 0;
            setup.fullmoves = std::num::NonZeroU32::MIN;
            Chess::from_setup(setup, mode)
                .or_else(PositionError::ignore_impossible_check)
                .map_err(|e| EvolveError::Input(format!("{source}:{line}: {e}")))
        })
        .collect()
}

/// Returns `count` distinct book indices for the games of pair `(a, b)` in `generation`,
/// drawn without replacement from a SplitMix64 chain (Lemire's multiply-shift for the range).
///
/// # Errors
/// [`EvolveError::Input`] when the book has fewer than `count` openings.
pub fn pair_openings(
    seed: u64,
    generation: usize,
    a: usize,
    b: usize,
    count: usize,
    book_len: usize,
) -> Result<Vec<usize>, EvolveError> {
    if count > book_len {
        return Err(EvolveError::Input(format!(
            "{count} games per pair need {count} different openings; the book has {book_len}"
        )));
    }
    let mut h = splitmix64(seed ^ 0xC0E0_u64);
    for v in [generation, a, b] {
        h = splitmix64(h ^ v as u64);
    }
    let mut chosen: Vec<usize> = Vec::with_capacity(count);
    while chosen.len() < count {
        h = splitmix64(h);
        let i = ((u128::from(h) * book_len as u128) >> 64) as usize;
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    Ok(chosen)
}

/// The `evol` spec of an organism: its genome (Gray-coded evaluation parameters), the plain
/// alpha-beta search at `nodes` nodes per move and a `hash_mb` table.
///
/// # Errors
/// [`EvolveError::Engine`] when the genome does not decode.
pub fn organism_spec(genome: &[bool], matches: &MatchConfig) -> Result<String, EvolveError> {
    let eval = EvalParams::decode(genome, Coding::Gray)?;
    Ok(format!(
        "evol:genome={},hash={},nodes={},search=plain",
        genome_hex(&eval),
        matches.hash_mb,
        matches.nodes
    ))
}

/// One generation's games as a tournament plan, and who is who in it.
#[derive(Clone, Debug)]
pub struct GenerationGames {
    /// The plan: one player per distinct organism spec, `games_per_pair` games for every
    /// pair of organisms.
    pub plan: Plan,
    /// For each job (by key), the organisms playing White and Black.
    pub organisms: Vec<(usize, usize)>,
    /// Organisms in the population.
    pub population: usize,
}

/// Makes the plan of generation `generation`'s round robin, named `name`.
///
/// # Errors
/// [`EvolveError::Input`] when the book is too small; [`EvolveError::Engine`] for a genome
/// that does not decode.
pub fn generation_games(
    population: &[Genome],
    generation: usize,
    matches: &MatchConfig,
    name: &str,
) -> Result<GenerationGames, EvolveError> {
    let specs: Vec<String> = population
        .iter()
        .map(|g| organism_spec(g, matches))
        .collect::<Result<_, _>>()?;
    // Organisms with the same genome are one player of the plan.
    let mut players: Vec<String> = Vec::new();
    let index: Vec<u32> = specs
        .iter()
        .map(|s| {
            let i = players.iter().position(|p| p == s).unwrap_or_else(|| {
                players.push(s.clone());
                players.len() - 1
            });
            i as u32
        })
        .collect();
    let mut openings: Vec<String> = Vec::new();
    let mut jobs = Vec::new();
    let mut organisms = Vec::new();
    let n = population.len();
    for a in 0..n {
        for b in a + 1..n {
            let chosen = pair_openings(
                matches.seed,
                generation,
                a,
                b,
                matches.games_per_pair,
                matches.openings.len(),
            )?;
            for (j, &book_index) in chosen.iter().enumerate() {
                // Colours alternate: `a` has White in even games.
                let (white, black) = if j % 2 == 0 { (a, b) } else { (b, a) };
                let fen = fen_of(&matches.openings[book_index]);
                let opening = match openings.iter().position(|o| *o == fen) {
                    Some(i) => i,
                    None => {
                        openings.push(fen);
                        openings.len() - 1
                    }
                };
                let key = jobs.len() as u32;
                jobs.push(JobSpec {
                    key,
                    white: index[white],
                    black: index[black],
                    round: key,
                    opening: Some(opening as u32),
                    seed: game_seed(
                        matches.seed,
                        &specs[white],
                        &specs[black],
                        key,
                        &openings[opening],
                    ),
                });
                organisms.push((white, black));
            }
        }
    }
    let mut config = TournamentConfig::new(name, GameKind::Chess, players.clone());
    config.games_per_pair = u32::try_from(matches.games_per_pair).unwrap_or(u32::MAX);
    config.max_plies = matches.max_plies;
    config.draw_rules = DrawRules::Claimed;
    config.seed = matches.seed;
    Ok(GenerationGames {
        plan: Plan {
            config,
            game: GameKind::Chess,
            players,
            openings,
            jobs,
        },
        organisms,
        population: n,
    })
}

impl GenerationGames {
    /// Each organism's points (win 1, draw ½) from the stored results by job key.
    ///
    /// # Errors
    /// [`EvolveError::Input`] when a job's result is missing or unknown.
    pub fn points(&self, results: &[(u32, GameResult)]) -> Result<Vec<f64>, EvolveError> {
        if results.len() != self.organisms.len() {
            return Err(EvolveError::Input(format!(
                "tournament {:?}: {} of {} games stored",
                self.plan.config.name,
                results.len(),
                self.organisms.len()
            )));
        }
        let mut points = vec![0.0; self.population];
        for &(key, result) in results {
            let &(white, black) = self.organisms.get(key as usize).ok_or_else(|| {
                EvolveError::Input(format!(
                    "tournament {:?}: a result for job {key}, which is not in the plan",
                    self.plan.config.name
                ))
            })?;
            let white_score = match result {
                GameResult::Win(Side::First) => 1.0,
                GameResult::Win(Side::Second) => 0.0,
                GameResult::Draw => 0.5,
            };
            points[white] += white_score;
            points[black] += 1.0 - white_score;
        }
        Ok(points)
    }
}

/// A match between two players as a tournament plan: game `j` starts from
/// `openings[j / 2]` (FEN), the first player has White in even games, so each opening is
/// played with colours swapped (the evolution's matches, Tables IV–VI in form).
///
/// # Errors
/// [`EvolveError::Input`] when there are fewer openings than pairs of games.
pub fn match_plan(
    name: &str,
    first: &str,
    second: &str,
    openings: &[String],
    games: usize,
    max_plies: u32,
) -> Result<Plan, EvolveError> {
    if openings.len() < games.div_ceil(2) {
        return Err(EvolveError::Input(format!(
            "{games} games need {} openings, got {}",
            games.div_ceil(2),
            openings.len()
        )));
    }
    let players = vec![first.to_owned(), second.to_owned()];
    let jobs = (0..games)
        .map(|j| {
            let (white, black) = if j % 2 == 0 { (0, 1) } else { (1, 0) };
            let opening = j / 2;
            JobSpec {
                key: j as u32,
                white,
                black,
                round: j as u32,
                opening: Some(opening as u32),
                seed: game_seed(
                    0,
                    &players[white as usize],
                    &players[black as usize],
                    j as u32,
                    &openings[opening],
                ),
            }
        })
        .collect();
    let mut config = TournamentConfig::new(name, GameKind::Chess, players.clone());
    config.games_per_pair = u32::try_from(games.div_ceil(2)).unwrap_or(u32::MAX);
    config.max_plies = max_plies;
    config.draw_rules = DrawRules::Claimed;
    Ok(Plan {
        config,
        game: GameKind::Chess,
        players,
        openings: openings.to_vec(),
        jobs,
    })
}

/// The first player's points and the games played, from a [`match_plan`]'s stored results.
#[must_use]
pub fn first_player_points(results: &[(u32, GameResult)]) -> (f64, usize) {
    let points = results
        .iter()
        .map(|&(key, result)| {
            let first_side = if key % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            match result {
                GameResult::Win(s) if s == first_side => 1.0,
                GameResult::Win(_) => 0.0,
                GameResult::Draw => 0.5,
            }
        })
        .sum();
    (points, results.len())
}

/// Writes a position as the FEN a plan keeps.
#[must_use]
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> MatchConfig {
        MatchConfig {
            games_per_pair: 4,
            nodes: 300,
            max_plies: 300,
            openings: read_book(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                 rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n\
                 rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -\n\
                 rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq -\n\
                 rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPP1P/RNBQKBNR b KQkq -\n",
                "t",
            )
            .expect("book"),
            seed: 1,
            hash_mb: 1,
        }
    }

    #[test]
    fn a_pair_never_repeats_an_opening_and_colours_alternate() {
        let strong = EvalParams::default().encode(Coding::Gray);
        let mut weak = EvalParams::default();
        weak.set("QUEEN_VALUE", 0).expect("known");
        let population = vec![strong.clone(), weak.encode(Coding::Gray), strong];
        let games = generation_games(&population, 3, &config(), "g3").expect("plan");
        // Two distinct organisms: the identical ones share a player.
        assert_eq!(games.plan.players.len(), 2);
        assert_eq!(games.plan.jobs.len(), 3 * 4);
        for pair in games.plan.jobs.chunks(4) {
            let mut openings: Vec<_> = pair.iter().map(|j| j.opening).collect();
            openings.sort_unstable();
            openings.dedup();
            assert_eq!(openings.len(), 4, "openings repeat within a pair: {pair:?}");
        }
        assert_eq!(games.organisms[0], (0, 1));
        assert_eq!(games.organisms[1], (1, 0));
        assert_eq!(games.organisms[4], (0, 2));
        // The same population gives the same plan (a resumed generation replays nothing).
        let again = generation_games(&population, 3, &config(), "g3").expect("plan");
        assert_eq!(again.plan.fingerprint(), games.plan.fingerprint());
        let other = generation_games(&population, 4, &config(), "g4").expect("plan");
        assert_ne!(other.plan.fingerprint(), games.plan.fingerprint());
    }

    #[test]
    fn points_follow_the_jobs_and_add_up() {
        let population = vec![
            EvalParams::default().encode(Coding::Gray),
            EvalParams::default().encode(Coding::Gray),
        ];
        let mut c = config();
        c.games_per_pair = 2;
        let games = generation_games(&population, 0, &c, "p").expect("plan");
        // Job 0: organism 0 White wins; job 1: organism 1 White, a draw.
        let points = games
            .points(&[(0, GameResult::Win(Side::First)), (1, GameResult::Draw)])
            .expect("points");
        assert_eq!(points, vec![1.5, 0.5]);
        let e = games.points(&[(0, GameResult::Draw)]).expect_err("missing");
        assert!(e.to_string().contains("1 of 2 games stored"), "{e}");
    }

    #[test]
    fn a_book_smaller_than_the_games_of_a_pair_is_refused() {
        let e = pair_openings(1, 0, 0, 1, 6, 5).expect_err("too few");
        assert!(e.to_string().contains("the book has 5"), "{e}");
        let picked = pair_openings(1, 0, 0, 1, 5, 5).expect("all of them");
        let mut sorted = picked.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn book_positions_start_at_move_one() {
        let book = read_book(
            "# clocks dropped\nr1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 6 4\n",
            "b.epd",
        )
        .expect("book");
        assert_eq!(
            Fen::from_position(&book[0], EnPassantMode::Legal).to_string(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1"
        );
    }

    #[test]
    fn bad_book_lines_are_named() {
        let e = read_book("8/8/8/8 w - -\n", "b.epd").expect_err("bad");
        assert!(e.to_string().starts_with("b.epd:1: "), "{e}");
    }
}
