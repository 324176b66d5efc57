//! The ladders shipped in `data/ladders/`, compiled in so that a ladder's name works from
//! any directory, and the lookup of a ladder argument (a file or a name). A ladder's game
//! and draw rules are read into types here, once. Building a ladder from a database and
//! refitting one from its own games.

use crate::error::{AppError, AppResult, Context};
use eloworld_games::{DrawRules, GameKind};
use eloworld_ladder::ladder::{EngineVersion, Ladder, LadderDrawRules, LadderGame};
use eloworld_players::engine::{builtin_definitions, read_definitions, EngineDef, Session};
use eloworld_players::PlayerSpec;
use eloworld_ratings::mle::MleConfig;
use eloworld_ratings::Games;
use eloworld_tournament::{open_store, TournamentConfig};
use std::path::Path;

/// (name, file text) of every shipped ladder.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "elo-world",
        include_str!("../../../data/ladders/elo-world.toml"),
    ),
    (
        "elo-world-in-process",
        include_str!("../../../data/ladders/elo-world-in-process.toml"),
    ),
    ("go-9x9", include_str!("../../../data/ladders/go-9x9.toml")),
];

/// Returns every shipped ladder by name, read.
///
/// # Errors
/// A shipped ladder that does not read (a defect of this build).
pub fn shipped() -> AppResult<Vec<(&'static str, Ladder)>> {
    SHIPPED
        .iter()
        .map(|(name, text)| {
            Ladder::from_toml(text)
                .with_context(|| format!("shipped ladder {name}"))
                .map(|l| (*name, l))
        })
        .collect()
}

/// Reads a ladder argument: an existing file, else a shipped ladder of that name.
///
/// # Errors
/// Neither a readable ladder file nor a shipped ladder's name.
pub fn load(arg: &str) -> AppResult<Ladder> {
    let path = Path::new(arg);
    if path.is_file() {
        return Ok(Ladder::read(path)?);
    }
    let Some((_, text)) = SHIPPED.iter().find(|(name, _)| *name == arg) else {
        let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
        crate::invalid!(
            "ladder {arg:?}: no such file, nor a shipped ladder (shipped: {})",
            names.join(", ")
        );
    };
    Ladder::from_toml(text).with_context(|| format!("shipped ladder {arg}"))
}

/// The rules a ladder's games were played under, as types.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderRules {
    /// The game.
    pub game: GameKind,
    /// The draw rules (chess).
    pub draw_rules: DrawRules,
    /// Go: the board size (none: 9).
    pub size: Option<u8>,
    /// Go: the komi (none: 7).
    pub komi: Option<f64>,
}

impl LadderRules {
    /// Reads the ladder's `game`, `draw_rules`, `size` and `komi` (the file's reader has
    /// refused unknown names).
    ///
    /// # Errors
    /// None now: kept fallible for rules a ladder may not support.
    pub fn of(ladder: &Ladder) -> AppResult<LadderRules> {
        let game = match ladder.game {
            LadderGame::Chess => GameKind::Chess,
            LadderGame::Squava => GameKind::Squava,
            LadderGame::Go => GameKind::Go,
        };
        let draw_rules = match ladder.draw_rules {
            LadderDrawRules::Automatic => DrawRules::Automatic,
            LadderDrawRules::Claimed => DrawRules::Claimed,
        };
        Ok(LadderRules {
            game,
            draw_rules,
            size: ladder.size,
            komi: ladder.komi,
        })
    }
}

/// What a ladder is built from (`eloworld ladder build`).
#[derive(Clone, Debug)]
pub struct BuildRequest<'a> {
    /// The results database.
    pub db: &'a str,
    /// Only this tournament of it (default: every game in it).
    pub tournament: Option<&'a str>,
    /// The ladder file to write.
    pub out: &'a Path,
    /// The ladder's name (default: the output file's stem).
    pub name: Option<&'a str>,
    /// This rung gets this rating (default: the rungs average 1000).
    pub anchor: Option<(&'a str, f64)>,
    /// Engine definitions the games were played with (to record their versions).
    pub engines: Option<&'a Path>,
    /// The note kept in the file.
    pub note: &'a str,
}

