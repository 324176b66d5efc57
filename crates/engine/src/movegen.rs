//! A capture generator for the quiescence search, faster than filtering all legal moves.
//!
//! It yields the legal captures of a position that is not in check, except en passant, with
//! a capturing pawn promoting to a queen only (the quiescence search tries no
//! under-promotion). A test checks it against shakmaty's full move generation.

use shakmaty::attacks;
use shakmaty::{Bitboard, Chess, Move, MoveList, Position, Role};

const ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// Appends the legal captures (see the module doc) of `pos`, which must not be in check.
pub fn captures(pos: &Chess, out: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let them = !us;
    let occupied = board.occupied();
    let theirs = board.by_color(them) & !board.kings();
    let Some(king) = board.king_of(us) else {
        return;
    };
    let last_rank = Bitboard(if us.is_white() {
        0xFF00_0000_0000_0000
    } else {
        0xFF
    });

    for role in ROLES {
        for from in board.by_role(role) & board.by_color(us) {
            let targets = match role {
                Role::Pawn => attacks::pawn_attacks(us, from),
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            } & theirs;
            for to in targets {
                let after = occupied ^ Bitboard::from_square(from);
                if (board.attacks_to(king, them, after) & !Bitboard::from_square(to)).any() {
                    continue; // pinned
                }
                let promotion =
                    (role == Role::Pawn && last_rank.contains(to)).then_some(Role::Queen);
                out.push(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion,
                });
            }
        }
    }
    for to in attacks::king_attacks(king) & theirs {
        let after = occupied ^ Bitboard::from_square(king);
        if (board.attacks_to(to, them, after) & !Bitboard::from_square(to)).is_empty() {
            out.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::bench_lines;

    fn expected(pos: &Chess) -> Vec<Move> {
        let mut v: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.is_capture()
                    && !m.is_en_passant()
                    && matches!(m.promotion(), None | Some(Role::Queen))
            })
            .collect();
        v.sort_by_key(|m| format!("{m:?}"));
        v
    }

    #[test]
    fn matches_shakmaty_on_positions_along_games() {
        let mut checked = 0;
        for pos in bench_lines(60).into_iter().filter(|p| !p.is_check()) {
            let mut got = MoveList::new();
            captures(&pos, &mut got);
            let mut got: Vec<Move> = got.into_iter().collect();
            got.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(
                got,
                expected(&pos),
                "{}",
                shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
            );
            checked += 1;
        }
        assert!(checked > 300, "{checked}");
    }

    #[test]
    fn a_pinned_piece_cannot_capture() {
        // The knight on d2 is pinned by the rook on d8 and may not take e4.
        let pos: Chess = "3r2k1/8/8/8/4p3/8/3N4/3K4 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let mut got = MoveList::new();
        captures(&pos, &mut got);
        assert!(got.is_empty(), "{got:?}");
    }
}
