//! Tests of the rating models beyond the seeds' methods (Glicko-2, TrueSkill, WHR, BayesElo,
//! Nash averaging, α-Rank), `rate --predict` and `synth --cycle`: the real binary in a temp dir.

mod common;

use common::{fails, ok};
use serde_json::Value;

fn rows(json: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(json).expect("json");
    doc["tables"][0]["rows"].as_array().expect("rows").clone()
}

fn column(rows: &[Value], player: &str, column: &str) -> f64 {
    rows.iter()
        .find(|r| r["player"] == player)
        .and_then(|r| r[column].as_f64())
        .unwrap_or_else(|| panic!("no {column} for {player} in {rows:?}"))
}

/// Rock–paper–scissors (`synth --cycle 3`): each player beats the next 10 games in 11, so
/// Elo rates the three alike while Nash averaging and α-Rank put about ⅓ on each (the
/// equilibrium of the sampled margins, not of the model's); with five players round the
/// cycle, about ⅕ each.
#[test]
fn nash_averaging_and_alpha_rank_see_the_cycle_elo_cannot() {
    let dir = tempfile::tempdir().expect("tmp");
    for (n, file) in [("3", "c3.pgn"), ("5", "c5.csv")] {
        ok(
            dir.path(),
            &[
                "synth", "--cycle", n, "--games", "6000", "--seed", "2", "--out", file,
            ],
        );
    }
    let mle = rows(&ok(
        dir.path(),
        &[
            "rate", "--pgn", "c3.pgn", "--method", "mle", "--format", "json",
        ],
    ));
    let elos: Vec<f64> = ["p01", "p02", "p03"]
        .iter()
        .map(|p| column(&mle, p, "elo"))
        .collect();
    let spread = elos.iter().fold(0.0f64, |m, e| m.max((e - 1000.0).abs()));
    assert!(spread < 25.0, "Elo sees three equals: {elos:?}");
    let nash = rows(&ok(
        dir.path(),
        &[
            "rate", "--pgn", "c3.pgn", "--method", "nash", "--format", "json",
        ],
    ));
    let alpha = rows(&ok(
        dir.path(),
        &[
            "rate",
            "--pgn",
            "c3.pgn",
            "--method",
            "alpharank",
            "--format",
            "json",
        ],
    ));
    for p in ["p01", "p02", "p03"] {
        assert!(
            (column(&nash, p, "mass") - 1.0 / 3.0).abs() < 0.03,
            "{nash:?}"
        );
        assert!(column(&nash, p, "nash").abs() < 1e-6, "{nash:?}");
        assert!(
            (column(&alpha, p, "mass") - 1.0 / 3.0).abs() < 0.03,
            "{alpha:?}"
        );
    }
    let five = rows(&ok(
        dir.path(),
        &[
            "rate",
            "--csv",
            "c5.csv",
            "--method",
            "alpharank",
            "--format",
            "json",
        ],
    ));
    assert_eq!(five.len(), 5);
    for r in &five {
        let mass = r["mass"].as_f64().unwrap_or(0.0);
        assert!((mass - 0.2).abs() < 0.03, "{five:?}");
    }
    let text = ok(dir.path(), &["rate", "--csv", "c5.csv", "--method", "nash"]);
    assert!(
        !text.contains("-0.0"),
        "a zero margin prints as 0.0: {text}"
    );
    let err = fails(dir.path(), &["synth", "--cycle", "2", "--out", "x.pgn"]);
    assert!(err.contains("--cycle"), "{err}");
    let err = fails(
        dir.path(),
        &["synth", "--cycle", "3", "--players", "4", "--out", "x.pgn"],
    );
    assert!(err.contains("--players"), "{err}");
}

