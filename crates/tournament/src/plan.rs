use crate::openings::load_openings;
use crate::{ConfigError, Schedule, TournamentConfig};
use eloworld_games::rng::{fnv1a, game_seed, splitmix64};
use eloworld_games::GameKind;
use eloworld_players::PlayerSpec;

/// One game to play: who plays White (the first side) and Black, which round of the pair,
/// from which opening, with which seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobSpec {
    /// The job's key, its position in the plan (0-based).
    pub key: u32,
    /// White's index into `Plan::players`.
    pub white: u32,
    /// Black's index.
    pub black: u32,
    /// The game's index within its ordered pair.
    pub round: u32,
    /// The opening's index into `Plan::openings`, if the tournament has openings.
    pub opening: Option<u32>,
    /// The game's seed.
    pub seed: u64,
}

/// A deterministic schedule of game jobs from a tournament's settings.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The settings it was made from.
    pub config: TournamentConfig,
    /// The game.
    pub game: GameKind,
    /// Player specs in canonical form.
    pub players: Vec<String>,
    /// Opening positions (text form of the game), if any.
    pub openings: Vec<String>,
    /// The jobs, in schedule order.
    pub jobs: Vec<JobSpec>,
}

impl Plan {
    /// Makes the plan: all ordered pairs of distinct players × `games_per_pair`. With
    /// openings, round `k` of every pair uses the same opening, so each opening is played
    /// once with each colour by every pair; the openings are shuffled by the seed.
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
        let mut players = Vec::with_capacity(config.players.len());
        for p in &config.players {
            let spec: PlayerSpec = p.parse()?;
            let canonical = spec.to_string();
            if players.contains(&canonical) {
                return Err(ConfigError::Invalid(format!(
                    "player {canonical:?} is listed twice"
                )));
            }
            players.push(canonical);
        }
        let mut openings = match &config.openings {
            Some(path) => load_openings(path, game)?,
            None => Vec::new(),
        };
        shuffle(&mut openings, config.seed);
        if let Some(limit) = config.openings_limit {
            openings.truncate(limit.max(1));
        }
        if config.schedule == Schedule::Random {
            let jobs = random_jobs(config, &players, &openings)?;
            return Ok(Plan {
                config: config.clone(),
                game,
                players,
                openings,
                jobs,
            });
        }
        if config.games.is_some() {
            return Err(ConfigError::Invalid(
                "games = N is only read with schedule = \"random\"".to_owned(),
            ));
        }
        let mut jobs = Vec::new();
        let n = players.len() as u32;
        for round in 0..config.games_per_pair {
            let opening = (!openings.is_empty()).then(|| round % openings.len() as u32);
            let opening_text = opening.map_or("", |i| openings[i as usize].as_str());
            for white in 0..n {
                for black in 0..n {
                    if white == black && !config.self_play {
                        continue;
                    }
                    let seed = game_seed(
                        config.seed,
                        &players[white as usize],
                        &players[black as usize],
                        round,
                        opening_text,
                    );
                    let key = jobs.len() as u32;
                    jobs.push(JobSpec {
                        key,
                        white,
                        black,
                        round,
                        opening,
                        seed,
                    });
                }
            }
        }
        Ok(Plan {
            config: config.clone(),
            game,
            players,
            openings,
            jobs,
        })
    }

    /// Returns a fingerprint of everything that decides the games (not threads or db).
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
        for o in &self.openings {
            mix(o);
        }
        for j in &self.jobs {
            h = splitmix64(h ^ j.seed ^ (u64::from(j.white) << 40) ^ (u64::from(j.black) << 20));
        }
        format!("{h:016x}-{}", self.jobs.len())
    }
}

/// Draws the jobs of a `random` schedule: `games` games, game `i` between an ordered pair
/// (distinct players, or any with `self_play`) drawn uniformly from a SplitMix64 chain
/// started at the tournament seed; a job's `round` counts the earlier games of its pair,
/// so its seed is the one the `pairs` schedule would give that game. With openings, game
/// `i` uses opening `i mod len`.
fn random_jobs(
    config: &TournamentConfig,
    players: &[String],
    openings: &[String],
) -> Result<Vec<JobSpec>, ConfigError> {
    let games = config.games.filter(|&g| g > 0).ok_or_else(|| {
        ConfigError::Invalid(
            "schedule = \"random\" needs games = N, the number of games (at least 1)".to_owned(),
        )
    })?;
    let n = players.len() as u32;
    let pairs: Vec<(u32, u32)> = (0..n)
        .flat_map(|w| (0..n).map(move |b| (w, b)))
        .filter(|&(w, b)| w != b || config.self_play)
        .collect();
    let mut rounds = vec![0u32; pairs.len()];
    let mut state = splitmix64(config.seed ^ fnv1a("schedule = random"));
    let mut jobs = Vec::with_capacity(games as usize);
    for key in 0..games {
        state = splitmix64(state);
        // Lemire's multiply-shift: the bias for a few dozen pairs is below 2^-58.
        let p = ((u128::from(state) * pairs.len() as u128) >> 64) as usize;
        let (white, black) = pairs[p];
        let round = rounds[p];
        rounds[p] += 1;
        let opening = (!openings.is_empty()).then(|| key % openings.len() as u32);
        let opening_text = opening.map_or("", |i| openings[i as usize].as_str());
        let seed = game_seed(
            config.seed,
            &players[white as usize],
            &players[black as usize],
            round,
            opening_text,
        );
        jobs.push(JobSpec {
            key,
            white,
            black,
            round,
            opening,
            seed,
        });
    }
    Ok(jobs)
}

/// Fisher–Yates with SplitMix64 draws from `seed` (a no-op for seed 0 keeps file order).
fn shuffle(items: &mut [String], seed: u64) {
    if seed == 0 {
        return;
    }
    let mut state = seed;
    for i in (1..items.len()).rev() {
        state = splitmix64(state);
        let j = (state % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn duplicate_players_are_refused() {
        let c = TournamentConfig::new("t", GameKind::Chess, vec!["a".into(), "a".into()]);
        assert!(Plan::new(&c).is_err());
    }
}
