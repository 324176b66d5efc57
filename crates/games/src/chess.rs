//! Chess with the full rules, on shakmaty's move generation.
//!
//! Repetition is detected with Zobrist hashes kept since the last irreversible move
//! (updated incrementally); the draw rules that apply are chosen per tournament, see
//! [`DrawRules`].

pub mod input;

use crate::{Game, GameError, GameKind, GameRng, Outcome, Side, Termination};
use shakmaty::fen::Fen;
use shakmaty::packed::PackedUciMove;
use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Color, EnPassantMode, FromSetup, Move, Position, Role};

/// Which draws end a game without anyone asking.
///
/// Elo World's players never claim draws, so its games end only by rules that apply by
/// themselves (FIDE Laws 9.6: fivefold repetition, 75 moves); engine runners such as
/// cutechess adjudicate threefold repetition and fifty moves instead.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DrawRules {
    /// Fivefold repetition, the 75-move rule, insufficient material (Elo World's setting).
    #[default]
    Automatic,
    /// Threefold repetition, the fifty-move rule, insufficient material.
    Claimed,
}

impl DrawRules {
    /// Returns the name used in tournament files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            DrawRules::Automatic => "automatic",
            DrawRules::Claimed => "claimed",
        }
    }

    const fn repetitions(self) -> usize {
        match self {
            DrawRules::Automatic => 5,
            DrawRules::Claimed => 3,
        }
    }

    const fn halfmove_limit(self) -> u32 {
        match self {
            DrawRules::Automatic => 150,
            DrawRules::Claimed => 100,
        }
    }

    const fn repetition_termination(self) -> Termination {
        match self {
            DrawRules::Automatic => Termination::FivefoldRepetition,
            DrawRules::Claimed => Termination::ThreefoldRepetition,
        }
    }

    const fn move_rule_termination(self) -> Termination {
        match self {
            DrawRules::Automatic => Termination::SeventyFiveMoveRule,
            DrawRules::Claimed => Termination::FiftyMoveRule,
        }
    }
}

impl std::str::FromStr for DrawRules {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "automatic" => Ok(DrawRules::Automatic),
            "claimed" => Ok(DrawRules::Claimed),
            other => Err(format!(
                "draw rules {other:?}, expected automatic or claimed"
            )),
        }
    }
}

/// A chess game in progress: the position, its legal moves and the repetition history.
#[derive(Debug)]
pub struct Chess {
    pos: shakmaty::Chess,
    rules: DrawRules,
    /// The legal moves: a vector refilled in place, since moving shakmaty's 270-move
    /// array into the struct after every move copied more than the move generation wrote.
    moves: Vec<Move>,
    hash: u64,
    /// Hashes of the positions since the last irreversible move, the current one last.
    history: Vec<u64>,
    ply: u32,
    outcome: Option<Outcome>,
}

impl Clone for Chess {
    fn clone(&self) -> Chess {
        Chess {
            pos: self.pos.clone(),
            rules: self.rules,
            moves: self.moves.clone(),
            hash: self.hash,
            history: self.history.clone(),
            ply: self.ply,
            outcome: self.outcome,
        }
    }

    /// Keeps this game's buffers: a runner's worker resets one game to the start position
    /// before each of its games, where a fresh clone grew its move list and repetition
    /// history from their start size again, a handful of reallocations a game.
    fn clone_from(&mut self, source: &Chess) {
        self.pos.clone_from(&source.pos);
        self.rules = source.rules;
        self.moves.clone_from(&source.moves);
        self.hash = source.hash;
        self.history.clone_from(&source.history);
        self.ply = source.ply;
        self.outcome = source.outcome;
    }
}

impl Chess {
    /// Creates a game from a shakmaty position.
    #[must_use]
    pub fn from_shakmaty(pos: shakmaty::Chess, rules: DrawRules) -> Chess {
        let hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let mut history = Vec::with_capacity(128);
        history.push(hash);
        let mut moves = Vec::with_capacity(64);
        moves.extend_from_slice(&pos.legal_moves());
        let mut game = Chess {
            moves,
            pos,
            rules,
            hash,
            history,
            ply: 0,
            outcome: None,
        };
        game.outcome = game.compute_outcome();
        game
    }

