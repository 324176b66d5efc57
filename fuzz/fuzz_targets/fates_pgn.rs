//! PGN games read by `eloworld fates --pgn` (pgn-reader's visitor replaying every move):
//! games that cannot be counted are skipped and reported, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let sources = vec![eloworld_games::chess::input::PgnReader::new("fuzz.pgn", data)];
    if let Ok((table, report)) = eloworld_players::fate::count_fates(sources, 1) {
        assert!(table.games() <= report.games_read, "counted more games than were read");
    }
});
