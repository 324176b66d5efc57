//! Opening suites: EPD lines or PGN games, turned into starting positions.

use crate::ConfigError;
use crate::GameSetup;
use eloworld_games::chess::input::{self, InputError, PgnReader};
use eloworld_games::{Game, GameKind, GameRng};
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};
use std::path::Path;

/// Reads an openings file: `.pgn` files give the position after each game's moves; any
/// other file is read as EPD/FEN, one position per line (`#` comments and blank lines
/// skipped, EPD operations after the four fields ignored). Squava openings are position
/// texts, one per line.
///
/// # Errors
/// [`ConfigError::Openings`] naming the file and line of the first bad entry.
pub fn load_openings(path: &Path, game: GameKind) -> Result<Vec<String>, ConfigError> {
    load_openings_cut(path, game, None)
}

/// Reads an openings file as [`load_openings`] does, playing at most `max_plies` plies of
/// each PGN game (fastchess's and cutechess's `-openings plies=N`; EPD positions are whole).
///
/// # Errors
/// As [`load_openings`].
pub fn load_openings_cut(
    path: &Path,
    game: GameKind,
    max_plies: Option<u32>,
) -> Result<Vec<String>, ConfigError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => match builtin_book(path) {
            Some(text) => text.as_bytes().to_vec(),
            None => {
                return Err(ConfigError::Openings {
                    path: path.to_owned(),
                    line: 0,
                    message: format!("cannot read: {e}"),
                })
            }
        },
    };
    parse_openings_cut(path, &bytes, game, max_plies)
}

/// Reads the openings in `bytes`, the contents of the file `path` (whose extension says
/// whether it is PGN); see [`load_openings`].
///
/// # Errors
/// As [`load_openings`].
pub fn parse_openings(
    path: &Path,
    bytes: &[u8],
    game: GameKind,
) -> Result<Vec<String>, ConfigError> {
    parse_openings_cut(path, bytes, game, None)
}

/// Reads the openings in `bytes` as [`parse_openings`], at most `max_plies` plies of each
/// PGN game.
///
/// # Errors
/// As [`load_openings`].
pub fn parse_openings_cut(
    path: &Path,
    bytes: &[u8],
    game: GameKind,
    max_plies: Option<u32>,
) -> Result<Vec<String>, ConfigError> {
    let out = match (game, input::is_pgn(path)) {
        (GameKind::Chess, true) => pgn_openings(path, bytes, max_plies)?,
        (GameKind::Chess, false) => epd_openings(path, bytes)?,
        (GameKind::Squava, _) => line_openings(path, bytes, GameKind::Squava)?,
        (GameKind::Go, _) => line_openings(path, bytes, GameKind::Go)?,
    };
    if out.is_empty() {
        return Err(ConfigError::Openings {
            path: path.to_owned(),
            line: 0,
            message: "no openings in file".into(),
        });
    }
    Ok(out)
}

/// The opening books compiled in (file name, text), so that a shipped ladder naming one plays
/// its openings from any directory: the first 2,000 positions of `2moves_v1` (two moves a
/// side, balanced; data/SOURCES.md).
const BUILTIN_BOOKS: &[(&str, &str)] = &[(
    "2moves_v1.first2000.epd",
    include_str!("../../../data/books/2moves_v1.first2000.epd"),
)];

/// The compiled-in book of the same file name as `path`, when `path` cannot be read.
fn builtin_book(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    BUILTIN_BOOKS
        .iter()
        .find(|(book, _)| *book == name)
        .map(|(_, text)| *text)
}

