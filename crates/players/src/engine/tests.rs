//! Tests of the engine players against real Stockfish (Debian's `stockfish` package) and
//! against the faulty engines in `tests/fixtures/`.

use super::*;
use eloworld_games::{Outcome, Side};
use std::path::Path;

/// The random mover, the built-in engines and the faulty ones of the fixtures.
fn registry() -> Registry<Chess> {
    let mut r = Registry::new();
    crate::register_random_move(&mut r, "plays a uniformly random legal move");
    register(&mut r);
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_engines.toml");
    add_definitions(
        &mut r,
        read_definitions(&fixtures).expect("fixture definitions"),
    );
    r
}

fn player(r: &Registry<Chess>, worker: &mut Worker, spec: &str) -> Box<dyn Player<Chess>> {
    r.resolve_str(spec).expect(spec).create(worker).expect(spec)
}

/// Plays a game the way the runner does; returns the moves and the outcome, or the first
/// player error.
fn play(
    r: &Registry<Chess>,
    worker: &mut Worker,
    white: &str,
    black: &str,
    seed: u64,
    max_plies: u32,
) -> (Vec<String>, Result<Option<Outcome>, PlayerError>) {
    let mut players = [player(r, worker, white), player(r, worker, black)];
    let mut rngs = [
        GameRng::for_side(seed, Side::First),
        GameRng::for_side(seed, Side::Second),
    ];
    let mut game = Chess::new(eloworld_games::DrawRules::Automatic);
    let mut moves = Vec::new();
    while game.outcome().is_none() && moves.len() < max_plies as usize {
        let i = game.side_to_move().index();
        let mv = match players[i].choose(&game, &mut rngs[i]) {
            Ok(mv) => mv,
            Err(e) => return (moves, Err(e)),
        };
        assert!(
            game.is_legal(mv),
            "{} played an illegal move",
            [white, black][i]
        );
        for p in &mut players {
            p.observe(&game, mv);
        }
        moves.push(game.move_code(mv));
        game.play(mv);
    }
    (moves, Ok(game.outcome()))
}

fn stockfish_def() -> EngineDef {
    builtin_definitions()
        .into_iter()
        .find(|d| d.name == "stockfish0")
        .expect("stockfish0")
}

#[test]
fn stockfish_handshake_reports_its_name_and_options() {
    let session =
        Session::start(&stockfish_def()).expect("stockfish starts (apt-get install stockfish)");
    assert!(
        session.id_name().starts_with("Stockfish"),
        "{}",
        session.id_name()
    );
    assert!(session
        .declared_options()
        .iter()
        .any(|o| o == "Skill Level"));
}

#[test]
fn a_fixed_node_search_gives_a_legal_move_and_reports_its_nodes() {
    let r = registry();
    let mut worker = Worker::new(0);
    let mut p = EngineFactory {
        setup: Setup::new(
            "sf",
            EngineDef {
                budget: Budget {
                    nodes: Some(2000),
                    depth: None,
                    movetime: None,
                },
                ..stockfish_def()
            },
        ),
    }
    .create(&mut worker)
    .expect("stockfish");
    let game = Chess::new(eloworld_games::DrawRules::Automatic);
    let mv = p.choose(&game, &mut GameRng::new(1)).expect("a move");
    assert!(game.is_legal(mv));
    // The registry's spec form gives a legal move too.
    let mut q = player(&r, &mut worker, "stockfish:nodes=1000");
    assert!(game.is_legal(q.choose(&game, &mut GameRng::new(1)).expect("a move")));
}

