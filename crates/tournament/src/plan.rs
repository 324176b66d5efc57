use crate::config::OpeningsFor;
use crate::openings::{load_openings, random_openings};
use crate::{ConfigError, Schedule, TournamentConfig};
use eloworld_games::rng::{fnv1a, splitmix64};
use eloworld_games::GameKind;
use eloworld_players::{Determinism, PlayerSpec};
use eloworld_schedule::{self as schedule, paired::PairedMatch, Draw, JobSpec};

/// A deterministic schedule of game jobs from a tournament's settings: the players, the
/// openings and the jobs, made by one of the schedules of [`eloworld_schedule`] and fixed
/// from then on (a store keeps it, and a run resumes it).
#[derive(Clone, Debug)]
pub struct Plan {
    config: TournamentConfig,
    game: GameKind,
    players: Vec<String>,
    openings: Vec<String>,
    jobs: Vec<JobSpec>,
}

impl Plan {
    /// Makes the plan of a tournament's settings: the round robin (`schedule = "pairs"`),
    /// random pairings (`"random"`, `games = N`) or a gauntlet (`"gauntlet"`, `seeds = N`).
    /// Openings, if any, are shuffled by the seed.
    ///
    /// # Errors
    /// [`ConfigError`] for a bad game, player spec, duplicate player or openings file.
    pub fn new(config: &TournamentConfig) -> Result<Plan, ConfigError> {
        let game = config.game_kind()?;
        if config.players.len() < 2 && !(config.self_play && config.players.len() == 1) {
            return Err(ConfigError::Invalid(format!(
                "tournament {:?} needs at least two players, got {}",
                config.name,
                config.players.len()
            )));
        }
        if config.games_per_pair == 0 {
            return Err(ConfigError::Invalid(
                "games_per_pair must be at least 1".to_owned(),
            ));
        }
        let mut openings = match (&config.openings, config.random_openings) {
            (Some(path), None) => load_openings(path, game)?,
            (None, Some(plies)) => random_openings(
                game,
                &config.setup(),
                plies,
                config
                    .openings_limit
                    .unwrap_or(crate::config::DEFAULT_RANDOM_OPENINGS),
                config.seed,
            )?,
            (None, None) => Vec::new(),
            (Some(path), Some(_)) => {
                return Err(ConfigError::Invalid(format!(
                    "tournament {:?}: give openings = {:?} or random_openings, not both",
                    config.name,
                    path.display()
                )))
            }
        };
        schedule::shuffle(&mut openings, config.seed, Draw::Modulo);
        if let Some(limit) = config.openings_limit {
            openings.truncate(limit.max(1));
        }
        Plan::with_openings(config, openings)
    }

    /// The plan of `config`'s schedule as [`Plan::new`] makes it, from `openings` already
    /// picked and ordered (`eloworld match` with more than two engines: its `-openings`
    /// order, start and plies); round `k` of every pairing starts from opening `k`.
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub fn with_openings(
        config: &TournamentConfig,
        openings: Vec<String>,
    ) -> Result<Plan, ConfigError> {
        let game = config.game_kind()?;
        if config.games_per_pair == 0 {
            return Err(ConfigError::Invalid(
                "games_per_pair must be at least 1".to_owned(),
            ));
        }
        if game == GameKind::Go {
            let komi = eloworld_games::Komi::from_points(config.komi.unwrap_or(7.0))
                .map_err(|e| ConfigError::Invalid(e.to_string()))?;
            eloworld_games::GoRules::new(config.size.unwrap_or(9), komi)
                .map_err(|e| ConfigError::Invalid(e.to_string()))?;
        } else if config.size.is_some() || config.komi.is_some() {
            return Err(ConfigError::Invalid(format!(
                "size and komi are Go settings; tournament {:?} plays {game}",
                config.name
            )));
        }
        let players = canonical_players(&config.players)?;
        if config.games.is_some() && !matches!(config.schedule, Schedule::Random | Schedule::Ladder)
        {
            return Err(ConfigError::Invalid(
                "games = N is only read with schedule = \"random\" or \"ladder\"".to_owned(),
            ));
        }
        if (config.precision.is_some() || config.batch.is_some())
            && config.schedule != Schedule::Ladder
        {
            return Err(ConfigError::Invalid(
                "precision and batch are only read with schedule = \"ladder\"".to_owned(),
            ));
        }
        if config.seeds.is_some() && config.schedule != Schedule::Gauntlet {
            return Err(ConfigError::Invalid(
                "seeds = N is only read with schedule = \"gauntlet\"".to_owned(),
            ));
        }
        let jobs = match config.schedule {
            Schedule::Pairs => schedule::round_robin::jobs(
                &players,
                config.games_per_pair,
                config.self_play,
                &openings,
                config.seed,
            ),
            Schedule::Random => {
                let games = config.games.filter(|&g| g > 0).ok_or_else(|| {
                    ConfigError::Invalid(
                        "schedule = \"random\" needs games = N, the number of games (at least 1)"
                            .to_owned(),
                    )
                })?;
                schedule::random::jobs(&players, games, config.self_play, &openings, config.seed)
            }
            Schedule::Gauntlet => {
                let seeds = config.seeds.unwrap_or(1) as usize;
                if seeds == 0 || seeds >= players.len() {
                    return Err(ConfigError::Invalid(format!(
                        "a gauntlet seeds 1 to {} of its {} players, not {seeds}",
                        players.len() - 1,
                        players.len()
                    )));
                }
                schedule::gauntlet::jobs(
                    &players,
                    seeds,
                    config.games_per_pair,
                    &openings,
                    config.seed,
                )
            }
            // The first batch: no games yet. Later batches come from `Plan::ladder_batch`.
            Schedule::Ladder => Vec::new(),
        };
        Ok(Plan {
            config: config.clone(),
            game,
            players,
            openings,
            jobs,
        })
    }

