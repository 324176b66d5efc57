//! The quick tournament pinned: its stored games (every job's players, result, termination,
//! plies and moves), its standings and every rating method's table, as the README's main
//! command produces them. Written before the use cases moved into their own layer, so any
//! change of behaviour in that move (or later) shows here.
//!
//! Set `UPDATE_GOLDEN=1` to rewrite the golden files after an intended change.

mod common;

use common::{eloworld, golden, stdout_of};
use std::fmt::Write as _;
use std::path::Path;

/// Every stored game, one line each in job order: key, White, Black, round, seed, result,
/// termination, plies, moves.
fn stored_games(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("open store");
    let mut stmt = conn
        .prepare(
            "SELECT j.key, pw.spec, pb.spec, j.round, j.seed, g.result, g.termination, g.plies, g.moves
             FROM games g JOIN jobs j ON j.id = g.job_id
             JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white
             JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black
             ORDER BY j.key",
        )
        .expect("query");
    let mut out = String::new();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, i64>(7)?,
                r.get::<_, Vec<u8>>(8)?,
            ))
        })
        .expect("rows");
    for row in rows {
        let (key, w, b, round, seed, result, term, plies, moves) = row.expect("row");
        // Stored two bytes a move; read as the UCI text the golden file was written with.
        let moves = eloworld_games::MoveRecord::text_of(eloworld_games::GameKind::Chess, &moves)
            .expect("a chess move record");
        writeln!(
            out,
            "{key} {w} {b} {round} {seed} {result} {term} {plies} {moves}"
        )
        .expect("write");
    }
    out
}

/// The command's output without its one timing line.
fn without_timing(out: &str) -> String {
    out.lines()
        .filter(|l| !l.contains(" games/s)"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_quick_tournament_stores_prints_and_rates_as_pinned() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tournaments/quick.toml");
    let file = file.to_str().expect("utf-8 path");
    // One thread: games finish in job order, so the game-order method (US Chess) is pinned too.
    let out = stdout_of(&eloworld(
        dir.path(),
        &[
            "tournament",
            file,
            "--db",
            "one.sqlite",
            "--threads",
            "1",
            "--quiet",
        ],
    ));
    assert!(out.contains("560 of 560 games stored"), "{out}");
    golden("quick_output.txt", &without_timing(&out));
    let games = stored_games(&dir.path().join("one.sqlite"));
    assert_eq!(games.lines().count(), 560);
    golden("quick_games.txt", &games);

    // Two threads: the same games are stored, whatever order they finish in.
    let out2 = stdout_of(&eloworld(
        dir.path(),
        &[
            "tournament",
            file,
            "--db",
            "two.sqlite",
            "--threads",
            "2",
            "--quiet",
        ],
    ));
    assert_eq!(stored_games(&dir.path().join("two.sqlite")), games);
    // The standings are the same; so is every rating that does not read the game order.
    let standings = |o: &str| o.split("\n\n").next().unwrap_or_default().to_owned();
    assert_eq!(standings(&out2), standings(&out));

    // `rate` on the store prints the same table as the tournament's end.
    let rated = stdout_of(&eloworld(dir.path(), &["rate", "--db", "one.sqlite"]));
    golden("quick_rate.txt", &rated);
}