impl BuildRequest<'_> {
    /// Returns the ladder's name: the one given, else the output file's stem (`ladder`
    /// when it has none).
    #[must_use]
    pub fn name(&self) -> String {
        self.name.map_or_else(
            || {
                self.out
                    .file_stem()
                    .map_or("ladder".to_owned(), |s| s.to_string_lossy().into_owned())
            },
            str::to_owned,
        )
    }

    /// Returns the command that builds this ladder again, as the file keeps it.
    #[must_use]
    pub fn command(&self) -> String {
        let mut command = format!("eloworld ladder build --db {}", self.db);
        if let Some(t) = self.tournament {
            command.push_str(&format!(" --tournament {t:?}"));
        }
        if let Some((n, e)) = self.anchor {
            command.push_str(&format!(" --anchor {n}={e}"));
        }
        command.push_str(&format!(" --out {}", self.out.display()));
        command
    }
}

/// A ladder built from a database, with what the front end should say about it.
#[derive(Clone, Debug)]
pub struct BuiltLadder {
    /// The ladder.
    pub ladder: Ladder,
    /// The tournament whose rules the ladder records.
    pub rules_of: String,
    /// Other tournaments of the games played under other rules than that one.
    pub other_rules: Vec<String>,
    /// Players without games linking them to the largest group: not rungs.
    pub left_out: usize,
    /// The copies of earlier games the store holds, each counted once in the fit.
    pub copies: eloworld_tournament::Copies,
}

/// Builds a ladder from stored results and writes it to `req.out`: maximum-likelihood
/// ratings with 95% intervals, White's advantage, the W/D/L per ordered pair, the rules of
/// the first tournament with finished games, the engines' versions.
///
/// # Errors
/// No finished games; stored settings that do not read; an anchor that is not a player;
/// a fit that fails; engine definitions that do not read; a file that cannot be written.
pub fn build(req: &BuildRequest<'_>) -> AppResult<BuiltLadder> {
    let store = open_store(req.db, false)?;
    let rows = store.results(req.tournament)?;
    if rows.is_empty() {
        crate::invalid!(
            "{}: no finished games{}",
            req.db,
            req.tournament
                .map(|t| format!(" in tournament {t:?}"))
                .unwrap_or_default()
        );
    }
    let mut games = Games::case_sensitive();
    eloworld_tournament::add_results(&mut games, &rows);
    let tournaments: Vec<_> = store
        .tournaments()?
        .into_iter()
        .filter(|t| req.tournament.is_none_or(|n| n == t.name))
        .filter(|t| t.done > 0)
        .collect();
    let Some(first) = tournaments.first() else {
        crate::invalid!("the database holds no tournament with finished games");
    };
    let settings = TournamentConfig::from_toml(&first.config)
        .map_err(|m| AppError::Invalid(format!("stored settings of {:?}: {m}", first.name)))?;
    let other_rules = tournaments[1..]
        .iter()
        .filter(|t| {
            TournamentConfig::from_toml(&t.config).is_ok_and(|c| {
                c.draw_rules != settings.draw_rules
                    || (c.openings != settings.openings && c.openings_for.is_all())
                    || c.setup() != settings.setup()
            })
        })
        .map(|t| t.name.clone())
        .collect();
    let mut config = MleConfig::new();
    if let Some((name, elo)) = req.anchor {
        let Some(id) = games.find(name) else {
            crate::invalid!("--anchor {name}: not a player of the games");
        };
        config.anchor = Some((id.index(), elo));
    }
    let game = match first.game {
        GameKind::Chess => LadderGame::Chess,
        GameKind::Squava => LadderGame::Squava,
        GameKind::Go => LadderGame::Go,
    };
    let mut ladder = Ladder::from_games_with(&req.name(), game, &games, &config)?;
    let left_out = games.player_count() - ladder.rungs.len();
    ladder.draw_rules = match settings.draw_rules {
        DrawRules::Automatic => LadderDrawRules::Automatic,
        DrawRules::Claimed => LadderDrawRules::Claimed,
    };
    ladder.max_plies = Some(settings.max_plies);
    // The openings as the latest batch plays them: what a placement on the ladder meets.
    let latest = tournaments
        .last()
        .and_then(|t| TournamentConfig::from_toml(&t.config).ok())
        .unwrap_or_else(|| settings.clone());
    ladder.openings = latest.openings.map(|p| p.display().to_string());
    ladder.random_openings = latest.random_openings;
    ladder.openings_for =
        (!latest.openings_for.is_all()).then(|| latest.openings_for.name().to_owned());
    ladder.size = settings.size;
    ladder.komi = settings.komi;
    ladder.command = req.command();
    req.note.clone_into(&mut ladder.note);
    ladder.engines = engine_versions(&ladder, req.engines)?;
    ladder
        .write(req.out)
        .with_context(|| format!("writing the ladder {}", req.out.display()))?;
    Ok(BuiltLadder {
        ladder,
        rules_of: first.name.clone(),
        other_rules,
        left_out,
        copies: eloworld_tournament::Copies::of(&rows),
    })
}

