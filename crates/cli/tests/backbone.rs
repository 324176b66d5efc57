//! Tests of the `eloworld` command for the backbone: determinism, resume after a kill,
//! and a clear error for every kind of bad input. They run the real binary in a temp dir.

mod common;

use common::{count, eloworld, text, write};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn same_seed_gives_the_same_pgn_and_another_seed_does_not() {
    let dir = tempfile::tempdir().expect("tmp");
    let run = |seed: &str| {
        let o = eloworld(
            dir.path(),
            &[
                "play",
                "--white",
                "random_move",
                "--black",
                "random_move_r30000",
                "--seed",
                seed,
            ],
        );
        assert!(o.status.success(), "{:?}", text(&o));
        text(&o).0
    };
    let (a, b, c) = (run("5"), run("5"), run("6"));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(
        a.contains("[Result \"") && a.contains("[Termination \""),
        "{a}"
    );
}

#[test]
fn play_from_a_fen_records_setup_and_ends_by_rule() {
    let dir = tempfile::tempdir().expect("tmp");
    // A position that is not the start: the PGN must carry SetUp and the FEN.
    let fen = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1";
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "first_move",
            "--black",
            "random_move",
            "--fen",
            fen,
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("[SetUp \"1\"]") && out.contains(&format!("[FEN \"{fen}\"]")),
        "{out}"
    );
}

#[test]
fn squava_play_prints_moves_and_board() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--game",
            "squava",
            "--white",
            "random_move",
            "--black",
            "random_move",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("moves: ") && out.contains("   a b c d e") && out.contains("result: "),
        "{out}"
    );
}

const RESUME_TOML: &str = r#"
name = "resume"
players = ["random_move", "first_move_r40000", "random_move_r1000"]
games_per_pair = 2000
seed = 3
threads = 2
db = "resume.sqlite"
"#;

