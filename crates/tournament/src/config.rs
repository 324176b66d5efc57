use crate::adjudication::Adjudication;
use crate::ConfigError;
use eloworld_games::{DrawRules, GameKind};
use eloworld_ratings::sprt::{Sprt, SprtConfig, SprtModel};
use eloworld_ratings::RatingError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The default `max_plies`: a safety limit, adjudicated a draw with its own termination.
pub const DEFAULT_MAX_PLIES: u32 = 2000;

const fn default_game() -> GameKind {
    GameKind::Chess
}
const fn default_games_per_pair() -> u32 {
    2
}
const fn default_max_plies() -> u32 {
    DEFAULT_MAX_PLIES
}

/// A tournament's settings, as read from a TOML file (every field can also be given as a
/// flag of `eloworld tournament`).
///
/// ```toml
/// name = "quick"
/// game = "chess"
/// players = ["random_move", "first_move"]
/// games_per_pair = 10
/// seed = 1
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// The tournament's name (its key in the store).
    pub name: String,
    /// `chess` (the default), `squava` or `go`.
    #[serde(default = "default_game")]
    pub game: GameKind,
    /// Player specs; every ordered pair of distinct players meets.
    pub players: Vec<String>,
    /// Games per ordered pair (so each unordered pair plays twice this many, colours swapped).
    #[serde(default = "default_games_per_pair")]
    pub games_per_pair: u32,
    /// The tournament seed; every game's seed derives from it.
    #[serde(default)]
    pub seed: u64,
    /// Worker threads (default: all cores). Not part of the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// An openings file (EPD lines or PGN games); each opening is played with both colours.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<PathBuf>,
    /// Use at most this many openings from the file (or make this many random ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_limit: Option<usize>,
    /// Openings made by playing this many uniformly random plies from the start, drawn from
    /// the seed (`openings_limit` of them, default [`DEFAULT_RANDOM_OPENINGS`]) and stored
    /// with the plan: the openings of squava and Go, or of chess without a book. Refused
    /// together with `openings`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_openings: Option<u32>,
    /// Which pairs play from the openings: `all` (the default) or `fixed-pairs`, only the
    /// pairs whose two players play most moves by a fixed rule and so would replay one game
    /// from one start; the others keep the initial position (Murphy's Elo World's setting).
    #[serde(default, skip_serializing_if = "OpeningsFor::is_all")]
    pub openings_for: OpeningsFor,
    /// Plies after which a game is adjudicated a draw (`max-plies`).
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// `automatic` (fivefold, 75 moves: Elo World; the default) or `claimed` (threefold,
    /// fifty moves). Squava ignores it.
    #[serde(default)]
    pub draw_rules: DrawRules,
    /// Go: the board size, 2 to 25 (default 9). Refused for other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    /// Go: the komi in points, a multiple of ½ (default 7). Refused for other games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub komi: Option<f64>,
    /// Include each player against itself (self-play cells; Elo World keeps a few).
    #[serde(default)]
    pub self_play: bool,
    /// The database file (default `<name>.sqlite`). Not part of the plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub db: Option<String>,
    /// How games are scheduled: `pairs` (the default) or `random` (the Squava article's "random
    /// pairings": `games` games, each between an ordered pair drawn from the seed).
    #[serde(default, skip_serializing_if = "Schedule::is_pairs")]
    pub schedule: Schedule,
    /// How many of the first players a `gauntlet` seeds (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u32>,
    /// The number of games of a `random` schedule; the game budget of a `ladder` schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// A `ladder` schedule stops once every player's 95% half-width is within this (Elo).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// Games per batch of a `ladder` schedule (default: four per player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    /// Resign and draw adjudication from the engines' scores (`eloworld match -resign -draw`).
    #[serde(default, skip_serializing_if = "Adjudication::is_empty")]
    pub adjudication: Adjudication,
    /// Directories of Syzygy tables: a chess game reaching a position they hold ends with
    /// their result (`eloworld match -tb`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tablebases: Vec<PathBuf>,
    /// Probe the tables only for positions with at most this many pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablebase_pieces: Option<usize>,
    /// The PGN `TimeControl` tag of the games, when the players play on a clock
    /// (`eloworld match -each tc=…`); exported PGN carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// Chess960 (`eloworld match -variant fischerandom`): PGN carries `[Variant "Chess960"]`
    /// as fastchess writes it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    /// Whether a match's rounds are game pairs (one opening, colours swapped: `-games 2
    /// -repeat`) or single games (`-games 1`); a pair match is the default and not written.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub game_pairs: bool,
    /// A match's SPRT (`eloworld match -sprt`, or an `[sprt]` table in a tournament file):
    /// kept with the tournament so that the dashboard shows the same test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtSettings>,
    /// The engines as the run defines them (`eloworld match`: program, arguments, protocol,
    /// options, limits), one line each: part of the plan's fingerprint, so that an engine
    /// changed under the same name is never resumed as the engine it was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engine_definitions: Vec<String>,
}