#[test]
fn a_search_reports_nodes_within_the_budget() {
    let mut worker = Worker::new(0);
    let setup = Setup::new(
        "sf",
        EngineDef {
            budget: Budget {
                nodes: Some(3000),
                depth: None,
                movetime: None,
            },
            ..stockfish_def()
        },
    );
    let slot = free_slot(&mut worker, &setup.key);
    let mut guard = ready_session(&slot, &setup.def, &setup.budget, "sf").expect("stockfish");
    let session = guard.as_mut().expect("running");
    let (mv, info) = session
        .best_move(
            &Position {
                start_fen: None,
                moves: "e2e4",
            },
            &setup.budget,
            None,
            setup.limit,
        )
        .expect("a move");
    assert_eq!(mv.len(), 4, "{mv}");
    let nodes = info.nodes.expect("nodes reported");
    // Stockfish stops within a few nodes of the limit.
    assert!(
        (1..=3200).contains(&nodes),
        "{nodes} nodes for a 3000-node budget"
    );
    assert!(info.score.is_some());
}

#[test]
fn stockfish_beats_random_move_to_the_end_of_a_game() {
    let r = registry();
    let mut worker = Worker::new(0);
    let (moves, outcome) = play(&r, &mut worker, "stockfish:depth=6", "random_move", 3, 600);
    let outcome = outcome.expect("no fault").expect("a finished game");
    assert_eq!(
        outcome.result,
        eloworld_games::GameResult::Win(Side::First),
        "after {moves:?}"
    );
    // The process survives the game and serves the next one (ucinewgame).
    let (_, again) = play(&r, &mut worker, "random_move", "stockfish:depth=6", 4, 600);
    assert_eq!(
        again.expect("no fault").expect("finished").result,
        eloworld_games::GameResult::Win(Side::Second)
    );
}

fn builtin(name: &str) -> EngineFactory {
    let def = builtin_definitions()
        .into_iter()
        .find(|d| d.name == name)
        .expect(name);
    EngineFactory {
        setup: Setup::new(name, def),
    }
}

fn fixture(name: &str) -> EngineFactory {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/faulty_engines.toml");
    let def = read_definitions(&path)
        .expect("fixtures")
        .into_iter()
        .find(|d| d.name == name)
        .expect(name);
    EngineFactory {
        setup: Setup::new(name, def),
    }
}

fn start() -> Chess {
    Chess::new(eloworld_games::DrawRules::Automatic)
}

#[test]
fn skill_level_is_set_in_the_engine() {
    // Below Skill Level 20 Stockfish searches as usual, then often plays another move than
    // its best line's first: the option's effect shows in `bestmove` against `pv`.
    let mut worker = Worker::new(0);
    let mut deviations = Vec::new();
    for name in ["stockfish0", "stockfish20"] {
        let mut p = builtin(name).create_engine(&mut worker).expect(name);
        let mut game = start();
        let mut n = 0;
        // Twenty moves: Stockfish draws its weaker moves at random, and over ten it once
        // left its line only once (the test's flake).
        for _ in 0..20 {
            let mv = p.choose(&game, &mut GameRng::new(1)).expect("a move");
            let (_, info) = p.last_search().expect("a report");
            n += usize::from(info.pv_head() != Some(game.move_code(mv).as_str()));
            p.observe(&game, mv);
            game.play(mv);
        }
        deviations.push(n);
    }
    assert!(
        deviations[0] >= 2,
        "stockfish0 left its best line {} times in 20",
        deviations[0]
    );
    assert_eq!(deviations[1], 0, "stockfish20 left its best line");
}

#[test]
fn node_budget_names_parse() {
    assert_eq!(node_budget("stockfish1m"), Some(1_000_000));
    assert_eq!(node_budget("stockfish10k"), Some(10_000));
    assert_eq!(node_budget("stockfish250k"), Some(250_000));
    assert_eq!(node_budget("stockfishk"), None);
    assert_eq!(node_budget("stockfish0k"), None);
    assert_eq!(node_budget("stockfish10"), None);
    assert_eq!(node_budget("stockfish1x5k"), None);
    let r = registry();
    assert!(r.knows("stockfish64k") && r.knows("stockfish2m") && r.knows("worstfish"));
}

