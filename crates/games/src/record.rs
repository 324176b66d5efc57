//! A game's moves as the store keeps them: two bytes a move, little-endian.
//!
//! A move's word is position-independent, like its code ([`Game::move_code`]): chess keeps
//! shakmaty's packed UCI move (from, to, promotion), squava the cell's index, Go the
//! column and row. The text (`e2e4 e7e5`, `c3 b2`, `D4 pass`) is written only when a game
//! is read; the runner's worker never writes it, and the store writes a third of the bytes.

use crate::{Game, GameError, GameKind};
use shakmaty::packed::PackedUciMove;
use shakmaty::uci::UciMove;

/// Go's word for a pass (a placement's word is below 1024).
const GO_PASS: u16 = 0xfffe;
/// Go's word for a resignation.
const GO_RESIGN: u16 = 0xffff;
/// Go's columns, as GTP names them (no `I`).
const GO_COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

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
        let mut record = MoveRecord::with_capacity(G::KIND, moves.len());
        for &mv in moves {
            record.push_word(game.move_word(mv));
        }
        record
    }

    /// Appends a move's word.
    pub fn push_word(&mut self, word: u16) {
        self.bytes.extend_from_slice(&word.to_le_bytes());
    }

    /// Reads moves in their code form (`e2e4 e7e5`), space-separated.
    ///
    /// # Errors
    /// [`GameError::BadMove`] naming the first move that is not a code of `kind`.
    pub fn from_text(kind: GameKind, text: &str) -> Result<MoveRecord, GameError> {
        let mut record = MoveRecord::with_capacity(kind, text.len() / 4);
        for code in text.split_whitespace() {
            record.push_word(word_of_code(kind, code)?);
        }
        Ok(record)
    }

    /// Takes the stored bytes back.
    ///
    /// # Errors
    /// [`GameError::BadMove`] when the length is odd or a word is no move of `kind`.
    pub fn from_bytes(kind: GameKind, bytes: &[u8]) -> Result<MoveRecord, GameError> {
        if !bytes.len().is_multiple_of(2) {
            return Err(GameError::BadMove {
                text: format!("{} bytes", bytes.len()),
                reason: "a stored move record has two bytes a move".to_owned(),
            });
        }
        let record = MoveRecord {
            kind,
            bytes: bytes.to_vec(),
        };
        let mut scratch = String::new();
        for word in record.words() {
            scratch.clear();
            write_word(kind, word, &mut scratch)?;
        }
        Ok(record)
    }

    /// The game the moves are of.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The stored bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// How many moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Whether no move was played.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The words, in the order played.
    pub fn words(&self) -> impl Iterator<Item = u16> + '_ {
        self.bytes
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
    }

    /// The moves' codes, space-separated: what [`Game::move_code`] writes.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.bytes.len() * 3);
        for (i, word) in self.words().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            // Every word was checked when the record was made.
            let _ = write_word(self.kind, word, &mut out);
        }
        out
    }
}

/// The word of chess's UCI move (shakmaty's packed form).
#[must_use]
pub fn chess_word(uci: UciMove) -> u16 {
    u16::from_le_bytes(PackedUciMove::pack(uci).to_bytes())
}

/// The word of squava's cell `index` (0 = a1, 24 = e5).
#[must_use]
pub fn squava_word(index: u8) -> u16 {
    u16::from(index)
}

/// The word of a Go placement at `column`, `row` (0-based, row 0 at the bottom).
#[must_use]
pub fn go_place_word(column: usize, row: usize) -> u16 {
    ((row as u16) << 5) | column as u16
}

/// The word of a Go pass.
#[must_use]
pub fn go_pass_word() -> u16 {
    GO_PASS
}

/// The word of a Go resignation.
#[must_use]
pub fn go_resign_word() -> u16 {
    GO_RESIGN
}

fn bad_word(kind: GameKind, word: u16) -> GameError {
    GameError::BadMove {
        text: format!("{word:#06x}"),
        reason: format!("no {kind} move is stored as this word"),
    }
}

