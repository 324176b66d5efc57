//! How `eloworld match` treats what outlives a run: the PGN file after a `kill -9` holds
//! exactly the stored games, and each engine is started once and told to `quit` at the end
//! (as fastchess and cutechess-cli end their engines). Both use Debian's `stockfish`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::text;

/// Whether `stockfish` is installed (CI installs it).
fn have_stockfish() -> bool {
    let found = std::process::Command::new("stockfish")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .map(|mut c| {
            let _ = c.kill();
            let _ = c.wait();
        })
        .is_ok();
    assert!(
        found || std::env::var_os("CI").is_none(),
        "CI installs stockfish"
    );
    found
}

/// The games of a PGN text, each from its `[Event` line.
fn pgn_games(pgn: &str) -> Vec<String> {
    pgn.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("[Event {g}"))
        .collect()
}

/// A tag's value in one PGN game.
fn tag(game: &str, name: &str) -> String {
    let prefix = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no {name} tag in {game}"))
        .to_owned()
}

/// (round, white, black, seed) of each game, counted.
type Keys = BTreeMap<(u32, String, String, u64), usize>;

fn pgn_keys(pgn: &str) -> Keys {
    let mut keys = Keys::new();
    for g in pgn_games(pgn) {
        let key = (
            tag(&g, "Round").parse().expect("round"),
            tag(&g, "White"),
            tag(&g, "Black"),
            tag(&g, "Seed").parse().expect("seed"),
        );
        *keys.entry(key).or_default() += 1;
    }
    keys
}

fn stored_keys(db: &Path) -> Keys {
    let c = rusqlite::Connection::open(db).expect("db");
    let mut stmt = c
        .prepare(
            "SELECT j.round, w.spec, b.spec, j.seed FROM games g JOIN jobs j ON j.id = g.job_id \
             JOIN players w ON w.tournament_id = j.tournament_id AND w.idx = j.white \
             JOIN players b ON b.tournament_id = j.tournament_id AND b.idx = j.black",
        )
        .expect("query");
    let mut keys = Keys::new();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, u32>(0)? + 1,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)? as u64,
            ))
        })
        .expect("rows");
    for k in rows {
        *keys.entry(k.expect("row")).or_default() += 1;
    }
    keys
}

const MATCH: &str = "match -engine cmd=stockfish name=a option.Hash=16 nodes=300 \
     -engine cmd=stockfish name=b option.Hash=16 nodes=200 -games 2 -rounds 12 -repeat \
     -concurrency 2 -maxmoves 40 -pgnout file=k.pgn -db k.sqlite";

/// Starts `eloworld ARGS` in `dir` and kills it (`kill -9`) once `db` holds `games` games,
/// failing when that takes longer than `limit`.
fn kill_once_stored(dir: &Path, args: &[&str], db: &Path, games: i64, limit: Duration) {
    let mut child = common::command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start eloworld");
    let t0 = Instant::now();
    let stored_now = || {
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)))
            .unwrap_or(0)
    };
    while stored_now() < games {
        assert!(
            t0.elapsed() < limit,
            "fewer than {games} games stored in {limit:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill -9");
    let _ = child.wait();
}

#[test]
fn after_a_kill_the_pgn_holds_exactly_the_stored_games() {
    if !have_stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let args: Vec<&str> = MATCH.split_whitespace().collect();
    let pgn = dir.path().join("k.pgn");
    let db = dir.path().join("k.sqlite");
    kill_once_stored(dir.path(), &args, &db, 4, Duration::from_secs(120));
    // The windows a kill can hit, made certain: the last stored game was written to the PGN
    // but not committed (its row is gone), and another was committed but not yet written
    // (its PGN is gone).
    let c = rusqlite::Connection::open(&db).expect("db");
    let dropped = c
        .execute(
            "DELETE FROM games WHERE seq = (SELECT max(seq) FROM games)",
            [],
        )
        .expect("delete");
    assert_eq!(dropped, 1);
    drop(c);
    let held = std::fs::read_to_string(&pgn).expect("pgn");
    let mut games = pgn_games(&held);
    let stored = stored_keys(&db);
    // Take out the PGN of a stored game.
    let gone = games
        .iter()
        .position(|g| {
            let k = (
                tag(g, "Round").parse::<u32>().expect("round"),
                tag(g, "White"),
                tag(g, "Black"),
                tag(g, "Seed").parse::<u64>().expect("seed"),
            );
            stored.contains_key(&k)
        })
        .expect("a stored game in the PGN");
    games.remove(gone);
    std::fs::write(&pgn, games.concat()).expect("write pgn");

    let o = common::eloworld(dir.path(), &args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let pgn_text = std::fs::read_to_string(&pgn).expect("pgn");
    let in_pgn = pgn_keys(&pgn_text);
    let in_store = stored_keys(&db);
    assert_eq!(in_store.values().sum::<usize>(), 24, "{err}");
    assert_eq!(in_pgn, in_store, "{pgn_text}");
    // Every count is 1: no game twice.
    assert!(in_pgn.values().all(|&n| n == 1));
}

/// A wrapper around stockfish that logs each start and each `quit` it is sent.
fn wrapper(dir: &Path) -> std::path::PathBuf {
    let log = dir.join("engine.log");
    let script = dir.join("counted-engine");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho start >> '{log}'\nwhile IFS= read -r line; do\n  \
             [ \"$line\" = quit ] && echo quit >> '{log}'\n  printf '%s\\n' \"$line\"\n\
             done | stockfish\n",
            log = log.display()
        ),
    )
    .expect("write the wrapper");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    script
}

