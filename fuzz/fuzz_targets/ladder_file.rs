//! Ladder files (`eloworld place --ladder FILE`, `ladder show`): read or refused with a
//! message naming line and column, never a panic; a ladder read writes a file that reads back
//! (ratings are written to 0.1, so the second writing equals the first).
#![no_main]

use eloworld_ladder::ladder::Ladder;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(ladder) = Ladder::from_toml(text) else {
        return;
    };
    let _ = ladder.game_list();
    let _ = ladder.counts();
    let _ = ladder.game_count();
    let _ = ladder.round_robin_row_games();
    let written = ladder.to_toml();
    let again = Ladder::from_toml(&written).unwrap_or_else(|e| {
        panic!("a ladder that was read does not read back after writing: {e}\n{written}")
    });
    assert_eq!(again.to_toml(), written, "the ladder changed on a round trip");
});
