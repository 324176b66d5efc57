//! The built-in squava players (seed 000).
//!
//! `alphabeta` and `alphabeta_better` search to a fixed depth with a static evaluation and
//! pick at random among equal moves; `mcts` and `mcts_uct` run Monte Carlo tree search
//! with uniform or UCB1 child selection. Parameters go in the spec:
//! `alphabeta:depth=4`, `mcts_uct:playouts=20000,c=1.4`.

pub mod alphabeta;
pub mod board;
pub mod evaluation;
pub mod mcts;

pub use alphabeta::AlphaBeta;
pub use evaluation::Evaluation;
pub use mcts::{Mcts, Selection};

use crate::{
    FactoryFn, Flags, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SimpleFactory, SpecError,
};
use eloworld_games::Squava;
use std::sync::Arc;

/// The default search depth of the alpha-beta players, in plies.
pub const DEFAULT_DEPTH: u32 = 4;
/// The default iterations per move of the MCTS players.
pub const DEFAULT_PLAYOUTS: u32 = 20_000;
/// The default UCB1 exploration constant. UCB1's own √2 ≈ 1.4 (Auer et al. 2002) spreads
/// the playouts too evenly for squava's sharp tactics: in 40-game matches against
/// `alphabeta_better`, c = 1.4 scored 37%, 1.0 about 35%, 0.7 50% and 0.5 65%.
pub const DEFAULT_C: f64 = 0.5;
/// The deepest search the alpha-beta players accept (the board has 25 squares).
const MAX_DEPTH: u32 = 25;

fn bad(player: &str, reason: String) -> SpecError {
    SpecError::BadParam {
        player: player.to_owned(),
        reason,
    }
}

fn alphabeta_factory(evaluation: Evaluation) -> FactoryFn<Squava> {
    Box::new(move |spec: &PlayerSpec| {
        spec.params.check_keys(&spec.name, &["depth"])?;
        let depth: u32 = spec.params.parse_or(&spec.name, "depth", DEFAULT_DEPTH)?;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(bad(
                &spec.name,
                format!("depth={depth} is outside 1..={MAX_DEPTH}"),
            ));
        }
        let searcher = AlphaBeta::new(depth, evaluation);
        Ok(Arc::new(SimpleFactory(move || {
            Box::new(searcher) as Box<dyn crate::Player<Squava>>
        })) as Arc<dyn PlayerFactory<Squava>>)
    })
}

fn mcts_factory(uct: bool) -> FactoryFn<Squava> {
    Box::new(move |spec: &PlayerSpec| {
        spec.params.check_keys(
            &spec.name,
            if uct {
                &["playouts", "c"]
            } else {
                &["playouts"]
            },
        )?;
        let playouts: u32 = spec
            .params
            .parse_or(&spec.name, "playouts", DEFAULT_PLAYOUTS)?;
        if playouts == 0 {
            return Err(bad(&spec.name, "playouts must be at least 1".to_owned()));
        }
        let selection = if uct {
            let c: f64 = spec.params.parse_or(&spec.name, "c", DEFAULT_C)?;
            if !(c.is_finite() && c >= 0.0) {
                return Err(bad(
                    &spec.name,
                    format!("c={c} must be a finite number ≥ 0"),
                ));
            }
            Selection::Uct { c }
        } else {
            Selection::Uniform
        };
        Ok(Arc::new(SimpleFactory(move || {
            Box::new(Mcts::new(playouts, selection)) as Box<dyn crate::Player<Squava>>
        })) as Arc<dyn PlayerFactory<Squava>>)
    })
}

/// Adds every built-in squava player to `r`.
pub fn register(r: &mut Registry<Squava>) {
    crate::register_random_move(r, "places a stone on a uniformly random empty square");
    r.add(
        PlayerInfo::new(
            "alphabeta",
            "alpha-beta minimax with an open-lines evaluation; random among equal moves",
            Flags::NONE,
        )
        .param("depth", DEFAULT_DEPTH, "plies searched"),
        alphabeta_factory(Evaluation::OpenLines),
    );
    r.add(
        PlayerInfo::new(
            "alphabeta_better",
            "alpha-beta minimax that also weighs threats, forced threes and safe squares",
            Flags::NONE,
        )
        .param("depth", DEFAULT_DEPTH, "plies searched"),
        alphabeta_factory(Evaluation::ThreatsAndSafeSquares),
    );
    r.add(
        PlayerInfo::new(
            "mcts",
            "plain Monte Carlo tree search: uniform child selection, random playouts, most wins",
            Flags::NONE,
        )
        .param("playouts", DEFAULT_PLAYOUTS, "iterations per move"),
        mcts_factory(false),
    );
    r.add(
        PlayerInfo::new(
            "mcts_uct",
            "Monte Carlo tree search with UCB1 (UCT) child selection",
            Flags::NONE,
        )
        .param("playouts", DEFAULT_PLAYOUTS, "iterations per move")
        .param("c", DEFAULT_C, "UCB1 exploration constant"),
        mcts_factory(true),
    );
}

#[cfg(test)]
mod tests {
    use crate::{PlayableGame, Worker};
    use eloworld_games::{Game, GameRng, Side, Squava};

    /// Plays one game between two specs with per-side streams of `seed`.
    fn play(white: &str, black: &str, seed: u64) -> (Vec<u8>, Option<eloworld_games::Outcome>) {
        let reg = Squava::builtin_players();
        let mut worker = Worker::new(0);
        let mut players = [
            reg.resolve_str(white)
                .expect("white")
                .create(&mut worker)
                .expect("create"),
            reg.resolve_str(black)
                .expect("black")
                .create(&mut worker)
                .expect("create"),
        ];
        let mut rngs = [
            GameRng::for_side(seed, Side::First),
            GameRng::for_side(seed, Side::Second),
        ];
        let mut g = Squava::new(());
        let mut moves = Vec::new();
        while g.outcome().is_none() {
            let side = g.side_to_move().index();
            let mv = players[side].choose(&g, &mut rngs[side]).expect("move");
            assert!(g.is_legal(mv));
            g.play(mv);
            moves.push(mv);
        }
        (moves, g.outcome())
    }

    #[test]
    fn every_player_resolves_with_its_parameters() {
        let reg = Squava::builtin_players();
        for spec in [
            "alphabeta",
            "alphabeta:depth=2",
            "alphabeta_better:depth=3",
            "mcts:playouts=100",
            "mcts_uct:playouts=20000,c=1.4",
        ] {
            assert!(reg.resolve_str(spec).is_ok(), "{spec}");
        }
        for spec in [
            "alphabeta:depth=0",
            "alphabeta:playouts=3",
            "mcts:c=1",
            "mcts_uct:c=-1",
            "mcts_uct:playouts=x",
        ] {
            let e = reg
                .resolve_str(spec)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains("player"), "{spec} gave {e:?}");
        }
    }

    #[test]
    fn same_seed_same_game_other_seed_other_game() {
        for (w, b) in [
            ("alphabeta:depth=2", "mcts_uct:playouts=300"),
            ("mcts:playouts=300", "alphabeta_better:depth=2"),
        ] {
            let a = play(w, b, 11);
            assert_eq!(a, play(w, b, 11), "{w} vs {b}");
            let others: Vec<_> = (12..16).map(|s| play(w, b, s).0).collect();
            assert!(
                others.iter().any(|m| *m != a.0),
                "{w} vs {b} repeats itself"
            );
        }
    }
}
