//! Ladders: a fixed rating scale that a new player is placed on (Murphy's Elo World, SIGBOVIK
//! 2019, section 4: "the main use of the Elo World tournament is to benchmark some new engine
//! or algorithm for playing chess").
//!
//! A [`Ladder`] is a small text file (TOML) a user can read and version: the rungs (player
//! specs) with their ratings and 95% intervals on one scale, the first-move advantage fitted
//! with them, the engine versions they were measured with, and the W/D/L counts per ordered
//! pair they rest on. The ratings stay fixed: placing a player never moves the scale
//! (see [`crate::placement`]).
//!
//! # Quickstart
//! ```
//! use eloworld_ladder::ladder::{Ladder, LadderGame};
//! use eloworld_ratings::{GameList, Score};
//! let mut games = GameList::new();
//! for s in [Score::Win, Score::Win, Score::Draw, Score::Loss] {
//!     games.add("strong", "weak", s, true, None);
//!     games.add("weak", "strong", s.reversed(), true, None);
//! }
//! let ladder = Ladder::from_games("demo", LadderGame::Chess, &games)?;
//! let text = ladder.to_toml();
//! assert_eq!(Ladder::from_toml(&text)?, ladder);
//! assert!(ladder.rung("strong").map(|r| r.rating) > ladder.rung("weak").map(|r| r.rating));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use eloworld_ratings::mle::MleConfig;
use eloworld_ratings::Wdl;
use eloworld_ratings::{GameList, GameRecord, PairCounts, PlayerId, RatingError, Score};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::Path;

/// The version of the ladder file format this code writes (2: the rungs' covariance and
/// their intervals against their neighbours).
pub const FORMAT: u32 = 2;

/// What can go wrong with a ladder file.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// The text is not a ladder (TOML syntax, a missing or mistyped field).
    #[error("ladder file{}: {message}", path.as_deref().map(|p| format!(" {p}")).unwrap_or_default())]
    Syntax {
        /// The file, if the text came from one.
        path: Option<String>,
        /// Line, column and what was expected.
        message: String,
    },
    /// The text parses but does not make sense (a pair naming an unknown rung, a rung twice).
    #[error("ladder file{}: {message}", path.as_deref().map(|p| format!(" {p}")).unwrap_or_default())]
    Invalid {
        /// The file, if the text came from one.
        path: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// Rating the games failed.
    #[error(transparent)]
    Rating(#[from] RatingError),
}

/// The game a ladder's games were played in: `ratings` does not depend on the games
/// crate, so this is its own small enum, read and written as the game's name. An unknown
/// name is an error naming the ladder file, line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LadderGame {
    /// Chess.
    Chess,
    /// Squava.
    Squava,
    /// Go.
    Go,
}

impl LadderGame {
    /// Every game, in the order the names are listed.
    pub const ALL: [LadderGame; 3] = [LadderGame::Chess, LadderGame::Squava, LadderGame::Go];

    /// Returns the name used in ladder and tournament files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LadderGame::Chess => "chess",
            LadderGame::Squava => "squava",
            LadderGame::Go => "go",
        }
    }
}

impl std::fmt::Display for LadderGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for LadderGame {
    type Err = String;

    fn from_str(s: &str) -> Result<LadderGame, String> {
        LadderGame::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| format!("unknown game {s:?} (chess, squava, go)"))
    }
}

/// The draw rules a ladder's (chess) games were played under, read and written as their
/// names; `automatic` when a file gives none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LadderDrawRules {
    /// Fivefold repetition, the 75-move rule, insufficient material (Elo World's setting).
    #[default]
    Automatic,
    /// Threefold repetition, the fifty-move rule, insufficient material.
    Claimed,
}

impl LadderDrawRules {
    /// Returns the name used in ladder and tournament files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LadderDrawRules::Automatic => "automatic",
            LadderDrawRules::Claimed => "claimed",
        }
    }
}

/// One rung: a player and its rating on the ladder's scale.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rung {
    /// The player's spec (its identity in every store and table).
    pub player: String,
    /// Its rating (maximum likelihood, rounded to 0.1).
    pub rating: f64,
    /// The low end of its 95% interval.
    pub low: f64,
    /// The high end of its 95% interval.
    pub high: f64,
    /// Half the 95% interval of its rating's difference from the rung below (none for the
    /// lowest rung, or in a file of format 1).
    #[serde(default)]
    pub vs_below: Option<f64>,
    /// Half the 95% interval of its rating's difference from the rung above.
    #[serde(default)]
    pub vs_above: Option<f64>,
}