/// Starts the tournament, waits until some games are stored, then stops it with `signal`.
fn start_and_stop(dir: &Path, signal: &str) {
    let mut child = common::command()
        .args(["tournament", "t.toml", "--quiet"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let db = dir.join("resume.sqlite");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        if db.exists() {
            let c = rusqlite::Connection::open(&db).expect("db");
            let n: i64 = c
                .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
                .unwrap_or(0);
            if n >= 300 {
                break;
            }
        }
        assert!(Instant::now() < deadline, "no games stored in time");
        if let Ok(Some(status)) = child.try_wait() {
            panic!("tournament ended before it could be stopped: {status}");
        }
    }
    common::signal(&child, signal);
    let status = child.wait().expect("wait");
    assert!(!status.success(), "a stopped run must not report success");
}

fn check_resume(signal: &str) {
    let dir = tempfile::tempdir().expect("tmp");
    write(dir.path(), "t.toml", RESUME_TOML);
    // 12,000 random games, a second or more: the runner commits every 1,024 games or 250 ms,
    // so a run of a few thousand could end before the poll that stops it.
    let planned = 3 * 2 * 2000;
    start_and_stop(dir.path(), signal);
    let db = dir.path().join("resume.sqlite");
    let stored = count(&db, "SELECT count(*) FROM games");
    assert!(
        stored > 0 && stored < planned,
        "stored {stored} of {planned} before the stop"
    );
    let before: Vec<(i64, Vec<u8>)> = {
        let c = rusqlite::Connection::open(&db).expect("db");
        let mut st = c
            .prepare("SELECT job_id, moves FROM games ORDER BY job_id")
            .expect("sql");
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("q")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    let o = eloworld(dir.path(), &["tournament", "t.toml", "--quiet"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(count(&db, "SELECT count(*) FROM games"), planned);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT job_id) FROM games"),
        planned
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(DISTINCT key) FROM jobs j JOIN games g ON g.job_id = j.id"
        ),
        planned
    );
    assert_eq!(
        count(
            &db,
            "SELECT count(*) FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.job_id = j.id)"
        ),
        0
    );
    // No claim is left: each claim's row went with its last game.
    assert_eq!(count(&db, "SELECT count(*) FROM claims"), 0);
    // Every pair played exactly its share.
    assert_eq!(count(&db, "SELECT count(*) FROM (SELECT white, black, count(*) n FROM jobs j JOIN games g ON g.job_id = j.id GROUP BY white, black HAVING n != 2000)"), 0);
    // What was stored before the stop is untouched.
    let c = rusqlite::Connection::open(&db).expect("db");
    for (id, moves) in before {
        let now: Vec<u8> = c
            .query_row("SELECT moves FROM games WHERE job_id = ?1", [id], |r| {
                r.get(0)
            })
            .expect("row");
        assert_eq!(now, moves, "game {id} changed on resume");
    }
    assert!(
        out.contains(&format!("{planned} of {planned} games stored")),
        "{out}"
    );
}

#[test]
fn a_run_killed_with_sigkill_resumes_with_no_game_lost_or_doubled() {
    check_resume("-KILL");
}

#[test]
fn a_run_interrupted_with_ctrl_c_resumes_with_no_game_lost_or_doubled() {
    check_resume("-INT");
}

#[test]
fn replaying_a_stored_game_from_its_seed_gives_the_same_moves() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "r",
            "--players",
            "random_move,random_move_r9999",
            "--games-per-pair",
            "2",
            "--db",
            "r.sqlite",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let c = rusqlite::Connection::open(dir.path().join("r.sqlite")).expect("db");
    let (seed, moves, white, black): (i64, Vec<u8>, String, String) = c
        .query_row(
            "SELECT j.seed, g.moves, pw.spec, pb.spec FROM games g JOIN jobs j ON j.id = g.job_id \
             JOIN players pw ON pw.idx = j.white JOIN players pb ON pb.idx = j.black LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .expect("row");
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            &white,
            "--black",
            &black,
            "--seed",
            &(seed as u64).to_string(),
        ],
    );
    let pgn = text(&o).0;
    let moves = eloworld_games::MoveRecord::text_of(eloworld_games::GameKind::Chess, &moves)
        .expect("the stored moves are a chess move record");
    let first: Vec<&str> = moves.split(' ').take(2).collect();
    assert!(!first.is_empty());
    // The PGN is in SAN; compare the move count instead of the notation.
    let plies: usize = pgn
        .lines()
        .find_map(|l| l.strip_prefix("[PlyCount \""))
        .and_then(|v| v.trim_end_matches("\"]").parse().ok())
        .expect("PlyCount");
    assert_eq!(plies, moves.split(' ').filter(|m| !m.is_empty()).count());
}

#[test]
fn unknown_player_lists_the_closest_names() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "x",
            "--players",
            "random_move,frist_move",
            "--db",
            "x.sqlite",
        ],
    );
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("unknown chess player \"frist_move\"") && err.contains("first_move"),
        "{err}"
    );
    assert!(
        !dir.path().join("x.sqlite").exists(),
        "no database is created for a bad plan"
    );
}

#[test]
fn malformed_toml_names_file_line_and_expectation() {
    let dir = tempfile::tempdir().expect("tmp");
    write(
        dir.path(),
        "bad.toml",
        "name = \"b\"\nplayers = [\"random_move\", \"first_move\"]\ngames_per_pair = \"ten\"\n",
    );
    let o = eloworld(dir.path(), &["tournament", "bad.toml"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("bad.toml") && err.contains("line 3") && err.contains("expected u32"),
        "{err}"
    );
    write(
        dir.path(),
        "typo.toml",
        "name = \"b\"\nplayer = [\"random_move\"]\n",
    );
    let err = text(&eloworld(dir.path(), &["tournament", "typo.toml"])).1;
    assert!(
        err.contains("typo.toml") && err.contains("line 2") && err.contains("player"),
        "{err}"
    );
}

#[test]
fn bad_fen_is_refused_with_the_fen_named() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "random_move",
            "--black",
            "first_move",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -",
        ],
    );
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("bad position") && err.contains("PPPPPPPP w KQkq"),
        "{err}"
    );
    write(
        dir.path(),
        "o.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n8/8/8/8 w - -\n",
    );
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "o",
            "--players",
            "random_move,first_move",
            "--openings",
            "o.epd",
            "--db",
            "o.sqlite",
        ],
    );
    let err = text(&o).1;
    assert!(!o.status.success());
    assert!(err.contains("o.epd:2:"), "{err}");
}

