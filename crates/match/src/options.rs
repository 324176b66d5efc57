//! The command-line grammar that fastchess and cutechess-cli share: `-option key=value …`
//! groups, read into typed match options ([`parse`]) and from them the match's settings
//! ([`MatchOptions::settings`]). An option or key that neither tool knows (or that eloworld
//! does not do) is an error that names it. A front end only splits the words and prints.

use super::{Colours, MatchOpenings, MatchSettings, Pairing};
use eloworld_app::error::{AppError, AppResult, Context as _};
use eloworld_players::engine::{Budget, EngineDef, KeptLines, OptionValue, Protocol, TimeControl};
use eloworld_ratings::sprt::{SprtConfig, SprtModel};
use eloworld_tournament::adjudication::{Adjudication, DrawRule, ResignRule};
use eloworld_tournament::pgn::{CommentFields, Regex};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One engine's settings (`-engine …`, with `-each …` filling what it leaves out).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineOptions {
    /// The player's name (`name=`).
    pub name: Option<String>,
    /// The program (`cmd=`).
    pub cmd: Option<String>,
    /// The working directory the program is found from (`dir=`).
    pub dir: Option<PathBuf>,
    /// Arguments (`args=`, split at spaces).
    pub args: Option<Vec<String>>,
    /// The protocol (`proto=uci|xboard`).
    pub proto: Option<Protocol>,
    /// The time control (`tc=`).
    pub tc: Option<TimeControl>,
    /// Milliseconds per move (`st=` seconds).
    pub movetime_ms: Option<u64>,
    /// Nodes per move (`nodes=`).
    pub nodes: Option<u64>,
    /// Depth per move (`depth=`).
    pub depth: Option<u32>,
    /// Grace past the flag in milliseconds (`timemargin=`).
    pub time_margin_ms: Option<u64>,
    /// Engine options (`option.Name=value`).
    pub options: BTreeMap<String, String>,
    /// A Polyglot book the runner plays from (`book=`).
    pub book: Option<PathBuf>,
    /// Full moves played from the book at most (`bookdepth=`).
    pub book_depth: Option<u32>,
    /// Thinks on the opponent's time (`ponder`, cutechess-cli).
    pub ponder: Option<bool>,
}

impl EngineOptions {
    /// Fills what `self` leaves unset from `each`.
    fn or(mut self, each: &EngineOptions) -> EngineOptions {
        macro_rules! fill {
            ($($field:ident),*) => { $( if self.$field.is_none() { self.$field.clone_from(&each.$field); } )* };
        }
        fill!(
            name,
            cmd,
            dir,
            args,
            proto,
            tc,
            movetime_ms,
            nodes,
            depth,
            time_margin_ms,
            book,
            book_depth,
            ponder
        );
        for (k, v) in &each.options {
            self.options.entry(k.clone()).or_insert_with(|| v.clone());
        }
        self
    }
}

/// How the openings file is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningOrder {
    /// In file order.
    #[default]
    Sequential,
    /// Shuffled by the match seed.
    Random,
}

/// `-openings …`.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningOptions {
    /// The file (EPD or PGN).
    pub file: PathBuf,
    /// In which order openings are used.
    pub order: OpeningOrder,
    /// The first opening to use (1-based, `start=`).
    pub start: usize,
    /// Plies of a PGN opening played at most (`plies=`; `None`: all of them).
    pub plies: Option<u32>,
}

/// `-pgnout …` (and `-crc32 pgn=true`).
#[derive(Clone, Debug)]
pub struct PgnOut {
    /// The file.
    pub file: PathBuf,
    /// Add to what the file holds (`append=true`, the default) or start it anew.
    pub append: bool,
    /// Print the file's CRC-32 after each game (`-crc32 pgn=true`), as fastchess does for
    /// fishtest's worker, which uploads the PGN only when its checksum matches.
    pub crc32: bool,
    /// What each move's comment carries (`seldepth=true`, `nodes=true`, …, `min=true`);
    /// its `match_lines` are [`PgnOut::match_lines`].
    pub comments: CommentFields<'static>,
    /// The `match_line=REGEX` patterns, checked.
    pub match_lines: Vec<Regex>,
}

impl PgnOut {
    /// Whether the comments need the engines' `info` lines as text (`pv`, `match_line`).
    #[must_use]
    pub fn needs_lines(&self) -> bool {
        !self.comments.none && (self.comments.pv || !self.match_lines.is_empty())
    }
}

/// `-tournament …`: how more than two engines meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TournamentKind {
    /// Every engine meets every other (`roundrobin`, `round-robin`; the default).
    #[default]
    RoundRobin,
    /// The first `-seeds N` engines meet every other (`gauntlet`).
    Gauntlet,
    /// A seeded bracket, the winner of each encounter going on (`knockout`).
    Knockout,
}