/// Refits a ladder from the games it ships (W/D/L per ordered pair) in this version's
/// format, its rules, command, note and engines kept.
///
/// # Errors
/// The fit fails.
pub fn refit(old: &Ladder) -> AppResult<Ladder> {
    let mut new = Ladder::from_games(&old.name, old.game, &old.game_list())?;
    new.draw_rules = old.draw_rules;
    new.max_plies = old.max_plies;
    new.openings.clone_from(&old.openings);
    new.random_openings = old.random_openings;
    new.openings_for.clone_from(&old.openings_for);
    new.command.clone_from(&old.command);
    new.note.clone_from(&old.note);
    new.engines.clone_from(&old.engines);
    Ok(new)
}

/// Returns the engine definition a rung's player runs on, if it is an engine.
fn definition_of(player: &str, defs: &[EngineDef]) -> Option<EngineDef> {
    let spec: PlayerSpec = player.parse().ok()?;
    let name = match spec.name.as_str() {
        "worstfish" => "stockfish0",
        n if n.starts_with("stockfish") && (n.ends_with('k') || n.ends_with('m')) => "stockfish",
        n => n,
    };
    defs.iter().rev().find(|d| d.name == name).cloned()
}

/// Asks every engine the rungs run on for its name and version (one handshake per program).
fn engine_versions(ladder: &Ladder, engines: Option<&Path>) -> AppResult<Vec<EngineVersion>> {
    let mut defs = builtin_definitions();
    if let Some(path) = engines {
        defs.extend(read_definitions(path)?);
    }
    let mut versions: Vec<EngineVersion> = Vec::new();
    for rung in &ladder.rungs {
        let Some(def) = definition_of(&rung.player, &defs) else {
            continue;
        };
        if versions.iter().any(|v| v.command == def.command) {
            continue;
        }
        let version = match Session::start(&def) {
            Ok(s) if !s.id_name().is_empty() => s.id_name().to_owned(),
            Ok(_) => "(the engine did not name itself)".to_owned(),
            Err(e) => format!("(not runnable here: {e})"),
        };
        versions.push(EngineVersion {
            command: def.command.clone(),
            version,
        });
    }
    Ok(versions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_ladder_reads_under_its_name() -> AppResult<()> {
        let names: Vec<&str> = shipped()?.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["elo-world", "elo-world-in-process", "go-9x9"]);
        Ok(())
    }

    #[test]
    fn a_build_request_names_its_ladder_and_the_command_that_builds_it() {
        let mut req = BuildRequest {
            db: "games.sqlite",
            tournament: None,
            out: Path::new("data/my-field.toml"),
            name: None,
            anchor: None,
            engines: None,
            note: "",
        };
        assert_eq!(req.name(), "my-field");
        assert_eq!(
            req.command(),
            "eloworld ladder build --db games.sqlite --out data/my-field.toml"
        );
        req.name = Some("field");
        req.tournament = Some("round 2");
        req.anchor = Some(("random_move", 0.0));
        assert_eq!(req.name(), "field");
        assert_eq!(
            req.command(),
            "eloworld ladder build --db games.sqlite --tournament \"round 2\" --anchor random_move=0 --out data/my-field.toml"
        );
    }
}
