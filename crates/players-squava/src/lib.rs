//! The built-in squava players of the Squava article (bediger4000), at its author's
//! settings (his program, github bediger4000/squava2).
//!
//! `alphabeta` and `alphabeta_better` search by the author's depth schedule (8, 10, then 12
//! plies as the board fills) with his two static evaluations, and pick at random among
//! equal moves; `mcts` and `mcts_uct` run Monte Carlo tree search with 500,000 iterations a
//! move, heavy playouts, and greedy or UCB1 (c = 1.414) child selection. Parameters go in
//! the spec: `alphabeta:depth=6`, `mcts_uct:playouts=20000,c=0.7,playout=random`.
#![deny(missing_docs)]

pub mod alphabeta;
pub mod board;
pub mod evaluation;
pub mod mcts;

pub use alphabeta::{AlphaBeta, Depth, SCHEDULE};
pub use evaluation::Evaluation;
pub use mcts::{Mcts, Playout, Selection};

use eloworld_games::Squava;
use eloworld_players_core::{
    FactoryFn, Flags, PlayerFactory, PlayerInfo, PlayerSpec, Registry, SimpleFactory, SpecError,
};
use std::sync::Arc;

/// The default search depth of the alpha-beta players: the author's schedule.
pub const DEFAULT_DEPTH: Depth = Depth::Schedule;
/// The default iterations per move of the MCTS players: the author's 500,000
/// (`players.NewMCTS(500000)` in his `playoff.go` and `elo.go`).
pub const DEFAULT_PLAYOUTS: u32 = 500_000;
/// The default UCB1 exploration constant: the author's 1.414 (≈ √2, UCB1's own).
pub const DEFAULT_C: f64 = 1.414;
/// The deepest search the alpha-beta players accept (the board has 25 squares).
const MAX_DEPTH: u32 = 25;
/// How the schedule is shown and spelled in a spec.
const SCHEDULE_WORD: &str = "schedule";

fn bad(player: &str, reason: String) -> SpecError {
    SpecError::BadParam {
        player: player.to_owned(),
        reason,
    }
}

/// Reads `depth=N` or `depth=schedule`.
fn parse_depth(spec: &PlayerSpec) -> Result<Depth, SpecError> {
    match spec.params.get("depth") {
        None => Ok(DEFAULT_DEPTH),
        Some(SCHEDULE_WORD) => Ok(Depth::Schedule),
        Some(text) => match text.parse::<u32>() {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(Depth::Fixed(d)),
            _ => Err(bad(
                &spec.name,
                format!("depth={text} is neither 1..={MAX_DEPTH} nor {SCHEDULE_WORD}"),
            )),
        },
    }
}

fn alphabeta_factory(evaluation: Evaluation) -> FactoryFn<Squava> {
    Box::new(move |spec: &PlayerSpec| {
        spec.params.check_keys(&spec.name, &["depth"])?;
        let depth = parse_depth(spec)?;
        Ok(Arc::new(SimpleFactory(move || {
            Box::new(AlphaBeta::new(depth, evaluation))
                as Box<dyn eloworld_players_core::Player<Squava>>
        })) as Arc<dyn PlayerFactory<Squava>>)
    })
}

fn mcts_factory(uct: bool) -> FactoryFn<Squava> {
    Box::new(move |spec: &PlayerSpec| {
        spec.params.check_keys(
            &spec.name,
            if uct {
                &["playouts", "c", "playout"]
            } else {
                &["playouts", "playout"]
            },
        )?;
        let playouts: u32 = spec
            .params
            .parse_or(&spec.name, "playouts", DEFAULT_PLAYOUTS)?;
        if playouts == 0 {
            return Err(bad(&spec.name, "playouts must be at least 1".to_owned()));
        }
        let playout = match spec.params.get("playout") {
            None | Some("heavy") => Playout::Heavy,
            Some("random") => Playout::Random,
            Some(other) => {
                return Err(bad(
                    &spec.name,
                    format!("playout={other} is neither heavy nor random"),
                ))
            }
        };
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
            Selection::Greedy
        };
        Ok(Arc::new(SimpleFactory(move || {
            Box::new(Mcts::new(playouts, selection).with_playout(playout))
                as Box<dyn eloworld_players_core::Player<Squava>>
        })) as Arc<dyn PlayerFactory<Squava>>)
    })
}

