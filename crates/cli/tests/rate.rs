//! Tests of `eloworld rate`, `synth` and `match-stats`: they run the real binary in a temp dir.

mod common;

use common::{eloworld, fails, ok};
use std::process::Stdio;

#[test]
fn match_stats_reproduces_seed_003() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = ok(dir.path(), &["match-stats", "--points", "181.5", "118.5"]);
    assert!(
        out.contains("(60.5%)") && out.contains("Elo difference +74.1"),
        "{out}"
    );
    let out = ok(dir.path(), &["match-stats", "150", "63", "87"]);
    assert!(
        out.contains("181.5 - 118.5 (60.5%)") && out.contains("+74.1 (95% interval"),
        "{out}"
    );
    let out = ok(
        dir.path(),
        &["match-stats", "--pentanomial", "0", "0", "10", "0", "10"],
    );
    assert!(out.contains("(75.0%)"), "{out}");
    assert!(fails(dir.path(), &["match-stats", "0", "0", "0"]).contains("no games"));
}

#[test]
fn synth_then_rate_recovers_the_strengths() {
    let dir = tempfile::tempdir().expect("tmp");
    ok(
        dir.path(),
        &[
            "synth",
            "--players",
            "8",
            "--games",
            "28000",
            "--spread",
            "200",
            "--seed",
            "3",
            "--out",
            "s.pgn",
        ],
    );
    ok(
        dir.path(),
        &[
            "synth",
            "--players",
            "8",
            "--games",
            "28000",
            "--spread",
            "200",
            "--seed",
            "3",
            "--out",
            "s.csv",
        ],
    );
    let pgn = ok(
        dir.path(),
        &[
            "rate", "--pgn", "s.pgn", "--method", "mle", "--format", "csv",
        ],
    );
    let csv = ok(
        dir.path(),
        &[
            "rate", "--csv", "s.csv", "--method", "mle", "--format", "csv",
        ],
    );
    assert_eq!(
        pgn, csv,
        "the same games read from PGN and CSV rate the same"
    );
    let out = ok(
        dir.path(),
        &["rate", "--pgn", "s.pgn", "--truth", "s.truth.csv"],
    );
    for column in ["mle", "uscf", "elo-world", "rollason", "p(champion)"] {
        assert!(out.contains(column), "{column}: {out}");
    }
    // 1000 games per player: the maximum-likelihood error is about 11 Elo per player.
    let rms: f64 = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("mle ")
                .map(|r| r.split_whitespace().last().unwrap_or("").to_owned())
        })
        .and_then(|x| x.parse().ok())
        .expect("an mle line in the truth table");
    assert!(rms < 20.0, "{out}");
}

#[test]
fn json_and_anchor() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("g.csv"),
        "white,black,result\na,b,1-0\nb,a,1/2-1/2\na,c,1-0\nc,b,0-1\nb,c,1/2-1/2\nc,a,1-0\n",
    )
    .expect("write");
    let out = ok(
        dir.path(),
        &[
            "rate", "--csv", "g.csv", "--method", "mle", "--format", "json", "--anchor", "B=2000",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let rows = doc["tables"][0]["rows"].as_array().expect("rows");
    let b = rows.iter().find(|r| r["player"] == "b").expect("b");
    assert_eq!(b["elo"], 2000.0, "names match without case: B is b");
    assert_eq!(b["error"], 0.0);
    let err = fails(dir.path(), &["rate", "--csv", "g.csv", "--anchor", "zed=1"]);
    assert!(err.contains("zed"), "{err}");
}

#[test]
fn by_year_and_rollason_page_layout() {
    let dir = tempfile::tempdir().expect("tmp");
    let game = |w: &str, b: &str, r: &str, d: &str| {
        format!("[Event \"e\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n[Date \"{d}\"]\n\n1. e4 {{a comment}} e5 {r}\n\n")
    };
    let pgn = [
        game("Go4++", "Handtalk", "1-0", "1999.01.02"),
        game("Handtalk", "Many Faces", "1-0", "1999.03.02"),
        game("Handtalk", "go4++", "1-0", "2000.01.02"),
        game("Many Faces", "Go4++", "1/2-1/2", "2000.06.01"),
    ]
    .concat();
    std::fs::write(dir.path().join("go.pgn"), pgn).expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "rate",
            "--pgn",
            "go.pgn",
            "--method",
            "rollason",
            "--by-year",
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"go4++\" is taken as \"Go4++\""));
    let all = out.find("== all games ==").expect("combined");
    let y2000 = out.find("== 2000 ==").expect("2000");
    let y1999 = out.find("== 1999 ==").expect("1999");
    assert!(all < y2000 && y2000 < y1999, "{out}");
    // 1999: Go4++ beat Handtalk, who beat Many Faces: the chain of the hand computation.
    let section = &out[y1999..];
    assert!(
        section.contains(
            "  1. Go4++            3500  (    1.0 pts) *************************************"
        ),
        "{section}"
    );
    assert!(
        section.contains("  3. Many Faces       1500  (    0.0 pts) *\n"),
        "{section}"
    );
}

