//! The six fate-based players of Murphy's Elo World, section 2.2: `safe`, `popular`, `dangerous`,
//! `rare`, `survivalist` and `fatalist`.
//!
//! Each scores the position after every legal move by summing, over its own pieces, a
//! number the fate table gives for the piece's identity and square, and samples a move with
//! weights from those scores. For the first four the scores are normalised over the legal
//! moves, lowest 0 and highest 1 ("Without normalization, the play is almost identical to
//! uniformly random"), so the lowest-scoring move is never played unless all tie; the last
//! two sample by the raw sums of ratios ("the sums of ratios have plenty of variability").
//!
//! The original program (tom7misc's `chess/` directory), which the paper's table measured,
//! samples the normalised rules differently: the running total it draws from is shadowed by
//! a local variable and stays 0, so the draw always lands on the first move, in its
//! generation order, whose normalised score is above 0 — the first move that does not have
//! the lowest score (a random move when all tie). `as_published=true` reproduces that.

use super::identity::{Identities, PieceId};
use super::table::{Fate, FateTable};
use crate::generation_key;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Board, Move, Position, Square};
use std::sync::Arc;

/// What a fate player adds up for each of its pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FateRule {
    /// P(the piece ends the game alive on the square).
    Safe,
    /// P(the piece ends the game on the square), alive or dead.
    Popular,
    /// P(the piece dies on the square).
    Dangerous,
    /// 1 − P(the piece ends the game on the square).
    Rare,
    /// P(alive on the square) / P(died on the square).
    Survivalist,
    /// P(died on the square) / P(alive on the square).
    Fatalist,
}

impl FateRule {
    /// Every rule, in the paper's order.
    pub const ALL: [FateRule; 6] = [
        FateRule::Safe,
        FateRule::Popular,
        FateRule::Dangerous,
        FateRule::Rare,
        FateRule::Survivalist,
        FateRule::Fatalist,
    ];

    /// Returns the player's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FateRule::Safe => "safe",
            FateRule::Popular => "popular",
            FateRule::Dangerous => "dangerous",
            FateRule::Rare => "rare",
            FateRule::Survivalist => "survivalist",
            FateRule::Fatalist => "fatalist",
        }
    }

    /// Returns the one-line description of the player.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            FateRule::Safe => "moves pieces to where they often end games alive (fate table; normalised weights)",
            FateRule::Popular => "moves pieces to where they often end games, alive or dead (fate table; normalised weights)",
            FateRule::Dangerous => "moves pieces to where they often die (fate table; normalised weights)",
            FateRule::Rare => "moves pieces to where they seldom end games (fate table; normalised weights)",
            FateRule::Survivalist => "samples moves by the sum of its pieces' survive/die ratios (fate table)",
            FateRule::Fatalist => "samples moves by the sum of its pieces' die/survive ratios (fate table)",
        }
    }

    /// Returns whether move scores are normalised to [0, 1] before sampling.
    #[must_use]
    pub const fn normalised(self) -> bool {
        !matches!(self, FateRule::Survivalist | FateRule::Fatalist)
    }

    /// Returns the score of `piece` standing on `square` (smoothed probabilities, see
    /// [`FateTable`]).
    #[must_use]
    pub fn piece_score(self, table: &FateTable, piece: PieceId, square: Square) -> f64 {
        match self {
            FateRule::Safe => table.probability(piece, square, Fate::Alive),
            FateRule::Popular => table.probability_to_end_on(piece, square),
            FateRule::Dangerous => table.probability(piece, square, Fate::Died),
            FateRule::Rare => 1.0 - table.probability_to_end_on(piece, square),
            FateRule::Survivalist => table.survival_ratio(piece, square),
            FateRule::Fatalist => 1.0 / table.survival_ratio(piece, square),
        }
    }
}

/// A rule's score for every piece and square, computed once from a table.
#[derive(Clone, Debug)]
pub struct FateScores {
    rule: FateRule,
    scores: Vec<f64>,
}

