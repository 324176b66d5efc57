//! `eloworld serve` in a real browser (headless Chromium over the DevTools protocol) with the
//! real binary and real SQLite stores: a finished tournament's page shows the numbers
//! `eloworld rate` prints; a page open while a tournament runs shows the game count rising
//! without a reload (through the cookie a `?token=` visit set); and players, a tournament and
//! an engine's `detail` named like scripts are shown as text while nothing of them runs.
//! Set `ELOWORLD_SERVE_SCREENSHOT=FILE.png` to keep a screenshot of the finished page.

mod common;

use common::serve::{chromium, Browser, Serving};
use common::{eloworld, stdout_of, wait_for};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

/// Starts a tournament of slow players in the background (about `games` games of ~0.5 s).
fn slow_tournament(dir: &Path, name: &str, games_per_pair: u32) -> Child {
    common::command()
        .args([
            "tournament",
            "--name",
            name,
            "--players",
            "random_move:delay_ms=15,first_move",
            "--games-per-pair",
            &games_per_pair.to_string(),
            "--max-plies",
            "60",
            "--threads",
            "1",
            "--db",
            "live.sqlite",
            "--quiet",
        ])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the tournament")
}

/// Waits until the tournament has stored at least one game.
fn wait_for_first_game(db: &Path) {
    assert!(
        wait_for(Duration::from_secs(60), || {
            rusqlite::Connection::open(db)
                .and_then(|c| c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)))
                .is_ok_and(|n| n > 0)
        }),
        "the tournament never stored a game"
    );
}

fn number(v: &serde_json::Value) -> f64 {
    v.as_str()
        .and_then(|s| s.trim().trim_end_matches('%').parse().ok())
        .or_else(|| v.as_f64())
        .unwrap_or(f64::NAN)
}

#[test]
fn a_finished_tournament_shows_the_numbers_of_eloworld_rate() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    stdout_of(&eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "done",
            "--players",
            "random_move,first_move,pacifist,swarm",
            "--games-per-pair",
            "6",
            "--db",
            "t.sqlite",
            "--seed",
            "5",
            "--quiet",
        ],
    ));
    let rated = stdout_of(&eloworld(
        dir.path(),
        &[
            "rate",
            "--db",
            "t.sqlite",
            "--tournament",
            "done",
            "--format",
            "json",
        ],
    ));
    let rated: serde_json::Value = serde_json::from_str(&rated).expect("rate's JSON");
    let expected = rate_values(&rated);
    assert_eq!(expected.len(), 4, "four players rated: {rated}");
    let server = Serving::start(dir.path(), &["--db", "t.sqlite"]);
    let mut b = Browser::open(&browser, &server.url("/t/done"));
    let table = b.eval(
        "(() => { const t = document.querySelector('#ratings table.ratings');
           const heads = []; for (const c of t.rows[0].cells) { for (let k = 0; k < c.colSpan; k++) heads.push(c.textContent.trim()); }
           return { heads, rows: [...t.rows].slice(1).map(r => [...r.cells].map(c => c.textContent.trim())) }; })()",
    );
    let heads: Vec<String> = table["heads"]
        .as_array()
        .expect("heads")
        .iter()
        .map(|h| h.as_str().unwrap_or("").to_owned())
        .collect();
    let rows = table["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 4);
    let col = |name: &str| heads.iter().position(|h| h == name);
    let player_col = col("player").expect("player column");
    let games_col = col("games").expect("games column");
    let mut compared = 0;
    for row in rows {
        let player = row[player_col].as_str().expect("name").to_owned();
        let want = expected
            .iter()
            .find(|(p, _)| *p == player)
            .unwrap_or_else(|| panic!("{player} is not rated by eloworld rate"));
        let games = want.1.iter().find(|(k, _)| k == "games").map(|p| p.1);
        assert_eq!(Some(number(&row[games_col])), games, "{player}: games");
        for (method, value) in &want.1 {
            if method == "games" {
                continue;
            }
            let Some(c) = col(method) else {
                panic!("the page has no {method} column: {heads:?}");
            };
            let shown = number(&row[c]);
            // The page shows Elo to the unit and probabilities to four digits.
            let tolerance = if method == "markov" {
                value.abs() * 0.01 + 5e-5
            } else {
                0.5 + 1e-6
            };
            assert!(
                (shown - value).abs() <= tolerance,
                "{player} {method}: page {shown}, eloworld rate {value}"
            );
            compared += 1;
        }
    }
    assert!(compared >= 4 * 4, "every method compared ({compared})");
    let shown = b.eval("document.getElementById('games-done').textContent");
    assert_eq!(shown, "72");
    assert_eq!(
        b.eval("document.querySelector('#matrix img').naturalWidth > 100"),
        true
    );
    assert_eq!(
        b.eval("document.querySelector('#evolution img').naturalWidth > 100"),
        true
    );
    if let Some(path) = std::env::var_os("ELOWORLD_SERVE_SCREENSHOT") {
        std::fs::write(path, b.screenshot()).expect("write the screenshot");
    }
    // The game viewer steps through a game on a board.
    b.eval("document.querySelector('#latest a').click()");
    std::thread::sleep(Duration::from_millis(300));
    assert!(wait_for(Duration::from_secs(10), || {
        b
        .poll("location.pathname.startsWith('/game/') && document.readyState === 'complete' && !!document.getElementById('viewer')")
        == true
    }));
    b.eval("document.querySelector('[data-step=first]').click()");
    assert_eq!(
        b.eval("document.getElementById('ply').textContent"),
        "start position"
    );
    assert_eq!(b.eval("document.querySelectorAll('#board td').length"), 64);
    b.eval("document.querySelector('[data-step=next]').click()");
    assert!(b
        .eval("document.getElementById('ply').textContent")
        .as_str()
        .is_some_and(|t| t.starts_with("after 1. ")));
}