impl Rung {
    /// Returns the standard error implied by the 95% interval.
    #[must_use]
    pub fn error(&self) -> f64 {
        (self.high - self.low) / (2.0 * eloworld_ratings::convert::Z95)
    }
}

/// The games of one ordered pair, from White's side.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(from = "PairGamesText")]
pub struct PairGames {
    /// White's spec.
    pub white: String,
    /// Black's spec.
    pub black: String,
    /// White's wins, draws and losses.
    pub wdl: Wdl,
}

/// A pair's games as the ladder file writes them (`wins`, `draws`, `losses` beside the names).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairGamesText {
    white: String,
    black: String,
    wins: u64,
    draws: u64,
    losses: u64,
}

impl From<PairGamesText> for PairGames {
    fn from(t: PairGamesText) -> PairGames {
        PairGames {
            white: t.white,
            black: t.black,
            wdl: Wdl::new(t.wins, t.draws, t.losses),
        }
    }
}

/// An external program the rungs were measured with, and what it said its version was.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineVersion {
    /// The command (`stockfish`).
    pub command: String,
    /// Its own words about its version (`Stockfish 16 by the Stockfish developers`).
    pub version: String,
}

/// A ladder: the fixed scale a new player is placed on.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// The ladder's name (`elo-world`).
    pub name: String,
    /// The game.
    pub game: LadderGame,
    /// The draw rules the games were played under.
    #[serde(default)]
    pub draw_rules: LadderDrawRules,
    /// The ply limit the games were played under.
    #[serde(default)]
    pub max_plies: Option<u32>,
    /// The openings file the games started from (none: the initial position).
    #[serde(default)]
    pub openings: Option<String>,
    /// Openings of this many random plies from the start, drawn from each batch's seed (none:
    /// no random openings); squava's and Go's openings.
    #[serde(default)]
    pub random_openings: Option<u32>,
    /// Which pairs play from the openings: `all`, or `fixed-pairs` (only the pairs of two
    /// players that would replay one game from one start); none: all.
    #[serde(default)]
    pub openings_for: Option<String>,
    /// Go: the board size the games were played on (none: the game's default, 9).
    #[serde(default)]
    pub size: Option<u8>,
    /// Go: the komi the games were played with, in points (none: the default, 7).
    #[serde(default)]
    pub komi: Option<f64>,
    /// White's advantage in Elo, fitted with the ratings.
    pub advantage: f64,
    /// The command that built this file.
    #[serde(default)]
    pub command: String,
    /// Free text: what the field is, how long it took, what was scaled down and why.
    #[serde(default)]
    pub note: String,
    /// The external programs the rungs were measured with.
    #[serde(default)]
    pub engines: Vec<EngineVersion>,
    /// The rungs, weakest first.
    pub rungs: Vec<Rung>,
    /// The covariance of the rungs' ratings (Elo², rows and columns in rung order; the
    /// inverse of the fit's observed information, see [`eloworld_ratings::mle`]): what a placement needs
    /// to add the scale's own uncertainty to its interval. Empty in a file of format 1.
    #[serde(default)]
    pub covariance: Vec<Vec<f64>>,
    /// The W/D/L counts per ordered pair the ratings rest on.
    #[serde(default)]
    pub games: Vec<PairGames>,
}

