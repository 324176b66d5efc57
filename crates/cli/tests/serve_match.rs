//! The dashboard as an engine tester reads it, in a real browser (headless Chromium over the
//! DevTools protocol) with real Stockfish matches: a match its SPRT decided reads as finished
//! everywhere — the index (state and verdict, and its filter), the page's headline and
//! progress line — with the numbers `eloworld match` printed; a match still running reads as
//! running, and once stopped its page shows the numbers of its final report.
//! Set `ELOWORLD_SERVE_SCREENSHOT=FILE.png` to keep a screenshot of the decided match's page.

#![expect(clippy::print_stderr, reason = "a test says what it skipped")]

mod common;

use common::serve::{chromium, Browser, Serving};
use common::{eloworld, wait_for};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The last line of `out` that starts with `prefix`, without it.
fn last_line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{out}"))
        .trim()
}

/// W/D/L from a `Games: N, Wins: W, Losses: L, Draws: D, …` line, as the page writes it.
fn wdl_of(games_line: &str) -> String {
    let field = |name: &str| -> u64 {
        games_line
            .split(", ")
            .find_map(|f| f.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {games_line:?}"))
    };
    format!(
        "{} / {} / {}",
        field("Wins: "),
        field("Draws: "),
        field("Losses: ")
    )
}

/// Chromium, when it and Debian's Stockfish are there (CI installs both; elsewhere the test
/// is skipped with a note).
fn browser_and_stockfish() -> Option<std::path::PathBuf> {
    let browser = chromium()?;
    if !engines_installed() {
        assert!(std::env::var_os("CI").is_none(), "CI installs stockfish");
        eprintln!("skipped: stockfish is not installed");
        return None;
    }
    Some(browser)
}

fn engines_installed() -> bool {
    Command::new("stockfish")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(|mut c| {
            let _ = c.kill();
            let _ = c.wait();
        })
        .is_ok()
}

fn text(b: &mut Browser, selector: &str) -> String {
    b.eval(&format!(
        "(() => {{ const e = document.querySelector({selector:?}); return e ? e.textContent.trim() : null; }})()"
    ))
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

fn decided_match(dir: &Path) -> String {
    let o = eloworld(
        dir,
        &[
            "match",
            "-engine",
            "cmd=stockfish",
            "name=strong",
            "nodes=5000",
            "-engine",
            "cmd=stockfish",
            "name=weak",
            "nodes=50",
            "-each",
            "option.Hash=16",
            "-games",
            "2",
            "-rounds",
            "100",
            "-repeat",
            "-concurrency",
            "2",
            "-srand",
            "3",
            "-sprt",
            "elo0=0",
            "elo1=20",
            "-db",
            "m.sqlite",
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("H1 was accepted"), "{out}");
    out
}

#[test]
fn a_decided_match_reads_as_finished_with_the_numbers_eloworld_match_printed() {
    let Some(browser) = browser_and_stockfish() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = decided_match(dir.path());
    let stored: u64 = last_line(&out, "Finished match: ")
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("games stored");
    assert!(stored < 200, "the SPRT stopped the match early: {stored}");
    let server = Serving::start(dir.path(), &["--db", "m.sqlite"]);

    // The index: finished, H1 accepted; the filter keeps it among the finished and hides it
    // among the running, on the server and in the page's script alike.
    let mut b = Browser::open(&browser, &server.url("/"));
    let row = "#tournament-list tr[data-state]";
    assert_eq!(text(&mut b, &format!("{row} td.state")), "finished");
    assert_eq!(text(&mut b, &format!("{row} td.verdict")), "H1 accepted");
    b.navigate(&server.url("/?state=finished&verdict=h1"));
    assert_eq!(
        b.eval(&format!("document.querySelector('{row}').hidden")),
        false
    );
    b.navigate(&server.url("/?state=running"));
    assert_eq!(
        b.eval(&format!("document.querySelector('{row}').hidden")),
        true
    );
    assert_eq!(
        b.eval("document.getElementById('none-shown').hidden"),
        false
    );
    b.eval(
        "(() => { const f = document.getElementById('index-filter');
           f.elements.state.value = 'finished'; f.dispatchEvent(new Event('change')); })()",
    );
    assert_eq!(
        b.eval(&format!("document.querySelector('{row}').hidden")),
        false
    );
    assert_eq!(b.eval("document.getElementById('none-shown').hidden"), true);

    // The match's page leads with the verdict and the numbers of the final report.
    b.navigate(&server.url("/t/strong-vs-weak"));
    let ending = format!("finished: H1 accepted after {stored} of at most 200 games");
    assert_eq!(text(&mut b, "#verdict"), ending);
    assert_eq!(text(&mut b, "#state"), ending);
    assert_eq!(text(&mut b, "#time-left"), "–");
    assert!(text(&mut b, "#rate").ends_with("games/min over the run"));
    assert_eq!(text(&mut b, "#elo"), last_line(&out, "Elo:"));
    assert_eq!(text(&mut b, "#headline-llr"), last_line(&out, "LLR:"));
    assert_eq!(
        text(&mut b, "#ptnml"),
        last_line(&out, "Ptnml(0-2):")
            .split(", WL/DD")
            .next()
            .unwrap_or_default()
    );
    assert!(text(&mut b, "#wdl").starts_with(&wdl_of(last_line(&out, "Games:"))));
    // The headline comes first on the page.
    assert_eq!(
        b.eval("document.querySelector('h2').textContent"),
        "Match: strong vs weak"
    );
    if let Some(path) = std::env::var_os("ELOWORLD_SERVE_SCREENSHOT") {
        std::fs::write(path, b.screenshot()).expect("write the screenshot");
    }

    // `status` and `results` say the same.
    let status =
        String::from_utf8_lossy(&eloworld(dir.path(), &["status", "--db", "m.sqlite"]).stdout)
            .into_owned();
    assert!(status.contains(&ending), "{status}");
    let results =
        String::from_utf8_lossy(&eloworld(dir.path(), &["results", "--db", "m.sqlite"]).stdout)
            .into_owned();
    assert!(results.contains(&ending), "{results}");
}

#[test]
fn a_running_match_reads_as_running_and_once_stopped_shows_its_final_report() {
    let Some(browser) = browser_and_stockfish() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    // Two equal engines and an SPRT that takes thousands of games: it is still running when
    // it is stopped.
    let child = common::command()
        .args([
            "match",
            "-engine",
            "cmd=stockfish",
            "name=a",
            "-engine",
            "cmd=stockfish",
            "name=b",
            "-each",
            "nodes=2000",
            "option.Hash=16",
            "-games",
            "2",
            "-rounds",
            "500",
            "-repeat",
            "-concurrency",
            "1",
            "-sprt",
            "elo0=0",
            "elo1=5",
            "-db",
            "r.sqlite",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the match");
    let db = dir.path().join("r.sqlite");
    assert!(
        wait_for(Duration::from_secs(120), || {
            rusqlite::Connection::open(&db)
                .and_then(|c| c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)))
                .is_ok_and(|n| n >= 4)
        }),
        "the match never stored four games"
    );
    let server = Serving::start(dir.path(), &["--db", "r.sqlite"]);
    let mut b = Browser::open(&browser, &server.url("/"));
    let row = "#tournament-list tr[data-state]";
    assert_eq!(text(&mut b, &format!("{row} td.state")), "running");
    assert_eq!(text(&mut b, &format!("{row} td.verdict")), "inconclusive");
    b.navigate(&server.url("/t/a-vs-b"));
    assert!(text(&mut b, "#verdict").starts_with("running — SPRT inconclusive"));
    assert_eq!(text(&mut b, "#state"), "running");
    // Stopped as Ctrl-C stops it: it prints its final report.
    common::signal(&child, "-INT");
    let done = child.wait_with_output().expect("the match ends");
    let out = String::from_utf8_lossy(&done.stdout).into_owned();
    let games_line = last_line(&out, "Games:").to_owned();
    let games: u64 = games_line
        .split(',')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .expect("games");
    // The page follows the store to the final count, then shows the report's numbers.
    let check =
        format!("document.querySelector('#headline-games').textContent.startsWith('{games} ')");
    assert!(
        wait_for(Duration::from_secs(30), || b.eval(&check) == true),
        "the page never reached {games} games"
    );
    assert!(text(&mut b, "#wdl").starts_with(&wdl_of(&games_line)));
    assert_eq!(text(&mut b, "#headline-llr"), last_line(&out, "LLR:"));
}
