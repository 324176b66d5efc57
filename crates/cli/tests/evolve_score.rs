//! `eloworld evolve score-imitation`: the match % of one evaluation on phase 1's positions,
//! checked against the engine's own 1-ply search with quiescence position by position.

mod common;

use eloworld_evolve::engine::{Engine, EvalParams, SearchParams};
use eloworld_evolve::imitate::{load_dataset, DatasetConfig, PositionSet};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};
use std::path::{Path, PathBuf};
use std::process::Output;

fn pgn_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/pgn")
}

fn score_imitation(args: &[&str]) -> Output {
    let dir = pgn_dir();
    common::command()
        .args(["evolve", "score-imitation", "--pgn-dir"])
        .arg(&dir)
        .args(args)
        .output()
        .expect("runs eloworld")
}

/// Scores the parameter file `eval` (with `extra` arguments) and reads the JSON, alone on
/// standard output.
fn score_file_json(eval: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    let eval = eval.to_string_lossy();
    args.extend_from_slice(&["--eval", &eval]);
    let out = score_imitation(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json alone on stdout")
}

/// Counts the positions of a set where `Engine::best_move_1ply` with quiescence plays the
/// grandmaster's move, reading the set back from its FENs.
fn engine_matches(set: &PositionSet, params: EvalParams) -> usize {
    let mut engine = Engine::new(params, SearchParams::default(), 1);
    set.fens
        .iter()
        .filter(|(fen, played)| {
            let pos: Chess = fen
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Standard)
                .expect("legal");
            let (best, _, _) = engine.best_move_1ply(&pos, true).expect("a move");
            assert_eq!(
                Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                *fen
            );
            best.to_uci(CastlingMode::Standard).to_string() == *played
        })
        .count()
}

fn expected(positions: usize, params: EvalParams) -> (usize, usize, usize, usize) {
    let config = DatasetConfig {
        max_train: positions,
        max_test: positions,
        ..DatasetConfig::new()
    };
    let data = load_dataset(&pgn_dir(), &config).expect("data").data;
    (
        engine_matches(&data.train, params),
        data.train.len(),
        engine_matches(&data.test, params),
        data.test.len(),
    )
}

