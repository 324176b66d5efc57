//! The three blind players of Murphy's Elo World (section 2.4): each sees only the mask of
//! occupied squares, predicts the position with [`BlindModel`], and asks Stockfish (as
//! `stockfish1m`, the paper's budget) for a move in the predicted position; when that move
//! is not legal in the real game (the board was mispredicted) or the predicted position is
//! not one an engine can be given, it plays a random legal move.
//!
//! Facts from the original program (tom7misc's `chess/blind-player.cc`, read for facts, no
//! code copied): the side to move given to the engine is the real one; a predicted position
//! is refused unless it has exactly one king per side, the side not to move is not in check,
//! and the side to move has a legal move; the spy check looks, among the real legal moves,
//! for captures whose source and destination are predicted to hold pieces of the same
//! colour (so one of them was mispredicted) and plays one: first those whose piece is of
//! the predicted side to move, then the one capturing with the least valuable predicted
//! piece (pawn 1, knight and bishop 3, rook 5, king 6, queen 7), ties at random.

use super::model::{BlindModel, KingRule, Prediction};
use crate::scoring::from_to;
use eloworld_games::{Chess, DrawRules, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{
    Bitboard, CastlingMode, Color, FromSetup, Move, Position, PositionError, Role, Setup, Square,
};
use std::sync::Arc;

/// Which of the three blind players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `blind_yolo`: each square's most likely piece.
    Yolo,
    /// `blind_kings`: exactly one king per side.
    Kings,
    /// `blind_spycheck`: as `blind_kings`, with the spy check first.
    Spycheck,
}

impl Variant {
    /// The three, in the paper's order.
    pub const ALL: [Variant; 3] = [Variant::Yolo, Variant::Kings, Variant::Spycheck];

    /// Returns the player's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Yolo => "blind_yolo",
            Variant::Kings => "blind_kings",
            Variant::Spycheck => "blind_spycheck",
        }
    }

    /// Returns the one-line description.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Variant::Yolo => "sees only which squares are occupied, predicts the position (each square's likeliest piece) and plays Stockfish's move there; random when that fails",
            Variant::Kings => "as blind_yolo, but the prediction has exactly one king per side",
            Variant::Spycheck => "as blind_kings, but first plays a legal capture between two pieces predicted to be of one colour (the spy check)",
        }
    }

    /// Returns how many kings the prediction may hold.
    #[must_use]
    pub const fn king_rule(self) -> KingRule {
        match self {
            Variant::Yolo => KingRule::Free,
            Variant::Kings | Variant::Spycheck => KingRule::OnePerSide,
        }
    }
}

/// Returns the position an engine can be given for `prediction` with `turn` to move, or
/// `None` when the original would refuse it (see the module documentation). Castling
/// rights are granted where a king and a rook stand on their starting squares; there is
/// no en-passant square.
#[must_use]
pub fn playable(prediction: &Prediction, turn: Color) -> Option<shakmaty::Chess> {
    let board = prediction.board.clone();
    let mut rights = Bitboard::EMPTY;
    for (color, king, rooks) in [
        (Color::White, Square::E1, [Square::A1, Square::H1]),
        (Color::Black, Square::E8, [Square::A8, Square::H8]),
    ] {
        if board.piece_at(king) == Some(color.king()) {
            for rook in rooks {
                if board.piece_at(rook) == Some(color.rook()) {
                    rights.add(rook);
                }
            }
        }
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.castling_rights = rights;
    let pos = shakmaty::Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_too_much_material)
        .or_else(PositionError::ignore_impossible_check)
        .ok()?;
    (!pos.legal_moves().is_empty()).then_some(pos)
}

/// The spy check's value of a capturing piece (lower is preferred).
fn spy_value(role: Role) -> u8 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::King => 6,
        Role::Queen => 7,
    }
}

/// Returns the spy check's move among `legal`, if any: a capture whose source and
/// destination the prediction gives to the same colour.
#[must_use]
pub fn spy_check(prediction: &Prediction, legal: &[Move], rng: &mut GameRng) -> Option<Move> {
    let mut best: Vec<Move> = Vec::new();
    let mut best_key = None;
    for &m in legal {
        if matches!(m, Move::Castle { .. } | Move::EnPassant { .. }) {
            continue;
        }
        let (from, to) = from_to(m);
        let (Some(source), Some(target)) = (
            prediction.board.piece_at(from),
            prediction.board.piece_at(to),
        ) else {
            continue;
        };
        if source.color != target.color {
            continue;
        }
        // Larger is better: the predicted side to move's pieces first, then the lowest value.
        let key = (
            source.color == prediction.turn,
            u8::MAX - spy_value(source.role),
        );
        match best_key.map(|b| key.cmp(&b)) {
            None | Some(std::cmp::Ordering::Greater) => {
                best_key = Some(key);
                best.clear();
                best.push(m);
            }
            Some(std::cmp::Ordering::Equal) => best.push(m),
            Some(std::cmp::Ordering::Less) => {}
        }
    }
    match best.len() {
        0 => None,
        1 => Some(best[0]),
        n => Some(best[rng.below(n)]),
    }
}

/// A blind player for one game.
pub struct BlindPlayer {
    variant: Variant,
    model: Arc<BlindModel>,
    engine: Box<dyn Player<Chess>>,
}

impl BlindPlayer {
    /// Creates a player that predicts with `model` and asks `engine` (a Stockfish player
    /// that is sent only the position) for its moves.
    #[must_use]
    pub fn new(variant: Variant, model: Arc<BlindModel>, engine: Box<dyn Player<Chess>>) -> Self {
        BlindPlayer {
            variant,
            model,
            engine,
        }
    }
}

