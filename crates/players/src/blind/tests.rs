use super::model::{class_of, CLASSES, NEVER, ROW};
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
    crate::register_random_move(&mut r, "random");
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
    crate::register_random_move(&mut r, "random");
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
