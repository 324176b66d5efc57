//! What engines print (UCI `info …`/`bestmove …`, CECP `move …`/`My move is …`): any line is
//! folded into the search report or its move text refused as illegal, never a panic.
#![no_main]

use eloworld_games::{Chess, Game, Squava};
use eloworld_players::engine::SearchInfo;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut info = SearchInfo::default();
    let chess = Chess::new(eloworld_games::DrawRules::default());
    let squava = Squava::new(());
    for line in text.lines() {
        if line.starts_with("info") {
            info.absorb(line);
        }
        let t = line.trim();
        let mv = if let Some(rest) = t.strip_prefix("bestmove") {
            rest.split_ascii_whitespace().next().unwrap_or("")
        } else if let Some(rest) = t.strip_prefix("move ") {
            rest.trim()
        } else if let Some(rest) = t.strip_prefix("My move is") {
            rest.trim_start_matches([' ', ':']).trim()
        } else {
            t
        };
        if let Ok(m) = chess.parse_move(mv) {
            assert!(chess.is_legal(m), "{mv:?} read as an illegal move");
        }
        let _ = squava.parse_move(mv);
    }
    let _ = info.pv_head();
});
