//! `eloworld suite` runs the real binary on a small EPD file.

mod common;

use common::eloworld;

#[test]
fn suite_counts_solved_positions_and_reports_bad_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let epd = dir.path().join("mates.epd");
    std::fs::write(
        &epd,
        "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#; id \"m1\";\n\
         6k1/5ppp/8/8/8/8/8/4R1K1 w - -1 1 ; bm Re8#\n\
         r5k1/8/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id \"m2\";\n\
         6k1/5ppp/8/8/8/8/8/4R1K1 w - - am Re8#; id \"avoid\";\n",
    )
    .expect("write");
    let path = epd.to_str().expect("utf-8 path");
    let out = eloworld(
        dir.path(),
        &[
            "suite",
            "--epd",
            path,
            "--player",
            "evol",
            "--nodes",
            "20000",
            "--verbose",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("solved      2 / 3"), "{stdout}");
    assert!(
        stdout.contains("m1") && stdout.contains("avoid"),
        "{stdout}"
    );
    // The unsolved position costs the full limit; the two mates in one a few nodes each.
    let fitness: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes to solution (fitness, unsolved count the limit): "))
        .and_then(|n| n.trim().parse().ok())
        .expect("fitness line");
    assert!((20_000..21_000).contains(&fitness), "{fitness}");
    assert!(
        stderr.contains(&format!("skipped: {path} line 2: bad FEN")),
        "{stderr}"
    );
}

#[test]
fn suite_refuses_players_that_do_not_search() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = eloworld(
        dir.path(),
        &[
            "suite",
            "--epd",
            "/nonexistent.epd",
            "--player",
            "evol",
            "--nodes",
            "10",
        ],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent.epd"));
    let epd = dir.path().join("one.epd");
    std::fs::write(&epd, "6k1/5ppp/8/8/8/8/8/4R1K1 w - - bm Re8#;\n").expect("write");
    let path = epd.to_str().expect("utf-8 path");
    let out = eloworld(
        dir.path(),
        &[
            "suite",
            "--epd",
            path,
            "--player",
            "random_move",
            "--nodes",
            "10",
        ],
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("evol-family"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
