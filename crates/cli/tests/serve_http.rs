//! `eloworld serve` over plain HTTP with the real binary and a real SQLite store: the token
//! (missing or wrong → 401, header, `?token=` → cookie), the refusal to bind a non-loopback
//! address without one, read-only routes, not-found pages, and a game's PGN equal to what
//! `eloworld export` writes.

mod common;

use common::serve::{first_game_id, get, request, Serving};
use common::{eloworld, stdout_of};
use std::path::Path;

const TOKEN: &str = "s3cret-token-0123456789";

/// Plays a small tournament of in-process players into `dir/t.sqlite`.
fn small_tournament(dir: &Path) {
    stdout_of(&eloworld(
        dir,
        &[
            "tournament",
            "--name",
            "small",
            "--players",
            "random_move,first_move,pacifist",
            "--games-per-pair",
            "2",
            "--db",
            "t.sqlite",
            "--seed",
            "3",
        ],
    ));
}

#[test]
fn a_non_local_address_needs_a_token() {
    let dir = tempfile::tempdir().expect("temp dir");
    small_tournament(dir.path());
    let out = eloworld(
        dir.path(),
        &["serve", "--db", "t.sqlite", "--bind", "0.0.0.0:0"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("refusing to listen on 0.0.0.0:0 without a token")
            && err.contains("--token-file"),
        "{err}"
    );
    // A token file too short to be a secret is refused, naming the file.
    std::fs::write(dir.path().join("weak.txt"), "abc\n").expect("write");
    let out = eloworld(
        dir.path(),
        &["serve", "--db", "t.sqlite", "--token-file", "weak.txt"],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("weak.txt") && err.contains("at least 16"),
        "{err}"
    );
    // With a token it starts on every interface (reached here through the loopback).
    std::fs::write(dir.path().join("secret.txt"), format!("{TOKEN}\n")).expect("write");
    let server = Serving::start(
        dir.path(),
        &[
            "--db",
            "t.sqlite",
            "--bind",
            "0.0.0.0:0",
            "--token-file",
            "secret.txt",
        ],
    );
    let port = server.addr.port();
    let local = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    assert_eq!(get(local, "/", &[]).status, 401);
    let bearer = format!("Authorization: Bearer {TOKEN}");
    assert_eq!(get(local, "/", &[&bearer]).status, 200);
}

#[test]
fn every_request_needs_the_token_when_one_is_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    small_tournament(dir.path());
    std::fs::write(dir.path().join("secret.txt"), format!("{TOKEN}\n")).expect("write");
    let server = Serving::start(
        dir.path(),
        &["--db", "t.sqlite", "--token-file", "secret.txt"],
    );
    let a = server.addr;
    let wrong = "Authorization: Bearer s3cret-token-0123456780";
    let right = format!("Authorization: Bearer {TOKEN}");
    for path in [
        "/",
        "/t/small",
        "/t/small/events",
        "/t/small/matrix.png",
        "/game/1",
        "/game/1/pgn",
        "/assets/app.js",
        "/no/such/page",
    ] {
        let missing = get(a, path, &[]);
        assert_eq!(missing.status, 401, "{path} without a token");
        assert_eq!(
            missing.header("www-authenticate"),
            Some("Bearer realm=\"eloworld\"")
        );
        assert_eq!(get(a, path, &[wrong]).status, 401, "{path} wrong token");
        assert_eq!(
            get(a, path, &["Cookie: eloworld_token=nope-nope-nope-nope"]).status,
            401,
            "{path} wrong cookie"
        );
        assert_eq!(
            get(a, &format!("{path}?token=wrong-wrong-wrong-wrong"), &[]).status,
            401,
            "{path} wrong ?token="
        );
    }
    assert_eq!(get(a, "/", &[&right]).status, 200);
    assert_eq!(get(a, "/t/small", &[&right]).status, 200);
    // A right token in a wrong scheme is still refused.
    assert_eq!(
        get(a, "/", &[&format!("Authorization: Basic {TOKEN}")]).status,
        401
    );
    // A first visit with ?token= sets the cookie and sends the browser to the clean address.
    let first = get(a, &format!("/t/small?token={TOKEN}"), &[]);
    assert_eq!(first.status, 303);
    assert_eq!(first.header("location"), Some("/t/small"));
    let cookie = first.header("set-cookie").expect("cookie set");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().expect("name=value");
    assert_eq!(
        get(a, "/t/small", &[&format!("Cookie: {pair}")]).status,
        200
    );
}

