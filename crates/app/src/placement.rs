//! Placing a player on a ladder whose ratings stay fixed (Murphy's Elo World, section 4):
//! batches of games against the rungs that tell most (`eloworld_ladder::placement`), each
//! played through the runner and stored.
//!
//! Each batch against a rung is a small stored tournament named
//! `place SPEC vs RUNG #J seed S`: its plan depends only on those, so a killed placement
//! resumes, a second placement of the same spec (another precision, another ladder sharing
//! the rung) reuses the games, and the seed makes it reproducible.

use crate::error::{AppResult, Context};
use crate::game::AppGame;
use crate::independent::{determinism, independent_with};
use crate::ladders::LadderRules;
use crate::session::Session;
use crate::with_game;
use eloworld_games::rng::{fnv1a, splitmix64};
use eloworld_games::GameKind;
use eloworld_ladder::ladder::Ladder;
use eloworld_ladder::placement::{
    combined, next_rung, place, scoville, start_estimate, Combined, Placed, RungGames, Scoville,
    StoppingRule,
};
use eloworld_players::Determinism;
use eloworld_tournament::{Copies, CopyRule, Distinct, OpeningsFor, Plan, TournamentConfig};
use std::path::PathBuf;

/// How to place a player.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacementSettings {
    /// The player to place (a spec).
    pub spec: String,
    /// The game the player plays, when the front end was told: it must be the ladder's
    /// (which decides it).
    pub game: Option<GameKind>,
    /// The store the placement's games go to (and are reused from).
    pub db: String,
    /// Stop when the 95% interval is at most ± this many Elo.
    pub precision: f64,
    /// Stop after this many games whatever the interval.
    pub max_games: u32,
    /// Games per colour in each batch against one rung.
    pub batch: u32,
    /// The same seed, ladder and spec give the same games.
    pub seed: u64,
}

/// What a placement found.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// The placed player's canonical spec.
    pub spec: String,
    /// Its rating against the fixed rungs, and its interval with the rungs held fixed.
    pub placed: Placed,
    /// Its interval on the scale: its games and the rungs' own uncertainty together (the
    /// ladder's covariance).
    pub combined: Combined,
    /// Its games against each rung, in the ladder's order.
    pub rungs: Vec<RungGames>,
    /// Rungs left out, with why (not runnable here, or the player itself).
    pub skipped: Vec<String>,
    /// True when the run was stopped before the placement was done.
    pub interrupted: bool,
    /// The copies among its games: a repeat of an earlier game against the same rung with
    /// the same colours is counted once in `placed` and `rungs` (docs/ratings.md, "Copies").
    pub copies: Copies,
}

/// One batch played, for a front end's progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchDone {
    /// The rating after the batch.
    pub placed: Placed,
    /// The rung the batch was played against.
    pub rung: String,
    /// Batches played against that rung so far.
    pub batches: u32,
    /// True when every game of the batch was stored by an earlier run.
    pub reused: bool,
}

/// Places `settings.spec` on `ladder`, calling `on_batch` after each batch.
///
/// # Errors
/// A bad setting (a game other than the ladder's), a player that cannot be made, no rung
/// that runs here, or the store.
pub fn place_on_ladder(
    session: &Session,
    ladder: &Ladder,
    settings: &PlacementSettings,
    on_batch: &mut dyn FnMut(&BatchDone),
) -> AppResult<Placement> {
    let rules = LadderRules::of(ladder)?;
    if let Some(game) = settings.game {
        crate::ensure!(
            rules.game == game,
            "--game {game}: ladder {} is a {} ladder",
            ladder.name,
            ladder.game
        );
    }
    crate::ensure!(
        settings.precision > 0.0 && settings.precision.is_finite(),
        "--precision must be a positive number of Elo"
    );
    crate::ensure!(settings.batch >= 1, "--batch must be at least 1");
    with_game!(rules.game, G => place_as::<G>(session, ladder, rules, settings, on_batch))
}