/// Everything a match is asked to do.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    /// The engines, each completed from `-each`.
    pub engines: Vec<EngineOptions>,
    /// How the engines meet (two engines in a round robin are a match).
    pub tournament: TournamentKind,
    /// Engines under test in a gauntlet (`-seeds`, default 1).
    pub seeds: u32,
    /// The same engine White in every game (`-noswap`).
    pub noswap: bool,
    /// The second engine White first (`-reverse`).
    pub reverse: bool,
    /// Print a `Finished game` line every this many games (`-outcomeinterval`, cutechess-cli).
    pub outcome_interval: u64,
    /// Milliseconds to wait after each game (`-wait`).
    pub wait_ms: u64,
    /// Engine traffic to standard error (`-debug`).
    pub debug: bool,
    /// The PGN `Site` tag (`-site`).
    pub site: Option<String>,
    /// Rounds (`-rounds`).
    pub rounds: u32,
    /// Games per round (`-games`): 1, a colour-swapped pair, or more games alternating
    /// colours, each two in a row from the same opening (cutechess's `-games N`).
    pub games: u32,
    /// Whether a round's games share an opening (`-repeat`).
    pub repeat: bool,
    /// Games played at once (`-concurrency`).
    pub concurrency: usize,
    /// The openings.
    pub openings: Option<OpeningOptions>,
    /// The SPRT, if any.
    pub sprt: Option<SprtConfig>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Full moves after which a game is drawn (`-maxmoves`).
    pub max_moves: Option<u32>,
    /// Syzygy table directories (`-tb`).
    pub tablebases: Vec<PathBuf>,
    /// The most pieces a probed position may have (`-tbpieces`).
    pub tablebase_pieces: Option<usize>,
    /// The PGN file games are written to.
    pub pgn_out: Option<PgnOut>,
    /// Play Fischer random chess (`-variant fischerandom`).
    pub chess960: bool,
    /// Results every this many games (`-ratinginterval`, 0: only at the end).
    pub rating_interval: u64,
    /// The match seed (`-srand`).
    pub seed: u64,
    /// The database (`-db`, eloworld's own).
    pub db: Option<String>,
    /// The match's name in the store (`-event`, eloworld's `-name`).
    pub name: Option<String>,
    /// Whether an engine crash only loses the game (`-recover`); eloworld always recovers.
    pub recover: bool,
    /// Whether to print less (`-quiet`).
    pub quiet: bool,
    /// Check each mate score's principal variation (`-check-mate-pvs`).
    pub check_mate_pvs: bool,
    /// Warnings on one line, parts joined by ` :: ` (`-testEnv`, as fastchess).
    pub test_env: bool,
    /// Options accepted, as the tools that drive fastchess and cutechess-cli pass them, that
    /// have no effect here: each is named in a note, never silently ignored.
    pub without_effect: Vec<String>,
}

/// Splits the command line into `(option, values)` groups: an option is a word starting with
/// `-` that is not a negative number; its values run to the next option.
fn groups(args: &[String]) -> AppResult<Vec<(String, Vec<String>)>> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for word in args {
        let is_option = word.starts_with('-')
            && !word.contains('=')
            && word.len() > 1
            && !word[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
        if is_option {
            out.push((word.trim_start_matches('-').to_owned(), Vec::new()));
        } else if let Some((_, values)) = out.last_mut() {
            values.push(word.clone());
        } else {
            eloworld_app::invalid!("{word:?}: expected an option such as -engine, -each, -rounds");
        }
    }
    Ok(out)
}

/// Splits `key=value` values; a value without `=` is an error naming the option.
fn pairs<'a>(option: &str, values: &'a [String]) -> AppResult<Vec<(&'a str, &'a str)>> {
    values
        .iter()
        .map(|v| {
            v.split_once('=')
                .ok_or_else(|| AppError::Invalid(format!("-{option}: {v:?} is not key=value")))
        })
        .collect()
}

/// Splits an engine's settings: `key=value`, or one of cutechess-cli's bare words
/// (`ponder`, `whitepov`), read as `key` with an empty value.
fn engine_pairs<'a>(option: &str, values: &'a [String]) -> AppResult<Vec<(&'a str, &'a str)>> {
    values
        .iter()
        .map(|v| match v.split_once('=') {
            Some(kv) => Ok(kv),
            None if matches!(v.as_str(), "ponder" | "whitepov") => Ok((v.as_str(), "")),
            None => eloworld_app::invalid!("-{option}: {v:?} is not key=value"),
        })
        .collect()
}

/// Parses one value, naming the option and key when it does not parse.
fn value<T: std::str::FromStr>(option: &str, key: &str, text: &str) -> AppResult<T>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>()
        .map_err(|e| AppError::Invalid(format!("-{option} {key}={text}: {e}")))
}

/// Returns the single value of an option such as `-rounds 10`.
fn single<'a>(option: &str, values: &'a [String]) -> AppResult<&'a str> {
    match values {
        [v] => Ok(v.as_str()),
        _ => eloworld_app::invalid!("-{option} takes one value, got {}", values.len()),
    }
}

/// Parses a boolean as the tools write it.
fn flag(option: &str, key: &str, text: &str) -> AppResult<bool> {
    match text {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => eloworld_app::invalid!("-{option} {key}={text}: expected true or false"),
    }
}