#[test]
fn a_database_with_another_plan_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = [
        "tournament",
        "--name",
        "p",
        "--players",
        "random_move,first_move",
        "--games-per-pair",
        "3",
        "--db",
        "p.sqlite",
        "--quiet",
    ];
    assert!(eloworld(dir.path(), &args).status.success());
    let db = dir.path().join("p.sqlite");
    assert_eq!(count(&db, "SELECT count(*) FROM games"), 6);
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "p",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "4",
            "--db",
            "p.sqlite",
            "--quiet",
        ],
    );
    let err = text(&o).1;
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err.contains("different plan") && err.contains("another --db"),
        "{err}"
    );
    assert_eq!(count(&db, "SELECT count(*) FROM games"), 6);
    // Running the original settings again is a resume with nothing left to play.
    let o = eloworld(dir.path(), &args);
    assert!(o.status.success());
    assert!(text(&o).0.contains("6 of 6 games stored"), "{:?}", text(&o));
}

#[test]
fn a_file_that_is_not_sqlite_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tmp");
    let junk = "this is not a database, it is a text file with some words in it\n".repeat(100);
    write(dir.path(), "junk.sqlite", &junk);
    for args in [
        vec![
            "tournament",
            "--name",
            "j",
            "--players",
            "random_move,first_move",
            "--db",
            "junk.sqlite",
        ],
        vec!["results", "--db", "junk.sqlite"],
    ] {
        let o = eloworld(dir.path(), &args);
        let err = text(&o).1;
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("junk.sqlite is not an eloworld database"),
            "{err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("junk.sqlite")).expect("read"),
        junk
    );
}

/// Whether Debian's `stockfish` is on the PATH.
fn have_stockfish() -> bool {
    Command::new("stockfish")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .map(|mut c| {
            let _ = c.kill();
            let _ = c.wait();
        })
        .is_ok()
}

/// Every command that opens a store, on the SQLite file `db`.
fn store_commands(db: &str) -> Vec<Vec<String>> {
    let ladder = common::repo().join("data/ladders/elo-world-in-process.toml");
    [
        "tournament --name j --players random_move,first_move --db DB",
        "rate --db DB",
        "results --db DB",
        "status --db DB",
        "export --db DB --pgn out.pgn",
        "place random_move --ladder LADDER --max-games 2 --quiet --db DB",
        "report table --db DB",
        // The engines are checked before the store is opened: real ones, where installed.
        "match -engine cmd=stockfish name=a -engine cmd=stockfish name=b -each nodes=10 -db DB",
    ]
    .iter()
    .filter(|line| !line.contains("stockfish") || have_stockfish())
    .map(|line| {
        line.split_whitespace()
            .map(|w| {
                w.replace("DB", db)
                    .replace("LADDER", &ladder.display().to_string())
            })
            .collect()
    })
    .collect()
}