#[test]
fn consistency_family_and_errors() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut csv = String::from("player1,player2,score1\n");
    // The Squava article's tournament scaled down from 800 to 20 games per pair.
    for (p, q, wins) in [
        ("ab", "better", 307),
        ("ab", "mcts", 651),
        ("better", "mcts", 676),
    ] {
        for k in 0..20 {
            csv.push_str(&format!("{p},{q},{}\n", u8::from(k < wins * 20 / 800)));
        }
    }
    std::fs::write(dir.path().join("t.csv"), &csv).expect("write");
    let out = ok(
        dir.path(),
        &["rate", "--csv", "t.csv", "--method", "mle", "--consistency"],
    );
    assert!(
        out.contains("R_P/Q") && out.contains("10^(D/400)") && out.contains("log-loss"),
        "{out}"
    );
    std::fs::write(
        dir.path().join("f.csv"),
        "white,black,result\nsf,sf_r32768,1-0\nsf_r32768,sf,0-1\nsf_r32768,blind,1-0\nblind,sf_r32768,1/2-1/2\nsf_r60000,blind,0-1\nblind,sf_r60000,1/2-1/2\nsf,sf_r60000,1-0\n",
    )
    .expect("write");
    let out = ok(dir.path(), &["rate", "--csv", "f.csv", "--family", "sf"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("blind "))
        .expect("blind placed");
    assert!(
        line.contains("sf_r60000") && line.contains("sf_r32768"),
        "{out}"
    );
    std::fs::write(
        dir.path().join("bad.csv"),
        "white,black,result\na,b,1-0\na,b,2-0\n",
    )
    .expect("write");
    let err = fails(dir.path(), &["rate", "--csv", "bad.csv"]);
    assert!(
        err.contains("line 3") && err.contains("2-0") && err.contains("bad.csv"),
        "{err}"
    );
    let err = fails(dir.path(), &["rate", "--pgn", "missing.pgn"]);
    assert!(err.contains("missing.pgn"), "{err}");
}

#[test]
fn a_tournament_ends_with_the_ratings_and_rate_reads_its_database() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = ok(
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
    assert!(
        out.contains("mle") && out.contains("elo-world") && out.contains("p(champion)"),
        "{out}"
    );
    let out = ok(
        dir.path(),
        &[
            "rate", "--db", "r.sqlite", "--method", "uscf", "--format", "csv",
        ],
    );
    assert!(out.starts_with("rank,player,games,score%,elo\n"), "{out}");
    assert_eq!(out.lines().count(), 3, "{out}");
    let err = fails(
        dir.path(),
        &["rate", "--db", "r.sqlite", "--tournament", "nope"],
    );
    assert!(err.contains("nope"), "{err}");
}

/// The field of `crates/ratings/tests/fixtures/unbounded_field.py` as CSV (colours unknown):
/// S beats everyone, Z loses to everyone.
fn unbounded_field_csv() -> String {
    let mut csv = String::from("player1,player2,score1\n");
    for (a, b, s, times) in [
        ("S", "a", "1", 2),
        ("S", "b", "1", 2),
        ("S", "c", "1", 1),
        ("S", "Z", "1", 1),
        ("a", "b", "1", 2),
        ("a", "b", "0", 1),
        ("a", "b", "0.5", 1),
        ("b", "c", "1", 1),
        ("b", "c", "0", 2),
        ("a", "c", "1", 1),
        ("a", "c", "0.5", 2),
        ("a", "c", "0", 1),
        ("a", "Z", "1", 2),
        ("b", "Z", "1", 1),
        ("c", "Z", "1", 1),
    ] {
        for _ in 0..times {
            csv.push_str(&format!("{a},{b},{s}\n"));
        }
    }
    csv
}

