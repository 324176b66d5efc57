use super::scoring::{after, depth, from_to};
use crate::{Player, PlayerError};
use eloworld_games::chess::piece_value;
use eloworld_games::{Chess, Game, GameRng};
use shakmaty::{Move, Position, Role};
use std::cmp::Reverse;

/// Checkmate, Check, Capture, Push, in that order (seed 002, `cccp`).
///
/// Moves are ranked, best first, by: mates; gives check; the value of the captured piece
/// (P 1, N 3, B 3, R 5, Q 9, nothing 0: among captures, the most valuable victim); how deep
/// the destination lies in enemy territory (the rank counted from the mover's back rank).
/// "Ties are broken deterministically by the source/destination squares", so the player is
/// deterministic and, as the seed says, asymmetric: the lowest source square (a1 = 0 …
/// h8 = 63, the same numbering for both colours), then the lowest destination, then the
/// most valuable promotion. Castling is seen as the king's move (`e1g1`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cccp;

/// Returns `cccp`'s key of `m` (larger is preferred; unique per legal move).
fn key(pos: &shakmaty::Chess, m: Move) -> (bool, bool, i32, u32, Reverse<u32>, Reverse<u32>, i32) {
    let next = after(pos, m);
    let check = next.is_check();
    let mate = check && next.legal_moves().is_empty();
    let (from, to) = from_to(m);
    (
        mate,
        check,
        m.capture().map_or(0, piece_value),
        depth(to, pos.turn()),
        Reverse(from.to_u32()),
        Reverse(to.to_u32()),
        m.promotion()
            .map_or(0, |r| if r == Role::Knight { 1 } else { piece_value(r) }),
    )
}

impl Player<Chess> for Cccp {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        game.legal_moves()
            .iter()
            .copied()
            .max_by_key(|&m| key(pos, m))
            .ok_or(PlayerError::NoMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::scoring::test_support::{game, game_after, START};

    fn choose(g: &Chess) -> String {
        let m = Cccp.choose(g, &mut GameRng::new(0)).expect("move");
        g.move_code(m)
    }

    #[test]
    fn mates_when_it_can() {
        assert_eq!(choose(&game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")), "a1a8");
    }

    #[test]
    fn a_check_beats_taking_the_queen() {
        // Bxh6 takes the queen; Ra8+ and Bb2+ check, and Ra8 goes deeper.
        assert_eq!(choose(&game("7k/8/7q/8/8/1K6/8/R1B5 w - - 0 1")), "a1a8");
    }

    #[test]
    fn checks_from_the_opening_when_it_can() {
        assert_eq!(choose(&game_after(START, "e2e4 d7d5")), "f1b5");
    }

    #[test]
    fn captures_when_it_cannot_check() {
        assert_eq!(choose(&game_after(START, "e2e4 e7e5 g1f3 b8c6")), "f3e5");
    }

    #[test]
    fn otherwise_pushes_deepest_with_ties_to_the_lowest_squares() {
        // All eight double pushes reach depth 3; a2 is the lowest source square. For Black
        // the double pushes reach depth 3 too, and a7 (48) is below b7..h7.
        assert_eq!(choose(&game(START)), "a2a4");
        assert_eq!(choose(&game_after(START, "h2h3")), "a7a5");
    }
}
