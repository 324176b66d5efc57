//! Tests of `eloworld report`: text outputs against golden files, pictures and the HTML page
//! written from real databases, clear errors for bad input, and (ignored by default, run with
//! `--ignored`) the 40-player, 100,000-game timing.
//!
//! Set `UPDATE_GOLDEN=1` to rewrite the golden files after an intended change.

mod common;

use common::{eloworld, golden, stdout_of};

use eloworld_games::{GameKind, GameResult, MoveRecord, Side, Termination};
use eloworld_tournament::{open_store, FinishedGame, Plan, TournamentConfig};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Stores a tournament of `players` with `games_per_pair` games per ordered pair through the
/// store API, each result chosen by `result(white, black, round)`, each game given `moves`.
fn fill(
    db: &Path,
    name: &str,
    players: &[&str],
    games_per_pair: u32,
    result: impl Fn(u32, u32, u32) -> GameResult,
    moves: impl Fn(usize) -> (String, u32),
) {
    let mut config = TournamentConfig::new(
        name,
        GameKind::Chess,
        players.iter().map(|p| (*p).to_owned()).collect(),
    );
    config.games_per_pair = games_per_pair;
    let plan = Plan::new(&config).expect("plan");
    let mut store = open_store(db.to_str().expect("utf-8 path"), true).expect("store");
    let id = store.begin(&plan).expect("begin");
    let mut k = 0;
    loop {
        let jobs = store.claim(id, "test", 20_000, None).expect("claim");
        if jobs.is_empty() {
            break;
        }
        let games: Vec<FinishedGame> = jobs
            .iter()
            .map(|j| {
                let result = result(j.white, j.black, j.round);
                let (moves, plies) = moves(k);
                k += 1;
                FinishedGame {
                    job_id: j.id,
                    tournament: j.tournament,
                    attempt: j.attempt,
                    result,
                    termination: if result == GameResult::Draw {
                        Termination::Stalemate
                    } else {
                        Termination::Checkmate
                    },
                    plies,
                    moves: MoveRecord::from_text(GameKind::Chess, &moves).expect("UCI moves"),
                    detail: None,
                    wall_ms: 1.0,
                    notes: Vec::new(),
                }
            })
            .collect();
        assert_eq!(
            store.complete("test", &games).expect("complete").accepted,
            games.len()
        );
    }
}

/// Four players of known strength (the first strongest); three games per ordered pair. The
/// stronger side wins when two or more levels apart; closer pairs win, draw and lose by round.
fn known_db(dir: &Path) -> PathBuf {
    let db = dir.join("known.sqlite");
    let strength = [3i64, 2, 1, 0];
    fill(
        &db,
        "go",
        &["go4pp", "handtalk", "haruka", "many_faces"],
        3,
        |w, b, round| {
            let diff = strength[w as usize] - strength[b as usize];
            match (diff, round) {
                (d, _) if d >= 2 => GameResult::Win(Side::First),
                (d, _) if d <= -2 => GameResult::Win(Side::Second),
                (_, 1) => GameResult::Draw,
                (d, 0) if d > 0 => GameResult::Win(Side::First),
                (_, 0) => GameResult::Win(Side::Second),
                _ => GameResult::Win(Side::First),
            }
        },
        |_| (String::new(), 0),
    );
    // Spread the games over three years (finish order kept): 12 in each of 1999, 2000, 2001.
    let c = rusqlite::Connection::open(&db).expect("open");
    c.execute(
        "UPDATE games SET finished_ms = CASE WHEN seq <= 12 THEN 928195200000 WHEN seq <= 24 THEN 959817600000 ELSE 991353600000 END + seq",
        [],
    )
    .expect("dates");
    db
}

#[test]
fn asterisk_table_matches_golden_file() {
    let dir = tempfile::tempdir().expect("tmp");
    known_db(dir.path());
    let out = stdout_of(&eloworld(
        dir.path(),
        &["report", "table", "--db", "known.sqlite"],
    ));
    golden("report_table_rollason.txt", &out);
    // The strongest player is first with the full bar; the weakest has one asterisk.
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[4].starts_with("  1. go4pp ") && lines[4].ends_with(&"*".repeat(40)),
        "{out}"
    );
    assert!(
        lines[7].starts_with("  4. many_faces ") && lines[7].ends_with(") *"),
        "{out}"
    );
}

#[test]
fn asterisk_table_by_year_prints_combined_then_each_year_newest_first() {
    let dir = tempfile::tempdir().expect("tmp");
    known_db(dir.path());
    let out = stdout_of(&eloworld(
        dir.path(),
        &[
            "report",
            "table",
            "--db",
            "known.sqlite",
            "--by-year",
            "--method",
            "uscf",
            "--width",
            "20",
        ],
    ));
    golden("report_table_uscf_by_year.txt", &out);
    let titles: Vec<&str> = out
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' '))
        .collect();
    assert_eq!(titles, ["1999-2001 combined", "2001", "2000", "1999"]);
}