/// The SPRT of a match as stored: hypotheses in Elo, error rates, and the model
/// (`normalized` or `logistic`), as fishtest and fastchess state a test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtSettings {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    #[serde(default = "default_error_rate")]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    #[serde(default = "default_error_rate")]
    pub beta: f64,
    /// How the Elo bounds are meant: `normalized` (the default) or `logistic`; an unknown
    /// model is an error when the settings are read.
    #[serde(default)]
    pub model: SprtModel,
}

const fn default_true() -> bool {
    true
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
const fn is_true(b: &bool) -> bool {
    *b
}

const fn default_error_rate() -> f64 {
    0.05
}

impl SprtSettings {
    /// Returns the test these settings describe.
    ///
    /// # Errors
    /// Bounds the test refuses (see [`Sprt::new`]).
    pub fn sprt(&self) -> Result<Sprt, RatingError> {
        Sprt::new(SprtConfig {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
        })
    }
}

impl From<SprtConfig> for SprtSettings {
    fn from(c: SprtConfig) -> SprtSettings {
        SprtSettings {
            elo0: c.elo0,
            elo1: c.elo1,
            alpha: c.alpha,
            beta: c.beta,
            model: c.model,
        }
    }
}

/// What replaying a stored game needs of its tournament's settings besides the moves: Go's
/// board size and komi (`None`: the defaults, 9 and 7; chess and squava have neither).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameSetup {
    /// Go: the board size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    /// Go: the komi in points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub komi: Option<f64>,
}

impl GameSetup {
    /// Reads the setup from a stored tournament's settings (TOML), ignoring every other
    /// setting, so that settings written by another eloworld version still give their size
    /// and komi; settings that are not TOML give the defaults.
    #[must_use]
    pub fn from_stored_settings(text: &str) -> GameSetup {
        toml::from_str(text).unwrap_or_default()
    }
}

/// The number of random openings a plan makes when `openings_limit` gives none.
pub const DEFAULT_RANDOM_OPENINGS: usize = 256;

/// Which pairs of a tournament play from its openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningsFor {
    /// Every game starts from an opening (each opening with both colours).
    #[default]
    All,
    /// Only the pairs that cannot vary: two players that play most of their moves by a fixed
    /// rule replay one game from one start, so each of their games needs an opening of its
    /// own to be new evidence; pairs that vary keep the initial position.
    FixedPairs,
}

impl OpeningsFor {
    /// Returns whether this is the default (kept out of the stored TOML).
    #[must_use]
    pub fn is_all(&self) -> bool {
        *self == OpeningsFor::All
    }

    /// The spelling in files: `all` or `fixed-pairs`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningsFor::All => "all",
            OpeningsFor::FixedPairs => "fixed-pairs",
        }
    }
}

