//! PGN game lists (`eloworld rate --pgn`, headers only, read in blocks): read or refused with
//! an error naming the line, never a panic. The reader is the command's own module, compiled in
//! here; it reads files, so each input is written to a file first.
#![no_main]

#[allow(dead_code)] // reason: the command's module also holds readers other targets use
#[path = "../../crates/cli/src/rating_input.rs"]
mod rating_input;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("eloworld-fuzz-{}.pgn", std::process::id()));
    std::fs::write(&path, data).expect("write the input to a temporary file");
    let _ = rating_input::read_pgn(&path, false);
    let _ = std::fs::remove_file(&path);
});
