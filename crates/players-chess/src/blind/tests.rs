use super::dataset::{collect, Collected, Sample};
use super::model::{class_of, CLASSES, NEVER, OUTPUTS, ROW};
use super::*;
use eloworld_games::{DrawRules, Game, GameRng};
use shakmaty::{Bitboard, Color, Piece, Position, Role, Square};

fn piece(color: Color, role: Role) -> Piece {
    Piece { color, role }
}

/// A model whose scores do not depend on the mask: `intercept(square, class)`.
fn model_with(intercept: impl Fn(Square, usize) -> f32, white_to_move: f32) -> BlindModel {
    let mut squares = vec![0.0f32; 64 * CLASSES * ROW];
    for s in Square::ALL {
        for class in 0..CLASSES {
            squares[(usize::from(s) * CLASSES + class) * ROW + ROW - 1] = intercept(s, class);
        }
    }
    let mut turn = [0.0f32; ROW];
    turn[ROW - 1] = white_to_move;
    BlindModel::new(1, squares, turn).expect("model")
}

fn mask(squares: &[Square]) -> Bitboard {
    squares.iter().copied().collect()
}

#[test]
fn the_king_rule_makes_exactly_one_king_per_side() {
    // Everywhere a white king is likeliest (3), then a white pawn (2), then a black king
    // (1); on e1 a white king is very likely (10), on e8 a black king.
    let wk = class_of(piece(Color::White, Role::King));
    let bk = class_of(piece(Color::Black, Role::King));
    let wp = class_of(piece(Color::White, Role::Pawn));
    let model = model_with(
        |s, c| match (s, c) {
            (Square::E1, c) if c == wk => 10.0,
            (Square::E8, c) if c == bk => 10.0,
            (_, c) if c == wk => 3.0,
            (_, c) if c == wp => 2.0,
            (_, c) if c == bk => 1.0,
            _ => NEVER,
        },
        -2.0,
    );
    let occupied = mask(&[Square::E1, Square::E8, Square::A2, Square::B2]);
    let yolo = model.unblind(occupied, KingRule::Free).expect("prediction");
    assert_eq!(yolo.board.kings().count(), 4 - 1 + 1);
    assert_eq!((yolo.board.kings() & yolo.board.white()).count(), 3);
    assert_eq!(yolo.turn, Color::Black);
    let kings = model
        .unblind(occupied, KingRule::OnePerSide)
        .expect("prediction");
    assert_eq!(
        kings.board.piece_at(Square::E1),
        Some(piece(Color::White, Role::King))
    );
    assert_eq!(
        kings.board.piece_at(Square::E8),
        Some(piece(Color::Black, Role::King))
    );
    assert_eq!(
        kings.board.piece_at(Square::A2),
        Some(piece(Color::White, Role::Pawn))
    );
    assert_eq!(
        kings.board.piece_at(Square::B2),
        Some(piece(Color::White, Role::Pawn))
    );
    assert_eq!(kings.board.occupied(), occupied);
    // Kings go where they cost the least even when no square favours them.
    let no_kings = model_with(
        |_, c| {
            if c == wp {
                5.0
            } else if c == wk || c == bk {
                0.0
            } else {
                NEVER
            }
        },
        1.0,
    );
    let p = no_kings
        .unblind(occupied, KingRule::OnePerSide)
        .expect("prediction");
    assert_eq!((p.board.kings() & p.board.white()).count(), 1);
    assert_eq!((p.board.kings() & p.board.black()).count(), 1);
    assert_eq!(
        no_kings
            .unblind(occupied, KingRule::Free)
            .expect("p")
            .board
            .kings()
            .count(),
        0
    );
    // One occupied square cannot hold two kings.
    assert!(no_kings
        .unblind(mask(&[Square::A1]), KingRule::OnePerSide)
        .is_none());
}