#[test]
fn routes_only_read_and_say_what_is_missing() {
    let dir = tempfile::tempdir().expect("temp dir");
    small_tournament(dir.path());
    let before = stdout_of(&eloworld(dir.path(), &["results", "--db", "t.sqlite"]));
    let server = Serving::start(dir.path(), &["--db", "t.sqlite"]);
    let a = server.addr;
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        for path in ["/", "/t/small", "/game/1"] {
            let r = request(a, method, path, &[]);
            assert_eq!(r.status, 405, "{method} {path}");
        }
    }
    let page = get(a, "/", &[]);
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy").expect("CSP");
    assert!(
        csp.contains("script-src 'self'") && csp.contains("default-src 'none'"),
        "{csp}"
    );
    assert!(page.text().contains("href=\"/t/small\""), "{}", page.text());
    let missing = get(a, "/t/nothing-here", &[]);
    assert_eq!(missing.status, 404);
    assert!(
        missing
            .text()
            .contains("no tournament &quot;nothing-here&quot;"),
        "{}",
        missing.text()
    );
    assert_eq!(get(a, "/game/999999", &[]).status, 404);
    assert_eq!(get(a, "/game/abc", &[]).status, 404);
    let matrix = get(a, "/t/small/matrix.png", &[]);
    assert_eq!(matrix.status, 200);
    assert_eq!(matrix.header("content-type"), Some("image/png"));
    assert!(matrix.body.starts_with(b"\x89PNG"));
    drop(server);
    let after = stdout_of(&eloworld(dir.path(), &["results", "--db", "t.sqlite"]));
    assert_eq!(before, after, "serving changed nothing stored");
}

#[test]
fn a_game_page_shows_the_game_and_its_pgn_as_export_writes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    small_tournament(dir.path());
    let exported = stdout_of(&eloworld(
        dir.path(),
        &["export", "--db", "t.sqlite", "--pgn", "-"],
    ));
    let server = Serving::start(dir.path(), &["--db", "t.sqlite"]);
    let page = get(server.addr, "/t/small", &[]).text();
    let id = first_game_id(&page);
    let pgn = get(server.addr, &format!("/game/{id}/pgn"), &[]);
    assert_eq!(pgn.status, 200);
    let pgn = pgn.text();
    // The game's seed is unique: the exported game with the same Seed tag is this game.
    let seed_tag = pgn
        .lines()
        .find(|l| l.starts_with("[Seed "))
        .expect("Seed tag")
        .to_owned();
    let exported_game = exported
        .split("\n\n[Event")
        .map(|g| {
            if g.starts_with("[Event") {
                g.to_owned()
            } else {
                format!("[Event{g}")
            }
        })
        .find(|g| g.contains(&seed_tag))
        .expect("the game is exported");
    assert_eq!(pgn.trim_end(), exported_game.trim_end());
    let viewer = get(server.addr, &format!("/game/{id}"), &[]);
    assert_eq!(viewer.status, 200);
    let html = viewer.text();
    assert!(html.contains("data-positions=") && html.contains("class=\"board\""));
    assert!(html.contains("<textarea id=\"pgn\""));
}

/// Returns the line of `out` that starts with `prefix`, the last one.
fn last_line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {out}"))
}

/// Returns the text of the element with this id in `html` (tags dropped).
fn element_text(html: &str, id: &str) -> String {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id} in the page"));
    let body = &html[start + html[start..].find('>').expect("tag end") + 1..];
    let end = body.find("</td>").expect("cell end");
    let mut text = String::new();
    let mut in_tag = false;
    for c in body[..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn a_match_page_shows_the_sprt_the_match_ran() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = stdout_of(&eloworld(
        dir.path(),
        &[
            "match",
            "-engine",
            "cmd=stockfish",
            "name=deep",
            "nodes=400",
            "-engine",
            "cmd=stockfish",
            "name=shallow",
            "nodes=20",
            "-each",
            "proto=uci",
            "option.Hash=16",
            "option.Threads=1",
            "-games",
            "2",
            "-rounds",
            "6",
            "-repeat",
            "-srand",
            "7",
            "-sprt",
            "elo0=-10",
            "elo1=10",
            "alpha=0.1",
            "beta=0.1",
            "model=logistic",
            "-db",
            "m.sqlite",
        ],
    ));
    let llr: f64 = last_line(&out, "LLR: ")["LLR: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|v| v.parse().ok())
        .expect("the match's LLR");
    let ptnml = last_line(&out, "Ptnml(0-2): ");
    let pairs = &ptnml[ptnml.find('[').expect("[")..=ptnml.find(']').expect("]")];
    let server = Serving::start(dir.path(), &["--db", "m.sqlite"]);
    let page = get(server.addr, "/t/deep-vs-shallow", &[]);
    assert_eq!(page.status, 200);
    let html = page.text();
    // The test the match ran, not the dashboard's default.
    assert!(
        html.contains("SPRT [-10, 10] (logistic Elo), α = 0.1, β = 0.1, as stored with the match"),
        "{html}"
    );
    let shown: f64 = element_text(&html, "llr").parse().expect("the page's LLR");
    // Both print two decimals of the same number.
    assert!((shown - llr).abs() < 0.0101, "page {shown}, match {llr}");
    assert!(
        element_text(&html, "pentanomial").starts_with(pairs),
        "page {:?}, match {pairs}",
        element_text(&html, "pentanomial")
    );
}