#[test]
fn scores_figure_three_by_one_ply_with_quiescence() {
    let out = score_imitation(&["--positions", "60", "--format", "csv"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (train, ntrain, test, ntest) = expected(60, EvalParams::default());
    assert_eq!((ntrain, ntest), (60, 60));
    let pct = |m: usize, n: usize| 100.0 * m as f64 / n as f64;
    assert_eq!(
        stdout,
        format!(
            "set,matched,positions,percent\ntrain,{train},{ntrain},{:.2}\ntest,{test},{ntest},{:.2}\n",
            pct(train, ntrain),
            pct(test, ntest)
        )
    );
    // Text: one line each, with the %.
    let out = score_imitation(&["--positions", "60"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("train") && lines[0].ends_with(&format!("{:.1}%", pct(train, ntrain)))
    );
    assert!(
        lines[1].starts_with("test") && lines[1].ends_with(&format!("{:.1}%", pct(test, ntest)))
    );
}

#[test]
fn scores_a_parameter_file_and_names_a_bad_line() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("eval.params");
    // Knights worth nothing and rooks worth a pawn: other moves than Fig. 3's.
    std::fs::write(&file, "# test\nKNIGHT_VALUE = 0\nROOK_VALUE = 100\n").expect("write");
    let out = score_imitation(&["--positions", "40", "--format", "json", "--eval"]);
    assert!(!out.status.success(), "--eval needs a file");
    let doc = score_file_json(&file, &["--positions", "40"]);
    let params = EvalParams {
        knight_value: 0,
        rook_value: 100,
        ..EvalParams::default()
    };
    let (train, _, test, _) = expected(40, params);
    let (default_train, _, default_test, _) = expected(40, EvalParams::default());
    assert_ne!(
        (train, test),
        (default_train, default_test),
        "the file must change the score for this test to show it is read"
    );
    assert_eq!(doc["train"]["matched"], train);
    assert_eq!(doc["test"]["matched"], test);
    assert_eq!(doc["train"]["positions"], 40);

    std::fs::write(&file, "KNIGHT_VALUE = 300\nBISHOP_VALUE = lots\n").expect("write");
    let out = common::command()
        .args(["evolve", "score-imitation", "--eval"])
        .arg(&file)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("eval.params line 2"), "{err}");
    assert!(err.contains("BISHOP_VALUE"), "{err}");
}

/// The shipped organism of a full phase 1 at the paper's settings (population 100, 200
/// generations, 5,000 training and 5,000 test positions, seed 1) scores what its run
/// reported, and beats the paper's evolved organism on the test positions (30.4%):
/// David–Koppel–Netanyahu's phase-1 figure, reproduced and kept.
/// Every shipped phase-1 organism (`data/evolve/imitate-runK.params`, one full run of
/// `eloworld evolve imitate` at the paper's settings with seed K) still scores what its header
/// and its run's log say, e.g. run 1's 1,540 and 1,581 of 5,000.
#[test]
fn the_shipped_phase_one_organisms_keep_their_published_figures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/evolve");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/evolve")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("imitate-run") && n.ends_with(".params"))
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 10, "the paper's ten runs: {files:?}");
    for params in &files {
        let header = std::fs::read_to_string(params).expect("read");
        // "# matches 1540/5000 training (30.8%), 1581/5000 test (31.6%)"
        let figures: Vec<u64> = header
            .lines()
            .find_map(|l| l.strip_prefix("# matches "))
            .unwrap_or_else(|| panic!("{}: no matches line", params.display()))
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .filter_map(|t| t.parse().ok())
            .collect();
        let (train, test) = (figures[0], figures[4]);
        let doc = score_file_json(params, &[]);
        assert_eq!(doc["train"]["positions"], 5000);
        assert_eq!(doc["test"]["positions"], 5000);
        assert_eq!(doc["train"]["matched"], train, "{}", params.display());
        assert_eq!(doc["test"]["matched"], test, "{}", params.display());
    }
    let run1 = std::fs::read_to_string(dir.join("imitate-run1.params")).expect("read");
    assert!(
        run1.contains("1540/5000 training (30.8%), 1581/5000 test (31.6%)"),
        "{run1}"
    );
    // Runs 8 to 10 (`--seed 8 --runs 3`), the three the coevolution still needed; run 10's
    // organism is the best of the ten on the training positions (EVOL0 of Tables III and IV).
    for (k, figures) in [
        (8, "1567/5000 training (31.3%), 1582/5000 test (31.6%)"),
        (9, "1557/5000 training (31.1%), 1581/5000 test (31.6%)"),
        (10, "1596/5000 training (31.9%), 1591/5000 test (31.8%)"),
    ] {
        let run =
            std::fs::read_to_string(dir.join(format!("imitate-run{k}.params"))).expect("read");
        assert!(
            run.contains(&format!("run {k} (imitate-s{k})")) && run.contains(figures),
            "{run}"
        );
    }
}

/// Runs `eloworld suite` on the whole ECM suite at 20,000 nodes a position (phase 3's
/// scaled cap, one-MiB table as phase 3 searches) for `player`; returns (solved, nodes to
/// solution).
fn ecm_at_phase_three_cap(player: &str) -> (u64, u64) {
    ecm_at_cap(player, 20_000)
}

/// Runs `eloworld suite` on the whole ECM suite at `cap` nodes a position for `player`;
/// returns (solved, nodes to solution).
fn ecm_at_cap(player: &str, cap: u64) -> (u64, u64) {
    let cap = cap.to_string();
    let args = [
        "suite",
        "--epd",
        "data/epd/ECM.epd",
        "--player",
        player,
        "--nodes",
        &cap,
        "--threads",
        "2",
    ];
    let stdout = common::ok(&common::repo(), &args);
    common::suite_figures(&stdout)
}

/// The figures of a phase-3 header, "# eloworld evolve search (NAME): best organism, 12345
/// nodes, 300/879 solved": (nodes to solution, solved).
fn search_header_figures(search: &str) -> (u64, u64) {
    let head = search.lines().next().expect("header");
    let figures: Vec<u64> = head
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .collect();
    let n = figures.len();
    assert!(n >= 3 && figures[n - 1] == 879, "{head}");
    (figures[n - 3], figures[n - 2])
}