#[test]
fn the_model_file_round_trips_and_damage_is_named() {
    let model = model_with(|s, c| (usize::from(s) * 13 + c) as f32 / 7.0, 0.25);
    let bytes = model.to_bytes();
    assert_eq!(BlindModel::from_bytes(&bytes).expect("reads"), model);
    let mut corrupt = bytes.clone();
    corrupt[5000] ^= 1;
    assert!(matches!(
        BlindModel::from_bytes(&corrupt),
        Err(ModelFileError::Checksum { .. })
    ));
    assert!(matches!(
        BlindModel::from_bytes(&bytes[..100]),
        Err(ModelFileError::WrongLength { .. })
    ));
    assert!(matches!(
        BlindModel::from_bytes(b"[Event \"x\"]\n"),
        Err(ModelFileError::BadMagic)
    ));
    assert!(
        BlindModel::embedded().positions() > 0,
        "the shipped model was trained"
    );
}

/// A network 64 → 4 → [`OUTPUTS`] whose weights follow `f(layer, index)`.
fn tiny_network(f: impl Fn(usize, usize) -> f32) -> BlindModel {
    let widths = [64, 4, OUTPUTS];
    let layers = widths
        .windows(2)
        .enumerate()
        .map(|(l, w)| {
            let weights = (0..w[0] * w[1]).map(|i| f(l, i)).collect();
            let bias = (0..w[1]).map(|i| f(l, 100_000 + i)).collect();
            Dense::new(w[0], weights, bias).expect("layer")
        })
        .collect();
    BlindModel::mlp(5, layers).expect("network")
}

#[test]
fn a_network_file_round_trips_says_its_kind_and_damage_is_named() {
    let net = tiny_network(|l, i| ((l * 7 + i * 13) % 17) as f32 / 17.0 - 0.5);
    assert_eq!(net.kind(), ModelKind::Mlp);
    let bytes = net.to_bytes();
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes(), "format version 2");
    assert_eq!(&bytes[16..20], &2u32.to_le_bytes(), "kind 2: a network");
    let back = BlindModel::from_bytes(&bytes).expect("reads");
    assert_eq!(back, net);
    assert_eq!(back.positions(), 5);
    let start = shakmaty::Board::default().occupied();
    assert_eq!(back.network_outputs(start), net.network_outputs(start));
    // One hidden unit by hand: ReLU(bias + Σ weights of occupied squares), then the output.
    let only = tiny_network(|l, i| match (l, i) {
        (0, i) if i < 64 * 4 && i % 4 == 0 => 1.0, // every square feeds unit 0
        (0, 100_000) => -30.0,                     // ... which fires past 30 pieces
        (1, i) if i < OUTPUTS => 1.0,              // unit 0 feeds every output
        _ => 0.0,
    });
    let out = only.network_outputs(start).expect("a network");
    assert!(
        out.iter().all(|&y| (y - 2.0).abs() < 1e-6),
        "{:?}",
        &out[..4]
    );
    let sparse = mask(&[Square::A1, Square::H8]);
    let out = only.network_outputs(sparse).expect("a network");
    assert!(out.iter().all(|&y| y == 0.0));
    // Damage: kind, shape, length, checksum.
    let mut kind = bytes.clone();
    kind[16] = 9;
    assert!(matches!(
        BlindModel::from_bytes(&kind),
        Err(ModelFileError::UnknownKind { found: 9 })
    ));
    let mut shape = bytes.clone();
    shape[24] = 65; // 65 inputs
    assert!(matches!(
        BlindModel::from_bytes(&shape),
        Err(ModelFileError::BadShape(_))
    ));
    let mut layers = bytes.clone();
    layers[20] = 200;
    assert!(matches!(
        BlindModel::from_bytes(&layers),
        Err(ModelFileError::BadShape(_))
    ));
    assert!(matches!(
        BlindModel::from_bytes(&bytes[..bytes.len() - 4]),
        Err(ModelFileError::WrongLength { .. })
    ));
    let mut corrupt = bytes.clone();
    corrupt[1000] ^= 1;
    assert!(matches!(
        BlindModel::from_bytes(&corrupt),
        Err(ModelFileError::Checksum { .. })
    ));
    assert!(matches!(
        BlindModel::mlp(0, Vec::new()),
        Err(ModelFileError::BadShape(_))
    ));
    let linear = model_with(|_, _| 0.5, 0.0);
    assert_eq!(linear.kind(), ModelKind::Linear);
    assert_eq!(linear.network_outputs(start), None);
}

