//! Tests of `eloworld ladder build` and `eloworld place` (Murphy's Elo World, section 4: place
//! a new player on a fixed scale). They run the real binary in a temp dir on small ladders of
//! in-process players.

use serde_json::Value;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::{eloworld, text};

fn count(db: &Path, sql: &str) -> i64 {
    let c = rusqlite::Connection::open(db).expect("open db");
    c.query_row(sql, [], |r| r.get(0)).expect(sql)
}

/// Reads a ladder file's rungs: (player, rating, low, high).
fn rungs(path: &Path) -> Vec<(String, f64, f64, f64)> {
    let text = std::fs::read_to_string(path).expect("ladder");
    let doc: toml::Table = text.parse().expect("toml");
    doc["rungs"]
        .as_array()
        .expect("rungs")
        .iter()
        .map(|r| {
            let f = |k: &str| r[k].as_float().expect("number");
            (
                r["player"].as_str().expect("player").to_owned(),
                f("rating"),
                f("low"),
                f("high"),
            )
        })
        .collect()
}

/// Plays a round robin of `players` with `games` per ordered pair and builds its ladder.
fn build_ladder(dir: &Path, players: &str, games: &str) -> std::path::PathBuf {
    let o = eloworld(
        dir,
        &[
            "tournament",
            "--name",
            "rr",
            "--players",
            players,
            "--games-per-pair",
            games,
            "--seed",
            "3",
            "--db",
            "rr.sqlite",
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    let o = eloworld(
        dir,
        &[
            "ladder",
            "build",
            "--db",
            "rr.sqlite",
            "--out",
            "small.toml",
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    dir.join("small.toml")
}

fn place_json(dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["place"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json", "--quiet"]);
    let o = eloworld(dir, &all);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {out}"))
}

const FIELD: &str = "random_move,first_move,pacifist,alphabetical,huddle,swarm,cccp,min_oppt_moves,min_oppt_moves_r32768,min_oppt_moves_r49152";

/// Placement is honest: every player of a round robin, placed again under a new spec for
/// the same player (`NAME_r0`), lands within the combined 95% interval of its round-robin
/// rating for at least 9 of 10, with at most a quarter of a new round-robin row's games;
/// and its Scoville placement agrees with the ratings.
#[test]
fn players_placed_again_agree_with_their_round_robin_ratings() {
    let dir = tempfile::tempdir().expect("tmp");
    let ladder = build_ladder(dir.path(), FIELD, "12");
    let rungs = rungs(&ladder);
    assert_eq!(rungs.len(), 10);
    // A new row: 10 opponents × 12 games per ordered pair × 2 colours.
    let quarter = 10 * 12 * 2 / 4;
    let mut agree = 0;
    let mut report = String::new();
    for (player, rating, low, high) in &rungs {
        // A new spec for the same player: `NAME_r0`; a diluted rung is placed under its own
        // spec, which leaves its rung out of its opponents.
        let spec = if player.contains("_r") {
            player.clone()
        } else {
            format!("{player}_r0")
        };
        let v = place_json(
            dir.path(),
            &[
                &spec,
                "--ladder",
                "small.toml",
                "--max-games",
                &quarter.to_string(),
                "--seed",
                "9",
            ],
        );
        let placed = v["rating"].as_f64().expect("rating");
        let (pl, ph) = (
            v["fixed_low"].as_f64().expect("fixed_low"),
            v["fixed_high"].as_f64().expect("fixed_high"),
        );
        assert!(v["games"].as_u64().expect("games") <= quarter as u64, "{v}");
        let z = 1.959_964;
        let sigma = (((ph - pl) / (2.0 * z)).powi(2) + ((high - low) / (2.0 * z)).powi(2)).sqrt();
        let inside = (placed - rating).abs() <= z * sigma;
        agree += usize::from(inside);
        report.push_str(&format!(
            "{player}: round robin {rating:.0}, placed {placed:.0} ± {:.0}, combined ±{:.0} {}\n",
            (ph - pl) / 2.0,
            z * sigma,
            if inside { "ok" } else { "OUTSIDE" }
        ));
        // Scoville: the placed rating lies between the two named dilutions' ratings.
        for s in v["scoville"].as_array().expect("scoville") {
            let r = |k: &str| s[k]["rating"].as_f64();
            if let Some(below) = r("below") {
                assert!(below <= placed, "{s} vs {placed}");
            }
            if let Some(above) = r("above") {
                assert!(placed < above, "{s} vs {placed}");
            }
            assert!(
                s["text"].as_str().unwrap_or("").contains("min_oppt_moves"),
                "{s}"
            );
        }
    }
    eprintln!("{report}");
    assert!(agree >= 9, "only {agree} of 10 agree:\n{report}");
}

/// A rung whose engine is not installed is skipped with a note naming it, and the
/// placement goes on with the others.
#[test]
fn a_rung_whose_engine_is_missing_is_skipped_with_a_note() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("engines.toml"),
        "[[engine]]\nname = \"ghostfish\"\ncommand = \"no-such-engine-eloworld\"\nbudget = { depth = 1 }\n",
    )
    .expect("write");
    std::fs::write(
        dir.path().join("l.toml"),
        "format = 1\nname = \"l\"\ngame = \"chess\"\nadvantage = 0.0\nrungs = [\n\
         { player = \"random_move\", rating = 900.0, low = 850.0, high = 950.0 },\n\
         { player = \"ghostfish\", rating = 1000.0, low = 950.0, high = 1050.0 },\n\
         { player = \"swarm\", rating = 1100.0, low = 1050.0, high = 1150.0 },\n]\n",
    )
    .expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "place",
            "cccp",
            "--ladder",
            "l.toml",
            "--engines",
            "engines.toml",
            "--max-games",
            "8",
            "--quiet",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("rung ghostfish skipped") && err.contains("no-such-engine-eloworld"),
        "{err}"
    );
    assert!(
        out.contains("cccp on ladder l:") && out.contains("8 games"),
        "{out}"
    );
    assert!(!out.contains("ghostfish  "), "{out}");
}

/// A placement killed in the middle resumes: the second run plays only what is missing and
/// ends with the same result as an uninterrupted run with the same seed; a third run plays
/// nothing.
#[test]
fn a_placement_killed_with_sigkill_resumes_to_the_same_result() {
    let dir = tempfile::tempdir().expect("tmp");
    build_ladder(
        dir.path(),
        "random_move,first_move,pacifist,swarm,cccp",
        "4",
    );
    let args = [
        "place",
        "min_oppt_moves",
        "--ladder",
        "small.toml",
        "--max-games",
        "60",
        "--batch",
        "3",
        "--seed",
        "4",
    ];
    let mut child = common::command()
        .args(args)
        .args(["--db", "killed.sqlite", "--quiet", "--threads", "1"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let db = dir.path().join("killed.sqlite");
    let deadline = Instant::now() + Duration::from_secs(120);
    // Killed right after its first batch is stored, so that most of the placement is still
    // to play (a batch takes a few milliseconds here: the poll must be quick).
    loop {
        std::thread::sleep(Duration::from_millis(2));
        let n = if db.exists() {
            rusqlite::Connection::open(&db)
                .and_then(|c| c.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)))
                .unwrap_or(0)
        } else {
            0
        };
        if n >= 6 {
            break;
        }
        assert!(Instant::now() < deadline, "no games stored in time");
        if let Ok(Some(status)) = child.try_wait() {
            panic!("placement ended before it could be killed: {status}");
        }
    }
    common::signal(&child, "-KILL");
    assert!(!child.wait().expect("wait").success());
    let stored = count(&db, "SELECT count(*) FROM games");
    assert!(stored < 60, "stored {stored}");
    let resumed = eloworld(
        dir.path(),
        &[&args[..], &["--db", "killed.sqlite", "--format", "json"]].concat(),
    );
    let fresh = eloworld(
        dir.path(),
        &[&args[..], &["--db", "fresh.sqlite", "--format", "json"]].concat(),
    );
    assert!(
        resumed.status.success() && fresh.status.success(),
        "{:?} {:?}",
        text(&resumed),
        text(&fresh)
    );
    assert_eq!(text(&resumed).0, text(&fresh).0);
    let v: Value = serde_json::from_str(&text(&resumed).0).expect("json");
    let games = v["games"].as_i64().expect("games");
    assert_eq!(
        count(&db, "SELECT count(*) FROM games"),
        games,
        "no game lost or doubled"
    );
    assert_eq!(
        count(&db, "SELECT count(DISTINCT job_id) FROM games"),
        games
    );
    // Placing the same spec again reuses every stored game.
    let again = eloworld(
        dir.path(),
        &[&args[..], &["--db", "killed.sqlite", "--format", "json"]].concat(),
    );
    assert_eq!(text(&again).0, text(&fresh).0);
    assert_eq!(count(&db, "SELECT count(*) FROM games"), games);
}

/// `ladder build` records the settings and the pairwise counts; `--ladder NAME` finds a
/// shipped ladder; a bad ladder file is refused with its path and line.
#[test]
fn ladder_files_are_built_listed_and_checked() {
    let dir = tempfile::tempdir().expect("tmp");
    let ladder = build_ladder(dir.path(), "random_move,swarm,cccp", "3");
    let text_of = std::fs::read_to_string(&ladder).expect("read");
    assert!(
        text_of.contains("command = \"eloworld ladder build --db rr.sqlite --out small.toml\""),
        "{text_of}"
    );
    assert!(text_of.contains("draw_rules = \"automatic\""), "{text_of}");
    assert_eq!(text_of.matches("{ white = ").count(), 6, "{text_of}");
    // A ladder is a game source like --pgn/--csv: its counts rate back to its ratings.
    let o = eloworld(
        dir.path(),
        &[
            "rate",
            "--ladder",
            "small.toml",
            "--method",
            "mle",
            "--format",
            "csv",
        ],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    for (player, rating, _, _) in rungs(&ladder) {
        let elo: f64 = out
            .lines()
            .find(|l| l.split(',').nth(1) == Some(player.as_str()))
            .and_then(|l| l.split(',').nth(4)?.parse().ok())
            .unwrap_or_else(|| panic!("{player}: {out}"));
        assert!((elo - rating).abs() <= 0.051, "{player}: {elo} vs {rating}");
    }
    let o = eloworld(dir.path(), &["ladder", "list"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("elo-world-in-process:") && out.contains("elo-world:"),
        "{out}"
    );
    std::fs::write(
        dir.path().join("bad.toml"),
        text_of.replace("advantage = ", "advantage = ["),
    )
    .expect("write");
    let o = eloworld(dir.path(), &["place", "swarm", "--ladder", "bad.toml"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("bad.toml") && err.contains("line"), "{err}");
    let o = eloworld(
        dir.path(),
        &["place", "swarm", "--ladder", "no-such-ladder"],
    );
    let (_, err) = text(&o);
    assert!(
        !o.status.success() && err.contains("shipped: elo-world"),
        "{err}"
    );
}