impl FateScores {
    /// Computes the scores of `rule` from `table`.
    #[must_use]
    pub fn new(rule: FateRule, table: &FateTable) -> FateScores {
        let scores = PieceId::all()
            .flat_map(|p| {
                Square::ALL
                    .into_iter()
                    .map(move |s| rule.piece_score(table, p, s))
            })
            .collect();
        FateScores { rule, scores }
    }

    /// Returns the rule.
    #[must_use]
    pub fn rule(&self) -> FateRule {
        self.rule
    }

    /// Returns the score of `piece` on `square`.
    #[must_use]
    pub fn get(&self, piece: PieceId, square: Square) -> f64 {
        self.scores[piece.index() * 64 + usize::from(square)]
    }
}

/// A fate-based player: tracks piece identities through `observe` and samples moves by
/// fate scores.
#[derive(Clone, Debug)]
pub struct FatePlayer {
    scores: Arc<FateScores>,
    ids: Option<Identities>,
    as_published: bool,
}

impl FatePlayer {
    /// Creates a player for one game that samples as the paper's text says.
    #[must_use]
    pub fn new(scores: Arc<FateScores>) -> FatePlayer {
        FatePlayer {
            scores,
            ids: None,
            as_published: false,
        }
    }

    /// Creates a player for one game that chooses as the original program did
    /// (`as_published`), see the module's documentation; the ratio rules sample as in
    /// [`FatePlayer::new`], as the original's did.
    #[must_use]
    pub fn as_published(scores: Arc<FateScores>) -> FatePlayer {
        FatePlayer {
            as_published: true,
            ..FatePlayer::new(scores)
        }
    }

    /// Makes the identities agree with `board`: kept when they do, else guessed (the first
    /// position of a game, or a game that started from a book position).
    fn sync(&mut self, board: &Board) -> &mut Identities {
        let stale = !self.ids.as_ref().is_some_and(|ids| ids.agrees_with(board));
        if stale {
            self.ids = Some(Identities::guess(board));
        }
        self.ids.get_or_insert_with(|| Identities::guess(board))
    }

    /// Returns the score of the position after each legal move (in `game.legal_moves()`
    /// order): the sum over the mover's pieces of their scores.
    pub fn move_scores(&mut self, game: &Chess) -> Vec<f64> {
        let pos = game.position();
        let me = pos.turn();
        let scores = Arc::clone(&self.scores);
        let ids = self.sync(pos.board()).clone();
        game.legal_moves()
            .iter()
            .map(|&mv| {
                let mut after = ids.clone();
                after.play(mv);
                after
                    .pieces(me)
                    .map(|(piece, square)| scores.get(piece, square))
                    .sum()
            })
            .collect()
    }

    /// Returns the sampling weight of each legal move: the scores normalised to [0, 1]
    /// (lowest 0, highest 1; all 1 when they tie) for the normalised rules, else the scores.
    pub fn move_weights(&mut self, game: &Chess) -> Vec<f64> {
        let scores = self.move_scores(game);
        if !self.scores.rule().normalised() {
            return scores;
        }
        let low = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let high = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let span = high - low;
        if span <= high.abs() * 1e-12 {
            return vec![1.0; scores.len()];
        }
        scores.iter().map(|s| (s - low) / span).collect()
    }
}

/// Returns an index drawn with probability proportional to `weights` (uniform when they
/// sum to nothing usable); a zero weight is never drawn otherwise.
fn sample(weights: &[f64], rng: &mut GameRng) -> usize {
    let total: f64 = weights.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return rng.below(weights.len());
    }
    let target = rng.unit() * total;
    let mut sum = 0.0;
    for (i, w) in weights.iter().enumerate() {
        sum += w;
        if *w > 0.0 && sum > target {
            return i;
        }
    }
    // Rounding left the target above the last sum: take the last move with weight.
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}