fn engine_options(
    option: &str,
    values: &[String],
    without_effect: &mut Vec<String>,
) -> AppResult<EngineOptions> {
    let mut e = EngineOptions::default();
    for (key, text) in engine_pairs(option, values)? {
        if let Some(name) = key.strip_prefix("option.") {
            e.options.insert(name.to_owned(), text.to_owned());
            continue;
        }
        match key {
            "name" => e.name = Some(text.to_owned()),
            "cmd" => e.cmd = Some(text.to_owned()),
            "dir" => e.dir = Some(PathBuf::from(text)),
            "args" => e.args = Some(text.split_whitespace().map(str::to_owned).collect()),
            "proto" => {
                e.proto = Some(match text {
                    "uci" => Protocol::Uci,
                    "xboard" | "cecp" => Protocol::Cecp,
                    _ => eloworld_app::invalid!("-{option} proto={text}: expected uci or xboard"),
                });
            }
            "tc" => {
                if text != "inf" && text != "infinite" {
                    e.tc = Some(value(option, key, text)?);
                }
            }
            "st" => {
                let seconds: f64 = value(option, key, text)?;
                if seconds.is_nan() || seconds <= 0.0 {
                    eloworld_app::invalid!("-{option} st={text}: expected seconds above 0");
                }
                e.movetime_ms = Some((seconds * 1000.0).round() as u64);
            }
            "nodes" => e.nodes = Some(value(option, key, text)?),
            "depth" => e.depth = Some(value(option, key, text)?),
            "timemargin" => e.time_margin_ms = Some(value(option, key, text)?),
            "book" => e.book = Some(PathBuf::from(text)),
            "bookdepth" => e.book_depth = Some(value(option, key, text)?),
            // cutechess-cli's: eloworld restarts an engine only after it crashed or stalled,
            // and reads scores from the mover's side whatever the engine's habit.
            "ponder" => e.ponder = Some(text.is_empty() || flag(option, key, text)?),
            "restart" | "whitepov" => without_effect.push(format!("-{option} {key}{}", if text.is_empty() { String::new() } else { format!("={text}") })),
            _ => eloworld_app::invalid!("-{option}: unknown engine setting {key:?} (expected name, cmd, dir, args, proto, tc, st, nodes, depth, timemargin, book, bookdepth, option.NAME)"),
        }
    }
    Ok(e)
}

/// Reads `-pgnout file=F [append=true|false] [min=…] [seldepth=…] [nodes=…] …`, or
/// cutechess-cli's `-pgnout FILE [min] [fi]`; settings of fastchess's PGN that eloworld does
/// not write are named in `without_effect`.
fn pgnout_options(
    values: &[String],
    crc32: bool,
    without_effect: &mut Vec<String>,
) -> AppResult<PgnOut> {
    let mut out = PgnOut {
        file: PathBuf::new(),
        append: true,
        crc32,
        comments: CommentFields::default(),
        match_lines: Vec::new(),
    };
    let Ok(kv) = pairs("pgnout", values) else {
        let (file, rest) = values
            .split_first()
            .ok_or_else(|| AppError::Invalid("-pgnout needs a file".to_owned()))?;
        out.file = PathBuf::from(file);
        for r in rest {
            match r.as_str() {
                "min" => out.comments.none = true,
                _ => without_effect.push(format!("-pgnout … {r}")),
            }
        }
        return Ok(out);
    };
    for (key, text) in kv {
        let c = &mut out.comments;
        match key {
            "file" => out.file = PathBuf::from(text),
            "append" => out.append = flag("pgnout", key, text)?,
            "min" => c.none = flag("pgnout", key, text)?,
            "seldepth" => c.seldepth = flag("pgnout", key, text)?,
            "nodes" => c.nodes = flag("pgnout", key, text)?,
            "nps" => c.nps = flag("pgnout", key, text)?,
            "hashfull" => c.hashfull = flag("pgnout", key, text)?,
            "tbhits" => c.tbhits = flag("pgnout", key, text)?,
            "timeleft" => c.time_left = flag("pgnout", key, text)?,
            "latency" => c.latency = flag("pgnout", key, text)?,
            "pv" => c.pv = flag("pgnout", key, text)?,
            "match_line" => out.match_lines.push(
                Regex::new(text).map_err(|e| AppError::Invalid(format!("-pgnout match_line={text}: {e}")))?,
            ),
            "notation" if text == "san" => {}
            "fi" | "notation" => without_effect.push(format!("-pgnout {key}={text}")),
            _ => eloworld_app::invalid!("-pgnout: unknown setting {key:?} (expected file, append, min, notation, seldepth, nodes, nps, hashfull, tbhits, timeleft, latency, pv, match_line)"),
        }
    }
    if out.file.as_os_str().is_empty() {
        eloworld_app::invalid!("-pgnout needs file=PATH");
    }
    Ok(out)
}

