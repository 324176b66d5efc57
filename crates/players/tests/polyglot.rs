//! The Polyglot reader against an independent one: python-chess's `chess.polyglot` listed the
//! moves and weights of every position in `data/books/performance.first12plies.bin` (a subset
//! of the `performance.bin` book; `scripts/polyglot-fixture.py` made both), and ours must
//! list the same, in the same order.

use eloworld_players_core::engine::polyglot::PolyglotBook;
use shakmaty::uci::UciMove;
use shakmaty::CastlingMode;
use std::path::Path;

#[test]
fn moves_and_weights_match_python_chess() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let book = PolyglotBook::open(&root.join("../../data/books/performance.first12plies.bin"))
        .expect("book");
    assert_eq!(book.len(), 1511);
    let fixture = std::fs::read_to_string(root.join("tests/fixtures/polyglot_performance.txt"))
        .expect("fixture");
    let mut checked = 0;
    let mut castles = 0;
    for line in fixture.lines().filter(|l| !l.starts_with('#')) {
        let (fen, expected) = line.split_once(" | ").expect("FEN | moves");
        let pos = eloworld_games::chess::parse_fen(fen).expect("fixture FEN");
        let ours: Vec<String> = book
            .moves(&pos)
            .iter()
            .map(|e| {
                castles += usize::from(e.mv.is_castle());
                format!(
                    "{}:{}",
                    UciMove::from_move(e.mv, CastlingMode::Standard),
                    e.weight
                )
            })
            .collect();
        assert_eq!(ours.join(" "), expected, "{fen}");
        checked += 1;
    }
    assert_eq!(checked, 936);
    assert!(castles > 0, "castling entries are read");
}