#[test]
fn the_version_1_linear_file_still_loads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/blind/linear.bin");
    let bytes = std::fs::read(path).expect("data/blind/linear.bin");
    assert_eq!(&bytes[8..12], &1u32.to_le_bytes(), "written in format 1");
    let linear = BlindModel::from_bytes(&bytes).expect("reads");
    assert_eq!(linear.kind(), ModelKind::Linear);
    assert_eq!(linear.positions(), 12_958);
    // Written again it is version 2, kind 1, and reads back the same.
    let again = linear.to_bytes();
    assert_eq!(&again[8..12], &2u32.to_le_bytes());
    assert_eq!(&again[16..20], &1u32.to_le_bytes());
    assert_eq!(BlindModel::from_bytes(&again).expect("reads"), linear);
    let start = shakmaty::Board::default();
    let p = linear
        .unblind(start.occupied(), KingRule::OnePerSide)
        .expect("prediction");
    assert_eq!(p.board, start);
}

/// The held-out positions of the pinned measure: every 24th position of every 10th game of
/// the first collection of `data/pgn` (Carlsen's games), as `train-blind` holds them out.
fn pinned_held_out() -> Vec<Sample> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/pgn/Carlsen.pgn");
    let reader = eloworld_games::chess::input::PgnReader::open(std::path::Path::new(path))
        .expect("data/pgn/Carlsen.pgn");
    let mut out = Vec::new();
    collect(reader, 24, &mut Collected::default(), &mut out).expect("reads");
    out.retain(|s| s.game.is_multiple_of(10));
    out
}

fn measure(model: &BlindModel, test: &[Sample], rule: KingRule) -> Accuracy {
    let mut acc = Accuracy::default();
    for s in test {
        acc.add(
            &s.board,
            s.turn,
            model.unblind(s.board.occupied(), rule).as_ref(),
        );
    }
    acc
}

#[test]
fn the_shipped_network_beats_the_linear_model_on_held_out_games() {
    let test = pinned_held_out();
    assert!(test.len() > 500, "{} positions", test.len());
    let shipped = BlindModel::embedded();
    assert_eq!(shipped.kind(), ModelKind::Mlp);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/blind/linear.bin");
    let linear = BlindModel::read(std::path::Path::new(path)).expect("linear.bin");
    for rule in [KingRule::Free, KingRule::OnePerSide] {
        let net = measure(shipped, &test, rule);
        let lin = measure(&linear, &test, rule);
        let (n, l) = (net.mistakes_per_position(), lin.mistakes_per_position());
        // Measured when the model was shipped (see docs/blind-players.md).
        assert!(n < PINNED_MISTAKES, "{rule:?}: {n:.3} mistakes a position");
        assert!(n < l - 0.15, "{rule:?}: network {n:.3}, linear {l:.3}");
        assert!(
            net.exact_share() > PINNED_EXACT,
            "{rule:?}: {:.4}",
            net.exact_share()
        );
        assert!(net.exact_share() > lin.exact_share() + 0.05);
        assert!(net.turn_share() > 0.58, "{rule:?}: {:.4}", net.turn_share());
    }
}

#[test]
fn the_shipped_model_predicts_the_start_position() {
    let start = shakmaty::Board::default();
    let p = BlindModel::embedded()
        .unblind(start.occupied(), KingRule::OnePerSide)
        .expect("prediction");
    assert_eq!(p.board, start);
    assert_eq!(p.turn, Color::White);
}

