//! Piece identities: which of the 32 pieces of the starting position stands on each square.
//!
//! Murphy's Elo World, section 2.2: "If we keep state, then we can track the location of each piece
//! as it moves around the board (allowing us to distinguish the two rooks, or follow a pawn
//! as it promotes)." A piece is named by the square it starts on: the c2 pawn is still the
//! c2 pawn after it promotes to a queen on c8; castling moves the king and that rook; an
//! en-passant capture removes the pawn beside the destination square.

use shakmaty::{Bitboard, Board, CastlingSide, Color, Move, Role, Square};
use std::fmt;

/// One of the 32 pieces of the standard starting position, named by its starting square.
///
/// White's pieces (a1…h2) are 0…15, Black's (a7…h8) are 16…31.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PieceId(u8);

impl PieceId {
    /// The number of identities.
    pub const COUNT: usize = 32;

    /// Returns every identity, White's first.
    pub fn all() -> impl Iterator<Item = PieceId> {
        (0..32u8).map(PieceId)
    }

    /// Returns the identity of the piece that starts on `square`, if a piece starts there.
    #[must_use]
    pub fn starting_on(square: Square) -> Option<PieceId> {
        let i = usize::from(square);
        match i {
            0..=15 => Some(PieceId(i as u8)),
            48..=63 => Some(PieceId((i - 32) as u8)),
            _ => None,
        }
    }

    /// Returns the identity at `index` (0…31).
    #[must_use]
    pub fn from_index(index: usize) -> Option<PieceId> {
        u8::try_from(index).ok().filter(|&i| i < 32).map(PieceId)
    }

    /// Returns the index, 0…31.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Returns the square the piece starts on.
    #[must_use]
    pub fn start_square(self) -> Square {
        let i = u32::from(self.0);
        Square::new(if i < 16 { i } else { i + 32 })
    }

    /// Returns the piece's colour.
    #[must_use]
    pub const fn color(self) -> Color {
        if self.0 < 16 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Returns the role the piece starts with (a pawn keeps its identity when it promotes).
    #[must_use]
    pub fn start_role(self) -> Role {
        let sq = self.start_square();
        Board::new().role_at(sq).unwrap_or(Role::Pawn)
    }
}

/// Shows `c2 pawn`, `h8 rook`.
impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let role = match self.start_role() {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        };
        write!(f, "{} {role}", self.start_square())
    }
}

/// Where each piece identity is: the map square → identity and its inverse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identities {
    at: [Option<PieceId>; 64],
    square_of: [Option<Square>; 32],
}

impl Default for Identities {
    fn default() -> Self {
        Identities::start()
    }
}

impl Identities {
    /// Returns the identities of the standard starting position: each piece on its own square.
    #[must_use]
    pub fn start() -> Identities {
        let mut ids = Identities {
            at: [None; 64],
            square_of: [None; 32],
        };
        for id in PieceId::all() {
            ids.put(id, id.start_square());
        }
        ids
    }

    /// Guesses identities for a position reached from an unknown history (an opening book
    /// position, a FEN).
    ///
    /// For each colour and role, pieces are matched to the identities that start with that
    /// role, nearest first (distance in king steps; pawns by file first, then rank; a bishop
    /// only to the bishop of its square colour). Pieces left over (a second queen) are
    /// promoted pawns and take the unused pawn identities, nearest file first. On the
    /// starting position this gives every piece its own identity; a piece that matches no
    /// identity (possible only in positions no game can reach) is left untracked.
    #[must_use]
    pub fn guess(board: &Board) -> Identities {
        let mut ids = Identities {
            at: [None; 64],
            square_of: [None; 32],
        };
        for color in Color::ALL {
            let mut leftovers: Vec<Square> = Vec::new();
            for role in [
                Role::King,
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                let squares: Vec<Square> = board.by_piece(role.of(color)).into_iter().collect();
                let free: Vec<PieceId> = PieceId::all()
                    .filter(|id| id.color() == color && id.start_role() == role)
                    .collect();
                let unmatched = ids.match_nearest(&squares, &free, |id, sq| {
                    if role == Role::Bishop && id.start_square().is_light() != sq.is_light() {
                        None
                    } else {
                        Some(distance(role, id.start_square(), sq))
                    }
                });
                leftovers.extend(unmatched);
            }
            let free_pawns: Vec<PieceId> = PieceId::all()
                .filter(|id| {
                    id.color() == color
                        && id.start_role() == Role::Pawn
                        && ids.square_of(*id).is_none()
                })
                .collect();
            ids.match_nearest(&leftovers, &free_pawns, |id, sq| {
                Some(distance(Role::Pawn, id.start_square(), sq))
            });
        }
        ids
    }

