//! CSV game lists (`eloworld rate --csv`): read or refused with an error naming the line,
//! never a panic.
#![no_main]

use eloworld_ratings_io::parse_csv;
use eloworld_ratings::NameCase;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_csv(data, NameCase::Fold);
    let _ = parse_csv(data, NameCase::Exact);
});