    /// Returns the shakmaty position, for players that look ahead without touching history.
    #[must_use]
    pub fn position(&self) -> &shakmaty::Chess {
        &self.pos
    }

    /// Returns the draw rules in force.
    #[must_use]
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// Returns the Zobrist hash of the current position (shakmaty's stable 64-bit keys).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Returns how often the current position has occurred since the last irreversible move.
    #[must_use]
    #[inline]
    pub fn repetitions(&self) -> usize {
        occurrences(&self.history, self.hash)
    }

    /// A draw a player could claim (FIDE Laws 9.2 and 9.3: threefold repetition, fifty
    /// moves without capture or pawn move) in the current position or in the one before the
    /// last move — an engine's claim sent with its own move is read once its opponent has
    /// replied. Whatever the draw rules in force.
    #[must_use]
    pub fn claimable_draw(&self) -> Option<Termination> {
        let n = self.history.len();
        let occurrences = |last: usize| {
            (0..=last)
                .rev()
                .step_by(2)
                .filter(|&i| self.history[i] == self.history[last])
                .count()
        };
        let halfmoves = self.pos.halfmoves();
        if occurrences(n - 1) >= 3 || (n >= 2 && occurrences(n - 2) >= 3) {
            Some(Termination::ThreefoldRepetition)
        } else if halfmoves >= 100 || (n >= 2 && halfmoves >= 101) {
            Some(Termination::FiftyMoveRule)
        } else {
            None
        }
    }

    /// Returns the FEN of the current position.
    #[must_use]
    pub fn fen(&self) -> String {
        Fen::from_position(&self.pos, EnPassantMode::Legal).to_string()
    }

    #[inline]
    fn compute_outcome(&self) -> Option<Outcome> {
        end_of(&self.pos, &self.moves, &self.history, self.hash, self.rules)
    }
}

/// Plays `mv` on `pos` and on the hashes of the positions since the last irreversible move,
/// `history`, whose last entry is `hash`, the position's own. Functions of the parts, not
/// methods of [`Chess`], so that [`Game::play_random`] can keep them in locals; always
/// inlined, since a call takes the locals' addresses and they go back to memory.
#[inline(always)]
fn advance(pos: &mut shakmaty::Chess, hash: &mut u64, history: &mut Vec<u64>, mv: Move) {
    if pos.is_irreversible(mv) {
        history.clear();
        pos.play_unchecked(mv);
        *hash = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    } else {
        let next = pos.update_zobrist_hash::<Zobrist64>(Zobrist64(*hash), mv, EnPassantMode::Legal);
        pos.play_unchecked(mv);
        *hash = match next {
            Some(h) => h.0,
            None => pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
        };
    }
    history.push(*hash);
}

/// How often the position of hash `hash`, the last of `history`, has occurred there: the
/// same side moves in every second entry back from the last.
#[inline]
fn occurrences(history: &[u64], hash: u64) -> usize {
    (0..history.len())
        .rev()
        .step_by(2)
        .filter(|&i| history[i] == hash)
        .count()
}