/// Makes `count` distinct openings of `game`, each the position after `plies` uniformly
/// random legal plies from the start (a game that ends sooner is drawn again), from `seed`
/// alone: the same settings give the same openings, which the plan then stores. Fewer come
/// back when the game has fewer distinct positions at that depth.
///
/// # Errors
/// [`ConfigError::Invalid`] for no plies, no openings asked for, or Go settings that are
/// not a board.
pub fn random_openings(
    game: GameKind,
    setup: &GameSetup,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<String>, ConfigError> {
    if plies == 0 || count == 0 {
        return Err(ConfigError::Invalid(format!(
            "random_openings = {plies} with {count} openings: both must be at least 1"
        )));
    }
    Ok(match game {
        GameKind::Chess => random_positions(
            eloworld_games::Chess::new(eloworld_games::DrawRules::default()),
            plies,
            count,
            seed,
        ),
        GameKind::Squava => random_positions(eloworld_games::Squava::new(()), plies, count, seed),
        GameKind::Go => {
            let komi = eloworld_games::Komi::from_points(setup.komi.unwrap_or(7.0))
                .map_err(|e| ConfigError::Invalid(e.to_string()))?;
            let rules = eloworld_games::GoRules::new(setup.size.unwrap_or(9), komi)
                .map_err(|e| ConfigError::Invalid(e.to_string()))?;
            random_positions(eloworld_games::Go::new(rules), plies, count, seed)
        }
    })
}

/// The distinct positions after `plies` random plies from `start`, at most `count`, in the
/// order drawn; gives up after 16 draws an opening.
fn random_positions<G: Game>(start: G, plies: u32, count: usize, seed: u64) -> Vec<String> {
    let mut rng = GameRng::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(16) {
        if out.len() == count {
            break;
        }
        let mut game = start.clone();
        for _ in 0..plies {
            if game.outcome().is_some() || game.legal_moves().is_empty() {
                break;
            }
            let mv = rng.pick(game.legal_moves());
            game.play(mv);
        }
        if game.ply() == plies && game.outcome().is_none() {
            let text = game.position_text();
            if seen.insert(text.clone()) {
                out.push(text);
            }
        }
    }
    out
}

fn openings_error(path: &Path, e: InputError) -> ConfigError {
    ConfigError::Openings {
        path: path.to_owned(),
        line: e.line,
        message: e.reason,
    }
}

fn lines<'a>(path: &Path, bytes: &'a [u8]) -> Result<Vec<(usize, &'a str)>, ConfigError> {
    let text = input::decode_text(&path.display().to_string(), bytes)
        .map_err(|e| openings_error(path, e))?;
    Ok(input::entry_lines(text).collect())
}

fn epd_openings(path: &Path, bytes: &[u8]) -> Result<Vec<String>, ConfigError> {
    lines(path, bytes)?
        .into_iter()
        .map(|(line, text)| epd_opening(path, line, text))
        .collect()
}

/// The positions of an EPD (or FEN-a-line) file as its raw lines, each with its line number,
/// unparsed: a caller that plays only some of them (a match reaching 40 of 2,000 openings)
/// checks and normalises just those with [`epd_opening`]. Blank lines and `#` comments are
/// left out, as [`load_openings`] does.
///
/// # Errors
/// [`ConfigError::Openings`] when the file cannot be read, is not UTF-8, or has no lines.
pub fn load_epd_lines(path: &Path) -> Result<Vec<(usize, String)>, ConfigError> {
    let text = input::read_text(path).map_err(|e| openings_error(path, e))?;
    let out: Vec<(usize, String)> = input::entry_lines(&text)
        .map(|(line, t)| (line, t.to_owned()))
        .collect();
    if out.is_empty() {
        return Err(ConfigError::Openings {
            path: path.to_owned(),
            line: 0,
            message: "no openings in file".into(),
        });
    }
    Ok(out)
}

/// Checks line `line` of the EPD file `path` and returns its position as a full FEN (EPD
/// operations dropped, clocks 0 1 when absent), the form every opening takes in a plan.
///
/// # Errors
/// [`ConfigError::Openings`] naming the file and line: NUL bytes, fewer than four FEN
/// fields, or an illegal position.
pub fn epd_opening(path: &Path, line: usize, text: &str) -> Result<String, ConfigError> {
    let epd = input::parse_epd_line(&path.display().to_string(), line, text)
        .map_err(|e| openings_error(path, e))?;
    Ok(Fen::from_position(&epd.position, EnPassantMode::Legal).to_string())
}

/// Checks a Go opening position; its board size is its number of rows (komi does not
/// matter to whether a position is legal).
fn go_opening(text: &str) -> Result<(), eloworld_games::GameError> {
    let rows = text
        .split_whitespace()
        .next()
        .map_or(0, |board| board.split('/').count());
    let size = u8::try_from(rows).unwrap_or(u8::MAX);
    let rules = eloworld_games::GoRules::new(size, eloworld_games::Komi::DEFAULT)?;
    <eloworld_games::Go as eloworld_games::Game>::from_position(text, rules).map(|_| ())
}

fn line_openings(path: &Path, bytes: &[u8], game: GameKind) -> Result<Vec<String>, ConfigError> {
    let mut out = Vec::new();
    for (line, text) in lines(path, bytes)? {
        let ok = match game {
            GameKind::Squava => {
                <eloworld_games::Squava as eloworld_games::Game>::from_position(text, ())
                    .map(|_| ())
            }
            GameKind::Go => go_opening(text),
            GameKind::Chess => Ok(()),
        };
        ok.map_err(|e| ConfigError::Openings {
            path: path.to_owned(),
            line,
            message: e.to_string(),
        })?;
        out.push(text.to_owned());
    }
    Ok(out)
}

/// The position after at most `max_plies` plies of each game of a PGN text, from the game's
/// `FEN` tag when it has one.
fn pgn_openings(
    path: &Path,
    bytes: &[u8],
    max_plies: Option<u32>,
) -> Result<Vec<String>, ConfigError> {
    Ok(pgn_book_lines(path, bytes, max_plies)?
        .into_iter()
        .map(|line| line.fen)
        .collect())
}