    /// The paired match of the two players of `config` (see [`schedule::paired`]): its
    /// games, pairs and seed from `shape`, its openings as given (already picked).
    ///
    /// # Errors
    /// [`ConfigError`] for a bad game or player spec, or not two players.
    pub fn paired_match(
        config: &TournamentConfig,
        openings: Vec<String>,
        shape: PairedMatch,
    ) -> Result<Plan, ConfigError> {
        let game = config.game_kind()?;
        let players = canonical_players(&config.players)?;
        if players.len() != 2 {
            return Err(ConfigError::Invalid(format!(
                "a match plays two players, got {}",
                players.len()
            )));
        }
        let jobs = shape.jobs(&players, &openings);
        Ok(Plan {
            config: config.clone(),
            game,
            players,
            openings,
            jobs,
        })
    }

    /// One stage of a knockout (see [`schedule::knockout`]): `encounters` (indices into the
    /// players of `config`, the higher seed first) each playing `pairs` colour-swapped game
    /// pairs numbered from `first_round`, from `openings` as given.
    ///
    /// # Errors
    /// [`ConfigError`] for a bad game or player spec.
    pub fn knockout_stage(
        config: &TournamentConfig,
        openings: Vec<String>,
        encounters: &[(u32, u32)],
        pairs: u32,
        first_round: u32,
    ) -> Result<Plan, ConfigError> {
        let game = config.game_kind()?;
        let players = canonical_players(&config.players)?;
        let jobs = schedule::knockout::jobs(
            &players,
            encounters,
            pairs,
            first_round,
            &openings,
            config.seed,
        );
        Ok(Plan {
            config: config.clone(),
            game,
            players,
            openings,
            jobs,
        })
    }

    /// Batch `batch` (1-based) of a `ladder` schedule: the tournament `NAME/batch-NNNN` in the
    /// store, playing `pairs` (White, Black; indices into the players) with rounds counted
    /// from `played` (games per ordered pair before it, row-major); see
    /// [`schedule::ladder`].
    ///
    /// # Errors
    /// As [`Plan::new`].
    pub fn ladder_batch(
        config: &TournamentConfig,
        batch: u32,
        pairs: &[(u32, u32)],
        played: &[u32],
    ) -> Result<Plan, ConfigError> {
        let mut plan = Plan::new(config)?;
        plan.config.name = ladder_batch_name(&config.name, batch);
        plan.jobs =
            schedule::ladder::jobs(&plan.players, pairs, played, &plan.openings, config.seed);
        Ok(plan)
    }

