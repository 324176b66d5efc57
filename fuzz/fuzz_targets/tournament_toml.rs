//! Tournament files (`eloworld tournament FILE.toml`) and the player specs they name: read or
//! refused with a message, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(config) = eloworld_tournament::TournamentConfig::from_toml(text) {
        for player in &config.players {
            let _ = player.parse::<eloworld_players::PlayerSpec>();
        }
    }
    for line in text.lines() {
        let _ = line.parse::<eloworld_players::PlayerSpec>();
    }
});