fn sprt_options(values: &[String]) -> AppResult<SprtConfig> {
    let mut c = SprtConfig::new();
    for (key, text) in pairs("sprt", values)? {
        match key {
            "elo0" => c.elo0 = value("sprt", key, text)?,
            "elo1" => c.elo1 = value("sprt", key, text)?,
            "alpha" => c.alpha = value("sprt", key, text)?,
            "beta" => c.beta = value("sprt", key, text)?,
            "model" => c.model = value::<SprtModel>("sprt", key, text)?,
            _ => eloworld_app::invalid!(
                "-sprt: unknown setting {key:?} (expected elo0, elo1, alpha, beta, model)"
            ),
        }
    }
    eloworld_ratings::sprt::Sprt::new(c).context("-sprt")?;
    Ok(c)
}

fn resign_options(values: &[String]) -> AppResult<ResignRule> {
    let mut rule = ResignRule {
        move_count: 3,
        score: 600,
        two_sided: true,
    };
    for (key, text) in pairs("resign", values)? {
        match key {
            "movecount" => rule.move_count = value("resign", key, text)?,
            "score" => rule.score = value("resign", key, text)?,
            "twosided" => rule.two_sided = flag("resign", key, text)?,
            _ => eloworld_app::invalid!(
                "-resign: unknown setting {key:?} (expected movecount, score, twosided)"
            ),
        }
    }
    Ok(rule)
}

fn draw_options(values: &[String]) -> AppResult<DrawRule> {
    let mut rule = DrawRule {
        move_number: 40,
        move_count: 8,
        score: 10,
    };
    for (key, text) in pairs("draw", values)? {
        match key {
            "movenumber" => rule.move_number = value("draw", key, text)?,
            "movecount" => rule.move_count = value("draw", key, text)?,
            "score" => rule.score = value("draw", key, text)?,
            _ => eloworld_app::invalid!(
                "-draw: unknown setting {key:?} (expected movenumber, movecount, score)"
            ),
        }
    }
    Ok(rule)
}

fn opening_options(values: &[String]) -> AppResult<OpeningOptions> {
    let (mut file, mut order, mut start, mut plies) = (None, OpeningOrder::Sequential, 1, None);
    for (key, text) in pairs("openings", values)? {
        match key {
            "file" => file = Some(PathBuf::from(text)),
            "format" => {
                if text != "epd" && text != "pgn" {
                    eloworld_app::invalid!("-openings format={text}: expected epd or pgn");
                }
            }
            "order" => {
                order = match text {
                    "sequential" => OpeningOrder::Sequential,
                    "random" => OpeningOrder::Random,
                    _ => eloworld_app::invalid!(
                        "-openings order={text}: expected sequential or random"
                    ),
                };
            }
            "start" => start = value::<usize>("openings", key, text)?.max(1),
            // fastchess and cutechess: a negative or absent value plays the whole line.
            "plies" => {
                let n: i64 = value("openings", key, text)?;
                plies = u32::try_from(n).ok();
            }
            "policy" => {}
            _ => eloworld_app::invalid!(
                "-openings: unknown setting {key:?} (expected file, format, order, plies, start)"
            ),
        }
    }
    let file = file.ok_or_else(|| AppError::Invalid("-openings needs file=PATH".to_owned()))?;
    Ok(OpeningOptions {
        file,
        order,
        start,
        plies,
    })
}