#[test]
fn matrix_and_evolution_write_png_and_svg() {
    let dir = tempfile::tempdir().expect("tmp");
    known_db(dir.path());
    for (cmd, out) in [
        ("matrix", "m.png"),
        ("matrix", "m.svg"),
        ("evolution", "e.png"),
        ("evolution", "e.svg"),
    ] {
        stdout_of(&eloworld(
            dir.path(),
            &["report", cmd, "--db", "known.sqlite", "--out", out],
        ));
        let bytes = std::fs::read(dir.path().join(out)).expect("picture written");
        if out.ends_with(".png") {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{out}");
        } else {
            let text = String::from_utf8(bytes).expect("utf-8");
            assert!(
                text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
                "{out}"
            );
            assert!(
                text.contains("go4pp") && text.contains("many_faces"),
                "{out} names the players"
            );
        }
    }
    // Sorted weakest first by a rating: many_faces is the first row, go4pp the last.
    let svg = std::fs::read_to_string(dir.path().join("m.svg")).expect("svg");
    assert!(svg.find("many_faces").expect("name") < svg.find("go4pp").expect("name"));
    assert!(
        svg.contains("weakest first by elo-world rating"),
        "caption names the sort"
    );
}

#[test]
fn evolution_overlays_runs_from_several_databases() {
    let dir = tempfile::tempdir().expect("tmp");
    known_db(dir.path());
    let second = dir.path().join("second.sqlite");
    fill(
        &second,
        "rerun",
        &["go4pp", "handtalk"],
        4,
        |_, _, r| {
            if r % 2 == 0 {
                GameResult::Draw
            } else {
                GameResult::Win(Side::First)
            }
        },
        |_| (String::new(), 0),
    );
    stdout_of(&eloworld(
        dir.path(),
        &[
            "report",
            "evolution",
            "--db",
            "known.sqlite",
            "--db",
            "second.sqlite",
            "--out",
            "e.svg",
        ],
    ));
    let svg = std::fs::read_to_string(dir.path().join("e.svg")).expect("svg");
    assert!(
        svg.contains("known.sqlite: go") && svg.contains("second.sqlite: rerun"),
        "runs in the legend"
    );
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = tempfile::tempdir().expect("tmp");
    known_db(dir.path());
    let err = |args: &[&str]| {
        let o = eloworld(dir.path(), args);
        assert!(!o.status.success(), "{args:?} should fail");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(
        err(&["report", "matrix", "--db", "known.sqlite", "--out", "m.jpg"])
            .contains("m.jpg: give a file ending in .png or .svg")
    );
    assert!(err(&[
        "report",
        "matrix",
        "--db",
        "known.sqlite",
        "--tournament",
        "nope",
        "--out",
        "m.png"
    ])
    .contains("no tournament named \"nope\""));
    assert!(err(&[
        "report",
        "html",
        "--db",
        "missing.sqlite",
        "--out",
        "r.html"
    ])
    .contains("missing.sqlite"));
    assert!(err(&[
        "report",
        "html",
        "--db",
        "known.sqlite",
        "--out",
        "r.html",
        "--pictures",
        "gif"
    ])
    .contains("expected svg or png"));
}

/// A real (tiny) chess tournament reported as HTML: every section is there, the pictures are
/// inlined, nothing is fetched from the network, and sample games carry PGN and a board.
#[test]
fn html_report_of_a_real_tournament_is_self_contained() {
    let dir = tempfile::tempdir().expect("tmp");
    stdout_of(&eloworld(
        dir.path(),
        &[
            "tournament",
            "--name",
            "tiny",
            "--players",
            "random_move,first_move,cccp",
            "--games-per-pair",
            "2",
            "--db",
            "t.sqlite",
            "--quiet",
        ],
    ));
    let o = eloworld(
        dir.path(),
        &["report", "html", "--db", "t.sqlite", "--out", "r.html"],
    );
    stdout_of(&o);
    let page = std::fs::read_to_string(dir.path().join("r.html")).expect("page");
    for id in [
        "settings",
        "ratings",
        "crosstable",
        "matrix",
        "evolution",
        "consistency",
        "games",
    ] {
        assert!(
            page.contains(&format!("<section id=\"{id}\">")),
            "section {id} missing"
        );
    }
    for method in ["elo-world", "mle", "uscf", "rollason", "markov"] {
        assert!(
            page.contains(&format!(">{method}</th>")),
            "rating column {method} missing"
        );
    }
    assert_eq!(
        page.matches("src=\"data:image/svg+xml;base64,").count(),
        2,
        "matrix and evolution inlined"
    );
    assert!(
        !page.contains("src=\"http") && !page.contains("href=\"http"),
        "no network"
    );
    assert!(
        page.contains("[Event &quot;tiny&quot;]") && page.contains("<table class=\"board\""),
        "sample games with boards"
    );
    // Two games per unordered pair (3 pairs), as asked by default.
    assert_eq!(
        page.matches("<summary>").count(),
        1 + 6,
        "the tournament file and 2 games per pair"
    );
}

/// Run with `cargo test --release -p eloworld --test report -- --ignored --nocapture`.
#[test]
#[ignore = "builds a 100,000-game database: a timing, not a check of behaviour"]
fn report_of_40_players_and_100000_games_takes_under_2_seconds() {
    let tmp = tempfile::tempdir().expect("tmp");
    // ELOWORLD_BIG_DB_DIR keeps the database there (and reuses it) for profiling.
    let dir = std::env::var_os("ELOWORLD_BIG_DB_DIR")
        .map_or_else(|| tmp.path().to_path_buf(), PathBuf::from);
    let dir = dir.as_path();
    let db = dir.join("big.sqlite");
    let players: Vec<String> = (0..40).map(|i| format!("player{i:02}")).collect();
    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    // Real random chess games, so that stored moves have a realistic size and replay.
    let pool = random_games(64);
    let built = Instant::now();
    if !db.exists() {
        fill(
            &db,
            "big",
            &names,
            64,
            |w, b, round| {
                // Strength grows with the index; results drawn from a fixed hash.
                let h = eloworld_games::rng::splitmix64(
                    u64::from(w) << 40 | u64::from(b) << 20 | u64::from(round),
                );
                let p_white =
                    1.0 / (1.0 + 10f64.powf((f64::from(b) - f64::from(w)) * 25.0 / 400.0));
                let u = (h >> 11) as f64 / (1u64 << 53) as f64;
                if u < p_white * 0.8 {
                    GameResult::Win(Side::First)
                } else if u < p_white * 0.8 + 0.2 {
                    GameResult::Draw
                } else {
                    GameResult::Win(Side::Second)
                }
            },
            |k| pool[k % pool.len()].clone(),
        );
    }
    eprintln!(
        "built {} in {:.1} s",
        db.display(),
        built.elapsed().as_secs_f64()
    );
    for args in [
        vec!["report", "html", "--db", "big.sqlite", "--out", "r.html"],
        vec!["report", "matrix", "--db", "big.sqlite", "--out", "m.png"],
        vec![
            "report",
            "evolution",
            "--db",
            "big.sqlite",
            "--out",
            "e.png",
        ],
        vec!["report", "table", "--db", "big.sqlite"],
    ] {
        let (t, cpu) = (Instant::now(), children_cpu_seconds());
        stdout_of(&eloworld(dir, &args));
        let (wall, cpu) = (t.elapsed().as_secs_f64(), children_cpu_seconds() - cpu);
        eprintln!("{}: {wall:.2} s wall, {cpu:.2} s CPU", args[1]);
        // CPU time, not wall time, is asserted: on a machine shared with other jobs the wall
        // time measures the others. Unloaded, the wall time is at most the CPU time.
        assert!(cpu < 2.0, "{} took {cpu:.2} s of CPU", args[1]);
    }
}

/// Returns the CPU time (user + system) of this process's waited-for children, from
/// `/proc/self/stat` (fields 16 and 17, in clock ticks of 1/100 s).
fn children_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    let fields: Vec<&str> = stat[stat.rfind(')').expect("comm") + 2..]
        .split_whitespace()
        .collect();
    // fields[0] is field 3 (state): cutime is field 16, cstime field 17.
    let ticks: f64 =
        fields[13].parse::<f64>().expect("cutime") + fields[14].parse::<f64>().expect("cstime");
    ticks / 100.0
}

/// Plays `n` random chess games and returns their UCI moves and plies.
fn random_games(n: u64) -> Vec<(String, u32)> {
    use eloworld_games::{Chess, DrawRules, Game, GameRng};
    (0..n)
        .map(|seed| {
            let mut g = Chess::new(DrawRules::Automatic);
            let mut rng = GameRng::new(seed);
            let mut moves = String::new();
            while g.outcome().is_none() && g.ply() < 400 {
                let mv = rng.pick(g.legal_moves());
                if !moves.is_empty() {
                    moves.push(' ');
                }
                g.write_move_code(mv, &mut moves);
                g.play(mv);
            }
            (moves, g.ply())
        })
        .collect()
}