/// The shipped EVOL* evaluation (`data/evolve/coevolve.params`, phase 2: the ten phase-1
/// organisms coevolved for 50 generations) and evolved search (`data/evolve/search.params`,
/// phase 3 on all 879 ECM positions at 20,000 nodes each) still give the figures their runs
/// logged: the search file's header is its own fitness, and EVOL*'s evaluation under Table II's
/// search is the reference phase 3 printed before it began. They were evolved on the paper's
/// search alone (`techniques=paper`); with the standard techniques beside the genes (the
/// default) the same files solve more positions in fewer nodes.
#[test]
fn the_shipped_evol_star_and_evolved_search_keep_their_figures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/evolve");
    let coevolve = std::fs::read_to_string(dir.join("coevolve.params")).expect("coevolve.params");
    assert!(
        coevolve.starts_with("# eloworld evolve coevolve (coevolve-s1): best of best")
            && coevolve.contains("generations=50")
            && coevolve.contains("games_per_pair=4 nodes=3000"),
        "{coevolve}"
    );
    let search = std::fs::read_to_string(dir.join("search.params")).expect("search.params");
    let (nodes, solved) = search_header_figures(&search);
    let head = search.lines().next().expect("header");
    assert_eq!(
        ecm_at_phase_three_cap(
            "evol:eval=data/evolve/coevolve.params,search=data/evolve/search.params,hash=1,techniques=paper"
        ),
        (solved, nodes),
        "{head}"
    );
    assert_eq!(
        ecm_at_phase_three_cap("evol:eval=data/evolve/coevolve.params,hash=1,techniques=paper"),
        (269, 13_512_866)
    );
    // The standard techniques beside the genes (the default) find more at the same cap.
    let (solved_all, _) = ecm_at_phase_three_cap(
        "evol:eval=data/evolve/coevolve.params,search=data/evolve/search.params,hash=1",
    );
    assert!(
        solved_all > solved,
        "{solved_all} solved with the techniques, {solved} without"
    );
}

/// The pipeline re-run on the engine with its standard techniques (issue 48, part 3; phase 1
/// is not re-run, since its 1-ply search does not use them, as the phase-1 test above shows):
/// EVOL*'s evaluation `data/evolve/coevolve-techniques.params` (phase 2: the ten phase-1
/// organisms coevolved for 50 generations in games of 10,000 nodes a move) and its search
/// `data/evolve/search-techniques.params` (phase 3 on all 879 ECM positions at 5,000 nodes
/// each, a quarter of the first run's cap) still give the figures their runs logged,
/// searched with the five techniques of that re-run (`techniques=lmr+asp+see+rfp+lmp`; the
/// default has more since): the search file's header is its own fitness,
/// and the new evaluation under Table II's search is the reference phase 3 printed before it
/// began.
#[test]
fn the_shipped_re_run_on_the_engine_with_its_techniques_keeps_its_figures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/evolve");
    let coevolve = std::fs::read_to_string(dir.join("coevolve-techniques.params"))
        .expect("coevolve-techniques.params");
    assert!(
        coevolve.starts_with("# eloworld evolve coevolve (coevolve-s1): best of best")
            && coevolve.contains("generations=50")
            && coevolve.contains("games_per_pair=4 nodes=10000"),
        "{coevolve}"
    );
    let search = std::fs::read_to_string(dir.join("search-techniques.params"))
        .expect("search-techniques.params");
    assert!(search.contains("positions=879 cap=5000 hash=1"), "{search}");
    let (nodes, solved) = search_header_figures(&search);
    assert_eq!(
        ecm_at_cap(
            "evol:eval=data/evolve/coevolve-techniques.params,search=data/evolve/search-techniques.params,hash=1,techniques=lmr+asp+see+rfp+lmp",
            5_000
        ),
        (solved, nodes)
    );
    assert_eq!(
        ecm_at_cap(
            "evol:eval=data/evolve/coevolve-techniques.params,hash=1,techniques=lmr+asp+see+rfp+lmp",
            5_000
        ),
        (247, 3_571_137)
    );
}

/// EVOL*'s wins, draws and losses in a shipped match store, read by `eloworld results`.
fn evol_star_record(store: &str) -> (u64, u64, u64) {
    let db = common::repo().join("data/evolve/runs").join(store);
    let out = common::ok(&common::repo(), &["results", "--db", &db.to_string_lossy()]);
    let line = out
        .lines()
        .find(|l| {
            l.contains("coevolve-techniques.params") && l.trim_start().starts_with(['1', '2'])
        })
        .unwrap_or_else(|| panic!("no standings line for EVOL*: {out}"));
    let n: Vec<u64> = line
        .split_whitespace()
        .rev()
        .skip(1)
        .take(3)
        .map(|t| t.parse().expect("a count"))
        .collect();
    (n[2], n[1], n[0])
}