impl std::str::FromStr for OpeningsFor {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "all" => Ok(OpeningsFor::All),
            "fixed-pairs" => Ok(OpeningsFor::FixedPairs),
            other => Err(format!(
                "openings_for = {other:?}: expected \"all\" or \"fixed-pairs\""
            )),
        }
    }
}

/// How a tournament's games are scheduled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// Every ordered pair plays `games_per_pair` games.
    #[default]
    Pairs,
    /// `games` games, each between an ordered pair drawn at random from the seed, in that
    /// order (the Squava article rates its players over 400 games of random pairings).
    Random,
    /// The first `seeds` players each meet every other player `games_per_pair` times with
    /// each colour (cutechess-cli's gauntlet); the others do not meet each other.
    Gauntlet,
    /// Batch after batch, the pairs whose next games make the ratings precise soonest
    /// (`eloworld_ladder::adaptive`), until every player is within `precision` or `games`
    /// are played; each batch is a tournament of its own in the store (`NAME/batch-0001`, …).
    Ladder,
}

impl Schedule {
    /// Returns whether this is the default schedule (kept out of the stored TOML).
    #[must_use]
    pub fn is_pairs(&self) -> bool {
        *self == Schedule::Pairs
    }
}

impl TournamentConfig {
    /// Creates settings with defaults for everything but the name and players.
    #[must_use]
    pub fn new(name: &str, game: GameKind, players: Vec<String>) -> TournamentConfig {
        TournamentConfig {
            name: name.to_owned(),
            game,
            players,
            games_per_pair: default_games_per_pair(),
            seed: 0,
            threads: None,
            openings: None,
            openings_limit: None,
            random_openings: None,
            openings_for: OpeningsFor::All,
            max_plies: DEFAULT_MAX_PLIES,
            draw_rules: DrawRules::default(),
            size: None,
            komi: None,
            self_play: false,
            db: None,
            schedule: Schedule::Pairs,
            seeds: None,
            games: None,
            precision: None,
            batch: None,
            adjudication: Adjudication::default(),
            tablebases: Vec::new(),
            tablebase_pieces: None,
            sprt: None,
            time_control: None,
            chess960: false,
            game_pairs: true,
            engine_definitions: Vec::new(),
        }
    }

