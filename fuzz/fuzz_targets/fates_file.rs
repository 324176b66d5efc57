//! Fate table files (`fates=FILE` players, written by `eloworld fates`): a corrupt file is
//! refused, never a panic, and a table that is read writes back the same bytes.
#![no_main]

use eloworld_players::fate::FateTable;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(table) = FateTable::from_bytes(data) {
        let written = table.to_bytes();
        let again = FateTable::from_bytes(&written).expect("a written table reads back");
        assert_eq!(again.to_bytes(), written);
    }
});
