//! Tests of `eloworld fates` and of the fate players' table errors, on the real binary.

mod common;

use common::{eloworld, text};

use eloworld_players::fate::{Fate, FateTable, PieceId};

const GAMES: &str = r#"[Event "Fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Unfinished"]
[Result "*"]

1. e4 *

[Event "Short draw"]
[Result "1/2-1/2"]

1. e4 d5 2. exd5 Qxd5 1/2-1/2
"#;

#[test]
fn builds_a_table_and_reports_what_it_skipped() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("g.pgn"), GAMES).expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "fates",
            "--pgn",
            "g.pgn",
            "--out",
            "f.bin",
            "--threads",
            "2",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("read 3 games from 1 file(s)"), "{out}");
    assert!(out.contains("counted 2 games (8 moves)"), "{out}");
    assert!(out.contains("skipped 1 games"), "{out}");
    assert!(out.contains("1  no result (unfinished)"), "{out}");

    let t = FateTable::read(&dir.path().join("f.bin")).expect("table");
    let id = |s: &str| PieceId::starting_on(s.parse().expect("square")).expect("piece");
    let sq = |s: &str| s.parse().expect("square");
    assert_eq!(t.games(), 2);
    // Fool's mate: White's king dies on e1, Black's queen lives on h4.
    assert_eq!(t.count(id("e1"), sq("e1"), Fate::Died), 1);
    assert_eq!(t.count(id("d8"), sq("h4"), Fate::Alive), 1);
    // The draw: the e2 pawn dies on d5, the d7 pawn that it took dies there too, and the
    // queen that took it lives there.
    assert_eq!(t.count(id("e2"), sq("d5"), Fate::Died), 1);
    assert_eq!(t.count(id("d7"), sq("d5"), Fate::Died), 1);
    assert_eq!(t.count(id("d8"), sq("d5"), Fate::Alive), 1);
    assert_eq!(t.count(id("e1"), sq("e1"), Fate::Alive), 1);
}

#[test]
fn a_missing_pgn_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &["fates", "--pgn", "nope.pgn", "--out", "f.bin"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).1.contains("nope.pgn:0: cannot open"),
        "{:?}",
        text(&o)
    );
    assert!(!dir.path().join("f.bin").exists());
}

#[test]
fn a_tournament_with_a_corrupt_or_missing_fates_file_refuses_to_start() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut bytes = FateTable::embedded().to_bytes();
    bytes[4242] ^= 1;
    std::fs::write(dir.path().join("corrupt.bin"), bytes).expect("write");
    for (spec, says) in [
        ("safe:fates=corrupt.bin", "checksum"),
        ("fatalist:fates=missing.bin", "missing.bin"),
    ] {
        let players = format!("random_move,{spec}");
        let o = eloworld(
            dir.path(),
            &[
                "tournament",
                "--name",
                "t",
                "--players",
                &players,
                "--games-per-pair",
                "2",
                "--db",
                "t.sqlite",
            ],
        );
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}{err}");
        assert!(err.contains(spec) && err.contains(says), "{err}");
        assert!(!out.contains("games stored"), "{out}");
    }
    // The good file plays.
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "survivalist",
            "--black",
            "fatalist:fates=embedded",
            "--seed",
            "1",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
}