    /// Reads settings from a TOML file.
    ///
    /// # Errors
    /// [`ConfigError::Read`], or [`ConfigError::Toml`] naming line and column.
    pub fn from_file(path: &Path) -> Result<TournamentConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        TournamentConfig::from_toml(&text).map_err(|message| ConfigError::Toml {
            path: path.to_owned(),
            message,
        })
    }

    /// Parses settings from TOML text; the error names line, column and what was expected.
    ///
    /// # Errors
    /// The parser's message.
    pub fn from_toml(text: &str) -> Result<TournamentConfig, String> {
        toml::from_str(text).map_err(|e| {
            let (line, col) = e
                .span()
                .map(|s| {
                    let before = &text[..s.start.min(text.len())];
                    (
                        before.matches('\n').count() + 1,
                        before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1,
                    )
                })
                .unwrap_or((0, 0));
            format!("line {line}, column {col}: {}", e.message())
        })
    }

    /// Returns what replaying one of this tournament's games needs besides its moves.
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        GameSetup {
            size: self.size,
            komi: self.komi,
        }
    }

    /// Returns the game kind.
    ///
    /// # Errors
    /// None today: the game is checked when the settings are read; kept for callers.
    pub fn game_kind(&self) -> Result<GameKind, ConfigError> {
        Ok(self.game)
    }

    /// Returns the database path: `db`, or `<name>.sqlite`.
    #[must_use]
    pub fn db_path(&self) -> String {
        self.db
            .clone()
            .unwrap_or_else(|| format!("{}.sqlite", self.name))
    }

    /// Returns the settings as TOML (kept in the store with the tournament).
    #[must_use]
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sprt_model_is_read_into_its_type_once() {
        let base = "name = \"m\"\ngame = \"chess\"\nplayers = [\"a\", \"b\"]\n[sprt]\nelo0 = 0.0\nelo1 = 5.0\n";
        let c =
            TournamentConfig::from_toml(&format!("{base}model = \"logistic\"\n")).expect("reads");
        assert_eq!(c.sprt.as_ref().map(|s| s.model), Some(SprtModel::Logistic));
        let c = TournamentConfig::from_toml(base).expect("reads");
        assert_eq!(
            c.sprt.as_ref().map(|s| s.model),
            Some(SprtModel::Normalized)
        );
        let back = TournamentConfig::from_toml(&c.to_toml()).expect("round trip");
        assert_eq!(back.sprt, c.sprt);
        let err = TournamentConfig::from_toml(&format!("{base}model = \"bogus\"\n"))
            .expect_err("an unknown model is refused when read");
        assert!(
            err.contains("bogus") && err.contains("normalized or logistic"),
            "{err}"
        );
    }

    use super::*;

    #[test]
    fn defaults_fill_in() {
        let c =
            TournamentConfig::from_toml("name = \"t\"\nplayers = [\"a\", \"b\"]\n").expect("toml");
        assert_eq!(c.game, GameKind::Chess);
        assert_eq!(c.draw_rules, DrawRules::Automatic);
        assert_eq!(c.games_per_pair, 2);
        assert_eq!(c.max_plies, DEFAULT_MAX_PLIES);
        assert_eq!(c.db_path(), "t.sqlite");
    }

    #[test]
    fn a_random_schedule_is_read_and_the_default_is_not_written() {
        let text = "name = \"t\"\nplayers = [\"a\", \"b\"]\nschedule = \"random\"\ngames = 400\n";
        let c = TournamentConfig::from_toml(text).expect("toml");
        assert_eq!((c.schedule, c.games), (Schedule::Random, Some(400)));
        assert!(c.to_toml().contains("schedule = \"random\""));
        let d =
            TournamentConfig::from_toml("name = \"t\"\nplayers = [\"a\", \"b\"]\n").expect("toml");
        assert_eq!(d.schedule, Schedule::Pairs);
        assert!(!d.to_toml().contains("schedule"));
        assert!(
            TournamentConfig::from_toml("name = \"t\"\nplayers = []\nschedule = \"swiss\"\n")
                .is_err()
        );
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let e = TournamentConfig::from_toml(
            "name = \"t\"\nplayers = [\"a\"]\ngames_per_pair = \"x\"\n",
        )
        .unwrap_err();
        assert!(e.starts_with("line 3"), "{e}");
        let e =
            TournamentConfig::from_toml("name = \"t\"\nplayers = []\nplayerz = 1\n").unwrap_err();
        assert!(e.contains("line 3") && e.contains("playerz"), "{e}");
    }

    #[test]
    fn enumerated_settings_name_their_valid_values() {
        let e = TournamentConfig::from_toml("name = \"t\"\nplayers = []\ngame = \"gomoku\"\n")
            .unwrap_err();
        assert!(
            e.contains("line 3") && e.contains("`chess`") && e.contains("`go`"),
            "{e}"
        );
        let e = TournamentConfig::from_toml("name = \"t\"\nplayers = []\ndraw_rules = \"fide\"\n")
            .unwrap_err();
        assert!(e.contains("`automatic`") && e.contains("`claimed`"), "{e}");
        let e = TournamentConfig::from_toml("name = \"t\"\nplayers = []\nschedule = \"swiss\"\n")
            .unwrap_err();
        assert!(e.contains("`pairs`") && e.contains("`random`"), "{e}");
        let c = TournamentConfig::from_toml(
            "name = \"t\"\nplayers = []\ngame = \"squava\"\ndraw_rules = \"claimed\"\n",
        )
        .expect("toml");
        assert_eq!(
            (c.game, c.draw_rules),
            (GameKind::Squava, DrawRules::Claimed)
        );
        assert!(
            c.to_toml().contains("game = \"squava\"")
                && c.to_toml().contains("draw_rules = \"claimed\"")
        );
    }
}
