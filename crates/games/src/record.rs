//! A game's moves as the store keeps them: two bytes a move, little-endian.
//!
//! A move's word ([`Game::move_word`]) is position-independent, like its code
//! ([`Game::move_code`]): chess keeps shakmaty's packed UCI move (from, to, promotion),
//! squava the cell's index, Go the column and row. Each game reads its words back as codes;
//! the text (`e2e4 e7e5`, `c3 b2`, `D4 pass`) is written only when a game is read, so the
//! runner's worker never writes it and the store writes a third of the bytes.

use crate::{chess, go, squava, Game, GameError, GameKind};

/// A move's word as stored: two bytes, little-endian.
#[inline]
fn word_bytes(word: u16) -> [u8; 2] {
    word.to_le_bytes()
}

/// The moves of one game of `kind`, two bytes each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    kind: GameKind,
    bytes: Vec<u8>,
}

impl MoveRecord {
    /// An empty record with room for `plies` moves.
    #[must_use]
    pub fn with_capacity(kind: GameKind, plies: usize) -> MoveRecord {
        MoveRecord {
            kind,
            bytes: Vec::with_capacity(plies * 2),
        }
    }

    /// The record of `moves` played in `game` (any position of it: words, like codes, do
    /// not depend on the position).
    #[must_use]
    pub fn of<G: Game>(game: &G, moves: &[G::Move]) -> MoveRecord {
        // Sized once and filled pair by pair: pushing word by word checked the capacity at
        // every move, 1,700 of the 13,000 instructions a random chess game's record took.
        let mut bytes = vec![0; moves.len() * 2];
        for (pair, &mv) in bytes.chunks_exact_mut(2).zip(moves) {
            pair.copy_from_slice(&word_bytes(game.move_word(mv)));
        }
        MoveRecord {
            kind: G::KIND,
            bytes,
        }
    }

    fn push_word(&mut self, word: u16) {
        self.bytes.extend_from_slice(&word_bytes(word));
    }

    /// Reads moves in their code form (`e2e4 e7e5`), space-separated.
    ///
    /// # Errors
    /// [`GameError::BadMove`] naming the first move that is not a code of `kind`.
    pub fn from_text(kind: GameKind, text: &str) -> Result<MoveRecord, GameError> {
        let mut record = MoveRecord::with_capacity(kind, text.len() / 4);
        for code in text.split_whitespace() {
            let word = match kind {
                GameKind::Chess => chess::word_of_code(code),
                GameKind::Squava => squava::parse_square(code).map(u16::from),
                GameKind::Go => go::word_of_code(code),
            };
            record.push_word(word.ok_or_else(|| GameError::BadMove {
                text: code.to_owned(),
                reason: format!("not a {kind} move's code"),
            })?);
        }
        Ok(record)
    }

    /// The stored bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The moves' codes, space-separated: what [`Game::move_code`] writes.
    #[must_use]
    pub fn text(&self) -> String {
        // Every word was made from a move or a code, so every word reads.
        MoveRecord::text_of(self.kind, &self.bytes).unwrap_or_default()
    }

    /// Reads stored bytes as the moves' codes, space-separated.
    ///
    /// # Errors
    /// [`GameError::BadMove`] when the length is odd or a word is no move of `kind`.
    pub fn text_of(kind: GameKind, bytes: &[u8]) -> Result<String, GameError> {
        if !bytes.len().is_multiple_of(2) {
            return Err(GameError::BadMove {
                text: format!("{} bytes", bytes.len()),
                reason: "a stored move record has two bytes a move".to_owned(),
            });
        }
        let mut out = String::with_capacity(bytes.len() * 3);
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let word = u16::from_le_bytes([pair[0], pair[1]]);
            let read = match kind {
                GameKind::Chess => {
                    chess::write_word(word, &mut out);
                    Some(())
                }
                GameKind::Squava => squava::write_word(word, &mut out),
                GameKind::Go => go::write_word(word, &mut out),
            };
            read.ok_or_else(|| GameError::BadMove {
                text: format!("{word:#06x}"),
                reason: format!("no {kind} move is stored as this word"),
            })?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Chess, DrawRules, GameRng, Go, GoRules, Side, Squava};

