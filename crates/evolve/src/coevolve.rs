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
use eloworld_engine::search::Techniques;
use eloworld_engine::{Coding, EvalParams};
use eloworld_games::{DrawRules, GameKind, GameResult, Side};
use eloworld_players::chess::evol::genome_hex;
use eloworld_schedule::coevolution;
use eloworld_tournament::{Plan, TournamentConfig};
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
    /// The standard techniques the organisms search with beside the genes.
    pub techniques: Techniques,
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

/// [`eloworld_schedule::coevolution::pair_openings`], with a book too small an
/// error.
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
    coevolution::pair_openings(seed, generation, a, b, count, book_len)
        .ok_or_else(|| too_few(count, book_len))
}

fn too_few(count: usize, book_len: usize) -> EvolveError {
    EvolveError::Input(format!(
        "{count} games per pair need {count} different openings; the book has {book_len}"
    ))
}

/// The `evol` spec of an organism: its genome (Gray-coded evaluation parameters), the plain
/// alpha-beta search at `nodes` nodes per move, a `hash_mb` table and the standard techniques
/// named one by one, so that a checkpoint's games name the engine that played them (a build
/// with other techniques plays other players, never the checkpoint's).
///
/// # Errors
/// [`EvolveError::Engine`] when the genome does not decode.
pub fn organism_spec(genome: &[bool], matches: &MatchConfig) -> Result<String, EvolveError> {
    let eval = EvalParams::decode(genome, Coding::Gray)?;
    Ok(format!(
        "evol:genome={},hash={},nodes={},search=plain,techniques={}",
        genome_hex(&eval),
        matches.hash_mb,
        matches.nodes,
        matches.techniques.names()
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
    let book: Vec<String> = matches.openings.iter().map(fen_of).collect();
    let schedule = coevolution::generation(
        &specs,
        generation,
        matches.games_per_pair,
        &book,
        matches.seed,
    )
    .ok_or_else(|| too_few(matches.games_per_pair, book.len()))?;
    let organisms = schedule.organisms.clone();
    let mut config = TournamentConfig::new(name, GameKind::Chess, Vec::new());
    config.games_per_pair = u32::try_from(matches.games_per_pair).unwrap_or(u32::MAX);
    config.max_plies = matches.max_plies;
    config.draw_rules = DrawRules::Claimed;
    config.seed = matches.seed;
    Ok(GenerationGames {
        plan: Plan::coevolution(&config, schedule).map_err(eloworld_tournament::RunError::from)?,
        organisms,
        population: population.len(),
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
                self.plan.config().name,
                results.len(),
                self.organisms.len()
            )));
        }
        let mut points = vec![0.0; self.population];
        for &(key, result) in results {
            let &(white, black) = self.organisms.get(key as usize).ok_or_else(|| {
                EvolveError::Input(format!(
                    "tournament {:?}: a result for job {key}, which is not in the plan",
                    self.plan.config().name
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
            techniques: Techniques::default(),
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
        assert_eq!(games.plan.players().len(), 2);
        assert_eq!(games.plan.jobs().len(), 3 * 4);
        for pair in games.plan.jobs().chunks(4) {
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
