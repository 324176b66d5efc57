//! `eloworld evolve`: the phases run end to end on tiny settings, write their files, and resume
//! from the checkpoint with the same result; the coevolution's games go through the
//! tournament runner into a store, never repeat an opening within a pair, and resume after
//! `kill -9` from what is stored.

mod common;

use common::{count, ok_with_notes};

use std::path::Path;

const GAME: &str = r#"[White "A"]
[Black "B"]
[WhiteElo "2700"]
[BlackElo "2650"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6 1-0

"#;

#[test]
fn imitate_writes_its_files_and_a_second_call_resumes_from_the_checkpoint() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("pgn");
    std::fs::create_dir(&pgn).expect("mkdir");
    std::fs::write(pgn.join("g.pgn"), GAME.repeat(4)).expect("write pgn");
    let args = [
        "evolve",
        "imitate",
        "--pgn-dir",
        "pgn",
        "--per-game",
        "10",
        "--population",
        "8",
        "--generations",
        "4",
        "--threads",
        "1",
        "--out",
        "out",
    ];
    let first = ok_with_notes(dir.path(), &args);
    assert!(
        first.contains("20 training (from 2 games), 20 test (from 2 other games)"),
        "{first}"
    );
    assert!(first.contains("run 1 generation   3/3"), "{first}");
    let params =
        std::fs::read_to_string(dir.path().join("out/imitate-run1.params")).expect("params file");
    assert!(params.contains("KNIGHT_VALUE = "), "{params}");
    let csv = std::fs::read_to_string(dir.path().join("out/imitate-run1.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 5, "a header and 4 generations:\n{csv}");
    assert!(dir.path().join("out/imitate-run1.png").exists());

    let again = ok_with_notes(dir.path(), &args);
    assert!(again.contains("from the checkpoint"), "{again}");
    assert!(!again.contains("generations computed"), "{again}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/imitate-run1.params")).expect("params"),
        params
    );

    // Run K has seed K: `--seed 2` writes run 2 beside run 1 (as runs 8 to 10 were added to
    // the shipped seven), never over it.
    let mut second_run = args.to_vec();
    second_run.extend(["--seed", "2"]);
    let run2 = ok_with_notes(dir.path(), &second_run);
    assert!(run2.contains("run 2 generation   3/3"), "{run2}");
    let params2 =
        std::fs::read_to_string(dir.path().join("out/imitate-run2.params")).expect("run 2");
    assert!(params2.contains("run 2 (imitate-s2)"), "{params2}");
    assert!(params2.contains("seed=2"), "{params2}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/imitate-run1.params")).expect("run 1"),
        params,
        "run 1 is left as it was"
    );
    // The phase-1 organisms play in phase 2 and 4 and their files are engine parameter files.
    std::fs::write(
        dir.path().join("book.epd"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
    )
    .expect("book");
    let co = ok_with_notes(
        dir.path(),
        &[
            "evolve",
            "coevolve",
            "--out",
            "out",
            "--book",
            "book.epd",
            "--generations",
            "2",
            "--nodes",
            "100",
            "--games-per-pair",
            "2",
        ],
    );
    assert!(co.contains("generation  1/1: standings"), "{co}");
    assert!(dir.path().join("out/coevolve.params").exists());

    // Phase 3 on two suite positions, then the report: EVOL* against the other organisms
    // and against a reference player through the tournament's game loop.
    let ecm = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/epd/ECM.epd");
    let search = ok_with_notes(
        dir.path(),
        &[
            "evolve",
            "search",
            "--out",
            "out",
            "--epd",
            ecm,
            "--positions",
            "2",
            "--cap",
            "2000",
        ]
        .into_iter()
        .chain(["--population", "2", "--generations", "1"])
        .collect::<Vec<_>>(),
    );
    assert!(dir.path().join("out/search.params").exists(), "{search}");
    let report = ok_with_notes(
        dir.path(),
        &[
            "evolve",
            "report",
            "--out",
            "out",
            "--book",
            "book.epd",
            "--epd",
            ecm,
            "--positions",
            "2",
            "--cap",
            "1000",
            "--games",
            "2",
            "--nodes",
            "200",
            "--reference",
            "random_move,nosuchplayer",
            "--reference-games",
            "2",
        ],
    );
    assert!(report.contains("EVOL* - EVOL0"), "{report}");
    let line = report
        .lines()
        .find(|l| l.starts_with("EVOL* - random_move"))
        .expect("reference match line");
    assert!(line.contains('%'), "{line}");
    assert!(
        report.contains("EVOL* - nosuchplayer") && report.contains("skipped: unknown chess player"),
        "{report}"
    );
}

const BOOK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/books/2moves_v1.first2000.epd"
);

/// Three starting organisms: Fig. 3's evaluation and two variations of it.
fn organisms(dir: &Path) -> Vec<String> {
    let bodies = ["", "KNIGHT_VALUE = 0\n", "QUEEN_VALUE = 500\n"];
    bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            let name = format!("o{i}.params");
            std::fs::write(dir.join(&name), body).expect("write organism");
            name
        })
        .collect()
}

fn coevolve_args<'a>(organisms: &'a [String], out: &'a str) -> Vec<&'a str> {
    let mut args = vec!["evolve", "coevolve", "--out", out, "--book", BOOK, "--from"];
    args.extend(organisms.iter().map(String::as_str));
    args.extend([
        "--generations",
        "3",
        "--nodes",
        "400",
        "--games-per-pair",
        "4",
        "--threads",
        "1",
    ]);
    args
}

#[test]
fn coevolution_killed_with_sigkill_resumes_from_its_games_store() {
    let dir = tempfile::tempdir().expect("temp dir");
    let names = organisms(dir.path());
    // An uninterrupted run for reference.
    let whole = ok_with_notes(dir.path(), &coevolve_args(&names, "whole"));
    assert!(whole.contains("generation  2/2: standings"), "{whole}");
    let reference = std::fs::read_to_string(dir.path().join("whole/coevolve.csv")).expect("csv");

    // The same run, killed once games are stored, then run again.
    let args = coevolve_args(&names, "killed");
    let mut child = common::command()
        .args(&args)
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let db = dir.path().join("killed/games.sqlite");
    let stored = || {
        rusqlite::Connection::open(&db)
            .and_then(|c| c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0)
    };
    common::wait_until("games stored", std::time::Duration::from_secs(120), || {
        stored() >= 3 || child.try_wait().ok().flatten().is_some()
    });
    common::signal(&child, "-KILL");
    let _ = child.wait();
    let before = stored();
    let planned = 3 * 3 * 4; // generations × pairs × games per pair
    assert!(
        before > 0 && before < planned,
        "stored {before} of {planned} before the kill"
    );
    ok_with_notes(dir.path(), &args);
    let resumed = std::fs::read_to_string(dir.path().join("killed/coevolve.csv")).expect("csv");
    assert_eq!(
        resumed, reference,
        "a resumed run scores as an uninterrupted one"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM games"), planned);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT job_id) FROM games"),
        planned
    );
    // No pair of organisms plays an opening twice in a generation.
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM (SELECT j.tournament_id, min(j.white, j.black) a, max(j.white, j.black) b, j.opening \
             FROM jobs j GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)"
        ),
        0
    );
}