#[test]
fn csv_and_json_carry_the_flag_in_its_own_column_and_notes_go_to_stderr() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("f.csv"), unbounded_field_csv()).expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "rate", "--csv", "f.csv", "--method", "mle", "--format", "csv",
        ],
    );
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("rank,player,games,score%,elo,error,low95,high95,flag")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5, "{out}");
    assert!(rows.iter().all(|r| r.len() == 9), "{out}");
    // Ranked by rating: S first at its bound (fixtures/unbounded_field.py: 1385.33), Z last.
    assert_eq!((rows[0][1], rows[0][8]), ("S", "unbounded-above"));
    assert!(rows[0][4].starts_with("1385.32"), "{out}");
    assert_eq!((rows[4][1], rows[4][8]), ("Z", "unbounded-below"));
    assert!(rows[1..4].iter().all(|r| r[8].is_empty()), "{out}");
    assert!(!out.contains('*'));
    assert!(err.contains("no finite maximum for S"), "{err}");
    let out = ok(dir.path(), &["rate", "--csv", "f.csv", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json alone on stdout");
    let rows = doc["tables"][0]["rows"].as_array().expect("rows");
    assert_eq!(rows[0]["player"], "S");
    assert_eq!(rows[0]["flag"], "unbounded-above");
    assert_eq!(rows[2]["flag"], "");
}

#[test]
fn a_source_without_games_is_an_error_naming_it() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("empty.pgn"), "").expect("write");
    std::fs::write(
        dir.path().join("blob.pgn"),
        [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0],
    )
    .expect("write");
    std::fs::write(dir.path().join("header.csv"), "white,black,result\n").expect("write");
    for (args, what) in [
        (
            ["rate", "--pgn", "empty.pgn"],
            "empty.pgn: no games to rate: the source is empty",
        ),
        (
            ["rate", "--pgn", "blob.pgn"],
            "blob.pgn: no games to rate: 9 bytes of binary data, not PGN text",
        ),
        (
            ["rate", "--csv", "header.csv"],
            "header.csv: no games to rate: a header line and no game lines",
        ),
    ] {
        let err = fails(dir.path(), &args);
        assert_eq!(err, format!("error: {what}\n"));
    }
}

#[test]
fn a_name_of_seventy_thousand_characters_gives_a_correct_table() {
    let dir = tempfile::tempdir().expect("tmp");
    let long = "n".repeat(70_000);
    let pgn = format!(
        "[White \"{long}\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1-0\n\n[White \"b\"]\n[Black \"{long}\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n"
    );
    std::fs::write(dir.path().join("long.pgn"), pgn).expect("write");
    let out = ok(dir.path(), &["rate", "--pgn", "long.pgn"]);
    let shown = format!("{}…", "n".repeat(59));
    assert!(
        out.contains(&shown) && !out.contains(&"n".repeat(61)),
        "{}",
        out.len()
    );
    let out = ok(
        dir.path(),
        &["rate", "--pgn", "long.pgn", "--format", "csv"],
    );
    assert!(out.contains(&long), "the data keeps the whole name");
}