    /// A coevolution generation's round robin (see [`schedule::coevolution`]); the players
    /// of `config` are replaced by the generation's.
    ///
    /// # Errors
    /// [`ConfigError`] for a bad game or player spec.
    pub fn coevolution(
        config: &TournamentConfig,
        generation: schedule::coevolution::Generation,
    ) -> Result<Plan, ConfigError> {
        let mut config = config.clone();
        config.players.clone_from(&generation.players);
        let game = config.game_kind()?;
        let players = canonical_players(&config.players)?;
        Ok(Plan {
            config,
            game,
            players,
            openings: generation.openings,
            jobs: generation.jobs,
        })
    }

    /// Applies `openings_for = "fixed-pairs"`: a job keeps its opening only when its two
    /// players cannot vary ([`Determinism::pair_cannot_vary`]; `determinism` is each player's,
    /// in plan order); the others start from the initial position with the seed the plan
    /// would give them without openings, so the games of a field that varies stay Elo World's
    /// and a store's earlier games of those pairs are the same jobs. With `all` it changes
    /// nothing.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] when `determinism` is not one a player.
    pub fn with_openings_policy(
        mut self,
        determinism: &[Determinism],
    ) -> Result<Plan, ConfigError> {
        if determinism.len() != self.players.len() {
            return Err(ConfigError::Invalid(format!(
                "{} players' determinism given for {} players",
                determinism.len(),
                self.players.len()
            )));
        }
        if self.config.openings_for == OpeningsFor::All {
            return Ok(self);
        }
        for j in &mut self.jobs {
            let fixed = Determinism::pair_cannot_vary(
                determinism[j.white as usize],
                determinism[j.black as usize],
            );
            if j.opening.is_some() && !fixed {
                *j = schedule::job(
                    j.key,
                    (j.white, j.black),
                    j.round,
                    None,
                    &self.players,
                    &self.openings,
                    self.config.seed,
                );
            }
        }
        Ok(self)
    }

    /// The ordered pairs (White, Black) that would replay copies: both players cannot vary
    /// and the pair plays more than one game from the initial position.
    #[must_use]
    pub fn pairs_replaying_copies(&self, determinism: &[Determinism]) -> Vec<(String, String)> {
        let mut from_start = std::collections::BTreeMap::<(u32, u32), u32>::new();
        for j in self.jobs.iter().filter(|j| j.opening.is_none()) {
            *from_start.entry((j.white, j.black)).or_default() += 1;
        }
        let det = |i: u32| {
            determinism
                .get(i as usize)
                .copied()
                .unwrap_or(Determinism::Randomised)
        };
        from_start
            .into_iter()
            .filter(|&((w, b), games)| games > 1 && Determinism::pair_cannot_vary(det(w), det(b)))
            .map(|((w, b), _)| {
                (
                    self.players[w as usize].clone(),
                    self.players[b as usize].clone(),
                )
            })
            .collect()
    }

    /// The settings it was made from.
    #[must_use]
    pub fn config(&self) -> &TournamentConfig {
        &self.config
    }

