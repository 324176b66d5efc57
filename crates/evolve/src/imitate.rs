//! Phase 1 of David, Koppel and Netanyahu's evolution paper (section III.B): evolve the
//! evaluation parameters so that a 1-ply search plays the moves grandmasters played.
//!
//! **Positions.** From games where both players are rated at least `min_elo` (2600) and that
//! ended decisively, positions are taken where the side to move went on to win, with the move
//! played. The paper took one position from each of 10,000 games; our collections hold about
//! 1,170 such games, so [`DatasetConfig::per_game`] positions are drawn from each game
//! instead (uniformly among its plies by the winner that have at least two legal moves). The
//! games — not the positions — are split into training and test halves, so no game feeds both.
//!
//! **Fitness.** Each organism picks, in every training position, the move the engine's own
//! 1-ply search picks with its parameters ([`eloworld_engine::Engine::best_move_1ply`] with
//! quiescence: every legal move played, the resulting position scored by the quiescence
//! search, a mating move first, ties to the first move in shakmaty's order); fitness =
//! (number of grandmaster moves matched)², exact for every organism, as roulette selection
//! needs.
//!
//! **Speed.** A generation scores position by position, all organisms at once: in each
//! position an [`OnePlyTree`] generates the legal moves and the quiescence nodes once and
//! computes each node's evaluation features once (the evaluation is linear in the
//! parameters), and each organism's search over those shared nodes costs a dot product per
//! node. Positions are shared out among the threads; each thread reuses its tree's memory.

use crate::{EvolveError, Fitness, Genome};
use eloworld_engine::one_ply::{OnePlyScoring, OnePlyTree, Weights};
use eloworld_engine::{Coding, EvalParams};
use eloworld_games::chess::input::{self, PgnReader};
use eloworld_games::rng::{fnv1a, splitmix64};
use eloworld_games::GameRng;
use rayon::prelude::*;
use shakmaty::san::San;
use shakmaty::{Chess, Color, EnPassantMode, KnownOutcome, Move, Outcome, Position};
use std::path::{Path, PathBuf};

/// How positions are drawn from the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetConfig {
    /// Least Elo of both players.
    pub min_elo: u32,
    /// Positions drawn per game.
    pub per_game: usize,
    /// Most training positions (the paper: 5,000).
    pub max_train: usize,
    /// Most test positions (the paper: 5,000).
    pub max_test: usize,
    /// The seed of the draw and of the split.
    pub seed: u64,
}

impl DatasetConfig {
    /// Returns the defaults: Elo ≥ 2600, 16 positions per game, at most 5,000 + 5,000.
    #[must_use]
    pub const fn new() -> DatasetConfig {
        DatasetConfig {
            min_elo: 2600,
            per_game: 16,
            max_train: 5000,
            max_test: 5000,
            seed: 2600,
        }
    }

    /// Describes the settings in one line.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "min_elo={} per_game={} max_train={} max_test={} data_seed={}",
            self.min_elo, self.per_game, self.max_train, self.max_test, self.seed
        )
    }
}

impl Default for DatasetConfig {
    fn default() -> DatasetConfig {
        DatasetConfig::new()
    }
}

/// A decisive game between two strong players, as read.
#[derive(Clone, Debug)]
pub struct StrongGame {
    /// Where it came from: `file #N`.
    pub origin: String,
    /// The moves.
    pub moves: Vec<San>,
    /// The winner.
    pub winner: Color,
}

/// What reading the PGN files found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadReport {
    /// Games read.
    pub games: usize,
    /// Games with both Elos at least the minimum.
    pub strong: usize,
    /// Of those, decisive games kept.
    pub decisive: usize,
}