fn place_as<G: AppGame>(
    session: &Session,
    ladder: &Ladder,
    rules: LadderRules,
    settings: &PlacementSettings,
    on_batch: &mut dyn FnMut(&BatchDone),
) -> AppResult<Placement> {
    let registry = session.registry::<G>()?;
    let spec: eloworld_players::PlayerSpec = settings.spec.parse()?;
    let spec = spec.to_string();
    registry
        .resolve_str(&spec)
        .with_context(|| format!("the player to place, {spec:?}"))?;
    let game_rules = G::rules_with(rules.draw_rules, rules.size, rules.komi)
        .with_context(|| format!("ladder {}", ladder.name))?;
    // Rungs that cannot run here are skipped, each with a note.
    let mut usable = vec![true; ladder.rungs.len()];
    let mut skipped = Vec::new();
    for (i, rung) in ladder.rungs.iter().enumerate() {
        if rung.player == spec {
            usable[i] = false;
            skipped.push(format!(
                "rung {} is the player being placed; it is skipped (give another spec, e.g. {}_r0, to place it again)",
                rung.player, rung.player
            ));
        } else if let Err(e) = registry.resolve_str(&rung.player) {
            usable[i] = false;
            skipped.push(format!("rung {} skipped: {e}", rung.player));
        }
    }
    crate::ensure!(
        usable.iter().any(|&u| u),
        "no rung of ladder {} can run here",
        ladder.name
    );
    // Who varies: a rung and the placed player that both play by a fixed rule meet from
    // openings, or their games after the first would be copies.
    let placed_determinism = determinism(&registry, std::slice::from_ref(&spec))?[0];
    let rung_names: Vec<String> = ladder.rungs.iter().map(|r| r.player.clone()).collect();
    let determinism = determinism(&registry, &rung_names)?;
    let mut store = session.open_store(&settings.db)?;
    let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
    let mut games = RungGames::none_against(&ratings);
    let mut batches = vec![0u32; ladder.rungs.len()];
    let mut played = vec![0u32; ladder.rungs.len()];
    let mut estimate = start_estimate(&ratings, &usable);
    let stopping = StoppingRule::new(settings.precision, settings.max_games, 2 * settings.batch);
    let mut interrupted = false;
    // Every game read, copies included: the budget counts the games played, the fit only
    // the distinct ones.
    let mut rows = Vec::new();
    let mut distinct = Distinct::new(CopyRule::CountOnce);
    loop {
        let played_in_all = u32::try_from(rows.len()).unwrap_or(u32::MAX);
        if stopping.done(&Placed {
            games: played_in_all,
            ..place(&games, ladder.advantage)
        }) {
            break;
        }
        let Some(k) = next_rung(&ratings, &played, &usable, estimate) else {
            break;
        };
        let rung = &ladder.rungs[k].player;
        let fixed = Determinism::pair_cannot_vary(placed_determinism, determinism[k]);
        let config = batch_config(
            settings,
            ladder,
            rules,
            (&spec, rung),
            batches[k],
            G::KIND,
            fixed,
        )?;
        let plan = independent_with(&registry, Plan::new(&config)?)?.plan;
        let summary = session
            .play::<G>(&plan, &registry, game_rules, &mut *store)
            .with_context(|| format!("placement games {:?} in {}", config.name, settings.db))?;
        if summary.interrupted {
            interrupted = true;
            break;
        }
        for row in store.results(Some(&config.name))? {
            played[k] += 1;
            if distinct.admit(&row.white, &row.black, row.identity) {
                // The placed player's points, counted with its colour.
                let white_points = row.result.first_score();
                if row.white == spec {
                    games[k].as_white.add(white_points);
                } else {
                    games[k].as_black.add(1.0 - white_points);
                }
            }
            rows.push(row);
        }
        batches[k] += 1;
        let now = place(&games, ladder.advantage);
        estimate = now.rating;
        on_batch(&BatchDone {
            placed: now,
            rung: rung.clone(),
            batches: batches[k],
            reused: summary.stored == 0,
        });
    }
    let placed = place(&games, ladder.advantage);
    Ok(Placement {
        spec,
        placed,
        combined: combined(
            &games,
            &placed,
            ladder.advantage,
            &ladder.covariance_matrix(),
        ),
        rungs: games,
        skipped,
        interrupted,
        copies: Copies::of(&rows),
    })
}

