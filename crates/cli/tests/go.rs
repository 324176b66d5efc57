//! Go end to end through the binary: the players list, a tournament of in-process players
//! stored and exported as SGF on its own board size and komi (replayed here move by move),
//! the same played by `eloworld worker` and rated, the HTML report and the dashboard of a Go
//! tournament, and Go settings refused for chess.

mod common;

/// Runs `eloworld ARGS` in `dir`: whether it succeeded, its standard output and error.
fn eloworld(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = common::eloworld(dir, args);
    let (stdout, stderr) = common::text(&out);
    (out.status.success(), stdout, stderr)
}

#[test]
fn players_list_the_go_players() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ok, out, err) = eloworld(dir.path(), &["players", "--game", "go"]);
    assert!(ok, "{err}");
    for name in [
        "random",
        "first_legal",
        "greedy_capture",
        "greedy_atari",
        "greedy_liberties",
        "gnugo",
        "pachi",
    ] {
        assert!(out.contains(name), "{name} missing:\n{out}");
    }
}

#[test]
fn a_go_tournament_is_stored_and_exported_as_sgf() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("go.toml"),
        "name = \"go7\"\ngame = \"go\"\nsize = 7\nkomi = 8.5\nplayers = [\"random\", \"greedy_capture\", \"first_legal\"]\ngames_per_pair = 2\nseed = 3\n",
    )
    .expect("write");
    let (ok, out, err) = eloworld(dir.path(), &["tournament", "go.toml"]);
    assert!(ok, "{out}\n{err}");
    let (ok, _, err) = eloworld(
        dir.path(),
        &["export", "--db", "go7.sqlite", "--sgf", "go7.sgf"],
    );
    assert!(ok, "{err}");
    let sgf = std::fs::read_to_string(dir.path().join("go7.sgf")).expect("written");
    assert_eq!(sgf.matches("(;FF[4]GM[1]").count(), 12, "{sgf}");
    assert_eq!(sgf.matches("SZ[7]KM[8.5]RU[Tromp-Taylor]").count(), 12);
    assert!(
        !sgf.contains("RE[Void]"),
        "every game ends by the rules: {sgf}"
    );
}

#[test]
fn go_settings_are_refused_for_chess() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("c.toml"),
        "name = \"c\"\nplayers = [\"random_move\", \"first_move\"]\nsize = 9\n",
    )
    .expect("write");
    let (ok, _, err) = eloworld(dir.path(), &["tournament", "c.toml"]);
    assert!(!ok && err.contains("Go settings"), "{err}");
    let (ok, _, err) = eloworld(
        dir.path(),
        &[
            "play",
            "--white",
            "random_move",
            "--black",
            "first_move",
            "--komi",
            "7",
        ],
    );
    assert!(!ok && err.contains("Go settings"), "{err}");
    assert!(!dir.path().join("c.sqlite").exists(), "nothing stored");
}

/// A 5×5 tournament with komi 0.5 of three in-process players, two games per ordered pair.
const TINY: &str = "name = \"go5\"\ngame = \"go\"\nsize = 5\nkomi = 0.5\nplayers = [\"random\", \"greedy_capture\", \"first_legal\"]\ngames_per_pair = 2\nseed = 5\n";

/// Replays every game of an SGF collection on an empty `size`×`size` board, checking that
/// each move is legal and that a game scored after two passes has the result the record
/// states; returns the number of games.
fn replay_sgf_games(sgf: &str, size: u8, komi: f64) -> usize {
    use eloworld_games::{Game, Go, GoMove, GoRules, Komi, Side};
    let rules = GoRules::new(size, Komi::from_points(komi).expect("komi")).expect("rules");
    let moves = regex::Regex::new(r";([BW])\[([a-z]{2})?\]").expect("regex");
    let result = regex::Regex::new(r"RE\[([^\]]*)\]").expect("regex");
    let trees: Vec<&str> = sgf.split("(;FF[4]").skip(1).collect();
    for (i, tree) in trees.iter().enumerate() {
        let mut game = Go::new(rules);
        for m in moves.captures_iter(tree) {
            let colour = if game.side_to_move() == Side::First {
                "B"
            } else {
                "W"
            };
            assert_eq!(&m[1], colour, "game {i}: colours alternate from Black");
            let mv = match m.get(2) {
                None => GoMove::Pass,
                Some(point) => {
                    let b = point.as_str().as_bytes();
                    let column = usize::from(b[0] - b'a');
                    let row = usize::from(size) - 1 - usize::from(b[1] - b'a');
                    let p = game.point(column, row).unwrap_or_else(|| {
                        panic!(
                            "game {i}: {} is off the {size}×{size} board",
                            point.as_str()
                        )
                    });
                    assert!(game.can_place(p), "game {i}: {} is illegal", point.as_str());
                    GoMove::Place(p)
                }
            };
            assert!(game.outcome().is_none(), "game {i}: a move after the end");
            game.play(mv);
        }
        let stated = &result.captures(tree).expect("RE")[1];
        if game.passes_in_a_row() >= 2 {
            assert_eq!(stated, game.result_text(), "game {i}: {tree}");
        }
    }
    trees.len()
}

