//! Opening files (`openings = "…"` in a tournament): PGN games, EPD/FEN lines and squava
//! position lines are read or refused with an error naming the line, never a panic.
#![no_main]

use eloworld_games::GameKind;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let (name, game) = match selector % 3 {
        0 => ("fuzz.pgn", GameKind::Chess),
        1 => ("fuzz.epd", GameKind::Chess),
        _ => ("fuzz.txt", GameKind::Squava),
    };
    let _ = eloworld_tournament::openings::parse_openings(Path::new(name), bytes, game);
});
