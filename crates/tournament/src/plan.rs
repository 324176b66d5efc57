use crate::openings::load_openings;
use crate::{ConfigError, TournamentConfig};
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
            return Err(ConfigError::Invalid("games_per_pair must be at least 1".to_owned()));
        }
        let mut players = Vec::with_capacity(config.players.len());
        for p in &config.players {
            let spec: PlayerSpec = p.parse()?;
            let canonical = spec.to_string();
            if players.contains(&canonical) {
                return Err(ConfigError::Invalid(format!("player {canonical:?} is listed twice")));
            }
            players.push(canonical);
        }
        config.draw_rules.parse::<eloworld_games::DrawRules>().map_err(ConfigError::Invalid)?;
        let mut openings = match &config.openings {
            Some(path) => load_openings(path, game)?,
            None => Vec::new(),
        };
        shuffle(&mut openings, config.seed);
        if let Some(limit) = config.openings_limit {
            openings.truncate(limit.max(1));
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
                    jobs.push(JobSpec { key, white, black, round, opening, seed });
                }
            }
        }
        Ok(Plan { config: config.clone(), game, players, openings, jobs })
    }

    /// Returns a fingerprint of everything that decides the games (not threads or db).
    #[must_use]
    pub fn fingerprint(&self) -> String {
        let mut h = fnv1a(self.game.name());
        let mut mix = |s: &str| h = splitmix64(h ^ fnv1a(s));
        mix(&self.config.draw_rules);
        mix(&self.config.max_plies.to_string());
        mix(if self.config.self_play { "self_play" } else { "" });
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
        let mut c = TournamentConfig::new("t", GameKind::Chess, vec!["a".into(), "b".into(), "c".into()]);
        c.games_per_pair = 4;
        let p = Plan::new(&c).expect("plan");
        assert_eq!(p.jobs.len(), 3 * 2 * 4);
        let ab = p.jobs.iter().filter(|j| j.white == 0 && j.black == 1).count();
        assert_eq!(ab, 4);
        assert_eq!(p.fingerprint(), Plan::new(&c).expect("plan").fingerprint());
        c.seed = 9;
        assert_ne!(p.fingerprint(), Plan::new(&c).expect("plan").fingerprint());
    }

    #[test]
    fn duplicate_players_are_refused() {
        let c = TournamentConfig::new("t", GameKind::Chess, vec!["a".into(), "a".into()]);
        assert!(Plan::new(&c).is_err());
    }
}
