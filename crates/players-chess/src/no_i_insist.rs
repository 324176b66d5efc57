use super::scoring::{after, choose_best, Ratio};
use eloworld_games::chess::piece_value;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Move, Position};

/// Insists that the opponent take its gifts (Murphy's Elo World, `no_i_insist`: "like generous, but
/// be overwhelmingly polite by trying to *force* the opponent to accept the gift of
/// material").
///
/// Each move is judged by the opponent's legal replies after it, in three tiers compared
/// in order (the paper's, read literally):
/// 1. **Never end the game**: checkmating the opponent is the worst move, stalemating it
///    the next worst ("stalemate is polite, but it is more canonical for two polite
///    players to form a draw by repetition"); any move that lets the game go on is better.
/// 2. **Leave no way to refuse**: a move after which *every* reply captures is better
///    than any move after which some reply does not; among such forcing moves, the higher
///    the value the opponent must at least take (the least valuable capture it has), the
///    better. A move that does not force scores 0 here.
/// 3. **Expected gift against random play**: the summed value of the captures among the
///    replies divided by the number of replies (three replies, one taking a rook: 5/3),
///    compared exactly as a fraction.
///
/// Values are P 1, N 3, B 3, R 5, Q 9. Ties are broken at random. (Tom Murphy's program
/// starts its "least forced capture" at 0, so its second tier never fires; we follow the
/// text.)
#[derive(Clone, Copy, Debug, Default)]
pub struct NoIInsist;

/// The three tiers of [`NoIInsist`]'s judgement of one move; larger is more polite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Politeness {
    /// 0: checkmates, 1: stalemates, 2: the game goes on.
    pub game_goes_on: u8,
    /// The least value the opponent must capture, when every reply captures; else 0.
    pub forced_gift: u32,
    /// The average value captured by a uniformly random reply.
    pub expected_gift: Ratio,
}

/// Returns how polite `m` is in `pos`.
pub(crate) fn politeness(pos: &shakmaty::Chess, m: Move) -> Politeness {
    let next = after(pos, m);
    let replies = next.legal_moves();
    if replies.is_empty() {
        return Politeness {
            game_goes_on: u8::from(!next.is_check()),
            forced_gift: 0,
            expected_gift: Ratio { num: 0, den: 1 },
        };
    }
    let mut total = 0u32;
    let mut least: Option<u32> = Some(u32::MAX);
    for r in &replies {
        match r.capture() {
            Some(role) => {
                let value = piece_value(role).unsigned_abs();
                total += value;
                least = least.map(|l| l.min(value));
            }
            None => least = None,
        }
    }
    Politeness {
        game_goes_on: 2,
        forced_gift: least.unwrap_or(0),
        expected_gift: Ratio {
            num: total,
            den: replies.len() as u32,
        },
    }
}

impl Player<Chess> for NoIInsist {
    fn choose(&mut self, game: &Chess, rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        choose_best(game.legal_moves(), rng, |m| politeness(pos, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, picks, set};

    /// Black: Kh8 behind pawns g7 h7. White: Qd5, Ka1. Qg8+ leaves Kxg8 as the only reply;
    /// Qd8 and Qa8 mate; every other move offers less or leaves Black a choice.
    const FEN: &str = "7k/6pp/8/3Q4/8/8/8/K7 w - - 0 1";

    #[test]
    fn forces_the_king_to_take_the_queen() {
        assert_eq!(picks(&mut NoIInsist, FEN, 100), set(&["d5g8"]));
    }

    #[test]
    fn mate_is_worse_than_anything_and_forcing_beats_any_average() {
        let g = game(FEN);
        let judge =
            |code: &str| politeness(g.position(), g.parse_move(code).expect("fixture move"));
        let mate = judge("d5d8");
        assert_eq!(mate.game_goes_on, 0);
        let forced = judge("d5g8");
        assert_eq!((forced.game_goes_on, forced.forced_gift), (2, 9));
        assert_eq!(forced.expected_gift, Ratio { num: 9, den: 1 });
        // Qd1 offers nothing and forces nothing: Black has king and pawn moves.
        let quiet = judge("d5d1");
        assert_eq!(
            (quiet.forced_gift, quiet.expected_gift),
            (0, Ratio { num: 0, den: 1 })
        );
        assert!(mate < quiet && quiet < forced);
    }

    #[test]
    fn stalemate_is_better_than_mate_but_worse_than_playing_on() {
        // Qb1: Qh1 mates, Qg6 stalemates, Qb2 lets Black play on.
        let g = game("7k/5K2/8/8/8/8/8/1Q6 w - - 0 1");
        let judge =
            |code: &str| politeness(g.position(), g.parse_move(code).expect("fixture move"));
        assert_eq!(judge("b1h1").game_goes_on, 0);
        assert_eq!(judge("b1g6").game_goes_on, 1);
        assert_eq!(judge("b1b2").game_goes_on, 2);
    }

    #[test]
    fn the_expected_gift_divides_by_the_number_of_replies() {
        // After Qc4 Black has bxc4, dxc4 (18 together), b4, d4 and five king moves: 18/9;
        // after Qe4+ only dxe4 and four king moves: 9/5. Neither forces.
        let g = game("4k3/8/8/1p1p4/8/3Q4/8/4K3 w - - 0 1");
        let judge =
            |code: &str| politeness(g.position(), g.parse_move(code).expect("fixture move"));
        assert_eq!(judge("d3c4").expected_gift, Ratio { num: 2, den: 1 });
        assert_eq!(judge("d3e4").expected_gift, Ratio { num: 9, den: 5 });
        assert_eq!(
            picks(&mut NoIInsist, "4k3/8/8/1p1p4/8/3Q4/8/4K3 w - - 0 1", 100),
            set(&["d3c4"])
        );
    }
}
