use super::scoring::{after, choose_best};
use eloworld_games::chess::piece_value;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};
use std::cmp::Reverse;

/// Avoids hurting the opponent (Murphy's Elo World, `pacifist`).
///
/// "Avoid moves that mate the opponent, and failing that, avoid moves that check, and
/// failing that, avoid moves that capture pieces, and failing that, capture lower value
/// pieces. Break ties randomly." The move key, smallest best, is
/// `(mates, checks, value of the captured piece)` with values P 1, N 3, B 3, R 5, Q 9 and 0
/// for a move that captures nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pacifist;

/// Returns `pacifist`'s penalty of `m` (lexicographic; smaller is more peaceful).
fn penalty(pos: &shakmaty::Chess, m: Move) -> (bool, bool, i32) {
    let next = after(pos, m);
    let check = next.is_check();
    let mate = check && next.legal_moves().is_empty();
    (mate, check, m.capture().map_or(0, piece_value))
}

impl Player<Chess> for Pacifist {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        choose_best(game.legal_moves(), rng, |m| Reverse(penalty(pos, m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, picks, set};

    /// Ra8 mates, Nf6+ and Nh6+ check, Rxc1 takes a knight; every other move is quiet.
    const FEN: &str = "6k1/5ppp/8/8/6N1/8/8/R1n3K1 w - - 0 1";

    #[test]
    fn never_mates_checks_or_captures_when_a_quiet_move_exists() {
        let g = game(FEN);
        let hurtful = ["a1a8", "g4f6", "g4h6", "a1c1"];
        let quiet: Vec<String> = g
            .legal_moves()
            .iter()
            .map(|&m| g.move_code(m))
            .filter(|c| !hurtful.contains(&c.as_str()))
            .collect();
        // The four hurtful moves must all be legal here for the fixture to mean anything.
        assert_eq!(g.legal_moves().len(), quiet.len() + hurtful.len());
        let quiet_refs: Vec<&str> = quiet.iter().map(String::as_str).collect();
        assert_eq!(picks(&mut Pacifist, FEN, 400), set(&quiet_refs));
    }

    #[test]
    fn a_capture_beats_a_check_and_a_check_beats_mate() {
        let g = game(FEN);
        let key = |code: &str| penalty(g.position(), g.parse_move(code).expect("fixture move"));
        assert_eq!(key("a1a8"), (true, true, 0));
        assert_eq!(key("g4f6"), (false, true, 0));
        assert_eq!(key("a1c1"), (false, false, 3));
        assert_eq!(key("a1a2"), (false, false, 0));
        assert!(
            key("a1a2") < key("a1c1") && key("a1c1") < key("g4f6") && key("g4f6") < key("a1a8")
        );
    }

    #[test]
    fn forced_to_capture_it_takes_the_cheapest_piece() {
        // The king can only take the a2 pawn or the b2 knight (b1 is covered by the pawn).
        let fen = "7k/8/8/8/8/8/pn6/K7 w - - 0 1";
        assert_eq!(picks(&mut Pacifist, fen, 50), set(&["a1a2"]));
    }
}
