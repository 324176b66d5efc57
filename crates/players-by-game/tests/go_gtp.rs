//! Go against real GTP programs: GNU Go as a player, GNU Go as the referee of in-process
//! games (every move replayed with `play` must be accepted, and its `final_score` must agree
//! with our Tromp–Taylor count), programs that cannot start, and SGF read back by an
//! independent reader (the sgf-parse crate).

use eloworld_games::{Game, GameRng, Go, GoRules, Komi, Side, Termination};
use eloworld_players::engine::gtp::{gnugo_args, referee_score, GtpSession};
use eloworld_players::engine::parse_definitions;
use eloworld_players::go::{Greed, Greedy, RandomGo};
use eloworld_players::{PlayableGame, Player, PlayerError, Worker};
use eloworld_tournament::play_game;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn gnugo_installed() -> bool {
    let found = std::path::Path::new("/usr/games/gnugo").exists();
    assert!(
        found || std::env::var_os("CI").is_none(),
        "CI installs gnugo (scripts/test)"
    );
    found
}

/// Whether the `pachi` on the PATH is the Go program (Debian's package of that name is a
/// platform game; scripts/test builds Pachi with scripts/pachi).
fn pachi_installed() -> bool {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pachi");
    let found = std::process::Command::new(script)
        .arg("--check")
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found || std::env::var_os("CI").is_none(),
        "CI installs Pachi (scripts/test runs scripts/pachi)"
    );
    found
}

fn nine() -> GoRules {
    GoRules::new(9, Komi::from_points(7.0).expect("komi")).expect("rules")
}

/// Plays `program` (a registered GTP player) as White against the light playout from the
/// empty 9×9 board and checks that it wins by two passes or the other's resignation.
fn beats_random(program: &str, seed: u64) {
    let registry = Go::builtin_players();
    let mut worker = Worker::new(0);
    let mut gtp = registry
        .resolve_str(program)
        .unwrap_or_else(|e| panic!("{program} is registered: {e}"))
        .create(&mut worker)
        .unwrap_or_else(|e| panic!("{program} starts: {e}"));
    let mut random: Box<dyn Player<Go>> = Box::new(RandomGo::default());
    let mut game = Go::new(nine());
    let mut moves = Vec::new();
    let played = play_game(
        &mut game,
        &mut *random,
        &mut *gtp,
        seed,
        1000,
        &AtomicBool::new(false),
        &mut moves,
    )
    .expect("not stopped");
    assert!(
        matches!(
            played.outcome.termination,
            Termination::TwoPasses | Termination::Resignation
        ),
        "{program}: {played:?}"
    );
    assert_eq!(
        played.outcome.result,
        eloworld_games::GameResult::Win(Side::Second),
        "{program} beats random: {}",
        game.board_text()
    );
}

#[test]
fn gnugo_plays_a_whole_game_against_random() {
    if gnugo_installed() {
        beats_random("gnugo:level=0", 5);
    }
}

/// Pachi at its smallest playout budget beats the light playout, and with `pass_all_alive`
/// it captures the dead stones before it passes, so the Tromp–Taylor count of two passes
/// gives it the game; a budget Pachi would abort on is refused before it starts.
#[test]
fn pachi_plays_a_whole_game_against_random_and_captures_before_passing() {
    if !pachi_installed() {
        return;
    }
    let err = Go::builtin_players()
        .resolve_str("pachi:playouts=300")
        .err()
        .expect("a budget Pachi aborts on is refused");
    assert!(err.to_string().contains("at least 500"), "{err}");
    beats_random("pachi:playouts=500", 11);
}

#[test]
fn a_program_that_does_not_speak_gtp_cannot_start_and_a_missing_one_is_named() {
    let text = "[[engine]]\nname = \"sleeper\"\ncommand = \"/bin/sleep\"\nargs = [\"30\"]\nprotocol = \"gtp\"\nhandshake_ms = 300\n\n[[engine]]\nname = \"nowhere\"\ncommand = \"no-such-go-program\"\nprotocol = \"gtp\"\npackage = \"nothing\"\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("go-engines.toml");
    std::fs::write(&path, text).expect("write");
    let mut registry = Go::builtin_players();
    eloworld_players::engine::add_definitions_file(&mut registry, &path).expect("gtp definitions");
    let factory = registry.resolve_str("sleeper").expect("installed");
    let err = factory
        .create(&mut Worker::new(0))
        .err()
        .expect("no GTP answer: cannot start");
    assert!(
        matches!(&err, PlayerError::Setup(m) if m.contains("protocol_version")),
        "{err}"
    );
    let err = registry.resolve_str("nowhere").err().expect("missing");
    assert!(err.to_string().contains("no-such-go-program"), "{err}");
    // A chess protocol in a Go registry is refused when the file is read.
    std::fs::write(
        &path,
        "[[engine]]\nname = \"fish\"\ncommand = \"stockfish\"\n",
    )
    .expect("write");
    let err = eloworld_players::engine::add_definitions_file(&mut Go::builtin_players(), &path)
        .expect_err("uci is not Go");
    assert!(err.to_string().contains("GTP"), "{err}");
    assert!(parse_definitions(text, "t", None).is_ok());
}