    /// Assigns identities to squares greedily by increasing cost; returns the squares left
    /// without one.
    fn match_nearest(
        &mut self,
        squares: &[Square],
        free: &[PieceId],
        cost: impl Fn(PieceId, Square) -> Option<u32>,
    ) -> Vec<Square> {
        let mut pairs: Vec<(u32, PieceId, Square)> = squares
            .iter()
            .flat_map(|&sq| free.iter().map(move |&id| (id, sq)))
            .filter_map(|(id, sq)| cost(id, sq).map(|c| (c, id, sq)))
            .collect();
        pairs.sort();
        for (_, id, sq) in pairs {
            if self.square_of(id).is_none() && self.at(sq).is_none() {
                self.put(id, sq);
            }
        }
        squares
            .iter()
            .copied()
            .filter(|&sq| self.at(sq).is_none())
            .collect()
    }

    fn put(&mut self, id: PieceId, sq: Square) {
        self.at[usize::from(sq)] = Some(id);
        self.square_of[id.index()] = Some(sq);
    }

    fn take(&mut self, sq: Square) -> Option<PieceId> {
        let id = self.at[usize::from(sq)].take()?;
        self.square_of[id.index()] = None;
        Some(id)
    }

    /// Returns the identity of the piece on `square`.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<PieceId> {
        self.at[usize::from(square)]
    }

    /// Returns where a piece is, or `None` once it is captured (or was never tracked).
    #[must_use]
    pub fn square_of(&self, id: PieceId) -> Option<Square> {
        self.square_of[id.index()]
    }

    /// Returns the pieces of `color` on the board with their squares.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (PieceId, Square)> + '_ {
        PieceId::all()
            .filter(move |id| id.color() == color)
            .filter_map(|id| self.square_of(id).map(|sq| (id, sq)))
    }

    /// Returns the squares of the tracked pieces of `color`.
    #[must_use]
    pub fn occupied(&self, color: Color) -> Bitboard {
        self.pieces(color).map(|(_, sq)| sq).collect()
    }

    /// Returns whether the identities are consistent with `board`: the same squares are
    /// occupied by each colour, and every piece that is not a pawn identity still has its
    /// starting role (pawn identities may have promoted).
    #[must_use]
    pub fn agrees_with(&self, board: &Board) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.occupied(c) == board.by_color(c))
            && PieceId::all().all(|id| match self.square_of(id) {
                None => true,
                Some(sq) => {
                    let role = board.role_at(sq);
                    id.start_role() == Role::Pawn || role == Some(id.start_role())
                }
            })
    }

    /// Plays a legal move on the identities and returns the piece it captured, with the
    /// square it was captured on.
    ///
    /// The mover keeps its identity (also when it promotes); castling moves the king and
    /// the rook; en passant removes the pawn that passed, beside the destination square.
    pub fn play(&mut self, mv: Move) -> Option<(PieceId, Square)> {
        match mv {
            Move::Normal { from, to, .. } => {
                let captured = self.take(to).map(|id| (id, to));
                if let Some(id) = self.take(from) {
                    self.put(id, to);
                }
                captured
            }
            Move::EnPassant { from, to } => {
                let passed = Square::from_coords(to.file(), from.rank());
                let captured = self.take(passed).map(|id| (id, passed));
                if let Some(id) = self.take(from) {
                    self.put(id, to);
                }
                captured
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let rank = king.rank();
                let king_id = self.take(king);
                let rook_id = self.take(rook);
                if let Some(id) = king_id {
                    self.put(id, Square::from_coords(side.king_to_file(), rank));
                }
                if let Some(id) = rook_id {
                    self.put(id, Square::from_coords(side.rook_to_file(), rank));
                }
                None
            }
            Move::Put { to, .. } => self.take(to).map(|id| (id, to)),
        }
    }
}

