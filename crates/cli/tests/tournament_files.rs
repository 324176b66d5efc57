//! The tournament files shipped in `tournaments/`: each one plans (every player spec resolves,
//! engines included, as `scripts/test` installs them), the Elo World field holds every player
//! of Murphy's Elo World that runs here (the blind players too), and a misspelt player stops a
//! plan before anything is stored.

use std::path::Path;

mod common;
use common::{count, eloworld, files_in, repo, text};

/// Plans `file` (a path relative to the repository) into `db` with `--plan-only`; returns the
/// run's output.
fn plan(file: &Path, db: &Path) -> std::process::Output {
    eloworld(
        &repo(),
        &[
            "tournament",
            &file.to_string_lossy(),
            "--plan-only",
            "--db",
            &db.to_string_lossy(),
        ],
    )
}

#[test]
fn every_shipped_tournament_file_plans_with_all_its_players() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = files_in(&repo().join("tournaments"), "toml");
    assert!(files.len() >= 5, "shipped tournament files: {files:?}");
    let crafty = common::crafty_installed();
    for (i, file) in files.iter().enumerate() {
        let body = std::fs::read_to_string(file).expect("read");
        if !crafty && body.contains("\"crafty:") {
            eprintln!(
                "{}: skipped, Crafty is not installed (scripts/crafty builds it)",
                file.display()
            );
            continue;
        }
        let db = dir.path().join(format!("plan{i}.sqlite"));
        let o = plan(file, &db);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{}: {out}\n{err}", file.display());
        assert!(
            !err.contains("cannot run"),
            "{}: a player cannot run here: {err}",
            file.display()
        );
        let doc: toml::Table = body.parse().expect("toml");
        let listed = doc["players"].as_array().expect("players").len() as i64;
        assert_eq!(
            count(&db, "SELECT COUNT(*) FROM players"),
            listed,
            "{}",
            file.display()
        );
    }
}

#[test]
fn the_elo_world_field_has_the_papers_players_including_the_blind_ones() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("elo-world.sqlite");
    let o = plan(Path::new("tournaments/elo-world.toml"), &db);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let c = rusqlite::Connection::open(&db).expect("open");
    let mut st = c.prepare("SELECT spec FROM players").expect("prepare");
    let specs: Vec<String> = st
        .query_map([], |r| r.get(0))
        .expect("query")
        .map(|r| r.expect("row"))
        .collect();
    // Section 2 of the paper: 18 simple, 6 fate, 5 skill levels + full strength + worstfish,
    // 15 dilutions, 3 blind players, and 3 engines standing for Chessmaster and Topple.
    assert_eq!(specs.len(), 52, "{specs:?}");
    for name in [
        "random_move",
        "min_oppt_moves",
        "fatalist",
        "worstfish",
        "stockfish10k_r64512",
        "blind_yolo",
        "blind_kings",
        "blind_spycheck",
    ] {
        assert!(
            specs.iter().any(|s| s.split(':').next() == Some(name)),
            "{name} missing from {specs:?}"
        );
    }
}

#[test]
fn a_misspelt_player_stops_a_plan_before_anything_is_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("typo.toml");
    std::fs::write(
        &file,
        "name = \"typo\"\ngame = \"chess\"\nplayers = [\"random_move\", \"worstfishh\"]\n",
    )
    .expect("write");
    let db = dir.path().join("typo.sqlite");
    let o = plan(&file, &db);
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("worstfishh") && err.contains("worstfish,"),
        "{err}"
    );
    assert!(!db.exists(), "a plan with a bad player was stored");
}