/// Reads the decisive games of players both rated at least `min_elo` from PGN files.
///
/// # Errors
/// [`EvolveError::ChessInput`] naming the file (and line) that cannot be read.
pub fn read_strong_games(
    files: &[PathBuf],
    min_elo: u32,
) -> Result<(Vec<StrongGame>, ReadReport), EvolveError> {
    let mut games = Vec::new();
    let mut report = ReadReport::default();
    for path in files {
        for game in PgnReader::open(path)? {
            let game = game?;
            report.games += 1;
            let strong = game.white_elo.is_some_and(|e| e >= min_elo)
                && game.black_elo.is_some_and(|e| e >= min_elo);
            if !strong || game.fen.is_some() {
                continue;
            }
            report.strong += 1;
            if let Some(Outcome::Known(KnownOutcome::Decisive { winner })) = game.result {
                report.decisive += 1;
                games.push(StrongGame {
                    origin: format!("{} #{}", path.display(), game.number),
                    moves: game.sans,
                    winner,
                });
            }
        }
    }
    Ok((games, report))
}

/// A set of positions with the grandmaster's move in each, scored by the engine's 1-ply
/// search ([`OnePlyTree`]).
#[derive(Clone, Debug, Default)]
pub struct PositionSet {
    positions: Vec<Chess>,
    /// Index (in shakmaty's legal move order) of the grandmaster's move in each position.
    played: Vec<usize>,
    /// Each position as FEN with the grandmaster's move (UCI), for inspection.
    pub fens: Vec<(String, String)>,
}

impl PositionSet {
    /// Returns the number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Returns whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Keeps the first `n` positions.
    pub fn truncate(&mut self, n: usize) {
        self.positions.truncate(n);
        self.played.truncate(n);
        self.fens.truncate(n);
    }

    /// Adds a position and the move played in it.
    ///
    /// # Errors
    /// [`EvolveError::Input`] if the move is illegal.
    pub fn push(&mut self, pos: &Chess, played: Move) -> Result<(), EvolveError> {
        let legal = pos.legal_moves();
        let played_index = legal.iter().position(|m| *m == played).ok_or_else(|| {
            EvolveError::Input(format!(
                "move {played} is not legal in {}",
                shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal)
            ))
        })?;
        self.positions.push(pos.clone());
        self.played.push(played_index);
        self.fens.push((
            shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string(),
            played.to_uci(shakmaty::CastlingMode::Standard).to_string(),
        ));
        Ok(())
    }

    /// Counts, for each parameter set, the positions where its 1-ply choice is the
    /// grandmaster's move — exactly as [`eloworld_engine::Engine::best_move_1ply`] would
    /// choose. Positions are shared out among the threads; in each, the legal moves, the
    /// quiescence nodes and their evaluation features are computed once for all the sets.
    #[must_use]
    pub fn matches_each(&self, weights: &[Weights], scoring: OnePlyScoring) -> Vec<usize> {
        let zero = || vec![0usize; weights.len()];
        self.positions
            .par_iter()
            .zip(&self.played)
            .fold(
                || (OnePlyTree::new(), zero()),
                |(mut tree, mut counts), (pos, &played)| {
                    tree.reset(pos);
                    for (count, w) in counts.iter_mut().zip(weights) {
                        if tree.best(w, scoring).is_some_and(|(i, _)| i == played) {
                            *count += 1;
                        }
                    }
                    (tree, counts)
                },
            )
            .map(|(_, counts)| counts)
            .reduce(zero, |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            })
    }

    /// Counts the positions where the 1-ply choice with `params` (quiescence search) is the
    /// grandmaster's move.
    #[must_use]
    pub fn matches(&self, params: &EvalParams) -> usize {
        self.matches_each(&[Weights::new(params)], OnePlyScoring::Quiescence)[0]
    }
}

/// The training and test positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Training positions.
    pub train: PositionSet,
    /// Held-out test positions.
    pub test: PositionSet,
    /// Games that fed the training set.
    pub train_games: usize,
    /// Games that fed the test set.
    pub test_games: usize,
}

