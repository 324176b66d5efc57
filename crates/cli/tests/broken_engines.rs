//! A broken engine stops `eloworld match` before it decides anything: an engine that cannot
//! start (not an engine, an option it does not declare, a value it dies on, a program that is
//! not there) ends the match with exit 2 and one error naming the engine and the cause,
//! before any game is stored or any SPRT computed — never a run of forfeits that rejects a
//! patch. Real Debian Stockfish over real pipes.

mod common;

use common::eloworld;
use std::path::Path;

fn stockfish() -> bool {
    let found = std::process::Command::new("stockfish")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
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

/// Runs a match whose second engine is `broken`; returns (exit code, stdout, stderr).
fn broken_match(dir: &Path, broken: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "match",
        "-engine",
        "cmd=stockfish",
        "name=good",
        "nodes=200",
        "-engine",
    ];
    args.extend_from_slice(broken);
    args.extend_from_slice(&[
        "nodes=200",
        "-games",
        "2",
        "-rounds",
        "4",
        "-repeat",
        "-sprt",
        "elo0=0",
        "elo1=5",
        "-db",
        "m.sqlite",
    ]);
    let o = eloworld(dir, &args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn assert_stopped_before_anything(
    dir: &Path,
    out: &str,
    err: &str,
    code: Option<i32>,
    why: &[&str],
) {
    assert_eq!(code, Some(2), "{out}\n{err}");
    assert!(err.contains("engine broken"), "the engine is named: {err}");
    for w in why {
        assert!(err.contains(w), "the cause {w:?} is named: {err}");
    }
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        !out.contains("LLR") && !out.contains("Finished game"),
        "{out}"
    );
    // Nothing stored: not even the match's database was made.
    assert!(!dir.join("m.sqlite").exists(), "a store was created");
}

#[test]
fn an_option_the_engine_does_not_declare_stops_the_match() {
    if !stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let (code, out, err) = broken_match(
        dir.path(),
        &["cmd=stockfish", "name=broken", "option.Contempt=0"],
    );
    assert_stopped_before_anything(dir.path(), &out, &err, code, &["no option \"Contempt\""]);
}

#[test]
fn a_value_of_the_wrong_type_stops_the_match_named() {
    if !stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let (code, out, err) = broken_match(
        dir.path(),
        &["cmd=stockfish", "name=broken", "option.Hash=notanumber"],
    );
    // Named before it is sent: the setoption, and that a spin's value is an integer.
    assert_stopped_before_anything(
        dir.path(),
        &out,
        &err,
        code,
        &[
            "cannot start",
            "setoption name Hash value notanumber",
            "the option is a spin (an integer from 1 to",
            "\"notanumber\" is not an integer",
        ],
    );
}

#[test]
fn a_program_that_is_not_an_engine_stops_the_match() {
    if !stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let (code, out, err) = broken_match(dir.path(), &["cmd=/bin/true", "name=broken"]);
    assert_stopped_before_anything(dir.path(), &out, &err, code, &["cannot start", "/bin/true"]);
}

#[test]
fn a_program_that_is_not_there_stops_the_match() {
    if !stockfish() {
        return;
    }
    let dir = tempfile::tempdir().expect("tmp");
    let (code, out, err) =
        broken_match(dir.path(), &["cmd=no-such-engine-eloworld", "name=broken"]);
    assert_stopped_before_anything(
        dir.path(),
        &out,
        &err,
        code,
        &["no-such-engine-eloworld", "not found"],
    );
}