#[test]
fn notes_name_a_long_named_player_shortened_and_the_data_keeps_the_name() {
    // The long-named player is unbeaten and never met `c`, so mle, Rollason and p(Champion)
    // each write a note naming it, Elo World's error names its empty cell, and its other
    // spelling is merged with a note: every note shows the name cut to 60 characters.
    let dir = tempfile::tempdir().expect("tmp");
    let long = "n".repeat(70_000);
    let upper = long.to_uppercase();
    let mut pgn = String::new();
    for (w, b, r) in [
        (long.as_str(), "a", "1-0"),
        (upper.as_str(), "a", "1-0"),
        ("a", long.as_str(), "0-1"),
        (long.as_str(), "b", "1-0"),
        ("a", "b", "1-0"),
        ("b", "c", "1-0"),
        ("c", "a", "1/2-1/2"),
        ("a", "c", "0-1"),
    ] {
        pgn.push_str(&format!(
            "[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n{r}\n\n"
        ));
    }
    std::fs::write(dir.path().join("long.pgn"), pgn).expect("write");
    let o = eloworld(
        dir.path(),
        &[
            "rate", "--pgn", "long.pgn", "--method", "all", "--format", "csv",
        ],
    );
    let (out, err) = common::text(&o);
    assert!(o.status.success(), "{err}");
    let shown = format!("{}…", "n".repeat(59));
    for method in [
        "mle: no finite maximum for",
        "rollason: the field collapsed",
        "markov:",
        "elo-world: not computed: cell",
    ] {
        let note = err
            .lines()
            .find(|l| l.starts_with(method))
            .unwrap_or_else(|| panic!("no note {method}: {} bytes", err.len()));
        assert!(note.contains(&shown), "{method}: {} bytes", note.len());
    }
    let merged = format!("note: \"{}…\" is taken as \"{shown}\"", "N".repeat(59));
    assert!(err.contains(&merged), "the other spelling's note");
    assert!(
        !err.contains(&"n".repeat(61)) && !err.contains(&"N".repeat(61)),
        "{} bytes of notes",
        err.len()
    );
    assert!(out.contains(&long), "the data keeps the whole name");
}

#[test]
fn stored_names_of_seventy_thousand_characters_give_correct_tables() {
    // A stored player and a tournament renamed to 70,000 characters: `results` (standings and
    // pair tables), `status` and `rate --db` shorten them for display, aligned, and the data
    // (CSV) keeps them whole.
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
            "2",
            "--db",
            "r.sqlite",
            "--quiet",
        ],
    );
    let long = "n".repeat(70_000);
    let conn = rusqlite::Connection::open(dir.path().join("r.sqlite")).expect("open");
    conn.execute(
        "UPDATE players SET spec = ?1 WHERE spec = 'first_move'",
        [&long],
    )
    .expect("rename player");
    conn.execute("UPDATE tournaments SET name = ?1", [&long])
        .expect("rename tournament");
    drop(conn);
    let shown = format!("{}…", "n".repeat(59));
    let padded = |name: &str| format!("{name:<60}");
    for args in [
        &["results", "--db", "r.sqlite"][..],
        &["status", "--db", "r.sqlite"][..],
        &["rate", "--db", "r.sqlite", "--method", "uscf"][..],
    ] {
        let out = ok(dir.path(), args);
        assert!(
            out.contains(&shown) && !out.contains(&"n".repeat(61)),
            "{args:?}: {} bytes",
            out.len()
        );
        // Every line naming a player has the short name padded to the long one's width.
        if args[0] == "results" {
            let row = out
                .lines()
                .find(|l| l.starts_with("   ") && l.contains("random_move"))
                .unwrap_or_default();
            assert!(row.contains(&padded("random_move")), "{out}");
            let header = out
                .lines()
                .find(|l| l.starts_with("rank"))
                .unwrap_or_default();
            assert!(
                header.starts_with(&format!("rank  {}", padded("player"))),
                "{out}"
            );
            let pair = out
                .lines()
                .find(|l| l.starts_with("random_move"))
                .unwrap_or_default();
            assert!(
                pair.starts_with(&format!("{}  {shown}", padded("random_move"))),
                "{out}"
            );
        }
    }
    let csv = ok(
        dir.path(),
        &[
            "rate", "--db", "r.sqlite", "--method", "uscf", "--format", "csv",
        ],
    );
    assert!(csv.contains(&long), "the data keeps the whole name");
}