#[test]
fn a_bad_model_file_or_parameter_fails_at_resolve() {
    let mut r = Registry::new();
    register(&mut r);
    let Err(e) = r.resolve_str("blind_kings:model=/nonexistent/m.bin") else {
        panic!("resolved")
    };
    assert!(e.to_string().contains("/nonexistent/m.bin"), "{e}");
    let Err(e) = r.resolve_str("blind_yolo:nodes=0") else {
        panic!("resolved")
    };
    assert!(matches!(e, SpecError::BadParam { .. }), "{e}");
    let Err(e) = r.resolve_str("blind_spycheck:depth=3") else {
        panic!("resolved")
    };
    assert!(matches!(e, SpecError::BadParam { .. }), "{e}");
}

/// Plays `white` against `black` from the start and returns the moves, checking each.
fn play(r: &Registry<Chess>, white: &str, black: &str, seed: u64, plies: usize) -> Vec<String> {
    let mut worker = Worker::new(0);
    let mut w = r
        .resolve_str(white)
        .expect(white)
        .create(&mut worker)
        .expect("create");
    let mut b = r
        .resolve_str(black)
        .expect(black)
        .create(&mut worker)
        .expect("create");
    let mut g = Chess::new(DrawRules::Automatic);
    let mut rng = GameRng::new(seed);
    let mut moves = Vec::new();
    while g.outcome().is_none() && moves.len() < plies {
        let side = if g.position().turn() == Color::White {
            &mut w
        } else {
            &mut b
        };
        let m = side.choose(&g, &mut rng).expect("a move");
        assert!(g.is_legal(m));
        moves.push(g.move_code(m));
        w.observe(&g, m);
        b.observe(&g, m);
        g.play(m);
    }
    moves
}

#[test]
fn blind_players_play_stockfishs_move_on_the_predicted_board() {
    let mut r = Registry::new();
    register(&mut r);
    eloworld_players_core::register_random_move(&mut r, "random");
    // From the start the shipped model sees the position right, so blind_kings plays what
    // Stockfish plays there at the same budget.
    let blind = play(&r, "blind_kings:nodes=2000", "random_move", 1, 1);
    let mut engines = Registry::new();
    add_definitions(&mut engines, builtin_definitions());
    let fish = play(
        &engines,
        "stockfish1m:nodes=2000,fen_only=true",
        "stockfish1m",
        1,
        1,
    );
    assert_eq!(blind, fish);
    for variant in Variant::ALL {
        let moves = play(
            &r,
            &format!("{}:nodes=500", variant.name()),
            "random_move",
            7,
            60,
        );
        assert!(moves.len() >= 20, "{}: {moves:?}", variant.name());
    }
}

#[test]
fn a_model_that_never_sees_a_position_plays_random_legal_moves() {
    // Every square predicted a white pawn: no kings, so no position for the engine; the
    // player falls back on random legal moves and never asks Stockfish.
    let wp = class_of(piece(Color::White, Role::Pawn));
    let pawns = model_with(|_, c| if c == wp { 1.0 } else { NEVER }, 0.0);
    let dir = std::env::temp_dir().join(format!("eloworld-blind-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("pawns.bin");
    pawns.write(&path).expect("write");
    let mut r = Registry::new();
    register(&mut r);
    eloworld_players_core::register_random_move(&mut r, "random");
    let spec = format!("blind_yolo:model={}", path.display());
    let factory = r
        .resolve_str(&spec)
        .expect("resolves (Debian's stockfish is installed)");
    let mut player = factory.create(&mut Worker::new(0)).expect("create");
    let g = Chess::new(DrawRules::Automatic);
    let firsts: std::collections::BTreeSet<String> = (0..200)
        .map(|seed| g.move_code(player.choose(&g, &mut GameRng::new(seed)).expect("move")))
        .collect();
    assert_eq!(firsts.len(), 20);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// Bounds on the shipped network's figures over [`pinned_held_out`], a little looser than
/// what it measured when shipped (free kings: 4.44 mistakes a position, 19.78% exact, side
/// to move 61.57%; the linear model 4.68, 12.48%, 54.84%).
const PINNED_MISTAKES: f64 = 4.5;
/// See [`PINNED_MISTAKES`].
const PINNED_EXACT: f64 = 0.19;
