use super::first_move::Reading;
use super::generation_order::{generation_key, row, square_code};
use super::scoring::{after, depth, from_to};
use eloworld_games::chess::piece_value;
use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::{Color, Move, Position, Role};
use std::cmp::Reverse;

/// Checkmate, Check, Capture, Push, in that order (Murphy's Elo World, `cccp`).
///
/// Moves are ranked, best first, by: mates; gives check; the value of the captured piece
/// (P 1, N 3, B 3, R 5, Q 9, nothing 0: among captures, the most valuable victim); how deep
/// the destination lies in enemy territory. The paper says "ties are broken
/// deterministically by the source/destination squares"; its readings differ after that:
///
/// - [`Reading::Program`] (the default, what the paper's table measured): the original
///   program next prefers destinations nearer the central files (d/e, then c/f, b/g, a/h),
///   then the more valuable promotion, then the lowest source and destination squares
///   counted from a8; where its comparisons call two moves equal (a captured knight against
///   a captured bishop, a rook that may still castle against one that may not), it keeps the
///   one generated first ([`generation_key`]). It opens 1. d4 (the paper's Fig. 6) and its
///   self-play is won by Black (Fig. 11).
/// - [`Reading::Text`]: the lowest source square counted from a1 (the same numbering for
///   both colours), then the lowest destination, then the most valuable promotion: 1. a4.
///
/// Castling is seen as the king's move (`e1g1`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cccp {
    /// Which reading of the tie-breaks it follows.
    pub reading: Reading,
}

