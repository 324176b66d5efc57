//! A round robin of the 18 simple players of Murphy's Elo World section 2.1: every ordered pair plays
//! one game to its end, with no illegal move and every game ended by a rule of chess.

use eloworld_games::rng::game_seed;
use eloworld_games::{Chess, DrawRules, Game, Termination};
use eloworld_players::chess::SIMPLE_PLAYERS;
use eloworld_players::{PlayableGame, Worker};
use eloworld_tournament::play_game;
use std::sync::atomic::AtomicBool;

#[test]
fn every_pair_of_simple_players_finishes_a_game_by_a_rule_of_chess() {
    let registry = Chess::builtin_players();
    let mut worker = Worker::new(0);
    let stop = AtomicBool::new(false);
    let mut games = 0;
    for white in SIMPLE_PLAYERS {
        for black in SIMPLE_PLAYERS {
            if white == black {
                continue;
            }
            let make = |name: &str, worker: &mut Worker| {
                let factory = registry.resolve_str(name).expect("registered");
                factory.create(worker).expect("built")
            };
            let (mut w, mut b) = (make(white, &mut worker), make(black, &mut worker));
            let mut game = Chess::new(DrawRules::Automatic);
            let mut moves = Vec::new();
            let seed = game_seed(7, white, black, 0, "");
            // The 75-move rule ends every game long before this bound.
            let played = play_game(&mut game, &mut *w, &mut *b, seed, 20_000, &stop, &mut moves)
                .expect("not stopped");
            let by_rule = matches!(
                played.outcome.termination,
                Termination::Checkmate
                    | Termination::Stalemate
                    | Termination::FivefoldRepetition
                    | Termination::SeventyFiveMoveRule
                    | Termination::InsufficientMaterial
            );
            assert!(
                by_rule,
                "{white} vs {black}: {:?} {:?}",
                played.outcome, played.detail
            );
            // Replaying the moves from scratch gives the same, legal, game.
            let mut replay = Chess::new(DrawRules::Automatic);
            for &m in &moves {
                assert!(replay.is_legal(m), "{white} vs {black}: illegal {m:?}");
                replay.play(m);
            }
            assert_eq!(replay.outcome(), Some(played.outcome), "{white} vs {black}");
            assert_eq!(moves.len(), played.plies as usize);
            games += 1;
        }
    }
    assert_eq!(games, 18 * 17);
}