/// Reads `eloworld rate --format json`: per player, each method's value and the games.
fn rate_values(doc: &serde_json::Value) -> Vec<(String, Vec<(String, f64)>)> {
    let table = doc["tables"]
        .as_array()
        .and_then(|t| t.first())
        .expect("a table");
    let rows = table["rows"].as_array().expect("rows");
    rows.iter()
        .map(|r| {
            // A flag mark (`*` unbounded, ` [gN]` another group) may follow the name.
            let label = r["player"].as_str().expect("player");
            let player = label
                .split(" [g")
                .next()
                .unwrap_or(label)
                .trim_end_matches('*')
                .to_owned();
            let mut values = vec![("games".to_owned(), r["games"].as_f64().unwrap_or(f64::NAN))];
            for (json, page) in [
                ("mle", "mle"),
                ("uscf", "uscf"),
                ("elo-world", "elo-world"),
                ("rollason", "rollason"),
                ("p(champion)", "markov"),
            ] {
                if let Some(v) = r[json].as_f64() {
                    values.push((page.to_owned(), v));
                }
            }
            (player, values)
        })
        .collect()
}

#[test]
fn a_page_open_during_a_run_shows_the_count_rising() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    // 48 games of about half a second: still running when the page opens on a loaded machine.
    let mut run = slow_tournament(dir.path(), "live", 24);
    wait_for_first_game(&dir.path().join("live.sqlite"));
    let token = "live-token-abcdefghijklmnop";
    std::fs::write(dir.path().join("secret.txt"), token).expect("write");
    let server = Serving::start(
        dir.path(),
        &[
            "--db",
            "live.sqlite",
            "--poll",
            "0.25",
            "--token-file",
            "secret.txt",
        ],
    );
    let mut b = Browser::open(&browser, &server.url(&format!("/t/live?token={token}")));
    assert_eq!(b.eval("location.pathname + location.search"), "/t/live");
    b.eval("window.stillTheSamePage = true");
    let count =
        |b: &mut Browser| number(&b.eval("document.getElementById('games-done').textContent"));
    let first = count(&mut b);
    assert!(first < 48.0, "the run ended before the page opened");
    let version = number(&b.eval("Number(document.body.dataset.version)"));
    assert!(
        wait_for(Duration::from_secs(30), || count(&mut b) > first),
        "the count stayed at {first}"
    );
    let status = run.wait().expect("the tournament ends");
    assert!(status.success());
    assert!(
        wait_for(Duration::from_secs(10), || count(&mut b) == 48.0),
        "the page never showed all 48 games (shows {})",
        count(&mut b)
    );
    assert_eq!(
        b.eval("window.stillTheSamePage === true"),
        true,
        "no reload"
    );
    assert!(number(&b.eval("Number(document.body.dataset.version)")) > version);
    assert_eq!(
        b.eval("document.getElementById('state').textContent"),
        "finished: all 48 games played"
    );
}