    /// Plays a random game and checks every move's word against its code, then the
    /// record's text against the codes joined.
    fn every_word_reads_as_its_code<G: Game>(mut game: G, seed: u64) -> usize {
        let mut rng = GameRng::for_side(seed, Side::First);
        let (mut moves, mut codes) = (Vec::new(), Vec::new());
        while game.outcome().is_none() && moves.len() < 600 {
            let legal = game.legal_moves();
            let mv = legal[rng.below(legal.len())];
            codes.push(game.move_code(mv));
            let one = MoveRecord::text_of(G::KIND, &game.move_word(mv).to_le_bytes())
                .expect("a word of a legal move");
            assert_eq!(one, game.move_code(mv), "seed {seed}, ply {}", moves.len());
            moves.push(mv);
            game.play(mv);
        }
        let record = MoveRecord::of(&game, &moves);
        assert_eq!(record.as_bytes().len(), 2 * moves.len());
        assert_eq!(record.text(), codes.join(" "), "seed {seed}");
        let back = MoveRecord::from_text(G::KIND, &record.text()).expect("its own text");
        assert_eq!(back, record, "seed {seed}");
        let stored = MoveRecord::text_of(G::KIND, record.as_bytes()).expect("its own bytes");
        assert_eq!(stored, codes.join(" "), "seed {seed}");
        moves.len()
    }

    #[test]
    fn chess_words_read_as_uci_through_promotions_and_castling() {
        let mut plies = 0;
        for seed in 0..60 {
            plies += every_word_reads_as_its_code(Chess::new(DrawRules::Automatic), seed);
        }
        assert!(plies > 10_000, "{plies} plies");
        // A promotion, both castlings and a Chess960 castling (king takes rook).
        let record = MoveRecord::from_text(GameKind::Chess, "e7e8q a2a1n e1g1 e8c8").unwrap();
        assert_eq!(record.text(), "e7e8q a2a1n e1g1 e8c8");
        let fischer =
            Chess::from_position("4k3/8/8/8/8/8/8/RK6 w A - 0 1", DrawRules::Automatic).unwrap();
        let castle = fischer.parse_move("b1a1").unwrap();
        let text =
            MoveRecord::text_of(GameKind::Chess, &fischer.move_word(castle).to_le_bytes()).unwrap();
        assert_eq!(text, fischer.move_code(castle));
        assert_eq!(text, "b1a1");
    }

    #[test]
    fn squava_and_go_words_read_as_cells_and_vertices() {
        for seed in 0..40 {
            every_word_reads_as_its_code(Squava::new(()), seed);
        }
        for seed in 0..6 {
            let go = Go::new(GoRules::default());
            every_word_reads_as_its_code(go, seed);
        }
        let big = GoRules {
            size: 19,
            ..GoRules::default()
        };
        every_word_reads_as_its_code(Go::new(big), 7);
        let record = MoveRecord::from_text(GameKind::Go, "T19 A1 pass J10 resign").unwrap();
        assert_eq!(record.text(), "T19 A1 pass J10 resign");
        assert_eq!(
            MoveRecord::from_text(GameKind::Squava, "a1 e5 c3")
                .unwrap()
                .text(),
            "a1 e5 c3"
        );
    }

    #[test]
    fn a_record_is_two_bytes_a_move() {
        let record = MoveRecord::from_text(GameKind::Chess, "e2e4 e7e5 g1f3").unwrap();
        assert_eq!(record.as_bytes().len(), 6);
        assert_eq!(record.text().split(' ').count(), 3);
    }

    #[test]
    fn bad_records_and_codes_are_named() {
        let odd = MoveRecord::text_of(GameKind::Chess, &[1, 2, 3]).unwrap_err();
        assert!(odd.to_string().contains("3 bytes"), "{odd}");
        let cell = MoveRecord::text_of(GameKind::Squava, &[25, 0]).unwrap_err();
        assert!(cell.to_string().contains("0x0019"), "{cell}");
        let vertex = MoveRecord::text_of(GameKind::Go, &25u16.to_le_bytes()).unwrap_err();
        assert!(vertex.to_string().contains("no go move"), "{vertex}");
        let text = MoveRecord::from_text(GameKind::Squava, "a1 f9").unwrap_err();
        assert!(text.to_string().contains("\"f9\""), "{text}");
        assert!(MoveRecord::from_text(GameKind::Chess, "e2e4 castle").is_err());
        assert!(MoveRecord::from_text(GameKind::Go, "I5").is_err());
        assert!(MoveRecord::from_text(GameKind::Go, "A26").is_err());
    }
}