/// The depth parameter's default as `eloworld players` shows it.
fn depth_default() -> String {
    let steps: Vec<String> = SCHEDULE
        .iter()
        .map(|(from, plies)| format!("{plies} from {from} stones"))
        .collect();
    format!("{SCHEDULE_WORD} ({})", steps.join(", "))
}

/// The registry of every built-in squava player.
#[must_use]
pub fn builtin_players() -> Registry<Squava> {
    let mut r = Registry::new();
    register(&mut r);
    r
}

/// Adds every built-in squava player to `r`.
pub fn register(r: &mut Registry<Squava>) {
    eloworld_players_core::register_random_move(
        r,
        "places a stone on a uniformly random empty square",
    );
    r.add(
        PlayerInfo::new(
            "alphabeta",
            "alpha-beta minimax, evaluation: 30 per three-of-four threat (the author's); random among equal moves",
            Flags::NONE,
        )
        .param("depth", depth_default(), "plies searched: a number, or the author's schedule"),
        alphabeta_factory(Evaluation::OpenThrees),
    );
    r.add(
        PlayerInfo::new(
            "alphabeta_better",
            "alpha-beta minimax, evaluation: threats as alphabeta, minus 100 per self-made trap on the short diagonals (the author's)",
            Flags::NONE,
        )
        .param("depth", depth_default(), "plies searched: a number, or the author's schedule"),
        alphabeta_factory(Evaluation::AvoidTraps),
    );
    r.add(
        PlayerInfo::new(
            "mcts",
            "plain Monte Carlo tree search: greedy child selection (best mean), heavy playouts, most visits",
            Flags::NONE,
        )
        .param("playouts", DEFAULT_PLAYOUTS, "iterations per move (the author's)")
        .param("playout", "heavy", "heavy (win if possible, avoid three) or random"),
        mcts_factory(false),
    );
    r.add(
        PlayerInfo::new(
            "mcts_uct",
            "Monte Carlo tree search with UCB1 (UCT) child selection, heavy playouts, most visits",
            Flags::NONE,
        )
        .param(
            "playouts",
            DEFAULT_PLAYOUTS,
            "iterations per move (the author's)",
        )
        .param("c", DEFAULT_C, "UCB1 exploration constant (the author's)")
        .param(
            "playout",
            "heavy",
            "heavy (win if possible, avoid three) or random",
        ),
        mcts_factory(true),
    );
}

#[cfg(test)]
mod tests {
    use eloworld_games::{Game, GameRng, Side, Squava};
    use eloworld_players_core::Worker;

    /// Plays one game between two specs with per-side streams of `seed`.
    fn play(white: &str, black: &str, seed: u64) -> (Vec<u8>, Option<eloworld_games::Outcome>) {
        let reg = crate::builtin_players();
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
        let reg = crate::builtin_players();
        for spec in [
            "alphabeta",
            "alphabeta:depth=2",
            "alphabeta_better:depth=3",
            "mcts:playouts=100",
            "mcts_uct:playouts=20000,c=1.4",
            "alphabeta_better:depth=schedule",
            "mcts:playouts=100,playout=random",
            "mcts_uct:playout=heavy",
        ] {
            assert!(reg.resolve_str(spec).is_ok(), "{spec}");
        }
        for spec in [
            "alphabeta:depth=0",
            "alphabeta:playouts=3",
            "mcts:c=1",
            "mcts_uct:c=-1",
            "mcts_uct:playouts=x",
            "alphabeta:depth=deep",
            "alphabeta:depth=26",
            "mcts:playout=light",
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
    fn the_defaults_are_the_authors_and_are_shown() {
        let reg = crate::builtin_players();
        let param = |name: &str, key: &str| {
            reg.infos()
                .find(|i| i.name == name)
                .and_then(|i| i.params.iter().find(|p| p.key == key))
                .map(|p| p.default.clone())
                .unwrap_or_default()
        };
        for name in ["mcts", "mcts_uct"] {
            assert_eq!(param(name, "playouts"), "500000", "{name}");
            assert_eq!(param(name, "playout"), "heavy", "{name}");
        }
        assert_eq!(param("mcts_uct", "c"), "1.414");
        for name in ["alphabeta", "alphabeta_better"] {
            assert_eq!(
                param(name, "depth"),
                "schedule (8 from 0 stones, 10 from 4 stones, 12 from 11 stones)",
                "{name}"
            );
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
