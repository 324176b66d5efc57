//! Static exchange evaluation (SEE): the material a capture wins or loses once both sides
//! have recaptured on its square with their least valuable attackers, each side free to
//! stop when going on would lose (the swap algorithm of the Chess Programming Wiki's "SEE -
//! The Swap Algorithm", without its early cut, which leaves some values inexact; x-rays
//! found by removing each capturer from the occupancy).
//!
//! The search uses it, as fixed code beside the paper's genes, to drop losing captures from
//! the quiescence search and to order them after the quiet moves. Pins are ignored (a pinned
//! piece is counted as a recapturer), as in most engines' SEE.

use shakmaty::{Bitboard, Chess, Move, Position, Role};

/// The exchange values in centipawns (the textbook 1–3–3–5–9; a king is never lost).
const fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 20_000,
    }
}

/// The roles in the order recapturers are chosen: least valuable first.
const CHEAPEST_FIRST: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Returns the static exchange value of `m` in `pos` (centipawns, from the mover's side):
/// positive when the capture wins material, 0 for an even trade or a quiet move to a safe
/// square, negative when it loses. Promotions count the promoted piece's gain; castling is 0.
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (role, from, to) = match m {
        Move::Normal { role, from, to, .. } => (role, from, to),
        Move::EnPassant { from, to } => (Role::Pawn, from, to),
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let board = pos.board();
    let mut occupied = board.occupied();
    if let Move::EnPassant { .. } = m {
        // The captured pawn stands beside the destination, on the mover's rank.
        occupied ^= Bitboard::from_square(shakmaty::Square::from_coords(to.file(), from.rank()));
    }
    let promotion_gain = m
        .promotion()
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn));
    let mut gain = [0i32; 34];
    gain[0] = m.capture().map_or(0, see_value) + promotion_gain;
    // The piece standing on the square, about to be taken next.
    let mut on_square = m.promotion().map_or(see_value(role), see_value);
    let mut capturer = Bitboard::from_square(from);
    let mut side = pos.turn();
    let mut d = 0;
    loop {
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if d + 1 >= gain.len() {
            break;
        }
        occupied ^= capturer;
        side = !side;
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        let Some((next_role, sq)) = CHEAPEST_FIRST
            .iter()
            .find_map(|&r| (attackers & board.by_role(r)).first().map(|sq| (r, sq)))
        else {
            break;
        };
        if next_role == Role::King {
            let rest = occupied ^ Bitboard::from_square(sq);
            if (board.attacks_to(to, !side, rest) & rest).any() {
                break; // the king may not take a defended piece
            }
        }
        capturer = Bitboard::from_square(sq);
        on_square = see_value(next_role);
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// Returns whether `m` loses material by static exchange; cheap when the victim is worth at
/// least the capturer (such a capture never loses).
#[must_use]
#[inline]
pub fn loses_material(pos: &Chess, m: Move) -> bool {
    match m.capture() {
        Some(victim) if see_value(victim) >= see_value(m.role()) => false,
        _ => see(pos, m) < 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::CastlingMode;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal move");
        see(&pos, m)
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        // Rxe5, nothing defends the pawn (the CPW SEE example 1).
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
    }

    #[test]
    fn a_defended_pawn_costs_the_knight() {
        // Nxe5 in the CPW SEE example 2: N takes P, N recaptured, and the x-ray rook
        // behind the queen does not save it: 100 - 300 = -200.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -200
        );
    }

    #[test]
    fn an_even_trade_is_zero_and_a_pawn_takes_a_knight() {
        // Nxd5 Nxd5: knight for knight.
        assert_eq!(see_of("4k3/8/5n2/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0);
        // exd5 wins a knight for a pawn although the knight on f6 recaptures.
        assert_eq!(see_of("4k3/8/5n2/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 200);
    }

    #[test]
    fn an_x_ray_recapture_counts() {
        // Rxd5 with a second rook behind: the black rook recaptures, the white rook behind
        // takes back: 100 (pawn) - 500 + 500 = +100.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
        // Without the second white rook the exchange loses the exchange: 100 - 500.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), -400);
    }

    #[test]
    fn the_king_cannot_recapture_a_defended_piece() {
        // Qxf7+ with the bishop on c4 behind it: the king may not take back.
        assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
        // Without the bishop the king takes the queen.
        assert_eq!(see_of("4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1", "f1f7"), -800);
    }

    #[test]
    fn losing_captures_are_found_cheaply() {
        let pos: Chess = "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1"
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let qxd5 = "d1d5"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        assert!(loses_material(&pos, qxd5));
    }
}
