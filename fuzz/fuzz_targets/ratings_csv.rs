//! CSV game lists (`eloworld rate --csv`): read or refused with an error naming the line,
//! never a panic. The reader is the command's own module, compiled in here.
#![no_main]

#[allow(dead_code)] // reason: the command's module also holds readers other targets use
#[path = "../../crates/cli/src/rating_input.rs"]
mod rating_input;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = rating_input::parse_csv(text, false);
});
