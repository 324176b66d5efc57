//! Independent games. Two players that play by a fixed rule replay one game from one start
//! (an engine at a node or depth budget, `first_move`, `cccp`): their second game from the
//! initial position is a copy, not new evidence. A plan whose file says
//! `openings_for = "fixed-pairs"` gives its openings to exactly those pairs and keeps the
//! initial position for the rest (Murphy's Elo World's setting, where randomised players make
//! it harmless); any plan says which pairs would still replay copies.

use crate::error::AppResult;
use crate::game::AppGame;
use crate::session::Session;
use crate::with_game;
use eloworld_players::{Determinism, PlayerSpec, Registry, SpecError};
use eloworld_tournament::Plan;

/// How each of `players` chooses. A player that cannot run here (its program is not
/// installed) is taken not to vary: its pairs then get openings rather than copies.
///
/// # Errors
/// A spec that does not parse or names no player.
pub fn determinism<G: AppGame>(
    registry: &Registry<G>,
    players: &[String],
) -> AppResult<Vec<Determinism>> {
    players
        .iter()
        .map(|p| {
            let spec: PlayerSpec = p.parse()?;
            match registry.determinism(&spec) {
                Ok(d) => Ok(d),
                Err(SpecError::Unavailable { .. }) => Ok(Determinism::Deterministic),
                Err(e) => Err(e.into()),
            }
        })
        .collect()
}

/// A plan as it is played: the openings policy applied, and the ordered pairs that would
/// still replay copies (both players fixed, more than one game from the initial position).
#[derive(Clone, Debug)]
pub struct IndependentPlan {
    /// The plan.
    pub plan: Plan,
    /// (White, Black) of every pair that would replay copies.
    pub copies: Vec<(String, String)>,
}

impl IndependentPlan {
    /// A warning naming the pairs that would replay copies; none when every game can differ.
    #[must_use]
    pub fn warning(&self) -> Option<String> {
        copies_warning(&self.copies)
    }
}

/// A warning naming `copies`, the ordered pairs that would replay copies (at most five, then a
/// count), and what to write in the tournament file instead; none when there are none.
#[must_use]
pub fn copies_warning(copies: &[(String, String)]) -> Option<String> {
    if copies.is_empty() {
        return None;
    }
    let mut names: Vec<String> = copies
        .iter()
        .take(5)
        .map(|(w, b)| format!("{w}–{b}"))
        .collect();
    if copies.len() > 5 {
        names.push(format!("and {} more", copies.len() - 5));
    }
    Some(format!(
        "{} ordered pairs of players that play by a fixed rule meet more than once from the initial position ({}): their games after the first are copies of it, not new evidence. Give them openings: `openings = \"FILE\"` or `random_openings = PLIES`, with `openings_for = \"fixed-pairs\"` to keep the initial position for the pairs that vary",
        copies.len(),
        names.join(", ")
    ))
}

/// Applies `plan`'s openings policy with what its game's registry says of each player.
///
/// # Errors
/// A player spec the registry does not know, or engine definitions that cannot be read.
pub fn independent(session: &Session, plan: Plan) -> AppResult<IndependentPlan> {
    with_game!(plan.game(), G => independent_as::<G>(session, plan))
}

fn independent_as<G: AppGame>(session: &Session, plan: Plan) -> AppResult<IndependentPlan> {
    let registry = session.registry::<G>()?;
    independent_with(&registry, plan)
}

/// [`independent`] with the registry at hand.
///
/// # Errors
/// As [`independent`].
pub fn independent_with<G: AppGame>(
    registry: &Registry<G>,
    plan: Plan,
) -> AppResult<IndependentPlan> {
    let determinism = determinism(registry, plan.players())?;
    let plan = plan.with_openings_policy(&determinism)?;
    let copies = plan.pairs_replaying_copies(&determinism);
    Ok(IndependentPlan { plan, copies })
}
