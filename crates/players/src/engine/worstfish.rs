//! `worstfish` (Murphy's Elo World, section 2.3): "for each legal move, I ask Stockfish (configured as
//! stockfish0) to evaluate the resulting position from [the opponent's] perspective. I then
//! choose the move that produces the best position for [the opponent]." UCI cannot evaluate
//! a position directly, so, as the paper does, the engine is asked for a move in the resulting
//! position and the score of its search (its best line, `multipv 1`) is taken as the
//! opponent's evaluation.

use super::{apply_params, EngineDef};
use super::{
    free_slot, lock, player_error, ready_session, unavailable, History, Position, Score, Setup,
    Slot,
};
use crate::{Flags, Player, PlayerError, PlayerFactory, PlayerInfo, PlayerSpec, Registry, Worker};
use eloworld_games::{Chess, Game, GameResult, GameRng};
use std::sync::Arc;

/// The opponent's score after a move that ends the game: mated is worse than any search
/// score, a draw is even.
fn final_score(after: &Chess) -> Option<i64> {
    after.outcome().map(|o| match o.result {
        GameResult::Win(_) => Score::Mate(0).ordinal() - 1,
        GameResult::Draw => 0,
    })
}

/// Plays the move after which the engine likes the opponent's position best.
pub struct Worstfish {
    setup: Setup,
    slot: Slot,
    history: History,
    buffer: String,
}

impl Worstfish {
    /// Returns the opponent's evaluation after each legal move, in the order of
    /// `game.legal_moves()`, as comparable numbers ([`Score::ordinal`]).
    ///
    /// # Errors
    /// [`PlayerError`] when the engine fails; it is then restarted by the next game.
    pub fn evaluations(&mut self, game: &Chess) -> Result<Vec<i64>, PlayerError> {
        self.history.begin(game);
        let mut guard = lock(&self.slot);
        let mut scores = Vec::with_capacity(game.legal_moves().len());
        for &mv in game.legal_moves() {
            let mut after = game.clone();
            after.play(mv);
            if let Some(s) = final_score(&after) {
                scores.push(s);
                continue;
            }
            self.buffer.clear();
            self.buffer.push_str(&self.history.moves);
            if !self.buffer.is_empty() {
                self.buffer.push(' ');
            }
            game.write_move_code(mv, &mut self.buffer);
            let position = Position {
                start_fen: self.history.start_fen.as_deref(),
                moves: &self.buffer,
            };
            let Some(session) = guard.as_mut() else {
                return Err(PlayerError::Crashed {
                    engine: self.setup.name.clone(),
                    detail: "not running".to_owned(),
                });
            };
            match session.best_move(&position, &self.setup.budget, None, self.setup.limit) {
                Ok((_, info)) => scores.push(info.score.map_or(0, Score::ordinal)),
                Err(fault) => {
                    *guard = None;
                    return Err(player_error(&self.setup.name, fault));
                }
            }
        }
        Ok(scores)
    }
}

impl Player<Chess> for Worstfish {
    fn choose(&mut self, game: &Chess, _rng: &mut GameRng) -> Result<shakmaty::Move, PlayerError> {
        let scores = self.evaluations(game)?;
        // The first of the best moves for the opponent, in legal-move order.
        let best = scores
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|&(_, s)| *s)
            .map(|(i, _)| i);
        best.map(|i| game.legal_moves()[i])
            .ok_or(PlayerError::NoMove)
    }

    fn observe(&mut self, before: &Chess, mv: shakmaty::Move) {
        self.history.push(before, mv);
    }
}

struct WorstfishFactory {
    setup: Setup,
}

impl PlayerFactory<Chess> for WorstfishFactory {
    fn create(&self, worker: &mut Worker) -> Result<Box<dyn Player<Chess>>, PlayerError> {
        let slot = free_slot(worker, &self.setup.key);
        drop(ready_session(
            &slot,
            &self.setup.def,
            &self.setup.budget,
            &self.setup.name,
        )?);
        Ok(Box::new(Worstfish {
            setup: self.setup.clone(),
            slot,
            history: History::default(),
            buffer: String::new(),
        }))
    }

    /// Worstfish reads Stockfish's scores, which its skill level does not randomise (that
    /// only picks the reported best move): it varies only as its evaluator's budget does.
    fn determinism(&self) -> Option<crate::Determinism> {
        let mut evaluator = self.setup.def.clone();
        evaluator.options.remove("Skill Level");
        Some(evaluator.determinism())
    }
}

/// The search per evaluation: worstfish searches once per legal move, so it searches less
/// deeply than `stockfish0` plays (depth 10) to keep a move near a tenth of a second.
pub const EVALUATION_DEPTH: u32 = 6;

/// Adds `worstfish`, evaluating with `evaluator` (the `stockfish0` definition, at
/// [`EVALUATION_DEPTH`]).
pub(super) fn register(r: &mut Registry<Chess>, mut evaluator: EngineDef) {
    evaluator.budget = super::Budget {
        nodes: None,
        depth: Some(EVALUATION_DEPTH),
        movetime: None,
    };
    let budget = evaluator.effective_budget();
    let info = PlayerInfo::new(
        "worstfish",
        &format!("plays the move after which Stockfish (as stockfish0, {budget}) likes the opponent's position best"),
        Flags::EXTERNAL,
    )
    .param("nodes", "-", "nodes per evaluation (replaces the budget)")
    .param("depth", budget.depth.map_or("-".to_owned(), |d| d.to_string()), "depth per evaluation (replaces the budget)")
    .param("movetime", "-", "ms per evaluation (replaces the budget)")
    .param("timeout", evaluator.timeout_ms, "ms without an answer before engine-timeout")
    .param("fen_only", false, "ignored");
    r.add(
        info,
        Box::new(move |spec: &PlayerSpec| {
            let mut def = evaluator.clone();
            apply_params(&mut def, spec)?;
            def.locate().map_err(|e| unavailable(spec, &e))?;
            Ok(Arc::new(WorstfishFactory {
                setup: Setup::new(&spec.name, def),
            }) as Arc<dyn PlayerFactory<Chess>>)
        }),
    );
}