#[test]
fn each_engine_is_started_once_and_told_to_quit() {
    if !have_stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let engine = wrapper(dir.path());
    let cmd = format!("cmd={}", engine.display());
    let o = common::eloworld(
        dir.path(),
        &[
            "match",
            "-engine",
            &cmd,
            "name=a",
            "nodes=200",
            "-engine",
            &cmd,
            "name=b",
            "nodes=100",
            "-games",
            "2",
            "-rounds",
            "2",
            "-repeat",
            "-maxmoves",
            "20",
            "-db",
            "q.sqlite",
            "-debug",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let log = std::fs::read_to_string(dir.path().join("engine.log")).expect("log");
    let starts = log.lines().filter(|l| *l == "start").count();
    let quits = log.lines().filter(|l| *l == "quit").count();
    // One process an engine (the start-up check's process plays the games), each ended with
    // `quit`.
    assert_eq!((starts, quits), (2, 2), "{log}");
    // `-debug` labels each engine's traffic with its `-engine name=`, the `quit` included.
    for name in ["a", "b"] {
        let said = |what: &str| {
            err.lines().any(|l| {
                l.split_once(' ').is_some_and(|(_, rest)| {
                    rest.starts_with(&format!("{name}(")) && rest.ends_with(what)
                })
            })
        };
        assert!(
            said(" < uci") && said(" < quit") && said(" > uciok"),
            "{name}:\n{err}"
        );
    }
}

/// A knockout killed with `kill -9` in the middle resumes: rerun, the stages stored are kept
/// (no stored game is played again: every game the store held at the kill is still there,
/// once) and the games left are played; the PGN then holds exactly the stored games.
#[test]
fn a_killed_knockout_resumes_without_replaying_its_stored_games() {
    if !have_stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let line = "match -engine cmd=stockfish name=s1 nodes=900 -engine cmd=stockfish name=s2 \
         nodes=600 -engine cmd=stockfish name=s3 nodes=400 -engine cmd=stockfish name=s4 \
         nodes=200 -engine cmd=stockfish name=s5 nodes=100 -each option.Hash=8 \
         -tournament knockout -games 4 -rounds 1 -concurrency 2 -maxmoves 40 \
         -event ko -pgnout file=ko.pgn -db ko.sqlite";
    let args: Vec<&str> = line.split_whitespace().collect();
    let db = dir.path().join("ko.sqlite");
    // Into the second round: the first round's four games and some of the next.
    kill_once_stored(dir.path(), &args, &db, 6, Duration::from_secs(180));
    let before = stored_keys(&db);
    let o = common::eloworld(dir.path(), &args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("\nWinner: "), "{err}");
    let after = stored_keys(&db);
    for (key, n) in &before {
        assert_eq!(after.get(key), Some(n), "{key:?} kept, once");
    }
    let kept: usize = before.values().sum();
    let total: usize = after.values().sum();
    assert!(
        out.contains(&format!(
            "{total} games stored in ko.sqlite ({} this run",
            total - kept
        )),
        "{out}"
    );
    assert!(after.values().all(|&n| n == 1), "no game twice");
    let pgn = std::fs::read_to_string(dir.path().join("ko.pgn")).expect("pgn");
    assert_eq!(pgn_keys(&pgn), after, "{pgn}");
}
