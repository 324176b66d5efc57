//! Helpers shared by every test of the `eloworld` binary: run it in a directory, read what it
//! printed, write input files, count rows in a database, wait for a condition.
//!
//! Each test file declares `mod common;` and uses the subset it needs; the `eloworld serve`
//! tests also use [`serve`].
#![expect(
    dead_code,
    reason = "each test file is its own crate and uses only some of these helpers"
)]

pub mod serve;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The repository's root directory.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files of `dir` whose extension is `ext`, in name order; fails the test when `dir`
/// cannot be read.
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// A `Command` for the binary under test, nothing else set.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_eloworld"))
}

/// Runs `eloworld ARGS` in `dir` with nothing on standard input and returns what it did.
pub fn eloworld(dir: &Path, args: &[&str]) -> Output {
    command()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run eloworld")
}

/// Standard output and standard error as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Standard output of a run that must have succeeded (its standard error in the failure).
pub fn stdout_of(o: &Output) -> String {
    let (out, err) = text(o);
    assert!(o.status.success(), "eloworld failed: {out}\n{err}");
    out
}

/// What `eloworld suite` printed: positions solved and nodes to solution (its fitness line).
pub fn suite_figures(stdout: &str) -> (u64, u64) {
    let line = |prefix: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} line: {stdout}"))
    };
    let solved = line("solved      ")
        .split(" / ")
        .next()
        .and_then(|n| n.trim().parse().ok());
    let nodes = line("nodes to solution (fitness, unsolved count the limit): ")
        .trim()
        .parse()
        .ok();
    match (solved, nodes) {
        (Some(s), Some(n)) => (s, n),
        _ => panic!("unreadable suite figures: {stdout}"),
    }
}

/// Runs `eloworld ARGS` in `dir`, which must succeed, and returns its standard output.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let o = eloworld(dir, args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "eloworld {args:?} failed: {out}\n{err}");
    out
}

/// Runs `eloworld ARGS` in `dir`, which must succeed, and returns standard output followed by
/// standard error (for commands that report progress on standard error).
pub fn ok_with_notes(dir: &Path, args: &[&str]) -> String {
    let o = eloworld(dir, args);
    let (out, err) = text(&o);
    assert!(o.status.success(), "eloworld {args:?} failed:\n{out}{err}");
    out + &err
}

/// Runs `eloworld ARGS` in `dir`, which must fail with the usage/input error status 2, and
/// returns its standard error.
pub fn fails(dir: &Path, args: &[&str]) -> String {
    let o = eloworld(dir, args);
    let (out, err) = text(&o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "eloworld {args:?} should fail with status 2: {out}\n{err}"
    );
    err
}

/// Writes `body` to `dir/name`.
pub fn write(dir: &Path, name: &str, body: &str) {
    std::fs::write(dir.join(name), body).expect("write");
}

/// The single integer `sql` returns from the SQLite database `db`.
pub fn count(db: &Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open(db).expect("open db");
    c.query_row(sql, [], |r| r.get(0)).expect(sql)
}

/// Every row `sql` (with `params`) returns from the SQLite database `db`, each read by `row`.
pub fn rows<T>(
    db: &Path,
    sql: &str,
    params: impl rusqlite::Params,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Vec<T> {
    let c = rusqlite::Connection::open(db).expect("open db");
    let mut st = c.prepare(sql).expect(sql);
    st.query_map(params, row)
        .expect(sql)
        .map(|r| r.expect(sql))
        .collect()
}

/// Sends `sig` (e.g. `-KILL`, `-INT`) to `child` with the system's `kill`.
pub fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(ok.success(), "kill {sig}");
}

/// Polls `f` every 100 ms until it holds; fails the test naming `what` after `limit`.
pub fn wait_until(what: &str, limit: Duration, f: impl FnMut() -> bool) {
    assert!(wait_for(limit, f), "timed out waiting for {what}");
}

/// Polls `f` every 100 ms until it holds or `limit` has passed; returns whether it held.
pub fn wait_for(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    f()
}

/// Compares `actual` with the golden file `tests/golden/NAME`, saying at which line they part;
/// with `UPDATE_GOLDEN=1` set, writes it instead (after an intended change).
pub fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).expect("write golden");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} differs from the golden file at line {}:\n expected: {:?}\n actual:   {:?}",
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

/// Whether Crafty is installed (`scripts/crafty --check`): no registry carries it, so CI has
/// none, and what needs it skips with a note.
pub fn crafty_installed() -> bool {
    Command::new(repo().join("scripts/crafty"))
        .arg("--check")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