/// Draws the positions of [`DatasetConfig`] from the games and splits them by game.
///
/// # Errors
/// [`EvolveError::Input`] when no position can be drawn.
pub fn build_dataset(
    games: &[StrongGame],
    config: &DatasetConfig,
) -> Result<(Dataset, usize), EvolveError> {
    // Shuffle the games (Fisher–Yates) so the split does not follow file order.
    let mut order: Vec<usize> = (0..games.len()).collect();
    let mut rng = GameRng::new(splitmix64(config.seed ^ fnv1a("split")));
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let half = order.len().div_ceil(2);
    // Replay and draw in parallel; each game has its own random stream.
    let drawn: Vec<Option<Vec<(Chess, Move)>>> = order
        .par_iter()
        .map(|&g| {
            draw_positions(
                &games[g],
                config.per_game,
                splitmix64(config.seed ^ g as u64),
            )
        })
        .collect();
    let bad_moves = drawn.iter().filter(|d| d.is_none()).count();
    let mut data = Dataset::default();
    for (k, positions) in drawn.into_iter().enumerate() {
        let Some(positions) = positions else { continue };
        let (set, cap, games_used) = if k < half {
            (&mut data.train, config.max_train, &mut data.train_games)
        } else {
            (&mut data.test, config.max_test, &mut data.test_games)
        };
        if set.len() >= cap || positions.is_empty() {
            continue;
        }
        *games_used += 1;
        for (pos, m) in positions.into_iter().take(cap - set.len()) {
            set.push(&pos, m)?;
        }
    }
    if data.train.is_empty() || data.test.is_empty() {
        return Err(EvolveError::Input(format!(
            "{} games gave {} training and {} test positions: need some of each",
            games.len(),
            data.train.len(),
            data.test.len()
        )));
    }
    Ok((data, bad_moves))
}

/// Replays a game and draws up to `count` positions where the winner is to move and has a
/// choice; `None` when a move does not replay.
fn draw_positions(game: &StrongGame, count: usize, seed: u64) -> Option<Vec<(Chess, Move)>> {
    let mut pos = Chess::default();
    let mut candidates = Vec::new();
    for san in &game.moves {
        let m = san.to_move(&pos).ok()?;
        if pos.turn() == game.winner && pos.legal_moves().len() >= 2 {
            candidates.push((pos.clone(), m));
        }
        pos.play_unchecked(m);
    }
    let mut rng = GameRng::new(seed);
    // A partial Fisher–Yates shuffle picks `count` distinct plies; they are kept in game order.
    let take = count.min(candidates.len());
    let mut idx: Vec<usize> = (0..candidates.len()).collect();
    for i in 0..take {
        let j = i + rng.below(idx.len() - i);
        idx.swap(i, j);
    }
    let mut chosen = idx[..take].to_vec();
    chosen.sort_unstable();
    Some(chosen.into_iter().map(|i| candidates[i].clone()).collect())
}

/// Decodes an organism (224 Gray-coded bits, David–Koppel–Netanyahu section III.A) into evaluation
/// parameters.
///
/// # Errors
/// [`EvolveError::Engine`] on a wrong length.
pub fn decode(genome: &[bool]) -> Result<EvalParams, EvolveError> {
    Ok(EvalParams::decode(genome, Coding::Gray)?)
}

/// The phase-1 fitness: (grandmaster moves matched on the training set)², each organism's
/// move chosen by the engine's 1-ply search with `scoring` (quiescence by default). Extras of
/// the best organism: matches on the training set, then on the test set.
#[derive(Debug)]
pub struct ImitationFitness<'a> {
    /// The positions.
    pub data: &'a Dataset,
    /// How the 1-ply search scores each move.
    pub scoring: OnePlyScoring,
}

