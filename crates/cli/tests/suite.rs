//! `eloworld suite` runs the real binary on a small EPD file.

mod common;

use common::{eloworld, suite_figures, text};

/// Writes three positions (two mates in one, and one where the mate is the move to avoid)
/// and a line with a bad FEN; returns the file's path.
fn mates_epd(dir: &std::path::Path) -> String {
    let epd = dir.join("mates.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"m1\";\n\
         6k1/5ppp/8/8/8/8/8/4R1K1 w - -1 1 ; bm Re8#\n\
         r5k1/8/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id \"m2\";\n\
         6k1/5ppp/8/8/8/8/8/4R1K1 w - - am Re8#; id \"avoid\";\n",
    )
    .expect("write");
    epd.to_str().expect("utf-8 path").to_owned()
}

/// Runs `eloworld suite ARGS` in `dir`; returns whether it succeeded, its output and its
/// error output.
fn suite(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["suite"];
    all.extend_from_slice(args);
    let out = eloworld(dir, &all);
    let (stdout, stderr) = text(&out);
    (out.status.success(), stdout, stderr)
}

#[test]
fn suite_counts_solved_positions_and_reports_bad_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let epd = mates_epd(dir.path());
    let path = epd.as_str();
    let (ok, stdout, stderr) = suite(
        dir.path(),
        &[
            "--epd",
            path,
            "--player",
            "evol",
            "--nodes",
            "20000",
            "--verbose",
        ],
    );
    assert!(ok, "{stderr}");
    assert!(stdout.contains("solved      2 / 3"), "{stdout}");
    assert!(
        stdout.contains("m1") && stdout.contains("avoid"),
        "{stdout}"
    );
    // The unsolved position costs the full limit; the two mates in one a few nodes each.
    let (_, fitness) = suite_figures(&stdout);
    assert!((20_000..21_000).contains(&fitness), "{fitness}");
    assert!(
        stderr.contains(&format!("skipped: {path} line 2: bad FEN")),
        "{stderr}"
    );
}

#[test]
fn suite_refuses_players_that_do_not_search() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (ok, _, stderr) = suite(
        dir.path(),
        &[
            "--epd",
            "/nonexistent.epd",
            "--player",
            "evol",
            "--nodes",
            "10",
        ],
    );
    assert!(!ok);
    assert!(stderr.contains("/nonexistent.epd"), "{stderr}");
    let epd = dir.path().join("one.epd");
    std::fs::write(&epd, "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#;\n").expect("write");
    let path = epd.to_str().expect("utf-8 path");
    let (ok, _, stderr) = suite(
        dir.path(),
        &["--epd", path, "--player", "random_move", "--nodes", "10"],
    );
    assert!(!ok);
    assert!(stderr.contains("evol-family"), "{stderr}");
    // Without a budget that it refuses, a built-in player that does not search is refused
    // all the same, and no count is printed.
    let (ok, stdout, stderr) = suite(dir.path(), &["--epd", path, "--player", "random_move"]);
    assert!(!ok, "{stderr}");
    assert!(stderr.contains("needs a player that searches"), "{stderr}");
    assert!(!stdout.contains("solved"));
    // An evol player with a bad parameter is told so, not sent looking for an engine.
    let (ok, _, stderr) = suite(dir.path(), &["--epd", path, "--player", "evol:nodez=5"]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("nodez") && !stderr.contains("nor an engine"),
        "{stderr}"
    );
}

/// Debian's Toga II and Glaurung (Table III's stand-ins for Crafty) answer the suite over
/// UCI within `--movetime`; an engine that cannot start stops the run naming it, with no
/// solved count printed (a fault is never a wrong answer).
#[test]
fn suite_asks_external_engines_within_the_movetime() {
    let dir = tempfile::tempdir().expect("temp dir");
    let epd = mates_epd(dir.path());
    let path = epd.as_str();
    for engine in ["toga2", "glaurung"] {
        let (ok, stdout, stderr) = suite(
            dir.path(),
            &[
                "--epd",
                path,
                "--player",
                engine,
                "--movetime",
                "100",
                "--threads",
                "2",
                "--verbose",
            ],
        );
        assert!(ok, "{engine}: {stderr}");
        // Both mates in one are found; the position whose only good-looking move is to be
        // avoided is failed by an engine that plays the mate anyway.
        assert!(stdout.contains("solved      2 / 3"), "{stdout}");
        assert!(
            stdout.contains(&format!("player      {engine}:movetime=100")),
            "{stdout}"
        );
        assert!(stdout.contains("limit       100 ms"), "{stdout}");
        let m1 = stdout
            .lines()
            .find(|l| l.starts_with("m1 "))
            .expect("m1 line");
        assert!(m1.contains("yes") && m1.contains("Re8"), "{m1}");
    }
    std::fs::write(
        dir.path().join("ghost.toml"),
        "[[engine]]\nname = \"ghostfish\"\ncommand = \"ghostfish-not-installed\"\npackage = \"ghostfish\"\n",
    )
    .expect("engines file");
    let (ok, stdout, stderr) = suite(
        dir.path(),
        &[
            "--epd",
            path,
            "--player",
            "ghostfish",
            "--engines",
            "ghost.toml",
            "--movetime",
            "100",
        ],
    );
    assert!(!ok, "{stdout}");
    assert!(stderr.contains("ghostfish"), "{stderr}");
    assert!(!stdout.contains("solved"), "{stdout}");
}