    /// The same plan under another name (the name is not part of the plan's fingerprint).
    #[must_use]
    pub fn renamed(mut self, name: &str) -> Plan {
        name.clone_into(&mut self.config.name);
        self
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// Player specs in canonical form, in plan order.
    #[must_use]
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Opening positions (text form of the game), if any.
    #[must_use]
    pub fn openings(&self) -> &[String] {
        &self.openings
    }

    /// The jobs, in schedule order.
    #[must_use]
    pub fn jobs(&self) -> &[JobSpec] {
        &self.jobs
    }

    /// Returns a fingerprint of everything that decides the games (not threads or db),
    /// engines' definitions included when the run gives them.
    #[must_use]
    pub fn fingerprint(&self) -> String {
        let mut h = fnv1a(self.game.name());
        let mut mix = |s: &str| h = splitmix64(h ^ fnv1a(s));
        mix(self.config.draw_rules.name());
        mix(&self.config.max_plies.to_string());
        mix(if self.config.self_play {
            "self_play"
        } else {
            ""
        });
        for p in &self.players {
            mix(p);
        }
        for d in &self.config.engine_definitions {
            mix(d);
        }
        for o in &self.openings {
            mix(o);
        }
        for j in &self.jobs {
            h = splitmix64(h ^ j.seed ^ (u64::from(j.white) << 40) ^ (u64::from(j.black) << 20));
        }
        format!("{h:016x}-{}", self.jobs.len())
    }
}

/// The store's name of batch `batch` (1-based) of the ladder schedule `name`.
#[must_use]
pub fn ladder_batch_name(name: &str, batch: u32) -> String {
    format!("{name}/batch-{batch:04}")
}

/// The players' specs in canonical form; a spec listed twice is an error.
fn canonical_players(specs: &[String]) -> Result<Vec<String>, ConfigError> {
    let mut players = Vec::with_capacity(specs.len());
    for p in specs {
        let spec: PlayerSpec = p.parse()?;
        let canonical = spec.to_string();
        if players.contains(&canonical) {
            return Err(ConfigError::Invalid(format!(
                "player {canonical:?} is listed twice"
            )));
        }
        players.push(canonical);
    }
    Ok(players)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three players: `a` and `b` play by a fixed rule, `c` at random.
    fn fixed_pairs_config(game: GameKind) -> TournamentConfig {
        let mut c = TournamentConfig::new("fixed", game, vec!["a".into(), "b".into(), "c".into()]);
        c.games_per_pair = 3;
        c.seed = 11;
        c.random_openings = Some(4);
        c.openings_for = OpeningsFor::FixedPairs;
        c
    }

    const FIXED_AB: [Determinism; 3] = [
        Determinism::Deterministic,
        Determinism::Diluted(64),
        Determinism::Randomised,
    ];

    #[test]
    fn fixed_pairs_alone_keep_their_openings_each_with_both_colours() {
        let plan = Plan::new(&fixed_pairs_config(GameKind::Chess))
            .expect("plan")
            .with_openings_policy(&FIXED_AB)
            .expect("policy");
        for j in plan.jobs() {
            let fixed = j.white < 2 && j.black < 2;
            assert_eq!(j.opening.is_some(), fixed, "{j:?}");
        }
        // a–b round k and b–a round k start from the same opening; rounds differ.
        let opening = |w, b, r| {
            plan.jobs()
                .iter()
                .find(|j| (j.white, j.black, j.round) == (w, b, r))
                .and_then(|j| j.opening)
        };
        for r in 0..3 {
            assert_eq!(opening(0, 1, r), opening(1, 0, r));
        }
        assert_ne!(opening(0, 1, 0), opening(0, 1, 1));
        // The pairs that vary are seeded as a plan without openings seeds them, so the
        // games a store already holds of them are the same jobs.
        let mut bare = fixed_pairs_config(GameKind::Chess);
        bare.random_openings = None;
        let bare = Plan::new(&bare).expect("plan");
        for (j, b) in plan.jobs().iter().zip(bare.jobs()) {
            assert_eq!(j.seed == b.seed, j.opening.is_none(), "{j:?} {b:?}");
        }
        assert!(plan.pairs_replaying_copies(&FIXED_AB).is_empty());
        assert_eq!(
            bare.pairs_replaying_copies(&FIXED_AB),
            vec![
                ("a".to_owned(), "b".to_owned()),
                ("b".to_owned(), "a".to_owned())
            ]
        );
    }

    #[test]
    fn openings_for_all_gives_every_pair_its_openings() {
        let mut c = fixed_pairs_config(GameKind::Chess);
        c.openings_for = OpeningsFor::All;
        let plan = Plan::new(&c)
            .expect("plan")
            .with_openings_policy(&FIXED_AB)
            .expect("policy");
        assert!(plan.jobs().iter().all(|j| j.opening.is_some()));
        assert!(plan.with_openings_policy(&FIXED_AB[..2]).is_err());
    }

    #[test]
    fn random_openings_are_distinct_replayable_positions_of_each_game() {
        for game in [GameKind::Chess, GameKind::Squava, GameKind::Go] {
            let c = fixed_pairs_config(game);
            let a = Plan::new(&c).expect("plan");
            let b = Plan::new(&c).expect("plan");
            assert_eq!(a.openings(), b.openings(), "{game}: the seed decides");
            assert_eq!(a.openings().len(), crate::config::DEFAULT_RANDOM_OPENINGS);
            let distinct: std::collections::HashSet<&String> = a.openings().iter().collect();
            assert_eq!(distinct.len(), a.openings().len(), "{game}");
            let mut other = c.clone();
            other.seed = 12;
            assert_ne!(Plan::new(&other).expect("plan").openings(), a.openings());
        }
        // Go: four random plies put four stones (or passes) on the board, Black to move.
        let go = Plan::new(&fixed_pairs_config(GameKind::Go)).expect("plan");
        let g = <eloworld_games::Go as eloworld_games::Game>::from_position(
            &go.openings()[0],
            eloworld_games::GoRules::default(),
        )
        .expect("a Go position");
        assert_eq!(
            eloworld_games::Game::side_to_move(&g),
            eloworld_games::Side::First
        );
        let mut both = fixed_pairs_config(GameKind::Chess);
        both.openings = Some("book.epd".into());
        assert!(Plan::new(&both).is_err(), "openings and random_openings");
    }

    #[test]
    fn all_ordered_pairs_times_games() {
        let mut c = TournamentConfig::new(
            "t",
            GameKind::Chess,
            vec!["a".into(), "b".into(), "c".into()],
        );
        c.games_per_pair = 4;
        let p = Plan::new(&c).expect("plan");
        assert_eq!(p.jobs.len(), 3 * 2 * 4);
        let ab = p
            .jobs
            .iter()
            .filter(|j| j.white == 0 && j.black == 1)
            .count();
        assert_eq!(ab, 4);
        assert_eq!(p.fingerprint(), Plan::new(&c).expect("plan").fingerprint());
        c.seed = 9;
        assert_ne!(p.fingerprint(), Plan::new(&c).expect("plan").fingerprint());
    }

    #[test]
    fn random_schedule_draws_games_from_the_seed() {
        let names = vec!["a".into(), "b".into(), "c".into(), "d".into()];
        let mut c = TournamentConfig::new("t", GameKind::Squava, names);
        c.schedule = Schedule::Random;
        assert!(Plan::new(&c).is_err(), "games is required");
        c.games = Some(400);
        let p = Plan::new(&c).expect("plan");
        assert_eq!(p.jobs.len(), 400);
        assert!(p.jobs.iter().all(|j| j.white != j.black));
        assert!(p.jobs.iter().enumerate().all(|(i, j)| j.key as usize == i));
        // All 12 ordered pairs appear, each about 400/12 ≈ 33 times.
        let mut count = [[0u32; 4]; 4];
        for j in &p.jobs {
            count[j.white as usize][j.black as usize] += 1;
        }
        for (w, row) in count.iter().enumerate() {
            for (b, &n) in row.iter().enumerate() {
                assert!(w == b || (15..55).contains(&n), "{count:?}");
            }
        }
        // Rounds count each pair's games, so no two jobs share a seed.
        let mut seeds: Vec<u64> = p.jobs.iter().map(|j| j.seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 400);
        // Same seed, same plan; another seed, another order.
        assert_eq!(Plan::new(&c).expect("plan").jobs, p.jobs);
        let order = |p: &Plan| {
            p.jobs
                .iter()
                .map(|j| (j.white, j.black))
                .collect::<Vec<_>>()
        };
        c.seed = 2;
        assert_ne!(order(&Plan::new(&c).expect("plan")), order(&p));
        // `games` without the random schedule is an error, not silently ignored.
        c.schedule = Schedule::Pairs;
        assert!(Plan::new(&c).is_err());
    }

    #[test]
    fn a_gauntlet_plays_only_its_seeded_players_pairings() {
        let names = vec!["t".into(), "a".into(), "b".into()];
        let mut c = TournamentConfig::new("g", GameKind::Chess, names);
        c.schedule = Schedule::Gauntlet;
        c.games_per_pair = 2;
        let p = Plan::new(&c).expect("plan");
        assert_eq!(
            p.jobs().len(),
            2 * 2 * 2,
            "two opponents, both colours, twice"
        );
        assert!(p.jobs().iter().all(|j| j.white == 0 || j.black == 0));
        c.seeds = Some(3);
        assert!(
            Plan::new(&c).is_err(),
            "every player seeded leaves no field"
        );
        c.schedule = Schedule::Pairs;
        c.seeds = Some(1);
        assert!(
            Plan::new(&c).is_err(),
            "seeds without a gauntlet is not ignored"
        );
    }

    #[test]
    fn duplicate_players_are_refused() {
        let c = TournamentConfig::new("t", GameKind::Chess, vec!["a".into(), "a".into()]);
        assert!(Plan::new(&c).is_err());
    }
}
