use eloworld_games::{Chess, Game, GameRng};
use eloworld_players_core::{Player, PlayerError};
use shakmaty::san::San;
use shakmaty::Move;
use std::fmt::Write as _;

/// Plays the alphabetically first move in standard algebraic notation (Murphy's Elo World,
/// `alphabetical`: `"a3" < "O-O" < "Qxg7"`).
///
/// The comparison is alphabetical, that is case-blind (`a3 < O-O < Qxg7`, where plain
/// byte order would put `O-O` first); the rare pair that differs only in case (`Bxc3` and
/// `bxc3`) is ordered by bytes, capital first. SAN is written without the check suffix,
/// which never decides between two legal moves. Deterministic and, as Elo World notes,
/// asymmetric: both colours drift towards a1.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alphabetical;

/// A move's SAN on the stack (the longest, `Qa1xb2` or `exd8=Q`, has 6 bytes).
#[derive(Clone, Copy, Default)]
struct SanText {
    bytes: [u8; 8],
    len: usize,
}

impl std::fmt::Write for SanText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl SanText {
    fn of(pos: &shakmaty::Chess, m: Move) -> SanText {
        let mut text = SanText::default();
        // Cannot fail: SAN without suffix fits in 8 bytes.
        let _ = write!(text, "{}", San::from_move(pos, m));
        text
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Compares two SAN texts alphabetically (case-blind), then by bytes.
fn alphabetical_order(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    a.iter()
        .map(u8::to_ascii_lowercase)
        .cmp(b.iter().map(u8::to_ascii_lowercase))
        .then_with(|| a.cmp(b))
}

impl Player<Chess> for Alphabetical {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<Move, PlayerError> {
        let pos = game.position();
        let mut best: Option<(SanText, Move)> = None;
        for &m in game.legal_moves() {
            let text = SanText::of(pos, m);
            let better = best
                .as_ref()
                .is_none_or(|(b, _)| alphabetical_order(text.as_bytes(), b.as_bytes()).is_lt());
            if better {
                best = Some((text, m));
            }
        }
        best.map(|(_, m)| m).ok_or(PlayerError::NoMove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scoring::test_support::{game, game_after, START};
    use std::cmp::Ordering;

    fn choose(g: &Chess) -> String {
        let m = Alphabetical.choose(g, &mut GameRng::new(0)).expect("move");
        g.move_text(m)
    }

    #[test]
    fn the_seeds_example_order_holds() {
        assert_eq!(alphabetical_order(b"a3", b"O-O"), Ordering::Less);
        assert_eq!(alphabetical_order(b"O-O", b"Qxg7"), Ordering::Less);
        assert_eq!(alphabetical_order(b"Bxc3", b"bxc3"), Ordering::Less);
        assert_eq!(alphabetical_order(b"b3", b"Bxc3"), Ordering::Less);
    }

    #[test]
    fn both_colours_head_for_a1() {
        assert_eq!(choose(&game(START)), "a3");
        assert_eq!(choose(&game_after(START, "a2a3")), "a5");
        assert_eq!(choose(&game_after(START, "a2a3 a7a5")), "a4");
    }

    #[test]
    fn king_moves_come_before_castling_and_queen_moves() {
        // Case-blind "kd2" < "o-o" < "qa4": a king that may castle short may also step to
        // f1, so `alphabetical` never castles.
        assert_eq!(choose(&game("4k3/8/8/8/8/8/8/3QK2R w K - 0 1")), "Kd2");
    }
}