#[test]
fn each_group_shows_its_own_first_move_advantage() {
    // Two groups that never met: x, y, z draw every game (A = 0); between u and v White wins 3
    // of 4 both ways (A = 400·log10(3) = 190.8, 170.1 with the fit's weak prior on 8 games;
    // the value is computed independently in crates/ratings/tests/edges.rs).
    let dir = tempfile::tempdir().expect("tmp");
    let mut csv = String::from("white,black,result\n");
    for (a, b) in [("x", "y"), ("y", "z"), ("z", "x")] {
        csv.push_str(&format!("{a},{b},1/2-1/2\n{b},{a},1/2-1/2\n"));
    }
    for (w, b) in [("u", "v"), ("v", "u")] {
        csv.push_str(&format!(
            "{w},{b},1-0\n{w},{b},1-0\n{w},{b},1-0\n{w},{b},0-1\n"
        ));
    }
    std::fs::write(dir.path().join("groups.csv"), csv).expect("write");
    let out = ok(
        dir.path(),
        &["rate", "--csv", "groups.csv", "--method", "mle"],
    );
    let note = |group: usize| {
        out.lines()
            .find(|l| l.starts_with(&format!("mle: first-move advantage in group {group}: ")))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(note(1).contains(": +0.0 ± "), "{out}");
    assert!(note(2).contains(": +170.1 ± "), "{out}");
    for p in ["u", "v"] {
        let row = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(p))
            .unwrap_or_default();
        assert!(row.ends_with("separate-group"), "{out}");
    }
}

#[test]
fn newton_that_does_not_settle_reaches_the_user() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("f.csv"), unbounded_field_csv()).expect("write");
    let capped = eloworld(
        dir.path(),
        &[
            "rate",
            "--csv",
            "f.csv",
            "--method",
            "mle",
            "--format",
            "csv",
            "--newton-steps",
            "1",
        ],
    );
    let (stdout, stderr) = common::text(&capped);
    assert!(capped.status.success(), "{stderr}");
    assert!(stdout.starts_with("rank,player,"), "{stdout}");
    assert!(
        stderr.lines().any(|l| l
            .starts_with("mle: not converged: Newton's iterations did not settle within 1 step;")),
        "{stderr}"
    );
    let settled = eloworld(
        dir.path(),
        &[
            "rate", "--csv", "f.csv", "--method", "mle", "--format", "json",
        ],
    );
    let (_, stderr) = common::text(&settled);
    assert!(!stderr.contains("not converged"), "{stderr}");
    let json = ok(
        dir.path(),
        &[
            "rate",
            "--csv",
            "f.csv",
            "--method",
            "mle",
            "--format",
            "json",
            "--newton-steps",
            "1",
        ],
    );
    let doc: serde_json::Value = serde_json::from_str(&json).expect("json");
    let notes = doc["tables"][0]["notes"].as_array().expect("notes");
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .is_some_and(|n| n.starts_with("mle: not converged"))),
        "{json}"
    );
    let err = fails(
        dir.path(),
        &["rate", "--csv", "f.csv", "--newton-steps", "0"],
    );
    assert!(err.contains("--newton-steps"), "{err}");
}

#[test]
fn rollason_bars_do_not_move_with_an_anchor() {
    // An anchor shifts every rating and the offset the bars start from alike: the bars (and
    // the points) stay, the ratings move by the anchor's shift.
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(
        dir.path().join("g.csv"),
        "white,black,result\na,b,1-0\nb,a,1/2-1/2\na,c,1-0\nc,b,0-1\nb,c,1/2-1/2\nc,a,1-0\nb,a,1-0\n",
    )
    .expect("write");
    let rows = |extra: &[&str]| -> Vec<Vec<String>> {
        let mut args = vec![
            "rate", "--csv", "g.csv", "--method", "rollason", "--format", "csv",
        ];
        args.extend_from_slice(extra);
        ok(dir.path(), &args)
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect()
    };
    let plain = rows(&[]);
    let anchored = rows(&["--anchor", "c=3000"]);
    assert_eq!(plain.len(), 3);
    let c = anchored.iter().find(|r| r[1] == "c").expect("c");
    let c_rating: f64 = c[2].parse().expect("rating");
    assert!((c_rating - 3000.0).abs() < 1e-9, "{anchored:?}");
    let plain_c: f64 = plain.iter().find(|r| r[1] == "c").expect("c")[2]
        .parse()
        .expect("rating");
    let shift = 3000.0 - plain_c;
    assert!(shift.abs() > 100.0, "the anchor moves the scale: {shift}");
    for (p, a) in plain.iter().zip(&anchored) {
        assert_eq!(
            (&p[1], &p[3], &p[4]),
            (&a[1], &a[3], &a[4]),
            "player, points and bar"
        );
        let (x, y): (f64, f64) = (p[2].parse().expect("r"), a[2].parse().expect("r"));
        assert!((y - x - shift).abs() < 1e-6, "{p:?} {a:?}");
    }
    assert!(
        plain.iter().any(|r| r[4].len() > 1),
        "bars of different lengths: {plain:?}"
    );
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("f.csv"), unbounded_field_csv()).expect("write");
    for args in [
        &["players", "--game", "chess"][..],
        &["rate", "--csv", "f.csv"][..],
        &["match-stats", "10", "0", "0"][..],
    ] {
        let mut child = common::command()
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        // The reader goes away before the command writes: as `… | head -0`.
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{err}"
        );
    }
}

