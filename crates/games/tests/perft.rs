//! Move generation through the `Game` trait against the perft counts of
//! `data/epd/perft.epd` (lines `FEN; D1 n; D2 n; …`).
//!
//! The normal run checks every depth whose count is at most `FAST_LIMIT` nodes; the
//! `#[ignore]`d test checks them all (`cargo test -p eloworld-games -- --ignored`).

use eloworld_games::{Chess, DrawRules, Game};

const FAST_LIMIT: u64 = 100_000;

fn perft(game: &Chess, depth: u32) -> u64 {
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for &m in moves {
        let mut next = game.clone();
        next.play(m);
        n += perft(&next, depth - 1);
    }
    n
}

fn cases() -> Vec<(usize, String, u32, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/epd/perft.epd");
    let text = std::fs::read_to_string(path).expect("data/epd/perft.epd");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut parts = line.split(';');
        let Some(fen) = parts.next().map(str::trim).filter(|f| !f.is_empty()) else {
            continue;
        };
        for p in parts {
            // The file ends its lines with NUL bytes.
            let p = p.trim_matches(|c: char| c.is_whitespace() || c == '\0');
            if let Some(rest) = p.strip_prefix('D') {
                let (d, n) = rest.split_once(' ').expect("Dn count");
                out.push((
                    i + 1,
                    fen.to_owned(),
                    d.parse().expect("depth"),
                    n.parse().expect("count"),
                ));
            }
        }
    }
    out
}

fn check(limit: u64) -> usize {
    let mut checked = 0;
    for (line, fen, depth, expected) in cases() {
        if expected > limit {
            continue;
        }
        let game = Chess::from_position(&fen, DrawRules::Automatic)
            .unwrap_or_else(|e| panic!("line {line}: {e}"));
        assert_eq!(
            perft(&game, depth),
            expected,
            "perft.epd line {line}: {fen} depth {depth}"
        );
        checked += 1;
    }
    checked
}

#[test]
fn perft_fast_subset_matches_the_suite() {
    let checked = check(FAST_LIMIT);
    assert!(checked > 300, "only {checked} perft cases checked");
}

#[test]
#[ignore = "minutes: every depth of the suite"]
fn perft_full_suite_matches() {
    check(u64::MAX);
}