/// Reads a match command line (the words after `eloworld match`).
///
/// # Errors
/// The first option or setting that is unknown or malformed, named.
pub fn parse(args: &[String]) -> AppResult<MatchOptions> {
    let mut engines = Vec::new();
    let mut each = EngineOptions::default();
    let mut m = MatchOptions {
        engines: Vec::new(),
        tournament: TournamentKind::RoundRobin,
        seeds: 1,
        noswap: false,
        reverse: false,
        outcome_interval: 1,
        wait_ms: 0,
        debug: false,
        site: None,
        rounds: 1,
        games: 1,
        repeat: false,
        concurrency: 1,
        openings: None,
        sprt: None,
        resign: None,
        draw: None,
        max_moves: None,
        tablebases: Vec::new(),
        tablebase_pieces: None,
        pgn_out: None,
        chess960: false,
        rating_interval: 10,
        seed: 0,
        db: None,
        name: None,
        recover: false,
        quiet: false,
        check_mate_pvs: false,
        test_env: false,
        without_effect: Vec::new(),
    };
    let mut crc32 = false;
    for (option, values) in groups(args)? {
        let o = option.as_str();
        match o {
            "engine" => engines.push(engine_options(o, &values, &mut m.without_effect)?),
            "each" => each = engine_options(o, &values, &mut m.without_effect)?,
            "rounds" => m.rounds = value(o, "", single(o, &values)?)?,
            "games" => m.games = value(o, "", single(o, &values)?)?,
            "repeat" => {
                m.repeat = true;
                if let Some(v) = values.first() {
                    m.games = value(o, "", v)?;
                } else {
                    m.games = m.games.max(2);
                }
            }
            "concurrency" => m.concurrency = value(o, "", single(o, &values)?)?,
            "openings" => m.openings = Some(opening_options(&values)?),
            "sprt" => m.sprt = Some(sprt_options(&values)?),
            "resign" => m.resign = Some(resign_options(&values)?),
            "draw" => m.draw = Some(draw_options(&values)?),
            "maxmoves" => m.max_moves = Some(value(o, "", single(o, &values)?)?),
            "pgnout" => {
                let crc32 = m.pgn_out.as_ref().is_some_and(|p| p.crc32);
                m.pgn_out = Some(pgnout_options(&values, crc32, &mut m.without_effect)?);
            }
            "crc32" => {
                for (key, text) in pairs(o, &values)? {
                    match key {
                        "pgn" => crc32 = flag(o, key, text)?,
                        // eloworld writes no EPD file.
                        "epd" => m.without_effect.push(format!("-crc32 {key}={text}")),
                        _ => eloworld_app::invalid!("-crc32: unknown setting {key:?} (expected pgn, epd)"),
                    }
                }
            }
            "variant" => match single(o, &values)? {
                "fischerandom" | "chess960" | "frc" => m.chess960 = true,
                "standard" => m.chess960 = false,
                other => eloworld_app::invalid!("-variant {other}: expected standard or fischerandom"),
            },
            "tournament" => {
                m.tournament = match single(o, &values)? {
                    "roundrobin" | "round-robin" => TournamentKind::RoundRobin,
                    "gauntlet" => TournamentKind::Gauntlet,
                    "knockout" => TournamentKind::Knockout,
                    other => eloworld_app::invalid!("-tournament {other}: expected roundrobin, round-robin, gauntlet or knockout"),
                };
            }
            "seeds" => m.seeds = value(o, "", single(o, &values)?)?,
            "noswap" => m.noswap = true,
            "reverse" => m.reverse = true,
            "outcomeinterval" => {
                m.outcome_interval = value::<u64>(o, "", single(o, &values)?)?.max(1);
            }
            "wait" => m.wait_ms = value(o, "", single(o, &values)?)?,
            "debug" => m.debug = true,
            "site" => m.site = Some(values.join(" ")),
            // cutechess-cli: a Polyglot book read from disk or into memory; eloworld reads it
            // into memory either way.
            "bookmode" => match single(o, &values)? {
                mode @ ("ram" | "disk") => m.without_effect.push(format!("-bookmode {mode}")),
                other => eloworld_app::invalid!("-bookmode {other}: expected ram or disk"),
            },
            "recover" => m.recover = true,
            "ratinginterval" => m.rating_interval = value(o, "", single(o, &values)?)?,
            "srand" => m.seed = value(o, "", single(o, &values)?)?,
            "db" => m.db = Some(single(o, &values)?.to_owned()),
            "event" | "name" => m.name = Some(values.join(" ")),
            "quiet" => m.quiet = true,
            "tb" => {
                m.tablebases = single(o, &values)?
                    .split([':', ';'])
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from)
                    .collect();
            }
            "tbpieces" => m.tablebase_pieces = Some(value(o, "", single(o, &values)?)?),
            "tbadjudicate" => {
                // Both tools' default, and the only way eloworld adjudicates with tables.
            }
            // fastchess's pentanomial report is what eloworld prints for game pairs.
            "report" if values.iter().all(|v| v == "penta=true") => {}
            "check-mate-pvs" => m.check_mate_pvs = true,
            "testEnv" => m.test_env = true,
            // fastchess prints its score line every -scoreinterval games only in its
            // cutechess output format, and saves nothing at -autosaveinterval but its own
            // state (eloworld stores every game as it ends).
            "output" | "log" | "config" | "autosaveinterval" | "scoreinterval" | "report" => {
                // Display and bookkeeping settings of the other tools; eloworld has its own.
                let shown = if values.is_empty() {
                    format!("-{o}")
                } else {
                    format!("-{o} {}", values.join(" "))
                };
                m.without_effect.push(shown);
            }
            _ => eloworld_app::invalid!("unknown option -{o} (eloworld match reads the options fastchess and cutechess-cli share: -engine, -each, -rounds, -games, -repeat, -concurrency, -tournament, -seeds, -openings, -sprt, -resign, -draw, -maxmoves, -tb, -tbpieces, -pgnout, -crc32, -variant, -recover, -ratinginterval, -outcomeinterval, -srand, -noswap, -reverse, -wait, -debug, -site, -event, plus -db)"),
        }
    }
    checked(m, engines, &each, crc32)
}