#[test]
fn match_stats_gives_one_sided_bounds_at_the_edges() {
    let dir = tempfile::tempdir().expect("tmp");
    // 10/10: p ≥ 0.05^(1/10) = 0.7411 → +182.7 Elo; 0/10 mirrored; 10 draws: δ = 0.3085,
    // 0.5 ± δ/2 → ±110.8 Elo (values computed in crates/ratings' tests).
    let out = ok(dir.path(), &["match-stats", "10", "0", "0"]);
    assert!(
        out.contains("unbounded above") && out.contains("one-sided 95% lower bound +182.7"),
        "{out}"
    );
    let out = ok(dir.path(), &["match-stats", "0", "0", "10"]);
    assert!(
        out.contains("unbounded below") && out.contains("one-sided 95% upper bound -182.7"),
        "{out}"
    );
    let out = ok(dir.path(), &["match-stats", "0", "10", "0"]);
    assert!(
        out.contains("Elo difference +0.0 (95% interval -110.8 .. +110.8"),
        "{out}"
    );
    assert!(!out.contains("inf") && !out.contains("-0.0 "), "{out}");
}

#[test]
fn methods_have_one_spelling_with_elo_world_as_an_alias() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("f.csv"), unbounded_field_csv()).expect("write");
    let a = ok(
        dir.path(),
        &["rate", "--csv", "f.csv", "--method", "elo-world"],
    );
    let b = ok(
        dir.path(),
        &["rate", "--csv", "f.csv", "--method", "elo_world"],
    );
    assert_eq!(a, b);
    let o = eloworld(dir.path(), &["rate", "--csv", "f.csv", "--method", "elo"]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!o.status.success());
    assert!(
        err.contains("expected all, mle, uscf, elo-world, rollason, markov"),
        "{err}"
    );
}

/// Runs `eloworld rate --db d.sqlite ARGS --format json` and returns the document and the
/// notes.
fn rate_json(dir: &std::path::Path, args: &[&str]) -> (serde_json::Value, String) {
    let mut all = vec!["rate", "--db", "d.sqlite", "--format", "json"];
    all.extend_from_slice(args);
    let o = eloworld(dir, &all);
    let (out, err) = common::text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    (serde_json::from_str(&out).expect("json"), err)
}

/// Each player's `games` in a rating table of `doc`.
fn games_per_player(doc: &serde_json::Value) -> Vec<(String, f64)> {
    let mut games: Vec<(String, f64)> = doc["tables"][0]["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["player"].as_str().expect("player").to_owned(),
                r["games"].as_f64().expect("games"),
            )
        })
        .collect();
    games.sort_by(|a, b| a.0.cmp(&b.0));
    games
}