#[test]
fn names_like_scripts_are_shown_and_never_run() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("live.sqlite");
    let mut run = slow_tournament(dir.path(), "plain", 6);
    wait_for_first_game(&db);
    let tournament = "t\"><svg onload=\"window.pwned='tournament'\">";
    let white = "<script>window.pwned='script'</script>";
    let black = "\"><img src=x onerror=\"window.pwned='img'\">";
    let detail = "<img src=x onerror=\"window.pwned='detail'\">";
    {
        let c = rusqlite::Connection::open(&db).expect("open");
        c.busy_timeout(Duration::from_secs(10)).expect("timeout");
        c.execute("UPDATE tournaments SET name = ?1", [tournament])
            .expect("rename tournament");
        c.execute("UPDATE players SET spec = ?1 WHERE idx = 0", [white])
            .expect("rename");
        c.execute("UPDATE players SET spec = ?1 WHERE idx = 1", [black])
            .expect("rename");
        c.execute(
            "UPDATE games SET detail = ?1 WHERE seq = (SELECT min(seq) FROM games)",
            [detail],
        )
        .expect("detail");
    }
    let server = Serving::start(dir.path(), &["--db", "live.sqlite", "--poll", "0.25"]);
    let mut b = Browser::open(&browser, &server.url("/"));
    let text = |b: &mut Browser| {
        b.eval("document.body.innerText")
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert!(text(&mut b).contains(tournament), "{}", text(&mut b));
    assert_eq!(
        b.eval("typeof window.pwned"),
        "undefined",
        "a script ran on the index"
    );
    b.eval("document.querySelector('#tournaments a').click()");
    assert!(wait_for(Duration::from_secs(10), || b.poll(
        "location.pathname.startsWith('/t/') && document.readyState === 'complete'"
    ) == true));
    assert_eq!(
        b.eval("document.querySelector('h1').textContent"),
        tournament
    );
    // Live updates arrive (the parts are replaced with new HTML) while games are stored.
    let count =
        |b: &mut Browser| number(&b.eval("document.getElementById('games-done').textContent"));
    let first = count(&mut b);
    assert!(wait_for(Duration::from_secs(30), || count(&mut b) > first));
    let page = text(&mut b);
    assert!(page.contains(white) && page.contains(black), "{page}");
    assert_eq!(
        b.eval("typeof window.pwned"),
        "undefined",
        "a script ran on the tournament page"
    );
    let game = db_first_game(&db);
    b.navigate(&server.url(&format!("/game/{game}")));
    let page = text(&mut b);
    assert!(
        page.contains(white) && page.contains(black) && page.contains(detail),
        "{page}"
    );
    assert!(page.contains(tournament));
    assert_eq!(
        b.eval("typeof window.pwned"),
        "undefined",
        "a script ran on the game page"
    );
    // The run may end in an error: its tournament was renamed under it.
    let _ = run.wait();
}

fn db_first_game(db: &Path) -> i64 {
    rusqlite::Connection::open(db)
        .and_then(|c| {
            c.query_row("SELECT job_id FROM games ORDER BY seq LIMIT 1", [], |r| {
                r.get(0)
            })
        })
        .expect("first game")
}