/// An opening of a PGN book as its game gives it: where the game starts and the moves
/// played from there, which a match's PGN writes from the start with `{book}` comments as
/// fastchess and cutechess-cli do, and the position they reach, which the games start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    /// The game's `FEN` tag (`None`: the standard start).
    pub start: Option<String>,
    /// The moves played from `start`, in SAN.
    pub moves: Vec<String>,
    /// The position they reach, as a plan's openings hold it.
    pub fen: String,
}

/// Reads the games of a PGN book as [`BookLine`]s, each cut at `max_plies` plies as
/// [`load_openings_cut`] cuts them.
///
/// # Errors
/// As [`load_openings`].
pub fn load_book_lines(path: &Path, max_plies: Option<u32>) -> Result<Vec<BookLine>, ConfigError> {
    let bytes = std::fs::read(path).map_err(|e| ConfigError::Openings {
        path: path.to_owned(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    pgn_book_lines(path, &bytes, max_plies)
}

fn pgn_book_lines(
    path: &Path,
    bytes: &[u8],
    max_plies: Option<u32>,
) -> Result<Vec<BookLine>, ConfigError> {
    let name = path.display().to_string();
    let max_plies = max_plies.map_or(usize::MAX, |n| n as usize);
    let mut out = Vec::new();
    for game in PgnReader::new(name.as_str(), bytes) {
        let game = game.map_err(|e| openings_error(path, e))?;
        let mut pos = game.start(&name).map_err(|e| openings_error(path, e))?;
        let mut moves = Vec::new();
        for san in game.sans.iter().take(max_plies) {
            match san.to_move(&pos) {
                Ok(mv) => {
                    moves.push(san.to_string());
                    pos.play_unchecked(mv);
                }
                Err(_) => {
                    let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                    let e = game.error(&name, format!("illegal move {san} in {fen}"));
                    return Err(openings_error(path, e));
                }
            }
        }
        out.push(BookLine {
            start: game.fen.clone(),
            moves,
            fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(ext: &str, text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::Builder::new()
            .suffix(ext)
            .tempfile()
            .expect("tmp");
        f.write_all(text.as_bytes()).expect("write");
        f
    }

    #[test]
    fn epd_lines_with_operations_are_read() {
        let f = file(
            ".epd",
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n",
        );
        let o = load_openings(f.path(), GameKind::Chess).expect("openings");
        assert_eq!(
            o,
            vec!["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_owned()]
        );
    }

    #[test]
    fn bad_epd_line_names_file_and_line() {
        let f = file(
            ".epd",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen at all\n",
        );
        let e = load_openings(f.path(), GameKind::Chess)
            .unwrap_err()
            .to_string();
        assert!(e.contains(":2:"), "{e}");
    }

    #[test]
    fn pgn_openings_replay_the_moves() {
        let f = file(
            ".pgn",
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n",
        );
        let o = load_openings(f.path(), GameKind::Chess).expect("openings");
        assert_eq!(o.len(), 2);
        assert!(
            o[0].starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b"),
            "{}",
            o[0]
        );
    }

    #[test]
    fn pgn_openings_cut_at_a_ply_count() {
        let f = file(
            ".pgn",
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 *\n",
        );
        let o = load_openings_cut(f.path(), GameKind::Chess, Some(2)).expect("openings");
        // After 1. e4 e5 (White to move, move 2); the short game is whole.
        assert_eq!(
            o[0],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(
            o[1],
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
        );
        let none = load_openings_cut(f.path(), GameKind::Chess, Some(0)).expect("openings");
        assert_eq!(
            none[0],
            shakmaty::fen::Fen::from_position(&shakmaty::Chess::default(), EnPassantMode::Legal)
                .to_string()
        );
    }

    #[test]
    fn book_lines_keep_the_moves_and_their_start() {
        let f = file(
            ".pgn",
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event \"b\"]\n[SetUp \"1\"]\n\
             [FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n",
        );
        let lines = load_book_lines(f.path(), Some(3)).expect("lines");
        assert_eq!(lines[0].start, None);
        assert_eq!(lines[0].moves, ["e4", "e5", "Nf3"]);
        assert_eq!(
            lines[0].fen,
            load_openings_cut(f.path(), GameKind::Chess, Some(3)).expect("openings")[0]
        );
        assert_eq!(
            lines[1].start.as_deref(),
            Some("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
        );
        assert_eq!(lines[1].fen, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn pgn_with_illegal_move_is_an_error_naming_file_and_line() {
        let f = file(
            ".pgn",
            "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n",
        );
        let e = load_openings(f.path(), GameKind::Chess)
            .expect_err("illegal")
            .to_string();
        assert!(
            e.starts_with(&format!(
                "{}:5: game 2: illegal move e4",
                f.path().display()
            )),
            "{e}"
        );
    }
}
