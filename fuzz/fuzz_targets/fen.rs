//! FEN/EPD position text (`--fen`, openings, suites): never panics, and a position read back
//! from the FEN it writes is the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::fen::Fen;
use shakmaty::EnPassantMode;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(position) = eloworld_games::chess::parse_fen(text) {
        let written = Fen::from_position(&position, EnPassantMode::Legal).to_string();
        let again = eloworld_games::chess::parse_fen(&written)
            .unwrap_or_else(|e| panic!("{written:?} written from {text:?} is refused: {e}"));
        let rewritten = Fen::from_position(&again, EnPassantMode::Legal).to_string();
        assert_eq!(written, rewritten, "read from {text:?}");
    }
});
