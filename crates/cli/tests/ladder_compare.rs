//! `eloworld ladder compare`: the shipped Elo World ladders next to the paper's table (Murphy's
//! Elo World, SIGBOVIK 2019, section 4) with Spearman's rank correlation.

mod common;

use common::{eloworld, stdout_of, text};

/// The expected ρ were computed apart from eloworld, in plain Python from the CSV rows
/// (tie-averaged ranks, Pearson's correlation of the ranks): 0.8580126 over the 24 in-process
/// players and 0.9572449 over the 49 players of the whole field that the paper also rated (the
/// blind players matched to our `blind_…:nodes=10000` rungs; the ladder rebuilt by the
/// adaptive schedule on distinct games: 6,742 games, the fixed pairs from openings).
#[test]
fn the_shipped_ladders_rank_like_the_papers_table() {
    let dir = tempfile::tempdir().unwrap();
    for (ladder, players, rho) in [
        ("elo-world-in-process", 24, "0.858"),
        ("elo-world", 49, "0.957"),
    ] {
        let o = eloworld(
            dir.path(),
            &["ladder", "compare", ladder, "--format", "csv"],
        );
        let csv = stdout_of(&o);
        let (_, err) = text(&o);
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(rows.len(), players, "{ladder}: {csv}");
        assert!(
            err.contains(&format!("over {players} players: {rho}")),
            "{ladder}: {err}"
        );
        // The anchor reads 0 on both scales; the paper's cccp (printed ссср) is ours.
        let random = rows.iter().find(|r| r.starts_with("random_move,")).unwrap();
        assert!(random.ends_with(",0.0,0.0"), "{random}");
        assert!(rows.iter().any(|r| r.starts_with("cccp,ссср,")), "{csv}");
    }
    // The blind players' rungs carry their scaled node budget; the paper's names find them.
    let o = eloworld(
        dir.path(),
        &["ladder", "compare", "elo-world", "--format", "csv"],
    );
    let csv = stdout_of(&o);
    assert!(
        csv.lines()
            .any(|r| r.starts_with("blind_kings:nodes=10000,blind_kings,")),
        "{csv}"
    );
    let o = eloworld(dir.path(), &["ladder", "compare", "elo-world"]);
    let out = stdout_of(&o);
    assert!(
        out.contains(
            "not in this ladder: chessmaster.nes_lv1, chessmaster.nes_lv2, topple10k, topple1m"
        ),
        "{out}"
    );
}

#[test]
fn a_bad_reference_table_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("t.csv"),
        "player,elo\nrandom_move,439\nswarm,lots\n",
    )
    .unwrap();
    let o = eloworld(
        dir.path(),
        &["ladder", "compare", "elo-world", "--reference", "t.csv"],
    );
    let (_, err) = text(&o);
    assert!(!o.status.success());
    assert!(err.contains("t.csv:3: \"lots\" is not a rating"), "{err}");
}
