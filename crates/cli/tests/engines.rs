//! Tests of engine players in real tournaments run by the `eloworld` binary: faulty engines
//! (the scripts in `crates/players/tests/fixtures/`) cost their games only, each stored with
//! the right termination, and no engine process is left behind; a missing engine is refused
//! before the tournament starts.

mod common;

use common::{eloworld, text};

use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Copies the fixture engines into `dir`, so that their command lines name `dir` and any
/// process left behind can be found.
fn fixtures(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../players/tests/fixtures");
    for name in ["fake_uci.sh", "faulty_engines.toml"] {
        std::fs::copy(src.join(name), dir.join(name)).expect("copy fixture");
    }
    dir.join("faulty_engines.toml")
}

/// Returns the processes whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(needle) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

#[test]
fn faulty_engines_lose_their_games_and_one_that_cannot_start_loses_none() {
    let dir = tempfile::tempdir().expect("tmp");
    let engines = fixtures(dir.path());
    let players = "crasher,hanger,babbler,cheater,mute,random_move";
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "faults",
            "--players",
            players,
            "--games-per-pair",
            "2",
            "--threads",
            "2",
            "--engines",
            engines.to_str().expect("utf-8 path"),
            "--db",
            "faults.sqlite",
            "--quiet",
        ],
    );
    let (out, err) = text(&o);
    // `mute` never answers the handshake: it cannot start, which is an error that names it,
    // and none of its games is stored as a loss; every other game is played.
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    assert!(
        err.contains("mute cannot start")
            && err.contains("no uciok within")
            && err.contains("not counted as losses"),
        "{err}"
    );
    let db = rusqlite::Connection::open(dir.path().join("faults.sqlite")).expect("db");
    // Every game against random_move: how it ended and what was kept.
    let mut rows = db
        .prepare(
            "SELECT w.spec, b.spec, g.result, g.termination, coalesce(g.detail, '') FROM games g \
             JOIN jobs j ON j.id = g.job_id \
             JOIN players w ON w.tournament_id = j.tournament_id AND w.idx = j.white \
             JOIN players b ON b.tournament_id = j.tournament_id AND b.idx = j.black",
        )
        .expect("query");
    let games: Vec<(String, String, String, String, String)> = rows
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect();
    assert_eq!(games.len(), 5 * 4 * 2, "every game without mute is stored");
    assert!(
        !games.iter().any(|g| g.0 == "mute" || g.1 == "mute"),
        "no game of mute is stored"
    );
    let expected = [
        ("crasher", "engine-crashed", "status 3"),
        ("hanger", "engine-timeout", "300 ms"),
        ("babbler", "illegal-move", "zz99"),
        ("cheater", "illegal-move", "e2e5"),
    ];
    for (engine, termination, detail) in expected {
        for (white, black, result, term, det) in games.iter().filter(|g| {
            (g.0 == engine && g.1 == "random_move") || (g.0 == "random_move" && g.1 == engine)
        }) {
            let engine_is_white = white == engine;
            assert_eq!(term, termination, "{white} vs {black}: {det}");
            assert_eq!(
                result,
                if engine_is_white { "0-1" } else { "1-0" },
                "{white} vs {black}: the engine loses"
            );
            assert!(
                det.contains(detail),
                "{white} vs {black}: detail {det:?} should mention {detail:?}"
            );
        }
    }
    let left = processes_mentioning(&dir.path().display().to_string());
    assert!(left.is_empty(), "engine processes left behind: {left:?}");
}

#[test]
fn stockfish_plays_a_tournament_with_dilution() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "sf",
            "--players",
            "stockfish:depth=4,stockfish:depth=4_r65535,random_move",
            "--games-per-pair",
            "1",
            "--threads",
            "2",
            "--max-plies",
            "300",
            "--db",
            "sf.sqlite",
            "--quiet",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let db = rusqlite::Connection::open(dir.path().join("sf.sqlite")).expect("db");
    let faults: i64 = db
        .query_row("SELECT count(*) FROM games WHERE termination LIKE 'engine-%' OR termination = 'illegal-move'", [], |r| r.get(0))
        .expect("count");
    assert_eq!(faults, 0);
    // The pure engine beats random_move with either colour.
    let wins: i64 = db
        .query_row(
            "SELECT count(*) FROM games g JOIN jobs j ON j.id = g.job_id \
             WHERE (j.white = 0 AND j.black = 2 AND g.result = '1-0') OR (j.white = 2 AND j.black = 0 AND g.result = '0-1')",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(wins, 2, "{out}");
}

#[test]
fn a_missing_engine_is_refused_before_the_tournament_naming_its_package() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("ghost.toml"),
        "[[engine]]\nname = \"ghostfish\"\ncommand = \"ghostfish-not-installed\"\npackage = \"ghostfish\"\n",
    )
    .expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "g",
            "--players",
            "ghostfish_r512,random_move",
            "--engines",
            "ghost.toml",
            "--db",
            "g.sqlite",
        ],
    );
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("ghostfish_r512") && err.contains("apt-get install ghostfish"),
        "{err}"
    );
    assert!(!dir.path().join("g.sqlite").exists(), "no database is made");
}

#[test]
fn play_takes_an_engine_file() {
    let dir = tempfile::tempdir().expect("tmp");
    let engines = fixtures(dir.path());
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "cheater",
            "--black",
            "random_move",
            "--engines",
            engines.to_str().expect("utf-8"),
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("illegal-move") || out.contains("e2e5"),
        "{out}"
    );
}

#[test]
fn ctrl_c_twice_ends_even_an_engine_that_ignores_its_input() {
    let dir = tempfile::tempdir().expect("tmp");
    let engines = fixtures(dir.path());
    let mut child = common::command()
        .args([
            "tournament",
            "--name",
            "c",
            "--players",
            "stubborn,random_move",
            "--games-per-pair",
            "1",
            "--threads",
            "1",
            "--engines",
            engines.to_str().expect("utf-8"),
            "--db",
            "c.sqlite",
            "--quiet",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start eloworld");
    let needle = format!("{} stubborn", dir.path().join("./fake_uci.sh").display());
    let t0 = std::time::Instant::now();
    while processes_mentioning(&needle).is_empty() {
        assert!(t0.elapsed().as_secs() < 30, "the engine never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Let it reach its endless `go`.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let interrupt = || {
        common::signal(&child, "-INT");
    };
    interrupt();
    std::thread::sleep(std::time::Duration::from_millis(300));
    interrupt();
    let t1 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(
            t1.elapsed().as_secs() < 10,
            "eloworld did not exit after a second Ctrl-C"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(130));
    std::thread::sleep(std::time::Duration::from_millis(200));
    let left = processes_mentioning(&dir.path().display().to_string());
    assert!(left.is_empty(), "engine processes left behind: {left:?}");
}