/// Completes the options read by [`parse`] (the `-each` settings, the engines' names, the
/// PGN check) and checks what the options say together.
///
/// # Errors
/// The first setting that contradicts another, or an engine without a program or a limit.
fn checked(
    mut m: MatchOptions,
    engines: Vec<EngineOptions>,
    each: &EngineOptions,
    crc32: bool,
) -> AppResult<MatchOptions> {
    if let Some(p) = &mut m.pgn_out {
        p.crc32 |= crc32;
    } else if crc32 {
        // fastchess checks the PGN it writes; without -pgnout there is none.
        m.without_effect
            .push("-crc32 pgn=true (without -pgnout)".to_owned());
    }
    if engines.len() < 2 {
        eloworld_app::invalid!(
            "eloworld match plays two engines or more: give -engine for each (got {})",
            engines.len()
        );
    }
    if m.tournament == TournamentKind::Knockout && m.sprt.is_some() {
        eloworld_app::invalid!("-sprt tests a match of two engines, not a knockout: drop -sprt or -tournament knockout");
    }
    if engines.len() > 2 && m.sprt.is_some() {
        eloworld_app::invalid!(
            "-sprt tests two engines, not {}: drop -sprt or play a gauntlet of two",
            engines.len()
        );
    }
    if (engines.len() > 2 || m.tournament == TournamentKind::Knockout) && (m.noswap || m.reverse) {
        eloworld_app::invalid!("-noswap and -reverse set the colours of a match of two engines; a tournament plays each pairing with both colours");
    }
    if m.tournament == TournamentKind::Gauntlet
        && (m.seeds == 0 || m.seeds as usize >= engines.len())
    {
        eloworld_app::invalid!(
            "-seeds {}: a gauntlet of {} engines seeds 1 to {}",
            m.seeds,
            engines.len(),
            engines.len() - 1
        );
    }
    if m.games == 0 {
        eloworld_app::invalid!("-games 0: a round has at least one game");
    }
    if m.rounds == 0 {
        eloworld_app::invalid!("-rounds 0: play at least one round");
    }
    m.engines = engines.into_iter().map(|e| e.or(each)).collect();
    for (i, e) in m.engines.iter_mut().enumerate() {
        if e.cmd.is_none() {
            eloworld_app::invalid!("engine {}: no cmd= (the program to run)", i + 1);
        }
        if e.name.is_none() {
            e.name = e.cmd.as_deref().map(|c| {
                std::path::Path::new(c)
                    .file_name()
                    .map_or(c.to_owned(), |n| n.to_string_lossy().into_owned())
            });
        }
        if e.tc.is_none() && e.movetime_ms.is_none() && e.nodes.is_none() && e.depth.is_none() {
            eloworld_app::invalid!(
                "engine {}: no limit; give tc=, st=, nodes= or depth=",
                e.name.as_deref().unwrap_or("?")
            );
        }
    }
    for (i, e) in m.engines.iter().enumerate() {
        if m.engines[..i].iter().any(|earlier| earlier.name == e.name) {
            eloworld_app::invalid!(
                "two engines are named {:?}: give each a name=",
                e.name.as_deref().unwrap_or("")
            );
        }
    }
    Ok(m)
}

impl EngineOptions {
    /// The engine's limit as fastchess describes it: `10+0.1`, `0.1/move`, `1000 nodes`,
    /// `depth 8`.
    #[must_use]
    pub fn describe_limit(&self) -> String {
        if let Some(tc) = self.tc {
            tc.to_string()
        } else if let Some(ms) = self.movetime_ms {
            format!("{}/move", ms as f64 / 1000.0)
        } else if let Some(n) = self.nodes {
            format!("{n} nodes")
        } else if let Some(d) = self.depth {
            format!("depth {d}")
        } else {
            String::new()
        }
    }

    /// The engine definition of one `-engine`.
    ///
    /// # Errors
    /// A name the store cannot keep, a setting the protocol cannot play, or a program that
    /// is not there.
    pub fn definition(&self, chess960: bool) -> AppResult<EngineDef> {
        let name = self.name.clone().unwrap_or_default();
        let valid = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            && !name.contains("_r");
        if !valid {
            eloworld_app::invalid!("engine name {name:?}: use letters, digits, '_', '-', '.' (and not \"_r\", which marks dilution)");
        }
        let cmd = self.cmd.clone().unwrap_or_default();
        let command = match &self.dir {
            Some(dir) if !cmd.starts_with('/') => dir.join(&cmd).display().to_string(),
            _ => cmd,
        };
        let options = self
            .options
            .iter()
            .map(|(k, v)| (k.clone(), OptionValue::Text(v.clone())))
            .collect();
        let protocol = self.proto.unwrap_or(Protocol::Uci);
        if protocol == Protocol::Cecp && self.ponder == Some(true) {
            eloworld_app::invalid!("engine {name}: ponder is played with UCI engines (go ponder / ponderhit), not xboard ones");
        }
        if protocol == Protocol::Cecp && self.nodes.is_some() {
            eloworld_app::invalid!(
                "engine {name}: an xboard engine takes tc=, st= or depth=, not nodes="
            );
        }
        let def = EngineDef {
            name: name.clone(),
            description: format!("{command} in eloworld match"),
            command,
            args: self.args.clone().unwrap_or_default(),
            protocol,
            package: None,
            install: None,
            options,
            budget: Budget {
                nodes: self.nodes,
                depth: self.depth,
                movetime: self.movetime_ms,
            },
            timeout_ms: 60_000,
            handshake_ms: 10_000,
            fen_only: false,
            depth_command: None,
            fractional_st: false,
            time_control: self.tc,
            time_margin_ms: self.time_margin_ms.unwrap_or(0),
            chess960,
            ponder: self.ponder.unwrap_or(false),
            book: self.book.clone(),
            book_depth: self.book_depth,
            deterministic: None,
            base_dir: None,
            kept_lines: KeptLines::Nothing,
            check_mate_pvs: false,
        };
        def.locate()?;
        Ok(def)
    }
}