/// The settings of batch `index` of games between `spec` and `rung`. A pair that cannot
/// vary (`fixed`) plays from the ladder's openings, or where the ladder names none from a
/// default balanced set (chess: the compiled-in `2moves_v1` book; squava and Go: a few
/// random plies), each opening with both colours; its batches are named `… from openings`,
/// apart from games an earlier version played from the initial position.
fn batch_config(
    settings: &PlacementSettings,
    ladder: &Ladder,
    rules: LadderRules,
    (spec, rung): (&str, &str),
    index: u32,
    kind: GameKind,
    fixed: bool,
) -> AppResult<TournamentConfig> {
    let suffix = if fixed { " from openings" } else { "" };
    let name = format!(
        "place {spec} vs {rung} #{index} seed {}{suffix}",
        settings.seed
    );
    let mut c = TournamentConfig::new(&name, kind, vec![spec.to_owned(), rung.to_owned()]);
    c.games_per_pair = settings.batch;
    // Below 2^63: the settings are stored as TOML, whose integers are signed 64-bit.
    c.seed = splitmix64(settings.seed ^ fnv1a(&name)) >> 1;
    c.openings = ladder.openings.as_ref().map(PathBuf::from);
    c.random_openings = ladder.random_openings;
    if let Some(o) = &ladder.openings_for {
        c.openings_for = o.parse().map_err(|e: String| {
            crate::AppError::Invalid(format!("ladder {}: {e}", ladder.name))
        })?;
    }
    if fixed && c.openings.is_none() && c.random_openings.is_none() {
        match kind {
            GameKind::Chess => c.openings = Some(PathBuf::from(DEFAULT_CHESS_BOOK)),
            GameKind::Squava | GameKind::Go => c.random_openings = Some(DEFAULT_RANDOM_PLIES),
        }
        c.openings_for = OpeningsFor::FixedPairs;
    }
    if let Some(m) = ladder.max_plies {
        c.max_plies = m;
    }
    c.draw_rules = rules.draw_rules;
    c.size = rules.size;
    c.komi = rules.komi;
    c.db = Some(settings.db.clone());
    Ok(c)
}

/// The balanced book a chess placement's fixed pairs play from when the ladder names none
/// (compiled in: it is found from any directory).
pub const DEFAULT_CHESS_BOOK: &str = "data/books/2moves_v1.first2000.epd";

/// The random plies of the openings a squava or Go placement's fixed pairs play from when
/// the ladder names none.
pub const DEFAULT_RANDOM_PLIES: u32 = 4;

/// How far a placement got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Its 95% interval is within the precision asked for.
    Precise,
    /// Every game won or every game lost: beyond the ladder's reach, the rating rests on a
    /// prior.
    BeyondLadder,
    /// The game budget was spent before the interval was within the precision.
    OutOfGames,
}

/// A rung next to a rating: (name, rating, points scored against it, games).
pub type NearRung = (String, f64, f64, u32);

impl Placement {
    /// The nearest rungs below and above the placed rating.
    #[must_use]
    pub fn nearest(&self, ladder: &Ladder) -> [Option<NearRung>; 2] {
        let rating = self.placed.rating;
        let row = |i: usize| {
            (
                ladder.rungs[i].player.clone(),
                ladder.rungs[i].rating,
                self.rungs[i].points(),
                self.rungs[i].games(),
            )
        };
        let below = (0..ladder.rungs.len())
            .filter(|&i| ladder.rungs[i].rating <= rating)
            .max_by(|&a, &b| ladder.rungs[a].rating.total_cmp(&ladder.rungs[b].rating))
            .map(row);
        let above = (0..ladder.rungs.len())
            .filter(|&i| ladder.rungs[i].rating > rating)
            .min_by(|&a, &b| ladder.rungs[a].rating.total_cmp(&ladder.rungs[b].rating))
            .map(row);
        [below, above]
    }