impl Player<Chess> for BlindPlayer {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return Err(PlayerError::NoMove);
        }
        let pos = game.position();
        let prediction = self
            .model
            .unblind(pos.board().occupied(), self.variant.king_rule());
        if let Some(prediction) = &prediction {
            if self.variant == Variant::Spycheck {
                if let Some(m) = spy_check(prediction, legal, rng) {
                    return Ok(m);
                }
            }
            if let Some(predicted) = playable(prediction, pos.turn()) {
                let predicted = Chess::from_shakmaty(predicted, DrawRules::Automatic);
                let engine_move = self.engine.choose(&predicted, rng)?;
                let code = predicted.move_code(engine_move);
                if let Ok(m) = game.parse_move(&code) {
                    if game.is_legal(m) {
                        return Ok(m);
                    }
                }
            }
        }
        Ok(legal[rng.below(legal.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Board, Piece};

    fn prediction(fen_board: &str, turn: Color) -> Prediction {
        Prediction {
            board: fen_board.parse::<Board>().expect("board"),
            turn,
        }
    }

    #[test]
    fn a_position_needs_one_king_per_side_and_no_check_on_the_side_not_to_move() {
        let start = prediction("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Color::White);
        let pos = playable(&start, Color::White).expect("the start is playable");
        // Castling rights come from the kings and rooks on their squares.
        assert_eq!(pos.castles().castling_rights().count(), 4);
        let two_white_kings =
            prediction("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR", Color::White);
        assert!(playable(&two_white_kings, Color::White).is_none());
        let no_black_king = prediction("rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Color::White);
        assert!(playable(&no_black_king, Color::White).is_none());
        // White to move while Black is in check from the rook: refused; Black to move: fine.
        let check = prediction("4k3/8/8/8/8/8/8/R3K2R", Color::White);
        assert!(playable(&check, Color::White).is_some());
        let black_in_check = prediction("4k3/8/8/8/8/8/8/4R1K1", Color::White);
        assert!(playable(&black_in_check, Color::White).is_none());
        assert!(playable(&black_in_check, Color::Black).is_some());
        // Stalemate: no legal move to ask an engine about.
        let stalemate = prediction("k7/2Q5/1K6/8/8/8/8/8", Color::Black);
        assert!(playable(&stalemate, Color::Black).is_none());
    }

    #[test]
    fn the_spy_check_captures_between_pieces_predicted_of_one_colour() {
        // Real game: the white knight on f3 attacks a black pawn on e5 and a black knight
        // on g5; the white queen on h5 attacks g5 too.
        let real = eloworld_games::Chess::from_position(
            "k7/8/8/4p1nQ/8/5N2/8/4K3 w - - 0 1",
            DrawRules::Automatic,
        )
        .expect("fen");
        let legal = real.legal_moves();
        let code = |m: Move| real.move_code(m);
        let mut rng = GameRng::new(3);
        // Predicted: e5 and g5 white (mispredicted): Nxe5, Nxg5 and Qxg5 are spy moves;
        // the knight (3) is preferred to the queen (7); e5 and g5 tie at random.
        let mut p = prediction("k7/8/8/4P1NQ/8/5N2/8/4K3", Color::White);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..40 {
            let m = spy_check(&p, legal, &mut GameRng::new(seed)).expect("a spy move");
            seen.insert(code(m));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), ["f3e5", "f3g5"]);
        // Only g5 mispredicted as white: the knight still takes there rather than the queen.
        p.board.set_piece_at(
            Square::E5,
            Piece {
                color: Color::Black,
                role: Role::Pawn,
            },
        );
        assert_eq!(
            spy_check(&p, legal, &mut rng).map(code).as_deref(),
            Some("f3g5")
        );
        // With the knight predicted black and g5 white, only the queen's capture of g5
        // pairs two predicted-white pieces.
        p.board.set_piece_at(
            Square::F3,
            Piece {
                color: Color::Black,
                role: Role::Knight,
            },
        );
        assert_eq!(
            spy_check(&p, legal, &mut rng).map(code).as_deref(),
            Some("h5g5")
        );
        // A correct prediction has no spy move.
        let right = prediction("k7/8/8/4p1nQ/8/5N2/8/4K3", Color::White);
        assert_eq!(spy_check(&right, legal, &mut rng), None);
    }

    #[test]
    fn the_predicted_side_to_moves_pieces_are_checked_first() {
        // The real white knight on f3 (predicted black) can take e5 (predicted black): its
        // colour is not the predicted side to move's (White). The real white rook on a1
        // (predicted white) can take a8 (predicted white): it agrees, and is played
        // although a rook is worth more than a knight.
        let real = eloworld_games::Chess::from_position(
            "r3k3/8/8/4p3/8/5N2/8/R3K3 w - - 0 1",
            DrawRules::Automatic,
        )
        .expect("fen");
        let p = prediction("R3k3/8/8/4p3/8/5n2/8/R3K3", Color::White);
        let m = spy_check(&p, real.legal_moves(), &mut GameRng::new(0)).expect("spy move");
        assert_eq!(real.move_code(m), "a1a8");
        let p = Prediction {
            turn: Color::Black,
            ..p
        };
        let m = spy_check(&p, real.legal_moves(), &mut GameRng::new(0)).expect("spy move");
        assert_eq!(real.move_code(m), "f3e5");
    }
}