impl<'a> ImitationFitness<'a> {
    /// The fitness of the paper's phase 1 on `data`: 1-ply search with quiescence.
    #[must_use]
    pub fn new(data: &'a Dataset) -> ImitationFitness<'a> {
        ImitationFitness {
            data,
            scoring: OnePlyScoring::Quiescence,
        }
    }

    /// Counts each organism's matches on `set`; an organism that does not decode (a wrong
    /// length) matches nothing.
    fn matches(&self, set: &PositionSet, genomes: &[&[bool]]) -> Vec<usize> {
        let decoded: Vec<Option<Weights>> = genomes
            .iter()
            .map(|g| decode(g).ok().map(|p| Weights::new(&p)))
            .collect();
        let valid: Vec<Weights> = decoded.iter().flatten().copied().collect();
        let mut counts = set.matches_each(&valid, self.scoring).into_iter();
        decoded
            .iter()
            .map(|d| d.map_or(0, |_| counts.next().unwrap_or(0)))
            .collect()
    }
}

impl Fitness for ImitationFitness<'_> {
    fn evaluate(&self, population: &[Genome]) -> Vec<f64> {
        let genomes: Vec<&[bool]> = population.iter().map(Vec::as_slice).collect();
        self.matches(&self.data.train, &genomes)
            .into_iter()
            .map(|m| {
                let m = m as f64;
                m * m
            })
            .collect()
    }

    fn extras(&self, best: &[bool]) -> Vec<f64> {
        let train = self.matches(&self.data.train, &[best])[0];
        let test = self.matches(&self.data.test, &[best])[0];
        let out = vec![train as f64, test as f64];
        out
    }
}

/// One phase-1 generation in the units a reader wants. [`ImitationFitness`] scores an
/// organism by its training matches squared (to separate the best further, as
/// David–Koppel–Netanyahu's fitness does) and records the best organism's training and
/// test matches as the generation's extras; this is the one place that reads them back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImitationSummary {
    /// The generation's index (0: the random first generation).
    pub index: usize,
    /// The best organism's matches on the training positions.
    pub best_train: f64,
    /// The best organism's matches on the test positions.
    pub best_test: f64,
    /// The population's mean matches on the training positions.
    pub mean_train: f64,
}

impl ImitationSummary {
    /// Reads a generation scored by [`ImitationFitness`].
    #[must_use]
    pub fn of(g: &crate::Generation) -> ImitationSummary {
        let n = g.fitness.len().max(1) as f64;
        ImitationSummary {
            index: g.index,
            best_train: g.extras.first().copied().unwrap_or(0.0),
            best_test: g.extras.get(1).copied().unwrap_or(0.0),
            mean_train: g.fitness.iter().map(|f| f.sqrt()).sum::<f64>() / n,
        }
    }
}

/// The phase-1 positions of a directory of PGN files, and what reading them found.
#[derive(Clone, Debug)]
pub struct LoadedDataset {
    /// The training and test positions.
    pub data: Dataset,
    /// What reading the games found.
    pub report: ReadReport,
    /// The PGN files read.
    pub files: usize,
    /// Games skipped because a move did not replay.
    pub bad_games: usize,
}

/// Reads every `*.pgn` file of `dir` and draws the positions of `config`
/// ([`read_strong_games`] then [`build_dataset`]).
///
/// # Errors
/// [`EvolveError::ChessInput`] naming an unreadable directory or file; [`EvolveError::Input`] when
/// the directory holds no PGN file or the games give no position.
pub fn load_dataset(dir: &Path, config: &DatasetConfig) -> Result<LoadedDataset, EvolveError> {
    let files = pgn_files(dir)?;
    if files.is_empty() {
        return Err(EvolveError::Input(format!(
            "no .pgn files in {}",
            dir.display()
        )));
    }
    let (games, report) = read_strong_games(&files, config.min_elo)?;
    let (data, bad_games) = build_dataset(&games, config)?;
    Ok(LoadedDataset {
        data,
        report,
        files: files.len(),
        bad_games,
    })
}