/// Plays one game between two in-process players and returns it with its moves.
fn in_process_game(seed: u64, players: [&mut dyn Player<Go>; 2]) -> (Go, Vec<(Side, String)>) {
    let [first, second] = players;
    let mut game = Go::new(nine());
    let start = game.clone();
    let mut moves = Vec::new();
    play_game(
        &mut game,
        first,
        second,
        seed,
        10_000,
        &AtomicBool::new(false),
        &mut moves,
    )
    .expect("not stopped");
    let mut replay = start;
    let mut coded = Vec::new();
    for mv in moves {
        coded.push((replay.side_to_move(), replay.move_code(mv)));
        replay.play(mv);
    }
    (game, coded)
}

#[test]
fn gnugo_referees_two_hundred_in_process_games_and_agrees_with_the_count() {
    if !gnugo_installed() {
        return;
    }
    let program = std::env::var("ELOWORLD_GNUGO").unwrap_or_else(|_| "gnugo".to_owned());
    let mut def = parse_definitions(
        &format!("[[engine]]\nname = \"referee\"\ncommand = \"{program}\"\nprotocol = \"gtp\"\n"),
        "test",
        None,
    )
    .expect("definition")
    .remove(0);
    def.args = gnugo_args(0);
    let mut referee = GtpSession::start(&def).expect("GNU Go starts");
    let limit = Duration::from_secs(60);
    let (mut finished, mut agreed) = (0, 0);
    let mut disagreements = Vec::new();
    for seed in 0..200u64 {
        let mut a = RandomGo::default();
        let mut b = RandomGo::default();
        let mut c = Greedy(Greed::Captures);
        let mut d = Greedy(Greed::Liberties);
        let players: [&mut dyn Player<Go>; 2] = match seed % 4 {
            0 | 1 => [&mut a, &mut b],
            2 => [&mut c, &mut a],
            _ => [&mut b, &mut d],
        };
        let (game, moves) = in_process_game(seed, players);
        let start = Go::new(nine());
        let score = referee_score(&mut referee, &start, &moves, limit)
            .unwrap_or_else(|e| panic!("game {seed}: GNU Go refused a move: {e}"));
        if game.outcome().map(|o| o.termination) == Some(Termination::TwoPasses) {
            finished += 1;
            if score == game.result_text() {
                agreed += 1;
            } else {
                disagreements.push(format!(
                    "game {seed}: GNU Go {score}, ours {}\n{}",
                    game.result_text(),
                    game.board_text()
                ));
            }
        }
    }
    assert!(
        finished >= 150,
        "only {finished} of 200 games ended by two passes"
    );
    assert!(
        disagreements.is_empty(),
        "{agreed} of {finished} agree; {}",
        disagreements.join("\n")
    );
}

#[test]
fn sgf_records_read_back_with_an_independent_reader() {
    let mut a = RandomGo::default();
    let mut b = RandomGo::default();
    let (game, moves) = in_process_game(3, [&mut a, &mut b]);
    let codes: Vec<&str> = moves.iter().map(|(_, c)| c.as_str()).collect();
    let header = eloworld_tournament::sgf::SgfHeader {
        black: "random",
        white: "ran]dom",
        date: "2026-11-25",
        event: "test",
    };
    let text = eloworld_tournament::sgf::game_to_sgf(&header, nine(), &codes, game.outcome())
        .expect("sgf");
    let trees = sgf_parse::parse(&text).expect("sgf-parse reads it");
    let root = trees[0].as_go_node().expect("a Go game tree");
    let prop = |id: &str| {
        root.get_property(id)
            .map(|p| p.to_string())
            .unwrap_or_default()
    };
    assert!(
        matches!(
            root.get_property("SZ"),
            Some(sgf_parse::go::Prop::SZ((9, 9)))
        ),
        "{}",
        prop("SZ")
    );
    assert!(
        matches!(root.get_property("KM"), Some(sgf_parse::go::Prop::KM(k)) if (k - 7.0).abs() < 1e-9),
        "{}",
        prop("KM")
    );
    assert_eq!(prop("RU"), "RU[Tromp-Taylor]");
    assert_eq!(prop("PW"), "PW[ran\\]dom]");
    assert_eq!(prop("RE"), format!("RE[{}]", game.result_text()));
    // The main line holds every move, and replaying it gives our final board.
    let mut replay = Go::new(nine());
    let mut node = root;
    let mut count = 0;
    while let Some(child) = node.children().next() {
        node = child;
        for p in node.properties() {
            let mv = match p {
                sgf_parse::go::Prop::B(m) | sgf_parse::go::Prop::W(m) => m,
                _ => continue,
            };
            let code = match mv {
                sgf_parse::go::Move::Pass => "pass".to_owned(),
                sgf_parse::go::Move::Move(point) => {
                    let column = b"ABCDEFGHJ"[usize::from(point.x)];
                    format!("{}{}", char::from(column), 9 - point.y)
                }
            };
            let parsed = replay.parse_move(&code).expect("a legal move");
            replay.play(parsed);
            count += 1;
        }
    }
    assert_eq!(count, moves.len());
    assert_eq!(replay.position_text(), game.position_text());
    let _ = GameRng::new(0);
}