/// Every new method rates the same games read from PGN and from CSV alike, shows its value
/// with an interval where the model has one, and joins the side-by-side table.
#[test]
fn every_model_rates_pgn_and_csv_alike_and_joins_the_side_by_side_table() {
    let dir = tempfile::tempdir().expect("tmp");
    for file in ["s.pgn", "s.csv"] {
        ok(
            dir.path(),
            &[
                "synth",
                "--players",
                "5",
                "--games",
                "2000",
                "--draw-nu",
                "1",
                "--seed",
                "7",
                "--out",
                file,
            ],
        );
    }
    for (method, value, interval) in [
        ("glicko2", "elo", true),
        ("trueskill", "mu", true),
        ("whr", "elo", true),
        ("bayeselo", "elo", true),
        ("nash", "nash", false),
        ("alpharank", "mass", false),
    ] {
        let pgn = ok(
            dir.path(),
            &[
                "rate", "--pgn", "s.pgn", "--method", method, "--format", "csv",
            ],
        );
        let csv = ok(
            dir.path(),
            &[
                "rate", "--csv", "s.csv", "--method", method, "--format", "csv",
            ],
        );
        assert_eq!(pgn, csv, "{method}");
        let header = pgn.lines().next().unwrap_or("");
        assert!(header.contains(value), "{method}: {header}");
        assert_eq!(
            header.contains("low95,high95"),
            interval,
            "{method}: {header}"
        );
        assert_eq!(pgn.lines().count(), 6, "{method}: {pgn}");
    }
    let all = ok(dir.path(), &["rate", "--csv", "s.csv", "--format", "csv"]);
    let header = all.lines().next().unwrap_or("");
    for c in [
        "glicko2",
        "g2±95%",
        "trueskill",
        "ts±95%",
        "whr",
        "whr±95%",
        "bayeselo",
        "be±95%",
        "nash",
        "alpharank",
    ] {
        assert!(header.split(',').any(|h| h == c), "{c}: {header}");
    }
    // The strongest by maximum likelihood is first by Glicko-2, WHR and BayesElo too.
    let top = |method: &str| {
        let out = ok(
            dir.path(),
            &[
                "rate", "--csv", "s.csv", "--method", method, "--format", "csv",
            ],
        );
        out.lines()
            .nth(1)
            .and_then(|l| l.split(',').nth(1))
            .unwrap_or("")
            .to_owned()
    };
    let best = top("mle");
    for m in ["glicko2", "whr", "bayeselo", "trueskill"] {
        assert_eq!(top(m), best, "{m}");
    }
}

/// A tournament's database is rated by the new methods like any source.
#[test]
fn a_tournament_database_is_rated_by_the_new_methods() {
    let dir = tempfile::tempdir().expect("tmp");
    ok(
        dir.path(),
        &[
            "tournament",
            "--name",
            "r",
            "--players",
            "random_move,first_move",
            "--games-per-pair",
            "3",
            "--db",
            "r.sqlite",
            "--quiet",
        ],
    );
    for method in [
        "glicko2",
        "trueskill",
        "whr",
        "bayeselo",
        "nash",
        "alpharank",
    ] {
        let out = ok(
            dir.path(),
            &[
                "rate", "--db", "r.sqlite", "--method", method, "--format", "csv",
            ],
        );
        assert_eq!(out.lines().count(), 3, "{method}: {out}");
    }
}

/// `--predict K` scores every model with probabilities, best first, and keys JSON by method.
#[test]
fn predict_ranks_the_models_best_first() {
    let dir = tempfile::tempdir().expect("tmp");
    ok(
        dir.path(),
        &[
            "synth",
            "--players",
            "6",
            "--games",
            "6000",
            "--draw-nu",
            "1",
            "--seed",
            "5",
            "--out",
            "s.csv",
        ],
    );
    let out = ok(
        dir.path(),
        &[
            "rate",
            "--csv",
            "s.csv",
            "--predict",
            "4",
            "--format",
            "json",
        ],
    );
    let doc: Value = serde_json::from_str(&out).expect("json");
    let methods = doc.as_object().expect("object keyed by method");
    let names: Vec<&str> = methods.keys().map(String::as_str).collect();
    for m in [
        "mle",
        "uscf",
        "elo-world",
        "rollason",
        "glicko2",
        "trueskill",
        "whr",
        "bayeselo",
    ] {
        assert!(names.contains(&m), "{m}: {names:?}");
    }
    assert!(!names.contains(&"nash") && !names.contains(&"markov"));
    let mut by_rank: Vec<(u64, f64, f64)> = methods
        .values()
        .map(|v| {
            (
                v["rank"].as_u64().unwrap_or(0),
                v["log_loss"].as_f64().unwrap_or(f64::NAN),
                v["brier"].as_f64().unwrap_or(f64::NAN),
            )
        })
        .collect();
    by_rank.sort_by_key(|r| r.0);
    assert!(by_rank.windows(2).all(|w| w[0].1 <= w[1].1), "{by_rank:?}");
    for (_, log_loss, brier) in &by_rank {
        assert!(*log_loss < 3f64.ln() && *brier < 2.0 / 3.0, "{by_rank:?}");
    }
    let table = ok(dir.path(), &["rate", "--csv", "s.csv", "--predict", "4"]);
    assert!(table.starts_with("rank  method"), "{table}");
    let err = fails(dir.path(), &["rate", "--csv", "s.csv", "--predict", "1"]);
    assert!(err.contains("--predict"), "{err}");
    let err = fails(
        dir.path(),
        &[
            "rate",
            "--csv",
            "s.csv",
            "--predict",
            "3",
            "--method",
            "mle",
        ],
    );
    assert!(err.contains("--method"), "{err}");
    let err = fails(dir.path(), &["rate", "--csv", "s.csv", "--predict", "7000"]);
    assert!(err.contains("7000 folds need at least 7000 games"), "{err}");
}