/// Returns the original program's choice among weights normalised to [0, 1]: the first
/// index, in its generation order `order`, whose weight is above 0 (uniform when all tie).
fn published_choice(weights: &[f64], order: &[usize], rng: &mut GameRng) -> usize {
    // `move_weights` gives every move 1 when all scores tie.
    let all_tie = weights.iter().all(|&w| w >= 1.0);
    if all_tie {
        return rng.below(weights.len());
    }
    order
        .iter()
        .copied()
        .find(|&i| weights[i] > 0.0)
        .unwrap_or_else(|| rng.below(weights.len()))
}

impl Player<Chess> for FatePlayer {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let weights = self.move_weights(game);
        if self.as_published && self.scores.rule().normalised() {
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&i| generation_key(moves[i]));
            return Ok(moves[published_choice(&weights, &order, rng)]);
        }
        Ok(moves[sample(&weights, rng)])
    }

    fn observe(&mut self, before: &Chess, mv: Move) {
        self.sync(before.position().board()).play(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fate::GameFates;
    use eloworld_games::DrawRules;
    use shakmaty::Color;

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    fn id(name: &str) -> PieceId {
        PieceId::starting_on(sq(name)).expect("starting square")
    }

    /// A table of 1000 games in which the g1 knight always ended on `knight_end` with
    /// `fate`, and everything else stayed home alive.
    fn table_with_knight(knight_end: &str, fate: Fate) -> FateTable {
        let mut t = FateTable::new();
        let mut fates = GameFates::start().finish(None);
        fates[id("g1").index()] = (sq(knight_end), fate);
        for _ in 0..1000 {
            t.add_game(&fates);
        }
        t
    }

    fn player(rule: FateRule, table: &FateTable) -> FatePlayer {
        FatePlayer::new(Arc::new(FateScores::new(rule, table)))
    }

    /// Returns how often each move (UCI) is chosen from the start in `n` games' first moves.
    fn first_moves(p: &mut FatePlayer, n: u64) -> std::collections::HashMap<String, u64> {
        let game = Chess::new(DrawRules::Automatic);
        let mut seen = std::collections::HashMap::new();
        for seed in 0..n {
            let mv = p.choose(&game, &mut GameRng::new(seed)).expect("move");
            *seen.entry(game.move_code(mv)).or_insert(0) += 1;
        }
        seen
    }

    fn weight_of(p: &mut FatePlayer, game: &Chess, uci: &str) -> f64 {
        let weights = p.move_weights(game);
        let i = game
            .legal_moves()
            .iter()
            .position(|&m| game.move_code(m) == uci)
            .expect(uci);
        weights[i]
    }

    fn assert_close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} is not {b}");
    }

    /// From the start, with a table where the g1 knight always ended on one square, the
    /// move there gains (against a knight that never ended on g1), g1 to the other knight
    /// square changes nothing, and every other move takes a piece off the square it always
    /// ended on. Normalised: 1, 0.5 and 0 (or the reverse for `rare`).
    fn check_knight_weights(rule: FateRule, fate: Fate, best: &str, middle: &str) {
        let t = table_with_knight(best.get(2..4).unwrap_or("f3"), fate);
        let mut p = player(rule, &t);
        let game = Chess::new(DrawRules::Automatic);
        assert_eq!(weight_of(&mut p, &game, best), 1.0, "{rule:?}");
        assert_close(weight_of(&mut p, &game, middle), 0.5);
        let weights = p.move_weights(&game);
        assert_eq!(
            weights.iter().filter(|&&w| w == 0.0).count(),
            18,
            "{rule:?} {weights:?}"
        );
        // Sampling follows the weights: the best move 1/1.5 of the time, never a 0.
        let seen = first_moves(&mut p, 600);
        assert_eq!(seen.len(), 2, "{seen:?}");
        let share = *seen.get(best).unwrap_or(&0) as f64 / 600.0;
        assert!((share - 2.0 / 3.0).abs() < 0.06, "{rule:?}: {share}");
    }

    #[test]
    fn safe_prefers_where_the_knight_survives() {
        check_knight_weights(FateRule::Safe, Fate::Alive, "g1f3", "g1h3");
    }

    #[test]
    fn popular_counts_deaths_too() {
        check_knight_weights(FateRule::Popular, Fate::Died, "g1h3", "g1f3");
        check_knight_weights(FateRule::Popular, Fate::Alive, "g1f3", "g1h3");
    }

    #[test]
    fn dangerous_prefers_where_the_knight_dies_and_ignores_survival() {
        // Only the knight ever died, on h3: g1h3 scores 1, every other move (no death
        // anywhere it leads) ties at 0, so dangerous always plays g1h3.
        let died = table_with_knight("h3", Fate::Died);
        let mut dangerous = player(FateRule::Dangerous, &died);
        let game = Chess::new(DrawRules::Automatic);
        assert_eq!(weight_of(&mut dangerous, &game, "g1h3"), 1.0);
        assert_eq!(
            dangerous
                .move_weights(&game)
                .iter()
                .filter(|&&w| w == 0.0)
                .count(),
            19
        );
        assert_eq!(first_moves(&mut dangerous, 100).get("g1h3"), Some(&100));
        // Where the knight always survived, dangerous sees no difference: all weights 1.
        let lived = table_with_knight("h3", Fate::Alive);
        let mut dangerous = player(FateRule::Dangerous, &lived);
        assert!(dangerous.move_weights(&game).iter().all(|&w| w == 1.0));
    }

    #[test]
    fn rare_avoids_the_square_every_game_ends_on() {
        // The knight always ended on f3: g1f3 is the worst move (weight 0), g1h3 changes
        // nothing (0.5), and moving any other piece off its usual square is best (1).
        let t = table_with_knight("f3", Fate::Alive);
        let mut p = player(FateRule::Rare, &t);
        let game = Chess::new(DrawRules::Automatic);
        assert_eq!(weight_of(&mut p, &game, "g1f3"), 0.0);
        assert_close(weight_of(&mut p, &game, "g1h3"), 0.5);
        assert_close(weight_of(&mut p, &game, "e2e4"), 1.0);
        assert_close(weight_of(&mut p, &game, "b1c3"), 1.0);
        assert!(!first_moves(&mut p, 200).contains_key("g1f3"));
    }

    #[test]
    fn survivalist_and_fatalist_sample_by_raw_ratio_sums() {
        let t = table_with_knight("f3", Fate::Alive);
        let game = Chess::new(DrawRules::Automatic);
        let mut survivalist = player(FateRule::Survivalist, &t);
        // Other pieces at home: ratio (1000+1)/(0+1) each; the knight on f3 too, on g1 1/1.
        let home = 1001.0;
        assert!((weight_of(&mut survivalist, &game, "g1f3") - 16.0 * home).abs() < 1e-6);
        assert!(
            (weight_of(&mut survivalist, &game, "e2e4") - (14.0 * home + 1.0 + 1.0)).abs() < 1e-6
        );
        assert!((weight_of(&mut survivalist, &game, "g1h3") - (15.0 * home + 1.0)).abs() < 1e-6);
        // Raw weights: g1f3 has 16016 of 16016 + 15016 + 18 × 14016, about 5.8%.
        let seen = first_moves(&mut survivalist, 4000);
        let share = *seen.get("g1f3").unwrap_or(&0) as f64 / 4000.0;
        let expected = 16016.0 / (16016.0 + 15016.0 + 18.0 * 14016.0);
        assert!(
            (share - expected).abs() < 0.015,
            "share {share}, expected {expected}"
        );
        // Fatalist: the inverse ratios; leaving home squares (ratio 1/1001) for a square
        // never seen (1/1) dominates, g1f3 (to a survival square) is the worst.
        let mut fatalist = player(FateRule::Fatalist, &t);
        let f3 = weight_of(&mut fatalist, &game, "g1f3");
        let h3 = weight_of(&mut fatalist, &game, "g1h3");
        assert!((f3 - 16.0 / home).abs() < 1e-9);
        assert!((h3 - (15.0 / home + 1.0)).abs() < 1e-9);
        let seen = first_moves(&mut fatalist, 4000);
        assert!(seen.get("g1f3").copied().unwrap_or(0) < 10, "{seen:?}");
    }

    #[test]
    fn identities_follow_observed_moves_and_resync_from_a_book_position() {
        let t = table_with_knight("f3", Fate::Alive);
        let mut p = player(FateRule::Safe, &t);
        let mut game = Chess::new(DrawRules::Automatic);
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6"] {
            let mv = game.parse_move(uci).expect(uci);
            p.observe(&game, mv);
            game.play(mv);
        }
        // The g1 knight went home; the b1 knight is on c3 and scores nothing special there.
        assert_eq!(p.ids.as_ref().and_then(|i| i.at(sq("c3"))), Some(id("b1")));
        assert_eq!(weight_of(&mut p, &game, "g1f3"), 1.0);
        // A player first called on a position it did not follow guesses identities.
        let book = Chess::from_position(
            "r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 2 2",
            DrawRules::Automatic,
        )
        .expect("fen");
        let mut fresh = player(FateRule::Safe, &t);
        assert_eq!(weight_of(&mut fresh, &book, "g1f3"), 1.0);
        assert_eq!(
            fresh.ids.as_ref().and_then(|i| i.at(sq("c3"))),
            Some(id("b1"))
        );
        assert_eq!(book.position().turn(), Color::White);
    }

    #[test]
    fn as_published_plays_the_first_generated_move_without_the_lowest_score() {
        // The g1 knight always ended alive on h3: g1h3 weighs 1, g1f3 0.5, every other move
        // 0. The text's sampling plays g1h3 two times in three; the original program plays
        // the first move it generates with a weight above 0, g1f3 (generated before g1h3),
        // every time.
        let t = table_with_knight("h3", Fate::Alive);
        let scores = Arc::new(FateScores::new(FateRule::Safe, &t));
        let seen = first_moves(&mut FatePlayer::as_published(Arc::clone(&scores)), 200);
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen.get("g1f3"), Some(&200));
        let sampled = first_moves(&mut FatePlayer::new(scores), 600);
        let share = *sampled.get("g1h3").unwrap_or(&0) as f64 / 600.0;
        assert!((share - 2.0 / 3.0).abs() < 0.06, "{sampled:?}");
        // When every move ties, the original plays at random.
        let uniform = FateTable::new();
        let scores = Arc::new(FateScores::new(FateRule::Popular, &uniform));
        let seen = first_moves(&mut FatePlayer::as_published(scores), 400);
        assert_eq!(seen.len(), 20, "{seen:?}");
    }

    #[test]
    fn as_published_leaves_the_ratio_rules_sampling() {
        // The original's survivalist and fatalist sum their weights correctly: the same
        // weighted draw as the text's, seed for seed.
        let t = table_with_knight("f3", Fate::Alive);
        let scores = Arc::new(FateScores::new(FateRule::Survivalist, &t));
        let published = first_moves(&mut FatePlayer::as_published(Arc::clone(&scores)), 300);
        let text = first_moves(&mut FatePlayer::new(scores), 300);
        assert_eq!(published, text);
        assert!(published.len() > 5, "{published:?}");
    }

    #[test]
    fn sampling_never_draws_a_zero_weight() {
        let weights = [0.0, 1.0, 0.0, 3.0, 0.0];
        let mut rng = GameRng::new(5);
        let mut counts = [0u32; 5];
        for _ in 0..4000 {
            counts[sample(&weights, &mut rng)] += 1;
        }
        assert_eq!(counts[0] + counts[2] + counts[4], 0);
        assert!(
            (f64::from(counts[3]) / 4000.0 - 0.75).abs() < 0.03,
            "{counts:?}"
        );
    }
}