impl MatchOptions {
    /// The PGN `TimeControl` tag of the match, when both engines play the same clock.
    fn time_control_tag(&self) -> Option<String> {
        let tag = |e: &EngineOptions| {
            e.tc.map(|t| t.to_string()).or_else(|| {
                e.movetime_ms
                    .map(|ms| format!("{}/move", ms as f64 / 1000.0))
            })
        };
        let (a, b) = (tag(&self.engines[0]), tag(&self.engines[1]));
        match (a, b) {
            (Some(a), Some(b)) if a == b => Some(a),
            (Some(a), Some(b)) => Some(format!("{a}:{b}")),
            _ => None,
        }
    }

    /// How the engines meet: two engines are a match, more a tournament of `-tournament`'s
    /// kind.
    #[must_use]
    pub fn pairing(&self) -> Pairing {
        match (self.engines.len(), self.tournament) {
            // A knockout of two engines is one encounter, with its tiebreaks.
            (_, TournamentKind::Knockout) => Pairing::Knockout,
            (2, _) => Pairing::Match,
            (_, TournamentKind::RoundRobin) => Pairing::RoundRobin,
            (_, TournamentKind::Gauntlet) => Pairing::Gauntlet { seeds: self.seeds },
        }
    }

    /// The match's settings: every engine's definition, the pairing, colours, openings,
    /// adjudication and PGN.
    ///
    /// # Errors
    /// As [`EngineOptions::definition`].
    pub fn settings(&self) -> AppResult<MatchSettings> {
        let keep_lines = self.pgn_out.as_ref().is_some_and(PgnOut::needs_lines);
        let mut engines: Vec<EngineDef> = self
            .engines
            .iter()
            .map(|e| e.definition(self.chess960))
            .collect::<AppResult<_>>()?;
        for def in &mut engines {
            if keep_lines {
                def.kept_lines = KeptLines::Every;
            }
            def.check_mate_pvs = self.check_mate_pvs;
        }
        Ok(MatchSettings {
            name: self.name.clone(),
            engines,
            pairing: self.pairing(),
            colours: Colours {
                swap: !self.noswap,
                reverse: self.reverse,
            },
            pause_after_game: std::time::Duration::from_millis(self.wait_ms),
            site: self.site.clone(),
            rounds: self.rounds,
            games: self.games,
            seed: self.seed,
            concurrency: self.concurrency,
            max_moves: self.max_moves,
            db: self.db.clone(),
            time_control: self.time_control_tag(),
            tablebases: self.tablebases.clone(),
            tablebase_pieces: self.tablebase_pieces,
            sprt: self.sprt,
            adjudication: Adjudication {
                resign: self.resign,
                draw: self.draw,
            },
            openings: self.openings.as_ref().map(|o| MatchOpenings {
                file: o.file.clone(),
                shuffled: o.order == OpeningOrder::Random,
                start: o.start,
                plies: o.plies,
            }),
            chess960: self.chess960,
            pgn_out: self.pgn_out.as_ref().map(|p| p.file.clone()),
            pgn_append: self.pgn_out.as_ref().is_none_or(|p| p.append),
            pgn_comments: self
                .pgn_out
                .as_ref()
                .map(|p| p.comments)
                .unwrap_or_default(),
            pgn_match_lines: self
                .pgn_out
                .as_ref()
                .map(|p| p.match_lines.clone())
                .unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error and its causes, as the command line prints them.
    fn chain(e: &AppError) -> String {
        let mut text = e.to_string();
        let mut cause = std::error::Error::source(e);
        while let Some(c) = cause {
            text = format!("{text}: {c}");
            cause = c.source();
        }
        text
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_the_issue_command_line() {
        let m = parse(&words(
            "-engine cmd=./sf-new name=new -engine cmd=./sf-base name=base \
             -each tc=10+0.1 option.Hash=16 option.Threads=1 proto=uci \
             -openings file=book.epd format=epd order=random \
             -games 2 -rounds 5000 -repeat -concurrency 2 \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized \
             -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20 \
             -pgnout file=test.pgn -db test.sqlite",
        ))
        .expect("valid");
        assert_eq!(m.engines.len(), 2);
        assert_eq!(m.engines[0].name.as_deref(), Some("new"));
        assert_eq!(
            m.engines[1].options.get("Hash").map(String::as_str),
            Some("16")
        );
        assert_eq!(
            m.engines[1].tc.map(|t| t.to_string()).as_deref(),
            Some("10+0.1")
        );
        assert_eq!(
            (m.rounds, m.games, m.repeat, m.concurrency),
            (5000, 2, true, 2)
        );
        assert_eq!(
            m.openings.as_ref().map(|o| o.order),
            Some(OpeningOrder::Random)
        );
        let sprt = m.sprt.expect("sprt");
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.model),
            (0.0, 5.0, SprtModel::Normalized)
        );
        assert_eq!(m.resign.map(|r| (r.move_count, r.score)), Some((3, 600)));
        assert_eq!(
            m.draw.map(|d| (d.move_number, d.move_count, d.score)),
            Some((34, 8, 20))
        );
        assert_eq!(
            m.pgn_out.map(|p| (p.file, p.append, p.crc32)),
            Some((PathBuf::from("test.pgn"), true, false))
        );
        assert_eq!(m.db.as_deref(), Some("test.sqlite"));
    }

    #[test]
    fn unknown_options_and_settings_are_named() {
        let base = "-engine cmd=a nodes=5 -engine cmd=b nodes=5";
        for (extra, named) in [
            ("-frobnicate 3", "-frobnicate"),
            ("-each hash=16", "\"hash\""),
            ("-sprt elo0=0 elo1=5 lambda=3", "\"lambda\""),
            ("-resign moves=3", "\"moves\""),
            ("-openings file=x order=shuffled", "order=shuffled"),
            ("-each tc=ten", "tc=ten"),
            ("-sprt elo0=5 elo1=0", "elo0"),
        ] {
            let e = parse(&words(&format!("{base} {extra}"))).expect_err(extra);
            assert!(chain(&e).contains(named), "{extra}: {}", chain(&e));
        }
        let e = parse(&words("-engine cmd=a nodes=5")).expect_err("one engine");
        assert!(e.to_string().contains("two engines"), "{e}");
        let e = parse(&words(&format!(
            "{base} -engine cmd=c nodes=5 -sprt elo0=0 elo1=5"
        )))
        .expect_err("an SPRT of three");
        assert!(
            e.to_string().contains("-sprt tests two engines, not 3"),
            "{e}"
        );
        let e = parse(&words(&format!("{base} -tournament gauntlet -seeds 2")))
            .expect_err("all seeded");
        assert!(e.to_string().contains("-seeds 2"), "{e}");
    }

    #[test]
    fn a_knockout_is_read_and_its_contradictions_named() {
        let five = "-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -engine cmd=e \
                    -each nodes=5 -tournament knockout";
        let m = parse(&words(five)).expect("valid");
        assert_eq!(m.pairing(), Pairing::Knockout);
        for (extra, named) in [
            ("-sprt elo0=0 elo1=5", "-sprt tests a match of two engines"),
            ("-noswap", "-noswap and -reverse"),
        ] {
            let e = parse(&words(&format!("{five} {extra}"))).expect_err(extra);
            assert!(chain(&e).contains(named), "{extra}: {}", chain(&e));
        }
        let e = parse(&words(
            "-engine cmd=a nodes=1 -engine cmd=b nodes=1 -tournament swiss",
        ))
        .expect_err("not a kind");
        assert!(chain(&e).contains("gauntlet or knockout"), "{}", chain(&e));
    }

    #[test]
    fn cutechess_forms_are_read() {
        let m = parse(&words(
            "-engine cmd=/usr/games/stockfish -engine cmd=fairymax proto=xboard -each st=0.1 \
             -pgnout out.pgn min -rounds 3 -maxmoves 100 -srand 7",
        ))
        .expect("valid");
        assert_eq!(m.engines[0].name.as_deref(), Some("stockfish"));
        assert_eq!(m.engines[1].proto, Some(Protocol::Cecp));
        assert_eq!(m.engines[1].movetime_ms, Some(100));
        let pgn = m.pgn_out.expect("-pgnout");
        assert_eq!(pgn.file, PathBuf::from("out.pgn"));
        assert!(pgn.comments.none, "cutechess's bare min: no comments");
        assert_eq!((m.rounds, m.max_moves, m.seed), (3, Some(100), 7));
    }

    #[test]
    fn pgnout_fields_are_read_and_a_bad_pattern_is_named() {
        let m = parse(&words(
            "-engine cmd=a -engine cmd=b -each nodes=10 -pgnout file=x.pgn seldepth=true nodes=true \
             pv=false match_line=^info.string match_line=pgncomment",
        ))
        .expect("valid");
        let pgn = m.pgn_out.expect("-pgnout");
        assert!(pgn.comments.seldepth && pgn.comments.nodes && !pgn.comments.pv);
        assert_eq!(pgn.match_lines.len(), 2);
        assert!(pgn.needs_lines() && m.without_effect.is_empty());
        let e = parse(&words(
            "-engine cmd=a -engine cmd=b -pgnout file=x.pgn match_line=(",
        ))
        .expect_err("a bad regex");
        assert!(chain(&e).contains("match_line=("), "{}", chain(&e));
        let e = parse(&words(
            "-engine cmd=a -engine cmd=b -pgnout file=x.pgn nodes=maybe",
        ))
        .expect_err("not a flag");
        assert!(chain(&e).contains("nodes=maybe"), "{}", chain(&e));
    }
}