#[test]
fn worstfish_hangs_its_queen() {
    // White's queen on d1 can go to d4 (taken by a pawn), or d7/d8 (taken by the king);
    // every other move keeps it. Worstfish picks what is best for Black.
    let game = Chess::from_position(
        "4k3/8/8/2p1p3/8/8/8/3QK3 w - - 0 1",
        eloworld_games::DrawRules::Automatic,
    )
    .expect("fen");
    let r = registry();
    let mut worker = Worker::new(0);
    let mut p = player(&r, &mut worker, "worstfish:depth=6");
    let mv = game.move_code(p.choose(&game, &mut GameRng::new(1)).expect("a move"));
    assert!(
        ["d1d4", "d1d7", "d1d8"].contains(&mv.as_str()),
        "worstfish played {mv}"
    );
}

#[test]
fn dilution_at_the_extremes_is_the_pure_engine_and_pure_random() {
    let r = registry();
    let mut worker = Worker::new(0);
    let (pure, _) = play(&r, &mut worker, "stockfish:depth=5", "random_move", 11, 40);
    let (r0, _) = play(
        &r,
        &mut worker,
        "stockfish:depth=5_r0",
        "random_move",
        11,
        40,
    );
    assert_eq!(pure, r0, "_r0 plays as the engine");
    // At r65535 the engine is never asked (a draw of 65535 would ask it, and this seed
    // draws none): the game is the one any other player diluted so would play.
    let (random, _) = play(
        &r,
        &mut worker,
        "stockfish:depth=5_r65535",
        "random_move",
        11,
        40,
    );
    let (other_random, _) = play(&r, &mut worker, "random_move_r65535", "random_move", 11, 40);
    assert_eq!(random, other_random, "_r65535 plays at random");
    assert_ne!(random, pure);
}

#[test]
fn a_seeded_diluted_game_replays_identically() {
    let r = registry();
    let mut worker = Worker::new(0);
    let (a, oa) = play(
        &r,
        &mut worker,
        "stockfish:depth=5_r32768",
        "random_move",
        5,
        120,
    );
    let (b, ob) = play(
        &r,
        &mut worker,
        "stockfish:depth=5_r32768",
        "random_move",
        5,
        120,
    );
    assert_eq!(a, b);
    assert_eq!(oa, ob);
    let (c, _) = play(
        &r,
        &mut worker,
        "stockfish:depth=5_r32768",
        "random_move",
        6,
        120,
    );
    assert_ne!(a, c, "another seed plays another game");
}

#[test]
fn an_engine_plays_itself_on_two_processes() {
    let r = registry();
    let mut worker = Worker::new(0);
    let (moves, outcome) = play(
        &r,
        &mut worker,
        "stockfish:depth=3",
        "stockfish:depth=3_r16384",
        2,
        30,
    );
    assert_eq!(moves.len(), 30, "{outcome:?}");
}

#[test]
fn a_crashing_engine_costs_one_game_and_is_restarted() {
    let mut worker = Worker::new(0);
    let mut game = start();
    let factory = fixture("crasher");
    let mut p = factory.create_engine(&mut worker).expect("starts");
    let first_pid = p.engine_pid().expect("running");
    let mv = p.choose(&game, &mut GameRng::new(1)).expect("one move");
    p.observe(&game, mv);
    game.play(mv);
    let reply = game.legal_moves()[0];
    p.observe(&game, reply);
    game.play(reply);
    let err = p.choose(&game, &mut GameRng::new(1)).expect_err("crashes");
    assert!(
        matches!(&err, PlayerError::Crashed { detail, .. } if detail.contains("status 3")),
        "{err:?}"
    );
    assert!(
        !Path::new(&format!("/proc/{first_pid}")).exists(),
        "the crashed process is reaped"
    );
    drop(p);
    let mut q = factory.create_engine(&mut worker).expect("restarts");
    assert_ne!(q.engine_pid(), Some(first_pid));
    assert!(q.choose(&start(), &mut GameRng::new(1)).is_ok());
}