    /// Returns how far the placement got: within `precision`, beyond the ladder's reach, or
    /// out of games first.
    #[must_use]
    pub fn reach(&self, precision: f64) -> Reach {
        if self.placed.flagged {
            Reach::BeyondLadder
        } else if self.placed.half_width() > precision {
            Reach::OutOfGames
        } else {
            Reach::Precise
        }
    }

    /// Returns the rungs the player met, in the ladder's order: (name, fixed rating, its
    /// games against the rung).
    #[must_use]
    pub fn rungs_played<'a>(&'a self, ladder: &'a Ladder) -> Vec<(&'a str, f64, &'a RungGames)> {
        ladder
            .rungs
            .iter()
            .zip(&self.rungs)
            .filter(|(_, g)| g.games() > 0)
            .map(|(r, g)| (r.player.as_str(), r.rating, g))
            .collect()
    }

    /// Where the placed rating falls in each family of dilutions on the ladder.
    #[must_use]
    pub fn scovilles(&self, ladder: &Ladder) -> Vec<Scoville> {
        let names: Vec<&str> = ladder.rungs.iter().map(|r| r.player.as_str()).collect();
        let ratings: Vec<f64> = ladder.rungs.iter().map(|r| r.rating).collect();
        scoville(&names, &ratings, self.placed.rating)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_ratings::Wdl;

    /// A placement on the shipped Elo World ladder at `rating` ± `half_width`, with three
    /// games against its second rung.
    fn placed(ladder: &Ladder, rating: f64, half_width: f64, flagged: bool) -> Placement {
        let mut rungs =
            RungGames::none_against(&ladder.rungs.iter().map(|r| r.rating).collect::<Vec<_>>());
        rungs[1].as_white = Wdl {
            wins: 1,
            draws: 1,
            losses: 0,
        };
        rungs[1].as_black = Wdl {
            wins: 0,
            draws: 0,
            losses: 1,
        };
        Placement {
            spec: "p".into(),
            placed: Placed {
                rating,
                error: half_width / 1.96,
                low: rating - half_width,
                high: rating + half_width,
                games: 3,
                flagged,
            },
            combined: Combined {
                error: half_width / 1.96,
                low: rating - half_width,
                high: rating + half_width,
            },
            rungs,
            skipped: Vec::new(),
            interrupted: false,
            copies: Copies::default(),
        }
    }

    #[test]
    fn reach_says_whether_the_interval_met_the_precision() -> AppResult<()> {
        let ladder = crate::ladders::load("elo-world")?;
        assert_eq!(
            placed(&ladder, 500.0, 30.0, false).reach(40.0),
            Reach::Precise
        );
        assert_eq!(
            placed(&ladder, 500.0, 50.0, false).reach(40.0),
            Reach::OutOfGames
        );
        assert_eq!(
            placed(&ladder, 500.0, 30.0, true).reach(40.0),
            Reach::BeyondLadder
        );
        Ok(())
    }

    #[test]
    fn only_the_rungs_played_are_listed() -> AppResult<()> {
        let ladder = crate::ladders::load("elo-world")?;
        let p = placed(&ladder, 500.0, 30.0, false);
        let played = p.rungs_played(&ladder);
        assert_eq!(played.len(), 1);
        let (name, rating, games) = played[0];
        assert_eq!(
            (name, rating),
            (ladder.rungs[1].player.as_str(), ladder.rungs[1].rating)
        );
        assert_eq!((games.points(), games.games()), (1.5, 3));
        Ok(())
    }
}