#[test]
fn a_5x5_tournament_replays_at_its_own_size_and_komi_in_export_report_and_dashboard() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("go5.toml"), TINY).expect("write");
    let (ok, out, err) = eloworld(dir.path(), &["tournament", "go5.toml"]);
    assert!(ok, "{out}\n{err}");
    let (ok, sgf, err) = eloworld(dir.path(), &["export", "--db", "go5.sqlite", "--sgf", "-"]);
    assert!(ok, "{err}");
    assert_eq!(
        sgf.matches("SZ[5]KM[0.5]RU[Tromp-Taylor]").count(),
        12,
        "{sgf}"
    );
    assert_eq!(replay_sgf_games(&sgf, 5, 0.5), 12);
    // A half-point komi leaves no tie.
    assert!(!sgf.contains("RE[0]"), "{sgf}");

    // The HTML report's sample games are replayed on the 5×5 board: their final positions
    // are diagrams of five rows.
    let (ok, _, err) = eloworld(
        dir.path(),
        &["report", "html", "--db", "go5.sqlite", "--out", "go5.html"],
    );
    assert!(ok, "{err}");
    let html = std::fs::read_to_string(dir.path().join("go5.html")).expect("page");
    assert!(!html.contains("do not replay"), "{html}");
    let boards = html.matches("<table class=\"board\"").count();
    assert!(
        boards > 0,
        "sample games with their final positions: {html}"
    );
    let rows = html.split("<table class=\"board\"").skip(1).map(|t| {
        let table = t.split("</table>").next().unwrap_or("");
        table.matches("<tr").count()
    });
    assert!(
        rows.clone().all(|r| r == 5),
        "{:?}",
        rows.collect::<Vec<_>>()
    );

    // The dashboard: the tournament's page, and a game replayed from the empty 5×5 board
    // with its record as SGF.
    let server = common::serve::Serving::start(dir.path(), &["--db", "go5.sqlite"]);
    let page = common::serve::get(server.addr, "/t/go5", &[]);
    assert_eq!(page.status, 200);
    let page = page.text();
    let id = common::serve::first_game_id(&page);
    let viewer = common::serve::get(server.addr, &format!("/game/{id}"), &[]).text();
    assert!(
        viewer.contains("...../...../...../...../..... b") && !viewer.contains("do not replay"),
        "{viewer}"
    );
    let record = common::serve::get(server.addr, &format!("/game/{id}/pgn"), &[]);
    assert_eq!(record.status, 200);
    let record = record.text();
    assert!(record.contains("SZ[5]KM[0.5]"), "{record}");
    assert_eq!(replay_sgf_games(&record, 5, 0.5), 1);
}

#[test]
fn a_go_tournament_played_by_a_worker_is_stored_and_rated() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("go5.toml"), TINY).expect("write");
    let (ok, out, err) = eloworld(dir.path(), &["tournament", "go5.toml", "--plan-only"]);
    assert!(ok, "{out}\n{err}");
    let (ok, out, err) = eloworld(
        dir.path(),
        &["worker", "--db", "go5.sqlite", "--quiet", "--threads", "2"],
    );
    assert!(ok, "{out}\n{err}");
    let (ok, sgf, err) = eloworld(dir.path(), &["export", "--db", "go5.sqlite", "--sgf", "-"]);
    assert!(ok, "{err}");
    assert_eq!(replay_sgf_games(&sgf, 5, 0.5), 12);
    assert_eq!(sgf.matches("SZ[5]KM[0.5]").count(), 12, "{sgf}");
    let (ok, table, err) = eloworld(
        dir.path(),
        &[
            "rate",
            "--db",
            "go5.sqlite",
            "--method",
            "all",
            "--format",
            "csv",
        ],
    );
    assert!(ok, "{err}");
    for player in ["random", "greedy_capture", "first_legal"] {
        assert!(table.contains(player), "{player}: {table}");
    }
    assert!(table.lines().count() >= 4, "{table}");
}

#[test]
fn a_go_ladder_keeps_its_board_and_komi_and_placements_play_on_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("go5.toml"),
        TINY.replace("games_per_pair = 2", "games_per_pair = 6"),
    )
    .expect("write");
    let (ok, out, err) = eloworld(dir.path(), &["tournament", "go5.toml", "--quiet"]);
    assert!(ok, "{out}\n{err}");
    let (ok, _, err) = eloworld(
        dir.path(),
        &[
            "ladder",
            "build",
            "--db",
            "go5.sqlite",
            "--out",
            "go5-ladder.toml",
        ],
    );
    assert!(ok, "{err}");
    let ladder = std::fs::read_to_string(dir.path().join("go5-ladder.toml")).expect("ladder");
    assert!(
        ladder.contains("game = \"go\"")
            && ladder.contains("\nsize = 5\n")
            && ladder.contains("\nkomi = 0.5\n"),
        "{ladder}"
    );
    let place = |game: &str| {
        eloworld(
            dir.path(),
            &[
                "place",
                "greedy_capture_r0",
                "--game",
                game,
                "--ladder",
                "go5-ladder.toml",
                "--db",
                "place.sqlite",
                "--max-games",
                "8",
                "--quiet",
            ],
        )
    };
    let (ok, _, err) = place("chess");
    assert!(!ok && err.contains("is a go ladder"), "{err}");
    let (ok, out, err) = place("go");
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("greedy_capture_r0 on ladder go5-ladder"),
        "{out}"
    );
    let (ok, sgf, err) = eloworld(
        dir.path(),
        &["export", "--db", "place.sqlite", "--sgf", "-"],
    );
    assert!(ok, "{err}");
    let games = replay_sgf_games(&sgf, 5, 0.5);
    assert!(games >= 8, "{games} placement games: {sgf}");
    assert_eq!(sgf.matches("SZ[5]KM[0.5]").count(), games);
}