#[test]
fn another_applications_sqlite_file_is_refused_unchanged_by_every_command() {
    let dir = tempfile::tempdir().expect("tmp");
    for (file, tables) in [
        (
            "foo.sqlite",
            "CREATE TABLE foo (id INTEGER PRIMARY KEY, word TEXT);",
        ),
        // Tables named as eloworld's: refused as well, no partial schema left behind.
        (
            "clash.sqlite",
            "CREATE TABLE games (id INTEGER PRIMARY KEY, word TEXT); \
             CREATE TABLE players (id INTEGER PRIMARY KEY, word TEXT);",
        ),
    ] {
        let path = dir.path().join(file);
        {
            let c = rusqlite::Connection::open(&path).expect("create");
            c.execute_batch(tables).expect("tables");
            let table = if file == "foo.sqlite" { "foo" } else { "games" };
            for i in 0..100 {
                c.execute(
                    &format!("INSERT INTO {table} (word) VALUES (?1)"),
                    [format!("row {i}")],
                )
                .expect("insert");
            }
        }
        let before = std::fs::read(&path).expect("read");
        for args in store_commands(file) {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = eloworld(dir.path(), &refs);
            let (out, err) = text(&o);
            assert_ne!(o.status.code(), Some(0), "{args:?}: {out}\n{err}");
            assert!(
                err.contains(&format!("{file} is another application's SQLite database")),
                "{args:?}: {err}"
            );
            assert!(!err.contains("not SQLite"), "{args:?}: {err}");
            assert_eq!(
                std::fs::read(&path).expect("read"),
                before,
                "{args:?} changed {file}"
            );
            for side in ["-wal", "-shm", "-journal"] {
                assert!(
                    !dir.path().join(format!("{file}{side}")).exists(),
                    "{args:?} left {file}{side}"
                );
            }
        }
    }
}

#[test]
fn an_empty_file_is_a_new_store_to_every_command() {
    let dir = tempfile::tempdir().expect("tmp");
    write(dir.path(), "empty.sqlite", "");
    // Readers find no games in it, and say so without calling it "not SQLite".
    for args in [
        vec!["rate", "--db", "empty.sqlite"],
        vec!["results", "--db", "empty.sqlite"],
    ] {
        let o = eloworld(dir.path(), &args);
        let err = text(&o).1;
        assert!(
            err.contains("empty.sqlite is an empty file: no games are stored in it yet"),
            "{args:?}: {err}"
        );
        assert_eq!(
            std::fs::read(dir.path().join("empty.sqlite")).expect("read"),
            b""
        );
    }
    // A tournament stores its games in it.
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "e",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "1",
            "--db",
            "empty.sqlite",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    assert_eq!(
        count(
            &dir.path().join("empty.sqlite"),
            "SELECT count(*) FROM games"
        ),
        2
    );
    let o = eloworld(dir.path(), &["rate", "--db", "empty.sqlite"]);
    assert!(o.status.success(), "{:?}", text(&o));
}

#[test]
fn a_read_only_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tmp");
    let args = [
        "tournament",
        "--name",
        "ro",
        "--players",
        "random_move,first_move",
        "--games-per-pair",
        "2",
        "--db",
        "ro.sqlite",
        "--quiet",
    ];
    assert!(eloworld(dir.path(), &args).status.success());
    let db = dir.path().join("ro.sqlite");
    let mut perms = std::fs::metadata(&db).expect("meta").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&db, perms).expect("chmod");
    let bytes = std::fs::read(&db).expect("read");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "ro2",
            "--players",
            "random_move,first_move",
            "--db",
            "ro.sqlite",
        ],
    );
    let err = text(&o).1;
    // root ignores file permissions; only check when the file really is read-only to us.
    if std::fs::OpenOptions::new().write(true).open(&db).is_err() {
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("read-only"), "{err}");
        assert_eq!(std::fs::read(&db).expect("read"), bytes);
        // Readers still work on it.
        let o = eloworld(dir.path(), &["results", "--db", "ro.sqlite"]);
        assert!(o.status.success(), "{:?}", text(&o));
    } else {
        eprintln!("note: running as root, file permissions are not enforced; checking the read-only open path instead");
        let o = eloworld(dir.path(), &["results", "--db", "ro.sqlite"]);
        assert!(o.status.success(), "{:?}", text(&o));
    }
}