/// Returns the text reading's key of `m` (larger is preferred; unique per legal move).
fn text_key(
    pos: &shakmaty::Chess,
    m: Move,
) -> (bool, bool, i32, u32, Reverse<u32>, Reverse<u32>, i32) {
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

/// What the original program knows of a move when it compares two.
#[derive(Clone, Copy, Debug)]
struct Labelled {
    mv: Move,
    mate: bool,
    check: bool,
    /// The captured piece's kind: 0 none, else its role's number, with a rook that may
    /// still castle (the original's own piece kind) as 7.
    captured: u8,
    captured_value: i32,
    to_row: i32,
    /// Distance of the destination's file from the centre: d/e 0 … a/h 3.
    centre_distance: u32,
    promotion: Option<Role>,
    /// The original's total order: (source·64 + destination)·8 + promotion piece.
    code: u32,
}

fn label(pos: &shakmaty::Chess, m: Move) -> Labelled {
    let next = after(pos, m);
    let check = next.is_check();
    let mate = check && next.legal_moves().is_empty();
    let (from, to) = from_to(m);
    let captured = match m.capture() {
        None => 0,
        Some(Role::Rook) if pos.castles().castling_rights().contains(to) => 7,
        Some(role) => role as u8,
    };
    let file = u32::from(to.file() as u8);
    let centre_distance = if file < 4 { 3 - file } else { file - 4 };
    // The original's promotion piece carries the mover's colour bit (8 for Black).
    let colour_bit = if pos.turn() == Color::Black { 8 } else { 0 };
    let promotion_code = m.promotion().map_or(0, |r| match r {
        Role::Knight => 2,
        Role::Bishop => 3,
        Role::Rook => 4,
        _ => 5,
    } + colour_bit);
    Labelled {
        mv: m,
        mate,
        check,
        captured,
        captured_value: m.capture().map_or(0, piece_value),
        to_row: row(to),
        centre_distance,
        promotion: m.promotion(),
        code: (square_code(from) * 64 + square_code(to)) * 8 + promotion_code,
    }
}

/// Returns whether the original program prefers `a` to `b`: its comparison, which answers
/// "no" at the first criterion where the two differ in kind but tie in value.
fn program_prefers(a: &Labelled, b: &Labelled, mover: Color) -> bool {
    if a.mate != b.mate {
        return a.mate;
    }
    if a.check != b.check {
        return a.check;
    }
    if a.captured != b.captured {
        return a.captured_value > b.captured_value;
    }
    if a.to_row != b.to_row {
        // Deeper is a lower row for White, a higher one for Black.
        return match mover {
            Color::White => a.to_row < b.to_row,
            Color::Black => a.to_row > b.to_row,
        };
    }
    if a.centre_distance != b.centre_distance {
        return a.centre_distance < b.centre_distance;
    }
    if a.promotion != b.promotion {
        let value = |p: Option<Role>| p.map_or(0, piece_value);
        return value(a.promotion) > value(b.promotion);
    }
    a.code < b.code
}

/// Returns the original program's choice: scanning the moves in its generation order, the
/// best so far is replaced only by a move it strictly prefers.
fn program_choice(pos: &shakmaty::Chess, moves: &[Move]) -> Option<Move> {
    let mut ordered: Vec<Move> = moves.to_vec();
    ordered.sort_by_key(|&m| generation_key(m));
    let mover = pos.turn();
    let mut labelled = ordered.into_iter().map(|m| label(pos, m));
    let mut best = labelled.next()?;
    for candidate in labelled {
        if program_prefers(&candidate, &best, mover) {
            best = candidate;
        }
    }
    Some(best.mv)
}

impl Player<Chess> for Cccp {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let chosen = match self.reading {
            Reading::Program => program_choice(pos, game.legal_moves()),
            Reading::Text => game
                .legal_moves()
                .iter()
                .copied()
                .max_by_key(|&m| text_key(pos, m)),
        };
        chosen.ok_or(PlayerError::NoMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, game_after, START};
    use eloworld_games::{DrawRules, GameResult};

    fn choose_as(reading: Reading, g: &Chess) -> String {
        let m = Cccp { reading }
            .choose(g, &mut GameRng::new(0))
            .expect("move");
        g.move_code(m)
    }

    fn choose(g: &Chess) -> String {
        choose_as(Reading::Program, g)
    }

    #[test]
    fn mates_when_it_can() {
        for reading in [Reading::Program, Reading::Text] {
            assert_eq!(
                choose_as(reading, &game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")),
                "a1a8"
            );
        }
    }

    #[test]
    fn a_check_beats_taking_the_queen() {
        // Bxh6 takes the queen; Ra8+ and Bb2+ check, and Ra8 goes deeper.
        for reading in [Reading::Program, Reading::Text] {
            assert_eq!(
                choose_as(reading, &game("7k/8/7q/8/8/1K6/8/R1B5 w - - 0 1")),
                "a1a8"
            );
        }
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
    fn the_program_pushes_to_the_centre_and_opens_1_d4_d5() {
        // All eight double pushes reach the fourth rank; d and e are the central files, and
        // d2 (row 6, column 3) is the lower square counted from a8. Black answers d5.
        assert_eq!(choose(&game(START)), "d2d4");
        assert_eq!(choose(&game_after(START, "d2d4")), "d7d5");
        // Fig. 6's opening against suicide_king: 1. d4 g5 2. Bxg5.
        assert_eq!(choose(&game_after(START, "d2d4 g7g5")), "c1g5");
    }

    #[test]
    fn the_text_reading_pushes_from_the_lowest_square() {
        // All eight double pushes reach depth 3; a2 is the lowest source square. For Black
        // the double pushes reach depth 3 too, and a7 (48) is below b7..h7.
        assert_eq!(choose_as(Reading::Text, &game(START)), "a2a4");
        assert_eq!(choose_as(Reading::Text, &game_after(START, "h2h3")), "a7a5");
    }

    #[test]
    fn equal_valued_victims_keep_the_move_generated_first() {
        // The e4 pawn can take a knight on d5 or a bishop on f5, both 3 and both to the
        // fifth rank; neither checks. The original calls them equal and keeps the first
        // generated (towards the a-file: exd5), although f5 is no farther from the centre.
        let g = game("4k3/8/8/3n1b2/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(choose(&g), "e4d5");
        let g = game("4k3/8/8/3b1n2/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(choose(&g), "e4d5");
    }

    #[test]
    fn the_programs_self_play_is_won_by_black() {
        let mut g = Chess::new(DrawRules::Automatic);
        let (mut white, mut black) = (Cccp::default(), Cccp::default());
        let mut rng = GameRng::new(0);
        let mut plies = 0;
        while g.outcome().is_none() && plies < 1000 {
            let side = if g.position().turn() == Color::White {
                &mut white
            } else {
                &mut black
            };
            let m = side.choose(&g, &mut rng).expect("move");
            g.play(m);
            plies += 1;
        }
        let outcome = g.outcome().expect("the game ends");
        assert_eq!(
            outcome.result,
            GameResult::Win(eloworld_games::Side::BLACK),
            "after {plies} plies"
        );
    }
}