#[test]
fn a_hanging_engine_times_out_and_is_killed() {
    let mut worker = Worker::new(0);
    let factory = fixture("hanger");
    let mut p = factory.create_engine(&mut worker).expect("starts");
    let pid = p.engine_pid().expect("running");
    let t0 = std::time::Instant::now();
    let err = p.choose(&start(), &mut GameRng::new(1)).expect_err("hangs");
    assert_eq!(
        err,
        PlayerError::Timeout {
            engine: "hanger".to_owned(),
            millis: 300
        }
    );
    assert!(t0.elapsed() < Duration::from_secs(5));
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the hung process is killed and reaped"
    );
    drop(p);
    assert!(
        factory.create_engine(&mut worker).is_ok(),
        "a new process for the next game"
    );
}

#[test]
fn garbage_and_illegal_moves_are_reported_with_their_text() {
    let mut worker = Worker::new(0);
    for (name, text) in [("babbler", "zz99"), ("cheater", "e2e5")] {
        let mut p = fixture(name).create_engine(&mut worker).expect(name);
        let err = p.choose(&start(), &mut GameRng::new(1)).expect_err(name);
        assert_eq!(
            err,
            PlayerError::IllegalMove {
                player: name.to_owned(),
                text: text.to_owned()
            }
        );
    }
}

#[test]
fn a_mute_engine_fails_its_handshake() {
    let mut worker = Worker::new(0);
    let t0 = std::time::Instant::now();
    let err = fixture("mute")
        .create_engine(&mut worker)
        .err()
        .expect("no handshake");
    assert!(
        matches!(&err, PlayerError::Crashed { detail, .. } if detail.contains("300 ms")),
        "{err}"
    );
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_missing_program_is_refused_before_any_game_naming_the_package() {
    let mut r = Registry::new();
    let defs = parse_definitions(
        "[[engine]]\nname = \"ghost\"\ncommand = \"ghostfish-not-installed\"\npackage = \"ghostfish\"\n",
        "test",
        None,
    )
    .expect("valid");
    add_definitions(&mut r, defs);
    let err = r.resolve_str("ghost_r512").err().expect("unavailable");
    assert!(matches!(&err, SpecError::Unavailable { .. }), "{err:?}");
    assert!(
        err.to_string().contains("apt-get install ghostfish"),
        "{err}"
    );
}

#[test]
fn cecp_engines_play_legal_moves() {
    let r = registry();
    let mut worker = Worker::new(0);
    for name in ["fairymax_d3", "phalanx_d3", "gnuchess_d2"] {
        for (white, black) in [(name, "random_move"), ("random_move", name)] {
            let (moves, outcome) = play(&r, &mut worker, white, black, 1, 24);
            let outcome =
                outcome.unwrap_or_else(|e| panic!("{white} vs {black}: {e} after {moves:?}"));
            assert!(
                moves.len() == 24 || outcome.is_some(),
                "{white} vs {black} stopped after {moves:?}"
            );
        }
    }
}

#[test]
fn cecp_engines_start_from_a_position_with_either_side_to_move() {
    // fairymax has no `setboard`: it is set up with `edit`; phalanx uses `setboard`.
    let r = registry();
    let mut worker = Worker::new(0);
    for fen in [
        "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9",
        "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R b KQ - 0 9",
    ] {
        for name in ["fairymax_d3", "phalanx_d3"] {
            let mut game =
                Chess::from_position(fen, eloworld_games::DrawRules::Automatic).expect("fen");
            let mut p = player(&r, &mut worker, name);
            let mut rng = GameRng::new(1);
            for _ in 0..3 {
                let mv = p
                    .choose(&game, &mut rng)
                    .unwrap_or_else(|e| panic!("{name} from {fen}: {e}"));
                assert!(game.is_legal(mv));
                p.observe(&game, mv);
                game.play(mv);
                let reply = game.legal_moves()[0];
                p.observe(&game, reply);
                game.play(reply);
            }
        }
    }
}