#[test]
fn results_and_export_read_the_store() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "e",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "3",
            "--db",
            "e.sqlite",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let o = eloworld(dir.path(), &["results", "--db", "e.sqlite"]);
    let out = text(&o).0;
    assert!(
        out.contains("first_move") && out.contains("score%") && out.contains("1-0"),
        "{out}"
    );
    let o = eloworld(
        dir.path(),
        &["export", "--db", "e.sqlite", "--pgn", "e.pgn"],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let pgn = std::fs::read_to_string(dir.path().join("e.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Event \"e\"]").count(), 6);
    for tag in [
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Termination",
        "PlyCount",
    ] {
        assert_eq!(pgn.matches(&format!("[{tag} \"")).count(), 6, "{tag}");
    }
    let o = eloworld(dir.path(), &["results", "--db", "missing.sqlite"]);
    assert!(text(&o).1.contains("no database at missing.sqlite"));
}

/// `bench --format json`: one JSON object alone on stdout, keyed by game, each with the bare
/// loop's rate and the runner's ratios on one and two threads (with one round, each ratio is
/// exactly the runner's rate over the bare loop's).
#[test]
fn bench_json_is_one_object_keyed_by_game_alone_on_stdout() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "bench", "--format", "json", "--games", "12", "--rounds", "1",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().count(), 1, "one line on stdout: {out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    let games = v.as_object().expect("an object");
    let mut keys: Vec<&str> = games.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["chess", "go", "squava"]);
    for (game, f) in games {
        let num = |k: &str| {
            f[k].as_f64()
                .unwrap_or_else(|| panic!("{game}: {k} is not a number in {f}"))
        };
        for k in [
            "bare_games_per_s",
            "runner_1_thread_ratio",
            "runner_2_threads_ratio",
            "runner_1_thread_games_per_s",
            "runner_2_threads_games_per_s",
            "store_ceiling_games_per_s",
        ] {
            assert!(
                num(k).is_finite() && num(k) > 0.0,
                "{game}: {k} = {}",
                num(k)
            );
        }
        let bare = num("bare_games_per_s");
        for (ratio, rate) in [
            ("runner_1_thread_ratio", "runner_1_thread_games_per_s"),
            ("runner_2_threads_ratio", "runner_2_threads_games_per_s"),
        ] {
            let expected = num(rate) / bare;
            assert!(
                (num(ratio) - expected).abs() <= 1e-9 * expected,
                "{game}: {ratio} = {} but {rate} / bare_games_per_s = {expected}",
                num(ratio)
            );
        }
        // Where the runner's CPU went on two threads, in bare loops' CPU per game: measured
        // where there is a per-thread CPU clock (unix), else null.
        for k in [
            "workers_cpu_per_game_ratio",
            "coordinator_cpu_per_game_ratio",
        ] {
            if cfg!(unix) {
                assert!(
                    num(k).is_finite() && num(k) > 0.0,
                    "{game}: {k} = {}",
                    num(k)
                );
            } else {
                assert!(f[k].is_null(), "{game}: {k} = {}", f[k]);
            }
        }
        assert_eq!(f["games"], 12, "{game}");
        assert_eq!(f["rounds"], 1, "{game}");
        // Random chess games last hundreds of plies; squava's 5×5 board holds at most 25; a
        // random 9×9 Go game (which never fills its own eyes) lasts about a hundred moves.
        let plies = num("plies_per_game");
        match game.as_str() {
            "chess" => assert!(plies > 20.0, "chess: {plies} plies per game"),
            "squava" => assert!(
                (5.0..=25.0).contains(&plies),
                "squava: {plies} plies per game"
            ),
            _ => assert!(
                (40.0..=243.0).contains(&plies),
                "go: {plies} plies per game (at most the move cap, 3 × 81)"
            ),
        }
    }
}

