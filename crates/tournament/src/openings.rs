//! Opening suites: EPD lines or PGN games, turned into starting positions.

use crate::ConfigError;
use eloworld_games::GameKind;
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, Position};

use std::ops::ControlFlow;
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
    let bytes = std::fs::read(path).map_err(|e| ConfigError::Openings {
        path: path.to_owned(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
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
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    let out = match (game, is_pgn) {
        (GameKind::Chess, true) => pgn_openings(path, bytes, max_plies)?,
        (GameKind::Chess, false) => epd_openings(path, bytes)?,
        (GameKind::Squava, _) => line_openings(path, bytes, GameKind::Squava)?,
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

fn lines(path: &Path, bytes: &[u8]) -> Result<Vec<(usize, String)>, ConfigError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ConfigError::Openings {
        path: path.to_owned(),
        line: bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1,
        message: "not UTF-8 text".into(),
    })?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_owned()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect())
}

fn epd_openings(path: &Path, bytes: &[u8]) -> Result<Vec<String>, ConfigError> {
    lines(path, bytes)?
        .into_iter()
        .map(|(line, text)| epd_opening(path, line, &text))
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
    let bytes = std::fs::read(path).map_err(|e| ConfigError::Openings {
        path: path.to_owned(),
        line: 0,
        message: format!("cannot read: {e}"),
    })?;
    let out = lines(path, &bytes)?;
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
    let bad = |message: String| ConfigError::Openings {
        path: path.to_owned(),
        line,
        message,
    };
    if text.contains('\0') {
        return Err(bad("contains NUL bytes".into()));
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(bad(format!("expected at least 4 FEN fields, got {text:?}")));
    }
    // Full FEN when fields 5 and 6 are the clocks, else EPD with default clocks.
    let fen_text = if fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].parse::<u32>().is_ok()
    {
        fields[..6].join(" ")
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    let pos = eloworld_games::chess::parse_fen(&fen_text).map_err(|e| bad(e.to_string()))?;
    Ok(Fen::from_position(&pos, EnPassantMode::Legal).to_string())
}

fn line_openings(path: &Path, bytes: &[u8], game: GameKind) -> Result<Vec<String>, ConfigError> {
    let mut out = Vec::new();
    for (line, text) in lines(path, bytes)? {
        let ok = match game {
            GameKind::Squava => {
                <eloworld_games::Squava as eloworld_games::Game>::from_position(&text, ())
                    .map(|_| ())
            }
            GameKind::Chess => Ok(()),
        };
        ok.map_err(|e| ConfigError::Openings {
            path: path.to_owned(),
            line,
            message: e.to_string(),
        })?;
        out.push(text);
    }
    Ok(out)
}

struct OpeningVisitor {
    games: usize,
    error: Option<String>,
    /// Plies played at most from each game.
    max_plies: u32,
}

struct Movetext {
    pos: shakmaty::Chess,
    error: Option<String>,
    /// Plies played so far.
    plies: u32,
}

impl Visitor for OpeningVisitor {
    type Tags = Option<shakmaty::Chess>;
    type Movetext = Movetext;
    type Output = Result<String, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let text = value.decode_utf8_lossy().into_owned();
            match text
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(Err(format!("bad FEN tag {text:?}"))),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Movetext {
            pos: tags.unwrap_or_default(),
            error: None,
            plies: 0,
        })
    }

    fn san(&mut self, m: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if m.error.is_none() && m.plies < self.max_plies {
            m.plies += 1;
            match san.san.to_move(&m.pos) {
                Ok(mv) => m.pos.play_unchecked(mv),
                Err(_) => {
                    m.error = Some(format!(
                        "illegal move {san} in {}",
                        Fen::from_position(&m.pos, EnPassantMode::Legal)
                    ))
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        if let Some(e) = m.error {
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(Fen::from_position(&m.pos, EnPassantMode::Legal).to_string())
    }
}

fn pgn_openings(
    path: &Path,
    bytes: &[u8],
    max_plies: Option<u32>,
) -> Result<Vec<String>, ConfigError> {
    let mut reader = Reader::new(bytes);
    let mut v = OpeningVisitor {
        games: 0,
        error: None,
        max_plies: max_plies.unwrap_or(u32::MAX),
    };
    let mut out = Vec::new();
    loop {
        let next = reader
            .read_game(&mut v)
            .map_err(|e| ConfigError::Openings {
                path: path.to_owned(),
                line: 0,
                message: format!("game {}: {e}", v.games),
            })?;
        match next {
            None => break,
            Some(Ok(fen)) => out.push(fen),
            Some(Err(message)) => {
                return Err(ConfigError::Openings {
                    path: path.to_owned(),
                    line: 0,
                    message: format!("game {}: {message}", v.games),
                })
            }
        }
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
    fn pgn_with_illegal_move_is_an_error() {
        let f = file(".pgn", "[Event \"a\"]\n\n1. e4 e4 *\n");
        assert!(load_openings(f.path(), GameKind::Chess).is_err());
    }
}
