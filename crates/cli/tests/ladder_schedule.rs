//! Tests of the adaptive ladder schedule (`schedule = "ladder"`): it stores every game, batch
//! by batch, a killed run resumes to exactly the games an unbroken run plays, workers play
//! the batches `--plan-only` stores to the same games, and the ladder
//! built from it ships its covariance and the rungs' intervals against their neighbours.

use std::process::Stdio;
use std::time::Duration;

mod common;
use common::{command, count, fails, ok, ok_with_notes, rows, signal, wait_until, write};

const FIELD: &str = "name = \"steps\"
players = [\"random_move\", \"pacifist\", \"swarm\", \"cccp\", \"min_oppt_moves\", \"generous\"]
schedule = \"ladder\"
games = 120
precision = 1
batch = 24
seed = 5
max_plies = 300
db = \"steps.sqlite\"
";

/// Every stored game as (White, Black, result), sorted.
fn games(db: &std::path::Path) -> Vec<(String, String, String)> {
    let mut all = rows(
        db,
        "SELECT pw.spec, pb.spec, g.result FROM games g JOIN jobs j ON g.job_id = j.id \
         JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
         JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    );
    all.sort();
    all
}

#[test]
fn a_ladder_schedule_plays_its_budget_in_batches_and_resumes_after_a_kill() {
    let whole = tempfile::tempdir().expect("tmp");
    write(whole.path(), "steps.toml", FIELD);
    let out = ok_with_notes(whole.path(), &["tournament", "steps.toml", "--quiet"]);
    assert!(out.contains("5 batches, 120 games of at most 120"), "{out}");
    assert!(out.contains("budget was spent"), "{out}");
    let db = whole.path().join("steps.sqlite");
    assert_eq!(count(&db, "SELECT COUNT(*) FROM games"), 120);
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM tournaments WHERE name LIKE 'steps/batch-%'"
        ),
        5
    );
    // Both colours of every chosen pair.
    let all = games(&db);
    for (w, b, _) in &all {
        let there = all.iter().filter(|g| (&g.0, &g.1) == (w, b)).count();
        let back = all.iter().filter(|g| (&g.0, &g.1) == (b, w)).count();
        assert_eq!(there, back, "{w} vs {b}");
    }

    // Killed in the middle, then run again: the same games as the unbroken run. A budget of
    // 600 games (25 batches), so that the kill, which follows the second batch by up to a
    // poll, lands while batches remain: the whole 120-game run takes about 0.15 s.
    let long_field = FIELD.replace("games = 120", "games = 600");
    let unbroken = tempfile::tempdir().expect("tmp");
    write(unbroken.path(), "steps.toml", &long_field);
    ok(unbroken.path(), &["tournament", "steps.toml", "--quiet"]);
    let all_long = games(&unbroken.path().join("steps.sqlite"));
    assert_eq!(all_long.len(), 600);
    let broken = tempfile::tempdir().expect("tmp");
    write(broken.path(), "steps.toml", &long_field);
    let mut child = command()
        .args(["tournament", "steps.toml", "--quiet", "--threads", "1"])
        .current_dir(broken.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let db2 = broken.path().join("steps.sqlite");
    wait_until("the second batch", Duration::from_secs(120), || {
        db2.exists()
            && rusqlite::Connection::open(&db2)
                .and_then(|c| {
                    c.query_row(
                        "SELECT COUNT(*) FROM tournaments WHERE name = 'steps/batch-0002'",
                        [],
                        |r| r.get::<_, i64>(0),
                    )
                })
                .is_ok_and(|n| n == 1)
    });
    signal(&child, "-KILL");
    let _ = child.wait();
    let before = count(&db2, "SELECT COUNT(*) FROM games");
    assert!(before < 600, "killed after {before} games");
    ok(broken.path(), &["tournament", "steps.toml", "--quiet"]);
    assert_eq!(
        games(&db2),
        all_long,
        "the resumed run plays the unbroken run's games"
    );

    // Stored batch by batch for workers (`--plan-only`, then `eloworld worker`): the same
    // games again.
    let shared = tempfile::tempdir().expect("tmp");
    write(shared.path(), "steps.toml", FIELD);
    for batch in 1..=5 {
        let out = ok(shared.path(), &["tournament", "steps.toml", "--plan-only"]);
        assert!(out.contains(&format!("steps/batch-{batch:04}")), "{out}");
        ok(
            shared.path(),
            &["worker", "--db", "steps.sqlite", "--quiet"],
        );
    }
    let out = ok_with_notes(shared.path(), &["tournament", "steps.toml", "--quiet"]);
    assert!(
        out.contains("5 batches, 120 games") && out.contains("(0 this run)"),
        "{out}"
    );
    assert_eq!(games(&shared.path().join("steps.sqlite")), all);

    // The ladder built from it: its covariance, and every rung's interval against its
    // neighbours.
    ok(
        whole.path(),
        &[
            "ladder",
            "build",
            "--db",
            "steps.sqlite",
            "--out",
            "steps-ladder.toml",
        ],
    );
    let text = std::fs::read_to_string(whole.path().join("steps-ladder.toml")).expect("ladder");
    let doc: toml::Table = text.parse().expect("toml");
    let rungs = doc["rungs"].as_array().expect("rungs");
    assert_eq!(rungs.len(), 6);
    let covariance = doc["covariance"].as_array().expect("covariance");
    assert_eq!(covariance.len(), 6);
    for (k, r) in rungs.iter().enumerate() {
        let f = |key: &str| r[key].as_float().expect(key);
        let own = covariance[k].as_array().expect("row")[k]
            .as_float()
            .expect("cell");
        // The rung's own interval is ±1.96√C_kk.
        let half = 0.5 * (f("high") - f("low"));
        assert!((half - 1.959_964 * own.sqrt()).abs() < 0.2, "{half} {own}");
        assert_eq!(r.get("vs_below").is_some(), k > 0, "{r}");
        assert_eq!(r.get("vs_above").is_some(), k < 5, "{r}");
    }
}

