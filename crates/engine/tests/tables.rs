//! `eloworld-engine positions` and `fit-tables`: the steps of fitting the piece-square tables
//! that run without another engine.

use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eloworld-engine-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file");
    path
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_eloworld-engine"))
        .args(args)
        .output()
        .expect("engine runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A game whose 6th ply leaves a pawn to be taken for nothing (3...Nd4, then 4.Nxe5), whose
/// 8th leaves f7 to a bishop the king cannot take back while the knight guards it (4...Qg5,
/// then 5.Bxf7+), and whose 9th gives check: none of those is quiet; the others are.
const GAME: &str =
    "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Bxf7+ *\n";

#[test]
fn positions_lists_the_quiet_ones_at_the_plies_asked() {
    let pgn = scratch("game.pgn", GAME);
    let pgn = pgn.to_str().expect("utf-8 path");
    let (ok, out, err) = run(&["positions", "--every", "1", "--from-ply", "1", pgn]);
    assert!(ok, "{err}");
    let boards: Vec<&str> = out
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(
        boards,
        [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R",
            "r1bqkbnr/pppp1ppp/8/4N3/2BnP3/8/PPPP1PPP/RNBQK2R",
        ],
        "plies 1-5 and 7"
    );
    assert!(err.contains("6 quiet positions from 1 games"), "{err}");
    let (ok, out, _) = run(&["positions", "--every", "2", "--from-ply", "3", pgn]);
    assert!(ok);
    assert_eq!(
        out.lines().count(),
        3,
        "plies 3, 5 and 7 (9 gives check): {out}"
    );
}

#[test]
fn fit_tables_names_the_line_it_cannot_read() {
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;30\n";
    let labelled = scratch("bad.txt", &format!("{good}not a position\n"));
    let (ok, out, err) = run(&["fit-tables", labelled.to_str().expect("utf-8 path")]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("bad.txt:2: expected FEN;CP"), "{err}");
    let (ok, _, err) = run(&["positions", "--every"]);
    assert!(!ok && err.contains("--every needs a number"), "{err}");
    let (ok, _, err) = run(&["fit-tables", "--epochs", "3", "--depth", "2", "x"]);
    assert!(!ok && err.contains("unknown option --depth"), "{err}");
}

#[test]
fn fit_tables_prints_tables_that_the_engine_reads() {
    let lines = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;30",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2;25",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2;35",
    ];
    let labelled = scratch("good.txt", &(lines.join("\n") + "\n"));
    let (ok, out, err) = run(&[
        "fit-tables",
        "--epochs",
        "20",
        labelled.to_str().expect("utf-8 path"),
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("3 positions fitted, 0 held out; scale"),
        "{err}"
    );
    assert!(
        eloworld_engine::pst::FittedTerms::parse(&out).is_ok(),
        "{out}"
    );
}
