//! EPD test suites (`eloworld suite --epd`): bad lines are skipped and reported, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let suite = eloworld_engine::suite::parse_epd(&text, "fuzz.epd");
    assert!(suite.positions.len() + suite.skipped.len() <= text.lines().count());
});