#[test]
fn a_ladder_schedule_without_a_budget_or_a_precision_elsewhere_is_refused() {
    let dir = tempfile::tempdir().expect("tmp");
    write(
        dir.path(),
        "nobudget.toml",
        &FIELD.replace("games = 120\n", ""),
    );
    let err = fails(dir.path(), &["tournament", "nobudget.toml"]);
    assert!(err.contains("needs games = N, its game budget"), "{err}");
    write(
        dir.path(),
        "pairs.toml",
        &FIELD
            .replace("schedule = \"ladder\"\n", "")
            .replace("games = 120\n", ""),
    );
    let err = fails(dir.path(), &["tournament", "pairs.toml"]);
    assert!(
        err.contains("only read with schedule = \"ladder\""),
        "{err}"
    );
    assert!(!dir.path().join("steps.sqlite").exists(), "nothing stored");
}

/// Each job of a batch as (White, Black), in key order.
fn batch_pairs(db: &std::path::Path, batch: &str) -> Vec<(i64, i64)> {
    rows(
        db,
        "SELECT j.white, j.black FROM jobs j JOIN tournaments t ON t.id = j.tournament_id \
         WHERE t.name = ?1 ORDER BY j.key",
        [batch],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

#[test]
fn a_begun_batch_is_resumed_as_stored_even_when_earlier_games_were_repaired() {
    // Batch 2 stored and not played, then batch 1's results changed under it (as when a
    // forfeit is deleted and its game replayed): the run resumes batch 2 with its stored
    // pairs instead of choosing it again from the changed games.
    let dir = tempfile::tempdir().expect("tmp");
    write(dir.path(), "steps.toml", FIELD);
    ok(dir.path(), &["tournament", "steps.toml", "--plan-only"]);
    ok(dir.path(), &["worker", "--db", "steps.sqlite", "--quiet"]);
    let out = ok(dir.path(), &["tournament", "steps.toml", "--plan-only"]);
    assert!(out.contains("steps/batch-0002"), "{out}");
    let db = dir.path().join("steps.sqlite");
    let stored = batch_pairs(&db, "steps/batch-0002");
    assert_eq!(stored.len(), 24);
    let c = rusqlite::Connection::open(&db).expect("open db");
    let flipped = c
        .execute(
            "UPDATE games SET result = CASE result WHEN '1-0' THEN '0-1' \
             WHEN '0-1' THEN '1-0' ELSE '1-0' END",
            [],
        )
        .expect("flip batch 1");
    assert_eq!(flipped, 24);
    drop(c);
    // The same command again stores nothing new: batch 2 is still the one to play.
    let out = ok(dir.path(), &["tournament", "steps.toml", "--plan-only"]);
    assert!(out.contains("steps/batch-0002"), "{out}");
    let out = ok_with_notes(dir.path(), &["tournament", "steps.toml", "--quiet"]);
    assert!(out.contains("5 batches, 120 games of at most 120"), "{out}");
    assert_eq!(batch_pairs(&db, "steps/batch-0002"), stored);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM games"), 120);
}