#[test]
fn a_store_with_copies_is_rated_on_distinct_games_and_says_which_pairs() {
    // Two deterministic players from the standard start: each colour order plays one game
    // again and again.
    let dir = tempfile::tempdir().expect("tmp");
    ok(
        dir.path(),
        &[
            "tournament",
            "--name",
            "det",
            "--players",
            "first_move,alphabetical",
            "--games-per-pair",
            "3",
            "--db",
            "d.sqlite",
            "--quiet",
        ],
    );
    let (doc, notes) = rate_json(dir.path(), &["--method", "mle", "--white-advantage", "0"]);
    assert_eq!(
        doc["copies"],
        serde_json::json!({"games": 6, "distinct": 2, "pairs": [
            {"white": "alphabetical", "black": "first_move", "games": 3, "distinct": 1},
            {"white": "first_move", "black": "alphabetical", "games": 3, "distinct": 1},
        ]})
    );
    assert!(
        notes.contains("the games hold 4 copies of earlier games (6 games, 2 distinct")
            && notes.contains("the ratings count each once: alphabetical–first_move 3 games, 1 distinct; first_move–alphabetical 3 games, 1 distinct"),
        "{notes}"
    );
    assert_eq!(
        games_per_player(&doc),
        [
            ("alphabetical".to_owned(), 2.0),
            ("first_move".to_owned(), 2.0)
        ]
    );
    // Every game is drawn, so both are rated 1000, with the standard error of n drawn games
    // at half points: each game's Fisher information on the difference D is
    // p(1 − p)·c² = c²/4 (c = ln 10 / 400), and each rating is D/2 from the average, so
    // σ = 1 / (c·√n): 122.8 for the two distinct games, 70.9 for all six.
    let sigma = |n: f64| 400.0 / (std::f64::consts::LN_10 * n.sqrt());
    let errors = |doc: &serde_json::Value| -> Vec<(f64, f64)> {
        doc["tables"][0]["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["elo"].as_f64().expect("elo"),
                    r["error"].as_f64().expect("error"),
                )
            })
            .collect()
    };
    for (elo, error) in errors(&doc) {
        assert!(
            (elo - 1000.0).abs() < 1e-6 && (error - sigma(2.0)).abs() < 0.05,
            "{doc}"
        );
    }
    // The same fit as the two distinct games given as they are.
    let rows = common::rows(
        &dir.path().join("d.sqlite"),
        "SELECT pw.spec, pb.spec, g.result FROM games g JOIN jobs j ON j.id = g.job_id \
         JOIN players pw ON pw.tournament_id = j.tournament_id AND pw.idx = j.white \
         JOIN players pb ON pb.tournament_id = j.tournament_id AND pb.idx = j.black",
        [],
        |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        },
    );
    let mut csv = String::from("white,black,result\n");
    for pair in [
        ("first_move", "alphabetical"),
        ("alphabetical", "first_move"),
    ] {
        let (w, b, r) = rows
            .iter()
            .find(|(w, b, _)| (w.as_str(), b.as_str()) == pair)
            .expect("a game of the pair");
        csv.push_str(&format!("{w},{b},{r}\n"));
    }
    common::write(dir.path(), "distinct.csv", &csv);
    let distinct = ok(
        dir.path(),
        &[
            "rate",
            "--csv",
            "distinct.csv",
            "--case-sensitive",
            "--method",
            "mle",
            "--white-advantage",
            "0",
            "--format",
            "json",
        ],
    );
    let distinct: serde_json::Value = serde_json::from_str(&distinct).expect("json");
    // The players tie: their order (and so their ranks) follows the order in which the
    // games were stored, which the runner's threads do not fix; every figure else is the
    // same.
    let by_player = |doc: &serde_json::Value| {
        let mut tables = doc["tables"].clone();
        for t in tables.as_array_mut().expect("tables") {
            let rows = t["rows"].as_array_mut().expect("rows");
            for r in rows.iter_mut() {
                r.as_object_mut().expect("row").remove("rank");
            }
            rows.sort_by(|a, b| a["player"].as_str().cmp(&b["player"].as_str()));
        }
        tables
    };
    assert_eq!(by_player(&doc), by_player(&distinct));
    // --keep-copies counts every stored game, and says so.
    let (kept, notes) = rate_json(
        dir.path(),
        &["--method", "mle", "--white-advantage", "0", "--keep-copies"],
    );
    assert_eq!(
        games_per_player(&kept),
        [
            ("alphabetical".to_owned(), 6.0),
            ("first_move".to_owned(), 6.0)
        ]
    );
    for (elo, error) in errors(&kept) {
        assert!(
            (elo - 1000.0).abs() < 1e-6 && (error - sigma(6.0)).abs() < 0.05,
            "{kept}"
        );
    }
    assert!(
        notes.contains("the ratings count every copy (--keep-copies)"),
        "{notes}"
    );
    for other in [["--csv", "distinct.csv"], ["--pgn", "none.pgn"]] {
        let err = fails(dir.path(), &["rate", other[0], other[1], "--keep-copies"]);
        assert!(
            err.contains("--keep-copies") && err.contains("--db"),
            "{err}"
        );
    }
}
