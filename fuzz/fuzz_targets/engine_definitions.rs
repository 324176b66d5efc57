//! Engine definition files (`--engines FILE.toml`): read or refused with a message naming the
//! file, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(defs) = eloworld_players::engine::parse_definitions(text, "fuzz.toml", None) {
        for def in &defs {
            let _ = def.effective_budget();
            let _ = def.process_key();
        }
    }
});