/// `bench --scale --format json`: one object alone on stdout, keyed by game, each with its
/// rows under `scale`, one a thread count (1, 2, 4, … and `--threads-max`), each row's share
/// the one tournament's games/s over the separate ones' (one round: exactly that ratio);
/// `--threads-max` without `--scale`, and `--scale` with `--db`, are errors.
#[test]
fn bench_scale_json_has_a_row_per_thread_count_under_each_game() {
    let dir = tempfile::tempdir().expect("tmp");
    let o = eloworld(
        dir.path(),
        &[
            "bench",
            "--scale",
            "--format",
            "json",
            "--games",
            "12",
            "--rounds",
            "1",
            "--threads-max",
            "3",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out.lines().count(), 1, "one line on stdout: {out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("stdout is JSON");
    let games = v.as_object().expect("an object");
    let mut keys: Vec<&str> = games.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["chess", "go", "squava"]);
    for (game, f) in games {
        let rows = f["scale"].as_array().expect("scale rows");
        let threads: Vec<u64> = rows.iter().filter_map(|r| r["threads"].as_u64()).collect();
        assert_eq!(threads, [1, 2, 3], "{game}: {f}");
        for r in rows {
            let num = |k: &str| {
                r[k].as_f64()
                    .unwrap_or_else(|| panic!("{game}: {k} is not a number in {r}"))
            };
            for k in ["games_per_s", "ceiling_games_per_s", "share"] {
                assert!(num(k).is_finite() && num(k) > 0.0, "{game}: {k} in {r}");
            }
            let expected = num("games_per_s") / num("ceiling_games_per_s");
            assert!(
                (num("share") - expected).abs() <= 1e-9 * expected,
                "{game}: share {} against {expected}",
                num("share")
            );
            // Where the time went (Linux keeps a CPU clock per thread), and the hand-offs:
            // at least one game each, at most the run's twelve.
            for k in ["coordinator_us_per_game", "workers_us_per_game"] {
                assert!(num(k).is_finite() && num(k) > 0.0, "{game}: {k} in {r}");
            }
            assert!(
                (1.0..=12.0).contains(&num("games_per_handoff")),
                "{game}: {r}"
            );
            // Linux counts each thread's sleeps: a number, none below zero.
            for k in [
                "coordinator_waits_per_1000_games",
                "workers_waits_per_1000_games",
            ] {
                assert!(num(k).is_finite() && num(k) >= 0.0, "{game}: {k} in {r}");
            }
        }
        assert!(
            f["store_ceiling_games_per_s"]
                .as_f64()
                .is_some_and(|c| c > 0.0),
            "{game}: {f}"
        );
        assert_eq!(f["games"], 12, "{game}");
        assert_eq!(f["rounds"], 1, "{game}");
    }
    for (args, says) in [
        (&["bench", "--threads-max", "2"][..], "--scale"),
        (
            &["bench", "--scale", "--db", "postgres://x/y"][..],
            "cannot be used with",
        ),
        (
            &["bench", "--scale", "--threads-max", "0"][..],
            "--threads-max",
        ),
    ] {
        let o = eloworld(dir.path(), args);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.is_empty() && err.contains(says), "{args:?}: {err}");
    }
}

/// The stored game is read into its kind once; a store holding a game this eloworld does
/// not know (written by a newer one) is an error naming the tournament and the game, and
/// none of its games is exported as if it were chess.
#[test]
fn a_stored_game_of_an_unknown_kind_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    common::stdout_of(&common::eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "t",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "1",
            "--db",
            "t.sqlite",
            "--quiet",
        ],
    ));
    let c = rusqlite::Connection::open(dir.path().join("t.sqlite")).expect("db");
    c.execute("UPDATE tournaments SET game = 'hnefatafl'", [])
        .expect("update");
    drop(c);
    for args in [
        &["results", "--db", "t.sqlite"][..],
        &["export", "--db", "t.sqlite", "--pgn", "t.pgn"][..],
    ] {
        let out = common::eloworld(dir.path(), args);
        let (_, err) = common::text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("\"t\"") && err.contains("hnefatafl") && err.contains("upgrade eloworld"),
            "{args:?}: {err}"
        );
    }
}