/// Lists the `*.pgn` files of a directory, in name order.
///
/// # Errors
/// [`EvolveError::ChessInput`] when the directory cannot be read.
pub fn pgn_files(dir: &Path) -> Result<Vec<PathBuf>, EvolveError> {
    Ok(input::pgn_files(dir)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{evolve, GaConfig};
    use eloworld_engine::{Engine, SearchParams};
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    /// A few plies of real games (the PGN fixture below) as (position, move) samples.
    const PGN: &str = r#"[White "A"]
[Black "B"]
[WhiteElo "2700"]
[BlackElo "2650"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6 1-0

[White "C"]
[Black "D"]
[WhiteElo "2500"]
[BlackElo "2700"]
[Result "0-1"]

1. e4 e5 0-1
"#;

    fn fixture_games() -> Vec<StrongGame> {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("g.pgn");
        std::fs::write(&path, PGN).expect("write");
        let (games, report) = read_strong_games(&[path], 2600).expect("reads");
        assert_eq!(
            report,
            ReadReport {
                games: 2,
                strong: 1,
                decisive: 1
            }
        );
        games
    }

    /// The fitness counts, for random organisms, the positions where the engine's own 1-ply
    /// search with quiescence plays the grandmaster's move — not the static evaluation's.
    #[test]
    fn the_fitness_counts_the_engines_quiescence_choices() {
        let games = fixture_games();
        let mut data = Dataset::default();
        let mut samples = Vec::new();
        for (p, m) in draw_positions(&games[0], 40, 1).expect("replays") {
            data.train.push(&p, m).expect("legal");
            samples.push((p, m));
        }
        assert_eq!(samples.len(), 40);
        // A mate in one, played.
        let mate = pos("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1");
        let re8 = mate
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == shakmaty::Square::E8)
            .expect("Re8");
        data.train.push(&mate, re8).expect("legal");
        samples.push((mate, re8));
        let mut rng = GameRng::new(5);
        let population: Vec<Genome> = (0..20)
            .map(|_| (0..224).map(|_| rng.unit() < 0.5).collect())
            .collect();
        let fitness = ImitationFitness::new(&data).evaluate(&population);
        let mut differs = false;
        for (genome, got) in population.iter().zip(&fitness) {
            let mut engine = Engine::new(
                decode(genome).expect("224 bits"),
                SearchParams::default(),
                1,
            );
            let mut count = |quiescence: bool| {
                samples
                    .iter()
                    .filter(|(p, m)| engine.best_move_1ply(p, quiescence).expect("a move").0 == *m)
                    .count()
            };
            let (with, without) = (count(true), count(false));
            differs |= with != without;
            let expected = (with * with) as f64;
            assert_eq!(*got, expected);
        }
        assert!(
            differs,
            "quiescence changed no organism's score: the test proves nothing"
        );
    }

    #[test]
    fn positions_are_the_winners_and_split_by_game() {
        let games = fixture_games();
        assert_eq!(games[0].winner, Color::White);
        for (p, _) in draw_positions(&games[0], 100, 3).expect("replays") {
            assert_eq!(p.turn(), Color::White);
        }
        let mut two = games.clone();
        two.push(games[0].clone());
        let config = DatasetConfig {
            per_game: 5,
            ..DatasetConfig::new()
        };
        let (data, bad) = build_dataset(&two, &config).expect("data");
        assert_eq!((bad, data.train_games, data.test_games), (0, 1, 1));
        assert_eq!((data.train.len(), data.test.len()), (5, 5));
    }

    #[test]
    fn a_tiny_phase_one_run_improves_fitness() {
        let games = fixture_games();
        let mut data = Dataset::default();
        for (p, m) in draw_positions(&games[0], 40, 9).expect("replays") {
            data.train.push(&p, m).expect("linear");
        }
        data.test = data.train.clone();
        let config = GaConfig {
            population: 20,
            generations: 15,
            seed: 4,
            ..GaConfig::new()
        };
        let run = evolve(
            &config,
            &ImitationFitness::new(&data),
            &[],
            None,
            None,
            &mut |_, _| {},
        )
        .expect("runs");
        let first = run.history[0].best().1;
        let last = run.history[14].best().1;
        assert!(last > first, "best fitness {first} -> {last}");
        assert!(run.history[14].mean() > run.history[0].mean());
        assert_eq!(run.history[14].extras.len(), 2);
    }
}