/// Appends the code of `word` to `out`.
fn write_word(kind: GameKind, word: u16, out: &mut String) -> Result<(), GameError> {
    match kind {
        GameKind::Chess => {
            PackedUciMove::from_bytes(word.to_le_bytes())
                .unpack()
                .append_to_string(out);
        }
        GameKind::Squava => {
            let index = u8::try_from(word)
                .ok()
                .filter(|&i| i < 25)
                .ok_or_else(|| bad_word(kind, word))?;
            out.push(char::from(b'a' + index % 5));
            out.push(char::from(b'1' + index / 5));
        }
        GameKind::Go => match word {
            GO_PASS => out.push_str("pass"),
            GO_RESIGN => out.push_str("resign"),
            _ => {
                let (column, row) = (usize::from(word & 31), usize::from(word >> 5));
                if column >= GO_COLUMNS.len() || row >= GO_COLUMNS.len() {
                    return Err(bad_word(kind, word));
                }
                out.push(char::from(GO_COLUMNS[column]));
                let number = row + 1;
                if number >= 10 {
                    out.push(char::from(b'0' + (number / 10) as u8));
                }
                out.push(char::from(b'0' + (number % 10) as u8));
            }
        },
    }
    Ok(())
}

/// The word of a move's code.
fn word_of_code(kind: GameKind, code: &str) -> Result<u16, GameError> {
    let bad = |reason: &str| GameError::BadMove {
        text: code.to_owned(),
        reason: reason.to_owned(),
    };
    match kind {
        GameKind::Chess => code
            .parse::<UciMove>()
            .map(chess_word)
            .map_err(|_| bad("expected a UCI move such as e2e4 or e7e8q")),
        GameKind::Squava => match code.as_bytes() {
            &[file @ b'a'..=b'e', rank @ b'1'..=b'5'] => {
                Ok(squava_word((rank - b'1') * 5 + (file - b'a')))
            }
            _ => Err(bad("expected a square a1..e5")),
        },
        GameKind::Go => {
            if code.eq_ignore_ascii_case("pass") {
                return Ok(GO_PASS);
            }
            if code.eq_ignore_ascii_case("resign") {
                return Ok(GO_RESIGN);
            }
            let vertex = || -> Option<u16> {
                let (&letter, digits) = code.as_bytes().split_first()?;
                let column = GO_COLUMNS
                    .iter()
                    .position(|&c| c == letter.to_ascii_uppercase())?;
                if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                let row: usize = std::str::from_utf8(digits).ok()?.parse().ok()?;
                (1..=GO_COLUMNS.len())
                    .contains(&row)
                    .then(|| go_place_word(column, row - 1))
            };
            vertex().ok_or_else(|| bad("expected a vertex such as D4, pass or resign"))
        }
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
            let mut one = String::new();
            write_word(G::KIND, game.move_word(mv), &mut one).expect("a word of a legal move");
            assert_eq!(one, game.move_code(mv), "seed {seed}, ply {}", moves.len());
            moves.push(mv);
            game.play(mv);
        }
        let record = MoveRecord::of(&game, &moves);
        assert_eq!(record.len(), moves.len());
        assert_eq!(record.text(), codes.join(" "), "seed {seed}");
        let back = MoveRecord::from_text(G::KIND, &record.text()).expect("its own text");
        assert_eq!(back, record, "seed {seed}");
        let stored = MoveRecord::from_bytes(G::KIND, record.as_bytes()).expect("its own bytes");
        assert_eq!(stored, record);
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
        let mut text = String::new();
        write_word(GameKind::Chess, fischer.move_word(castle), &mut text).unwrap();
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
        assert_eq!(record.words().count(), 3);
    }

    #[test]
    fn bad_records_and_codes_are_named() {
        let odd = MoveRecord::from_bytes(GameKind::Chess, &[1, 2, 3]).unwrap_err();
        assert!(odd.to_string().contains("3 bytes"), "{odd}");
        let cell = MoveRecord::from_bytes(GameKind::Squava, &[25, 0]).unwrap_err();
        assert!(cell.to_string().contains("0x0019"), "{cell}");
        let vertex = MoveRecord::from_bytes(GameKind::Go, &25u16.to_le_bytes()).unwrap_err();
        assert!(vertex.to_string().contains("no go move"), "{vertex}");
        let text = MoveRecord::from_text(GameKind::Squava, "a1 f9").unwrap_err();
        assert!(text.to_string().contains("\"f9\""), "{text}");
        assert!(MoveRecord::from_text(GameKind::Chess, "e2e4 castle").is_err());
        assert!(MoveRecord::from_text(GameKind::Go, "I5").is_err());
        assert!(MoveRecord::from_text(GameKind::Go, "A26").is_err());
    }
}