/// Returns how far a piece of `role` is from its starting square, for [`Identities::guess`].
fn distance(role: Role, start: Square, sq: Square) -> u32 {
    if role == Role::Pawn {
        16 * start.file().distance(sq.file()) + start.rank().distance(sq.rank())
    } else {
        start.distance(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;
    use shakmaty::{Chess, Position};

    fn id(name: &str) -> PieceId {
        let sq: Square = name.parse().expect("square");
        PieceId::starting_on(sq).expect("a starting square")
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    /// Plays SAN moves from the start, checking after each that the identities agree with
    /// the board, and returns the identities, the position and the captured pieces.
    fn replay(sans: &str) -> (Identities, Chess, Vec<(PieceId, Square)>) {
        let mut pos = Chess::default();
        let mut ids = Identities::start();
        let mut captured = Vec::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().expect("san").to_move(&pos).expect(san);
            captured.extend(ids.play(mv));
            pos.play_unchecked(mv);
            assert!(
                ids.agrees_with(pos.board()),
                "identities disagree after {san}"
            );
        }
        (ids, pos, captured)
    }

    #[test]
    fn names_and_indices() {
        assert_eq!(id("c2").to_string(), "c2 pawn");
        assert_eq!(id("h8").to_string(), "h8 rook");
        assert_eq!(id("e1").start_role(), Role::King);
        assert_eq!(id("a7").index(), 16);
        assert_eq!(id("h8").index(), 31);
        assert_eq!(PieceId::starting_on(sq("e4")), None);
        for p in PieceId::all() {
            assert_eq!(PieceId::starting_on(p.start_square()), Some(p));
        }
    }

    /// A hand-made game with captures, both castlings, en passant and a promotion that
    /// captures: every step is checked by hand in the comments.
    #[test]
    fn identities_follow_promotion_castling_en_passant_and_captures() {
        let game = "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 Bf5 Bc4 e6 O-O c6 \
                    Re1 Nbd7 d5 O-O-O dxe6 fxe6 Bxe6 Kb8 Bxd7 Rxd7 Bf4+ Ka8 \
                    Qxd7 Nxd7 a4 g5 Be3 b6 Nb5 a6 Nd6 Bxd6 Rad1 Kb7 Rxd6 h5 \
                    h4 gxh4 g4 hxg3 Kg2 gxf2 Kg3 fxe1=Q+";
        let (ids, pos, captured) = replay(game);
        // The black g7 pawn: g5, takes on h4 (the h-pawn), takes en passant on g3
        // (after g2-g4), then takes on f2 and promotes by taking the rook on e1.
        assert_eq!(ids.square_of(id("g7")), Some(sq("e1")));
        assert_eq!(pos.board().role_at(sq("e1")), Some(Role::Queen));
        assert_eq!(ids.at(sq("e1")), Some(id("g7")));
        // The pawn taken en passant is White's g2 pawn, removed from g4, not g3.
        assert!(captured.contains(&(id("g2"), sq("g4"))));
        assert_eq!(ids.square_of(id("g2")), None);
        // White castled short: the king on g1 went on to g2 then g3; the h1 rook reached
        // f1, then e1 (Re1), and was taken there by the promoting pawn.
        assert_eq!(ids.square_of(id("e1")), Some(sq("g3")));
        assert_eq!(ids.square_of(id("h1")), None);
        assert_eq!(captured.last(), Some(&(id("h1"), sq("e1"))));
        // The a1 rook went to d1 (Rad1) and took the bishop on d6.
        assert_eq!(ids.square_of(id("a1")), Some(sq("d6")));
        assert!(captured.contains(&(id("f8"), sq("d6"))));
        // Black castled long: the king went to c8, b8, a8 and b7; the a8 rook to d8,
        // then took on d7 (Rxd7) and was taken there by the queen.
        assert_eq!(ids.square_of(id("e8")), Some(sq("b7")));
        assert_eq!(ids.square_of(id("a8")), None);
        assert_eq!(ids.square_of(id("h8")), Some(sq("h8")));
        // The white queen took on d7 and was taken by the f6 knight, which came from g8.
        assert_eq!(ids.square_of(id("d1")), None);
        assert_eq!(ids.square_of(id("g8")), Some(sq("d7")));
        // The b8 knight went to d7 and was taken there by the bishop.
        assert_eq!(ids.square_of(id("b8")), None);
        // The two white knights are told apart: b1 went c3-b5-d6 and was taken; g1 is on f3.
        assert_eq!(ids.square_of(id("b1")), None);
        assert_eq!(ids.square_of(id("g1")), Some(sq("f3")));
        assert_eq!(captured.len(), 32 - pos.board().occupied().count());
    }

    #[test]
    fn guess_gives_the_starting_position_its_own_identities() {
        assert_eq!(Identities::guess(&Board::new()), Identities::start());
    }

    #[test]
    fn guess_gives_an_extra_queen_a_pawn_identity_and_keeps_bishops_on_their_colour() {
        // White: king g1, queens d1 and a8, a bishop on b2 (a dark square, like c1), pawns
        // on f2 g2 h2. Black: king h8 and pawn h7.
        let board: Board = "Q6k/7p/8/8/8/8/1B3PPP/3Q2K1".parse().expect("board");
        let ids = Identities::guess(&board);
        assert!(ids.agrees_with(&board));
        assert_eq!(ids.at(sq("g1")), Some(id("e1")));
        assert_eq!(ids.at(sq("d1")), Some(id("d1")));
        assert_eq!(ids.at(sq("b2")), Some(id("c1")), "b2 is dark, like c1");
        assert_eq!(
            ids.at(sq("a8")),
            Some(id("a2")),
            "the extra queen is the nearest free pawn"
        );
        assert_eq!(ids.at(sq("h7")), Some(id("h7")));
        assert_eq!(ids.at(sq("f2")), Some(id("f2")));
    }

    #[test]
    fn disagreement_is_detected() {
        let (ids, _, _) = replay("e4 e5");
        assert!(!ids.agrees_with(&Board::new()));
    }
}
