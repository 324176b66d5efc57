//! PGN game lists (`eloworld rate --pgn`, headers only): read or refused with an error naming
//! the line, never a panic.
#![no_main]

use eloworld_ratings_io::read_pgn;
use eloworld_ratings::NameCase;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = read_pgn(data, NameCase::Fold);
});