/// Rounds to one decimal, so that what is written is what is read back.
fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Ladder {
    /// Builds a ladder from games: maximum-likelihood ratings (average 1000, fitted first-move
    /// advantage, see [`eloworld_ratings::mle`]) of every player in the largest connected group.
    ///
    /// # Errors
    /// [`LadderError::Rating`] when there are no games to rate.
    pub fn from_games(
        name: &str,
        game: LadderGame,
        games: &GameList,
    ) -> Result<Ladder, LadderError> {
        Ladder::from_games_with(name, game, games, &MleConfig::new())
    }

    /// As [`Ladder::from_games`], with the fit's settings (an anchor, Davidson draws).
    ///
    /// # Errors
    /// As [`Ladder::from_games`].
    pub fn from_games_with(
        name: &str,
        game: LadderGame,
        games: &GameList,
        config: &MleConfig,
    ) -> Result<Ladder, LadderError> {
        let counts = games.counts();
        let fit = eloworld_ratings::fit_mle(&counts, *config)?;
        let names = games.names();
        let mut order: Vec<usize> = (0..names.len())
            .filter(|&i| fit.group[i] == 0 && fit.ratings[i].is_finite())
            .collect();
        order.sort_by(|&a, &b| {
            tenth(fit.ratings[a])
                .total_cmp(&tenth(fit.ratings[b]))
                .then(names[a].cmp(&names[b]))
        });
        // A rung whose rating is a bound has no covariance: its own interval's variance,
        // independent of the others.
        let own = |i: usize| {
            ((fit.high[i] - fit.low[i]) / (2.0 * eloworld_ratings::convert::Z95)).powi(2)
        };
        let covariance: Vec<Vec<f64>> = order
            .iter()
            .map(|&i| {
                order
                    .iter()
                    .map(|&j| {
                        let c = fit.covariance(i, j);
                        if c.is_finite() {
                            tenth(c)
                        } else if i == j {
                            tenth(own(i))
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        let difference = |a: usize, b: usize| {
            let v = covariance[a][a] + covariance[b][b] - 2.0 * covariance[a][b];
            tenth(eloworld_ratings::convert::Z95 * v.max(0.0).sqrt())
        };
        let rungs: Vec<Rung> = order
            .iter()
            .enumerate()
            .map(|(k, &i)| Rung {
                player: names[i].clone(),
                rating: tenth(fit.ratings[i]),
                low: tenth(fit.low[i]),
                high: tenth(fit.high[i]),
                vs_below: (k > 0).then(|| difference(k, k - 1)),
                vs_above: (k + 1 < order.len()).then(|| difference(k, k + 1)),
            })
            .collect();
        let member = |i: usize| fit.group[i] == 0 && fit.ratings[i].is_finite();
        let mut pairs = Vec::new();
        for w in 0..names.len() {
            for b in 0..names.len() {
                if w == b || !member(w) || !member(b) {
                    continue;
                }
                let wdl = Wdl::from_score_counts(counts.coloured(w, b));
                if wdl.games() > 0 {
                    pairs.push(PairGames {
                        white: names[w].clone(),
                        black: names[b].clone(),
                        wdl,
                    });
                }
            }
        }
        Ok(Ladder {
            format: FORMAT,
            name: name.to_owned(),
            game,
            draw_rules: LadderDrawRules::default(),
            max_plies: None,
            openings: None,
            random_openings: None,
            openings_for: None,
            size: None,
            komi: None,
            advantage: tenth(fit.advantage.0),
            command: String::new(),
            note: String::new(),
            engines: Vec::new(),
            rungs,
            covariance,
            games: pairs,
        })
    }

    /// Returns the rungs' covariance as a row-major matrix in rung order: the file's, or
    /// (format 1) each rung's variance from its interval, taken as independent.
    #[must_use]
    pub fn covariance_matrix(&self) -> Vec<f64> {
        let n = self.rungs.len();
        if self.covariance.len() == n && self.covariance.iter().all(|row| row.len() == n) {
            return self.covariance.iter().flatten().copied().collect();
        }
        let mut m = vec![0.0; n * n];
        for (i, r) in self.rungs.iter().enumerate() {
            m[i * n + i] = r.error().powi(2);
        }
        m
    }

    /// Returns the widest 95% half-width of a rung on the scale.
    #[must_use]
    pub fn widest_half_width(&self) -> f64 {
        self.rungs
            .iter()
            .map(|r| 0.5 * (r.high - r.low))
            .fold(0.0, f64::max)
    }

    /// Returns the rung of a player, if it is on the ladder.
    #[must_use]
    pub fn rung(&self, player: &str) -> Option<&Rung> {
        self.rungs.iter().find(|r| r.player == player)
    }

    /// Returns the games the ladder rests on, one record per game (coloured; in no
    /// particular order), for any rating method.
    #[must_use]
    pub fn game_list(&self) -> GameList {
        let mut list = GameList::case_sensitive();
        for r in &self.rungs {
            list.player(&r.player);
        }
        for p in &self.games {
            let first = list.player(&p.white);
            let second = list.player(&p.black);
            for (score, n) in [
                (Score::Win, p.wdl.wins),
                (Score::Draw, p.wdl.draws),
                (Score::Loss, p.wdl.losses),
            ] {
                for _ in 0..n {
                    list.push(GameRecord {
                        first,
                        second,
                        score,
                        coloured: true,
                        period: None,
                    });
                }
            }
        }
        list
    }

    /// Returns the counts per ordered pair, players in rung order.
    #[must_use]
    pub fn counts(&self) -> PairCounts {
        let mut counts = PairCounts::new(self.rungs.len());
        let index = |name: &str| {
            self.rungs
                .iter()
                .position(|r| r.player == name)
                .map(|i| PlayerId(i as u32))
        };
        for p in &self.games {
            if let (Some(w), Some(b)) = (index(&p.white), index(&p.black)) {
                let n = |c: u64| u32::try_from(c).unwrap_or(u32::MAX);
                counts.add(w, b, Score::Win, true, n(p.wdl.wins));
                counts.add(w, b, Score::Draw, true, n(p.wdl.draws));
                counts.add(w, b, Score::Loss, true, n(p.wdl.losses));
            }
        }
        counts
    }

    /// Returns the number of games the ladder rests on.
    #[must_use]
    pub fn game_count(&self) -> u64 {
        self.games.iter().map(|p| p.wdl.games()).sum()
    }

    /// Returns the games one new row of the ladder's round robin would cost: the new player
    /// against every rung with the ladder's mean games per ordered pair, both colours.
    #[must_use]
    pub fn round_robin_row_games(&self) -> u64 {
        let cells = self.games.len().max(1) as u64;
        let per_cell = self.game_count().div_ceil(cells);
        2 * per_cell * self.rungs.len() as u64
    }

    /// Parses a ladder from TOML text.
    ///
    /// # Errors
    /// [`LadderError::Syntax`] naming line and column; [`LadderError::Invalid`] for a ladder
    /// that does not hold together (a rung listed twice, a pair naming no rung, an interval
    /// that does not surround its rating, a newer format).
    pub fn from_toml(text: &str) -> Result<Ladder, LadderError> {
        let ladder: Ladder = toml::from_str(text).map_err(|e| LadderError::Syntax {
            path: None,
            message: located(text, &e),
        })?;
        ladder.check().map_err(|message| LadderError::Invalid {
            path: None,
            message,
        })?;
        Ok(ladder)
    }

    fn check(&self) -> Result<(), String> {
        if self.format > FORMAT {
            return Err(format!(
                "format {} is newer than this eloworld reads ({FORMAT})",
                self.format
            ));
        }
        if self.rungs.is_empty() {
            return Err("no rungs".to_owned());
        }
        if !self.advantage.is_finite() {
            return Err("advantage is not a number".to_owned());
        }
        let mut seen = std::collections::HashSet::new();
        for r in &self.rungs {
            if !seen.insert(r.player.as_str()) {
                return Err(format!("rung {:?} is listed twice", r.player));
            }
            if !(r.rating.is_finite() && r.low <= r.rating && r.rating <= r.high) {
                return Err(format!(
                    "rung {:?}: rating {} is not inside its interval [{}, {}]",
                    r.player, r.rating, r.low, r.high
                ));
            }
        }
        let n = self.rungs.len();
        if !self.covariance.is_empty()
            && (self.covariance.len() != n || self.covariance.iter().any(|row| row.len() != n))
        {
            return Err(format!(
                "covariance must have {n} rows of {n} numbers, one per rung"
            ));
        }
        for p in &self.games {
            for name in [&p.white, &p.black] {
                if !seen.contains(name.as_str()) {
                    return Err(format!(
                        "games {:?} vs {:?}: {name:?} is not a rung",
                        p.white, p.black
                    ));
                }
            }
            if p.white == p.black {
                return Err(format!("games of {:?} against itself", p.white));
            }
        }
        Ok(())
    }

    /// Reads a ladder file.
    ///
    /// # Errors
    /// [`LadderError::Io`], or as [`Ladder::from_toml`] with the path named.
    pub fn read(path: &Path) -> Result<Ladder, LadderError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| LadderError::Io {
            path: shown.clone(),
            source,
        })?;
        Ladder::from_toml(&text).map_err(|e| match e {
            LadderError::Syntax { message, .. } => LadderError::Syntax {
                path: Some(shown),
                message,
            },
            LadderError::Invalid { message, .. } => LadderError::Invalid {
                path: Some(shown),
                message,
            },
            other => other,
        })
    }

    /// Writes the ladder file (through a temporary file, so a failed write leaves the old one).
    ///
    /// # Errors
    /// [`LadderError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), LadderError> {
        let io = |source| LadderError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_toml()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Returns the ladder as TOML: one line per rung and per ordered pair.
    #[must_use]
    pub fn to_toml(&self) -> String {
        let q = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# A ladder of eloworld: ratings held fixed for `eloworld place` (maximum likelihood,"
        );
        let _ = writeln!(
            out,
            "# 95% intervals, White's advantage fitted with them) and the games they rest on."
        );
        let _ = writeln!(out, "format = {}", self.format);
        let _ = writeln!(out, "name = {}", q(&self.name));
        let _ = writeln!(out, "game = {}", q(self.game.name()));
        let _ = writeln!(out, "draw_rules = {}", q(self.draw_rules.name()));
        if let Some(m) = self.max_plies {
            let _ = writeln!(out, "max_plies = {m}");
        }
        if let Some(o) = &self.openings {
            let _ = writeln!(out, "openings = {}", q(o));
        }
        if let Some(plies) = self.random_openings {
            let _ = writeln!(out, "random_openings = {plies}");
        }
        if let Some(o) = &self.openings_for {
            let _ = writeln!(out, "openings_for = {}", q(o));
        }
        if let Some(size) = self.size {
            let _ = writeln!(out, "size = {size}");
        }
        if let Some(komi) = self.komi {
            let _ = writeln!(out, "komi = {komi:?}");
        }
        let _ = writeln!(out, "advantage = {:.1}", self.advantage);
        if !self.command.is_empty() {
            let _ = writeln!(out, "command = {}", q(&self.command));
        }
        if !self.note.is_empty() {
            let _ = writeln!(out, "note = {}", q(&self.note));
        }
        let _ = writeln!(out, "engines = [");
        for e in &self.engines {
            let _ = writeln!(
                out,
                "  {{ command = {}, version = {} }},",
                q(&e.command),
                q(&e.version)
            );
        }
        let _ = writeln!(out, "]");
        let _ = writeln!(out, "rungs = [");
        for r in &self.rungs {
            let neighbour = |name: &str, x: Option<f64>| {
                x.map(|x| format!(", {name} = {x:.1}")).unwrap_or_default()
            };
            let _ = writeln!(
                out,
                "  {{ player = {}, rating = {:.1}, low = {:.1}, high = {:.1}{}{} }},",
                q(&r.player),
                r.rating,
                r.low,
                r.high,
                neighbour("vs_below", r.vs_below),
                neighbour("vs_above", r.vs_above)
            );
        }
        let _ = writeln!(out, "]");
        if !self.covariance.is_empty() {
            let _ = writeln!(
                out,
                "# The rungs' covariance (Elo², rung order): a placement adds it to its interval."
            );
            let _ = writeln!(out, "covariance = [");
            for row in &self.covariance {
                let cells: Vec<String> = row.iter().map(|c| format!("{c:.1}")).collect();
                let _ = writeln!(out, "  [{}],", cells.join(", "));
            }
            let _ = writeln!(out, "]");
        }
        let _ = writeln!(out, "games = [");
        for p in &self.games {
            let _ = writeln!(
                out,
                "  {{ white = {}, black = {}, wins = {}, draws = {}, losses = {} }},",
                q(&p.white),
                q(&p.black),
                p.wdl.wins,
                p.wdl.draws,
                p.wdl.losses
            );
        }
        let _ = writeln!(out, "]");
        out
    }
}

/// Formats a TOML error with its line and column.
fn located(text: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(s) => {
            let before = &text[..s.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {column}: {}", e.message())
        }
        None => e.message().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eloworld_ratings::synth::{simulate, SynthConfig};

    fn synthetic_ladder() -> Ladder {
        let s = simulate(&SynthConfig {
            players: 6,
            games: 6 * 5 * 40,
            spread: 200.0,
            draw_nu: 0.5,
            advantage: 30.0,
            seed: 3,
            cycle_margin: 0.0,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let mut l = Ladder::from_games("synthetic", LadderGame::Chess, &s.games)
            .unwrap_or_else(|e| panic!("{e}"));
        l.engines.push(EngineVersion {
            command: "stockfish".into(),
            version: "Stockfish 16 by \"the\" developers".into(),
        });
        l.command = "eloworld ladder build --db x.sqlite --out x.toml".into();
        l.note = "a note\nover two lines".into();
        l.openings = Some("data/books/x.epd".into());
        l.max_plies = Some(2000);
        l.size = Some(13);
        l.komi = Some(6.5);
        l
    }

    #[test]
    fn a_ladder_file_round_trips() {
        let l = synthetic_ladder();
        assert_eq!(l.rungs.len(), 6);
        assert_eq!(l.games.len(), 30);
        assert_eq!(l.game_count(), 1200);
        let text = l.to_toml();
        let back = Ladder::from_toml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, l);
        assert_eq!(back.to_toml(), text);
        // The counts read back rate to the same scale (to the file's rounding).
        let again = Ladder::from_games("synthetic", LadderGame::Chess, &back.game_list())
            .unwrap_or_else(|e| panic!("{e}"));
        for r in &l.rungs {
            let a = again.rung(&r.player).map_or(f64::NAN, |x| x.rating);
            assert!((a - r.rating).abs() <= 0.1, "{} {a}", r.rating);
        }
        // Weakest first, and a row of the round robin is 2 × 40 games × 6 rungs.
        assert!(l.rungs.windows(2).all(|w| w[0].rating <= w[1].rating));
        assert_eq!(l.round_robin_row_games(), 480);
    }

    #[test]
    fn bad_ladders_are_refused_with_where_and_what() {
        let l = synthetic_ladder();
        let text = l.to_toml().replace("advantage = ", "advantage = \"x\" #");
        let e = Ladder::from_toml(&text)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line") && e.contains("column"), "{e}");
        let first = l.rungs[0].player.clone();
        let text = l
            .to_toml()
            .replace(&format!("white = \"{first}\""), "white = \"nobody\"");
        let e = Ladder::from_toml(&text)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"nobody\" is not a rung"), "{e}");
        let e = Ladder::from_toml(
            "format = 9\nname = \"x\"\ngame = \"chess\"\nadvantage = 0\nrungs = []\n",
        )
        .map(|_| ())
        .unwrap_err()
        .to_string();
        assert!(e.contains("newer"), "{e}");
        let e = Ladder::from_toml("format = 1\nname = \"x\"\ngame = \"chess\"\nadvantage = 0\nrungs = [{ player = \"a\", rating = 5.0, low = 6.0, high = 7.0 }]\n")
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not inside its interval"), "{e}");
    }

    #[test]
    fn the_game_and_draw_rules_are_read_into_types_and_unknown_ones_name_the_file() {
        let rung = "rungs = [{ player = \"a\", rating = 5.0, low = 4.0, high = 6.0 }]\n";
        let head = "format = 2\nname = \"x\"\nadvantage = 0\n";
        // A file without draw rules (older ladders) reads as automatic.
        let l = Ladder::from_toml(&format!("{head}game = \"go\"\n{rung}")).unwrap();
        assert_eq!(
            (l.game, l.draw_rules),
            (LadderGame::Go, LadderDrawRules::Automatic)
        );
        let l = Ladder::from_toml(&format!(
            "{head}game = \"chess\"\ndraw_rules = \"claimed\"\n{rung}"
        ))
        .unwrap();
        assert_eq!(
            (l.game, l.draw_rules),
            (LadderGame::Chess, LadderDrawRules::Claimed)
        );
        assert!(l
            .to_toml()
            .contains("game = \"chess\"\ndraw_rules = \"claimed\"\n"));
        let dir = std::env::temp_dir().join(format!("eloworld-ladder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (field, bad) in [("game", "checkers"), ("draw_rules", "never")] {
            let path = dir.join(format!("{field}.toml"));
            let game = if field == "game" { bad } else { "chess" };
            let mut text = format!("{head}game = \"{game}\"\n");
            if field == "draw_rules" {
                text.push_str(&format!("draw_rules = \"{bad}\"\n"));
            }
            text.push_str(rung);
            std::fs::write(&path, text).unwrap();
            let e = Ladder::read(&path).unwrap_err().to_string();
            assert!(e.contains(&path.display().to_string()), "{e}");
            assert!(e.contains(&format!("unknown variant `{bad}`")), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!("squava".parse::<LadderGame>(), Ok(LadderGame::Squava));
        assert!("checkers".parse::<LadderGame>().is_err());
    }
}