/// The outcome of `pos`, whose legal moves are `legal` and whose repetition history (see
/// [`advance`]) is `history` and `hash`, under `rules`. Always inlined, as [`advance`].
#[inline(always)]
fn end_of(
    pos: &shakmaty::Chess,
    legal: &[Move],
    history: &[u64],
    hash: u64,
    rules: DrawRules,
) -> Option<Outcome> {
    if legal.is_empty() {
        return Some(if pos.is_check() {
            Outcome::win(Side::from(pos.turn()).other(), Termination::Checkmate)
        } else {
            Outcome::draw(Termination::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some(Outcome::draw(Termination::InsufficientMaterial));
    }
    if history.len() > 2 * (rules.repetitions() - 1)
        && occurrences(history, hash) >= rules.repetitions()
    {
        return Some(Outcome::draw(rules.repetition_termination()));
    }
    if pos.halfmoves() >= rules.halfmove_limit() {
        return Some(Outcome::draw(rules.move_rule_termination()));
    }
    None
}

impl Game for Chess {
    type Move = Move;
    type Rules = DrawRules;
    const KIND: GameKind = GameKind::Chess;

    fn new(rules: DrawRules) -> Chess {
        Chess::from_shakmaty(shakmaty::Chess::default(), rules)
    }

    fn from_position(text: &str, rules: DrawRules) -> Result<Chess, GameError> {
        Ok(Chess::from_shakmaty(parse_fen(text)?, rules))
    }

    #[inline]
    fn legal_moves(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        advance(&mut self.pos, &mut self.hash, &mut self.history, mv);
        self.ply += 1;
        let legal = self.pos.legal_moves();
        self.moves.clear();
        self.moves.extend_from_slice(&legal);
        self.outcome = self.compute_outcome();
    }

    /// As the trait's loop, but each position's legal moves stay in the list shakmaty
    /// generated them into, and the position, its hash and its history are locals; the
    /// game's own fields are written once, at the end. Copying every list into the game, as
    /// [`Game::play`] must, was 3% of a random game's time, and reaching the position
    /// through the game another 2% (`docs/runner-cost.md`).
    fn play_random(
        &mut self,
        rngs: &mut [GameRng; 2],
        moves: &mut Vec<Move>,
        mut more: impl FnMut(u32) -> bool,
    ) -> u32 {
        if self.outcome.is_some() || !more(0) {
            return 0;
        }
        let rules = self.rules;
        let mut pos = self.pos.clone();
        let mut hash = self.hash;
        let mut history = std::mem::take(&mut self.history);
        let mut mv = rngs[Side::from(pos.turn()).index()].pick(&self.moves);
        let mut plies = 0;
        loop {
            advance(&mut pos, &mut hash, &mut history, mv);
            moves.push(mv);
            plies += 1;
            let legal = pos.legal_moves();
            let outcome = end_of(&pos, &legal, &history, hash, rules);
            if outcome.is_some() || !more(plies) {
                self.pos = pos;
                self.hash = hash;
                self.history = history;
                self.ply += plies;
                self.outcome = outcome;
                self.moves.clear();
                self.moves.extend_from_slice(&legal);
                return plies;
            }
            mv = rngs[Side::from(pos.turn()).index()].pick(&legal);
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.pos.turn().into()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn move_text(&self, mv: Move) -> String {
        SanPlus::from_move(self.pos.clone(), mv).to_string()
    }

    fn move_code(&self, mv: Move) -> String {
        UciMove::from_move(mv, self.pos.castles().mode()).to_string()
    }

    /// Shakmaty's packed UCI move (from, to, promotion), castling written as in
    /// [`Game::write_move_code`]. A plain move or an en-passant capture is packed here
    /// directly, as shakmaty packs it (from, to << 6, promotion << 12): through `UciMove`
    /// that cost the runner's worker 1% of a random game; the test
    /// `direct_words_are_shakmatys_packed_moves` holds the two equal.
    #[inline]
    fn move_word(&self, mv: Move) -> u16 {
        match mv {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => u16::from(from) | (u16::from(to) << 6) | (promotion.map_or(0, u16::from) << 12),
            Move::EnPassant { from, to } => u16::from(from) | (u16::from(to) << 6),
            Move::Castle { .. } | Move::Put { .. } => {
                uci_word(UciMove::from_move(mv, self.pos.castles().mode()))
            }
        }
    }

    /// Writes UCI notation; castling is king-to-target in standard chess and king-takes-rook
    /// in a Chess960 position (what `UCI_Chess960` engines expect).
    fn write_move_code(&self, mv: Move, out: &mut String) {
        UciMove::from_move(mv, self.pos.castles().mode()).append_to_string(out);
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        let text = text.trim();
        let illegal = || GameError::IllegalMove {
            text: text.to_owned(),
            position: self.fen(),
        };
        if let Ok(uci) = text.parse::<UciMove>() {
            return uci.to_move(&self.pos).map_err(|_| illegal());
        }
        let san: San = text
            .trim_end_matches(['+', '#', '!', '?'])
            .parse()
            .map_err(|_| GameError::BadMove {
                text: text.to_owned(),
                reason: "expected SAN (Nf3, O-O, exd8=Q) or UCI (g1f3, e7e8q)".to_owned(),
            })?;
        san.to_move(&self.pos).map_err(|_| illegal())
    }

    fn position_text(&self) -> String {
        self.fen()
    }

    fn board_text(&self) -> String {
        let board = self.pos.board();
        let mut s = String::with_capacity(200);
        for rank in (0..8u32).rev() {
            s.push(char::from(b'1' + rank as u8));
            s.push(' ');
            for file in 0..8u32 {
                let sq = shakmaty::Square::from_coords(
                    shakmaty::File::new(file),
                    shakmaty::Rank::new(rank),
                );
                s.push(' ');
                s.push(board.piece_at(sq).map_or('.', |p| p.char()));
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h\n");
        s.push_str(if self.pos.turn() == Color::White {
            "White to move"
        } else {
            "Black to move"
        });
        s.push('\n');
        s
    }
}

/// The stored word of a UCI move: shakmaty's packed form.
fn uci_word(uci: UciMove) -> u16 {
    u16::from_le_bytes(PackedUciMove::pack(uci).to_bytes())
}

/// Appends the UCI text of a stored move's word to `out` (every word unpacks to a move).
pub(crate) fn write_word(word: u16, out: &mut String) {
    PackedUciMove::from_bytes(word.to_le_bytes())
        .unpack()
        .append_to_string(out);
}

/// The stored word of a UCI move's text.
pub(crate) fn word_of_code(code: &str) -> Option<u16> {
    code.parse::<UciMove>().ok().map(uci_word)
}

/// Reads a FEN (or the first four EPD fields followed by clocks) into a shakmaty position.
///
/// Positions with an impossible check (the perft suites have some) and Chess960 castling
/// rights are accepted; anything else illegal is refused.
///
/// # Errors
/// [`GameError::BadPosition`] naming the text and what is wrong.
pub fn parse_fen(text: &str) -> Result<shakmaty::Chess, GameError> {
    let bad = |reason: String| GameError::BadPosition {
        text: text.to_owned(),
        reason,
    };
    let fen: Fen = text
        .trim()
        .parse()
        .map_err(|e| bad(format!("not a FEN: {e}")))?;
    position_of(fen).map_err(|e| bad(format!("not a legal position: {e}")))
}

/// The position of a FEN, accepting an impossible check and Chess960 castling rights.
fn position_of(fen: Fen) -> Result<shakmaty::Chess, String> {
    let setup = shakmaty::Setup::from(fen);
    let lenient = |mode| {
        shakmaty::Chess::from_setup(setup.clone(), mode)
            .or_else(shakmaty::PositionError::ignore_impossible_check)
            .map_err(|e| e.to_string())
    };
    lenient(CastlingMode::Standard).or_else(|_| lenient(CastlingMode::Chess960))
}

/// Returns the FEN of Chess960 start position `number` (0..960) in Scharnagl's numbering
/// (518 is the standard position): the light-squared bishop on file 2(n mod 4)+1, the
/// dark-squared one on 2(n/4 mod 4), the queen on the (n/16 mod 6)-th free square, the
/// knights on the pair of free squares numbered n/96 (of ten, in order), and rook, king, rook
/// on the three squares left. Numbers from 960 on wrap.
#[must_use]
pub fn chess960_fen(number: u16) -> String {
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut n = usize::from(number % 960);
    let mut rank = [' '; 8];
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    let free = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == ' ').collect() };
    let queen = free(&rank)[n % 6];
    rank[queen] = 'q';
    n /= 6;
    let empty = free(&rank);
    let (a, b) = KNIGHTS[n];
    rank[empty[a]] = 'n';
    rank[empty[b]] = 'n';
    for (square, piece) in free(&rank).into_iter().zip(['r', 'k', 'r']) {
        rank[square] = piece;
    }
    let black: String = rank.iter().collect();
    let white = black.to_ascii_uppercase();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
}

/// Returns the conventional value of a piece in pawns (P 1, N 3, B 3, R 5, Q 9, K 0).
#[must_use]
pub const fn piece_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_positions_follow_scharnagl() {
        assert_eq!(
            chess960_fen(518),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        // Scharnagl's table: 0 is BBQNNRKR, 959 is RKRNNQBB.
        assert!(chess960_fen(0).starts_with("bbqnnrkr/"));
        assert!(chess960_fen(959).starts_with("rkrnnqbb/"));
        let mut distinct = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_fen(n);
            let pos = parse_fen(&fen).expect("a legal start");
            // Every start has the 16 pawn moves; knight and castling moves depend on the setup.
            let moves = pos.legal_moves();
            let pawn_moves = moves
                .iter()
                .filter(|m| m.role() == shakmaty::Role::Pawn)
                .count();
            assert_eq!(pawn_moves, 16, "{fen}");
            distinct.insert(fen);
        }
        assert_eq!(distinct.len(), 960);
    }

    #[test]
    fn chess960_castling_is_written_king_takes_rook() {
        // King on f1, rooks on a1 and g1: long castling puts the king on c1, the rook on d1.
        let mut g = Chess::from_position("4k3/8/8/8/8/8/8/R4KR1 w KQ - 0 1", DrawRules::Automatic)
            .expect("legal");
        let castle = g
            .parse_move("f1a1")
            .expect("castling in king-takes-rook form");
        assert_eq!(g.move_code(castle), "f1a1");
        g.play(castle);
        assert!(g.fen().starts_with("4k3/8/8/8/8/8/8/2KR2R1"), "{}", g.fen());
    }

    #[test]
    fn direct_words_are_shakmatys_packed_moves() {
        // Every legal move of every position visited: promotions (with and without capture),
        // en passant, castling in both castling modes, and random games from Chess960 starts.
        let fens = [
            START.to_owned(),
            "1r2k3/P1P5/8/8/8/8/5p1p/K5R1 w - - 0 1".to_owned(),
            "1r2k3/P1P5/8/8/8/8/5p1p/K5R1 b - - 0 1".to_owned(),
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3".to_owned(),
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".to_owned(),
            "4k3/8/8/8/8/8/8/R4KR1 w KQ - 0 1".to_owned(),
        ];
        let starts = fens
            .into_iter()
            .chain((0..960).step_by(48).map(chess960_fen));
        let mut rng = crate::GameRng::new(3);
        let (mut checked, mut kinds) = (0, [false; 4]);
        for fen in starts {
            let mut game = Chess::from_position(&fen, DrawRules::Automatic).expect("legal");
            let mode = game.pos.castles().mode();
            for _ in 0..300 {
                if game.outcome().is_some() {
                    break;
                }
                for &mv in game.legal_moves() {
                    let through_uci = uci_word(UciMove::from_move(mv, mode));
                    assert_eq!(game.move_word(mv), through_uci, "{mv:?} in {}", game.fen());
                    let kind = match mv {
                        Move::Normal {
                            promotion: Some(_), ..
                        } => 0,
                        Move::EnPassant { .. } => 1,
                        Move::Castle { .. } => 2,
                        _ => 3,
                    };
                    kinds[kind] = true;
                    checked += 1;
                }
                let mv = rng.pick(game.legal_moves());
                game.play(mv);
            }
        }
        assert!(checked > 100_000, "{checked} moves");
        assert_eq!(kinds, [true; 4], "promotions, en passant, castling, others");
    }

    fn play_uci(game: &mut Chess, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = game.parse_move(m).expect(m);
            game.play(mv);
        }
    }

    #[test]
    fn a_game_reset_from_the_start_is_the_start_and_keeps_its_buffers() {
        let start = Chess::new(DrawRules::Automatic);
        let mut game = start.clone();
        // Knights out and back four times: a long repetition history, then a fivefold draw.
        play_uci(&mut game, &"g1f3 g8f6 f3g1 f6g8 ".repeat(4));
        assert_eq!(
            game.outcome().map(|o| o.termination),
            Some(Termination::FivefoldRepetition)
        );
        let (history, moves) = (game.history.capacity(), game.moves.capacity());
        assert!(history > start.history.len(), "the history grew in play");
        game.clone_from(&start);
        assert_eq!(format!("{game:?}"), format!("{start:?}"));
        assert_eq!(
            (game.history.capacity(), game.moves.capacity()),
            (history, moves)
        );
        // The reset game plays as the start does: the same draw at the same ply.
        play_uci(&mut game, &"g1f3 g8f6 f3g1 f6g8 ".repeat(4));
        assert_eq!(game.ply(), 16);
        assert_eq!(
            game.outcome().map(|o| o.termination),
            Some(Termination::FivefoldRepetition)
        );
    }

    fn outcome_of(fen: &str, moves: &str, rules: DrawRules) -> Option<Outcome> {
        let mut g = Chess::from_position(fen, rules).expect("fen");
        play_uci(&mut g, moves);
        g.outcome()
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn rngs(seed: u64) -> [GameRng; 2] {
        [
            GameRng::for_side(seed, Side::First),
            GameRng::for_side(seed, Side::Second),
        ]
    }

    /// The state a game's future depends on, and its rendering.
    fn state(g: &Chess) -> (String, u64, u32, Option<Outcome>, Vec<Move>, Vec<u64>) {
        let (fen, moves) = (g.fen(), g.legal_moves().to_vec());
        (fen, g.hash, g.ply, g.outcome, moves, g.history.clone())
    }

    #[test]
    fn random_play_is_the_loop_of_pick_and_play_and_stops_where_asked() {
        let mut ends = std::collections::HashSet::new();
        for seed in 0..30 {
            for limit in [0, 1, 9, u32::MAX] {
                let (mut fast, mut slow) = (
                    Chess::new(DrawRules::Automatic),
                    Chess::new(DrawRules::Automatic),
                );
                let (mut fast_rngs, mut slow_rngs) = (rngs(seed), rngs(seed));
                let mut fast_moves = Vec::new();
                let n = fast.play_random(&mut fast_rngs, &mut fast_moves, |plies| plies < limit);
                let mut slow_moves = Vec::new();
                while slow.outcome().is_none() && slow_moves.len() < limit as usize {
                    let mv = slow_rngs[slow.side_to_move().index()].pick(slow.legal_moves());
                    slow.play(mv);
                    slow_moves.push(mv);
                }
                assert_eq!(fast_moves, slow_moves, "seed {seed} limit {limit}");
                assert_eq!(n as usize, fast_moves.len());
                assert_eq!(state(&fast), state(&slow), "seed {seed} limit {limit}");
                if limit == 9 {
                    // Cut short, the game goes on from where it stopped as if never cut.
                    let mut whole = Chess::new(DrawRules::Automatic);
                    let mut whole_moves = Vec::new();
                    whole.play_random(&mut rngs(seed), &mut whole_moves, |_| true);
                    fast.play_random(&mut fast_rngs, &mut fast_moves, |_| true);
                    assert_eq!(fast_moves, whole_moves, "seed {seed}");
                    assert_eq!(state(&fast), state(&whole));
                } else {
                    for side in 0..2 {
                        assert_eq!(fast_rngs[side].below(1000), slow_rngs[side].below(1000));
                    }
                }
                if limit == u32::MAX {
                    ends.insert(fast.outcome().map(|o| o.termination));
                }
            }
        }
        assert!(!ends.contains(&None));
        assert!(ends.len() >= 3, "varied ends: {ends:?}");
    }

    #[test]
    fn fools_mate_is_checkmate_for_black() {
        let o = outcome_of(START, "f2f3 e7e5 g2g4 d8h4", DrawRules::Automatic);
        assert_eq!(o, Some(Outcome::win(Side::Second, Termination::Checkmate)));
    }

    #[test]
    fn stalemate_from_fen() {
        let o = outcome_of(
            "7k/8/6Q1/8/8/8/8/K7 w - - 0 1",
            "g6f7",
            DrawRules::Automatic,
        );
        assert_eq!(o, Some(Outcome::draw(Termination::Stalemate)));
    }

    #[test]
    fn insufficient_material_after_capture() {
        let o = outcome_of(
            "8/8/8/4k3/8/8/3nK3/8 w - - 0 1",
            "e2d2",
            DrawRules::Automatic,
        );
        assert_eq!(o, Some(Outcome::draw(Termination::InsufficientMaterial)));
    }

    #[test]
    fn threefold_under_claimed_but_not_automatic_rules() {
        let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
        assert_eq!(
            outcome_of(START, shuffle, DrawRules::Claimed),
            Some(Outcome::draw(Termination::ThreefoldRepetition))
        );
        assert_eq!(outcome_of(START, shuffle, DrawRules::Automatic), None);
        let five = format!("{shuffle} {shuffle}");
        assert_eq!(
            outcome_of(START, &five, DrawRules::Automatic),
            Some(Outcome::draw(Termination::FivefoldRepetition))
        );
    }

    #[test]
    fn fifty_and_seventy_five_move_rules_from_clock() {
        let fen = "8/8/4k3/8/8/4K3/8/R7 w - - 99 80";
        assert_eq!(
            outcome_of(fen, "a1a2", DrawRules::Claimed),
            Some(Outcome::draw(Termination::FiftyMoveRule))
        );
        assert_eq!(outcome_of(fen, "a1a2", DrawRules::Automatic), None);
        let fen = "8/8/4k3/8/8/4K3/8/R7 w - - 149 100";
        assert_eq!(
            outcome_of(fen, "a1a2", DrawRules::Automatic),
            Some(Outcome::draw(Termination::SeventyFiveMoveRule))
        );
    }

    #[test]
    fn checkmate_beats_the_move_rule() {
        // Qb8# is played with the clock reaching 150.
        let fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 149 120";
        assert_eq!(
            outcome_of(fen, "b1b8", DrawRules::Automatic),
            Some(Outcome::win(Side::First, Termination::Checkmate))
        );
    }

    #[test]
    fn bad_fen_is_an_error_naming_the_text() {
        let e = Chess::from_position("rnbqkbnr/pppppppp/8/8 w", DrawRules::Automatic).unwrap_err();
        assert!(e.to_string().contains("rnbqkbnr/pppppppp/8/8 w"), "{e}");
    }

    #[test]
    fn san_and_uci_are_both_read() {
        let g = Chess::new(DrawRules::Automatic);
        let a = g.parse_move("Nf3").expect("san");
        let b = g.parse_move("g1f3").expect("uci");
        assert_eq!(a, b);
        assert_eq!(g.move_text(a), "Nf3");
        assert_eq!(g.move_code(a), "g1f3");
        assert!(matches!(
            g.parse_move("Nf4"),
            Err(GameError::IllegalMove { .. })
        ));
        assert!(matches!(
            g.parse_move("hello"),
            Err(GameError::BadMove { .. })
        ));
    }

    #[test]
    fn incremental_hash_matches_full_hash() {
        let mut g = Chess::new(DrawRules::Automatic);
        play_uci(
            &mut g,
            "e2e4 d7d5 e4d5 g8f6 g1f3 f6d5 f1c4 e7e6 e1g1 d5e3 d2e3",
        );
        let full = g
            .position()
            .zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
            .0;
        assert_eq!(g.hash(), full);
    }
}