/// The shipped games of the re-run's Table IV (`data/evolve/runs/evolution-table4-rerun-*`)
/// hold the results docs/evolution.md reports for EVOL* (wins, draws, losses).
#[test]
fn the_shipped_re_run_matches_hold_their_documented_results() {
    for (store, record) in [
        ("evolution-table4-rerun-evol0.sqlite", (119, 59, 122)),
        ("evolution-table4-rerun-toga2.sqlite", (3, 2, 45)),
        ("evolution-table4-rerun-crafty.sqlite", (22, 21, 257)),
        // The same EVOL* on the engine with the evaluation's phase terms.
        ("evolution-table4-terms-toga2.sqlite", (6, 4, 40)),
        ("evolution-table4-terms-crafty.sqlite", (23, 29, 248)),
        // And with the history malus.
        ("evolution-table4-malus-toga2.sqlite", (6, 4, 40)),
        ("evolution-table4-malus-crafty.sqlite", (26, 37, 237)),
        // And with the fitted piece-square, mobility and tempo terms (Crafty: seed 2).
        ("evolution-table4-pst-toga2.sqlite", (2, 4, 44)),
        ("evolution-table4-pst-crafty.sqlite", (34, 40, 226)),
        // The same engine after speed-ups that change no search, on 100 games.
        ("evolution-table4-speed-toga2.sqlite", (10, 9, 81)),
        // And with its extensions gated (recaptures at PV nodes, checks that lose nothing).
        ("evolution-table4-ext-toga2.sqlite", (12, 17, 71)),
        ("evolution-table4-ext-crafty.sqlite", (52, 53, 195)),
        // And with quiet pruning, the table in the quiescence search and the hash move kept.
        ("evolution-table4-prune-toga2.sqlite", (16, 15, 69)),
        ("evolution-table4-prune-crafty.sqlite", (60, 54, 186)),
        // And with improving, and a 16 MB table as the opponents have.
        ("evolution-table4-improving-toga2.sqlite", (20, 12, 68)),
        ("evolution-table4-improving-crafty.sqlite", (78, 40, 182)),
        ("evolution-table4-improving-evol0.sqlite", (136, 80, 84)),
        (
            "evolution-table4-improving-toga2-seed3.sqlite",
            (18, 18, 64),
        ),
        // The same engine at time odds against Crafty (200 and 400 ms to its 100).
        ("evolution-table4-odds200-crafty.sqlite", (34, 21, 45)),
        ("evolution-table4-odds400-crafty.sqlite", (53, 21, 26)),
        // The improving row played again on the engine whose nodes got cheaper.
        ("evolution-table4-cheaper-crafty.sqlite", (82, 56, 162)),
        // And a third time, on the engine whose evaluation got cheaper.
        ("evolution-table4-cheaper-eval-crafty.sqlite", (73, 59, 168)),
        // The same row with both sides at 200 ms a move.
        ("evolution-table4-time200-crafty.sqlite", (84, 64, 152)),
        // And at 500 ms a move: the games played so far of a row played in parts.
        ("evolution-table4-time500-crafty.sqlite", TIME500_RECORD),
    ] {
        assert_eq!(evol_star_record(store), record, "{store}");
    }
}

/// EVOL*'s record in the 500 ms row's shipped store, whose 300 games are played over more than
/// one sitting (docs/evolution.md, "What stops the Crafty row").
const TIME500_RECORD: (u64, u64, u64) = (55, 49, 101);

/// The 500 ms row's shipped store is the plan of its tournament file, so the file's command
/// resumes it where it stopped instead of refusing it as another tournament (or starting over).
#[test]
fn the_shipped_500_ms_row_resumes_from_its_tournament_file() {
    let dir = tempfile::tempdir().expect("dir");
    let copy = dir.path().join("time500.sqlite");
    std::fs::copy(
        common::repo().join("data/evolve/runs/evolution-table4-time500-crafty.sqlite"),
        &copy,
    )
    .expect("copy the store");
    let out = common::ok_with_notes(
        &common::repo(),
        &[
            "tournament",
            "tournaments/evolution-table4-time500-crafty.toml",
            "--db",
            &copy.to_string_lossy(),
            "--plan-only",
        ],
    );
    let (w, d, l) = TIME500_RECORD;
    let done = format!("300 jobs stored in {} ({} done)", copy.display(), w + d + l);
    assert!(out.contains(&done), "expected {done:?} in: {out}");
}
